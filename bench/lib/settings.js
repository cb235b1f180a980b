'use strict';
// The bench's settings (read once from the environment) and the small helpers every step uses.
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const BENCH = path.join(ROOT, 'bench');
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

module.exports = {
  ROOT,
  BENCH,
  SECONDS,
  ROUNDS,
  ITERATIONS,
  GROWTH_USERS,
  GROWTH_USERS_MYSQL,
  GROWTH_PATHS,
  GROWTH_SECONDS,
  GROWTH_SAMPLES,
  REDIS_URL,
  MYSQL_URL,
  CORES,
  THREADPOOL,
  PASSWORD,
  MiB,
  step,
  log,
  sleep,
  median,
  fixed,
};
