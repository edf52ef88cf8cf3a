// How often does a calibration block fail its band by sampling noise alone?
// The testbed check (experiment/cpu1.js, calibrationVerdict()) passes a block
// when the median of its pairs' 2.6/4.0 GHz time ratios is within 10% of 1/f.
// Here: every block of the committed raw files, and blocks of N pairs drawn
// (with replacement, seeded) from the pairs of the blocks that passed, a
// stand-in for the testbed outside its spells.
// Usage (summary.txt; the pooled first full run repeats its two halves, and
// the thread-split runs are QUICK ones of 2 pairs a block):
//   node noise.js $(ls ../2026-11-2*/raw.json.gz | grep -v 'first-full-run\|thread-split')
const zlib = require('zlib');
const fs = require('fs');
const path = require('path');

const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};
const BAND = 0.10;
const pass = (x) => Math.abs(x - 1) <= BAND;
const blocks = [];
for (const f of process.argv.slice(2)) {
  const buf = fs.readFileSync(f);
  const raw = JSON.parse(f.endsWith('.gz') ? zlib.gunzipSync(buf) : buf);
  const bs = (raw.calibrations || []).map((b) => {
    const want = b.fixedPct / 100 + (1 - b.fixedPct / 100) * (4 / 2.6);
    return { rel: b.pairs.map((p) => p.slow.ms / p.full.ms / want) };
  }).filter((b) => b.rel.length);
  const failed = bs.filter((b) => !pass(median(b.rel))).length;
  console.log(`${path.basename(path.dirname(f))}: ${bs.length} blocks, ${failed} failed`);
  blocks.push(...bs);
}
const ok = blocks.filter((b) => pass(median(b.rel)));
const failed = blocks.length - ok.length;
console.log(`all: ${blocks.length} blocks (pairs per block: ${[...new Set(blocks.map((b) => b.rel.length))].join(', ')}), ` +
  `${failed} failed (${(100 * failed / blocks.length).toFixed(1)}%)`);
const pairs = ok.flatMap((b) => b.rel);
const mean = pairs.reduce((a, x) => a + x, 0) / pairs.length;
const sd = Math.sqrt(pairs.reduce((a, x) => a + (x - mean) ** 2, 0) / (pairs.length - 1));
console.log(`pairs of the passing blocks: ${pairs.length}, ratio/(1/f) median ${median(pairs).toFixed(3)}, sd ${sd.toFixed(3)}`);
let seed = 1;
const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const T = 20000;
for (const n of [5, 9, 15, 25]) {
  let fails = 0;
  for (let i = 0; i < T; i++) {
    if (!pass(median(Array.from({ length: n }, () => pairs[Math.floor(rand() * pairs.length)])))) fails++;
  }
  const p = fails / T;
  console.log(`a block of ${n} pairs drawn from them fails ${(100 * p).toFixed(1)}%; ` +
    `a repetition (a block before and after) is voided ${(100 * (1 - (1 - p) ** 2)).toFixed(1)}%`);
}
