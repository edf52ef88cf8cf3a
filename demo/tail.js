'use strict';
// What the open-loop tail of a demo run is made of: tail.js OUTDIR
// (demo.json from driver.js).  Per side (eventboost off, on), pooled over the
// pairs: the requests above that side's p99, how many of them the load
// generator sent late (a late send is latency the service did not cause;
// on the earlier testbed the generator shared the guest's CPU 0 with V8's
// helper threads, now it runs on the host), the service's GCs by kind,
// and the longest backlog (a run of requests above 100 ms with less than
// 200 ms between their scheduled times).  Analysis only: report.js prints
// the demo's comparisons.
const fs = require('node:fs');
const path = require('node:path');

const d = JSON.parse(fs.readFileSync(path.join(process.argv[2], 'demo.json'), 'utf8'));
const q = (s, p) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
const KINDS = { 1: 'minor', 4: 'major', 8: 'incremental', 16: 'weak callbacks' };

for (const side of ['off', 'on']) {
  const runs = d.service.map((p) => p[side]);
  const reqs = runs.flatMap((r) => r.raw);
  const p99 = q(reqs.map((x) => x[2]).sort((a, b) => a - b), 0.99);
  const tail = reqs.filter((x) => x[2] > p99);
  const late = (xs, ms) => xs.filter((x) => x[1] > ms).length;
  const gc = {};
  for (const r of runs) {
    for (const [, ms, kind] of r.trace.gc) {
      const k = KINDS[kind] || kind;
      gc[k] = gc[k] || { n: 0, ms: 0, max: 0 };
      gc[k].n++;
      gc[k].ms += ms;
      gc[k].max = Math.max(gc[k].max, ms);
    }
  }
  // The longest backlog of each run.
  const backlogs = runs.map((r) => {
    let best = { n: 0 };
    let cur = null;
    for (const x of r.raw) {
      if (x[2] <= 100) continue;
      if (cur && x[0] - cur.last < 200) {
        cur.n++;
        cur.last = x[0];
        cur.max = Math.max(cur.max, x[2]);
      } else {
        cur = { n: 1, last: x[0], max: x[2] };
      }
      if (cur.n > best.n) best = { ...cur };
    }
    return best.n ? `${best.n} requests, worst ${best.max.toFixed(0)} ms` : 'none';
  });
  console.log(`eventboost ${side}: ${reqs.length} requests, p99 ${p99.toFixed(1)} ms; ` +
    `${tail.length} above it, ${late(tail, 20)} of them sent > 20 ms late`);
  console.log(`  sent > 20 ms late: ${late(reqs, 20)} of all requests (worst ${Math.max(...reqs.map((x) => x[1])).toFixed(1)} ms)`);
  console.log(`  GCs: ${Object.entries(gc).map(([k, v]) => `${v.n} ${k} (${v.ms.toFixed(0)} ms, longest ${v.max.toFixed(1)})`).join(', ')}`);
  console.log(`  longest backlog per run: ${backlogs.join('; ')}`);
}
