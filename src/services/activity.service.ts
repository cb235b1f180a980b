import type { Logger } from 'pino';
import type { Models } from '../models';
import type { RequestContext } from '../http/request-context';

export const ACTIVITY_ACTIONS = [
  'auth.login',
  'auth.login_failed',
  'auth.logout',
  'auth.register',
  'auth.refresh',
  'auth.password_reset_requested',
  'auth.password_reset',
  'auth.otp_verified',
  'auth.magic_link_used',
  'oauth.login',
  'oauth.linked',
  'oauth.unlinked',
  'user.created',
  'user.updated',
  'user.deleted',
  'settings.updated',
  'plugin.updated',
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

export interface ActivityEntry {
  action: ActivityAction;
  userId?: string | null;
  email?: string | null;
  /** Non-secret facts only: never a password, token or code. */
  details?: Record<string, unknown>;
}

/** The activity log: who did what, from where. Writing it never fails the request it describes. */
export function createActivityService({ models, logger }: { models: Models; logger: Logger }) {
  async function record(entry: ActivityEntry, context: RequestContext): Promise<void> {
    try {
      await models.ActivityLog.create({
        action: entry.action,
        userId: entry.userId ?? null,
        email: entry.email ?? null,
        ip: context.ip,
        userAgent: context.userAgent,
        details: entry.details ?? null,
      });
    } catch (err) {
      logger.error({ err: (err as Error).message, action: entry.action }, 'could not write the activity log');
    }
  }

  return { record };
}

export type ActivityService = ReturnType<typeof createActivityService>;
