import type { ContentStatus, Role } from '../models';
/** The parts of a content item the rules look at. */
export interface ContentItemFacts {
    authorId: string | null;
    status: ContentStatus;
}
/** Who is asking. */
export interface ContentActor {
    id: string;
    role: Role;
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
export declare const contentPolicy: {
    /** Whether the actor may see this item. */
    canRead(actor: ContentActor, item: ContentItemFacts): boolean;
    /** Which items a list shows: all of them, or published ones plus the actor's own. */
    readScope(actor: ContentActor): "all" | "published-or-own";
    canCreate(actor: ContentActor, status: ContentStatus): boolean;
    /** Whether the actor may change the item, ending in `nextStatus` (the current status when unchanged). */
    canEdit(actor: ContentActor, item: ContentItemFacts, nextStatus?: ContentStatus): boolean;
    canDelete(actor: ContentActor, item: ContentItemFacts): boolean;
    /** Whether the actor may delete some item at all (the route-level check before an item is loaded). */
    mayDeleteAny(role: Role): boolean;
};
