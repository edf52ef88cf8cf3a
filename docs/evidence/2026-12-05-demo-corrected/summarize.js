'use strict';
// The plan's readings 2 and 3 (plan.md, as addendum.md makes them
// precise), from the runs' demo.json (or demo.json.gz):
//   node summarize.js demo/runs/2026-12-05-c-1 demo/runs/2026-12-05-c-2 ...
// Per run: the overload throughput's change, on against off (the geometric
// mean of its pairs' ratios, demo/compare.js, with a 95% interval of its
// own: the report prints the same estimate with a 99.4% interval); the
// same with each run's rate over its unheld time, rps / (1 - held share);
// the share of each measured run's wall time the host held CPU 1, per
// load and side (a partial count: addendum.md, item 6); the overload's
// pair 1 off run's work a request against the later pairs' off runs.
// Then all runs' pairs pooled: a description (a run's pairs share an hour).
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { pairedChange } = require('../../../demo/compare');
const { cycles } = require('../../../experiment/cpu1');

const load = (dir) => {
  const f = path.join(dir, 'demo.json');
  if (fs.existsSync(f)) return JSON.parse(fs.readFileSync(f, 'utf8'));
  if (fs.existsSync(`${f}.gz`)) return JSON.parse(zlib.gunzipSync(fs.readFileSync(`${f}.gz`)).toString());
  throw new Error(`${dir}: no demo.json or demo.json.gz`);
};
// A default demo on the corrected testbed, whole (addendum.md, item 8).
function check(dir, d) {
  const want = { testbed: 'host', reps: 4, connections: 8, load: 0.6 };
  for (const [k, v] of Object.entries(want)) if (d[k] !== v) throw new Error(`${dir}: ${k} is ${d[k]}, a default demo has ${v}`);
  if (!d.guest || d.guest.heldUs !== 500) throw new Error(`${dir}: guest.heldUs is ${d.guest && d.guest.heldUs}, the corrected testbed's default is 500`);
  for (const [kind, arms] of [['service', 'off,gov,on'], ['overload', 'off,on']]) {
    if (d.arms[kind].join(',') !== arms) throw new Error(`${dir}: ${kind}'s sides are ${d.arms[kind]}, the default is ${arms}`);
    if (d[kind].length !== 4) throw new Error(`${dir}: ${d[kind].length} ${kind} pairs, a whole demo has 4`);
    for (const p of d[kind]) {
      for (const s of d.arms[kind]) {
        const r = p[s];
        if (!r || !r.cpu1 || !Number.isFinite(r.cpu1.heldNs) || !(r.wallMs > 0)) throw new Error(`${dir}: a ${kind} ${s} run without cpu1.heldNs or wallMs`);
      }
    }
  }
}
const pct = (x) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
const held = (r) => r.cpu1.heldNs / 1e6 / r.wallMs;
const change = (pairs, stat) => {
  const c = pairedChange(pairs, (runs) => stat(runs[0]));
  return `${pct(c.est)} [${pct(c.lo)}, ${pct(c.hi)}]`;
};
const rps = (r) => r.rps;
const unheldRps = (r) => r.rps / (1 - held(r));
const range = (xs) => `${(100 * Math.min(...xs)).toFixed(1)}-${(100 * Math.max(...xs)).toFixed(1)}%`;
const heldBySide = (pairs, sides) => sides.map((s) => `${s} ${range(pairs.map((p) => held(p[s])))}`).join(', ');
const work = (d, r) => cycles(r.busyNsByKhz) / (r.rps * d.overloadSecs);

const all = [];
for (const dir of process.argv.slice(2)) {
  const d = load(dir);
  check(dir, d);
  all.push(...d.overload);
  const later = d.overload.slice(1).map((p) => work(d, p.off));
  console.log(`${path.basename(dir)}: capacity ${d.capacity.toFixed(1)}/s`);
  console.log(`  overload throughput, on vs off (95% interval alone): ${change(d.overload, rps)}; ` +
    `pairs ${d.overload.map((p) => pct(p.on.rps / p.off.rps - 1)).join(', ')}`);
  console.log(`  the same over unheld time: ${change(d.overload, unheldRps)}; ` +
    `pairs ${d.overload.map((p) => pct(unheldRps(p.on) / unheldRps(p.off) - 1)).join(', ')}`);
  console.log(`  held: open loop ${heldBySide(d.service, ['off', 'gov', 'on'])}; overload ${heldBySide(d.overload, ['off', 'on'])}`);
  console.log(`  overload pair 1 off run's work a request: ${(work(d, d.overload[0].off) / (later.reduce((a, x) => a + x, 0) / later.length)).toFixed(2)}x the later pairs' off runs`);
}
console.log(`the ${all.length} pairs pooled (a description): overload throughput, on vs off, ${change(all, rps)}; ` +
  `over unheld time ${change(all, unheldRps)}; references: 1/f +53.8%, the quiet CPU loop +61% to +65%`);
