'use strict';
// The plan's power estimate (2026-12-05, before any run at 10 overload
// pairs): how often a demo of N overload pairs resolves the overload's
// throughput higher and p99 lower, at the report's simultaneous level (a
// family of 8, each interval at 99.375%, demo/compare.js), for pairs like
// the given demos' (their overload pairs pooled).  Two models: pairs drawn
// with replacement from the pooled pairs, and normal log ratios with the
// pooled mean and SD.  4000 simulated demos per N; a fixed seed.
//   node docs/evidence/2026-12-05-demo-overload10/power.js demo/runs/2026-12-05-c-{1,2,3}
const fs = require('node:fs');
const path = require('node:path');
const { pairedChange } = require('../../../demo/compare');
const { mean, variance } = require('../../../experiment/stats');

const runs = process.argv.slice(2).map((dir) => JSON.parse(fs.readFileSync(path.join(dir, 'demo.json'))).overload);
const pairs = runs.flat();
let seed = 12345;
const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const gauss = () => Math.sqrt(-2 * Math.log(rnd() || 1e-9)) * Math.cos(2 * Math.PI * rnd());
const N = 4000;
for (const [name, key, want] of [['throughput', 'rps', 'higher'], ['p99', 'p99', 'lower']]) {
  const stat = (rs) => rs[0][key];
  const logOf = (p) => Math.log(p.on[key] / p.off[key]);
  const logs = pairs.map(logOf);
  const m = mean(logs);
  const sd = Math.sqrt(variance(logs));
  const perRun = runs.map((r) => Math.sqrt(variance(r.map(logOf))).toFixed(3)).join(', ');
  console.log(`${name}: ${pairs.length} pairs pooled, geometric mean ${((Math.exp(m) - 1) * 100).toFixed(1)}%, SD of the log ratios ${sd.toFixed(3)} (per demo ${perRun})`);
  for (const n of [4, 6, 8, 10, 12]) {
    let drawn = 0;
    let normal = 0;
    for (let i = 0; i < N; i++) {
      const s = Array.from({ length: n }, () => pairs[Math.floor(rnd() * pairs.length)]);
      if (pairedChange(s, stat, 'on', 'off', 8).verdict === want) drawn++;
      const g = Array.from({ length: n }, () => ({ on: { [key]: Math.exp(m + sd * gauss()) }, off: { [key]: 1 } }));
      if (pairedChange(g, stat, 'on', 'off', 8).verdict === want) normal++;
    }
    const pd = drawn / N;
    const pn = normal / N;
    console.log(`  ${String(n).padStart(2)} pairs: resolved ${want} in ${(100 * pd).toFixed(0)}% (pairs drawn), ${(100 * pn).toFixed(0)}% (normal); ` +
      `all three of three demos ${(100 * pd ** 3).toFixed(0)}%, ${(100 * pn ** 3).toFixed(0)}%`);
  }
}
