import { z } from 'zod';

const MAX_PAGE_SIZE = 100;
const DEFAULT_PAGE_SIZE = 20;
// Far beyond any real list; keeps the offset a safe integer.
const MAX_PAGE = 1_000_000;

/**
 * `page` and `limit` query parameters for list endpoints: whole numbers, page ≥ 1, limit 1..100
 * (default 20). Spread into a `z.strictObject` with the endpoint's own filters.
 */
export const pagingQuery = {
  page: z.coerce
    .number({ message: 'must be a whole number' })
    .int({ message: 'must be a whole number' })
    .min(1, { message: 'must be at least 1' })
    .max(MAX_PAGE, { message: `must be at most ${MAX_PAGE}` })
    .default(1),
  limit: z.coerce
    .number({ message: 'must be a whole number' })
    .int({ message: 'must be a whole number' })
    .min(1, { message: 'must be at least 1' })
    .max(MAX_PAGE_SIZE, { message: `must be at most ${MAX_PAGE_SIZE}` })
    .default(DEFAULT_PAGE_SIZE),
};

/** `:id` route parameter. */
export const idParams = z.strictObject({ id: z.string().min(1).max(64, { message: 'must be at most 64 characters' }) });
