'use strict';
/*
 * Soak with a ledger (not a test): `npm run soak` (builds first) or `node bench/soak.js` after `npm run build`.
 *
 * Starts the built server (node dist/server.js, NODE_ENV=production) on a scratch MariaDB/MySQL database of
 * its own and a private redis-server, with a loopback SMTP sink as its mail service, then drives mixed
 * traffic for SOAK_SECONDS: registration, password sign-in, sign-in with an emailed one-time code (read from
 * the sink), magic links (when the build has them: `POST /auth/sign-in/magic-link`, the link from the sink), refresh, /auth/me, profile updates, admin changes (names,
 * roles) and logouts. Every write the service acknowledges goes into a ledger; at the end the ledger is
 * checked against the database. It fails (exit 1) on any 5xx, any unexpected answer, any acknowledged write
 * missing from the database, or RSS growth of 10 % or more between the end of the warm-up and the end.
 *
 * Each worker owns its users, so their writes are ordered and the ledger knows the last value of each.
 * Clients come from many addresses (TRUST_PROXY=loopback + X-Forwarded-For), so per-IP limits stay in force
 * and out of the way.
 *
 * Environment: SOAK_SECONDS (default 600), SOAK_CONCURRENCY (default 4), SOAK_ITERATIONS (PBKDF2, default
 * 10000: the soak looks for leaks and lost writes, not for the hashing ceiling), SOAK_DATABASE_URL (a MySQL
 * server, default mysql://root@127.0.0.1:3306; a database auth_soak_<random> is created and dropped),
 * SOAK_REDIS_URL (default: a private redis-server on a spare port), SOAK_KEEP_DB=1 (keep the database).
 * Prints a report and writes bench/soak-results.json.
 */
require('tsx/cjs'); // the SMTP sink is the test suite's (TypeScript)
const { spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const mysql = require('mysql2/promise');
const { startSmtpSink } = require('../test/support/smtp-sink.ts');

const ROOT = path.resolve(__dirname, '..');
const SECONDS = Number(process.env.SOAK_SECONDS || 600);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY || 4);
const ITERATIONS = Number(process.env.SOAK_ITERATIONS || 10000);
const WARMUP_MS = Math.min(60_000, SECONDS * 200);
const RSS_WINDOW_MS = Math.min(30_000, SECONDS * 100);
const PASSWORD = 'soak lantern gravel 9 meadow';
const children = [];

const log = (line) => process.stderr.write(`${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function sparePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let addressCounter = 0;
function nextAddress() {
  addressCounter += 1;
  const n = addressCounter;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

function jtiOf(token) {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).jti;
}

function rssKb(pid) {
  try {
    const match = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : NaN;
  } catch {
    return NaN;
  }
}

async function startRedis() {
  if (process.env.SOAK_REDIS_URL) return process.env.SOAK_REDIS_URL;
  if (spawnSync('redis-server', ['--version']).status !== 0) throw new Error('redis-server is not installed: set SOAK_REDIS_URL');
  const port = await sparePort();
  children.push(spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' }));
  await sleep(300);
  return `redis://127.0.0.1:${port}`;
}

async function scratchDatabase() {
  const server = new URL(process.env.SOAK_DATABASE_URL || 'mysql://root@127.0.0.1:3306');
  const name = `auth_soak_${crypto.randomBytes(4).toString('hex')}`;
  const admin = await mysql.createConnection({
    host: server.hostname,
    port: Number(server.port || 3306),
    user: decodeURIComponent(server.username),
    password: decodeURIComponent(server.password),
  });
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  server.pathname = `/${name}`;
  return { url: server.toString(), name, admin };
}

async function waitForHealth(url, child) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error('server did not become healthy');
}

// --- traffic ---------------------------------------------------------------------------------------------

const stats = new Map(); // action -> { count, latencies[], statuses{} }
const problems = [];
let fiveXx = 0;

async function call(base, action, method, route, { token, body, expect }) {
  const headers = { Accept: 'application/json', 'X-Forwarded-For': nextAddress() };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const started = performance.now();
  let status = 0;
  let json = {};
  try {
    const res = await fetch(base + route, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
    status = res.status;
    json = await res.json().catch(() => ({}));
  } catch (err) {
    json = { error: err.message };
  }
  const ms = performance.now() - started;
  const entry = stats.get(action) ?? { count: 0, latencies: [], statuses: {} };
  stats.set(action, entry);
  entry.count += 1;
  entry.latencies.push(ms);
  entry.statuses[status] = (entry.statuses[status] ?? 0) + 1;
  if (status >= 500) fiveXx += 1;
  if (status !== expect && problems.length < 50) problems.push(`${action}: ${status} ${JSON.stringify(json).slice(0, 200)}`);
  return { ok: status === expect, status, body: json };
}

/** The ledger: every acknowledged write, by user (last values) and the revoked token ids. */
const ledger = { users: new Map(), revoked: [], logins: new Map() };
let magicLinks = false;

function pick(list) {
  return list[crypto.randomInt(list.length)];
}

const WEIGHTS = [
  ['register', 1],
  ['login', 3],
  ['otp', 1],
  ['magic', 1],
  ['refresh', 2],
  ['me', 4],
  ['profile', 2],
  ['adminName', 1],
  ['adminRole', 0.3],
  ['logout', 0.5],
];
const TOTAL_WEIGHT = WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0);
function nextAction() {
  let roll = Math.random() * TOTAL_WEIGHT;
  for (const [name, weight] of WEIGHTS) {
    roll -= weight;
    if (roll < 0) return name;
  }
  return 'me';
}

function recordSignIn(user, token) {
  user.token = token;
  ledger.logins.set(user.id, (ledger.logins.get(user.id) ?? 0) + 1);
}

async function worker(base, admin, sink, until, index) {
  const mine = [];
  let serial = 0;
  while (Date.now() < until) {
    serial += 1;
    const action = mine.length < 2 ? 'register' : nextAction();
    const user = mine.length > 0 ? pick(mine) : null;
    if (action === 'register') {
      const email = `soak-${index}-${serial}-${crypto.randomBytes(3).toString('hex')}@example.test`;
      const res = await call(base, action, 'POST', '/auth/register', { body: { email, password: PASSWORD }, expect: 201 });
      if (res.ok) {
        const created = { id: res.body.user.id, email, token: res.body.token, firstName: null, bio: null, role: res.body.user.role };
        mine.push(created);
        ledger.users.set(created.id, created);
      }
    } else if (action === 'login' || !user.token) {
      const res = await call(base, 'login', 'POST', '/auth/login', { body: { email: user.email, password: PASSWORD }, expect: 200 });
      if (res.ok) recordSignIn(user, res.body.token);
    } else if (action === 'otp') {
      const requested = await call(base, action, 'POST', '/auth/otp/request', { body: { email: user.email }, expect: 200 });
      if (!requested.ok) continue;
      const mail = await sink.waitFor((m) => m.envelope.to.includes(user.email) && m.subject === 'Your login code', 15_000).catch(() => null);
      if (!mail) {
        problems.push(`otp: no mail for a requested code`);
        continue;
      }
      sink.messages.splice(sink.messages.indexOf(mail), 1);
      const code = /Your login code: (\d+)/.exec(mail.text)[1];
      const res = await call(base, 'otp-verify', 'POST', '/auth/otp/verify', { body: { email: user.email, code }, expect: 200 });
      if (res.ok) recordSignIn(user, res.body.token);
    } else if (action === 'magic') {
      if (!magicLinks) continue;
      await magicSignIn(base, sink, user);
    } else if (action === 'refresh') {
      const res = await call(base, action, 'POST', '/auth/refresh', { token: user.token, expect: 200 });
      if (res.ok) user.token = res.body.token;
    } else if (action === 'me') {
      const res = await call(base, action, 'GET', '/auth/me', { token: user.token, expect: 200 });
      // Read-your-writes: the answer shows the last acknowledged name and role.
      if (res.ok && (res.body.user.firstName !== user.firstName || res.body.user.role !== user.role)) {
        problems.push(`me: stale user (${res.body.user.firstName}/${res.body.user.role}, expected ${user.firstName}/${user.role})`);
      }
    } else if (action === 'profile') {
      const bio = `bio ${index}-${serial}`;
      const res = await call(base, action, 'PUT', `/api/user-profiles/${user.id}`, { token: user.token, body: { profile: { bio } }, expect: 200 });
      if (res.ok) user.bio = bio;
    } else if (action === 'adminName') {
      const firstName = `N${index}x${serial}`;
      const res = await call(base, action, 'PATCH', `/api/users/${user.id}`, { token: admin, body: { firstName }, expect: 200 });
      if (res.ok) user.firstName = firstName;
    } else if (action === 'adminRole') {
      const role = user.role === 'viewer' ? 'author' : 'viewer';
      const res = await call(base, action, 'PATCH', `/api/users/${user.id}`, { token: admin, body: { role }, expect: 200 });
      if (res.ok) {
        user.role = role;
        user.token = null; // a role change ends the user's tokens
      }
    } else if (action === 'logout') {
      const token = user.token;
      const res = await call(base, action, 'POST', '/auth/logout', { token, expect: 200 });
      if (res.ok) {
        ledger.revoked.push(jtiOf(token));
        user.token = null;
        const after = await call(base, 'me-after-logout', 'GET', '/auth/me', { token, expect: 401 });
        if (!after.ok) problems.push('a logged-out token still worked');
      }
    }
  }
}

/** Magic links (when the service has them): request, read the link from the sink, follow it, then /auth/me with the session. */
async function magicSignIn(base, sink, user) {
  // At most 3 links per email in 15 minutes (the service's own limit): beyond that, another method this turn.
  user.magicAt = (user.magicAt ?? []).filter((at) => Date.now() - at < 15 * 60_000);
  if (user.magicAt.length >= 3) return;
  user.magicAt.push(Date.now());
  const requested = await call(base, 'magic', 'POST', '/auth/sign-in/magic-link', { body: { email: user.email }, expect: 200 });
  if (!requested.ok) return;
  const mail = await sink.waitFor((m) => m.envelope.to.includes(user.email) && /https?:\/\/\S+/.test(m.text) && !/login code/.test(m.subject), 15_000).catch(() => null);
  if (!mail) {
    problems.push('magic: no mail for a requested link');
    return;
  }
  sink.messages.splice(sink.messages.indexOf(mail), 1);
  const link = /https?:\/\/\S+/.exec(mail.text)[0];
  const started = performance.now();
  const res = await fetch(new URL(new URL(link).pathname + new URL(link).search, base), { redirect: 'manual', headers: { 'X-Forwarded-For': nextAddress() } });
  const entry = stats.get('magic-follow') ?? { count: 0, latencies: [], statuses: {} };
  stats.set('magic-follow', entry);
  entry.count += 1;
  entry.latencies.push(performance.now() - started);
  entry.statuses[res.status] = (entry.statuses[res.status] ?? 0) + 1;
  if (res.status >= 500) fiveXx += 1;
  if (res.status >= 400) problems.push(`magic-follow: ${res.status}`);
  else {
    const token = /auth_token=([^;]+)/.exec(res.headers.getSetCookie().join('\n'));
    if (token) recordSignIn(user, decodeURIComponent(token[1]));
    else problems.push('magic-follow: no auth_token cookie');
  }
}

// --- the ledger against the database ---------------------------------------------------------------------

async function checkLedger(db) {
  const missing = [];
  const users = [...ledger.users.values()];
  const ids = users.map((user) => user.id);
  const [rows] = await db.query('SELECT u.id, u.email, u.first_name, u.role, p.bio FROM users u LEFT JOIN user_profiles p ON p.user_id = u.id WHERE u.id IN (?)', [ids]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const user of users) {
    const row = byId.get(user.id);
    if (!row) missing.push(`user ${user.id} (registered, acknowledged) is not in the database`);
    else {
      if (row.email !== user.email) missing.push(`user ${user.id}: email ${row.email}`);
      if (row.first_name !== user.firstName) missing.push(`user ${user.id}: first name ${row.first_name}, acknowledged ${user.firstName}`);
      if (row.role !== user.role) missing.push(`user ${user.id}: role ${row.role}, acknowledged ${user.role}`);
      if (row.bio !== user.bio) missing.push(`user ${user.id}: bio ${row.bio}, acknowledged ${user.bio}`);
    }
  }
  if (ledger.revoked.length > 0) {
    const [revoked] = await db.query('SELECT jti FROM revoked_tokens WHERE jti IN (?)', [ledger.revoked]);
    const found = new Set(revoked.map((row) => row.jti));
    for (const jti of ledger.revoked) if (!found.has(jti)) missing.push(`revocation ${jti} is not in the database`);
  }
  const [signIns] = await db.query(
    "SELECT user_id, COUNT(*) AS n FROM activity_logs WHERE action IN ('auth.login', 'auth.otp_verified', 'auth.register', 'auth.magic_link_used') GROUP BY user_id",
  );
  const signInRows = new Map(signIns.map((row) => [row.user_id, Number(row.n)]));
  for (const [id, count] of ledger.logins) {
    if ((signInRows.get(id) ?? 0) < count) missing.push(`user ${id}: ${count} sign-ins acknowledged, ${signInRows.get(id) ?? 0} recorded`);
  }
  return { users: users.length, revocations: ledger.revoked.length, signIns: [...ledger.logins.values()].reduce((a, b) => a + b, 0), missing };
}

function percentile(sorted, p) {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const mean = (values) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

async function main() {
  log(`soak: ${SECONDS} s, ${CONCURRENCY} workers, PBKDF2 ${ITERATIONS}, ${os.availableParallelism()} cores, load average ${os.loadavg()[0].toFixed(1)}`);
  const redisUrl = await startRedis();
  const database = await scratchDatabase();
  const sink = await startSmtpSink();
  const port = await sparePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-soak-'));
  const server = spawn(process.execPath, [path.join(ROOT, 'dist', 'server.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: base,
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      JWT_SECRET: crypto.randomBytes(32).toString('hex'),
      EXTERNAL_AUTH_SECRET: crypto.randomBytes(16).toString('hex'),
      PASSWORD_PBKDF2_ITERATIONS: String(ITERATIONS),
      SMTP_URL: sink.url,
      EMAIL_FROM: 'soak@example.test',
      TRUST_PROXY: 'loopback',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(server);
  let failed = false;
  try {
    await waitForHealth(base, server);
    const first = await call(base, 'setup', 'POST', '/auth/register', { body: { email: 'soak-admin@example.test', password: PASSWORD }, expect: 201 });
    const admin = first.body.token;
    await call(base, 'setup', 'PUT', '/api/plugins/otp-login', { token: admin, body: { active: true, settings: { rateLimitPerHour: 1000 } }, expect: 200 });
    // Magic links need no toggle (EXTERNAL_AUTH_SECRET and mail are set): an invalid email is 400 where the route exists.
    const probe = await fetch(`${base}/auth/sign-in/magic-link`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"email":"x"}' });
    magicLinks = probe.status === 400;
    log(`magic links: ${magicLinks ? 'on' : 'not in this build'}`);

    const started = Date.now();
    const until = started + SECONDS * 1000;
    const rss = [];
    const sampler = setInterval(() => rss.push({ at: Date.now() - started, kb: rssKb(server.pid) }), 5000);
    const progress = setInterval(() => {
      const total = [...stats.values()].reduce((sum, entry) => sum + entry.count, 0);
      log(`  ${Math.round((Date.now() - started) / 1000)} s: ${total} requests, ${fiveXx} 5xx, ${problems.length} problems, RSS ${rssKb(server.pid)} kB`);
    }, 60_000);
    await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => worker(base, admin, sink, until, i)));
    clearInterval(sampler);
    clearInterval(progress);
    const elapsed = (Date.now() - started) / 1000;

    const db = await mysql.createConnection(database.url);
    const ledgerResult = await checkLedger(db);
    await db.end();

    const baseline = mean(rss.filter((s) => s.at >= WARMUP_MS && s.at < WARMUP_MS + RSS_WINDOW_MS).map((s) => s.kb));
    const final = mean(rss.filter((s) => s.at >= elapsed * 1000 - RSS_WINDOW_MS).map((s) => s.kb));
    const growth = (final - baseline) / baseline;
    const actions = Object.fromEntries(
      [...stats.entries()].map(([name, entry]) => {
        const sorted = [...entry.latencies].sort((a, b) => a - b);
        return [name, { count: entry.count, statuses: entry.statuses, p50: Math.round(percentile(sorted, 50)), p99: Math.round(percentile(sorted, 99)) }];
      }),
    );
    const total = [...stats.values()].reduce((sum, entry) => sum + entry.count, 0);
    const result = {
      date: new Date().toISOString(),
      seconds: Math.round(elapsed),
      concurrency: CONCURRENCY,
      pbkdf2Iterations: ITERATIONS,
      cores: os.availableParallelism(),
      loadAverageAtEnd: Number(os.loadavg()[0].toFixed(1)),
      requests: total,
      requestsPerSecond: Math.round(total / elapsed),
      fiveXx,
      problems,
      ledger: ledgerResult,
      rssKb: { baseline: Math.round(baseline), final: Math.round(final), max: Math.max(...rss.map((s) => s.kb)), growthPercent: Number((growth * 100).toFixed(1)) },
      actions,
    };
    fs.writeFileSync(path.join(__dirname, 'soak-results.json'), `${JSON.stringify(result, null, 2)}\n`);

    log('');
    log(`action            count   p50 ms   p99 ms   statuses`);
    for (const [name, entry] of Object.entries(actions)) {
      log(`${name.padEnd(16)} ${String(entry.count).padStart(6)} ${String(entry.p50).padStart(8)} ${String(entry.p99).padStart(8)}   ${JSON.stringify(entry.statuses)}`);
    }
    log('');
    log(`${total} requests in ${result.seconds} s (${result.requestsPerSecond}/s), ${fiveXx} 5xx, ${problems.length} unexpected answers`);
    log(`ledger: ${ledgerResult.users} users, ${ledgerResult.signIns} sign-ins, ${ledgerResult.revocations} revocations acknowledged; ${ledgerResult.missing.length} missing from the database`);
    log(`RSS: ${result.rssKb.baseline} kB after warm-up, ${result.rssKb.final} kB at the end (${result.rssKb.growthPercent} %), max ${result.rssKb.max} kB`);
    for (const line of [...problems, ...ledgerResult.missing].slice(0, 20)) log(`  ! ${line}`);
    failed = fiveXx > 0 || problems.length > 0 || ledgerResult.missing.length > 0 || !(growth < 0.1);
    log(failed ? 'SOAK FAILED' : 'soak passed');
  } finally {
    for (const child of children.reverse()) {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
    }
    await sink.stop();
    if (!process.env.SOAK_KEEP_DB) await database.admin.query(`DROP DATABASE IF EXISTS \`${database.name}\``);
    await database.admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  log(`soak failed to run: ${err.stack || err.message}`);
  for (const child of children) child.kill('SIGKILL');
  process.exit(1);
});
