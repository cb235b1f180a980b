import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { ctx } from '../support/context';
import { makeUser } from '../support/auth';
import { sqlDate } from '../../src/db/sql-date';

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
