import { Strategy as LocalStrategy } from 'passport-local';
import type { PasswordLogin, PasswordLoginResult } from './password-login';
export declare const INVALID_CREDENTIALS = "Invalid email or password";
/** What the strategy hands to passport's callback besides the user: the check's full outcome. */
export interface LocalAuthInfo {
    message: string;
    result: PasswordLoginResult;
}
/**
 * passport-local over `email` + `password` from the (already validated) body; no server session.
 * Wrong credentials are a `fail` carrying the outcome; a thrown error is an `error`.
 */
export declare function createLocalStrategy(login: PasswordLogin): LocalStrategy;
