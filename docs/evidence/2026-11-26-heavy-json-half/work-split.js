'use strict';
// Where the extra work of the Queue-Boost policies went (a diagnostic
// computed after the run, not part of its design): per headline policy, the
// mean over its runs of CPU 1's cycles per answered request, the loop
// thread's own CPU time per request (loopCpuNs, the emulated steal included),
// and CPU 1's other busy time per request (busy less the loop thread: V8's
// helper threads, the queue monitor thread, the kernel's own work).
//   node work-split.js [raw.json.gz]
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const file = process.argv[2] || path.join(__dirname, 'raw.json.gz');
const raw = JSON.parse(zlib.gunzipSync(fs.readFileSync(file)));
const by = new Map();
for (const r of raw.runs.filter((x) => x.phase === 'headline')) {
  const busyNs = Object.values(r.busyNsByKhz).reduce((a, x) => a + x, 0);
  const cycles = Object.entries(r.busyNsByKhz).reduce((a, [khz, ns]) => a + Number(khz) * 1e3 * ns / 1e9, 0);
  const n = r.requests - r.censored;
  if (!by.has(r.policy)) by.set(r.policy, []);
  by.get(r.policy).push([cycles / n / 1e6, r.loopCpuNs / n / 1e6, (busyNs - r.loopCpuNs) / n / 1e6]);
}
console.log('policy                Mcycles/request  loop thread ms/request  other CPU 1 ms/request  runs');
for (const [policy, runs] of [...by].sort()) {
  const mean = (i) => runs.reduce((a, x) => a + x[i], 0) / runs.length;
  const range = (i) => `${Math.min(...runs.map((x) => x[i])).toFixed(2)}-${Math.max(...runs.map((x) => x[i])).toFixed(2)}`;
  console.log(`${policy.padEnd(22)}${mean(0).toFixed(1).padStart(15)}${mean(1).toFixed(2).padStart(24)}` +
    `${mean(2).toFixed(2).padStart(24)} (${range(2)})  ${runs.length}`);
}
