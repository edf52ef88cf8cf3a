'use strict';
// What 8 repetitions can resolve, from the spreads of the last run of this
// design (../2026-12-04-shipped/, 4 repetitions), before this run.
// Per policy and figure: that run's paired standard error scaled to n
// repetitions (se x sqrt(4 / n)), its Welch degrees of freedom scaled as
// (n - 1) / 3, the 95% half-width; and, if the truth were that run's
// estimate, the chance (normal approximation) that the interval lands
// wholly on one side of the target.  A planning figure, not a prediction:
// the code changed since (the hold discount) and the testbed's speed moves.
const path = require('path');
const { t975 } = require(path.join(__dirname, '../../../experiment/paired.js'));
const r = require('../2026-12-04-shipped/results.json');
const targets = { 'eb-gc-marking': [0.136, 1.03], 'eb-queue': [0.163, 1.10], 'eb-gc-marking+queue': [0.212, 1.14] };
const Phi = (z) => 0.5 * (1 + erf(z / Math.SQRT2));
function erf(x) { // Abramowitz-Stegun 7.1.26, |error| < 1.5e-7
  const s = Math.sign(x); x = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * x);
  const y = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return s * y;
}
const f = (x) => x.toFixed(3);
for (const n of [4, 8]) {
  console.log(`n = ${n} repetitions a case (2 cases)`);
  for (const p of r.paired.filter((q) => q.phase === 'headline' && targets[q.policy])) {
    const [cut, energy] = targets[p.policy];
    for (const [name, m, bound] of [['p99.9', p.p999, 1 - cut], ['energy', p.energy, energy]]) {
      const se = m.se * Math.sqrt(4 / n);
      const df = m.df * (n - 1) / 3;
      const half = t975(df) * se;
      const b = Math.log(bound);
      const below = Phi((b - half - m.est) / se);
      const above = Phi((m.est - half - b) / se);
      console.log(`  ${p.policy.padEnd(20)} ${name.padEnd(6)} est ${f(m.est)} (x${Math.exp(m.est).toFixed(2)}) ` +
        `target x${bound.toFixed(3)} (log ${f(b)}): se ${f(se)} df ${df.toFixed(1)} half-width ${f(half)}; ` +
        `P(wholly under) ${below.toFixed(2)}, P(wholly over) ${above.toFixed(2)}`);
    }
  }
}
