'use strict';
// Inside the experiment guest (run_in_guest.sh starts it on CPU 0): every
// service x rate x policy, alternating policies, repeated; each run records
// oha's latencies (open loop, coordinated omission corrected), the server
// CPU's busy time per frequency (ebtest_cpufreq emulate=1), its time in
// state and eventboost's counters.  Writes OUT/raw.json.
//   node driver.js OUT
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const OUT = process.argv[2];
const TOP = path.resolve(__dirname, '..');
const OHA = process.env.OHA;
const EBCTL = path.join(TOP, 'build/userlib/ebctl');
const CF = '/sys/devices/system/cpu/cpufreq';
const QUICK = process.env.EXPERIMENT_QUICK === '1';
// 14 s: every run starts from a full GC (control.js gc=1) and must still
// hold the major GC cycle that follows it, ~12.5 s later at heavy-json's
// lower rate: that cycle is what makes its tail.
const SECS = Number(process.env.EXPERIMENT_SECONDS || (QUICK ? 4 : 14));
const WARM = 1; // seconds at the run's rate and clock before measuring
const REPS = Number(process.env.EXPERIMENT_REPS || (QUICK ? 1 : 2));
// EXPERIMENT_EXTEND=RAW.json: add REPS repetitions to an earlier run's,
// at its rates (capacity is measured anew only for services it lacks).
// Its runs are kept, and the new ones numbered after its, so that the
// rotation starts where one longer run's would.
const PRIOR = process.env.EXPERIMENT_EXTEND ? JSON.parse(fs.readFileSync(process.env.EXPERIMENT_EXTEND, 'utf8')) : null;
if (PRIOR && PRIOR.secs !== SECS) {
  throw new Error(`EXPERIMENT_EXTEND: its runs last ${PRIOR.secs} s, these ${SECS} s: set EXPERIMENT_SECONDS=${PRIOR.secs}`);
}
const RATES = (process.env.EXPERIMENT_RATES || (QUICK ? '0.5' : '0.5,0.8')).split(',').map(Number);
const app = '/tmp/experiment-app';

const log = (m) => console.log(`==> ${m}`);
const sh = (cmd, args, opts = {}) => execFileSync(cmd, args, { encoding: 'utf8', ...opts });
const write = (f, v) => fs.writeFileSync(f, String(v));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The services: the demo's allocation-heavy endpoint, the demo's light and
// heavy mix, and json-server (a real open-source application).
// Sizes keep a heavy request at a few ms natively (~100 ms under TCG), so
// a run of a few seconds holds enough requests for its percentiles.
// heavy-json and mixed keep a cache of recent results (CACHE_ENTRIES): with
// it V8's GC takes 13-17% of the service's CPU (natively, perf_hooks), as
// in the allocation-heavy services of the published work; without it ~3%.
const CACHE = { CACHE_ENTRIES: '512' };
const SERVICES = [
  { name: 'heavy-json', script: path.join(TOP, 'demo/server.js'), env: { HEAVY_ROWS: '200', ...CACHE },
    path: '/heavy', ready: '/light', tail: '^/heavy$' },
  { name: 'mixed', script: path.join(TOP, 'demo/server.js'), env: { HEAVY_ROWS: '300', ...CACHE },
    path: '/(light|light|light|light|heavy)', regex: true, ready: '/light', tail: '^/heavy$' },
  { name: 'json-server',
    script: path.join(TOP, 'experiment/node_modules/json-server/lib/cli/bin.js'),
    args: (port) => ['--quiet', '--port', String(port), '/tmp/experiment-db.json'],
    path: '/(posts|posts/1[0-9]|posts/2[0-9]|comments/3[0-9]|posts/4[0-9])', regex: true,
    ready: '/profile', tail: '^/posts$' },
];

// Policies of the server's policy (CPU 1); CPU 0 (load generator) stays at
// 4.0 GHz.  eb: eventboost's hooks in the server (switched at run time by
// control.js); node: V8 flags, which need a server process of their own.
const POLICIES = [
  { name: 'fixed-2.6', gov: 'eventboost', eb: 'off' },
  { name: 'fixed-3.3', gov: 'eventboost', eb: 'off', base: 3300000 },
  { name: 'fixed-4.0', gov: 'performance' },
  { name: 'schedutil', gov: 'schedutil' },
  { name: 'ondemand', gov: 'ondemand' },
  { name: 'eb-gc', gov: 'eventboost', eb: 'gc' },
  // GC-Boost of the pauses alone, to show what boosting the marking adds.
  { name: 'eb-gc-pauses', gov: 'eventboost', eb: 'gcpause' },
  { name: 'eb-queue', gov: 'eventboost', eb: 'queue' },
  { name: 'eb-gc+queue', gov: 'eventboost', eb: 'all' },
  { name: 'eb-gc+queue+tuning', gov: 'eventboost', eb: 'all', node: ['--max-semi-space-size=2'] },
  { name: 'oracle', gov: 'eventboost', eb: 'off', oracle: true },
  // GC-Boost of the major GC cycles alone (no scavenges), to show what
  // boosting the scavenges costs, and that with Queue-Boost.
  { name: 'eb-gc-marking', gov: 'eventboost', eb: 'gcmark' },
  { name: 'eb-gc-marking+queue', gov: 'eventboost', eb: 'allmark' },
];

// EXPERIMENT_SERVICES / EXPERIMENT_POLICIES (comma-separated names) narrow
// the run, as make check's pipeline test does; fixed-2.6 is the reference
// and always runs.
function pick(all, env, what) {
  if (!env) return all;
  const unknown = env.split(',').filter((n) => !all.some((x) => x.name === n));
  if (unknown.length) throw new Error(`EXPERIMENT_${what}: no ${unknown.join(', ')} (there are: ${all.map((x) => x.name).join(', ')})`);
  return all.filter((x) => env.split(',').includes(x.name) || x.name === 'fixed-2.6');
}
const services = pick(SERVICES, process.env.EXPERIMENT_SERVICES, 'SERVICES');
const policies = pick(POLICIES, process.env.EXPERIMENT_POLICIES, 'POLICIES');

function setGovernor(p) {
  write(`${CF}/policy0/scaling_governor`, 'performance');
  write(`${CF}/policy1/scaling_governor`, 'performance');
  write(`${CF}/policy1/scaling_governor`, p.gov);
  if (p.gov === 'eventboost') {
    // Selecting the governor anew restores its defaults.  The experiment
    // measures policies, not the budget or the watchdog: a major GC lasts
    // hundreds of ms under TCG, past the default 100 ms watchdog.
    write(`${CF}/policy1/eventboost/base_freq`, p.base || 0);
    write(`${CF}/policy1/eventboost/budget_pct`, 100);
    write(`${CF}/policy1/eventboost/max_boost_us`, 10000000);
  }
}

// The policy's governor, and its hooks in the server that serves it.
function setPolicy(srv, p) {
  setGovernor(p);
  const q = `eb=${p.eb || 'off'}&oracle=${p.oracle ? 1 : 0}&gc=1`;
  const r = JSON.parse(sh('wget', ['-q', '-O', '-', `http://127.0.0.1:${srv.controlPort}/policy?${q}`]));
  if (p.eb && p.eb !== 'off' && !r.active) throw new Error(`${p.name}: eventboost inactive: ${r.reason}`);
}

function busy() { // CPU 1's busy ns per kHz
  const out = {};
  for (const m of fs.readFileSync('/dev/ebtest_cpufreq', 'utf8').matchAll(/^busy 1 (\d+) (\d+)$/gm)) out[m[1]] = Number(m[2]);
  return out;
}

function timeInState() {
  return Object.fromEntries(fs.readFileSync(`${CF}/policy1/stats/time_in_state`, 'utf8').trim().split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number)));
}

function kernelStats() {
  try {
    const j = JSON.parse(sh(EBCTL, ['status', '--json'], { stdio: ['ignore', 'pipe', 'ignore'] }));
    const p = j.policies.find((x) => x.policy === 1);
    return p && p.eventboost ? p.eventboost : null;
  } catch { return null; }
}

// oha from the guest's tmpfs, without the TLS roots it would read on every
// start (over the guest's 9p root, uncached, that cost ~15 s a call under
// TCG); this process is already pinned to CPU 0 and oha inherits that.
const OHA_ENV = { ...process.env, SSL_CERT_FILE: '/dev/null', SSL_CERT_DIR: '/tmp/oha-no-certs', TOKIO_WORKER_THREADS: '1' };

function oha(server, args, format = 'json') {
  const a = ['--no-tui', '--output-format', format, ...args];
  if (server.svc.regex) a.push('--rand-regex-url');
  a.push(`http://127.0.0.1:${server.port}${server.svc.path}`);
  const out = sh('/tmp/oha', a, { maxBuffer: 64 << 20, env: OHA_ENV });
  return format === 'json' ? JSON.parse(out) : out;
}

// One open-loop run at RATE for WARM + SECS seconds: every request's
// latency from its scheduled start (coordinated omission corrected), those
// scheduled in the first WARM seconds dropped.  oha waits for requests
// still in flight at the deadline (-w), so none is lost from the tail.
function openLoop(server, rate) {
  const csv = oha(server, ['-z', `${WARM + SECS}s`, '-q', String(rate), '-c', '64', '--latency-correction', '-w'], 'csv');
  const lat = [];
  let errors = 0;
  for (const line of csv.split('\n').slice(1)) {
    const f = line.split(',');
    if (f.length < 7 || Number(f[0]) < WARM) continue;
    if (f[6] !== '200') errors++;
    lat.push(Number(f[4]) * 1e3);
  }
  return { lat: lat.sort((x, y) => x - y), errors };
}

// One server process per service serves every policy that needs no V8
// flags of its own, its hooks switched between runs (control.js): a
// separate process per policy can differ in JIT and heap state, and that
// difference would be measured as the policy's.  A policy with V8 flags
// has its own server, warmed up alike.
const servers = new Map();
let nextPort = 8100;

async function server(svc, p) {
  const key = `${svc.name}|${p.node ? p.name : 'shared'}`;
  if (servers.has(key)) return servers.get(key);
  const port = nextPort;
  const controlPort = nextPort + 1;
  nextPort += 2;
  const env = { ...process.env, ...(svc.env || {}), PORT: String(port), CONTROL_PORT: String(controlPort), ORACLE_URLS: svc.tail };
  delete env.EVENTBOOST;
  const args = ['-c', '1', process.execPath, ...(p.node || []), '-r', path.join(TOP, 'experiment/control.js')];
  args.push(svc.script, ...(svc.args ? svc.args(port) : []));
  const t0 = Date.now();
  const child = spawn('taskset', args, { cwd: app, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => { err += d; });
  for (let i = 0; i < 600; i++) {
    try {
      sh('wget', ['-q', '-O', '/dev/null', `http://127.0.0.1:${port}${svc.ready}`]);
      const s = { svc, port, controlPort, child };
      servers.set(key, s);
      log(`${svc.name}: server for ${p.name} up on :${port} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      return s;
    } catch { await sleep(100); }
  }
  child.kill('SIGKILL');
  throw new Error(`${svc.name} did not start: ${err}`);
}

async function stopServers() {
  for (const s of servers.values()) {
    const done = new Promise((r) => s.child.on('exit', r));
    s.child.kill('SIGTERM');
    setTimeout(() => s.child.kill('SIGKILL'), 3000).unref();
    await done;
  }
  servers.clear();
}

const pct = (sorted, q) => sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : NaN;

async function run(svc, p, rate) {
  const srv = await server(svc, p);
  setPolicy(srv, p);
  const b0 = busy();
  const t0 = timeInState();
  const k0 = kernelStats();
  const w0 = Date.now();
  const { lat, errors } = openLoop(srv, rate);
  const wall = (Date.now() - w0) / 1000;
  const b1 = busy();
  const t1 = timeInState();
  const k1 = kernelStats();
  const diff = (a, b) => Object.fromEntries(Object.keys(b).map((k) => [k, b[k] - (a[k] || 0)]));
  return {
    service: svc.name, policy: p.name, rate, wall, secs: SECS,
    // Requests scheduled in the measured seconds and completed; expected rate x SECS.
    requests: lat.length, expected: Math.round(rate * SECS), errors,
    rps: lat.length / SECS,
    p50: pct(lat, 0.5), p99: pct(lat, 0.99), p999: pct(lat, 0.999),
    latMs: lat.map((x) => Math.round(x * 100) / 100),
    busyNsByKhz: diff(b0, b1), timeInState10ms: diff(t0, t1),
    kernel: k0 && k1 ? {
      hints: (k1.hints.gc + k1.hints.queue + k1.hints.timed) - (k0.hints.gc + k0.hints.queue + k0.hints.timed),
      boosts: k1.boosts - k0.boosts, boostedNs: k1.boosted_ns - k0.boosted_ns,
      governedNs: k1.governed_ns - k0.governed_ns,
      watchdogEnds: k1.watchdog_ends - k0.watchdog_ends, budgetEnds: k1.budget_ends - k0.budget_ends,
    } : null,
  };
}

async function main() {
  fs.mkdirSync(`${app}/node_modules`, { recursive: true });
  fs.mkdirSync('/tmp/oha-no-certs', { recursive: true });
  fs.copyFileSync(OHA, '/tmp/oha');
  fs.chmodSync('/tmp/oha', 0o755);
  fs.rmSync(`${app}/node_modules/eventboost`, { force: true });
  fs.symlinkSync(path.join(TOP, 'node-binding'), `${app}/node_modules/eventboost`);
  sh(process.execPath, [path.join(__dirname, 'make-db.js'), '/tmp/experiment-db.json', '100']);
  const runs = PRIOR ? [...PRIOR.runs] : [];
  const save = () => fs.writeFileSync(path.join(OUT, 'raw.json'),
    JSON.stringify({ secs: SECS, reps: new Set(runs.map((r) => r.rep)).size, runs }, null, 1));
  const started = Date.now();
  const sum = (b) => Object.values(b).reduce((a, x) => a + x, 0);
  for (const svc of services) {
    // Start the service's servers (hooks off) and warm each up alike (JIT,
    // heap) at the fastest clock.
    const own = [];
    for (const p of policies) {
      const s = await server(svc, p);
      if (!own.includes(s)) own.push(s);
    }
    setGovernor(POLICIES.find((p) => p.name === 'fixed-4.0'));
    for (const s of own) oha(s, ['-z', '6s', '-c', '4']);
    setGovernor(POLICIES[0]);
    // Capacity: requests per second of CPU 1's busy time (its loop, its
    // helper threads, the emulated clock's stolen time) at 2.6 GHz under
    // the open-loop load of a run, on the shared server; closed-loop
    // throughput overstates it (keep-alive connections, no bursts).  The
    // other servers serve the same load, so that all are warmed alike.
    const shared = await server(svc, POLICIES[0]);
    const r0 = Math.max(1, Math.round(0.4 * oha(shared, ['-z', '3s', '-c', '16']).summary.requestsPerSec));
    let cap = 0;
    for (const s of own) {
      const b0 = sum(busy());
      openLoop(s, r0); // all r0 x (WARM + SECS) requests are served (-w)
      if (s === shared) cap = r0 * (WARM + SECS) / ((sum(busy()) - b0) / 1e9);
    }
    const prior = runs.filter((r) => r.service === svc.name);
    if (prior.length) cap = prior[0].capacity;
    const firstRep = prior.length ? Math.max(...prior.map((r) => r.rep)) + 1 : 0;
    log(`${svc.name}: capacity at 2.6 GHz ${cap.toFixed(1)} req/s${prior.length ? ' (the earlier run\'s)' : ''}; ` +
      `rates ${RATES.map((f) => Math.round(f * cap)).join(', ')}`);
    for (let rep = firstRep; rep < firstRep + REPS; rep++) {
      for (const f of RATES) {
        const rate = Math.max(1, Math.round(f * cap));
        // Alternate: each repetition starts the rotation elsewhere.
        const order = policies.map((_, i) => policies[(i + rep * 3) % policies.length]);
        for (const p of order) {
          const r = await run(svc, p, rate);
          r.rep = rep;
          r.loadFactor = f;
          r.capacity = cap;
          runs.push(r);
          log(`${svc.name} ${rate}/s ${p.name}: p99 ${r.p99.toFixed(1)} ms, ${r.requests}/${r.expected} requests ` +
            `[${((Date.now() - started) / 60000).toFixed(1)} min]`);
          save();
        }
      }
    }
    await stopServers();
  }
  write(path.join(OUT, 'result'), 0);
}

main().catch((e) => { console.error(e); process.exit(1); });
