import type { ContentStatus, Role } from '../models';
import { can } from './permissions';

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

function owns(actor: ContentActor, item: ContentItemFacts): boolean {
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
export const contentPolicy = {
  /** Whether the actor may see this item. */
  canRead(actor: ContentActor, item: ContentItemFacts): boolean {
    return item.status === 'published' || can(actor.role, 'edit:any-content') || owns(actor, item);
  },

  /** Which items a list shows: all of them, or published ones plus the actor's own. */
  readScope(actor: ContentActor): 'all' | 'published-or-own' {
    return can(actor.role, 'edit:any-content') ? 'all' : 'published-or-own';
  },

  canCreate(actor: ContentActor, status: ContentStatus): boolean {
    if (!can(actor.role, 'create:content')) return false;
    return status !== 'published' || can(actor.role, 'publish:content');
  },

  /** Whether the actor may change the item, ending in `nextStatus` (the current status when unchanged). */
  canEdit(actor: ContentActor, item: ContentItemFacts, nextStatus: ContentStatus = item.status): boolean {
    const mayEdit = can(actor.role, 'edit:any-content') || (owns(actor, item) && can(actor.role, 'edit:own-content'));
    if (!mayEdit) return false;
    const touchesPublished = item.status === 'published' || nextStatus === 'published';
    return !touchesPublished || can(actor.role, 'publish:content');
  },

  canDelete(actor: ContentActor, item: ContentItemFacts): boolean {
    return can(actor.role, 'delete:any-content') || (owns(actor, item) && can(actor.role, 'delete:own-content'));
  },
};
