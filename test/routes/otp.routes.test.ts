import assert from 'node:assert/strict';
import request from 'supertest';
import type { Express } from 'express';
import type { FindOptions } from 'sequelize';
import { ctx, buildApp, uniqueEmail } from '../support/context';
import { startSmtpSink, type SmtpSink, type SinkMessage } from '../support/smtp-sink';
import { createTestUser, createUserWithToken } from '../support/users';
import { proxiedApp, nextClientIp } from '../support/auth';

const REQUESTED = 'If an account exists for this email, you will receive a verification code shortly.';
const DISABLED = { error: 'OTP login is not enabled' };
const INVALID = 'Invalid or expired code';

function codeFrom(message: SinkMessage): string {
  const match = message.text.match(/Your login code: (\d+)/);
  assert.ok(match, 'the mail carries a code');
  return match[1];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('OTP sign-in (POST /auth/otp/request, POST /auth/otp/verify)', () => {
  let sink: SmtpSink;
  let app: Express;
  let admin: { Authorization: string };

  /** Switches the plugin and its settings through the admin API, as an admin would. */
  async function configure(settings: Record<string, unknown> = {}, active = true) {
    const res = await request(app).put('/api/plugins/otp-login').set(admin).send({ active, settings });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }

  const requestCode = (email: string, target = app) => request(target).post('/auth/otp/request').send({ email });
  const verify = (email: string, code: string, target = app) => request(target).post('/auth/otp/verify').send({ email, code });

  /** Requests a code and reads it from the mail the SMTP listener received. */
  async function mailedCode(email: string): Promise<string> {
    const before = sink.messages.length;
    const res = await requestCode(email);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return codeFrom(await sink.waitFor((m) => m.envelope.to.includes(email) && sink.messages.indexOf(m) >= before));
  }

  /** Waits until the listener has received `count` mails for the address. */
  async function mailsTo(email: string, count: number): Promise<void> {
    for (let waited = 0; sink.messages.filter((m) => m.envelope.to.includes(email)).length < count; waited += 20) {
      assert.ok(waited < 5000, `expected ${count} mails to ${email}`);
      await sleep(20);
    }
  }

  /** A code of the right length that is not `code`. */
  const wrong = (code: string) => code.replace(/^./, (digit) => String((Number(digit) + 1) % 10));

  async function failures(email: string): Promise<string[]> {
    const rows = await ctx().models.ActivityLog.findAll({ where: { action: 'auth.login_failed', email } });
    return rows.map((row) => String((row.details as { reason?: string } | null)?.reason));
  }

  before(async () => {
    sink = await startSmtpSink();
    app = buildApp({ env: { SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test' } });
    const { token } = await createUserWithToken('admin');
    admin = { Authorization: `Bearer ${token}` };
  });

  beforeEach(async () => {
    await ctx().models.Plugin.destroy({ where: {} });
    await configure({});
  });

  after(async () => {
    // Other suites expect every plugin inactive with its defaults.
    await ctx().models.Plugin.destroy({ where: {} });
    await sink.stop();
  });

  describe('the plugin switch', () => {
    it('when the otp-login plugin is inactive, then both routes and the page answer 404 "OTP login is not enabled"', async () => {
      await configure({}, false);
      const user = await createTestUser('viewer');

      const requested = await requestCode(user.email);
      const verified = await verify(user.email, '123456');
      const page = await request(app).get('/auth/otp').set('Accept', 'text/html');

      assert.equal(requested.status, 404);
      assert.deepEqual(requested.body, DISABLED);
      assert.equal(verified.status, 404);
      assert.deepEqual(verified.body, DISABLED);
      assert.equal(page.status, 404);
      assert.match(page.text, /OTP login is not enabled/);
    });

    it('when an admin activates the plugin, then another instance serves OTP at once, without a restart', async () => {
      await configure({}, false);
      const other = buildApp({ env: { SMTP_URL: sink.url } });
      const user = await createTestUser('viewer');
      assert.equal((await requestCode(user.email, other)).status, 404);

      await configure({}, true);

      const res = await requestCode(user.email, other);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { message: REQUESTED, expiresIn: 600 });
    });
  });

  describe('requesting a code', () => {
    it('when an active, a deactivated and an unknown email ask, then all get the same answer and only the active one gets mail', async () => {
      const active = await createTestUser('viewer');
      const inactive = await createTestUser('viewer', { active: false });
      const unknown = uniqueEmail('nobody');

      const answers = await Promise.all([active.email, inactive.email, unknown].map((email) => requestCode(email)));

      for (const res of answers) {
        assert.equal(res.status, 200);
        assert.deepEqual(res.body, { message: REQUESTED, expiresIn: 600 });
        assert.equal(res.headers['cache-control'], 'no-store');
      }
      await sink.waitFor((m) => m.envelope.to.includes(active.email));
      await sleep(300);
      assert.equal(sink.messages.filter((m) => m.envelope.to.includes(inactive.email) || m.envelope.to.includes(unknown)).length, 0);
    });

    it('when a code is mailed, then it has the configured length, and the mail is the branded CONTRACT 7 mail', async () => {
      await configure({ codeLength: 8, codeExpiryMinutes: 15, maxAttempts: 5, logoUrl: 'https://cdn.example.test/logo.png', logoWidth: 120, logoBorderWidth: 3, logoBorderColor: 'rgb(10, 20, 30)', loginUrl: 'https://app.example.test/login', loginButtonText: 'Go <now> & "sign"' });
      const user = await createTestUser('viewer');

      const before = sink.messages.length;
      assert.equal((await requestCode(user.email)).body.expiresIn, 900);
      const mail = await sink.waitFor((m) => m.envelope.to.includes(user.email) && sink.messages.indexOf(m) >= before);

      const code = codeFrom(mail);
      assert.match(code, /^\d{8}$/);
      assert.equal(mail.subject, 'Your login code');
      assert.equal(mail.envelope.from, 'auth@example.test');
      assert.match(mail.html, new RegExp(`font-family:[^"]*monospace[^"]*font-size:36px[^>]*>${code}<`));
      assert.match(mail.html, /15 minutes/);
      assert.match(mail.html, /tried 5 times/);
      assert.match(mail.text, /15 minutes/);
      assert.match(mail.html, /<img src="https:\/\/cdn\.example\.test\/logo\.png"[^>]*style="width:120px;[^"]*border:3px solid rgb\(10, 20, 30\);border-radius:6px"/);
      assert.match(mail.html, /<a href="https:\/\/app\.example\.test\/login"[^>]*>Go &lt;now&gt; &amp; &quot;sign&quot;<\/a>/);
      assert.match(mail.text, /https:\/\/app\.example\.test\/login/);
    });

    it('when the hourly limit is reached, then the next request is 429 with Retry-After and sends no mail, for any email', async () => {
      await configure({ rateLimitPerHour: 2 });
      const user = await createTestUser('viewer');
      const other = buildApp({ env: { SMTP_URL: sink.url } });

      const first = await requestCode(user.email);
      const second = await requestCode(user.email, other);
      await mailsTo(user.email, 2);
      const third = await requestCode(user.email);
      const unknown = uniqueEmail('limit');
      const unknownAnswers = [await requestCode(unknown), await requestCode(unknown), await requestCode(unknown)];

      assert.equal(first.status, 200);
      assert.equal(first.headers['x-ratelimit-limit'], '2');
      assert.equal(first.headers['x-ratelimit-remaining'], '1');
      assert.equal(second.status, 200, 'the second instance counts with the first');
      assert.equal(third.status, 429);
      assert.deepEqual(third.body, { error: 'Too many requests. Please try again later.' });
      assert.ok(Number(third.headers['retry-after']) > 3000);
      assert.equal(third.headers['x-ratelimit-remaining'], '0');
      assert.deepEqual(unknownAnswers.map((res) => res.status), [200, 200, 429], 'unknown emails are limited alike');
      await sleep(300);
      assert.equal(sink.messages.filter((m) => m.envelope.to.includes(user.email)).length, 2, 'no mail past the limit');
    });

    it('when one client asks for codes for many addresses, then past 10 a minute it is 429 and no mail goes out', async () => {
      await configure();
      const emails = Array.from({ length: 11 }, () => uniqueEmail('spray'));

      const answers = [];
      for (const email of emails) answers.push(await requestCode(email));

      assert.deepEqual(answers.slice(0, 10).map((res) => res.status), Array(10).fill(200));
      const limited = answers[10];
      assert.equal(limited.status, 429);
      assert.deepEqual(limited.body, { error: 'Too many requests. Please try again later.' });
      assert.ok(Number(limited.headers['retry-after']) >= 1);
      assert.equal(await ctx().models.OtpCode.count({ where: { userEmail: emails[10] } }), 0, 'no code stored for the refused request');
    });

    it('when a new code is requested, then the older one no longer works', async () => {
      const user = await createTestUser('viewer');
      const old = await mailedCode(user.email);
      const fresh = await mailedCode(user.email);

      const withOld = old === fresh ? null : await verify(user.email, old);
      const withFresh = await verify(user.email, fresh);

      if (withOld) assert.equal(withOld.status, 401);
      assert.equal(withFresh.status, 200);
    });

    it('when a code is mailed, then the stored value is a 64-hex digest, never the code itself', async () => {
      const user = await createTestUser('viewer');
      const code = await mailedCode(user.email);

      const rows = await ctx().models.OtpCode.findAll({ where: { userEmail: user.email } });
      assert.equal(rows.length, 1);
      assert.notEqual(rows[0].code, code);
      assert.ok(!rows[0].code.includes(code), 'the code is not in the stored value');
      assert.match(rows[0].code, /^[0-9a-f]{64}$/);
      assert.equal((await verify(user.email, code)).status, 200, 'the stored digest still checks the code');
    });

    it('when five codes are requested at once for one email (each from its own client), then exactly one code row is left', async () => {
      await configure({ rateLimitPerHour: 10 });
      const proxied = proxiedApp({ SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test' });
      const user = await createTestUser('viewer');

      const answers = await Promise.all(
        Array.from({ length: 5 }, () => request(proxied).post('/auth/otp/request').set('X-Forwarded-For', nextClientIp()).send({ email: user.email })),
      );

      assert.deepEqual(answers.map((res) => res.status), Array(5).fill(200));
      assert.equal(await ctx().models.OtpCode.count({ where: { userEmail: user.email } }), 1);
    });

    it('when no mail service is configured, then the request is 503 and stores nothing to guess', async () => {
      const noMail = buildApp({ env: { SMTP_URL: undefined } });
      const user = await createTestUser('viewer');

      const res = await requestCode(user.email, noMail);

      assert.equal(res.status, 503);
      assert.equal(await ctx().models.OtpCode.count({ where: { userEmail: user.email } }), 0);
    });

    it('when a code is requested (JSON or form) or verified, then the otp-login plugin row is read once for the whole request, mail included, and once for a verification', async () => {
      const user = await createTestUser('viewer');
      let reads = 0;
      const countRead = (options: FindOptions) => {
        if ((options.where as { name?: unknown } | undefined)?.name === 'otp-login') reads++;
      };
      ctx().models.Plugin.addHook('beforeFind', 'countOtpLoginReads', countRead);
      try {
        // mailedCode waits for the mail, which goes out after the answer.
        await mailedCode(user.email);
        assert.equal(reads, 1, 'JSON request');
        reads = 0;
        const form = await request(app).post('/auth/otp/request').type('form').send({ email: user.email });
        assert.equal(form.status, 200);
        assert.match(form.text, /name="code"/);
        await mailsTo(user.email, 2);
        assert.equal(reads, 1, 'form request');
        const code = await mailedCode(user.email);
        reads = 0;
        const verified = await request(app).post('/auth/otp/verify').send({ email: user.email, code });
        assert.equal(verified.status, 200, JSON.stringify(verified.body));
        assert.equal(reads, 1, 'verification: the guard and the strategy share one read');
      } finally {
        ctx().models.Plugin.removeHook('beforeFind', 'countOtpLoginReads');
      }
    });
  });

  describe('verifying a code', () => {
    it('when the right code is sent, then the answer is { user with custom fields, token } with both cookies, and the activity row has the IP and no code', async () => {
      const user = await createTestUser('editor', { firstName: 'Ada' });
      const code = await mailedCode(user.email);

      const res = await verify(user.email.toUpperCase(), code);

      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.user.id, user.id);
      assert.equal(res.body.user.role, 'editor');
      assert.equal(res.body.user.firstName, 'Ada');
      assert.equal(typeof res.body.token, 'string');
      const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
      assert.ok(cookies.some((c) => /^auth_token=.+HttpOnly/i.test(c) && /SameSite=Strict/i.test(c)));
      assert.ok(cookies.some((c) => /^csrf_token=/.test(c)));
      const me = await request(app).get('/auth/me').set('Authorization', `Bearer ${res.body.token}`);
      assert.equal(me.body.user.id, user.id);
      const row = await ctx().models.ActivityLog.findOne({ where: { action: 'auth.otp_verified', userId: user.id } });
      assert.ok(row);
      assert.ok(row.ip);
      assert.doesNotMatch(JSON.stringify(row.toJSON()), new RegExp(code));
    });

    it('when wrong codes are sent, then each counts, the answer says how many attempts remain, and after maxAttempts the right code is dead', async () => {
      const user = await createTestUser('viewer');
      const code = await mailedCode(user.email);

      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await verify(user.email, wrong(code)));
      const right = await verify(user.email, code);

      assert.deepEqual(answers.map((res) => [res.status, res.body]), [
        [401, { error: INVALID, attemptsRemaining: 2 }],
        [401, { error: INVALID, attemptsRemaining: 1 }],
        [401, { error: INVALID, attemptsRemaining: 0 }],
      ]);
      assert.equal(right.status, 401);
      assert.deepEqual(right.body, { error: INVALID, attemptsRemaining: 0 });
    });

    it('when 50 wrong guesses arrive at once, then at most maxAttempts are evaluated and the code is dead afterwards', async () => {
      await configure({ maxAttempts: 4 });
      const user = await createTestUser('viewer');
      const code = await mailedCode(user.email);

      const answers = await Promise.all(Array.from({ length: 50 }, () => verify(user.email, wrong(code))));
      const right = await verify(user.email, code);

      assert.ok(answers.every((res) => res.status === 401));
      const reasons = await failures(user.email);
      assert.equal(reasons.filter((reason) => reason === 'wrong_code').length, 4, 'exactly maxAttempts guesses were compared');
      assert.equal(reasons.filter((reason) => reason === 'attempts_exhausted').length, 46 + 1);
      assert.equal(right.status, 401);
    });

    it('when the right code is sent twice at once, then exactly one session is issued', async () => {
      const user = await createTestUser('viewer');
      const code = await mailedCode(user.email);

      const answers = await Promise.all([verify(user.email, code), verify(user.email, code)]);

      assert.deepEqual(answers.map((res) => res.status).sort(), [200, 401]);
      assert.equal(await ctx().models.ActivityLog.count({ where: { action: 'auth.otp_verified', userId: user.id } }), 1);
    });

    it('when the account was deactivated after the code was mailed, then the right code does not sign in', async () => {
      const user = await createTestUser('viewer');
      const code = await mailedCode(user.email);
      await ctx().models.User.update({ active: false }, { where: { id: user.id } });

      const res = await verify(user.email, code);

      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { error: INVALID, attemptsRemaining: 0 });
    });

    it('when the code has expired, then it does not sign in', async () => {
      const user = await createTestUser('viewer');
      const code = await mailedCode(user.email);
      await ctx().models.OtpCode.update({ expiresAt: Math.floor(Date.now() / 1000) - 1 }, { where: { userEmail: user.email } });

      assert.equal((await verify(user.email, code)).status, 401);
    });

    it('when an unknown email asks while new users are allowed, then its code creates a viewer', async () => {
      await configure({ allowNewUserRegistration: true });
      const email = uniqueEmail('newcomer');
      const code = await mailedCode(email);

      const res = await verify(email, code);

      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.user.email, email);
      assert.equal(res.body.user.role, 'viewer');
    });

    it('when new users are no longer allowed by the time the code is used, then no account is created', async () => {
      await configure({ allowNewUserRegistration: true });
      const email = uniqueEmail('latecomer');
      const code = await mailedCode(email);
      await configure({ allowNewUserRegistration: false });

      const res = await verify(email, code);

      assert.equal(res.status, 401);
      assert.equal(await ctx().models.User.count({ where: { email } }), 0);
    });

    it('when the plugin allows new users but registration is turned off service-wide, then no code is mailed and none creates an account', async () => {
      await configure({ allowNewUserRegistration: true });
      const early = uniqueEmail('before-close');
      const code = await mailedCode(early);
      await ctx().models.Setting.upsert({ key: 'security.allowRegistration', value: false });
      try {
        const late = uniqueEmail('after-close');
        const res = await requestCode(late);
        await sleep(300);

        assert.equal(res.status, 200);
        assert.equal(sink.messages.filter((m) => m.envelope.to.includes(late)).length, 0, 'no code for a closed registration');
        assert.equal((await verify(early, code)).status, 401, 'a code mailed before the switch creates no account after it');
        assert.equal(await ctx().models.User.count({ where: { email: [early, late] } }), 0);
      } finally {
        await ctx().models.Setting.destroy({ where: { key: 'security.allowRegistration' } });
      }
    });

    it('when an unknown email asks while new users are not allowed, then no mail is sent and the answer is the same', async () => {
      const email = uniqueEmail('stranger');
      const res = await requestCode(email);
      await sleep(300);

      assert.deepEqual(res.body, { message: REQUESTED, expiresIn: 600 });
      assert.equal(sink.messages.filter((m) => m.envelope.to.includes(email)).length, 0);
      assert.equal((await verify(email, '000000')).status, 401);
    });
  });

  describe('bad input', () => {
    const requests: Array<[string, unknown]> = [
      ['an invalid email', { email: 'not-an-email' }],
      ['an email array', { email: ['a@example.test'] }],
      ['a huge email', { email: `${'a'.repeat(50_000)}@example.test` }],
      ['no email', {}],
      ['an unknown field', { email: 'a@example.test', role: 'admin' }],
      ['an object', { email: { $gt: '' } }],
    ];
    for (const [label, body] of requests) {
      it(`when a code is requested with ${label}, then the answer is 400`, async () => {
        const res = await request(app).post('/auth/otp/request').send(body as object);
        assert.equal(res.status, 400, JSON.stringify(res.body));
      });
    }

    const verifications: Array<[string, unknown]> = [
      ['a code of the wrong length', { email: 'a@example.test', code: '1234' }],
      ['a nine-digit code', { email: 'a@example.test', code: '123456789' }],
      ['letters', { email: 'a@example.test', code: '12a456' }],
      ['a number instead of a string', { email: 'a@example.test', code: 123456 }],
      ['an array', { email: 'a@example.test', code: ['123456'] }],
      ['a huge string', { email: 'a@example.test', code: '1'.repeat(90_000) }],
      ['a malformed email', { email: 'a@', code: '123456' }],
      ['no code', { email: 'a@example.test' }],
    ];
    for (const [label, body] of verifications) {
      it(`when a code is verified with ${label}, then the answer is 400`, async () => {
        const res = await request(app).post('/auth/otp/verify').send(body as object);
        assert.equal(res.status, 400, JSON.stringify(res.body));
      });
    }

    it('when the JSON is malformed, then the answer is 400, never 5xx', async () => {
      const res = await request(app).post('/auth/otp/verify').set('Content-Type', 'application/json').send('{"email":');
      assert.equal(res.status, 400);
    });
  });
});

describe('OTP settings (PUT /api/plugins/otp-login)', () => {
  let admin: { Authorization: string };

  before(async () => {
    const { token } = await createUserWithToken('admin');
    admin = { Authorization: `Bearer ${token}` };
  });

  afterEach(async () => {
    await ctx().models.Plugin.destroy({ where: {} });
  });

  const put = (settings: Record<string, unknown>) => request(ctx().app).put('/api/plugins/otp-login').set(admin).send({ settings });

  const refused: Array<[string, unknown]> = [
    ['codeLength', 3], ['codeLength', 9], ['codeLength', 6.5], ['codeLength', '6'],
    ['codeExpiryMinutes', 4], ['codeExpiryMinutes', 61],
    ['maxAttempts', 2], ['maxAttempts', 11],
    ['rateLimitPerHour', 0], ['rateLimitPerHour', 1.5],
    ['allowNewUserRegistration', 'yes'],
    ['logoUrl', 'javascript:alert(1)'], ['logoUrl', 'ftp://example.test/logo.png'], ['logoUrl', 'not a url'],
    ['logoWidth', 19], ['logoWidth', 601],
    ['logoBorderWidth', -1], ['logoBorderWidth', 21],
    ['logoBorderColor', 'red;background:url(x)'], ['logoBorderColor', 'rgb(300, 0, 0)'], ['logoBorderColor', 'notacolor'],
    ['loginUrl', 'data:text/html,hi'],
  ];
  for (const [field, value] of refused) {
    it(`when ${field} is ${JSON.stringify(value)}, then the answer is 400 naming ${field}`, async () => {
      const res = await put({ [field]: value });
      assert.equal(res.status, 400);
      assert.equal(res.body.error, 'Validation failed');
      assert.ok(res.body.errors[field], JSON.stringify(res.body));
    });
  }

  it('when every setting is at an edge of its range, then it is accepted and read back', async () => {
    const settings = {
      codeLength: 4, codeExpiryMinutes: 60, maxAttempts: 10, rateLimitPerHour: 1, allowNewUserRegistration: true,
      logoUrl: 'http://cdn.example.test/logo.png', logoWidth: 600, logoBorderWidth: 20, logoBorderColor: 'rgb(0, 128, 255)',
      loginUrl: 'https://app.example.test/login', loginButtonText: 'Open the app',
    };
    const res = await put(settings);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.plugin.settings, settings);
    for (const color of ['#fff', '#a1b2c3', 'rebeccapurple']) assert.equal((await put({ logoBorderColor: color })).status, 200, color);
  });
});

describe('OTP page (GET /auth/otp) and the sign-in page link', () => {
  let sink: SmtpSink;
  let app: Express;

  const page = (path: string) => request(app).get(path).set('Accept', 'text/html');
  const form = (path: string, body: Record<string, string>) =>
    request(app).post(path).type('form').set('Accept', 'text/html,application/xhtml+xml').send(body);

  before(async () => {
    sink = await startSmtpSink();
    app = buildApp({ env: { SMTP_URL: sink.url } });
  });

  beforeEach(async () => {
    await ctx().models.Plugin.upsert({ name: 'otp-login', active: true, settings: {} });
  });

  after(async () => {
    await ctx().models.Plugin.destroy({ where: {} });
    await sink.stop();
  });

  it('when the plugin is active, then the sign-in page links "Sign in with a code", and not while it is inactive', async () => {
    const on = await page('/auth/login?redirect=/admin/profile');
    await ctx().models.Plugin.update({ active: false }, { where: { name: 'otp-login' } });
    const off = await page('/auth/login');

    assert.match(on.text, /<a href="\/auth\/otp\?redirect=%2Fadmin%2Fprofile">Sign in with a code<\/a>/);
    assert.doesNotMatch(off.text, /Sign in with a code/);
  });

  it('when a browser goes through the email form, a wrong code and the right one, then each step shows its page and it ends at the redirect', async () => {
    const user = await createTestUser('viewer');

    const start = await page('/auth/otp?redirect=/admin/profile');
    assert.equal(start.status, 200);
    assert.match(start.text, /<h1>Sign in with a code<\/h1>/);
    assert.match(start.text, /<form method="post" action="\/auth\/otp\/request"/);
    assert.match(start.text, /<label for="field-email">Email/);

    const codeStep = await form('/auth/otp/request', { email: user.email, redirect: '/admin/profile' });
    assert.equal(codeStep.status, 200);
    assert.match(codeStep.text, /If an account exists for this email/);
    assert.match(codeStep.text, /<form method="post" action="\/auth\/otp\/verify"/);
    assert.match(codeStep.text, /<label for="field-code">Code/);
    assert.match(codeStep.text, new RegExp(`name="email" value="${user.email}"`));
    const code = codeFrom(await sink.waitFor((m) => m.envelope.to.includes(user.email)));

    const wrongCode = await form('/auth/otp/verify', { email: user.email, code: code === '000000' ? '111111' : '000000', redirect: '/admin/profile' });
    assert.equal(wrongCode.status, 401);
    assert.match(wrongCode.text, /Invalid or expired code \(attempts remaining: 2\)/);
    assert.match(wrongCode.text, /action="\/auth\/otp\/verify"/);
    assert.doesNotMatch(wrongCode.text, /value="000000"|value="111111"/, 'the code is never drawn back');

    const done = await form('/auth/otp/verify', { email: user.email, code, redirect: '/admin/profile' });
    assert.equal(done.status, 302);
    assert.equal(done.headers.location, '/admin/profile');
    assert.ok(([] as string[]).concat(done.headers['set-cookie'] ?? []).some((c) => c.startsWith('auth_token=')));
  });

  it('when a browser sends a malformed email or a short code, then the form comes back with the error next to the field', async () => {
    const badEmail = await form('/auth/otp/request', { email: 'nope' });
    const shortCode = await form('/auth/otp/verify', { email: 'a@example.test', code: '12' });

    assert.equal(badEmail.status, 400);
    assert.match(badEmail.text, /id="field-email-error"[^>]*>must be a valid email address/);
    assert.match(badEmail.text, /value="nope"/);
    assert.equal(shortCode.status, 400);
    assert.match(shortCode.text, /id="field-code-error"[^>]*>must be 4 to 8 digits/);
  });

  it('when a posted email holds half a surrogate pair or is not text, then the form comes back with the error, never a 500', async () => {
    for (const email of ['\ud800', 'a\udc00@example.test', ['x'], { $gt: '' }]) {
      const res = await request(app)
        .post('/auth/otp/verify')
        .set('Accept', 'text/html, application/json;q=0.9')
        .send({ email, code: '12' });
      assert.equal(res.status, 400, JSON.stringify(email));
      assert.match(res.text, /Email must be a valid email address/, JSON.stringify(email));
    }
  });

  it('when the OpenAPI document is read, then both OTP routes are described', async () => {
    const res = await request(app).get('/api/openapi.json');
    assert.ok(res.body.paths['/auth/otp/request']?.post);
    assert.ok(res.body.paths['/auth/otp/verify']?.post?.responses?.['401']);
  });
});
