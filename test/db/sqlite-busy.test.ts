import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import sqlite3 from 'sqlite3';
import { QueryTypes, type Sequelize } from 'sequelize';
import { createSequelize } from '../../src/db/sequelize';
import { retryWhileBusy } from '../../src/db/sqlite-busy';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A connection of another process, as far as SQLite can tell: it takes the write lock and holds it until told. */
async function lockHolder(file: string): Promise<{ release(): Promise<void> }> {
  const database = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened: sqlite3.Database = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(opened)));
  });
  const exec = (sql: string) => new Promise<void>((resolve, reject) => database.exec(sql, (err) => (err ? reject(err) : resolve())));
  await exec("BEGIN IMMEDIATE; INSERT INTO t (v) VALUES ('holder')");
  return {
    async release() {
      await exec('COMMIT');
      await new Promise<void>((resolve) => database.close(() => resolve()));
    },
  };
}

// Issue 51: a statement waiting for the write lock waited inside SQLite for the whole busy timeout, on a pool thread
// and holding its connection, which the holder of the lock could need to finish.
describe('SQLite lock waits (src/db/sqlite-busy.ts)', () => {
  let dir: string;
  let file: string;
  let sequelize: Sequelize;

  before(async function () {
    if (/^(mysql|mariadb):/.test(process.env.DATABASE_URL ?? '')) this.skip();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-sqlite-busy-'));
    file = path.join(dir, 'db.sqlite');
    sequelize = createSequelize(`sqlite:${file}`, pino({ level: 'silent' }));
    await sequelize.query('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    await sequelize.query("INSERT INTO t (v) VALUES ('first')");
  });

  after(async () => {
    await sequelize?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('when a transaction reads on the shared connection while a write there waits for its lock, then both go on at once, not after the 10 s timeout', async function () {
    this.timeout(20_000);
    const started = Date.now();
    let waiting: Promise<unknown> = Promise.resolve();
    await sequelize.transaction(async (transaction) => {
      await sequelize.query("INSERT INTO t (v) VALUES ('in transaction')", { transaction });
      // An autocommit write on the shared connection: it needs the lock this transaction holds.
      waiting = sequelize.query("UPDATE t SET v = 'updated' WHERE id = 1");
      await sleep(50);
      // A model read without `transaction` goes to the shared connection, where the write waits.
      assert.equal((await sequelize.query<{ v: string }>('SELECT v FROM t WHERE id = 1', { type: QueryTypes.SELECT }))[0].v, 'first');
    });
    await waiting;
    assert.equal((await sequelize.query<{ v: string }>('SELECT v FROM t WHERE id = 1', { type: QueryTypes.SELECT }))[0].v, 'updated');
    assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
  });

  it('when another connection holds the lock for a while, then a write and a transaction wait for it, and an INSERT still answers its own id', async function () {
    this.timeout(20_000);
    const holder = await lockHolder(file);
    const started = Date.now();
    const insert = sequelize.query("INSERT INTO t (v) VALUES ('after the holder')", { type: QueryTypes.INSERT });
    const transaction = sequelize.transaction(async (t) => sequelize.query("UPDATE t SET v = 'by transaction' WHERE id = 1", { transaction: t }));
    await sleep(300);
    await holder.release();
    const [id] = (await insert) as unknown as [number];
    await transaction;
    assert.ok(Date.now() - started >= 300);
    const [row] = await sequelize.query<{ v: string }>('SELECT v FROM t WHERE id = ?', { replacements: [id], type: QueryTypes.SELECT });
    assert.equal(row.v, 'after the holder');
    assert.equal((await sequelize.query<{ v: string }>('SELECT v FROM t WHERE id = 1', { type: QueryTypes.SELECT }))[0].v, 'by transaction');
  });

  it('when an attempt fails for another reason than the lock, then it is not tried again', async () => {
    let attempts = 0;
    await assert.rejects(
      retryWhileBusy(async () => {
        attempts++;
        throw Object.assign(new Error('constraint'), { code: 'SQLITE_CONSTRAINT' });
      }),
      /constraint/,
    );
    assert.equal(attempts, 1);
    let busyAttempts = 0;
    assert.equal(
      await retryWhileBusy(async () => {
        if (++busyAttempts < 3) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
        return 'done';
      }),
      'done',
    );
    assert.equal(busyAttempts, 3);
  });
});
