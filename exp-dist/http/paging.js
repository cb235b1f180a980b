"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.idParams = exports.pagingQuery = exports.DEFAULT_PAGE_SIZE = exports.MAX_PAGE_SIZE = void 0;
const zod_1 = require("zod");
exports.MAX_PAGE_SIZE = 100;
exports.DEFAULT_PAGE_SIZE = 20;
// Far beyond any real list; keeps the offset a safe integer.
const MAX_PAGE = 1_000_000;
/**
 * `page` and `limit` query parameters for list endpoints: whole numbers, page ≥ 1, limit 1..100
 * (default 20). Spread into a `z.strictObject` with the endpoint's own filters.
 */
exports.pagingQuery = {
    page: zod_1.z.coerce
        .number({ message: 'must be a whole number' })
        .int({ message: 'must be a whole number' })
        .min(1, { message: 'must be at least 1' })
        .max(MAX_PAGE, { message: `must be at most ${MAX_PAGE}` })
        .default(1),
    limit: zod_1.z.coerce
        .number({ message: 'must be a whole number' })
        .int({ message: 'must be a whole number' })
        .min(1, { message: 'must be at least 1' })
        .max(exports.MAX_PAGE_SIZE, { message: `must be at most ${exports.MAX_PAGE_SIZE}` })
        .default(exports.DEFAULT_PAGE_SIZE),
};
/** `:id` route parameter. */
exports.idParams = zod_1.z.strictObject({ id: zod_1.z.string().min(1).max(64) });
//# sourceMappingURL=paging.js.map