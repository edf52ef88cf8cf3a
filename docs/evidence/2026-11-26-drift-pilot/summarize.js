'use strict';
// Prints summary.txt from this directory's files: node summarize.js
const fs = require('node:fs');
const zlib = require('node:zlib');
const path = require('node:path');

const med = (a) => { const s = [...a].sort((x, y) => x - y); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const f = (x, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : '-');

// probe.sh lines: round period khz us loc owed_ns spun_ns busy_ns arm
// (arm: emulate_pay_us in probe5 and probe6; in probe4, a variant of the
// driver with a cpu_relax() steal loop (1) or a bare one (0), paying every
// period).  A pair is a 4.0 GHz job and the 2.6 GHz job after it, same arm.
for (const [file, what, arm] of [
  ['probe4.txt', '3G guest, no network; periods 1000 and 4000 us, every period paid', 'cpu_relax'],
  ['probe5.txt', '3G guest, no network; 1000 us period', 'pay_us'],
  ['probe6.txt', '3G guest, the experiment\'s network up (NIC on CPU 1); 1000 us period', 'pay_us'],
  ['net-fwd-irq1.txt', 'as probe6, again', 'pay_us'],
  ['net-fwd-irq0.txt', 'as probe6, the NIC\'s interrupts left on CPU 0', 'pay_us'],
  ['net-nofwd-irq1.txt', 'as probe6, no forwarded ports', 'pay_us'],
  ['net-fwd-down.txt', 'the NIC and its forwarded ports present, the guest\'s network not brought up', 'pay_us'],
  ['net-none.txt', 'no NIC at all', 'pay_us'],
]) {
  const L = fs.readFileSync(path.join(__dirname, file), 'utf8').trim().split('\n').map((l) => l.split(' ').map(Number));
  console.log(`${file}: ${what}`);
  for (const per of [...new Set(L.map((x) => x[1]))]) {
    for (const a of [...new Set(L.map((x) => x[8]))]) {
      const full = L.filter((x) => x[1] === per && x[8] === a && x[2] === 4000000);
      const slow = L.filter((x) => x[1] === per && x[8] === a && x[2] === 2600000);
      const own = slow.map((x) => x[3] / 1000 - x[6] / 1e6);
      console.log(`  period ${per} ${arm} ${a}: ${full.length} pairs, 4.0 GHz ${f(med(full.map((x) => x[3] / 1000)))} ms, ` +
        `2.6 GHz ${f(med(slow.map((x) => x[3] / 1000)))} ms, ratio ${f(med(full.map((x, i) => slow[i][3] / x[3])), 3)}, ` +
        `2.6 GHz job's own time - 4.0 GHz job ${f(med(full.map((x, i) => own[i] - x[3] / 1000)), 1)} ms, ` +
        `spun/owed ${f(med(slow.map((x) => x[6] / x[5])), 4)}`);
    }
  }
}

// Every probe that alternated emulate_pay_us 0 and 2000 (one boot each):
// per pair of pairs (the same round and index), the 2 ms arm's excess less
// the every-period arm's, and a bootstrap 95% interval of its mean (4 000
// resamples, a fixed seed).  The pooling across runs was decided after
// seeing probe5 and probe6, not before.
let seed = 1;
const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const mean = (a) => a.reduce((x, y) => x + y, 0) / a.length;
const ci = (d) => {
  const b = [];
  for (let i = 0; i < 4000; i++) { const s = []; for (let j = 0; j < d.length; j++) s.push(d[Math.floor(rnd() * d.length)]); b.push(mean(s)); }
  b.sort((x, y) => x - y);
  return `[${f(b[100], 1)}, ${f(b[3899], 1)}]`;
};
const pooled = [];
console.log('emulate_pay_us 2000 against 0, the 2.6 GHz job\'s own time less the 4.0 GHz job\'s (mean ms):');
for (const file of ['probe5.txt', 'probe6.txt', 'net-fwd-irq1.txt', 'net-fwd-irq0.txt', 'net-nofwd-irq1.txt', 'net-fwd-down.txt', 'net-none.txt']) {
  const L = fs.readFileSync(path.join(__dirname, file), 'utf8').trim().split('\n').map((l) => l.split(' ').map(Number));
  const excess = (arm) => {
    const full = L.filter((x) => x[8] === arm && x[2] === 4000000);
    const slow = L.filter((x) => x[8] === arm && x[2] === 2600000);
    return full.map((x, i) => slow[i][3] / 1000 - slow[i][6] / 1e6 - x[3] / 1000);
  };
  const e0 = excess(0), e2 = excess(2000);
  const d = e2.map((x, i) => x - e0[i]);
  pooled.push(...d);
  console.log(`  ${file}: ${d.length} pairs each, every period ${f(mean(e0), 1)}, 2 ms lumps ${f(mean(e2), 1)}, difference ${f(mean(d), 1)} ${ci(d)}`);
}
console.log(`  pooled: ${pooled.length} pairs each, difference ${f(mean(pooled), 1)} ${ci(pooled)}`);

// The pilots' calibration blocks (experiment/driver.js, the mixed service).
const pilots = JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(__dirname, 'pilots-calibrations.json.gz'))));
for (const [name, blocks] of Object.entries(pilots)) {
  console.log(`${name}:`);
  for (const b of blocks) {
    const P = b.pairs;
    const st = (j, k) => j.cpu1 && j.cpu1[k];
    const own = (j) => j.ms - (st(j, 'stealSpunNs') || NaN) / 1e6;
    console.log(`  ${b.at.slice(11, 19)} rep ${b.rep} ${b.when} (attempt ${b.attempt}): ratio ${f(med(P.map((p) => p.slow.ms / p.full.ms)), 3)}, ` +
      `own 2.6 / 4.0 ${f(med(P.map((p) => own(p.slow) / p.full.ms)), 3)}, spun/owed ${f(med(P.map((p) => st(p.slow, 'stealSpunNs') / st(p.slow, 'stealOwedNs'))), 4)}, ` +
      `CPU 1 waits ${f(med(P.map((p) => st(p.slow, 'waitNs') / 1e6)), 1)} ms/job, LOC/ms ${f(med(P.map((p) => st(p.full, 'irq:LOC') / p.full.ms)), 2)} ` +
      `${f(med(P.map((p) => st(p.slow, 'irq:LOC') / p.slow.ms)), 2)}, other interrupts ${[...new Set(P.flatMap((p) => Object.keys(p.slow.cpu1 || {}).filter((k) => k.startsWith('irq:') && k !== 'irq:LOC' && k !== 'irq:CAL')))].join(' ') || 'none'}; ` +
      `tasks ${JSON.stringify(b.tasks)}`);
  }
}
