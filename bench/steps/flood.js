'use strict';
// flood: a credential-stuffing flood (issue 51). Can the people who signed in before still sign in?
const crypto = require('node:crypto');
const http = require('node:http');
const path = require('node:path');
const { fork } = require('node:child_process');
const { sleep, PASSWORD, MiB } = require('../lib/settings');
const { startService, stop } = require('../lib/processes');
const { rss } = require('../lib/proc-stats');
const { sqliteEnv } = require('../lib/databases');
const { send, paced, percentile } = require('../lib/paced');

const FLOOD_SECONDS = Number(process.env.BENCH_FLOOD_SECONDS || 60);
const MULTIPLE = Number(process.env.BENCH_FLOOD_MULTIPLE || 10);
const KNOWN_USERS = 60;
const ATTACK_ADDRESSES = 10_000;
const STUFFING_LIST = 50_000;
/** Addresses as X-Forwarded-For (the service trusts the loopback proxy): 10.x.y.z from a number. */
const address = (n) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

const statuses = (results) => results.reduce((counts, r) => ({ ...counts, [r.status]: (counts[r.status] || 0) + 1 }), {});
const succeeded = (results) => results.filter((r) => r.status === 200).length;

/**
 * A service of its own (SQLite, trusted loopback proxy). Known users each sign in once from their browser (keeping
 * every cookie it is given); the service's login capacity is measured with right passwords from new addresses; then,
 * for FLOOD_SECONDS, wrong passwords at MULTIPLE × that capacity from 10,000 addresses over a 50,000-address list
 * (mostly unknown, every 50th a known user's), while the known users sign in at 2/s in total from their browsers and
 * GET /auth/me is probed at 20/s, from this process and from one of its own (the figure judged: this process's own
 * event loop, sending the flood and reading its answers, delays the times it takes). Targets: ≥ 99 % of those sign-ins succeed with p99 ≤ 1 s, /auth/me p99 ≤ 2× its
 * quiet value, no 5xx, refusals with Retry-After, memory bounded.
 */
async function measureFlood(dir) {
  const service = await startService('flood', { ...sqliteEnv(dir, 'flood'), LOG_LEVEL: 'warn' });
  const base = service.url;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  try {
    const admin = JSON.parse((await send(agent, base, 'POST', '/auth/register', { body: { email: 'flood-admin@example.com', password: PASSWORD, username: 'floodadmin' }, headers: { 'x-forwarded-for': '10.250.0.1' } })).text);
    const users = [];
    for (let k = 0; k < KNOWN_USERS; k++) {
      const email = `known${k}@example.com`;
      const made = await send(agent, base, 'POST', '/api/users', { body: { email, password: PASSWORD, username: `known${k}` }, headers: { authorization: `Bearer ${admin.token}` } });
      if (made.status !== 201) throw new Error(`flood: creating a user answered ${made.status}`);
      users.push({ email, home: address(0xfa0100 + k), jar: new Map() });
    }
    const probeToken = JSON.parse((await send(agent, base, 'POST', '/auth/login', { body: { email: users[0].email, password: PASSWORD }, headers: { 'x-forwarded-for': '10.251.0.1' } })).text).token;

    // Capacity: right passwords, 8 at a time, each from a new address, for 8 s.
    let sent = 0;
    let done = 0;
    const capacityStart = performance.now();
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (performance.now() - capacityStart < 8000) {
        const user = users[sent % users.length];
        sent += 1;
        if ((await send(agent, base, 'POST', '/auth/login', { body: { email: user.email, password: PASSWORD }, headers: { 'x-forwarded-for': address(0x0c0000 + sent) } })).status === 200) done += 1;
      }
    }));
    const capacity = done / ((performance.now() - capacityStart) / 1000);
    await sleep(2000);

    const knownAgent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    const probeAgent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    const knownSignIn = async (i) => {
      const user = users[i % users.length];
      const cookie = [...user.jar].map(([name, value]) => `${name}=${value}`).join('; ');
      const res = await send(knownAgent, base, 'POST', '/auth/login', { body: { email: user.email, password: PASSWORD }, headers: { 'x-forwarded-for': user.home, ...(cookie ? { cookie } : {}) } });
      for (const setCookie of res.cookies || []) {
        const [pair] = setCookie.split(';');
        const at = pair.indexOf('=');
        const value = pair.slice(at + 1);
        if (value) user.jar.set(pair.slice(0, at), value);
        else user.jar.delete(pair.slice(0, at));
      }
      return res;
    };
    const probe = () => send(probeAgent, base, 'GET', '/auth/me', { headers: { authorization: `Bearer ${probeToken}` } });
    // The same probe from a process of its own: what the service answers, without this process's wait to send and read.
    const probeApart = (seconds, delayMs = 0) =>
      new Promise((resolve, reject) => {
        const child = fork(path.join(__dirname, '..', 'lib', 'probe-process.js'), [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
        child.once('message', resolve);
        child.once('error', reject);
        child.send({ base, token: probeToken, rate: 20, seconds, delayMs });
      });
    for (let k = 0; k < users.length; k++) await knownSignIn(k);
    const [quietSignIns, quietProbes, quietApart] = await Promise.all([paced(2, 15, knownSignIn), paced(20, 15, probe), probeApart(15)]);

    const attackAgent = new http.Agent({ keepAlive: true, maxSockets: 2048 });
    const rate = Math.round(capacity * MULTIPLE);
    const list = Array.from({ length: STUFFING_LIST }, (_, k) => (k % 50 === 0 ? users[k % users.length].email : `victim${k}@example.org`));
    let rssPeak = 0;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rss(service.child.pid) / MiB)), 200);
    const attack = (i) => send(attackAgent, base, 'POST', '/auth/login', { body: { email: list[i % list.length], password: `wrong-${crypto.randomBytes(4).toString('hex')}` }, headers: { 'x-forwarded-for': address(0x200000 + ((i * 7919) % ATTACK_ADDRESSES)) } });
    const [attacks, signIns, probes, apart] = await Promise.all([
      paced(rate, FLOOD_SECONDS, attack),
      sleep(5000).then(() => paced(2, FLOOD_SECONDS - 5, knownSignIn)),
      sleep(5000).then(() => paced(20, FLOOD_SECONDS - 5, probe)),
      probeApart(FLOOD_SECONDS - 5, 5000),
    ]);
    clearInterval(sampler);

    const refused = attacks.filter((r) => r.status === 429 || r.status === 503);
    const fiveXX = [...attacks, ...signIns, ...probes, ...apart].filter((r) => typeof r.status === 'number' && r.status >= 500).length;
    const p99 = (results) => percentile(results.map((r) => r.ms), 0.99);
    return {
      capacityPerSecond: Math.round(capacity * 10) / 10,
      floodPerSecond: rate,
      floodSeconds: FLOOD_SECONDS,
      quiet: { signInsOk: `${succeeded(quietSignIns)}/${quietSignIns.length}`, signInP99: p99(quietSignIns), meP99: p99(quietApart) },
      signInsOkShare: succeeded(signIns) / signIns.length,
      signInsOk: `${succeeded(signIns)}/${signIns.length}`,
      signInP50: percentile(signIns.map((r) => r.ms), 0.5),
      signInP99: percentile(signIns.map((r) => r.ms), 0.99),
      signInStatuses: statuses(signIns),
      // Issue 51's figure: the probe from its own process, /auth/me p99 under the flood over its quiet p99.
      meP99: p99(apart),
      meRatio: p99(apart) / Math.max(1, p99(quietApart)),
      meOk: `${succeeded(apart)}/${apart.length}`,
      // The same probe sent from the flood's own process, as measured before: its times include that process's waits.
      inFloodProcess: { quietMeP99: p99(quietProbes), meP99: p99(probes), meRatio: p99(probes) / Math.max(1, p99(quietProbes)) },
      attacksSent: attacks.length,
      attackStatuses: statuses(attacks),
      attackP50: percentile(attacks.map((r) => r.ms), 0.5),
      refusedWithRetryAfter: refused.length > 0 && refused.every((r) => r.retryAfter !== undefined),
      fiveXX,
      rssPeakMiB: Math.round(rssPeak),
    };
  } finally {
    await stop(service.child);
  }
}

module.exports = { measureFlood };
