import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { QueryTypes } from 'sequelize';
import request from 'supertest';
import { ctx, sqlSentDuring } from '../support/context';
import { makeUser, nextClientIp, PASSWORD } from '../support/auth';
import { preparedStatements, type Statement } from '../../src/db/prepared-statements';
import { createContainer } from '../../src/container';
import { createSessionService } from '../../src/services/security/session.service';
import { createRevocations } from '../../src/sessions/revocations';

const INSERT = 'INSERT INTO activity_logs (action, user_id, email, ip, user_agent, details, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)';
const CONTEXT = { ip: '203.0.113.7', userAgent: 'atomic writes test' };

// A sign-in's session row, activity row and hourly count commit together (issue 51).
describe('writes that commit together (PreparedStatements.writeAll)', function () {
  this.timeout(60_000);
  const tag = () => `test.atomic.${crypto.randomBytes(4).toString('hex')}`;
  const row = (action: string, userAgent: string | null = null): Statement => ({ sql: INSERT, values: [action, null, null, null, userAgent, null, new Date()] });
  const count = async (action: string) => {
    const [{ n }] = await ctx().sequelize.query<{ n: number }>('SELECT COUNT(*) AS n FROM activity_logs WHERE action = ?', { replacements: [action], type: QueryTypes.SELECT });
    return Number(n);
  };

  /** A session service whose activity statements always fail, and the entries it then records apart. */
  async function sessionsWithFailingAudit() {
    const { config, logger, sequelize, models, store } = ctx();
    const c = createContainer({ config, logger, sequelize, models, store });
    const recorded: string[] = [];
    const activity = {
      ...c.activity,
      statements: () => [{ sql: 'INSERT INTO no_such_table (x) VALUES (?)', values: [1] }],
      record: async (entry: { action: string }) => void recorded.push(entry.action),
    };
    const sessions = createSessionService({ ...c, revocations: createRevocations({ models, store, logger }), activity });
    return { c, models, user: await makeUser(), action: tag(), recorded, sessions };
  }

  it('when the statements succeed, then all are written, values with quotes and placeholders as they were', async () => {
    const action = tag();
    await preparedStatements(ctx().sequelize).writeAll([row(action, "it's ? \"x\""), row(action), { sql: 'UPDATE activity_logs SET email = ? WHERE action = ?', values: ['a@example.com', action] }]);
    const rows = await ctx().models.ActivityLog.findAll({ where: { action } });
    assert.equal(rows.length, 2);
    assert.deepEqual(rows.map((one) => one.email), ['a@example.com', 'a@example.com']);
    assert.ok(rows.some((one) => one.userAgent === "it's ? \"x\""));
  });

  it('when a later statement fails, then none of them is written and the next write works', async () => {
    const action = tag();
    await assert.rejects(preparedStatements(ctx().sequelize).writeAll([row(action), { sql: 'INSERT INTO no_such_table (x) VALUES (?)', values: [1] }]));
    assert.equal(await count(action), 0);
    await preparedStatements(ctx().sequelize).writeAll([row(action)]);
    assert.equal(await count(action), 1);
  });

  it('when a value holds a NUL character, then the write is refused whole (SQLite: exec would end the text there)', async function () {
    if (ctx().dialect !== 'sqlite') this.skip();
    const action = tag();
    await assert.rejects(preparedStatements(ctx().sequelize).writeAll([row(action), row(action, 'a\0b')]), /NUL/);
    assert.equal(await count(action), 0);
  });

  it('when twenty writes run at once, then each commits whole', async () => {
    const action = tag();
    await Promise.all(Array.from({ length: 20 }, () => preparedStatements(ctx().sequelize).writeAll([row(action), row(action)])));
    assert.equal(await count(action), 40);
  });

  it('when a user signs in with a password, then the session row, the activity row and its hourly count are one commit', async () => {
    const user = await makeUser();
    const ip = nextClientIp();
    const login = () => request(ctx().app).post('/auth/login').set('X-Forwarded-For', ip).send({ email: user.email, password: PASSWORD }).expect(200);
    await login(); // settings cached
    const sql = (await sqlSentDuring(login)).map((one) => one.trim());
    const session = sql.findIndex((one) => one.startsWith('INSERT INTO sessions'));
    assert.ok(session > 0, sql.join('\n'));
    assert.match(sql[session - 1], /^(BEGIN IMMEDIATE|START TRANSACTION)/);
    assert.match(sql[session + 1], /^INSERT INTO activity_logs/);
    assert.match(sql[session + 2], /^INSERT INTO activity_rollups/);
    assert.match(sql[session + 3], /^COMMIT/);
  });

  it('when a token is refreshed, then the superseded token\'s revocation, the session row, the activity row and its hourly count are one commit', async () => {
    const user = await makeUser();
    const ip = nextClientIp();
    const { body } = await request(ctx().app).post('/auth/login').set('X-Forwarded-For', ip).send({ email: user.email, password: PASSWORD }).expect(200);
    const sql = (await sqlSentDuring(() => request(ctx().app).post('/auth/refresh').set('X-Forwarded-For', ip).set('Authorization', `Bearer ${body.token}`).expect(200))).map((one) => one.trim());
    const revocation = sql.findIndex((one) => /^INSERT (OR )?IGNORE INTO revoked_tokens/.test(one));
    assert.ok(revocation > 0, sql.join('\n'));
    assert.match(sql[revocation - 1], /^(BEGIN IMMEDIATE|START TRANSACTION)/);
    assert.match(sql[revocation + 1], /^UPDATE sessions SET last_used_at/);
    assert.match(sql[revocation + 2], /^INSERT INTO activity_logs/);
    assert.match(sql[revocation + 3], /^INSERT INTO activity_rollups/);
    assert.match(sql[revocation + 4], /^COMMIT/);
    assert.equal(sql.filter((one) => /^(BEGIN|START TRANSACTION|COMMIT)/.test(one)).length, 2, sql.join('\n'));
  });

  it('when a refresh\'s activity row cannot be written with it, then the revocation and the session row are written alone and the entry after them: the refresh never fails for its audit', async () => {
    const { c, models, user, action, recorded, sessions } = await sessionsWithFailingAudit();
    const { sid, authTime } = await c.userSessions.start({ id: user.id, email: user.email, username: user.username, role: user.role }, 'password', CONTEXT);
    const jti = crypto.randomUUID();
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: user.id, sid, jti, auth_time: authTime, exp: now + 60, iat: now, ep: 0 } as unknown as Parameters<typeof sessions.refreshed>[0];
    const outcome = await sessions.refreshed(claims, { ip: '203.0.113.99', userAgent: null }, { action: action as 'auth.refresh', userId: user.id, email: user.email });
    assert.equal(outcome.ok, true);
    assert.ok(await models.RevokedToken.findByPk(jti));
    assert.equal((await models.Session.findByPk(sid, { rejectOnEmpty: true })).ip, '203.0.113.99');
    assert.deepEqual(recorded, [action]);
  });

  it('when the activity row cannot be written with the session, then the session is written alone and the entry after it: the sign-in never fails for its audit', async () => {
    const { models, user, action, recorded, sessions } = await sessionsWithFailingAudit();
    const { sid } = await sessions.start({ id: user.id, email: user.email, username: user.username, role: user.role }, 'password', CONTEXT, { audit: { action: action as 'auth.login', userId: user.id, email: user.email } });
    assert.ok(await models.Session.findByPk(sid));
    assert.deepEqual(recorded, [action]);
  });
});
