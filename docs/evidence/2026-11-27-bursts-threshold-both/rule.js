'use strict';
// The run's decision (config.json, fixed before the run) and its per-run
// readouts, from raw.json.gz and results.json in this directory:
//   (a) eb-queue-threshold's monitor CPU time a request below eb-queue's
//       in every service and repetition (8);
//   (b) eb-queue-threshold's p99.9 cut against fixed-2.6, mean over the two
//       services: the lower end of its 95% bootstrap interval at or above
//       16.3%.
// Both: the README recommends bursts 'threshold' where energy matters more
// than the first milliseconds of a burst (the default stays 'arrival').
// Also per run: time at 4.0 GHz, work a request (ms at 4.0 GHz), boosts by
// reason per 1 000 requests, the loop's switch-ins and preemptions a
// request, the monitor's CPU and wake-ups a request.
//   node rule.js [DIR]
const fs = require('node:fs');
const zlib = require('node:zlib');
const path = require('node:path');
const dir = process.argv[2] || __dirname;
const raw = JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(dir, 'raw.json.gz'))));
const results = JSON.parse(fs.readFileSync(path.join(dir, 'results.json')));
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '-');
const pct = (x) => `${(100 * x).toFixed(1)}%`;
const runs = raw.runs.filter((x) => !x.voided && !x.discarded && x.phase === 'headline');
const at4 = (r) => {
  const all = Object.values(r.busyNsByKhz).reduce((a, v) => a + v, 0);
  return all ? (r.busyNsByKhz['4000000'] || 0) / all : NaN;
};
for (const r of runs) {
  const n = r.requests - r.censored;
  const cycles = Object.entries(r.busyNsByKhz).reduce((a, [k, v]) => a + v * Number(k) / 4e6, 0);
  const m = r.monitor || {};
  const pre = r.threadPreempted || {};
  console.log(`${r.service.padEnd(10)} rep ${r.rep} ${r.policy.padEnd(18)} at 4.0 GHz ${pct(at4(r)).padStart(6)}, work ${f2(cycles / n / 1e6)} ms, ` +
    `boosts per 1 000 requests: head-of-line ${f2(1000 * (m.byHeadOfLine || 0) / n)}, length ${f2(1000 * (m.byLength || 0) / n)}, ` +
    `overload ${f2(1000 * (m.byOverload || 0) / n)}; loop switched in ${f2(r.threadRuns.loop / n)} (preempted ${f2(pre.loop / n)}) a request; ` +
    `monitor CPU ${f2(r.threadCpuNs.monitor / n / 1e6)} ms, wake-ups ${f2((m.wakeups || 0) / n)} (for arrivals ${f2((m.arrivals || 0) / n)}) a request; major GCs ${r.v8gc.major}; ${n} requests`);
}
const keys = [...new Set(runs.map((r) => `${r.service}|${r.rep}`))].sort();
const mon = (p, key) => {
  const r = runs.find((x) => x.policy === p && `${x.service}|${x.rep}` === key);
  return r ? r.threadCpuNs.monitor / (r.requests - r.censored) : NaN;
};
const lower = keys.map((key) => mon('eb-queue-threshold', key) < mon('eb-queue', key));
const a = keys.length === 8 && lower.every(Boolean);
const o = results.overall.find((x) => x.phase === 'headline' && x.policy === 'eb-queue-threshold');
const b = Boolean(o) && o.p999ReductionCI[0] >= 0.163;
console.log(`(a) monitor CPU a request, eb-queue-threshold below eb-queue in ${lower.filter(Boolean).length} of ${keys.length} service-repetitions: ${a ? 'holds' : 'does not hold'}`);
console.log(`(b) eb-queue-threshold's p99.9 cut, mean over cases ${o ? `${pct(o.p999Reduction)} [${pct(o.p999ReductionCI[0])}, ${pct(o.p999ReductionCI[1])}]` : 'missing'}: ` +
  `${b ? 'holds' : 'does not hold'}`);
console.log(`README: ${a && b ? "recommends bursts 'threshold' where energy matters more than a burst's first milliseconds" : 'no recommendation'}; the default stays 'arrival'`);
