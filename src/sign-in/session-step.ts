import type { RequestHandler } from 'express';
import type { AuthUser } from '../sessions/auth-user';
import { signInRefused, type SignInInfo } from './sign-in-result';
import type { AuthCookies } from './cookies';
import type { IssuedToken, TokenService } from '../sessions/token.service';
import type { SessionService } from '../services/security/session.service';
import type { ProfileService } from '../services/accounts/profile.service';
import type { ActivityAction, ActivityService } from '../services/operations/activity.service';
import { requestContext } from '../http/request-context';
import { safeRedirect } from '../http/safe-redirect';
import { wantsPage } from '../http/pages';
import type { Metrics } from '../metrics/metrics';
import type { SecondFactor } from './second-factor';
import type { DeviceCookies } from './device-cookies';
import { normalizeEmail } from '../util/account-text';

/** Where a page request lands after signing in, unless it carried a same-origin `redirect`. */
export const AFTER_SIGN_IN = '/admin';

export interface SessionStepOptions {
  /** The JSON answer's status (201 for registration). */
  status?: number;
  /** `lax` only where a cross-site redirect must carry the cookies (the OAuth callback). */
  sameSite?: 'strict' | 'lax';
  /** Always answer with a redirect (flows that arrive by a link or a provider, never by fetch). */
  redirect?: boolean;
}

/** Hooks a sign-in method may add to the shared step (the server session of a magic link, say). */
export type SessionExtension = (req: Parameters<RequestHandler>[0], issued: IssuedToken) => Promise<void>;

/**
 * An extension is named (registered with the step) when a deferred sign-in must be able to run it later:
 * the second step of a magic-link sign-in ends on another route, which runs the extension the first
 * step named.
 */
export type SessionExtensions = Readonly<Record<string, SessionExtension>>;

/**
 * The one step that ends every sign-in, whatever the method: a session, its token, the `auth_token` + `csrf_token`
 * cookies, the activity row, then `{ user, token }` for JSON clients or a redirect for pages. Methods
 * differ only in the strategy before it, so cookies, flags, revocation and audit cannot drift apart.
 */
export function createSessionStep(deps: {
  tokens: Pick<TokenService, 'issue'>;
  userSessions: Pick<SessionService, 'start' | 'discard'>;
  cookies: AuthCookies;
  activity: ActivityService;
  profiles: Pick<ProfileService, 'presentUser'>;
  metrics?: Pick<Metrics, 'signIn' | 'sessions'>;
  /**
   * The second-factor point (CONTRACT 9): consulted after every first factor, before any session. A user
   * with a second factor gets a challenge instead, unless the first factor already proved one.
   */
  secondFactor?: Pick<SecondFactor, 'begin' | 'respond'>;
  extensions?: SessionExtensions;
  /** Device cookies (issue 51): a password sign-in's browser is a known device from then on. */
  devices?: Pick<DeviceCookies, 'issue'>;
}) {
  const { tokens, userSessions, cookies, activity, profiles, metrics, secondFactor, devices, extensions = {} } = deps;

  return function issueSession(action: ActivityAction, options: SessionStepOptions & { extend?: SessionExtension | string } = {}): RequestHandler {
    return async (req, res) => {
      const user = req.user as AuthUser;
      const info = (req.authInfo ?? {}) as Partial<SignInInfo>;
      // Registration is the one way in without a strategy (and so without a method).
      const method = info.method ?? 'registration';
      const body = req.body as Record<string, unknown> | undefined;
      const query = req.query as Record<string, unknown>;
      const target = safeRedirect(info.redirect) ?? safeRedirect(body?.redirect) ?? safeRedirect(query.redirect);
      const asPage = Boolean(options.redirect) || wantsPage(req);
      const extensionName = typeof options.extend === 'string' ? options.extend : info.extension;
      const extend = typeof options.extend === 'function' ? options.extend : extensionName ? extensions[extensionName] : undefined;

      // The second step: no session, no token, no auth cookie yet; the first factor's credential is spent all the same.
      const deferred = secondFactor && !info.secondFactor && info.method
        ? await secondFactor.begin(user, { action, method, details: info.details, redirect: target, ...(extensionName ? { extension: extensionName } : {}) })
        : null;
      if (deferred) {
        const refused = info.spend ? await info.spend() : null;
        if (refused) {
          await deferred.discard();
          metrics?.signIn(method, 'failure');
          if (refused.audit) await activity.record(refused.audit, requestContext(req));
          throw signInRefused(refused);
        }
        secondFactor?.respond(res, deferred, asPage);
        return;
      }
      const context = requestContext(req);
      const details = { ...(info.method ? { method: info.method } : {}), ...info.details };
      const audit = { action: info.action ?? action, userId: user.id, email: user.email, details };
      // A sign-in with nothing left to fail after its session (no one-time credential to spend, no extension) commits
      // its activity row with the session row (issue 51: one commit); the others write it once they completed.
      const auditWithSession = !info.spend && !extend;
      // Every sign-in is one session (CONTRACT 8): its row first, then the token that names it.
      const session = await userSessions.start(user, method, context, auditWithSession ? { audit } : {});
      const issued = await tokens.issue(user, session);
      // Last of the steps that can fail on the database: a one-time credential is spent only for a sign-in
      // that then completes (the activity row below never fails the request).
      const refused = info.spend ? await info.spend() : null;
      if (refused) {
        await userSessions.discard(session.sid);
        metrics?.signIn(method, 'failure');
        if (refused.audit) await activity.record(refused.audit, context);
        throw signInRefused(refused);
      }
      // Before any cookie is set: a method whose extension fails signs nobody in.
      if (extend) await extend(req, issued);
      cookies.set(res, issued, options.sameSite);
      // A sign-in that began with the password (second step or not) makes this browser a known device (issue 51).
      if (devices && (method === 'password' || method.startsWith('password+'))) cookies.device(res, devices.issue(normalizeEmail(user.email)));
      metrics?.signIn(method, 'success');
      metrics?.sessions.created.inc();
      if (!auditWithSession) await activity.record(audit, context);
      if (asPage) {
        res.redirect(302, target ?? AFTER_SIGN_IN);
        return;
      }
      res.status(options.status ?? 200).json({ user: profiles.presentUser(user), token: issued.token });
    };
  };
}

export type IssueSession = ReturnType<typeof createSessionStep>;
