// Preloaded into the tools the suite runs (redocly): any outbound connection is refused and reported on
// stderr, so a tool that phones home fails the test instead of slowing it down or leaking.
const net = require('node:net');

net.Socket.prototype.connect = function refuse(...args) {
  const target = args[0] && typeof args[0] === 'object' ? { host: args[0].host, port: args[0].port, path: args[0].path } : args;
  process.stderr.write(`NETWORK ATTEMPT ${JSON.stringify(target)}\n`);
  throw new Error('network access is disabled in this test');
};
