import assert from 'node:assert/strict';
import request from 'supertest';
import { ctx } from '../support/context';
import { signedIn } from '../support/admin-pages';
import { configureProviders } from '../support/oauth-provider';

/** The policy's directives by name: `{ 'script-src': ["'self'"], … }`. */
function directives(header: string | undefined): Record<string, string[]> {
  assert.ok(header, 'a Content-Security-Policy header');
  return Object.fromEntries(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name, values]),
  );
}

const PROVIDER = { enabled: true, clientId: 'id', clientSecret: 'secret' };

describe('security headers: the Content-Security-Policy (issue 26, finding 8)', () => {
  afterEach(async () => {
    await ctx().models.Plugin.destroy({ where: {} });
  });

  it('when any response is sent (a page, JSON, an error, a file), then the strict policy is on it, beside X-Frame-Options', async () => {
    const admin = await signedIn('admin');
    const answers = [
      await request(ctx().app).get('/auth/login').set('Accept', 'text/html'),
      await request(ctx().app).get('/admin/users').set('Cookie', admin.cookie),
      await request(ctx().app).get('/health'),
      await request(ctx().app).get('/api/nothing-here'),
      await request(ctx().app).get('/static/site.css'),
      await request(ctx().app).get('/api/docs'),
    ];
    for (const res of answers) {
      const policy = directives(res.headers['content-security-policy']);
      assert.deepEqual(policy['default-src'], ["'none'"]);
      assert.deepEqual(policy['script-src'], ["'self'"], 'scripts only from our own files: no inline script, no eval');
      assert.deepEqual(policy['style-src'], ["'self'"]);
      assert.deepEqual(policy['style-src-attr'], ["'none'"]);
      assert.deepEqual(policy['img-src'], ["'self'", 'data:']);
      assert.deepEqual(policy['form-action'], ["'self'"]);
      assert.deepEqual(policy['frame-ancestors'], ["'none'"]);
      assert.deepEqual(policy['base-uri'], ["'none'"]);
      assert.deepEqual(policy['object-src'], ["'none'"]);
      assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN', 'SPEC 5 keeps it for browsers without frame-ancestors');
    }
  });

  it('when the OTP plugin page is drawn, then only it lets the mail preview have style= attributes and https images, and still no inline script', async () => {
    const admin = await signedIn('admin');
    for (const path of ['/admin/plugins/otp-login', '/admin/plugins/otp-login/', '/Admin/Plugins/OTP-Login?tab=mail']) {
      const policy = directives((await request(ctx().app).get(path).set('Cookie', admin.cookie)).headers['content-security-policy']);
      assert.deepEqual(policy['style-src-attr'], ["'unsafe-inline'"], path);
      assert.deepEqual(policy['img-src'], ["'self'", 'data:', 'https:'], path);
      assert.deepEqual(policy['script-src'], ["'self'"], path);
    }
    const other = directives((await request(ctx().app).get('/admin/plugins/email').set('Cookie', admin.cookie)).headers['content-security-policy']);
    assert.deepEqual(other['style-src-attr'], ["'none'"]);
  });

  it('when providers are enabled, then the account center pages (Security, whose Link forms are redirected to them, and the card posts that redraw it) may post to their sign-in origins, and no other page may', async () => {
    await configureProviders({ github: PROVIDER, google: { ...PROVIDER, authorizationURL: 'http://127.0.0.1:9/google/authorize' } });
    const user = await signedIn('author');
    for (const path of ['/admin/profile', '/admin/profile/security', '/admin/profile/password']) {
      const res = await request(ctx().app).get(path).set('Cookie', user.cookie);
      assert.deepEqual(directives(res.headers['content-security-policy'])['form-action'], ["'self'", 'https://github.com', 'http://127.0.0.1:9'], path);
    }
    for (const path of ['/admin/content', '/auth/login', '/admin/profiles']) {
      const res = await request(ctx().app).get(path).set('Cookie', user.cookie).set('Accept', 'text/html');
      assert.deepEqual(directives(res.headers['content-security-policy'])['form-action'], ["'self'"], path);
    }

    await configureProviders({ github: { ...PROVIDER, enabled: false } });
    const off = await request(ctx().app).get('/admin/profile/security').set('Cookie', user.cookie);
    assert.deepEqual(directives(off.headers['content-security-policy'])['form-action'], ["'self'"], 'a disabled provider is no form target');
  });
});
