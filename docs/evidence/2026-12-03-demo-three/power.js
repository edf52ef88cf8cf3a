// After the fact, exploratory (not in the plan): per-pair log ratios of the open loop's p99 and mean,
// on vs off and governor alone vs off, pooled over the committed default demo runs given (three
// sides, 4 pairs each); their mean and SD, the pairs a 95% interval would need to exclude zero at
// that mean with even odds, (1.96 SD / mean)^2, the chance that a 4-pair run gets its sign, and
// that three runs agree in sign (normal approximations).
// node docs/evidence/2026-12-03-demo-three/power.js demo/runs/2026-12-0[123]-{sat,e9c5b03,1,a3ae502,537816a,ships}*
const fs = require('fs'), path = require('path');
const r = { on: [], gov: [], onm: [], govm: [] };
for (const dir of process.argv.slice(2)) {
  const f = path.join(dir, 'demo.json'); if (!fs.existsSync(f)) continue;
  const d = JSON.parse(fs.readFileSync(f)); if (!d.service?.[0]?.gov) continue;
  for (const p of d.service) {
    r.on.push(Math.log(p.on.p99 / p.off.p99)); r.gov.push(Math.log(p.gov.p99 / p.off.p99));
    r.onm.push(Math.log(p.on.mean / p.off.mean)); r.govm.push(Math.log(p.gov.mean / p.off.mean));
  }
}
const mean = (a) => a.reduce((x, y) => x + y, 0) / a.length;
const sd = (a) => { const m = mean(a); return Math.sqrt(a.reduce((x, y) => x + (y - m) ** 2, 0) / (a.length - 1)); };
// The normal CDF (Abramowitz and Stegun 7.1.26, |error| < 1.5e-7).
const erf = (x) => { const t = 1 / (1 + 0.3275911 * Math.abs(x)); const y = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x); return x >= 0 ? y : -y; };
const Phi = (z) => 0.5 * (1 + erf(z / Math.SQRT2));
for (const k of Object.keys(r)) {
  const a = r[k], m = mean(a), s = sd(a);
  const need = Math.ceil((1.96 * s / m) ** 2);
  const p4 = Phi(Math.abs(m) / (s / 2)); // P(a 4-pair mean has the pooled sign), normal approx
  // Three runs agree in sign (issue 22's rule) when all have the mean's sign or all the other.
  console.log(`${k}: pairs ${a.length}, mean ${((Math.exp(m) - 1) * 100).toFixed(1)}%, SD ${s.toFixed(3)} (log), pairs for even odds of resolving it ~${need}; P(a 4-pair run has the mean's sign) ${p4.toFixed(2)}, P(three runs agree in sign) ${(p4 ** 3 + (1 - p4) ** 3).toFixed(2)}`);
}
