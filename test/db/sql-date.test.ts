import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { ctx } from '../support/context';
import { makeUser } from '../support/auth';
import { fromSqlDate, sqlDate } from '../../src/db/sql-date';

describe('sqlDate: dates of hand-written statements keep their milliseconds', () => {
  it('when a session row is written by hand and read by the model, then the same instant comes back, to the millisecond', async () => {
    const { sequelize, models } = ctx();
    const user = await makeUser();
    const at = new Date(Date.UTC(2026, 10, 26, 7, 40, 1, 123));
    const id = crypto.randomUUID();
    await sequelize.query(
      'INSERT INTO sessions (id, user_id, method, created_at, last_used_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
      { replacements: [id, user.id, 'password', sqlDate(sequelize, at), sqlDate(sequelize, at), sqlDate(sequelize, at)], type: QueryTypes.INSERT },
    );

    const row = await models.Session.findByPk(id, { rejectOnEmpty: true });

    // Sequelize's own escaping of a Date drops the .123 on the mysql dialect: sessions signed in within one second
    // then listed in no particular order.
    assert.equal(row.createdAt.toISOString(), at.toISOString());
    assert.equal(row.expiresAt.toISOString(), at.toISOString());
  });
});

describe('fromSqlDate: dates as hand-written SELECTs return them', () => {
  it('when the driver gives a Date, SQLite text with its offset, or text without one, then each is that instant (UTC without an offset)', () => {
    const at = new Date(Date.UTC(2026, 10, 26, 7, 40, 1, 123));
    assert.equal(fromSqlDate(at), at);
    assert.equal(fromSqlDate('2026-11-26 07:40:01.123 +00:00').toISOString(), at.toISOString());
    assert.equal(fromSqlDate('2026-11-26 09:40:01.123 +02:00').toISOString(), at.toISOString());
    assert.equal(fromSqlDate('2026-11-26 07:40:01.123').toISOString(), at.toISOString());
    assert.equal(fromSqlDate('2026-11-26 07:40:01').toISOString(), '2026-11-26T07:40:01.000Z');
  });

  it('when the process runs in another time zone, then text without an offset is still UTC', () => {
    const script = "const { fromSqlDate } = require('./src/db/sql-date'); process.stdout.write(fromSqlDate('2026-11-26 07:40:01').toISOString())";
    const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { env: { ...process.env, TZ: 'America/New_York' }, encoding: 'utf8' });
    assert.equal(out, '2026-11-26T07:40:01.000Z');
  });
});
