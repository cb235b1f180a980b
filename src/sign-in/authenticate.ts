import type { RequestHandler } from 'express';
import type { AuthPassport } from './passport';
import type { AuthUser } from '../sessions/auth-user';
import { requestContext } from '../http/request-context';
import { continueTo } from '../http/pages';
import type { ActivityService } from '../services/operations/activity.service';
import { signInRefused, type SignInFailure, type SignInInfo } from './sign-in-result';
import type { Metrics } from '../metrics/metrics';
import type { Events } from '../services/operations/webhooks.service';

/**
 * `authenticate('<strategy>')` for sign-in route lines: runs the strategy without a server session; on
 * success sets req.user and req.authInfo for the session step; on failure records the strategy's audit
 * row and answers its message with its status (401 unless the strategy says otherwise), or redirects
 * where the failure names a page (flows a browser reaches by redirect, such as an OAuth callback).
 */
export function createAuthenticate(deps: { passport: AuthPassport; activity: ActivityService; metrics?: Pick<Metrics, 'signIn'>; events: Pick<Events, 'record' | 'recordForUser'> }) {
  const { passport, activity, metrics, events } = deps;

  return function authenticate(strategy: string): RequestHandler {
    return (req, res, next) => {
      const done = (err: unknown, user: AuthUser | false, info?: SignInInfo | SignInFailure, status?: number) => {
        if (err) return next(err);
        if (user) {
          req.user = user;
          req.authInfo = (info ?? {}) as SignInInfo;
          return next();
        }
        const failure = (info ?? { message: 'Authentication required' }) as SignInFailure;
        const refuse = () => {
          if (failure.redirect) return failure.landing ? continueTo(res, failure.redirect) : res.redirect(302, failure.redirect);
          next(signInRefused(failure, status));
        };
        if (!failure.audit) return refuse();
        // Only audited refusals are failed sign-ins (a refused provider link is not one). The audit's method is
        // the strategy's own (password, otp, magic_link, a provider the route's schema accepted): a fixed set.
        const method = failure.audit.details?.method;
        metrics?.signIn(typeof method === 'string' ? method : strategy, (failure.status ?? status) === 429 ? 'throttled' : 'failure');
        // CONTRACT 16: sign_in.failed, with the account when the refusal names one (written only when an endpoint listens).
        // Beside the activity row, not in a transaction with it: a refusal changes nothing that could roll back, the
        // row is best effort (a repeat is a count in the store), and a transaction would add BEGIN and COMMIT to every
        // refused sign-in and queue them one by one on SQLite, an attack's cheapest request made dearer.
        const { userId, email, details } = failure.audit;
        const facts = { method: details?.method ?? strategy, reason: details?.reason ?? null };
        const event = userId ? events.recordForUser('sign_in.failed', userId, facts) : events.record('sign_in.failed', { email, ...facts });
        Promise.all([activity.record(failure.audit, requestContext(req)), event]).then(refuse, next);
      };
      passport.authenticate(strategy, { session: false, failWithError: false }, done)(req, res, next);
    };
  };
}
