import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import type { Express } from 'express';
import { buildApp, ctx } from '../support/context';
import { makeUser, payloadOf, tokenFor, PASSWORD } from '../support/auth';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import type { User } from '../../src/models';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const REUSE_SUBJECT = /ended for your safety/;

/** CONTRACT 8 and 18: the refresh rotation's reuse window, reuse detection under races, the absolute lifetime at refresh. */
describe('session refresh (CONTRACT 8)', () => {
  let sink: SmtpSink;
  /** A four-second reuse window: short enough to wait out, long enough to refresh inside it a second later on a slow host. */
  let windowed: Express;
  /** No reuse window: a superseded token is reuse at once. */
  let strict: Express;

  before(async () => {
    sink = await startSmtpSink();
    const mail = { SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test' };
    windowed = buildApp({ env: { ...mail, REFRESH_REUSE_WINDOW_SECONDS: '4' } });
    strict = buildApp({ env: { ...mail, REFRESH_REUSE_WINDOW_SECONDS: '0' } });
  });
  after(() => sink.stop());

  const refresh = (on: Express, token: string) => request(on).post('/auth/refresh').set(bearer(token));

  async function signIn(on: Express, user: User): Promise<string> {
    const res = await request(on).post('/auth/login').send({ email: user.email, password: PASSWORD });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.token as string;
  }

  /** The superseded token's window start as the store and the database hold it (epoch seconds). */
  async function windowStarts(token: string): Promise<{ store: number | null; database: number | null }> {
    const jti = payloadOf(token).jti as string;
    const mark = await ctx().store.get(`revoked:${jti}`);
    const row = await ctx().models.RevokedToken.findByPk(jti);
    return { store: mark === null ? null : Number(mark), database: row?.effectiveAt ?? null };
  }

  async function sessionRevoked(token: string): Promise<boolean> {
    const row = await ctx().models.Session.findByPk(payloadOf(token).sid as string);
    return Boolean(row?.revokedAt);
  }

  describe('the reuse window never moves', () => {
    it('when a superseded token is refreshed again inside its window, then the window keeps its first end and a refresh after it is reuse that ends the session', async () => {
      const user = await makeUser();
      const old = await signIn(windowed, user);
      assert.equal((await refresh(windowed, old)).status, 200);
      const first = await windowStarts(old);
      assert.ok(first.store !== null && first.store === first.database, JSON.stringify(first));

      await sleep(1100);
      const inside = await refresh(windowed, old);

      assert.equal(inside.status, 200, 'inside the window the superseded token still refreshes');
      assert.deepEqual(await windowStarts(old), first, 'store and database keep the first start');
      await sleep(Math.max(0, (first.store as number) * 1000 - Date.now() + 50));
      const after = await refresh(windowed, old);
      assert.equal(after.status, 401);
      assert.ok(await sessionRevoked(old), 'the session ended');
      assert.equal((await request(windowed).get('/auth/me').set(bearer(inside.body.token))).status, 401, 'the token the in-window refresh gave ends with it');
    });

    it('when the store lost the mark (restarted empty) and the superseded token is refreshed inside its window, then the store takes the database start again', async () => {
      const user = await makeUser();
      const old = await signIn(windowed, user);
      assert.equal((await refresh(windowed, old)).status, 200);
      const first = await windowStarts(old);
      await ctx().store.delete(`revoked:${payloadOf(old).jti as string}`);
      await ctx().store.delete('revoked:loaded');

      await sleep(1100);
      assert.equal((await refresh(windowed, old)).status, 200);

      assert.deepEqual(await windowStarts(old), first);
    });
  });

  describe('racing reuse', () => {
    it('when five refreshes of one superseded token race after the window, then all are refused and the session ends with one activity row and one mail', async () => {
      const user = await makeUser();
      const old = await signIn(strict, user);
      assert.equal((await refresh(strict, old)).status, 200);

      const answers = await Promise.all(Array.from({ length: 5 }, () => refresh(strict, old)));

      assert.deepEqual(answers.map((res) => res.status), [401, 401, 401, 401, 401]);
      assert.ok(await sessionRevoked(old));
      const rows = await ctx().models.ActivityLog.count({ where: { action: 'session.reuse_detected', userId: user.id } });
      assert.equal(rows, 1);
      await sink.waitFor((m) => m.envelope.to.includes(user.email) && REUSE_SUBJECT.test(m.subject));
      // Give any second mail time to arrive before counting.
      await sleep(500);
      assert.equal(sink.messages.filter((m) => m.envelope.to.includes(user.email) && REUSE_SUBJECT.test(m.subject)).length, 1);
    });
  });

  describe('absolute lifetime at refresh', () => {
    const DEFAULT_MAX_AGE = 90 * 86_400;
    let admin: string;

    before(async () => {
      admin = await tokenFor(await makeUser({ role: 'admin' }));
    });
    afterEach(async () => {
      const res = await request(ctx().app).put('/api/settings/security').set(bearer(admin)).send({ sessionMaxAgeSeconds: DEFAULT_MAX_AGE });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });

    it('when the admin lowers the session lifetime below an existing session age, then its next refresh answers 401 "Session expired, sign in again"', async () => {
      const user = await makeUser();
      const token = await signIn(ctx().app, user);
      // Signed in two hours ago; its row's end was set at sign-in under the 90-day default.
      await ctx().models.Session.update({ createdAt: new Date(Date.now() - 7_200_000) }, { where: { id: payloadOf(token).sid as string } });
      const lowered = await request(ctx().app).put('/api/settings/security').set(bearer(admin)).send({ sessionMaxAgeSeconds: 3600 });
      assert.equal(lowered.status, 200, JSON.stringify(lowered.body));

      const res = await refresh(ctx().app, token);

      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { error: 'Session expired, sign in again' });
    });

    it('when the lowered lifetime still covers the session, then refresh succeeds and neither the new token nor the session row outlives the new end', async () => {
      const user = await makeUser();
      const token = await signIn(ctx().app, user);
      const sid = payloadOf(token).sid as string;
      const lowered = await request(ctx().app).put('/api/settings/security').set(bearer(admin)).send({ sessionMaxAgeSeconds: 3600 });
      assert.equal(lowered.status, 200, JSON.stringify(lowered.body));

      const res = await refresh(ctx().app, token);

      assert.equal(res.status, 200, JSON.stringify(res.body));
      const row = await ctx().models.Session.findByPk(sid, { rejectOnEmpty: true });
      const end = Math.floor(row.createdAt.getTime() / 1000) + 3600;
      assert.ok((payloadOf(res.body.token).exp as number) <= end);
      assert.ok(row.expiresAt.getTime() <= end * 1000 + 999, 'the listed end follows the lowered lifetime');
    });
  });
});
