'use strict';
// The rules of reading.md applied to a demo.json of a DEMO_ARMS=off,gov,on
// run: per pair the work a request of each side against another, and where
// the excess of on against off (or the pair a verdict names) lies.
//   node split.js DIR/demo.json
const fs = require('node:fs');
const path = require('node:path');
const { cycles } = require(path.join(__dirname, '../../../experiment/cpu1'));

const d = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const pairs = d.service;
const answered = (r) => r.raw.length - r.censored - (r.errors || 0);
const work = (r) => cycles(r.busyNsByKhz) / answered(r);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const f2 = (x) => x.toFixed(3);

const ratio = (a, b) => pairs.map((p) => work(p[a]) / work(p[b]));
const R = { gov: ratio('gov', 'off'), on: ratio('on', 'off'), hooks: ratio('on', 'gov') };
for (const [k, xs] of Object.entries(R)) {
  console.log(`R_${k}: per pair ${xs.map(f2).join(', ')}; median ${f2(median(xs))}; above 1 in ${xs.filter((x) => x > 1).length} of ${xs.length}`);
}
const holds = (xs) => median(xs) >= 1.05 && xs.filter((x) => x > 1).length >= 5;
let verdict = 'not reproduced in this run';
let hi = 'on', lo = 'off';
if (holds(R.on)) {
  if (holds(R.gov)) { verdict = 'the governor'; hi = 'gov'; }
  else if (holds(R.hooks)) { verdict = 'the hooks'; lo = 'gov'; }
  else verdict = 'undetermined';
}
console.log(`verdict: ${verdict}`);

// Components, ns a request: the main thread, eventboost-mon, the other
// service threads, the rest of CPU 1 (its busy ticks, 10 ms each, less the
// service's threads).
const TICK_NS = 1e7;
function parts(r) {
  const n = answered(r);
  const th = r.threadNs || {};
  const main = th.main || 0;
  const mon = th['eventboost-mon'] || 0;
  const other = Object.entries(th).filter(([k]) => k !== 'main' && k !== 'eventboost-mon').reduce((a, [, v]) => a + v, 0);
  const c = r.cpu1 || {};
  const busy = ['userTicks', 'niceTicks', 'systemTicks', 'irqTicks', 'softirqTicks'].reduce((a, k) => a + (c[k] || 0), 0) * TICK_NS;
  return { main: main / n, monitor: mon / n, helpers: other / n, rest: (busy - main - mon - other) / n, cpu1: busy / n,
    softirq: (c.softirqTicks || 0) * TICK_NS / n, system: (c.systemTicks || 0) * TICK_NS / n, user: (c.userTicks || 0) * TICK_NS / n };
}
const keys = ['main', 'monitor', 'helpers', 'rest', 'cpu1', 'user', 'system', 'softirq'];
console.log(`\ncomponents, us a request, ${hi} - ${lo} per pair (and ${lo}'s own):`);
const ex = {};
for (const k of keys) {
  ex[k] = pairs.map((p) => (parts(p[hi])[k] - parts(p[lo])[k]) / 1e3);
  console.log(`  ${k.padEnd(8)} ${ex[k].map((x) => x.toFixed(0).padStart(6)).join(' ')}   median ${median(ex[k]).toFixed(0).padStart(6)}` +
    `   (${lo}: ${pairs.map((p) => (parts(p[lo])[k] / 1e3).toFixed(0)).join(', ')})`);
}
const total = median(ex.cpu1);
const named = ['main', 'monitor', 'helpers', 'rest'].filter((k) => total > 0 && median(ex[k]) >= total / 2);
console.log(`\nmedian excess of CPU 1 ${total.toFixed(0)} us a request; half or more of it in: ${named.join(', ') || 'no one component'}`);
// For the record: each side's hints, time at 4.0 GHz, and the top tasks of the pair with the largest excess.
for (const [i, p] of pairs.entries()) {
  console.log(`pair ${i + 1}: ${['off', 'gov', 'on'].map((s) => `${s} hints ${p[s].hints}, ${answered(p[s])} answered, p99 ${p[s].p99.toFixed(1)} ms, 4.0 GHz ${(100 * p[s].atMax).toFixed(1)}%`).join('; ')}`);
}
