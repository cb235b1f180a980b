'use strict';
// load: the p99 of GET /auth/me at 100 req/s while logins saturate the hashing pool (≤ 25 ms).
const { ITERATIONS, THREADPOOL, PASSWORD, median } = require('../lib/settings');
const { startBare, stop } = require('../lib/processes');
const { cannon, paced } = require('../lib/load');
const { loginRequests } = require('../lib/clients');

/** p99 of /auth/me at a steady 100 req/s while logins keep the hashing pool saturated. */
async function measureUnderLoad(service, email, meRequest) {
  // Beside each round, the same probe against the bare-Express login floor under its own login load: the host's
  // scheduling delay for a small answer while every core hashes, which the service's p99 is judged against.
  const floor = await startBare('bare-login-server.js', { ITERATIONS: String(ITERATIONS), BENCH_PASSWORD: PASSWORD });
  const under = async (url, probe) => {
    const [logins, me] = await Promise.all([
      cannon({ url, connections: THREADPOOL * 4, requests: loginRequests(email) }),
      paced({ url: probe.url, headers: probe.headers, rate: 100 }),
    ]);
    return { p99: me.latency.p99, p50: me.latency.p50, max: me.latency.max, loginsPerSecond: logins['2xx'] / logins.duration, non2xx: me.non2xx };
  };
  const rounds = [];
  const floorRounds = [];
  try {
    for (let i = 0; i < 3; i++) {
      rounds.push(await under(service.url, meRequest));
      floorRounds.push(await under(floor.url, { url: `${floor.url}/auth/me`, headers: {} }));
    }
  } finally {
    await stop(floor.child);
  }
  const p99 = median(rounds.map((r) => r.p99));
  const floorP99 = median(floorRounds.map((r) => r.p99));
  return { p99, p99PerRound: rounds.map((r) => r.p99), rounds, floorP99, floorP99PerRound: floorRounds.map((r) => r.p99), ratioToFloor: p99 / Math.max(1, floorP99) };
}

module.exports = { measureUnderLoad };
