'use strict';
// login: POST /auth/login per second against the PBKDF2 ceiling and the bare passport-local login (≥ 1.0).
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const { BENCH, SECONDS, ITERATIONS, THREADPOOL, PASSWORD, median } = require('../lib/settings');
const { startBare, stop } = require('../lib/processes');
const { cannon, round, meanOfRounds, splitMedians } = require('../lib/load');
const { loginRequests } = require('../lib/clients');

function measureCeiling(seconds) {
  const out = execFileSync(process.execPath, [path.join(BENCH, 'pbkdf2-ceiling.js')], {
    env: { PATH: process.env.PATH, UV_THREADPOOL_SIZE: String(THREADPOOL), ITERATIONS: String(ITERATIONS), SECONDS: String(seconds) },
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop()).hashesPerSecond;
}

/**
 * Logins per second in rounds alternating with the PBKDF2 ceiling and with the bare-Express login floor
 * (`bare-login-server.js`, the same requests from the same load generator); each round's ratios to its
 * own ceiling.
 */
async function measureLogins(service, email) {
  const connections = THREADPOOL * 4;
  const floor = await startBare('bare-login-server.js', { ITERATIONS: String(ITERATIONS), BENCH_PASSWORD: PASSWORD });
  const logins = (url) => ({ url, connections, requests: loginRequests(email), duration: SECONDS / 2 });
  await cannon({ ...logins(service.url), duration: 2 });
  await cannon({ ...logins(floor.url), duration: 2 });
  const rounds = [];
  // As for /auth/me: each round of the service is judged against the floor's rounds just before and after it.
  const bareSlice = () => round(floor.child.pid, { title: 'bare login', ...logins(floor.url) });
  let before = await bareSlice();
  for (let i = 0; i < 3; i++) {
    const ceiling = measureCeiling(SECONDS / 2);
    const login = await round(service.child.pid, { title: 'login', ...logins(service.url) });
    const after = await bareSlice();
    const bare = meanOfRounds([before, after]);
    before = after;
    rounds.push({ ceiling, login: login.perSecond, cpuPerLogin: login.cpuPerRequest, ratio: login.perSecond / ceiling, floorRatio: bare.perSecond / ceiling, toFloor: login.perSecond / bare.perSecond, cpuPerFloorLogin: bare.cpuPerRequest, threads: login.threads, floorThreads: after.threads });
  }
  await stop(floor.child);
  return {
    ratio: median(rounds.map((r) => r.ratio)),
    ratioPerRound: rounds.map((r) => r.ratio),
    floorRatio: median(rounds.map((r) => r.floorRatio)),
    floorRatioPerRound: rounds.map((r) => r.floorRatio),
    // Issue 34's target: the service's logins per second over the bare passport-local login's, round by round.
    ratioToFloor: median(rounds.map((r) => r.toFloor)),
    ratioToFloorPerRound: rounds.map((r) => r.toFloor),
    perSecondPerRound: rounds.map((r) => r.login),
    ceilingPerRound: rounds.map((r) => r.ceiling),
    cpuMsPerLogin: median(rounds.map((r) => r.cpuPerLogin)) / 1000,
    cpuMsPerFloorLogin: median(rounds.map((r) => r.cpuPerFloorLogin)) / 1000,
    // Where a login's CPU goes, service and floor (the floor's slice after each round), medians per part in ms.
    cpuMsByThread: splitMedians(rounds.map((r) => r.threads)),
    floorCpuMsByThread: splitMedians(rounds.map((r) => r.floorThreads)),
  };
}

module.exports = { measureLogins };
