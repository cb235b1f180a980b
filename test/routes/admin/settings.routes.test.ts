import assert from 'node:assert/strict';
import request from 'supertest';
import { Op } from 'sequelize';
import { buildApp, ctx, uniqueEmail } from '../../support/context';
import { formBody, location, signedIn, type PageSession } from '../../support/admin-pages';
import { makeUser, payloadOf, PASSWORD } from '../../support/auth';

const PAGE = '/admin/settings/security';

async function clearSecuritySettings(): Promise<void> {
  await ctx().models.Setting.destroy({ where: { key: { [Op.like]: 'security.%' } } });
}

async function storedSecuritySettings(): Promise<Record<string, unknown>> {
  const rows = await ctx().models.Setting.findAll({ where: { key: { [Op.like]: 'security.%' } } });
  return Object.fromEntries(rows.map((row) => [row.key, row.value]));
}

/** The text of the field-error paragraph under a field, or undefined. */
function fieldError(html: string, name: string): string | undefined {
  return new RegExp(`id="field-${name}-error" role="alert">([^<]*)</p>`).exec(html)?.[1];
}

describe('admin page: security settings (Session / JWT)', () => {
  let admin: PageSession;
  const post = (session: PageSession, fields: Record<string, string | string[]>, app = ctx().app) =>
    request(app).post(PAGE).set('Cookie', session.cookie).set('Accept', 'text/html').type('form').send(formBody({ _csrf: session.csrf, ...fields }));

  before(async () => {
    admin = await signedIn('admin');
  });
  beforeEach(clearSecuritySettings);
  // Registration and token lifetimes of every later suite depend on these rows.
  after(clearSecuritySettings);

  it('when not signed in, then 302 to sign-in with the page to come back to', async () => {
    const res = await request(ctx().app).get(PAGE).set('Accept', 'text/html');
    assert.equal(res.status, 302);
    assert.equal(location(res), `/auth/login?redirect=${encodeURIComponent(PAGE)}`);
  });

  for (const role of ['editor', 'author', 'viewer'] as const) {
    it(`when ${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role} opens or posts it, then 302 to sign-in with the reason, and nothing is stored`, async () => {
      const session = await signedIn(role);
      const page = await request(ctx().app).get(PAGE).set('Cookie', session.cookie);
      const saved = await post(session, { jwtExpiresIn: '1h', jwtRefreshGraceSeconds: '0', allowRegistration: 'off' });
      for (const res of [page, saved]) {
        assert.equal(res.status, 302);
        assert.equal(location(res), '/auth/login?notice=forbidden');
      }
      assert.deepEqual(await storedSecuritySettings(), {});
    });
  }

  it('when an admin opens it, then the "Session / JWT" card shows each value with its source, no-store', async () => {
    const res = await request(ctx().app).get(PAGE).set('Cookie', admin.cookie);
    assert.equal(res.status, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.match(res.text, /<h2 id="session-jwt">Session \/ JWT<\/h2>/);
    assert.match(res.text, /<label for="field-jwtExpiresIn">Token lifetime<\/label>/);
    assert.match(res.text, /name="jwtExpiresIn"\s+value="30d"/);
    assert.match(res.text, /<label for="field-jwtRefreshGraceSeconds">Refresh grace \(seconds\)<\/label>/);
    assert.match(res.text, /name="jwtRefreshGraceSeconds"\s+value="604800"/);
    assert.match(res.text, /id="field-allowRegistration" name="allowRegistration" value="on" checked/);
    assert.match(res.text, /<label for="field-sessionMaxAgeSeconds">Session lifetime \(seconds\)<\/label>/);
    assert.match(res.text, /name="sessionMaxAgeSeconds"\s+value="7776000"/);
    // The four Session / JWT values, plus the Email verification and Two-factor cards' one each.
    assert.equal(res.text.match(/Source: default\. /g)?.length, 6);
  });

  it('when a value is set by an environment variable, then it is read-only with the variable named, and a post cannot store it', async () => {
    const app = buildApp({ env: { JWT_EXPIRES_IN: '1h' } });
    const res = await request(app).get(PAGE).set('Cookie', admin.cookie);
    assert.match(res.text, /<input type="text" id="field-jwtExpiresIn" value="1h" readonly/);
    assert.doesNotMatch(res.text, /name="jwtExpiresIn"/);
    assert.match(res.text, /Source: environment variable <code>JWT_EXPIRES_IN<\/code>\. Read-only here/);
    assert.match(res.text, /name="jwtRefreshGraceSeconds"/, 'the other values stay editable');

    const saved = await post(admin, { jwtExpiresIn: '5m', jwtRefreshGraceSeconds: '60', allowRegistration: ['off', 'on'] }, app);
    assert.equal(saved.status, 303);
    assert.deepEqual(await storedSecuritySettings(), { 'security.jwtRefreshGraceSeconds': 60 });
  });

  it('when values are out of range, then 400 with the errors next to their fields, the typed values kept, and nothing stored', async () => {
    const res = await post(admin, { jwtExpiresIn: 'forever', jwtRefreshGraceSeconds: '-5', allowRegistration: 'off' });
    assert.equal(res.status, 400);
    assert.match(res.text, /Not saved: correct the marked fields\./);
    assert.match(fieldError(res.text, 'jwtExpiresIn') ?? '', /^must be a duration such as 30d, 12h, 3600s or a number of seconds, from 60s to 365d$/);
    assert.equal(fieldError(res.text, 'jwtRefreshGraceSeconds'), 'must be at least 0');
    assert.match(res.text, /name="jwtExpiresIn"\s+value="forever"/);
    assert.match(res.text, /name="jwtRefreshGraceSeconds"\s+value="-5"/);
    assert.doesNotMatch(res.text, /name="allowRegistration" value="on" checked/, 'the unchecked box stays unchecked');
    assert.deepEqual(await storedSecuritySettings(), {});

    const blank = await post(admin, { jwtExpiresIn: '30d', jwtRefreshGraceSeconds: '', allowRegistration: ['off', 'on'] });
    assert.equal(fieldError(blank.text, 'jwtRefreshGraceSeconds'), 'must be a whole number of seconds');
  });

  it('when the admin saves, then a confirmation, the sources become "admin setting", and new sign-ins and registrations follow at once', async () => {
    const user = await makeUser({ role: 'viewer' });
    const res = await post(admin, { jwtExpiresIn: '2h', jwtRefreshGraceSeconds: '604800', allowRegistration: 'off' });
    assert.equal(res.status, 303);
    const page = await request(ctx().app).get(location(res)).set('Cookie', admin.cookie);
    assert.match(page.text, /<p class="message" role="status">Security settings saved\./);
    assert.equal(page.text.match(/Source: admin setting\./g)?.length, 2, 'lifetime and registration; the unchanged grace stays a default');
    assert.deepEqual(await storedSecuritySettings(), { 'security.jwtExpiresIn': '2h', 'security.allowRegistration': false });

    const login = await request(ctx().app).post('/auth/login').send({ email: user.email, password: PASSWORD });
    const claims = payloadOf(login.body.token as string) as { iat: number; exp: number };
    assert.equal(claims.exp - claims.iat, 7200);
    const register = await request(ctx().app).post('/auth/register').send({ email: uniqueEmail('closed'), password: PASSWORD });
    assert.equal(register.status, 403);
    const log = await ctx().models.ActivityLog.findOne({ where: { action: 'settings.updated', userId: admin.user.id }, order: [['id', 'DESC']] });
    assert.deepEqual(Object.keys((log?.details as { changes: object }).changes).sort(), ['allowRegistration', 'jwtExpiresIn']);
  });

  it('when the admin sets the session lifetime, then it is stored and shown as an admin setting; under SESSION_MAX_AGE it is read-only', async () => {
    const res = await post(admin, { jwtExpiresIn: '30d', jwtRefreshGraceSeconds: '604800', allowRegistration: ['off', 'on'], sessionMaxAgeSeconds: '86400' });
    assert.equal(res.status, 303);
    assert.deepEqual(await storedSecuritySettings(), { 'security.sessionMaxAgeSeconds': 86_400 });
    const tooShort = await post(admin, { jwtExpiresIn: '30d', jwtRefreshGraceSeconds: '604800', allowRegistration: ['off', 'on'], sessionMaxAgeSeconds: '60' });
    assert.equal(fieldError(tooShort.text, 'sessionMaxAgeSeconds'), 'must be at least 3600');

    const env = await request(buildApp({ env: { SESSION_MAX_AGE: '30d' } })).get(PAGE).set('Cookie', admin.cookie);
    assert.match(env.text, /<input type="text" id="field-sessionMaxAgeSeconds" value="2592000" readonly/);
    assert.match(env.text, /Source: environment variable <code>SESSION_MAX_AGE<\/code>/);
  });

  it('when nothing changed, then "Nothing changed" and nothing is stored', async () => {
    const res = await post(admin, { jwtExpiresIn: '30d', jwtRefreshGraceSeconds: '604800', allowRegistration: ['off', 'on'] });
    assert.equal(res.status, 303);
    assert.equal(location(res), `${PAGE}?notice=settings_unchanged`);
    assert.deepEqual(await storedSecuritySettings(), {});
  });

  it('when the form comes without _csrf, then 403 and nothing is stored', async () => {
    const res = await request(ctx().app).post(PAGE).set('Cookie', admin.cookie).set('Accept', 'text/html').type('form')
      .send(formBody({ jwtExpiresIn: '1h', jwtRefreshGraceSeconds: '0', allowRegistration: 'off' }));
    assert.equal(res.status, 403);
    assert.match(res.text, /Invalid CSRF token/);
    assert.deepEqual(await storedSecuritySettings(), {});
  });
});
