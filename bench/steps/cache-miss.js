'use strict';
// miss (reported only): per signing algorithm, GET /auth/me with tokens not yet verified against the same again.
const { median } = require('../lib/settings');
const { startService, stop } = require('../lib/processes');
const { nextAddress, json, registerUser, timed } = require('../lib/clients');
const { sqliteEnv } = require('../lib/databases');

/** Fresh tokens timed against the same tokens again, per signing algorithm: what one cache miss costs. */
const MISS_SAMPLES = 200;
const ALGORITHMS = ['HS256', 'EdDSA', 'ES256', 'RS256'];
async function measureCacheMisses(dir) {
  const results = {};
  for (const algorithm of ALGORITHMS) {
    const service = await startService(`miss-${algorithm}`, { ...sqliteEnv(dir, `miss-${algorithm}`), JWT_ALGORITHM: algorithm });
    try {
      // A chain of refreshes makes tokens no request has verified yet (each supersedes the one before, which
      // stays good for the 60 s reuse window: the timing below ends well inside it).
      let { token } = await registerUser(service.url, `miss-${algorithm.toLowerCase()}`);
      const fresh = [];
      for (let i = 0; i < MISS_SAMPLES; i++) {
        const res = await json(`${service.url}/auth/refresh`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': nextAddress() } });
        if (res.status !== 200) throw new Error(`refresh under ${algorithm}: ${res.status}`);
        token = res.body.token;
        fresh.push(token);
      }
      const me = (t) => timed(() => fetch(`${service.url}/auth/me`, { headers: { authorization: `Bearer ${t}` } }).then((res) => res.arrayBuffer()));
      const miss = [];
      for (const t of fresh) miss.push((await me(t)).ms);
      const hit = [];
      for (const t of fresh) hit.push((await me(t)).ms);
      results[algorithm] = { missP50: median(miss), hitP50: median(hit), extraMicros: Math.round((median(miss) - median(hit)) * 1000) };
    } finally {
      await stop(service.child);
    }
  }
  return results;
}

module.exports = { measureCacheMisses, ALGORITHMS };
