import assert from 'node:assert/strict';
import net from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { ctx } from '../support/context';
import { closedPort } from '../support/ports';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { loadConfig } from '../../src/config/config';
import { createLogger } from '../../src/logger';
import { createMailer, MAIL_FAILED, MAIL_NOT_CONFIGURED } from '../../src/services/operations/mailer';
import { createPluginRegistry } from '../../src/services/operations/plugin-registry';
import { createActivityService } from '../../src/services/operations/activity.service';

/** The plugin registry over the run's database (the mailer reads the email plugin through it). */
function plugins() {
  const { models, sequelize } = ctx();
  return createPluginRegistry({ models, activity: createActivityService({ sequelize, models, logger: pino({ level: 'silent' }) }) });
}

/** A logger whose lines are kept in memory, through the project's redaction. */
function capturingLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: createLogger('info', sink), lines };
}

describe('mailer', () => {
  let sink: SmtpSink;

  before(async () => {
    sink = await startSmtpSink();
  });

  after(async () => {
    await sink.stop();
  });

  it('when SMTP_URL is set, then the message arrives with EMAIL_FROM as sender, its subject, text and html', async () => {
    // Arrange
    const config = loadConfig({ ...ctx().env, SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test' });
    const mailer = createMailer({ config, logger: pino({ level: 'silent' }), plugins: plugins() });
    const to = `mailer-${Date.now()}@example.test`;

    // Act
    const sent = await mailer.send({ to, subject: 'Hello there', text: 'Plain body with a long line '.repeat(8), html: '<p>Html body</p>' });

    // Assert
    assert.equal(await mailer.isConfigured(), true);
    assert.equal(sent, true);
    const message = await sink.waitFor((m) => m.envelope.to.includes(to));
    assert.equal(message.envelope.from, 'auth@example.test');
    assert.equal(message.subject, 'Hello there');
    assert.equal(message.text.trim(), 'Plain body with a long line '.repeat(8).trim());
    assert.match(message.html, /<p>Html body<\/p>/);
  });

  it('when EMAIL_FROM is not set, then the sender is no-reply at the BASE_URL host', async () => {
    const config = loadConfig({ ...ctx().env, SMTP_URL: sink.url, EMAIL_FROM: undefined, BASE_URL: 'https://auth.example.org' });
    const mailer = createMailer({ config, logger: pino({ level: 'silent' }), plugins: plugins() });
    const to = `from-${Date.now()}@example.test`;

    assert.equal(await mailer.send({ to, subject: 'x', text: 'y' }), true);

    const message = await sink.waitFor((m) => m.envelope.to.includes(to));
    assert.equal(message.envelope.from, 'no-reply@auth.example.org');
  });

  it('when no mail service is configured, then isConfigured is false and send resolves false without throwing', async () => {
    const config = loadConfig({ ...ctx().env, SMTP_URL: undefined });
    const mailer = createMailer({ config, logger: pino({ level: 'silent' }), plugins: plugins() });

    assert.equal(await mailer.isConfigured(), false);
    assert.equal(await mailer.send({ to: 'a@example.test', subject: 's', text: 't' }), false);
  });

  it('when the SMTP server is unreachable, then send resolves false, and the log names the failure but never the body', async () => {
    // Arrange
    const port = await closedPort();
    const config = loadConfig({ ...ctx().env, SMTP_URL: `smtp://127.0.0.1:${port}` });
    const { logger, lines } = capturingLogger();
    const mailer = createMailer({ config, logger, plugins: plugins() });
    const secret = 'https://localhost/reset?token=SECRET-LINK-VALUE';

    // Act
    const started = Date.now();
    const sent = await mailer.send({ to: 'victim@example.test', subject: 'Reset', text: secret, html: `<a href="${secret}">x</a>` });

    // Assert
    assert.equal(sent, false);
    assert.ok(Date.now() - started < 5000, 'fails fast on a refused connection');
    const log = lines.join('');
    assert.match(log, /mail delivery failed/);
    assert.doesNotMatch(log, /SECRET-LINK-VALUE/);
    assert.doesNotMatch(log, /victim@/, 'the recipient is masked');
  });
});

describe('mailer.deliver: whether a delivery failed, in words safe to show an admin', () => {
  const mailerFor = (smtpUrl: string | undefined, logger = pino({ level: 'silent' })) =>
    createMailer({ config: loadConfig({ ...ctx().env, SMTP_URL: smtpUrl }), logger, plugins: plugins() });

  /** An SMTP server that refuses every login, quoting the credentials back in its reply (as a careless one might). */
  async function echoingServer(): Promise<{ url: (user: string, pass: string) => string; stop: () => Promise<void> }> {
    const server = new SMTPServer({
      authMethods: ['PLAIN', 'LOGIN'],
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth(auth, _session, callback) {
        callback(new Error(`no such login ${auth.username}/${auth.password}`));
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { port } = (server as unknown as { server: net.Server }).server.address() as net.AddressInfo;
    return {
      url: (user, pass) => `smtp://${user}:${encodeURIComponent(pass)}@127.0.0.1:${port}`,
      stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it('when the mail goes out, then { sent: true }', async () => {
    const sink = await startSmtpSink();
    try {
      assert.deepEqual(await mailerFor(sink.url).deliver({ to: 'a@example.test', subject: 's', text: 't' }), { sent: true });
    } finally {
      await sink.stop();
    }
  });

  it('when nothing is configured, then the reason says so', async () => {
    assert.deepEqual(await mailerFor(undefined).deliver({ to: 'a@example.test', subject: 's', text: 't' }), { sent: false, error: MAIL_NOT_CONFIGURED });
  });

  it('when the server is unreachable, then the reason is the fixed failure text (no error code to probe ports with), and the log names the refusal without the URL\'s password', async () => {
    const { logger, lines } = capturingLogger();
    const result = await mailerFor(`smtp://mailer:pw-in-url-77@127.0.0.1:${await closedPort()}`, logger).deliver({ to: 'a@example.test', subject: 's', text: 't' });
    assert.deepEqual(result, { sent: false, error: MAIL_FAILED });
    assert.match(lines.join(''), /ECONNREFUSED/);
    assert.ok(!lines.join('').includes('pw-in-url-77'));
  });

  it('when the server\'s reply quotes the credentials, then the reason is the fixed text and the log has the reply with them blotted out', async () => {
    const server = await echoingServer();
    const { logger, lines } = capturingLogger();
    try {
      const result = await mailerFor(server.url('smtp-user', 'p@ss word!'), logger).deliver({ to: 'a@example.test', subject: 's', text: 't' });
      assert.deepEqual(result, { sent: false, error: MAIL_FAILED });
      const log = lines.join('');
      assert.match(log, /no such login \*\*\*\/\*\*\*/);
      assert.ok(!log.includes('p@ss word!') && !log.includes('smtp-user'), log);
    } finally {
      await server.stop();
    }
  });

  it('when send is used, then it still answers a boolean (existing callers)', async () => {
    assert.equal(await mailerFor(undefined).send({ to: 'a@example.test', subject: 's', text: 't' }), false);
  });
});
