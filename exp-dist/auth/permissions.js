"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ROLE_PERMISSIONS = exports.PERMISSIONS = void 0;
exports.can = can;
exports.PERMISSIONS = [
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
];
/** SPEC "Permission matrix" as data: the only place that says which role may do what. */
exports.ROLE_PERMISSIONS = {
    admin: new Set(exports.PERMISSIONS),
    editor: new Set([
        'create:content',
        'edit:any-content',
        'edit:own-content',
        'publish:content',
        'delete:own-content',
        'access:admin',
    ]),
    author: new Set(['create:content', 'edit:own-content', 'access:admin']),
    // "limited" admin-panel access: a viewer may open the admin site for their own profile only.
    viewer: new Set(['access:admin']),
};
/** Whether a role holds a permission; unknown roles hold none. */
function can(role, permission) {
    return Object.hasOwn(exports.ROLE_PERMISSIONS, role) && exports.ROLE_PERMISSIONS[role].has(permission);
}
//# sourceMappingURL=permissions.js.map