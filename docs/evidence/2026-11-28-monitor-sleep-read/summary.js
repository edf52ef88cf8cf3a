'use strict';
// Recomputes the README's figures from ab.jsonl (old and new interleaved in
// one guest boot) and ab2.jsonl (new alone, a second boot):
//   node docs/evidence/2026-11-28-monitor-sleep-read/summary.js
const fs = require('node:fs');
const path = require('node:path');
const read = (f) => fs.readFileSync(path.join(__dirname, f), 'utf8').trim().split('\n').map(JSON.parse);
const runs = [...read('ab.jsonl').map((r) => ({ ...r, boot: 1 })), ...read('ab2.jsonl').map((r) => ({ ...r, boot: 2 }))];
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
for (const v of ['old', 'new']) {
  const r = runs.filter((x) => x.pkg.endsWith('/' + v));
  const us = r.map((x) => x.usPerWakeup);
  console.log(`${v}: ${r.length} runs; monitor CPU per wake-up (instructions, -icount) median ${median(us).toFixed(1)} us, ` +
    `range ${Math.min(...us).toFixed(1)}-${Math.max(...us).toFixed(1)} [${us.map((x) => x.toFixed(1)).join(', ')}]; ` +
    `wake-ups per arrival ${Math.min(...r.map((x) => x.wakeups / x.arrivals)).toFixed(3)}-${Math.max(...r.map((x) => x.wakeups / x.arrivals)).toFixed(3)}; ` +
    `monitor / loop CPU median ${median(r.map((x) => 100 * x.monitorMs / x.loopMs)).toFixed(2)}%`);
}
