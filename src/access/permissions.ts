import type { Role } from '../models';

export const PERMISSIONS = [
  'manage:users',
  'manage:collections',
  'create:content',
  'edit:any-content',
  'edit:own-content',
  'publish:content',
  'delete:any-content',
  'delete:own-content',
  'view:activity-logs',
  'manage:plugins',
  'manage:settings',
  'access:admin',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** SPEC "Permission matrix" as data: the only place that says which role may do what. */
const ROLE_PERMISSIONS: Readonly<Record<Role, ReadonlySet<Permission>>> = {
  admin: new Set(PERMISSIONS),
  editor: new Set<Permission>([
    'create:content',
    'edit:any-content',
    'edit:own-content',
    'publish:content',
    'delete:own-content',
    'access:admin',
  ]),
  author: new Set<Permission>(['create:content', 'edit:own-content', 'access:admin']),
  // "limited" admin-panel access: a viewer may open the admin site for their own profile only.
  viewer: new Set<Permission>(['access:admin']),
};

/**
 * Whether a signed-in request may use a permission: its role holds it and, when an API key signed it in,
 * the key was given it too (CONTRACT 11: a key's permissions are a subset of the role's, checked against
 * the role of now, so a demotion limits the key at once).
 */
export function allows(role: string, permission: Permission, keyPermissions?: ReadonlySet<Permission>): boolean {
  return can(role, permission) && (keyPermissions === undefined || keyPermissions.has(permission));
}

/** Whether a role holds a permission; unknown roles hold none. */
export function can(role: string, permission: Permission): boolean {
  return Object.hasOwn(ROLE_PERMISSIONS, role) && ROLE_PERMISSIONS[role as Role].has(permission);
}
