import type { ContentStatus, Role } from '../models';
import { allows, type Permission } from './permissions';

/** The parts of a content item the rules look at. */
export interface ContentItemFacts {
  authorId: string | null;
  status: ContentStatus;
}

/** Who is asking. */
export interface ContentActor {
  id: string;
  role: Role;
  /** Set when an API key acts: what it was given (CONTRACT 11), within the role. */
  keyPermissions?: ReadonlySet<Permission>;
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
    return item.status === 'published' || allows(actor.role, 'edit:any-content', actor.keyPermissions) || owns(actor, item);
  },

  /** Which items a list shows: all of them, or published ones plus the actor's own. */
  readScope(actor: ContentActor): 'all' | 'published-or-own' {
    return allows(actor.role, 'edit:any-content', actor.keyPermissions) ? 'all' : 'published-or-own';
  },

  canCreate(actor: ContentActor, status: ContentStatus): boolean {
    if (!allows(actor.role, 'create:content', actor.keyPermissions)) return false;
    return status !== 'published' || allows(actor.role, 'publish:content', actor.keyPermissions);
  },

  /** Whether the actor may change the item, ending in `nextStatus` (the current status when unchanged). */
  canEdit(actor: ContentActor, item: ContentItemFacts, nextStatus: ContentStatus = item.status): boolean {
    const mayEdit = allows(actor.role, 'edit:any-content', actor.keyPermissions) || (owns(actor, item) && allows(actor.role, 'edit:own-content', actor.keyPermissions));
    if (!mayEdit) return false;
    const touchesPublished = item.status === 'published' || nextStatus === 'published';
    return !touchesPublished || allows(actor.role, 'publish:content', actor.keyPermissions);
  },

  canDelete(actor: ContentActor, item: ContentItemFacts): boolean {
    return allows(actor.role, 'delete:any-content', actor.keyPermissions) || (owns(actor, item) && allows(actor.role, 'delete:own-content', actor.keyPermissions));
  },
};
