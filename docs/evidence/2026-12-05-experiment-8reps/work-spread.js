'use strict';
// After the fact, not planned (2026-12-05 evening): where the spread of the
// work a run does (busy cycles) comes from, which left every paired energy
// of this run unresolved, and what longer runs or more repetitions could
// buy.  Reads raw.json.gz and results.json; node work-spread.js >
// work-spread.txt.  Revised after an outside review the same evening
// (price per cycle as paired.js defines it, power stated with the
// repetition counts, intervals on r and on the SD ratio).
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const { energyMj } = require(path.join(__dirname, '../../../experiment/power-model.js'));
const { mean, median, variance } = require(path.join(__dirname, '../../../experiment/stats.js'));
const cpu1 = require(path.join(__dirname, '../../../experiment/cpu1.js'));

const raw = JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(__dirname, 'raw.json.gz'))).toString());
// (only ratios of cycles are used: cpu1.js's unit, kHz x ns, cancels)
const cycles = (r) => cpu1.cycles(r.busyNsByKhz);
const sd = (a) => Math.sqrt(variance(a));
const corr = (x, y) => {
	const mx = mean(x), my = mean(y);
	let sxy = 0, sxx = 0, syy = 0;
	x.forEach((_, i) => { sxy += (x[i] - mx) * (y[i] - my); sxx += (x[i] - mx) ** 2; syy += (y[i] - my) ** 2; });
	return sxy / Math.sqrt(sxx * syy);
};
const services = ['heavy-json', 'mixed'];
const policies = ['eb-gc-marking', 'eb-queue', 'eb-gc-marking+queue'];
// A calibration block's speed: the median time of its 4.0 GHz jobs.
const speedMs = (s, rep, when) => {
	const b = raw.calibrations.filter((c) => c.service === s && c.rep === rep && c.when === when && !c.voided).pop();
	return median(b.pairs.map((p) => p.full.ms));
};

// Each eb- run against its repetition's reference (runs in raw.json are in
// the order they ran within a repetition).
const pairs = [];
const drifts = [];  // each repetition's log(after/before)
for (const s of services) {
	for (let rep = 0; rep < 8; rep++) {
		const rs = raw.runs.filter((r) => r.service === s && r.rep === rep);
		const iRef = rs.findIndex((r) => r.policy === 'fixed-2.6'), ref = rs[iRef];
		const drift = Math.log(speedMs(s, rep, 'after') / speedMs(s, rep, 'before'));
		drifts.push(drift);
		rs.forEach((r, i) => {
			if (i === iRef) return;
			const work = Math.log(cycles(r) / cycles(ref));
			// price per cycle as paired.js has it: the power model's energy
			// over the busy cycles
			const price = (x) => energyMj(x.busyNsByKhz) / cycles(x);
			pairs.push({ s, rep, policy: r.policy, work, price: Math.log(price(r) / price(ref)),
				drift: drift * (i - iRef) / (rs.length - 1), major: r.v8gc.major - ref.v8gc.major });
		});
	}
}
const f3 = (x) => x.toFixed(3);
console.log('A run\'s work: its busy cycles (sum over clocks of busy ns x kHz); a pair: an eb- run and its repetition\'s');
console.log('fixed-2.6 run (same service, repetition and arrivals). log ratios, natural log.\n');
console.log('1. Spread of a pair\'s log work ratio, by policy (both services pooled, 16 pairs each):');
for (const p of policies) {
	const w = pairs.filter((x) => x.policy === p).map((x) => x.work);
	console.log(`   ${p.padEnd(20)} mean ${f3(mean(w))}, SD ${f3(sd(w))}`);
}
const centred = pairs.map((x) => {
	const same = pairs.filter((y) => y.s === x.s && y.policy === x.policy).map((y) => y.work);
	return x.work - mean(same);
});
console.log(`   all 48, each service-policy mean removed: SD ${f3(sd(centred))}`);

console.log('\n2. Is it the host\'s speed drifting across a repetition? Each repetition has a calibration block before');
console.log('   and after it (a fixed job at 4.0 GHz); a linear drift between them predicts a pair\'s log work ratio');
console.log('   from the two runs\' places among the repetition\'s four (approximate: the warm-up run and the blocks\'');
console.log('   own time are left out of the places).  Only a linear drift between the two blocks is tested.');
const pred = pairs.map((x) => x.drift);
const r2 = corr(pred, centred);
// Fisher's z interval, as if the 48 pairs were independent (they are 16
// groups of 3 sharing a reference run: the true interval is wider).
const z = Math.atanh(r2), hw = 1.96 / Math.sqrt(pairs.length - 3);
console.log(`   predicted SD ${f3(sd(pred))}; correlation with the observed (centred) ratios r = ${r2.toFixed(2)} ` +
	`(95% ${Math.tanh(z - hw).toFixed(2)} to ${Math.tanh(z + hw).toFixed(2)} were the pairs independent, wider as they are not; ` +
	`r^2 ${(100 * r2 * r2).toFixed(0)}%, up to ${(100 * Math.tanh(z + hw) ** 2).toFixed(0)}%)`);
console.log(`   SD of log(after/before) over the 16 repetitions: ${f3(sd(drifts))}`);
const rm = corr(pairs.map((x) => x.major), centred);
console.log(`   the difference in major GCs within a pair: r = ${rm.toFixed(2)}`);

console.log('\n3. Does a longer run average it away? Spread across repetitions of log(work a request) of fixed-2.6 runs:');
console.log('   the 30 s warm-up runs (not measured) against the 90 s measured runs (both include the seeds\' spread).');
console.log('   Not like for like: a warm-up always runs first, after the calibration block, on a fresh server; the');
console.log('   measured reference at any of the four places, after other policies ran on that server.  The ratio');
console.log('   of two SDs of 8 runs each (7 df) is uncertain by about x0.45 to x2.2 at 95% (F(7,7) 4.99).');
for (const s of services) {
	const w = raw.discarded.filter((r) => r.warmUp && r.policy === 'fixed-2.6' && r.service === s).map((r) => Math.log(cycles(r) / r.requests));
	const m = raw.runs.filter((r) => r.policy === 'fixed-2.6' && r.service === s).map((r) => Math.log(cycles(r) / r.requests));
	const q = sd(m) / sd(w), f = Math.sqrt(4.99);
	console.log(`   ${s.padEnd(10)} 30 s: SD ${f3(sd(w))} (n ${w.length});  90 s: SD ${f3(sd(m))} (n ${m.length});  ratio ${q.toFixed(2)} ` +
		`(95% ${(q / f).toFixed(2)} to ${(q * f).toFixed(2)});  noise that averages within a run: ratio 0.58`);
}

console.log('\n4. Price and work in a pair\'s log energy ratio (log energy = log price per cycle + log work):');
for (const p of policies) {
	const xs = pairs.filter((x) => x.policy === p);
	console.log(`   ${p.padEnd(20)} SD log price ${f3(sd(xs.map((x) => x.price)))}, SD log work ${f3(sd(xs.map((x) => x.work)))}`);
}

console.log('\n5. Repetitions a case would need for a 95% paired interval to lie wholly above the target (a "missed":');
console.log('   every estimate here is above it), were this run\'s point estimate and paired.js\'s standard error (at 8');
console.log('   repetitions) the truth: 8 x (z SE / distance)^2 with z = 1.96 (half the time) or 1.96 + 0.84 (80% of the');
console.log('   time); a normal interval (the plan\'s t has fewer df), a rough count, not a power plan.  Where the');
console.log('   distance is a fraction of the SE the count says little but "not on this testbed".');
const res = require('./results.json');
for (const t of res.targets) {
	const e = res.paired.find((q) => q.phase === 'headline' && q.policy === t.policy).energy;
	const dist = Math.abs(e.est - Math.log(t.energy));
	const n = (zz) => Math.ceil(8 * (zz * e.se / dist) ** 2);
	console.log(`   ${t.policy.padEnd(20)} energy ${Math.exp(e.est).toFixed(3)}x (SE ${f3(e.se)} in log), target ${t.energy}x, ` +
		`distance ${f3(dist)}: ~${n(1.96)} repetitions a case (half the time), ~${n(1.96 + 0.84)} (80%); this run: 8`);
}
