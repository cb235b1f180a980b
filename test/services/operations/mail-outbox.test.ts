import assert from 'node:assert/strict';
import request from 'supertest';
import type { Express } from 'express';
import { buildApp, ctx, uniqueEmail } from '../../support/context';
import { makeUser, nextClientIp } from '../../support/auth';
import { createUserWithToken } from '../../support/users';
import { sessionFor } from '../../support/admin-pages';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink';
import { outboxOf } from '../../../src/app';
import { createOutbox } from '../../../src/services/operations/outbox';
import { createMailer } from '../../../src/services/operations/mailer';
import { createMailOutbox } from '../../../src/services/operations/mail-outbox';
import type { OutboxEntry } from '../../../src/models/outbox';


/** Polls `read` until `done` holds of its answer (or fails after `timeoutMs`). */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`not reached in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function mailsTo(email: string): Promise<OutboxEntry[]> {
  const rows = await ctx().models.OutboxEntry.findAll({ where: { kind: 'mail' } });
  return rows.filter((row) => (JSON.parse(row.payload) as { to: string }).to === email);
}

describe('Mail through the outbox (CONTRACT 16: recorded, retried while what it carries is valid)', function () {
  this.timeout(40_000);
  let sink: SmtpSink;
  let app: Express;

  before(async () => {
    sink = await startSmtpSink();
    app = buildApp({ env: { SMTP_URL: sink.url, TRUST_PROXY: 'true' } });
  });

  after(async () => {
    await outboxOf(app).stop();
    await sink.stop();
  });

  it('when the mail service refuses a reset mail, then it is retried within 10 s once it accepts, and its link still works', async () => {
    // Arrange
    const user = await makeUser();
    sink.refusing = true;

    // Act: the answer does not depend on the mail; the first attempt is refused (451).
    const res = await request(app).post('/auth/request-password-reset').set('X-Forwarded-For', nextClientIp()).send({ email: user.email });
    assert.equal(res.status, 200);
    const [pending] = await eventually(() => mailsTo(user.email), (rows) => rows.length === 1 && rows[0].attempts === 1);
    assert.equal(pending.status, 'pending');
    assert.ok(sink.refused >= 1, 'the sink refused the first attempt');
    // At rest the body is sealed: no link, no token in the row.
    assert.doesNotMatch(pending.payload, /reset-password|token=/);
    sink.refusing = false;
    const refusedAt = pending.lastAttemptAt as Date;
    outboxOf(app).start();
    const mail = await sink.waitFor((message) => message.envelope.to.includes(user.email), 15_000);
    const [delivered] = await eventually(() => mailsTo(user.email), (rows) => rows[0].status === 'delivered');
    // The other tests' apps share this database: this app's worker must not take their mail.
    await outboxOf(app).stop();

    // Assert: delivered by the worker's retry, within the contract's 10 s of the refusal.
    assert.equal(delivered.attempts, 2);
    assert.ok((delivered.lastAttemptAt as Date).getTime() - refusedAt.getTime() <= 10_000, 'first retry within 10 s');
    assert.deepEqual(JSON.parse(delivered.payload), { to: user.email, subject: 'Reset your password' }, 'the sealed body is dropped once delivered');
    const token = decodeURIComponent((mail.text.match(/reset-password\?token=([A-Za-z0-9_%-]+)/) as RegExpMatchArray)[1]);
    const reset = await request(app).post('/auth/reset-password').set('X-Forwarded-For', nextClientIp()).send({ token, password: 'a-new-password-after-retry' });
    assert.equal(reset.status, 200);
  });

  it('when the mail service is down at first and up later, then a security notice arrives exactly once', async () => {
    // Arrange: a sink that is not listening yet, on a port the app already names.
    const later = await startSmtpSink();
    const port = later.port;
    await later.stop();
    const downApp = buildApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, TRUST_PROXY: 'true' } });
    const { user, token } = await createUserWithToken('viewer');

    try {
      // Act: creating an API key mails a notice; the mail service is unreachable.
      const created = await request(downApp).post('/auth/api-keys').set('Authorization', `Bearer ${token}`).send({ name: 'ci' });
      assert.equal(created.status, 201);
      await eventually(() => mailsTo(user.email), (rows) => rows.length === 1 && rows[0].attempts === 1);
      const { SMTPServer } = await import('smtp-server');
      const received: string[] = [];
      const server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        onData(stream, session, callback) {
          stream.resume().on('end', () => {
            received.push(...session.envelope.rcptTo.map((rcpt) => rcpt.address));
            callback();
          });
        },
      });
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      try {
        outboxOf(downApp).start();
        await eventually(async () => received, (list) => list.includes(user.email));
        await eventually(() => mailsTo(user.email), (rows) => rows[0].status === 'delivered');
        await new Promise((resolve) => setTimeout(resolve, 500));

        // Assert
        assert.equal(received.filter((address) => address === user.email).length, 1);
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    } finally {
      await outboxOf(downApp).stop();
    }
  });

  it('when what a mail carries expires while the mail service refuses, then it is given up and never sent', async () => {
    // Arrange: the durable mailer on this suite's database, its own outbox (no worker: rounds are run by hand).
    const { config, logger, sequelize, models } = ctx();
    const outbox = createOutbox({ sequelize, models, logger });
    const transport = createMailer({ config: { ...config, smtpUrl: sink.url }, logger, plugins: { isActive: async () => false, settingsOf: async () => ({}) as never } });
    const mailer = createMailOutbox({ config, models, outbox, transport, logger });
    const to = uniqueEmail('expiring');
    sink.refusing = true;

    try {
      // Act: refused while the code is valid (kept for a retry), then the code expires before the retry.
      const sent = await mailer.send({ to, subject: 'Your sign-in code', text: 'Your code is 424242' }, { expiresAt: new Date(Date.now() + 60_000) });
      const [kept] = await mailsTo(to);
      assert.equal(kept.status, 'pending');
      await kept.update({ expiresAt: new Date(Date.now() - 1000), nextAttemptAt: new Date() });
      sink.refusing = false;
      await outbox.runOnce();

      // Assert
      assert.equal(sent, false);
      const [row] = await mailsTo(to);
      assert.equal(row.status, 'failed');
      assert.match(row.lastError ?? '', /expired/);
      assert.deepEqual(JSON.parse(row.payload), { to, subject: 'Your sign-in code' }, 'the code is dropped with the sealed body');
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(sink.messages.filter((message) => message.envelope.to.includes(to)).length, 0);
    } finally {
      sink.refusing = false;
    }
  });

  it('when an admin lists outbound mail (API and the email page), then address, subject, status and attempts show, never a link or code', async () => {
    // Arrange
    const user = await makeUser();
    await request(app).post('/auth/request-password-reset').set('X-Forwarded-For', nextClientIp()).send({ email: user.email });
    const mail = await sink.waitFor((message) => message.envelope.to.includes(user.email));
    const token = (mail.text.match(/token=([A-Za-z0-9_%-]+)/) as RegExpMatchArray)[1];
    await eventually(() => mailsTo(user.email), (rows) => rows[0]?.status === 'delivered');
    const { user: admin, token: adminToken } = await createUserWithToken('admin');
    const viewer = await createUserWithToken('viewer');

    // Act
    const listed = await request(app).get('/api/outbound-mail?limit=100').set('Authorization', `Bearer ${adminToken}`);
    const page = await request(app).get('/admin/plugins/email').set('Cookie', (await sessionFor(admin)).cookie).set('Accept', 'text/html');
    const denied = await request(app).get('/api/outbound-mail').set('Authorization', `Bearer ${viewer.token}`);
    const badPaging = await request(app).get('/api/outbound-mail?limit=1000').set('Authorization', `Bearer ${adminToken}`);

    // Assert
    assert.equal(listed.status, 200);
    const row = (listed.body.mails as Array<Record<string, unknown>>).find((entry) => entry.to === user.email);
    assert.ok(row, 'the reset mail is listed');
    assert.deepEqual(
      { subject: row.subject, status: row.status, attempts: row.attempts, nextAttemptAt: row.nextAttemptAt },
      { subject: 'Reset your password', status: 'delivered', attempts: 1, nextAttemptAt: null },
    );
    assert.ok(!listed.text.includes(token) && !/reset-password|sealed/.test(listed.text));
    assert.equal(page.status, 200);
    assert.match(page.text, /Outbound mail/);
    assert.ok(page.text.includes(user.email) && !page.text.includes(token));
    assert.equal(denied.status, 403);
    assert.equal(badPaging.status, 400);
  });
});
