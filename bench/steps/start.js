'use strict';
// start: node dist/server.js to GET /health 200 on a database already migrated (target ≤ 1 s).
const { median } = require('../lib/settings');
const { startService, stop } = require('../lib/processes');

/** Median start time of `node dist/server.js` to /health 200 on an already migrated database. */
async function measureStart(env) {
  const times = [];
  for (let i = 0; i < 3; i++) {
    const service = await startService('start', env);
    times.push(service.startMs);
    await stop(service.child);
  }
  return { ms: median(times), perRound: times.map((t) => Math.round(t)) };
}

module.exports = { measureStart };
