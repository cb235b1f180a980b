'use strict';
// What /proc says about a process or the machine: CPU time, threads, memory, core pinning.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const { CORES } = require('./settings');

/** Pins processes (all their threads) to one core, or back to every core with null; false when not possible. */
function pin(pids, core) {
  if (CORES < 2) return false;
  const cores = core === null ? `0-${CORES - 1}` : String(core);
  try {
    for (const pid of pids) execFileSync('taskset', ['-a', '-p', '-c', cores, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** CPU time (user + system) a process has used so far, in µs; NaN where /proc is missing. */
function cpuMicros(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1e6 / 100);
  } catch {
    return NaN;
  }
}

/** CPU time (user + system) each thread of a process has used so far, in µs, by thread id; empty where /proc is missing. */
function threadCpuMicros(pid) {
  const out = new Map();
  try {
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      try {
        const fields = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
        out.set(tid, (Number(fields[11]) + Number(fields[12])) * (1e6 / 100));
      } catch {
        // The thread ended between the listing and the read.
      }
    }
  } catch {
    // No /proc: the split is not reported.
  }
  return out;
}

/**
 * A login round's CPU per login split by thread, in µs: the main thread (the event loop), the hashing threads and
 * the rest (libuv's pool running SQLite, V8's collector helpers). A hashing thread is told by its load alone: one
 * PBKDF2 of 100,000 rounds costs tens of ms spread over at most four threads, while no other thread spends even one
 * ms per login.
 */
function threadSplit(pid, before, after, requests) {
  const split = { main: 0, hashing: 0, other: 0 };
  for (const [tid, used] of after) {
    const perRequest = (used - (before.get(tid) ?? 0)) / requests;
    if (tid === String(pid)) split.main += perRequest;
    else if (perRequest >= 2000) split.hashing += perRequest;
    else split.other += perRequest;
  }
  return split;
}

/** Resident set size of a process in bytes (VmRSS), NaN where /proc is missing. */
function rss(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return Number(match[1]) * 1024;
  } catch {
    return NaN;
  }
}

/** Busy and total CPU ticks of the whole machine so far (/proc/stat), or null where it is missing. */
function machineTicks() {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((sum, value) => sum + value, 0);
    return { busy: total - fields[3] - fields[4], total };
  } catch {
    return null;
  }
}

module.exports = { pin, cpuMicros, threadCpuMicros, threadSplit, rss, machineTicks };
