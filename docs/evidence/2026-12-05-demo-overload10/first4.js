'use strict';
// After the fact (not in the plan): each run's overload pairs 1-4 and 5-10
// reported apart, as the report would (family of 8, each at 99.375%): what a
// 4-pair demo of the same hour would have printed, and whether the later
// pairs differ from the first four (the addendum's untested assumption).
//   node docs/evidence/2026-12-05-demo-overload10/first4.js demo/runs/2026-12-05-o-{1,2,3}
const fs = require('node:fs');
const path = require('node:path');
const { pairedChange } = require('../../../demo/compare');

const pct = (x) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
const show = (c) => `${pct(c.est)} [${pct(c.lo)}, ${pct(c.hi)}] ${c.verdict || 'not resolved'}`;
for (const dir of process.argv.slice(2)) {
  const d = JSON.parse(fs.readFileSync(path.join(dir, 'demo.json'), 'utf8'));
  for (const [key, what] of [['rps', 'throughput'], ['p99', 'p99']]) {
    const stat = (runs) => runs[0][key];
    const first = pairedChange(d.overload.slice(0, 4), stat, 'on', 'off', 8);
    const rest = pairedChange(d.overload.slice(4), stat, 'on', 'off', 8);
    console.log(`${path.basename(dir)} ${what.padEnd(10)} pairs 1-4: ${show(first)}; pairs 5-10: ${show(rest)}`);
  }
}
