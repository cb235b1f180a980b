import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import net from 'node:net';
import request from 'supertest';
import type { Express } from 'express';
import { ctx, buildApp, uniqueEmail } from '../support/context';
import { startSmtpSink, type SmtpSink, type SinkMessage } from '../support/smtp-sink';
import { createPasswordService } from '../../src/credentials/password.service';
import { hashResetToken } from '../../src/services/sign-in-methods/password-reset.service';

const REQUESTED = { message: 'If an account with this email exists, a password reset link has been sent.' };
const INVALID = { error: 'Invalid or expired reset token' };
const OLD_PASSWORD = 'old-password-1';
const NEW_PASSWORD = 'brand-new-password-2';
const BASE_URL = 'https://auth.example.test';

const passwords = createPasswordService({ iterations: 10_000 });

let ipCounter = 0;
/** Every request from its own client address (TRUST_PROXY is on in these apps), so the 3/15 min limit stays out of the way. */
function nextIp(): string {
  ipCounter += 1;
  return `198.51.100.${ipCounter % 250}`;
}

async function createUser(options: { active?: boolean; email?: string } = {}) {
  const email = options.email ?? uniqueEmail('reset');
  return ctx().models.User.create({
    id: crypto.randomUUID(),
    email,
    username: `u_${crypto.randomBytes(6).toString('hex')}`,
    firstName: null,
    lastName: null,
    role: 'viewer',
    active: options.active ?? true,
    passwordHash: await passwords.hash(OLD_PASSWORD),
  });
}

function tokenFrom(message: SinkMessage): string {
  const match = message.text.match(/\/auth\/reset-password\?token=([A-Za-z0-9_%-]+)/);
  assert.ok(match, 'the mail carries a reset link');
  return decodeURIComponent(match[1]);
}

function linkFrom(message: SinkMessage): string {
  const match = message.text.match(/https?:\/\/\S+\/auth\/reset-password\?token=\S+/);
  assert.ok(match, 'the mail carries a reset link');
  return match[0];
}

function requestReset(app: Express, email: string) {
  return request(app).post('/auth/request-password-reset').set('X-Forwarded-For', nextIp()).send({ email });
}

function resetPassword(app: Express, token: string, password = NEW_PASSWORD) {
  return request(app).post('/auth/reset-password').set('X-Forwarded-For', nextIp()).send({ token, password });
}

/** Requests a reset and returns the token the mail carries. */
async function mailedToken(app: Express, sink: SmtpSink, email: string): Promise<string> {
  const before = sink.messages.length;
  const res = await requestReset(app, email);
  assert.equal(res.status, 200);
  const message = await sink.waitFor((m) => m.envelope.to.includes(email) && sink.messages.indexOf(m) >= before);
  return tokenFrom(message);
}

async function storedHash(userId: string): Promise<string> {
  const user = await ctx().models.User.findByPk(userId);
  return user?.passwordHash ?? '';
}

/** A TCP server that accepts connections and never says a word (a stalled mail server). */
async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('password reset', () => {
  let sink: SmtpSink;
  let app: Express;

  before(async () => {
    sink = await startSmtpSink();
    app = buildApp({ env: { SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test', BASE_URL, TRUST_PROXY: 'true' } });
  });

  after(async () => {
    await sink.stop();
  });

  describe('requesting a link', () => {
    it('when a known email asks, then 200 with the contract message and a mail whose link is built from BASE_URL, whatever Host headers say', async () => {
      // Arrange
      const user = await createUser();

      // Act
      const res = await request(app)
        .post('/auth/request-password-reset')
        .set('Host', 'evil.example.com')
        .set('X-Forwarded-Host', 'attacker.example.net')
        .set('X-Forwarded-Proto', 'http')
        .set('X-Forwarded-For', nextIp())
        .send({ email: `  ${user.email.toUpperCase()} ` });

      // Assert
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, REQUESTED);
      const message = await sink.waitFor((m) => m.envelope.to.includes(user.email));
      assert.equal(message.envelope.from, 'auth@example.test');
      const link = linkFrom(message);
      assert.ok(link.startsWith(`${BASE_URL}/auth/reset-password?token=`), link);
      assert.doesNotMatch(message.raw, /evil\.example\.com|attacker\.example\.net/);
      assert.match(message.html, new RegExp(`href="${BASE_URL.replace(/\./g, '\\.')}/auth/reset-password\\?token=`));
    });

    it('when the email is unknown or the account deactivated, then the answer is identical and no mail is sent', async () => {
      // Arrange
      const known = await createUser();
      const inactive = await createUser({ active: false });
      const unknown = uniqueEmail('nobody');

      // Act
      const answers = [];
      for (const email of [known.email, unknown, inactive.email]) answers.push(await requestReset(app, email));

      // Assert
      const comparable = (res: request.Response) => {
        const { date: _date, 'x-ratelimit-reset': _reset, 'x-request-id': _id, ...headers } = res.headers;
        return { status: res.status, body: res.body, headers };
      };
      assert.deepEqual(comparable(answers[1]), comparable(answers[0]));
      assert.deepEqual(comparable(answers[2]), comparable(answers[0]));
      await sink.waitFor((m) => m.envelope.to.includes(known.email));
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(sink.messages.filter((m) => m.envelope.to.includes(unknown) || m.envelope.to.includes(inactive.email)).length, 0);
    });

    it('when the mail server stalls, then a known account is answered at once: mail is never awaited on the request path', async () => {
      // Arrange
      const stalled = await silentServer();
      const stalledApp = buildApp({ env: { SMTP_URL: stalled.url, BASE_URL, TRUST_PROXY: 'true' } });
      const user = await createUser();
      try {
        // Act
        const started = Date.now();
        const res = await requestReset(stalledApp, user.email);
        const elapsed = Date.now() - started;

        // Assert
        assert.equal(res.status, 200);
        assert.deepEqual(res.body, REQUESTED);
        assert.ok(elapsed < 1000, `answered in ${elapsed} ms`);
      } finally {
        await stalled.close();
      }
    });

    it('when the mail server is down, then the answer is unchanged', async () => {
      // Arrange
      const down = await startSmtpSink();
      await down.stop();
      const downApp = buildApp({ env: { SMTP_URL: down.url, BASE_URL, TRUST_PROXY: 'true' } });
      const user = await createUser();

      // Act
      const res = await requestReset(downApp, user.email);

      // Assert
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, REQUESTED);
    });

    it('when the email is malformed, or unknown fields are sent, then 400 validation', async () => {
      const bad = await requestReset(app, 'not-an-email');
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error, 'Validation failed');
      assert.ok(bad.body.errors.email);

      const extra = await request(app).post('/auth/request-password-reset').set('X-Forwarded-For', nextIp()).send({ email: 'a@example.test', role: 'admin' });
      assert.equal(extra.status, 400);
      assert.deepEqual(extra.body.errors, { role: 'unknown field' });
    });

    it('when a link is issued, then only the sha256 of its token is stored, valid for one hour', async () => {
      const user = await createUser();
      const token = await mailedToken(app, sink, user.email);

      const rows = await ctx().models.PasswordResetToken.findAll({ where: { userId: user.id } });
      assert.equal(rows.length, 1);
      assert.equal(rows[0].tokenHash, hashResetToken(token));
      assert.notEqual(rows[0].tokenHash, token);
      const lifetime = rows[0].expiresAt.getTime() - Date.now();
      assert.ok(lifetime > 59 * 60 * 1000 && lifetime <= 60 * 60 * 1000 + 1000, `lifetime ${lifetime} ms`);
    });
  });

  describe('using a link', () => {
    it('when the mailed token and a new password are posted, then 200, the new password is stored and the old one no longer matches', async () => {
      // Arrange
      const user = await createUser();
      const token = await mailedToken(app, sink, user.email);

      // Act
      const res = await resetPassword(app, token);

      // Assert
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { message: 'Password has been reset' });
      const hash = await storedHash(user.id);
      assert.match(hash, /^pbkdf2:10000:[0-9a-f]{32}:[0-9a-f]{64}$/);
      assert.equal((await passwords.verify(NEW_PASSWORD, hash)).ok, true);
      assert.equal((await passwords.verify(OLD_PASSWORD, hash)).ok, false);
    });

    it('when the same token is used twice, then the second use is 400', async () => {
      const user = await createUser();
      const token = await mailedToken(app, sink, user.email);

      assert.equal((await resetPassword(app, token)).status, 200);
      const again = await resetPassword(app, token, 'yet-another-password');

      assert.equal(again.status, 400);
      assert.deepEqual(again.body, INVALID);
      assert.equal((await passwords.verify(NEW_PASSWORD, await storedHash(user.id))).ok, true);
    });

    it('when one token is used by five requests at once, then exactly one succeeds', async () => {
      // Arrange
      const user = await createUser();
      const token = await mailedToken(app, sink, user.email);

      // Act
      const answers = await Promise.all([1, 2, 3, 4, 5].map((i) => resetPassword(app, token, `parallel-password-${i}`)));

      // Assert
      const winners = answers.filter((res) => res.status === 200);
      assert.equal(winners.length, 1, JSON.stringify(answers.map((res) => res.status)));
      for (const res of answers.filter((r) => r.status !== 200)) assert.deepEqual(res.body, INVALID);
      const hash = await storedHash(user.id);
      const matching = [];
      for (const i of [1, 2, 3, 4, 5]) if ((await passwords.verify(`parallel-password-${i}`, hash)).ok) matching.push(i);
      assert.equal(matching.length, 1);
    });

    it('when the token has expired, then 400 and the password is unchanged', async () => {
      // Arrange: a token whose hour is over
      const user = await createUser();
      const token = crypto.randomBytes(32).toString('base64url');
      await ctx().models.PasswordResetToken.create({
        id: crypto.randomUUID(),
        userId: user.id,
        tokenHash: hashResetToken(token),
        expiresAt: new Date(Date.now() - 1000),
      });

      // Act
      const res = await resetPassword(app, token);

      // Assert
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, INVALID);
      assert.equal((await passwords.verify(OLD_PASSWORD, await storedHash(user.id))).ok, true);
    });

    it('when the token is unknown, or a stored hash is sent instead of the token, then 400', async () => {
      const user = await createUser();
      const token = await mailedToken(app, sink, user.email);

      assert.deepEqual((await resetPassword(app, 'x'.repeat(43))).body, INVALID);
      assert.deepEqual((await resetPassword(app, hashResetToken(token))).body, INVALID);
    });

    it('when a new link is requested, then the older link stops working', async () => {
      const user = await createUser();
      const first = await mailedToken(app, sink, user.email);
      const second = await mailedToken(app, sink, user.email);
      assert.notEqual(first, second);

      assert.deepEqual((await resetPassword(app, first)).body, INVALID);
      assert.equal((await resetPassword(app, second)).status, 200);
    });

    it('when the account was deactivated after the mail, then the token is refused', async () => {
      const user = await createUser();
      const token = await mailedToken(app, sink, user.email);
      await user.update({ active: false });

      const res = await resetPassword(app, token);

      assert.equal(res.status, 400);
      assert.deepEqual(res.body, INVALID);
    });

    it('when the account is deactivated while the new password is being hashed, then 400, nothing changes and the token stays unspent', async () => {
      const user = await createUser();
      const token = await mailedToken(app, sink, user.email);
      const before = await storedHash(user.id);
      const { User, PasswordResetToken } = ctx().models;
      // The deactivation commits right after the reset has read the account (and before its write).
      let deactivated = false;
      User.addHook('afterFind', 'concurrent-deactivation', async () => {
        if (deactivated) return;
        deactivated = true;
        await User.update({ active: false }, { where: { id: user.id } });
      });
      try {
        const res = await resetPassword(app, token);
        assert.equal(res.status, 400);
        assert.deepEqual(res.body, INVALID);
      } finally {
        User.removeHook('afterFind', 'concurrent-deactivation');
      }
      assert.ok(deactivated);
      assert.equal(await storedHash(user.id), before);
      assert.equal(await PasswordResetToken.count({ where: { userId: user.id, usedAt: null } }), 1);
    });

    it('when the password is too short or too long, then 400 validation and the token stays usable', async () => {
      const user = await createUser();
      const token = await mailedToken(app, sink, user.email);

      const short = await resetPassword(app, token, 'short');
      const long = await resetPassword(app, token, 'x'.repeat(129));

      assert.equal(short.status, 400);
      assert.deepEqual(short.body.errors, { password: 'must be at least 8 characters' });
      assert.equal(long.status, 400);
      assert.deepEqual(long.body.errors, { password: 'must be at most 128 characters' });
      // 128 characters that pass the quality rule too (CONTRACT 12: 'x' repeated is refused as easy to guess).
      assert.equal((await resetPassword(app, token, 'Lantern-Orbit-Meadow-42-'.repeat(6).slice(0, 128))).status, 200);
    });

    it('when the password is reset, then the owner is mailed a notice naming every account still linked to theirs (a reset removes no link)', async () => {
      const user = await createUser();
      await ctx().models.OAuthAccount.create({ id: crypto.randomUUID(), userId: user.id, provider: 'github', providerAccountId: '777', email: 'someone-else@example.test' });
      const resetToken = await mailedToken(app, sink, user.email);

      assert.equal((await resetPassword(app, resetToken)).status, 200);

      const notice = await sink.waitFor((m) => m.envelope.to.includes(user.email) && m.subject === 'Your password was reset');
      assert.match(notice.text, /Still on your account/);
      assert.match(notice.text, /- GitHub account linked: someone-else@example\.test/);
      assert.doesNotMatch(notice.text + notice.html, new RegExp(resetToken));
    });

    it('when the password is reset, then access tokens issued before stop working at once, despite the verification cache', async () => {
      // Arrange: a token that has been verified (and cached) once
      const user = await createUser();
      // Signed in on this app: its BASE_URL is also the tokens' issuer, which every check compares.
      const bearer = (await request(app).post('/auth/login').send({ email: user.email, password: OLD_PASSWORD })).body.token as string;
      const before = await request(app).get(`/api/user-profiles/${user.id}`).set('Authorization', `Bearer ${bearer}`);
      assert.equal(before.status, 200);
      const meBefore = await request(app).get('/auth/me').set('Authorization', `Bearer ${bearer}`);
      const resetToken = await mailedToken(app, sink, user.email);

      // Act
      assert.equal((await resetPassword(app, resetToken)).status, 200);

      // Assert
      const after = await request(app).get(`/api/user-profiles/${user.id}`).set('Authorization', `Bearer ${bearer}`);
      assert.equal(after.status, 401);
      if (meBefore.status === 200) {
        // /auth/me (issue 3a's route), once it exists
        assert.equal((await request(app).get('/auth/me').set('Authorization', `Bearer ${bearer}`)).status, 401);
      }
    });

    it('when the user signs out everywhere after a link was mailed, then the link no longer resets the password', async () => {
      const user = await createUser();
      const login = await request(app).post('/auth/login').set('X-Forwarded-For', nextIp()).send({ email: user.email, password: OLD_PASSWORD });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      const resetToken = await mailedToken(app, sink, user.email);

      assert.equal((await request(app).post('/auth/logout-all').set('Authorization', `Bearer ${login.body.token}`)).status, 200);

      assert.deepEqual((await resetPassword(app, resetToken)).body, INVALID);
      assert.equal((await passwords.verify(OLD_PASSWORD, await storedHash(user.id))).ok, true, 'the password is unchanged');
    });

    it('when a reset is requested and done, then both are in the activity log, without the token or the password', async () => {
      // Arrange
      const user = await createUser();
      const token = await mailedToken(app, sink, user.email);

      // Act
      await resetPassword(app, token);

      // Assert
      const rows = await ctx().models.ActivityLog.findAll({ where: { userId: user.id } });
      const actions = rows.map((row) => row.action).sort();
      assert.deepEqual(actions, ['auth.password_reset', 'auth.password_reset_requested']);
      const dump = JSON.stringify(rows.map((row) => row.toJSON()));
      assert.ok(!dump.includes(token), 'no token');
      assert.ok(!dump.includes(hashResetToken(token)), 'no token hash');
      assert.ok(!dump.includes(NEW_PASSWORD), 'no password');
      assert.ok(rows.every((row) => row.ip === rows[0].ip || row.ip !== null));
    });

    it('when no mail service is configured, then the answer is the same and no token is created', async () => {
      const noMail = buildApp({ env: { SMTP_URL: undefined, BASE_URL, TRUST_PROXY: 'true' } });
      const user = await createUser();

      const res = await requestReset(noMail, user.email);

      assert.equal(res.status, 200);
      assert.deepEqual(res.body, REQUESTED);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(await ctx().models.PasswordResetToken.count({ where: { userId: user.id } }), 0);
    });
  });

  describe('HTML pages and form posts', () => {
    const browser = { Accept: 'text/html,application/xhtml+xml' };

    it('when the forgot-password form is posted, then 303 to the page with the neutral message (a reload does not post again)', async () => {
      const user = await createUser();

      const res = await request(app)
        .post('/auth/request-password-reset')
        .set(browser)
        .set('X-Forwarded-For', nextIp())
        .type('form')
        .send({ email: user.email });

      assert.equal(res.status, 303);
      assert.equal(res.headers.location, '/auth/forgot-password?notice=reset_requested');
      const page = await request(app).get(res.headers.location).set(browser);
      assert.match(page.headers['content-type'], /text\/html/);
      assert.ok(page.text.includes(REQUESTED.message));
      await sink.waitFor((m) => m.envelope.to.includes(user.email));
    });

    it('when the link is opened, then the form is shown with the token, not cached; an unusable link says so', async () => {
      const user = await createUser();
      const token = await mailedToken(app, sink, user.email);

      const page = await request(app).get(`/auth/reset-password?token=${encodeURIComponent(token)}`).set(browser);
      const bad = await request(app).get('/auth/reset-password?token=nope').set(browser);

      assert.equal(page.status, 200);
      assert.equal(page.headers['cache-control'], 'no-store');
      assert.match(page.text, /<form method="post" action="\/auth\/reset-password"/);
      assert.ok(page.text.includes(`value="${token}"`));
      assert.equal(bad.status, 200);
      assert.ok(bad.text.includes('Invalid or expired reset token'));
      assert.doesNotMatch(bad.text, /<form method="post" action="\/auth\/reset-password"/);
    });

    it('when the reset form is posted, then 302 to the sign-in page with a message; a bad form comes back with its error', async () => {
      const user = await createUser();
      const token = await mailedToken(app, sink, user.email);

      const short = await request(app).post('/auth/reset-password').set(browser).type('form').send({ token, password: 'short' });
      const done = await request(app).post('/auth/reset-password').set(browser).type('form').send({ token, password: NEW_PASSWORD });

      assert.equal(short.status, 400);
      assert.match(short.headers['content-type'], /text\/html/);
      assert.ok(short.text.includes('must be at least 8 characters'));
      assert.equal(done.status, 302);
      assert.match(done.headers.location, /^\/auth\/login\?notice=password_reset$/);
      assert.equal((await passwords.verify(NEW_PASSWORD, await storedHash(user.id))).ok, true);
    });

    it('when the forgot-password page is opened, then it shows the form', async () => {
      const res = await request(app).get('/auth/forgot-password').set(browser);
      assert.equal(res.status, 200);
      assert.match(res.text, /action="\/auth\/request-password-reset"/);
    });
  });
});
