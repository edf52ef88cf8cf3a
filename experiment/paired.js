'use strict';
// make experiment's paired statistics, beside analyze.js's pooled figures
// and bootstrap.  Decided on 2026-11-26 (22:00-22:40 UTC) while that
// evening's full run was running and before any of its data were
// analysed, after an outside statistical review of the run before it:
// - Per repetition, a policy's run against its repetition's reference run
//   (the same arrivals): the log ratio of their p99.9, of their energy, of
//   their work (cycles) and of their energy per cycle.  Per case the mean
//   of those; over cases the mean, with a 95% Welch t interval.  A
//   percentile bootstrap over 4 repetitions covers about 84% for a mean
//   over two cases (2 repetitions: 63%; one case of 2: about 50%).
//   The scale differs from analyze.js's headline: a geometric mean of
//   single runs' p99.9 ratios (a 90 s run's p99.9 is about its 2nd-4th
//   largest request), not the cut of the p99.9 pooled over repetitions;
//   the two can differ by several points, and the targets are applied to
//   each on its own scale.
// - A run whose p99.9 is a censored or failed request's (the run's worst
//   latency, loadgen.js) says only that it was saturated: such pairs are
//   left out of the p99.9 and counted (censoredPairs).
// - Verdicts on the targets from those intervals: "met" only when
//   the whole interval is on the target's side, "missed" only when it is
//   all beyond it, else "unresolved".  Which verdict is primary is the
//   design's (config.json's "verdict", primaryVerdict below): until
//   2026-12-04 the rule on analyze.js's point estimates, this beside it.
// - Energy = price per cycle x work: the clock's cost is the first, the
//   second is the work the run happened to do (its GC cycles) or the
//   policy added (Queue-Boost's monitor).
// - Position: the first run after a calibration block does more work; the
//   same figures without any pair one of whose runs was first (measured:
//   after the block, or after the warm-up run that follows it).

const { pct, mean, variance } = require('./stats');
// Student's t, 97.5th percentile, for 1..30 degrees of freedom; past that
// 1.96 + 2.5/df (at or above the table from 31 to 120, within 0.002).
const T975 = [NaN, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
  2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
  2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042];
// Non-integer degrees of freedom (Welch) are rounded down: the interval is
// a little wider, never narrower.
function t975(df) {
  if (!(df >= 1)) return NaN;
  if (df === Infinity) return 1.96;
  const d = Math.floor(df);
  return d < T975.length ? T975[d] : 1.96 + 2.5 / d;
}

// @byCase: per case, its per-repetition values.  The mean over cases of
// the cases' means, its standard error and a 95% t interval with
// Welch-Satterthwaite degrees of freedom.  null unless every case has 2
// repetitions or more (one gives no spread).  Values the same in every
// repetition give a point (df NaN): the price per cycle of a fixed clock.
function meanOverCases(byCase) {
  if (!byCase.length || byCase.some((xs) => xs.length < 2)) return null;
  const C = byCase.length;
  const parts = byCase.map((xs) => variance(xs) / xs.length / (C * C));
  const se2 = parts.reduce((a, x) => a + x, 0);
  const est = mean(byCase.map(mean));
  const denom = parts.reduce((a, x, i) => a + x * x / (byCase[i].length - 1), 0);
  const df = denom > 0 ? se2 * se2 / denom : NaN;
  const half = se2 > 0 ? t975(df) * Math.sqrt(se2) : 0;
  return { est, lo: est - half, hi: est + half, se: Math.sqrt(se2), df, reps: byCase.map((xs) => xs.length) };
}

// Where a log-ratio estimate stands against a bound on the ratio:
// 'below' when its whole interval is under @bound, 'above' when all of it
// is over, else 'unresolved'.
function side(m, bound) {
  if (!m) return 'unresolved';
  const b = Math.log(bound);
  if (m.hi < b) return 'below';
  if (m.lo > b) return 'above';
  return 'unresolved';
}

// The primary verdict a design names, fixed before its run: "rule" (the
// designs until 2026-12-04, none named) or "paired".  Throws on anything
// else, so that make experiment refuses a design before it runs.
const VERDICTS = ['rule', 'paired'];
function primaryVerdict(config) {
  if (!config || !('verdict' in config)) return 'rule';
  if (!VERDICTS.includes(config.verdict)) {
    throw new Error(`config: verdict ${JSON.stringify(config.verdict)}: want "rule" or "paired", the primary verdict on ` +
      'the targets ("rule": the pooled p99.9\'s point estimates, analyze.js; "paired": per-repetition paired intervals, paired.js)');
  }
  return config.verdict;
}

// The verdict of a run that adds repetitions to @prior's (a raw.json's
// config; EXPERIMENT_EXTEND) under the design @config: the same, or the
// pooled run would be judged by another rule than its first part was.
function extendedVerdict(config, prior) {
  const v = primaryVerdict(config);
  let was;
  try {
    was = primaryVerdict(prior);
  } catch (e) {
    // An error in the earlier run's raw.json itself: e.prior says it
    // without the variable's name (check-design.js names the file).
    const err = new Error(`EXPERIMENT_EXTEND: that run's ${e.message}`);
    err.prior = `that run's ${e.message}`;
    throw err;
  }
  if (v !== was) {
    throw new Error(`EXPERIMENT_EXTEND: that run's design judges its targets by ${JSON.stringify(was)}, this one by ` +
      `${JSON.stringify(v)}: run it with its own design (its raw.json's config) as EXPERIMENT_CONFIG, written by ` +
      '`node -e \'console.log(JSON.stringify(require(process.argv[1]).config))\' $PWD/RAW.json > design.json`');
  }
  return v;
}

// The target of one policy, from its paired estimates: the p99.9 cut at or
// past @cut (its ratio at or under 1 - cut) and the energy at or under
// @energy, each resolved.  @confirm: for the chosen variant, its estimates
// on the confirm phase's fresh repetitions, whose cut must be resolved
// above zero too (as analyze.js's rule asks it to cut the p99.9 there).
function verdict(p, cut, energy, confirm) {
  const c = side(p.p999, 1 - cut);
  const e = side(p.energy, energy);
  const zero = side(p.p999, 1);
  let v = 'unresolved';
  if (c === 'below' && e === 'below') v = 'met';
  else if (c === 'above' || e === 'above') v = 'missed';
  const confirmed = confirm === undefined ? undefined : Boolean(confirm && side(confirm.p999, 1) === 'below');
  if (v === 'met' && confirmed === false) v = 'unresolved';
  return { verdict: v, confirmed, cut: c === 'below' ? 'met' : c === 'above' ? 'missed' : 'unresolved',
    energy: e === 'below' ? 'met' : e === 'above' ? 'missed' : 'unresolved', cutAboveZero: zero === 'below' };
}

// One repetition's figures for the ratios; whether
// its p99.9 is a censored or failed request's: the worst latencies, so
// when there are as many of them as requests from the p99.9's rank up.
function figures(rs) {
  const lat = Float64Array.from(rs.flatMap((r) => r.latMs)).sort();
  const sum = (f) => rs.reduce((a, r) => a + r[f], 0);
  const busy = rs.reduce((a, r) => a + Object.values(r.busyNsByKhz).reduce((x, y) => x + y, 0), 0);
  const fast = rs.reduce((a, r) => a + (r.busyNsByKhz[4000000] || 0), 0);
  const worst = rs.reduce((a, r) => a + (r.censored || 0) + (r.errors || 0), 0);
  const above = lat.length - (Math.ceil(0.999 * lat.length) - 1);
  return { p999: pct(lat, 0.999), censored: lat.length > 0 && worst >= above, energy: sum('energy'), cycles: sum('cycles'),
    busyBoosted: busy ? fast / busy : NaN };
}

// @runs: analyze.js's runs (energy and cycles set), in the order they ran.
// Returns, per phase and policy with a reference, the paired estimates
// over the cases the policy ran in (one without 2 pairs: no interval),
// and the same without pairs that held a repetition's first run.
function pairedAnalysis(runs, ref = 'fixed-2.6') {
  const key = (r) => `${r.phase}|${r.service}|${r.loadFactor}`;
  // The first measured run after a repetition's calibration block (driver.js
  // takes one per phase, service and repetition, before all its rates, and
  // the warm-up run if the design has one).
  const first = new Set();
  const seen = new Set();
  for (const r of runs) {
    const k = `${r.phase}|${r.service}|${r.rep}`;
    if (!seen.has(k)) first.add(r);
    seen.add(k);
  }
  const out = [];
  for (const phase of [...new Set(runs.map((r) => r.phase))]) {
    const inPhase = runs.filter((r) => r.phase === phase);
    for (const policy of [...new Set(inPhase.map((r) => r.policy))]) {
      if (policy === ref) continue;
      const perCase = (dropFirst) => [...new Set(inPhase.map(key))].map((ck) => {
        const mine = inPhase.filter((r) => key(r) === ck && r.policy === policy);
        const refs = inPhase.filter((r) => key(r) === ck && r.policy === ref);
        const reps = [...new Set(mine.map((r) => r.rep))].filter((rep) => refs.some((r) => r.rep === rep)).sort((a, b) => a - b);
        const pairs = reps.map((rep) => [mine.filter((r) => r.rep === rep), refs.filter((r) => r.rep === rep)])
          .filter(([a, b]) => !dropFirst || ![...a, ...b].some((r) => first.has(r)))
          .map(([a, b]) => [figures(a), figures(b)]);
        return { case: ck, pairs, ran: mine.length > 0 };
      }).filter((c) => c.ran);
      const estimate = (cs) => {
        const lr = (f, ps = (c) => c.pairs) => meanOverCases(cs.map((c) => ps(c).map(([a, b]) => Math.log(f(a) / f(b)))));
        const open = (c) => c.pairs.filter(([a, b]) => !a.censored && !b.censored);
        return {
          cases: cs.length, reps: cs.map((c) => c.pairs.length),
          censoredPairs: cs.reduce((n, c) => n + c.pairs.length - open(c).length, 0),
          p999: lr((x) => x.p999, open), energy: lr((x) => x.energy), work: lr((x) => x.cycles),
          price: lr((x) => x.energy / x.cycles),
          busyBoosted: mean(cs.filter((c) => c.pairs.length).map((c) => mean(c.pairs.map(([a]) => a.busyBoosted)))),
        };
      };
      const all = perCase(false);
      if (!all.some((c) => c.pairs.length)) continue;
      out.push({ phase, policy, ...estimate(all), withoutFirst: estimate(perCase(true)) });
    }
  }
  return out;
}

// A log-ratio estimate as a ratio and its interval; as a cut (1 - ratio).
const ratio = (m) => (m ? { x: Math.exp(m.est), lo: Math.exp(m.lo), hi: Math.exp(m.hi) } : null);
const cut = (m) => (m ? { x: 1 - Math.exp(m.est), lo: 1 - Math.exp(m.hi), hi: 1 - Math.exp(m.lo) } : null);

module.exports = { t975, meanOverCases, side, verdict, primaryVerdict, extendedVerdict, pairedAnalysis, ratio, cut };
