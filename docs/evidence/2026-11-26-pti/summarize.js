'use strict';
// The figures of README.md from the raw files beside it:  node summarize.js
const fs = require('node:fs');
const path = require('node:path');
const lines = (f) => fs.readFileSync(path.join(__dirname, f), 'utf8').trim().split('\n');
const med = (a) => { const s = [...a].sort((x, y) => x - y), n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
for (const pti of ['pti', 'nopti']) {
  const dd = lines(`syscalls-${pti}.txt`).filter((l) => l.startsWith('dd_')).map((l) => l.split(' ').map(Number));
  const mean = (i) => dd.reduce((a, x) => a + x[i], 0) / dd.length;
  console.log(`${pti}: ${lines(`syscalls-${pti}.txt`)[0]}; ${(mean(1) / 200000).toFixed(2)} us per system call, ` +
    `${(mean(3) / 300 / 1000).toFixed(1)} ms per fork+exec`);
  // round period khz us loc owed_ns spun_ns busy_ns pay_us (probe.sh)
  const jobs = lines(`calibration-${pti}.txt`).filter((l) => /^\d/.test(l)).map((l) => l.split(' ').map(Number));
  const full = jobs.filter((j) => j[2] === 4000000), slow = jobs.filter((j) => j[2] === 2600000);
  console.log(`  calibration: 2.6 GHz ${med(full.map((f, i) => slow[i][3] / f[3])).toFixed(3)}x the 4.0 GHz time ` +
    `(median of ${full.length} pairs), 4.0 GHz job ${med(full.map((f) => f[3] / 1000)).toFixed(0)} ms, slow job's own ` +
    `time ${med(full.map((f, i) => (slow[i][3] - slow[i][6] / 1000 - f[3]) / 1000)).toFixed(1)} ms above the fast one's`);
}
