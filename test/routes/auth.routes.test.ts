import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { ctx, uniqueEmail } from '../support/context';
import { PASSWORD, appWith, makeUser, nextClientIp, payloadOf, proxiedApp, setCookies } from '../support/auth';

const INVALID = { error: 'Invalid email or password' };

describe('password sign-in', () => {
  describe('POST /auth/login (JSON)', () => {
    it('when the credentials are right, then 200 with the Login response, both cookies and no-store', async () => {
      const user = await makeUser({ role: 'editor' });
      const res = await request(ctx().app).post('/auth/login').send({ email: user.email, password: PASSWORD });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.user, {
        id: user.id,
        email: user.email,
        username: user.username,
        firstName: 'Test',
        lastName: 'User',
        role: 'editor',
      });
      const claims = payloadOf(res.body.token);
      assert.equal(claims.sub, user.id);
      assert.equal(claims.userId, user.id);
      assert.equal(claims.email, user.email);
      assert.equal(claims.role, 'editor');
      assert.equal(typeof claims.jti, 'string');
      assert.equal(res.headers['cache-control'], 'no-store');

      const cookies = setCookies(res);
      assert.equal(cookies.auth_token.value, res.body.token);
      assert.equal(cookies.auth_token.attributes.httponly, true);
      assert.equal(cookies.auth_token.attributes.samesite, 'Strict');
      assert.equal(cookies.auth_token.attributes.path, '/');
      assert.equal(cookies.auth_token.attributes['max-age'], String(30 * 86400));
      assert.equal(cookies.auth_token.attributes.secure, undefined);
      assert.equal(cookies.csrf_token.attributes.httponly, undefined);
      assert.equal(cookies.csrf_token.attributes.samesite, 'Strict');
      assert.equal(cookies.csrf_token.attributes['max-age'], String(30 * 86400));
      assert.match(cookies.csrf_token.value, /^[\w-]+\.[\w-]+$/);

      const me = await request(ctx().app).get('/auth/me').set('Authorization', `Bearer ${res.body.token}`);
      assert.equal(me.status, 200);
      assert.equal(me.body.user.id, user.id);
    });

    it('when the email has other case and spaces, then it is the same account', async () => {
      const user = await makeUser();
      const res = await request(ctx().app).post('/auth/login').send({ email: `  ${user.email.toUpperCase()} `, password: PASSWORD });
      assert.equal(res.status, 200);
      assert.equal(res.body.user.id, user.id);
    });

    it('when the email is unknown, the password wrong or the user deactivated, then the same 401 answer', async () => {
      const user = await makeUser();
      const inactive = await makeUser({ active: false });
      const app = proxiedApp();
      const attempts = [
        { email: uniqueEmail('nobody'), password: PASSWORD },
        { email: user.email, password: 'wrong password' },
        { email: inactive.email, password: PASSWORD },
      ];
      const answers: request.Response[] = [];
      for (const body of attempts) {
        const res = await request(app).post('/auth/login').set('X-Forwarded-For', nextClientIp()).send(body);
        answers.push(res);
      }
      for (const res of answers) {
        assert.equal(res.status, 401);
        assert.deepEqual(res.body, INVALID);
        assert.equal(res.headers['set-cookie'], undefined);
      }
      const headerNames = (res: (typeof answers)[number]) =>
        Object.keys(res.headers)
          .filter((name) => name !== 'date' && name !== 'etag')
          .sort()
          .map((name) => `${name}: ${/^x-ratelimit-reset$|^content-length$|^x-request-id$/.test(name) ? '' : res.headers[name]}`);
      assert.deepEqual(headerNames(answers[0]), headerNames(answers[1]));
      assert.deepEqual(headerNames(answers[0]), headerNames(answers[2]));
    });

    it('when the body is incomplete or has unknown fields, then 400 validation', async () => {
      const missing = await request(ctx().app).post('/auth/login').send({ email: 'a@example.test' });
      assert.equal(missing.status, 400);
      assert.equal(missing.body.error, 'Validation failed');
      assert.ok(missing.body.errors.password);
      const extra = await request(ctx().app).post('/auth/login').send({ email: 'a@example.test', password: 'x', role: 'admin' });
      assert.equal(extra.status, 400);
      assert.equal(extra.body.errors.role, 'unknown field');
    });

    it('when the user has no password (passwordless account), then the same 401', async () => {
      const user = await makeUser({ password: null });
      const res = await request(ctx().app).post('/auth/login').send({ email: user.email, password: PASSWORD });
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, INVALID);
    });

    it('when running in production, then both cookies are Secure', async () => {
      const user = await makeUser();
      const app = appWith({ env: { NODE_ENV: 'production', JWT_SECRET: ctx().config.jwtSecret } });
      const res = await request(app).post('/auth/login').send({ email: user.email, password: PASSWORD });
      assert.equal(res.status, 200);
      const cookies = setCookies(res);
      assert.equal(cookies.auth_token.attributes.secure, true);
      assert.equal(cookies.csrf_token.attributes.secure, true);
    });

    it('when JWT_EXPIRES_IN is set, then the cookie Max-Age and the token lifetime follow it', async () => {
      const user = await makeUser();
      const app = appWith({ env: { JWT_EXPIRES_IN: '12h' } });
      const res = await request(app).post('/auth/login').send({ email: user.email, password: PASSWORD });
      const claims = payloadOf(res.body.token);
      assert.equal((claims.exp as number) - (claims.iat as number), 12 * 3600);
      assert.equal(setCookies(res).auth_token.attributes['max-age'], String(12 * 3600));
    });
  });

  describe('activity log', () => {
    it('when a sign-in succeeds or fails, then auth.login / auth.login_failed rows are written without the password', async () => {
      const user = await makeUser();
      const secretTry = `wrong-${crypto.randomBytes(6).toString('hex')}`;
      await request(ctx().app).post('/auth/login').set('User-Agent', 'login-test').send({ email: user.email, password: secretTry });
      const ok = await request(ctx().app).post('/auth/login').send({ email: user.email, password: PASSWORD });
      assert.equal(ok.status, 200);
      const rows = await ctx().models.ActivityLog.findAll({ where: { email: user.email }, order: [['id', 'ASC']] });
      assert.deepEqual(
        rows.map((row) => row.action),
        ['auth.login_failed', 'auth.login'],
      );
      assert.equal(rows[0].userAgent, 'login-test');
      assert.equal(rows[1].userId, user.id);
      assert.ok(rows[1].ip);
      const everything = JSON.stringify(rows.map((row) => row.toJSON()));
      assert.ok(!everything.includes(secretTry));
      assert.ok(!everything.includes(PASSWORD));
      assert.ok(!everything.includes(ok.body.token));
    });

    it('when an unknown email is tried, then the attempted email is recorded', async () => {
      const email = uniqueEmail('ghost');
      await request(ctx().app).post('/auth/login').send({ email, password: PASSWORD });
      const row = await ctx().models.ActivityLog.findOne({ where: { email, action: 'auth.login_failed' } });
      assert.ok(row);
      assert.equal(row.userId, null);
    });
  });

  describe('hash upgrades', () => {
    it('when a legacy SHA-256 user signs in many times in parallel, then the hash is upgraded to PBKDF2 exactly once', async () => {
      const legacy = crypto.createHash('sha256').update(PASSWORD).digest('hex');
      const user = await makeUser({ passwordHash: legacy });
      const app = proxiedApp();
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          request(app).post('/auth/login').set('X-Forwarded-For', nextClientIp()).send({ email: user.email, password: PASSWORD }),
        ),
      );
      assert.deepEqual(results.map((res) => res.status), Array(10).fill(200));
      await user.reload();
      assert.match(user.passwordHash as string, /^pbkdf2:10000:[0-9a-f]{32}:[0-9a-f]{64}$/);
      const logins = await ctx().models.ActivityLog.findAll({ where: { userId: user.id, action: 'auth.login' } });
      assert.equal(logins.length, 10);
      assert.equal(logins.filter((row) => row.details?.passwordRehashed === true).length, 1);

      const again = await request(ctx().app).post('/auth/login').send({ email: user.email, password: PASSWORD });
      assert.equal(again.status, 200);
      const wrong = await request(ctx().app).post('/auth/login').send({ email: user.email, password: 'not it at all' });
      assert.equal(wrong.status, 401);
    });

    it('when the stored hash has fewer iterations than configured, then the next sign-in re-hashes at the configured count', async () => {
      const user = await makeUser(); // 10,000 iterations
      const stronger = appWith({ env: { PASSWORD_PBKDF2_ITERATIONS: '20000' } });
      const res = await request(stronger).post('/auth/login').send({ email: user.email, password: PASSWORD });
      assert.equal(res.status, 200);
      await user.reload();
      assert.match(user.passwordHash as string, /^pbkdf2:20000:/);
    });

    it('when a legacy user gives a wrong password, then nothing is upgraded', async () => {
      const legacy = `sha256:${crypto.createHash('sha256').update(PASSWORD).digest('hex')}`;
      const user = await makeUser({ passwordHash: legacy });
      const res = await request(ctx().app).post('/auth/login').send({ email: user.email, password: 'nope nope' });
      assert.equal(res.status, 401);
      await user.reload();
      assert.equal(user.passwordHash, legacy);
    });
  });

  describe('HTML form', () => {
    it('when GET /auth/login, then the sign-in page with the form and the notice', async () => {
      const res = await request(ctx().app).get('/auth/login?notice=sign_in_required&redirect=%2Fadmin%2Fusers').set('Accept', 'text/html');
      assert.equal(res.status, 200);
      assert.match(res.headers['content-type'], /text\/html/);
      assert.match(res.text, /<form method="post" action="\/auth\/login"/);
      assert.match(res.text, /name="email"/);
      assert.match(res.text, /name="password"/);
      assert.match(res.text, /Authentication required/);
      assert.match(res.text, /name="redirect" value="\/admin\/users"/);
    });

    it('when the form is posted with the right credentials, then 302 to /admin with the cookies', async () => {
      const user = await makeUser();
      const res = await request(ctx().app)
        .post('/auth/login')
        .type('form')
        .set('Accept', 'text/html')
        .send({ email: user.email, password: PASSWORD });
      assert.equal(res.status, 302);
      assert.equal(res.headers.location, '/admin');
      const cookies = setCookies(res);
      assert.ok(cookies.auth_token.value);
      assert.ok(cookies.csrf_token.value);
      assert.equal(res.headers['cache-control'], 'no-store');
    });

    it('when the form carries a same-origin redirect, then it is followed; foreign ones are ignored', async () => {
      const user = await makeUser();
      const app = proxiedApp();
      const cases: Array<[string, string]> = [
        ['/admin/content?page=2', '/admin/content?page=2'],
        ['//evil.example/steal', '/admin'],
        ['https://evil.example/', '/admin'],
        ['/\\evil.example', '/admin'],
        ['/.//evil.example/steal', '/admin'],
        ['/%2e//evil.example/steal', '/admin'],
        ['javascript:alert(1)', '/admin'],
      ];
      for (const [redirect, expected] of cases) {
        const res = await request(app)
          .post('/auth/login')
          .set('X-Forwarded-For', nextClientIp())
          .type('form')
          .send({ email: user.email, password: PASSWORD, redirect });
        assert.equal(res.status, 302, redirect);
        assert.equal(res.headers.location, expected, redirect);
      }
    });

    it('when the form is posted with wrong credentials, then the page again with the error and the email, never the password', async () => {
      const user = await makeUser();
      const res = await request(ctx().app)
        .post('/auth/login')
        .type('form')
        .set('Accept', 'text/html')
        .send({ email: user.email, password: 'the-wrong-one' });
      assert.equal(res.status, 401);
      assert.match(res.headers['content-type'], /text\/html/);
      assert.match(res.text, /Invalid email or password/);
      assert.ok(res.text.includes(user.email));
      assert.ok(!res.text.includes('the-wrong-one'));
      assert.equal(res.headers['set-cookie'], undefined);
    });

    it('when the form is posted without a password, then the page again with the field error', async () => {
      const res = await request(ctx().app).post('/auth/login').type('form').send({ email: 'someone@example.test', password: '' });
      assert.equal(res.status, 400);
      assert.match(res.text, /is required/);
    });
  });
});
