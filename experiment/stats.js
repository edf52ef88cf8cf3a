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

module.exports = { pct, mean, median, variance };
