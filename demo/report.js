'use strict';
// Print what the demo measured: report.js OUTDIR (files from run_in_guest.sh).
const fs = require('node:fs');
const path = require('node:path');

const dir = process.argv[2];
const read = (f) => fs.readFileSync(path.join(dir, f), 'utf8');
const json = (f) => { try { return JSON.parse(read(f)); } catch { return null; } };

function ms(v, unit) {
  return Number(v) * { us: 1e-3, ms: 1, s: 1e3 }[unit];
}

function wrk(name) {
  const t = read(`wrk-${name}.txt`);
  const pct = {};
  for (const m of t.matchAll(/^\s+(\d+)%\s+([\d.]+)(us|ms|s)\s*$/gm)) pct[m[1]] = ms(m[2], m[3]);
  const rps = Number((/Requests\/sec:\s+([\d.]+)/.exec(t) || [])[1]);
  const errors = /Non-2xx|Socket errors/.test(t);
  return { rps, p50: pct['50'], p90: pct['90'], p99: pct['99'], errors };
}

function timeInState(name) {
  const parse = (f) => Object.fromEntries(read(f).trim().split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number)));
  const a = parse(`tis-before-${name}.txt`);
  const b = parse(`tis-after-${name}.txt`);
  let total = 0;
  let weighted = 0;
  const d = {};
  for (const k of Object.keys(b)) {
    d[k] = b[k] - (a[k] || 0);
    total += d[k];
    weighted += d[k] * Number(k);
  }
  const max = Math.max(...Object.keys(b).map(Number));
  return { atMax: total ? d[max] / total : 0, meanKhz: total ? weighted / total : 0 };
}

const runs = [['off', 'eventboost off'], ['eventboost', 'eventboost on'], ['max', 'fixed 4.0 GHz']];
const r = Object.fromEntries(runs.map(([n]) => [n, { ...wrk(n), ...timeInState(n) }]));
const pad = (s, n) => String(s).padEnd(n);
const row = (label, f) => console.log(pad(label, 26) + runs.map(([n]) => pad(f(r[n]), 18)).join(''));
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '-');

console.log('\n=== The demo service under wrk (CPU 1 runs it; emulated DVFS: base 2.6 GHz, boost 4.0 GHz)\n');
row('', () => '');
console.log(pad('', 26) + runs.map(([, l]) => pad(l, 18)).join(''));
row('requests/s', (x) => f1(x.rps));
row('latency p50 (ms)', (x) => f2(x.p50));
row('latency p90 (ms)', (x) => f2(x.p90));
row('latency p99 (ms)', (x) => f2(x.p99));
row('time at 4.0 GHz (CPU 1)', (x) => `${(x.atMax * 100).toFixed(1)}%`);
row('mean clock (CPU 1)', (x) => `${(x.meanKhz / 1e6).toFixed(2)} GHz`);
const on = r.eventboost;
const off = r.off;
// "12.5% lower" or "3.4% higher": never a negative "lower".
const change = (ratio) => `${f1(Math.abs(ratio - 1) * 100)}% ${ratio <= 1 ? 'lower' : 'higher'}`;
console.log(`\neventboost vs off: p99 ${change(on.p99 / off.p99)}, throughput ` +
  `${change(on.rps / off.rps)}, at 4.0 GHz ${(on.atMax * 100).toFixed(1)}% of the time ` +
  '(fixed 4.0 GHz: 100%).');

const st = json('stats-eventboost.json');
const before = json('ebctl-before-eventboost.json');
const after = json('ebctl-after-eventboost.json');
console.log('\n=== What eventboost did (the service with node -r eventboost/register)\n');
if (!st || !st.active) {
  console.log(`eventboost was not active in the service: ${st ? st.reason : 'no stats'}`);
  process.exit(1);
}
console.log(`core: the event loop ran on CPU ${st.thread.cpu} (policy${st.kernel.policy}, ` +
  `${st.kernel.fastSwitch ? 'fast switch' : 'worker thread'}); the other core was never boosted by it`);
console.log(`GC-Boost: ${st.gc.boosts} boosts over ${st.gc.count} GCs (${f1(st.gc.timeMs)} ms in GC, ` +
  `longest ${f2(st.gc.maxMs)} ms); by kind ${JSON.stringify(st.gc.byKind)}`);
console.log(`Queue-Boost: ${st.queue.boosts} boosts (${st.queue.byLength} by queue length, ` +
  `${st.queue.byHeadOfLine} by head-of-line time), ${f1(st.queue.boostedMs)} ms boosted; ` +
  `averages ${f2(st.queue.avgLength)} events, ${f1(st.queue.avgBusyUs)} us busy per loop iteration`);
const pol = (j) => j && j.policies && j.policies.find((p) => p.policy === st.kernel.policy);
const pb = pol(before);
const pa = pol(after);
if (pa && pa.eventboost && pb && pb.eventboost) {
  const e0 = pb.eventboost;
  const e1 = pa.eventboost;
  const d = (k) => e1[k] - e0[k];
  const secs = d('governed_ns') / 1e9;
  console.log(`kernel, during the ${f1(secs)} s run: ${d('boosts')} boosts (${f1(d('boosts') / secs)}/s), ` +
    `boosted ${(d('boosted_ns') / d('governed_ns') * 100).toFixed(1)}% of the time, ` +
    `watchdog ends ${d('watchdog_ends')}, budget ends ${d('budget_ends')}, refused ${d('refused')}`);
}
console.log(`hint -> frequency applied: p50 <= ${st.kernel.latencyP50Us} us, p99 <= ${st.kernel.latencyP99Us} us ` +
  '(under QEMU/TCG, ~20x slower than native)');
console.log(`\nFiles: ${dir} (wrk output, ebctl status, time_in_state, stats).`);
console.log('Next: `ebctl status` on a machine with the module; `trace-cmd record -e eventboost` ' +
  'to see every hint, decision and frequency change; README.md for installing on a server.');
