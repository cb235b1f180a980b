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

/** Whether a role holds a permission; unknown roles hold none. */
export function can(role: string, permission: Permission): boolean {
  return Object.hasOwn(ROLE_PERMISSIONS, role) && ROLE_PERMISSIONS[role as Role].has(permission);
}
