#!/usr/bin/env node
'use strict';
// Where the Queue-Boost policies' boosted time came from, per phase, service
// and policy, from a run's raw.json.gz (a diagnostic written after the run,
// 2026-11-27): the monitor's boosts by reason and the kernel's boosts per
// 1 000 requests, the kernel's boosted time per boost and per request, and
// per request the loop thread's and the monitor thread's CPU time, beside
// the share of CPU 1's busy time at 4.0 GHz.  Sums over the runs of a row.
//   node boost-split.js RAW.json.gz [...]
const fs = require('fs');
const zlib = require('zlib');

for (const file of process.argv.slice(2)) {
  const raw = JSON.parse(zlib.gunzipSync(fs.readFileSync(file)));
  const rows = new Map();
  for (const r of raw.runs) {
    if (!/^eb-|^oracle$/.test(r.policy)) continue;
    const key = `${r.phase} ${r.service} ${r.policy}`;
    if (!rows.has(key)) {
      rows.set(key, { runs: 0, req: 0, length: 0, hol: 0, overload: 0, kBoosts: 0, kNs: 0,
                      loopNs: 0, monNs: 0, fastNs: 0, busyNs: 0, monitor: false });
    }
    const a = rows.get(key);
    const m = r.monitor || {};
    a.runs++;
    a.req += r.requests;
    a.monitor = a.monitor || !!r.monitor;
    a.length += m.byLength || 0;
    a.hol += m.byHeadOfLine || 0;
    a.overload += m.byOverload || 0;
    a.kBoosts += r.kernel ? r.kernel.boosts : 0;
    a.kNs += r.kernel ? r.kernel.boostedNs : 0;
    a.loopNs += r.loopCpuNs || 0;
    a.monNs += (r.threadCpuNs || {}).monitor || 0;
    for (const [khz, ns] of Object.entries(r.busyNsByKhz || {})) {
      a.busyNs += ns;
      if (khz === '4000000') a.fastNs += ns;
    }
  }
  console.log(`${file}\nper 1 000 requests: monitor boosts by length / head-of-line / ` +
              'overload (- where the run kept no monitor counters), kernel boosts; then ' +
              'ms per kernel boost, and per request: boosted ms, loop CPU ms, monitor CPU ms; ' +
              'busy time at 4.0 GHz');
  for (const [key, a] of rows) {
    const k = (x) => (1000 * x / a.req).toFixed(0);
    const ms = (ns) => (ns / 1e6 / a.req).toFixed(2);
    const reasons = a.monitor ? `${k(a.length)} / ${k(a.hol)} / ${k(a.overload)}` : '- / - / -';
    console.log(`  ${key.padEnd(40)} ${String(a.runs).padStart(2)} runs ${String(a.req).padStart(6)} req` +
                `  ${reasons.padStart(13)}  ${k(a.kBoosts).padStart(5)}` +
                `  ${(a.kNs / 1e6 / Math.max(1, a.kBoosts)).toFixed(1).padStart(6)} ms` +
                `  ${ms(a.kNs)}  ${ms(a.loopNs)}  ${ms(a.monNs)}` +
                `  ${(100 * a.fastNs / a.busyNs).toFixed(1)}%`);
  }
}
