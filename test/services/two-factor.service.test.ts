import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import type { Express } from 'express';
import { makeUser, nextClientIp, proxiedApp, tokenFor } from '../support/auth';
import { codeFor } from '../support/totp';
import type { User } from '../../src/models';

/** CONTRACT 9: TOTP enrolment belongs to the session that began it, needs a recent sign-in, and its confirmation is a reserved guess. */
describe('TOTP enrolment (setup, the page, confirm)', () => {
  let app: Express;
  before(() => {
    app = proxiedApp();
  });

  const now = () => Math.floor(Date.now() / 1000);
  /** A session of the user signed in `ageSeconds` ago (its row made too). */
  const session = async (user: User, ageSeconds = 0) => {
    const token = await tokenFor(user, { sid: crypto.randomUUID(), authTime: now() - ageSeconds });
    return { bearer: { Authorization: `Bearer ${token}` }, cookie: { Cookie: `auth_token=${token}` } };
  };
  const setup = (auth: Record<string, string>) => request(app).post('/auth/2fa/totp/setup').set(auth);
  const confirm = (auth: Record<string, string>, code: string) => request(app).post('/auth/2fa/totp/confirm').set('X-Forwarded-For', nextClientIp()).set(auth).send({ code });
  const page = (auth: Record<string, string>) => request(app).get('/admin/profile/two-factor').set(auth).set('Accept', 'text/html');

  it('when session A begins setup, then session B (also recent) neither sees the secret nor confirms it, and gets the answers of no setup', async () => {
    const user = await makeUser();
    const [a, b] = [await session(user), await session(user)];
    const started = await setup(a.bearer);
    assert.equal(started.status, 200);
    const { secret } = started.body as { secret: string };

    const seenByA = await page(a.cookie);
    assert.equal(seenByA.status, 200);
    assert.ok(seenByA.text.includes('id="totp-secret"'), 'the session that began it sees its secret');
    const seenByB = await page(b.cookie);
    assert.equal(seenByB.status, 200);
    assert.ok(!seenByB.text.includes('id="totp-secret"'), 'another session does not');

    const byB = await confirm(b.bearer, codeFor(secret));
    assert.equal(byB.status, 400);
    assert.deepEqual(byB.body, { error: 'Start the two-factor setup first' });
    const byA = await confirm(a.bearer, codeFor(secret));
    assert.equal(byA.status, 200, JSON.stringify(byA.body));
    assert.equal(byA.body.recoveryCodes.length, 10);
  });

  it('when the session is older than the step-up age, then confirm and the page showing its pending secret ask to step up', async () => {
    const user = await makeUser();
    const sid = crypto.randomUUID();
    const recent = { Authorization: `Bearer ${await tokenFor(user, { sid, authTime: now() })}` };
    const { secret } = (await setup(recent)).body as { secret: string };
    // The same session, its sign-in now older than STEP_UP_MAX_AGE (10 minutes).
    const oldToken = await tokenFor(user, { sid, authTime: now() - 3600 });
    const refused = await confirm({ Authorization: `Bearer ${oldToken}` }, codeFor(secret));
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.body, { error: 'Recent sign-in required', stepUp: true });
    const shown = await page({ Cookie: `auth_token=${oldToken}` });
    assert.equal(shown.status, 303);
    assert.equal(shown.headers.location, `/auth/step-up?redirect=${encodeURIComponent('/admin/profile/two-factor')}`);

    // Another old session, with no pending secret of its own: nothing to protect, the page opens.
    assert.equal((await page((await session(user, 3600)).cookie)).status, 200);
  });

  it('when 20 wrong confirmation codes arrive at once, then exactly 10 are judged (the account throttle) and the rest are 429', async () => {
    const user = await makeUser();
    const a = await session(user);
    const { secret } = (await setup(a.bearer)).body as { secret: string };
    const near = new Set([-1, 0, 1].map((step) => codeFor(secret, step)));
    const wrong = ['000000', '111111', '222222', '333333'].find((code) => !near.has(code)) as string;
    const results = await Promise.all(Array.from({ length: 20 }, () => confirm(a.bearer, wrong)));
    const statuses = results.map((res) => res.status);
    assert.equal(statuses.filter((status) => status === 400).length, 10, statuses.join(','));
    assert.equal(statuses.filter((status) => status === 429).length, 10);
  });
});
