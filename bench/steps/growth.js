'use strict';
// growth: 100,000 users on SQLite, 1,000,000 on MariaDB, then each path's p99 at a steady low rate (≤ 50 ms).
const crypto = require('node:crypto');
const { ITERATIONS, PASSWORD, GROWTH_USERS, GROWTH_USERS_MYSQL, GROWTH_SECONDS, GROWTH_SAMPLES, MYSQL_URL, log, median } = require('../lib/settings');
const { startService, startBare, stop } = require('../lib/processes');
const { paced } = require('../lib/load');
const { nextAddress, pacedLogin, json, registerUser } = require('../lib/clients');
const { mysqlAvailable, withMysqlDatabase, sqliteEnv } = require('../lib/databases');
const { insertUsers, settle } = require('./growth-data');

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

/** growth on SQLite, then on MariaDB when it answers (a scratch database, or BENCH_MYSQL_DATABASE kept). */
async function measureGrowthEverywhere(dir) {
  log(`growth: ${GROWTH_USERS} users on SQLite…`);
  const out = { sqlite: await measureGrowth('sqlite', sqliteEnv(dir, 'growth').DATABASE_URL, { DATA_DIR: dir, JWT_SECRET: crypto.randomBytes(32).toString('hex') }) };
  if (await mysqlAvailable(MYSQL_URL)) {
    log(`growth: ${GROWTH_USERS_MYSQL} users on MariaDB…`);
    out.mysql = await withMysqlDatabase((url, jwtSecret) => measureGrowth('mysql', url, { DATA_DIR: dir, JWT_SECRET: jwtSecret }, GROWTH_USERS_MYSQL), { kept: true });
  } else log(`MariaDB at ${MYSQL_URL} not reachable: growth step on SQLite only`);
  return out;
}

module.exports = { measureGrowthEverywhere };
