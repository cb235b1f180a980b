'use strict';
// webhooks: events per second through the outbox worker to an https receiver that answers 200, and the delivery
// latency p99 (issue 51: 1,000 events/s sustained, p99 ≤ 2 s). SQLite, then MariaDB when it answers.
const crypto = require('node:crypto');
const fs = require('node:fs');
const https = require('node:https');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { Webhook } = require('standardwebhooks');
const { log } = require('../lib/settings');
const { startService, stop } = require('../lib/processes');
const { json, registerUser } = require('../lib/clients');
const { mysqlAvailable, withMysqlDatabase, sqliteEnv } = require('../lib/databases');

const RATE = Number(process.env.BENCH_WEBHOOK_RATE || 1000);
const SECONDS = Number(process.env.BENCH_WEBHOOK_SECONDS || 30);
/** Rows written per tick: RATE / (1000 / TICK_MS) per tick. */
const TICK_MS = 50;
/** After the producer stops, how long the backlog may take to drain before the step gives up on it. */
const DRAIN_LIMIT_MS = 60_000;

/** A self-signed certificate for 127.0.0.1, trusted by the service through NODE_EXTRA_CA_CERTS. */
function certificate(dir) {
  const key = path.join(dir, 'receiver-key.pem');
  const cert = path.join(dir, 'receiver-cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
  return { key, cert };
}

/** The receiver: answers 200 at once, notes when each delivery arrived; every 50th signature is verified with the spec's library. */
async function startReceiver(tls) {
  const arrivals = new Map();
  let verifier;
  let badSignatures = 0;
  let duplicates = 0;
  const server = https.createServer({ key: fs.readFileSync(tls.key), cert: fs.readFileSync(tls.cert), keepAliveTimeout: 65_000 }, (req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const id = req.headers['webhook-id'];
      if (arrivals.has(id)) duplicates += 1;
      else arrivals.set(id, Date.now());
      if (verifier && arrivals.size % 50 === 0) {
        try {
          verifier.verify(Buffer.concat(chunks).toString('utf8'), req.headers);
        } catch {
          badSignatures += 1;
        }
      }
      res.writeHead(200).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${server.address().port}/hook`,
    arrivals,
    verifyWith: (secret) => (verifier = new Webhook(secret)),
    counts: () => ({ badSignatures, duplicates }),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * Writes outbox rows as the service's own transactions write them (one row per event and endpoint), RATE a second
 * for SECONDS: the worker is what is measured. Each row's creation time is noted for its latency.
 */
async function produce(databaseUrl, endpointId) {
  const { Sequelize } = require('sequelize');
  const sequelize = new Sequelize(databaseUrl, { logging: false, pool: { max: 2 } });
  if (sequelize.getDialect() === 'sqlite') await sequelize.query('PRAGMA busy_timeout = 5000');
  const created = new Map();
  let deadlocks = 0;
  const perTick = Math.max(1, Math.round((RATE * TICK_MS) / 1000));
  const started = Date.now();
  let tick = 0;
  while (Date.now() - started < SECONDS * 1000) {
    const now = new Date();
    const rows = [];
    for (let i = 0; i < perTick; i++) {
      const id = `msg_${crypto.randomBytes(16).toString('hex')}`;
      const payload = JSON.stringify({ type: 'user.updated', timestamp: now.toISOString(), data: { user: { id: crypto.randomUUID(), email: `bench-${i}@example.test` }, changes: ['role'] } });
      rows.push({ id, kind: 'webhook', endpoint_id: endpointId, event_type: 'user.updated', payload, status: 'pending', attempts: 0, next_attempt_at: now, created_at: now, updated_at: now });
      created.set(id, now.getTime());
    }
    // As the service's event-producing transactions do (transactionWithRetry): a deadlock victim writes again.
    for (let attempt = 1; ; attempt += 1) {
      try {
        await sequelize.getQueryInterface().bulkInsert('outbox', rows);
        break;
      } catch (err) {
        if (attempt >= 6 || err.parent?.errno !== 1213) throw err;
        deadlocks += 1;
      }
    }
    tick += 1;
    const wait = started + tick * TICK_MS - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  await sequelize.close();
  return { created, producedSeconds: (Date.now() - started) / 1000, deadlocks };
}

async function measureOn(label, env, tls) {
  const receiver = await startReceiver(tls);
  const service = await startService(`webhooks-${label}`, { ...env, ALLOW_PRIVATE_OUTBOUND: 'true', NODE_EXTRA_CA_CERTS: tls.cert });
  try {
    const { token } = await registerUser(service.url, `webhooks-${label}`);
    const made = await json(`${service.url}/api/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, events: ['*'] }),
    });
    if (made.status !== 201) throw new Error(`webhook endpoint: ${made.status} ${JSON.stringify(made.body)}`);
    receiver.verifyWith(made.body.secret);
    const { created, producedSeconds, deadlocks } = await produce(env.DATABASE_URL, made.body.webhook.id);
    const deadline = Date.now() + DRAIN_LIMIT_MS;
    while ([...created.keys()].some((id) => !receiver.arrivals.has(id)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    const latencies = [];
    let lastArrival = 0;
    for (const [id, at] of created) {
      const arrived = receiver.arrivals.get(id);
      if (arrived === undefined) continue;
      latencies.push(arrived - at);
      lastArrival = Math.max(lastArrival, arrived);
    }
    latencies.sort((a, b) => a - b);
    const first = Math.min(...created.values());
    const result = {
      events: created.size,
      delivered: latencies.length,
      offeredPerSecond: Math.round(created.size / producedSeconds),
      deliveredPerSecond: Math.round(latencies.length / ((lastArrival - first) / 1000)),
      p50Ms: latencies[Math.floor(latencies.length * 0.5)],
      p99Ms: latencies[Math.floor(latencies.length * 0.99)],
      maxMs: latencies[latencies.length - 1],
      producerDeadlocks: deadlocks,
      ...receiver.counts(),
    };
    log(`  ${label}: ${result.delivered}/${result.events} delivered, ${result.deliveredPerSecond}/s (offered ${result.offeredPerSecond}/s), latency p50 ${result.p50Ms} ms p99 ${result.p99Ms} ms max ${result.maxMs} ms, duplicates ${result.duplicates}, bad signatures ${result.badSignatures}, producer inserts written again after a deadlock ${deadlocks}`);
    return result;
  } finally {
    await stop(service.child);
    await receiver.close();
  }
}

async function measureWebhooks(dir) {
  const tls = certificate(dir);
  log(`webhooks: ${RATE} events/s for ${SECONDS} s through the outbox to an https receiver…`);
  const results = { sqlite: await measureOn('sqlite', sqliteEnv(dir, 'webhooks'), tls) };
  if (await mysqlAvailable(process.env.BENCH_MYSQL_URL || 'mysql://root@127.0.0.1:3306')) {
    results.mysql = await withMysqlDatabase((url) => measureOn('mysql', { ...sqliteEnv(dir, 'webhooks-mysql'), DATABASE_URL: url }, tls));
  }
  return results;
}

module.exports = { measureWebhooks };
