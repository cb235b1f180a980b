import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { ctx, sqlSentDuring } from '../support/context';
import { createTestUser } from '../support/users';
import { preparedStatements } from '../../src/db/prepared-statements';

// The hot paths' statements (issue 51): kept prepared on SQLite, through sequelize.query on MariaDB; the same rows either way.
describe('prepared statements (src/db/prepared-statements.ts)', function () {
  this.timeout(60_000);
  const statements = () => preparedStatements(ctx().sequelize);
  const action = () => `test.prepared.${crypto.randomBytes(4).toString('hex')}`;

  it('when a row is written and read, then the rows are those sequelize.query reads, a Date as the models write it, and an INSERT answers its id', async () => {
    const { sequelize, models } = ctx();
    const user = await createTestUser();
    const at = new Date('2026-11-28T10:11:12.345Z');
    const tag = action();
    const written = await statements().write('INSERT INTO activity_logs (action, user_id, email, ip, user_agent, details, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [tag, user.id, user.email, null, "it's \"quoted\" ?", '{"n":1}', at]);
    assert.equal(written.changes, 1);
    assert.ok(written.lastId && written.lastId > 0);
    const row = await models.ActivityLog.findByPk(written.lastId, { rejectOnEmpty: true });
    // activity_logs.created_at keeps whole seconds on MariaDB (DATETIME), the text as written on SQLite.
    assert.equal(row.createdAt.toISOString(), ctx().dialect === 'sqlite' ? at.toISOString() : '2026-11-28T10:11:12.000Z');
    assert.equal(row.userAgent, "it's \"quoted\" ?");
    assert.deepEqual(row.details, { n: 1 });

    const sql = 'SELECT id, action, user_agent, details FROM activity_logs WHERE action = ?';
    const viaQuery = await sequelize.query(sql, { replacements: [tag], type: QueryTypes.SELECT });
    assert.deepEqual(await statements().select(sql, [tag]), viaQuery);
    // A second call runs the kept statement again with the new value.
    assert.deepEqual(await statements().select(sql, [action()]), []);
  });

  it('when an UPDATE runs, then it answers the rows it changed and no insert id', async () => {
    const user = await createTestUser();
    const tag = action();
    const updated = await statements().write('UPDATE users SET first_name = ? WHERE id = ?', [tag.slice(0, 30), user.id]);
    assert.deepEqual(updated, { changes: 1, lastId: null });
    assert.deepEqual(await statements().write('UPDATE users SET first_name = ? WHERE id = ?', ['x', 'no such id']), { changes: 0, lastId: null });
  });

  it('when values carry quotes and SQL, then they are values, never statements', async () => {
    const user = await createTestUser();
    for (const value of ["x' OR '1'='1", `${user.email}' --`, "'; DROP TABLE users; --", '?']) {
      assert.deepEqual(await statements().select('SELECT id FROM users WHERE email = ?', [value]), [], value);
    }
    assert.equal((await statements().select<{ id: string }>('SELECT id FROM users WHERE email = ?', [user.email]))[0]?.id, user.id);
  });

  it('when a statement cannot be prepared, then its calls answer the error and the next good statement runs', async () => {
    await assert.rejects(statements().select('SELECT nothing FROM no_such_table WHERE id = ?', ['1']));
    await assert.rejects(statements().select('SELECT nothing FROM no_such_table WHERE id = ?', ['1']));
    assert.deepEqual(await statements().select('SELECT 1 AS one WHERE 1 = ?', [1]), [{ one: 1 }]);
  });

  it('when the query log is on, then each statement is logged as Sequelize logs it, with its values', async () => {
    const user = await createTestUser();
    const logged = await sqlSentDuring(() => statements().select('SELECT id FROM users WHERE email = ?', [user.email]));
    assert.ok(logged.some((sql) => sql.startsWith('SELECT id FROM users WHERE email = ') && sql.includes(user.email)), logged.join('\n'));
  });

  it('when a transaction on another connection holds the write lock, then many parallel statements wait their turn and all finish once it commits (SQLite: none starves its commit of a pool thread)', async function () {
    const { sequelize, dialect } = ctx();
    if (dialect !== 'sqlite') this.skip();
    const user = await createTestUser();
    const tag = action();
    const holder = await sequelize.transaction();
    let committed = false;
    try {
      await sequelize.query('INSERT INTO activity_logs (action, created_at) VALUES (?, ?)', { replacements: [tag, '2026-11-28 00:00:00.000 +00:00'], transaction: holder });
      const started = Date.now();
      const parallel = Array.from({ length: 16 }, (_, i) =>
        i % 2 ? statements().write('INSERT INTO activity_logs (action, user_id, created_at) VALUES (?, ?, ?)', [tag, user.id, new Date()]) : statements().select('SELECT id FROM users WHERE id = ?', [user.id]),
      );
      const settled = Promise.allSettled(parallel);
      // The holder's next statements need a pool thread while the writes above wait for its lock.
      await new Promise((resolve) => setTimeout(resolve, 100));
      await sequelize.query('SELECT 1', { transaction: holder });
      await holder.commit();
      committed = true;
      assert.deepEqual((await settled).map((one) => one.status), parallel.map(() => 'fulfilled'));
      // SQLite's busy timeout is 10 s: a starved commit would have held every statement until then.
      assert.ok(Date.now() - started < 5_000, `took ${Date.now() - started} ms`);
    } finally {
      if (!committed) await holder.rollback().catch(() => undefined);
    }
    const [{ n }] = await sequelize.query<{ n: number }>('SELECT COUNT(*) AS n FROM activity_logs WHERE action = ?', { replacements: [tag], type: QueryTypes.SELECT });
    assert.equal(Number(n), 9);
  });

  it('when a write waits for the lock a transaction holds, then neither the pool nor the statements\' queue is held by the wait: the transaction\'s own read goes on', async function () {
    // On SQLite a waiting write sat in the busy handler on a pool thread and at the head of the statements' queue;
    // a read the holder then awaited queued behind it, and both stood still for the busy timeout (10 s).
    if (ctx().dialect !== 'sqlite') this.skip();
    const { sequelize } = ctx();
    const insert = 'INSERT INTO activity_logs (action, user_id, email, ip, user_agent, details, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)';
    const tag = action();
    const started = Date.now();
    let waiting: Promise<unknown> = Promise.resolve();
    await sequelize.transaction(async (transaction) => {
      await sequelize.query(insert, { replacements: [tag, null, null, null, null, null, new Date()], transaction });
      waiting = statements().write(insert, [tag, null, null, null, null, null, new Date()]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(await statements().select('SELECT 1 AS one', []), [{ one: 1 }]);
    });
    await waiting;
    const [{ n }] = await sequelize.query<{ n: number }>('SELECT COUNT(*) AS n FROM activity_logs WHERE action = ?', { replacements: [tag], type: QueryTypes.SELECT });
    assert.equal(Number(n), 2);
    assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
  });
});
