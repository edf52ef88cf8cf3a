'use strict';
// After the fact, not planned (2026-12-06, after an outside review of the
// reading): what the planned figures of analysis.txt leave open.
//   node posthoc.js [DIR] > DIR/posthoc.txt   (DIR: a probe's files; default this one's)
const path = require('path');
const { mean, variance } = require(path.join(__dirname, '../../../experiment/stats.js'));
const { t975 } = require(path.join(__dirname, '../../../experiment/paired.js'));
const { probe, corr } = require('./analyze-probe.js');

const dir = path.resolve(__dirname, process.argv[2] || '.');
const { runs, pairs } = probe(path.join(dir, 'raw.json.gz'), path.join(dir, 'load-agent.log'),
	path.join(dir, 'insn-ends.log'));
const f3 = (x) => x.toFixed(3);
const sd = (a) => Math.sqrt(variance(a));
const n = pairs.length;
const wc = pairs.map((p) => p.wc), wi = pairs.map((p) => p.wi);

// 1. Are the two spreads different?  They come from the same pairs, so
// not two independent samples: Pitman-Morgan's test of equal variances of
// paired values (the correlation of their sum and difference, t on n - 2 df).
const rSD = corr(wc.map((x, i) => x + wi[i]), wc.map((x, i) => x - wi[i]));
const tPM = rSD * Math.sqrt((n - 2) / (1 - rSD * rSD));
console.log(`1. SD(Wc) ${f3(sd(wc))} against SD(Wi) ${f3(sd(wi))} on the same ${n} pairs (correlation ${corr(wc, wi).toFixed(2)}):`);
console.log(`   Pitman-Morgan: r(sum, difference) = ${rSD.toFixed(3)}, t(${n - 2}) = ${tPM.toFixed(2)} ` +
	`(two-sided 5% critical value ${t975(n - 2).toFixed(3)}): equal spreads ${Math.abs(tPM) > t975(n - 2) ? 'rejected' : 'not rejected'}`);

// 2. The order within a pair: which of the two runs ran first.
const order = [];
for (const p of pairs) {
	const rs = runs.filter((x) => x.r.rep === p.rep);
	const ebFirst = rs[0].r.policy === 'eb-gc-marking';
	// first minus second, in log
	order.push({ ebFirst, c: ebFirst ? p.wc : -p.wc, i: ebFirst ? p.wi : -p.wi });
}
const summ = (xs) => {
	const m = mean(xs), se = sd(xs) / Math.sqrt(xs.length);
	return `mean ${f3(m)} (t(${xs.length - 1}) = ${(m / se).toFixed(2)}), positive in ${xs.filter((x) => x > 0).length} of ${xs.length}`;
};
console.log('\n2. The run that ran first in its pair, minus the second (log):');
console.log(`   cycles: ${summ(order.map((o) => o.c))}`);
console.log(`   user instructions: ${summ(order.map((o) => o.i))}`);
// Wc and Wi with the order's mean effect taken out (a regression on the
// order, one df more spent).
const resid = (key, w) => {
	const s = order.map((o) => (o.ebFirst ? 1 : -1));
	const eff = mean(order.map((o) => o[key]));
	const r = w.map((x, i) => x - s[i] * eff);
	const m = mean(r);
	return Math.sqrt(r.reduce((a, x) => a + (x - m) ** 2, 0) / (n - 2));
};
console.log(`   SD with the order's effect removed (${n - 2} df): Wc ${f3(resid('c', wc))}, Wi ${f3(resid('i', wi))}`);

// 3. The split of Var(Wc) = Var(Wi) + Var(speed) + 2 Cov, speed = Wc - Wi.
const sp = pairs.map((p) => p.speed);
const vc = variance(wc), cov = corr(wi, sp) * sd(wi) * sd(sp);
console.log(`\n3. Var(Wc) ${vc.toExponential(2)} = Var(Wi) ${(100 * variance(wi) / vc).toFixed(0)}% + Var(Wc - Wi) ${(100 * variance(sp) / vc).toFixed(0)}% ` +
	`+ 2 Cov ${(100 * 2 * cov / vc).toFixed(0)}% (8 pairs: each share uncertain by a factor of about 2 either way)`);

// 4. The repetitions count at one estimate: what the SEs alone change.
const seC = sd(pairs.map((p) => p.price + p.wc)) / Math.sqrt(n);
const seI = sd(pairs.map((p) => p.price + p.wi)) / Math.sqrt(n);
const est = mean(pairs.map((p) => p.price + p.wi));
const need = (se, z) => Math.ceil(n * (z * se / Math.abs(est - Math.log(1.03))) ** 2);
console.log(`\n4. Repetitions for a 95% normal interval wholly above 1.03x (a "missed"), both at the instruction-based estimate ${Math.exp(est).toFixed(3)}x:`);
console.log(`   SE in cycles ${f3(seC)}: ~${need(seC, 1.96)} half the time, ~${need(seC, 2.8)} 80%;  SE in user instructions ${f3(seI)}: ~${need(seI, 1.96)}, ~${need(seI, 2.8)}`);

// 5. The host's cost of an instruction (and the kernel's share) by run.
const cpi = runs.map((x) => x.r.busyNsByKhz && Object.entries(x.r.busyNsByKhz).reduce((a, [k, v]) => a + k * v, 0) / 1e6 / x.user);
console.log(`\n5. Cycles per user instruction, first run ${cpi[0].toFixed(2)}, last ${cpi[cpi.length - 1].toFixed(2)} ` +
	`(the references' first ${cpi[runs.findIndex((x) => x.r.policy === 'fixed-2.6')].toFixed(2)}, last ${cpi[runs.map((x) => x.r.policy).lastIndexOf('fixed-2.6')].toFixed(2)}); ` +
	`kernel / user instructions, first ${(runs[0].kernel / runs[0].user).toFixed(2)}, last ${(runs[runs.length - 1].kernel / runs[runs.length - 1].user).toFixed(2)}`);
