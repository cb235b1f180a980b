import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sqlite3 from 'sqlite3';
import { tableInfoCache, TABLE_INFO_TTL_MS, type SqliteStatements } from '../../src/db/sqlite-table-info';

// The column types Sequelize's SQLite dialect asks for before each SELECT, answered from memory (issue 51).
describe('column-type answers kept per table (src/db/sqlite-table-info.ts)', () => {
  let dir: string;
  let database: sqlite3.Database;
  const ran: string[] = [];
  let clock = 0;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-table-info-'));
    database = await new Promise<sqlite3.Database>((resolve, reject) => {
      const opened: sqlite3.Database = new sqlite3.Database(path.join(dir, 'db.sqlite'), (err) => (err ? reject(err) : resolve(opened)));
    });
    database.on('trace', (sql: string) => ran.push(sql));
    tableInfoCache(() => clock).attach(database as unknown as SqliteStatements);
    await new Promise<void>((resolve, reject) => database.run('CREATE TABLE things (id INTEGER PRIMARY KEY, at DATETIME)', (err) => (err ? reject(err) : resolve())));
  });

  after(async () => {
    await new Promise((resolve) => database?.close(resolve));
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Asks as the dialect does; answers the column names and how many times SQLite itself was asked. */
  async function ask(): Promise<{ columns: string[]; asked: number }> {
    const from = ran.length;
    const rows = await new Promise<Array<{ name: string }>>((resolve, reject) =>
      database.all('PRAGMA table_info(`things`)', (err: Error | null, found: Array<{ name: string }>) => (err ? reject(err) : resolve(found))),
    );
    await new Promise((resolve) => setTimeout(resolve, 50)); // the trace event comes a little after
    return { columns: rows.map((row) => row.name), asked: ran.slice(from).filter((sql) => sql.startsWith('PRAGMA table_info')).length };
  }

  it('when asked again, then the kept answer is given; after a schema change or once it is old, SQLite is asked again', async () => {
    assert.deepEqual(await ask(), { columns: ['id', 'at'], asked: 1 });
    assert.deepEqual(await ask(), { columns: ['id', 'at'], asked: 0 });

    await new Promise<void>((resolve, reject) => database.exec('ALTER TABLE things ADD COLUMN later TEXT', (err) => (err ? reject(err) : resolve())));
    assert.deepEqual(await ask(), { columns: ['id', 'at', 'later'], asked: 1 });
    assert.deepEqual(await ask(), { columns: ['id', 'at', 'later'], asked: 0 });

    clock += TABLE_INFO_TTL_MS;
    assert.deepEqual(await ask(), { columns: ['id', 'at', 'later'], asked: 1 });
  });
});
