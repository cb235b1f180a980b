'use strict';
// memory: RSS idle with every feature loaded, and the peak while 50 connections call /auth/me (≤ 90 / 150 MiB).
const { MiB, sleep } = require('../lib/settings');
const { startService, stop } = require('../lib/processes');
const { cannon } = require('../lib/load');
const { rss } = require('../lib/proc-stats');
const { json, registerUser } = require('../lib/clients');
const { verifyAddress } = require('../lib/mail');

/**
 * RSS idle, and the peak sampled while 50 connections call /auth/me. Idle is read once the process has
 * sat idle for IDLE_SETTLE_MS after start and a few requests: V8 keeps its start-up heap (a young generation
 * grown to its maximum while modules load: 8 MiB with the start script's --max-semi-space-size=4, else 32) until
 * its memory reducer runs, about 8 s after the last full collection, and later again while anything still
 * allocates (seen: 8 to 20 s). The figure two seconds after start is reported too.
 *
 * Measured on a service started on a database that is already current, as every instance starts but the first
 * after an upgrade: a start that applies migrations also loads the migration runner (umzug and its command-line
 * parser, about 3 MiB), which stays for the life of that process. That first start (the main service, idle in
 * the same 30 s) is reported beside it. Before idling, the measured service uses every feature whose code loads at
 * first use (below), so the figure is the service with every feature loaded.
 */
const IDLE_SETTLE_MS = 30_000;
async function measureMemory(firstStart, env, sink) {
  // Passkeys need a host name, not an address, in BASE_URL (WebAuthn's relying-party id).
  const service = await startService('memory', env, { baseHost: 'localhost' });
  try {
    const { email, token } = await registerUser(service.url, 'memory');
    // A second factor is enrolled on a verified address only (CONTRACT 12): the registration's link is followed.
    await verifyAddress(sink, email);
    const bearer = { authorization: `Bearer ${token}` };
    // Every feature's code loaded: a sign-in (the registration), a token check, a TOTP enrolment begun and its
    // page with the QR code, passkey registration options (libraries the service loads at their first use).
    const uses = [
      await json(`${service.url}/auth/me`, { headers: bearer }),
      await json(`${service.url}/auth/2fa/totp/setup`, { method: 'POST', headers: bearer }),
      await fetch(`${service.url}/admin/profile/two-factor`, { headers: { cookie: `auth_token=${token}`, accept: 'text/html' } }),
      await json(`${service.url}/auth/passkeys/register/options`, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: '{}' }),
    ];
    uses.forEach((use, i) => {
      if (use.status !== 200) throw new Error(`memory: feature use ${i} answered ${use.status} ${JSON.stringify(use.body ?? null)}`);
    });
    await sleep(2000);
    const afterStart = rss(service.child.pid);
    await sleep(IDLE_SETTLE_MS - 2000);
    const idle = rss(service.child.pid);
    const firstStartIdle = rss(firstStart.child.pid);
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rss(service.child.pid));
    }, 20);
    await cannon({ title: 'memory', url: `${service.url}/auth/me`, headers: { authorization: `Bearer ${token}` }, connections: 50 });
    clearInterval(sampler);
    return { idleMiB: idle / MiB, afterStartMiB: afterStart / MiB, peakMiB: peak / MiB, firstStartIdleMiB: firstStartIdle / MiB };
  } finally {
    await stop(service.child);
  }
}

module.exports = { measureMemory, IDLE_SETTLE_MS };
