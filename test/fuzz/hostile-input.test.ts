import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fc from 'fast-check';
import pino from 'pino';
import type { Sequelize } from 'sequelize';
import { ctx, uniqueEmail } from '../support/context';
import { startService, type ServiceProcess } from '../support/service-process';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { listRoutes } from '../support/routes';
import { signRaw } from '../support/auth';
import { createSequelize } from '../../src/db/sequelize';
import { OIDC_ROUTES } from '../../src/services/oidc-provider/provider-paths';
import { caseArbitrary, describeCase, sendRaw, type FuzzCredentials, type LiveTokens, type RouteTarget } from './hostile-input';

/** `npm test` runs about a thousand cases; `npm run fuzz` sets FUZZ_RUNS=10000. FUZZ_SEED replays a run. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() ^ crypto.randomInt(1 << 30);
const PASSWORD = 'fuzzing password 1';

/**
 * The OpenID Provider answers its paths inside one mount (CONTRACT 14), so the app's route list does not show
 * them: named here from its route table, with the parameters its endpoints read (bad input: a 4xx, never a 5xx).
 */
const OIDC_AUTHORIZE = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'nonce', 'prompt', 'max_age', 'code_challenge', 'code_challenge_method', 'response_mode', 'request', 'claims'];
const OIDC_TOKEN = ['grant_type', 'code', 'redirect_uri', 'code_verifier', 'refresh_token', 'scope', 'resource', 'client_id', 'client_secret'];
const OIDC_TARGETS: RouteTarget[] = [
  { method: 'GET', path: '/.well-known/openid-configuration', fields: [] },
  { method: 'GET', path: OIDC_ROUTES.authorization, fields: OIDC_AUTHORIZE },
  { method: 'POST', path: OIDC_ROUTES.authorization, fields: OIDC_AUTHORIZE },
  { method: 'POST', path: OIDC_ROUTES.token, fields: OIDC_TOKEN },
  { method: 'GET', path: OIDC_ROUTES.userinfo, fields: [] },
  { method: 'POST', path: OIDC_ROUTES.userinfo, fields: ['access_token'] },
  { method: 'POST', path: OIDC_ROUTES.introspection, fields: ['token', 'token_type_hint', 'client_id', 'client_secret'] },
  { method: 'POST', path: OIDC_ROUTES.revocation, fields: ['token', 'token_type_hint', 'client_id', 'client_secret'] },
  { method: 'GET', path: OIDC_ROUTES.end_session, fields: ['id_token_hint', 'post_logout_redirect_uri', 'state', 'client_id'] },
  { method: 'POST', path: `${OIDC_ROUTES.end_session}/confirm`, fields: ['xsrf', 'logout'] },
  { method: 'GET', path: `${OIDC_ROUTES.authorization}/:uid`, fields: [] },
];

interface Tally {
  byStatus: Map<number, number>;
  byRoute: Map<string, Map<number, number>>;
}

describe('hostile input, generated (the service as a child process)', function () {
  this.timeout(Math.max(300_000, RUNS * 200));
  let database: ScratchDatabase;
  let sink: SmtpSink;
  let service: ServiceProcess;
  let rows: Sequelize;

  before(async function () {
    this.timeout(120_000);
    database = await createScratchDatabase('fuzz');
    sink = await startSmtpSink();
    // Its own database: admin tokens in the cases may change settings and plugins, which other tests must not see.
    // Mail and magic links are configured, so no route answers "not configured" (a 503 by contract).
    service = await startService({
      DATABASE_URL: database.url,
      SMTP_URL: sink.url,
      EMAIL_FROM: 'fuzz@example.test',
      EXTERNAL_AUTH_SECRET: crypto.randomBytes(24).toString('hex'),
      TRUST_PROXY: 'loopback',
    });
    rows = createSequelize(database.url, pino({ level: 'silent' }));
  });

  after(async () => {
    await service?.stop();
    await rows?.close();
    await sink?.stop();
    await database?.drop();
  });

  async function post(path: string, body: unknown, token?: string) {
    const res = await fetch(`${service.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Forwarded-For': `10.9.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`,
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  }

  const accounts = { admin: uniqueEmail('fuzz-admin'), viewer: uniqueEmail('fuzz-viewer') };

  /** Working tokens for the admin and the viewer (again after a case signed them out or changed them). */
  async function liveTokens(): Promise<LiveTokens> {
    const admin = await post('/auth/login', { email: accounts.admin, password: PASSWORD });
    const viewer = await post('/auth/login', { email: accounts.viewer, password: PASSWORD });
    return { '@admin': admin.body.token ?? 'admin-signed-out', '@viewer': viewer.body.token ?? 'viewer-signed-out' };
  }

  /** Forged credentials: a revoked token, and tokens signed with the right key but wrong claims. */
  async function credentials(): Promise<FuzzCredentials> {
    const admin = await post('/auth/register', { email: accounts.admin, password: PASSWORD });
    const viewer = await post('/auth/register', { email: accounts.viewer, password: PASSWORD });
    const revoked = await post('/auth/register', { email: uniqueEmail('fuzz-revoked'), password: PASSWORD });
    assert.equal(admin.status, 201);
    assert.equal(admin.body.user.role, 'admin');
    assert.equal((await post('/auth/logout', {}, revoked.body.token)).status, 200);
    const secret = ctx().env.JWT_SECRET;
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: viewer.body.user.id, userId: viewer.body.user.id, email: viewer.body.user.email, role: 'admin', jti: crypto.randomUUID(), ep: 0, typ: 'access', iat: now, exp: now + 600 };
    const forged = [
      signRaw({ alg: 'HS256', typ: 'JWT' }, { ...claims, ep: 99 }, secret),
      signRaw({ alg: 'HS256', typ: 'JWT' }, { ...claims, sub: crypto.randomUUID(), userId: crypto.randomUUID() }, secret),
      signRaw({ alg: 'HS256', typ: 'JWT' }, { ...claims, typ: 'refresh' }, secret),
      signRaw({ alg: 'HS256', typ: 'JWT' }, { ...claims, exp: now - 10 }, secret),
      signRaw({ alg: 'HS256', typ: 'JWT' }, { ...claims, sub: { $ne: null }, exp: 1e308 }, secret),
      signRaw({ alg: 'HS512', typ: 'JWT' }, claims, secret, 'sha512'),
      `${(admin.body.token as string).slice(0, -3)}abc`,
    ];
    return {
      badTokens: [revoked.body.token, ...forged],
      ids: [viewer.body.user.id, revoked.body.user.id, crypto.randomUUID()],
    };
  }

  /** Body field names per route, from the service's own OpenAPI document. */
  async function routeTargets(): Promise<RouteTarget[]> {
    const doc = (await (await fetch(`${service.baseUrl}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } }>>;
    };
    const fieldsOf = (method: string, path: string): string[] => {
      const operation = doc.paths[path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')]?.[method.toLowerCase()];
      return Object.keys(operation?.requestBody?.content?.['application/json']?.schema?.properties ?? {});
    };
    // Every route the app mounts (pages and /admin included); the docs viewer only serves static files.
    const routes = listRoutes(ctx().app).filter((route) => !route.path.startsWith('/api/docs'));
    const known = [...routes.map((route) => ({ ...route, fields: fieldsOf(route.method, route.path) })), ...OIDC_TARGETS];
    const fields = [...new Set(known.flatMap((route) => route.fields))];
    // Form pages have no OpenAPI entry: they get every field name the API knows.
    return known.map((route) => (route.fields.length > 0 || route.method === 'GET' ? route : { ...route, fields }));
  }

  /**
   * Row counts of every table but the activity log (a refused sign-in is recorded there on purpose) and its hourly
   * rollup (the dashboard's counts of those same rows: a new hour or action adds one).
   */
  async function snapshot(): Promise<string> {
    const tables = (await rows.getQueryInterface().showAllTables()).map((t) => (typeof t === 'string' ? t : (t as { tableName: string }).tableName));
    const counted = tables.filter((t) => !['activity_logs', 'activity_rollups', 'SequelizeMeta'].includes(t)).sort();
    const [result] = await rows.query(`SELECT ${counted.map((t, i) => `(SELECT COUNT(*) FROM ${t}) AS c${i}`).join(', ')}`);
    return counted.map((t, i) => `${t}=${(result as Array<Record<string, number>>)[0][`c${i}`]}`).join(' ');
  }

  it(`when ${RUNS} generated hostile requests hit every route, then none answers 5xx, the process stays up, and refused requests write nothing`, async () => {
    const routes = await routeTargets();
    assert.ok(routes.some((r) => r.path.startsWith('/auth/')) && routes.some((r) => r.path.startsWith('/api/')));
    const creds = await credentials();
    let live = await liveTokens();
    const tally: Tally = { byStatus: new Map(), byRoute: new Map() };
    const started = Date.now();

    await fc.assert(
      fc.asyncProperty(caseArbitrary(routes, creds), async (fuzzCase) => {
        const before = await snapshot();
        const answer = await sendRaw(service.port, fuzzCase, live, [['X-Forwarded-For', `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`]]);
        const status = answer.status ?? 0;
        tally.byStatus.set(status, (tally.byStatus.get(status) ?? 0) + 1);
        const key = `${fuzzCase.route.method} ${fuzzCase.route.path}`;
        const perRoute = tally.byRoute.get(key) ?? new Map<number, number>();
        perRoute.set(status, (perRoute.get(status) ?? 0) + 1);
        tally.byRoute.set(key, perRoute);

        assert.equal(service.child.exitCode, null, 'the service process is still running');
        assert.ok(answer.status !== null, `no answer (${answer.problem}) to ${describeCase(fuzzCase)}`);
        assert.ok(status < 500, `${status} for ${describeCase(fuzzCase)}\n${JSON.stringify(service.logs.filter((l) => l.msg === 'unhandled error').slice(-1))}`);
        if (status >= 400) assert.equal(await snapshot(), before, `rows written by a refused request (${status}): ${describeCase(fuzzCase)}`);
        // Sign-outs, password and role changes end tokens: the next cases get fresh ones.
        if (status < 400 && fuzzCase.method !== 'GET') live = await liveTokens();
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );

    const health = await fetch(`${service.baseUrl}/health`);
    assert.equal(health.status, 200, 'the service still answers');
    if (process.env.FUZZ_REPORT || RUNS > 1000) {
      const statuses = [...tally.byStatus.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`).join(', ');
      const lines = [...tally.byRoute.entries()].map(([route, counts]) => `  ${route.padEnd(40)} ${[...counts.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ')}`);
      process.stdout.write(`\nFuzz report: ${RUNS} cases in ${((Date.now() - started) / 1000).toFixed(1)} s, seed ${SEED}\n  statuses: ${statuses}\n${lines.join('\n')}\n`);
    }
  });
});
