import assert from 'node:assert/strict';
import { QueryTypes } from 'sequelize';
import { ctx } from './context';

/*
 * The trigram index behind the user search (migration 20261126600000), checked against the users' text: what it
 * holds for some users, and what it should hold, sliced here from each user's search_text.
 */

/** A trigram as a comparable string: the database's bytes (MariaDB) or characters (SQLite). */
const key = (gram: string | Buffer) => (Buffer.isBuffer(gram) ? gram.toString('hex') : gram);

/** What the index holds for these users, as "user gram" strings. */
export async function indexed(ids: string[]): Promise<string[]> {
  const rows = await ctx().sequelize.query<{ gram: string | Buffer; user_id: string }>('SELECT gram, user_id FROM user_search_grams WHERE user_id IN (:ids)', {
    replacements: { ids },
    type: QueryTypes.SELECT,
  });
  return rows.map((row) => `${row.user_id} ${key(row.gram)}`).sort();
}

/** What the index should hold, sliced here from each user's search_text (ASCII lower-cased on SQLite). */
export async function expected(ids: string[]): Promise<string[]> {
  const rows = await ctx().sequelize.query<{ id: string; search_text: string | Buffer }>('SELECT id, search_text FROM users WHERE id IN (:ids)', {
    replacements: { ids },
    type: QueryTypes.SELECT,
  });
  const out = new Set<string>();
  for (const row of rows) {
    const text = row.search_text;
    const units = Buffer.isBuffer(text) ? [...text].map((byte) => Buffer.from([byte])) : Array.from(text.replace(/[A-Z]/g, (c) => c.toLowerCase()));
    for (let at = 0; at + 3 <= units.length; at++) {
      const slice = units.slice(at, at + 3);
      out.add(`${row.id} ${Buffer.isBuffer(text) ? Buffer.concat(slice as Buffer[]).toString('hex') : slice.join('')}`);
    }
  }
  return [...out].sort();
}

export async function assertIndexed(ids: string[], when: string): Promise<void> {
  assert.deepEqual(await indexed(ids), await expected(ids), when);
}
