'use strict';
// paths (reported only): refresh and the admin user list page per second, OTP and magic-link verify one by one.
const crypto = require('node:crypto');
const { round } = require('../lib/load');
const { nextAddress, fromNewAddress, json, registerUser, latencySummary, timed } = require('../lib/clients');
const { nextMail } = require('../lib/mail');

/**
 * Reported figures of other hot paths: refresh per second (each from its own address: 60/min limit), the
 * admin user list page, and OTP and magic-link verification. A code or link is single use, so those two
 * are timed one at a time, each with a freshly mailed code or link (median and worst of PASSWORDLESS_RUNS).
 */
async function measurePaths(service, token, sink) {
  // A sign-in of its own: every refresh supersedes the token it renews (sessions rotate), and the same token is
  // accepted again only within the reuse window, which this step stays inside (rounds × seconds < 60 s).
  const { token: refreshed } = await registerUser(service.url, 'bench-refresh');
  const refresh = await round(service.child.pid, {
    title: 'refresh',
    url: service.url,
    connections: 10,
    requests: [{ method: 'POST', path: '/auth/refresh', headers: { authorization: `Bearer ${refreshed}` }, setupRequest: fromNewAddress }],
  });
  const adminPage = await round(service.child.pid, {
    title: 'admin page',
    url: `${service.url}/admin/users`,
    connections: 10,
    headers: { cookie: `auth_token=${token}`, accept: 'text/html' },
  });
  return {
    refreshPerSecond: refresh.perSecond,
    refreshCpuMicros: refresh.cpuPerRequest,
    refreshP99: refresh.p99,
    adminPagePerSecond: adminPage.perSecond,
    adminPageCpuMicros: adminPage.cpuPerRequest,
    adminPageP99: adminPage.p99,
    otpVerify: await timeOtpVerifications(service.url, token, sink),
    magicLinkVerify: await timeMagicLinkVerifications(service.url, sink),
  };
}

const PASSWORDLESS_RUNS = 25;

/** POST /auth/otp/verify with a freshly mailed code, one at a time (the plugin switched on by the admin). */
async function timeOtpVerifications(url, adminToken, sink) {
  const settings = { rateLimitPerHour: 1000, allowNewUserRegistration: false };
  const on = await json(`${url}/api/plugins/otp-login`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
    body: JSON.stringify({ active: true, settings }),
  });
  if (on.status !== 200) return null;
  const { email } = await registerUser(url, 'otp');
  const times = [];
  for (let i = 0; i < PASSWORDLESS_RUNS; i++) {
    const before = sink.messages.length;
    const post = (path, body) => fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() }, body: JSON.stringify(body) });
    if ((await post('/auth/otp/request', { email })).status !== 200) return null;
    const code = /Your login code: (\d+)/.exec(await nextMail(sink, before, /Your login code: \d+/))?.[1];
    if (!code) return null;
    const { res, ms } = await timed(() => post('/auth/otp/verify', { email, code }));
    if (res.status !== 200) return null;
    times.push(ms);
  }
  return latencySummary(times);
}

/**
 * GET /auth/magic-link/verify with a freshly mailed link, one at a time (3 links per email per 15 min: fresh
 * addresses, each becoming a passwordless account at its first link, as registration is open).
 */
async function timeMagicLinkVerifications(url, sink) {
  const times = [];
  for (let i = 0; i < PASSWORDLESS_RUNS; i++) {
    const email = `link-${crypto.randomBytes(4).toString('hex')}@example.test`;
    const before = sink.messages.length;
    const asked = await fetch(`${url}/auth/sign-in/magic-link`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
      body: JSON.stringify({ email }),
    });
    if (asked.status !== 200) return null;
    const link = /https?:\/\/[^\s"<>]+\/auth\/magic-link\/verify\?[^\s"<>]+/.exec(await nextMail(sink, before, /\/auth\/magic-link\/verify\?/))?.[0];
    if (!link) return null;
    const { res, ms } = await timed(() => fetch(link, { redirect: 'manual', headers: { 'x-forwarded-for': nextAddress(), 'x-forwarded-proto': 'https' } }));
    if (res.status !== 302) return null;
    times.push(ms);
  }
  return latencySummary(times);
}

module.exports = { measurePaths };
