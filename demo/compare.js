'use strict';
// The demo's comparison of two sides over paired runs (report.js).
// A pair's two runs share their process and their arrivals, and pairs
// differ from each other by more than a side can move them (the host, the
// warm-up left behind): the change is the mean over pairs of each pair's
// own log ratio, with a Student t interval over the pairs (n - 1 degrees
// of freedom): the kind of interval make experiment's paired statistics
// use (experiment/paired.js).  Until 2026-12-04 it was a percentile
// bootstrap of the pooled figures over the pairs, which calls about a fifth
// of no-change sets of 4 pairs resolved at "95%" (demo/test-compare.js
// keeps it as its control).
// A demo prints several changes (report.js: 8), and three demos in a row
// must agree on each: with each interval at 95%, a demo in which nothing
// changed would call one of them resolved, in a direction it does not
// have, about one run in four (test-compare.js).  So the intervals are
// simultaneous (Bonferroni): each of a report's @family changes at
// 1 - 5%/family, all of them together at 95% or more (about one run in 25).
const { mean, variance, tQuantile } = require('../experiment/stats');

// The change of @stat (a figure of a list of runs) from side @b to side
// @a over @pairs: the estimate (the geometric mean of the pairs' ratios,
// less 1), its interval (at level 1 - 5%/@family: one of @family changes
// whose intervals hold together at 95%), each pair's own change, and the
// verdict: 'lower' or 'higher' only when the interval excludes zero and
// there are 3 pairs or more (2 give a half-width of 12.7 standard errors at
// 95%), else null.
// The estimate is not the change of the pooled figures report.js tables
// (one pair with a long tail moves those most): the two can differ, in
// sign too.
// Each interval's level in a family of @family that holds together at 95%.
const familyLevel = (family) => 1 - 0.05 / family;

function pairedChange(pairs, stat, a = 'on', b = 'off', family = 1) {
  const logs = pairs.map((p) => Math.log(stat([p[a]]) / stat([p[b]])));
  const m = mean(logs);
  const level = familyLevel(family);
  const half = pairs.length > 1 ? tQuantile(1 - (1 - level) / 2, pairs.length - 1) * Math.sqrt(variance(logs) / pairs.length) : NaN;
  const est = Math.exp(m) - 1;
  const lo = Math.exp(m - half) - 1;
  const hi = Math.exp(m + half) - 1;
  let verdict = null;
  // A figure of 0 or none (a run that served nothing) has no ratio: the
  // interval is NaN and the change is not resolved.
  if (!logs.every(Number.isFinite)) verdict = null;
  else if (pairs.length >= 3 && hi < 0) verdict = 'lower';
  else if (pairs.length >= 3 && lo > 0) verdict = 'higher';
  return { est, lo, hi, level, per: logs.map((x) => Math.exp(x) - 1), verdict };
}

const pctS = (x) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%` : '-');

// One line of the report for change @c of @what.  An unresolved change
// gets no estimate: its sign is one the pairs cannot tell (three demos
// would print it both ways), and its interval says how large it could be.
function describe(c, what, lowerIsBetter = true, n = c.per.length) {
  const level = `${+(100 * c.level).toFixed(1)}%`;
  const interval = `${level} interval ${pctS(c.lo)} to ${pctS(c.hi)}`;
  let head;
  if (c.verdict) {
    const better = (c.verdict === 'lower') === lowerIsBetter;
    head = `${pctS(c.est)} (${interval}): ${c.verdict}, ${better ? 'better' : 'worse'}`;
  } else if (!c.per.every((x) => Number.isFinite(x) && x > -1)) {
    head = 'not resolved (a pair has a figure of 0 or none: no ratio)';
  } else {
    head = `not resolved (${n < 3 ? 'fewer than 3 pairs' : interval})`;
  }
  return `  ${what.padEnd(14)} ${head}; per pair ${c.per.map(pctS).join(', ')}`;
}

// How many changes a report of demo.json @d prints (report.js), its
// intervals' family: the open loop's p99 and mean, on against off, and
// with the governor alone against off and on against it; the overload's
// throughput and p99.
function changesPrinted(d) {
  const service = d.service || [];
  const gov = service.length && service.every((p) => p.gov);
  return (service.length ? (gov ? 6 : 2) : 0) + ((d.overload || []).length ? 2 : 0);
}

module.exports = { pairedChange, describe, changesPrinted, familyLevel };
