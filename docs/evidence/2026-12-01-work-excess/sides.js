'use strict';
// Pooled p99 and mean of two sides of a DEMO_ARMS run, their change with a
// 95% bootstrap interval over pairs (report.js's method: 2000 resamples,
// seed 1).  Not among reading.md's rules: a comparison the run showed.
//   node sides.js DIR/demo.json A B   (e.g. gov off)
const fs = require('node:fs');
const path = require('node:path');
const { rng } = require(path.join(__dirname, '../../../experiment/loadgen'));
const [file, a, b] = process.argv.slice(2);
const pairs = JSON.parse(fs.readFileSync(file, 'utf8')).service;
const q = (s, p) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
const lats = (runs) => Float64Array.from(runs.flatMap((r) => r.raw.map((x) => x[2]))).sort();
const stats = { p99: (runs) => q(lats(runs), 0.99), mean: (runs) => { const l = lats(runs); return l.reduce((s, x) => s + x, 0) / l.length; } };
const pct = (x) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
for (const [name, stat] of Object.entries(stats)) {
  const change = (ps) => stat(ps.map((p) => p[a])) / stat(ps.map((p) => p[b])) - 1;
  const rand = rng(1);
  const bs = [];
  for (let i = 0; i < 2000; i++) bs.push(change(pairs.map(() => pairs[Math.floor(rand() * pairs.length)])));
  bs.sort((x, y) => x - y);
  console.log(`${name}: ${a} ${stat(pairs.map((p) => p[a])).toFixed(1)} ms, ${b} ${stat(pairs.map((p) => p[b])).toFixed(1)} ms; ` +
    `${a}/${b} - 1 = ${pct(change(pairs))} [${pct(q(bs, 0.025))}, ${pct(q(bs, 0.975))}]; per pair ${pairs.map((p) => pct(stat([p[a]]) / stat([p[b]]) - 1)).join(', ')}`);
}
