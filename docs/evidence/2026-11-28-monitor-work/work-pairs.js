'use strict';
// reading.md's statistics: node work-pairs.js [raw.json.gz]
const fs = require('node:fs');
const zlib = require('node:zlib');
const path = require('node:path');
const file = process.argv[2] || path.join(__dirname, 'raw.json.gz');
const raw = JSON.parse(zlib.gunzipSync(fs.readFileSync(file)));
const runs = raw.runs.filter((r) => r.phase === 'headline');
// CPU 1's cycles in a run: busy time at each clock x that clock.
const { cycles: cyclesOf } = require('../../../experiment/cpu1');
const cycles = (r) => cyclesOf(r.busyNsByKhz);
// The paired intervals of experiment/paired.js: with one case, the mean of
// the log ratios and a t interval with n - 1 degrees of freedom.
const { meanOverCases, ratio } = require('../../../experiment/paired');
function paired(a, b) {
  const lr = [];
  for (const ra of runs.filter((r) => r.policy === a)) {
    const rb = runs.find((r) => r.policy === b && r.rep === ra.rep && r.service === ra.service && r.rate === ra.rate);
    if (rb) lr.push(Math.log(cycles(ra) / cycles(rb)));
  }
  const m = ratio(meanOverCases([lr]));
  if (!m) return `no interval (${lr.length} pairs)`;
  const f = (x) => `${x.toFixed(2)}x`;
  return `${f(m.x)} [${f(m.lo)}, ${f(m.hi)}] (${lr.length} repetitions; each ${lr.map((x) => f(Math.exp(x))).join(', ')})`;
}
const { median } = require('../../../experiment/stats');
console.log(`work, eb-queue-f5-threshold against eb-queue-f5: ${paired('eb-queue-f5-threshold', 'eb-queue-f5')}`);
for (const p of ['eb-queue-f5', 'eb-queue-f5-threshold'])
  console.log(`work, ${p} against fixed-2.6: ${paired(p, 'fixed-2.6')}`);
console.log('medians over repetitions, a request: loop CPU ms, monitor CPU ms, monitor wake-ups, loop preemptions');
for (const p of ['fixed-2.6', 'eb-queue-f5', 'eb-queue-f5-threshold']) {
  const rs = runs.filter((r) => r.policy === p);
  const per = (f) => median(rs.map((r) => f(r) / r.requests));
  console.log(`  ${p.padEnd(22)} ${(per((r) => r.threadCpuNs.loop) / 1e6).toFixed(2)}  ${(per((r) => r.threadCpuNs.monitor) / 1e6).toFixed(2)}  ` +
    `${per((r) => (r.monitor ? r.monitor.wakeups : 0)).toFixed(2)}  ${per((r) => r.threadPreempted.loop).toFixed(2)}`);
}
