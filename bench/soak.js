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
const os = require('node:os');
const path = require('node:path');
const mysql = require('mysql2/promise');
const { startSmtpSink } = require('../test/support/smtp-sink.ts');
const { log, sleep } = require('./lib/settings');
const { sparePort, waitForHealth } = require('./lib/processes');
const { PASSWORD, stats, problems, fiveXx, mode, call, worker, checkLedger } = require('./soak/traffic');

const ROOT = path.resolve(__dirname, '..');
const SECONDS = Number(process.env.SOAK_SECONDS || 600);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY || 4);
const ITERATIONS = Number(process.env.SOAK_ITERATIONS || 10000);
const WARMUP_MS = Math.min(60_000, SECONDS * 200);
const RSS_WINDOW_MS = Math.min(30_000, SECONDS * 100);
const children = [];

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
    mode.magicLinks = probe.status === 400;
    log(`magic links: ${mode.magicLinks ? 'on' : 'not in this build'}`);

    const started = Date.now();
    const until = started + SECONDS * 1000;
    const rss = [];
    const sampler = setInterval(() => rss.push({ at: Date.now() - started, kb: rssKb(server.pid) }), 5000);
    const progress = setInterval(() => {
      const total = [...stats.values()].reduce((sum, entry) => sum + entry.count, 0);
      log(`  ${Math.round((Date.now() - started) / 1000)} s: ${total} requests, ${fiveXx()} 5xx, ${problems.length} problems, RSS ${rssKb(server.pid)} kB`);
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
      fiveXx: fiveXx(),
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
    log(`${total} requests in ${result.seconds} s (${result.requestsPerSecond}/s), ${fiveXx()} 5xx, ${problems.length} unexpected answers`);
    log(`ledger: ${ledgerResult.users} users, ${ledgerResult.signIns} sign-ins, ${ledgerResult.revocations} revocations acknowledged; ${ledgerResult.missing.length} missing from the database`);
    log(`RSS: ${result.rssKb.baseline} kB after warm-up, ${result.rssKb.final} kB at the end (${result.rssKb.growthPercent} %), max ${result.rssKb.max} kB`);
    for (const line of [...problems, ...ledgerResult.missing].slice(0, 20)) log(`  ! ${line}`);
    failed = fiveXx() > 0 || problems.length > 0 || ledgerResult.missing.length > 0 || !(growth < 0.1);
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
