'use strict';
// make check's experiment pipeline test: a short run's results.json must
// hold, for every policy run, a case with every scheduled request counted
// (answered, or censored at the deadline as a worst latency), finite
// percentiles, energy with and without idle and uncore power, a bootstrap
// interval, the paired per-repetition estimates (paired.js), the targets
// by the design's verdict, and the hints the kernel saw (every hint a
// server sent, and some for the oracle, which votes whenever a heavy
// request is in flight: a short run need not hold the events eventboost's
// policies boost); no run
// of the reference may have seen a hint, every run had CPU 0 idle enough
// for the emulation, split its server's CPU time by thread, and ran in a
// guest without PTI, and recorded its Queue-Boost options (one set per
// policy); every repetition was calibrated before and after (the
// testbed check's job at both clocks); and raw.json.gz beside it must
// reproduce every case's percentiles, and analyze.js on it every figure.
// It checks a full run's results too (make experiment's design: several
// services, no oracle): there every eventboost policy's hints must have
// reached the kernel, as a 90 s run holds major GC cycles.
// --reps N: every case pools N repetitions.  --parts P: raw.json holds P
// parts, the first run and P - 1 extensions (EXPERIMENT_EXTEND; default 1).
// --node VERSION: the guest ran that Node (the host's: scripts/guest.sh).
//   node check-results.js RESULTS.json [--reps N] [--parts P] [--node VERSION] POLICY...
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { WARM_UP, firstMeasured } = require('./order');
const { disturbance, HELD_MAX, CPU0_BUSY_MAX } = require('./cpu1');
const { hintsReachedKernel } = require('./hints');

const args = process.argv.slice(2);
const file = args.shift();
const opts = {};
while (['--reps', '--parts', '--node'].includes(args[0])) opts[args[0]] = args.splice(0, 2)[1];
const reps = Number(opts['--reps'] || 0);
const parts = Number(opts['--parts'] || 1);
const wantNode = opts['--node'] || null;
const want = args;
const CERTAIN = 'oracle';
const res = JSON.parse(fs.readFileSync(file, 'utf8'));
const rawFile = path.join(path.dirname(file), 'raw.json.gz');
let rawCache = null;
const rawData = () => (rawCache ??= JSON.parse(zlib.gunzipSync(fs.readFileSync(rawFile)).toString()));
const rawRuns = () => rawData().runs;
// Every hint a run's servers sent from its policy's start to its end: its
// own server's inside the kernel's window and at its edges (edge: from
// 2026-12-03), and the service's other servers'.
const sentAround = (seen) => seen.own + (seen.edge || 0) + seen.others;
let failed = 0;
const check = (ok, what) => {
  console.log(`${ok ? 'ok' : 'not ok'} - experiment pipeline: ${what}`);
  if (!ok) failed = 1;
};
const fin = (...xs) => xs.every(Number.isFinite);
// A policy's cases (one per service and rate) in the headline phase.
const headline = (policy) => res.cases.filter((x) => x.policy === policy && x.phase === 'headline');
for (const policy of ['fixed-2.6', ...want]) {
  const cs = headline(policy);
  check(cs.length > 0, `${policy}: a case in results.json`);
  for (const c of cs) {
    const name = cs.length > 1 ? `${policy} (${c.service}, ${c.loadFactor})` : policy;
    check(c.requests > 0 && c.requests === c.expected,
      `${name}: all ${c.expected} scheduled requests counted (${c.requests}, ${c.censored} of them censored)`);
    check(fin(c.p50, c.p99, c.p999) && c.p50 <= c.p99 && c.p99 <= c.p999,
      `${name}: percentiles ${c.p50} <= ${c.p99} <= ${c.p999} ms`);
    check(fin(c.energyRel, c.energyFullRel) && c.energyRel > 0 && c.energyFullRel > 0,
      `${name}: energy ${c.energyRel}x of fixed 2.6 GHz, ${c.energyFullRel}x with idle and uncore power`);
    check(fin(c.workRel) && c.workRel > 0, `${name}: work ${c.workRel}x of fixed 2.6 GHz`);
    check(Array.isArray(c.p999ReductionCI) && fin(...c.p999ReductionCI) && c.p999ReductionCI[0] <= c.p999ReductionCI[1],
      `${name}: a bootstrap interval for the p99.9 cut ${JSON.stringify(c.p999ReductionCI)}`);
    if (reps) check(c.n === reps, `${name}: ${c.n} repetitions pooled (want ${reps})`);
  }
  if (!cs.length) continue;
  if (policy.startsWith('eb-') || policy === CERTAIN) {
    check(cs.every((c) => Number.isFinite(c.hintsPerSec) && c.hintsPerSec >= 0),
      `${policy}: ${cs.map((c) => c.hintsPerSec).join(', ')} hints/s reached the kernel`);
    // Whatever a short run held, every hint its server sent while the
    // kernel counted, and the kernel did not refuse, reached the kernel
    // (summed over the run's repetitions: hints.js).
    if (fs.existsSync(rawFile)) {
      const h = hintsReachedKernel(rawRuns().filter((r) => r.policy === policy && (r.phase || 'headline') === 'headline').map((r) => r.seen));
      check(h.ok, `${policy}: the ${h.own} hints its server sent reached the kernel, all but the ${h.refused} refused there ` +
        `(${h.kernel} counted there; ${h.edge} more sent outside its window)`);
    }
  }
}
// A few seconds of heavy-json need hold neither a major GC cycle nor a
// backlog (nor more than a scavenge or two), so in a QUICK run a run of
// eventboost's policies may rightly send no hint; the oracle votes through
// the same package and device (by the timed-vote path, boostFor())
// whenever a heavy request is in flight, and in heavy-json every request
// is heavy: its runs must have reached the kernel.  A full run's runs each
// hold major GC cycles: there every eventboost policy's must have.
const quick = fs.existsSync(rawFile) ? rawData().quick : true;
const certainOnes = quick ? [CERTAIN] : want.filter((p) => p.startsWith('eb-') || p === CERTAIN);
if (quick) check(want.includes(CERTAIN), `${CERTAIN} among the policies (the one whose hints are certain in a QUICK run)`);
for (const policy of certainOnes) {
  const cs = headline(policy);
  check(cs.length > 0 && cs.every((c) => c.hintsPerSec > 0),
    `${policy}: its votes reached the kernel in every case (${cs.map((c) => `${c.service} ${c.hintsPerSec}`).join(', ')} hints/s)`);
}
const fixed = res.cases.find((x) => x.policy === 'fixed-2.6' && x.phase === 'headline');
check(fixed && Math.abs(fixed.energyRel - 1) < 1e-9 && Math.abs(fixed.workRel - 1) < 1e-9,
  'the reference is its own unit of energy and work');
const o = res.overall.find((x) => x.phase === 'headline' && x.policy === (want[0] || 'fixed-2.6'));
check(o && fin(o.p999Reduction, o.p999ReductionMedian, o.p999ReductionGeomean) && Array.isArray(o.p999ReductionCI),
  'per policy: the mean over cases with its interval, the median and the geometric mean');
check(Array.isArray(res.published) && !('frontier' in res), 'published figures as context only, no frontier claimed');
// The paired statistics (paired.js) for every policy run: in each of its
// cases (service and rate) every repetition paired with the reference's,
// and without the pairs that held a repetition's first run as many as
// raw.json.gz's run order leaves (counted here on their own: the first run
// of a service's repetition); with 2 repetitions or more, intervals (the
// p99.9's unless a short run's p99.9 was a censored request's).
const around = (m) => m && fin(m.est, m.lo, m.hi) && m.lo <= m.est && m.est <= m.hi && m.hi > m.lo;
// Counts per case, compared as sets: paired.js orders cases as they ran.
const same = (a, b) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
for (const policy of want) {
  const p = (res.paired || []).find((x) => x.phase === 'headline' && x.policy === policy);
  const cases = headline(policy).map((c) => `${c.service}|${c.loadFactor}`);
  let firstFree = null;
  if (fs.existsSync(rawFile)) {
    const runs = rawRuns().filter((r) => (r.phase || 'headline') === 'headline');
    const first = new Set();
    const seen = new Set();
    for (const r of runs) {
      if (!seen.has(`${r.service}|${r.rep}`)) first.add(r);
      seen.add(`${r.service}|${r.rep}`);
    }
    firstFree = cases.map((ck) => {
      const at = runs.filter((r) => `${r.service}|${r.loadFactor}` === ck);
      const repsOf = (pol) => new Set(at.filter((r) => r.policy === pol).map((r) => r.rep));
      const refReps = repsOf('fixed-2.6');
      return [...repsOf(policy)].filter((rep) => refReps.has(rep) &&
        !at.some((r) => r.rep === rep && (r.policy === policy || r.policy === 'fixed-2.6') && first.has(r))).length;
    });
  }
  const n = reps || (p ? p.reps[0] : 0);
  const wantReps = cases.map(() => n);
  check(Boolean(p) && fin(p.busyBoosted) && n >= 1 && cases.length > 0 && same(p.reps, wantReps) &&
    (firstFree === null || same(p.withoutFirst.reps, firstFree)) &&
    (n < 2 || ((around(p.p999) || p.censoredPairs > 0) && around(p.energy) && around(p.work))),
  `${policy}: paired estimates over ${JSON.stringify(p && p.reps)} repetitions (want ${JSON.stringify(wantReps)}), ` +
    `${JSON.stringify(p && p.withoutFirst.reps)} without first runs (want ${JSON.stringify(firstFree)})${n >= 2 ? ', with t intervals' : ''}`);
}
// The targets are judged by the verdict the design names (config.json's
// verdict, paired.js), and met says that verdict; a paired "met" has both
// intervals on the target's side.  make check's short run runs no target's
// policy (each is "not run"): test-analyze.js checks both verdicts on a
// committed run.
const { primaryVerdict, side } = require('./paired');
const resolvedMet = (t) => {
  const p = (res.paired || []).find((x) => x.phase === 'headline' && x.policy === t.policy);
  return Boolean(p && side(p.p999, 1 - t.cut) === 'below' && side(p.energy, t.energy) === 'below');
};
check(res.verdict === primaryVerdict(res.config) && Array.isArray(res.targets) && res.targets.length > 0 &&
  res.targets.every((t) => t.met === (t.verdict === 'met') &&
    (!t.measured ? t.verdict === 'not run'
      : res.verdict === 'paired' ? ['met', 'missed', 'unresolved'].includes(t.verdict) && (!t.met || resolvedMet(t))
        : t.met === t.ruleMet && ['met', 'missed'].includes(t.verdict))),
  `the targets by the design's verdict, ${JSON.stringify(res.verdict)} (${(res.targets || []).map((t) => `${t.policy} ${t.verdict}`).join(', ')})`);

check(fs.existsSync(rawFile), 'raw.json.gz written');
if (fs.existsSync(rawFile)) {
  const raw = rawData();
  // The commit each part ran (one, two after an extension), from a git
  // checkout: make check runs in one.
  check(Array.isArray(raw.commits) && raw.commits.length === parts && raw.commits.every((c) => /^[0-9a-f]{40}(\+changes)?$/.test(c)),
    `raw.json records the commit each of its ${parts} part(s) measured (${JSON.stringify(raw.commits)})`);
  check(raw.guest && raw.guest.pti === 'off',
    `the testbed's guest booted without page table isolation (${JSON.stringify(raw.guest)})`);
  if (wantNode) {
    check(raw.guest && raw.guest.node === wantNode,
      `the guest ran Node ${wantNode}, the host's (${JSON.stringify(raw.guest)})`);
  }
  check(raw.guest && raw.guest.heldUs === 500,
    `the testbed's emulation took a timer 500 us late or more as the host's hold, not charged (emulate_held_us; ${JSON.stringify(raw.guest)})`);
  const jobs = raw.calibrations.flatMap((b) => b.pairs.flatMap((x) => [x.full, x.slow]));
  check([...raw.runs, ...jobs].every((r) => Number.isFinite(r.held) && r.held >= 0),
    `every run and calibration job records the share of its time the host held CPU 1 (runs ${raw.runs.map((r) => r.held).join(', ')}; ` +
    `jobs ${jobs.map((r) => r.held).join(', ')})`);
  // Judged by cpu1.js's bound, none in a QUICK smoke run (driver.js).
  const bounds = { cpu0BusyMax: raw.cpu0BusyMax, heldMax: raw.heldMax };
  check(raw.heldMax === (raw.quick ? null : HELD_MAX) && raw.cpu0BusyMax === CPU0_BUSY_MAX &&
    raw.runs.every((r) => r.disturbed === disturbance(r, bounds).length > 0) &&
    raw.calibrations.every((b) => b.pairs.every((x) => !disturbance(x.full, bounds).length && !disturbance(x.slow, bounds).length)),
    `every run and kept calibration pair was judged by the recorded bounds (CPU 0 ${raw.cpu0BusyMax}, held ${raw.heldMax}${raw.quick ? ', none in a QUICK run' : ''})`);
  const queue = (r) => r.policy.includes('queue'); // every Queue-Boost policy's name says so
  check(raw.runs.every((r) => r.threadCpuNs && r.threadCpuNs.loop > 0 && (queue(r) ? r.threadCpuNs.monitor > 0 : r.threadCpuNs.monitor === 0)),
    `every run splits its server's CPU time by thread, the queue monitor's in the runs with Queue-Boost alone (${
      raw.runs.map((r) => `${r.policy} ${Math.round((r.threadCpuNs?.monitor ?? NaN) / 1e6)} ms`).join(', ')})`);
  // What a Queue-Boost policy meant in this run: one set of options per
  // policy, none without Queue-Boost.
  const opts = new Map();
  for (const r of raw.runs) opts.set(r.policy, [...(opts.get(r.policy) || []), JSON.stringify(r.queueOptions)]);
  check(raw.runs.every((r) => r.queueOptions !== undefined && (queue(r) ? Number.isFinite(r.queueOptions?.queueFactor) : r.queueOptions === null)) &&
    [...opts.values()].every((o) => new Set(o).size === 1),
  `every run records its Queue-Boost options, one set per policy (${[...opts].map(([k, o]) => `${k} ${[...new Set(o)].join(' | ')}`).join(', ')})`);
  const quiet = raw.runs.filter((r) => r.policy.startsWith('fixed-') || r.policy === 'schedutil' || r.policy === 'ondemand');
  // A reference's kernel count is null (eventboost did not govern CPU 1, so
  // nothing was counted and no hint could move it): the check after this
  // one asserts it, by the governor each run records.
  check(quiet.length > 0 && quiet.every((r) => r.seen && sentAround(r.seen) === 0 && !r.seen.kernel),
    `the ${quiet.length} runs that must see no hints saw none`);
  const governed = raw.runs.filter((r) => r.gov === 'eventboost');
  check(governed.length > 0 && raw.runs.every((r) => r.gov) &&
    raw.runs.every((r) => (r.gov === 'eventboost' ? Number.isInteger(r.seen.kernel) : r.seen.kernel === null)),
    `the kernel's hint count is recorded for the ${governed.length} runs under eventboost, and null for the others (it counts nothing there)`);
  check(raw.runs.every((r) => r.seen && r.seen.others === 0), 'no run saw hints from another policy\'s server');
  const cpu0 = raw.runs.map((r) => r.cpu0Busy);
  check(cpu0.every((x) => Number.isFinite(x) && x <= raw.cpu0BusyMax), `every run measured with CPU 0 idle enough for the emulation (busy at most ${Math.max(...cpu0)} <= ${raw.cpu0BusyMax})`);
  // The testbed check's job ran before every repetition, at both clocks
  // (its ratio is not judged here: a test never asserts a time).
  const repKeys = [...new Set(raw.runs.map((r) => `${r.service} ${r.phase} rep ${r.rep}`))];
  const blocks = (raw.calibrations || []).filter((b) => !b.voided);
  // (Pairs measured again, CPU 0 busy, count here: whether the job ran at
  // both clocks, not whether the host was quiet.)
  const timed = (b) => [...b.pairs, ...b.discarded];
  check(repKeys.every((k) => ['before', 'after'].every((w) => blocks.some((b) => `${b.service} ${b.phase} rep ${b.rep}` === k &&
    b.when === w && timed(b).length > 0 &&
    timed(b).every((x) => x.full.ms > 0 && x.slow.ms > 0 && x.full.busyNsByKhz['4000000'] > 0 && x.slow.busyNsByKhz['2600000'] > 0)))),
  `calibration blocks before and after each of ${repKeys.join(', ')}, the job timed at 4.0 and 2.6 GHz (${blocks.length} blocks)`);
  check(Array.isArray(res.testbed) && res.testbed.length === blocks.length, 'results.json shows every calibration block');
  const pct = (s, q) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
  const bad = res.cases.filter((c) => {
    const lat = raw.runs.filter((r) => (r.phase || 'headline') === c.phase && r.service === c.service &&
      r.loadFactor === c.loadFactor && r.policy === c.policy).flatMap((r) => r.latMs).sort((a, b) => a - b);
    return lat.length !== c.requests || Math.abs(pct(lat, 0.999) - c.p999) > 0.1;
  });
  check(bad.length === 0, `raw.json.gz reproduces every case's requests and p99.9 (${bad.length} differ)`);
  // And every figure: analyze.js on raw.json.gz writes results.json again,
  // to the last digit (the committed runs' READMEs say it recomputes them).
  const again = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'eb-reanalyze-'));
  try {
    const run = require('node:child_process').spawnSync(process.execPath,
      [path.join(__dirname, 'analyze.js'), rawFile, again], { encoding: 'utf8' });
    const out = path.join(again, 'results.json');
    if (run.status !== 0 || !fs.existsSync(out)) {
      check(false, `analyze.js on raw.json.gz ran (exit ${run.status}: ${(run.stderr || '').trim().split('\n').slice(-3).join(' | ')})`);
    } else {
      const was = fs.readFileSync(file, 'utf8').split('\n');
      const now = fs.readFileSync(out, 'utf8').split('\n');
      const at = Array.from({ length: Math.max(was.length, now.length) }, (_, i) => i).find((i) => was[i] !== now[i]);
      check(at === undefined, 'raw.json.gz recomputes results.json to the last digit' +
        (at === undefined ? '' : ` (line ${at + 1} differs: ${JSON.stringify(was[at])} against ${JSON.stringify(now[at])})`));
    }
  } finally {
    fs.rmSync(again, { recursive: true, force: true });
  }
  // When each run's tail came, and what ran before it on the testbed (the
  // carry-over question of the 2026-11-24 run): its worst 1%, in schedule
  // order, inside the measured seconds, the slowest its slowest request.
  const tailOk = (r) => Array.isArray(r.tailAt) && r.tailAt.length === Math.max(1, Math.ceil(r.latMs.length / 100)) &&
    r.tailAt.every(([s, ms], i) => s >= 0 && s <= r.secs && ms >= 0 && (i === 0 || s >= r.tailAt[i - 1][0])) &&
    Math.abs(Math.max(...r.tailAt.map((x) => x[1])) - r.latMs[r.latMs.length - 1]) <= 1;
  check(raw.runs.every(tailOk), 'every run records when its worst 1% of requests were scheduled (tailAt)');
  // With warm-up runs (warmUpSecs) a repetition's first measured run
  // follows its warm-up, which raw.json.gz keeps among the discarded.
  const same = (a, b) => a.service === b.service && a.phase === b.phase && a.rep === b.rep;
  const warmUps = (raw.discarded || []).filter((r) => r.warmUp && !r.voided);
  const firsts = raw.runs.filter(firstMeasured).length;
  check(raw.runs.every((r) => r.after === null || raw.runs.some((o) => o.policy === r.after && same(o, r)) ||
      (r.after === WARM_UP && warmUps.some((w) => same(w, r) && w.secs === raw.warmUpSecs))) &&
    firsts === new Set(raw.runs.map((r) => `${r.service} ${r.phase} ${r.rep} ${r.loadFactor}`)).size,
  `every run records the run before it in its repetition (after; ${firsts} first runs)`);
  if (raw.warmUpSecs) {
    check(repKeys.every((k) => raw.runs.some((r) => `${r.service} ${r.phase} rep ${r.rep}` === k && r.after === WARM_UP)) &&
      warmUps.length === repKeys.length &&
      warmUps.every((w) => sentAround(w.seen) + (w.seen.kernel || 0) === 0),
    `every repetition's first measured run followed its ${raw.warmUpSecs} s warm-up run, which saw no hints (${warmUps.length} warm-up runs)`);
  }
}
check(fs.existsSync(file.replace(/results\.json$/, 'results.svg')), 'results.svg written');
process.exit(failed);
