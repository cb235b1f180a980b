import { QueryTypes, Utils, type Sequelize, type WhereOptions } from 'sequelize';
import type { Models } from '../models';

/** A user matching a search: what the list needs to order and page the matches. */
export interface SearchMatch {
  id: string;
  createdAt: Date | string;
}

/** At most this many of a term's trigrams are counted (spread over the term): a long term needs no more to be rare. */
const PROBED_GRAMS = 12;
/** The rarest this many are intersected; the LIKE that follows checks the rest of the term. */
const JOINED_GRAMS = 4;
/**
 * A trigram's users are counted up to here: enough to rank a term's trigrams by rarity at bounded cost (a
 * trigram every user holds costs this many index entries, not a million). MariaDB's optimizer ranks the
 * joined trigrams again by its own index dives; SQLite joins them in this order.
 */
const PROBE_LIMIT = 1000;

/**
 * A `where` with attribute names turned into column names (`emailVerifiedAt` → `email_verified_at`), as
 * findAll does before it writes SQL: needed wherever the query generator is called directly.
 */
export const inColumnNames = (Utils as unknown as { mapWhereFieldNames(where: WhereOptions, model: unknown): WhereOptions }).mapWhereFieldNames;

/** The distinct three-unit slices of a lower-cased term: bytes from MariaDB, characters from SQLite. */
function trigramsOf(lowered: string | Buffer): (string | Buffer)[] {
  const units: (string | Buffer)[] = [];
  const seen = new Set<string>();
  const length = Buffer.isBuffer(lowered) ? lowered.length : Array.from(lowered).length;
  const chars = Buffer.isBuffer(lowered) ? null : Array.from(lowered);
  for (let at = 0; at + 3 <= length; at++) {
    const gram = chars ? chars.slice(at, at + 3).join('') : (lowered as Buffer).subarray(at, at + 3);
    const key = Buffer.isBuffer(gram) ? gram.toString('hex') : gram;
    if (!seen.has(key)) {
      seen.add(key);
      units.push(gram);
    }
  }
  if (units.length <= PROBED_GRAMS) return units;
  // Evenly spread over the term, first and last included: a rare stretch anywhere in it is likely sampled.
  return Array.from({ length: PROBED_GRAMS }, (_, i) => units[Math.round((i * (units.length - 1)) / (PROBED_GRAMS - 1))]);
}

/**
 * The user search through the trigram index (migration 20261126600000): a term's rarest trigrams are
 * intersected by primary key, and only the users holding all of them have their `search_text` compared
 * with the LIKE, so a search costs in proportion to how rare the term is, not to how many users there are.
 * `matches` answers null for a term shorter than three units (no trigram to look up): the caller scans.
 */
export function createTrigramSearch({ sequelize, models }: { sequelize: Sequelize; models: Models }) {
  const mysql = sequelize.getDialect() === 'mysql';
  // The term lower-cased by the database, as the trigger lower-cased the users' text (its case mapping,
  // not JavaScript's): MariaDB's column holds LOWER()'s UTF-8 bytes; SQLite's lower() folds ASCII only.
  const LOWERED = mysql ? 'CAST(LOWER(?) AS BINARY)' : 'lower(?)';
  const inner = sequelize.getQueryInterface().queryGenerator as unknown as {
    getWhereConditions(where: WhereOptions, table: string, model: unknown): string;
  };

  async function loweredTerm(term: string): Promise<string | Buffer> {
    const [row] = await sequelize.query<{ t: string | Buffer }>(`SELECT ${LOWERED} AS t`, { replacements: [term], type: QueryTypes.SELECT });
    return row.t;
  }

  /** Each trigram's number of users, counted up to PROBE_LIMIT, in one statement. */
  async function rarity(grams: (string | Buffer)[]): Promise<number[]> {
    const counts = grams.map(
      (gram, i) => `SELECT ${i} AS i, COUNT(*) AS n FROM (SELECT 1 AS one FROM user_search_grams WHERE gram = ${sequelize.escape(gram as string)} LIMIT ${PROBE_LIMIT}) AS c${i}`,
    );
    const rows = await sequelize.query<{ i: number | string; n: number | string }>(counts.join(' UNION ALL '), { type: QueryTypes.SELECT });
    const byGram = new Array<number>(grams.length).fill(0);
    for (const row of rows) byGram[Number(row.i)] = Number(row.n);
    return byGram;
  }

  /** Users matching `where` (which holds the search's LIKE) among those holding the term's trigrams, up to `limit`. */
  async function matches(term: string, where: WhereOptions, limit: number): Promise<SearchMatch[] | null> {
    const grams = trigramsOf(await loweredTerm(term));
    if (grams.length === 0) return null;
    const counts = await rarity(grams);
    // A trigram no user holds: nobody matches, and nothing more is read.
    if (counts.some((n) => n === 0)) return [];
    const rarest = grams.map((gram, i) => ({ gram, n: counts[i] })).sort((a, b) => a.n - b.n).slice(0, JOINED_GRAMS);
    // CROSS JOIN keeps this order on SQLite (rarest first, each further trigram a primary-key lookup);
    // MariaDB reorders by its own estimates, which see past PROBE_LIMIT.
    const tables = rarest.map((_, i) => `user_search_grams g${i}`).join(' CROSS JOIN ');
    const joined = rarest.map(({ gram }, i) => `g${i}.gram = ${sequelize.escape(gram as string)}${i > 0 ? ` AND g${i}.user_id = g0.user_id` : ''}`);
    const conditions = inner.getWhereConditions(inColumnNames(where, models.User), 'u', models.User);
    const sql = `SELECT u.id AS id, u.created_at AS createdAt FROM ${tables} CROSS JOIN users u
      WHERE ${joined.join(' AND ')} AND u.id = g0.user_id${conditions ? ` AND ${conditions}` : ''} LIMIT ${limit}`;
    return sequelize.query<SearchMatch>(sql, { type: QueryTypes.SELECT });
  }

  return { matches };
}
