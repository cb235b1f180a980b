import type { Sequelize } from 'sequelize';

/**
 * A Date as a hand-written statement's value, with its milliseconds: Sequelize's own escaping of a Date
 * replacement drops them on the mysql dialect (`'2026-11-26 07:40:01'`), which loses the sub-second order of
 * rows listed newest first. The text is what the models write: UTC, and on SQLite with its `+00:00` offset.
 */
export function sqlDate(sequelize: Sequelize, date: Date): string {
  const text = date.toISOString().replace('T', ' ').replace('Z', '');
  return sequelize.getDialect() === 'sqlite' ? `${text} +00:00` : text;
}

/**
 * A date column as a hand-written SELECT returns it: a Date on MariaDB (the driver parses it), on SQLite text. The
 * models write that text with its offset; text without one (a column's CURRENT_TIMESTAMP default) is UTC, as
 * Sequelize reads it, whatever the process's time zone.
 */
export function fromSqlDate(value: string | Date): Date {
  if (value instanceof Date) return value;
  return new Date(/[+-]\d\d:\d\d$|Z$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
}
