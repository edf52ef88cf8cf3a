'use strict';
// Every run of the stopped full run, as the analysis sees it: work
// (cycles: busy time on CPU 1 x its clock) per answered request, V8's
// collections, p99, CPU 0's busy share.  Not a result (the testbed check
// failed): what the check saw, and why.
//   node per-run.js [raw.json.gz]
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const file = process.argv[2] || path.join(__dirname, 'raw.json.gz');
const raw = JSON.parse(zlib.gunzipSync(fs.readFileSync(file)).toString());
const perReq = (r) => Object.entries(r.busyNsByKhz).reduce((a, [khz, ns]) => a + ns * Number(khz) / 1e6, 0) /
  1e6 / Math.max(1, r.requests - r.censored);
const byPolicy = new Map();
console.log('phase     service     policy               rep  Mcycles/req  minor GCs  major GCs  p99 ms  CPU 0 busy');
for (const r of raw.runs) {
  console.log(`${r.phase.padEnd(9)} ${r.service.padEnd(11)} ${r.policy.padEnd(20)} ${String(r.rep).padEnd(4)} ` +
    `${perReq(r).toFixed(1).padStart(11)}  ${String(r.v8gc.minor).padStart(9)}  ${String(r.v8gc.major).padStart(9)}  ` +
    `${r.p99.toFixed(0).padStart(6)}  ${(r.cpu0Busy * 100).toFixed(2)}%`);
  if (r.phase !== 'headline') continue;
  const k = `${r.service} ${r.policy}`;
  if (!byPolicy.has(k)) byPolicy.set(k, []);
  byPolicy.get(k).push(perReq(r));
}
console.log('\nheadline, mean Mcycles per answered request over the repetitions (ratio to fixed 2.6 GHz):');
const mean = (xs) => xs.reduce((a, x) => a + x, 0) / xs.length;
for (const [k, xs] of byPolicy) {
  const ref = byPolicy.get(`${k.split(' ')[0]} fixed-2.6`);
  console.log(`  ${k.padEnd(32)} ${mean(xs).toFixed(1).padStart(6)}  (${(mean(xs) / mean(ref)).toFixed(2)}x; runs ${xs.map((x) => x.toFixed(1)).join(', ')})`);
}
