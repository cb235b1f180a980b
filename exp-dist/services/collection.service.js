"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.COLLECTION_MESSAGES = void 0;
exports.createCollectionService = createCollectionService;
const node_crypto_1 = __importDefault(require("node:crypto"));
const sequelize_1 = require("sequelize");
const app_error_1 = require("../http/app-error");
exports.COLLECTION_MESSAGES = {
    notFound: 'Collection not found',
    duplicate: 'A collection with this name already exists',
};
function toView(row) {
    return { id: row.id, name: row.name, description: row.description ?? null, createdAt: row.createdAt, updatedAt: row.updatedAt };
}
/** Content collections; who may change them is the routes' guard (`manage:collections`). */
function createCollectionService({ models }) {
    async function list() {
        const rows = await models.Collection.findAll({ order: [['name', 'ASC']] });
        return rows.map(toView);
    }
    async function create(input) {
        try {
            const row = await models.Collection.create({ id: node_crypto_1.default.randomUUID(), name: input.name, description: input.description ?? null });
            return toView(row);
        }
        catch (err) {
            if (err instanceof sequelize_1.UniqueConstraintError)
                throw app_error_1.AppError.conflict(exports.COLLECTION_MESSAGES.duplicate);
            throw err;
        }
    }
    /** Changes the fields given; 404 when missing, 409 when the new name is taken. */
    async function update(id, changes) {
        const row = await models.Collection.findByPk(id);
        if (!row)
            throw app_error_1.AppError.notFound(exports.COLLECTION_MESSAGES.notFound);
        if (changes.name !== undefined)
            row.name = changes.name;
        if (changes.description !== undefined)
            row.description = changes.description;
        try {
            await row.save();
        }
        catch (err) {
            if (err instanceof sequelize_1.UniqueConstraintError)
                throw app_error_1.AppError.conflict(exports.COLLECTION_MESSAGES.duplicate);
            throw err;
        }
        return toView(row);
    }
    /** Deletes a collection; its items stay, without a collection (the foreign key sets NULL). */
    async function remove(id) {
        const deleted = await models.Collection.destroy({ where: { id } });
        if (deleted === 0)
            throw app_error_1.AppError.notFound(exports.COLLECTION_MESSAGES.notFound);
    }
    return { list, create, update, remove };
}
//# sourceMappingURL=collection.service.js.map