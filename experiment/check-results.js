'use strict';
// make check's experiment pipeline test: a short run's results.json must
// hold, for every policy run, a case with requests measured, finite
// percentiles, energy and (for eventboost policies) hints the kernel saw.
// --reps N: every case pools N repetitions (an extended run's).
//   node check-results.js RESULTS.json [--reps N] POLICY...
const fs = require('node:fs');

const args = process.argv.slice(2);
const file = args.shift();
const reps = args[0] === '--reps' ? Number(args.splice(0, 2)[1]) : 0;
const want = args;
const res = JSON.parse(fs.readFileSync(file, 'utf8'));
let failed = 0;
const check = (ok, what) => {
  console.log(`${ok ? 'ok' : 'not ok'} - experiment pipeline: ${what}`);
  if (!ok) failed = 1;
};
for (const policy of ['fixed-2.6', ...want]) {
  const c = res.cases.find((x) => x.policy === policy);
  check(Boolean(c), `${policy}: a case in results.json`);
  if (!c) continue;
  check(c.requests > 0 && c.requests >= 0.5 * c.expected, `${policy}: ${c.requests} of ${c.expected} requests measured`);
  check([c.p50, c.p99, c.p999].every(Number.isFinite) && c.p50 <= c.p99 && c.p99 <= c.p999,
    `${policy}: percentiles ${c.p50} <= ${c.p99} <= ${c.p999} ms`);
  check(Number.isFinite(c.energyRel) && c.energyRel > 0, `${policy}: energy ${c.energyRel}x of fixed 2.6 GHz`);
  check(Number.isFinite(c.workRel) && c.workRel > 0, `${policy}: work ${c.workRel}x of fixed 2.6 GHz`);
  if (reps) check(c.n === reps, `${policy}: ${c.n} repetitions pooled (want ${reps})`);
  if (policy.startsWith('eb-')) check(c.hintsPerSec > 0, `${policy}: ${c.hintsPerSec} hints/s reached the kernel`);
}
const fixed = res.cases.find((x) => x.policy === 'fixed-2.6');
check(fixed && Math.abs(fixed.energyRel - 1) < 1e-9 && Math.abs(fixed.workRel - 1) < 1e-9,
  'the reference is its own unit of energy and work');
check(Array.isArray(res.frontier) && res.frontier.length === res.published.length &&
  res.frontier.every((f) => typeof f.matched === 'boolean' && (f.ours === null || Number.isFinite(f.oursP999Reduction))),
  'each published point compared with the run\'s best eventboost policy at no more energy');
check(fs.existsSync(file.replace(/results\.json$/, 'results.svg')), 'results.svg written');
process.exit(failed);
