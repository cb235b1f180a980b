import { z } from 'zod';
import type { Endpoint } from '../http/api-router';
import { isPlainObject, PROFILE_FIELD_TYPES } from '../profiles/profile-types';

// Custom data is checked field by field by the profile validator, which knows the definition;
// here it only has to be an object. Its keys are copied by that validator, never by zod.
// (z.unknown, not z.record: a record would copy a `__proto__` key through its setter.)
const customData = z
  .unknown()
  .refine(isPlainObject, { message: 'must be an object' })
  .transform((value) => value as Record<string, unknown>);

const nullableText = (max: number) => z.string().max(max).nullable().optional();
const builtInProfile = z.strictObject({
  display_name: nullableText(255),
  bio: nullableText(10_000),
  company: nullableText(255),
  job_title: nullableText(255),
  website: nullableText(1024),
  location: nullableText(255),
  date_of_birth: z.number().int().nullable().optional(),
});

const profileParams = z.object({ userId: z.string().min(1).max(64, { message: 'must be at most 64 characters' }) });
const profileUpdate = z
  .strictObject({ customData: customData.optional(), profile: builtInProfile.optional() })
  .refine((body) => body.customData !== undefined || body.profile !== undefined, { message: 'customData or profile is required' });
const profileView = z.object({ userId: z.string(), customData: z.record(z.string(), z.unknown()), profile: builtInProfile });

const fieldShape = {
  name: z.string(),
  label: z.string(),
  type: z.enum(PROFILE_FIELD_TYPES as [string, ...string[]]),
  required: z.boolean(),
  hidden: z.boolean(),
  options: z.array(z.string()).optional(),
  validation: z.object({ min: z.number().optional(), max: z.number().optional(), pattern: z.string().optional() }).optional(),
  default: z.unknown().optional(),
};
/** A custom field definition; an `object` field's children have the same shape (one level shown). */
const profileField = z.object({ ...fieldShape, fields: z.array(z.object(fieldShape)).optional() });
const profileSchema = z.object({
  fields: z.array(profileField),
  registrationFields: z.array(z.string()),
  builtInFields: z.array(z.object({ name: z.string(), type: z.enum(['string', 'integer']), description: z.string() })),
});

export type ProfileUpdate = z.output<typeof profileUpdate>;

const tags = ['Profiles'];

/** The OpenAPI description (and, through its schemas, the validation) of each /api/user-profiles endpoint. */
export const PROFILE_ENDPOINTS = {
  schema: {
    summary: 'Custom profile field definitions',
    tags,
    responses: { 200: { description: 'fields (hidden ones marked hidden: true), registrationFields and the built-in fields', schema: profileSchema } },
  },
  get: {
    summary: "A user's profile",
    tags,
    auth: true,
    apiKey: true,
    params: profileParams,
    responses: { 200: { description: 'profile', schema: profileView }, 403: 'not the owner', 404: 'no such user' },
  },
  update: {
    summary: "Update a user's profile (custom data is merged, then validated as a whole)",
    tags,
    auth: true,
    apiKey: true,
    params: profileParams,
    body: profileUpdate,
    responses: { 200: { description: 'profile', schema: profileView }, 400: 'validation failed', 403: 'not the owner', 404: 'no such user' },
  },
} satisfies Record<string, Endpoint>;
