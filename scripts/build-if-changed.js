'use strict';
// `npm start` builds first, but only when something the build reads changed since the last build: even
// an incremental `tsc` spends seconds checking an unchanged tree, and a restart should be quick.
// The build is stale when any file or folder under src/, a tsconfig or package.json is newer than
// dist/.tsbuildinfo (which tsc writes at the end of every build that changed something).
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const BUILD_INFO = path.join(ROOT, 'dist', '.tsbuildinfo');

/** The newest modification time under a path (folders count: a deleted file changes its folder). */
function newest(target) {
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(target).reduce((latest, name) => Math.max(latest, newest(path.join(target, name))), stat.mtimeMs);
}

function built() {
  try {
    return fs.statSync(BUILD_INFO).mtimeMs;
  } catch {
    return 0;
  }
}

/** The TypeScript compiler; a production install (NODE_ENV=production, npm --omit=dev) leaves it out. */
function compiler() {
  try {
    return require.resolve('typescript/bin/tsc');
  } catch {
    process.stderr.write(
      'Start failed: the build is missing or older than src/, and TypeScript is not installed (a production install leaves\n' +
        'dev dependencies out). Build first: `npm ci && npm run build`, then install for production if you want to.\n',
    );
    process.exit(1);
  }
}

const inputs = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json'].map((name) => path.join(ROOT, name));
if (Math.max(...inputs.map(newest)) > built()) {
  execFileSync(process.execPath, [compiler(), '-p', path.join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
  // tsc leaves its build info alone when nothing needed emitting: mark the build as checked now.
  const now = new Date();
  fs.utimesSync(BUILD_INFO, now, now);
}
