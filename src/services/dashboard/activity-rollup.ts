import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { preparedStatements } from '../../db/prepared-statements';
import type { Statement } from '../../db/prepared-statements';

export const HOUR_MS = 3_600_000;

/** One counted group of activity rows: an hour (epoch hours), an action, and its method and reason ('' when none). */
export interface RollupRow {
  hour: number;
  action: string;
  method: string;
  reason: string;
  total: number;
}

/*
 * Written by hand like the activity row itself (it runs beside it on every sign-in): one atomic upsert, so
 * parallel writers on any instance add up exactly and no process keeps a count another one needs.
 */
const UPSERT = {
  sqlite: 'INSERT INTO activity_rollups (hour, action, method, reason, total) VALUES (?, ?, ?, ?, 1) ON CONFLICT (hour, action, method, reason) DO UPDATE SET total = total + 1',
  mysql: 'INSERT INTO activity_rollups (hour, action, method, reason, total) VALUES (?, ?, ?, ?, 1) ON DUPLICATE KEY UPDATE total = total + 1',
};

/** A detail as a rollup key: strings only (methods and reasons are the code's words), cut to the column. */
function dimension(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, 32) : '';
}

/**
 * The hourly counts of the activity log the dashboard reads instead of the log: a few hundred rows a day
 * (hours × actions × methods × reasons), read by a range on the primary key.
 */
export function createActivityRollup({ sequelize }: { sequelize: Sequelize }) {
  const upsert = sequelize.getDialect() === 'sqlite' ? UPSERT.sqlite : UPSERT.mysql;

  /** The upsert that counts one activity row in its hour, for a caller that commits it with other writes. */
  function counting(action: string, details: Record<string, unknown> | undefined, at = Date.now()): Statement {
    return { sql: upsert, values: [Math.floor(at / HOUR_MS), action, dimension(details?.method), dimension(details?.reason)] };
  }

  /** Counts one activity row in its hour (in the row's transaction when it has one). Throws like any query: the caller decides what a failure means. */
  async function count(action: string, details: Record<string, unknown> | undefined, options: { at?: number; transaction?: Transaction } = {}): Promise<void> {
    const { sql, values } = counting(action, details, options.at);
    await preparedStatements(sequelize).write(sql, values, { transaction: options.transaction });
  }

  /** Every counted group from the hour holding `since` on, for the actions asked. */
  async function since(sinceMs: number, actions: readonly string[]): Promise<RollupRow[]> {
    const rows = await sequelize.query<RollupRow>(
      'SELECT hour, action, method, reason, total FROM activity_rollups WHERE hour >= ? AND action IN (?)',
      { replacements: [Math.floor(sinceMs / HOUR_MS), actions], type: QueryTypes.SELECT },
    );
    return rows.map((row) => ({ ...row, hour: Number(row.hour), total: Number(row.total) }));
  }

  return { count, counting, since };
}

export type ActivityRollup = ReturnType<typeof createActivityRollup>;
