import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import mysql from 'mysql2/promise';
import { ctx, uniqueEmail } from '../support/context';
import { startService, type ServiceProcess } from '../support/service-process';
import { TcpProxy } from '../support/tcp-proxy';

interface Outcome {
  route: string;
  status: number;
  body: Record<string, unknown>;
  retryAfter: string | null;
  /** `before`: started and finished before the cut; `cut`: anything else until recovery; `after`: started after it. */
  phase: 'before' | 'cut' | 'after';
}

const PASSWORD = 'database loss test';

function randomIp(): string {
  return `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;
}

describe('database loss (the service as a child process, MariaDB through a TCP proxy)', function () {
  this.timeout(120_000);
  let admin: mysql.Connection;
  let database: string;
  let proxy: TcpProxy;
  let service: ServiceProcess;

  before(async function () {
    // The proxy stands between the service and a database server; SQLite is a file and has no link to cut.
    if (ctx().dialect !== 'mysql') this.skip();
    const server = new URL(process.env.DATABASE_URL as string);
    admin = await mysql.createConnection({
      host: server.hostname,
      port: Number(server.port || 3306),
      user: decodeURIComponent(server.username),
      password: decodeURIComponent(server.password),
    });
    database = `auth_dbloss_${crypto.randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    proxy = await new TcpProxy(server.hostname, Number(server.port || 3306)).listen();
    const through = new URL(server.toString());
    through.hostname = '127.0.0.1';
    through.port = String(proxy.port);
    through.pathname = `/${database}`;
    service = await startService({ DATABASE_URL: through.toString(), TRUST_PROXY: 'loopback' });
  });

  after(async () => {
    await service?.stop();
    await proxy?.close();
    if (admin) {
      await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
      await admin.end();
    }
  });

  async function call(route: string, method: string, path: string, options: { body?: unknown; token?: string } = {}) {
    const headers: Record<string, string> = { Accept: 'application/json', 'X-Forwarded-For': randomIp() };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    const res = await fetch(`${service.baseUrl}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await res.text();
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      body = { raw: text };
    }
    return { route, status: res.status, body, retryAfter: res.headers.get('retry-after') };
  }

  /** Registers a user; returns what the load needs to act as them. */
  async function registered(): Promise<{ id: string; email: string; token: string }> {
    const email = uniqueEmail('dbloss');
    const res = await call('register', 'POST', '/auth/register', { body: { email, password: PASSWORD } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return { id: (res.body.user as { id: string }).id, email, token: res.body.token as string };
  }

  it('when the link to MariaDB is cut under load, then requests needing it answer 503 with Retry-After, readiness names the database, and within 5 s of its return everything works again with nothing half-written', async () => {
    const first = await registered(); // the first user: admin
    const members = await Promise.all(Array.from({ length: 4 }, () => registered()));
    const pick = <T,>(items: T[]): T => items[crypto.randomInt(items.length)];
    const registrations: Array<{ email: string; status: number }> = [];
    // Each action with the status it answers when the database is there.
    const actions: Array<() => Promise<Omit<Outcome, 'phase'> & { ok: number }>> = [
      async () => ({ ...(await call('login', 'POST', '/auth/login', { body: { email: pick(members).email, password: PASSWORD } })), ok: 200 }),
      async () => ({ ...(await call('me', 'GET', '/auth/me', { token: pick(members).token })), ok: 200 }),
      async () => ({ ...(await call('refresh', 'POST', '/auth/refresh', { token: pick(members).token })), ok: 200 }),
      async () => {
        const email = uniqueEmail('dbloss-load');
        const res = await call('register', 'POST', '/auth/register', { body: { email, password: PASSWORD, firstName: 'Load' } });
        registrations.push({ email, status: res.status });
        return { ...res, ok: 201 };
      },
      async () => {
        const member = pick(members);
        const body = { profile: { bio: `bio ${crypto.randomUUID()}` } };
        return { ...(await call('profile', 'PUT', `/api/user-profiles/${member.id}`, { body, token: member.token })), ok: 200 };
      },
      async () => ({ ...(await call('users', 'GET', '/api/users?limit=5', { token: first.token })), ok: 200 }),
    ];

    const outcomes: Array<Outcome & { ok: number }> = [];
    let phase: Outcome['phase'] = 'before';
    let running = true;
    const worker = async () => {
      while (running) {
        const started = phase;
        const outcome = await pick(actions)();
        outcomes.push({ ...outcome, phase: started === 'before' && phase !== 'before' ? 'cut' : started });
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    await sleep(1500);
    phase = 'cut';
    proxy.cut();
    await sleep(1000);
    const ready = await call('ready', 'GET', '/health/ready');
    await sleep(1500);
    const restoredAt = Date.now();
    proxy.restore();
    // Recovery: the first moment every kind of request succeeds again.
    let recoveredAt: number | undefined;
    while (Date.now() - restoredAt < 15_000) {
      const probe = await Promise.all(actions.map((action) => action()));
      if (probe.every((res) => res.status === res.ok)) {
        recoveredAt = Date.now();
        phase = 'after';
        break;
      }
      await sleep(100);
    }
    await sleep(1500);
    running = false;
    await Promise.all(workers);

    assert.equal(ready.status, 503);
    assert.equal(ready.body.database, 'unavailable');
    assert.equal(ready.body.store, 'ok');
    assert.ok(ready.retryAfter);
    assert.ok(recoveredAt !== undefined, 'every route works again');
    assert.ok(recoveredAt - restoredAt <= 5000, `recovered ${recoveredAt - restoredAt} ms after the link came back`);

    const cut = outcomes.filter((o) => o.phase === 'cut');
    assert.ok(cut.filter((o) => o.status === 503).length >= 5, 'the cut was felt');
    const errors = service.logs.filter((l) => l.msg === 'unhandled error');
    for (const o of outcomes) {
      assert.ok(o.status !== 500, JSON.stringify(errors.slice(0, 3)));
      assert.ok(o.status === o.ok || o.status === 503, `${o.route} answered ${o.status} ${JSON.stringify(o.body)} (${o.phase})`);
      if (o.status === 503) {
        assert.deepEqual(o.body, { error: 'Service unavailable' });
        assert.match(o.retryAfter ?? '', /^[1-9]\d*$/);
      }
    }
    for (const o of outcomes.filter((x) => x.phase === 'before')) assert.equal(o.status, o.ok, `${o.route} before the cut`);
    const after = outcomes.filter((x) => x.phase === 'after');
    assert.ok(after.length > 0);
    for (const o of after) assert.equal(o.status, o.ok, `${o.route} after recovery`);

    // Nothing half-written: every user has their profile; every acknowledged registration exists.
    const [orphans] = await admin.query(
      `SELECT COUNT(*) AS n FROM \`${database}\`.users u LEFT JOIN \`${database}\`.user_profiles p ON p.user_id = u.id WHERE p.user_id IS NULL`,
    );
    assert.equal(Number((orphans as Array<{ n: number }>)[0].n), 0, 'users without a profile');
    const acknowledged = registrations.filter((r) => r.status === 201).map((r) => r.email);
    assert.ok(acknowledged.length > 0);
    const [rows] = await admin.query(`SELECT email FROM \`${database}\`.users WHERE email IN (?)`, [acknowledged]);
    assert.equal((rows as unknown[]).length, acknowledged.length, 'every acknowledged registration is stored');
  });
});
