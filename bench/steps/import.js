'use strict';
// import: 100,000 users with bcrypt hashes into SQLite (1,000,000 into MariaDB when BENCH_MYSQL_URL answers), and
// the service's peak RSS while it reads a 50 MB import body (CONTRACT 17: ≤ 200 MiB, memory flat).
const crypto = require('node:crypto');
const http = require('node:http');
const { Readable } = require('node:stream');
const { MiB, log, sleep } = require('../lib/settings');
const { startService, stop } = require('../lib/processes');
const { registerUser, json, nextAddress } = require('../lib/clients');
const { PASSWORD } = require('../lib/settings');
const { rss } = require('../lib/proc-stats');
const { mysqlAvailable, withMysqlDatabase, sqliteEnv } = require('../lib/databases');

const IMPORT_USERS = Number(process.env.BENCH_IMPORT_USERS || 100000);
const IMPORT_USERS_MYSQL = Number(process.env.BENCH_IMPORT_USERS_MYSQL || 1000000);
/** Just under the import's 50 MB limit. */
const BIG_BODY_BYTES = 50 * 1024 * 1024 - 64 * 1024;
/** A record padded with JSON whitespace to about this size: the 50 MB body holds about 1,250 users. */
const PADDED_RECORD_BYTES = 40 * 1024;
/** Users per request (BENCH_IMPORT_PART): a record is about 150 bytes, so a part stays under the 50 MB limit (a million is four). */
const USERS_PER_REQUEST = Number(process.env.BENCH_IMPORT_PART || 250000);

/**
 * One bcrypt hash (cost 10, of "bench staple orbit 7 kettle", made once with bcryptjs) for every user: an import
 * stores hashes unchecked, so making 100,000 distinct ones would measure bcrypt, not the import.
 */
const BCRYPT_PASSWORD = 'bench staple orbit 7 kettle';
function bcryptHash() {
  return require('bcryptjs').hashSync(BCRYPT_PASSWORD, 10);
}

/** NDJSON records, generated as the upload is read (the bench holds no file either). */
function records(count, label, passwordHash, padTo = 0, from = 0) {
  let at = from;
  return Readable.from(
    (function* () {
      for (; at < from + count; at += 1) {
        const record = JSON.stringify({ email: `${label}-${at}@import.example.test`, passwordHash, firstName: 'Imported', role: 'viewer' });
        // Whitespace inside the object is valid JSON: a large record without a large field (the profile needs a definition).
        yield padTo > 0 ? `${record.slice(0, -1)}${' '.repeat(Math.max(0, padTo - record.length))}}\n` : `${record}\n`;
      }
    })(),
  );
}

/** Posts a stream to the import (chunked) and resolves with the status and the summary. */
function postImport(url, token, body) {
  return new Promise((resolve, reject) => {
    const target = new URL('/api/users/import', url);
    const req = http.request(target, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson', 'transfer-encoding': 'chunked' } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    body.pipe(req);
  });
}

/** Runs `fn` while sampling the service's RSS every 50 ms; answers fn's result and the peak. */
async function withPeakRss(pid, fn) {
  let peak = rss(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rss(pid))), 50);
  try {
    return { result: await fn(), peakMiB: peak / MiB };
  } finally {
    clearInterval(sampler);
    peak = Math.max(peak, rss(pid));
  }
}

/** Users whose search trigrams the service has still to write (an import's, until its fill is through). */
async function pendingSearchUsers(databaseUrl) {
  const sql = 'SELECT COUNT(*) AS n FROM users WHERE search_pending = 1';
  if (databaseUrl.startsWith('sqlite:')) {
    const sqlite3 = require('sqlite3');
    return new Promise((resolve, reject) => {
      const db = new sqlite3.Database(databaseUrl.slice('sqlite:'.length), sqlite3.OPEN_READONLY, (err) => {
        if (err) return reject(err);
        db.get(sql, (failure, row) => db.close(() => (failure ? reject(failure) : resolve(Number(row.n)))));
      });
    });
  }
  const connection = await require('mysql2/promise').createConnection(databaseUrl);
  try {
    const [[row]] = await connection.query(sql);
    return Number(row.n);
  } finally {
    await connection.end();
  }
}

/** Seconds from now until the service has indexed every imported user for search (its background fill). */
async function searchIndexFilled(databaseUrl) {
  const started = performance.now();
  while ((await pendingSearchUsers(databaseUrl)) > 0) await sleep(1000);
  return (performance.now() - started) / 1000;
}

/** Sign-ins timed after an import: each imported user's first (its bcrypt hash, then re-hashed) and second. */
const SIGN_IN_SAMPLES = 20;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One sign-in's time (ms), from an address of its own; throws unless it succeeds. */
async function timedSignIn(url, email, password) {
  const started = performance.now();
  const res = await json(`${url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() }, body: JSON.stringify({ email, password }) });
  if (res.status !== 200) throw new Error(`sign-in of ${email}: ${res.status}`);
  return performance.now() - started;
}

/**
 * The first sign-in with a foreign hash (bcrypt checked, the service's own hash written in its place) beside the
 * same users' second (the service's hash), one at a time: medians, ms.
 */
async function foreignHashSignIns(url, userLabel) {
  const first = [];
  const second = [];
  for (let at = 0; at < SIGN_IN_SAMPLES; at += 1) {
    const email = `${userLabel}-${at}@import.example.test`;
    first.push(await timedSignIn(url, email, BCRYPT_PASSWORD));
    second.push(await timedSignIn(url, email, BCRYPT_PASSWORD));
  }
  return { firstMs: median(first), secondMs: median(second) };
}

async function importInto(env, users, label) {
  const service = await startService(`import-${label}`, env);
  try {
    const { email, token } = await registerUser(service.url, `import-admin-${label}`);
    const hash = bcryptHash();
    const idleMiB = rss(service.child.pid) / MiB;
    // The 50 MB body first: both imports need a sign-in within the step-up window (10 minutes), which a large
    // import outlasts.
    const big = await withPeakRss(service.child.pid, () => postImport(service.url, token, records(Math.floor(BIG_BODY_BYTES / PADDED_RECORD_BYTES), `big${crypto.randomBytes(3).toString('hex')}`, hash, PADDED_RECORD_BYTES)));
    if (big.result.status !== 200 || big.result.body.failed !== 0) throw new Error(`50 MB import ${label}: ${big.result.status} ${JSON.stringify(big.result.body).slice(0, 500)}`);
    log(`  ${label}: a 50 MB body (${big.result.body.created} padded records): peak RSS ${big.peakMiB.toFixed(0)} MiB`);
    const started = performance.now();
    const userLabel = `u${crypto.randomBytes(3).toString('hex')}`;
    let peakMiB = 0;
    for (let from = 0; from < users; from += USERS_PER_REQUEST) {
      // A sign-in per part after the first: the step-up window (10 minutes) is shorter than a million users take.
      const signedIn = from === 0 ? { status: 200, body: { token } } : await json(`${service.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() }, body: JSON.stringify({ email, password: PASSWORD }) });
      if (signedIn.status !== 200) throw new Error(`import ${label}: sign-in ${signedIn.status}`);
      const count = Math.min(USERS_PER_REQUEST, users - from);
      const part = await withPeakRss(service.child.pid, () => postImport(service.url, signedIn.body.token, records(count, userLabel, hash, 0, from)));
      peakMiB = Math.max(peakMiB, part.peakMiB);
      if (part.result.status !== 200 || part.result.body.created !== count) throw new Error(`import ${label}: ${part.result.status} ${JSON.stringify(part.result.body).slice(0, 500)}`);
    }
    const seconds = (performance.now() - started) / 1000;
    log(`  ${label}: ${users} users in ${seconds.toFixed(1)} s (${Math.round(users / seconds)}/s), RSS ${idleMiB.toFixed(0)} → peak ${peakMiB.toFixed(0)} MiB`);
    // Their search trigrams are written after the import, in the background (migration 20261128007000).
    const indexSeconds = await searchIndexFilled(env.DATABASE_URL);
    log(`  ${label}: search index of the imported users filled ${indexSeconds.toFixed(1)} s after the import`);
    const signIns = await foreignHashSignIns(service.url, userLabel);
    log(`  ${label}: an imported user's first sign-in (bcrypt, then re-hashed) ${signIns.firstMs.toFixed(0)} ms, its second ${signIns.secondMs.toFixed(0)} ms (medians of ${SIGN_IN_SAMPLES})`);
    return { users, seconds, perSecond: users / seconds, idleMiB, peakMiB, bigBodyPeakMiB: big.peakMiB, bigBodyUsers: big.result.body.created, indexSeconds, signIns };
  } finally {
    await stop(service.child);
  }
}

/** The import on SQLite, then on MariaDB when it answers. */
async function measureImport(dir) {
  log(`import: ${IMPORT_USERS} users into SQLite…`);
  const results = { sqlite: await importInto(sqliteEnv(dir, 'import'), IMPORT_USERS, 'sqlite') };
  if (IMPORT_USERS_MYSQL > 0 && (await mysqlAvailable(process.env.BENCH_MYSQL_URL || 'mysql://root@127.0.0.1:3306'))) {
    log(`import: ${IMPORT_USERS_MYSQL} users into MariaDB…`);
    results.mysql = await withMysqlDatabase((url) => importInto({ ...sqliteEnv(dir, 'import-mysql'), DATABASE_URL: url }, IMPORT_USERS_MYSQL, 'mysql'));
  }
  return results;
}

module.exports = { measureImport };
