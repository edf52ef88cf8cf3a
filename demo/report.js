'use strict';
// Print what the demo measured: report.js OUTDIR (demo.json from driver.js).
// Every comparison is of paired runs (the same process, the same arrivals):
// it says "lower" or "higher" only when every pair agrees, and shows each
// pair's change, so the spread is in view.
const fs = require('node:fs');
const path = require('node:path');

const dir = process.argv[2];
const d = JSON.parse(fs.readFileSync(path.join(dir, 'demo.json'), 'utf8'));
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const pctS = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
const mean = (xs) => xs.reduce((a, x) => a + x, 0) / xs.length;
const range = (xs) => `${f1(Math.min(...xs))}-${f1(Math.max(...xs))}`;

// on/off - 1 per pair; the verdict only when all pairs agree in sign.
function compare(pairs, get, what, lowerIsBetter = true) {
  const ch = pairs.map((p) => get(p.on) / get(p.off) - 1);
  const all = (f) => ch.every(f);
  let verdict;
  if (all((c) => c < 0)) verdict = `lower in all ${ch.length} pairs (mean ${pctS(mean(ch))})`;
  else if (all((c) => c > 0)) verdict = `higher in all ${ch.length} pairs (mean ${pctS(mean(ch))})`;
  else verdict = 'not resolved: the pairs disagree';
  const good = lowerIsBetter ? all((c) => c < 0) : all((c) => c > 0);
  const bad = lowerIsBetter ? all((c) => c > 0) : all((c) => c < 0);
  console.log(`  ${what.padEnd(22)} ${verdict}${good ? ', better' : bad ? ', worse' : ''}; per pair ${ch.map(pctS).join(', ')}`);
}

function table(pairs, rows) {
  const pad = (s, n) => String(s).padEnd(n);
  console.log(`  ${pad('', 24)}${pad('eventboost off', 22)}eventboost on`);
  for (const [label, get] of rows) {
    const off = pairs.map((p) => get(p.off));
    const on = pairs.map((p) => get(p.on));
    console.log(`  ${pad(label, 24)}${pad(`${f1(mean(off))} (${range(off)})`, 22)}${f1(mean(on))} (${range(on)})`);
  }
}

console.log(`\n=== The demo service under load (its event loop on CPU 1; emulated DVFS: base 2.6 GHz, boost 4.0 GHz;`);
console.log(`    guest clock by instruction count, -icount; ${d.reps} pairs of runs, off and on in alternating order)`);
console.log(`\n1. Open-loop load, as a service runs: ${d.rate} requests/s (Poisson), ${Math.round(d.load * 100)}% of its ` +
  `capacity at 2.6 GHz (${f1(d.capacity)}/s), ${d.secs} s per run; every scheduled request counted.`);
console.log('   mean over pairs (range):');
table(d.service, [['latency p50 (ms)', (x) => x.p50], ['latency p99 (ms)', (x) => x.p99], ['latency mean (ms)', (x) => x.mean],
  ['time at 4.0 GHz (%)', (x) => x.atMax * 100]]);
const cens = d.service.reduce((a, p) => a + p.on.censored + p.off.censored, 0);
if (cens) console.log(`   ${cens} requests not answered by the deadline (counted at their worst latency)`);
console.log('   eventboost on vs off:');
compare(d.service, (x) => x.p99, 'p99 latency');
compare(d.service, (x) => x.mean, 'mean latency');
if (d.max) console.log(`   (for reference, a fixed 4.0 GHz, one run: p50 ${f1(d.max.p50)} ms, p99 ${f1(d.max.p99)} ms)`);

console.log(`\n2. Overload: closed-loop wrk, 8 connections, ${d.overloadSecs} s per run: the loop never waits.`);
console.log('   mean over pairs (range):');
table(d.overload, [['requests/s', (x) => x.rps], ['latency p50 (ms)', (x) => x.p50], ['latency p99 (ms)', (x) => x.p99],
  ['time at 4.0 GHz (%)', (x) => x.atMax * 100]]);
console.log('   eventboost on vs off:');
compare(d.overload, (x) => x.p99, 'p99 latency');
compare(d.overload, (x) => x.rps, 'throughput', false);

const last = d.service[d.service.length - 1].on;
const st = last.stats;
console.log('\n=== What eventboost did (the last open-loop run with it on)\n');
if (!st || !st.active) {
  console.log(`eventboost was not active in the service: ${st ? st.reason : 'no stats'}`);
  process.exit(1);
}
console.log(`core: the event loop ran on CPU ${st.thread.cpu} (policy${st.kernel.policy}, ` +
  `${st.kernel.fastSwitch ? 'fast switch' : 'worker thread'})`);
console.log(`GC-Boost: ${st.gc.boosts} boosts over ${st.gc.count} GCs (${f1(st.gc.timeMs)} ms in GC); ` +
  `Queue-Boost: ${st.queue.boosts} boosts (${st.queue.byLength} by queue length, ${st.queue.byHeadOfLine} by head-of-line time)`);
console.log(`hints the service sent in that run: ${last.hints}; runs with eventboost off sent ` +
  `${[...d.service, ...d.overload].reduce((a, p) => a + p.off.hints, 0)} (must be 0)`);
console.log(`hint -> frequency applied: p50 <= ${st.kernel.latencyP50Us} us, p99 <= ${st.kernel.latencyP99Us} us ` +
  '(under QEMU/TCG, ~20x slower than native)');
console.log(`\nFiles: ${dir} (demo.json: every run).  make experiment measures the policies properly (README).`);
if ([...d.service, ...d.overload].some((p) => p.off.hints)) process.exit(1);
