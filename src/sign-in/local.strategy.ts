import { Strategy as LocalStrategy, type IVerifyOptions } from 'passport-local';
import type { PasswordLogin } from './password-login';
import { type SignInFailure, type SignInInfo, throttledSignIn } from './sign-in-result';
import { AUTH_MESSAGES } from '../services/sign-in-methods/auth.service';
import { EMAIL_VERIFICATION_MESSAGES } from '../services/accounts/email-verification.service';
import { DEVICE_COOKIE } from './device-cookies';

/**
 * passport-local over `email` + `password` from the validated body. Unknown email, wrong password and a
 * deactivated account are one failure (the same 401); the reason goes only to the activity row. An email
 * with too many recent failures gets 429 (account throttle); a machine whose hashing queue is full for this
 * browser's lane, 429 too (issue 51). The browser's device cookie goes in (the session step gives a new one).
 */
export function createLocalStrategy(login: PasswordLogin) {
  return new LocalStrategy({ usernameField: 'email', passwordField: 'password', session: false, passReqToCallback: true }, (req, email, password, done) => {
    login.check(email, password, (req.cookies as Record<string, string> | undefined)?.[DEVICE_COOKIE]).then((result) => {
      if (result.ok) {
        const info: SignInInfo = { method: 'password', details: result.passwordRehashed ? { passwordRehashed: true } : {} };
        // passport forwards the third argument untouched: it is the session step's SignInInfo, not a message.
        return done(null, result.user, info as unknown as IVerifyOptions);
      }
      if (result.reason === 'throttled') return done(null, false, throttledSignIn({ method: 'password', ...result }));
      const audit = { action: 'auth.login_failed' as const, userId: result.userId, email: result.email, details: { method: 'password', reason: result.reason } };
      // Only the right password learns that the address is unverified (CONTRACT 12: 403, a new link mailed).
      const failure: SignInFailure =
        result.reason === 'email_not_verified' ? { message: EMAIL_VERIFICATION_MESSAGES.notVerified, status: 403, audit } : { message: AUTH_MESSAGES.invalidCredentials, audit };
      return done(null, false, failure);
    }, done);
  });
}
