import assert from 'node:assert/strict';
import net from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { ctx } from '../support/context';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { loadConfig } from '../../src/config/config';
import { createLogger } from '../../src/logger';
import { createMailer } from '../../src/services/mailer';
import { createPluginRegistry } from '../../src/plugins/plugin-registry';
import { createActivityService } from '../../src/services/activity.service';

/** The plugin registry over the run's database (the mailer reads the email plugin through it). */
function plugins() {
  const { models } = ctx();
  return createPluginRegistry({ models, activity: createActivityService({ models, logger: pino({ level: 'silent' }) }) });
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

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
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
