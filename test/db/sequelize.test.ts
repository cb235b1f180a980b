import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { QueryTypes, type Sequelize } from 'sequelize';
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
