import type { Config } from '../../config/config';
import { toPublicUser, type AccessClaims, type AuthUser, type PublicUser } from '../../sessions/auth-user';
import type { IssuedToken, TokenService } from '../../sessions/token.service';
import type { ProfileService } from '../accounts/profile.service';
import type { RequestContext } from '../../http/request-context';
import type { ActivityService } from '../operations/activity.service';
import { USER_MESSAGES, type UserService } from '../accounts/user.service';
import { AppError } from '../../http/app-error';
import type { Metrics } from '../../metrics/metrics';
import type { SessionService } from '../security/session.service';
import type { EmailVerificationService } from '../accounts/email-verification.service';
import type { CredentialSet } from '../security/credential-set/credential-set';

export const AUTH_MESSAGES = {
  invalidCredentials: 'Invalid email or password',
  invalidToken: 'Invalid or expired token',
  inactive: 'User is not active',
  adminCreated: 'Admin user created',
  sessionExpired: 'Session expired, sign in again',
} as const;

export interface RegistrationInput {
  email: string;
  password: string;
  username?: string;
  firstName?: string;
  lastName?: string;
  /** The registrationFields as sent (top-level keys of the body); validated here by the profiles seam. */
  custom: Record<string, unknown>;
}

/**
 * Session flows behind /auth besides sign-in itself (strategies + the session step): registration,
 * refresh, sign-out and the bootstrap admin. Knows nothing of HTTP: the controller passes parsed input
 * and a request context, and turns the results into cookies and bodies.
 */
export function createAuthService(deps: {
  config: Config;
  users: UserService;
  tokens: TokenService;
  userSessions: Pick<SessionService, 'start' | 'endById' | 'refreshed' | 'reuseDetected'>;
  activity: ActivityService;
  profiles: Pick<ProfileService, 'validateRegistration'>;
  metrics?: Pick<Metrics, 'sessions'>;
  /** A password registration mails a verification link (CONTRACT 12). */
  verification: Pick<EmailVerificationService, 'registered'>;
  credentials: Pick<CredentialSet, 'end'>;
}) {
  const { config, users, tokens, userSessions, activity, profiles, metrics } = deps;

  /**
   * POST /auth/register: 403 while registration is off (unless this is the very first user). Returns the
   * new user for the shared session step, which issues the token and records `auth.register`.
   */
  async function register(input: RegistrationInput): Promise<AuthUser> {
    const custom = profiles.validateRegistration(input.custom);
    if (!custom.ok) throw AppError.validation(custom.errors);
    const user = await users.signUp(
      {
        email: input.email,
        password: input.password,
        username: input.username,
        firstName: input.firstName,
        lastName: input.lastName,
        profile: custom.value,
      },
      { selfRegistered: true },
    );
    deps.verification.registered(user);
    return { ...toPublicUser(user), tokenEpoch: user.tokenEpoch, profileData: custom.value };
  }

  /**
   * POST /auth/refresh: a valid token, or one expired within the grace window, of an active user and a live
   * session within its absolute lifetime. The new token continues the session (its sid and auth_time: a
   * refresh is no proof of a recent sign-in); the presented one is superseded. A superseded token presented
   * after the reuse window is a copy in someone else's hands: its session ends (CONTRACT 8 reuse detection).
   */
  async function refresh(token: string | null, context: RequestContext): Promise<IssuedToken> {
    const check = token ? await tokens.checkForRefresh(token) : ({ ok: false, reason: 'invalid' } as const);
    if (!check.ok) {
      if (check.reason === 'revoked') await userSessions.reuseDetected(check.claims, context);
      throw AppError.unauthorized(check.reason === 'inactive' ? AUTH_MESSAGES.inactive : AUTH_MESSAGES.invalidToken);
    }
    const audit = { action: 'auth.refresh', userId: check.user.id, email: check.user.email } as const;
    const outcome = await userSessions.refreshed(check.claims, context, audit);
    if (!outcome.ok) throw AppError.unauthorized(outcome.reason === 'expired' ? AUTH_MESSAGES.sessionExpired : AUTH_MESSAGES.invalidToken);
    return tokens.issue(check.user, outcome.session);
  }

  /**
   * POST /auth/logout: the sign-in of the token used ends at once: that token and every other token of its
   * refresh chain (CONTRACT 8 "logout ends the session"). That includes a token past its expiry but
   * still inside the refresh grace window: it no longer signs requests in, but it could still be
   * exchanged at /auth/refresh, so it is revoked like a valid one.
   */
  async function logout(signedIn: { user: AuthUser; token: string; claims: AccessClaims } | null, presented: string | null, context: RequestContext): Promise<void> {
    let ending = signedIn;
    if (!ending && presented) {
      const check = await tokens.checkForRefresh(presented);
      if (check.ok) ending = { user: check.user, token: presented, claims: check.claims };
    }
    if (!ending) return;
    await tokens.revokeToken(ending.token, ending.claims);
    // The session ends with it: every token of the sign-in (counted where every ended session is).
    await userSessions.endById(ending.claims.sid);
    await activity.record({ action: 'auth.logout', userId: ending.user.id, email: ending.user.email, details: { scope: 'token' } }, context);
  }

  /** POST /auth/logout-all: every token of the user ends. */
  async function logoutAll(user: AuthUser, context: RequestContext): Promise<void> {
    await deps.credentials.end('sign-out-everywhere', user.id);
    metrics?.sessions.revoked.inc();
    await activity.record({ action: 'auth.logout', userId: user.id, email: user.email, details: { scope: 'all' } }, context);
  }

  /**
   * POST /auth/seed-admin: creates an admin only while none exists (decided under the user-creation lock),
   * from the body or ADMIN_EMAIL / ADMIN_PASSWORD. Never touches an existing account.
   */
  async function seedAdmin(input: { email?: string; password?: string }, context: RequestContext): Promise<{ message: string; user: PublicUser }> {
    if (await users.adminExists()) throw AppError.conflict(USER_MESSAGES.adminExists);
    const email = input.email ?? config.adminEmail;
    const password = input.password ?? config.adminPassword;
    const errors: Record<string, string> = {};
    if (!email) errors.email = 'Required (or set ADMIN_EMAIL)';
    // The body's password passed the route's rule and ADMIN_PASSWORD the config's: both are newPassword's.
    if (!password) errors.password = 'Required (or set ADMIN_PASSWORD)';
    if (Object.keys(errors).length > 0) throw AppError.validation(errors);
    const user = await users.createUser({ email: email as string, password, role: 'admin' }, { onlyIf: 'no-admin' });
    await activity.record(
      { action: 'user.created', userId: user.id, email: user.email, details: { role: user.role, via: 'seed-admin' } },
      context,
    );
    return { message: AUTH_MESSAGES.adminCreated, user: toPublicUser(user) };
  }

  return { register, refresh, logout, logoutAll, seedAdmin };
}
