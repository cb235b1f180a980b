import { isDeepStrictEqual } from 'node:util';
import type { Transaction } from 'sequelize';
import type { Models } from '../../models';
import { toPublicUser, type AuthUser } from '../../sessions/auth-user';
import type { TokenService } from '../../sessions/token.service';
import { AppError } from '../../http/app-error';
import type { AdminAudit } from '../../http/request-context';
import type { ActivityService } from '../operations/activity.service';
import type { Events } from '../operations/webhooks.service';
import { eventUser } from '../operations/webhook-events';
import { applyDefaults, mergeProfileData } from '../../profiles/profile-defaults';
import { registrationFieldDefinitions } from '../../profiles/profile-definition';
import { BUILT_IN_PROFILE_FIELDS, type NormalizedProfileDefinition } from '../../profiles/profile-types';
import { validateProfileData, type ProfileValidationResult } from '../../profiles/profile-values';

/** SPEC 2.3 built-in profile columns, by their API (snake_case) names. */
export interface BuiltInProfile {
  display_name?: string | null;
  bio?: string | null;
  company?: string | null;
  job_title?: string | null;
  website?: string | null;
  location?: string | null;
  date_of_birth?: number | null;
}

/**
 * Custom data to merge into a profile: a patch, or a function that makes the patch from the stored data
 * as read under the row lock. A form that keeps fields it does not show (hidden ones) must keep their
 * values at the time of the write, not the ones it read before: a change committed in between survives.
 */
export type CustomDataChange = Record<string, unknown> | ((stored: unknown) => Record<string, unknown>);

const patchOf = (change: CustomDataChange, stored: unknown) => (typeof change === 'function' ? change(stored) : change);

/** The profile as the API shows it: custom data with defaults, and the built-in columns. */
export interface ProfileView {
  userId: string;
  customData: Record<string, unknown>;
  profile: Required<BuiltInProfile>;
}

const COLUMN_OF = {
  display_name: 'displayName',
  bio: 'bio',
  company: 'company',
  job_title: 'jobTitle',
  website: 'website',
  location: 'location',
  date_of_birth: 'dateOfBirth',
} as const;

/**
 * Custom profile fields (SPEC 2.3–2.4) over `user_profiles`: defaults, validation of the merged data,
 * and the user shape answered by /auth/me. The definition is fixed at boot.
 */
export function createProfileService(deps: {
  definition: NormalizedProfileDefinition;
  models: Models;
  tokens: TokenService;
  activity: ActivityService;
  /** CONTRACT 16: `user.updated` naming the changed fields, in the transaction of the profile API's change. */
  events: Pick<Events, 'record'>;
}) {
  const { definition, models, tokens, activity, events } = deps;

  /** The configured definitions for clients (hidden fields included and marked). */
  function schema() {
    return {
      fields: definition.fields,
      registrationFields: definition.registrationFields,
      builtInFields: BUILT_IN_PROFILE_FIELDS,
    };
  }

  /** The custom fields shown on the registration form, in order. */
  function registrationFields() {
    return registrationFieldDefinitions(definition);
  }

  /**
   * Validates the registration form's custom fields; any key outside registrationFields is unknown. A
   * field left out takes its default first, as on a profile save, so a required field with a default
   * need not be sent.
   */
  function validateRegistration(extraFields: Record<string, unknown>): ProfileValidationResult {
    const only = definition.registrationFields;
    return validateProfileData(definition, applyDefaults(definition, extraFields, only), { only });
  }

  /** Creates the profile row of a new user, with every field's default filled in (listed on the form or not). */
  async function createForUser(userId: string, data: Record<string, unknown>, transaction?: Transaction): Promise<void> {
    await models.UserProfile.create({ userId, data: applyDefaults(definition, data) }, { transaction });
  }

  /** createForUser for many users: one INSERT (an import's batch). */
  async function createForUsers(rows: Array<{ userId: string; data: Record<string, unknown> }>, transaction: Transaction): Promise<void> {
    if (rows.length === 0) return;
    await models.UserProfile.bulkCreate(rows.map(({ userId, data }) => ({ userId, data: applyDefaults(definition, data) })), { transaction });
  }

  /** The public user merged with custom profile fields (custom names never shadow standard ones). */
  function presentUser(user: Pick<AuthUser, 'id' | 'email' | 'username' | 'firstName' | 'lastName' | 'role' | 'profileData'>) {
    return { ...applyDefaults(definition, user.profileData), ...toPublicUser(user) };
  }

  function toView(userId: string, row: InstanceType<Models['UserProfile']> | null): ProfileView {
    const profile = Object.fromEntries(
      Object.entries(COLUMN_OF).map(([name, column]) => [name, row ? (row.get(column) ?? null) : null]),
    ) as Required<BuiltInProfile>;
    return { userId, customData: applyDefaults(definition, row?.data ?? {}), profile };
  }

  /** The profile of an existing user; 404 when the user does not exist. */
  async function get(userId: string): Promise<ProfileView> {
    const user = await models.User.findByPk(userId, { attributes: ['id'] });
    if (!user) throw AppError.notFound('User not found');
    return toView(userId, await models.UserProfile.findByPk(userId));
  }

  /** The custom data a patch leaves on top of the stored data, checked: field errors are a 400. */
  function checkedCustomData(stored: unknown, patch: Record<string, unknown>): Record<string, unknown> {
    // Defaults count as stored: a profile made before a field existed still satisfies its `required`.
    const result = validateProfileData(definition, applyDefaults(definition, mergeProfileData(stored, patch)));
    if (!result.ok) throw AppError.validation(result.errors);
    return result.value;
  }

  /** Refuses, as `update` would, custom data that does not pass: lets a caller judge a form before other writes. */
  function checkUpdate(storedCustomData: Record<string, unknown>, changes: { customData?: CustomDataChange }): void {
    if (changes.customData) checkedCustomData(storedCustomData, patchOf(changes.customData, storedCustomData));
  }

  type ProfileChanges = { customData?: CustomDataChange; profile?: BuiltInProfile };
  type Written = { view: ProfileView; user: { id: string; email: string; username: string; role: string }; changed: string[] };

  /** Writes a profile change inside `transaction`, and says which fields' values changed. */
  async function write(userId: string, changes: ProfileChanges, transaction: Transaction): Promise<Written> {
    // The columns an event names the user by, read here so that firing one costs no second read.
    const user = await models.User.findByPk(userId, { attributes: ['id', 'email', 'username', 'role'], transaction });
    if (!user) throw AppError.notFound('User not found');
    const row =
      (await models.UserProfile.findByPk(userId, { transaction, lock: true })) ??
      (await models.UserProfile.create({ userId, data: applyDefaults(definition, {}) }, { transaction }));
    // Compared as the API shows them (defaults applied): a default being stored is no change.
    const before = { data: applyDefaults(definition, row.data), ...toView(userId, row).profile };
    if (changes.customData) row.data = checkedCustomData(row.data, patchOf(changes.customData, row.data));
    for (const [name, value] of Object.entries(changes.profile ?? {})) {
      row.set(COLUMN_OF[name as keyof BuiltInProfile], value);
    }
    await row.save({ transaction });
    const after = toView(userId, row);
    const customNames = new Set([...Object.keys(before.data), ...Object.keys(after.customData)]);
    const changed = [
      ...[...customNames].filter((name) => !isDeepStrictEqual(before.data[name], after.customData[name])),
      ...Object.keys(COLUMN_OF).filter((name) => before[name as keyof BuiltInProfile] !== after.profile[name as keyof BuiltInProfile]),
    ];
    return { view: after, user: eventUser(user), changed };
  }

  /**
   * After the commit: cached verifications of the user are voided (/auth/me shows the profile), and the
   * change is logged as `user.updated` naming the fields whose values changed (never the values: a custom
   * field may hold anything). Nothing changed, nothing logged.
   */
  async function afterWrite(userId: string, written: Written, audit: AdminAudit): Promise<void> {
    await tokens.userChanged(userId);
    if (written.changed.length === 0) return;
    await activity.record(
      { action: 'user.updated', userId: audit.actor.id, email: audit.actor.email, details: { targetUserId: userId, targetEmail: written.user.email, profileFields: written.changed } },
      audit.context,
    );
  }

  /**
   * Saves a profile change in its own transaction (the profile API), with `user.updated` naming the changed fields
   * (`changes.profile`: their names, never their values, which may hold anything).
   */
  async function update(userId: string, changes: ProfileChanges, audit: AdminAudit): Promise<ProfileView> {
    const written = await models.UserProfile.sequelize!.transaction(async (transaction) => {
      const done = await write(userId, changes, transaction);
      if (done.changed.length > 0) await events.record('user.updated', { user: done.user, changes: { profile: done.changed }, actor: audit.actor }, { transaction });
      return done;
    });
    await afterWrite(userId, written, audit);
    return written.view;
  }

  /**
   * A profile change saved inside another service's transaction (the admin forms save account and profile as
   * one): `write` runs in it (again if the transaction is retried) and answers the fields it changed, for that
   * service's one `user.updated`; `finish` runs after its commit.
   */
  function staged(userId: string, changes: ProfileChanges, audit: AdminAudit) {
    let written: Written | null = null;
    return {
      write: async (transaction: Transaction): Promise<string[]> => {
        written = await write(userId, changes, transaction);
        return written.changed;
      },
      finish: async () => {
        if (written) await afterWrite(userId, written, audit);
      },
    };
  }

  // `write` alone: for a caller that logs its change its own way (an import writes one activity row for all its users).
  return { definition, schema, registrationFields, validateRegistration, createForUser, createForUsers, presentUser, get, checkUpdate, update, staged, write };
}

export type ProfileService = ReturnType<typeof createProfileService>;
