'use strict';
// The soak's traffic (each worker's mix of actions, every answer counted) and its ledger of acknowledged writes,
// checked against the database at the end.
const crypto = require('node:crypto');
const { nextAddress } = require('../lib/clients');

const PASSWORD = 'soak lantern gravel 9 meadow';

function jtiOf(token) {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).jti;
}

const stats = new Map(); // action -> { count, latencies[], statuses{} }
const problems = [];
let fiveXx = 0;

async function call(base, action, method, route, { token, body, expect }) {
  const headers = { Accept: 'application/json', 'X-Forwarded-For': nextAddress() };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const started = performance.now();
  let status = 0;
  let json = {};
  try {
    const res = await fetch(base + route, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
    status = res.status;
    json = await res.json().catch(() => ({}));
  } catch (err) {
    json = { error: err.message };
  }
  const ms = performance.now() - started;
  const entry = stats.get(action) ?? { count: 0, latencies: [], statuses: {} };
  stats.set(action, entry);
  entry.count += 1;
  entry.latencies.push(ms);
  entry.statuses[status] = (entry.statuses[status] ?? 0) + 1;
  if (status >= 500) fiveXx += 1;
  if (status !== expect && problems.length < 50) problems.push(`${action}: ${status} ${JSON.stringify(json).slice(0, 200)}`);
  return { ok: status === expect, status, body: json };
}

/** The ledger: every acknowledged write, by user (last values) and the revoked token ids. */
const ledger = { users: new Map(), revoked: [], logins: new Map() };
/** What the build offers, found by main before the workers start. */
const mode = { magicLinks: false };

function pick(list) {
  return list[crypto.randomInt(list.length)];
}

const WEIGHTS = [
  ['register', 1],
  ['login', 3],
  ['otp', 1],
  ['magic', 1],
  ['refresh', 2],
  ['me', 4],
  ['profile', 2],
  ['adminName', 1],
  ['adminRole', 0.3],
  ['logout', 0.5],
];
const TOTAL_WEIGHT = WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0);
function nextAction() {
  let roll = Math.random() * TOTAL_WEIGHT;
  for (const [name, weight] of WEIGHTS) {
    roll -= weight;
    if (roll < 0) return name;
  }
  return 'me';
}

function recordSignIn(user, token) {
  user.token = token;
  ledger.logins.set(user.id, (ledger.logins.get(user.id) ?? 0) + 1);
}

async function worker(base, admin, sink, until, index) {
  const mine = [];
  let serial = 0;
  while (Date.now() < until) {
    serial += 1;
    const action = mine.length < 2 ? 'register' : nextAction();
    const user = mine.length > 0 ? pick(mine) : null;
    if (action === 'register') {
      const email = `soak-${index}-${serial}-${crypto.randomBytes(3).toString('hex')}@example.test`;
      const res = await call(base, action, 'POST', '/auth/register', { body: { email, password: PASSWORD }, expect: 201 });
      if (res.ok) {
        const created = { id: res.body.user.id, email, token: res.body.token, firstName: null, bio: null, role: res.body.user.role };
        mine.push(created);
        ledger.users.set(created.id, created);
      }
    } else if (action === 'login' || !user.token) {
      const res = await call(base, 'login', 'POST', '/auth/login', { body: { email: user.email, password: PASSWORD }, expect: 200 });
      if (res.ok) recordSignIn(user, res.body.token);
    } else if (action === 'otp') {
      const requested = await call(base, action, 'POST', '/auth/otp/request', { body: { email: user.email }, expect: 200 });
      if (!requested.ok) continue;
      const mail = await sink.waitFor((m) => m.envelope.to.includes(user.email) && m.subject === 'Your login code', 15_000).catch(() => null);
      if (!mail) {
        problems.push(`otp: no mail for a requested code`);
        continue;
      }
      sink.messages.splice(sink.messages.indexOf(mail), 1);
      const code = /Your login code: (\d+)/.exec(mail.text)[1];
      const res = await call(base, 'otp-verify', 'POST', '/auth/otp/verify', { body: { email: user.email, code }, expect: 200 });
      if (res.ok) recordSignIn(user, res.body.token);
    } else if (action === 'magic') {
      if (!mode.magicLinks) continue;
      await magicSignIn(base, sink, user);
    } else if (action === 'refresh') {
      const res = await call(base, action, 'POST', '/auth/refresh', { token: user.token, expect: 200 });
      if (res.ok) user.token = res.body.token;
    } else if (action === 'me') {
      const res = await call(base, action, 'GET', '/auth/me', { token: user.token, expect: 200 });
      // Read-your-writes: the answer shows the last acknowledged name and role.
      if (res.ok && (res.body.user.firstName !== user.firstName || res.body.user.role !== user.role)) {
        problems.push(`me: stale user (${res.body.user.firstName}/${res.body.user.role}, expected ${user.firstName}/${user.role})`);
      }
    } else if (action === 'profile') {
      const bio = `bio ${index}-${serial}`;
      const res = await call(base, action, 'PUT', `/api/user-profiles/${user.id}`, { token: user.token, body: { profile: { bio } }, expect: 200 });
      if (res.ok) user.bio = bio;
    } else if (action === 'adminName') {
      const firstName = `N${index}x${serial}`;
      const res = await call(base, action, 'PATCH', `/api/users/${user.id}`, { token: admin, body: { firstName }, expect: 200 });
      if (res.ok) user.firstName = firstName;
    } else if (action === 'adminRole') {
      const role = user.role === 'viewer' ? 'author' : 'viewer';
      const res = await call(base, action, 'PATCH', `/api/users/${user.id}`, { token: admin, body: { role }, expect: 200 });
      if (res.ok) {
        user.role = role;
        user.token = null; // a role change ends the user's tokens
      }
    } else if (action === 'logout') {
      const token = user.token;
      const res = await call(base, action, 'POST', '/auth/logout', { token, expect: 200 });
      if (res.ok) {
        ledger.revoked.push(jtiOf(token));
        user.token = null;
        const after = await call(base, 'me-after-logout', 'GET', '/auth/me', { token, expect: 401 });
        if (!after.ok) problems.push('a logged-out token still worked');
      }
    }
  }
}

/** Magic links (when the service has them): request, read the link from the sink, follow it, then /auth/me with the session. */
async function magicSignIn(base, sink, user) {
  // At most 3 links per email in 15 minutes (the service's own limit): beyond that, another method this turn.
  user.magicAt = (user.magicAt ?? []).filter((at) => Date.now() - at < 15 * 60_000);
  if (user.magicAt.length >= 3) return;
  user.magicAt.push(Date.now());
  const requested = await call(base, 'magic', 'POST', '/auth/sign-in/magic-link', { body: { email: user.email }, expect: 200 });
  if (!requested.ok) return;
  const mail = await sink.waitFor((m) => m.envelope.to.includes(user.email) && /https?:\/\/\S+/.test(m.text) && !/login code/.test(m.subject), 15_000).catch(() => null);
  if (!mail) {
    problems.push('magic: no mail for a requested link');
    return;
  }
  sink.messages.splice(sink.messages.indexOf(mail), 1);
  const link = /https?:\/\/\S+/.exec(mail.text)[0];
  const started = performance.now();
  const res = await fetch(new URL(new URL(link).pathname + new URL(link).search, base), { redirect: 'manual', headers: { 'X-Forwarded-For': nextAddress() } });
  const entry = stats.get('magic-follow') ?? { count: 0, latencies: [], statuses: {} };
  stats.set('magic-follow', entry);
  entry.count += 1;
  entry.latencies.push(performance.now() - started);
  entry.statuses[res.status] = (entry.statuses[res.status] ?? 0) + 1;
  if (res.status >= 500) fiveXx += 1;
  if (res.status >= 400) problems.push(`magic-follow: ${res.status}`);
  else {
    const token = /auth_token=([^;]+)/.exec(res.headers.getSetCookie().join('\n'));
    if (token) recordSignIn(user, decodeURIComponent(token[1]));
    else problems.push('magic-follow: no auth_token cookie');
  }
}



async function checkLedger(db) {
  const missing = [];
  const users = [...ledger.users.values()];
  const ids = users.map((user) => user.id);
  const [rows] = await db.query('SELECT u.id, u.email, u.first_name, u.role, p.bio FROM users u LEFT JOIN user_profiles p ON p.user_id = u.id WHERE u.id IN (?)', [ids]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const user of users) {
    const row = byId.get(user.id);
    if (!row) missing.push(`user ${user.id} (registered, acknowledged) is not in the database`);
    else {
      if (row.email !== user.email) missing.push(`user ${user.id}: email ${row.email}`);
      if (row.first_name !== user.firstName) missing.push(`user ${user.id}: first name ${row.first_name}, acknowledged ${user.firstName}`);
      if (row.role !== user.role) missing.push(`user ${user.id}: role ${row.role}, acknowledged ${user.role}`);
      if (row.bio !== user.bio) missing.push(`user ${user.id}: bio ${row.bio}, acknowledged ${user.bio}`);
    }
  }
  if (ledger.revoked.length > 0) {
    const [revoked] = await db.query('SELECT jti FROM revoked_tokens WHERE jti IN (?)', [ledger.revoked]);
    const found = new Set(revoked.map((row) => row.jti));
    for (const jti of ledger.revoked) if (!found.has(jti)) missing.push(`revocation ${jti} is not in the database`);
  }
  const [signIns] = await db.query(
    "SELECT user_id, COUNT(*) AS n FROM activity_logs WHERE action IN ('auth.login', 'auth.otp_verified', 'auth.register', 'auth.magic_link_used') GROUP BY user_id",
  );
  const signInRows = new Map(signIns.map((row) => [row.user_id, Number(row.n)]));
  for (const [id, count] of ledger.logins) {
    if ((signInRows.get(id) ?? 0) < count) missing.push(`user ${id}: ${count} sign-ins acknowledged, ${signInRows.get(id) ?? 0} recorded`);
  }
  return { users: users.length, revocations: ledger.revoked.length, signIns: [...ledger.logins.values()].reduce((a, b) => a + b, 0), missing };
}

module.exports = { PASSWORD, stats, problems, fiveXx: () => fiveXx, mode, call, worker, checkLedger };
