import { Op, QueryTypes, literal, type Sequelize, type WhereOptions } from 'sequelize';
import type { Models, Role, User } from '../../models';
import { toPublicUser, type PublicUser } from '../../sessions/auth-user';
import { createTrigramSearch, inColumnNames } from './user-search';

/** A user as the admin API shows it (CONTRACT 4): never a hash, epoch or other internal field. */
export interface AdminUserView extends PublicUser {
  active: boolean;
  /** The address was proven (CONTRACT 12). */
  emailVerified: boolean;
  createdAt: Date;
}

export interface UserListQuery {
  page: number;
  limit: number;
  /** Substring of email, username, first or last name (case-insensitive, taken literally). */
  q?: string;
  role?: Role;
  /** false: only accounts whose address is unproven (CONTRACT 12 "unverified"); true: only verified ones. */
  verified?: boolean;
}

export interface UserListPage {
  users: AdminUserView[];
  /** Users matching, counted up to TOTAL_LIMIT (SEARCH_TOTAL_LIMIT for a search); `totalExact` says whether more match. */
  total: number;
  totalExact: boolean;
  page: number;
  limit: number;
}

/**
 * How far a list's `total` is counted. Counting every row is what costs at scale: at a million users a
 * `COUNT(*)` walks a whole index (108 ms on MariaDB) where a page of twenty newest users takes a few
 * milliseconds. Past this the answer says "more than 10,000" (`totalExact: false`), as GitLab's API and
 * Django's admin do; nobody pages through ten thousand users by hand, and API clients page until a page is short.
 */
export const TOTAL_LIMIT = 10_000;
/**
 * A search reads its matches newest first through the trigram index, stopping at this many + 1: when they
 * are fewer, their number is the total; when more, the total says "more than" (counting every match would
 * cost what the index saved). Pages within them are cut from what was read; a deeper page reads down to it.
 * Each match read costs a lookup and a row read (5–9 µs each at a million users on the bench's host):
 * 2,000 made a common term's search 60–75 ms, 1,000 about 30–45.
 */
export const SEARCH_TOTAL_LIMIT = 1000;
/** The API's answer to "is `total` a count?" (the JSON body keeps CONTRACT 4's `{ users, total, page, limit }`). */
export const TOTAL_EXACT_HEADER = 'X-Total-Exact';
/**
 * What a search matches: a substring of the email, username, first or last name, case-insensitively.
 * `search_text` is a generated, indexed column joining the four (migration 20261123000200); the trigram
 * index narrows which users' text the LIKE compares (user-search.ts), and a term too short for a trigram
 * scans the narrow index rather than four columns of every row.
 */
const SEARCH_COLUMN = 'search_text';
// LIKE escape character: `!` rather than a backslash, whose meaning inside string literals differs
// between MariaDB and SQLite.
const LIKE_ESCAPE = '!';

export function toAdminUserView(user: User): AdminUserView {
  return { ...toPublicUser(user), active: Boolean(user.active), emailVerified: Boolean(user.emailVerifiedAt), createdAt: user.createdAt };
}

/**
 * The ids of rows read raw, newest first, then by id: the list's order. Each time is parsed once (SQLite
 * gives it as text); parsing inside the comparison cost 3 ms for a thousand matches.
 */
function idsNewestFirst(rows: { id: string; createdAt: Date | string }[]): string[] {
  const keyed = rows.map((row) => ({ id: row.id, time: new Date(row.createdAt).getTime() }));
  keyed.sort((a, b) => b.time - a.time || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0));
  return keyed.map((row) => row.id);
}

/** One page of users, newest first, filtered by a search string, role and/or verified address. */
export function createUserList({ sequelize, models }: { sequelize: Sequelize; models: Models }) {
  const queries = sequelize.getQueryInterface();
  const trigrams = createTrigramSearch({ sequelize, models });

  function searchCondition(q: string): WhereOptions {
    const pattern = `%${q.replace(/[!%_]/g, (c) => LIKE_ESCAPE + c)}%`;
    const escaped = sequelize.escape(pattern);
    const column = queries.quoteIdentifier(SEARCH_COLUMN);
    // LOWER: the MariaDB column holds lower-cased UTF-8 bytes; SQLite's LIKE ignores ASCII case either way.
    // `> ''` holds for every row (the column always starts with the email), but a range on the column is
    // what makes SQLite's planner read the narrow search index instead of every row of the table (measured
    // at 100,000 users: 25–35 ms against 55–75 ms); MariaDB reads that index either way.
    return literal(`${column} > '' AND ${column} LIKE LOWER(${escaped}) ESCAPE '${LIKE_ESCAPE}'`);
  }

  /** How many users match, counting no further than `limit` + 1: the database stops reading there. */
  async function countUpTo(where: WhereOptions, limit: number): Promise<{ total: number; totalExact: boolean }> {
    // Sequelize's own count has no limit; its query generator writes the bounded inner SELECT with the same WHERE.
    const inner = queries.queryGenerator as unknown as { selectQuery(table: string, options: object, model: unknown): string };
    const select = inner.selectQuery(
      models.User.getTableName() as string,
      { attributes: [[literal('1'), 'one']], where: inColumnNames(where, models.User), limit: limit + 1 },
      models.User,
    );
    const [row] = await sequelize.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM (${select.replace(/;\s*$/, '')}) AS bounded`, { type: QueryTypes.SELECT });
    const counted = Number(row?.n ?? 0);
    return counted > limit ? { total: limit, totalExact: false } : { total: counted, totalExact: true };
  }

  return async function list(query: UserListQuery): Promise<UserListPage> {
    const conditions: WhereOptions[] = [];
    if (query.role) conditions.push({ role: query.role });
    if (query.verified !== undefined) conditions.push({ emailVerifiedAt: query.verified ? { [Op.ne]: null } : null });
    if (query.q) conditions.push(searchCondition(query.q));
    const where: WhereOptions = { [Op.and]: conditions };
    const offset = (query.page - 1) * query.limit;
    const answer = (rows: User[], counted: { total: number; totalExact: boolean }): UserListPage => ({
      users: rows.map(toAdminUserView), ...counted, page: query.page, limit: query.limit,
    });

    const page = async (ids: string[], counted: { total: number; totalExact: boolean }) => {
      const rows = ids.length > 0 ? await models.User.findAll({ where: { id: ids } }) : [];
      return answer(rows.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id)), counted);
    };
    let counted: { total: number; totalExact: boolean } | undefined;
    if (query.q) {
      // Through the trigram index, newest first: the first SEARCH_TOTAL_LIMIT + 1 matches give the total and
      // every page within them; a deeper page of a common term reads down to it.
      const search = await trigrams.plan(query.q, where);
      if (search) {
        const found = await search(SEARCH_TOTAL_LIMIT + 1);
        const total = found.length > SEARCH_TOTAL_LIMIT ? { total: SEARCH_TOTAL_LIMIT, totalExact: false } : { total: found.length, totalExact: true };
        const deep = found.length > SEARCH_TOTAL_LIMIT && offset + query.limit > found.length;
        const onPage = deep ? await search(query.limit, offset) : found.slice(offset, offset + query.limit);
        return page(onPage.map((match) => match.id), total);
      }
      // A term of one or two characters has no trigram: the narrow search index is scanned.
      const matches = await models.User.findAll({ attributes: ['id', 'createdAt'], where, limit: SEARCH_TOTAL_LIMIT + 1, raw: true });
      if (matches.length <= SEARCH_TOTAL_LIMIT) {
        return page(idsNewestFirst(matches).slice(offset, offset + query.limit), { total: matches.length, totalExact: true });
      }
      // Many matches are dense: the newest-first walk below finds a page after a few rows.
      counted = { total: SEARCH_TOTAL_LIMIT, totalExact: false };
    }
    const [total, rows] = await Promise.all([
      counted ?? countUpTo(where, TOTAL_LIMIT),
      models.User.findAll({ where, order: [['createdAt', 'DESC'], ['id', 'DESC']], limit: query.limit, offset }),
    ]);
    return answer(rows, total);
  };
}
