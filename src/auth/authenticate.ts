import type { RequestHandler } from 'express';
import type { AuthPassport } from './passport';
import type { AuthUser } from './auth-user';
import { requestContext } from '../http/request-context';
import type { ActivityService } from '../services/activity.service';
import { signInRefused, type SignInFailure, type SignInInfo } from './sign-in-result';

/**
 * `authenticate('<strategy>')` for sign-in route lines: runs the strategy without a server session; on
 * success sets req.user and req.authInfo for the session step; on failure records the strategy's audit
 * row and answers its message with its status (401 unless the strategy says otherwise).
 */
export function createAuthenticate(deps: { passport: AuthPassport; activity: ActivityService }) {
  const { passport, activity } = deps;

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
        const refuse = () => next(signInRefused(failure, status));
        if (!failure.audit) return refuse();
        activity.record(failure.audit, requestContext(req)).then(refuse, next);
      };
      passport.authenticate(strategy, { session: false, failWithError: false }, done)(req, res, next);
    };
  };
}
