import { Passport } from 'passport';
import type { TokenService } from './token.service';
import { createLocalStrategy } from './local.strategy';
import type { PasswordLogin } from './password-login';
import { OtpStrategy } from './otp.strategy';
import type { OtpService } from '../services/otp.service';
import { MagicLinkStrategy } from './magic-link.strategy';
import type { MagicLinkService } from '../services/magic-link.service';
import { SessionStrategy } from './session.strategy';
import { OAuthCallbackStrategy } from './oauth.strategy';
import type { OAuthProviders } from './oauth-providers';
import type { OAuthService } from '../services/oauth.service';

/** Strategy names, so routes never spell them twice. */
export const STRATEGY = { session: 'auth-session', local: 'local', otp: 'otp', magicLink: 'magic-link', oauth: 'oauth' } as const;

/**
 * The one place strategies are registered. Access tokens are not among them: every guard checks them
 * directly (`createTokenCheck`, jwt.strategy.ts), the hottest path of the service. Each app gets its own Passport instance (not the module
 * singleton), so two apps in one process never share strategies. Passport's own session support is never
 * used: the magic-link server session is read by the `auth-session` strategy like a credential.
 */
export function createPassport(deps: {
  tokens: Pick<TokenService, 'verify'>;
  passwordLogin: PasswordLogin;
  otp: Pick<OtpService, 'verify'>;
  magicLinks: Pick<MagicLinkService, 'consume'>;
  oauthProviders: OAuthProviders;
  oauth: Pick<OAuthService, 'signIn' | 'link'>;
}): InstanceType<typeof Passport> {
  const passport = new Passport();
  passport.use(STRATEGY.local, createLocalStrategy(deps.passwordLogin));
  passport.use(STRATEGY.session, new SessionStrategy(deps.tokens));
  passport.use(STRATEGY.otp, new OtpStrategy(deps.otp));
  passport.use(STRATEGY.magicLink, new MagicLinkStrategy(deps.magicLinks));
  passport.use(STRATEGY.oauth, new OAuthCallbackStrategy({ providers: deps.oauthProviders, oauth: deps.oauth }));
  return passport;
}

export type AuthPassport = InstanceType<typeof Passport>;
