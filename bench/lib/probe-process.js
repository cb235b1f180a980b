'use strict';
// GET /auth/me at a steady rate from a process of its own (forked by the flood step): its times are the service's
// answers, not also the wait for the event loop of the process that sends the flood. Answers its results over IPC.
const http = require('node:http');
const { send, paced } = require('./paced');
const { sleep } = require('./settings');

process.once('message', async ({ base, token, rate, seconds, delayMs }) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  await sleep(delayMs);
  const results = await paced(rate, seconds, () => send(agent, base, 'GET', '/auth/me', { headers: { authorization: `Bearer ${token}` } }));
  process.send(results.map(({ status, ms }) => ({ status, ms })), () => process.exit(0));
});
