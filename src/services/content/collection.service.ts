import crypto from 'node:crypto';
import { UniqueConstraintError } from 'sequelize';
import type { Collection, Models } from '../../models';
import { AppError } from '../../http/app-error';

export const COLLECTION_MESSAGES = {
  notFound: 'Collection not found',
  duplicate: 'A collection with this name already exists',
} as const;

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

function toView(row: Collection): CollectionView {
  return { id: row.id, name: row.name, description: row.description ?? null, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

/** Content collections; who may change them is the routes' guard (`manage:collections`). */
export function createCollectionService({ models }: { models: Models }) {
  async function list(): Promise<CollectionView[]> {
    const rows = await models.Collection.findAll({ order: [['name', 'ASC']] });
    return rows.map(toView);
  }

  async function get(id: string): Promise<CollectionView> {
    const row = await models.Collection.findByPk(id);
    if (!row) throw AppError.notFound(COLLECTION_MESSAGES.notFound);
    return toView(row);
  }

  async function create(input: CollectionInput): Promise<CollectionView> {
    try {
      const row = await models.Collection.create({ id: crypto.randomUUID(), name: input.name, description: input.description ?? null });
      return toView(row);
    } catch (err) {
      if (err instanceof UniqueConstraintError) throw AppError.conflict(COLLECTION_MESSAGES.duplicate);
      throw err;
    }
  }

  /** Changes the fields given; 404 when missing, 409 when the new name is taken. */
  async function update(id: string, changes: Partial<CollectionInput>): Promise<CollectionView> {
    const row = await models.Collection.findByPk(id);
    if (!row) throw AppError.notFound(COLLECTION_MESSAGES.notFound);
    if (changes.name !== undefined) row.name = changes.name;
    if (changes.description !== undefined) row.description = changes.description;
    try {
      await row.save();
    } catch (err) {
      if (err instanceof UniqueConstraintError) throw AppError.conflict(COLLECTION_MESSAGES.duplicate);
      throw err;
    }
    return toView(row);
  }

  /** Deletes a collection; its items stay, without a collection (the foreign key sets NULL). */
  async function remove(id: string): Promise<void> {
    const deleted = await models.Collection.destroy({ where: { id } });
    if (deleted === 0) throw AppError.notFound(COLLECTION_MESSAGES.notFound);
  }

  return { list, get, create, update, remove };
}
