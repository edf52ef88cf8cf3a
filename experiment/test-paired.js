'use strict';
// paired.js's statistics, checked on data whose answer is known: the t
// table, a hand-computed Welch interval, the interval's coverage on
// simulated repetitions of the experiment's shape (2 cases x 4
// repetitions; a percentile bootstrap there covers about 84%), the
// verdicts, and the pairing and first-run exclusion on synthetic runs.
const assert = require('assert');
const { t975, meanOverCases, verdict, pairedAnalysis, cut } = require('./paired');
const { pct, mean, variance } = require('./stats');

let failed = 0;
function check(name, fn) {
  try {
    fn();
    console.log(`ok - paired: ${name}`);
  } catch (e) {
    failed++;
    console.log(`not ok - paired: ${name}: ${e.message}`);
  }
}
const near = (a, b, eps, what) => assert.ok(Math.abs(a - b) <= eps, `${what}: ${a} is not within ${eps} of ${b}`);

check('percentiles: nearest rank, as every figure of make experiment takes them', () => {
  const xs = Array.from({ length: 2000 }, (_, i) => i + 1);
  assert.strictEqual(pct(xs, 0.999), 1998, 'p99.9 of 2 000: the 1 998th');
  assert.strictEqual(pct(xs, 0.5), 1000, 'p50 of 2 000: the 1 000th');
  assert.strictEqual(pct([7], 0.999), 7, 'one value');
  assert.strictEqual(pct(xs, 1), 2000, 'p100: the largest');
  assert.ok(Number.isNaN(pct([], 0.5)), 'none: NaN');
  near(mean([1, 2, 6]), 3, 1e-12, 'mean');
  near(variance([1, 2, 6]), 7, 1e-12, 'sample variance (n - 1)');
  assert.ok(Number.isNaN(variance([1])), 'no variance of one value');
});

check('t quantiles: the table, rounded-down degrees of freedom, the large-df form', () => {
  near(t975(3), 3.182, 1e-9, 't(3)');
  near(t975(3.9), 3.182, 1e-9, 't(3.9)');
  near(t975(40), 2.021, 0.002, 't(40)');
  // Past the table, never narrower than Student's t (31: 2.0395, 100: 1.9840).
  assert.ok(t975(31) >= 2.0395 && t975(100) >= 1.9840, `t(31) ${t975(31)}, t(100) ${t975(100)}`);
  near(t975(120), 1.980, 0.002, 't(120)');
  assert.ok(Number.isNaN(t975(0.5)), 'no interval below one degree of freedom');
});

check('mean over cases: a hand-computed Welch interval', () => {
  // Case A: mean 1, variance 2/3 over 4 -> var of mean 1/6; case B: mean 3,
  // variance 2/3 -> 1/6.  Mean 2, SE^2 = (1/6 + 1/6)/4 = 1/12; df =
  // (1/12)^2 / (2 (1/24)^2 / 3) = 6 -> t 2.447.
  const m = meanOverCases([[0, 1, 1, 2], [2, 3, 3, 4]]);
  near(m.est, 2, 1e-12, 'estimate');
  near(m.se, Math.sqrt(1 / 12), 1e-12, 'standard error');
  near(m.df, 6, 1e-9, 'degrees of freedom');
  near(m.hi - m.est, 2.447 * Math.sqrt(1 / 12), 1e-9, 'half-width');
  assert.strictEqual(meanOverCases([[1, 2], [3]]), null, 'a case of one repetition gives no interval');
});

check('coverage: 2 cases x 4 repetitions of normal log ratios, 95% within [93%, 98%]', () => {
  let s = 7;
  const rand = () => { s = (s + 0x6D2B79F5) >>> 0; let t = s; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
  const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const trials = 4000;
  let covered = 0;
  for (let i = 0; i < trials; i++) {
    // The two services' spreads differ (about 0.27 and 0.76 in the run of
    // 2026-11-26); the true mean over cases is -0.5.
    const a = Array.from({ length: 4 }, () => -0.3 + 0.27 * normal());
    const b = Array.from({ length: 4 }, () => -0.7 + 0.76 * normal());
    const m = meanOverCases([a, b]);
    if (m.lo <= -0.5 && -0.5 <= m.hi) covered++;
  }
  const c = covered / trials;
  assert.ok(c >= 0.93 && c <= 0.98, `covered ${(100 * c).toFixed(1)}%`);
});

check('verdicts: met only when resolved, missed when resolved beyond, else unresolved', () => {
  const est = (lo, hi) => ({ est: (lo + hi) / 2, lo, hi });
  const L = Math.log;
  // A cut of 30-50% against a 16.3% target, energy 1.02-1.08x against 1.10x.
  assert.strictEqual(verdict({ p999: est(L(0.5), L(0.7)), energy: est(L(1.02), L(1.08)) }, 0.163, 1.10).verdict, 'met');
  // Energy 1.05-1.20x straddles 1.10x.
  const u = verdict({ p999: est(L(0.5), L(0.7)), energy: est(L(1.05), L(1.20)) }, 0.163, 1.10);
  assert.deepStrictEqual([u.verdict, u.cut, u.energy], ['unresolved', 'met', 'unresolved']);
  // Energy 1.12-1.20x is all over 1.10x.
  assert.strictEqual(verdict({ p999: est(L(0.5), L(0.7)), energy: est(L(1.12), L(1.2)) }, 0.163, 1.10).verdict, 'missed');
  // A cut of -10% to 60% does not exclude zero.
  assert.strictEqual(verdict({ p999: est(L(0.4), L(1.1)), energy: est(L(1.0), L(1.05)) }, 0.163, 1.10).cutAboveZero, false);
  assert.strictEqual(verdict({ p999: null, energy: null }, 0.163, 1.10).verdict, 'unresolved');
  // The chosen variant: met only if its confirm phase's cut is resolved above zero too.
  const good = { p999: est(L(0.5), L(0.7)), energy: est(L(1.02), L(1.08)) };
  assert.strictEqual(verdict(good, 0.163, 1.10, { p999: est(L(0.3), L(1.4)) }).verdict, 'unresolved');
  assert.strictEqual(verdict(good, 0.163, 1.10, null).verdict, 'unresolved', 'no confirm phase run');
  const ok = verdict(good, 0.163, 1.10, { p999: est(L(0.3), L(0.8)) });
  assert.deepStrictEqual([ok.verdict, ok.confirmed], ['met', true]);
});

check('pairing: each repetition against its own reference run; first runs left out on request', () => {
  const run = (service, rep, policy, p999, energy, cycles) => ({
    phase: 'headline', service, loadFactor: 0.7, rep, policy, latMs: [1, 2, p999], energy, cycles,
    busyNsByKhz: { 2600000: 3, 4000000: policy === 'eb' ? 1 : 0 },
  });
  const runs = [];
  // Repetition r: the reference's p99.9 is 100 * (r + 1); eb halves it in
  // every repetition, at 1.1x the energy and the same work -- except in
  // repetition 0, where eb ran first and did 2x the work (another policy
  // runs first in the others).
  for (const svc of ['a', 'b']) {
    for (let rep = 0; rep < 4; rep++) {
      const ref = run(svc, rep, 'fixed-2.6', 100 * (rep + 1), 10, 100);
      const eb = run(svc, rep, 'eb', 50 * (rep + 1), rep === 0 ? 22 : 11, rep === 0 ? 200 : 100);
      const other = run(svc, rep, 'other', 100 * (rep + 1), 10, 100);
      runs.push(...(rep === 0 ? [eb, ref, other] : [other, ref, eb]));
    }
  }
  const p = pairedAnalysis(runs).find((x) => x.policy === 'eb');
  near(cut(p.p999).x, 0.5, 1e-12, 'cut');
  near(p.p999.hi - p.p999.lo, 0, 1e-12, 'a cut the same in every repetition has no spread');
  near(Math.exp(p.price.est), 1.1, 1e-12, 'price per cycle');
  assert.ok(Math.exp(p.work.est) > 1.1, 'work with the first run');
  near(Math.exp(p.withoutFirst.work.est), 1, 1e-12, 'work without the pairs that held a first run');
  assert.deepStrictEqual(p.withoutFirst.reps, [3, 3]);
  near(p.busyBoosted, 0.25, 1e-12, 'share of busy time at 4.0 GHz');
});

check('censored runs: a pair whose p99.9 is a censored request\'s is left out of the p99.9 and counted', () => {
  // 1000 requests a run: the p99.9 is the 2nd largest, so 2 censored make it one.
  const lat = (top) => [...Array.from({ length: 998 }, (_, i) => i / 100), top, top];
  const run = (rep, policy, p999, censored) => ({ phase: 'headline', service: 'a', loadFactor: 0.7, rep, policy,
    latMs: lat(p999), censored, errors: 0, energy: 10, cycles: 100, busyNsByKhz: { 2600000: 1 } });
  const runs = [];
  for (let rep = 0; rep < 3; rep++) runs.push(run(rep, 'fixed-2.6', 100, 0), run(rep, 'eb', 50, 0));
  runs.push(run(3, 'fixed-2.6', 95000, 2), run(3, 'eb', 95000, 2));
  const p = pairedAnalysis(runs).find((x) => x.policy === 'eb');
  assert.strictEqual(p.censoredPairs, 1);
  assert.deepStrictEqual(p.reps, [4]);
  near(cut(p.p999).x, 0.5, 1e-12, 'the cut of the three open pairs');
});

check('first runs: one per repetition, before all its rates', () => {
  const run = (rep, loadFactor, policy, p999, cycles) => ({ phase: 'headline', service: 'a', loadFactor, rep, policy,
    latMs: [1, p999], energy: cycles / 10, cycles, busyNsByKhz: { 2600000: 1 } });
  const runs = [];
  // Per repetition: a calibration block, then rate 0.5 (other first), then
  // rate 0.7, whose first run (eb) follows rate 0.5's runs, not a block.
  for (let rep = 0; rep < 3; rep++) {
    runs.push(run(rep, 0.5, 'other', 100, 200), run(rep, 0.5, 'fixed-2.6', 100, 100), run(rep, 0.5, 'eb', 50, 100));
    runs.push(run(rep, 0.7, 'eb', 50, 100), run(rep, 0.7, 'fixed-2.6', 100, 100), run(rep, 0.7, 'other', 100, 100));
  }
  const p = pairedAnalysis(runs).find((x) => x.policy === 'eb');
  assert.deepStrictEqual(p.withoutFirst.reps, [3, 3], 'no eb pair held a repetition\'s first run');
  const o = pairedAnalysis(runs).find((x) => x.policy === 'other');
  assert.deepStrictEqual(o.withoutFirst.reps, [0, 3], 'other ran first at rate 0.5 only');
  assert.strictEqual(o.withoutFirst.p999, null, 'a case left without pairs gives no interval; it is not dropped');
});

if (failed) {
  console.log(`paired: ${failed} failed`);
  process.exit(1);
}
