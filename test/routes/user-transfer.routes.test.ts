import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import pino from 'pino';
import request from 'supertest';
import type { Express } from 'express';
import { ctx, uniqueEmail } from '../support/context';
import { PASSWORD, makeUser, nextClientIp, proxiedApp } from '../support/auth';
import { createUserWithToken, tokenFor } from '../support/users';
import { foreignHashesOf } from '../support/foreign-hashes';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/config';
import { createSequelize } from '../../src/db/sequelize';
import { migrate } from '../../src/db/migrate';
import { defineModels, type Models } from '../../src/models';
import { MemoryStore } from '../../src/store/memory-store';
import { RedisStore } from '../../src/store/redis-store';
import { FOREIGN_HASH_MESSAGES } from '../../src/credentials/foreign-hashes';
import { IMPORT_MESSAGES } from '../../src/services/user-transfer/user-import';

const ndjson = (records: unknown[]): string => records.map((record) => JSON.stringify(record)).join('\n') + '\n';

describe('user import and export (CONTRACT 17)', function () {
  this.timeout(120_000);
  let adminToken: string;

  before(async () => {
    ({ token: adminToken } = await createUserWithToken('admin'));
  });

  const importInto = (app: Express, token: string, body: string, options: { mode?: string; type?: string } = {}) =>
    request(app)
      .post(`/api/users/import${options.mode ? `?mode=${options.mode}` : ''}`)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', options.type ?? 'application/x-ndjson')
      .send(body);
  const importNdjson = (body: string, options: { mode?: string; type?: string } = {}) => importInto(ctx().app, adminToken, body, options);
  const login = (app: Express, email: string, password = PASSWORD) =>
    request(app).post('/auth/login').set('X-Forwarded-For', nextClientIp()).send({ email, password });

  it('when users come with bcrypt, Argon2, scrypt, passlib and Django hashes, then each is created, signs in with its password and gets the service format', async () => {
    const hashes = await foreignHashesOf(PASSWORD);
    const records = Object.entries(hashes).map(([label, passwordHash]) => ({ email: uniqueEmail(label.toLowerCase()), passwordHash, firstName: label }));
    const res = await importNdjson(ndjson(records));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { created: records.length, updated: 0, skipped: 0, failed: 0, errors: [] });
    const app = proxiedApp();
    for (const record of records) {
      const user = await ctx().models.User.findOne({ where: { email: record.email }, rejectOnEmpty: true });
      assert.equal(user.selfRegistered, false, 'vouched for');
      assert.equal(user.passwordHash, record.passwordHash);
      const signedIn = await login(app, record.email);
      assert.equal(signedIn.status, 200, `${record.firstName}: ${JSON.stringify(signedIn.body)}`);
      await user.reload();
      assert.match(user.passwordHash as string, /^pbkdf2:/, `${record.firstName}: upgraded`);
    }
  });

  it('when records are malformed, over-cost, invalid or not JSON, then each is refused with its line and the others are imported', async () => {
    const good = [uniqueEmail('good'), uniqueEmail('good'), uniqueEmail('good')];
    const lines = [
      JSON.stringify({ email: good[0], password: 'a long and unusual passphrase 42' }),
      JSON.stringify({ email: uniqueEmail('over'), passwordHash: '$2b$16$' + 'a'.repeat(53) }),
      '{"email": "broken',
      JSON.stringify({ email: 'not-an-email', role: 'admin' }),
      '',
      JSON.stringify({ email: uniqueEmail('role'), role: 'emperor' }),
      JSON.stringify({ email: good[1], role: 'editor', emailVerified: true }),
      JSON.stringify({ email: uniqueEmail('bad'), passwordHash: '$argon2id$v=19$m=nope' }),
      JSON.stringify({ email: uniqueEmail('both'), password: 'a long and unusual passphrase 42', passwordHash: '$2b$10$' + 'a'.repeat(53) }),
      JSON.stringify({ email: uniqueEmail('extra'), isAdmin: true }),
      JSON.stringify({ email: good[2] }),
      JSON.stringify({ email: uniqueEmail('nul'), firstName: 'Ada\u0000Lovelace' }),
    ];
    const res = await importNdjson(lines.join('\n'));
    assert.equal(res.status, 200);
    assert.equal(res.body.created, 3);
    assert.equal(res.body.failed, 8);
    const byLine = Object.fromEntries((res.body.errors as Array<{ line: number; error: string }>).map((error) => [error.line, error.error]));
    assert.deepEqual(Object.keys(byLine).map(Number), [2, 3, 4, 6, 8, 9, 10, 12]);
    assert.equal(byLine[12], 'the record contains a NUL character');
    assert.match(byLine[2], new RegExp(FOREIGN_HASH_MESSAGES.overCost));
    assert.equal(byLine[3], 'not valid JSON');
    assert.match(byLine[4], /^email: must be a valid email address/);
    assert.match(byLine[6], /^role: must be one of/);
    assert.match(byLine[8], /passwordHash: passwordHash is malformed/);
    assert.match(byLine[9], /password: give password or passwordHash, not both/);
    assert.match(byLine[10], /isAdmin: unknown field/);
    const editor = await ctx().models.User.findOne({ where: { email: good[1] }, rejectOnEmpty: true });
    assert.equal(editor.role, 'editor');
    assert.ok(editor.emailVerifiedAt);
    assert.equal((await login(proxiedApp(), good[0], 'a long and unusual passphrase 42')).status, 200);
    // No secret is echoed: the refused records' passwords and hashes are not in the answer.
    assert.doesNotMatch(JSON.stringify(res.body), /passphrase|\$2b\$16/);
  });

  it('when the body is a JSON array, then its elements are the records, with the line each starts on', async () => {
    const [first, second] = [uniqueEmail('array'), uniqueEmail('array')];
    const body = `[\n  {"email": "${first}", "lastName": "One"},\n  {"email": 42},\n  {"email": "${second}",\n   "profile": {}}\n]\n`;
    const res = await importNdjson(body, { type: 'application/json' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.created, 2);
    assert.deepEqual(res.body.errors, [{ line: 3, email: null, error: 'email: must be a valid email address' }]);
    const notArray = await importNdjson('{"email": "x@example.test"}', { type: 'application/json' });
    assert.equal(notArray.status, 200);
    assert.equal(notArray.body.errors[0].error, 'a JSON body must be an array of records');
  });

  it('when an email exists, then create skips it and upsert updates it (its role change ends its sessions, as an admin change would)', async () => {
    const user = await makeUser({ role: 'viewer' });
    const token = await tokenFor(user);
    const record = { email: user.email.toUpperCase(), role: 'editor', firstName: 'Changed', password: 'another unusual passphrase 77' };
    const skipped = await importNdjson(ndjson([record]));
    assert.deepEqual(skipped.body, { created: 0, updated: 0, skipped: 1, failed: 0, errors: [] });
    const updated = await importNdjson(ndjson([record]), { mode: 'upsert' });
    assert.deepEqual(updated.body, { created: 0, updated: 1, skipped: 0, failed: 0, errors: [] });
    await user.reload();
    assert.equal(user.role, 'editor');
    assert.equal(user.firstName, 'Changed');
    assert.equal((await request(ctx().app).get('/auth/me').set('Authorization', `Bearer ${token}`)).status, 401, 'the role change ended the session');
    assert.equal((await login(proxiedApp(), user.email, 'another unusual passphrase 77')).status, 200);
    const other = await makeUser();
    const taken = await importNdjson(ndjson([{ email: user.email, username: other.username.toUpperCase() }]), { mode: 'upsert' });
    assert.deepEqual(taken.body.errors, [{ line: 1, email: user.email, error: 'User with this email or username already exists' }], 'usernames are unique case-insensitively');
    const badMode = await importNdjson(ndjson([record]), { mode: 'merge' });
    assert.equal(badMode.status, 400);
  });

  it('when the body is gzip-compressed, then it is read decompressed; a broken or unknown compression is refused', async () => {
    const email = uniqueEmail('gzip');
    const zipped = zlib.gzipSync(ndjson([{ email }]));
    const post = (encoding: string, bytes: Buffer) =>
      request(ctx().app).post('/api/users/import').set('Authorization', `Bearer ${adminToken}`).set('Content-Type', 'application/x-ndjson').set('Content-Encoding', encoding).send(bytes);
    const res = await post('gzip', zipped);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.created, 1);
    assert.equal((await post('gzip', zipped.subarray(0, 12))).status, 400);
    assert.equal((await post('compress', zipped)).status, 415);
  });

  it('when the caller lacks manage:users, a recent sign-in or sends another type, then the import is refused', async () => {
    const { token: viewer } = await createUserWithToken('viewer');
    assert.equal((await importInto(ctx().app, viewer, '{}')).status, 403);
    const admin = await createUserWithToken('admin');
    const stale = await tokenFor(admin.user, { sid: crypto.randomUUID(), authTime: Math.floor(Date.now() / 1000) - 3600 });
    const refused = await importInto(ctx().app, stale, '{}');
    assert.equal(refused.status, 403);
    assert.equal(refused.body.stepUp, true);
    assert.equal((await importNdjson('email=x', { type: 'text/plain' })).status, 415);
    assert.equal((await request(ctx().app).get('/api/users/export').set('Authorization', `Bearer ${viewer}`)).status, 403);
  });

  describe('over 50 MB', () => {
    let server: http.Server;
    let port: number;
    before(async () => {
      server = http.createServer(ctx().app);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    /** Posts `body` to the import on a real socket and resolves with the status and body of the answer. */
    function post(body: Readable | null, headers: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
      return new Promise((resolve, reject) => {
        const req = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/api/users/import', headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/x-ndjson', ...headers } }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode as number, body: JSON.parse(text) as Record<string, unknown> }));
        });
        // The server may answer and close before the whole body is sent.
        req.on('error', (err) => (err.message.includes('EPIPE') || err.message.includes('ECONNRESET') ? undefined : reject(err)));
        if (body) body.pipe(req);
        else req.end();
      });
    }

    it('when Content-Length says more than 50 MB, then 413 before reading it', async () => {
      const res = await post(Readable.from([Buffer.alloc(1024, 32)]), { 'Content-Length': String(50 * 1024 * 1024 + 1) });
      assert.equal(res.status, 413);
      assert.equal(res.body.error, IMPORT_MESSAGES.tooLarge);
    });

    it('when a body without a length grows past 50 MB, then 413 and not one of its records is written', async () => {
      const email = uniqueEmail('before-limit');
      const chunk = Buffer.alloc(1024 * 1024, 10);
      const body = Readable.from((function* () {
        yield Buffer.from(ndjson([{ email }]));
        for (let i = 0; i < 51; i += 1) yield chunk;
      })());
      const res = await post(body, { 'Transfer-Encoding': 'chunked' });
      assert.equal(res.status, 413);
      assert.equal(res.body.error, IMPORT_MESSAGES.tooLarge);
      assert.equal(await ctx().models.User.count({ where: { email } }), 0);
    });
  });

  describe('export, then import into a fresh service', () => {
    let scratch: ScratchDatabase;
    let fresh: { app: Express; models: Models; close: () => Promise<void> };

    before(async () => {
      scratch = await createScratchDatabase('import');
      const config = loadConfig({ ...ctx().env, DATABASE_URL: scratch.url, TRUST_PROXY: 'true' });
      const logger = pino({ level: 'silent' });
      const sequelize = createSequelize(config.databaseUrl, logger);
      await migrate(sequelize);
      const models = defineModels(sequelize);
      const store = config.redisUrl ? new RedisStore(config.redisUrl, { keyPrefix: `test:import:${crypto.randomBytes(4).toString('hex')}:` }) : new MemoryStore();
      if (store instanceof RedisStore) await store.connect();
      fresh = {
        app: createApp({ config, logger, sequelize, models, store }),
        models,
        close: async () => {
          await store.clear();
          await store.close();
          await sequelize.close();
        },
      };
    });
    after(async () => {
      await fresh?.close();
      await scratch?.drop();
    });

    it('when every user is exported as NDJSON and imported elsewhere, then every hash arrives as it left and the users sign in there', async () => {
      const hashes = await foreignHashesOf(PASSWORD);
      const known = [...(await Promise.all(Object.values(hashes).map((passwordHash) => makeUser({ passwordHash })))), await makeUser()];
      // A value kept under a field this service is not configured with (one since removed from AUTH_CONFIG, or
      // written by an app with other fields): not part of the account as the service shows it, so not exported.
      await ctx().models.UserProfile.update({ data: { retiredField: 'old value' } }, { where: { userId: known[0].id } });
      const res = await request(ctx().app)
        .get('/api/users/export')
        .set('Authorization', `Bearer ${adminToken}`)
        .buffer(true)
        .parse((stream, done) => {
          let text = '';
          stream.setEncoding('utf8');
          stream.on('data', (chunk: string) => (text += chunk));
          stream.on('end', () => done(null, text));
        });
      assert.equal(res.status, 200);
      assert.match(res.headers['content-type'], /^application\/x-ndjson/);
      const records = (res.body as string).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      assert.equal(records.length, await ctx().models.User.count(), 'every user, once');
      assert.ok(records.every((record) => record.password === undefined));
      assert.deepEqual(records.find((record) => record.email === known[0].email)?.profile, {}, 'no value of an unconfigured field');

      // The fresh service's first user is its bootstrap admin, who then imports everyone.
      const bootstrap = await request(fresh.app).post('/auth/register').send({ email: uniqueEmail('bootstrap'), password: 'bootstrap passphrase 9021' });
      assert.equal(bootstrap.status, 201, JSON.stringify(bootstrap.body));
      const imported = await importInto(fresh.app, bootstrap.body.token as string, res.body as string);
      assert.equal(imported.status, 200, JSON.stringify(imported.body));
      assert.deepEqual({ ...imported.body, errors: imported.body.errors.slice(0, 3) }, { created: records.length, updated: 0, skipped: 0, failed: 0, errors: [] });

      for (const record of records) {
        const there = await fresh.models.User.findOne({ where: { email: record.email as string }, rejectOnEmpty: true });
        assert.equal(there.passwordHash, record.passwordHash ?? null, `${String(record.email)}: hash`);
        assert.equal(there.role, record.role);
      }
      for (const user of known) assert.equal((await login(fresh.app, user.email)).status, 200, user.email);
    });
  });
});
