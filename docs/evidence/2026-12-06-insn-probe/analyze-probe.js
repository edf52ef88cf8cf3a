'use strict';
// The probe's analysis, as plan.md fixed it before the run:
//   node analyze-probe.js RAW.json[.gz] LOAD-AGENT.log INSN.log > analysis.txt
// A run's work by busy cycles (raw.json) and by vCPU 1's user-space
// instructions over its /load request (the load agent's PROBE lines give
// its wall-clock window, insn_count.so's log the running counts).
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const top = path.join(__dirname, '../../..');
const { energyMj } = require(path.join(top, 'experiment/power-model.js'));
const { mean, variance } = require(path.join(top, 'experiment/stats.js'));
const { meanOverCases } = require(path.join(top, 'experiment/paired.js'));
const cpu1 = require(path.join(top, 'experiment/cpu1.js'));

const cycles = (r) => cpu1.cycles(r.busyNsByKhz);

// One probe's runs joined to their counts, and its pairs.
function probe(rawPath, agentPath, insnPath) {
	const rawBuf = fs.readFileSync(rawPath);
	const raw = JSON.parse((rawPath.endsWith('.gz') ? zlib.gunzipSync(rawBuf) : rawBuf).toString());
	const probes = fs.readFileSync(agentPath, 'utf8').split('\n')
		.filter((l) => l.startsWith('PROBE ')).map((l) => JSON.parse(l.slice(6)));

	// insn_count.so's lines: "<realtime ns> <vcpu> <user> <kernel>", vCPU 1's.
	const series = [];
	for (const l of fs.readFileSync(insnPath, 'utf8').split('\n')) {
		const f = l.split(' ');
		if (f.length === 4 && f[1] === '1') series.push(f.map(Number));
	}
	series.sort((a, b) => a[0] - b[0]);
	// The running counts at @tNs, linear between the two lines around it.
	function countsAt(tNs) {
		let lo = 0, hi = series.length - 1;
		if (!series.length || tNs < series[0][0] || tNs > series[hi][0]) throw new Error(`no counts around ${tNs}`);
		while (hi - lo > 1) {
			const mid = (lo + hi) >> 1;
			if (series[mid][0] <= tNs) lo = mid; else hi = mid;
		}
		const [t0, , u0, k0] = series[lo], [t1, , u1, k1] = series[hi];
		const f = t1 > t0 ? (tNs - t0) / (t1 - t0) : 0;
		return { user: u0 + f * (u1 - u0), kernel: k0 + f * (k1 - k0), gapMs: (t1 - t0) / 1e6 };
	}

	// Each measured run's PROBE line: the lines of its seed and length, in the
	// order they ran, against the runs of that seed and length in raw.json's
	// order.  A repetition with a run measured again (more lines than runs)
	// is left out, and said so.
	const runs = [];
	const unmatched = [];
	for (const seed of [...new Set(raw.runs.map((r) => r.seed))]) {
		const rs = raw.runs.filter((r) => r.seed === seed);
		const ls = probes.filter((p) => p.seed === seed && p.secs === rs[0].secs);
		if (ls.length !== rs.length) {
			unmatched.push(`seed ${seed}: ${rs.length} runs, ${ls.length} load requests`);
			continue;
		}
		rs.forEach((r, i) => {
			const w = ls[i];
			const a = countsAt(w.t0 * 1e6), b = countsAt(w.t1 * 1e6);
			runs.push({ r, w, user: b.user - a.user, kernel: b.kernel - a.kernel,
				maxGapMs: Math.max(a.gapMs, b.gapMs), windowS: (w.t1 - w.t0) / 1e3 });
		});
	}
	// Pairs: eb-gc-marking against the same repetition's reference.
	const pairs = [];
	for (const rep of [...new Set(runs.map((x) => x.r.rep))].sort((a, b) => a - b)) {
		const ref = runs.find((x) => x.r.rep === rep && x.r.policy === 'fixed-2.6');
		const eb = runs.find((x) => x.r.rep === rep && x.r.policy === 'eb-gc-marking');
		if (!ref || !eb) continue;
		const price = (x) => energyMj(x.r.busyNsByKhz) / cycles(x.r);
		pairs.push({ rep, wc: Math.log(cycles(eb.r) / cycles(ref.r)), wi: Math.log(eb.user / ref.user),
			wk: Math.log(eb.kernel / ref.kernel), price: Math.log(price(eb) / price(ref)),
			speed: Math.log((cycles(eb.r) / eb.user) / (cycles(ref.r) / ref.user)) });
	}
	return { raw, runs, unmatched, pairs };
}

const f3 = (x) => x.toFixed(3);
const sd = (a) => Math.sqrt(variance(a));
// A 95% interval for an SD from n values (chi-square with n - 1 df, by the
// Wilson-Hilferty approximation: within 2% of the exact ends at 7 df).
function sdInterval(s, n) {
	const df = n - 1;
	const q = (z) => df * (1 - 2 / (9 * df) + z * Math.sqrt(2 / (9 * df))) ** 3;
	return [s * Math.sqrt(df / q(1.96)), s * Math.sqrt(df / q(-1.96))];
}
const corr = (x, y) => {
	const mx = mean(x), my = mean(y);
	let sxy = 0, sxx = 0, syy = 0;
	x.forEach((_, i) => { sxy += (x[i] - mx) * (y[i] - my); sxx += (x[i] - mx) ** 2; syy += (y[i] - my) ** 2; });
	return sxy / Math.sqrt(sxx * syy);
};

module.exports = { probe, sdInterval, corr };
if (require.main !== module) return;
const [rawPath, agentPath, insnPath] = process.argv.slice(2);
if (!insnPath) {
	console.error('usage: node analyze-probe.js RAW.json[.gz] LOAD-AGENT.log INSN.log');
	process.exit(2);
}
const { raw, runs, unmatched, pairs } = probe(rawPath, agentPath, insnPath);
console.log(`runs in raw.json: ${raw.runs.length}; matched to a load request: ${runs.length}` +
	(unmatched.length ? `; left out: ${unmatched.join('; ')}` : ''));
console.log(`window vs the run's own wall time: largest difference ${Math.max(...runs.map((x) => Math.abs(x.windowS - x.r.wall))).toFixed(2)} s; ` +
	`largest gap between count lines at a window's end ${Math.max(...runs.map((x) => x.maxGapMs)).toFixed(0)} ms`);
console.log('\nper run (rep, policy): requests, cycles (1e9), user and kernel instructions (1e9), cycles per user instruction (the emulated clock\'s, host-timed)');
for (const x of runs) {
	console.log(`  ${x.r.rep} ${x.r.policy.padEnd(14)} ${String(x.r.requests).padStart(5)} ${(cycles(x.r) / 1e15).toFixed(2).padStart(7)} ` +
		`${(x.user / 1e9).toFixed(2).padStart(7)} ${(x.kernel / 1e9).toFixed(2).padStart(7)} ${(cycles(x.r) / 1e6 / x.user).toFixed(3)}`);
}

const n = pairs.length;
const wc = pairs.map((p) => p.wc), wi = pairs.map((p) => p.wi);
const [cLo, cHi] = sdInterval(sd(wc), n), [iLo, iHi] = sdInterval(sd(wi), n);
console.log(`\n1. A pair's log work ratio (eb-gc-marking / fixed-2.6, same repetition), ${n} pairs:`);
console.log(`   by cycles (Wc):            mean ${f3(mean(wc))}, SD ${f3(sd(wc))} (95% ${f3(cLo)} to ${f3(cHi)})`);
console.log(`   by user instructions (Wi): mean ${f3(mean(wi))}, SD ${f3(sd(wi))} (95% ${f3(iLo)} to ${f3(iHi)})`);
console.log(`   (kernel instructions, the steal spins among them: SD ${f3(sd(pairs.map((p) => p.wk)))})`);
console.log(`   SD(Wi) / SD(Wc) = ${(sd(wi) / sd(wc)).toFixed(2)}`);
let reading;
if (sd(wc) < 0.06) reading = 'unresolved: SD(Wc) below 0.06, too little spread in this run to tell';
else if (sd(wi) <= 0.5 * sd(wc) && iHi < sd(wc)) reading = 'mostly the host\'s speed';
else if (sd(wi) >= 0.8 * sd(wc)) reading = 'mostly the server\'s own work';
else reading = 'unresolved (between the plan\'s bounds)';
console.log(`2. The reading fixed in plan.md: ${reading}`);

const refs = runs.filter((x) => x.r.policy === 'fixed-2.6');
const cpi = runs.map((x) => Math.log(cycles(x.r) / x.user));
console.log('\n3. log(cycles / user instructions) per run (the host\'s cost of an instruction, and the kernel\'s share):');
console.log(`   SD over the ${runs.length} runs ${f3(sd(cpi))}; its within-pair difference (Wc - Wi, by construction) SD ${f3(sd(pairs.map((p) => p.speed)))}, ` +
	`against Wc: r = ${corr(pairs.map((p) => p.speed), wc).toFixed(2)}, against Wi: r = ${corr(pairs.map((p) => p.speed), wi).toFixed(2)}`);
console.log(`   the reference's log work a request over its ${refs.length} runs: by cycles SD ${f3(sd(refs.map((x) => Math.log(cycles(x.r) / x.r.requests))))}, ` +
	`by user instructions SD ${f3(sd(refs.map((x) => Math.log(x.user / x.r.requests))))}`);

// 4. Exploratory: energy = price per cycle x work, work in user instructions.
const show = (m) => !m ? 'n/a (fewer than 2 pairs)' : `${Math.exp(m.est).toFixed(3)}x [${Math.exp(m.lo).toFixed(3)}x, ${Math.exp(m.hi).toFixed(3)}x] (SE ${f3(m.se)} in log)`;
const eCycles = meanOverCases([pairs.map((p) => p.price + p.wc)]);
const eInsn = meanOverCases([pairs.map((p) => p.price + p.wi)]);
console.log('\n4. Exploratory, not a verdict: GC-Boost\'s paired energy (95% t intervals, paired.js\'s meanOverCases)');
console.log(`   price per cycle ${show(meanOverCases([pairs.map((p) => p.price)]))}`);
console.log(`   x work in cycles:            ${show(eCycles)}`);
console.log(`   x work in user instructions: ${show(eInsn)}`);
const need = (m, target, z) => Math.ceil(n * (z * m.se / Math.abs(m.est - Math.log(target))) ** 2);
for (const [name, m] of [['cycles', eCycles], ['user instructions', eInsn]].filter(([, m]) => m)) {
	console.log(`   repetitions for a 95% interval clear of 1.03x at this estimate and SE (work in ${name}): ` +
		`~${need(m, 1.03, 1.96)} half the time, ~${need(m, 1.03, 1.96 + 0.84)} 80% of the time`);
}
