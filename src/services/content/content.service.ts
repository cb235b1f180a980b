import crypto from 'node:crypto';
import { ForeignKeyConstraintError, Op, type Transaction, type WhereOptions } from 'sequelize';
import type { Content, ContentStatus, Models } from '../../models';
import { AppError } from '../../http/app-error';
import { contentPolicy, type ContentActor } from '../../access/content-policy';
import { transactionWithRetry } from '../../db/transaction-retry';
import { readsMayLag } from '../../db/read-replicas';

const CONTENT_MESSAGES = {
  notFound: 'Content not found',
  noCollection: 'collection not found',
} as const;

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

function toView(row: Content): ContentView {
  return {
    id: row.id,
    title: row.title,
    body: row.body ?? null,
    status: row.status,
    collectionId: row.collectionId ?? null,
    authorId: row.authorId ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * Content items. Every decision about who may read or change an item is `contentPolicy`'s; a denial
 * is 403 "Insufficient permissions" (also for reading an item one may not see), 404 only when the item
 * does not exist.
 */
export function createContentService({ models }: { models: Models }) {
  const sequelize = models.Content.sequelize!;

  async function assertCollectionExists(collectionId: string | null | undefined, transaction: Transaction): Promise<void> {
    if (!collectionId) return;
    const found = await models.Collection.findByPk(collectionId, { attributes: ['id'], transaction });
    if (!found) throw AppError.validation({ collectionId: CONTENT_MESSAGES.noCollection });
  }

  function collectionGone(err: unknown): never {
    // The collection was deleted between the check and the write.
    if (err instanceof ForeignKeyConstraintError) throw AppError.validation({ collectionId: CONTENT_MESSAGES.noCollection });
    throw err;
  }

  /** One page of the items the actor may see, newest first. */
  async function list(actor: ContentActor, query: ContentListQuery): Promise<{ content: ContentView[]; total: number }> {
    const conditions: WhereOptions[] = [];
    if (contentPolicy.readScope(actor) === 'published-or-own') {
      conditions.push({ [Op.or]: [{ status: 'published' }, { authorId: actor.id }] });
    }
    if (query.status) conditions.push({ status: query.status });
    if (query.collectionId) conditions.push({ collectionId: query.collectionId });
    const { rows, count } = await models.Content.findAndCountAll({
      where: { [Op.and]: conditions },
      order: [
        ['createdAt', 'DESC'],
        ['id', 'DESC'],
      ],
      limit: query.limit,
      offset: (query.page - 1) * query.limit,
    });
    return { content: rows.map(toView), total: count };
  }

  async function get(actor: ContentActor, id: string): Promise<ContentView> {
    const row = await models.Content.findByPk(id);
    if (!row) throw AppError.notFound(CONTENT_MESSAGES.notFound);
    if (!contentPolicy.canRead(actor, row)) throw AppError.forbidden();
    return toView(row);
  }

  /** Creates an item authored by the actor, `draft` unless another status is given (and allowed). */
  async function create(actor: ContentActor, input: ContentInput): Promise<ContentView> {
    const status = input.status ?? 'draft';
    if (!contentPolicy.canCreate(actor, status)) throw AppError.forbidden();
    const row = await sequelize
      .transaction(async (transaction) => {
        await assertCollectionExists(input.collectionId, transaction);
        return models.Content.create(
          {
            id: crypto.randomUUID(),
            title: input.title,
            body: input.body ?? null,
            status,
            collectionId: input.collectionId ?? null,
            authorId: actor.id,
          },
          { transaction },
        );
      })
      .catch(collectionGone);
    return toView(row);
  }

  /** Changes the fields given; the policy is checked against the locked, current row. */
  async function update(actor: ContentActor, id: string, changes: Partial<ContentInput>): Promise<ContentView> {
    const row = await transactionWithRetry(sequelize, async (transaction) => {
      const item = await models.Content.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
      if (!item) throw AppError.notFound(CONTENT_MESSAGES.notFound);
      if (!contentPolicy.canEdit(actor, item, changes.status ?? item.status)) throw AppError.forbidden();
      if (changes.collectionId !== undefined) await assertCollectionExists(changes.collectionId, transaction);
      for (const field of ['title', 'body', 'status', 'collectionId'] as const) {
        if (changes[field] !== undefined) item.set(field, changes[field]);
      }
      await item.save({ transaction });
      return item;
    }).catch(collectionGone);
    return toView(row);
  }

  async function remove(actor: ContentActor, id: string): Promise<void> {
    await transactionWithRetry(sequelize, async (transaction) => {
      const item = await models.Content.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
      if (!item) throw AppError.notFound(CONTENT_MESSAGES.notFound);
      if (!contentPolicy.canDelete(actor, item)) throw AppError.forbidden();
      await item.destroy({ transaction });
    });
  }

  // Lists may show a replica's state, a moment behind (DATABASE_READ_URLS).
  return { list: (actor: ContentActor, query: ContentListQuery) => readsMayLag(() => list(actor, query)), get, create, update, remove };
}
