import assert from 'node:assert/strict';
import express, { type Express } from 'express';
import request from 'supertest';
import { ctx, buildApp, uniqueEmail } from '../support/context';
import { createRateLimits, RATE_LIMITS, type LimitName, type RateLimitsOptions } from '../../src/middleware/rate-limit';
import { errorHandler } from '../../src/http/error-handler';

const TOO_MANY = { error: 'Too many requests. Please try again later.' };

/** A bare app with one route per limiter, on the run's shared store. */
function limitedApp(options: Partial<RateLimitsOptions> = {}, trustProxy: boolean = false): Express {
  const { store, logger } = ctx();
  const limits = createRateLimits({ store, logger, ...options });
  const app = express();
  app.set('trust proxy', trustProxy);
  for (const name of Object.keys(limits) as LimitName[]) app.post(`/${name}`, limits[name], (_req, res) => void res.json({ ok: true }));
  app.use(errorHandler);
  return app;
}

function resetRequest(app: Express) {
  return request(app).post('/auth/request-password-reset').send({ email: uniqueEmail('limits') });
}

describe('rate limits', () => {
  describe('limits and headers', () => {
    for (const [name, rule] of Object.entries(RATE_LIMITS) as Array<[LimitName, (typeof RATE_LIMITS)[LimitName]]>) {
      it(`when ${name} is called ${rule.limit} times, then each answer counts down the headers and the next is 429 with Retry-After`, async () => {
        // Arrange
        const app = limitedApp();
        const started = Math.floor(Date.now() / 1000);

        // Act
        const answers = [];
        for (let i = 0; i <= rule.limit; i++) answers.push(await request(app).post(`/${name}`));

        // Assert
        answers.slice(0, rule.limit).forEach((res, i) => {
          assert.equal(res.status, 200);
          assert.equal(res.headers['x-ratelimit-limit'], String(rule.limit));
          assert.equal(res.headers['x-ratelimit-remaining'], String(rule.limit - i - 1));
          const reset = Number(res.headers['x-ratelimit-reset']);
          assert.ok(reset >= started + rule.windowSeconds - 1 && reset <= started + rule.windowSeconds + 2, `reset ${reset} is epoch seconds`);
        });
        const limited = answers[rule.limit];
        assert.equal(limited.status, 429);
        assert.deepEqual(limited.body, TOO_MANY);
        assert.equal(limited.headers['x-ratelimit-remaining'], '0');
        const retryAfter = Number(limited.headers['retry-after']);
        assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= rule.windowSeconds, `Retry-After ${retryAfter}`);
      });
    }

    it('when SPEC 8 is read, then the limits are login 5/60 s, register 3/60 s, seed-admin 2/60 s, password reset 3/15 min, refresh 60/60 s (magic links: 5/60 s per IP, 3/15 min per email; OTP code requests 10/60 s per IP; OAuth start + callback 30/60 s)', () => {
      assert.deepEqual(RATE_LIMITS, {
        login: { limit: 5, windowSeconds: 60 },
        register: { limit: 3, windowSeconds: 60 },
        seedAdmin: { limit: 2, windowSeconds: 60 },
        passwordReset: { limit: 3, windowSeconds: 900 },
        refresh: { limit: 60, windowSeconds: 60 },
        magicLink: { limit: 5, windowSeconds: 60 },
        otpRequest: { limit: 10, windowSeconds: 60 },
        oauth: { limit: 30, windowSeconds: 60 },
        passkey: { limit: 30, windowSeconds: 60 },
        secondFactor: { limit: 20, windowSeconds: 60 },
      });
    });

    it('when the password reset request is limited in the real app, then the fourth is 429 JSON, and a browser gets an HTML page', async () => {
      const app = ctx().app;
      for (let i = 0; i < 3; i++) {
        const res = await resetRequest(app);
        assert.equal(res.status, 200);
        assert.equal(res.headers['x-ratelimit-limit'], '3');
      }

      const json = await resetRequest(app);
      const html = await request(app).post('/auth/request-password-reset').set('Accept', 'text/html').type('form').send({ email: 'a@example.test' });

      assert.equal(json.status, 429);
      assert.deepEqual(json.body, TOO_MANY);
      assert.ok(Number(json.headers['retry-after']) > 800);
      assert.equal(html.status, 429);
      assert.match(html.headers['content-type'], /text\/html/);
      assert.ok(html.text.includes(TOO_MANY.error));
      assert.ok(html.headers['retry-after']);
    });

    it('when limits are counted, then the key-value store holds them under rl:<limiter>:<ip>', async () => {
      const app = limitedApp();
      await request(app).post('/login');
      await request(app).post('/login');
      await request(app).post('/seedAdmin');

      assert.equal(await ctx().store.get('rl:login:127.0.0.1'), '2');
      assert.equal(await ctx().store.get('rl:seed-admin:127.0.0.1'), '1');
    });

    it('when the limiters count, then one endpoint never consumes another one\'s allowance', async () => {
      const app = limitedApp();
      for (let i = 0; i < 2; i++) await request(app).post('/seedAdmin');

      const login = await request(app).post('/login');

      assert.equal((await request(app).post('/seedAdmin')).status, 429);
      assert.equal(login.status, 200);
      assert.equal(login.headers['x-ratelimit-remaining'], '4');
    });
  });

  describe('window', () => {
    it('when the window has passed, then the client may try again with a full allowance', async () => {
      // Arrange: a one-second window for the test
      const app = limitedApp({ overrides: { login: { windowSeconds: 1 } } });
      for (let i = 0; i < 5; i++) assert.equal((await request(app).post('/login')).status, 200);
      assert.equal((await request(app).post('/login')).status, 429);

      // Act
      await new Promise((resolve) => setTimeout(resolve, 1200));
      const res = await request(app).post('/login');

      // Assert
      assert.equal(res.status, 200);
      assert.equal(res.headers['x-ratelimit-remaining'], '4');
    });

    it('when the counter key is gone from the store (its expiry), then counting starts again', async () => {
      const app = limitedApp();
      for (let i = 0; i < 3; i++) await request(app).post('/register');
      assert.equal((await request(app).post('/register')).status, 429);

      await ctx().store.delete('rl:register:127.0.0.1');

      const res = await request(app).post('/register');
      assert.equal(res.status, 200);
      assert.equal(res.headers['x-ratelimit-remaining'], '2');
    });
  });

  describe('client address', () => {
    it('when TRUST_PROXY is off, then X-Forwarded-For is ignored: forged addresses share the socket address\'s counter', async () => {
      const app = buildApp({ env: { TRUST_PROXY: undefined } });
      for (let i = 0; i < 3; i++) {
        assert.equal((await resetRequest(app).set('X-Forwarded-For', `203.0.113.${i + 1}`)).status, 200);
      }

      const res = await resetRequest(app).set('X-Forwarded-For', '203.0.113.99');

      assert.equal(res.status, 429);
    });

    it('when TRUST_PROXY is set, then X-Forwarded-For names the client and each address has its own allowance', async () => {
      const app = buildApp({ env: { TRUST_PROXY: 'true' } });
      for (let i = 0; i < 3; i++) assert.equal((await resetRequest(app).set('X-Forwarded-For', '203.0.113.7')).status, 200);

      const same = await resetRequest(app).set('X-Forwarded-For', '203.0.113.7');
      const other = await resetRequest(app).set('X-Forwarded-For', '203.0.113.8');

      assert.equal(same.status, 429);
      assert.equal(other.status, 200);
      assert.equal(other.headers['x-ratelimit-remaining'], '2');
      assert.equal(await ctx().store.get('rl:password-reset:203.0.113.7'), '4');
    });

    it('when IPv6 clients share a /56, then they share one allowance (rotating addresses does not escape)', async () => {
      const app = limitedApp({}, true);
      await request(app).post('/seedAdmin').set('X-Forwarded-For', '2001:db8:1:100::1');
      await request(app).post('/seedAdmin').set('X-Forwarded-For', '2001:db8:1:1ff::2');

      const rotated = await request(app).post('/seedAdmin').set('X-Forwarded-For', '2001:db8:1:1aa::3');
      const elsewhere = await request(app).post('/seedAdmin').set('X-Forwarded-For', '2001:db8:2::1');

      assert.equal(rotated.status, 429);
      assert.equal(elsewhere.status, 200);
    });
  });

  describe('several instances', () => {
    it('when two app instances use the same store, then they share one counter', async () => {
      // Arrange
      const first = buildApp();
      const second = buildApp();

      // Act
      const a = await resetRequest(first);
      const b = await resetRequest(second);
      const c = await resetRequest(first);
      const d = await resetRequest(second);

      // Assert
      assert.deepEqual([a, b, c].map((res) => res.headers['x-ratelimit-remaining']), ['2', '1', '0']);
      assert.equal(d.status, 429);
    });
  });
});
