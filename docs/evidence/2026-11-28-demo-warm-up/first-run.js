'use strict';
// Pair 1's off run against the rest of its demo, for every demo on the host
// testbed in demo/runs (or the directories named): its open-loop p99 beside
// the other runs' range, and its work a request (CPU 1's cycles over the
// requests answered) over the later off runs' mean; with the warm-up run
// runs before pair 1 (demos from 2026-11-28, evening), each warm-up's as
// well, in the order they ran.
//   node first-run.js [DEMO_DIR...]
const fs = require('node:fs');
const path = require('node:path');
const { cycles } = require('../../../experiment/cpu1');
const { mean } = require('../../../experiment/stats');

const runs = path.join(__dirname, '../../../demo/runs');
const dirs = process.argv.length > 2 ? process.argv.slice(2)
  : fs.readdirSync(runs).sort().map((d) => path.join(runs, d));
const work = (r) => cycles(r.busyNsByKhz) / (r.raw.length - r.censored - (r.errors || 0));
console.log('demo                      pair 1 off p99  the other runs\' p99  worst?  pair 1 off work  warm-ups: p99 (ms), work (x later off)');
console.log('                          (ms)            (ms)                         (x later off)');
for (const dir of dirs) {
  const d = JSON.parse(fs.readFileSync(path.join(dir, 'demo.json'), 'utf8'));
  if (d.testbed !== 'host' || !d.service[0].off.busyNsByKhz) continue;
  const first = d.service[0].off;
  const rest = d.service.flatMap((p, i) => (i ? [p.off, p.on] : [p.on])).map((r) => r.p99);
  const later = mean(d.service.slice(1).map((p) => work(p.off)));
  const wus = [].concat((d.warmUp && d.warmUp.service) || []);
  console.log(`${path.basename(dir).padEnd(26)}${first.p99.toFixed(0).padEnd(16)}` +
    `${`${Math.min(...rest).toFixed(0)}-${Math.max(...rest).toFixed(0)}`.padEnd(21)}` +
    `${(first.p99 > Math.max(...rest) ? 'yes' : 'no').padEnd(8)}${`${(work(first) / later).toFixed(2)}x`.padEnd(17)}` +
    `${wus.length ? wus.map((w) => `${w.p99.toFixed(0)} ${(work(w) / later).toFixed(2)}x`).join(', ') : '-'}`);
}
