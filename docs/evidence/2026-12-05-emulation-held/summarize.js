'use strict';
// The README's table from the runs' output: per file and phase kind, the
// median of the pairs' 2.6/4.0 GHz time ratios, with the first and third
// quartiles (linear interpolation between order statistics).
//   node summarize.js
const fs = require('node:fs');
const q = (s, p) => { const i = p * (s.length - 1), lo = Math.floor(i); return s[lo] + (s[Math.ceil(i)] - s[lo]) * (i - lo); };
for (const f of ['before-charged.txt', 'after-full.txt', 'arms.txt', 'arms2.txt', 'arms3.txt']) {
  const by = {};
  for (const m of fs.readFileSync(`${__dirname}/${f}`, 'utf8').matchAll(/^(\S+) pair \d+ full \S+ slow \S+ ratio (\S+)$/gm)) {
    (by[m[1]] = by[m[1]] || []).push(Number(m[2]));
  }
  for (const [k, v] of Object.entries(by).sort()) {
    const s = v.sort((a, b) => a - b);
    console.log(`${f} ${k}: ${s.length} pairs, median ${q(s, 0.5).toFixed(3)}x [${q(s, 0.25).toFixed(3)}, ${q(s, 0.75).toFixed(3)}]`);
  }
}
