import type { Logger } from 'pino';
import type { Models } from '../models';
import type { RequestContext } from '../http/request-context';
export declare const ACTIVITY_ACTIONS: readonly ["auth.login", "auth.login_failed", "auth.logout", "auth.register", "auth.refresh", "auth.password_reset_requested", "auth.password_reset", "auth.otp_verified", "auth.magic_link_used", "oauth.login", "oauth.linked", "oauth.unlinked", "user.created", "user.updated", "user.deleted", "settings.updated", "plugin.updated"];
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];
export interface ActivityEntry {
    action: ActivityAction;
    userId?: string | null;
    email?: string | null;
    /** Non-secret facts only: never a password, token or code. */
    details?: Record<string, unknown>;
}
export interface ActivityFilter {
    page: number;
    limit: number;
    action?: ActivityAction;
    userId?: string;
}
/** A log entry as the API shows it. */
export interface ActivityLogView {
    id: number;
    action: string;
    userId: string | null;
    email: string | null;
    ip: string | null;
    userAgent: string | null;
    details: Record<string, unknown> | null;
    createdAt: Date;
}
/** The activity log: who did what, from where. Writing it never fails the request it describes. */
export declare function createActivityService({ models, logger }: {
    models: Models;
    logger: Logger;
}): {
    record: (entry: ActivityEntry, context: RequestContext) => Promise<void>;
    list: (filter: ActivityFilter) => Promise<{
        logs: ActivityLogView[];
        total: number;
    }>;
};
export type ActivityService = ReturnType<typeof createActivityService>;
