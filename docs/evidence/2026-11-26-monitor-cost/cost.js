'use strict';
// What Queue-Boost's machinery costs CPU 1 with the clock's effect removed
// (emulate_fixed_pct=100: a frequency changes no time), from a raw.json[.gz]
// of config.json's design: per repetition, each policy's CPU 1 busy time and
// thread CPU times over the same repetition's fixed-2.6 run (hooks off),
// and the monitor thread's CPU time per pass (looks and wake-ups).
//   node cost.js RAW.json.gz
const fs = require('fs');
const zlib = require('zlib');
const f = process.argv[2];
const r = JSON.parse(f.endsWith('.gz') ? zlib.gunzipSync(fs.readFileSync(f)) : fs.readFileSync(f));
const busy = (x) => Object.values(x.busyNsByKhz).reduce((a, c) => a + c, 0);
const med = (a) => { const s = [...a].sort((p, q) => p - q); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const out = {};
for (const [svc, rep] of [...new Set(r.runs.map((x) => `${x.service}\t${x.rep}`))].map((k) => k.split('\t'))) {
  const rs = r.runs.filter((x) => x.service === svc && String(x.rep) === rep);
  const ref = rs.find((x) => x.policy === 'fixed-2.6');
  for (const x of rs) {
    if (x === ref) continue;
    const passes = x.monitor.samples + x.monitor.wakeups;
    (out[`${svc} ${x.policy}`] ||= []).push({ rep, order: rs.map((y) => y.policy).join(' > '), busy: busy(x) / busy(ref),
      loop: x.threadCpuNs.loop / ref.threadCpuNs.loop, monitorOfRef: x.threadCpuNs.monitor / busy(ref),
      usPerPass: passes ? x.threadCpuNs.monitor / 1e3 / passes : null, passesPerRequest: passes / x.requests,
      usPerRequest: x.threadCpuNs.monitor / 1e3 / x.requests });
  }
}
const rates = [...new Set(r.runs.map((x) => `${x.service} ${x.rate}/s`))].join(', ');
console.log(`${f}: ${r.runs.length} runs (${rates}), ${r.secs} s each`);
for (const [p, xs] of Object.entries(out)) {
  for (const x of xs) {
    console.log(`  ${p} rep ${x.rep} (${x.order}): busy ${x.busy.toFixed(3)}x, loop thread ${x.loop.toFixed(3)}x` +
      (x.usPerPass ? `, monitor ${(100 * x.monitorOfRef).toFixed(1)}% of the reference's busy time, ` +
        `${x.passesPerRequest.toFixed(2)} passes a request, ${x.usPerPass.toFixed(1)} us each, ${x.usPerRequest.toFixed(0)} us a request` : ''));
  }
  console.log(`  ${p}: median busy ${med(xs.map((x) => x.busy)).toFixed(3)}x` +
    (xs[0].usPerPass ? `, monitor ${(100 * med(xs.map((x) => x.monitorOfRef))).toFixed(1)}% of the reference's busy time, ` +
      `${med(xs.map((x) => x.passesPerRequest)).toFixed(2)} passes a request, ${med(xs.map((x) => x.usPerPass)).toFixed(1)} us each, ` +
      `${med(xs.map((x) => x.usPerRequest)).toFixed(0)} us of monitor CPU time a request` : ''));
}
