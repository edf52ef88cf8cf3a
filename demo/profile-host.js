'use strict';
// make demo's last step: where the demo service's tail comes from, by the
// profiler (node -r eventboost/profile), which needs no device and no
// guest.  On the host: the service (demo/server.js with the guest's
// settings: 300-row heavy responses, the last 32 kept) on CPU 1, the load
// (experiment/loadgen.js's open loop, the demo's request mix) from this
// process on CPU 0.  First the service alone, unprofiled: a warm-up, then
// its capacity (answered requests per second of its CPU time) at about
// the rate it will see; then a fresh, profiled service, 20 s at 60% of
// that capacity: the profile holds those requests only (and the first
// second's JIT warm-up).
//   node demo/profile-host.js OUTDIR [PORT]
// Writes OUTDIR/profile.json and profile.html, and prints the verdict.
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { openLoop, pathChooser } = require('../experiment/loadgen');

const TOP = path.resolve(__dirname, '..');
const [OUT, PORT_ARG] = process.argv.slice(2);
const PORT = Number(PORT_ARG || 18081);
if (!OUT || !Number.isInteger(PORT) || PORT < 1 || PORT > 65535) {
  console.error('usage: node demo/profile-host.js OUTDIR [PORT]   (PORT: 1..65535, default 18081)');
  process.exit(2);
}
const MIX = pathChooser('/(light|light|light|light|heavy)');
const LOAD = 0.6;
const SECS = 20;
const log = (m) => console.log(`==> ${m}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

// Every service started here, killed however this process ends.
const children = new Set();
process.on('exit', () => { for (const c of children) c.kill('SIGKILL'); });

// demo/server.js on CPU 1, listening on PORT; resolves once it answers.
async function startService(env) {
  const clean = { ...process.env };
  for (const k of Object.keys(clean)) if (k.startsWith('EVENTBOOST')) delete clean[k];
  const args = ['-c', '1', process.execPath, ...(env.EVENTBOOST_PROFILE_OUT
    ? ['-r', path.join(TOP, 'node-binding/profile.js')] : []), path.join(TOP, 'demo/server.js')];
  const child = spawn('taskset', args, {
    env: { ...clean, PORT: String(PORT), HEAVY_ROWS: '300', CACHE_ENTRIES: '32', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.add(child);
  let ended = null;
  child.exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => { ended = { code, signal }; children.delete(child); resolve(ended); });
    child.on('error', (e) => { ended = { error: e.message }; children.delete(child); resolve(ended); });
  });
  for (let i = 0; ; i++) {
    if (ended) throw new Error(`the service ended before it answered: ${JSON.stringify(ended)}`);
    try { if (await get('/light') === 200) return child; } catch { /* not up yet */ }
    if (i > 100) throw new Error(`the service did not answer on 127.0.0.1:${PORT} in 10 s (is the port taken?)`);
    await sleep(100);
  }
}

async function stopService(child) {
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), 10000);
  const end = await child.exited;
  clearTimeout(t);
  return end;
}

function get(p) {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port: PORT, path: p, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    }).on('error', reject);
  });
}

// The service's CPU time so far, s (utime + stime of all its threads).
function cpuSeconds(pid) {
  const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / TICKS;
}

async function load(rate, secs, seed) {
  const r = await openLoop({ port: PORT, rate, secs, warm: 0, grace: 5, seed, path: MIX });
  if (r.errors || r.censored) {
    throw new Error(`${r.errors} of ${r.scheduled} requests failed, ${r.censored} unanswered: ${r.firstError || ''}`);
  }
  return r;
}

async function main() {
  fs.mkdirSync(OUT, { recursive: true });
  const out = path.join(OUT, 'profile.json');
  fs.rmSync(out, { force: true });
  execFileSync('taskset', ['-a', '-pc', '0', String(process.pid)], { stdio: 'ignore' });

  // Capacity, unprofiled: warm up (JIT, heap), then measure near the load
  // it will carry.
  let child = await startService({});
  await load(50, 3, 6);
  const first = await measure(child, 50, 3, 7);
  const rate0 = Math.max(1, Math.round(LOAD * first));
  const capacity = await measure(child, rate0, 5, 8);
  await stopService(child);
  const rate = Math.max(1, Math.round(LOAD * capacity));

  // The profiled run.
  child = await startService({ EVENTBOOST_PROFILE_OUT: out });
  const cpu0 = cpuSeconds(child.pid);
  const t0 = Date.now();
  const run = await load(rate, SECS, 9);
  const busy = (cpuSeconds(child.pid) - cpu0) / ((Date.now() - t0) / 1000);
  const end = await stopService(child);
  log(`profile: capacity on this host ${capacity.toFixed(0)} req/s (CPU 1); ${run.lat.length} requests in ` +
    `${SECS} s at ${rate} req/s, the service busy ${(busy * 100).toFixed(0)}% of the time`);
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

// Answered requests per second of the service's CPU time under @rate.
async function measure(child, rate, secs, seed) {
  const c0 = cpuSeconds(child.pid);
  const r = await load(rate, secs, seed);
  return r.lat.length / Math.max(1 / TICKS, cpuSeconds(child.pid) - c0);
}

main().catch((e) => {
  console.error(`demo profile: ${e.message} (the boost results above stand; this step profiles the service on the host)`);
  process.exit(1);
});
