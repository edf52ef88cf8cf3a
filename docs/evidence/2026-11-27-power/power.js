'use strict';
// How many repetitions the issue-22 targets need on this testbed, from the
// committed runs' raw data (read-only; nothing here changes the analysis).
//   nice -n 19 node docs/evidence/2026-11-27-power/power.js   (writes power.txt)
//   ... power.js --with-shipped   (also the run made after it, ../2026-11-27-shipped: power-with-shipped.txt)
// Sections:
//   0. the data, and a check that the per-repetition log ratios below are
//      experiment/paired.js's (its estimates recomputed and compared with
//      each run's results.json);
//   1. between-repetition SD of the paired log ratio of energy, price per
//      cycle and work, per run, policy and case, the variance split, and
//      pooled SDs with chi-square intervals;
//   2. the same for the log ratio of the runs' p99.9;
//   3. repetitions needed for each target's energy bound and cut, and the
//      wall time they take (calibration blocks' timestamps, driver logs);
//   4. what moves the work term: per-run covariates within a policy, and
//      what a covariate adjustment of the paired work ratio would buy;
//   5. drift with position in a repetition's run order and with time.
// Energy, price per cycle, work and the p99.9 are computed as
// experiment/analyze.js and experiment/paired.js compute them (the power
// model, paired.js and loadgen.js are experiment/'s, required).
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const ROOT = path.resolve(__dirname, '../../..');
const { t975, pairedAnalysis } = require(path.join(ROOT, 'experiment/paired.js'));
const { schedule, pathChooser } = require(path.join(ROOT, 'experiment/loadgen.js'));

// ---- The runs -----------------------------------------------------------------
// label, raw file, driver log (the 2026-11-26 evening run: experiment/'s
// committed run until 2026-12-02, now with its log in its evidence directory).
const SOURCES = [
  { label: 'full-11-26', raw: 'docs/evidence/2026-11-26-second-full-run/raw.json.gz',
    results: 'docs/evidence/2026-11-26-second-full-run/results.json',
    log: 'docs/evidence/2026-11-26-second-full-run/driver-log.txt' },
  { label: 'queue-arrivals', dir: 'docs/evidence/2026-11-27-queue-arrivals' },
  { label: 'mixed-work', dir: 'docs/evidence/2026-11-27-mixed-work', extra: true },
  { label: 'hol-waiting', dir: 'docs/evidence/2026-11-27-hol-waiting' },
  { label: 'bursts-thr', dir: 'docs/evidence/2026-11-27-bursts-threshold' },
  { label: 'bursts-thr-both', dir: 'docs/evidence/2026-11-27-bursts-threshold-both' },
  // Made after this calculation (its design read the numbers above): only
  // with --with-shipped, whose output goes to power-with-shipped.txt.
  { label: 'shipped', dir: 'docs/evidence/2026-11-27-shipped', after: true },
].map((s) => (s.dir ? { ...s, raw: `${s.dir}/raw.json.gz`, results: `${s.dir}/results.json`, log: `${s.dir}/driver-log.txt` } : s))
  .map((s) => ({ ...s, rawPath: s.raw }));

const REF = 'fixed-2.6';
const EB = (p) => p.startsWith('eb-');
const SVC_SPEC = { 'heavy-json': '/heavy', mixed: '/(light|light|light|light|heavy)' };

const { EMU_MAX_KHZ, energyMj } = require(path.join(ROOT, 'experiment/power-model.js'));
const { pct, mean, variance } = require(path.join(ROOT, 'experiment/stats.js'));

// ---- Small statistics -------------------------------------------------------------
const sum = (xs) => xs.reduce((a, x) => a + x, 0);
const sd = (xs) => Math.sqrt(variance(xs));
const cov = (xs, ys) => { const mx = mean(xs); const my = mean(ys); return sum(xs.map((x, i) => (x - mx) * (ys[i] - my))) / (xs.length - 1); };
function lgamma(x) {
  const c = [76.18009172947146, -86.50532032941677, 24.01409824083091, -1.231739572450155, 0.1208650973866179e-2, -0.5395239384953e-5];
  let y = x; const t = x + 5.5 - (x + 0.5) * Math.log(x + 5.5);
  let s = 1.000000000190015;
  for (const ci of c) s += ci / ++y;
  return -t + Math.log(2.5066282746310005 * s / x);
}
// Regularized lower incomplete gamma P(a, x).
function gammaP(a, x) {
  if (x <= 0) return 0;
  if (x < a + 1) {
    let ap = a; let del = 1 / a; let s = del;
    for (let n = 0; n < 500; n++) { ap++; del *= x / ap; s += del; if (Math.abs(del) < Math.abs(s) * 1e-14) break; }
    return s * Math.exp(-x + a * Math.log(x) - lgamma(a));
  }
  let b = x + 1 - a; let c = 1e300; let d = 1 / b; let h = d;
  for (let i = 1; i < 500; i++) {
    const an = -i * (i - a); b += 2;
    d = an * d + b; if (Math.abs(d) < 1e-300) d = 1e-300;
    c = b + an / c; if (Math.abs(c) < 1e-300) c = 1e-300;
    d = 1 / d; const del = d * c; h *= del; if (Math.abs(del - 1) < 1e-14) break;
  }
  return 1 - Math.exp(-x + a * Math.log(x) - lgamma(a)) * h;
}
const bisect = (f, lo, hi) => { for (let i = 0; i < 200; i++) { const m = (lo + hi) / 2; if (f(m) < 0) lo = m; else hi = m; } return (lo + hi) / 2; };
const chi2q = (p, df) => bisect((x) => gammaP(df / 2, x / 2) - p, 0, 1000);
// 95% interval of an SD estimated with df degrees of freedom (normal data).
const sdCI = (s, df) => [s * Math.sqrt(df / chi2q(0.975, df)), s * Math.sqrt(df / chi2q(0.025, df))];
// Regularized incomplete beta, for Student's t (80th percentile, power).
function betacf(a, b, x) {
  let c = 1; let d = 1 - (a + b) * x / (a + 1); if (Math.abs(d) < 1e-300) d = 1e-300; d = 1 / d; let h = d;
  for (let m = 1; m < 300; m++) {
    const m2 = 2 * m;
    let aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d; if (Math.abs(d) < 1e-300) d = 1e-300; c = 1 + aa / c; if (Math.abs(c) < 1e-300) c = 1e-300; d = 1 / d; h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d; if (Math.abs(d) < 1e-300) d = 1e-300; c = 1 + aa / c; if (Math.abs(c) < 1e-300) c = 1e-300; d = 1 / d;
    const del = d * c; h *= del; if (Math.abs(del - 1) < 1e-14) break;
  }
  return h;
}
function ibeta(a, b, x) {
  if (x <= 0) return 0; if (x >= 1) return 1;
  const bt = Math.exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? bt * betacf(a, b, x) / a : 1 - bt * betacf(b, a, 1 - x) / b;
}
const tcdf = (t, df) => { const x = df / (df + t * t); const p = 0.5 * ibeta(df / 2, 0.5, x); return t > 0 ? 1 - p : p; };
const tq = (p, df) => bisect((t) => tcdf(t, df) - p, -100, 100);
// Least squares: beta, residual variance, covariance of beta.
function ols(X, y) {
  const n = X.length; const k = X[0].length;
  const A = Array.from({ length: k }, (_, i) => Array.from({ length: 2 * k }, (_, j) => (j < k ? sum(X.map((r) => r[i] * r[j])) : (j - k === i ? 1 : 0))));
  for (let c = 0; c < k; c++) {
    let p = c; for (let r = c + 1; r < k; r++) if (Math.abs(A[r][c]) > Math.abs(A[p][c])) p = r;
    [A[c], A[p]] = [A[p], A[c]];
    const v = A[c][c]; if (Math.abs(v) < 1e-12) throw new Error('ols: singular design');
    for (let j = 0; j < 2 * k; j++) A[c][j] /= v;
    for (let r = 0; r < k; r++) if (r !== c) { const f = A[r][c]; for (let j = 0; j < 2 * k; j++) A[r][j] -= f * A[c][j]; }
  }
  const inv = A.map((r) => r.slice(k));
  const Xty = Array.from({ length: k }, (_, i) => sum(X.map((r, m) => r[i] * y[m])));
  const beta = inv.map((r) => sum(r.map((v, j) => v * Xty[j])));
  const res = y.map((v, m) => v - sum(X[m].map((x, j) => x * beta[j])));
  const df = n - k;
  const s2 = sum(res.map((e) => e * e)) / df;
  return { beta, se: inv.map((r, i) => Math.sqrt(s2 * r[i])), s2, df, res };
}

// ---- Formatting ---------------------------------------------------------------------
const out = [];
const say = (s = '') => { out.push(s); };
const f = (x, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : '-');
const pc = (x, d = 1) => (Number.isFinite(x) ? `${(100 * x).toFixed(d)}%` : '-');
const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);

// ---- Load ------------------------------------------------------------------------------
const readGz = (f_) => JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(ROOT, f_))).toString());
const all = [];
const sources = [];
const withShipped = process.argv.includes('--with-shipped');
for (const s of SOURCES.filter((x) => withShipped || !x.after)) {
  const raw = readGz(s.raw);
  const results = JSON.parse(fs.readFileSync(path.join(ROOT, s.results), 'utf8'));
  const runs = raw.runs.map((r) => ({ ...r, phase: r.phase || 'headline' }));
  const pos = new Map();
  for (const r of runs) {
    const k = `${r.phase}|${r.service}|${r.rep}`;
    r.pos = pos.has(k) ? pos.get(k) + 1 : 0;
    pos.set(k, r.pos);
    r.source = s.label;
    r.energy = energyMj(r.busyNsByKhz);
    r.cycles = Object.entries(r.busyNsByKhz).reduce((c, [khz, ns]) => c + Number(khz) * ns, 0);
    r.busyNs = sum(Object.values(r.busyNsByKhz));
    r.price = r.energy / r.cycles;
    const lat = Float64Array.from(r.latMs).sort();
    r.p999run = pct(lat, 0.999);
    const worst = (r.censored || 0) + (r.errors || 0);
    r.censoredP999 = lat.length > 0 && worst >= lat.length - (Math.ceil(0.999 * lat.length) - 1);
    r.answered = Math.max(1, r.requests - r.censored);
    // Work a request, as ms of CPU 1 at 4.0 GHz.
    r.workMs = r.cycles / EMU_MAX_KHZ / 1e6 / r.answered;
    r.boosted = r.busyNs ? (r.busyNsByKhz[EMU_MAX_KHZ] || 0) / r.busyNs : 0;
    // Heavy requests among the measured ones: the arrivals recomputed
    // from the seed and rate (loadgen.js), checked against the count.
    const sched = schedule({ rate: r.rate, secs: r.secs || raw.secs, warm: raw.warm, seed: r.seed, path: pathChooser(SVC_SPEC[r.service]) })
      .filter((x) => x.measured);
    if (sched.length !== r.requests) throw new Error(`${s.label} ${r.service} rep ${r.rep}: ${sched.length} arrivals recomputed, ${r.requests} recorded`);
    r.heavy = sched.filter((x) => x.path === '/heavy').length;
  }
  sources.push({ ...s, raw, results, runs });
  all.push(...runs);
}

say('# Power and sample size for the issue-22 targets, from the committed runs');
say('');
say('## 0. Data');
for (const s of sources) {
  const ph = [...new Set(s.runs.map((r) => r.phase))];
  say(`  ${pad(s.label, 16)} ${s.rawPath}: ${s.runs.length} runs; ${ph.map((p) => {
    const rs = s.runs.filter((r) => r.phase === p);
    return `${p}: ${[...new Set(rs.map((r) => r.service))].join('+')} x ${new Set(rs.map((r) => r.rep)).size} reps x ` +
      `${[...new Set(rs.map((r) => r.policy))].join(', ')}`;
  }).join('; ')}${s.extra ? ' (with full-11-26, the runs of eb-gc-marking on mixed in Williams order)' : ''}`);
}
// Check: paired.js's own estimates from these runs against each results.json.
let maxDiff = 0; let compared = 0;
for (const s of sources) {
  const mine = pairedAnalysis(s.runs);
  for (const p of s.results.paired) {
    const m = mine.find((x) => x.phase === p.phase && x.policy === p.policy);
    for (const k of ['energy', 'work', 'price', 'p999']) {
      if (!p[k] || !m[k]) continue;
      maxDiff = Math.max(maxDiff, Math.abs(p[k].est - m[k].est), Math.abs(p[k].se - m[k].se));
      compared++;
    }
  }
}
say(`  check: paired.js's estimates and standard errors recomputed here from raw.json.gz against each results.json: ` +
  `${compared} compared, largest difference ${maxDiff.toExponential(1)} in log units ` +
  `(full-11-26's results were computed from latencies at 0.01 ms, its raw.json.gz keeps 0.1 ms)`);
say('  check: every run\'s request count equals the arrivals recomputed from its seed and rate (loadgen.js schedule())');

// ---- 1 and 2: per-repetition paired log ratios -----------------------------------------
// A cell: one run (source), phase, service, policy; its pairs by repetition.
const cells = [];
for (const s of sources) {
  for (const phase of [...new Set(s.runs.map((r) => r.phase))]) {
    for (const svc of [...new Set(s.runs.filter((r) => r.phase === phase).map((r) => r.service))]) {
      const rs = s.runs.filter((r) => r.phase === phase && r.service === svc);
      for (const policy of [...new Set(rs.map((r) => r.policy))]) {
        if (policy === REF) continue;
        const pairs = [];
        for (const a of rs.filter((r) => r.policy === policy)) {
          const b = rs.find((r) => r.policy === REF && r.rep === a.rep);
          if (!b) continue;
          pairs.push({ rep: a.rep, a, b, E: Math.log(a.energy / b.energy), P: Math.log(a.price / b.price), W: Math.log(a.cycles / b.cycles),
            T: a.censoredP999 || b.censoredP999 ? NaN : Math.log(a.p999run / b.p999run) });
        }
        if (pairs.length < 2) continue;
        cells.push({ source: s.label, phase, service: svc, policy, pairs, n: pairs.length });
      }
    }
  }
}
const termSD = (c, t) => sd(c.pairs.map((p) => p[t]).filter(Number.isFinite));
const termN = (c, t) => c.pairs.map((p) => p[t]).filter(Number.isFinite).length;
say('');
say('## 1-2. Between-repetition SD of the paired log ratios (policy run / same repetition\'s fixed-2.6 run)');
say('  E = log energy ratio = P (log price per cycle ratio) + W (log work ratio, cycles); T = log ratio of the two runs\' p99.9.');
say('  "mean": exp of the mean log ratio. var shares of E: W, P and 2cov(P,W) (they add to 100%).');
say(`  With n = 4 repetitions an SD has 3 degrees of freedom: its 95% interval is ${f(sdCI(1, 3)[0], 2)}x to ${f(sdCI(1, 3)[1], 2)}x the estimate ` +
  `(n = 2: ${f(sdCI(1, 1)[0], 2)}x to ${f(sdCI(1, 1)[1], 1)}x).`);
say('');
say(`  ${pad('run', 16)} ${pad('phase', 8)} ${pad('service', 10)} ${pad('policy', 20)} n  ${lpad('E mean', 7)} ${lpad('sd E', 6)} ${lpad('sd P', 6)} ${lpad('sd W', 6)} ` +
  `${lpad('W', 5)} ${lpad('P', 5)} ${lpad('2cov', 5)}   ${lpad('T mean', 7)} ${lpad('sd T', 6)} nT`);
for (const c of cells) {
  const E = c.pairs.map((p) => p.E); const P = c.pairs.map((p) => p.P); const W = c.pairs.map((p) => p.W);
  const vE = variance(E);
  const T = c.pairs.map((p) => p.T).filter(Number.isFinite);
  say(`  ${pad(c.source, 16)} ${pad(c.phase, 8)} ${pad(c.service, 10)} ${pad(c.policy, 20)} ${c.n}  ${lpad(`${f(Math.exp(mean(E)), 2)}x`, 7)} ${lpad(f(sd(E)), 6)} ${lpad(f(sd(P)), 6)} ${lpad(f(sd(W)), 6)} ` +
    `${lpad(pc(variance(W) / vE, 0), 5)} ${lpad(pc(variance(P) / vE, 0), 5)} ${lpad(pc(2 * cov(P, W) / vE, 0), 5)}   ${lpad(`${f(Math.exp(mean(T)), 2)}x`, 7)} ${lpad(f(sd(T)), 6)} ${T.length}`);
}
// Mean over the two cases, per run and policy that ran both: the SD that
// paired.js's standard error uses, sqrt(s1^2 + s2^2) / 2 (its SE is this
// over sqrt(n)).
say('');
say('  Mean over the two cases (policies that ran both): sd = sqrt(s_heavy^2 + s_mixed^2) / 2, so that the SE of the');
say('  two-case mean is sd / sqrt(n) as in paired.js; share of E\'s variance from W summed over the cases.');
for (const s of sources) {
  for (const phase of ['headline', 'confirm']) {
    for (const policy of [...new Set(cells.filter((c) => c.source === s.label && c.phase === phase).map((c) => c.policy))]) {
      const cs = cells.filter((c) => c.source === s.label && c.phase === phase && c.policy === policy);
      if (cs.length !== 2) continue;
      const two = (t) => Math.sqrt(sum(cs.map((c) => termSD(c, t) ** 2))) / 2;
      const shareW = sum(cs.map((c) => variance(c.pairs.map((p) => p.W)))) / sum(cs.map((c) => variance(c.pairs.map((p) => p.E))));
      say(`  ${pad(s.label, 16)} ${pad(phase, 8)} ${pad(policy, 20)} sd E ${f(two('E'))}, sd P ${f(two('P'))}, sd W ${f(two('W'))}, sd T ${f(two('T'))}; ` +
        `W's share of E's variance ${pc(shareW, 0)}`);
    }
  }
}

// Pooled SDs: variance pooled over cells with (n - 1) weights.  Cells of
// one run share their reference runs, so their estimates are not
// independent: the df given is an upper bound on the effective df.
function pooledSD(cs, t) {
  const parts = cs.map((c) => ({ v: termSD(c, t) ** 2, df: termN(c, t) - 1 })).filter((x) => x.df > 0 && Number.isFinite(x.v));
  const df = sum(parts.map((x) => x.df));
  return { s: Math.sqrt(sum(parts.map((x) => x.v * x.df)) / df), df, cells: parts.length };
}
// The same from the two-way layout (repetition + policy, additive, per run
// and service; every run a residual): sigma of one run's log, and
// sqrt(2) sigma, the SD of a pair's log ratio if runs were independent
// with one variance.
function twoWaySigma(field, filter) {
  let ss = 0; let df = 0;
  for (const s of sources) {
    for (const key of [...new Set(s.runs.filter((r) => r.phase === 'headline').map((r) => r.service))]) {
      const rs = s.runs.filter((r) => r.phase === 'headline' && r.service === key && filter(r) && Number.isFinite(field(r)));
      const reps = [...new Set(rs.map((r) => r.rep))]; const pols = [...new Set(rs.map((r) => r.policy))];
      if (reps.length < 2 || pols.length < 2 || rs.length !== reps.length * pols.length) continue;
      const y = rs.map(field); const g = mean(y);
      const rm = new Map(reps.map((x) => [x, mean(rs.filter((r) => r.rep === x).map(field))]));
      const pm = new Map(pols.map((x) => [x, mean(rs.filter((r) => r.policy === x).map(field))]));
      ss += sum(rs.map((r) => (field(r) - rm.get(r.rep) - pm.get(r.policy) + g) ** 2));
      df += (reps.length - 1) * (pols.length - 1);
    }
  }
  return { sigma: Math.sqrt(ss / df), df };
}
say('');
say('  Pooled SDs (variance pooled over cells, weights n - 1; 95% interval on the SD from chi-square with that df;');
say('  cells of one run share its reference runs, so the effective df is lower than shown):');
const POOL = {};
for (const [name, pick] of [['eventboost policies', (c) => EB(c.policy)], ['all policies', () => true]]) {
  for (const svc of ['heavy-json', 'mixed']) {
    const cs = cells.filter((c) => c.service === svc && pick(c));
    const row = {};
    for (const t of ['E', 'P', 'W', 'T']) row[t] = pooledSD(cs, t);
    if (name === 'eventboost policies') POOL[svc] = row;
    say(`  ${pad(name, 20)} ${pad(svc, 10)} ${row.E.cells} cells: ` + ['E', 'P', 'W', 'T'].map((t) => {
      const [lo, hi] = sdCI(row[t].s, row[t].df);
      return `sd ${t} ${f(row[t].s)} [${f(lo)}, ${f(hi)}] (df ${row[t].df})`;
    }).join('; '));
  }
}
for (const svc of ['heavy-json', 'mixed']) {
  const w = twoWaySigma((r) => Math.log(r.cycles / r.answered), (r) => r.service === svc);
  const t = twoWaySigma((r) => (r.censoredP999 ? NaN : Math.log(r.p999run)), (r) => r.service === svc);
  say(`  two-way (repetition + policy) residual, ${pad(svc, 10)}: one run's log work a request sigma ${f(w.sigma)} (df ${w.df}) -> ` +
    `pair sd ${f(Math.SQRT2 * w.sigma)}; one run's log p99.9 sigma ${f(t.sigma)} (df ${t.df}) -> pair sd ${f(Math.SQRT2 * t.sigma)}`);
}
const two = (t, src = POOL) => Math.sqrt(src['heavy-json'][t].s ** 2 + src.mixed[t].s ** 2) / 2;
say(`  two-case mean from the eventboost pooled SDs: sd E ${f(two('E'))}, sd P ${f(two('P'))}, sd W ${f(two('W'))}, sd T ${f(two('T'))}`);
const shareWpooled = (POOL['heavy-json'].W.s ** 2 + POOL.mixed.W.s ** 2) / (POOL['heavy-json'].E.s ** 2 + POOL.mixed.E.s ** 2);
say(`  W's share of E's pooled variance (eventboost, both cases): ${pc(shareWpooled, 0)}; P's: ` +
  `${pc((POOL['heavy-json'].P.s ** 2 + POOL.mixed.P.s ** 2) / (POOL['heavy-json'].E.s ** 2 + POOL.mixed.E.s ** 2), 0)}`);

// ---- 3. Repetitions needed ------------------------------------------------------------
// paired.js's interval for the mean over two cases with n repetitions each:
// SE^2 = (s1^2 + s2^2) / (4 n), Welch df, t975 at the df rounded down.
function halfWidth(s1, s2, n) {
  const se2 = (s1 * s1 + s2 * s2) / (4 * n);
  const df = (s1 * s1 + s2 * s2) ** 2 / ((s1 ** 4 + s2 ** 4) / (n - 1));
  return { hw: t975(df) * Math.sqrt(se2), se: Math.sqrt(se2), df };
}
// Smallest n whose expected half-width is under @margin (about even odds of
// deciding when the truth is the observed value), and whose interval
// excludes the bound with 80% probability ((t975 + t80) SE < margin).
function nNeeded(s1, s2, margin, power = false) {
  if (!(margin > 0)) return Infinity;
  for (let n = 2; n <= 2000; n++) {
    const h = halfWidth(s1, s2, n);
    const need = power ? (t975(h.df) + tq(0.8, Math.floor(h.df))) * h.se : h.hw;
    if (need < margin) return n;
  }
  return Infinity;
}
// Wall time: a repetition of k policies on one service, from the
// calibration blocks' timestamps (the "before" block of one repetition to
// the next's: k runs and two blocks).
const repTimes = [];
for (const s of sources) {
  const blocks = (s.raw.calibrations || []).filter((b) => !b.voided && b.when === 'before' && b.at);
  for (const b of blocks) {
    const next = blocks.find((x) => x.service === b.service && x.phase === b.phase && x.rep === b.rep + 1);
    if (!next) continue;
    const k = new Set(s.runs.filter((r) => r.phase === b.phase && r.service === b.service && r.rep === b.rep).map((r) => r.policy)).size;
    repTimes.push({ source: s.label, k, min: (Date.parse(next.at) - Date.parse(b.at)) / 60000 });
  }
}
const fit = ols(repTimes.map((x) => [1, x.k]), repTimes.map((x) => x.min));
const perRep = (k) => fit.beta[0] + fit.beta[1] * k;
// Whole-run overhead: driver log's "[N s] done" less the repetitions' time.
const overheads = [];
for (const s of sources) {
  const log = fs.readFileSync(path.join(ROOT, s.log), 'utf8');
  const done = /\[(\d+) s\] done/.exec(log);
  if (!done) continue;
  const groups = [...new Set(s.runs.map((r) => `${r.phase}|${r.service}|${r.rep}`))].map((g) => {
    const [phase, service, rep] = g.split('|');
    return new Set(s.runs.filter((r) => r.phase === phase && r.service === service && String(r.rep) === rep).map((r) => r.policy)).size;
  });
  const voided = (s.raw.discarded || []).filter((r) => r.voided).length;
  const services = new Set(s.runs.map((r) => r.service)).size;
  // A voided repetition's runs took their time too (queue-arrivals: 3 runs).
  const reps = sum(groups.map(perRep)) + voided * fit.beta[1];
  overheads.push({ source: s.label, total: Number(done[1]) / 60, reps, services, over: Number(done[1]) / 60 - reps });
}
say('');
say('## 3. Repetitions needed, and their wall time');
say(`  One repetition of k policies on one service (calibration block "before" to the next repetition's, ${repTimes.length} repetitions):`);
say(`    minutes = ${f(fit.beta[0], 2)} + ${f(fit.beta[1], 2)} k (residual sd ${f(Math.sqrt(fit.s2), 2)} min); observed ${[...new Set(repTimes.map((x) => x.k))].sort().map((k) => `k=${k}: ` +
  `${f(Math.min(...repTimes.filter((x) => x.k === k).map((x) => x.min)), 2)}-${f(Math.max(...repTimes.filter((x) => x.k === k).map((x) => x.min)), 2)}`).join(', ')}`);
say('  A 90 s run occupies about 97 s of load (2 s warm-up, 5 s grace) plus switching; two calibration blocks about 20 s each.');
say('  Whole-run overhead beyond the repetitions (build check, boot, per service: start, warm-up, capacity; analysis), driver logs:');
for (const o of overheads) say(`    ${pad(o.source, 16)} ${o.services} service(s): total ${f(o.total, 1)} min, repetitions ${f(o.reps, 1)} min, overhead ${f(o.over, 1)} min`);
const overTwo = mean(overheads.filter((o) => o.services === 2).map((o) => o.over));
const BUDGET = 120;
const repsIn = (k) => Math.floor((BUDGET - overTwo) / (2 * perRep(k)));
say(`  Both services, overhead ${f(overTwo, 1)} min: a repetition of the reference + 1 policy takes ${f(2 * perRep(2), 1)} min, + 2 policies ` +
  `${f(2 * perRep(3), 1)} min, + 3 policies ${f(2 * perRep(4), 1)} min; in ${BUDGET} min: ${repsIn(2)} repetitions (k=2), ${repsIn(3)} (k=3), ${repsIn(4)} (k=4).`);

// Targets and the observed paired estimates they are judged against.
const pairedOf = (label, policy, phase = 'headline') => {
  const s = sources.find((x) => x.label === label);
  return s.results.paired.find((p) => p.phase === phase && p.policy === policy);
};
const cellSD = (label, policy, svc, t) => { const c = cells.find((x) => x.source === label && x.policy === policy && x.service === svc && x.phase === 'headline'); return c ? termSD(c, t) : NaN; };
const TARGETS = [
  { what: 'GC-Boost', cut: 0.136, bound: 1.03, obs: [['full-11-26', 'eb-gc-marking']] },
  { what: 'Queue-Boost', cut: 0.163, bound: 1.10, obs: [['full-11-26', 'eb-queue'], ['queue-arrivals', 'eb-queue'], ['bursts-thr-both', 'eb-queue'], ['bursts-thr-both', 'eb-queue-threshold']] },
  { what: 'GC+queue', cut: 0.212, bound: 1.14, obs: [['full-11-26', 'eb-gc-marking+queue'], ['queue-arrivals', 'eb-gc-marking+queue']] },
];
say('');
say('  n = repetitions (of each case) for the paired 95% interval of the two-case mean (paired.js: Welch t, df rounded down) to');
say('  decide a bound, if the truth were the observed value. "n50": expected half-width below the margin (about even odds of');
say('  deciding); "n80": (t975 + t80) SE below it (80% chance). SDs: the policy\'s own (its run, 4 reps), and the eventboost');
say('  pooled ones (section 1). Margin = |log(observed / bound)|. Minutes: both services, ref + 1 policy, incl. overhead.');
const minutesFor = (n, k = 2) => overTwo + n * 2 * perRep(k);
const row = (label, what, est, bound, sOwn, sPool, sHi, sLo) => {
  const margin = Math.abs(est - Math.log(bound));
  const n50o = nNeeded(sOwn[0], sOwn[1], margin); const n50p = nNeeded(sPool[0], sPool[1], margin);
  const n80p = nNeeded(sPool[0], sPool[1], margin, true); const n50hi = nNeeded(sHi[0], sHi[1], margin);
  const n50lo = nNeeded(sLo[0], sLo[1], margin);
  const side = est > Math.log(bound) ? 'above' : 'below';
  say(`  ${pad(label, 38)} ${pad(what, 20)} observed ${f(Math.exp(est), 3)}x ${side} ${f(bound, 3)}x, margin ${f(margin)}: ` +
    `n50 own ${lpad(n50o, 4)}, pooled ${lpad(n50p, 4)} (${f(minutesFor(n50p) / 60, 1)} h), n80 pooled ${lpad(n80p, 4)} (${f(minutesFor(n80p) / 60, 1)} h); ` +
    `n50 at the pooled SDs' 95% ends ${n50lo}-${n50hi}`);
};
const hiSD = (t) => ['heavy-json', 'mixed'].map((svc) => sdCI(POOL[svc][t].s, POOL[svc][t].df)[1]);
const loSD = (t) => ['heavy-json', 'mixed'].map((svc) => sdCI(POOL[svc][t].s, POOL[svc][t].df)[0]);
for (const t of TARGETS) {
  for (const [label, policy] of t.obs) {
    const p = pairedOf(label, policy);
    if (!p || p.cases !== 2) continue;
    row(`${t.what}: ${label} ${policy}`, 'energy', p.energy.est, t.bound,
      ['heavy-json', 'mixed'].map((svc) => cellSD(label, policy, svc, 'E')), ['heavy-json', 'mixed'].map((svc) => POOL[svc].E.s), hiSD('E'), loSD('E'));
    row(`${t.what}: ${label} ${policy}`, `cut >= ${pc(t.cut)}`, p.p999.est, 1 - t.cut,
      ['heavy-json', 'mixed'].map((svc) => cellSD(label, policy, svc, 'T')), ['heavy-json', 'mixed'].map((svc) => POOL[svc].T.s), hiSD('T'), loSD('T'));
  }
}
say('');
say('  By margin (pooled eventboost SDs; energy and p99.9): repetitions for n50 / n80, and n50 with the SDs at their upper 95% ends.');
for (const m of [0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.178, 0.25, 0.35, 0.5]) {
  const e = ['heavy-json', 'mixed'].map((svc) => POOL[svc].E.s); const tt = ['heavy-json', 'mixed'].map((svc) => POOL[svc].T.s);
  say(`    margin ${f(m, 3)} (ratio x${f(Math.exp(m), 3)}): energy ${lpad(nNeeded(e[0], e[1], m), 4)} / ${lpad(nNeeded(e[0], e[1], m, true), 4)} (upper SD ${lpad(nNeeded(...hiSD('E'), m), 4)}); ` +
    `p99.9 ${lpad(nNeeded(tt[0], tt[1], m), 4)} / ${lpad(nNeeded(tt[0], tt[1], m, true), 4)} (upper SD ${lpad(nNeeded(...hiSD('T'), m), 4)})`);
}
{
  const tt = ['heavy-json', 'mixed'].map((svc) => POOL[svc].T.s);
  const m = -Math.log(1 - 0.163);
  const a_ = nNeeded(tt[0], tt[1], m); const b_ = nNeeded(tt[0], tt[1], m, true);
  say(`  (margin ${f(m, 3)} = |log(1 - 0.163)|: resolving a true 16.3% cut above zero: ${a_} / ${b_} repetitions, ` +
    `${f(minutesFor(a_) / 60, 1)} h / ${f(minutesFor(b_) / 60, 1)} h with the reference + 1 policy on both services.)`);
}
say(`  Half-width of the two-case energy interval at the pooled SDs: ${[4, 8, 12, 15, 20, 30].map((n) => `n=${n} ${f(halfWidth(POOL['heavy-json'].E.s, POOL.mixed.E.s, n).hw)}`).join(', ')}`);
say(`  Half-width of the two-case p99.9 interval at the pooled SDs: ${[4, 8, 12, 15, 20, 30].map((n) => `n=${n} ${f(halfWidth(POOL['heavy-json'].T.s, POOL.mixed.T.s, n).hw)}`).join(', ')}`);
say(`  If the work term's variance were gone (price per cycle alone, pooled sd P): the energy half-width at n=4 would be ` +
  `${f(halfWidth(POOL['heavy-json'].P.s, POOL.mixed.P.s, 4).hw)}, at n=8 ${f(halfWidth(POOL['heavy-json'].P.s, POOL.mixed.P.s, 8).hw)}`);

// ---- 4. What moves the work term ------------------------------------------------------
// Per run (headline phases of all runs): log work a request and covariates,
// centred within (run, service, policy) so that a policy's own effect is
// not what is correlated.
const hp = all.filter((r) => r.phase === 'headline');
const perRunCov = {
  'major GCs': (r) => r.v8gc.major,
  'minor GCs': (r) => r.v8gc.minor,
  'GC pause ms a request': (r) => r.v8gc.pauseMs / r.answered,
  'first run after calibration': (r) => (r.pos === 0 ? 1 : 0),
  'repetition index (time)': (r) => r.rep,
  'position in the repetition': (r) => r.pos,
  'heavy share (mixed)': (r) => (r.service === 'mixed' ? r.heavy / r.requests : NaN),
  'requests': (r) => r.requests,
  'loop CPU ms a request': (r) => r.threadCpuNs.loop / 1e6 / r.answered,
  'other threads CPU ms a request': (r) => r.threadCpuNs.other / 1e6 / r.answered,
  'monitor CPU ms a request': (r) => r.threadCpuNs.monitor / 1e6 / r.answered,
  'loop preempted a request': (r) => (r.threadPreempted ? r.threadPreempted.loop / r.answered : NaN),
  'busy share at 4.0 GHz': (r) => r.boosted,
};
const groupKey = (r) => `${r.source}|${r.service}|${r.policy}`;
function centred(rs, fn) {
  const m = new Map();
  for (const k of new Set(rs.map(groupKey))) m.set(k, mean(rs.filter((r) => groupKey(r) === k).map(fn)));
  return rs.map((r) => fn(r) - m.get(groupKey(r)));
}
const corr = (x, y) => cov(x, y) / Math.sqrt(variance(x) * variance(y));
say('');
say('## 4. What moves the work term');
say('  (a) Per run, within one policy: correlation of log(work a request) with each covariate, both centred within');
say('      (run, service, policy) (headline phases; N runs). This includes the differences between repetitions (their');
say('      arrivals and their time), which a pair\'s ratio cancels: see (a2) for what is left within a repetition.');
for (const svc of ['heavy-json', 'mixed']) {
  const base = hp.filter((r) => r.service === svc);
  const cells_ = [...new Set(base.map(groupKey))].filter((k) => base.filter((r) => groupKey(r) === k).length > 1);
  say(`    ${svc}: ${base.length} runs in ${cells_.length} groups; sd of centred log work a request ${f(Math.sqrt(sum(centred(base, (r) => Math.log(r.workMs)).map((x) => x * x)) / (base.length - cells_.length)))}`);
  for (const [name, fn] of Object.entries(perRunCov)) {
    const rs = base.filter((r) => Number.isFinite(fn(r)));
    if (rs.length < 8) continue;
    const x = centred(rs, fn); const y = centred(rs, (r) => Math.log(r.workMs));
    if (!(variance(x) > 0)) { say(`      ${pad(name, 32)} no spread within a policy`); continue; }
    say(`      ${pad(name, 32)} r ${lpad(f(corr(x, y), 2), 5)} (N ${rs.length})`);
  }
}
// (a2) What matters for a pair is what moves a run away from the other
// runs of its repetition: the two-way residual (run x service blocks,
// every repetition x policy once: y - repetition mean - policy mean +
// block mean).  Correlations of those residuals, and the share of their
// variance explained jointly (OLS; adjusted R^2 with the block parameters
// counted).
const blockKey = (r) => `${r.source}|${r.service}`;
function resid2(rs, fn) {
  const outv = new Map();
  for (const bk of new Set(rs.map(blockKey))) {
    const b = rs.filter((r) => blockKey(r) === bk);
    const g = mean(b.map(fn));
    const rm = new Map([...new Set(b.map((r) => r.rep))].map((x) => [x, mean(b.filter((r) => r.rep === x).map(fn))]));
    const pm = new Map([...new Set(b.map((r) => r.policy))].map((x) => [x, mean(b.filter((r) => r.policy === x).map(fn))]));
    for (const r of b) outv.set(r, fn(r) - rm.get(r.rep) - pm.get(r.policy) + g);
  }
  return rs.map((r) => outv.get(r));
}
const blockDf = (rs) => [...new Set(rs.map(blockKey))].reduce((a_, bk) => {
  const b = rs.filter((r) => blockKey(r) === bk);
  return a_ + (new Set(b.map((r) => r.rep)).size - 1) * (new Set(b.map((r) => r.policy)).size - 1);
}, 0);
say('  (a2) Within a repetition and a policy (two-way residuals, what a pair\'s ratio sees): correlation of log work a');
say('       request with each covariate\'s residual, and the share of the residual variance explained jointly:');
for (const svc of ['heavy-json', 'mixed']) {
  const base = hp.filter((r) => r.service === svc);
  const y = resid2(base, (r) => Math.log(r.workMs));
  const df0 = blockDf(base);
  say(`    ${svc}: ${base.length} runs, residual df ${df0}; sd of one run's residual log work a request ${f(Math.sqrt(sum(y.map((v) => v * v)) / df0))}`);
  for (const name of ['first run after calibration', 'position in the repetition', 'major GCs', 'minor GCs', 'GC pause ms a request',
    'loop CPU ms a request', 'other threads CPU ms a request', 'monitor CPU ms a request', 'busy share at 4.0 GHz']) {
    const x = resid2(base, perRunCov[name]);
    if (!(variance(x) > 0)) continue;
    say(`      ${pad(name, 32)} r ${lpad(f(corr(x, y), 2), 5)}`);
  }
  const withPre = base.filter((r) => r.threadPreempted);
  if (withPre.length) {
    const yp = resid2(withPre, (r) => Math.log(r.workMs)); const xp = resid2(withPre, perRunCov['loop preempted a request']);
    say(`      ${pad('loop preempted a request', 32)} r ${lpad(f(corr(xp, yp), 2), 5)} (${withPre.length} runs that record it)`);
  }
  const tss = sum(y.map((v) => v * v));
  for (const [name, covs] of [
    ['first run', ['first run after calibration']],
    ['first run + position', ['first run after calibration', 'position in the repetition']],
    ['first run + position + major GCs', ['first run after calibration', 'position in the repetition', 'major GCs']],
    ['+ minor GCs + GC pause', ['first run after calibration', 'position in the repetition', 'major GCs', 'minor GCs', 'GC pause ms a request']],
  ]) {
    const cols = covs.map((c) => resid2(base, perRunCov[c]));
    const o = ols(base.map((_, i) => cols.map((c) => c[i])), y);
    const rss = sum(o.res.map((e) => e * e));
    const r2 = 1 - rss / tss; const r2adj = 1 - (rss / (df0 - covs.length)) / (tss / df0);
    say(`      jointly ${pad(name, 34)} R^2 ${lpad(pc(r2, 0), 4)}, adjusted ${lpad(pc(r2adj, 0), 4)}; ${covs.map((c, i) => `${c} ${f(o.beta[i], 3)}`).join(', ')}`);
  }
}
{
  const mixed = hp.filter((r) => r.service === 'mixed');
  const bySrc = [...new Set(mixed.map((r) => r.source))].map((src) => {
    const sh = mixed.filter((r) => r.source === src).map((r) => r.heavy / r.requests);
    return `${src} ${pc(Math.min(...sh))}-${pc(Math.max(...sh))}`;
  });
  say(`  (a3) Heavy share of mixed's requests by run (set by the seed; the same for every policy of a repetition): ${bySrc.join(', ')}.`);
  say('       At about 4x the mean work for a heavy request, half a point of share moves work a request by about 2%: small');
  say('       beside the within-policy sd, and it cancels in a pair (same arrivals). heavy-json: every request is heavy.');
}
// (b) Where the work's variation sits: total cycles a request split into
// the threads' CPU time converted to cycles at the run's mean clock, and
// the rest (busy time not in the server's threads; negative: schedstat
// counts more than the emulation's busy time).  Share of the within-policy
// variance of work a request: cov(part, total) / var(total).
say('  (b) Where the within-policy variance of work a request sits (cycles a request = loop + other threads + monitor + rest,');
say('      the threads\' CPU time at the run\'s mean clock); share = cov(part, total) / var(total), centred as in (a) and (a2):');
for (const svc of ['heavy-json', 'mixed']) {
  const rs = hp.filter((r) => r.service === svc);
  const clk = (r) => r.cycles / r.busyNs; // kHz
  const parts = {
    loop: (r) => r.threadCpuNs.loop * clk(r) / r.answered,
    'other threads': (r) => r.threadCpuNs.other * clk(r) / r.answered,
    monitor: (r) => r.threadCpuNs.monitor * clk(r) / r.answered,
    rest: (r) => (r.busyNs - r.threadCpuNs.loop - r.threadCpuNs.other - r.threadCpuNs.monitor) * clk(r) / r.answered,
  };
  for (const [how, cen] of [['within policy', centred], ['within repetition and policy', resid2]]) {
    const tot = cen(rs, (r) => r.cycles / r.answered);
    const vt = sum(tot.map((x) => x * x));
    say(`    ${pad(svc, 10)} ${pad(how, 30)} ${Object.entries(parts).map(([k, fn]) => { const x = cen(rs, fn); return `${k} ${pc(sum(x.map((v, i) => v * tot[i])) / vt, 0)}`; }).join(', ')}`);
  }
}
// (c) The paired work ratio against differences in covariates between the
// policy's run and its reference run of the same repetition.  The
// arrivals are the same in both (same seed and rate): heavy share and
// request count differ by nothing.
const hcells = cells.filter((c) => c.phase === 'headline');
const dcov = {
  'first run (policy) - first run (ref)': (p) => (p.a.pos === 0 ? 1 : 0) - (p.b.pos === 0 ? 1 : 0),
  'major GCs difference': (p) => p.a.v8gc.major - p.b.v8gc.major,
  'minor GCs difference': (p) => p.a.v8gc.minor - p.b.v8gc.minor,
  'log other-threads CPU ratio': (p) => Math.log(p.a.threadCpuNs.other / p.b.threadCpuNs.other),
  'log loop CPU ratio': (p) => Math.log(p.a.threadCpuNs.loop / p.b.threadCpuNs.loop),
  'monitor CPU ms a request': (p) => p.a.threadCpuNs.monitor / 1e6 / p.a.answered,
  'heavy requests difference': (p) => p.a.heavy - p.b.heavy,
};
say('  (c) Paired log work ratio W against the difference in covariates (policy run - reference run, same repetition),');
say('      both centred within (run, service, policy), eventboost policies; mean difference over pairs and its 95% t');
say('      interval (does the policy move the covariate itself?):');
for (const svc of ['heavy-json', 'mixed']) {
  const cs = hcells.filter((c) => c.service === svc && EB(c.policy));
  const pairs = cs.flatMap((c) => c.pairs.map((p) => ({ ...p, key: `${c.source}|${c.policy}` })));
  const cen = (fn) => { const m = new Map(); for (const k of new Set(pairs.map((p) => p.key))) m.set(k, mean(pairs.filter((p) => p.key === k).map(fn))); return pairs.map((p) => fn(p) - m.get(p.key)); };
  const yW = cen((p) => p.W);
  say(`    ${svc}: ${pairs.length} pairs in ${cs.length} cells`);
  for (const [name, fn] of Object.entries(dcov)) {
    const raw_ = pairs.map(fn);
    if (!(variance(raw_) > 0)) { say(`      ${pad(name, 38)} always ${f(raw_[0], 2)}: no information`); continue; }
    const x = cen(fn);
    const m = mean(raw_); const h = t975(raw_.length - 1) * sd(raw_) / Math.sqrt(raw_.length);
    say(`      ${pad(name, 38)} r with W ${lpad(f(corr(x, yW), 2), 5)}; mean difference ${f(m, 3)} [${f(m - h, 3)}, ${f(m + h, 3)}]`);
  }
}
// Per policy: does it move the major GC count against its reference?
say('      major GCs difference by policy (policy run - reference run, all its pairs in both services) [95% t]:');
for (const pol of [...new Set(hcells.filter((c) => EB(c.policy)).map((c) => c.policy))]) {
  const xs = hcells.filter((c) => c.policy === pol).flatMap((c) => c.pairs.map((p) => p.a.v8gc.major - p.b.v8gc.major));
  const m = mean(xs); const h = t975(xs.length - 1) * sd(xs) / Math.sqrt(xs.length);
  say(`        ${pad(pol, 20)} ${f(m, 2)} [${f(m - h, 2)}, ${f(m + h, 2)}] (${xs.length} pairs)`);
}
// (d) A covariate adjustment of W: W = cell mean + b x (centred
// difference), one slope per service over all eventboost cells; the
// residual SD (df = pairs - cells - 1) against the unadjusted pooled SD.
say('  (d) Adjusting W (and E) for one covariate, a common slope per service over the eventboost cells; residual sd with');
say('      df = pairs - cells - 1, against the unadjusted pooled sd; n scales with the variance ratio:');
const ADJ = [
  ['first run (policy) - first run (ref)', 'design: position is assigned by the run order, not by the policy'],
  ['major GCs difference', 'partly defensible: set by allocation, but a policy may move it (check (c))'],
  ['minor GCs difference', 'follows the first run after a calibration block; a policy may move it'],
  ['log other-threads CPU ratio', 'not defensible: V8 helper threads are part of the work the policy causes'],
];
const ADJ_RESULT = {};
for (const svc of ['heavy-json', 'mixed']) {
  const cs = hcells.filter((c) => c.service === svc && EB(c.policy));
  const pairs = cs.flatMap((c) => c.pairs.map((p) => ({ ...p, key: `${c.source}|${c.policy}` })));
  const cen = (fn) => { const m = new Map(); for (const k of new Set(pairs.map((p) => p.key))) m.set(k, mean(pairs.filter((p) => p.key === k).map(fn))); return pairs.map((p) => fn(p) - m.get(p.key)); };
  for (const t of ['W', 'E']) {
    const y = cen((p) => p[t]);
    const df0 = pairs.length - cs.length;
    const s0 = Math.sqrt(sum(y.map((v) => v * v)) / df0);
    const lines = [];
    for (const [name, why] of ADJ) {
      const x = cen(dcov[name]);
      const b = sum(x.map((v, i) => v * y[i])) / sum(x.map((v) => v * v));
      const s1 = Math.sqrt(sum(y.map((v, i) => (v - b * x[i]) ** 2)) / (df0 - 1));
      lines.push(`${name}: slope ${f(b, 3)}, sd ${f(s0)} -> ${f(s1)} (variance x${f((s1 / s0) ** 2, 2)}) [${why}]`);
      ADJ_RESULT[`${svc}|${t}|${name}`] = { s0, s1, b };
    }
    say(`    ${svc} ${t}:`);
    for (const l of lines) say(`      ${l}`);
  }
}
// Two covariates at once: first run and major GCs.
for (const svc of ['heavy-json', 'mixed']) {
  const cs = hcells.filter((c) => c.service === svc && EB(c.policy));
  const pairs = cs.flatMap((c) => c.pairs.map((p) => ({ ...p, key: `${c.source}|${c.policy}` })));
  const keys = [...new Set(pairs.map((p) => p.key))];
  const X = pairs.map((p) => [...keys.map((k) => (p.key === k ? 1 : 0)), dcov['first run (policy) - first run (ref)'](p), dcov['major GCs difference'](p)]);
  const o = ols(X, pairs.map((p) => p.E));
  say(`    ${svc} E on first run and major GCs together: sd ${f(Math.sqrt(o.s2))} (df ${o.df}); slopes ${f(o.beta[keys.length], 3)} ` +
    `(se ${f(o.se[keys.length], 3)}), ${f(o.beta[keys.length + 1], 3)} (se ${f(o.se[keys.length + 1], 3)})`);
}
// (e) What the adjustments would buy in repetitions: the two-case energy
// SD without adjustment (the pooled residual sd of (d), df = pairs -
// cells) and with the defensible design covariate (first run), and with
// first run + major GCs.
const adjTwo = {};
for (const svc of ['heavy-json', 'mixed']) {
  const cs = hcells.filter((c) => c.service === svc && EB(c.policy));
  const pairs = cs.flatMap((c) => c.pairs.map((p) => ({ ...p, key: `${c.source}|${c.policy}` })));
  const keys = [...new Set(pairs.map((p) => p.key))];
  const fitSD = (covs) => { const X = pairs.map((p) => [...keys.map((k) => (p.key === k ? 1 : 0)), ...covs.map((c) => dcov[c](p))]); return Math.sqrt(ols(X, pairs.map((p) => p.E)).s2); };
  adjTwo[svc] = {
    none: fitSD([]),
    first: fitSD(['first run (policy) - first run (ref)']),
    firstMajor: fitSD(['first run (policy) - first run (ref)', 'major GCs difference']),
  };
}
// A design of the reference and one policy (k = 2) puts a first run in
// every pair, with the sign of the order (AB or BA): unadjusted, the
// first run's effect b adds b^2 to every pair's variance; adjusted for it
// (the period effect of a two-period crossover, a standard and
// design-determined adjustment) it adds nothing.
for (const svc of ['heavy-json', 'mixed']) {
  const a_ = ADJ_RESULT[`${svc}|E|first run (policy) - first run (ref)`];
  adjTwo[svc].k2raw = Math.sqrt(adjTwo[svc].first ** 2 + a_.b ** 2);
}
say('  (e) Repetitions (n50 / n80) for the energy margins of section 3 with the E sd adjusted (eventboost cells, both services).');
say('      In a design of the reference and one policy every pair holds a first run (order AB or BA): analysed as paired.js');
say('      does, the first run\'s effect b adds b^2 to each pair\'s variance ("k=2, unadjusted"); adjusted for order (the');
say('      period effect of a two-period crossover, fixed by the design) it does not ("first run").');
for (const k of ['none', 'k2raw', 'first', 'firstMajor']) {
  const s1 = adjTwo['heavy-json'][k]; const s2 = adjTwo.mixed[k];
  const name = { none: 'no adjustment', k2raw: 'k=2, unadjusted', first: 'first run (design)', firstMajor: 'first run + major GCs' }[k];
  say(`    ${pad(name, 24)} sd heavy-json ${f(s1)}, mixed ${f(s2)}, two-case ${f(Math.sqrt(s1 * s1 + s2 * s2) / 2)}: ` +
    [['GC-Boost 1.068 vs 1.03', Math.log(1.068 / 1.03)], ['threshold 1.066 vs 1.10', Math.log(1.10 / 1.066)],
      ['GC+queue 1.197 vs 1.14', Math.log(1.197 / 1.14)], ['Queue-Boost 1.21 vs 1.10', Math.log(1.21 / 1.10)]]
      .map(([n, m]) => `${n}: ${nNeeded(s1, s2, m)} / ${nNeeded(s1, s2, m, true)}`).join('; '));
}

// ---- 5. Drift --------------------------------------------------------------------------
// log work a request (and log energy, log p99.9) per run = run x service x
// repetition effect + run x service x policy effect + a position effect
// shared by all runs of a service: the first run after a calibration block,
// and a linear trend over the later positions.
say('');
say('## 5. Drift with position in a repetition and with time');
say('  (a) OLS per service over all headline runs: y = (run, repetition) + (run, policy) + b0 [first run after a calibration');
say('      block] + b1 x (position - 1) for later positions; b0, b1 in log units (x100 ~ %), standard errors from the fit:');
for (const svc of ['heavy-json', 'mixed']) {
  for (const [yname, yf] of [['log work a request', (r) => Math.log(r.workMs)], ['log energy', (r) => Math.log(r.energy)],
    ['log p99.9', (r) => (r.censoredP999 ? NaN : Math.log(r.p999run))], ['minor GCs', (r) => r.v8gc.minor], ['major GCs', (r) => r.v8gc.major]]) {
    const rs = hp.filter((r) => r.service === svc && Number.isFinite(yf(r)));
    const repK = [...new Set(rs.map((r) => `${r.source}|${r.rep}`))];
    const polK = [...new Set(rs.map((r) => `${r.source}|${r.policy}`))];
    // Reference levels: one policy per run dropped (each run has its rep
    // dummies spanning its intercept).
    const firstPol = new Set(); const polCols = polK.filter((k) => { const s_ = k.split('|')[0]; if (firstPol.has(s_)) return true; firstPol.add(s_); return false; });
    const X = rs.map((r) => [...repK.map((k) => (`${r.source}|${r.rep}` === k ? 1 : 0)), ...polCols.map((k) => (`${r.source}|${r.policy}` === k ? 1 : 0)),
      r.pos === 0 ? 1 : 0, r.pos > 0 ? r.pos - 1 : 0]);
    const o = ols(X, rs.map(yf));
    const j = repK.length + polCols.length;
    say(`    ${pad(svc, 10)} ${pad(yname, 20)} first run ${lpad(f(o.beta[j], 3), 7)} (se ${f(o.se[j], 3)}), per later position ${lpad(f(o.beta[j + 1], 3), 7)} (se ${f(o.se[j + 1], 3)}); ` +
      `residual sd ${f(Math.sqrt(o.s2), 3)} (df ${o.df}, ${rs.length} runs)`);
  }
}
// (b) Per run, the first run's excess work: mean over first runs of the
// run's log work a request minus its (run, repetition)'s mean of the others.
say('  (b) First runs, per run: log(work a request) minus the mean of the same repetition\'s other runs (policy not removed):');
for (const s of sources) {
  for (const svc of [...new Set(s.runs.filter((r) => r.phase === 'headline').map((r) => r.service))]) {
    const rs = s.runs.filter((r) => r.phase === 'headline' && r.service === svc);
    const xs = [...new Set(rs.map((r) => r.rep))].map((rep) => {
      const g = rs.filter((r) => r.rep === rep);
      const f0 = g.find((r) => r.pos === 0);
      return `${f0.policy} ${f(Math.log(f0.workMs) - mean(g.filter((r) => r !== f0).map((r) => Math.log(r.workMs))), 2)} (minor GCs ${f0.v8gc.minor} vs ${f(mean(g.filter((r) => r !== f0).map((r) => r.v8gc.minor)), 0)})`;
    });
    say(`    ${pad(s.label, 16)} ${pad(svc, 10)} ${xs.join('; ')}`);
  }
}
// (c) Time: the calibration job at fixed 4.0 GHz (a fixed amount of work)
// over each run's hours, and the blocks' 2.6/4.0 medians.
say('  (c) Time: the calibration job (fixed work) at 4.0 GHz, median ms per block, against hours into the run (slope per hour,');
say('      from an OLS over the blocks of each run), and the blocks\' 2.6/4.0 time ratio medians:');
for (const s of sources) {
  const bs = (s.raw.calibrations || []).filter((b) => !b.voided && b.at && b.pairs.length);
  const t0 = Math.min(...bs.map((b) => Date.parse(b.at)));
  const med = (xs) => { const a = [...xs].sort((x, y) => x - y); return a.length % 2 ? a[(a.length - 1) / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2; };
  const pts = bs.map((b) => ({ h: (Date.parse(b.at) - t0) / 3.6e6, ms: med(b.pairs.map((p) => p.full.ms)), ratio: med(b.pairs.map((p) => p.slow.ms / p.full.ms)) }));
  const o = ols(pts.map((p) => [1, p.h]), pts.map((p) => Math.log(p.ms)));
  say(`    ${pad(s.label, 16)} ${pts.length} blocks over ${f(Math.max(...pts.map((p) => p.h)), 2)} h: 4.0 GHz job ${f(Math.min(...pts.map((p) => p.ms)), 0)}-${f(Math.max(...pts.map((p) => p.ms)), 0)} ms, ` +
    `log slope ${f(o.beta[1], 3)}/h (se ${f(o.se[1], 3)}); 2.6/4.0 ratio ${f(Math.min(...pts.map((p) => p.ratio)), 2)}-${f(Math.max(...pts.map((p) => p.ratio)), 2)}`);
}
// (c2) Does the testbed's speed at a repetition (the mean of its two
// blocks' 4.0 GHz job time) go with the repetition's work?  The
// repetition effect: mean over its runs of log work a request less each
// policy's mean over repetitions (centred within run and service).
{
  const med = (xs) => { const a = [...xs].sort((x, y) => x - y); return a.length % 2 ? a[(a.length - 1) / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2; };
  const within = []; const adjacent = []; const pts = [];
  for (const s of sources) {
    const bs = (s.raw.calibrations || []).filter((b) => !b.voided && b.pairs.length);
    const lj = (b) => Math.log(med(b.pairs.map((p) => p.full.ms)));
    for (const b of bs.filter((x) => x.when === 'before')) {
      const a = bs.find((x) => x.when === 'after' && x.service === b.service && x.phase === b.phase && x.rep === b.rep);
      const nb = bs.find((x) => x.when === 'before' && x.service === b.service && x.phase === b.phase && x.rep === b.rep + 1);
      if (a) within.push(lj(a) - lj(b));
      if (a && nb) adjacent.push(lj(nb) - lj(a));
      if (!a || b.phase !== 'headline') continue;
      const rs = s.runs.filter((r) => r.phase === 'headline' && r.service === b.service);
      const pm = new Map([...new Set(rs.map((r) => r.policy))].map((p) => [p, mean(rs.filter((r) => r.policy === p).map((r) => Math.log(r.workMs)))]));
      const mine = rs.filter((r) => r.rep === b.rep);
      pts.push({ g: `${s.label}|${b.service}`, rep: b.rep, eff: mean(mine.map((r) => Math.log(r.workMs) - pm.get(r.policy))), speed: (lj(a) + lj(b)) / 2 });
    }
  }
  say(`      Block-to-block change of log(4.0 GHz job time): across one repetition (before -> after, 4-12 min) sd ${f(sd(within))} (${within.length}), ` +
    `adjacent blocks 20 s apart sd ${f(sd(adjacent))} (${adjacent.length}): the testbed's speed within a repetition moved no more than the blocks' own noise.`);
  const gs = [...new Set(pts.map((p) => p.g))];
  const cen = (fn) => pts.map((p) => fn(p) - mean(pts.filter((q) => q.g === p.g).map(fn)));
  const x = cen((p) => p.speed); const y = cen((p) => p.eff); const t = cen((p) => p.rep);
  say(`      Repetition effect on log work a request (${pts.length} repetitions in ${gs.length} run-services): sd ${f(sd(y))}; ` +
    `r with the blocks' job time ${f(corr(x, y), 2)}; r with the repetition index ${f(corr(t, y), 2)}, slope ${f(sum(t.map((v, i) => v * y[i])) / sum(t.map((v) => v * v)), 3)} per repetition`);
  say('      (the repetition index is also the seed, 1000 + rep, in every run: time and arrivals are not separable here)');
  const byG = gs.map((g) => `${g.replace('|', ' ')}: ${pts.filter((p) => p.g === g).sort((a, b) => a.rep - b.rep).map((p) => f(p.eff - mean(pts.filter((q) => q.g === g).map((q) => q.eff)), 2)).join(', ')}`);
  for (const l of byG) say(`        ${l}`);
}
// (d) Drift of the reference alone over a run: its log work a request
// against the repetition index (the repetitions' arrivals differ: seeds
// 1000+rep, so this mixes drift and arrivals).
say('  (d) The reference\'s work a request by repetition (ms at 4.0 GHz; arrivals differ by repetition, so drift and');
say('      arrivals are mixed here):');
for (const s of sources) {
  for (const svc of [...new Set(s.runs.filter((r) => r.phase === 'headline').map((r) => r.service))]) {
    const rs = s.runs.filter((r) => r.phase === 'headline' && r.service === svc && r.policy === REF).sort((a, b) => a.rep - b.rep);
    say(`    ${pad(s.label, 16)} ${pad(svc, 10)} ${rs.map((r) => `${f(r.workMs, 2)}${r.pos === 0 ? '*' : ''}`).join(', ')}   (* first run after a calibration block)`);
  }
}

fs.writeFileSync(path.join(__dirname, withShipped ? 'power-with-shipped.txt' : 'power.txt'), `${out.join('\n')}\n`);
console.log(out.join('\n'));
