import crypto from 'node:crypto';
import { ctx, uniqueEmail, type TestContext } from './context';
import { createSettingsService } from '../../src/services/operations/settings.service';
import { createActivityService } from '../../src/services/operations/activity.service';
import { createTokenService, type SignInSession, type TokenService } from '../../src/sessions/token.service';
import { createAuthUserRecords } from '../../src/sessions/auth-user-records';
import { createRevocations } from '../../src/sessions/revocations';
import { createSigningKeys } from '../../src/sessions/signing-keys';
import type { Role, User } from '../../src/models';

/** Columns a test may set on its user; everything else gets a unique or default value. */
export interface TestUserOverrides {
  email?: string;
  username?: string;
  firstName?: string | null;
  lastName?: string | null;
  active?: boolean;
  passwordHash?: string | null;
  /** Verified unless false (CONTRACT 12). */
  emailVerified?: boolean;
  /** Signed itself up (CONTRACT 18): with emailVerified false, the account is "unverified". Default false (vouched for). */
  selfRegistered?: boolean;
}

const tokenServices = new WeakMap<TestContext, TokenService>();

/** A token service over the run's database, store and secret: tokens it signs work against ctx().app. */
function tokenService(): TokenService {
  const c = ctx();
  let service = tokenServices.get(c);
  if (!service) {
    const settings = createSettingsService({ config: c.config, models: c.models, activity: createActivityService({ sequelize: c.sequelize, models: c.models, logger: c.logger }), store: c.store, logger: c.logger });
    const revocations = createRevocations({ models: c.models, store: c.store, logger: c.logger });
    const signingKeys = createSigningKeys({ config: c.config, models: c.models, store: c.store, settings, logger: c.logger });
    service = createTokenService({ config: c.config, models: c.models, authUsers: createAuthUserRecords(c.sequelize), store: c.store, settings, revocations, signingKeys, logger: c.logger });
    tokenServices.set(c, service);
  }
  return service;
}

/** Creates a user row with the given role (and its empty profile row) directly in the database. */
export async function createTestUser(role: Role = 'viewer', overrides: TestUserOverrides = {}): Promise<User> {
  const { models } = ctx();
  const email = overrides.email ?? uniqueEmail(role);
  const user = await models.User.create({
    id: crypto.randomUUID(),
    email,
    username: overrides.username ?? `${role}_${crypto.randomBytes(5).toString('hex')}`,
    firstName: overrides.firstName ?? null,
    lastName: overrides.lastName ?? null,
    role,
    active: overrides.active ?? true,
    passwordHash: overrides.passwordHash ?? null,
    emailVerifiedAt: overrides.emailVerified === false ? null : new Date(),
    selfRegistered: overrides.selfRegistered ?? false,
  });
  await models.UserProfile.create({ userId: user.id, data: {} });
  return user;
}

/**
 * Signs an access token for the user as it is stored now (role, token epoch), of a new session row (a sign-in
 * now, as the session step makes one) or of `session` (its row made here if missing: refresh needs it).
 */
export async function tokenFor(user: Pick<User, 'id'>, session?: SignInSession): Promise<string> {
  const { models } = ctx();
  const fresh = await models.User.findByPk(user.id, { rejectOnEmpty: true });
  const signIn = session ?? { sid: crypto.randomUUID(), authTime: Math.floor(Date.now() / 1000) };
  const now = new Date();
  await models.Session.findOrCreate({
    where: { id: signIn.sid },
    defaults: { id: signIn.sid, userId: fresh.id, method: 'password', ip: null, userAgent: null, browser: null, os: null, createdAt: now, lastUsedAt: now, expiresAt: new Date(now.getTime() + 90 * 86_400_000) },
  });
  return (await tokenService().issue(fresh, signIn)).token;
}

/** A new user with the given role and a valid Bearer token for them: `{ user, token }`. */
export async function createUserWithToken(role: Role = 'viewer', overrides: TestUserOverrides = {}): Promise<{ user: User; token: string }> {
  const user = await createTestUser(role, overrides);
  return { user, token: await tokenFor(user) };
}
