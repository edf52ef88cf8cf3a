'use strict';
// The two probes together, as mixed/plan.md fixed before probe 2's run:
// the SDs of a pair's log work ratio by cycles (Wc) and by user
// instructions (Wi) over both probes' pairs, each probe's (service's)
// mean removed, read by ../plan.md's bounds.  node pooled.js > pooled.txt
const path = require('path');
const { probe, sdInterval, corr } = require('../analyze-probe.js');

const here = __dirname, up = path.join(__dirname, '..');
const probes = [
	['heavy-json', probe(path.join(up, 'raw.json.gz'), path.join(up, 'load-agent.log'), path.join(up, 'insn-ends.log'))],
	['mixed', probe(path.join(here, 'raw.json.gz'), path.join(here, 'load-agent.log'), path.join(here, 'insn-ends.log'))],
];
const f3 = (x) => x.toFixed(3);
// Pooled SD with each group's mean removed: sum of squares over n - groups.
function pooledSd(groups) {
	let ss = 0, n = 0;
	for (const xs of groups) {
		const m = xs.reduce((a, x) => a + x, 0) / xs.length;
		ss += xs.reduce((a, x) => a + (x - m) ** 2, 0);
		n += xs.length;
	}
	return { sd: Math.sqrt(ss / (n - groups.length)), df: n - groups.length };
}
for (const [name, p] of probes)
	console.log(`${name}: ${p.pairs.length} pairs${p.unmatched.length ? ` (left out: ${p.unmatched.join('; ')})` : ''}`);
const wc = pooledSd(probes.map(([, p]) => p.pairs.map((x) => x.wc)));
const wi = pooledSd(probes.map(([, p]) => p.pairs.map((x) => x.wi)));
const [cLo, cHi] = sdInterval(wc.sd, wc.df + 1), [iLo, iHi] = sdInterval(wi.sd, wi.df + 1);
console.log(`pooled, each service's mean removed (${wc.df} df):`);
console.log(`   by cycles (Wc):            SD ${f3(wc.sd)} (95% ${f3(cLo)} to ${f3(cHi)})`);
console.log(`   by user instructions (Wi): SD ${f3(wi.sd)} (95% ${f3(iLo)} to ${f3(iHi)})`);
console.log(`   SD(Wi) / SD(Wc) = ${(wi.sd / wc.sd).toFixed(2)}`);
let reading;
if (wc.sd < 0.06) reading = 'unresolved: SD(Wc) below 0.06, too little spread to tell';
else if (wi.sd <= 0.5 * wc.sd && iHi < wc.sd) reading = 'mostly the host\'s speed';
else if (wi.sd >= 0.8 * wc.sd) reading = 'mostly the server\'s own work';
else reading = 'unresolved (between the plan\'s bounds)';
console.log(`the reading fixed in ../plan.md: ${reading}`);

// Added before probe 2's run (mixed/plan.md, "Added 08:30").
const { t975 } = require(path.join(up, '../../../experiment/paired.js'));
const centred = (key) => probes.flatMap(([, p]) => {
	const m = p.pairs.reduce((a, x) => a + x[key], 0) / p.pairs.length;
	return p.pairs.map((x) => x[key] - m);
});
const cc = centred('wc'), ci = centred('wi');
const rPM = corr(cc.map((x, i) => x + ci[i]), cc.map((x, i) => x - ci[i]));
const dfPM = cc.length - 2 - probes.length;
const tPM = rPM * Math.sqrt(dfPM / (1 - rPM * rPM));
const smaller = Math.abs(tPM) > t975(dfPM) && wi.sd < wc.sd;
console.log(`Pitman-Morgan on the centred pairs: r(sum, difference) = ${rPM.toFixed(3)}, t(${dfPM}) = ${tPM.toFixed(2)} ` +
	`(critical ${t975(dfPM).toFixed(3)}): ${smaller ? 'the instructions spread less than the cycles' : 'equal spreads not rejected'}`);
// The first run of a pair minus the second, both probes' 16 pairs.
const firstMinusSecond = (key) => probes.flatMap(([, p]) => p.pairs.map((x) => {
	const ebFirst = p.runs.find((y) => y.r.rep === x.rep).r.policy === 'eb-gc-marking';
	return ebFirst ? x[key] : -x[key];
}));
for (const [name, key] of [['cycles', 'wc'], ['user instructions', 'wi']]) {
	const d = firstMinusSecond(key);
	const m = d.reduce((a, v) => a + v, 0) / d.length;
	const s = Math.sqrt(d.reduce((a, v) => a + (v - m) ** 2, 0) / (d.length - 1));
	console.log(`first run minus second, ${name}: mean ${f3(m)} (t(${d.length - 1}) = ${(m / (s / Math.sqrt(d.length))).toFixed(2)}), ` +
		`positive in ${d.filter((v) => v > 0).length} of ${d.length}`);
}
