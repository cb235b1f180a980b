import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import pino from 'pino';
import request from 'supertest';
import { ctx, buildApp, uniqueEmail } from '../support/context';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { startEmailApi, type EmailApiCall, type EmailApiStandIn } from '../support/email-api';
import { createTestUser } from '../support/users';
import { loadConfig } from '../../src/config/config';
import { createLogger } from '../../src/logger';
import { createMailer } from '../../src/services/operations/mailer';
import { createPluginRegistry } from '../../src/services/operations/plugin-registry';
import { createActivityService } from '../../src/services/operations/activity.service';

function registry() {
  const { models, sequelize } = ctx();
  // The stand-ins listen on loopback: as the suite's apps, allowed by ALLOW_PRIVATE_OUTBOUND (test/support/context.ts).
  return createPluginRegistry({ models, activity: createActivityService({ sequelize, models, logger: pino({ level: 'silent' }) }), allowPrivateOutbound: ctx().config.allowPrivateOutbound });
}

function capturingLogger() {
  const lines: string[] = [];
  const sink = new Writable({ write(chunk: Buffer, _enc, done) { lines.push(chunk.toString('utf8')); done(); } });
  return { logger: createLogger('info', sink), lines };
}

describe('mailer: the email plugin as the transport', () => {
  let sinkA: SmtpSink;
  let sinkB: SmtpSink;
  let api: EmailApiStandIn;
  const plugins = () => registry();
  const mailerWithout = (env: Record<string, string | undefined> = {}, logger = pino({ level: 'silent' })) =>
    createMailer({ config: loadConfig({ ...ctx().env, SMTP_URL: undefined, EMAIL_FROM: undefined, ...env }), logger, plugins: plugins() });

  before(async () => {
    sinkA = await startSmtpSink();
    sinkB = await startSmtpSink();
    api = await startEmailApi();
  });

  beforeEach(async () => {
    await ctx().models.Plugin.destroy({ where: {} });
    api.setStatus(202);
  });

  after(async () => {
    await ctx().models.Plugin.destroy({ where: {} });
    await Promise.all([sinkA.stop(), sinkB.stop(), api.stop()]);
  });

  it('when neither SMTP_URL nor an active, complete email plugin is there, then mail is not configured', async () => {
    const mailer = mailerWithout();
    assert.equal(await mailer.isConfigured(), false);

    await plugins().update('email', { active: false, settings: { smtpUrl: sinkA.url } });
    assert.equal(await mailer.isConfigured(), false, 'an inactive plugin does not count');

    await plugins().update('email', { active: true, settings: { smtpUrl: null, apiKey: 'key-only' } });
    assert.equal(await mailer.isConfigured(), false, 'an API key without its URL is incomplete');
    assert.equal(await mailer.send({ to: 'x@example.test', subject: 's', text: 't' }), false);
  });

  it('when the plugin has an SMTP URL, then mail goes there with its From name and address, and an admin change applies to the next send', async () => {
    const mailer = mailerWithout();
    await plugins().update('email', { active: true, settings: { smtpUrl: sinkA.url, fromEmail: 'team@example.test', fromName: 'The Team' } });
    const first = uniqueEmail('smtp-a');
    const second = uniqueEmail('smtp-b');

    assert.equal(await mailer.isConfigured(), true);
    assert.equal(await mailer.send({ to: first, subject: 'one', text: 'one', html: '<p>one</p>' }), true);
    await plugins().update('email', { settings: { smtpUrl: sinkB.url } });
    assert.equal(await mailer.send({ to: second, subject: 'two', text: 'two' }), true);

    const a = await sinkA.waitFor((m) => m.envelope.to.includes(first));
    assert.equal(a.envelope.from, 'team@example.test');
    assert.match(a.from, /The Team/);
    await sinkB.waitFor((m) => m.envelope.to.includes(second));
    assert.equal(sinkA.messages.filter((m) => m.envelope.to.includes(second)).length, 0, 'the old SMTP URL is not used again');
  });

  describe('without ALLOW_PRIVATE_OUTBOUND (the SMTP host judged as the connection is made)', () => {
    const publicOnlyMailer = (env: Record<string, string | undefined> = {}, logger = pino({ level: 'silent' })) =>
      mailerWithout({ ALLOW_PRIVATE_OUTBOUND: 'false', ...env }, logger);

    it('when the saved SMTP host now resolves to a loopback address (a name re-pointed after its save), then the send is refused and no mail reaches it', async () => {
      // Saved while private destinations were allowed: stands for a name that resolved to a public address at save time.
      await plugins().update('email', { active: true, settings: { smtpUrl: `smtp://localhost:${sinkA.port}` } });
      const { logger, lines } = capturingLogger();
      const to = uniqueEmail('rebound');

      const result = await publicOnlyMailer({}, logger).deliver({ to, subject: 'rebound', text: 'rebound' });

      assert.equal(result.sent, false);
      assert.match(lines.join(''), /EOUTBOUNDPRIVATE/);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(sinkA.messages.filter((m) => m.envelope.to.includes(to)).length, 0);
    });

    it('when the saved SMTP host is a loopback literal, then the send is refused and no mail reaches it', async () => {
      await plugins().update('email', { active: true, settings: { smtpUrl: sinkA.url } });
      const to = uniqueEmail('literal');

      assert.equal(await publicOnlyMailer().send({ to, subject: 'literal', text: 'literal' }), false);

      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(sinkA.messages.filter((m) => m.envelope.to.includes(to)).length, 0);
    });

    it('when SMTP_URL (the operator\'s own setting, trusted) names a loopback relay, then mail still goes there', async () => {
      const to = uniqueEmail('relay');

      assert.equal(await publicOnlyMailer({ SMTP_URL: `smtp://localhost:${sinkA.port}` }).send({ to, subject: 'relay', text: 'relay' }), true);

      await sinkA.waitFor((m) => m.envelope.to.includes(to));
    });
  });

  it('when SMTP_URL is set, then it wins over the plugin, whether or not the plugin is active', async () => {
    await plugins().update('email', { active: true, settings: { smtpUrl: sinkB.url } });
    const mailer = mailerWithout({ SMTP_URL: sinkA.url, EMAIL_FROM: 'env@example.test' });
    const to = uniqueEmail('env');

    assert.equal(await mailer.send({ to, subject: 'env', text: 'env' }), true);

    const message = await sinkA.waitFor((m) => m.envelope.to.includes(to));
    assert.equal(message.envelope.from, 'env@example.test');
    await plugins().update('email', { active: false });
    assert.equal(await mailer.isConfigured(), true);
  });

  it('when the plugin has an API key and URL, then mail is POSTed there with the Bearer key and { from, to, subject, html, text }', async () => {
    await plugins().update('email', { active: true, settings: { apiKey: 'api-key-123', apiUrl: api.url, fromEmail: 'api@example.test' } });
    const mailer = mailerWithout();
    const to = uniqueEmail('api');

    assert.equal(await mailer.send({ to, subject: 'Via API', text: 'plain', html: '<b>rich</b>' }), true);

    const call = api.calls.find((c) => c.body.to === to);
    assert.ok(call);
    assert.equal(call.authorization, 'Bearer api-key-123');
    assert.match(String(call.contentType), /application\/json/);
    assert.deepEqual(call.body, { from: 'api@example.test', to, subject: 'Via API', html: '<b>rich</b>', text: 'plain' });
  });

  it('when the email API fails, then send resolves false and the log names the status but never the key, the body or the recipient', async () => {
    await plugins().update('email', { active: true, settings: { apiKey: 'secret-api-key', apiUrl: api.url } });
    api.setStatus(500);
    const { logger, lines } = capturingLogger();
    const mailer = mailerWithout({}, logger);

    const sent = await mailer.send({ to: 'victim@example.test', subject: 'Code', text: 'code 987654', html: '<p>987654</p>' });

    assert.equal(sent, false);
    const log = lines.join('');
    assert.match(log, /mail delivery failed/);
    assert.match(log, /500/);
    for (const secret of ['secret-api-key', '987654', 'victim@', 'provider body']) assert.ok(!log.includes(secret), `log must not contain ${secret}`);
  });

  it('when OTP runs on the plugin\'s HTTP email API and the API is down, then the request answers the same and the code arrives once it is back', async () => {
    await plugins().update('email', { active: true, settings: { apiKey: 'otp-key', apiUrl: api.url } });
    await plugins().update('otp-login', { active: true });
    const app = buildApp({ env: { SMTP_URL: undefined } });
    const user = await createTestUser('viewer');

    api.setStatus(503);
    const failed = await request(app).post('/auth/otp/request').send({ email: user.email });
    api.setStatus(202);
    const ok = await request(app).post('/auth/otp/request').send({ email: user.email });

    assert.equal(failed.status, 200);
    assert.deepEqual(failed.body, ok.body);
    let call: EmailApiCall | undefined;
    for (let waited = 0; !(call = api.calls.filter((c) => c.body.to === user.email)[1]) && waited < 5000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    assert.ok(call, 'the second mail reached the API');
    const code = String(call.body.text).match(/Your login code: (\d+)/)?.[1];
    assert.ok(code);
    const verified = await request(app).post('/auth/otp/verify').send({ email: user.email, code });
    assert.equal(verified.status, 200);
  });
});
