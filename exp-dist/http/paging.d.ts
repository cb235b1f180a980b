import { z } from 'zod';
export declare const MAX_PAGE_SIZE = 100;
export declare const DEFAULT_PAGE_SIZE = 20;
/**
 * `page` and `limit` query parameters for list endpoints: whole numbers, page ≥ 1, limit 1..100
 * (default 20). Spread into a `z.strictObject` with the endpoint's own filters.
 */
export declare const pagingQuery: {
    page: z.ZodDefault<z.ZodCoercedNumber<unknown>>;
    limit: z.ZodDefault<z.ZodCoercedNumber<unknown>>;
};
/** `:id` route parameter. */
export declare const idParams: z.ZodObject<{
    id: z.ZodString;
}, z.core.$strict>;
