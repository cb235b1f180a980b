import { z } from 'zod';
import type { RequestHandler } from 'express';
import type { Container } from '../container';
import { createApiRouter } from '../http/api-router';
import { AppError } from '../http/app-error';
import { can } from '../auth/permissions';
import { isPlainObject } from '../profiles/profile-validator';

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

const profileParams = z.object({ userId: z.string().min(1).max(64) });
const profileUpdate = z
  .strictObject({ customData: customData.optional(), profile: builtInProfile.optional() })
  .refine((body) => body.customData !== undefined || body.profile !== undefined, { message: 'customData or profile is required' });
const profileView = z.object({ userId: z.string(), customData: z.record(z.string(), z.unknown()), profile: builtInProfile });

const FORBIDDEN = 'Forbidden';

/**
 * The owner or a holder of manage:users; anyone else gets 403 whether or not the id exists, so the
 * answer never tells a stranger which ids are real.
 */
const ownerOrUserManager: RequestHandler = (req, _res, next) => {
  const user = req.user as Express.User;
  if (user.id !== req.params.userId && !can(user.role, 'manage:users')) throw new AppError(403, FORBIDDEN);
  next();
};

/** SPEC 4.5 profile API. */
export function profileRoutes(container: Container) {
  const { profiles, guards } = container;
  const api = createApiRouter(container.docs, '/api/user-profiles');
  const tags = ['Profiles'];

  api.get('/schema', { summary: 'Custom profile field definitions', tags, responses: { 200: 'fields and registrationFields' } }, (_req, res) => {
    res.json(profiles.schema());
  });
  api.get(
    '/:userId',
    { summary: "A user's profile", tags, auth: true, params: profileParams, responses: { 200: { description: 'profile', schema: profileView }, 403: 'not the owner', 404: 'no such user' } },
    guards.requireAuth,
    ownerOrUserManager,
    async (req, res) => {
      res.json(await profiles.get(req.params.userId as string));
    },
  );
  api.put(
    '/:userId',
    {
      summary: "Update a user's profile (custom data is merged, then validated as a whole)",
      tags,
      auth: true,
      params: profileParams,
      body: profileUpdate,
      responses: { 200: { description: 'profile', schema: profileView }, 400: 'validation failed', 403: 'not the owner', 404: 'no such user' },
    },
    guards.requireAuth,
    ownerOrUserManager,
    async (req, res) => {
      res.json(await profiles.update(req.params.userId as string, req.body as z.infer<typeof profileUpdate>));
    },
  );
  return api.router;
}
