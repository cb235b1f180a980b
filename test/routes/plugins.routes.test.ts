import assert from 'node:assert/strict';
import request from 'supertest';
import { ctx } from '../support/context';
import { createUserWithToken } from '../support/users';
import { createContainer } from '../../src/container';

const MASK = '********';

function api() {
  return request(ctx().app);
}

async function counts() {
  const { models } = ctx();
  return { plugins: await models.Plugin.count(), logs: await models.ActivityLog.count({ where: { action: 'plugin.updated' } }) };
}

function registry() {
  const c = ctx();
  return createContainer({ config: c.config, logger: c.logger, sequelize: c.sequelize, models: c.models, store: c.store }).plugins;
}

describe('plugins API', () => {
  let auth: { Authorization: string };

  before(async () => {
    const { token } = await createUserWithToken('admin');
    auth = { Authorization: `Bearer ${token}` };
  });

  beforeEach(async () => {
    await ctx().models.Plugin.destroy({ where: {} });
  });

  after(async () => {
    // Other suites expect every plugin inactive with its defaults.
    await ctx().models.Plugin.destroy({ where: {} });
  });

  const put = (name: string, body: object) => api().put(`/api/plugins/${name}`).set(auth).send(body);

  it('when nothing was configured, then the three plugins are listed inactive with their defaults', async () => {
    const res = await api().get('/api/plugins').set(auth);
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.plugins.map((plugin: { name: string; active: boolean }) => [plugin.name, plugin.active]),
      [
        ['email', false],
        ['otp-login', false],
        ['oauth-providers', false],
      ],
    );
    const otp = res.body.plugins.find((plugin: { name: string }) => plugin.name === 'otp-login');
    assert.deepEqual(otp.settings, {
      codeLength: 6,
      codeExpiryMinutes: 10,
      maxAttempts: 3,
      rateLimitPerHour: 5,
      allowNewUserRegistration: false,
      logoWidth: 150,
      logoBorderWidth: 0,
      logoBorderColor: '#ffffff',
    });
    const oauth = res.body.plugins.find((plugin: { name: string }) => plugin.name === 'oauth-providers');
    assert.deepEqual(oauth.settings.providers.github, { clientId: '', clientSecret: '', enabled: false });
    assert.deepEqual(oauth.settings.providers.google, { clientId: '', clientSecret: '', enabled: false });
    assert.equal(await registry().isActive('otp-login'), false);
  });

  it('when an admin switches a plugin on and changes settings, then 200 { plugin }, merged over what was stored', async () => {
    const first = await put('otp-login', { active: true, settings: { codeLength: 8 } });
    assert.equal(first.status, 200);
    assert.deepEqual(Object.keys(first.body), ['plugin']);
    assert.equal(first.body.plugin.name, 'otp-login');
    assert.equal(first.body.plugin.active, true);
    assert.equal(first.body.plugin.settings.codeLength, 8);

    const second = await put('otp-login', { settings: { maxAttempts: 10, logoUrl: 'https://cdn.example.test/logo.png', logoBorderColor: 'rgb(10, 20, 30)' } });
    assert.equal(second.status, 200);
    assert.equal(second.body.plugin.active, true, 'active stays when not named');
    assert.equal(second.body.plugin.settings.codeLength, 8);
    assert.equal(second.body.plugin.settings.maxAttempts, 10);

    const cleared = await put('otp-login', { settings: { codeLength: null, logoUrl: null } });
    assert.equal(cleared.body.plugin.settings.codeLength, 6, 'null goes back to the default');
    assert.equal(cleared.body.plugin.settings.logoUrl, undefined);

    const plugins = registry();
    assert.equal(await plugins.isActive('otp-login'), true);
    assert.equal((await plugins.settingsOf('otp-login')).maxAttempts, 10);
    assert.equal((await put('otp-login', { active: false })).body.plugin.active, false);
    assert.equal(await plugins.isActive('otp-login'), false);
  });

  it('when a nested setting is cleared with null before anything is stored under it, then 200 and nothing is kept for it', async () => {
    const res = await put('oauth-providers', { settings: { providers: { github: { authorizationURL: null, clientId: 'gh-id' } } } });

    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.plugin.settings.providers.github.clientId, 'gh-id');
    const stored = (await ctx().models.Plugin.findByPk('oauth-providers'))?.settings as { providers: { github: Record<string, unknown> } };
    assert.deepEqual(stored.providers.github, { clientId: 'gh-id' });
  });

  describe('OTP settings ranges (SPEC 2.7)', () => {
    const accepted: Array<Record<string, unknown>> = [
      { codeLength: 4 },
      { codeLength: 8 },
      { codeExpiryMinutes: 5 },
      { codeExpiryMinutes: 60 },
      { maxAttempts: 3 },
      { maxAttempts: 10 },
      { rateLimitPerHour: 1 },
      { allowNewUserRegistration: true },
      { logoWidth: 20 },
      { logoWidth: 600 },
      { logoBorderWidth: 0 },
      { logoBorderWidth: 20 },
      { logoBorderColor: '#abc' },
      { logoBorderColor: '#A1B2C3' },
      { logoBorderColor: 'rgb(255,0,0)' },
      { logoBorderColor: 'rgba(0, 0, 0, 0.5)' },
      { logoBorderColor: 'CornflowerBlue' },
      { loginUrl: 'https://app.example.test/login', loginButtonText: 'Sign in now' },
    ];
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ codeLength: 3 }, 'codeLength'],
      [{ codeLength: 9 }, 'codeLength'],
      [{ codeLength: 6.5 }, 'codeLength'],
      [{ codeLength: '6' }, 'codeLength'],
      [{ codeExpiryMinutes: 4 }, 'codeExpiryMinutes'],
      [{ codeExpiryMinutes: 61 }, 'codeExpiryMinutes'],
      [{ maxAttempts: 2 }, 'maxAttempts'],
      [{ maxAttempts: 11 }, 'maxAttempts'],
      [{ rateLimitPerHour: 0 }, 'rateLimitPerHour'],
      [{ rateLimitPerHour: 2.5 }, 'rateLimitPerHour'],
      [{ allowNewUserRegistration: 'yes' }, 'allowNewUserRegistration'],
      [{ logoUrl: 'javascript:alert(1)' }, 'logoUrl'],
      [{ logoUrl: 'not a url' }, 'logoUrl'],
      [{ logoWidth: 19 }, 'logoWidth'],
      [{ logoWidth: 601 }, 'logoWidth'],
      [{ logoBorderWidth: -1 }, 'logoBorderWidth'],
      [{ logoBorderWidth: 21 }, 'logoBorderWidth'],
      [{ logoBorderColor: 'notacolour' }, 'logoBorderColor'],
      [{ logoBorderColor: 'rgb(300,0,0)' }, 'logoBorderColor'],
      [{ logoBorderColor: '#ff' }, 'logoBorderColor'],
      [{ logoBorderColor: 'red; background:url(x)' }, 'logoBorderColor'],
      [{ loginUrl: 'ftp://example.test' }, 'loginUrl'],
      [{ loginButtonText: 'x'.repeat(101) }, 'loginButtonText'],
      [{ secretBackdoor: true }, 'secretBackdoor'],
    ];

    it('when every value at the edges of its range is sent, then each is accepted', async () => {
      for (const settings of accepted) {
        const res = await put('otp-login', { settings });
        assert.equal(res.status, 200, `${JSON.stringify(settings)}: ${JSON.stringify(res.body)}`);
      }
    });

    it('when a value is out of range or of the wrong kind, then 400 naming the field, and nothing written', async () => {
      await put('otp-login', { settings: { codeLength: 7 } }).expect(200);
      const before = await counts();
      for (const [settings, field] of refused) {
        const res = await put('otp-login', { active: true, settings });
        assert.equal(res.status, 400, JSON.stringify(settings));
        assert.equal(res.body.error, 'Validation failed');
        assert.ok(res.body.errors[field], `${field} in ${JSON.stringify(res.body)}`);
      }
      assert.deepEqual(await counts(), before);
      const current = await registry().get('otp-login');
      assert.equal(current.active, false);
      assert.equal(current.settings.codeLength, 7);
    });
  });

  describe('secrets', () => {
    it('when OAuth credentials are stored, then the secret is masked when read, and sending the mask back keeps it', async () => {
      const set = await put('oauth-providers', {
        active: true,
        settings: { providers: { github: { clientId: 'gh-id', clientSecret: 'gh-very-secret', enabled: true, authorizationURL: 'http://127.0.0.1:9/authorize' } } },
      });
      assert.equal(set.status, 200);
      assert.equal(set.body.plugin.settings.providers.github.clientSecret, MASK);
      assert.equal(set.body.plugin.settings.providers.google.clientSecret, '', 'an empty secret stays visibly empty');
      assert.ok(!JSON.stringify(set.body).includes('gh-very-secret'));

      const listed = await api().get('/api/plugins').set(auth);
      assert.ok(!JSON.stringify(listed.body).includes('gh-very-secret'));

      const again = await put('oauth-providers', { settings: { providers: { github: { clientId: 'gh-id-2', clientSecret: MASK, enabled: true } } } });
      assert.equal(again.status, 200);
      const internal = await registry().settingsOf('oauth-providers');
      assert.equal(internal.providers.github.clientSecret, 'gh-very-secret');
      assert.equal(internal.providers.github.clientId, 'gh-id-2');
      assert.equal(internal.providers.github.authorizationURL, 'http://127.0.0.1:9/authorize');

      const log = await ctx().models.ActivityLog.findOne({ where: { action: 'plugin.updated' }, order: [['id', 'DESC']] });
      assert.equal(log?.details?.plugin, 'oauth-providers');
      assert.ok((log?.details?.changedSettings as string[]).includes('providers.github.clientId'));
      const allLogs = JSON.stringify(await ctx().models.ActivityLog.findAll({ where: { action: 'plugin.updated' } }));
      assert.ok(!allLogs.includes('gh-very-secret'));
    });

    it('when a provider is enabled without its id or secret, then 400 naming the field', async () => {
      const res = await put('oauth-providers', { settings: { providers: { google: { enabled: true, clientId: 'g-id' } } } });
      assert.equal(res.status, 400);
      assert.ok(res.body.errors['providers.google.clientSecret'], JSON.stringify(res.body));
      const unknownProvider = await put('oauth-providers', { settings: { providers: { gitlab: { enabled: true } } } });
      assert.equal(unknownProvider.status, 400);
      assert.ok(unknownProvider.body.errors['providers.gitlab']);
    });

    it('when email settings hold an API key and an SMTP password, then both are masked, and the mask sent back keeps them', async () => {
      const set = await put('email', {
        active: true,
        settings: { smtpUrl: 'smtp://mailer:p%40ss-word@smtp.example.test:587', apiKey: 'key-123-secret', fromEmail: 'auth@example.test', fromName: 'Auth' },
      });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      assert.equal(set.body.plugin.settings.apiKey, MASK);
      assert.equal(set.body.plugin.settings.smtpUrl, `smtp://mailer:${MASK}@smtp.example.test:587`);
      assert.ok(!JSON.stringify(set.body).includes('p%40ss-word'));

      const back = await put('email', { settings: { ...set.body.plugin.settings, fromName: 'Auth service' } });
      assert.equal(back.status, 200);
      const internal = await registry().settingsOf('email');
      assert.equal(internal.apiKey, 'key-123-secret');
      assert.equal(internal.smtpUrl, 'smtp://mailer:p%40ss-word@smtp.example.test:587');
      assert.equal(internal.fromName, 'Auth service');

      const moved = await put('email', { settings: { smtpUrl: `smtp://other:${MASK}@smtp2.example.test:25` } });
      assert.equal(moved.status, 400, 'the mask never carries the stored password to another server (issue 26, finding 4)');
      assert.deepEqual(Object.keys(moved.body.errors), ['smtpUrl']);

      const replaced = await put('email', { settings: { smtpUrl: `smtp://other:${MASK}@smtp.example.test:587`, apiKey: 'new-key' } });
      assert.equal(replaced.status, 200);
      const updated = await registry().settingsOf('email');
      assert.equal(updated.smtpUrl, 'smtp://other:p%40ss-word@smtp.example.test:587', 'the mask keeps the stored password for the same server');
      assert.equal(updated.apiKey, 'new-key');

      const logs = JSON.stringify(await ctx().models.ActivityLog.findAll({ where: { action: 'plugin.updated' } }));
      assert.ok(!logs.includes('key-123-secret') && !logs.includes('p%40ss-word') && !logs.includes('new-key'));
    });

    it('when email settings are invalid, then 400 naming the field', async () => {
      for (const [settings, field] of [
        [{ fromEmail: 'not-an-email' }, 'fromEmail'],
        [{ smtpUrl: 'http://smtp.example.test' }, 'smtpUrl'],
        [{ apiUrl: 'file:///etc/passwd' }, 'apiUrl'],
        [{ apiKey: 12345 }, 'apiKey'],
      ] as Array<[object, string]>) {
        const res = await put('email', { settings });
        assert.equal(res.status, 400, JSON.stringify(settings));
        assert.ok(res.body.errors[field], JSON.stringify(res.body));
      }
    });
  });

  it('when stored settings no longer validate, then only the bad keys fall back to their defaults', async () => {
    await ctx().models.Plugin.create({
      name: 'oauth-providers',
      active: true,
      settings: { providers: { github: { clientId: 'kept', clientSecret: 'kept-secret', enabled: true, retiredOption: 1 }, google: { enabled: 'maybe' } }, legacy: true },
    });
    const settings = await registry().settingsOf('oauth-providers');
    assert.deepEqual(settings, {
      providers: {
        github: { clientId: 'kept', clientSecret: 'kept-secret', enabled: true },
        google: { clientId: '', clientSecret: '', enabled: false },
      },
    });
    await ctx().models.Plugin.create({ name: 'otp-login', active: true, settings: { codeLength: 99, maxAttempts: 5 } });
    const otp = await registry().settingsOf('otp-login');
    assert.equal(otp.codeLength, 6);
    assert.equal(otp.maxAttempts, 5);
    const update = await put('otp-login', { settings: { codeExpiryMinutes: 15 } });
    assert.equal(update.status, 200, 'a stale stored key does not block later updates');
    assert.deepEqual([update.body.plugin.settings.codeLength, update.body.plugin.settings.maxAttempts, update.body.plugin.settings.codeExpiryMinutes], [6, 5, 15]);
  });

  it('when the plugin is unknown, then 404', async () => {
    assert.equal((await api().get('/api/plugins/no-such').set(auth)).status, 404);
    const res = await put('no-such', { active: true });
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { error: 'Plugin not found' });
    assert.equal(await ctx().models.Plugin.count(), 0);
  });

  it('when the body is malformed, then 400 and nothing written', async () => {
    const before = await counts();
    for (const [body, field] of [
      [{}, '_'],
      [{ active: 'yes' }, 'active'],
      [{ settings: 'codeLength=9' }, 'settings'],
      [{ settings: [1, 2] }, 'settings'],
      [{ active: true, name: 'email' }, 'name'],
    ] as Array<[object, string]>) {
      const res = await put('otp-login', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.ok(res.body.errors[field], JSON.stringify(res.body));
    }
    assert.deepEqual(await counts(), before);
  });

  it('when two admins change different settings at once, then both changes are kept', async () => {
    const results = await Promise.all([put('otp-login', { settings: { codeLength: 5 } }), put('otp-login', { settings: { maxAttempts: 7 } })]);
    assert.deepEqual(results.map((res) => res.status), [200, 200]);
    const settings = await registry().settingsOf('otp-login');
    assert.equal(settings.codeLength, 5);
    assert.equal(settings.maxAttempts, 7);
  });
});
