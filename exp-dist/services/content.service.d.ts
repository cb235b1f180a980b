import type { ContentStatus, Models } from '../models';
import { type ContentActor } from '../auth/content-policy';
export declare const CONTENT_MESSAGES: {
    readonly notFound: "Content not found";
    readonly noCollection: "collection not found";
};
export interface ContentView {
    id: string;
    title: string;
    body: string | null;
    status: ContentStatus;
    collectionId: string | null;
    authorId: string | null;
    createdAt: Date;
    updatedAt: Date;
}
export interface ContentInput {
    title: string;
    body?: string | null;
    status?: ContentStatus;
    collectionId?: string | null;
}
export interface ContentListQuery {
    page: number;
    limit: number;
    status?: ContentStatus;
    collectionId?: string;
}
/**
 * Content items. Every decision about who may read or change an item is `contentPolicy`'s; a denial
 * is 403 "Insufficient permissions" (also for reading an item one may not see), 404 only when the item
 * does not exist.
 */
export declare function createContentService({ models }: {
    models: Models;
}): {
    list: (actor: ContentActor, query: ContentListQuery) => Promise<{
        content: ContentView[];
        total: number;
    }>;
    get: (actor: ContentActor, id: string) => Promise<ContentView>;
    create: (actor: ContentActor, input: ContentInput) => Promise<ContentView>;
    update: (actor: ContentActor, id: string, changes: Partial<ContentInput>) => Promise<ContentView>;
    remove: (actor: ContentActor, id: string) => Promise<void>;
};
export type ContentService = ReturnType<typeof createContentService>;
