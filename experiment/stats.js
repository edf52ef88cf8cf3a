'use strict';
// The small statistics make experiment's scripts share (driver.js,
// analyze.js, paired.js, and the evidence scripts that recompute them), so
// that a figure means the same in each.

// The nearest-rank percentile of ascending @sorted: the smallest value with
// at least a share @q of the values at or below it (p99.9 of 2 000
// requests: the 1 998th).
const pct = (sorted, q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : NaN);
const mean = (xs) => (xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : NaN);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n ? (n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2) : NaN; };
// The sample variance (n - 1).
const variance = (xs) => {
  const m = mean(xs);
  return xs.length > 1 ? xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1) : NaN;
};

// Student's t with @df degrees of freedom (rounded down: wider, never
// narrower): P(|T| <= @t), by the finite series for whole degrees of
// freedom (Abramowitz and Stegun 26.7.3 and 26.7.4).
function tCentral(t, df) {
  const d = Math.floor(df);
  const th = Math.atan(t / Math.sqrt(d));
  const c = Math.cos(th) ** 2;
  let sum = 1;
  let term = 1;
  if (d % 2) {
    for (let k = 3; k <= d - 1; k += 2) sum += (term *= (c * (k - 1)) / k);
    return d === 1 ? (2 * th) / Math.PI : (2 / Math.PI) * (th + Math.sin(th) * Math.cos(th) * sum);
  }
  for (let k = 2; k <= d - 2; k += 2) sum += (term *= (c * (k - 1)) / k);
  return Math.sin(th) * sum;
}

// Its quantile @p (above 0.5): the half-width, in standard errors, of a
// two-sided interval at level 2p - 1.
function tQuantile(p, df) {
  if (!(df >= 1) || !(p > 0.5 && p < 1)) return NaN;
  let lo = 0;
  let hi = 1;
  while (tCentral(hi, df) < 2 * p - 1) hi *= 2;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (tCentral(mid, df) < 2 * p - 1) lo = mid;
    else hi = mid;
  }
  return hi;
}

module.exports = { pct, mean, median, variance, tQuantile };
