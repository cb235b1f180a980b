import type { Sequelize } from 'sequelize';
import { sqlDate } from './sql-date';

/** A value a hand-written statement binds to a `?`: never an array (Sequelize's `IN (?)` expansion is not done here). */
export type StatementValue = string | number | boolean | Date | null;

/** A value as a SQLite literal, read back as the same bound parameter would be. NUL would end a C string early: refused. */
function literal(sequelize: Sequelize, value: StatementValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('a statement value is not a finite number');
    return String(value);
  }
  const text = value instanceof Date ? sqlDate(sequelize, value) : value;
  if (text.includes('\0')) throw new Error('a statement value holds a NUL character');
  return sequelize.escape(text);
}

/**
 * A SQLite statement with its `?` placeholders replaced by its values as literals, escaped by Sequelize as
 * `sequelize.query` sends every replacement on SQLite. For `exec` (which binds nothing) and for the query log.
 * Every `?` of the text is a placeholder: the hot paths' statements hold none in a quoted string.
 */
export function withLiterals(sequelize: Sequelize, sql: string, values: readonly StatementValue[]): string {
  let next = 0;
  const text = sql.replace(/\?/g, () => literal(sequelize, values[next++]));
  if (next !== values.length) throw new Error(`statement has ${next} placeholders for ${values.length} values`);
  return text;
}
