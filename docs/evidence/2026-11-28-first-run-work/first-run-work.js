'use strict';
// Written after reading 2026-11-28-default-candidate's runs (post hoc, not a
// pre-registered statistic): does a run's work (CPU 1's cycles, busy time x
// clock) against its repetition's fixed 2.6 GHz run depend on which run came
// first after the repetition's calibration block (driver.js: `after` null)?
//   node first-run-work.js [EVIDENCE-DIR...]   (default: every run with an order)
// first-run-work.txt's row `experiment` is the 2026-11-26 evening run, in
// experiment/ then and in docs/evidence/2026-11-26-second-full-run/ since
// 2026-12-02: run today, the script lists it under that name, and the
// runs committed after 2026-11-28 besides.
// Per committed run, never pooled across runs (capacities and testbeds differ):
// the geometric mean of an eventboost policy's work ratio when it ran first,
// when the reference ran first, and when neither did.
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { cycles } = require('../../../experiment/cpu1');
const { mean } = require('../../../experiment/stats');
const { firstMeasured: first } = require('../../../experiment/order');
const gm = (xs) => (xs.length ? `${Math.exp(mean(xs)).toFixed(2)}x (${xs.length})` : '-');
const top = path.join(__dirname, '..', '..', '..');
const dirs = process.argv.length > 2 ? process.argv.slice(2)
  : [...fs.readdirSync(path.join(top, 'docs/evidence')).map((d) => path.join(top, 'docs/evidence', d)), path.join(top, 'experiment')];
console.log('run (raw.json.gz)                 policy first       reference first    neither first      policy first > neither');
for (const dir of dirs.sort()) {
  const f = path.join(dir, 'raw.json.gz');
  if (!fs.existsSync(f)) continue;
  const raw = JSON.parse(zlib.gunzipSync(fs.readFileSync(f)));
  if (!raw.runs.length || raw.runs.some((r) => r.after === undefined)) continue; // no run order recorded
  const got = { policy: [], reference: [], neither: [] };
  const key = (r) => `${r.phase}|${r.service}|${r.rep}|${r.loadFactor}`;
  for (const k of new Set(raw.runs.map(key))) {
    const rs = raw.runs.filter((r) => key(r) === k);
    const ref = rs.find((r) => r.policy === 'fixed-2.6');
    if (!ref) continue;
    for (const r of rs.filter((x) => x !== ref && x.gov === 'eventboost')) {
      const lr = Math.log(cycles(r.busyNsByKhz) / cycles(ref.busyNsByKhz));
      // First: after the calibration block, or after the warm-up run that
      // follows it (designs with warmUpSecs, from 2026-11-28, afternoon).
      (first(r) ? got.policy : first(ref) ? got.reference : got.neither).push(lr);
    }
  }
  if (!got.policy.length && !got.reference.length && !got.neither.length) continue;
  const more = got.policy.length && got.neither.length ? (mean(got.policy) > mean(got.neither) ? 'yes' : 'no') : '-';
  console.log(`${path.basename(dir).padEnd(34)}${gm(got.policy).padEnd(19)}${gm(got.reference).padEnd(19)}${gm(got.neither).padEnd(19)}${more}`);
}
