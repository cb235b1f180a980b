import { z } from 'zod';
import type { Container } from '../container';
import { createApiRouter } from '../http/api-router';
import { adminAudit } from '../http/request-context';
import { parseDurationSeconds } from '../config/duration';
import type { SecuritySettingsUpdate } from '../services/settings.service';

const MIN_LIFETIME_SECONDS = 60;
const MAX_LIFETIME_SECONDS = 365 * 86_400;
const MAX_GRACE_SECONDS = 365 * 86_400;

const lifetime = z
  .string({ message: 'must be a duration such as 30d, 12h, 3600s or a number of seconds' })
  .trim()
  .max(20, { message: 'must be a duration such as 30d, 12h, 3600s or a number of seconds' })
  .refine(
    (value) => {
      const seconds = parseDurationSeconds(value);
      return seconds !== null && seconds >= MIN_LIFETIME_SECONDS && seconds <= MAX_LIFETIME_SECONDS;
    },
    { message: `must be a duration such as 30d, 12h, 3600s or a number of seconds, from ${MIN_LIFETIME_SECONDS}s to 365d` },
  );
const updateBody = z
  .strictObject({
    jwtExpiresIn: lifetime.optional(),
    jwtRefreshGraceSeconds: z
      .int({ message: 'must be a whole number of seconds' })
      .min(0, { message: 'must be at least 0' })
      .max(MAX_GRACE_SECONDS, { message: `must be at most ${MAX_GRACE_SECONDS}` })
      .optional(),
    allowRegistration: z.boolean({ message: 'must be true or false' }).optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), { message: 'name at least one setting' });

const source = z.enum(['env', 'admin', 'default']);
const securitySettings = z.object({
  jwtExpiresIn: z.object({ value: z.string(), seconds: z.number().int(), source }),
  jwtRefreshGraceSeconds: z.object({ value: z.number().int(), seconds: z.number().int(), source }),
  allowRegistration: z.object({ value: z.boolean(), source }),
});
const denials = { 401: 'not signed in', 403: 'Insufficient permissions' };

/** CONTRACT 4 security settings, behind `manage:settings`. Environment values win over stored ones. */
export function settingsRoutes(container: Container) {
  const { settings, guards } = container;
  const api = createApiRouter(container.docs, '/api');
  const manageSettings = [guards.requirePermission('manage:settings')];
  const tags = ['Settings'];

  api.get(
    '/settings/security',
    { summary: 'Token lifetime, refresh grace and registration switch, each with its source', tags, auth: true, responses: { 200: { description: 'the resolved settings', schema: securitySettings }, ...denials } },
    ...manageSettings,
    async (_req, res) => {
      res.json(await settings.getSecuritySettings());
    },
  );
  api.put(
    '/settings/security',
    {
      summary: 'Store admin values (a value under an environment variable stays inactive)',
      tags,
      auth: true,
      body: updateBody,
      responses: { 200: { description: 'the resolved settings', schema: securitySettings }, 400: 'validation failed', ...denials },
    },
    ...manageSettings,
    async (req, res) => {
      res.json(await settings.updateSecuritySettings(req.body as SecuritySettingsUpdate, adminAudit(req)));
    },
  );
  return api.router;
}
