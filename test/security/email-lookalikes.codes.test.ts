import assert from 'node:assert/strict';
import request from 'supertest';
import type { Express } from 'express';
import { ctx } from '../support/context';
import { makeUser, nextClientIp, payloadOf, proxiedApp, setCookies } from '../support/auth';
import { createUserWithToken } from '../support/users';
import { startSmtpSink, type SinkMessage, type SmtpSink } from '../support/smtp-sink';
import { EXTERNAL_AUTH_SECRET, follow, linkFrom, mailedLink } from '../support/magic-link';
import { foreignSpellings, lookalikes } from '../support/lookalikes';

// Issue 26, finding 1, for the emailed sign-ins (one-time code, magic link): a look-alike is refused
// where it is typed, another case reaches the same account, and an account stored under a look-alike is
// never the one a code or link for the real address signs in to (exact email comparison on MariaDB, for
// users, otp_codes and auth_verification alike). Run with and without DATABASE_URL / REDIS_URL.

function codeFrom(message: SinkMessage): string {
  const match = /Your login code: (\d+)/.exec(message.text);
  assert.ok(match, 'the mail carries a code');
  return match[1];
}

describe('email look-alikes: one-time codes and magic links', () => {
  let sink: SmtpSink;
  let app: Express;

  const post = (path: string, body: Record<string, unknown>) => request(app).post(path).set('X-Forwarded-For', nextClientIp()).send(body);

  before(async () => {
    sink = await startSmtpSink();
    // Every request from its own client address: the per-IP limits stay out of the way.
    app = proxiedApp({ SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test', EXTERNAL_AUTH_SECRET });
  });
  after(async () => {
    await sink.stop();
  });
  beforeEach(async () => {
    await ctx().models.Setting.destroy({ where: { key: 'security.allowRegistration' } });
  });

  describe('POST /auth/otp/request and /auth/otp/verify', () => {
    beforeEach(async () => {
      const { token } = await createUserWithToken('admin');
      const res = await request(app)
        .put('/api/plugins/otp-login')
        .set('Authorization', `Bearer ${token}`)
        .send({ active: true, settings: { allowNewUserRegistration: true } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });

    async function mailedCode(email: string, to = email): Promise<string> {
      const before = sink.messages.length;
      const res = await post('/auth/otp/request', { email });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return codeFrom(await sink.waitFor((m) => m.envelope.to.includes(to) && sink.messages.indexOf(m) >= before));
    }

    it('when a look-alike of an account\'s address asks for a code or verifies one, then 400 and no code is stored or mailed', async () => {
      const set = lookalikes();
      await makeUser({ email: set.real });
      for (const [name, email] of foreignSpellings(set)) {
        const asked = await post('/auth/otp/request', { email });
        assert.equal(asked.status, 400, `${name}: ${JSON.stringify(asked.body)}`);
        const verified = await post('/auth/otp/verify', { email, code: '123456' });
        assert.equal(verified.status, 400, `${name}: ${JSON.stringify(verified.body)}`);
        assert.equal(verified.headers['set-cookie'], undefined, name);
      }
      assert.equal(await ctx().models.OtpCode.count({ where: { userEmail: set.real } }), 0);
      assert.equal(sink.messages.filter((m) => m.envelope.to.includes(set.real)).length, 0);
    });

    it('when the address asks and verifies in another case, then the code reaches and signs in the same account', async () => {
      const set = lookalikes();
      const user = await makeUser({ email: set.real });
      const code = await mailedCode(set.upper, set.real);
      const res = await post('/auth/otp/verify', { email: set.upper, code });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(payloadOf(res.body.token).sub, user.id);
    });

    it('when an account is stored under a look-alike, then a code for the real address signs in the real address\'s own (new) account', async () => {
      const set = lookalikes();
      const squatter = await makeUser({ email: set.accent });
      const code = await mailedCode(set.real);
      assert.equal(await ctx().models.OtpCode.count({ where: { userEmail: set.accent } }), 0, 'the look-alike does not find the real address\'s code');
      const res = await post('/auth/otp/verify', { email: set.real, code });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.notEqual(payloadOf(res.body.token).sub, squatter.id);
      assert.equal(res.body.user.email, set.real);
    });
  });

  describe('POST /auth/sign-in/magic-link and GET /auth/magic-link/verify', () => {
    it('when a look-alike of an account\'s address asks for a link, then 400 and no link is stored or mailed', async () => {
      const set = lookalikes();
      await makeUser({ email: set.real });
      for (const [name, email] of foreignSpellings(set)) {
        const res = await post('/auth/sign-in/magic-link', { email });
        assert.equal(res.status, 400, `${name}: ${JSON.stringify(res.body)}`);
      }
      assert.equal(await ctx().models.AuthVerification.count({ where: { identifier: set.real } }), 0);
      assert.equal(sink.messages.filter((m) => m.envelope.to.includes(set.real)).length, 0);
    });

    it('when the address asks in another case, then the link goes to it and signs in the same account', async () => {
      const set = lookalikes();
      const user = await makeUser({ email: set.real });
      const before = sink.messages.length;
      const asked = await post('/auth/sign-in/magic-link', { email: set.upper });
      assert.equal(asked.status, 200);
      const mail = await sink.waitFor((m) => m.envelope.to.includes(set.real) && sink.messages.indexOf(m) >= before);
      const res = await follow(app, linkFrom(mail));
      assert.equal(res.status, 302);
      assert.equal(payloadOf(setCookies(res).auth_token.value).sub, user.id);
    });

    it('when an account is stored under a look-alike, then a link for the real address signs in the real address\'s own (new) account', async () => {
      const set = lookalikes();
      const squatter = await makeUser({ email: set.accent });
      const link = await mailedLink(app, sink, set.real);
      assert.equal(await ctx().models.AuthVerification.count({ where: { identifier: set.accent } }), 0, 'the look-alike does not find the real address\'s link');
      const res = await follow(app, link);
      assert.equal(res.status, 302);
      assert.equal(res.headers.location, '/admin');
      const sub = payloadOf(setCookies(res).auth_token.value).sub as string;
      assert.notEqual(sub, squatter.id);
      assert.equal((await ctx().models.User.findByPk(sub))?.email, set.real);
    });
  });
});
