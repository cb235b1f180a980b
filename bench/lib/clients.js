'use strict';
// The service's client side: addresses, logins, registration, JSON calls and timings.
const crypto = require('node:crypto');
const { PASSWORD, median } = require('./settings');

/** A fresh client address per request: 10.x.y.z from a counter (TRUST_PROXY=loopback trusts our header). */
let addressCounter = 0;
function nextAddress() {
  addressCounter += 1;
  const n = addressCounter;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}
const fromNewAddress = (req) => ({ ...req, headers: { ...req.headers, 'x-forwarded-for': nextAddress() } });

/** A login of the bench's user: method, path, headers and body, as both load generators take them. */
function login(email) {
  return { method: 'POST', path: '/auth/login', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) };
}

/** Logins for `paced`, each from a fresh address. */
function pacedLogin(url, email, rate) {
  const { path: loginPath, ...request } = login(email);
  return { ...request, url: `${url}${loginPath}`, rate, perRequest: () => ({ 'x-forwarded-for': nextAddress() }) };
}

/** Logins for autocannon, each from a fresh address. */
function loginRequests(email) {
  return [{ ...login(email), setupRequest: fromNewAddress }];
}

async function json(url, init = {}) {
  const res = await fetch(url, init);
  const body = await res.json().catch(() => null);
  return { status: res.status, body, headers: res.headers };
}

/** Registers a user (the first one of a database becomes admin) and answers its email and token. */
async function registerUser(url, label) {
  const email = `${label}-${crypto.randomBytes(4).toString('hex')}@example.test`;
  const res = await json(`${url}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { email, token: res.body.token, user: res.body.user };
}

function latencySummary(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return { runs: times.length, p50: Math.round(median(sorted) * 10) / 10, max: Math.round(sorted[sorted.length - 1] * 10) / 10 };
}

async function timed(fn) {
  const started = process.hrtime.bigint();
  const res = await fn();
  return { res, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

module.exports = { nextAddress, fromNewAddress, pacedLogin, loginRequests, json, registerUser, latencySummary, timed };
