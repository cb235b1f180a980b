import { QueryTypes, Utils, type Sequelize, type WhereOptions } from 'sequelize';
import type { Models } from '../../models';

/** A user matching a search: what the list needs to order and page the matches. */
export interface SearchMatch {
  id: string;
  createdAt: Date | string;
}

/** Reads a planned search's matches, `limit` of them after `offset`. */
export type SearchReader = (limit: number, offset?: number) => Promise<SearchMatch[]>;

/** At most this many of a term's trigrams are weighed (spread over the term): a long term needs no more to be rare. */
const SAMPLED_GRAMS = 12;
/**
 * The two rarest trigrams are always intersected, rarest first, the second a primary-key lookup per user
 * holding the first (its entries lie together, so the lookups stay in a few pages); the LIKE then checks the
 * rest of the term on the users holding both. Measured at a million users on MariaDB, where a lookup costs
 * 2–9 µs: without the second, every holder of the first is a read of the users table, scattered and, at a
 * million users, often not in memory (a term eleven users hold: 10 ms with two, 450 ms with one).
 */
const ALWAYS_JOINED = 2;
/**
 * A third trigram is joined only when few more users hold it than the rarest: then it removes most of the
 * users reads left (a term one user holds whose trigrams 5,000, 10,000 and 11,000 hold: 13–17 → 10–13 ms).
 * A common one would cost a lookup per match and save nothing (a dense term: 7.6 → 9.6 ms with a third).
 */
const THIRD_GRAM_RATIO = 4;
/**
 * SQLite: a trigram's users are counted up to here to rank the term's trigrams: enough to tell the rare from
 * the common at a hundred thousand users, at a bounded cost (in-process, a few milliseconds at most).
 */
const COUNT_LIMIT = 5000;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * A `where` with attribute names turned into column names (`emailVerifiedAt` → `email_verified_at`), as
 * findAll does before it writes SQL: needed wherever the query generator is called directly.
 */
export const inColumnNames = (Utils as unknown as { mapWhereFieldNames(where: WhereOptions, model: unknown): WhereOptions }).mapWhereFieldNames;

/** The distinct three-unit slices of a lower-cased term: bytes from MariaDB, characters from SQLite. */
function trigramsOf(lowered: string | Buffer): (string | Buffer)[] {
  const chars = Buffer.isBuffer(lowered) ? null : Array.from(lowered);
  const length = chars ? chars.length : lowered.length;
  const distinct = new Map<string, string | Buffer>();
  for (let at = 0; at + 3 <= length; at++) {
    const gram = chars ? chars.slice(at, at + 3).join('') : (lowered as Buffer).subarray(at, at + 3);
    const key = typeof gram === 'string' ? gram : gram.toString('hex');
    if (!distinct.has(key)) distinct.set(key, gram);
  }
  const grams = [...distinct.values()];
  if (grams.length <= SAMPLED_GRAMS) return grams;
  // Evenly spread over the term, first and last included: a rare stretch anywhere in it is likely sampled.
  return Array.from({ length: SAMPLED_GRAMS }, (_, i) => grams[Math.round((i * (grams.length - 1)) / (SAMPLED_GRAMS - 1))]);
}

/**
 * The user search through the trigram index (migration 20261126600000): a term's rarest trigrams are
 * intersected by primary key, rarest first and newest first, and only the users holding all of them have
 * their `search_text` compared with the LIKE, so a search costs in proportion to how rare the term is, not
 * to how many users there are. How many users hold each trigram comes from MariaDB's optimizer, which estimates it by diving
 * into the index (one EXPLAIN, under a millisecond), and is counted on SQLite, whose planner keeps no
 * per-value statistics; either way the join order is then fixed (STRAIGHT_JOIN, CROSS JOIN), since a
 * planner that sees only "one row per lookup" orders the lookups arbitrarily.
 * `plan` answers null for a term shorter than three units (no trigram to look up): the caller scans.
 */
export function createTrigramSearch({ sequelize, models }: { sequelize: Sequelize; models: Models }) {
  const mysql = sequelize.getDialect() === 'mysql';
  // The term lower-cased by the database, as the trigger lower-cased the users' text (its case mapping,
  // not JavaScript's): MariaDB's column holds LOWER()'s UTF-8 bytes; SQLite's lower() folds ASCII only.
  const LOWERED = mysql ? 'CAST(LOWER(?) AS BINARY)' : 'lower(?)';
  const JOIN = mysql ? 'STRAIGHT_JOIN' : 'CROSS JOIN';
  const inner = sequelize.getQueryInterface().queryGenerator as unknown as {
    getWhereConditions(where: WhereOptions, table: string, model: unknown): string;
  };
  const literal = (gram: string | Buffer) => sequelize.escape(gram as string);

  async function loweredTerm(term: string): Promise<string | Buffer> {
    // Printable ASCII lower-cases the same everywhere: no round trip for the usual term.
    if (PRINTABLE_ASCII.test(term)) return mysql ? Buffer.from(term.toLowerCase(), 'latin1') : term.toLowerCase();
    const [row] = await sequelize.query<{ t: string | Buffer }>(`SELECT ${LOWERED} AS t`, { replacements: [term], type: QueryTypes.SELECT });
    return row.t;
  }

  /** Whether any imported user waits for its trigrams: one probe of their index, nothing pending almost always. */
  async function somePending(): Promise<boolean> {
    const rows = await sequelize.query('SELECT 1 AS one FROM users WHERE search_pending = 1 LIMIT 1', { type: QueryTypes.SELECT });
    return rows.length > 0;
  }

  /** How many users hold each trigram: MariaDB's estimate, or SQLite's count up to COUNT_LIMIT; one statement. */
  async function holders(grams: (string | Buffer)[]): Promise<number[]> {
    if (mysql) {
      const parts = grams.map((gram, i) => `SELECT ${i} FROM user_search_grams WHERE gram = ${literal(gram)}`);
      const plan = await sequelize.query<{ id: number; rows: number | string | null }>(`EXPLAIN ${parts.join(' UNION ALL ')}`, { type: QueryTypes.SELECT });
      // One line per part, numbered from 1 in order (a final line, id null, is the union's own result).
      const estimates = grams.map(() => Number.MAX_SAFE_INTEGER);
      for (const line of plan) if (line.id) estimates[line.id - 1] = Number(line.rows ?? 0);
      return estimates;
    }
    const counts = grams.map(
      (gram, i) => `SELECT ${i} AS i, COUNT(*) AS n FROM (SELECT 1 AS one FROM user_search_grams WHERE gram = ${literal(gram)} LIMIT ${COUNT_LIMIT}) AS c${i}`,
    );
    const rows = await sequelize.query<{ i: number | string; n: number | string }>(counts.join(' UNION ALL '), { type: QueryTypes.SELECT });
    const byGram = grams.map(() => 0);
    for (const row of rows) byGram[Number(row.i)] = Number(row.n);
    return byGram;
  }

  /**
   * Plans a search once: the term lowered, its trigrams ranked, the statement written. Answers a reader of the
   * users matching `where` (which holds the search's LIKE) among those holding the term's trigrams, newest
   * first (then by id, the list's order), `limit` of them after `offset`: read in that order from the rarest
   * trigram's entries, which the index keeps in creation order, so no match past the page is read. Null for a
   * term shorter than three units (no trigram to look up).
   */
  async function plan(term: string, where: WhereOptions): Promise<SearchReader | null> {
    const grams = trigramsOf(await loweredTerm(term));
    if (grams.length === 0) return null;
    const conditions = inner.getWhereConditions(inColumnNames(where, models.User), 'u', models.User);
    const matching = conditions ? ` AND ${conditions}` : '';
    // Imported users whose trigrams are not written yet (migration 20261128007000): compared directly, newest
    // first by their own index, so the part of them a page needs is all that is read (none, most of the time).
    const pending = `SELECT u.id AS id, u.created_at AS createdAt FROM users u WHERE u.search_pending = 1${matching} ORDER BY u.created_at DESC, u.id DESC`;
    const [counts, anyPending] = await Promise.all([holders(grams), somePending()]);
    // A trigram no indexed user holds: only pending users can match (MariaDB estimates an empty range at one
    // row; the join then reads none).
    if (counts.some((n) => n === 0)) {
      return anyPending ? (limit, offset = 0) => sequelize.query<SearchMatch>(`${pending} LIMIT ${limit} OFFSET ${offset}`, { type: QueryTypes.SELECT }) : async () => [];
    }
    const ranked = grams.map((gram, i) => ({ gram, n: counts[i] })).sort((a, b) => a.n - b.n);
    const rarest = ranked.filter((entry, i) => i < ALWAYS_JOINED || (i === ALWAYS_JOINED && entry.n <= THIRD_GRAM_RATIO * ranked[0].n));
    const tables = rarest.map((_, i) => `user_search_grams g${i}`).join(` ${JOIN} `);
    const matched = rarest.map(
      ({ gram }, i) => `g${i}.gram = ${literal(gram)}${i > 0 ? ` AND g${i}.created_at = g0.created_at AND g${i}.user_id = g0.user_id` : ''}`,
    );
    const indexed = `SELECT u.id AS id, u.created_at AS createdAt FROM ${tables} ${JOIN} users u
      WHERE ${matched.join(' AND ')} AND u.id = g0.user_id${matching}
      ORDER BY g0.created_at DESC, g0.user_id DESC`;
    if (!anyPending) return (limit, offset = 0) => sequelize.query<SearchMatch>(`${indexed} LIMIT ${limit} OFFSET ${offset}`, { type: QueryTypes.SELECT });
    // Each part stops at the page's end (the merge sorts at most a page of each); a user in both (a pending user
    // whose text changed has its new trigrams) is one match.
    return (limit, offset = 0) =>
      sequelize.query<SearchMatch>(
        `SELECT id, createdAt FROM (SELECT * FROM (${indexed} LIMIT ${limit + offset}) AS i UNION SELECT * FROM (${pending} LIMIT ${limit + offset}) AS p) AS m
          ORDER BY createdAt DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
        { type: QueryTypes.SELECT },
      );
  }

  return { plan };
}
