'use strict';
// make experiment's analysis: medians over repetitions, energy from the
// power model below, a table, results.json and results.svg.
//   node analyze.js RAW.json DESTDIR
const fs = require('node:fs');
const path = require('node:path');

// ---- Power model --------------------------------------------------------
// Dynamic power P = C * f * V(f)^2 with the published data of a real core:
// the Cortex-A76 cores of the Rockchip RK3588 as Linux describes them
// (arch/arm64/boot/dts/rockchip/rk3588-base.dtsi: dynamic-power-coefficient
// 416 uW/MHz/V^2; rk3588-opp.dtsi: OPPs 1.2-2.4 GHz at 0.675-1.0 V).  Our
// emulated range 0.8-4.0 GHz maps onto that part's by f / f_max, so the
// emulated 4.0 GHz is the A76 at 2.4 GHz, 1.0 V; below the lowest OPP the
// voltage stays at its floor (0.675 V).  Static (leakage) power while busy:
// 10% of peak dynamic power, scaled with V; idle cores are power-gated and
// cost nothing.  Energy = sum over frequencies of busy time x P(f).
const COEFF_UW_PER_MHZ_V2 = 416;
const OPP = [[1200, 0.675], [1416, 0.725], [1608, 0.7625], [1800, 0.85], [2016, 0.925], [2208, 0.9875], [2400, 1.0]];
const EMU_MAX_KHZ = 4000000;
const LEAK_SHARE = 0.10;

function volts(mhz) {
  if (mhz <= OPP[0][0]) return OPP[0][1];
  for (let i = 1; i < OPP.length; i++) {
    const [f1, v1] = OPP[i];
    const [f0, v0] = OPP[i - 1];
    if (mhz <= f1) return v0 + (v1 - v0) * (mhz - f0) / (f1 - f0);
  }
  return OPP[OPP.length - 1][1];
}
function powerMw(khz) {
  const mhz = (khz / EMU_MAX_KHZ) * OPP[OPP.length - 1][0];
  const v = volts(mhz);
  const peak = COEFF_UW_PER_MHZ_V2 * OPP[OPP.length - 1][0] * 1.0 / 1000;
  return COEFF_UW_PER_MHZ_V2 * mhz * v * v / 1000 + LEAK_SHARE * peak * v / 1.0;
}
const energyMj = (busy) => Object.entries(busy).reduce((e, [khz, ns]) => e + powerMw(Number(khz)) * ns / 1e9, 0);

// ---- Aggregation -----------------------------------------------------------
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n ? (n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2) : NaN; };
const [rawFile, dest] = process.argv.slice(2);
const raw = JSON.parse(fs.readFileSync(rawFile, 'utf8'));
const runs = raw.runs;
for (const r of runs) {
  r.energy = energyMj(r.busyNsByKhz);
  // Work done, in cycles: busy time x frequency.  Against the reference it
  // tells a policy that costs energy by its clock from one that makes the
  // service do more (V8 collecting more often, say).
  r.cycles = Object.entries(r.busyNsByKhz).reduce((c, [khz, ns]) => c + Number(khz) * ns, 0);
  const tis = r.timeInState10ms;
  const total = Object.values(tis).reduce((a, b) => a + b, 0);
  r.boostedShare = total ? (tis[EMU_MAX_KHZ] || 0) / total : 0;
  r.hintsPerSec = r.kernel ? r.kernel.hints / r.wall : 0;
}
const key = (r) => `${r.service}|${r.loadFactor}|${r.rep}`;
const base = new Map(runs.filter((r) => r.policy === 'fixed-2.6').map((r) => [key(r), r]));
// Energy and work per second relative to the fixed-base run of the same
// service, rate and repetition (the same requests were offered to both).
for (const r of runs) {
  const b = base.get(key(r));
  r.energyRel = b ? (r.energy / r.wall) / (b.energy / b.wall) : NaN;
  r.workRel = b ? (r.cycles / r.wall) / (b.cycles / b.wall) : NaN;
}
// Percentiles of all repetitions' requests pooled (a run alone holds a few
// hundred requests: too few for a p99.9); the spread is that of the runs.
const pct = (sorted, q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : NaN);
const groups = new Map();
for (const r of runs) {
  const k = `${r.service}|${r.loadFactor}|${r.policy}`;
  if (!groups.has(k)) groups.set(k, []);
  groups.get(k).push(r);
}
const fields = ['p50', 'p99', 'p999', 'rps', 'energyRel', 'workRel', 'boostedShare', 'hintsPerSec'];
for (const g of groups.values()) {
  if (new Set(g.map((r) => r.rate)).size > 1) {
    console.error(`analyze: ${g[0].service} ${g[0].policy} at ${g[0].loadFactor} of capacity ran at different rates ` +
      `(${g.map((r) => r.rate).join(', ')} req/s): their requests cannot be pooled; extend a run with EXPERIMENT_EXTEND`);
    process.exit(1);
  }
}
const rows = [...groups.values()].map((g) => {
  const o = { service: g[0].service, loadFactor: g[0].loadFactor, rate: g[0].rate, policy: g[0].policy, n: g.length };
  for (const f of fields) {
    const xs = g.map((r) => r[f]).filter(Number.isFinite);
    o[f] = median(xs);
    o[`${f}Spread`] = xs.length ? [Math.min(...xs), Math.max(...xs)] : null;
  }
  const lat = g.flatMap((r) => r.latMs || []).sort((a, b) => a - b);
  o.requests = lat.length;
  o.expected = g.reduce((a, r) => a + (r.expected || 0), 0);
  o.errors = g.reduce((a, r) => a + (r.errors || 0), 0);
  if (lat.length) [o.p50, o.p99, o.p999] = [0.5, 0.99, 0.999].map((q) => pct(lat, q));
  return o;
});
for (const o of rows) {
  const b = rows.find((x) => x.service === o.service && x.loadFactor === o.loadFactor && x.policy === 'fixed-2.6');
  o.p99Reduction = b ? 1 - o.p99 / b.p99 : NaN;
  o.p999Reduction = b ? 1 - o.p999 / b.p999 : NaN;
}
// Per policy over all services and rates: medians of the per-case medians.
const policies = [...new Set(rows.map((r) => r.policy))];
const overall = policies.map((p) => {
  const rs = rows.filter((r) => r.policy === p);
  return { policy: p, cases: rs.length, p99Reduction: median(rs.map((r) => r.p99Reduction)), p999Reduction: median(rs.map((r) => r.p999Reduction)),
    energyRel: median(rs.map((r) => r.energyRel)), workRel: median(rs.map((r) => r.workRel)), boostedShare: median(rs.map((r) => r.boostedShare)),
    hintsPerSec: median(rs.map((r) => r.hintsPerSec)) };
});
// The noise floor: how far the reference's own repetitions lie apart (the
// same server, policy and rate at another time): max/min of its runs' p99
// per case.  A policy's change smaller than that is not told from noise.
const refSpread = rows.filter((r) => r.policy === 'fixed-2.6' && r.n > 1 && r.p99Spread && r.p99Spread[0] > 0)
  .map((r) => r.p99Spread[1] / r.p99Spread[0]);
const noise = refSpread.length ? { cases: refSpread.length, p99MaxOverMin: median(refSpread),
  p99MaxOverMinRange: [Math.min(...refSpread), Math.max(...refSpread)] } : null;
const PUBLISHED = [
  { policy: 'published GC boost', p99Reduction: 0.136, energyRel: 1.03 },
  { policy: 'published queue boost', p99Reduction: 0.163, energyRel: 1.10 },
  { policy: 'published GC+queue+tuning', p99Reduction: 0.212, energyRel: 1.14 },
  { policy: 'published Rubik', p99Reduction: 0.080, energyRel: 1.22 },
  { policy: 'published Adrenaline', p99Reduction: 0.133, energyRel: 1.56 },
];
// Against each published point: the eventboost policy of this run with the
// largest p99.9 reduction at no more than that point's energy.  The point
// is matched (the frontier dominates it there) when that reduction is at
// least the published one.
const frontier = PUBLISHED.map((pub) => {
  const within = overall.filter((o) => o.policy.startsWith('eb-') && o.energyRel <= pub.energyRel);
  const best = within.sort((a, b) => b.p999Reduction - a.p999Reduction)[0] || null;
  return { published: pub.policy, tailReduction: pub.p99Reduction, energyRel: pub.energyRel,
    ours: best && best.policy, oursP999Reduction: best ? best.p999Reduction : null,
    oursEnergyRel: best ? best.energyRel : null, matched: Boolean(best && best.p999Reduction >= pub.p99Reduction) };
});

// ---- Table ---------------------------------------------------------------
const share = (x) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : '-');
const num = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '-');
console.log(`\n${runs.length} runs of ${raw.secs} s, ${raw.reps} repetitions, under QEMU/TCG with emulated DVFS (ratios only)`);
const short = rows.filter((r) => r.requests < 0.98 * r.expected || r.errors);
for (const r of short) console.log(`  note: ${r.service} ${r.policy} at ${r.rate}/s: ${r.requests} of ${r.expected} requests completed, ${r.errors} errors`);
console.log('');
const hdr = ['service', 'load', 'policy', 'p50 ms', 'p99 ms', 'p99.9 ms', 'req/s', 'p99 cut', 'p99.9 cut', 'energy', 'work', 'boosted', 'hints/s'];
const w = [12, 5, 19, 8, 8, 9, 7, 8, 9, 7, 6, 8, 8];
const line = (cells) => console.log(cells.map((c, i) => String(c).padEnd(w[i])).join(' '));
line(hdr);
for (const r of rows.sort((a, b) => a.service.localeCompare(b.service) || a.loadFactor - b.loadFactor)) {
  line([r.service, `${Math.round(r.loadFactor * 100)}%`, r.policy, num(r.p50), num(r.p99), num(r.p999), num(r.rps),
    share(r.p99Reduction), share(r.p999Reduction), `${num(r.energyRel, 2)}x`, `${num(r.workRel, 2)}x`, share(r.boostedShare), num(r.hintsPerSec, 0)]);
}
console.log('\nAll services and rates (medians of the cases): tail reduction, energy and work (cycles) vs fixed 2.6 GHz');
for (const o of overall) {
  console.log(`  ${o.policy.padEnd(28)} p99 ${share(o.p99Reduction).padStart(7)}   p99.9 ${share(o.p999Reduction).padStart(7)}   ` +
    `energy ${num(o.energyRel, 2)}x   work ${num(o.workRel, 2)}x`);
}
for (const o of PUBLISHED) console.log(`  ${o.policy.padEnd(28)} tail ${share(o.p99Reduction).padStart(6)}   energy ${num(o.energyRel, 2)}x`);
console.log('\nAgainst the published points (the best eventboost policy at no more energy, by p99.9):');
for (const f of frontier) {
  console.log(`  ${f.published.padEnd(28)} ${share(f.tailReduction).padStart(6)} at ${num(f.energyRel, 2)}x: ` +
    (f.ours ? `${f.ours} ${share(f.oursP999Reduction)} at ${num(f.oursEnergyRel, 2)}x, ${f.matched ? 'matched' : 'short'}` : 'none of ours at that energy'));
}
if (noise) {
  console.log(`\nNoise: fixed 2.6 GHz's own repetitions differ in p99 by ${num(noise.p99MaxOverMin, 2)}x (median of ${noise.cases} cases; ` +
    `${num(noise.p99MaxOverMinRange[0], 2)}-${num(noise.p99MaxOverMinRange[1], 2)}x): changes within that are not told from noise.`);
}

// ---- Picture: tail reduction vs energy --------------------------------------
function svg() {
  const W = 760; const H = 480; const L = 70; const R = 220; const T = 40; const B = 60;
  const pts = [...overall.map((o) => ({ ...o, ours: true })), ...PUBLISHED];
  const xs = pts.map((p) => p.energyRel).filter(Number.isFinite);
  const ys = pts.flatMap((p) => [p.p99Reduction, p.p999Reduction]).filter(Number.isFinite);
  const x0 = Math.min(0.9, ...xs); const x1 = Math.max(1.7, ...xs);
  const y0 = Math.min(-0.05, ...ys); const y1 = Math.max(0.3, ...ys);
  const X = (v) => L + (v - x0) / (x1 - x0) * (W - L - R);
  const Y = (v) => H - B - (v - y0) / (y1 - y0) * (H - T - B);
  const colors = { 'eb-gc': '#1b9e77', 'eb-gc-pauses': '#8dd3c7', 'eb-gc-marking': '#0b5e47', 'eb-queue': '#7570b3', 'eb-gc+queue': '#d95f02', 'eb-gc-marking+queue': '#a63603', 'eb-gc+queue+tuning': '#e7298a', oracle: '#66a61e',
    'fixed-2.6': '#444', 'fixed-3.3': '#777', 'fixed-4.0': '#999', schedutil: '#a6761d', ondemand: '#e6ab02' };
  let s = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">\n`;
  s += `<rect width="${W}" height="${H}" fill="white"/>\n`;
  s += `<text x="${L}" y="24" font-size="15">Tail reduction vs energy, both against a fixed 2.6 GHz (up and left is better)</text>\n`;
  s += `<text x="${L}" y="${H - 4}" font-size="10" fill="#555">dot: p99, ring: p99.9 (ours, emulated DVFS under QEMU/TCG); squares: the published tail figures</text>\n`;
  const step = x1 - x0 > 1 ? 0.2 : 0.1;
  for (let v = Math.ceil(x0 / step) * step; v <= x1 + 1e-9; v += step) {
    s += `<line x1="${X(v)}" y1="${T}" x2="${X(v)}" y2="${H - B}" stroke="#eee"/><text x="${X(v)}" y="${H - B + 16}" text-anchor="middle">${v.toFixed(1)}x</text>\n`;
  }
  for (let v = Math.ceil(y0 * 20) / 20; v <= y1 + 1e-9; v += 0.05) {
    s += `<line x1="${L}" y1="${Y(v)}" x2="${W - R}" y2="${Y(v)}" stroke="#eee"/><text x="${L - 6}" y="${Y(v) + 4}" text-anchor="end">${Math.round(v * 100)}%</text>\n`;
  }
  s += `<text x="${(L + W - R) / 2}" y="${H - 20}" text-anchor="middle">energy (power model, relative)</text>\n`;
  s += `<text transform="translate(18 ${(T + H - B) / 2}) rotate(-90)" text-anchor="middle">tail latency reduction</text>\n`;
  let ly = T + 10;
  for (const p of pts) {
    if (!Number.isFinite(p.energyRel) || !Number.isFinite(p.p99Reduction)) continue;
    const c = p.ours ? (colors[p.policy] || '#000') : '#bbb';
    // Ours: filled at the p99 reduction, a ring at the p99.9 reduction.
    const ring = p.ours && Number.isFinite(p.p999Reduction)
      ? `<circle cx="${X(p.energyRel)}" cy="${Y(p.p999Reduction)}" r="6" fill="none" stroke="${c}" stroke-width="2"/>` +
        `<line x1="${X(p.energyRel)}" y1="${Y(p.p99Reduction)}" x2="${X(p.energyRel)}" y2="${Y(p.p999Reduction)}" stroke="${c}" stroke-dasharray="2 2"/>`
      : '';
    const shape = p.ours ? `<circle cx="${X(p.energyRel)}" cy="${Y(p.p99Reduction)}" r="6" fill="${c}"/>${ring}`
      : `<rect x="${X(p.energyRel) - 5}" y="${Y(p.p99Reduction) - 5}" width="10" height="10" fill="none" stroke="#555"/>`;
    s += `${shape}\n`;
    if (!p.ours) s += `<text x="${X(p.energyRel) + 8}" y="${Y(p.p99Reduction) + 4}" fill="#555" font-size="11">${p.policy.replace('published ', '')}</text>\n`;
    s += `${p.ours ? `<circle cx="${W - R + 20}" cy="${ly - 4}" r="5" fill="${c}"/>` : `<rect x="${W - R + 15}" y="${ly - 9}" width="10" height="10" fill="none" stroke="#555"/>`}<text x="${W - R + 32}" y="${ly}">${p.ours ? p.policy : p.policy.replace('published ', 'published: ')}</text>\n`;
    ly += 18;
  }
  return `${s}</svg>\n`;
}

fs.mkdirSync(dest, { recursive: true });
fs.writeFileSync(path.join(dest, 'results.json'), JSON.stringify({
  note: 'Measured under QEMU/TCG with ebtest_cpufreq emulate=1 (emulated DVFS); energy from the power model in analyze.js; ratios to fixed 2.6 GHz.',
  secs: raw.secs, reps: raw.reps, powerModel: { coeffUwPerMhzV2: COEFF_UW_PER_MHZ_V2, opp: OPP, emuMaxKhz: EMU_MAX_KHZ, leakShare: LEAK_SHARE },
  overall, noise, published: PUBLISHED, frontier, cases: rows,
}, null, 1));
fs.writeFileSync(path.join(dest, 'results.svg'), svg());
