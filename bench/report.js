'use strict';
// The printed report of a run: the table of targets, then every per-round figure behind it.
const { SECONDS, ROUNDS, GROWTH_PATHS, median, fixed } = require('./lib/settings');
const { IDLE_SETTLE_MS } = require('./steps/memory');

/** The table of targets, then every per-round figure behind it. */
function report(r) {
  const rows = [['Target', 'Measured', 'Goal', 'Met']];
  const add = (name, value, goal, met) => rows.push([name, value, goal, Number.isNaN(met) ? '–' : met ? 'yes' : 'NO']);
  const yes = (value, ok) => (Number.isFinite(value) ? ok : NaN);
  if (r.me) {
    add('GET /auth/me Bearer ÷ bare Express (req/s)', r.me.bearer.ratio.toFixed(2), '≥ 1.0', yes(r.me.bearer.ratio, r.me.bearer.ratio >= 1.0));
    add('server CPU per request ÷ bare Express', r.me.bearer.cpuRatio.toFixed(2), '≤ 1.7', yes(r.me.bearer.cpuRatio, r.me.bearer.cpuRatio <= 1.7));
    add('GET /auth/me auth_token cookie ÷ bare', r.me.cookie.ratio.toFixed(2), '≥ 1.0', yes(r.me.cookie.ratio, r.me.cookie.ratio >= 1.0));
    if (r.me.session) add('GET /auth/me auth_session ÷ bare', r.me.session.ratio.toFixed(2), '≥ 0.90', yes(r.me.session.ratio, r.me.session.ratio >= 0.9));
  }
  if (r.apiKey) {
    const perBearer = median(r.apiKey.apiKey.ratioPerRound.map((ratio, i) => ratio / r.apiKey.bearer.ratioPerRound[i]));
    add('GET /auth/me API key ÷ bare Express (req/s)', r.apiKey.apiKey.ratio.toFixed(2), '≥ 0.90', yes(r.apiKey.apiKey.ratio, r.apiKey.apiKey.ratio >= 0.9));
    add('GET /auth/me API key ÷ Bearer, same rounds', perBearer.toFixed(2), '–', NaN);
  }
  if (r.redis) add('GET /auth/me Bearer, REDIS_URL set ÷ bare', r.redis.bearer.ratio.toFixed(2), '≥ 0.90', yes(r.redis.bearer.ratio, r.redis.bearer.ratio >= 0.9));
  if (r.cacheMiss) for (const [algorithm, m] of Object.entries(r.cacheMiss)) add(`GET /auth/me cache miss, ${algorithm} (extra over a hit)`, `${m.extraMicros} µs`, '–', NaN);
  if (r.login) add('logins ÷ PBKDF2 ceiling', r.login.ratio.toFixed(2), '–', NaN);
  // Issue 51 restated the goal: durable session and activity rows cannot reach a floor that writes nothing.
  if (r.login) add('logins ÷ the bare passport-local login floor, same rounds', r.login.ratioToFloor.toFixed(2), '≥ 0.95', yes(r.login.ratioToFloor, r.login.ratioToFloor >= 0.95));
  if (r.underLoad) add('p99 /auth/me at 100 req/s under login load', `${r.underLoad.p99} ms`, '≤ 25 ms', yes(r.underLoad.p99, r.underLoad.p99 <= 25));
  if (r.underLoad?.floorP99 !== undefined) add('… ÷ the same probe against the bare login floor', r.underLoad.ratioToFloor.toFixed(2), '≤ 1.25', yes(r.underLoad.ratioToFloor, r.underLoad.ratioToFloor <= 1.25));
  if (r.flood) {
    const f = r.flood;
    add(`flood ${f.floodPerSecond}/s for ${f.floodSeconds} s: known browsers' sign-ins ok`, f.signInsOk, '≥ 99 %', yes(f.signInsOkShare, f.signInsOkShare >= 0.99));
    add('… their p99', `${f.signInP99} ms`, '≤ 1000 ms', yes(f.signInP99, f.signInP99 <= 1000));
    add('… /auth/me p99 ÷ quiet, probed from a process of its own', `${f.meRatio.toFixed(2)} (${f.meP99} / ${f.quiet.meP99} ms)`, '≤ 2', yes(f.meRatio, f.meRatio <= 2));
    if (f.inFloodProcess) add('… the same probe sent from the flood\'s own process', `${f.inFloodProcess.meRatio.toFixed(2)} (${f.inFloodProcess.meP99} / ${f.inFloodProcess.quietMeP99} ms)`, '–', NaN);
    add('… answers 5xx; refusals with Retry-After', `${f.fiveXX}; ${f.refusedWithRetryAfter ? 'yes' : 'no'}`, '0; yes', f.fiveXX === 0 && f.refusedWithRetryAfter);
    add('… RSS peak (bounded: every queue has a limit)', `${f.rssPeakMiB} MiB`, '–', NaN);
  }
  if (r.memory) {
    add('RSS idle', `${r.memory.idleMiB.toFixed(0)} MiB`, '≤ 90 MiB', yes(r.memory.idleMiB, r.memory.idleMiB <= 90));
    add('RSS peak, 50 connections of /auth/me', `${r.memory.peakMiB.toFixed(0)} MiB`, '≤ 150 MiB', yes(r.memory.peakMiB, r.memory.peakMiB <= 150));
  }
  // Issue 50: 1,000,000 users into MariaDB in 5 minutes, 100,000 into SQLite in 1 (as rates, whatever the run's sizes).
  for (const [db, i] of Object.entries(r.import ?? {})) {
    const goal = db === 'mysql' ? 1_000_000 / 300 : 100_000 / 60;
    add(`import ${db}, ${i.users} users: records per second (${i.seconds.toFixed(0)} s)`, i.perSecond.toFixed(0), `≥ ${goal.toFixed(0)}`, i.perSecond >= goal);
    add(`… RSS peak (and a 50 MB body's)`, `${i.peakMiB.toFixed(0)} (${i.bigBodyPeakMiB.toFixed(0)}) MiB`, '≤ 200 MiB', Math.max(i.peakMiB, i.bigBodyPeakMiB) <= 200);
  }
  if (r.noise) {
    const { alternating: a, sideBySide: t } = r.noise;
    add('noise: bare Express ÷ itself, alternating rounds (min–max)', `${a.ratio.toFixed(2)} (${a.min.toFixed(2)}–${a.max.toFixed(2)})`, '–', NaN);
    add('… side by side (min–max)', `${t.ratio.toFixed(2)} (${t.min.toFixed(2)}–${t.max.toFixed(2)})`, '–', NaN);
  }
  if (r.start) add('start: node dist/server.js → /health 200', `${(r.start.ms / 1000).toFixed(2)} s`, '≤ 1 s', yes(r.start.ms, r.start.ms <= 1000));
  for (const [db, g] of Object.entries(r.growth ?? {})) {
    for (const name of GROWTH_PATHS) {
      if (g[name]) add(`${db}, ${g.users} users: p99 ${name}`, `${g[name].p99} ms`, '≤ 50 ms', g[name].p99 <= 50);
    }
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => String(row[i]).length)));
  const line = (row) => `| ${row.map((cell, i) => String(cell).padEnd(widths[i])).join(' | ')} |`;
  const table = [line(rows[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');

  const notes = [];
  const m = r.machine;
  notes.push(`${m.cores} cores (${m.cpu}), Node ${m.node}, thread pool ${m.threadpool}, load average at start ${m.loadAverage.map((l) => l.toFixed(1)).join(' ')}`);
  notes.push(`PBKDF2 ${r.settings.iterations} iterations, ${SECONDS} s per measurement, ${ROUNDS} alternating rounds, LOG_LEVEL ${r.settings.logLevel}; medians of per-round figures`);
  if (r.apiKey) {
    notes.push(`/auth/me by API key rounds (req/s): key ${r.apiKey.apiKey.perSecondPerRound.join(' / ')}, bearer ${r.apiKey.bearer.perSecondPerRound.join(' / ')}, bare ${r.apiKey.bare.perSecondPerRound.join(' / ')}`);
    notes.push(`  server CPU µs per request: key ${r.apiKey.apiKey.cpuPerRequestPerRound.join(' / ')}, bearer ${r.apiKey.bearer.cpuPerRequestPerRound.join(' / ')}, bare ${r.apiKey.bare.cpuPerRequestPerRound.join(' / ')}`);
  }
  if (r.me) {
    notes.push(`/auth/me rounds (req/s): bearer ${r.me.bearer.perSecondPerRound.join(' / ')}, cookie ${r.me.cookie.perSecondPerRound.join(' / ')}, bare ${r.me.bare.perSecondPerRound.join(' / ')}${r.me.pinned ? ' (servers on core 0, load generator on core 1)' : ''}`);
    if (r.me.session) notes.push(`  auth_session ${r.me.session.perSecondPerRound.join(' / ')} req/s, ratios ${fixed(r.me.session.ratioPerRound)}, CPU µs ${r.me.session.cpuPerRequestPerRound.join(' / ')}`);
    notes.push(`  ratios per round: bearer ${fixed(r.me.bearer.ratioPerRound)}, cookie ${fixed(r.me.cookie.ratioPerRound)}`);
    notes.push(`  server CPU µs per request: bearer ${r.me.bearer.cpuPerRequestPerRound.join(' / ')}, cookie ${r.me.cookie.cpuPerRequestPerRound.join(' / ')}, bare ${r.me.bare.cpuPerRequestPerRound.join(' / ')} (ratio per round ${fixed(r.me.bearer.cpuRatioPerRound)})`);
  }
  if (r.redis) notes.push(`Redis /auth/me rounds: ${r.redis.bearer.perSecondPerRound.join(' / ')} vs bare ${r.redis.bare.perSecondPerRound.join(' / ')} req/s, ratios ${fixed(r.redis.bearer.ratioPerRound)}, CPU µs ${r.redis.bearer.cpuPerRequestPerRound.join(' / ')}`);
  const together = [
    ...Object.entries(r.me ?? {}).filter(([, v]) => v?.sideBySide).map(([name, v]) => [name, v.sideBySide]),
    ...(r.apiKey ? [['API key', r.apiKey.apiKey.sideBySide]] : []),
    ...(r.redis ? [['Redis', r.redis.bearer.sideBySide]] : []),
  ];
  if (together.length > 0) notes.push(`side by side with bare Express (same moments, a generator each): ${together.map(([name, t]) => `${name} ${t.ratio.toFixed(2)} (${fixed(t.ratioPerRound)})`).join(', ')}`);
  if (r.login) notes.push(`logins/s per round ${fixed(r.login.perSecondPerRound, 1)} vs ceiling ${fixed(r.login.ceilingPerRound, 1)} (ratios ${fixed(r.login.ratioPerRound)}), server CPU ${r.login.cpuMsPerLogin.toFixed(1)} ms per login incl. hashing; bare-Express login floor ${fixed(r.login.floorRatioPerRound)} of the ceiling (median ${r.login.floorRatio.toFixed(2)}, ${r.login.cpuMsPerFloorLogin.toFixed(1)} ms of CPU per login); service ÷ floor per round ${fixed(r.login.ratioToFloorPerRound)}`);
  const bySplit = (split) => `main thread ${split.main.toFixed(2)}, hashing ${split.hashing.toFixed(2)}, other threads ${split.other.toFixed(2)}`;
  if (r.login?.cpuMsByThread) notes.push(`  CPU ms per login by thread: service ${bySplit(r.login.cpuMsByThread)}; floor ${bySplit(r.login.floorCpuMsByThread)}`);
  if (r.underLoad?.floorP99PerRound) notes.push(`the same probe against the bare login floor under its own login load: p99 per round ${r.underLoad.floorP99PerRound.join(' / ')} ms`);
  if (r.underLoad) notes.push(`under load p99 per round ${r.underLoad.p99PerRound.join(' / ')} ms, p50 ${r.underLoad.rounds.map((x) => x.p50).join(' / ')} ms, logins/s ${r.underLoad.rounds.map((x) => x.loginsPerSecond.toFixed(1)).join(' / ')}`);
  if (r.memory) notes.push(`RSS ${r.memory.afterStartMiB.toFixed(0)} MiB two seconds after start, ${r.memory.idleMiB.toFixed(0)} MiB after ${IDLE_SETTLE_MS / 1000} s idle, peak ${r.memory.peakMiB.toFixed(0)} MiB (a start on a current database); the first start, which applied the migrations, ${r.memory.firstStartIdleMiB?.toFixed(0)} MiB idle`);
  if (r.start) notes.push(`start per run ${r.start.perRound.join(' / ')} ms`);
  if (r.paths) notes.push(`POST /auth/refresh ${r.paths.refreshPerSecond.toFixed(0)} req/s, ${r.paths.refreshCpuMicros.toFixed(0)} µs CPU per request, p99 ${r.paths.refreshP99} ms`);
  if (r.paths) notes.push(`GET /admin/users (page) ${r.paths.adminPagePerSecond.toFixed(0)} req/s, ${r.paths.adminPageCpuMicros.toFixed(0)} µs CPU per request, p99 ${r.paths.adminPageP99} ms`);
  const oneByOne = (name, t) => (t ? `${name} p50 ${t.p50} ms, worst ${t.max} ms of ${t.runs}` : `${name} not measured (flow unavailable)`);
  if (r.oidc) {
    const line = (name, m) => `${name} ${m.perSecond.toFixed(0)} req/s, ${m.cpuPerRequest.toFixed(0)} µs CPU per request`;
    notes.push(`OpenID Provider token endpoint: ${line('code exchange', r.oidc.codeExchange)}; ${line('refresh', r.oidc.oidcRefresh)}; beside ${line('POST /auth/refresh', r.oidc.authRefresh)} (OIDC refresh ÷ /auth/refresh ${r.oidc.oidcRefreshToAuthRefresh.toFixed(2)})`);
  }
  if (r.paths) notes.push(`one at a time with a fresh mailed credential: ${oneByOne('POST /auth/otp/verify', r.paths.otpVerify)}; ${oneByOne('GET /auth/magic-link/verify', r.paths.magicLinkVerify)}`);
  for (const [db, g] of Object.entries(r.growth ?? {})) {
    notes.push(`growth ${db}: ${g.users} users inserted in ${g.insertSeconds.toFixed(1)} s, machine quiet ${g.settleSeconds?.toFixed(0)} s later; search "${g.searchTerm}" matches ${g.searchTotalExact === false ? 'more than ' : ''}${g.searchMatches}; one PBKDF2 hash alone ${g.oneHashMs.toFixed(0)} ms${g.loginFloor ? `; bare-Express login floor at the same rate p50 ${g.loginFloor.p50} ms, p99 ${g.loginFloor.p99} ms` : ''}; p50 ${GROWTH_PATHS.filter((n) => g[n]).map((n) => `${n} ${g[n].p50} ms`).join(', ')}; samples per path ${GROWTH_PATHS.filter((n) => g[n]).map((n) => g[n].samples).join(' / ')}`);
  }
  for (const [db, i] of Object.entries(r.import ?? {})) {
    notes.push(`import ${db}: ${i.users} users (bcrypt hashes) in ${i.seconds.toFixed(1)} s, ${i.perSecond.toFixed(0)}/s; RSS ${i.idleMiB.toFixed(0)} MiB before, peak ${i.peakMiB.toFixed(0)} MiB; a 50 MB body (${i.bigBodyUsers} padded records): peak ${i.bigBodyPeakMiB.toFixed(0)} MiB; their search index filled ${i.indexSeconds?.toFixed(1) ?? '?'} s after; an imported user's first sign-in (bcrypt, re-hashed) ${i.signIns?.firstMs.toFixed(0) ?? '?'} ms, its second ${i.signIns?.secondMs.toFixed(0) ?? '?'} ms`);
  }
  const d = r.dashboard;
  if (d) notes.push(`dashboard (MariaDB, ${d.users} users, ${d.activityRows} activity rows): GET /admin p50 ${d.p50} ms, p99 ${d.p99} ms, max ${d.max} ms over ${d.requests} requests ${d.concurrency} at a time (budget ${d.budgetMs} ms: ${d.withinBudget ? 'met' : 'MISSED'}); one at a time p50 ${d.alone?.p50} ms, p99 ${d.alone?.p99} ms; load average ${d.loadAverage.before.map((x) => x.toFixed(1)).join(' ')}; ${d.plans.length} statements explained, scans of users or activity_logs: ${d.scans.length}`);
  return `\n${table}\n\n${notes.join('\n')}\n`;
}

module.exports = { report };
