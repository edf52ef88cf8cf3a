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

// The emulation holds only while CPU 0 idles (see load-agent.js): make
// experiment and make demo fail a run during which CPU 0 was busy more
// than this share of the time.  Decided before the first run with the load
// outside the guest: a guest's CPU 0 idles at 3-7% busy (kernel
// housekeeping, and the host's preemption of the QEMU thread charged to
// whichever vCPU it interrupted); a run above 10% is not a measurement of
// its policy.
const CPU0_BUSY_MAX = 0.10;

// The testbed check's verdict on one calibration block (driver.js,
// calibrate()), decided before any run it judges: the median of the pairs'
// 2.6/4.0 GHz time ratios within CALIB_BAND of 1/f (with fixedPct, that
// share of the job at full speed).  The driver measures a repetition again
// when a block around it fails; analyze.js refuses a run with one left.
const CALIB_BAND = 0.10;
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n ? (n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2) : NaN; };
function calibrationVerdict(block) {
  const want = block.fixedPct / 100 + (1 - block.fixedPct / 100) * (4000000 / 2600000);
  const ratio = median(block.pairs.map((x) => x.slow.ms / x.full.ms));
  return { ratio, want, ok: block.pairs.length > 0 && Math.abs(ratio / want - 1) <= CALIB_BAND };
}

// What a run added to such a reading: after - before, per key of after.
const delta = (before, after) => Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - (before[k] || 0)]));

module.exports = { CF, busy, timeInState, delta, idleUs, CPU0_BUSY_MAX, CALIB_BAND, calibrationVerdict, median };
