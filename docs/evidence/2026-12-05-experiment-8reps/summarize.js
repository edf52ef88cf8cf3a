'use strict';
// The figures reading.md and the README quote, printed from this run's
// results.json and raw.json.gz (node summarize.js), so that none is
// copied by hand.
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const { ratio, cut } = require(path.join(__dirname, '../../../experiment/paired.js'));
const { calibrationVerdict } = require(path.join(__dirname, '../../../experiment/cpu1.js'));

const res = require('./results.json');
const raw = JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(__dirname, 'raw.json.gz'))).toString());
const pc = (x) => `${(100 * x).toFixed(1)}%`;
const xx = (x, d = 2) => `${x.toFixed(d)}x`;
const names = { 'eb-gc-marking': 'GC-Boost (`eb-gc-marking`)', 'eb-queue': 'Queue-Boost (`eb-queue`)',
  'eb-gc-marking+queue': 'GC+queue (`eb-gc-marking+queue`)' };

console.log('| policy | target | paired p99.9 cut | paired energy = price per cycle × work | paired verdict | pooled cut [bootstrap]; energy; rule | busy at 4.0 GHz |');
console.log('|---|---|---|---|---|---|---|');
for (const t of res.targets) {
  const p = res.paired.find((q) => q.phase === 'headline' && q.policy === t.policy);
  const c = cut(p.p999), e = ratio(p.energy), pr = ratio(p.price), w = ratio(p.work);
  const v = t.paired;
  const part = (x) => ({ met: 'past the target', missed: 'short of the target', unresolved: 'unresolved' })[x];
  const said = v.verdict === 'unresolved' ? `unresolved (cut ${part(v.cut)}, energy ${v.energy})` : v.verdict;
  const m = t.measured;
  console.log(`| ${names[t.policy]} | ≥${pc(t.cut)} at ≤${xx(t.energy)} | ${pc(c.x)} [${pc(c.lo)}, ${pc(c.hi)}] | ` +
    `${xx(e.x)} [${xx(e.lo)}, ${xx(e.hi)}] = ${xx(pr.x)} [${xx(pr.lo, 3)}, ${xx(pr.hi, 3)}] × ${xx(w.x)} [${xx(w.lo)}, ${xx(w.hi)}] | ` +
    `${said} | ${pc(m.p999Reduction)} [${pc(m.ci[0])}, ${pc(m.ci[1])}]; ${xx(m.energyRel, 3)}; ${t.ruleMet ? 'met' : 'missed'} | ${pc(p.busyBoosted)} |`);
  console.log(`    pairs ${JSON.stringify(p.reps)}, censored ${p.censoredPairs}; without first ${JSON.stringify(p.withoutFirst.reps)}: ` +
    `cut ${p.withoutFirst.p999 ? pc(cut(p.withoutFirst.p999).x) : '-'}, energy ${p.withoutFirst.energy ? xx(ratio(p.withoutFirst.energy).x) : '-'}`);
}
console.log('\nBy case (pooled, analyze.js): p99.9 cut [bootstrap]; energy; work');
for (const c of res.cases.filter((x) => x.phase === 'headline' && x.policy !== 'fixed-2.6')) {
  console.log(`  ${c.service.padEnd(10)} ${c.policy.padEnd(20)} ${pc(c.p999Reduction)} [${pc(c.p999ReductionCI[0])}, ${pc(c.p999ReductionCI[1])}]; ` +
    `${xx(c.energyRel, 3)}; work ${xx(c.workRel, 3)}; p99.9 ${c.p999} ms`);
}
console.log('\nThe testbed');
for (const s of [...new Set(raw.runs.map((r) => r.service))]) {
  const rs = raw.runs.filter((r) => r.service === s);
  const req = rs.map((r) => r.requests);
  console.log(`  ${s}: capacity ${[...new Set(rs.map((r) => r.capacity))].join(', ')} req/s at 2.6 GHz, offered ${[...new Set(rs.map((r) => r.rate))].join(', ')}/s; ` +
    `${rs.length} runs, ${Math.min(...req)}-${Math.max(...req)} requests a run; major GCs a run ${Math.min(...rs.map((r) => r.v8gc?.major ?? NaN))}-${Math.max(...rs.map((r) => r.v8gc?.major ?? NaN))}`);
}
const blocks = raw.calibrations || [];
const verdicts = blocks.map((b) => ({ b, v: calibrationVerdict(b) }));
const med = verdicts.filter(({ b }) => !b.voided).map(({ v }) => v.ratio);
console.log(`  calibration blocks: ${blocks.length} (${blocks.filter((b) => b.voided).length} voided, ${verdicts.filter(({ v }) => !v.ok).length} off the band); ` +
  `kept medians ${Math.min(...med).toFixed(2)}-${Math.max(...med).toFixed(2)}x; pairs measured again ${blocks.reduce((a, b) => a + (b.discarded || []).length, 0)}`);
console.log(`  runs measured again or left out: ${(raw.discarded || []).filter((r) => !r.warmUp).length}; warm-up runs ${(raw.discarded || []).filter((r) => r.warmUp).length}; ` +
  `repetitions skipped ${JSON.stringify(raw.skipped || [])}`);
console.log(`  CPU 0 busy at most ${pc(Math.max(...raw.runs.map((r) => r.cpu0Busy)))} of a run; CPU 1 held at most ${pc(Math.max(...raw.runs.map((r) => r.held)))}`);
const refs = raw.runs.filter((r) => r.policy === 'fixed-2.6');
console.log(`  hints seen by the ${refs.length} reference runs: ${refs.reduce((a, r) => a + r.seen.own + (r.seen.edge || 0) + r.seen.others, 0)}; ` +
  `commits ${JSON.stringify(raw.commits)}; guest ${JSON.stringify(raw.guest)}`);
