'use strict';
// oidc (reported only): the OpenID Provider's token endpoint, code exchange and refresh per second, beside POST /auth/refresh.
const crypto = require('node:crypto');
const { SECONDS, median, log } = require('../lib/settings');
const { startService, stop } = require('../lib/processes');
const { sqliteEnv } = require('../lib/databases');
const { round, summarize } = require('../lib/load');
const { cpuMicros } = require('../lib/proc-stats');
const { fromNewAddress, registerUser } = require('../lib/clients');

const REDIRECT_URI = 'http://127.0.0.1:9/cb';
const CONNECTIONS = 10;
/** Codes made ahead of each exchange round: they live 60 s, so a round redeems every one well inside that. */
const CODES_PER_ROUND = 600;

const b64url = (buffer) => buffer.toString('base64url');

/** The bench's application, written straight to its table (the admin API is not this step's subject). */
async function registerApplication(databaseUrl) {
  const { Sequelize } = require('sequelize');
  const sequelize = new Sequelize(databaseUrl, { logging: false });
  const clientId = `bench-${crypto.randomBytes(4).toString('hex')}`;
  const secret = b64url(crypto.randomBytes(32));
  const now = new Date();
  await sequelize.getQueryInterface().bulkInsert('oauth_clients', [{
    client_id: clientId, name: 'Bench application', secret_hash: crypto.createHash('sha256').update(secret).digest('hex'),
    redirect_uris: JSON.stringify([REDIRECT_URI]), post_logout_redirect_uris: '[]', public: false, first_party: true,
    allowed_scopes: JSON.stringify(['openid', 'profile', 'email', 'offline_access']),
    grant_types: JSON.stringify(['authorization_code', 'refresh_token']), created_at: now, updated_at: now,
  }]);
  await sequelize.close();
  return { clientId, authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` };
}

/** A browser of the signed-in user without JavaScript: its cookies, and redirects and meta refreshes followed by hand. */
function browserOf(base, authToken) {
  const jar = new Map([['auth_token', authToken]]);
  async function get(url) {
    const res = await fetch(new URL(url, base), { redirect: 'manual', headers: { cookie: [...jar].map(([n, v]) => `${n}=${v}`).join('; '), accept: 'text/html' } });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at).trim(), pair.slice(at + 1));
    }
    return res;
  }
  /** Follows the authorization to the application's redirect URI: its code. */
  async function authorize(params) {
    let res = await get(`/oidc/auth?${new URLSearchParams(params)}`);
    for (let hop = 0; hop < 12; hop++) {
      let next = res.headers.get('location');
      if (!next && res.status === 200) next = /http-equiv="refresh" content="0;url=([^"]+)"/.exec(await res.text())?.[1]?.replace(/&amp;/g, '&');
      if (!next) throw new Error(`authorization stopped at ${res.status}`);
      if (next.startsWith(REDIRECT_URI)) {
        const code = new URL(next).searchParams.get('code');
        if (!code) throw new Error(`no code: ${next}`);
        return code;
      }
      res = await get(next);
    }
    throw new Error('authorization did not finish');
  }
  return { authorize };
}

function pkce() {
  const verifier = b64url(crypto.randomBytes(32));
  return { verifier, challenge: b64url(crypto.createHash('sha256').update(verifier).digest()) };
}

async function token(base, authorization, form) {
  const res = await fetch(`${base}/oidc/token`, { method: 'POST', headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`token endpoint: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** Runs `work` on CONNECTIONS workers until it answers false or `seconds` pass: requests per second and CPU µs each. */
async function closedLoop(pid, seconds, work) {
  const cpuBefore = cpuMicros(pid);
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let done = 0;
  await Promise.all(Array.from({ length: CONNECTIONS }, async (_, worker) => {
    while (performance.now() < deadline && (await work(worker))) done += 1;
  }));
  const elapsed = (performance.now() - started) / 1000;
  return { perSecond: done / elapsed, cpuPerRequest: (cpuMicros(pid) - cpuBefore) / done };
}

/**
 * Code exchange and refresh at the OpenID Provider's token endpoint, in rounds alternating with POST
 * /auth/refresh on the same service: requests per second and CPU per request of each. A code is single use, so
 * each exchange round redeems codes made just before it (one GET /oidc/auth each: the user is signed in and the
 * application first-party); refresh tokens rotate, so each worker follows its own chain.
 */
async function measureOidc(dir) {
  const env = sqliteEnv(dir, 'oidc');
  const service = await startService('oidc', env);
  try {
    const { clientId, authorization } = await registerApplication(env.DATABASE_URL);
    const { token: authToken } = await registerUser(service.url, 'bench-oidc');
    const browser = browserOf(service.url, authToken);
    const request = (extra) => {
      const { verifier, challenge } = pkce();
      return { verifier, params: { client_id: clientId, redirect_uri: REDIRECT_URI, response_type: 'code', scope: 'openid email', code_challenge: challenge, code_challenge_method: 'S256', state: b64url(crypto.randomBytes(8)), ...extra } };
    };
    const redeem = async (code, verifier) => token(service.url, authorization, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier });

    // One refresh chain per worker (offline access: prompt=consent, OpenID Connect Core 11).
    const chains = [];
    for (let i = 0; i < CONNECTIONS; i++) {
      const { verifier, params } = request({ scope: 'openid email offline_access', prompt: 'consent' });
      chains.push((await redeem(await browser.authorize(params), verifier)).refresh_token);
    }

    const rounds = [];
    for (let i = 0; i < 3; i++) {
      const codes = [];
      for (let made = 0; made < CODES_PER_ROUND; made += CONNECTIONS) {
        await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
          const { verifier, params } = request({});
          codes.push({ verifier, code: await browser.authorize(params) });
        }));
      }
      const exchange = await closedLoop(service.child.pid, SECONDS, async () => {
        const next = codes.pop();
        if (!next) return false;
        await redeem(next.code, next.verifier);
        return true;
      });
      const refresh = await closedLoop(service.child.pid, SECONDS / 2, async (worker) => {
        chains[worker] = (await token(service.url, authorization, { grant_type: 'refresh_token', refresh_token: chains[worker] })).refresh_token;
        return true;
      });
      // A sign-in per round: the superseded token is accepted again only inside its 60 s reuse window (as in paths).
      const { token: serviceRefreshToken } = await registerUser(service.url, 'bench-oidc-refresh');
      const serviceRefresh = await round(service.child.pid, {
        title: 'POST /auth/refresh',
        url: service.url,
        connections: CONNECTIONS,
        duration: SECONDS / 2,
        requests: [{ method: 'POST', path: '/auth/refresh', headers: { authorization: `Bearer ${serviceRefreshToken}` }, setupRequest: fromNewAddress }],
      });
      log(`  round ${i + 1}: code exchange ${exchange.perSecond.toFixed(0)}/s, OIDC refresh ${refresh.perSecond.toFixed(0)}/s, /auth/refresh ${serviceRefresh.perSecond.toFixed(0)}/s`);
      rounds.push({ exchange, refresh, serviceRefresh });
    }
    const pick = (name) => summarize(rounds.map((r) => r[name]));
    return {
      codeExchange: pick('exchange'),
      oidcRefresh: pick('refresh'),
      authRefresh: pick('serviceRefresh'),
      oidcRefreshToAuthRefresh: median(rounds.map((r) => r.refresh.perSecond / r.serviceRefresh.perSecond)),
    };
  } finally {
    await stop(service.child);
  }
}

module.exports = { measureOidc };
