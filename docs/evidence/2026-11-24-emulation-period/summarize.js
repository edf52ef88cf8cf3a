'use strict';
// node summarize.js periods.txt: per emulate_period_us, the median job
// times at 4.0 and 2.6 GHz, the median of the pairs' 2.6/4.0 ratios, and
// each round's median (one block of PAIRS pairs, as a calibration block).
const fs = require('node:fs');
const rows = fs.readFileSync(process.argv[2] || `${__dirname}/periods.txt`, 'utf8').trim().split('\n').map((l) => l.split(' '));
const median = (a) => { const s = [...a].sort((x, y) => x - y); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const ms = (per, khz, round) => rows.filter((x) => x[1] === per && x[2] === khz && (round === undefined || x[0] === round)).map((x) => Number(x[3]));
for (const per of [...new Set(rows.map((x) => x[1]))]) {
  const ratios = (round) => { const f = ms(per, '4000000', round); return ms(per, '2600000', round).map((s, i) => s / f[i]); };
  const rounds = [...new Set(rows.map((x) => x[0]))].map((r) => median(ratios(r)).toFixed(2));
  console.log(`${per.padEnd(5)} 4.0 GHz ${median(ms(per, '4000000'))} ms, 2.6 GHz ${median(ms(per, '2600000'))} ms, ` +
    `2.6/4.0 ${median(ratios()).toFixed(3)} (${ratios().length} pairs); per round ${rounds.join(' ')}`);
}
