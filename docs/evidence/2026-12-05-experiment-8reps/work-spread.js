'use strict';
// After the fact, not planned (2026-12-05 evening): where the spread of the
// work a run does (busy cycles) comes from, which left every paired energy
// of this run unresolved, and what longer runs or more repetitions could
// buy.  Reads raw.json.gz only; node work-spread.js > work-spread.txt.
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

const raw = JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(__dirname, 'raw.json.gz'))).toString());
const cycles = (r) => Object.entries(r.busyNsByKhz).reduce((a, [khz, ns]) => a + ns * khz / 1e6, 0);
const mean = (a) => a.reduce((s, v) => s + v, 0) / a.length;
const sd = (a) => Math.sqrt(a.reduce((s, v) => s + (v - mean(a)) ** 2, 0) / (a.length - 1));
const median = (a) => { const s = [...a].sort((x, y) => x - y), n = s.length; return n % 2 ? s[n >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2; };
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
for (const s of services) {
	for (let rep = 0; rep < 8; rep++) {
		const rs = raw.runs.filter((r) => r.service === s && r.rep === rep);
		const iRef = rs.findIndex((r) => r.policy === 'fixed-2.6'), ref = rs[iRef];
		const drift = Math.log(speedMs(s, rep, 'after') / speedMs(s, rep, 'before'));
		rs.forEach((r, i) => {
			if (i === iRef) return;
			const work = Math.log(cycles(r) / cycles(ref));
			const hz = (x) => cycles(x) / Object.values(x.busyNsByKhz).reduce((a, b) => a + b, 0);
			pairs.push({ s, rep, policy: r.policy, work, price: Math.log(hz(r) / hz(ref)),
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
console.log('   from the two runs\' places in the repetition.');
const pred = pairs.map((x) => x.drift);
const r2 = corr(pred, centred);
console.log(`   predicted SD ${f3(sd(pred))}; correlation with the observed (centred) ratios r = ${r2.toFixed(2)} ` +
	`(explains ${(100 * r2 * r2).toFixed(0)}% of their variance)`);
const drifts = [];
for (const s of services) for (let rep = 0; rep < 8; rep++) drifts.push(Math.log(speedMs(s, rep, 'after') / speedMs(s, rep, 'before')));
console.log(`   SD of log(after/before) over the 16 repetitions: ${f3(sd(drifts))}`);
const rm = corr(pairs.map((x) => x.major), centred);
console.log(`   the difference in major GCs within a pair: r = ${rm.toFixed(2)}`);

console.log('\n3. Does a longer run average it away? Spread across repetitions of log(work a request) of fixed-2.6 runs:');
console.log('   the 30 s warm-up runs (not measured) against the 90 s measured runs (both include the seeds\' spread)');
for (const s of services) {
	const w = raw.discarded.filter((r) => r.warmUp && r.service === s).map((r) => Math.log(cycles(r) / r.requests));
	const m = raw.runs.filter((r) => r.policy === 'fixed-2.6' && r.service === s).map((r) => Math.log(cycles(r) / r.requests));
	console.log(`   ${s.padEnd(10)} 30 s: SD ${f3(sd(w))} (n ${w.length});  90 s: SD ${f3(sd(m))} (n ${m.length});  ` +
		`noise that averages within a run would make the 90 s SD ${f3(sd(w) / Math.sqrt(3))}`);
}

console.log('\n4. Price and work in a pair\'s log energy ratio (log energy = log price per cycle + log work):');
for (const p of policies) {
	const xs = pairs.filter((x) => x.policy === p);
	console.log(`   ${p.padEnd(20)} SD log price ${f3(sd(xs.map((x) => x.price)))}, SD log work ${f3(sd(xs.map((x) => x.work)))}`);
}

console.log('\n5. Repetitions a case would need for a 95% paired interval to lie wholly on one side of the target,');
console.log('   were this run\'s point estimate and paired.js\'s standard error (at 8 repetitions) the truth:');
console.log('   8 x (1.96 SE / distance)^2, a rough count (a normal interval; the plan\'s t has fewer df), not a power plan.');
const res = require('./results.json');
for (const t of res.targets) {
	const e = res.paired.find((q) => q.phase === 'headline' && q.policy === t.policy).energy;
	const dist = Math.abs(e.est - Math.log(t.energy));
	console.log(`   ${t.policy.padEnd(20)} energy ${Math.exp(e.est).toFixed(3)}x (SE ${f3(e.se)} in log), target ${t.energy}x, ` +
		`distance ${f3(dist)}: ~${Math.ceil(8 * (1.96 * e.se / dist) ** 2)} repetitions a case (this run: 8)`);
}
