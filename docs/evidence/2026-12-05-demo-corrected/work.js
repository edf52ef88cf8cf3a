'use strict';
// Written after run 1's results were read (not in the plan): what each
// overload pair's on/off throughput is made of.  Both sides saturated, it
// is the busy cycles' ratio (on/off: the clock, 4.0/2.6 = 1.538 when both
// are busy alike) times the off run's work a request (CPU 1's cycles per
// request served) over the on run's.  Per run and per set: those factors
// per pair and their geometric means.
//   node work.js demo/runs/2026-12-05-c demo/runs/2026-12-04-s demo/runs/2026-12-04-b
const path = require('node:path');
const { cycles } = require('../../../experiment/cpu1');

const gm = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
for (const set of process.argv.slice(2)) {
  const works = [];
  const clocks = [];
  for (const i of [1, 2, 3]) {
    const d = require(path.resolve(`${set}-${i}`, 'demo.json'));
    const work = (r) => cycles(r.busyNsByKhz) / (r.rps * d.overloadSecs);
    const w = d.overload.map((p) => work(p.off) / work(p.on));
    const c = d.overload.map((p) => cycles(p.on.busyNsByKhz) / cycles(p.off.busyNsByKhz));
    works.push(...w);
    clocks.push(...c);
    console.log(`${path.basename(set)}-${i}: work a request, off/on, per pair ${w.map((x) => x.toFixed(2)).join(', ')} ` +
      `(geometric mean ${gm(w).toFixed(3)}); busy cycles on/off ${gm(c).toFixed(3)}`);
  }
  console.log(`${path.basename(set)}, ${works.length} pairs: work off/on ${Math.min(...works).toFixed(2)}-${Math.max(...works).toFixed(2)}, ` +
    `geometric mean ${gm(works).toFixed(3)}; busy cycles on/off ${gm(clocks).toFixed(3)}`);
}
