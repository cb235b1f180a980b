'use strict';
/*
 * Benchmark (not a test): `npm run bench` (builds first) or `node bench/run.js` after `npm run build`.
 *
 * Starts the built server (node dist/server.js, NODE_ENV=production, a temporary SQLite database, the
 * in-process store) and a bare Express server, then measures with autocannon:
 *   1. logins per second against the machine's PBKDF2 ceiling (measured in the same run)   target ≥ 85 %
 *   2. GET /auth/me (Bearer) requests per second against bare Express with the same JSON   target ≥ 60 %
 *   3. p99 latency of GET /auth/me while logins saturate the CPU                           target < 50 ms
 *
 * Logins come from many client addresses (TRUST_PROXY=loopback + X-Forwarded-For, one address per
 * request), so the 5-per-minute login limit stays in force and out of the way: no bench-only knob.
 *
 * Environment: BENCH_SECONDS (default 10 per measurement), BENCH_ITERATIONS (PBKDF2 iterations,
 * default 100000 like production), BENCH_LOG_LEVEL (server LOG_LEVEL, default info), BENCH_DATABASE_URL,
 * BENCH_REDIS_URL (default: none, the in-process store), BENCH_CPU_PROF=1 (writes .cpuprofile files of the
 * server into bench/profiles/), BENCH_SKIP_BUILD=1, BENCH_ONLY=me (only measure 2), and for experiments
 * BENCH_ENV_<NAME>=value (passed to the server as NAME=value) and BENCH_DIST (another build directory).
 * Prints a table and writes bench/results.json.
 */
const { spawn, execSync, execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');

const ROOT = path.resolve(__dirname, '..');
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS || 100000);
const CORES = os.availableParallelism();
// libuv runs crypto.pbkdf2 on its thread pool (4 threads by default): never fewer threads than cores.
const THREADPOOL = Math.max(4, CORES);
const PASSWORD = 'bench-password-123';

const children = [];

function log(line) {
  process.stderr.write(`${line}\n`);
}

async function sparePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForHealth(url, child, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server at ${url} did not become healthy`);
}

function start(script, env, args = []) {
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

function cannon(options) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ duration: SECONDS, ...options }, (err, result) => (err ? reject(err) : resolve(result)));
    instance.on('error', reject);
  });
}

function measureCeiling(seconds) {
  const out = execFileSync(process.execPath, [path.join(__dirname, 'pbkdf2-ceiling.js')], {
    env: { PATH: process.env.PATH, UV_THREADPOOL_SIZE: String(THREADPOOL), ITERATIONS: String(ITERATIONS), SECONDS: String(seconds) },
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop());
}

/** A fresh client address per request: 10.x.y.z from a counter (TRUST_PROXY=loopback trusts our header). */
let addressCounter = 0;
function nextAddress() {
  addressCounter += 1;
  const n = addressCounter;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

function loginRequests(email) {
  const body = JSON.stringify({ email, password: PASSWORD });
  return [
    {
      method: 'POST',
      path: '/auth/login',
      headers: { 'content-type': 'application/json' },
      body,
      setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-forwarded-for': nextAddress() } }),
    },
  ];
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

/** CPU time (user + system, in clock ticks) a process has used so far; NaN where /proc is missing. */
const TICK_US = 1e6 / 100;
function cpuTicks(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return NaN;
  }
}

/** Several autocannon rounds as one: requests per second over the summed time, worst p99. */
function combine(results) {
  const total = results.reduce((sum, r) => sum + r['2xx'], 0);
  const seconds = results.reduce((sum, r) => sum + r.duration, 0);
  return {
    total,
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    requests: { average: total / seconds },
    latency: { p99: Math.max(...results.map((r) => r.latency.p99)), p50: results[0].latency.p50 },
    perRound: results.map((r) => Math.round(r['2xx'] / r.duration)),
  };
}

function pct(a, b) {
  return `${((a / b) * 100).toFixed(1)} %`;
}

async function main() {
  if (!process.env.BENCH_SKIP_BUILD) {
    log('building (npm run build)…');
    execSync('npm run build', { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  }


  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-bench-'));
  const port = await sparePort();
  const url = `http://127.0.0.1:${port}`;
  const serverEnv = {
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: url,
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
    DATABASE_URL: process.env.BENCH_DATABASE_URL || `sqlite:${path.join(dir, 'bench.sqlite')}`,
    DATA_DIR: dir,
    PASSWORD_PBKDF2_ITERATIONS: String(ITERATIONS),
    TRUST_PROXY: 'loopback',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'info',
    ...(process.env.BENCH_REDIS_URL ? { REDIS_URL: process.env.BENCH_REDIS_URL } : {}),
  };
  const profileDir = path.join(__dirname, 'profiles');
  const nodeArgs = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  // Experiments: BENCH_ENV_<NAME>=value passes NAME=value to the server; BENCH_DIST runs another build.
  for (const [name, value] of Object.entries(process.env)) if (name.startsWith('BENCH_ENV_')) serverEnv[name.slice('BENCH_ENV_'.length)] = value;
  const server = start(path.join(ROOT, process.env.BENCH_DIST || 'dist', 'server.js'), serverEnv, nodeArgs);
  await waitForHealth(url, server);

  // A user (the first registration: admin) and a token.
  const email = `bench-${Date.now()}@example.test`;
  const registered = await fetch(`${url}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (registered.status !== 201) throw new Error(`register failed: ${registered.status} ${await registered.text()}`);
  const { token } = await registered.json();
  const meResponse = await fetch(`${url}/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  if (meResponse.status !== 200) throw new Error(`/auth/me failed: ${meResponse.status}`);
  const meBody = await meResponse.json();

  const barePort = await sparePort();
  const bare = start(path.join(__dirname, 'bare-server.js'), { PORT: String(barePort), BENCH_BODY: JSON.stringify(meBody) });
  await new Promise((resolve, reject) => {
    bare.once('message', resolve);
    bare.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  const bareUrl = `http://127.0.0.1:${barePort}`;
  const bareCheck = await fetch(`${bareUrl}/auth/me`);
  if (JSON.stringify(await bareCheck.json()) !== JSON.stringify(meBody)) throw new Error('bare server answers differently');

  const meRequest = { url: `${url}/auth/me`, headers: { authorization: `Bearer ${token}` } };
  const warm = (opts) => cannon({ ...opts, duration: 2 });

  // (2) /auth/me against bare Express, same JSON, same connections. Each server pinned to one core and
  // the load generator to another (when taskset exists), rounds interleaved so background load hits both alike.
  log('GET /auth/me vs bare Express…');
  const pinned = pin([server.pid, bare.pid], 0) && pin([process.pid], 1);
  await warm({ ...meRequest, connections: 10 });
  await warm({ url: `${bareUrl}/auth/me`, connections: 10 });
  const rounds = 4;
  const meRounds = [];
  const bareRounds = [];
  const cpu = { me: 0, bare: 0 };
  for (let i = 0; i < rounds; i++) {
    let before = cpuTicks(server.pid);
    meRounds.push(await cannon({ ...meRequest, connections: 10, duration: SECONDS / 2 }));
    cpu.me += cpuTicks(server.pid) - before;
    before = cpuTicks(bare.pid);
    bareRounds.push(await cannon({ url: `${bareUrl}/auth/me`, connections: 10, duration: SECONDS / 2 }));
    cpu.bare += cpuTicks(bare.pid) - before;
  }
  if (pinned) pin([server.pid, process.pid], null);
  await stop(bare);
  const me = combine(meRounds);
  const bareResult = combine(bareRounds);
  const cpuPerRequest = {
    me: Number.isNaN(cpu.me) ? null : (cpu.me * TICK_US) / me.total,
    bare: Number.isNaN(cpu.bare) ? null : (cpu.bare * TICK_US) / bareResult.total,
  };
  if (process.env.BENCH_ONLY === 'me') {
    // Experiments on the /auth/me path only.
    await stop(server);
    fs.rmSync(dir, { recursive: true, force: true });
    process.stdout.write(
      `GET /auth/me ${me.requests.average.toFixed(0)} req/s vs bare ${bareResult.requests.average.toFixed(0)} req/s: ${pct(me.requests.average, bareResult.requests.average)}` +
        ` (rounds ${me.perRound.join(' / ')} vs ${bareResult.perRound.join(' / ')}); CPU per request ${cpuPerRequest.me?.toFixed(0)} µs vs ${cpuPerRequest.bare?.toFixed(0)} µs\n`,
    );
    return;
  }

  // (1) logins per second, many client addresses, enough in flight to keep every core hashing, against
  // the PBKDF2 ceiling; rounds interleaved (ceiling, logins, ceiling, …) so background load hits both alike.
  log(`POST /auth/login vs the PBKDF2 ceiling (${ITERATIONS} iterations, ${CORES} cores, thread pool ${THREADPOOL})…`);
  const loginConnections = THREADPOOL * 4;
  await warm({ url, connections: loginConnections, requests: loginRequests(email) });
  const ceilingRounds = [];
  const loginRounds = [];
  for (let i = 0; i < 3; i++) {
    ceilingRounds.push(measureCeiling(SECONDS / 2).hashesPerSecond);
    loginRounds.push(await cannon({ url, connections: loginConnections, requests: loginRequests(email), duration: SECONDS / 2 }));
  }
  const ceiling = { hashesPerSecond: ceilingRounds.reduce((a, b) => a + b, 0) / ceilingRounds.length, perRound: ceilingRounds };
  const login = combine(loginRounds);

  // (3) /auth/me latency while logins saturate the CPU: a steady 100 requests/s of /auth/me.
  log('GET /auth/me latency under login load…');
  const [loaded, meUnderLoad] = await Promise.all([
    cannon({ url, connections: loginConnections, requests: loginRequests(email) }),
    cannon({ ...meRequest, connections: 4, overallRate: 100 }),
  ]);

  await stop(server);
  fs.rmSync(dir, { recursive: true, force: true });

  const loginRate = login.requests.average;
  const results = {
    date: new Date().toISOString(),
    machine: { cores: CORES, cpu: os.cpus()[0]?.model, node: process.version, threadpool: THREADPOOL },
    iterations: ITERATIONS,
    pbkdf2CeilingPerSecond: ceiling.hashesPerSecond,
    login: { perSecond: loginRate, ok: login.total, other: login.non2xx, p50: login.latency.p50, p99: login.latency.p99, ofCeiling: loginRate / ceiling.hashesPerSecond, perRound: login.perRound },
    pbkdf2CeilingPerRound: ceiling.perRound,
    me: { perSecond: me.requests.average, ok: me.total, other: me.non2xx, p99: me.latency.p99, perRound: me.perRound, cpuMicrosPerRequest: cpuPerRequest.me },
    bare: { perSecond: bareResult.requests.average, p99: bareResult.latency.p99, perRound: bareResult.perRound, cpuMicrosPerRequest: cpuPerRequest.bare },
    pinned,
    meUnderLoad: { perSecond: meUnderLoad.requests.average, ok: meUnderLoad['2xx'], other: meUnderLoad.non2xx, p50: meUnderLoad.latency.p50, p99: meUnderLoad.latency.p99, max: meUnderLoad.latency.max, loginsPerSecond: loaded['2xx'] / (loaded.duration || SECONDS) },
  };
  fs.writeFileSync(path.join(__dirname, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);

  const rows = [
    ['Measure', 'Result', 'Baseline', 'Ratio / value', 'Target', 'Met'],
    ['Logins/s (POST /auth/login)', loginRate.toFixed(1), `${ceiling.hashesPerSecond.toFixed(1)} PBKDF2/s`, pct(loginRate, ceiling.hashesPerSecond), '≥ 85 %', loginRate / ceiling.hashesPerSecond >= 0.85 ? 'yes' : 'NO'],
    ['GET /auth/me req/s (Bearer)', me.requests.average.toFixed(0), `${bareResult.requests.average.toFixed(0)} bare Express`, pct(me.requests.average, bareResult.requests.average), '≥ 60 %', me.requests.average / bareResult.requests.average >= 0.6 ? 'yes' : 'NO'],
    ['GET /auth/me p99 under login load', `${meUnderLoad.latency.p99} ms`, `${results.meUnderLoad.loginsPerSecond.toFixed(1)} logins/s`, `p50 ${meUnderLoad.latency.p50} ms`, '< 50 ms', meUnderLoad.latency.p99 < 50 ? 'yes' : 'NO'],
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => String(row[i]).length)));
  const line = (row) => `| ${row.map((cell, i) => String(cell).padEnd(widths[i])).join(' | ')} |`;
  const table = [line(rows[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
  process.stdout.write(
    `\n${CORES} cores (${results.machine.cpu}), Node ${process.version}, PBKDF2 ${ITERATIONS} iterations, ${SECONDS} s per measurement\n\n${table}\n\n` +
      `non-2xx: login ${login.non2xx}, me ${me.non2xx}, me under load ${meUnderLoad.non2xx}; errors: login ${login.errors}, me ${me.errors}\n` +
      `logins per round ${login.perRound.join(' / ')} /s, PBKDF2 ceiling per round ${ceiling.perRound.map((r) => r.toFixed(1)).join(' / ')} /s\n` +
      `GET /auth/me rounds ${me.perRound.join(' / ')} req/s, bare ${bareResult.perRound.join(' / ')} req/s${pinned ? ' (server and bare on core 0, load generator on core 1)' : ''}\n` +
      (cpuPerRequest.me ? `server CPU per request: /auth/me ${cpuPerRequest.me.toFixed(0)} µs, bare ${cpuPerRequest.bare.toFixed(0)} µs\n` : ''),
  );
}

main()
  .catch((err) => {
    process.stderr.write(`bench failed: ${err.stack || err}\n`);
    process.exitCode = 1;
  })
  .finally(async () => {
    for (const child of children) await stop(child);
  });
