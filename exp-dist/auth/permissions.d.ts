import type { Role } from '../models';
export declare const PERMISSIONS: readonly ["manage:users", "manage:collections", "create:content", "edit:any-content", "edit:own-content", "publish:content", "delete:any-content", "delete:own-content", "view:activity-logs", "manage:plugins", "manage:settings", "access:admin"];
export type Permission = (typeof PERMISSIONS)[number];
/** SPEC "Permission matrix" as data: the only place that says which role may do what. */
export declare const ROLE_PERMISSIONS: Readonly<Record<Role, ReadonlySet<Permission>>>;
/** Whether a role holds a permission; unknown roles hold none. */
export declare function can(role: string, permission: Permission): boolean;
