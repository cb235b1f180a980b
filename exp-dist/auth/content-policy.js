"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.contentPolicy = void 0;
const permissions_1 = require("./permissions");
function owns(actor, item) {
    return item.authorId !== null && item.authorId === actor.id;
}
/**
 * Content ownership rules over the permission matrix (SPEC "Roles", CONTRACT 4), in one place:
 * - read: published items for everyone; unpublished items for those who may edit any content, and for
 *   their own author;
 * - create: with `create:content`; only holders of `publish:content` may create an item as published;
 * - edit: any item with `edit:any-content`, own items with `edit:own-content`; an item that is or
 *   would become published needs `publish:content` too (so authors never publish and never touch a
 *   published item, and stay in draft/review);
 * - delete: any item with `delete:any-content`, own items with `delete:own-content`.
 */
exports.contentPolicy = {
    /** Whether the actor may see this item. */
    canRead(actor, item) {
        return item.status === 'published' || (0, permissions_1.can)(actor.role, 'edit:any-content') || owns(actor, item);
    },
    /** Which items a list shows: all of them, or published ones plus the actor's own. */
    readScope(actor) {
        return (0, permissions_1.can)(actor.role, 'edit:any-content') ? 'all' : 'published-or-own';
    },
    canCreate(actor, status) {
        if (!(0, permissions_1.can)(actor.role, 'create:content'))
            return false;
        return status !== 'published' || (0, permissions_1.can)(actor.role, 'publish:content');
    },
    /** Whether the actor may change the item, ending in `nextStatus` (the current status when unchanged). */
    canEdit(actor, item, nextStatus = item.status) {
        const mayEdit = (0, permissions_1.can)(actor.role, 'edit:any-content') || (owns(actor, item) && (0, permissions_1.can)(actor.role, 'edit:own-content'));
        if (!mayEdit)
            return false;
        const touchesPublished = item.status === 'published' || nextStatus === 'published';
        return !touchesPublished || (0, permissions_1.can)(actor.role, 'publish:content');
    },
    canDelete(actor, item) {
        return (0, permissions_1.can)(actor.role, 'delete:any-content') || (owns(actor, item) && (0, permissions_1.can)(actor.role, 'delete:own-content'));
    },
    /** Whether the actor may delete some item at all (the route-level check before an item is loaded). */
    mayDeleteAny(role) {
        return (0, permissions_1.can)(role, 'delete:any-content') || (0, permissions_1.can)(role, 'delete:own-content');
    },
};
//# sourceMappingURL=content-policy.js.map