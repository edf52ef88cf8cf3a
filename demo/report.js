'use strict';
// Print what the demo measured: report.js OUTDIR (demo.json from driver.js).
// Every comparison is of paired runs (the same process, the same arrivals),
// decided before the runs that are quoted:
//   - a figure of a load is pooled over its pairs: the open loop's
//     percentiles and mean over every request of every run of one side;
//     the overload's throughput and p99 as the mean over its runs (wrk
//     gives no per-request data);
//   - the change is the geometric mean over pairs of each pair's own
//     ratio (on / off of that pair's figures) less 1, with a Student t
//     interval over the pairs (demo/compare.js; until 2026-12-04 a
//     percentile bootstrap of the pooled figures, which called a fifth of
//     no-change sets of 4 pairs resolved); the intervals of the changes a
//     report prints hold together at 95% (each of 8 at 99.375%: from
//     2026-12-04 evening; each at 95% before, when a report of no change
//     at all called one of its 8 resolved about one run in four);
//   - it says "lower" or "higher" only when that interval excludes zero
//     (and there are 3 pairs or more); else "not resolved", with the
//     interval and no estimate: its sign is one the pairs cannot tell.
//     Each pair's own change is shown beside it.
// The warm-up runs before each load's pairs (warmUp) are in no figure:
// their p99 and work are printed, to show what they absorbed.
// It fails (exit 1) if a run with eventboost off (a warm-up too) saw a
// hint, or if CPU 0 was busy more than cpu0BusyMax of a measured run (the
// emulated clock does not hold then: experiment/load-agent.js).  A demo.json without `testbed` is of the
// earlier testbed (the load, and V8's helper threads, on the guest's CPU 0;
// -icount): it is reprinted, marked as such, with no CPU 0 figures.
const fs = require('node:fs');
const path = require('node:path');
const { pairedChange, describe, changesPrinted, familyLevel } = require('./compare');
// CPU 1's cycles (busy time at each clock x the clock).
const { cycles, disturbance, heldShare } = require('../experiment/cpu1');

const dir = process.argv[2];
const d = JSON.parse(fs.readFileSync(path.join(dir, 'demo.json'), 'utf8'));
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const mean = (xs) => xs.reduce((a, x) => a + x, 0) / xs.length;
const range = (xs) => `${f1(Math.min(...xs))}-${f1(Math.max(...xs))}`;
const q = (s, p) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
// A side's latencies, sorted (a typed array sorts numerically, and fast:
// the report runs inside the guest).
function lats(runs) {
  const all = new Float64Array(runs.reduce((a, r) => a + r.raw.length, 0));
  let i = 0;
  for (const r of runs) {
    if (!r.lat) r.lat = Float64Array.from(r.raw, (x) => x[2]);
    all.set(r.lat, i);
    i += r.lat.length;
  }
  return all.sort();
}

// Statistics of a list of runs of one side.
const pooled = {
  p50: (runs) => q(lats(runs), 0.5),
  p99: (runs) => q(lats(runs), 0.99),
  mean: (runs) => mean(lats(runs)),
};
const meanOf = (k) => (runs) => mean(runs.map((r) => r[k]));


// The changes this report prints, whose intervals hold together at 95%
// (the count of compare() calls is checked against it at the end).
const FAMILY = changesPrinted(d);
let compared = 0;

function compare(pairs, stat, what, lowerIsBetter = true, a = 'on', b = 'off') {
  compared++;
  console.log(describe(pairedChange(pairs, stat, a, b, FAMILY), what, lowerIsBetter));
}

// The sides every pair has: off, the governor alone where run, on.
const sidesOf = (pairs) => ['off', 'gov', 'on'].filter((s) => pairs.every((p) => p[s]));

// The sides' columns.
function table(pairs, rows) {
  const pad = (s, n) => String(s).padEnd(n);
  const sides = sidesOf(pairs);
  const head = { off: 'eventboost off', gov: 'its governor alone', on: 'eventboost on' };
  console.log(`  ${pad('', 24)}${sides.map((s) => pad(head[s], 26)).join('')}`.trimEnd());
  for (const [label, stat] of rows) {
    const cell = (side) => {
      const runs = pairs.map((p) => p[side]);
      return `${f1(stat(runs))} (runs ${range(runs.map((r) => stat([r])))})`;
    };
    console.log(`  ${pad(label, 24)}${sides.map((s) => pad(cell(s), 26)).join('')}`.trimEnd());
  }
}

// Major GCs (mark-compact: NODE_PERFORMANCE_GC_MAJOR, 4) and all GC pause
// time in a side's runs.
const majors = (runs) => runs.reduce((a, r) => a + r.trace.gc.filter((g) => g[2] === 4).length, 0);
const gcMs = (runs) => runs.reduce((a, r) => a + r.trace.gc.reduce((b, g) => b + g[1], 0), 0);

// CPU 1's cycles (busy time at each clock; the emulated steal counts as
// busy at the clock it slowed) per open-loop request answered: the same
// arrivals should cost the same work either way.
const runCycles = (r) => cycles(r.busyNsByKhz || {});
// The share of a run's time the host held CPU 1 (its emulation timer late
// by emulate_held_us or more: other work on the host, not slowed by the
// clock; demo.json from 2026-12-05): a row of each table, where recorded.
// In the run's cpu1 delta (experiment/cpu1.js, activityDelta), which at
// 39ae94b left it out when 0 (docs/evidence/2026-12-05-emulation-held/
// demo-check/2-B, 3-B); none where the driver charged every hold.
const heldNs = (r) => (d.guest && d.guest.heldUs > 0 && r.cpu1 ? r.cpu1.heldNs || 0 : null);
const heldRow = (pairs) => (pairs.every((p) => sidesOf(pairs).every((s) => p[s].wallMs && Number.isFinite(heldNs(p[s]))))
  ? [['CPU 1 held by host (%)', (runs) => mean(runs.map((r) => heldNs(r) / 1e4 / r.wallMs))]] : []);
// Requests answered: an open-loop run's, counted; an overload run's, wrk's
// rate over the run (as driver.js counts them for its warm-up rule).
const answered = (r) => (r.raw ? r.raw.length - r.censored - (r.errors || 0) : r.rps * d.overloadSecs);
const work = (r) => runCycles(r) / answered(r);
const worked = (r) => runCycles(r) > 0 && answered(r) > 0;
// The warm-up runs before pair 1 (demo.json from 2026-11-28, evening: one
// run; from the next commit, runs until the work a request settles): left
// out of every figure; their work shows what they absorbed.
const warmUps = (kind) => [].concat((d.warmUp || {})[kind] || []);

const host = d.testbed === 'host';
// The pairs each load ran (DEMO_REPS the open loop's; DEMO_OVERLOAD_REPS,
// from 2026-12-05, the overload's; before, DEMO_REPS both), none for a load
// DEMO_KINDS left out.
const loadsRan = [['the open loop', d.service.length, 'open-loop'], ['the overload', d.overload.length, 'overload']].filter(([, n]) => n);
const pairsRan = loadsRan.length === 2 && loadsRan[0][1] === loadsRan[1][1] ? `${loadsRan[0][1]} pairs of runs per load`
  : loadsRan.map(([, n, what], i) => (i ? `${n} of ${what}` : `${n} pairs of ${what} runs`)).join(' and ');
const oddLoads = loadsRan.filter(([, n]) => n % 2).map(([name]) => name);
const oddNote = !oddLoads.length ? '' : pairsRan.endsWith('per load') ? ' (an odd count: the last pair unbalanced)'
  : ` (an odd count: ${oddLoads.map((name) => `${name}'s`).join(' and ')} last pair unbalanced)`;
if (host) {
  console.log('\n=== The demo service under load (all of it on CPU 1, the load from the host, CPU 0 idle; emulated DVFS:');
  const order = d.sideOrder !== 'williams-mirror' ? 'their sides in an order rotated by pair'
    : `their sides in a Williams row, then its mirror${oddNote}`;
  console.log(`    base 2.6 GHz, boost 4.0 GHz; ${pairsRan}, ${order}` +
    `${d.service.length && d.service.every((p) => p.gov) ? ";\n    the open loop's with a third side, eventboost's governor alone" : ''})`);
} else {
  console.log('\n=== The demo service under load (its event loop on CPU 1; emulated DVFS: base 2.6 GHz, boost 4.0 GHz;');
  console.log(`    guest clock by instruction count, -icount; ${d.reps} pairs of runs per load, off and on in alternating order)`);
  console.log('    THE EARLIER TESTBED: the load and V8\'s helper threads on CPU 0, which breaks the emulated clock');
  console.log('    (docs/measurements.md): these figures are not to be trusted.');
}
if (FAMILY > 1) {
  console.log(`    Each change below: the mean of the pairs' own changes (geometric), with an interval; the ${FAMILY} intervals\n` +
    `    hold together at 95% (each at ${+(100 * familyLevel(FAMILY)).toFixed(1)}%), and a change is called lower or higher only when its interval excludes 0.`);
}
if (d.service.length) {
  console.log(`\n1. Open-loop load, as a service runs: ${d.rate} requests/s (Poisson, one in five heavy), ` +
    `${Math.round(d.load * 100)}% of its capacity at 2.6 GHz (${f1(d.capacity)}/s), ${d.secs} s per run; ` +
    'every scheduled request counted.');
  const n = (side) => d.service.reduce((a, p) => a + p[side].raw.length, 0);
  console.log(`   pooled over the pairs (${n('off')} requests off, ${d.service.every((p) => p.gov) ? `${n('gov')} with the governor alone, ` : ''}` +
    `${n('on')} on; each run's own figure in brackets):`);
  table(d.service, [['latency p50 (ms)', pooled.p50], ['latency p99 (ms)', pooled.p99], ['latency mean (ms)', pooled.mean],
    ['time at 4.0 GHz (%)', (runs) => 100 * meanOf('atMax')(runs)], ...heldRow(d.service)]);
  const side = (s) => d.service.map((p) => p[s]);
  const sides = sidesOf(d.service);
  const sideName = { off: 'off', gov: 'with the governor alone', on: 'on' };
  console.log(`   the service's GCs: ${sides.map((s) => `${majors(side(s))} major (mark-compact) ${sideName[s]}`).join(', ')}; ` +
    `${sides.map((s) => `${f1(gcMs(side(s)))} ms`).join(', ')} of GC in all`);
  if (d.service.every((p) => worked(p.on) && worked(p.off))) {
    console.log(`   CPU 1's work per request (cycles), on against off, per pair: ${d.service.map((p) => `${(work(p.on) / work(p.off)).toFixed(2)}x`).join(', ')}`);
  }
  // An investigation's third side (DEMO_ARMS with gov): eventboost's
  // governor without the hooks, against off, in the same pairs.
  if (d.service.every((p) => p.gov && worked(p.gov) && worked(p.off))) {
    console.log(`   its governor alone against off, per pair: ${d.service.map((p) => `${(work(p.gov) / work(p.off)).toFixed(2)}x`).join(', ')}`);
  }
  if (warmUps('service').length) {
    // Against the off runs of pairs 2 on: pair 1's is the one a warm-up
    // that fell short leaves its excess in (docs/evidence/2026-11-28-demo-warm-up).
    const later = side('off').slice(1);
    const first = d.service[0].off;
    const wus = warmUps('service');
    const rel = [...wus, first, ...later].every(worked) && later.length
      ? `; work a request, each against the mean of the later pairs' off runs: ${wus.map((r) => `${(work(r) / mean(later.map(work))).toFixed(2)}x`).join(', ')}, ` +
        `then pair 1's off run ${(work(first) / mean(later.map(work))).toFixed(2)}x` : '';
    console.log(`   before pair 1, ${wus.length} warm-up run${wus.length > 1 ? 's' : ''} (eventboost off, pair 1's arrivals; not measured): ` +
      `p99 ${wus.map((r) => f1(r.p99)).join(', ')} ms${rel}`);
  }
  const cens = d.service.reduce((a, p) => a + sides.reduce((b, s) => b + p[s].censored, 0), 0);
  const failed = d.service.reduce((a, p) => a + sides.reduce((b, s) => b + (p[s].errors || 0), 0), 0);
  if (cens || failed) {
    console.log(`   ${cens} requests not answered by the deadline and ${failed} failed (each counted at its run's worst latency)`);
  }
  console.log('   eventboost on vs off:');
  compare(d.service, pooled.p99, 'p99 latency');
  compare(d.service, pooled.mean, 'mean latency');
  // The governor alone moved the p99 with no hint at all (demo/runs/
  // 2026-12-01-split-1: -44.7% against off): what the boosts add is on
  // against it.
  if (d.service.every((p) => p.gov)) {
    console.log("   eventboost's governor alone (hooks off, no hint) vs off:");
    compare(d.service, pooled.p99, 'p99 latency', true, 'gov', 'off');
    compare(d.service, pooled.mean, 'mean latency', true, 'gov', 'off');
    console.log("   eventboost on vs its governor alone (what the hooks' boosts add):");
    compare(d.service, pooled.p99, 'p99 latency', true, 'on', 'gov');
    compare(d.service, pooled.mean, 'mean latency', true, 'on', 'gov');
  }
}

if (d.overload.length) {
  // demo.json records its connections from 2026-12-03 (8 before).
  console.log(`\n2. Overload: closed-loop wrk${host ? ' (on the host)' : ''}, ${d.connections || 8} connections, ${d.overloadSecs} s per run.`);
  if (warmUps('overload').length) {
    const wus = warmUps('overload');
    console.log(`   before pair 1, ${wus.length} warm-up run${wus.length > 1 ? 's' : ''} (eventboost off; not measured): ` +
      `${wus.map((r) => f1(r.rps)).join(', ')} requests/s, p99 ${wus.map((r) => f1(r.p99)).join(', ')} ms`);
  }
  console.log('   mean over the pairs (each run\'s own figure in brackets):');
  table(d.overload, [['requests/s', meanOf('rps')], ['latency p50 (ms)', meanOf('p50')], ['latency p99 (ms)', meanOf('p99')],
    ['time at 4.0 GHz (%)', (runs) => 100 * meanOf('atMax')(runs)], ...heldRow(d.overload)]);
  // What ended Queue-Boost's boosts in a saturated loop (the sleep rule
  // counted from 2026-12-03).
  const qs = d.overload.map((p) => p.on.stats && p.on.stats.queue).filter(Boolean);
  if (qs.length === d.overload.length && qs.every((q) => q.endedAsleep !== undefined)) {
    console.log(`   Queue-Boost's boosts with eventboost on, per run: ${qs.map((q) => q.boosts).join(', ')}; ` +
      `of them ended while the loop slept: ${qs.map((q) => q.endedAsleep).join(', ')}`);
  }
  // How often the saturated loop caught up with wrk and waited, and how
  // many of those waits a boost was kept through (runs before 2026-12-02
  // did not count them).
  if (qs.length === d.overload.length && qs.every((q) => q.keptThroughWaits !== undefined)) {
    console.log(`   the loop's waits with eventboost on, per run: ${qs.map((q) => q.waits).join(', ')}; ` +
      `a boost kept through: ${qs.map((q) => q.keptThroughWaits).join(', ')}`);
  }
  // By construction a pair's on/off throughput is its busy cycles' ratio
  // (about the clock, 4.0/2.6, when both sides are busy alike, as when
  // saturated) times this ratio: where it is above 1x the off run took more
  // cycles a request.  Why is not shown; a candidate: in slow spells TCG
  // runs the same code slower, in host time, at the emulated slow clock
  // (docs/evidence/2026-11-26-drift-pilot, finding 3; and
  // docs/evidence/2026-12-05-demo-corrected).
  if (d.overload.every((p) => worked(p.on) && worked(p.off))) {
    console.log(`   CPU 1's work per request (cycles), off against on, per pair: ${d.overload.map((p) => `${(work(p.off) / work(p.on)).toFixed(2)}x`).join(', ')}`);
  }
  console.log('   eventboost on vs off:');
  compare(d.overload, meanOf('rps'), 'throughput', false);
  compare(d.overload, meanOf('p99'), 'p99 latency');
}
// The family the intervals were drawn for is the changes printed.
if (compared !== FAMILY) throw new Error(`report.js: printed ${compared} changes, the intervals were for ${FAMILY} (compare.js's changesPrinted)`);

const measured = d.service.length ? d.service : d.overload;
const last = measured[measured.length - 1].on;
const st = last.stats;
console.log(`\n=== What eventboost did (the last ${d.service.length ? 'open-loop' : 'overload'} run with it on)\n`);
if (!st || !st.active) {
  console.log(`eventboost was not active in the service: ${st ? st.reason : 'no stats'}`);
  process.exit(1);
}
console.log(`core: the event loop ran on CPU ${st.thread.cpu} (policy${st.kernel.policy}, ` +
  `${st.kernel.fastSwitch ? 'fast switch' : 'worker thread'}); watchdog and budget lifted, as in make experiment`);
console.log(`GC-Boost: ${st.gc.boosts} boosts over ${st.gc.count} GCs (${f1(st.gc.timeMs)} ms in pauses, ` +
  `${f1(st.gc.markingMs)} ms in marking cycles); Queue-Boost: ${st.queue.boosts} boosts ` +
  `(${st.queue.byLength} by queue length, ${st.queue.byHeadOfLine} by head-of-line time, ${st.queue.byOverload} by overload)` +
  // Runs before 2026-12-03 did not count the ends by the sleep rule.
  (st.queue.endedAsleep === undefined ? '' : `, ${st.queue.endedAsleep} of them ended while the loop slept`));
const all = [...d.service, ...d.overload];
// The sides that must see no hint: off, and the governor without hooks.
const unhinted = (p) => ['off', 'gov'].filter((s) => p[s]);
const offHints = all.reduce((a, p) => a + unhinted(p).reduce((b, s) => b + p[s].hints, 0), 0) + [...warmUps('service'), ...warmUps('overload')].reduce((a, r) => a + r.hints, 0);
console.log(`hints the service sent in that run: ${last.hints}; runs with eventboost off${all.some((p) => p.gov) ? ' or its governor alone' : ''} ` +
  `(warm-ups too) sent ${offHints} (must be 0)`);
// CPU 0's busy share per run (the earlier testbed did not record it), and
// the host's holds of CPU 1 (judged in demos that record their bound,
// heldMax: from 2026-12-05, after the runs quoted then).
const disturbed = [];
if (host) {
  const sides = (p) => ['off', 'on', 'gov'].filter((s) => p[s]);
  const busy0 = all.flatMap((p) => sides(p).map((s) => p[s].cpu0Busy));
  const judged = d.heldMax !== undefined;
  const held = (r) => (judged ? heldShare(heldNs(r), r.wallMs) : null);
  for (const kind of ['service', 'overload']) {
    d[kind].forEach((p, i) => {
      for (const s of sides(p)) {
        const why = disturbance({ cpu0Busy: p[s].cpu0Busy, held: held(p[s]) }, { cpu0BusyMax: d.cpu0BusyMax, heldMax: judged ? d.heldMax : null });
        if (why.length) disturbed.push(`${kind} ${i + 1}/${d[kind].length} eventboost ${s}: ${why.join(', ')}`);
      }
    });
  }
  console.log(`CPU 0 busy ${range(busy0.map((x) => 100 * x))}% of each run (a run above ${100 * d.cpu0BusyMax}% fails the demo)`);
  const helds = all.flatMap((p) => sides(p).map((s) => held(p[s])));
  if (judged) {
    console.log(helds.every((x) => x !== null)
      ? `CPU 1 held by the host ${range(helds.map((x) => 100 * x))}% of each run (a run above ${100 * d.heldMax}% fails the demo)`
      : `CPU 1 held by the host: not counted in ${helds.filter((x) => x === null).length} of ${helds.length} runs (a test driver without emulate_held_us, or loaded with 0), not judged there`);
  }
}
// (null: no hint applied; 32768: the histogram's last bucket, 16384 us or more)
const bound = (us) => (us === null ? 'n/a' : us === 32768 ? '>= 16384 us' : `<= ${us} us`);
console.log(`hint -> frequency applied: p50 ${bound(st.kernel.latencyP50Us)}, p99 ${bound(st.kernel.latencyP99Us)} ` +
  '(under QEMU/TCG, ~20x slower than native)');
console.log(`\nFiles: ${dir} (demo.json: every run, every open-loop request).  make experiment measures the policies properly (README).`);
if (offHints !== 0) {
  console.error(`demo: runs with eventboost off sent ${offHints} hints: the reference was not a fixed clock`);
  process.exit(1);
}
if (disturbed.length) {
  console.error(`demo: runs during which CPU 0 was busy over ${100 * d.cpu0BusyMax}%` +
    `${d.heldMax !== undefined ? ` or the host held CPU 1 over ${100 * d.heldMax}% of the time` : ''} (CPU 1's emulated clock does not hold then; ` +
    `run the demo on a host with a core to spare for QEMU and nothing else busy):\n  ${disturbed.join('\n  ')}`);
  process.exit(1);
}
