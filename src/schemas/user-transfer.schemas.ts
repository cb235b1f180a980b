import { z } from 'zod';
import type { Endpoint } from '../http/api-router';
import { fieldErrors } from '../http/validate';
import { email, judgedPassword, newPassword, personName, username } from './input-rules';
import { ROLES } from '../models';
import { importedHashProblem } from '../credentials/password.service';
import { errorText, type CheckedRecord, type ImportRecord } from '../services/user-transfer/user-import';

const role = z.enum(ROLES, { message: `must be one of: ${ROLES.join(', ')}` });
const nullableName = personName.nullable();
const trueOrFalse = z.boolean({ message: 'must be true or false' });

/** A stored hash of another system or this one (CONTRACT 17): refused when malformed, unknown or over the cost bounds. */
const passwordHash = z
  .string({ message: 'must be a string' })
  .max(255, { message: 'must be at most 255 characters' })
  .superRefine((value, ctx) => {
    const problem = importedHashProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe('bcrypt ($2a$, $2b$, $2y$), Argon2 ($argon2id$, $argon2i$), scrypt ($scrypt$ln=…,r=…,p=…$…), PBKDF2 ($pbkdf2-sha256$, $pbkdf2-sha512$ as passlib writes them, Django pbkdf2_sha256$…) or this service’s own pbkdf2:…');

/**
 * One user of an import, with the rules of user creation (the email rule, roles, names, a new password's length
 * and quality); custom profile fields are checked by the import against the configured definition.
 */
export const importRecord = judgedPassword(
  z
    .strictObject({
      email,
      username: username.optional(),
      role: role.optional(),
      active: trueOrFalse.optional(),
      emailVerified: trueOrFalse.optional(),
      firstName: nullableName.optional(),
      lastName: nullableName.optional(),
      profile: z.record(z.string(), z.unknown(), { message: 'must be an object' }).optional(),
      createdAt: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date and time' }).optional(),
      password: newPassword.optional(),
      passwordHash: passwordHash.optional(),
    })
    .refine((record) => record.password === undefined || record.passwordHash === undefined, { path: ['password'], message: 'give password or passwordHash, not both' }),
);

/** Checks one parsed record: the container hands this to the import service (services sit below the schemas). */
export async function checkImportRecord(value: unknown): Promise<CheckedRecord> {
  const result = await importRecord.safeParseAsync(value);
  if (result.success) return { ok: true, record: result.data as ImportRecord };
  return { ok: false, error: errorText(fieldErrors(result.error, value)) };
}

const importQuery = z.strictObject({
  mode: z.enum(['create', 'upsert'], { message: 'must be create or upsert' }).default('create').describe('create (default) skips existing emails; upsert updates them'),
});

const importSummary = z
  .object({
    created: z.number().int(),
    updated: z.number().int(),
    skipped: z.number().int(),
    failed: z.number().int(),
    errors: z
      .array(z.object({ line: z.number().int().describe('the line the record starts on'), email: z.string().nullable(), error: z.string() }))
      .describe('each refused record (the first 1,000); the counts count them all'),
  });

const exportRecord = importRecord.describe('one line of the export: an import record with passwordHash, never password');

const denials = { 401: 'not signed in', 403: 'Insufficient permissions, Recent sign-in required (`stepUp: true`), or an API key (refused here)' };
const tags = ['Users'];

/** The OpenAPI description (and validation of the query) of the import and export endpoints. */
export const USER_TRANSFER_ENDPOINTS = {
  import: {
    summary: 'Import users (NDJSON or a JSON array, up to 50 MB, read as a stream)',
    description:
      'One user a record. The upload is streamed to a temporary file first (over 50 MB: 413, nothing written), then imported while the client waits. Each record is checked with the user rules; a refused record is listed with its line and never stops the others. Records are written in batches, each one transaction. No mail is sent. Imported accounts are vouched for. Hashes are checked at the next sign-in and then re-hashed.',
    tags,
    auth: true,
    query: importQuery,
    streamedBody: {
      limit: '50 MB',
      contentTypes: { 'application/x-ndjson': importRecord, 'application/json': z.array(importRecord) },
    },
    responses: { 200: { description: 'the counts and the refused records', schema: importSummary }, 400: 'bad mode', 413: 'body larger than 50 MB', ...denials },
  },
  export: {
    summary: 'Export every user as NDJSON in the import format (streamed)',
    tags,
    auth: true,
    responses: { 200: { description: 'one user a line', schema: exportRecord, contentType: 'application/x-ndjson' }, ...denials },
  },
} satisfies Record<string, Endpoint>;
