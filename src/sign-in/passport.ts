import { Passport } from 'passport';
import { createLocalStrategy } from './local.strategy';
import type { PasswordLogin } from './password-login';
import { OtpStrategy, type OtpPluginOf } from './otp.strategy';
import type { OtpService } from '../services/sign-in-methods/otp.service';
import { MagicLinkStrategy } from './magic-link.strategy';
import type { MagicLinkService } from '../services/sign-in-methods/magic-link.service';
import { OAuthCallbackStrategy } from './oauth.strategy';
import type { OAuthProviders } from '../oauth/oauth-providers';
import type { OAuthService } from '../services/sign-in-methods/oauth.service';
import { PasskeyStrategy } from './passkey.strategy';
import type { PasskeyService } from '../services/sign-in-methods/passkey.service';
import { SecondFactorStrategy } from './second-factor.strategy';
import type { SecondFactor } from './second-factor';
import type { Strategy } from 'passport-strategy';

/** Strategy names, so routes never spell them twice. */
export const STRATEGY = { local: 'local', otp: 'otp', magicLink: 'magic-link', oauth: 'oauth', passkey: 'passkey', secondFactor: 'second-factor', ssoOidc: 'sso-oidc', ssoSaml: 'sso-saml-sign-in' } as const;

/**
 * The one place the sign-in strategies are registered. The credentials of an already signed-in request
 * (access token, server session) are not among them: every guard checks those directly
 * (token-check.ts, session-check.ts), on the hottest paths of the service. Each app gets its own Passport
 * instance (not the module singleton), so two apps in one process never share strategies. Passport's own
 * session support is never used.
 */
export function createPassport(deps: {
  passwordLogin: PasswordLogin;
  otp: Pick<OtpService, 'verify'>;
  otpPlugin: OtpPluginOf;
  magicLinks: Pick<MagicLinkService, 'consume'>;
  oauthProviders: OAuthProviders;
  oauth: Pick<OAuthService, 'signIn' | 'link'>;
  passkeys: Pick<PasskeyService, 'verifyLogin'>;
  secondFactor: Pick<SecondFactor, 'answer' | 'challengeOf'>;
  /** Enterprise single sign-on (CONTRACT 15): the OpenID Connect callback, built with its providers (src/sign-in/sso). */
  ssoOidc: Strategy;
  /** Enterprise single sign-on: SAML's start and ACS (the protocol strategy with the accounts rules after it). */
  ssoSaml: Strategy;
}): InstanceType<typeof Passport> {
  const passport = new Passport();
  passport.use(STRATEGY.local, createLocalStrategy(deps.passwordLogin));
  passport.use(STRATEGY.otp, new OtpStrategy(deps.otp, deps.otpPlugin));
  passport.use(STRATEGY.magicLink, new MagicLinkStrategy(deps.magicLinks));
  passport.use(STRATEGY.oauth, new OAuthCallbackStrategy({ providers: deps.oauthProviders, oauth: deps.oauth }));
  passport.use(STRATEGY.passkey, new PasskeyStrategy(deps.passkeys));
  passport.use(STRATEGY.secondFactor, new SecondFactorStrategy(deps.secondFactor));
  passport.use(STRATEGY.ssoOidc, deps.ssoOidc);
  passport.use(STRATEGY.ssoSaml, deps.ssoSaml);
  return passport;
}

export type AuthPassport = InstanceType<typeof Passport>;
