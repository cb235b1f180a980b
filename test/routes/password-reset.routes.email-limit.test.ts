import assert from 'node:assert/strict';
import request, { type Response } from 'supertest';
import type { Express } from 'express';
import { ctx, buildApp, uniqueEmail } from '../support/context';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { makeUser, nextClientIp } from '../support/auth';
import { MAILS_PER_EMAIL as PASSWORD_RESET_EMAIL_LIMIT } from '../../src/services/operations/email-quota';

const REQUESTED = { message: 'If an account with this email exists, a password reset link has been sent.' };

/** What a client can compare between two answers: everything but the per-request headers. */
function comparable(res: Response) {
  const { date: _date, 'x-ratelimit-reset': _reset, 'x-ratelimit-remaining': _remaining, 'x-request-id': _id, ...headers } = res.headers;
  return { status: res.status, body: res.body, headers };
}

describe('password reset: at most 3 mails per address in 15 minutes, whoever asks', () => {
  let sink: SmtpSink;
  let app: Express;
  /** Each request from its own client address (TRUST_PROXY on): only the per-email rule can hold mail back. */
  const ask = (email: string) => request(app).post('/auth/request-password-reset').set('X-Forwarded-For', nextClientIp()).send({ email });
  const mailsTo = (email: string) => sink.messages.filter((m) => m.envelope.to.includes(email)).length;

  before(async () => {
    sink = await startSmtpSink();
    app = buildApp({ env: { SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test', TRUST_PROXY: 'true' } });
  });
  after(() => sink.stop());

  it('when twelve clients ask for one address, then every answer is the same 200 and only 3 mails arrive', async () => {
    const user = await makeUser();
    const answers: Response[] = [];
    for (let i = 0; i < 12; i++) answers.push(await ask(i % 2 ? user.email.toUpperCase() : user.email));

    for (const res of answers) assert.deepEqual(comparable(res), comparable(answers[0]));
    assert.deepEqual([answers[0].status, answers[0].body], [200, REQUESTED]);
    assert.equal(answers.some((res) => res.headers['retry-after'] !== undefined), false);
    for (let waited = 0; mailsTo(user.email) < PASSWORD_RESET_EMAIL_LIMIT.limit; waited += 20) {
      assert.ok(waited < 5000, 'the first three mails arrive');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Time for any mail a fourth request might have started.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(mailsTo(user.email), PASSWORD_RESET_EMAIL_LIMIT.limit);
  });

  it('when twelve requests arrive at once from twelve clients, then still at most 3 mails', async () => {
    const user = await makeUser();
    const answers = await Promise.all(Array.from({ length: 12 }, () => ask(user.email)));
    assert.ok(answers.every((res) => res.status === 200));
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.ok(mailsTo(user.email) <= PASSWORD_RESET_EMAIL_LIMIT.limit, `${mailsTo(user.email)} mails`);
  });

  it('when an address past its limit is known or unknown, then the answers cannot be told apart', async () => {
    const known = await makeUser();
    const unknown = uniqueEmail('nobody');
    for (let i = 0; i < 4; i++) await ask(known.email);
    for (let i = 0; i < 4; i++) await ask(unknown);
    assert.deepEqual(comparable(await ask(unknown)), comparable(await ask(known.email)));
  });

  it('when one address is flooded, then the activity log gets one row per window for the refused ones, counting them', async () => {
    const user = await makeUser();
    for (let i = 0; i < 10; i++) await ask(user.email);
    const rows = await ctx().models.ActivityLog.findAll({ where: { action: 'auth.password_reset_requested', email: user.email } });
    assert.deepEqual(rows.map((row) => row.details).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))), [
      { count: 7, outcome: 'mail_limit' },
      {},
      {},
      {},
    ]);
  });

  it('when another address asks, then its own three mails are not held back', async () => {
    const flooded = await makeUser();
    const other = await makeUser();
    for (let i = 0; i < 5; i++) await ask(flooded.email);
    await ask(other.email);
    await sink.waitFor((m) => m.envelope.to.includes(other.email));
  });
});
