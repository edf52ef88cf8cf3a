'use strict';
// The plan's readings 1 and 2 (plan.md), from what the report prints for
// each run (node demo/report.js DIR, as make demo printed it):
//   node summarize.js demo/runs/2026-12-05-o-1 demo/runs/2026-12-05-o-2 ...
// Per run, the verdict of each of the report's 8 changes (lower, higher or
// not resolved), then issue 21's demo evidence per run (the overload's p99
// resolved lower and its throughput not resolved lower; strictly, resolved
// higher: addendum.md, item 5) and issue 22's rule
// over the runs (no change printed with a direction has opposite
// directions in two runs).  It checks each run is a default demo of the
// plan: 4 open-loop pairs of three sides, 10 overload pairs.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const top = path.resolve(__dirname, '../../..');
const want = { testbed: 'host', reps: 4, overloadReps: 10, connections: 8, load: 0.6, secs: 20 };

// The report's comparisons in the order it prints them: a heading, then
// its rows ("p99 latency", "mean latency", "throughput").
function verdicts(text) {
  const out = [];
  let load = null;
  let group = null;
  for (const line of text.split('\n')) {
    if (/^1\. Open-loop/.test(line)) load = 'open loop';
    else if (/^2\. Overload/.test(line)) load = 'overload';
    else if (/^=== What eventboost did/.test(line)) load = null;
    const g = line.match(/^ {3}(eventboost on vs off|eventboost's governor alone .*vs off|eventboost on vs its governor alone)/);
    if (g) group = g[1].replace(/ \(.*\)/, '');
    const r = line.match(/^ {2}(p99 latency|mean latency|throughput) +(.*)$/);
    if (load && group && r) {
      const v = /^not resolved/.test(r[2]) ? null : r[2].match(/\): (lower|higher),/)[1];
      out.push({ what: `${load}: ${r[1].replace(' latency', '')}, ${group}`, verdict: v, text: r[2] });
    }
  }
  return out;
}

const runs = process.argv.slice(2).map((dir) => {
  const d = JSON.parse(fs.readFileSync(path.join(dir, 'demo.json'), 'utf8'));
  for (const [k, v] of Object.entries(want)) if (d[k] !== v) throw new Error(`${dir}: ${k} is ${d[k]}, the plan's demo has ${v}`);
  if (d.service.length !== 4 || d.overload.length !== 10) throw new Error(`${dir}: ${d.service.length} open-loop and ${d.overload.length} overload pairs, not 4 and 10`);
  const text = execFileSync('node', [path.join(top, 'demo/report.js'), dir], { encoding: 'utf8' });
  const v = verdicts(text);
  if (v.length !== 8) throw new Error(`${dir}: ${v.length} changes read from the report, not 8`);
  return { dir, v };
});

for (const { dir, v } of runs) {
  console.log(`${path.basename(dir)}:`);
  for (const c of v) console.log(`  ${c.what.padEnd(58)} ${c.verdict || 'not resolved'}`);
  const tp = v.find((c) => c.what === 'overload: throughput, eventboost on vs off');
  const p99 = v.find((c) => c.what === 'overload: p99, eventboost on vs off');
  console.log(`  issue 21's demo evidence (p99 resolved lower, throughput not resolved lower): ${p99.verdict === 'lower' && tp.verdict !== 'lower' ? 'met' : 'not met'}; ` +
    `strictly (throughput resolved higher): ${p99.verdict === 'lower' && tp.verdict === 'higher' ? 'met' : 'not met'}`);
}
const opposite = runs[0].v.map((c, i) => ({ what: c.what, seen: new Set(runs.map((r) => r.v[i].verdict).filter(Boolean)) }))
  .filter((c) => c.seen.size > 1);
console.log(`issue 22's rule over ${runs.length} runs: ${opposite.length ? `not met (${opposite.map((c) => c.what).join('; ')})` : 'met'}`);
