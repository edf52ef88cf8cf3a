'use strict';
// The Queue-Boost monitor's boosts by signal, a run (reading.md, item 4):
// node boost-signals.js [raw.json.gz]  (prints boost-signals.txt's table)
const fs = require('node:fs');
const zlib = require('node:zlib');
const path = require('node:path');
const file = process.argv[2] || path.join(__dirname, 'raw.json.gz');
const raw = JSON.parse(zlib.gunzipSync(fs.readFileSync(file)));
const { median } = require('../../../experiment/stats');
const groups = new Map();
for (const r of raw.runs) {
  if (!r.monitor || !r.monitor.wakeups) continue; // no monitor ran
  const k = `${r.phase} ${r.service} ${r.policy}`;
  if (!groups.has(k)) groups.set(k, []);
  groups.get(k).push(r);
}
console.log('phase    service    policy                  runs  boosts a 1000 requests: all, length, head-of-line, overload (median over runs)  ms a boost  busy at 4.0 GHz');
for (const [k, rs] of groups) {
  const per = (f) => median(rs.map((r) => 1000 * f(r.monitor) / r.requests)).toFixed(1);
  const busy = (r) => Object.values(r.busyNsByKhz).reduce((a, b) => a + b, 0);
  const [phase, service, policy] = k.split(' ');
  console.log(`${phase.padEnd(8)} ${service.padEnd(10)} ${policy.padEnd(23)} ${String(rs.length).padStart(4)}  ` +
    `${per((m) => m.boosts)}, ${per((m) => m.byLength)}, ${per((m) => m.byHeadOfLine)}, ${per((m) => m.byOverload)}`.padEnd(74) +
    `${median(rs.map((r) => r.monitor.boostedMs / Math.max(1, r.monitor.boosts))).toFixed(1).padStart(10)}  ` +
    `${(100 * median(rs.map((r) => r.busyNsByKhz['4000000'] / busy(r)))).toFixed(1)}%`);
}
