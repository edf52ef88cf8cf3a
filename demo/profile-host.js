'use strict';
// make demo's last step: where the demo service's tail comes from, by the
// profiler (node -r eventboost/profile), which needs no device and no
// guest.  On the host: the service (demo/server.js, as the guest runs it,
// with its default 2 000-row heavy responses: the host is some 20x faster
// than the guest) on CPU 1, the load (experiment/loadgen.js's open loop, the
// demo's request mix) from this process on CPU 0.  A warm-up of 6 s
// measures the service's capacity (answered requests per second of its
// CPU time), then 20 s at 60% of it; the profile covers both.
//   node demo/profile-host.js OUTDIR [PORT]
// Writes OUTDIR/profile.json and profile.html, and prints the verdict.
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { openLoop, pathChooser } = require('../experiment/loadgen');

const TOP = path.resolve(__dirname, '..');
const [OUT, PORT_ARG] = process.argv.slice(2);
if (!OUT) {
  console.error('usage: node demo/profile-host.js OUTDIR [PORT]');
  process.exit(2);
}
const PORT = Number(PORT_ARG || 18081);
const MIX = '/(light|light|light|light|heavy)';
const LOAD = 0.6;
const SECS = 20;
const log = (m) => console.log(`==> ${m}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const onCpu = (cpu, pid) => execFileSync('taskset', ['-pc', String(cpu), String(pid)], { stdio: 'ignore' });

function get(p) {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port: PORT, path: p, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    }).on('error', reject);
  });
}

// The server's CPU time so far, s (utime + stime of /proc/PID/stat).
function cpuSeconds(pid) {
  const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100; // USER_HZ: 100 on Linux
}

async function main() {
  fs.mkdirSync(OUT, { recursive: true });
  const out = path.join(OUT, 'profile.json');
  fs.rmSync(out, { force: true });
  onCpu(0, process.pid);
  const child = spawn('taskset', ['-c', '1', process.execPath, '-r', path.join(TOP, 'node-binding/profile.js'),
    path.join(TOP, 'demo/server.js')], {
    env: { ...process.env, PORT: String(PORT), CACHE_ENTRIES: '32', EVENTBOOST_PROFILE_OUT: out },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.on('exit', (code, sig) => resolve({ code, sig })));
  for (let i = 0; ; i++) {
    try { if (await get('/light') === 200) break; } catch { /* not up yet */ }
    if (i > 100) throw new Error(`the service did not answer on 127.0.0.1:${PORT} (is the port taken?)`);
    await sleep(100);
  }
  const path_ = pathChooser(MIX);
  const cpu0 = cpuSeconds(child.pid);
  const warm = await openLoop({ port: PORT, rate: 100, secs: 6, warm: 0, grace: 5, seed: 7, path: path_ });
  const answered = warm.lat.length - warm.censored;
  const capacity = answered / Math.max(0.01, cpuSeconds(child.pid) - cpu0);
  const rate = Math.max(1, Math.round(LOAD * capacity));
  log(`profile: the service's capacity on this host ${capacity.toFixed(0)} req/s; ${SECS} s at ${rate} req/s (60%)`);
  const run = await openLoop({ port: PORT, rate, secs: SECS, warm: 0, grace: 5, seed: 8, path: path_ });
  if (run.errors) throw new Error(`${run.errors} requests failed: ${run.firstError || ''}`);
  child.kill('SIGTERM');
  const end = await exited;
  if (!fs.existsSync(out)) throw new Error(`the profiler wrote no report (the service ended with ${JSON.stringify(end)})`);
  const r = JSON.parse(fs.readFileSync(out, 'utf8'));
  const ms = (x) => `${x.toFixed(1)} ms`;
  const parts = (b) => `I/O ${ms(b.io)}, GC ${ms(b.gc)}, other execution ${ms(b.cpu)}`;
  console.log(`\nWhere the tail comes from (eventboost/profile, on the host, ${r.requests} requests):`);
  console.log(`  tail (>= p${r.tail.percentile}, ${r.tail.count} requests): ${ms(r.tail.latencyMs)} = ${parts(r.tail.breakdownMs)}`);
  console.log(`  typical (< p50, ${r.typical.count}): ${ms(r.typical.latencyMs)} = ${parts(r.typical.breakdownMs)}`);
  console.log(`  ${r.framing}`);
  console.log(`  verdict: the tail is ${r.verdict.cause}; boost: ${r.verdict.boost}. ${r.verdict.advice}`);
  console.log(`  report: ${out}, ${out.replace(/\.json$/, '.html')}`);
}

main().catch((e) => {
  console.error(`demo profile: ${e.message}`);
  process.exit(1);
});
