import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import express from 'express';
import request from 'supertest';
import pino from 'pino';
import { ctx, buildApp } from './support/context';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config/config';
import { createSequelize } from '../src/db/sequelize';
import { defineModels } from '../src/models';
import { MemoryStore } from '../src/store/memory-store';
import { errorHandler } from '../src/http/error-handler';
import { bodyParsing } from '../src/http/body-parsing';
import { createLogger } from '../src/logger';
import { requestLogger } from '../src/http/request-logger';

describe('HTTP shell', () => {
  describe('security headers', () => {
    it('when any response is sent, then exactly the SPEC 5 headers are set, without HSTS outside production', async () => {
      const res = await request(ctx().app).get('/health');
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN');
      assert.equal(res.headers['referrer-policy'], 'strict-origin-when-cross-origin');
      assert.equal(res.headers['permissions-policy'], 'camera=(), microphone=(), geolocation=()');
      assert.equal(res.headers['strict-transport-security'], undefined);
      assert.equal(res.headers['x-powered-by'], undefined);
      assert.match(res.headers['content-security-policy'], /frame-ancestors 'none'/, 'and the CSP of issue 26 (test/http/security-headers.test.ts)');
    });

    it('when running in production, then HSTS is added, also on errors', async () => {
      const app = buildApp({ env: { NODE_ENV: 'production', JWT_SECRET: 'p'.repeat(40) } });
      for (const path of ['/health', '/no-such-page']) {
        const res = await request(app).get(path);
        assert.equal(res.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains');
      }
    });
  });

  describe('errors', () => {
    it('when the route is unknown, then 404 JSON for API clients and an HTML page for browsers', async () => {
      const json = await request(ctx().app).get('/api/nothing-here').set('Accept', 'application/json');
      assert.equal(json.status, 404);
      assert.deepEqual(json.body, { error: 'Not found' });
      const html = await request(ctx().app).get('/nothing-here').set('Accept', 'text/html');
      assert.equal(html.status, 404);
      assert.match(html.headers['content-type'], /text\/html/);
      assert.match(html.text, /Not found/);
    });

    it('when JSON is malformed, then 400 with the contract message', async () => {
      const res = await request(ctx().app).post('/auth/anything').set('Content-Type', 'application/json').send('{"email": ');
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { error: 'Invalid JSON in request body' });
    });

    it('when the body is over 100 kB, then 413', async () => {
      const res = await request(ctx().app)
        .post('/auth/anything')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ x: 'a'.repeat(110 * 1024) }));
      assert.equal(res.status, 413);
      assert.equal(typeof res.body.error, 'string');
    });

    it('when the body has another content type, then 415', async () => {
      const res = await request(ctx().app).post('/auth/anything').set('Content-Type', 'text/plain').send('hello');
      assert.equal(res.status, 415);
      assert.equal(res.body.error, 'Content-Type must be application/json');
    });

    it('when a handler throws unexpectedly, then 500 without internals', async () => {
      const app = express();
      app.set('views', `${__dirname}/../views`);
      app.set('view engine', 'ejs');
      app.get('/boom', () => {
        throw new Error('SELECT * FROM users -- secret internals');
      });
      app.use(errorHandler);
      const res = await request(app).get('/boom');
      assert.equal(res.status, 500);
      assert.deepEqual(res.body, { error: 'Internal server error' });
    });

    it('when the database is unreachable, then 503 with Retry-After, never 401', async () => {
      const logger = pino({ level: 'silent' });
      const sequelize = createSequelize('mysql://root@127.0.0.1:1/nowhere', logger);
      const models = defineModels(sequelize);
      const config = loadConfig({ ...ctx().env, DATABASE_URL: 'mysql://root@127.0.0.1:1/nowhere' });
      const app = createApp({ config, logger, sequelize, models, store: new MemoryStore() });
      app.get('/probe-db', async () => {
        await models.User.count();
      });
      const ready = await request(app).get('/health/ready');
      assert.equal(ready.status, 503);
      assert.equal(ready.body.database, 'unavailable');
      assert.ok(ready.headers['retry-after']);

      const unreachable = express();
      unreachable.use(bodyParsing());
      unreachable.get('/probe-db', async () => {
        await models.User.count();
      });
      unreachable.use(errorHandler);
      const res = await request(unreachable).get('/probe-db');
      assert.equal(res.status, 503);
      assert.deepEqual(res.body, { error: 'Service unavailable' });
      assert.ok(res.headers['retry-after']);
      await sequelize.close();
    });
  });

  describe('health', () => {
    it('when asked, then /health is ok and /health/ready reports the database and store', async () => {
      const live = await request(ctx().app).get('/health');
      assert.equal(live.status, 200);
      assert.deepEqual(live.body, { status: 'ok' });
      const ready = await request(ctx().app).get('/health/ready');
      assert.equal(ready.status, 200);
      assert.equal(ready.body.database, 'ok');
      assert.equal(ready.body.store, 'ok');
      assert.equal(ready.body.storeKind, ctx().store.kind);
    });
  });

  describe('request logs', () => {
    it('when a request carries credentials, then the log line has a request id and none of them', async () => {
      const lines: string[] = [];
      const sink = new Writable({
        write(chunk, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      });
      const logger = createLogger('info', sink);
      const app = express();
      app.use(requestLogger(logger));
      app.use(bodyParsing());
      app.post('/echo', (req, res) => {
        req.log.info({ body: req.body, password: 'hunter2-secret' }, 'careless handler log');
        req.log.warn({ plugin: { settings: { apiKey: 'nested-api-key', smtpUrl: 'smtp://u:nested-smtp-pass@h' } }, deep: { a: { b: { token: 'deep-token-7' } } } }, 'nested');
        req.log.info({ headers: { authorization: 'Bearer copied-header-9' } }, 'copied headers');
        res.json({ ok: true });
      });
      const res = await request(app)
        .post('/echo?token=tok-secret-123&page=2&access_token=at-secret-1&client_secret=cs-secret-2&apiKey=ak-secret-3&code_verifier=cv-secret-4')
        .set('Authorization', 'Bearer bearer-secret-xyz')
        .set('Cookie', 'auth_token=cookie-secret-abc')
        .set('X-Request-Id', 'req-42')
        .send({ password: 'body-password-1', code: '123456' });
      assert.equal(res.headers['x-request-id'], 'req-42');
      const output = lines.join('');
      assert.match(output, /req-42/);
      assert.match(output, /page=2/, 'other query values stay readable');
      for (const secret of ['tok-secret-123', 'bearer-secret-xyz', 'cookie-secret-abc', 'body-password-1', '123456', 'hunter2-secret', 'nested-api-key', 'nested-smtp-pass', 'deep-token-7', 'copied-header-9', 'at-secret-1', 'cs-secret-2', 'ak-secret-3', 'cv-secret-4']) {
        assert.ok(!output.includes(secret), `log must not contain ${secret}`);
      }
    });
  });

  describe('API documentation', () => {
    it('when asked, then the OpenAPI document and its viewer are served', async () => {
      const doc = await request(ctx().app).get('/api/openapi.json');
      assert.equal(doc.status, 200);
      assert.equal(doc.body.openapi, '3.1.0');
      const viewer = await request(ctx().app).get('/api/docs/');
      assert.equal(viewer.status, 200);
      assert.match(viewer.text, /swagger/i);
    });
  });
});
