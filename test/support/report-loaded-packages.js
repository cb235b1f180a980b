'use strict';
// Preloaded (--require) into a service process by test/ops/lazy-libraries.test.ts: on SIGUSR2 it prints, as one
// log line, the packages in require's cache (the outermost node_modules name of each loaded file).
process.on('SIGUSR2', () => {
  const packages = new Set();
  for (const file of Object.keys(require.cache)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file.split('\\').join('/'));
    if (match) packages.add(match[1]);
  }
  process.stdout.write(`${JSON.stringify({ msg: 'loaded packages', packages: [...packages].sort() })}\n`);
});
