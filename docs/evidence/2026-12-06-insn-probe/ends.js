'use strict';
// How insn-ends.log was cut from the plugin's whole log: per vCPU, the two
// count lines before and the two after each /load window's start and end
// (the interpolation reads the one before and the one after).
//   node ends.js LOAD-AGENT.log WHOLE-INSN.log > insn-ends.log
const fs = require('fs');

const [agentPath, insnPath] = process.argv.slice(2);
if (!insnPath) {
	console.error('usage: node ends.js LOAD-AGENT.log WHOLE-INSN.log > insn-ends.log');
	process.exit(2);
}
const ends = fs.readFileSync(agentPath, 'utf8').split('\n').filter((l) => l.startsWith('PROBE '))
	.map((l) => JSON.parse(l.slice(6))).flatMap((p) => [p.t0 * 1e6, p.t1 * 1e6]);
const lines = fs.readFileSync(insnPath, 'utf8').split('\n').filter(Boolean);
const keep = new Set();
for (const v of ['0', '1']) {
	const idx = lines.map((l, i) => [l.split(' '), i]).filter(([f]) => f[1] === v);
	for (const e of ends) {
		let j = idx.findIndex(([f]) => Number(f[0]) > e);
		if (j < 0)
			j = idx.length;
		for (let k = Math.max(0, j - 2); k < Math.min(idx.length, j + 2); k++)
			keep.add(idx[k][1]);
	}
}
process.stdout.write([...keep].sort((a, b) => a - b).map((i) => lines[i]).join('\n') + '\n');
