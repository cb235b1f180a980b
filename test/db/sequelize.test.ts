import assert from 'node:assert/strict';
import type { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { DataTypes, QueryTypes, type Sequelize } from 'sequelize';
import { createSequelize } from '../../src/db/sequelize';

/** One PRAGMA's value on the connection that runs the query (a transaction's own, when given one). */
async function pragma(sequelize: Sequelize, name: string, transaction?: import('sequelize').Transaction): Promise<unknown> {
  const [row] = await sequelize.query<Record<string, unknown>>(`PRAGMA ${name}`, { type: QueryTypes.SELECT, transaction });
  return Object.values(row)[0];
}

describe('SQLite connection settings (src/db/sequelize.ts)', () => {
  let dir: string;
  let sequelize: Sequelize;

  before(function () {
    if (/^(mysql|mariadb):/.test(process.env.DATABASE_URL ?? '')) this.skip();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-sqlite-settings-'));
    sequelize = createSequelize(`sqlite:${path.join(dir, 'db.sqlite')}`, pino({ level: 'silent' }));
  });

  after(async () => {
    await sequelize?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('every connection, including a transaction’s own, runs in WAL mode with a 32 MiB page cache', async () => {
    // The settings are sent as the connection opens; a first query makes sure they have run.
    await sequelize.query('SELECT 1');
    assert.equal(await pragma(sequelize, 'journal_mode'), 'wal');
    assert.equal(await pragma(sequelize, 'cache_size'), -32768);
    await sequelize.transaction(async (transaction) => {
      await sequelize.query('SELECT 1', { transaction });
      assert.equal(await pragma(sequelize, 'journal_mode', transaction), 'wal');
      assert.equal(await pragma(sequelize, 'cache_size', transaction), -32768);
    });
  });
});

describe('column types answered from memory (src/db/sqlite-table-info.ts)', () => {
  let dir: string;
  let sequelize: Sequelize;

  before(function () {
    if (/^(mysql|mariadb):/.test(process.env.DATABASE_URL ?? '')) this.skip();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-sqlite-table-info-'));
    sequelize = createSequelize(`sqlite:${path.join(dir, 'db.sqlite')}`, pino({ level: 'silent' }));
  });

  after(async () => {
    await sequelize?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Every statement SQLite ran on the shared connection (its trace event: one listener, added once). */
  const ran: string[] = [];
  before(async () => {
    const connection = await (sequelize as unknown as { connectionManager: { getConnection(): Promise<EventEmitter> } }).connectionManager.getConnection();
    connection.on('trace', (sql: string) => ran.push(sql));
  });

  /** The statements run during `fn` (the trace event arrives a little after the statement). */
  async function traced(fn: () => Promise<unknown>): Promise<string[]> {
    const from = ran.length;
    await fn();
    await new Promise((resolve) => setTimeout(resolve, 100));
    return ran.slice(from);
  }

  it('when a model reads, then the dialect asks SQLite for the table\'s column types once, dates still come back as dates, and a schema change asks again', async () => {
    const Thing = sequelize.define('thing', { at: DataTypes.DATE, on: DataTypes.BOOLEAN }, { tableName: 'things', timestamps: false });
    await Thing.sync();
    await Thing.create({ at: new Date('2026-11-28T10:00:00.000Z'), on: true });
    const tableInfo = (sql: string[]) => sql.filter((one) => one.startsWith('PRAGMA table_info(`things`)')).length;

    const first = await traced(() => Thing.findAll());
    const second = await traced(async () => {
      const [row] = await Thing.findAll();
      assert.ok(row.get('at') instanceof Date);
      assert.equal((row.get('at') as Date).toISOString(), '2026-11-28T10:00:00.000Z');
      assert.equal(row.get('on'), true);
    });
    assert.ok(first.some((one) => one.startsWith('SELECT')), first.join('\n'));
    assert.ok(second.some((one) => one.startsWith('SELECT')), second.join('\n'));
    assert.ok(tableInfo(first) <= 1);
    assert.equal(tableInfo(second), 0, second.join('\n'));

    await sequelize.getQueryInterface().addColumn('things', 'later', { type: DataTypes.DATE });
    const afterChange = await traced(() => Thing.findAll());
    assert.equal(tableInfo(afterChange), 1, afterChange.join('\n'));
  });
});
