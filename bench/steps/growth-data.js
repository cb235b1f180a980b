'use strict';
// growth's data: grown users (with profiles and sessions) bulk-inserted, and the machine let settle after.
const crypto = require('node:crypto');
const { ITERATIONS, CORES, sleep } = require('../lib/settings');
const { machineTicks } = require('../lib/proc-stats');

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

module.exports = { insertUsers, settle };
