import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import request from 'supertest';
import { buildApp, ctx, uniqueEmail } from '../support/context';
import { closedPort } from '../support/ports';
import { formBody, location, signedIn, type PageSession } from '../support/admin-pages';
import { startEmailApi, type EmailApiStandIn } from '../support/email-api';
import { createUserWithToken } from '../support/users';
import { ConfigError, loadConfig } from '../../src/config/config';
import { createLogger } from '../../src/logger';
import { createMailer } from '../../src/services/operations/mailer';
import { createPluginRegistry } from '../../src/services/operations/plugin-registry';
import { createActivityService } from '../../src/services/operations/activity.service';

// Issue 26, finding 4: a stored secret never follows a re-pointed destination, and admin-entered
// outbound URLs never reach the service's own network (unless ALLOW_PRIVATE_OUTBOUND=true).

const PRIVATE = 'must not point to a loopback, private, link-local or metadata address';

/** The plugin registry over the run's database, as the app builds it with the given outbound rule. */
function registry(allowPrivateOutbound: boolean) {
  const { models, sequelize } = ctx();
  return createPluginRegistry({ models, activity: createActivityService({ sequelize, models, logger: pino({ level: 'silent' }) }), allowPrivateOutbound });
}

/** A mailer on the email plugin (no SMTP_URL), with the given outbound rule. */
function pluginMailer(allowPrivateOutbound: boolean, logger = pino({ level: 'silent' })) {
  const config = loadConfig({ ...ctx().env, SMTP_URL: undefined, EMAIL_FROM: undefined, ALLOW_PRIVATE_OUTBOUND: String(allowPrivateOutbound) });
  return createMailer({ config, logger, plugins: registry(allowPrivateOutbound) });
}

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

async function stored(name: string): Promise<Record<string, unknown> | undefined> {
  return (await ctx().models.Plugin.findByPk(name))?.settings as Record<string, unknown> | undefined;
}

/** The text of the field-error paragraph under a page's field, or undefined. */
function fieldError(html: string, name: string): string | undefined {
  return new RegExp(`id="field-${name.replace(/[.]/g, '\\.')}-error" role="alert">([^<]*)</p>`).exec(html)?.[1];
}

describe('security: secrets follow no re-pointed destination, outbound URLs stay public (issue 26, finding 4)', () => {
  let auth: { Authorization: string };
  let apiA: EmailApiStandIn;
  let apiB: EmailApiStandIn;
  const open = () => buildApp({ env: { SMTP_URL: undefined, EMAIL_FROM: undefined } });
  const closed = () => buildApp({ env: { SMTP_URL: undefined, EMAIL_FROM: undefined, ALLOW_PRIVATE_OUTBOUND: 'false' } });
  const put = (name: string, settings: Record<string, unknown>, app = open(), active?: boolean) =>
    request(app).put(`/api/plugins/${name}`).set(auth).send(active === undefined ? { settings } : { active, settings });

  before(async () => {
    auth = { Authorization: `Bearer ${(await createUserWithToken('admin')).token}` };
    apiA = await startEmailApi();
    apiB = await startEmailApi();
  });
  beforeEach(async () => {
    await ctx().models.Plugin.destroy({ where: {} });
    apiA.calls.length = 0;
    apiB.calls.length = 0;
  });
  after(async () => {
    await ctx().models.Plugin.destroy({ where: {} });
    await Promise.all([apiA.stop(), apiB.stop()]);
  });

  describe('a stored secret and its destination', () => {
    it('when only the email API URL is changed (key left out or sent back masked), then 400 naming apiKey, and no mail carries the key to the new host', async () => {
      assert.equal((await put('email', { apiKey: 'key-for-a-7731', apiUrl: apiA.url }, open(), true)).status, 200);

      for (const settings of [{ apiUrl: apiB.url }, { apiUrl: apiB.url, apiKey: '********' }]) {
        const res = await put('email', settings);
        assert.equal(res.status, 400, JSON.stringify(settings));
        assert.deepEqual(res.body, { error: 'Validation failed', errors: { apiKey: 'must be entered again when the API URL changes' } });
      }
      const to = uniqueEmail('repoint');
      assert.equal(await pluginMailer(true).send({ to, subject: 's', text: 't' }), true);

      assert.equal(apiB.calls.length, 0, 'the new host never saw the key');
      assert.equal(apiA.calls.find((call) => call.body.to === to)?.authorization, 'Bearer key-for-a-7731');
      assert.equal((await stored('email'))?.apiUrl, apiA.url);
    });

    it('when the key is entered again with the new API URL, then 200 and mail goes there with the new key', async () => {
      await put('email', { apiKey: 'key-for-a-7731', apiUrl: apiA.url }, open(), true);

      const res = await put('email', { apiUrl: apiB.url, apiKey: 'key-for-b-9902' });

      assert.equal(res.status, 200, JSON.stringify(res.body));
      const to = uniqueEmail('retyped');
      assert.equal(await pluginMailer(true).send({ to, subject: 's', text: 't' }), true);
      assert.equal(apiB.calls.find((call) => call.body.to === to)?.authorization, 'Bearer key-for-b-9902');
    });

    it('when the same API host gets another path, or the URL is cleared, then the key is kept (it goes nowhere new)', async () => {
      await put('email', { apiKey: 'key-for-a-7731', apiUrl: apiA.url }, open(), true);

      assert.equal((await put('email', { apiUrl: `http://127.0.0.1:${apiA.port}/v2/send`, apiKey: '********' })).status, 200);
      assert.equal((await put('email', { apiUrl: null })).status, 200);
      assert.equal((await stored('email'))?.apiKey, 'key-for-a-7731');
    });

    it('when the SMTP URL\'s host, port or scheme changes with the password masked, then 400 naming smtpUrl; retyped or same server, then 200', async () => {
      assert.equal((await put('email', { smtpUrl: 'smtp://mailer:smtp-pass-41@127.0.0.1:2525' })).status, 200);

      for (const smtpUrl of ['smtp://mailer:********@127.0.0.1:2526', 'smtp://mailer:********@localhost:2525', 'smtps://mailer:********@127.0.0.1:2525']) {
        const res = await put('email', { smtpUrl });
        assert.equal(res.status, 400, smtpUrl);
        assert.deepEqual(Object.keys(res.body.errors), ['smtpUrl']);
        assert.match(res.body.errors.smtpUrl, /password must be entered again/);
      }
      assert.equal((await stored('email'))?.smtpUrl, 'smtp://mailer:smtp-pass-41@127.0.0.1:2525');

      assert.equal((await put('email', { smtpUrl: 'smtp://other-user:********@127.0.0.1:2525' })).status, 200, 'same server, another user name');
      assert.equal((await stored('email'))?.smtpUrl, 'smtp://other-user:smtp-pass-41@127.0.0.1:2525');
      assert.equal((await put('email', { smtpUrl: 'smtp://mailer:smtp-pass-42@127.0.0.1:2526' })).status, 200, 'password typed again');
    });

    it('when an OAuth endpoint URL changes with the client secret kept, then 400 naming providers.<name>.clientSecret; typed again, then 200', async () => {
      const github = { clientId: 'gh-id', clientSecret: 'gh-secret-5150', enabled: true, tokenURL: 'http://127.0.0.1:9/token' };
      assert.equal((await put('oauth-providers', { providers: { github } })).status, 200);

      for (const key of ['authorizationURL', 'tokenURL', 'userProfileURL', 'userEmailsURL']) {
        for (const secret of [undefined, '********']) {
          const res = await put('oauth-providers', { providers: { github: { [key]: 'http://127.0.0.1:10/x', ...(secret ? { clientSecret: secret } : {}) } } });
          assert.equal(res.status, 400, `${key} ${secret}`);
          assert.deepEqual(res.body.errors, { 'providers.github.clientSecret': 'must be entered again when an endpoint URL changes' });
        }
      }
      assert.equal((await put('oauth-providers', { providers: { google: { tokenURL: 'http://127.0.0.1:10/token' } } })).status, 200, 'google has no secret stored');
      assert.equal((await put('oauth-providers', { providers: { github: { tokenURL: 'http://127.0.0.1:10/token', clientSecret: 'gh-secret-5150' } } })).status, 200);
      assert.equal((await put('oauth-providers', { providers: { github: { tokenURL: null } } })).status, 200, 'back to the provider\'s own endpoint');
    });

    it('when the admin pages change a destination and leave the secret blank, then the error is next to the secret\'s field', async () => {
      const admin: PageSession = await signedIn('admin');
      const post = (path: string, fields: Record<string, string | string[]>) =>
        request(open()).post(path).set('Cookie', admin.cookie).set('Accept', 'text/html').type('form').send(formBody({ _csrf: admin.csrf, ...fields }));
      await put('email', { apiKey: 'key-for-a-7731', apiUrl: apiA.url }, open(), true);
      await put('oauth-providers', { providers: { github: { clientId: 'gh-id', clientSecret: 'gh-secret-5150', enabled: true } } }, open(), true);

      const email = await post('/admin/plugins/email', { active: ['off', 'on'], smtpUrl: '', apiKey: '', apiUrl: apiB.url, fromEmail: '', fromName: '' });
      const oauth = await post('/admin/plugins/oauth-providers', { active: ['off', 'on'], 'providers.github.enabled': ['off', 'on'], 'providers.github.clientId': 'gh-id',
        'providers.github.clientSecret': '', 'providers.github.tokenURL': 'http://127.0.0.1:10/token' });

      assert.equal(email.status, 400);
      assert.equal(fieldError(email.text, 'apiKey'), 'must be entered again when the API URL changes');
      assert.equal(oauth.status, 400);
      assert.equal(fieldError(oauth.text, 'providers.github.clientSecret'), 'must be entered again when an endpoint URL changes');
      assert.equal((await stored('email'))?.apiUrl, apiA.url);
    });
  });

  describe('outbound URLs an admin enters', () => {
    const emailApiUrls = [
      'http://127.0.0.1:8080/send',
      'http://2130706433/send',
      'http://0x7f.1/send',
      'http://017700000001/send',
      'http://[::1]/send',
      'http://[::ffff:127.0.0.1]/send',
      'http://[::ffff:7f00:1]/send',
      'http://[64:ff9b::a9fe:a9fe]/send',
      'http://169.254.169.254/latest/meta-data',
      'http://[fd00:ec2::254]/latest',
      'http://10.1.2.3/send',
      'http://172.16.0.1/send',
      'http://192.168.1.1/send',
      'http://100.64.0.1/send',
      'http://0.0.0.0/send',
      'http://[::]/send',
      'http://[fe80::1]/send',
      'http://localhost:8080/send',
    ];
    const smtpUrls = ['smtp://u:p@127.0.0.1:25', 'smtp://u:p@2130706433:25', 'smtp://u:p@[::ffff:7f00:1]:25', 'smtp://localhost:25', 'smtps://u:p@192.168.0.10:465'];

    it('when ALLOW_PRIVATE_OUTBOUND is off, then loopback, private, link-local, unspecified, CGNAT and metadata addresses are refused, naming the field', async () => {
      const app = closed();
      const cases: Array<[string, Record<string, unknown>, string]> = [
        ...emailApiUrls.map((apiUrl): [string, Record<string, unknown>, string] => ['email', { apiUrl, apiKey: 'k' }, 'apiUrl']),
        ...smtpUrls.map((smtpUrl): [string, Record<string, unknown>, string] => ['email', { smtpUrl }, 'smtpUrl']),
        ...['authorizationURL', 'tokenURL', 'userProfileURL', 'userEmailsURL'].map((key): [string, Record<string, unknown>, string] => [
          'oauth-providers',
          { providers: { google: { [key]: 'http://169.254.169.254/computeMetadata/v1' } } },
          `providers.google.${key}`,
        ]),
      ];
      for (const [name, settings, field] of cases) {
        const res = await put(name, settings, app);
        assert.equal(res.status, 400, JSON.stringify(settings));
        assert.deepEqual(res.body.errors, { [field]: PRIVATE }, JSON.stringify(settings));
      }
      assert.equal(await ctx().models.Plugin.count(), 0, 'nothing was stored');
    });

    it('when ALLOW_PRIVATE_OUTBOUND is off, then a public address is accepted, and a stored URL that is not changed does not block another setting', async () => {
      assert.equal((await put('email', { apiUrl: 'https://93.184.216.34/send', apiKey: 'k', smtpUrl: 'smtp://u:p@[2606:4700::1111]:587' }, closed())).status, 200);
      await ctx().models.Plugin.destroy({ where: {} });
      assert.equal((await put('email', { apiUrl: apiA.url, apiKey: 'k' }, open())).status, 200);

      const res = await put('email', { fromName: 'Team', apiUrl: apiA.url }, closed());

      assert.equal(res.status, 200, JSON.stringify(res.body));
    });

    it('when ALLOW_PRIVATE_OUTBOUND is on, then the same addresses are accepted (development and tests)', async () => {
      for (const apiUrl of emailApiUrls) assert.equal((await put('email', { apiUrl, apiKey: 'k' })).status, 200, apiUrl);
      for (const smtpUrl of smtpUrls) assert.equal((await put('email', { smtpUrl })).status, 200, smtpUrl);
    });

    it('when a stored email API URL reaches a private address at send time (a name re-pointed since), then nothing is sent, unless allowed', async () => {
      const to = uniqueEmail('rebind');
      for (const apiUrl of [`http://localhost:${apiA.port}/v1/send`, apiA.url]) {
        await ctx().models.Plugin.upsert({ name: 'email', active: true, settings: { apiKey: 'key-at-send', apiUrl } });
        assert.equal(await pluginMailer(false).send({ to, subject: 's', text: 't' }), false, apiUrl);
      }
      assert.equal(apiA.calls.length, 0);

      assert.equal(await pluginMailer(true).send({ to, subject: 's', text: 't' }), true);
      assert.equal(apiA.calls.length, 1);
    });

    it('when ALLOW_PRIVATE_OUTBOUND is read, then it defaults to false, takes true/false, and a bad value stops the boot naming it', () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-config-'));
      assert.equal(loadConfig({ DATA_DIR: dir }).allowPrivateOutbound, false);
      assert.equal(loadConfig({ DATA_DIR: dir, ALLOW_PRIVATE_OUTBOUND: 'true' }).allowPrivateOutbound, true);
      assert.equal(loadConfig({ DATA_DIR: dir, ALLOW_PRIVATE_OUTBOUND: 'false' }).allowPrivateOutbound, false);
      assert.throws(() => loadConfig({ DATA_DIR: dir, ALLOW_PRIVATE_OUTBOUND: 'yes' }), (err: Error) => err instanceof ConfigError && /ALLOW_PRIVATE_OUTBOUND/.test(err.message));
    });
  });

  describe('"Send test email"', () => {
    it('when the mail service fails, then the page says so in fixed words (no remote status, body or error code: no probe), and the log keeps the detail', async () => {
      const admin = await signedIn('admin');
      const { logger, lines } = capturingLogger();
      const app = buildApp({ env: { SMTP_URL: undefined, EMAIL_FROM: undefined }, logger });
      const test = () => request(app).post('/admin/plugins/email/test').set('Cookie', admin.cookie).set('Accept', 'text/html').type('form').send(formBody({ _csrf: admin.csrf }));

      await put('email', { apiKey: 'key-in-test-4410', apiUrl: apiA.url }, open(), true);
      apiA.setStatus(500);
      const refusedByApi = await test();
      apiA.setStatus(202);
      await put('email', { apiKey: null, apiUrl: null, smtpUrl: `smtp://mailer:smtp-pw-6610@127.0.0.1:${await closedPort()}` });
      const unreachable = await test();

      for (const res of [refusedByApi, unreachable]) {
        assert.equal(res.status, 303);
        const page = await request(app).get(location(res)).set('Cookie', admin.cookie).set('Accept', 'text/html');
        const alert = /<p class="error" role="alert">([^<]*)<\/p>/.exec(page.text)?.[1] ?? '';
        assert.match(alert, /^Test email failed: /);
        for (const detail of ['500', 'provider body', 'ECONNREFUSED', 'HTTP_', 'key-in-test-4410', 'smtp-pw-6610']) {
          assert.ok(!location(res).includes(detail) && !alert.includes(detail), `${detail} in ${location(res)} / ${alert}`);
        }
      }
      const log = lines.join('');
      assert.match(log, /email API answered 500/);
      assert.match(log, /ECONNREFUSED/);
      for (const secret of ['key-in-test-4410', 'smtp-pw-6610']) assert.ok(!log.includes(secret), `log must not contain ${secret}`);
    });
  });
});
