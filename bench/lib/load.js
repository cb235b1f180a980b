'use strict';
// The load generators: autocannon (closed loop, in this process or one of its own) and a paced open loop.
const { spawn } = require('node:child_process');
const http = require('node:http');
const autocannon = require('autocannon');
const { SECONDS, log, sleep, median } = require('./settings');
const { cpuMicros, threadCpuMicros, threadSplit } = require('./proc-stats');

function cannon(options) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ duration: SECONDS, ...options }, (err, result) => (err ? reject(err) : resolve(result)));
    instance.on('error', reject);
  });
}

/*
 * Requests at a steady rate: one every 1000 / rate ms whatever the answers do (open loop: a slow answer
 * does not delay the next request, which gets another keep-alive socket), each timed from its send to
 * the end of its answer. Not autocannon's overallRate/connectionRate: those are budgets per second spent
 * at once (measured: ten requests within 60 ms, then a 940 ms pause), so they measured bursts, each
 * request waiting for the ones sent with it, not a steady rate. (Its fixed-rate latency "correction"
 * also filled the histogram with samples no response had.) Answers the fields of autocannon's result
 * that the steps read, latencies rounded to whole milliseconds as autocannon's are.
 */
async function paced({ url, rate, seconds = SECONDS, method = 'GET', headers = {}, body, perRequest, pathOf }) {
  const agent = new http.Agent({ keepAlive: true });
  const target = new URL(url);
  const latencies = [];
  let ok = 0;
  let non2xx = 0;
  const statuses = {};
  let errors = 0;
  const one = () =>
    new Promise((resolve) => {
      const sent = performance.now();
      const request = http.request(
        { host: target.hostname, port: target.port, path: pathOf ? pathOf() : `${target.pathname}${target.search}`, method, agent, headers: { ...headers, ...(perRequest ? perRequest() : {}) } },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - sent);
            if (res.statusCode >= 200 && res.statusCode < 300) ok += 1;
            else {
              non2xx += 1;
              statuses[res.statusCode] = (statuses[res.statusCode] || 0) + 1;
            }
            resolve();
          });
        },
      );
      request.on('error', () => {
        errors += 1;
        resolve();
      });
      request.end(body);
    });
  const answers = [];
  const started = performance.now();
  const count = Math.round(seconds * rate);
  for (let i = 0; i < count; i++) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    answers.push(one());
  }
  await Promise.all(answers);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q) => (latencies.length ? Math.round(latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)]) : NaN);
  return { latency: { p50: at(0.5), p99: at(0.99), max: at(1) }, '2xx': ok, non2xx, statuses, errors, duration: seconds };
}

/** One autocannon round against a process: requests per second (2xx only), CPU µs per request, p99. */
async function round(pid, options) {
  const before = cpuMicros(pid);
  const threadsBefore = threadCpuMicros(pid);
  const result = await cannon(options);
  const cpu = cpuMicros(pid) - before;
  const ok = result['2xx'];
  if (result.non2xx > 0 || result.errors > 0) log(`  ${options.title}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const threads = threadSplit(pid, threadsBefore, threadCpuMicros(pid), ok);
  return { perSecond: ok / result.duration, cpuPerRequest: cpu / ok, threads, p99: result.latency.p99, p50: result.latency.p50 };
}

/** autocannon in a process of its own (optionally pinned to a core); answers its JSON result. */
function autocannonProcess(request, seconds, core) {
  const args = [require.resolve('autocannon/autocannon.js'), '-j', '-c', String(request.connections ?? 10), '-d', String(seconds)];
  for (const [name, value] of Object.entries(request.headers ?? {})) args.push('-H', `${name}=${value}`);
  args.push(request.url);
  const [command, argv] = core === null ? [process.execPath, args] : ['taskset', ['-c', String(core), process.execPath, ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`autocannon exited with ${code}`))));
  });
}

/** The mean rate and CPU per request of slices of one server. */
function meanOfRounds(slices) {
  const mean = (pick) => slices.reduce((sum, slice) => sum + pick(slice), 0) / slices.length;
  return { perSecond: mean((s) => s.perSecond), cpuPerRequest: mean((s) => s.cpuPerRequest) };
}

/** The median of each part of per-round thread splits, in ms. */
function splitMedians(splits) {
  return Object.fromEntries(['main', 'hashing', 'other'].map((part) => [part, median(splits.map((split) => split[part])) / 1000]));
}

function summarize(rounds) {
  return {
    perSecond: median(rounds.map((r) => r.perSecond)),
    perSecondPerRound: rounds.map((r) => Math.round(r.perSecond)),
    cpuPerRequest: median(rounds.map((r) => r.cpuPerRequest)),
    cpuPerRequestPerRound: rounds.map((r) => Math.round(r.cpuPerRequest)),
  };
}

module.exports = { cannon, paced, round, autocannonProcess, meanOfRounds, splitMedians, summarize };
