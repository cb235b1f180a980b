'use strict';
// The servers a run starts (the service as operators run it, the bare baselines), and their stopping.
const { spawn } = require('node:child_process');
const net = require('node:net');
const path = require('node:path');
const { ROOT, BENCH, ITERATIONS, THREADPOOL, sleep } = require('./settings');

/** Every child started, so that a failed run stops them all. */
const children = [];

async function sparePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForHealth(url, child, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  throw new Error(`server at ${url} did not become healthy`);
}

/**
 * The environment and node flags of package.json's start script (`NAME=value … exec node <flags> dist/server.js`):
 * the service is measured as operators run it, and both live in that one place.
 */
const SERVER_START = (() => {
  const start = require(path.join(ROOT, 'package.json')).scripts.start;
  const match = /^((?:\w+=\S+\s+)*)exec\s+node\s+(.*?)\s*dist\/server\.js$/.exec(start);
  if (!match) throw new Error(`package.json's start script is not [NAME=value …] exec node … dist/server.js: ${start}`);
  const words = (text) => text.split(/\s+/).filter(Boolean);
  return { env: Object.fromEntries(words(match[1]).map((pair) => pair.split('='))), flags: words(match[2]) };
})();

function spawnNode(script, env, args = []) {
  const child = spawn(process.execPath, [...args, script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, UV_THREADPOOL_SIZE: String(THREADPOOL), ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  children.push(child);
  return child;
}

async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 12_000);
  await exited;
  clearTimeout(timer);
}

/** Starts node dist/server.js on a spare port; resolves once /health answers 200, with the time that took. */
async function startService(name, env, { baseHost = '127.0.0.1' } = {}) {
  const port = await sparePort();
  const url = `http://127.0.0.1:${port}`;
  // A directory per server, and node's own file names in it: a fixed name was shared by the main thread and the
  // worker threads (the password judge's), so whichever thread ended last overwrote the main thread's profile.
  const profileArgs = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.join(BENCH, 'profiles', `${name}-${Date.now()}`)}`] : [];
  const serverEnv = {
    ...SERVER_START.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: `http://${baseHost}:${port}`,
    PASSWORD_PBKDF2_ITERATIONS: String(ITERATIONS),
    TRUST_PROXY: 'loopback',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'info',
    ...env,
  };
  for (const [key, value] of Object.entries(process.env)) if (key.startsWith('BENCH_ENV_')) serverEnv[key.slice('BENCH_ENV_'.length)] = value;
  const started = process.hrtime.bigint();
  const child = spawnNode(path.join(ROOT, 'dist', 'server.js'), serverEnv, [...SERVER_START.flags, ...profileArgs]);
  await waitForHealth(url, child);
  return { child, url, startMs: Number(process.hrtime.bigint() - started) / 1e6 };
}

async function startBare(script, env) {
  const port = await sparePort();
  const child = spawnNode(path.join(BENCH, script), { PORT: String(port), ...env });
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

/** Stops every child the run started. */
async function stopAll() {
  for (const child of children) await stop(child);
}

module.exports = { sparePort, waitForHealth, stop, stopAll, startService, startBare };
