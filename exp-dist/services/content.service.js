"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.CONTENT_MESSAGES = void 0;
exports.createContentService = createContentService;
const node_crypto_1 = __importDefault(require("node:crypto"));
const sequelize_1 = require("sequelize");
const app_error_1 = require("../http/app-error");
const content_policy_1 = require("../auth/content-policy");
const transaction_retry_1 = require("../db/transaction-retry");
exports.CONTENT_MESSAGES = {
    notFound: 'Content not found',
    noCollection: 'collection not found',
};
function toView(row) {
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
function createContentService({ models }) {
    const sequelize = models.Content.sequelize;
    async function assertCollectionExists(collectionId, transaction) {
        if (!collectionId)
            return;
        const found = await models.Collection.findByPk(collectionId, { attributes: ['id'], transaction });
        if (!found)
            throw app_error_1.AppError.validation({ collectionId: exports.CONTENT_MESSAGES.noCollection });
    }
    function collectionGone(err) {
        // The collection was deleted between the check and the write.
        if (err instanceof sequelize_1.ForeignKeyConstraintError)
            throw app_error_1.AppError.validation({ collectionId: exports.CONTENT_MESSAGES.noCollection });
        throw err;
    }
    /** One page of the items the actor may see, newest first. */
    async function list(actor, query) {
        const conditions = [];
        if (content_policy_1.contentPolicy.readScope(actor) === 'published-or-own') {
            conditions.push({ [sequelize_1.Op.or]: [{ status: 'published' }, { authorId: actor.id }] });
        }
        if (query.status)
            conditions.push({ status: query.status });
        if (query.collectionId)
            conditions.push({ collectionId: query.collectionId });
        const { rows, count } = await models.Content.findAndCountAll({
            where: { [sequelize_1.Op.and]: conditions },
            order: [
                ['createdAt', 'DESC'],
                ['id', 'DESC'],
            ],
            limit: query.limit,
            offset: (query.page - 1) * query.limit,
        });
        return { content: rows.map(toView), total: count };
    }
    async function get(actor, id) {
        const row = await models.Content.findByPk(id);
        if (!row)
            throw app_error_1.AppError.notFound(exports.CONTENT_MESSAGES.notFound);
        if (!content_policy_1.contentPolicy.canRead(actor, row))
            throw app_error_1.AppError.forbidden();
        return toView(row);
    }
    /** Creates an item authored by the actor, `draft` unless another status is given (and allowed). */
    async function create(actor, input) {
        const status = input.status ?? 'draft';
        if (!content_policy_1.contentPolicy.canCreate(actor, status))
            throw app_error_1.AppError.forbidden();
        const row = await sequelize
            .transaction(async (transaction) => {
            await assertCollectionExists(input.collectionId, transaction);
            return models.Content.create({
                id: node_crypto_1.default.randomUUID(),
                title: input.title,
                body: input.body ?? null,
                status,
                collectionId: input.collectionId ?? null,
                authorId: actor.id,
            }, { transaction });
        })
            .catch(collectionGone);
        return toView(row);
    }
    /** Changes the fields given; the policy is checked against the locked, current row. */
    async function update(actor, id, changes) {
        const row = await (0, transaction_retry_1.transactionWithRetry)(sequelize, async (transaction) => {
            const item = await models.Content.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
            if (!item)
                throw app_error_1.AppError.notFound(exports.CONTENT_MESSAGES.notFound);
            if (!content_policy_1.contentPolicy.canEdit(actor, item, changes.status ?? item.status))
                throw app_error_1.AppError.forbidden();
            if (changes.collectionId !== undefined)
                await assertCollectionExists(changes.collectionId, transaction);
            for (const field of ['title', 'body', 'status', 'collectionId']) {
                if (changes[field] !== undefined)
                    item.set(field, changes[field]);
            }
            await item.save({ transaction });
            return item;
        }).catch(collectionGone);
        return toView(row);
    }
    async function remove(actor, id) {
        await (0, transaction_retry_1.transactionWithRetry)(sequelize, async (transaction) => {
            const item = await models.Content.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
            if (!item)
                throw app_error_1.AppError.notFound(exports.CONTENT_MESSAGES.notFound);
            if (!content_policy_1.contentPolicy.canDelete(actor, item))
                throw app_error_1.AppError.forbidden();
            await item.destroy({ transaction });
        });
    }
    return { list, get, create, update, remove };
}
//# sourceMappingURL=content.service.js.map