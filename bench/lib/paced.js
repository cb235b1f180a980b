'use strict';
// Requests sent at a steady rate and timed, for the flood step and its probe process.
const http = require('node:http');
const { sleep } = require('./settings');

/** One request; resolves with its status ('timeout' or 'error' when there is none), time and cookies. */
function send(agent, base, method, path, { body, headers = {}, timeoutMs = 10_000 } = {}) {
  return new Promise((resolve) => {
    const started = performance.now();
    const data = body ? Buffer.from(JSON.stringify(body)) : null;
    const req = http.request(`${base}${path}`, { method, agent, headers: { ...(data ? { 'content-type': 'application/json', 'content-length': data.length } : {}), ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - started, text, cookies: res.headers['set-cookie'] || [], retryAfter: res.headers['retry-after'] }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolve({ status: err.message === 'timeout' ? 'timeout' : 'error', ms: performance.now() - started }));
    if (data) req.write(data);
    req.end();
  });
}

/** Calls `fn(i)` at `rate` per second for `seconds`, open loop (a slow answer never slows the sender). */
async function paced(rate, seconds, fn) {
  const results = [];
  const pending = [];
  const started = performance.now();
  for (let i = 0; performance.now() - started < seconds * 1000; i++) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 1) await sleep(wait);
    pending.push(fn(i).then((result) => results.push(result)));
  }
  await Promise.all(pending);
  return results;
}

const percentile = (values, q) => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]);
};
module.exports = { send, paced, percentile };
