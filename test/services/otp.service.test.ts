import assert from 'node:assert/strict';
import request from 'supertest';
import type { Express } from 'express';
import { ctx } from '../support/context';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { createTestUser, createUserWithToken } from '../support/users';
import { nextClientIp, proxiedApp } from '../support/auth';
import { configureOtp, mailedOtpCode, wrongOtpCode } from '../support/otp';

/** CONTRACT 4 + 9: an emailed code's guess is reserved in the account throttle before it is compared. */
describe('OTP verify: reserve, then judge', () => {
  let sink: SmtpSink;
  let app: Express;

  const verify = (email: string, code: string) => request(app).post('/auth/otp/verify').set('X-Forwarded-For', nextClientIp()).send({ email, code });
  const login = (email: string, password: string) => request(app).post('/auth/login').set('X-Forwarded-For', nextClientIp()).send({ email, password });

  before(async () => {
    sink = await startSmtpSink();
    app = proxiedApp({ SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test' });
    const { token } = await createUserWithToken('admin');
    await ctx().models.Plugin.destroy({ where: {} });
    await configureOtp(app, { Authorization: `Bearer ${token}` }, { codeLength: 6, maxAttempts: 10, rateLimitPerHour: 100 });
  });
  after(async () => {
    // Other suites expect every plugin inactive with its defaults.
    await ctx().models.Plugin.destroy({ where: {} });
    await sink.stop();
  });

  it('when 6 wrong passwords came first and 10 wrong codes arrive at once, then only 4 codes are judged and the rest are 429', async () => {
    const user = await createTestUser('viewer');
    for (let i = 0; i < 6; i++) assert.equal((await login(user.email, `wrong-password-${i}`)).status, 401);
    const code = await mailedOtpCode(app, sink, user.email, nextClientIp());
    const results = await Promise.all(Array.from({ length: 10 }, () => verify(user.email, wrongOtpCode(code))));
    const statuses = results.map((res) => res.status);
    assert.equal(statuses.filter((status) => status === 401).length, 4, statuses.join(','));
    assert.equal(statuses.filter((status) => status === 429).length, 6);
  });

  it('when the right code is the only guess, then it signs in', async () => {
    const user = await createTestUser('viewer');
    const code = await mailedOtpCode(app, sink, user.email, nextClientIp());
    const res = await verify(user.email, code);
    assert.equal(res.status, 200, JSON.stringify(res.body));
  });
});
