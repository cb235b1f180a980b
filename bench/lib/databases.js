'use strict';
// The databases and Redis a step runs against: scratch SQLite files, MariaDB when it answers, Redis when it answers.
const crypto = require('node:crypto');
const path = require('node:path');
const { MYSQL_URL, MiB, log } = require('./settings');

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
 * The growth step's database of that name is used and kept (created when missing), so a million users are loaded
 * once for several runs (the load takes half an hour with the search's trigram triggers); by default, and for
 * every step that needs an empty database (import, webhooks, dashboard), a scratch one is created and dropped.
 */
const MYSQL_KEPT_DATABASE = process.env.BENCH_MYSQL_DATABASE || '';

/**
 * Calls `fn(url, jwtSecret)` with a database for the step. The secret is random for a scratch database; for the kept
 * one it is derived from its name, since the service encrypts its signing keys in the database with JWT_SECRET and
 * a later run must read them.
 */
async function withMysqlDatabase(fn, { kept = false } = {}) {
  const mysql = require('mysql2/promise');
  const keep = kept && MYSQL_KEPT_DATABASE !== '';
  const name = keep ? MYSQL_KEPT_DATABASE : `bench_${crypto.randomBytes(4).toString('hex')}`;
  const jwtSecret = keep ? crypto.createHash('sha256').update(`auth-service bench database ${name}`).digest('hex') : crypto.randomBytes(32).toString('hex');
  const connection = await mysql.createConnection(MYSQL_URL);
  await connection.query(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  const [[{ pool }]] = await connection.query('SELECT @@innodb_buffer_pool_size AS pool');
  if (pool < MYSQL_BUFFER_POOL_MIB * MiB) await connection.query(`SET GLOBAL innodb_buffer_pool_size = ${MYSQL_BUFFER_POOL_MIB * MiB}`);
  log(`  mysql: InnoDB buffer pool ${Math.round(pool / MiB)} MiB, ${pool < MYSQL_BUFFER_POOL_MIB * MiB ? `raised to ${MYSQL_BUFFER_POOL_MIB} MiB for the step` : 'kept'}`);
  try {
    return await fn(`${MYSQL_URL.replace(/\/$/, '')}/${name}`, jwtSecret);
  } finally {
    if (pool < MYSQL_BUFFER_POOL_MIB * MiB) await connection.query(`SET GLOBAL innodb_buffer_pool_size = ${pool}`);
    if (keep) log(`  mysql: database ${name} kept (BENCH_MYSQL_DATABASE)`);
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

module.exports = { mysqlAvailable, withMysqlDatabase, redisAvailable, sqliteEnv };
