'use strict';
// noise: two identical builds measured against each other (issue 51): the spread a ratio of this run must beat.
const { startBare, stop } = require('../lib/processes');
const { json } = require('../lib/clients');
const { compareWithBare } = require('./me');

const BODY = { user: { id: 'noise', email: 'noise@example.test' } };

/**
 * Bare Express against bare Express, by the same alternating rounds and side-by-side pairs as every /auth/me
 * ratio: the two are the same program, so every per-round ratio away from 1.00 is the host's, not the code's. A
 * ratio elsewhere in the run that differs from 1.00 by less than this spread says nothing either way.
 */
async function measureNoise() {
  const twin = await startBare('bare-server.js', { BENCH_BODY: JSON.stringify(BODY) });
  try {
    const check = await json(`${twin.url}/auth/me`);
    if (JSON.stringify(check.body) !== JSON.stringify(BODY)) throw new Error('the twin answers differently');
    const request = { title: 'twin', url: `${twin.url}/auth/me`, connections: 10 };
    const { twin: measured } = await compareWithBare(twin, [{ name: 'twin', request }], BODY);
    const spread = (ratios) => ({ min: Math.min(...ratios), max: Math.max(...ratios) });
    return {
      alternating: { ratio: measured.ratio, ...spread(measured.ratioPerRound), perRound: measured.ratioPerRound },
      cpu: { ratio: measured.cpuRatio, ...spread(measured.cpuRatioPerRound) },
      sideBySide: { ratio: measured.sideBySide.ratio, ...spread(measured.sideBySide.ratioPerRound), perRound: measured.sideBySide.ratioPerRound },
    };
  } finally {
    await stop(twin.child);
  }
}

module.exports = { measureNoise };
