'use strict';
// demo/compare.js against pairs of known distribution: a change it calls
// resolved is one a 95% interval should resolve.  node demo/test-compare.js
const assert = require('node:assert/strict');
const { rng } = require('../experiment/loadgen');
const { pairedChange, describe } = require('./compare');

// Normal draws (Box-Muller) from a seeded generator: the test is the same
// every time.
const rand = rng(7);
const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
// A run's figure; a list of runs' figure is their mean (the overload's
// throughput and p99, report.js).
const figure = (runs) => runs.reduce((a, r) => a + r.v, 0) / runs.length;
// @n pairs whose on run is off's times exp(@shift + noise): the log ratio
// of a pair is normal with SD @sd.
function pairs(n, shift, sd) {
  return Array.from({ length: n }, () => {
    const off = 100 * Math.exp(0.5 * normal());
    return { off: { v: off }, on: { v: off * Math.exp(shift + sd * normal()) } };
  });
}
let failed = 0;
function test(name, fn) {
  try {
    fn();
    console.log(`ok - ${name}`);
  } catch (e) {
    failed++;
    console.log(`not ok - ${name}\n  ${e.message.split('\n').join('\n  ')}`);
  }
}

test('no change: 4 pairs call it resolved in at most 7% of 4000 sets (95% intervals: 5%)', () => {
  const sets = 4000;
  let resolved = 0;
  for (let i = 0; i < sets; i++) if (pairedChange(pairs(4, 0, 0.6), figure).verdict) resolved++;
  assert.ok(resolved / sets <= 0.07, `resolved ${resolved} of ${sets} (${(100 * resolved / sets).toFixed(1)}%)`);
});

test('no change: 8 pairs call it resolved in at most 7% of 4000 sets', () => {
  const sets = 4000;
  let resolved = 0;
  for (let i = 0; i < sets; i++) if (pairedChange(pairs(8, 0, 0.6), figure).verdict) resolved++;
  assert.ok(resolved / sets <= 0.07, `resolved ${resolved} of ${sets} (${(100 * resolved / sets).toFixed(1)}%)`);
});

test("an overload-sized change (every pair about -30%, SD 0.1 in log) is resolved lower by 4 pairs in 95% of 1000 sets", () => {
  let lower = 0;
  for (let i = 0; i < 1000; i++) if (pairedChange(pairs(4, Math.log(0.7), 0.1), figure).verdict === 'lower') lower++;
  assert.ok(lower >= 950, `lower in ${lower} of 1000`);
});

test('the interval holds the estimate, and each pair is its own change', () => {
  const ps = [[100, 70], [120, 90], [80, 60], [110, 70]].map(([off, on]) => ({ off: { v: off }, on: { v: on } }));
  const c = pairedChange(ps, figure);
  assert.ok(c.lo <= c.est && c.est <= c.hi, `${c.lo} <= ${c.est} <= ${c.hi}`);
  assert.deepEqual(c.per.map((x) => x.toFixed(4)), ['-0.3000', '-0.2500', '-0.2500', '-0.3636']);
  assert.equal(c.verdict, 'lower');
});

test('fewer than 3 pairs resolve nothing', () => {
  const ps = [[100, 50], [120, 60]].map(([off, on]) => ({ off: { v: off }, on: { v: on } }));
  assert.equal(pairedChange(ps, figure).verdict, null);
});

test('a resolved change is printed with its estimate and interval, an unresolved one with its interval only', () => {
  const mk = (xs) => xs.map(([off, on]) => ({ off: { v: off }, on: { v: on } }));
  const cut = pairedChange(mk([[100, 70], [120, 90], [80, 60], [110, 70]]), figure);
  assert.match(describe(cut, 'p99 latency'), /^ {2}p99 latency {4}-29\.2% \(95% interval -\d+\.\d% to -\d+\.\d%\): lower, better; per pair -30\.0%, -25\.0%, -25\.0%, -36\.4%$/);
  assert.match(describe(cut, 'throughput', false), /: lower, worse;/);
  const mixed = pairedChange(mk([[100, 70], [120, 150], [80, 60], [110, 130]]), figure);
  assert.equal(mixed.verdict, null);
  assert.match(describe(mixed, 'p99 latency'), /^ {2}p99 latency {4}not resolved \(95% interval -\d+\.\d% to \+\d+\.\d%\); per pair -30\.0%, \+25\.0%, -25\.0%, \+18\.2%$/);
  const two = pairedChange(mk([[100, 50], [120, 60]]), figure);
  assert.match(describe(two, 'p99 latency'), /not resolved \(fewer than 3 pairs\); per pair -50\.0%, -50\.0%$/);
});

process.exit(failed ? 1 : 0);
