import type { Models } from '../models';
export declare const COLLECTION_MESSAGES: {
    readonly notFound: "Collection not found";
    readonly duplicate: "A collection with this name already exists";
};
export interface CollectionView {
    id: string;
    name: string;
    description: string | null;
    createdAt: Date;
    updatedAt: Date;
}
export interface CollectionInput {
    name: string;
    description?: string | null;
}
/** Content collections; who may change them is the routes' guard (`manage:collections`). */
export declare function createCollectionService({ models }: {
    models: Models;
}): {
    list: () => Promise<CollectionView[]>;
    create: (input: CollectionInput) => Promise<CollectionView>;
    update: (id: string, changes: Partial<CollectionInput>) => Promise<CollectionView>;
    remove: (id: string) => Promise<void>;
};
export type CollectionService = ReturnType<typeof createCollectionService>;
