'use strict';
// reading.md's statistics: node work-pairs.js [raw.json.gz]
const fs = require('node:fs');
const zlib = require('node:zlib');
const path = require('node:path');
const file = process.argv[2] || path.join(__dirname, 'raw.json.gz');
const raw = JSON.parse(zlib.gunzipSync(fs.readFileSync(file)));
const runs = raw.runs.filter((r) => r.phase === 'headline');
// CPU 1's cycles in a run: busy time at each clock x that clock.
const cycles = (r) => Object.entries(r.busyNsByKhz).reduce((a, [khz, ns]) => a + Number(khz) * ns, 0);
const T975 = { 1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365 };
function paired(a, b) {
  const lr = [];
  for (const ra of runs.filter((r) => r.policy === a)) {
    const rb = runs.find((r) => r.policy === b && r.rep === ra.rep && r.service === ra.service && r.rate === ra.rate);
    if (rb) lr.push(Math.log(cycles(ra) / cycles(rb)));
  }
  const n = lr.length;
  const m = lr.reduce((x, y) => x + y, 0) / n;
  const sd = Math.sqrt(lr.reduce((x, y) => x + (y - m) ** 2, 0) / (n - 1));
  const h = T975[n - 1] * sd / Math.sqrt(n);
  const f = (x) => `${Math.exp(x).toFixed(2)}x`;
  return `${f(m)} [${f(m - h)}, ${f(m + h)}] (${n} repetitions; each ${lr.map(f).join(', ')})`;
}
const median = (xs) => { const s = [...xs].sort((x, y) => x - y); const k = s.length >> 1; return s.length % 2 ? s[k] : (s[k - 1] + s[k]) / 2; };
console.log(`work, eb-queue-f5-threshold against eb-queue-f5: ${paired('eb-queue-f5-threshold', 'eb-queue-f5')}`);
for (const p of ['eb-queue-f5', 'eb-queue-f5-threshold'])
  console.log(`work, ${p} against fixed-2.6: ${paired(p, 'fixed-2.6')}`);
console.log('medians over repetitions, a request: loop CPU ms, monitor CPU ms, monitor wake-ups, loop preemptions');
for (const p of ['fixed-2.6', 'eb-queue-f5', 'eb-queue-f5-threshold']) {
  const rs = runs.filter((r) => r.policy === p);
  const per = (f) => median(rs.map((r) => f(r) / r.requests));
  console.log(`  ${p.padEnd(22)} ${(per((r) => r.threadCpuNs.loop) / 1e6).toFixed(2)}  ${(per((r) => r.threadCpuNs.monitor) / 1e6).toFixed(2)}  ` +
    `${per((r) => (r.monitor ? r.monitor.wakeups : 0)).toFixed(2)}  ${per((r) => r.threadPreempted.loop).toFixed(2)}`);
}
