'use strict';
// The plugin's check before the probe (2026-12-06 07:41): job.sh ran in a
// 7.2.13-eb guest (scripts/guest.sh, EB_QEMU_OPTS="-plugin
// insn_count.so,out=insn.log"), a fixed job (sha256sum of the same 8 MB)
// four times on CPU 1 between wall-clock marks.  node check.js prints each
// job's vCPU 1 user and kernel instructions between its marks.
const fs = require('fs');
const zlib = require('zlib');
const path = require('path');
const rows = zlib.gunzipSync(fs.readFileSync(path.join(__dirname, 'insn.log.gz'))).toString().split('\n')
	.map((l) => l.split(' ')).filter((f) => f.length === 4 && f[1] === '1').map((f) => f.map(Number))
	.sort((a, b) => a[0] - b[0]);
const at = (t) => {
	const i = rows.findIndex((r) => r[0] > t);
	const [t0, , u0, k0] = rows[i - 1], [t1, , u1, k1] = rows[i];
	const f = (t - t0) / (t1 - t0);
	return [u0 + f * (u1 - u0), k0 + f * (k1 - k0)];
};
const marks = fs.readFileSync(path.join(__dirname, 'marks.txt'), 'utf8').split('\n').filter((l) => l.startsWith('mark')).map((l) => l.split(' '));
for (let i = 0; i + 1 < marks.length; i += 2) {
	const [u0, k0] = at(Number(marks[i][1])), [u1, k1] = at(Number(marks[i + 1][1]));
	console.log(`job ${marks[i][3]}: ${((Number(marks[i + 1][1]) - Number(marks[i][1])) / 1e6).toFixed(0)} ms, user ${((u1 - u0) / 1e8).toFixed(3)}e8, kernel ${((k1 - k0) / 1e7).toFixed(2)}e7`);
}
