import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request, { type Test } from 'supertest';
import type { Express } from 'express';
import { ctx, sqlSentDuring, uniqueEmail } from '../support/context';
import { cookieHeader, makeUser, payloadOf, PASSWORD } from '../support/auth';
import { awayFromStepEnd, codeFor, enrolTotp } from '../support/totp';
import { configureOtp, otpCodeFrom } from '../support/otp';
import { EXTERNAL_AUTH_SECRET, linkFrom } from '../support/magic-link';
import { startSmtpSink, type SinkMessage, type SmtpSink } from '../support/smtp-sink';
import { loadConfig } from '../../src/config/config';
import { createApp } from '../../src/app';
import { RedisStore } from '../../src/store/redis-store';
import { startRedis, killRedis, type PrivateRedis } from '../support/redis-server';
import { redisCli, startRedisCluster, type RedisCluster } from '../support/redis-topologies';

/**
 * What one request of each main route costs in database statements and Redis commands, counted: Sequelize's
 * query log counts the statements (background writes included: the count waits a moment after the answer),
 * and the servers' own INFO commandstats count the commands (on a cluster, summed over the masters). The
 * table in docs/benchmarks.md ("What each request costs") is this test's output, and the scale-out topology
 * in docs/operations.md is sized from it; the bounds asserted are the ones the hot paths are designed for.
 *
 * Each row is measured on a warm instance: the same kind of request is made once unmeasured first (caches,
 * the revocation set copied to the store), each request comes from a client address of
 * its own (its first request in the rate-limit window: INCR, PEXPIRE, PTTL in the script), and every user has
 * no second factor unless the row says so.
 */

const SETTLE_MS = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Redis commands that are not the request's: this measurement's INFO calls and cluster housekeeping. */
const HOUSEKEEPING = ['info', 'cluster|slots', 'cluster|nodes', 'cluster|info', 'cluster|shards', 'ping', 'client|setinfo', 'readonly', 'info|commandstats', 'client|setname', 'replconf', 'role'];

/**
 * What an instance does at most once in 30 seconds whichever request comes (the revocation audit, a fresh
 * copy of the settings): a measurement it falls into is taken again.
 */
const PERIODIC = [/FROM\s+`?revoked_tokens`?\b.*\bmirrored`?\s*=/is, /DELETE\s+FROM\s+`?revoked_tokens`?\s+WHERE\s+`?expires_at/i, /FROM\s+`?settings`?\b.*\bIN\s*\(/is];

async function commandCounts(ports: number[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const port of ports) {
    for (const line of (await redisCli(port, 'info', 'commandstats')).split('\n')) {
      const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
      if (match) counts.set(match[1], (counts.get(match[1]) ?? 0) + Number(match[2]));
    }
  }
  return counts;
}

interface Cost {
  sql: string[];
  redis: Record<string, number>;
  /** How many measurements a periodic refresh fell into before this one. */
  again?: number;
}

async function measure(ports: number[], fn: () => Promise<unknown>): Promise<Cost> {
  const before = await commandCounts(ports);
  const sql = await sqlSentDuring(async () => {
    await fn();
    await sleep(SETTLE_MS);
  });
  const after = await commandCounts(ports);
  const redis: Record<string, number> = {};
  for (const [name, calls] of after) {
    if (HOUSEKEEPING.includes(name)) continue;
    const delta = calls - (before.get(name) ?? 0);
    if (delta > 0) redis[name] = delta;
  }
  return { sql, redis };
}

/** Makes what one request needs (a user, a token, a code) and answers the request itself, to be measured. */
type Step = () => Promise<() => Promise<unknown>>;

/** The request once unmeasured (a warm instance), then measured; again when a periodic refresh fell into it. */
async function cost(ports: number[], step: Step): Promise<Cost> {
  await (await step())();
  await sleep(SETTLE_MS);
  let counted = await measure(ports, await step());
  for (let again = 1; again < 3 && counted.sql.some((sql) => PERIODIC.some((periodic) => periodic.test(sql))); again++) {
    counted = { ...(await measure(ports, await step())), again };
  }
  return counted;
}

const total = (c: Cost) => Object.values(c.redis).reduce((sum, n) => sum + n, 0);
const verbs = (sql: string[]) => sql.map((s) => s.trim().split(/\s+/)[0].toUpperCase()).join(' ');

let clients = 0;
/** A client address no request has come from yet. */
const client = () => {
  clients += 1;
  return `10.${200 + (clients >> 16)}.${(clients >> 8) & 255}.${clients & 255}`;
};
const ok = (status: number) => (res: { status: number; body: unknown }) => assert.equal(res.status, status, JSON.stringify(res.body));

for (const topology of ['one Redis server', 'a Redis Cluster'] as const) {
  describe(`What a request costs, with ${topology} (database statements, Redis commands)`, function () {
    this.timeout(300_000);
    let single: PrivateRedis | undefined;
    let cluster: RedisCluster | undefined;
    let store: RedisStore;
    let sink: SmtpSink;
    let app: Express;
    let eddsa: Express;
    let ports: number[] = [];
    let admin: { Authorization: string };
    let adminCookie: string;

    const from = (test: Test) => test.set('X-Forwarded-For', client());
    const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
    const signIn = (email: string) => from(request(app).post('/auth/login')).send({ email, password: PASSWORD }).expect(ok(200));
    const tokenOf = async (email: string) => (await signIn(email)).body.token as string;
    const newUser = () => makeUser({ email: uniqueEmail('cost') });
    const me = (headers: Record<string, string>) => request(app).get('/auth/me').set(headers).expect(ok(200));
    /** A new user's token whose check is cached already (as after a client's first /auth/me): rows show the route's own cost. */
    const checkedToken = async (email?: string) => {
      const token = await tokenOf(email ?? (await newUser()).email);
      await me(bearer(token));
      return token;
    };

    /** A user with TOTP on (enrolled through the API), and its secret. */
    async function totpUser(): Promise<{ email: string; secret: string }> {
      const { email } = await newUser();
      await awayFromStepEnd();
      const { secret } = await enrolTotp(app, await tokenOf(email));
      return { email, secret };
    }

    /** Asks for a mail (OTP code or sign-in link) and waits for it: the request's work ends when the mail is sent. */
    async function mailed(path: string, email: string): Promise<SinkMessage> {
      const before = sink.messages.length;
      await from(request(app).post(path)).send({ email }).expect(ok(200));
      return sink.waitFor((m) => m.envelope.to.includes(email) && sink.messages.indexOf(m) >= before);
    }

    /**
     * Resolves once every mail recorded so far was attempted (its outbox row updated): a notice that a step's
     * preparation sends (a new API key's) must not land in the step's own count.
     */
    async function mailSettled(): Promise<void> {
      for (let tries = 0; tries < 100 && (await ctx().models.OutboxEntry.count({ where: { kind: 'mail', attempts: 0 } })) > 0; tries++) await sleep(50);
    }

    async function newApiKey(): Promise<string> {
      const { email } = await newUser();
      const res = await request(app).post('/auth/api-keys').set(bearer(await tokenOf(email))).send({ name: 'cost' }).expect(ok(201));
      await sink.waitFor((m) => m.envelope.to.includes(email));
      await mailSettled();
      return res.body.key as string;
    }

    before(async () => {
      let url: string;
      if (topology === 'one Redis server') {
        single = await startRedis();
        ports = [single.port];
        url = single.url;
      } else {
        cluster = await startRedisCluster();
        // The masters only: a replica applying the replication stream counts those writes again.
        const masters = await Promise.all(cluster.servers.map(async ({ port }) => ((await redisCli(port, 'role')).startsWith('master') ? port : 0)));
        ports = masters.filter(Boolean);
        url = `redis+cluster://${cluster.nodes}`;
      }
      store = new RedisStore(url, { keyPrefix: `cost${crypto.randomBytes(3).toString('hex')}:` });
      await store.connect();
      sink = await startSmtpSink();
      const c = ctx();
      const env = { ...c.env, TRUST_PROXY: 'loopback', SMTP_URL: sink.url, EMAIL_FROM: 'auth@example.test', EXTERNAL_AUTH_SECRET };
      const deps = { logger: c.logger, sequelize: c.sequelize, models: c.models, store };
      app = createApp({ config: loadConfig(env), ...deps });
      eddsa = createApp({ config: loadConfig({ ...env, JWT_ALGORITHM: 'EdDSA' }), ...deps });
      const { email } = await makeUser({ role: 'admin', email: uniqueEmail('cost-admin') });
      const signedIn = await signIn(email);
      admin = bearer(signedIn.body.token as string);
      adminCookie = cookieHeader(signedIn);
      await configureOtp(app, admin);
    });

    after(async () => {
      await sink?.stop();
      await store?.close();
      if (single) await killRedis(single);
      await cluster?.stop();
    });

    it('when each main route is requested on a warm instance, then each costs what the table in docs/benchmarks.md says', async () => {
      const steps: Record<string, Step> = {
        'POST /auth/register': async () => {
          const email = uniqueEmail('cost-new');
          return () => from(request(app).post('/auth/register')).send({ email, password: PASSWORD }).expect(ok(201));
        },
        'POST /auth/login': async () => {
          const { email } = await newUser();
          return () => signIn(email);
        },
        'POST /auth/login (TOTP on)': async () => {
          const { email } = await totpUser();
          return async () => assert.equal((await signIn(email)).body.twoFactorRequired, true);
        },
        'POST /auth/2fa/verify': async () => {
          const { email, secret } = await totpUser();
          const { challenge } = (await signIn(email)).body as { challenge: string };
          return () => from(request(app).post('/auth/2fa/verify')).send({ challenge, code: codeFor(secret, 1) }).expect(ok(200));
        },
        'GET /auth/me (uncached)': async () => {
          const token = await tokenOf((await newUser()).email);
          return () => me(bearer(token));
        },
        'GET /auth/me (cached)': async () => {
          const token = await tokenOf((await newUser()).email);
          await me(bearer(token));
          return () => me(bearer(token));
        },
        'GET /auth/me, API key (uncached)': async () => {
          const key = await newApiKey();
          return () => me({ 'X-API-Key': key });
        },
        'GET /auth/me, API key (cached)': async () => {
          const key = await newApiKey();
          await me({ 'X-API-Key': key });
          return () => me({ 'X-API-Key': key });
        },
        'POST /auth/refresh': async () => {
          const token = await checkedToken();
          return () => from(request(app).post('/auth/refresh')).set(bearer(token)).expect(ok(200));
        },
        'POST /auth/logout': async () => {
          const token = await checkedToken();
          return () => request(app).post('/auth/logout').set(bearer(token)).expect(ok(200));
        },
        'GET /auth/sessions': async () => {
          const token = await checkedToken();
          return () => request(app).get('/auth/sessions').set(bearer(token)).expect(ok(200));
        },
        'DELETE /auth/sessions/:id': async () => {
          const { email } = await newUser();
          const [token, other] = [await checkedToken(email), await tokenOf(email)];
          return () => request(app).delete(`/auth/sessions/${payloadOf(other).sid as string}`).set(bearer(token)).expect(ok(204));
        },
        'GET /api/users (a page)': async () => () => request(app).get('/api/users').set(admin).expect(ok(200)),
        'GET /api/users?q= (search)': async () => () => request(app).get('/api/users?q=cost-adm').set(admin).expect(ok(200)),
        'DELETE /api/users/:id/sessions/:sid': async () => {
          const user = await newUser();
          const sid = payloadOf(await tokenOf(user.email)).sid as string;
          return () => request(app).delete(`/api/users/${user.id}/sessions/${sid}`).set(admin).expect(ok(204));
        },
        'GET /admin/users (page, cookie)': async () => () => request(app).get('/admin/users').set('Cookie', adminCookie).set('Accept', 'text/html').expect(ok(200)),
        'POST /auth/otp/request': async () => {
          const { email } = await newUser();
          return () => mailed('/auth/otp/request', email);
        },
        'POST /auth/otp/verify': async () => {
          const { email } = await newUser();
          const code = otpCodeFrom(await mailed('/auth/otp/request', email));
          return () => from(request(app).post('/auth/otp/verify')).send({ email, code }).expect(ok(200));
        },
        'POST /auth/sign-in/magic-link': async () => {
          const { email } = await newUser();
          return () => mailed('/auth/sign-in/magic-link', email);
        },
        'GET /auth/magic-link/verify': async () => {
          const link = linkFrom(await mailed('/auth/sign-in/magic-link', (await newUser()).email));
          return () => from(request(app).get(`${link.pathname}${link.search}`)).set('Accept', 'text/html').expect(ok(302));
        },
        'GET /.well-known/jwks.json (HS256)': async () => () => request(app).get('/.well-known/jwks.json').expect(ok(200)),
        'GET /.well-known/jwks.json (EdDSA)': async () => () => request(eddsa).get('/.well-known/jwks.json').expect(ok(200)),
      };

      const rows: Record<string, Cost> = {};
      for (const [label, step] of Object.entries(steps)) rows[label] = await cost(ports, step);
      process.stdout.write(`\n      ${topology} (${ctx().dialect}):\n`);
      for (const [label, c] of Object.entries(rows)) {
        process.stdout.write(`      ${label.padEnd(36)} SQL ${String(c.sql.length).padStart(2)} [${verbs(c.sql)}]  Redis ${String(total(c)).padStart(2)} ${JSON.stringify(c.redis)}${c.again ? ` (measured ${c.again + 1} times)` : ''}\n`);
      }
      // COSTS_SQL=1: every statement too, to say in the table what each one is.
      if (process.env.COSTS_SQL) for (const [label, c] of Object.entries(rows)) process.stdout.write(`\n${label}\n  ${c.sql.join('\n  ')}\n`);

      // The hot path: a cached token check is one store round trip, and reads neither the user nor revocations
      // from the database (what /auth/me itself adds to its answer is the route's, not the check's).
      const checkReads = (c: Cost) => c.sql.filter((sql) => /FROM\s+`?(users|revoked_tokens)`?\b/i.test(sql));
      const meCached = rows['GET /auth/me (cached)'];
      assert.deepEqual(checkReads(meCached), [], 'a cached token check sends no SQL');
      if (topology === 'one Redis server') assert.deepEqual(meCached.redis, { mget: 1 }, 'one MGET');
      else assert.deepEqual(meCached.redis, { get: 5 }, 'five GETs, pipelined per master');
      const meUncached = rows['GET /auth/me (uncached)'];
      assert.equal(checkReads(meUncached).length, 1, `an uncached token check reads the user once: ${meUncached.sql.join(' | ')}`);
      // A known API key is checked from the store too: its cached facts and its rate counter, no SQL.
      const keyCached = rows['GET /auth/me, API key (cached)'];
      assert.deepEqual(keyCached.sql, [], 'a cached API key check sends no SQL');
      assert.ok(total(keyCached) <= (topology === 'one Redis server' ? 4 : 8), JSON.stringify(keyCached.redis));
      // A sign-in at 1,000 a second: one read of the user, the session, activity and rollup rows, and about a dozen
      // commands (the per-address limit's script; reserve, then judge: the account's attempt taken by one script
      // before the hash, and cleared by a SET and a DEL after a right password).
      const login = rows['POST /auth/login'];
      // The address's domain in sso_domains (CONTRACT 15: an enforced domain refuses passwords; one primary-key read),
      // the user, then the session row, the activity row and its hourly rollup (one upsert: the dashboard reads no
      // activity rows), the three in one commit (issue 51).
      assert.equal(verbs(login.sql), 'SELECT SELECT BEGIN INSERT INSERT INSERT COMMIT', login.sql.join(' | '));
      // One GET more since webhooks (CONTRACT 16): the subscription set's version, so a session.created event is
      // written only when an endpoint listens (none here: no outbox row).
      assert.ok(total(login) <= (topology === 'one Redis server' ? 14 : 15), JSON.stringify(login.redis));
      // The user and the session read; the superseded token's reuse window (written where absent, never moved), the
      // session row, the activity row and its hourly rollup in one commit (issue 51); the window read back, so the
      // store is given the first one should it have lost it.
      const refresh = rows['POST /auth/refresh'];
      assert.equal(verbs(refresh.sql), 'SELECT SELECT BEGIN INSERT UPDATE INSERT INSERT COMMIT SELECT', refresh.sql.join(' | '));
      // Other services fetch the JWKS: it is served from memory, after a read of each key set's version in the store
      // (the OpenID Provider's keys always; the service's own key ring with an asymmetric JWT_ALGORITHM).
      for (const [label, versions] of [['GET /.well-known/jwks.json (HS256)', 1], ['GET /.well-known/jwks.json (EdDSA)', 2]] as const) {
        assert.deepEqual(rows[label].sql, [], label);
        assert.ok(total(rows[label]) <= versions, `${label}: ${JSON.stringify(rows[label].redis)}`);
      }
    });
  });
}
