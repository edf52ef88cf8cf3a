'use strict';
// reading.md, item 4 (decided before the run): each warm-up run's work a
// request beside the measured reference runs' of its service, in run order.
//   node warm-up-work.js [RAW.json.gz]   (default: this directory's)
// Work: CPU 1's cycles (busy ns x kHz / 1e6) over the run, warm-up seconds and
// grace included, over the requests of the whole arrival span (the measured
// ones x (secs + warm) / secs): a 30 s warm-up and a 90 s run then compare.
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { cycles } = require('../../../experiment/cpu1');
const { mean } = require('../../../experiment/stats');

const file = process.argv[2] || path.join(__dirname, 'raw.json.gz');
const buf = fs.readFileSync(file);
const raw = JSON.parse(file.endsWith('.gz') ? zlib.gunzipSync(buf) : buf);
const perRequest = (r) => cycles(r.busyNsByKhz) / 1e12 / (r.requests * (r.secs + raw.warm) / r.secs);
// A repetition measured again ran its warm-up again: the last one of each
// is its measured runs' (driver.js marks the others voided from the commit
// after this run's code; this run keeps them, in the order they ran).
const last = new Map();
for (const r of (raw.discarded || []).filter((x) => x.warmUp && !x.voided)) last.set(`${r.service}|${r.phase}|${r.rep}`, r);
const warmUps = [...last.values()];
console.log('service     phase     rep  warm-up (Mcycles a request)  its repetition\'s reference  ratio');
const ratios = {};
for (const w of warmUps) {
  const ref = raw.runs.find((r) => r.policy === w.policy && r.service === w.service && r.phase === w.phase && r.rep === w.rep);
  if (!ref) continue;
  const ratio = perRequest(w) / perRequest(ref);
  (ratios[w.service] = ratios[w.service] || []).push(Math.log(ratio));
  console.log(`${w.service.padEnd(12)}${w.phase.padEnd(10)}${String(w.rep).padEnd(5)}${perRequest(w).toFixed(2).padEnd(29)}` +
    `${perRequest(ref).toFixed(2).padEnd(28)}${ratio.toFixed(2)}x`);
}
for (const [svc, lr] of Object.entries(ratios)) {
  console.log(`${svc}: the warm-up's work a request ${Math.exp(mean(lr)).toFixed(2)}x its repetition's reference run's (geometric mean of ${lr.length})`);
}
