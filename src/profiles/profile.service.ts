import { isDeepStrictEqual } from 'node:util';
import type { Transaction } from 'sequelize';
import type { Models } from '../models';
import { toPublicUser, type AuthUser } from '../auth/auth-user';
import type { TokenService } from '../auth/token.service';
import { AppError } from '../http/app-error';
import type { AdminAudit } from '../http/request-context';
import type { ActivityService } from '../services/activity.service';
import { applyDefaults, mergeProfileData } from './profile-defaults';
import { registrationFieldDefinitions } from './profile-definition';
import { BUILT_IN_PROFILE_FIELDS, type NormalizedProfileDefinition } from './profile-types';
import { validateProfileData, type ProfileValidationResult } from './profile-values';

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
export function createProfileService(deps: { definition: NormalizedProfileDefinition; models: Models; tokens: TokenService; activity: ActivityService }) {
  const { definition, models, tokens, activity } = deps;

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

  /**
   * Merges `customData` into the stored data and validates the merged result (so a required field
   * already stored need not be sent again); built-in columns are replaced field by field.
   */
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

  /**
   * Saves a profile change and records it in the activity log as `user.updated`, naming the fields whose
   * values changed (not the values: a custom field may hold anything). Nothing changed, nothing recorded.
   */
  async function update(userId: string, changes: { customData?: CustomDataChange; profile?: BuiltInProfile }, audit: AdminAudit): Promise<ProfileView> {
    const { view, email, changed } = await models.UserProfile.sequelize!.transaction(async (transaction) => {
      const user = await models.User.findByPk(userId, { attributes: ['id', 'email'], transaction });
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
      const changedNames = [
        ...[...customNames].filter((name) => !isDeepStrictEqual(before.data[name], after.customData[name])),
        ...Object.keys(COLUMN_OF).filter((name) => before[name as keyof BuiltInProfile] !== after.profile[name as keyof BuiltInProfile]),
      ];
      return { view: after, email: user.email, changed: changedNames };
    });
    // /auth/me answers from the verification cache; the user's cached shape is now stale.
    await tokens.userChanged(userId);
    if (changed.length > 0) {
      await activity.record(
        { action: 'user.updated', userId: audit.actor.id, email: audit.actor.email, details: { targetUserId: userId, targetEmail: email, profileFields: changed } },
        audit.context,
      );
    }
    return view;
  }

  return { definition, schema, registrationFields, validateRegistration, createForUser, presentUser, get, checkUpdate, update };
}

export type ProfileService = ReturnType<typeof createProfileService>;
