'use strict';
// What eventboost/profile costs a service: throughput and CPU time per
// request (closed loop, fixed concurrency) and p99 latency (open loop, fixed
// rate, below capacity), each as a ratio of
// with-profiler to without, measured in the same run with the two variants
// interleaved (A B A B ...) so a drift of the machine hits both.
//   node bench/profile-overhead.js [reps=3] [seconds=3] [rate=100] [sample=1]
// (make bench runs it on the host, as its part 5: scripts/bench.sh.)
// Prints one JSON object; the ratios are the result (absolute numbers depend
// on the machine and on what else runs on it).
const http = require('node:http');
const path = require('node:path');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');

if (process.argv[2] === 'serve') {
  // A small JSON API: a few awaits, some allocation, an immediate -- the
  // async context tracking the profiler adds costs in proportion to these.
  const wait = () => new Promise((r) => setImmediate(r));
  const find = async (id) => { await null; return { id, name: `user ${id}`, roles: ['a', 'b'], at: Date.now() }; };
  http.createServer(async (req, res) => {
    const user = await find(req.url.length);
    await wait();
    const items = [];
    for (let i = 0; i < 50; i++) items.push({ i, v: `${user.name}/${i}` });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ user, items }));
  }).listen(0, '127.0.0.1', function () { console.log(this.address().port); });
  return;
}

const reps = Number(process.argv[2] || 3);
const seconds = Number(process.argv[3] || 3);
const rate = Number(process.argv[4] || 100);
const sample = process.argv[5] || '1';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-profile-bench-'));

function start(profiled) {
  const args = profiled ? ['-r', path.resolve(__dirname, '../profile.js')] : [];
  // The service on CPU 1 when there is one (make bench's guest: the
  // client stays where it was started, CPU 0).
  const pin = os.cpus().length > 1;
  const child = spawn(pin ? 'taskset' : process.execPath, [...(pin ? ['-c', '1', process.execPath] : []), ...args, __filename, 'serve'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, EVENTBOOST_PROFILE_OUT: path.join(tmp, 'p.json'), EVENTBOOST_PROFILE_SAMPLE: sample },
  });
  return new Promise((resolve) => child.stdout.once('data', (d) => resolve({ child, port: Number(String(d).trim()) })));
}

function get(agent, port) {
  return new Promise((resolve) => {
    const t = process.hrtime.bigint();
    http.get({ host: '127.0.0.1', port, path: '/users/42', agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(Number(process.hrtime.bigint() - t) / 1e6));
    }).on('error', () => resolve(NaN));
  });
}

// The service's CPU time (all its threads), ms, from /proc: robust where
// wall-clock throughput is not (a busy machine deschedules the service).
function cpuMs(pid) {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;   // utime + stime, USER_HZ = 100
}

async function throughput(port, pid) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const end = Date.now() + seconds * 1000;
  let n = 0;
  const c0 = cpuMs(pid);
  await Promise.all(Array.from({ length: 16 }, async () => {
    while (Date.now() < end) { await get(agent, port); n++; }
  }));
  const cpu = cpuMs(pid) - c0;
  agent.destroy();
  return { rps: n / seconds, cpuUsPerRequest: (cpu * 1000) / n };
}

async function p99(port) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const count = rate * seconds;
  const t0 = performance.now();
  const lat = [];
  let i = 0;
  await new Promise((resolve) => {
    const tick = () => {
      const due = Math.floor(((performance.now() - t0) * rate) / 1000) + 1;
      while (i < count && i < due) { lat.push(get(agent, port)); i++; }
      if (i < count) setTimeout(tick, 1); else resolve();
    };
    tick();
  });
  const v = (await Promise.all(lat)).sort((a, b) => a - b);
  agent.destroy();
  return v[Math.ceil(0.99 * v.length) - 1];
}

(async () => {
  const r = { off: { rps: [], cpuUs: [], p99: [] }, on: { rps: [], cpuUs: [], p99: [] } };
  for (let k = 0; k < reps; k++) {
    for (const v of k % 2 ? ['on', 'off'] : ['off', 'on']) {
      const { child, port } = await start(v === 'on');
      await throughput(port, child.pid);          // warm up (JIT)
      const t = await throughput(port, child.pid);
      r[v].rps.push(t.rps);
      r[v].cpuUs.push(t.cpuUsPerRequest);
      r[v].p99.push(await p99(port));
      child.kill('SIGTERM');
      await new Promise((res) => child.on('exit', res));
    }
  }
  const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  const out = {
    reps, seconds, rate, sample: Number(sample), cpus: os.cpus().length, loadavg: os.loadavg()[0],
    off: { rps: med(r.off.rps), cpuUsPerRequest: med(r.off.cpuUs), p99Ms: med(r.off.p99) },
    on: { rps: med(r.on.rps), cpuUsPerRequest: med(r.on.cpuUs), p99Ms: med(r.on.p99) },
    throughputRatio: med(r.on.rps) / med(r.off.rps),
    cpuPerRequestRatio: med(r.on.cpuUs) / med(r.off.cpuUs),
    p99Ratio: med(r.on.p99) / med(r.off.p99),
    runs: r,
  };
  console.log(JSON.stringify(out, null, 1));
})();
