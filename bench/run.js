'use strict';
/*
 * Benchmark (not a test): `npm run bench` (builds first) or `node bench/run.js` after `npm run build`.
 * Every target of issue 13 is a ratio or a bound measured in this one run; rounds alternate between the
 * service and its baseline so background load hits both alike, and each figure is the median of the
 * per-round figures (all printed). Steps (BENCH_ONLY=start,me,apikey,redis,memory,login,load,paths,miss,growth):
 *
 *   start   node dist/server.js → GET /health 200, migrations current (median of 3 starts)   ≤ 1 s
 *   me      GET /auth/me by Bearer and by auth_token cookie vs bare Express with the same JSON ≥ 1.0 / ≥ 1.0,
 *           server CPU per request vs bare Express's (from /proc/<pid>/stat)                   ≤ 1.7×
 *   apikey  GET /auth/me by API key (X-API-Key) and by Bearer token in the same rounds vs bare Express:
 *           (the key ÷ bare Express ≥ 0.90; the key ÷ Bearer in the same rounds is reported)
 *   redis   the same with REDIS_URL set (one MGET per request)                                 ≥ 0.90
 *   memory  RSS after 30 s idle, and peak while 50 connections call /auth/me (issue 34)      ≤ 90 / 150 MiB
 *   login   POST /auth/login per second vs the PBKDF2 ceiling (same iterations, every pool
 *           thread busy), access log on, activity row written, 5/min limit in force (reported), and
 *           vs bare-login-server.js (a bare passport-local login: Express, passport-local, one hash, a JWT)  ≥ 1.0
 *   load    p99 of GET /auth/me at 100 req/s while logins saturate the hashing pool           ≤ 25 ms
 *   me      … and by auth_session (a magic-link server session; mail caught by an SMTP listener here)   ≥ 0.90
 *   paths   reported only: POST /auth/refresh and the /admin/users page per second; OTP and magic-link verify timed one by one
 *   miss    reported only: per JWT_ALGORITHM (HS256, EdDSA, ES256, RS256), GET /auth/me with 200 tokens no request has
 *           verified yet against the same tokens again (p50 of each; the difference is one cache miss)
 *   growth  100,000 users on SQLite and 1,000,000 on MariaDB (when BENCH_MYSQL_URL answers), each with a
 *           session, bulk-inserted; then p99 at a steady low rate of login, /auth/me, the admin user list
 *           with a search, refresh, a user's session list and an admin ending sessions one by one  ≤ 50 ms
 *           (each path for BENCH_GROWTH_SECONDS, default 20, and long enough for GROWTH_SAMPLES: at
 *           4–20 req/s that is 200–400 samples, so the p99 is not simply the single slowest response, as it
 *           was with 6 s, and for login at 4/s with 80 samples); reported beside the login's: the same
 *           logins against bare-login-server.js (the host's hash latency without the service)
 *
 * Logins come from many client addresses (TRUST_PROXY=loopback + X-Forwarded-For, one address per
 * request), so the 5-per-minute login limit stays in force and out of the way: no bench-only knob.
 *
 * Environment: BENCH_SECONDS (default 6 per measurement), BENCH_ROUNDS (default 4), BENCH_ITERATIONS
 * (PBKDF2, default 100000 like production), BENCH_LOG_LEVEL (default info), BENCH_REDIS_URL (default
 * redis://127.0.0.1:6379/14; "none" skips), BENCH_MYSQL_URL (default mysql://root@127.0.0.1:3306; "none"
 * skips), BENCH_GROWTH_USERS (default 100000), BENCH_CPU_PROF=1 (.cpuprofile files of the servers into
 * bench/profiles/), BENCH_SKIP_BUILD=1, BENCH_ENV_<NAME>=value (passed to the servers). Prints a table and
 * writes bench/results.json.
 */
const { spawn, execSync, execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');

const ROOT = path.resolve(__dirname, '..');
const SECONDS = Number(process.env.BENCH_SECONDS || 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 4);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS || 100000);
const GROWTH_USERS = Number(process.env.BENCH_GROWTH_USERS || 100000);
// MariaDB is the production database: it grows to a million users, each with a session (issue 34).
const GROWTH_USERS_MYSQL = Number(process.env.BENCH_GROWTH_USERS_MYSQL || 1000000);
const GROWTH_PATHS = ['login', 'me', 'userSearch', 'userSearchRare', 'userList', 'adminUsersPage', 'refresh', 'sessionList', 'revocation'];
const GROWTH_SECONDS = Number(process.env.BENCH_GROWTH_SECONDS || 20);
// The p99 of n samples is the ceil(0.99 n)-th fastest: with fewer than 101 it is the slowest one.
const GROWTH_SAMPLES = 200;
const REDIS_URL = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379/14';
const MYSQL_URL = process.env.BENCH_MYSQL_URL || 'mysql://root@127.0.0.1:3306';
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',')) : null;
const CORES = os.availableParallelism();
// libuv runs crypto.pbkdf2 on its thread pool (4 threads by default): never fewer threads than cores.
const THREADPOOL = Math.max(4, CORES);
// Strong enough for the password-quality rule (zxcvbn score ≥ 2), like any real password.
const PASSWORD = 'bench staple orbit 7 kettle';
const MiB = 1024 * 1024;

const children = [];
const step = (name) => !ONLY || ONLY.has(name);
const log = (line) => process.stderr.write(`${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const fixed = (values, digits = 2) => values.map((v) => (Number.isFinite(v) ? v.toFixed(digits) : '–')).join(' / ');

async function sparePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForHealth(url, child, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  throw new Error(`server at ${url} did not become healthy`);
}

/**
 * The environment and node flags of package.json's start script (`NAME=value … exec node <flags> dist/server.js`):
 * the service is measured as operators run it, and both live in that one place.
 */
const SERVER_START = (() => {
  const start = require('../package.json').scripts.start;
  const match = /^((?:\w+=\S+\s+)*)exec\s+node\s+(.*?)\s*dist\/server\.js$/.exec(start);
  if (!match) throw new Error(`package.json's start script is not [NAME=value …] exec node … dist/server.js: ${start}`);
  const words = (text) => text.split(/\s+/).filter(Boolean);
  return { env: Object.fromEntries(words(match[1]).map((pair) => pair.split('='))), flags: words(match[2]) };
})();

function spawnNode(script, env, args = []) {
  const child = spawn(process.execPath, [...args, script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, UV_THREADPOOL_SIZE: String(THREADPOOL), ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  children.push(child);
  return child;
}

async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 12_000);
  await exited;
  clearTimeout(timer);
}

/** Starts node dist/server.js on a spare port; resolves once /health answers 200, with the time that took. */
async function startService(name, env, { baseHost = '127.0.0.1' } = {}) {
  const port = await sparePort();
  const url = `http://127.0.0.1:${port}`;
  const profileArgs = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.join(__dirname, 'profiles')}`, `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`] : [];
  const serverEnv = {
    ...SERVER_START.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: `http://${baseHost}:${port}`,
    PASSWORD_PBKDF2_ITERATIONS: String(ITERATIONS),
    TRUST_PROXY: 'loopback',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'info',
    ...env,
  };
  for (const [key, value] of Object.entries(process.env)) if (key.startsWith('BENCH_ENV_')) serverEnv[key.slice('BENCH_ENV_'.length)] = value;
  const started = process.hrtime.bigint();
  const child = spawnNode(path.join(ROOT, 'dist', 'server.js'), serverEnv, [...SERVER_START.flags, ...profileArgs]);
  await waitForHealth(url, child);
  return { child, url, startMs: Number(process.hrtime.bigint() - started) / 1e6 };
}

function cannon(options) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ duration: SECONDS, ...options }, (err, result) => (err ? reject(err) : resolve(result)));
    instance.on('error', reject);
  });
}

/*
 * Requests at a steady rate: one every 1000 / rate ms whatever the answers do (open loop: a slow answer
 * does not delay the next request, which gets another keep-alive socket), each timed from its send to
 * the end of its answer. Not autocannon's overallRate/connectionRate: those are budgets per second spent
 * at once (measured: ten requests within 60 ms, then a 940 ms pause), so they measured bursts, each
 * request waiting for the ones sent with it, not a steady rate. (Its fixed-rate latency "correction"
 * also filled the histogram with samples no response had.) Answers the fields of autocannon's result
 * that the steps read, latencies rounded to whole milliseconds as autocannon's are.
 */
async function paced({ url, rate, seconds = SECONDS, method = 'GET', headers = {}, body, perRequest, pathOf }) {
  const agent = new http.Agent({ keepAlive: true });
  const target = new URL(url);
  const latencies = [];
  let ok = 0;
  let non2xx = 0;
  const statuses = {};
  let errors = 0;
  const one = () =>
    new Promise((resolve) => {
      const sent = performance.now();
      const request = http.request(
        { host: target.hostname, port: target.port, path: pathOf ? pathOf() : `${target.pathname}${target.search}`, method, agent, headers: { ...headers, ...(perRequest ? perRequest() : {}) } },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - sent);
            if (res.statusCode >= 200 && res.statusCode < 300) ok += 1;
            else {
              non2xx += 1;
              statuses[res.statusCode] = (statuses[res.statusCode] || 0) + 1;
            }
            resolve();
          });
        },
      );
      request.on('error', () => {
        errors += 1;
        resolve();
      });
      request.end(body);
    });
  const answers = [];
  const started = performance.now();
  const count = Math.round(seconds * rate);
  for (let i = 0; i < count; i++) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    answers.push(one());
  }
  await Promise.all(answers);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q) => (latencies.length ? Math.round(latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)]) : NaN);
  return { latency: { p50: at(0.5), p99: at(0.99), max: at(1) }, '2xx': ok, non2xx, statuses, errors, duration: seconds };
}

function measureCeiling(seconds) {
  const out = execFileSync(process.execPath, [path.join(__dirname, 'pbkdf2-ceiling.js')], {
    env: { PATH: process.env.PATH, UV_THREADPOOL_SIZE: String(THREADPOOL), ITERATIONS: String(ITERATIONS), SECONDS: String(seconds) },
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop()).hashesPerSecond;
}

/** A fresh client address per request: 10.x.y.z from a counter (TRUST_PROXY=loopback trusts our header). */
let addressCounter = 0;
function nextAddress() {
  addressCounter += 1;
  const n = addressCounter;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}
const fromNewAddress = (req) => ({ ...req, headers: { ...req.headers, 'x-forwarded-for': nextAddress() } });

/** A login of the bench's user: method, path, headers and body, as both load generators take them. */
function login(email) {
  return { method: 'POST', path: '/auth/login', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) };
}

/** Logins for `paced`, each from a fresh address. */
function pacedLogin(url, email, rate) {
  const { path: loginPath, ...request } = login(email);
  return { ...request, url: `${url}${loginPath}`, rate, perRequest: () => ({ 'x-forwarded-for': nextAddress() }) };
}

/** Logins for autocannon, each from a fresh address. */
function loginRequests(email) {
  return [{ ...login(email), setupRequest: fromNewAddress }];
}

/** Pins processes (all their threads) to one core, or back to every core with null; false when not possible. */
function pin(pids, core) {
  if (CORES < 2) return false;
  const cores = core === null ? `0-${CORES - 1}` : String(core);
  try {
    for (const pid of pids) execFileSync('taskset', ['-a', '-p', '-c', cores, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** CPU time (user + system) a process has used so far, in µs; NaN where /proc is missing. */
function cpuMicros(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1e6 / 100);
  } catch {
    return NaN;
  }
}

/** CPU time (user + system) each thread of a process has used so far, in µs, by thread id; empty where /proc is missing. */
function threadCpuMicros(pid) {
  const out = new Map();
  try {
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      try {
        const fields = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
        out.set(tid, (Number(fields[11]) + Number(fields[12])) * (1e6 / 100));
      } catch {
        // The thread ended between the listing and the read.
      }
    }
  } catch {
    // No /proc: the split is not reported.
  }
  return out;
}

/**
 * A login round's CPU per login split by thread, in µs: the main thread (the event loop), the hashing threads and
 * the rest (libuv's pool running SQLite, V8's collector helpers). A hashing thread is told by its load alone: one
 * PBKDF2 of 100,000 rounds costs tens of ms spread over at most four threads, while no other thread spends even one
 * ms per login.
 */
function threadSplit(pid, before, after, requests) {
  const split = { main: 0, hashing: 0, other: 0 };
  for (const [tid, used] of after) {
    const perRequest = (used - (before.get(tid) ?? 0)) / requests;
    if (tid === String(pid)) split.main += perRequest;
    else if (perRequest >= 2000) split.hashing += perRequest;
    else split.other += perRequest;
  }
  return split;
}

/** Resident set size of a process in bytes (VmRSS), NaN where /proc is missing. */
function rss(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return Number(match[1]) * 1024;
  } catch {
    return NaN;
  }
}

/** One autocannon round against a process: requests per second (2xx only), CPU µs per request, p99. */
async function round(pid, options) {
  const before = cpuMicros(pid);
  const threadsBefore = threadCpuMicros(pid);
  const result = await cannon(options);
  const cpu = cpuMicros(pid) - before;
  const ok = result['2xx'];
  if (result.non2xx > 0 || result.errors > 0) log(`  ${options.title}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const threads = threadSplit(pid, threadsBefore, threadCpuMicros(pid), ok);
  return { perSecond: ok / result.duration, cpuPerRequest: cpu / ok, threads, p99: result.latency.p99, p50: result.latency.p50 };
}

async function json(url, init = {}) {
  const res = await fetch(url, init);
  const body = await res.json().catch(() => null);
  return { status: res.status, body, headers: res.headers };
}

/** Registers a user (the first one of a database becomes admin) and answers its email and token. */
async function registerUser(url, label) {
  const email = `${label}-${crypto.randomBytes(4).toString('hex')}@example.test`;
  const res = await json(`${url}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { email, token: res.body.token, user: res.body.user };
}

/**
 * The growth step's admin: the first user registered on a fresh database is one; on a kept database
 * (BENCH_MYSQL_DATABASE) the role is set in the database and the admin signs in again, so its token is
 * checked against the row as it now is.
 */
async function growthAdmin(serviceUrl, databaseUrl) {
  const account = await registerUser(serviceUrl, 'growth-admin');
  if (account.user.role === 'admin') return account;
  const { Sequelize } = require('sequelize');
  const sequelize = new Sequelize(databaseUrl, { logging: false });
  await sequelize.query("UPDATE users SET role = 'admin' WHERE id = ?", { replacements: [account.user.id] });
  await sequelize.close();
  const res = await json(`${serviceUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
    body: JSON.stringify({ email: account.email, password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...account, token: res.body.token };
}

async function startBare(script, env) {
  const port = await sparePort();
  const child = spawnNode(path.join(__dirname, script), { PORT: String(port), ...env });
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

/**
 * Alternating rounds of /auth/me variants against bare Express answering the same JSON, the servers pinned
 * to core 0 and this process (the load generator) to core 1. Ratios are per round, then the median.
 */
async function compareWithBare(service, variants, meBody) {
  const bare = await startBare('bare-server.js', { BENCH_BODY: JSON.stringify(meBody) });
  const check = await json(`${bare.url}/auth/me`);
  if (JSON.stringify(check.body) !== JSON.stringify(meBody)) throw new Error('bare server answers differently');
  const pinned = pin([service.child.pid, bare.child.pid], 0) && pin([process.pid], 1);
  const bareRequest = { title: 'bare', url: `${bare.url}/auth/me`, connections: 10 };
  for (const variant of variants) await cannon({ ...variant.request, duration: 2 });
  await cannon({ ...bareRequest, duration: 2 });
  // Every slice of the service sits between two of bare Express's, and is judged against their mean: this host's
  // speed drifts within seconds (bare Express alone 124–201 µs of CPU per request between the rounds of one step),
  // so a floor measured a whole round earlier compared a fast moment with a slow one.
  const bareSlice = () => round(bare.child.pid, { ...bareRequest, duration: SECONDS / 2 });
  const rounds = [];
  let before = await bareSlice();
  for (let i = 0; i < ROUNDS; i++) {
    const entry = { floor: {} };
    const bares = [];
    for (const variant of variants) {
      entry[variant.name] = await round(service.child.pid, { ...variant.request, duration: SECONDS / 2 });
      const after = await bareSlice();
      entry.floor[variant.name] = meanOfRounds([before, after]);
      bares.push(after);
      before = after;
    }
    entry.bare = meanOfRounds(bares);
    rounds.push(entry);
  }
  const together = {};
  for (const variant of variants) together[variant.name] = await sideBySide(variant.request, bareRequest, pinned);
  if (pinned) pin([service.child.pid, process.pid], null);
  await stop(bare.child);
  const out = { pinned, bare: summarize(rounds.map((r) => r.bare)) };
  for (const variant of variants) {
    const own = rounds.map((r) => r[variant.name]);
    const ratios = rounds.map((r) => r[variant.name].perSecond / r.floor[variant.name].perSecond);
    const cpuRatios = rounds.map((r) => r[variant.name].cpuPerRequest / r.floor[variant.name].cpuPerRequest);
    out[variant.name] = { ...summarize(own), ratio: median(ratios), ratioPerRound: ratios, cpuRatio: median(cpuRatios), cpuRatioPerRound: cpuRatios, sideBySide: together[variant.name] };
  }
  return out;
}

/** autocannon in a process of its own (optionally pinned to a core); answers its JSON result. */
function autocannonProcess(request, seconds, core) {
  const args = [require.resolve('autocannon/autocannon.js'), '-j', '-c', String(request.connections ?? 10), '-d', String(seconds)];
  for (const [name, value] of Object.entries(request.headers ?? {})) args.push('-H', `${name}=${value}`);
  args.push(request.url);
  const [command, argv] = core === null ? [process.execPath, args] : ['taskset', ['-c', String(core), process.execPath, ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`autocannon exited with ${code}`))));
  });
}

/**
 * The service and bare Express at the same moments: both on core 0, each driven by an autocannon process of its own
 * on core 1, started together, so a slow second of the host slows both alike (the alternating rounds above compare
 * different seconds, and this host's speed swings within seconds). The two generators share one core and set the
 * pace (2,000–3,000 requests a second each here), so the ratio is of the two servers' answer times under the same
 * conditions, not of their ceilings. Reported beside the targets, not instead of them.
 */
async function sideBySide(request, bareRequest, pinned) {
  const core = pinned ? 1 : null;
  const both = (seconds) => Promise.all([autocannonProcess(request, seconds, core), autocannonProcess(bareRequest, seconds, core)]);
  await both(2);
  const ratios = [];
  for (let i = 0; i < ROUNDS; i++) {
    const [own, bare] = await both(SECONDS / 2);
    if (own.non2xx > 0 || own.errors > 0) log(`  ${request.title} side by side: ${own.non2xx} non-2xx, ${own.errors} errors`);
    ratios.push(own['2xx'] / bare['2xx']);
  }
  return { ratio: median(ratios), ratioPerRound: ratios };
}

/** The mean rate and CPU per request of slices of one server. */
function meanOfRounds(slices) {
  const mean = (pick) => slices.reduce((sum, slice) => sum + pick(slice), 0) / slices.length;
  return { perSecond: mean((s) => s.perSecond), cpuPerRequest: mean((s) => s.cpuPerRequest) };
}

/** The median of each part of per-round thread splits, in ms. */
function splitMedians(splits) {
  return Object.fromEntries(['main', 'hashing', 'other'].map((part) => [part, median(splits.map((split) => split[part])) / 1000]));
}

function summarize(rounds) {
  return {
    perSecond: median(rounds.map((r) => r.perSecond)),
    perSecondPerRound: rounds.map((r) => Math.round(r.perSecond)),
    cpuPerRequest: median(rounds.map((r) => r.cpuPerRequest)),
    cpuPerRequestPerRound: rounds.map((r) => Math.round(r.cpuPerRequest)),
  };
}

/** Median start time of `node dist/server.js` to /health 200 on an already migrated database. */
async function measureStart(env) {
  const times = [];
  for (let i = 0; i < 3; i++) {
    const service = await startService('start', env);
    times.push(service.startMs);
    await stop(service.child);
  }
  return { ms: median(times), perRound: times.map((t) => Math.round(t)) };
}

/**
 * RSS idle, and the peak sampled while 50 connections call /auth/me. Idle is read once the process has
 * sat idle for IDLE_SETTLE_MS after start and a few requests: V8 keeps its start-up heap (a young generation
 * grown to its maximum while modules load: 8 MiB with the start script's --max-semi-space-size=4, else 32) until
 * its memory reducer runs, about 8 s after the last full collection, and later again while anything still
 * allocates (seen: 8 to 20 s). The figure two seconds after start is reported too.
 *
 * Measured on a service started on a database that is already current, as every instance starts but the first
 * after an upgrade: a start that applies migrations also loads the migration runner (umzug and its command-line
 * parser, about 3 MiB), which stays for the life of that process. That first start (the main service, idle in
 * the same 30 s) is reported beside it. Before idling, the measured service uses every feature whose code loads at
 * first use (below), so the figure is the service with every feature loaded.
 */
const IDLE_SETTLE_MS = 30_000;
async function measureMemory(firstStart, env) {
  // Passkeys need a host name, not an address, in BASE_URL (WebAuthn's relying-party id).
  const service = await startService('memory', env, { baseHost: 'localhost' });
  try {
    const { token } = await registerUser(service.url, 'memory');
    const bearer = { authorization: `Bearer ${token}` };
    // Every feature's code loaded: a sign-in (the registration), a token check, a TOTP enrolment begun and its
    // page with the QR code, passkey registration options (libraries the service loads at their first use).
    const uses = [
      await json(`${service.url}/auth/me`, { headers: bearer }),
      await json(`${service.url}/auth/2fa/totp/setup`, { method: 'POST', headers: bearer }),
      await fetch(`${service.url}/admin/profile/two-factor`, { headers: { cookie: `auth_token=${token}`, accept: 'text/html' } }),
      await json(`${service.url}/auth/passkeys/register/options`, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: '{}' }),
    ];
    uses.forEach((use, i) => {
      if (use.status !== 200) throw new Error(`memory: feature use ${i} answered ${use.status} ${JSON.stringify(use.body ?? null)}`);
    });
    await sleep(2000);
    const afterStart = rss(service.child.pid);
    await sleep(IDLE_SETTLE_MS - 2000);
    const idle = rss(service.child.pid);
    const firstStartIdle = rss(firstStart.child.pid);
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rss(service.child.pid));
    }, 20);
    await cannon({ title: 'memory', url: `${service.url}/auth/me`, headers: { authorization: `Bearer ${token}` }, connections: 50 });
    clearInterval(sampler);
    return { idleMiB: idle / MiB, afterStartMiB: afterStart / MiB, peakMiB: peak / MiB, firstStartIdleMiB: firstStartIdle / MiB };
  } finally {
    await stop(service.child);
  }
}

/**
 * Logins per second in rounds alternating with the PBKDF2 ceiling and with the bare-Express login floor
 * (`bare-login-server.js`, the same requests from the same load generator); each round's ratios to its
 * own ceiling.
 */
async function measureLogins(service, email) {
  const connections = THREADPOOL * 4;
  const floor = await startBare('bare-login-server.js', { ITERATIONS: String(ITERATIONS), BENCH_PASSWORD: PASSWORD });
  const logins = (url) => ({ url, connections, requests: loginRequests(email), duration: SECONDS / 2 });
  await cannon({ ...logins(service.url), duration: 2 });
  await cannon({ ...logins(floor.url), duration: 2 });
  const rounds = [];
  // As for /auth/me: each round of the service is judged against the floor's rounds just before and after it.
  const bareSlice = () => round(floor.child.pid, { title: 'bare login', ...logins(floor.url) });
  let before = await bareSlice();
  for (let i = 0; i < 3; i++) {
    const ceiling = measureCeiling(SECONDS / 2);
    const login = await round(service.child.pid, { title: 'login', ...logins(service.url) });
    const after = await bareSlice();
    const bare = meanOfRounds([before, after]);
    before = after;
    rounds.push({ ceiling, login: login.perSecond, cpuPerLogin: login.cpuPerRequest, ratio: login.perSecond / ceiling, floorRatio: bare.perSecond / ceiling, toFloor: login.perSecond / bare.perSecond, cpuPerFloorLogin: bare.cpuPerRequest, threads: login.threads, floorThreads: after.threads });
  }
  await stop(floor.child);
  return {
    ratio: median(rounds.map((r) => r.ratio)),
    ratioPerRound: rounds.map((r) => r.ratio),
    floorRatio: median(rounds.map((r) => r.floorRatio)),
    floorRatioPerRound: rounds.map((r) => r.floorRatio),
    // Issue 34's target: the service's logins per second over the bare passport-local login's, round by round.
    ratioToFloor: median(rounds.map((r) => r.toFloor)),
    ratioToFloorPerRound: rounds.map((r) => r.toFloor),
    perSecondPerRound: rounds.map((r) => r.login),
    ceilingPerRound: rounds.map((r) => r.ceiling),
    cpuMsPerLogin: median(rounds.map((r) => r.cpuPerLogin)) / 1000,
    cpuMsPerFloorLogin: median(rounds.map((r) => r.cpuPerFloorLogin)) / 1000,
    // Where a login's CPU goes, service and floor (the floor's slice after each round), medians per part in ms.
    cpuMsByThread: splitMedians(rounds.map((r) => r.threads)),
    floorCpuMsByThread: splitMedians(rounds.map((r) => r.floorThreads)),
  };
}

/** p99 of /auth/me at a steady 100 req/s while logins keep the hashing pool saturated. */
async function measureUnderLoad(service, email, meRequest) {
  // Beside each round, the same probe against the bare-Express login floor under its own login load: the host's
  // scheduling delay for a small answer while every core hashes, which the service's p99 is judged against.
  const floor = await startBare('bare-login-server.js', { ITERATIONS: String(ITERATIONS), BENCH_PASSWORD: PASSWORD });
  const under = async (url, probe) => {
    const [logins, me] = await Promise.all([
      cannon({ url, connections: THREADPOOL * 4, requests: loginRequests(email) }),
      paced({ url: probe.url, headers: probe.headers, rate: 100 }),
    ]);
    return { p99: me.latency.p99, p50: me.latency.p50, max: me.latency.max, loginsPerSecond: logins['2xx'] / logins.duration, non2xx: me.non2xx };
  };
  const rounds = [];
  const floorRounds = [];
  try {
    for (let i = 0; i < 3; i++) {
      rounds.push(await under(service.url, meRequest));
      floorRounds.push(await under(floor.url, { url: `${floor.url}/auth/me`, headers: {} }));
    }
  } finally {
    await stop(floor.child);
  }
  const p99 = median(rounds.map((r) => r.p99));
  const floorP99 = median(floorRounds.map((r) => r.p99));
  return { p99, p99PerRound: rounds.map((r) => r.p99), rounds, floorP99, floorP99PerRound: floorRounds.map((r) => r.p99), ratioToFloor: p99 / Math.max(1, floorP99) };
}

/**
 * Reported figures of other hot paths: refresh per second (each from its own address: 60/min limit), the
 * admin user list page, and OTP and magic-link verification. A code or link is single use, so those two
 * are timed one at a time, each with a freshly mailed code or link (median and worst of PASSWORDLESS_RUNS).
 */
async function measurePaths(service, token, sink) {
  // A sign-in of its own: every refresh supersedes the token it renews (sessions rotate), and the same token is
  // accepted again only within the reuse window, which this step stays inside (rounds × seconds < 60 s).
  const { token: refreshed } = await registerUser(service.url, 'bench-refresh');
  const refresh = await round(service.child.pid, {
    title: 'refresh',
    url: service.url,
    connections: 10,
    requests: [{ method: 'POST', path: '/auth/refresh', headers: { authorization: `Bearer ${refreshed}` }, setupRequest: fromNewAddress }],
  });
  const adminPage = await round(service.child.pid, {
    title: 'admin page',
    url: `${service.url}/admin/users`,
    connections: 10,
    headers: { cookie: `auth_token=${token}`, accept: 'text/html' },
  });
  return {
    refreshPerSecond: refresh.perSecond,
    refreshCpuMicros: refresh.cpuPerRequest,
    refreshP99: refresh.p99,
    adminPagePerSecond: adminPage.perSecond,
    adminPageCpuMicros: adminPage.cpuPerRequest,
    adminPageP99: adminPage.p99,
    otpVerify: await timeOtpVerifications(service.url, token, sink),
    magicLinkVerify: await timeMagicLinkVerifications(service.url, sink),
  };
}

const PASSWORDLESS_RUNS = 25;

/**
 * The decoded text (quoted-printable soft breaks and `=3D` undone) of the first mail after the first `count` that
 * matches `pattern`, once it has arrived: other mail (a registration's verification link) may arrive meanwhile.
 */
async function nextMail(sink, count, pattern) {
  const decode = (raw) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=').replace(/&amp;/g, '&');
  const found = () => sink.messages.slice(count).map(decode).find((text) => pattern.test(text));
  for (let i = 0; i < 200 && !found(); i++) await sleep(10);
  return found() ?? '';
}

function latencySummary(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return { runs: times.length, p50: Math.round(median(sorted) * 10) / 10, max: Math.round(sorted[sorted.length - 1] * 10) / 10 };
}

async function timed(fn) {
  const started = process.hrtime.bigint();
  const res = await fn();
  return { res, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

/** POST /auth/otp/verify with a freshly mailed code, one at a time (the plugin switched on by the admin). */
async function timeOtpVerifications(url, adminToken, sink) {
  const settings = { rateLimitPerHour: 1000, allowNewUserRegistration: false };
  const on = await json(`${url}/api/plugins/otp-login`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
    body: JSON.stringify({ active: true, settings }),
  });
  if (on.status !== 200) return null;
  const { email } = await registerUser(url, 'otp');
  const times = [];
  for (let i = 0; i < PASSWORDLESS_RUNS; i++) {
    const before = sink.messages.length;
    const post = (path, body) => fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() }, body: JSON.stringify(body) });
    if ((await post('/auth/otp/request', { email })).status !== 200) return null;
    const code = /Your login code: (\d+)/.exec(await nextMail(sink, before, /Your login code: \d+/))?.[1];
    if (!code) return null;
    const { res, ms } = await timed(() => post('/auth/otp/verify', { email, code }));
    if (res.status !== 200) return null;
    times.push(ms);
  }
  return latencySummary(times);
}

/**
 * GET /auth/magic-link/verify with a freshly mailed link, one at a time (3 links per email per 15 min: fresh
 * addresses, each becoming a passwordless account at its first link, as registration is open).
 */
async function timeMagicLinkVerifications(url, sink) {
  const times = [];
  for (let i = 0; i < PASSWORDLESS_RUNS; i++) {
    const email = `link-${crypto.randomBytes(4).toString('hex')}@example.test`;
    const before = sink.messages.length;
    const asked = await fetch(`${url}/auth/sign-in/magic-link`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
      body: JSON.stringify({ email }),
    });
    if (asked.status !== 200) return null;
    const link = /https?:\/\/[^\s"<>]+\/auth\/magic-link\/verify\?[^\s"<>]+/.exec(await nextMail(sink, before, /\/auth\/magic-link\/verify\?/))?.[0];
    if (!link) return null;
    const { res, ms } = await timed(() => fetch(link, { redirect: 'manual', headers: { 'x-forwarded-for': nextAddress(), 'x-forwarded-proto': 'https' } }));
    if (res.status !== 302) return null;
    times.push(ms);
  }
  return latencySummary(times);
}

/**
 * Bulk-inserts `count` users (with profile rows) straight into the service's database, 1,000 per statement.
 * Grown users already there (a kept database, BENCH_MYSQL_DATABASE) are not inserted again: they were
 * inserted in order, a thousand at a time, so the load goes on from their number.
 */
async function insertUsers(databaseUrl, count, extraSessions = null) {
  const { Sequelize } = require('sequelize');
  const sequelize = new Sequelize(databaseUrl, { logging: false });
  const mysql = sequelize.getDialect() === 'mysql';
  const [[{ grown }]] = await sequelize.query("SELECT COUNT(*) AS grown FROM users WHERE email LIKE 'grown-%'");
  const hash = `pbkdf2:${ITERATIONS}:${crypto.randomBytes(16).toString('hex')}:${crypto.randomBytes(32).toString('hex')}`;
  const base = Date.now() - count * 1000;
  const stamp = (ms) => (mysql ? new Date(ms).toISOString().replace('T', ' ').replace('Z', '') : new Date(ms).toISOString().replace('T', ' ').replace('Z', ' +00:00'));
  // One live session per grown user (signed in from a browser, ending in 90 days), as a real million users have.
  const INSERT_SESSIONS = 'INSERT INTO sessions (id, user_id, method, ip, user_agent, browser, os, created_at, last_used_at, expires_at) VALUES';
  const ends = sequelize.escape(stamp(Date.now() + 90 * 86_400_000));
  const sessionRow = (id, userId, at) => `(${sequelize.escape(id)}, ${sequelize.escape(userId)}, 'password', '10.0.0.1', 'Mozilla/5.0', 'Firefox 133', 'Linux', ${at}, ${at}, ${ends})`;
  const started = Date.now();
  for (let offset = Number(grown); offset < count; offset += 1000) {
    const users = [];
    const profiles = [];
    const sessions = [];
    for (let i = offset; i < Math.min(count, offset + 1000); i++) {
      const id = crypto.randomUUID();
      const at = sequelize.escape(stamp(base + i * 1000));
      users.push(`(${sequelize.escape(id)}, 'grown-${i}@example.test', 'grown_${i}', 'Given${i % 997}', 'Family${i % 1009}', 'viewer', 1, '${hash}', 0, ${at}, ${at})`);
      profiles.push(`(${sequelize.escape(id)}, '{}', ${at}, ${at})`);
      sessions.push(sessionRow(crypto.randomUUID(), id, at));
    }
    await sequelize.transaction(async (transaction) => {
      await sequelize.query(`INSERT INTO users (id, email, username, first_name, last_name, role, active, password_hash, token_epoch, created_at, updated_at) VALUES ${users.join(',')}`, { transaction });
      await sequelize.query(`INSERT INTO user_profiles (user_id, data, created_at, updated_at) VALUES ${profiles.join(',')}`, { transaction });
      await sequelize.query(`${INSERT_SESSIONS} ${sessions.join(',')}`, { transaction });
    });
  }
  // Sessions of one user an admin ends one by one in the revocation step.
  if (extraSessions) {
    const at = sequelize.escape(stamp(Date.now()));
    await sequelize.query(`${INSERT_SESSIONS} ${extraSessions.ids.map((id) => sessionRow(id, extraSessions.userId, at)).join(',')}`);
  }
  await sequelize.close();
  return (Date.now() - started) / 1000;
}

/** Busy and total CPU ticks of the whole machine so far (/proc/stat), or null where it is missing. */
function machineTicks() {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((sum, value) => sum + value, 0);
    return { busy: total - fields[3] - fields[4], total };
  } catch {
    return null;
  }
}

/*
 * Waits until the machine is quiet: a whole second below a tenth of one core busy, at most a minute. What
 * is timed is then a database that holds 100,000 users, not its catch-up after the bulk load (InnoDB
 * flushing dirty pages, SQLite checkpointing its WAL) on the two cores the hashes need. Here both were
 * quiet within a second; the wait guards hosts where they are not. Answers the wait in seconds.
 */
async function settle() {
  const started = Date.now();
  let before = machineTicks();
  if (!before) return 0;
  while (Date.now() - started < 60_000) {
    await sleep(1000);
    const now = machineTicks();
    const busyCores = ((now.busy - before.busy) / (now.total - before.total)) * CORES;
    before = now;
    if (busyCores < 0.1) break;
  }
  return (Date.now() - started) / 1000;
}

/** One PBKDF2 hash at the service's iteration count, alone (median of five): the floor of a login's latency. */
async function oneHashMs() {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await new Promise((resolve, reject) => crypto.pbkdf2(PASSWORD, crypto.randomBytes(16), ITERATIONS, 32, 'sha256', (err) => (err ? reject(err) : resolve())));
    times.push(performance.now() - started);
  }
  return median(times);
}

/** 100,000 users in the database, then p99 of each path at a steady low rate (one path at a time). */
async function measureGrowth(label, databaseUrl, extraEnv, users = GROWTH_USERS) {
  const service = await startService(`growth-${label}`, { DATABASE_URL: databaseUrl, ...extraEnv });
  try {
    const admin = await growthAdmin(service.url, databaseUrl);
    const viewer = await registerUser(service.url, 'growth-viewer');
    const refresher = await registerUser(service.url, 'growth-refresh');
    const victim = await registerUser(service.url, 'growth-victim');
    // Enough of the victim's sessions for every revocation the step sends (its rate × its seconds, and the warm-up).
    const victimSessions = Array.from({ length: 10 * (Math.max(GROWTH_SECONDS, GROWTH_SAMPLES / 10) + 2) }, () => crypto.randomUUID());
    log(`  ${label}: inserting ${users} users, each with a session…`);
    const insertSeconds = await insertUsers(databaseUrl, users, { userId: victim.user.id, ids: victimSessions });
    const settleSeconds = await settle();
    const auth = (token) => ({ authorization: `Bearer ${token}` });
    const term = 'given42';
    const rareTerm = `grown-${users - 1}@`;
    const paths = {
      login: pacedLogin(service.url, viewer.email, 4),
      me: { url: `${service.url}/auth/me`, headers: auth(viewer.token), rate: 20 },
      userSearch: { url: `${service.url}/api/users?q=${term}&limit=20`, headers: auth(admin.token), rate: 10 },
      // A term only one grown user's email holds, every trigram of it held by thousands ("999", "99@") or by all.
      userSearchRare: { url: `${service.url}/api/users?q=${rareTerm}&limit=20`, headers: auth(admin.token), rate: 10 },
      userList: { url: `${service.url}/api/users?limit=20`, headers: auth(admin.token), rate: 10 },
      // Each refresh supersedes the token it renews; the same one stays good for the 60 s reuse window, which this
      // path (a second of warm-up and GROWTH_SECONDS) stays inside.
      refresh: { url: `${service.url}/auth/refresh`, method: 'POST', headers: auth(refresher.token), rate: 10, perRequest: () => ({ 'x-forwarded-for': nextAddress() }) },
      sessionList: { url: `${service.url}/auth/sessions`, headers: auth(viewer.token), rate: 10 },
      revocation: (() => {
        const queue = [...victimSessions];
        return { url: `${service.url}/api/users/${victim.user.id}/sessions/x`, method: 'DELETE', headers: auth(admin.token), rate: 10, pathOf: () => `/api/users/${victim.user.id}/sessions/${queue.shift()}` };
      })(),
    };
    const adminPage = await fetch(`${service.url}/admin/users`, { headers: { cookie: `auth_token=${admin.token}`, accept: 'text/html' }, redirect: 'manual' });
    if (adminPage.status === 200) paths.adminUsersPage = { url: `${service.url}/admin/users?q=${term}`, headers: { cookie: `auth_token=${admin.token}`, accept: 'text/html' }, rate: 10 };
    const search = await json(`${service.url}/api/users?q=${term}&limit=20`, { headers: auth(admin.token) });
    const out = { users, insertSeconds, settleSeconds, searchTerm: term, searchMatches: search.body?.total, searchTotalExact: search.headers.get('x-total-exact') !== 'false', oneHashMs: await oneHashMs() };
    const measure = async (name, options) => {
      // One second of the same requests first, not counted: the first of a path runs cold code and cold pages
      // (a first login took 67 ms against 29 after it), and with 80 samples a p99 is the slowest one.
      await paced({ ...options, seconds: 1 });
      const result = await paced({ ...options, seconds: Math.max(GROWTH_SECONDS, GROWTH_SAMPLES / options.rate) });
      if (result.non2xx > 0 || result.errors > 0) log(`  ${label} ${name}: ${result.non2xx} non-2xx (by status ${JSON.stringify(result.statuses)}), ${result.errors} errors`);
      return { p99: result.latency.p99, p50: result.latency.p50, perSecond: result['2xx'] / result.duration, samples: result['2xx'], non2xx: result.statuses };
    };
    for (const [name, options] of Object.entries(paths)) out[name] = await measure(name, options);
    // The same logins against the bare-Express floor, right after: a login's p99 at this rate is mostly the
    // host's slowest hashes, which this shows apart from what the service adds.
    const floor = await startBare('bare-login-server.js', { ITERATIONS: String(ITERATIONS), BENCH_PASSWORD: PASSWORD });
    out.loginFloor = await measure('bare login', pacedLogin(floor.url, viewer.email, 4));
    await stop(floor.child);
    return out;
  } finally {
    await stop(service.child);
  }
}

async function mysqlAvailable(url) {
  if (url === 'none') return false;
  try {
    const mysql = require('mysql2/promise');
    const connection = await mysql.createConnection(url);
    await connection.end();
    return true;
  } catch {
    return false;
  }
}

/*
 * A million users' tables and indexes take about 1 GB on MariaDB (users alone: 370 MB of rows, 570 MB of
 * indexes). A production server holding them sizes its buffer pool so they stay in memory; the 128 MiB default
 * of a fresh install makes every scan a disk read (the search's index alone is 164 MB). The pool is raised to
 * BENCH_MYSQL_BUFFER_POOL_MIB (default 2048) for the step and put back after; both sizes are reported.
 */
const MYSQL_BUFFER_POOL_MIB = Number(process.env.BENCH_MYSQL_BUFFER_POOL_MIB || 2048);
/**
 * A database of that name is used and kept (created when missing), so a million users are loaded once for
 * several runs (the load takes half an hour with the search's trigram triggers); by default a scratch one is
 * created and dropped.
 */
const MYSQL_KEPT_DATABASE = process.env.BENCH_MYSQL_DATABASE || '';

async function withMysqlDatabase(fn) {
  const mysql = require('mysql2/promise');
  const name = MYSQL_KEPT_DATABASE || `bench_${crypto.randomBytes(4).toString('hex')}`;
  const connection = await mysql.createConnection(MYSQL_URL);
  await connection.query(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  const [[{ pool }]] = await connection.query('SELECT @@innodb_buffer_pool_size AS pool');
  if (pool < MYSQL_BUFFER_POOL_MIB * MiB) await connection.query(`SET GLOBAL innodb_buffer_pool_size = ${MYSQL_BUFFER_POOL_MIB * MiB}`);
  log(`  mysql: InnoDB buffer pool ${Math.round(pool / MiB)} MiB, ${pool < MYSQL_BUFFER_POOL_MIB * MiB ? `raised to ${MYSQL_BUFFER_POOL_MIB} MiB for the step` : 'kept'}`);
  try {
    return await fn(`${MYSQL_URL.replace(/\/$/, '')}/${name}`);
  } finally {
    if (pool < MYSQL_BUFFER_POOL_MIB * MiB) await connection.query(`SET GLOBAL innodb_buffer_pool_size = ${pool}`);
    if (MYSQL_KEPT_DATABASE) log(`  mysql: database ${name} kept (BENCH_MYSQL_DATABASE)`);
    else await connection.query(`DROP DATABASE \`${name}\``);
    await connection.end();
  }
}

async function redisAvailable(url) {
  if (url === 'none') return false;
  const Redis = require('ioredis');
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

function sqliteEnv(dir, name) {
  return {
    DATABASE_URL: `sqlite:${path.join(dir, `${name}.sqlite`)}`,
    DATA_DIR: dir,
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
    EXTERNAL_AUTH_SECRET: crypto.randomBytes(24).toString('hex'),
  };
}

/** An SMTP listener on loopback that keeps every message's raw text (for the magic link). */
async function startMailSink() {
  const { SMTPServer } = require('smtp-server');
  const messages = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      let raw = '';
      stream.on('data', (chunk) => (raw += chunk));
      stream.on('end', () => {
        messages.push(raw);
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `smtp://127.0.0.1:${server.server.address().port}`, messages, stop: () => new Promise((resolve) => server.close(resolve)) };
}

/** Signs in by magic link and answers the auth_session cookie value, or null when the flow is unavailable. */
async function magicLinkSession(url, sink, email) {
  const asked = await fetch(`${url}/auth/sign-in/magic-link`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
    body: JSON.stringify({ email }),
  });
  if (asked.status !== 200) return null;
  // Other mail reaches the sink too (a registration's verification link): wait for this address's sign-in link.
  const decoded = (raw) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=').replace(/&amp;/g, '&');
  const isLink = (raw) => raw.includes(email) && decoded(raw).includes('/auth/magic-link/verify');
  for (let i = 0; i < 100 && !sink.messages.some(isLink); i++) await sleep(50);
  const text = decoded(sink.messages.find(isLink) ?? '');
  const link = /https?:\/\/[^\s"<>]+\/auth\/magic-link\/verify\?[^\s"<>]+/.exec(text)?.[0];
  if (!link) return null;
  // Production cookies are Secure: express-session sets one only on a request that came over TLS (per the proxy).
  const verified = await fetch(link, { redirect: 'manual', headers: { 'x-forwarded-for': nextAddress(), 'x-forwarded-proto': 'https' } });
  const cookie = verified.headers.getSetCookie().find((value) => value.startsWith('auth_session='));
  return cookie ? cookie.split(';')[0] : null;
}

/** Fresh tokens timed against the same tokens again, per signing algorithm: what one cache miss costs. */
const MISS_SAMPLES = 200;
const ALGORITHMS = ['HS256', 'EdDSA', 'ES256', 'RS256'];
async function measureCacheMisses(dir) {
  const results = {};
  for (const algorithm of ALGORITHMS) {
    const service = await startService(`miss-${algorithm}`, { ...sqliteEnv(dir, `miss-${algorithm}`), JWT_ALGORITHM: algorithm });
    try {
      // A chain of refreshes makes tokens no request has verified yet (each supersedes the one before, which
      // stays good for the 60 s reuse window: the timing below ends well inside it).
      let { token } = await registerUser(service.url, `miss-${algorithm.toLowerCase()}`);
      const fresh = [];
      for (let i = 0; i < MISS_SAMPLES; i++) {
        const res = await json(`${service.url}/auth/refresh`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': nextAddress() } });
        if (res.status !== 200) throw new Error(`refresh under ${algorithm}: ${res.status}`);
        token = res.body.token;
        fresh.push(token);
      }
      const me = (t) => timed(() => fetch(`${service.url}/auth/me`, { headers: { authorization: `Bearer ${t}` } }).then((res) => res.arrayBuffer()));
      const miss = [];
      for (const t of fresh) miss.push((await me(t)).ms);
      const hit = [];
      for (const t of fresh) hit.push((await me(t)).ms);
      results[algorithm] = { missP50: median(miss), hitP50: median(hit), extraMicros: Math.round((median(miss) - median(hit)) * 1000) };
    } finally {
      await stop(service.child);
    }
  }
  return results;
}

async function main() {
  if (!process.env.BENCH_SKIP_BUILD) {
    log('building (npm run build)…');
    execSync('npm run build', { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-bench-'));
  const results = {
    date: new Date().toISOString(),
    machine: { cores: CORES, cpu: os.cpus()[0]?.model, node: process.version, threadpool: THREADPOOL, loadAverage: os.loadavg() },
    settings: { seconds: SECONDS, rounds: ROUNDS, iterations: ITERATIONS, logLevel: process.env.BENCH_LOG_LEVEL || 'info' },
  };
  try {
    const sink = await startMailSink();
    // The per-key rate limit stays in force (its counter is part of the key check's cost), far above the load.
    const env = { ...sqliteEnv(dir, 'main'), SMTP_URL: sink.url, EMAIL_FROM: 'bench@example.test', API_KEY_RATE_LIMIT: '1000000' };
    const service = await startService('main', env);
    const { email, token } = await registerUser(service.url, 'bench');
    // A user of its own: a magic link proves an address, and proving a password account's address ends its sessions
    // (the squatter rule), which would end the registered user's token above.
    const sessionCookie = await magicLinkSession(service.url, sink, `bench-link-${crypto.randomBytes(4).toString('hex')}@example.test`);
    if (!sessionCookie) log('no auth_session from a magic link: that variant is skipped');
    const me = await json(`${service.url}/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    if (me.status !== 200) throw new Error(`/auth/me failed: ${me.status}`);
    const bearer = { title: 'bearer', url: `${service.url}/auth/me`, headers: { authorization: `Bearer ${token}` }, connections: 10 };
    const cookie = { title: 'cookie', url: `${service.url}/auth/me`, headers: { cookie: `auth_token=${token}` }, connections: 10 };

    if (step('memory')) {
      log('memory…');
      results.memory = await measureMemory(service, env);
    }
    if (step('me')) {
      log('GET /auth/me vs bare Express…');
      const variants = [{ name: 'bearer', request: bearer }, { name: 'cookie', request: cookie }];
      if (sessionCookie) variants.push({ name: 'session', request: { title: 'session', url: `${service.url}/auth/me`, headers: { cookie: sessionCookie }, connections: 10 } });
      results.me = await compareWithBare(service, variants, me.body);
    }
    if (step('apikey')) {
      log('GET /auth/me by API key and by Bearer vs bare Express…');
      const made = await json(`${service.url}/auth/api-keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'bench' }),
      });
      if (made.status !== 201) throw new Error(`API key not made: ${made.status} ${JSON.stringify(made.body)}`);
      const byKey = await json(`${service.url}/auth/me`, { headers: { 'x-api-key': made.body.key } });
      if (JSON.stringify(byKey.body) !== JSON.stringify(me.body)) throw new Error('/auth/me by API key answers differently');
      const apiKey = { title: 'apiKey', url: `${service.url}/auth/me`, headers: { 'x-api-key': made.body.key }, connections: 10 };
      results.apiKey = await compareWithBare(service, [{ name: 'bearer', request: bearer }, { name: 'apiKey', request: apiKey }], me.body);
    }
    if (step('login')) {
      log(`POST /auth/login vs the PBKDF2 ceiling (${ITERATIONS} iterations, ${CORES} cores, thread pool ${THREADPOOL})…`);
      results.login = await measureLogins(service, email);
    }
    if (step('load')) {
      log('GET /auth/me at 100 req/s under login load…');
      results.underLoad = await measureUnderLoad(service, email, bearer);
    }
    if (step('paths')) {
      log('other paths…');
      results.paths = await measurePaths(service, token, sink);
    }
    await stop(service.child);
    await sink.stop();

    if (step('miss')) {
      log(`a cache miss per signing algorithm (${ALGORITHMS.join(', ')})…`);
      results.cacheMiss = await measureCacheMisses(dir);
    }

    if (step('start')) {
      log('start time…');
      results.start = await measureStart(env);
    }

    if (step('redis')) {
      if (await redisAvailable(REDIS_URL)) {
        log(`GET /auth/me with REDIS_URL (${REDIS_URL}) vs bare Express…`);
        const redisService = await startService('redis', { ...sqliteEnv(dir, 'redis'), REDIS_URL });
        const user = await registerUser(redisService.url, 'bench-redis');
        const body = (await json(`${redisService.url}/auth/me`, { headers: { authorization: `Bearer ${user.token}` } })).body;
        const request = { title: 'redis', url: `${redisService.url}/auth/me`, headers: { authorization: `Bearer ${user.token}` }, connections: 10 };
        results.redis = await compareWithBare(redisService, [{ name: 'bearer', request }], body);
        await stop(redisService.child);
      } else log(`Redis at ${REDIS_URL} not reachable: step skipped`);
    }

    if (step('growth')) {
      log(`growth: ${GROWTH_USERS} users on SQLite…`);
      results.growth = { sqlite: await measureGrowth('sqlite', sqliteEnv(dir, 'growth').DATABASE_URL, { DATA_DIR: dir, JWT_SECRET: crypto.randomBytes(32).toString('hex') }) };
      if (await mysqlAvailable(MYSQL_URL)) {
        log(`growth: ${GROWTH_USERS_MYSQL} users on MariaDB…`);
        results.growth.mysql = await withMysqlDatabase((url) => measureGrowth('mysql', url, { DATA_DIR: dir, JWT_SECRET: crypto.randomBytes(32).toString('hex') }, GROWTH_USERS_MYSQL));
      } else log(`MariaDB at ${MYSQL_URL} not reachable: growth step on SQLite only`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  fs.writeFileSync(path.join(__dirname, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(report(results));
}

/** The table of targets, then every per-round figure behind it. */
function report(r) {
  const rows = [['Target', 'Measured', 'Goal', 'Met']];
  const add = (name, value, goal, met) => rows.push([name, value, goal, Number.isNaN(met) ? '–' : met ? 'yes' : 'NO']);
  const yes = (value, ok) => (Number.isFinite(value) ? ok : NaN);
  if (r.me) {
    add('GET /auth/me Bearer ÷ bare Express (req/s)', r.me.bearer.ratio.toFixed(2), '≥ 1.0', yes(r.me.bearer.ratio, r.me.bearer.ratio >= 1.0));
    add('server CPU per request ÷ bare Express', r.me.bearer.cpuRatio.toFixed(2), '≤ 1.7', yes(r.me.bearer.cpuRatio, r.me.bearer.cpuRatio <= 1.7));
    add('GET /auth/me auth_token cookie ÷ bare', r.me.cookie.ratio.toFixed(2), '≥ 1.0', yes(r.me.cookie.ratio, r.me.cookie.ratio >= 1.0));
    if (r.me.session) add('GET /auth/me auth_session ÷ bare', r.me.session.ratio.toFixed(2), '≥ 0.90', yes(r.me.session.ratio, r.me.session.ratio >= 0.9));
  }
  if (r.apiKey) {
    const perBearer = median(r.apiKey.apiKey.ratioPerRound.map((ratio, i) => ratio / r.apiKey.bearer.ratioPerRound[i]));
    add('GET /auth/me API key ÷ bare Express (req/s)', r.apiKey.apiKey.ratio.toFixed(2), '≥ 0.90', yes(r.apiKey.apiKey.ratio, r.apiKey.apiKey.ratio >= 0.9));
    add('GET /auth/me API key ÷ Bearer, same rounds', perBearer.toFixed(2), '–', NaN);
  }
  if (r.redis) add('GET /auth/me Bearer, REDIS_URL set ÷ bare', r.redis.bearer.ratio.toFixed(2), '≥ 0.90', yes(r.redis.bearer.ratio, r.redis.bearer.ratio >= 0.9));
  if (r.cacheMiss) for (const [algorithm, m] of Object.entries(r.cacheMiss)) add(`GET /auth/me cache miss, ${algorithm} (extra over a hit)`, `${m.extraMicros} µs`, '–', NaN);
  if (r.login) add('logins ÷ PBKDF2 ceiling', r.login.ratio.toFixed(2), '–', NaN);
  if (r.login) add('logins ÷ the bare passport-local login floor, same rounds', r.login.ratioToFloor.toFixed(2), '≥ 1.0', yes(r.login.ratioToFloor, r.login.ratioToFloor >= 1.0));
  if (r.underLoad) add('p99 /auth/me at 100 req/s under login load', `${r.underLoad.p99} ms`, '≤ 25 ms', yes(r.underLoad.p99, r.underLoad.p99 <= 25));
  if (r.underLoad?.floorP99 !== undefined) add('… ÷ the same probe against the bare login floor', r.underLoad.ratioToFloor.toFixed(2), '≤ 1.25', yes(r.underLoad.ratioToFloor, r.underLoad.ratioToFloor <= 1.25));
  if (r.memory) {
    add('RSS idle', `${r.memory.idleMiB.toFixed(0)} MiB`, '≤ 90 MiB', yes(r.memory.idleMiB, r.memory.idleMiB <= 90));
    add('RSS peak, 50 connections of /auth/me', `${r.memory.peakMiB.toFixed(0)} MiB`, '≤ 150 MiB', yes(r.memory.peakMiB, r.memory.peakMiB <= 150));
  }
  if (r.start) add('start: node dist/server.js → /health 200', `${(r.start.ms / 1000).toFixed(2)} s`, '≤ 1 s', yes(r.start.ms, r.start.ms <= 1000));
  for (const [db, g] of Object.entries(r.growth ?? {})) {
    for (const name of GROWTH_PATHS) {
      if (g[name]) add(`${db}, ${g.users} users: p99 ${name}`, `${g[name].p99} ms`, '≤ 50 ms', g[name].p99 <= 50);
    }
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => String(row[i]).length)));
  const line = (row) => `| ${row.map((cell, i) => String(cell).padEnd(widths[i])).join(' | ')} |`;
  const table = [line(rows[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');

  const notes = [];
  const m = r.machine;
  notes.push(`${m.cores} cores (${m.cpu}), Node ${m.node}, thread pool ${m.threadpool}, load average at start ${m.loadAverage.map((l) => l.toFixed(1)).join(' ')}`);
  notes.push(`PBKDF2 ${r.settings.iterations} iterations, ${SECONDS} s per measurement, ${ROUNDS} alternating rounds, LOG_LEVEL ${r.settings.logLevel}; medians of per-round figures`);
  if (r.apiKey) {
    notes.push(`/auth/me by API key rounds (req/s): key ${r.apiKey.apiKey.perSecondPerRound.join(' / ')}, bearer ${r.apiKey.bearer.perSecondPerRound.join(' / ')}, bare ${r.apiKey.bare.perSecondPerRound.join(' / ')}`);
    notes.push(`  server CPU µs per request: key ${r.apiKey.apiKey.cpuPerRequestPerRound.join(' / ')}, bearer ${r.apiKey.bearer.cpuPerRequestPerRound.join(' / ')}, bare ${r.apiKey.bare.cpuPerRequestPerRound.join(' / ')}`);
  }
  if (r.me) {
    notes.push(`/auth/me rounds (req/s): bearer ${r.me.bearer.perSecondPerRound.join(' / ')}, cookie ${r.me.cookie.perSecondPerRound.join(' / ')}, bare ${r.me.bare.perSecondPerRound.join(' / ')}${r.me.pinned ? ' (servers on core 0, load generator on core 1)' : ''}`);
    if (r.me.session) notes.push(`  auth_session ${r.me.session.perSecondPerRound.join(' / ')} req/s, ratios ${fixed(r.me.session.ratioPerRound)}, CPU µs ${r.me.session.cpuPerRequestPerRound.join(' / ')}`);
    notes.push(`  ratios per round: bearer ${fixed(r.me.bearer.ratioPerRound)}, cookie ${fixed(r.me.cookie.ratioPerRound)}`);
    notes.push(`  server CPU µs per request: bearer ${r.me.bearer.cpuPerRequestPerRound.join(' / ')}, cookie ${r.me.cookie.cpuPerRequestPerRound.join(' / ')}, bare ${r.me.bare.cpuPerRequestPerRound.join(' / ')} (ratio per round ${fixed(r.me.bearer.cpuRatioPerRound)})`);
  }
  if (r.redis) notes.push(`Redis /auth/me rounds: ${r.redis.bearer.perSecondPerRound.join(' / ')} vs bare ${r.redis.bare.perSecondPerRound.join(' / ')} req/s, ratios ${fixed(r.redis.bearer.ratioPerRound)}, CPU µs ${r.redis.bearer.cpuPerRequestPerRound.join(' / ')}`);
  const together = [
    ...Object.entries(r.me ?? {}).filter(([, v]) => v?.sideBySide).map(([name, v]) => [name, v.sideBySide]),
    ...(r.apiKey ? [['API key', r.apiKey.apiKey.sideBySide]] : []),
    ...(r.redis ? [['Redis', r.redis.bearer.sideBySide]] : []),
  ];
  if (together.length > 0) notes.push(`side by side with bare Express (same moments, a generator each): ${together.map(([name, t]) => `${name} ${t.ratio.toFixed(2)} (${fixed(t.ratioPerRound)})`).join(', ')}`);
  if (r.login) notes.push(`logins/s per round ${fixed(r.login.perSecondPerRound, 1)} vs ceiling ${fixed(r.login.ceilingPerRound, 1)} (ratios ${fixed(r.login.ratioPerRound)}), server CPU ${r.login.cpuMsPerLogin.toFixed(1)} ms per login incl. hashing; bare-Express login floor ${fixed(r.login.floorRatioPerRound)} of the ceiling (median ${r.login.floorRatio.toFixed(2)}, ${r.login.cpuMsPerFloorLogin.toFixed(1)} ms of CPU per login); service ÷ floor per round ${fixed(r.login.ratioToFloorPerRound)}`);
  const bySplit = (split) => `main thread ${split.main.toFixed(2)}, hashing ${split.hashing.toFixed(2)}, other threads ${split.other.toFixed(2)}`;
  if (r.login?.cpuMsByThread) notes.push(`  CPU ms per login by thread: service ${bySplit(r.login.cpuMsByThread)}; floor ${bySplit(r.login.floorCpuMsByThread)}`);
  if (r.underLoad?.floorP99PerRound) notes.push(`the same probe against the bare login floor under its own login load: p99 per round ${r.underLoad.floorP99PerRound.join(' / ')} ms`);
  if (r.underLoad) notes.push(`under load p99 per round ${r.underLoad.p99PerRound.join(' / ')} ms, p50 ${r.underLoad.rounds.map((x) => x.p50).join(' / ')} ms, logins/s ${r.underLoad.rounds.map((x) => x.loginsPerSecond.toFixed(1)).join(' / ')}`);
  if (r.memory) notes.push(`RSS ${r.memory.afterStartMiB.toFixed(0)} MiB two seconds after start, ${r.memory.idleMiB.toFixed(0)} MiB after ${IDLE_SETTLE_MS / 1000} s idle, peak ${r.memory.peakMiB.toFixed(0)} MiB (a start on a current database); the first start, which applied the migrations, ${r.memory.firstStartIdleMiB?.toFixed(0)} MiB idle`);
  if (r.start) notes.push(`start per run ${r.start.perRound.join(' / ')} ms`);
  if (r.paths) notes.push(`POST /auth/refresh ${r.paths.refreshPerSecond.toFixed(0)} req/s, ${r.paths.refreshCpuMicros.toFixed(0)} µs CPU per request, p99 ${r.paths.refreshP99} ms`);
  if (r.paths) notes.push(`GET /admin/users (page) ${r.paths.adminPagePerSecond.toFixed(0)} req/s, ${r.paths.adminPageCpuMicros.toFixed(0)} µs CPU per request, p99 ${r.paths.adminPageP99} ms`);
  const oneByOne = (name, t) => (t ? `${name} p50 ${t.p50} ms, worst ${t.max} ms of ${t.runs}` : `${name} not measured (flow unavailable)`);
  if (r.paths) notes.push(`one at a time with a fresh mailed credential: ${oneByOne('POST /auth/otp/verify', r.paths.otpVerify)}; ${oneByOne('GET /auth/magic-link/verify', r.paths.magicLinkVerify)}`);
  for (const [db, g] of Object.entries(r.growth ?? {})) {
    notes.push(`growth ${db}: ${g.users} users inserted in ${g.insertSeconds.toFixed(1)} s, machine quiet ${g.settleSeconds?.toFixed(0)} s later; search "${g.searchTerm}" matches ${g.searchTotalExact === false ? 'more than ' : ''}${g.searchMatches}; one PBKDF2 hash alone ${g.oneHashMs.toFixed(0)} ms${g.loginFloor ? `; bare-Express login floor at the same rate p50 ${g.loginFloor.p50} ms, p99 ${g.loginFloor.p99} ms` : ''}; p50 ${GROWTH_PATHS.filter((n) => g[n]).map((n) => `${n} ${g[n].p50} ms`).join(', ')}; samples per path ${GROWTH_PATHS.filter((n) => g[n]).map((n) => g[n].samples).join(' / ')}`);
  }
  return `\n${table}\n\n${notes.join('\n')}\n`;
}

main()
  .catch((err) => {
    process.stderr.write(`bench failed: ${err.stack || err}\n`);
    process.exitCode = 1;
  })
  .finally(async () => {
    for (const child of children) await stop(child);
    // A failed step may leave the mail listener or a connection open: the run is over either way.
    process.exit();
  });
