import type { Events } from '../operations/webhooks.service';
import { UniqueConstraintError, type Sequelize, type Transaction } from 'sequelize';
import type { Logger } from 'pino';
import type { Models, User } from '../../models';
import type { PasswordService } from '../../credentials/password.service';
import type { TokenService } from '../../sessions/token.service';
import type { RequestContext } from '../../http/request-context';
import { AppError } from '../../http/app-error';
import { transactionWithRetry } from '../../db/transaction-retry';
import { USER_MESSAGES, type NewUserInput, type UserService } from '../accounts/user.service';
import { applyDefaults } from '../../profiles/profile-defaults';
import { validateProfileData } from '../../profiles/profile-values';
import type { ProfileService } from '../accounts/profile.service';
import { usernameTakenByAnother } from '../accounts/user-admin.service';
import type { ActivityService } from '../operations/activity.service';
import type { SearchIndexFill } from '../accounts/search-index-fill';
import type { CredentialSet } from '../security/credential-set/credential-set';
import { BodyTooLarge, type RecordFormat } from './record-reader';
import { checkedBatches, NUL_REFUSAL, type CheckedBatch, type CheckedRecord, type ImportRecord, type Refusal } from './checked-batches';

export type { CheckedRecord, ImportRecord } from './checked-batches';
export { IMPORT_BATCH_SIZE } from './checked-batches';

export type ImportMode = 'create' | 'upsert';

export interface ImportSummary {
  created: number;
  updated: number;
  skipped: number;
  failed: number;
  errors: Array<{ line: number; email: string | null; error: string }>;
}

/** Who imports (an admin on the API; null for the command line) and from where, for the one activity row. */
export interface ImportAudit {
  actor: { id: string; email: string } | null;
  context: RequestContext;
}

export const IMPORT_LIMIT_BYTES = 50 * 1024 * 1024;
/** The errors listed in the answer; past this the counts still count (a bad file would otherwise make an answer as large as itself). */
const MAX_LISTED_ERRORS = 1000;

export const IMPORT_MESSAGES = {
  tooLarge: 'Import body larger than 50 MB',
  batchFailed: 'not written: its batch failed in the database (try the import again)',
  adminKept: 'an import does not demote or deactivate an active admin (use the users API)',
  nul: NUL_REFUSAL,
} as const;

type Pending = { line: number; record: ImportRecord; passwordHash: string | null };
type Outcome = { kind: 'created' } | { kind: 'updated'; userId: string } | { kind: 'skipped' } | { kind: 'failed'; error: string };

const failed = (error: string): Outcome => ({ kind: 'failed', error });

/** Field errors as one line of an import's answer: `email: must be a valid email address; role: …`. */
export const errorText = (errors: Record<string, string>): string =>
  Object.entries(errors)
    .map(([field, message]) => `${field}: ${message}`)
    .join('; ');

const refusalText = (err: AppError): string => {
  const errors = (err.options as { errors?: Record<string, string> }).errors;
  return errors ? errorText(errors) : err.message;
};

/**
 * Imports users from a body of records (CONTRACT 17): read as a stream, each record checked with the user rules,
 * written in batches, each batch one transaction, so a batch that fails in the database leaves nothing. In a
 * batch, one read finds the stored emails and the new users are created together (one INSERT of users, one of
 * profiles); a stored user's update, a repeated email and a batch a concurrent writer collided with go record by
 * record, each in a savepoint, so a refused record never leaves half a user. Plain passwords are hashed before the
 * batch's transaction opens (no lock is held over PBKDF2); hashes are stored as given (checked at sign-in, then
 * re-hashed). No mail is sent; imported accounts are vouched for (not self-registered). The new users are found
 * by the search at once; their search trigrams are written after the import (search-index-fill.ts).
 */
export function createUserImport(deps: {
  sequelize: Sequelize;
  models: Models;
  passwords: Pick<PasswordService, 'hash'>;
  users: Pick<UserService, 'createUser' | 'createUsers'>;
  profiles: Pick<ProfileService, 'definition' | 'write'>;
  credentials: Pick<CredentialSet, 'end'>;
  tokens: Pick<TokenService, 'userChanged'>;
  activity: ActivityService;
  /** CONTRACT 16: `users.imported`, once per import. */
  events: Pick<Events, 'record'>;
  /** The record rules (the schema layer's, given by the container): email, roles, names, hashes. */
  checkRecord: (value: unknown) => Promise<CheckedRecord>;
  /** Writes the new users' search trigrams after the import, not batch by batch (issue 50: most of an import's cost). */
  searchIndex: Pick<SearchIndexFill, 'during'>;
  logger: Logger;
}) {
  const { sequelize, models, passwords, users, profiles, credentials, tokens, activity, events, checkRecord, searchIndex, logger } = deps;

  /** Changes an existing user to what the record says (upsert), in the record's savepoint. */
  async function update(user: User, pending: Pending, transaction: Transaction): Promise<Outcome> {
    const { record } = pending;
    const demotes = record.role !== undefined && record.role !== user.role;
    const deactivates = record.active === false && user.active;
    if ((demotes || deactivates) && user.role === 'admin' && user.active) return failed(IMPORT_MESSAGES.adminKept);
    if (record.username !== undefined && record.username !== user.username && (await usernameTakenByAnother(models, record.username, user.id, transaction))) {
      return failed(USER_MESSAGES.duplicate);
    }
    for (const field of ['username', 'firstName', 'lastName', 'role', 'active'] as const) {
      if (record[field] !== undefined) user.set(field, record[field] as never);
    }
    if (record.emailVerified !== undefined && record.emailVerified !== Boolean(user.emailVerifiedAt)) user.emailVerifiedAt = record.emailVerified ? new Date() : null;
    const newPassword = pending.passwordHash !== null && pending.passwordHash !== user.passwordHash;
    if (newPassword) user.passwordHash = pending.passwordHash;
    await user.save({ transaction });
    // What an admin's change would end (CONTRACT 18); a replaced password ends the sessions made with the old one.
    if (deactivates) await credentials.end('deactivation', user.id, { transaction });
    else if (demotes) await credentials.end('role-change', user.id, { transaction });
    else if (newPassword) await credentials.end('sign-out-everywhere', user.id, { transaction });
    // The profile service's own write: the stored data merged with the record's fields and checked as a whole.
    if (record.profile) await profiles.write(user.id, { customData: record.profile }, transaction);
    return { kind: 'updated', userId: user.id };
  }

  /** The user a new record makes, for createUser or createUsers; or its profile's field errors. */
  function newUser(pending: Pending): { ok: true; input: NewUserInput } | { ok: false; outcome: Outcome } {
    const { record } = pending;
    // User creation takes profile data already checked: the record's fields with the defaults, as a registration's.
    const profile = validateProfileData(profiles.definition, applyDefaults(profiles.definition, record.profile ?? {}));
    if (!profile.ok) return { ok: false, outcome: failed(errorText(Object.fromEntries(Object.entries(profile.errors).map(([field, message]) => [`profile.${field}`, message])))) };
    const input: NewUserInput = {
      email: record.email,
      passwordHash: pending.passwordHash,
      username: record.username ?? null,
      firstName: record.firstName ?? null,
      lastName: record.lastName ?? null,
      role: record.role ?? 'viewer',
      active: record.active ?? true,
      profile: profile.value,
      emailVerifiedAt: record.emailVerified ? new Date() : null,
      createdAt: record.createdAt ? new Date(record.createdAt) : undefined,
    };
    return { ok: true, input };
  }

  async function create(pending: Pending, transaction: Transaction): Promise<Outcome> {
    const user = newUser(pending);
    if (!user.ok) return user.outcome;
    await users.createUser(user.input, { transaction, roleAsGiven: true });
    return { kind: 'created' };
  }

  /**
   * New records created together (users.createUsers: one read of their usernames, one INSERT), in a savepoint.
   * When a unique index fires there (a registration took one of the emails or names since the batch's read),
   * the savepoint is undone and the records go one by one, each reading afresh: the outcome is as exact.
   */
  async function createTogether(group: Pending[], mode: ImportMode, batch: Transaction): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    const inputs: NewUserInput[] = [];
    for (const pending of group) {
      const user = newUser(pending);
      outcomes.push(user.ok ? { kind: 'created' } : user.outcome);
      if (user.ok) inputs.push(user.input);
    }
    const savepoint = await sequelize.transaction({ transaction: batch });
    let created: Array<User | AppError>;
    try {
      created = await users.createUsers(inputs, savepoint);
      await savepoint.commit();
    } catch (err) {
      await savepoint.rollback();
      if (!(err instanceof UniqueConstraintError)) throw err;
      const alone: Outcome[] = [];
      for (const pending of group) alone.push(await writeOne(pending, mode, batch));
      return alone;
    }
    let next = 0;
    return outcomes.map((outcome) => {
      if (outcome.kind !== 'created') return outcome;
      const result = created[next++];
      return result instanceof AppError ? failed(refusalText(result)) : outcome;
    });
  }

  /**
   * A batch's records in order, as one after another would be written. One read finds which emails are stored:
   * in create mode those are skipped, and the new ones gathered and created together. A record for a stored
   * user in upsert mode, or for an email met earlier in the batch, goes alone after the new ones before it
   * (its outcome depends on them).
   */
  async function writeInOrder(batch: Pending[], mode: ImportMode, transaction: Transaction): Promise<Outcome[]> {
    const stored = new Set((await models.User.findAll({ attributes: ['email'], where: { email: batch.map((pending) => pending.record.email) }, transaction })).map((user) => user.email));
    const seen = new Set<string>();
    const outcomes: Outcome[] = [];
    let group: Pending[] = [];
    const createGroup = async () => {
      if (group.length > 0) outcomes.push(...(await createTogether(group, mode, transaction)));
      group = [];
    };
    for (const pending of batch) {
      const { email } = pending.record;
      if (stored.has(email) && mode === 'create') outcomes.push({ kind: 'skipped' });
      else if (stored.has(email) || seen.has(email)) {
        await createGroup();
        outcomes.push(await writeOne(pending, mode, transaction));
      } else group.push(pending);
      seen.add(email);
    }
    await createGroup();
    return outcomes;
  }

  /** One record in a savepoint of the batch: a refusal rolls back that record alone; a database failure fails the batch. */
  async function writeOne(pending: Pending, mode: ImportMode, batch: Transaction): Promise<Outcome> {
    const savepoint = await sequelize.transaction({ transaction: batch });
    try {
      const existing = await models.User.findOne({ where: { email: pending.record.email }, transaction: savepoint, lock: savepoint.LOCK.UPDATE });
      const outcome = existing ? (mode === 'upsert' ? await update(existing, pending, savepoint) : { kind: 'skipped' as const }) : await create(pending, savepoint);
      if (outcome.kind === 'failed') await savepoint.rollback();
      else await savepoint.commit();
      return outcome;
    } catch (err) {
      await savepoint.rollback();
      if (err instanceof AppError) return failed(refusalText(err));
      if (err instanceof UniqueConstraintError) return failed(USER_MESSAGES.duplicate);
      throw err;
    }
  }

  /** Writes a batch in one transaction; answers each record's outcome, or fails them all when the batch could not be written. */
  async function writeBatch(batch: Pending[], mode: ImportMode): Promise<Outcome[]> {
    const hashes = await Promise.all(batch.map((pending) => (pending.record.password ? passwords.hash(pending.record.password) : null)));
    batch.forEach((pending, at) => (pending.passwordHash = hashes[at] ?? pending.record.passwordHash ?? null));
    let outcomes: Outcome[];
    try {
      outcomes = await transactionWithRetry(sequelize, (transaction) => writeInOrder(batch, mode, transaction));
    } catch (err) {
      logger.error({ err: (err as Error).message, records: batch.length }, 'an import batch failed and was rolled back');
      return batch.map(() => failed(IMPORT_MESSAGES.batchFailed));
    }
    // After the commit: cached verifications (and /auth/me) of changed users are stale.
    await Promise.all(outcomes.map((outcome) => (outcome.kind === 'updated' ? tokens.userChanged(outcome.userId) : undefined)));
    return outcomes;
  }

  /** Reads, checks and writes every record of `body`; answers the counts and each refused record's line and reason. */
  async function readAndWrite(
    body: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
    options: {
      format: RecordFormat;
      mode: ImportMode;
      /** The most the body may hold (default IMPORT_LIMIT_BYTES, the API's; the command line reads files of any size). */
      limitBytes?: number;
      /** After each batch: the counts so far (the command line's progress bar). */
      onProgress?: (summary: ImportSummary) => void;
    },
    audit: ImportAudit,
  ): Promise<ImportSummary> {
    const { format, mode } = options;
    const summary: ImportSummary = { created: 0, updated: 0, skipped: 0, failed: 0, errors: [] };
    const refuse = (refusals: Refusal[]) => {
      for (const { line, email, error } of refusals.sort((x, y) => x.line - y.line)) {
        summary.failed += 1;
        if (summary.errors.length < MAX_LISTED_ERRORS) summary.errors.push({ line, email, error });
      }
    };
    /** Counts a written batch: its refusals and failures together, so the errors stay in line order. */
    const count = ({ records, refused }: CheckedBatch, outcomes: Outcome[]) => {
      outcomes.forEach((outcome, at) => {
        if (outcome.kind === 'failed') refused.push({ line: records[at].line, email: records[at].record.email, error: outcome.error });
        else summary[outcome.kind] += 1;
      });
      refuse(refused);
      options.onProgress?.(summary);
    };
    // One batch is written while the next is read and checked: the database's work and this process's overlap.
    let writing: Promise<{ err: unknown } | null> = Promise.resolve(null);
    const written = async () => {
      const failure = await writing;
      writing = Promise.resolve(null);
      if (failure) throw failure.err;
    };
    try {
      for await (const batch of checkedBatches(body, { format, limitBytes: options.limitBytes ?? IMPORT_LIMIT_BYTES, checkRecord })) {
        await written();
        const pending: Pending[] = batch.records.map(({ line, record }) => ({ line, record, passwordHash: null }));
        writing = (pending.length > 0 ? writeBatch(pending, mode) : Promise.resolve([])).then((outcomes) => count(batch, outcomes)).then(
          () => null,
          (err: unknown) => ({ err }),
        );
      }
      await written();
    } catch (err) {
      // Cut short (a body past the limit, a broken stream): the batches before are written, and recorded.
      await writing;
      await recordImport(summary, mode, audit, true);
      if (err instanceof BodyTooLarge) throw new AppError(413, IMPORT_MESSAGES.tooLarge, { body: { ...summary } });
      throw err;
    }
    await recordImport(summary, mode, audit, false);
    return summary;
  }

  /** The one activity row and the one `users.imported` event of an import: its counts, never a record's content. */
  async function recordImport(summary: ImportSummary, mode: ImportMode, audit: ImportAudit, cutShort: boolean): Promise<void> {
    const { created, updated, skipped, failed: refused } = summary;
    const details = { mode, created, updated, skipped, failed: refused, ...(cutShort ? { cutShort: true } : {}), via: audit.actor ? 'api' : 'cli' };
    const actor = audit.actor ? { id: audit.actor.id, email: audit.actor.email } : null;
    // The row and the event commit together, in one transaction per import whether or not an endpoint listens: its
    // BEGIN and COMMIT are nothing beside the batches'.
    await sequelize.transaction(async (transaction) => {
      await activity.record({ action: 'users.imported', userId: actor?.id ?? null, email: actor?.email ?? null, details }, audit.context, { transaction });
      await events.record('users.imported', { ...details, actor }, { transaction });
    });
  }

  /** Imports `body` (readAndWrite's arguments); its new users' search trigrams are written once it ends (searchIndex). */
  const importUsers: typeof readAndWrite = (...args) => searchIndex.during(() => readAndWrite(...args));

  return { importUsers };
}

export type UserImport = ReturnType<typeof createUserImport>;
