'use strict';
// What the guest's measured CPU (CPU 1, policy 1) did, read the same way by
// make experiment and make demo: the emulating test driver's busy time per
// frequency, and the cpufreq core's time in each state; and a CPU's idle
// time (the emulation needs CPU 0 idle).
const fs = require('node:fs');

const CF = '/sys/devices/system/cpu/cpufreq';

// CPU 1's busy nanoseconds by kHz (ebtest_cpufreq's accounting).
function busy() {
  const out = {};
  for (const m of fs.readFileSync('/dev/ebtest_cpufreq', 'utf8').matchAll(/^busy 1 (\d+) (\d+)$/gm)) out[m[1]] = Number(m[2]);
  return out;
}

// policy1's time_in_state: kHz -> 10 ms units.
function timeInState() {
  return Object.fromEntries(fs.readFileSync(`${CF}/policy1/stats/time_in_state`, 'utf8').trim().split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number)));
}

// CPU @cpu's idle microseconds so far (ebtest_cpufreq's "idle" lines).
function idleUs(cpu) {
  const m = new RegExp(`^idle ${cpu} (-?\\d+)$`, 'm').exec(fs.readFileSync('/dev/ebtest_cpufreq', 'utf8'));
  if (!m || Number(m[1]) < 0) throw new Error(`/dev/ebtest_cpufreq: no idle time of CPU ${cpu} (a kernel without NO_HZ?)`);
  return Number(m[1]);
}

// What a run added to such a reading: after - before, per key of after.
const delta = (before, after) => Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - (before[k] || 0)]));

module.exports = { CF, busy, timeInState, delta, idleUs };
