'use strict';
// Per run of raw.json.gz (this directory by default): CPU 1's work per
// request (cycles, in ms at 4.0 GHz), the server threads' CPU time and
// switch-ins per request, the run's major GCs and the monitor's counters.
//   node per-run.js [raw.json.gz]
const fs = require('node:fs');
const zlib = require('node:zlib');
const path = require('node:path');
const file = process.argv[2] || path.join(__dirname, 'raw.json.gz');
const raw = JSON.parse(zlib.gunzipSync(fs.readFileSync(file)));
const f2 = (x) => x.toFixed(2);
for (const r of raw.runs.filter((x) => !x.voided && !x.discarded)) {
  const n = r.requests - r.censored;
  const cycles = Object.entries(r.busyNsByKhz).reduce((a, [k, v]) => a + v * Number(k) / 4e6, 0);
  const ms = (x) => f2(x / n / 1e6);
  const m = r.monitor || {};
  console.log(`rep ${r.rep} after ${(r.after || '-').padEnd(13)} ${r.policy.padEnd(14)} work ${f2(cycles / n / 1e6)} ms, ` +
    `CPU loop ${ms(r.threadCpuNs.loop)} monitor ${ms(r.threadCpuNs.monitor)} other ${ms(r.threadCpuNs.other)} ms, ` +
    `switched in: loop ${f2(r.threadRuns.loop / n)} monitor ${f2(r.threadRuns.monitor / n)} other ${f2(r.threadRuns.other / n)}, ` +
    `major GCs ${r.v8gc.major}, monitor wake-ups ${m.wakeups || 0} (arrivals ${m.arrivals || 0}), ` +
    `boosts by head-of-line ${m.byHeadOfLine || 0}, by length ${m.byLength || 0}; ${n} requests`);
}
