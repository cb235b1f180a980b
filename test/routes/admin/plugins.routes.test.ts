import assert from 'node:assert/strict';
import request from 'supertest';
import { buildApp, ctx } from '../../support/context';
import { closedPort } from '../../support/ports';
import { formBody, location, signedIn, type PageSession } from '../../support/admin-pages';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink';
import { tokenFor } from '../../support/users';

/** The text of the field-error paragraph under a field, or undefined. */
function fieldError(html: string, name: string): string | undefined {
  return new RegExp(`id="field-${name.replace(/[.]/g, '\\.')}-error" role="alert">([^<]*)</p>`).exec(html)?.[1];
}

/** The attributes of the input named `name`. */
function inputTag(html: string, name: string): string {
  return new RegExp(`<input[^>]*name="${name.replace(/[.]/g, '\\.')}"[^>]*>`).exec(html)?.[0] ?? '';
}

async function storedSettings(name: string): Promise<Record<string, unknown> | undefined> {
  return (await ctx().models.Plugin.findByPk(name))?.settings as Record<string, unknown> | undefined;
}

describe('admin pages: plugins', () => {
  let admin: PageSession;
  // SMTP_URL unset: mail goes through the email plugin these pages configure.
  const app = () => buildApp({ env: { SMTP_URL: undefined, EMAIL_FROM: undefined } });
  const get = (path: string, session = admin, target = app()) => request(target).get(path).set('Cookie', session.cookie).set('Accept', 'text/html');
  const post = (path: string, fields: Record<string, string | string[]>, session = admin, target = app()) =>
    request(target).post(path).set('Cookie', session.cookie).set('Accept', 'text/html').type('form').send(formBody({ _csrf: session.csrf, ...fields }));

  before(async () => {
    admin = await signedIn('admin');
  });
  beforeEach(() => ctx().models.Plugin.destroy({ where: {} }));
  after(() => ctx().models.Plugin.destroy({ where: {} }));

  describe('guards', () => {
    const pages = ['/admin/plugins', '/admin/plugins/email', '/admin/plugins/otp-login', '/admin/plugins/oauth-providers'];

    it('when not signed in, then each page sends the browser to sign in and back', async () => {
      for (const path of pages) {
        const res = await request(app()).get(path).set('Accept', 'text/html');
        assert.equal(res.status, 302);
        assert.equal(location(res), `/auth/login?redirect=${encodeURIComponent(path)}`);
      }
    });

    it('when an editor opens the pages or posts to them (save, preview, test email), then 302 with the reason and nothing happens', async () => {
      const editor = await signedIn('editor');
      const answers = [
        ...(await Promise.all(pages.map((path) => get(path, editor)))),
        await post('/admin/plugins/otp-login', { active: 'on', codeLength: '8' }, editor),
        await post('/admin/plugins/otp-login/preview', { codeLength: '8' }, editor),
        await post('/admin/plugins/email/test', {}, editor),
      ];
      for (const res of answers) {
        assert.equal(res.status, 302);
        assert.equal(location(res), '/auth/login?notice=forbidden');
      }
      assert.equal(await ctx().models.Plugin.count(), 0);
    });

    it('when a settings form comes without _csrf, then 403 and nothing is stored', async () => {
      const res = await request(app()).post('/admin/plugins/otp-login').set('Cookie', admin.cookie).set('Accept', 'text/html').type('form')
        .send(formBody({ active: ['off', 'on'], codeLength: '8' }));
      assert.equal(res.status, 403);
      assert.match(res.text, /Invalid CSRF token/);
      assert.equal(await ctx().models.Plugin.count(), 0);
    });

    it('when an unknown plugin is asked for, then 404', async () => {
      assert.equal((await get('/admin/plugins/nope')).status, 404);
    });
  });

  it('when an admin opens the list, then each plugin with its state and a Configure link', async () => {
    await ctx().models.Plugin.create({ name: 'otp-login', active: true, settings: {} });
    const res = await get('/admin/plugins');
    assert.equal(res.status, 200);
    for (const [name, title, state] of [['email', 'Email', 'Inactive'], ['otp-login', 'OTP login', 'Active'], ['oauth-providers', 'OAuth providers', 'Inactive']]) {
      assert.match(res.text, new RegExp(`<h2 id="plugin-${name}">${title}</h2>\\s*<span class="state [a-z]+">${state}</span>`));
      assert.match(res.text, new RegExp(`<a class="button" href="/admin/plugins/${name}" aria-label="Configure ${title}">Configure</a>`));
    }
  });

  describe('OTP login page', () => {
    it('when opened, then every SPEC 2.7 setting has a labelled control, numbers bounded by the plugin schema\'s ranges', async () => {
      const res = await get('/admin/plugins/otp-login');
      const ranges = { codeLength: [4, 8], codeExpiryMinutes: [5, 60], maxAttempts: [3, 10], rateLimitPerHour: [1, 1000], logoWidth: [20, 600], logoBorderWidth: [0, 20] };
      for (const [name, [min, max]] of Object.entries(ranges)) {
        const tag = inputTag(res.text, name);
        assert.match(tag, /type="number"/, name);
        assert.match(tag, new RegExp(`min="${min}"`), name);
        assert.match(tag, new RegExp(`max="${max}"`), name);
      }
      const labels = ['Active', 'Code length (digits)', 'Code expiration (minutes)', 'Max attempts', 'Rate limit (codes per hour)', 'Allow registration',
        'Logo URL', 'Logo width (px)', 'Logo border thickness (px)', 'Logo border color', 'Login URL', 'Login button text'];
      for (const label of labels) assert.ok(res.text.includes(`${label}</label>`) || res.text.includes(`> ${label}</label>`), label);
      assert.match(res.text, /<iframe id="otp-preview" title="Preview of the code email" sandbox srcdoc="/);
      assert.match(res.text, /<script src="\/static\/otp-preview.js" defer><\/script>/);
    });

    it('when a value is out of range, then 400 with the same message the API gives, next to the field, typed values kept, nothing stored', async () => {
      const res = await post('/admin/plugins/otp-login', { active: ['off', 'on'], codeLength: '9', codeExpiryMinutes: '4', logoBorderColor: 'url(x)', loginUrl: 'javascript:alert(1)' });
      assert.equal(res.status, 400);
      assert.equal(fieldError(res.text, 'codeLength'), 'must be at most 8');
      assert.equal(fieldError(res.text, 'codeExpiryMinutes'), 'must be at least 5');
      assert.equal(fieldError(res.text, 'logoBorderColor'), 'must be a hex, rgb() or named colour');
      assert.equal(fieldError(res.text, 'loginUrl'), 'must be an http(s) URL');
      assert.match(inputTag(res.text, 'codeLength'), /value="9"/);
      assert.match(res.text, /name="active" value="on" checked/);
      assert.equal(await storedSettings('otp-login'), undefined);

      const api = await request(ctx().app).put('/api/plugins/otp-login').set('Authorization', `Bearer ${await tokenFor(admin.user)}`)
        .send({ settings: { codeLength: 9, codeExpiryMinutes: 4 } });
      assert.deepEqual(api.body.errors, { codeLength: 'must be at most 8', codeExpiryMinutes: 'must be at least 5' }, 'one rule for both surfaces');

      const words = await post('/admin/plugins/otp-login', { codeLength: 'six' });
      assert.equal(fieldError(words.text, 'codeLength'), 'must be a whole number from 4 to 8');
    });

    it('when saved, then a confirmation, the settings and switch apply at once (no restart), and blank fields go back to their defaults', async () => {
      const target = app();
      const res = await post('/admin/plugins/otp-login', { active: ['off', 'on'], codeLength: '8', codeExpiryMinutes: '15', maxAttempts: '5', rateLimitPerHour: '20', allowNewUserRegistration: 'off',
        logoUrl: '', logoWidth: '200', logoBorderWidth: '2', logoBorderColor: 'rebeccapurple', loginUrl: 'https://example.test/otp', loginButtonText: '' }, admin, target);
      assert.equal(res.status, 303);
      assert.equal(location(res), '/admin/plugins/otp-login?notice=plugin_saved');
      assert.deepEqual(await storedSettings('otp-login'), { codeLength: 8, codeExpiryMinutes: 15, maxAttempts: 5, rateLimitPerHour: 20, allowNewUserRegistration: false,
        logoWidth: 200, logoBorderWidth: 2, logoBorderColor: 'rebeccapurple', loginUrl: 'https://example.test/otp' });
      const page = await get(location(res), admin, target);
      assert.match(page.text, /<p class="message" role="status">Plugin settings saved\.<\/p>/);
      assert.match(inputTag(page.text, 'codeLength'), /value="8"/);

      const otp = await request(target).post('/auth/otp/request').send({ email: 'someone@example.test' });
      assert.notEqual(otp.status, 404, 'the plugin is on for sign-in without a restart');
      const log = await ctx().models.ActivityLog.findOne({ where: { action: 'plugin.updated', userId: admin.user.id }, order: [['id', 'DESC']] });
      assert.deepEqual((log?.details as { active: unknown }).active, { from: false, to: true });
    });

    it('when the form is posted to the preview, then the real template\'s mail for those values and the schema\'s errors, nothing stored', async () => {
      const res = await request(app()).post('/admin/plugins/otp-login/preview').set('Cookie', admin.cookie).set('X-CSRF-Token', admin.csrf).set('Accept', 'application/json')
        .type('form').send(formBody({ codeLength: '7', codeExpiryMinutes: '20', loginUrl: 'https://example.test/in', loginButtonText: 'Go', logoWidth: '9999' }));
      assert.equal(res.status, 200);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assert.match(res.body.html, />1234567</);
      assert.match(res.body.html, /expires in 20 minutes/);
      assert.match(res.body.html, /<a href="https:\/\/example.test\/in"[^>]*>Go<\/a>/);
      assert.deepEqual(res.body.errors, { logoWidth: 'must be at most 600' });
      assert.equal(await ctx().models.Plugin.count(), 0);
    });

    it('when hostile settings reach the preview or the saved page, then no markup escapes: nothing runs outside the sandbox', async () => {
      const hostile = '"></iframe><script>alert(1)</script><img src=x onerror=alert(2)>';
      const preview = await request(app()).post('/admin/plugins/otp-login/preview').set('Cookie', admin.cookie).set('X-CSRF-Token', admin.csrf).set('Accept', 'application/json')
        .type('form').send(formBody({ loginUrl: 'https://example.test/', loginButtonText: hostile, logoUrl: 'javascript:alert(3)', logoBorderWidth: '3', logoBorderColor: 'red;background:url(javascript:alert(4))' }));
      assert.equal(preview.status, 200);
      for (const fragment of ['<script', '<img src=x', 'javascript:', '</iframe>']) assert.ok(!preview.body.html.includes(fragment), fragment);
      assert.ok(preview.body.html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'shown as text');
      assert.deepEqual(Object.keys(preview.body.errors).sort(), ['logoBorderColor', 'logoUrl']);

      // A stored hostile value (valid: any text is a button label) on the page itself.
      await post('/admin/plugins/otp-login', { loginUrl: 'https://example.test/', loginButtonText: hostile.slice(0, 100) });
      const page = await get('/admin/plugins/otp-login');
      assert.ok(!page.text.includes('<script>alert(1)'), 'no script tag anywhere in the admin page');
      assert.ok(!page.text.includes('<img src=x'), 'no injected element anywhere in the admin page');
      const srcdoc = /<iframe id="otp-preview"[^>]* sandbox srcdoc="([^"]*)"><\/iframe>/.exec(page.text)?.[1];
      assert.ok(srcdoc, 'the whole mail sits in one attribute of the sandboxed frame');
      assert.ok(srcdoc.includes('&amp;lt;script&amp;gt;'), 'inside the frame, still text');
    });

    it('when the preview is posted without the CSRF token, then 403', async () => {
      const res = await request(app()).post('/admin/plugins/otp-login/preview').set('Cookie', admin.cookie).set('Accept', 'application/json').type('form').send('codeLength=6');
      assert.equal(res.status, 403);
    });
  });

  describe('email page', () => {
    let sink: SmtpSink;
    before(async () => {
      sink = await startSmtpSink();
    });
    after(() => sink.stop());

    it('when secrets are saved, then they never come back to the browser, and a blank secret field or a masked URL keeps them', async () => {
      const first = await post('/admin/plugins/email', { active: ['off', 'on'], smtpUrl: 'smtp://mailer:pa55-word@127.0.0.1:2525', apiKey: 'key-abc-123', apiUrl: 'https://mail.example.test/send', fromEmail: 'auth@example.test', fromName: 'Auth' });
      assert.equal(first.status, 303);
      const page = await get('/admin/plugins/email');
      for (const secret of ['pa55-word', 'key-abc-123']) assert.ok(!page.text.includes(secret), `the page never holds ${secret}`);
      assert.match(inputTag(page.text, 'smtpUrl'), /value="smtp:\/\/mailer:\*\*\*\*\*\*\*\*@127.0.0.1:2525"/);
      assert.match(inputTag(page.text, 'apiKey'), /type="password"/);
      assert.match(inputTag(page.text, 'apiKey'), /value=""/);
      assert.match(page.text, /A value is stored \(not shown\)\. Leave blank to keep it/);

      // The form sent back as drawn: the masked URL, a blank key, a new sender name.
      const again = await post('/admin/plugins/email', { active: ['off', 'on'], smtpUrl: 'smtp://relay:********@127.0.0.1:2525', apiKey: '', apiUrl: 'https://mail.example.test/send', fromEmail: 'auth@example.test', fromName: 'Auth 2' });
      assert.equal(again.status, 303);
      const stored = await storedSettings('email');
      assert.equal(stored?.smtpUrl, 'smtp://relay:pa55-word@127.0.0.1:2525', 'the password is kept for the same server');
      assert.equal(stored?.apiKey, 'key-abc-123');
      assert.equal(stored?.fromName, 'Auth 2');
    });

    it('when a post is refused after new secrets were typed, then they are not drawn back (the password in a URL masked) and their fields ask for them again', async () => {
      const res = await post('/admin/plugins/email', { active: 'off', smtpUrl: 'smtp://mailer:new-pass-9@127.0.0.1:25', apiKey: 'brand-new-key', apiUrl: 'ftp://nope', fromEmail: 'not-an-email', fromName: '' });
      assert.equal(res.status, 400);
      assert.ok(!res.text.includes('brand-new-key'));
      assert.ok(!res.text.includes('new-pass-9'));
      assert.match(inputTag(res.text, 'smtpUrl'), /value="smtp:\/\/mailer:\*\*\*\*\*\*\*\*@127.0.0.1:25"/);
      assert.match(fieldError(res.text, 'smtpUrl') ?? '', /type it again/);
      assert.equal(fieldError(res.text, 'apiUrl'), 'must be an http(s) URL');
      assert.equal(fieldError(res.text, 'fromEmail'), 'must be an email address');
      assert.match(fieldError(res.text, 'apiKey') ?? '', /type it again/);
      assert.match(inputTag(res.text, 'fromEmail'), /value="not-an-email"/);
      assert.equal(await storedSettings('email'), undefined);
    });

    it('when the masked URL of a refused post is sent again with no password stored, then it is refused at the field, never saved without the password', async () => {
      const refused = await post('/admin/plugins/email', { active: 'off', smtpUrl: 'smtp://mailer:typed-pass-1@127.0.0.1:2525', fromEmail: 'not-an-email' });
      const drawn = /value="([^"]*)"/.exec(inputTag(refused.text, 'smtpUrl'))?.[1] ?? '';
      assert.equal(drawn, 'smtp://mailer:********@127.0.0.1:2525');

      const again = await post('/admin/plugins/email', { active: 'off', smtpUrl: drawn, fromEmail: 'auth@example.test' });

      assert.equal(again.status, 400);
      assert.equal(fieldError(again.text, 'smtpUrl'), 'no secret is stored here to keep: type it');
      assert.equal(await storedSettings('email'), undefined);
      const retyped = await post('/admin/plugins/email', { active: 'off', smtpUrl: 'smtp://mailer:typed-pass-1@127.0.0.1:2525', fromEmail: 'auth@example.test' });
      assert.equal(retyped.status, 303);
      assert.equal((await storedSettings('email'))?.smtpUrl, 'smtp://mailer:typed-pass-1@127.0.0.1:2525');
    });

    it('when SMTP_URL is set in the environment, then the page says it wins', async () => {
      const res = await get('/admin/plugins/email', admin, buildApp({ env: { SMTP_URL: sink.url } }));
      assert.match(res.text, /The environment variable <code>SMTP_URL<\/code> is set: mail goes there/);
    });

    it('when "Send test email" is pressed, then the mail reaches the signed-in admin through the saved settings', async () => {
      const target = app();
      await post('/admin/plugins/email', { active: ['off', 'on'], smtpUrl: sink.url, fromName: 'Auth Test' }, admin, target);
      const res = await post('/admin/plugins/email/test', {}, admin, target);
      assert.equal(res.status, 303);
      assert.equal(location(res), '/admin/plugins/email?notice=test_email_sent');
      const mail = await sink.waitFor((message) => message.envelope.to.includes(admin.user.email));
      assert.equal(mail.subject, 'Test email from the auth service');
      assert.match(mail.from, /Auth Test/);
      assert.match(mail.text, /Mail delivery works\./);
    });

    it('when delivery fails, then the page says so from the catalogue, without the error text or the SMTP password', async () => {
      const target = app();
      await post('/admin/plugins/email', { active: ['off', 'on'], smtpUrl: `smtp://mailer:very-secret-pw@127.0.0.1:${await closedPort()}` }, admin, target);
      const res = await post('/admin/plugins/email/test', {}, admin, target);
      assert.equal(res.status, 303);
      const page = await get(location(res), admin, target);
      const alert = /<p class="error" role="alert">([^<]*)<\/p>/.exec(page.text)?.[1] ?? '';
      assert.equal(location(res), '/admin/plugins/email?notice=test_email_failed');
      assert.match(alert, /^Test email failed: the mail service did not accept it/);
      assert.ok(!page.text.includes('ECONNREFUSED') && !page.text.includes('very-secret-pw'));

      await ctx().models.Plugin.destroy({ where: {} });
      const unconfigured = await post('/admin/plugins/email/test', {}, admin, target);
      assert.equal(location(unconfigured), '/admin/plugins/email?notice=test_email_not_configured');
    });
  });

  describe('OAuth providers page', () => {
    it('when opened, then for GitHub and Google: client ID, masked secret, enabled, the callback URL at BASE_URL, and the URL overrides', async () => {
      const res = await get('/admin/plugins/oauth-providers');
      for (const [provider, label] of [['github', 'GitHub'], ['google', 'Google']]) {
        assert.match(res.text, new RegExp(`<label for="field-providers.${provider}.clientId">${label} client ID</label>`));
        assert.match(inputTag(res.text, `providers.${provider}.clientSecret`), /type="password"/);
        assert.match(res.text, new RegExp(`name="providers.${provider}.enabled" value="on"`));
        assert.match(res.text, new RegExp(`value="http://localhost:3000/auth/oauth/${provider}/callback" readonly`));
        for (const key of ['authorizationURL', 'tokenURL', 'userProfileURL', 'userEmailsURL']) assert.match(inputTag(res.text, `providers.${provider}.${key}`), /type="url"/);
      }
    });

    it('when nothing is stored yet and the form comes as a browser sends it (every field, blanks included), then it is saved', async () => {
      const blank = (provider: string) =>
        Object.fromEntries(['clientId', 'clientSecret', 'authorizationURL', 'tokenURL', 'userProfileURL', 'userEmailsURL'].map((key) => [`providers.${provider}.${key}`, '']));
      const res = await post('/admin/plugins/oauth-providers', {
        active: ['off', 'on'],
        ...blank('github'),
        ...blank('google'),
        'providers.github.enabled': ['off', 'on'],
        'providers.google.enabled': 'off',
        'providers.github.clientId': 'gh-fresh',
        'providers.github.clientSecret': 'gh-fresh-secret',
      });

      assert.equal(res.status, 303, res.text.slice(0, 300));
      const stored = (await storedSettings('oauth-providers')) as { providers: Record<string, Record<string, unknown>> };
      assert.deepEqual(stored.providers.github, { clientId: 'gh-fresh', clientSecret: 'gh-fresh-secret', enabled: true });
      assert.deepEqual(stored.providers.google, { enabled: false });
    });

    it('when a provider is enabled without its client ID, then the error is next to that field; once complete, the secret is kept masked', async () => {
      const refused = await post('/admin/plugins/oauth-providers', { active: ['off', 'on'], 'providers.github.enabled': ['off', 'on'], 'providers.github.clientSecret': 'gh-secret-1' });
      assert.equal(refused.status, 400);
      assert.equal(fieldError(refused.text, 'providers.github.clientId'), 'is required when the provider is enabled');

      const saved = await post('/admin/plugins/oauth-providers', { active: ['off', 'on'], 'providers.github.enabled': ['off', 'on'], 'providers.github.clientId': 'gh-client', 'providers.github.clientSecret': 'gh-secret-1',
        'providers.github.authorizationURL': 'http://127.0.0.1:9/authorize' });
      assert.equal(saved.status, 303);
      const page = await get('/admin/plugins/oauth-providers');
      assert.ok(!page.text.includes('gh-secret-1'));
      assert.match(inputTag(page.text, 'providers.github.clientId'), /value="gh-client"/);
      assert.match(page.text, /name="providers.github.enabled" value="on" checked/);

      await post('/admin/plugins/oauth-providers', { active: ['off', 'on'], 'providers.github.enabled': ['off', 'on'], 'providers.github.clientId': 'gh-client-2', 'providers.github.clientSecret': '' });
      const stored = (await storedSettings('oauth-providers')) as { providers: { github: Record<string, unknown> } };
      assert.deepEqual([stored.providers.github.clientId, stored.providers.github.clientSecret], ['gh-client-2', 'gh-secret-1']);
      assert.equal(stored.providers.github.authorizationURL, 'http://127.0.0.1:9/authorize', 'a field the post does not carry stays as stored');

      const login = await request(app()).get('/auth/login').set('Accept', 'text/html');
      assert.match(login.text, /href="\/auth\/oauth\/github"[^>]*>Sign in with GitHub</, 'the sign-in page offers it at once');
      assert.doesNotMatch(login.text, /Sign in with Google/);
    });
  });
});
