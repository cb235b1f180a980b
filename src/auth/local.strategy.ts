import { Strategy as LocalStrategy } from 'passport-local';
import type { PasswordLogin, PasswordLoginResult } from './password-login';

export const INVALID_CREDENTIALS = 'Invalid email or password';

/** What the strategy hands to passport's callback besides the user: the check's full outcome. */
export interface LocalAuthInfo {
  message: string;
  result: PasswordLoginResult;
}

/**
 * passport-local over `email` + `password` from the (already validated) body; no server session.
 * Wrong credentials are a `fail` carrying the outcome; a thrown error is an `error`.
 */
export function createLocalStrategy(login: PasswordLogin) {
  return new LocalStrategy({ usernameField: 'email', passwordField: 'password', session: false }, (email, password, done) => {
    login.check(email, password).then(
      (result) => {
        const info = { message: INVALID_CREDENTIALS, result } satisfies LocalAuthInfo;
        return result.ok ? done(null, result.user, info) : done(null, false, info);
      },
      (err: unknown) => done(err),
    );
  });
}
