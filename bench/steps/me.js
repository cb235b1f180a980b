'use strict';
// me, apikey, redis: GET /auth/me (by Bearer, cookie, auth_session, API key, with Redis) against bare Express.
const { SECONDS, ROUNDS, log, median } = require('../lib/settings');
const { startService, startBare, stop } = require('../lib/processes');
const { cannon, round, autocannonProcess, meanOfRounds, summarize } = require('../lib/load');
const { pin } = require('../lib/proc-stats');
const { json, registerUser } = require('../lib/clients');

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

/** me: by Bearer, by auth_token cookie and (when a magic link gave one) by auth_session, against bare Express. */
async function measureMe(service, { bearer, cookie, sessionCookie }, meBody) {
  const variants = [{ name: 'bearer', request: bearer }, { name: 'cookie', request: cookie }];
  if (sessionCookie) variants.push({ name: 'session', request: { title: 'session', url: `${service.url}/auth/me`, headers: { cookie: sessionCookie }, connections: 10 } });
  return compareWithBare(service, variants, meBody);
}

/** apikey: by a fresh API key (X-API-Key) and by Bearer in the same rounds, against bare Express. */
async function measureApiKey(service, token, bearer, meBody) {
  const made = await json(`${service.url}/auth/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench' }),
  });
  if (made.status !== 201) throw new Error(`API key not made: ${made.status} ${JSON.stringify(made.body)}`);
  const byKey = await json(`${service.url}/auth/me`, { headers: { 'x-api-key': made.body.key } });
  if (JSON.stringify(byKey.body) !== JSON.stringify(meBody)) throw new Error('/auth/me by API key answers differently');
  const apiKey = { title: 'apiKey', url: `${service.url}/auth/me`, headers: { 'x-api-key': made.body.key }, connections: 10 };
  return compareWithBare(service, [{ name: 'bearer', request: bearer }, { name: 'apiKey', request: apiKey }], meBody);
}

/** redis: by Bearer on a service of its own with REDIS_URL set (one MGET per request), against bare Express. */
async function measureRedis(env) {
  const redisService = await startService('redis', env);
  const user = await registerUser(redisService.url, 'bench-redis');
  const body = (await json(`${redisService.url}/auth/me`, { headers: { authorization: `Bearer ${user.token}` } })).body;
  const request = { title: 'redis', url: `${redisService.url}/auth/me`, headers: { authorization: `Bearer ${user.token}` }, connections: 10 };
  const out = await compareWithBare(redisService, [{ name: 'bearer', request }], body);
  await stop(redisService.child);
  return out;
}

module.exports = { measureMe, measureApiKey, measureRedis, compareWithBare };
