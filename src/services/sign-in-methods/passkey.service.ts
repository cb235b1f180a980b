import crypto from 'node:crypto';
import { Op, UniqueConstraintError, type Sequelize, type Transaction } from 'sequelize';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Config } from '../../config/config';
import type { Models } from '../../models';
import type { Passkey } from '../../models/passkey';
import type { KeyValueStore } from '../../store';
import { AppError } from '../../http/app-error';
import type { RequestContext } from '../../http/request-context';
import type { AuthUser } from '../../sessions/auth-user';
import type { AuthUserRecords } from '../../sessions/auth-user-records';
import {
  canonicalCredentialId,
  createPasskeyCeremonies,
  credentialHash,
  decoyCredentials,
  failureReason,
  relyingPartyOf,
  userHandleOf,
  type StoredCredential,
} from '../../credentials/passkeys';
import type { ActivityService } from '../operations/activity.service';
import type { SecurityNotices } from '../security/security-notices';
import type { CredentialSet } from '../security/credential-set/credential-set';
import { normalizeEmail } from '../accounts/user.service';
import { subKey } from '../../credentials/sub-keys';
import type { Events } from '../operations/webhooks.service';
import { changeWithEvent } from '../operations/event-transaction';

export const PASSKEY_MESSAGES = {
  unavailable: 'Passkeys need a host name in BASE_URL',
  signInFailed: 'Passkey sign-in failed',
  registrationFailed: 'Passkey registration failed',
  registrationExpired: 'This passkey registration expired or was already used. Please start again.',
  duplicate: 'This passkey is already registered',
  notFound: 'Passkey not found',
  tooMany: 'You have as many passkeys as an account may have. Remove one first.',
} as const;

/** Passkeys one account may hold: enough for every device a person owns, few enough to list. */
export const MAX_PASSKEYS_PER_USER = 20;
export const PASSKEY_NAME_MAX_LENGTH = 64;

/** A passkey as `GET /auth/passkeys` and the profile page show it (CONTRACT 10). */
export interface PasskeyView {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** Why a passkey sign-in was refused: for the activity row only; every client sees the same 401. */
export type PasskeyLoginFailure =
  | 'challenge' | 'unknown_credential' | 'other_user' | 'user_handle' | 'inactive' | 'counter' | 'removed'
  | 'origin' | 'rp_id' | 'user_verification' | 'signature' | 'invalid_response';

export type PasskeyLoginResult =
  | { ok: true; user: AuthUser; passkeyId: string; userVerified: boolean }
  | { ok: false; reason: PasskeyLoginFailure; userId: string | null; email: string | null };

const toView = (row: Passkey): PasskeyView => ({ id: row.id, name: row.name, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt ?? null });

function storedOf(row: Passkey): StoredCredential {
  const transports = row.transports ? (JSON.parse(row.transports) as string[]) : [];
  return { credentialId: row.credentialId, publicKey: row.publicKey, counter: row.counter, transports };
}

/**
 * Passkeys (CONTRACT 10): registering, listing and removing a user's credentials, and the sign-in check a
 * passport strategy asks. The ceremonies themselves are credentials/passkeys.ts; this keeps the rows. With an
 * IP-address BASE_URL there is no relying party, and every call answers 503 (`available` says so first).
 */
export function createPasskeyService(deps: {
  config: Pick<Config, 'baseUrl' | 'appName' | 'jwtSecret'>;
  sequelize: Sequelize;
  models: Models;
  authUsers: AuthUserRecords;
  store: KeyValueStore;
  activity: ActivityService;
  notices: Pick<SecurityNotices, 'send'>;
  /** An unverified account adds no passkey (CONTRACT 18). */
  credentials: Pick<CredentialSet, 'assertMayAdd'>;
  /** CONTRACT 16: passkey.added and passkey.removed, in the transaction that writes the row. */
  events: Pick<Events, 'recordForUser' | 'listens'>;
}) {
  const { config, sequelize, models, authUsers, activity, notices, credentials, events } = deps;
  const rp = relyingPartyOf(config.baseUrl, config.appName);
  const ceremonies = rp ? createPasskeyCeremonies({ rp, store: deps.store }) : null;

  function ceremony() {
    if (!ceremonies) throw new AppError(503, PASSKEY_MESSAGES.unavailable);
    return ceremonies;
  }

  const rowsOf = (userId: string) => models.Passkey.findAll({ where: { userId }, order: [['createdAt', 'ASC']] });

  async function list(userId: string): Promise<PasskeyView[]> {
    return (await rowsOf(userId)).map(toView);
  }

  /** Creation options for the signed-in user (the route has asked for a recent sign-in). */
  async function registrationOptions(user: AuthUser) {
    const run = ceremony();
    await credentials.assertMayAdd(user.id);
    const rows = await rowsOf(user.id);
    if (rows.length >= MAX_PASSKEYS_PER_USER) throw AppError.conflict(PASSKEY_MESSAGES.tooMany);
    const displayName = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.username;
    return run.registrationOptions({ id: user.id, name: user.email, displayName }, rows.map(storedOf));
  }

  /**
   * Verifies a registration response against the challenge this user was given and stores the credential.
   * A response for no live challenge of this user (expired, used, another's) or one the library refuses is
   * a 400 that stores nothing; a credential already registered (here or by anyone) is a 409.
   */
  async function register(user: AuthUser, response: RegistrationResponseJSON, name: string | undefined, context: RequestContext): Promise<PasskeyView> {
    const run = ceremony();
    await credentials.assertMayAdd(user.id);
    const claimed = await run.claimChallenge(response.response.clientDataJSON);
    if (!claimed || claimed.record.kind !== 'register' || claimed.record.userId !== user.id) throw AppError.badRequest(PASSKEY_MESSAGES.registrationExpired);
    const credential = await run.verifyRegistration(response, claimed.challenge).catch(() => {
      throw AppError.badRequest(PASSKEY_MESSAGES.registrationFailed);
    });
    const count = await models.Passkey.count({ where: { userId: user.id } });
    if (count >= MAX_PASSKEYS_PER_USER) throw AppError.conflict(PASSKEY_MESSAGES.tooMany);
    const created = (transaction?: Transaction) =>
      models.Passkey.create(
        {
          id: crypto.randomUUID(),
          userId: user.id,
          name: name ?? `Passkey ${count + 1}`,
          credentialId: credential.credentialId,
          credentialHash: credentialHash(credential.credentialId),
          publicKey: credential.publicKey,
          counter: credential.counter,
          transports: credential.transports.length > 0 ? JSON.stringify(credential.transports.slice(0, 8)).slice(0, 255) : null,
          deviceType: credential.deviceType,
          backedUp: credential.backedUp,
          createdAt: new Date(),
        },
        { transaction },
      );
    const added = (row: Passkey, transaction: Transaction) => events.recordForUser('passkey.added', user.id, { passkey: { id: row.id, name: row.name } }, { transaction });
    const row = await changeWithEvent({ sequelize, events }, 'passkey.added', created, added).catch((err: unknown) => {
      if (err instanceof UniqueConstraintError) throw AppError.conflict(PASSKEY_MESSAGES.duplicate);
      throw err;
    });
    await activity.record({ action: 'passkey.added', userId: user.id, email: user.email, details: { passkeyId: row.id, name: row.name } }, context);
    notices.send(user.email, {
      subject: 'A passkey was added to your account',
      summary: `A passkey was added to your account (${user.email}): it can now sign in as you.`,
      context,
      chosenName: row.name,
      advice: 'If this was not you, remove the passkey on your profile, change your password and sign out your other sessions.',
    });
    return toView(row);
  }

  /** Removes one of the user's passkeys; false when they have none of that id. */
  async function remove(user: Pick<AuthUser, 'id' | 'email'>, id: string, context: RequestContext): Promise<boolean> {
    const row = await models.Passkey.findOne({ where: { id, userId: user.id } });
    if (!row) return false;
    const removed = await changeWithEvent(
      { sequelize, events },
      'passkey.removed',
      (transaction) => models.Passkey.destroy({ where: { id: row.id }, transaction }),
      async (count, transaction) => {
        if (count > 0) await events.recordForUser('passkey.removed', user.id, { passkey: { id: row.id, name: row.name } }, { transaction });
      },
    );
    if (removed === 0) return false;
    await activity.record({ action: 'passkey.removed', userId: user.id, email: user.email, details: { passkeyId: row.id, name: row.name } }, context);
    return true;
  }

  /**
   * Request options: `{}` for a discoverable passkey (the browser offers what it holds), `{ email }` for that
   * account's passkeys. An email with none (unknown, or no passkey) gets stand-in ids derived from it, so the
   * answer looks and repeats the same as a real account's; the same two queries run either way. No transports
   * for either: a stored transport list (and which ones) is a fact stand-ins could not imitate, and the browser
   * only loses a hint about how to reach the authenticator.
   */
  async function loginOptions(rawEmail: string | undefined) {
    const run = ceremony();
    if (rawEmail === undefined) return run.authenticationOptions(null, { kind: 'login', userId: null });
    const email = normalizeEmail(rawEmail);
    const record = await authUsers.byEmail(email);
    const rows = await rowsOf(record?.user.id ?? '');
    const allow = rows.length > 0 ? rows.map((row) => ({ id: row.credentialId })) : decoyCredentials(subKey(config.jwtSecret, 'passkeyDecoys'), email);
    // Bound to the account asked about (an unknown email to no one: '' matches no user), so another user's passkey cannot answer it.
    return run.authenticationOptions(allow, { kind: 'login', userId: record?.user.id ?? '' });
  }

  /**
   * The sign-in check: the response's challenge (taken, so it is never good twice), its credential (ours,
   * still registered, of the account the options were for), the user handle, then origin, RP ID, signature,
   * counter and, for a second step (`secondStepOf`: the user whose sign-in it completes), user verification.
   * The counter moves forward conditionally, so of two assertions racing with counters the older one loses.
   */
  async function verifyLogin(response: AuthenticationResponseJSON, options: { secondStepOf?: string } = {}): Promise<PasskeyLoginResult> {
    const run = ceremony();
    const refuse = (reason: PasskeyLoginFailure, row?: Passkey | null, email: string | null = null): PasskeyLoginResult => ({ ok: false, reason, userId: row?.userId ?? null, email });
    const claimed = await run.claimChallenge(response.response.clientDataJSON);
    const expected = options.secondStepOf === undefined ? 'login' : 'second_step';
    if (!claimed || claimed.record.kind !== expected || (expected === 'second_step' && claimed.record.userId !== options.secondStepOf)) return refuse('challenge');
    const credentialId = canonicalCredentialId(response.rawId);
    const row = credentialId === null ? null : await models.Passkey.findOne({ where: { credentialHash: credentialHash(credentialId) } });
    if (!row) return refuse('unknown_credential');
    if (claimed.record.userId !== null && claimed.record.userId !== row.userId) return refuse('other_user', row);
    const { userHandle } = response.response;
    if (userHandle !== undefined && userHandle !== userHandleOf(row.userId)) return refuse('user_handle', row);
    let verified: Awaited<ReturnType<typeof run.verifyAuthentication>>;
    try {
      verified = await run.verifyAuthentication(response, claimed.challenge, storedOf(row), expected === 'second_step');
    } catch (err) {
      return refuse(failureReason(err) as PasskeyLoginFailure, row);
    }
    const record = await authUsers.byId(row.userId);
    if (!record || !record.active) return refuse('inactive', row, record?.user.email ?? null);
    const moved = await models.Passkey.update(
      { counter: verified.newCounter, lastUsedAt: new Date(), backedUp: verified.backedUp },
      { where: { id: row.id, ...(verified.newCounter > 0 ? { counter: { [Op.lt]: verified.newCounter } } : {}) } },
    );
    if (moved[0] === 0) return refuse(verified.newCounter > 0 ? 'counter' : 'removed', row, record.user.email);
    return { ok: true, user: record.user, passkeyId: row.id, userVerified: verified.userVerified };
  }

  /** Whether the user has any passkey (a second-factor method they can use). */
  async function hasAny(userId: string): Promise<boolean> {
    return rp !== null && (await models.Passkey.count({ where: { userId } })) > 0;
  }

  /** Request options for the second step of this user's sign-in: their passkeys, user verification required. */
  async function secondStepOptions(userId: string) {
    const run = ceremony();
    const allow = (await rowsOf(userId)).map((row) => ({ id: row.credentialId, transports: storedOf(row).transports }));
    return run.authenticationOptions(allow, { kind: 'second_step', userId });
  }

  /**
   * The `passkey` kind of second factor (CONTRACT 9's registry in sign-in/second-factor.ts): the answer, in the
   * verify body's `passkey` field, is an assertion for a challenge of secondStepOptions, by one of the user's
   * own passkeys, with user verification. Not standalone: a passkey alone does not add a second step to a
   * password sign-in (it is a way in of its own); with TOTP on, it is one of the methods offered.
   */
  const secondFactorKind = {
    name: 'passkey',
    field: 'passkey',
    standalone: false,
    enrolled: hasAny,
    async verify(userId: string, answer: unknown): Promise<boolean> {
      const response = answer as Partial<AuthenticationResponseJSON> | null;
      if (!ceremonies || typeof response?.rawId !== 'string' || typeof response.response?.clientDataJSON !== 'string') return false;
      const result = await verifyLogin(response as AuthenticationResponseJSON, { secondStepOf: userId });
      return result.ok && result.user.id === userId;
    },
  };

  return { available: rp !== null, rp, list, registrationOptions, register, remove, loginOptions, verifyLogin, hasAny, secondStepOptions, secondFactorKind };
}

export type PasskeyService = ReturnType<typeof createPasskeyService>;
