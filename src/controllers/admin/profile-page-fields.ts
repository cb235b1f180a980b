import type { ProfileService, ProfileView, BuiltInProfile, CustomDataChange } from '../../services/accounts/profile.service';
import { isPlainObject, type NormalizedProfileField } from '../../profiles/profile-types';
import { coerceFormValues } from '../../profiles/profile-form';
import { PROFILE_ENDPOINTS } from '../../schemas/profile.schemas';
import { fieldErrors } from '../../http/validate';

/** A control of views/partials/form-field.ejs. */
export interface PageField {
  name: string;
  label: string;
  type: 'text' | 'email' | 'password' | 'url' | 'number' | 'date' | 'textarea' | 'select' | 'checkbox';
  autocomplete?: string;
  required?: boolean;
  minlength?: number;
  maxlength?: number;
  options?: { value: string; label: string }[];
  rows?: number;
  hint?: string;
  /** A new password: the page draws a strength meter after it (public/password-strength.js). */
  strength?: boolean;
}

/** SPEC 2.3 built-in profile fields as controls; their rules are the profile API's schema (PROFILE_ENDPOINTS). */
export const BUILT_IN_CONTROLS: readonly PageField[] = [
  { name: 'display_name', label: 'Display name', type: 'text', maxlength: 255 },
  { name: 'bio', label: 'Bio', type: 'textarea', maxlength: 10_000 },
  { name: 'company', label: 'Company', type: 'text', maxlength: 255, autocomplete: 'organization' },
  { name: 'job_title', label: 'Job title', type: 'text', maxlength: 255, autocomplete: 'organization-title' },
  { name: 'website', label: 'Website', type: 'url', maxlength: 1024, autocomplete: 'url' },
  { name: 'location', label: 'Location', type: 'text', maxlength: 255 },
  { name: 'date_of_birth', label: 'Date of birth', type: 'date', autocomplete: 'bday' },
];

const DATE_INPUT = /^(\d{4})-(\d{2})-(\d{2})$/;
const NOT_A_DATE = 'must be a date (YYYY-MM-DD)';

/** A unix timestamp (seconds) as the date input's YYYY-MM-DD (UTC), or ''. */
export function timestampToDateInput(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? new Date(value * 1000).toISOString().slice(0, 10) : '';
}

/** A date input's YYYY-MM-DD as the unix timestamp of that day's UTC midnight; null for an empty input; undefined when not a real date. */
export function dateInputToTimestamp(text: string): number | null | undefined {
  if (text.trim() === '') return null;
  const match = DATE_INPUT.exec(text.trim());
  if (!match) return undefined;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  // Date.UTC rolls 2024-02-31 over into March: only a date that comes back unchanged is real.
  return new Date(ms).toISOString().slice(0, 10) === text.trim() ? ms / 1000 : undefined;
}

/** The custom fields the admin UI shows: hidden ones left out, at every depth (SPEC 2.4). */
export function visibleFields(fields: readonly NormalizedProfileField[]): NormalizedProfileField[] {
  return fields
    .filter((field) => !field.hidden)
    .map((field) => (field.type === 'object' ? { ...field, fields: visibleFields(field.fields ?? []) } : field));
}

/** What a profile form is drawn with: built-in values (the date as YYYY-MM-DD) and the custom data. */
export function profileFormValues(view: ProfileView): Record<string, unknown> {
  return { ...view.customData, ...view.profile, date_of_birth: timestampToDateInput(view.profile.date_of_birth) };
}

/**
 * Custom data of a form post as a patch: every shown field carries its posted value (an emptied input
 * clears it), hidden fields carry the stored value (so a save never clears them, also inside objects).
 */
function customPatch(fields: readonly NormalizedProfileField[], stored: unknown, posted: Record<string, unknown>): Record<string, unknown> {
  const saved = isPlainObject(stored) ? stored : {};
  const patch: Record<string, unknown> = {};
  for (const field of fields) {
    const keep = Object.hasOwn(saved, field.name) ? saved[field.name] : undefined;
    if (field.hidden) {
      if (keep !== undefined) patch[field.name] = keep;
    } else if (field.type === 'object') {
      const nested = customPatch(field.fields ?? [], keep, isPlainObject(posted[field.name]) ? posted[field.name] as Record<string, unknown> : {});
      patch[field.name] = Object.values(nested).some((value) => value !== undefined) ? nested : undefined;
    } else {
      patch[field.name] = posted[field.name];
    }
  }
  return patch;
}

/**
 * Reads the profile part of a posted form: built-in fields checked by the profile API's own schema,
 * custom fields typed as the registration form types them. Returns field errors of the built-in part
 * (custom fields are judged by the profile service when saved).
 */
export function readProfileForm(
  profiles: Pick<ProfileService, 'definition'>,
  body: Record<string, unknown>,
): { changes: { customData: CustomDataChange; profile: BuiltInProfile }; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const builtIn: Record<string, unknown> = {};
  for (const control of BUILT_IN_CONTROLS) {
    // A field the post does not carry stays as stored; an emptied one is cleared.
    if (!Object.hasOwn(body, control.name)) continue;
    const raw = typeof body[control.name] === 'string' ? (body[control.name] as string) : '';
    if (control.type === 'date') {
      const timestamp = dateInputToTimestamp(raw);
      if (timestamp === undefined) errors[control.name] = NOT_A_DATE;
      else builtIn[control.name] = timestamp;
    } else {
      builtIn[control.name] = raw.trim() === '' ? null : raw;
    }
  }
  const parsed = PROFILE_ENDPOINTS.update.body.safeParse({ profile: builtIn });
  if (!parsed.success) {
    for (const [path, message] of Object.entries(fieldErrors(parsed.error))) errors[path.replace(/^profile\./, '')] ??= message;
  }
  const fields = profiles.definition.fields;
  const shown = visibleFields(fields).map((field) => field.name);
  const posted = coerceFormValues(profiles.definition, shown, body);
  // Made from the stored data at the time of the write (see CustomDataChange), not from the page's read.
  return { changes: { customData: (stored) => customPatch(fields, stored, posted), profile: builtIn as BuiltInProfile }, errors };
}

/** The profile form's typed values to draw back after a refused post (built-in as posted, custom typed). */
export function keptProfileValues(profiles: Pick<ProfileService, 'definition'>, body: Record<string, unknown>): Record<string, unknown> {
  const shown = visibleFields(profiles.definition.fields).map((field) => field.name);
  return { ...body, ...coerceFormValues(profiles.definition, shown, body) };
}
