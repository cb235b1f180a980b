import type { Request, Response } from 'express';
import { Strategy } from 'passport-strategy';
import { AuthorizationError, TokenError, type VerifyCallback } from 'passport-oauth2';
import { AppError } from '../http/app-error';
import { requestContext } from '../http/request-context';
import { continueTo } from '../http/pages';
import { providerNotice, withNotice, type NoticeCode, type ProviderNoticeKey } from '../http/notices';
import { toAuthUser } from '../sessions/auth-user';
import { type OAuthProviders, type ProviderProfile } from '../oauth/oauth-providers';
import { PROVIDER_LABELS } from '../models/oauth-provider-names';
import type { OAuthStateStore, StateFailureReason } from '../oauth/oauth-state';
import type { OAuthProviderName } from '../models/oauth-provider-names';
import { OAUTH_OUTCOME_MESSAGES, type OAuthRefusal, type OAuthService } from '../services/sign-in-methods/oauth.service';
import type { SignInFailure } from './sign-in-result';
import { accountPage } from '../http/account-sections';

/** Where a linking flow ends (CONTRACT 4), and where a failed sign-in callback sends the browser. */
export const LINK_LANDING = accountPage('security');
const SIGN_IN_PAGE = '/auth/login';

export const OAUTH_CALLBACK_MESSAGES = {
  state: 'Sign-in could not be completed: the request expired, was already used, or was started in another browser. Please try again.',
  provider: (label: string) => `Sign-in with ${label} was cancelled or failed. Please try again.`,
  disabled: (label: string) => `Sign-in with ${label} is not available.`,
  otherUser: 'The account link was completed while another user was signed in. Sign in as the user who started it and try again.',
} as const;

type CallbackFailureReason = OAuthRefusal | StateFailureReason | 'missing_code' | 'provider_denied' | 'provider_error' | 'token_failed' | 'profile_failed' | 'provider_disabled' | 'other_user';

const plain = (code: NoticeCode) => () => code;
const named = (key: ProviderNoticeKey) => (provider: OAuthProviderName) => providerNotice(provider, key);

/** The notice (src/http/notices.ts) the page shows for each reason a callback was refused. */
const CALLBACK_NOTICES: Readonly<Record<CallbackFailureReason, (provider: OAuthProviderName) => NoticeCode>> = {
  state_missing: plain('oauth_state'),
  state_invalid: plain('oauth_state'),
  state_other_browser: plain('oauth_state'),
  other_user: plain('oauth_other_user'),
  registration_disabled: plain('oauth_registration_disabled'),
  inactive: plain('oauth_inactive'),
  user_unavailable: plain('oauth_user_unavailable'),
  no_email: named('no_email'),
  unverified_email: named('unverified_email'),
  provider_already_linked: named('provider_already_linked'),
  linked_to_other: named('linked_to_other'),
  link_ended: named('link_ended'),
  provider_disabled: named('disabled'),
  missing_code: named('sign_in_failed'),
  provider_denied: named('sign_in_failed'),
  provider_error: named('sign_in_failed'),
  token_failed: named('sign_in_failed'),
  profile_failed: named('sign_in_failed'),
};

/** Which step of passport-oauth2 failed, for the activity row (the user reads one message for all). */
function providerFailure(err: unknown): CallbackFailureReason {
  if (err instanceof AuthorizationError) return 'provider_error';
  if (err instanceof TokenError || (err instanceof Error && /access token/i.test(err.message))) return 'token_failed';
  return 'profile_failed';
}

/**
 * The OAuth callback (`GET /auth/oauth/:provider/callback`) as a Passport strategy: it builds the
 * provider's passport-oauth2 strategy from the current settings, lets it check and consume the state,
 * exchange the code (with the PKCE verifier) and load the profile, then lets the OAuth service apply the
 * outcome rules. Success hands the user to the session step; every failure is a redirect to the sign-in
 * page (or, for a linking flow, the profile page) with the reason, and no cookies.
 */
export class OAuthCallbackStrategy extends Strategy {
  readonly name = 'oauth';

  constructor(private readonly deps: { providers: OAuthProviders; oauth: Pick<OAuthService, 'signIn' | 'link'> }) {
    super();
  }

  override authenticate(req: Request): void {
    let provider: OAuthProviderName;
    try {
      provider = this.deps.providers.known(String(req.params.provider));
    } catch (err) {
      return this.error(err as Error);
    }
    const label = PROVIDER_LABELS[provider];
    const query = req.query as Record<string, unknown>;
    const res = req.res as Response;
    const refuse = (reason: CallbackFailureReason, message: string, linking = false, user: { id: string; email: string } | null = null) =>
      this.refuse(provider, reason, message, linking, user);

    // Four parameters: passport-oauth2 picks the (accessToken, refreshToken, profile, done) form by arity. The
    // tokens are used for nothing else and never kept; `done` is not called: this strategy answers itself.
    const verify = (states: OAuthStateStore) => (_access: string, _refresh: string, profile: ProviderProfile, _done: VerifyCallback) => {
      const record = states.record;
      if (!record) return refuse('state_invalid', OAUTH_CALLBACK_MESSAGES.state);
      const identity = this.deps.providers.identityOf(provider, profile);
      const context = requestContext(req);
      if (record.linkUserId) {
        // A credential that arrived with the callback and names someone else: never link to the wrong person.
        if (req.user && req.user.id !== record.linkUserId) return refuse('other_user', OAUTH_CALLBACK_MESSAGES.otherUser, true);
        this.deps.oauth.link({ userId: record.linkUserId, tokenEpoch: record.linkEpoch }, identity, context).then((outcome) => {
          if (!outcome.ok) return refuse(outcome.reason, OAUTH_OUTCOME_MESSAGES[outcome.reason](label), true);
          // No session: the browser that started the link is signed in already, and a callback must never
          // hand a session to whoever completes it (finding 2 of the review). Only the notice.
          continueTo(res, withNotice(LINK_LANDING, providerNotice(provider, 'linked')));
        }, (err: unknown) => this.error(err as Error));
        return;
      }
      this.deps.oauth.signIn(identity, context).then((outcome) => {
        if (!outcome.ok) return refuse(outcome.reason, OAUTH_OUTCOME_MESSAGES[outcome.reason](label), false, outcome.user);
        const details = { ...(outcome.created ? { created: true, role: outcome.user.role } : {}), ...(outcome.linked ? { linked: true } : {}) };
        this.success(toAuthUser(outcome.user), { method: provider, details, redirect: record.redirect });
      }, (err: unknown) => this.error(err as Error));
    };

    this.deps.providers.strategyFor(provider, res, {}, verify).then(
      ({ strategy, states }) => {
        // The inner strategy only reports failures: success is decided by the verify function above.
        strategy.success = () => undefined;
        strategy.redirect = () => refuse('missing_code', OAUTH_CALLBACK_MESSAGES.provider(label));
        strategy.fail = (challenge?: unknown) => {
          const reason = (challenge as { reason?: StateFailureReason } | undefined)?.reason;
          if (reason) return refuse(reason, OAUTH_CALLBACK_MESSAGES.state);
          refuse('provider_denied', OAUTH_CALLBACK_MESSAGES.provider(label));
        };
        strategy.error = (err: unknown) => refuse(providerFailure(err), OAUTH_CALLBACK_MESSAGES.provider(label));

        if (typeof query.error === 'string') {
          // The provider refused before any code: consume the state anyway, to know where to send the browser.
          states.verify(req, query.state, null, (_err, ok) => refuse('provider_denied', OAUTH_CALLBACK_MESSAGES.provider(label), Boolean(ok && states.record?.linkUserId)));
          return;
        }
        if (typeof query.code !== 'string' || query.code === '') return refuse('missing_code', OAUTH_CALLBACK_MESSAGES.provider(label));
        strategy.authenticate(req);
      },
      (err: unknown) => {
        if (err instanceof AppError && err.status === 400) return refuse('provider_disabled', OAUTH_CALLBACK_MESSAGES.disabled(label));
        this.error(err as Error);
      },
    );
  }

  private refuse(provider: OAuthProviderName, reason: CallbackFailureReason, message: string, linking: boolean, user: { id: string; email: string } | null): void {
    const failure: SignInFailure = {
      message,
      redirect: withNotice(linking ? LINK_LANDING : SIGN_IN_PAGE, CALLBACK_NOTICES[reason](provider)),
      // The profile page needs the Strict auth cookie, which a redirect chain from the provider does not carry.
      landing: linking,
      // A refused link is not a failed sign-in: only sign-in callbacks leave an auth.login_failed row.
      ...(linking ? {} : { audit: { action: 'auth.login_failed' as const, userId: user?.id ?? null, email: user?.email ?? null, details: { method: provider, reason } } }),
    };
    this.fail(failure, 302);
  }
}
