'use strict';
// The machine's PBKDF2 ceiling: async crypto.pbkdf2 hashes per second with every core busy, at the
// iteration count the service uses. Run as a child process (its own libuv thread pool, sized by the
// UV_THREADPOOL_SIZE the server gets). Prints one JSON line: { hashesPerSecond, iterations, inFlight }.
const crypto = require('node:crypto');
const os = require('node:os');

const iterations = Number(process.env.ITERATIONS || 100000);
const seconds = Number(process.env.SECONDS || 8);
const threads = Number(process.env.UV_THREADPOOL_SIZE || 4);
// Enough work in flight that no core ever waits: every thread of the pool busy.
const inFlight = Math.max(threads, os.availableParallelism());

const salt = crypto.randomBytes(16);
let done = 0;
let counting = false;
let stopAt = 0;
let started = 0;

function one() {
  crypto.pbkdf2('correct horse battery staple', salt, iterations, 32, 'sha256', () => {
    if (counting) done += 1;
    if (Date.now() < stopAt) one();
    else if (--running === 0) finish();
  });
}

let running = inFlight;
function finish() {
  const elapsed = (Date.now() - started) / 1000;
  process.stdout.write(`${JSON.stringify({ hashesPerSecond: done / elapsed, iterations, inFlight })}\n`);
}

// One second of warm-up (CPU frequency, thread start) before counting.
stopAt = Date.now() + (seconds + 1) * 1000;
setTimeout(() => {
  counting = true;
  started = Date.now();
}, 1000);
for (let i = 0; i < inFlight; i++) one();
