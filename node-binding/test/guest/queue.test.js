'use strict';
// Queue-Boost against the real governor in a guest (issue 21), and a Worker
// that ran it ending while the main thread never loaded the addon (issue 20).
// Every test asserts what the monitor did (stats counters, whether the boost
// was on inside a callback), never how long anything took.
const test = require('node:test');
const assert = require('node:assert');
const h = require('./helpers');

test.beforeEach(() => h.governEverything({ maxBoostUs: 5000000 }));

// The guests' clock steps: two vCPUs share one QEMU thread, which one of
// them may hold for up to 100 ms (TCG's round-robin period), while the
// guest's clocks move on.  A thread on the other vCPU then sees its CPU
// clock jump by up to 100 ms at once: a short callback can cross a
// head-of-line threshold, a 2 ms wait be used up before the poll, and the
// schedstat clock own() reads with Node < 23.9 stand still through several
// steps (one own(10) ran 280 ms: 6.1 guest, Node 22, 2026-12-01).  spin()
// ends at once after a step.  Tests of other signals keep their bounds
// clear of one.

// No boost by length or overload; one by head-of-line at most: a clock
// step (above) inside a short callback crosses its threshold.
const assertNoBoostButAClockStep = (after) =>
  assert.ok(after.boosts === after.byHeadOfLine && after.byHeadOfLine <= 1, JSON.stringify(after));

// The queue stats and whether the kernel holds the loop core boosted.
const SNAP = `
const snap = () => { const s = eb.stats(); return { ...s.queue, kernelBoosted: !!(s.kernel && s.kernel.boosted) }; };
// Work of so many ms of CPU time (the process's, nearly all this thread's):
// under TCG and a loaded host a wall-clock spin is any amount of work.
const spin = (ms) => { const t = process.cpuUsage(); for (;;) { const d = process.cpuUsage(t); if (d.user + d.system >= ms * 1000) return; } };
// The loop thread's own CPU time in ms, as the head-of-line time counts it:
// Node's threadCpuUsage (from 23.9), else the thread's schedstat (its time
// on a CPU, the clock the monitor reads).  Not the process's (spin()):
// V8's threads, on the other CPU too, add to that -- with Node 20 a 170 ms
// spin once gave the loop thread too little to cross a 100 ms bound.
// (Opened here, by the loop thread: thread-self is resolved at the open.)
const threadMs = process.threadCpuUsage ? () => {
  const u = process.threadCpuUsage(); return (u.user + u.system) / 1000;
} : ((fs, fd, buf) => () => {
  const n = fs.readSync(fd, buf, 0, buf.length, 0);
  return Number(buf.toString('latin1', 0, n).split(' ')[0]) / 1e6;
})(require('node:fs'), require('node:fs').openSync('/proc/thread-self/schedstat', 'r'), Buffer.alloc(128));
// Work of so many ms of the loop thread's own CPU time.
const own = (ms) => { const t = threadMs(); while (threadMs() - t < ms); };
// Calls cb in the timer that ends the loop's first wait from now (its idle
// time grown by 5 ms).  After a long callback the loop may still work for
// a while (V8's tasks, a slow guest), and libuv runs due timers at the end
// of an iteration: a timer alone can run before the loop ever waited.
const afterWait = (cb) => {
  const elu = () => require('node:perf_hooks').performance.eventLoopUtilization().idle;
  const idle0 = elu();
  const tick = () => (elu() - idle0 >= 5 ? cb() : setTimeout(tick, 50));
  setTimeout(tick, 50);
};
// The loop's peer: a child Node on CPU 0 (off the loop's core) running
// script, unref'd so that the test's process can end before it.
const spawnPeer = (script, stdio = 'ignore') => {
  const ch = require('node:child_process').spawn('taskset', ['-c', '0', process.execPath, '-e', script], { stdio });
  ch.unref();
  return ch;
};
// Pins Queue-Boost's monitor thread (the one named eventboost-mon) to @cpu.
// The thread names itself once it runs: right after start() under TCG it
// may not have yet, so look for up to 5 s.
const pinMonitor = (cpu) => {
  const fs = require('node:fs');
  const named = () => fs.readdirSync('/proc/self/task').find((t) => {
    try { return fs.readFileSync('/proc/self/task/' + t + '/comm', 'utf8').trim() === 'eventboost-mon'; } catch { return false; }
  });
  let mon = named();
  for (let i = 0; !mon && i < 500; i++) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    mon = named();
  }
  if (!mon) throw new Error('no monitor thread named eventboost-mon 5 s after start()');
  pin(mon, cpu);
};
// A peer writing into the loop through its stdout (a pipe; its stdin one
// too if @stdin is 'pipe'): the test ends
// (exit 2) if it exits before finish(), and (exit 3) if no verdict came in
// 120 s, saying what never came -- a writer that could not start would
// leave the test waiting for ever.
const spawnWriter = (script, what, stdin = 'ignore') => {
  const w = spawnPeer(script, [stdin, 'pipe', 'inherit']);
  let done = false;
  w.on('exit', (code) => { if (!done) { console.error('the writer exited: ' + code); process.exit(2); } });
  setTimeout(() => { console.error('no ' + what + ' in 120 s'); process.exit(3); }, 120000).unref();
  w.finish = () => { done = true; w.kill(); };
  return w;
};
`;

// A Worker on CPU 0 with N connections to the loop's server (workerData:
// N, port, warm, every): warm-up messages ('w') one at a time, every ms
// apart, then 'warm' to the main thread, and a burst ('b' on every
// connection) at each message from it.
const BURSTER = `
const BURSTER = \`
  const { parentPort, workerData } = require('node:worker_threads');
  const net = require('node:net');
  require('node:child_process').execFileSync('taskset', ['-pc', '0',
    require('node:fs').readlinkSync('/proc/thread-self').split('/').pop()], { stdio: 'ignore' });
  const socks = [];
  for (let i = 0; i < workerData.N; i++) socks.push(net.connect(workerData.port, '127.0.0.1'));
  let k = 0;
  const warm = () => {
    if (k < workerData.warm) { socks[k++ % socks.length].write('w'); setTimeout(warm, workerData.every); }
    else parentPort.postMessage('warm');
  };
  setTimeout(warm, 200);
  parentPort.on('message', () => { for (const c of socks) c.write('b'); });
\`;
`;

// A burst test's verdict: a length boost began for a burst -- from when it
// was asked for, so a boost the loop began at the prepare before the
// burst's first callback counts -- and was still on at its last callback:
// it sped up the burst itself.
function assertBurstBoosted(t, r) {
  assert.strictEqual(r.code, 0, r.err);
  const { bursts, st } = r.json[0];
  t.diagnostic(JSON.stringify({ bursts, st }));
  assert.ok(st.byLength >= 1, JSON.stringify(st));
  assert.strictEqual(st.errors, 0);
  assert.ok(bursts.some((b) => b.lengthBoosts >= 1 && b.boostedAtEnd), JSON.stringify(bursts));
}

test('Worker: a Worker that ran Queue-Boost ends cleanly when the main thread never loaded the addon', async () => {
  // No PRELUDE: the main thread must not load the addon itself.
  const r = await h.runNode(`
const { Worker } = require('node:worker_threads');
let n = 0;
(function next() {
  if (n++ === 4) { console.log(JSON.stringify({ done: n - 1 })); return; }
  const w = new Worker(\`
    const eb = require(process.env.EB_PKG);
    const s = eb.start({ gc: false });
    if (!s.active) throw new Error(s.reason);
    let i = 0;
    const tick = () => { if (++i < 50) setImmediate(tick); };
    setImmediate(tick);
  \`, { eval: true });
  w.on('error', (e) => { console.error(e); process.exitCode = 2; });
  w.on('exit', next);
})();
`);
  assert.strictEqual(r.signal, null, `the process died of ${r.signal}: ${r.err}`);
  assert.strictEqual(r.code, 0, r.err);
  assert.deepStrictEqual(r.json[0], { done: 4 });
});

test('Queue-Boost: a burst of ready connections boosts by length while the burst runs', async (t) => {
  h.clear();
  const r = await h.runNode(h.PRELUDE + SNAP + BURSTER + `
const net = require('node:net');
const { Worker } = require('node:worker_threads');
pin(process.pid, 1);
const s = eb.start({ gc: false, queueFactor: 2.5, bursts: 'arrival' });
if (!s.active) throw new Error(s.reason);
const N = 24, BURSTS = 6;
let got = 0, burst = -1, atStart = null;
const bursts = [];
const server = net.createServer((c) => c.on('data', (d) => {
  for (const byte of d) {
    if (byte === 0x62) { // 'b': one connection's share of a burst
      spin(3);
      if (++got % N === 0) {
        const end = snap();
        bursts.push({ lengthBoosts: end.byLength - atStart.byLength, boostedAtEnd: end.boostedNow });
        if (bursts.length === BURSTS) finish(); else setTimeout(ask, 300);
      }
    } else {
      spin(3); // warm-up: one connection at a time
    }
  }
}));
let w;
const ask = () => { atStart = snap(); w.postMessage('burst'); };
server.listen(0, '127.0.0.1', () => {
  w = new Worker(BURSTER, { eval: true, workerData: { N, port: server.address().port, warm: 80, every: 10 } });
  w.on('message', () => setTimeout(ask, 300));
});
function finish() {
  console.log(JSON.stringify({ bursts, st: eb.stats().queue }));
  process.exit(0);
}
`);
  assertBurstBoosted(t, r);
  assert.ok(h.changes().some((c) => c.policy === 1 && c.khz === h.BOOST), 'policy 1 went to boost');
});

test("Queue-Boost: with bursts 'threshold', arrivals at a waiting loop do not wake the monitor, and a burst is boosted once it crosses the head-of-line threshold", async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + BURSTER + `
const net = require('node:net');
const { Worker } = require('node:worker_threads');
pin(process.pid, 1);
// sampleUs above the typical iteration: the loop does not count its
// backlog at its prepares (it would boost the part of a burst that its
// first poll left behind, in either mode), and the head-of-line
// threshold is its floor, 10 ms.
const s = eb.start({ gc: false, queueFactor: 2.5, bursts: 'threshold', sampleUs: 10000 });
if (!s.active) throw new Error(s.reason);
// Warm-up: one 3 ms message at a time, 10 ms apart, each work arriving at
// a waiting loop -- about one monitor wake-up each with the default
// bursts 'arrival' -- then bursts of 24 (72 ms), seen by the monitor
// only once their iteration has used the head-of-line threshold of the
// loop's CPU time (the CPU-time timer), and boosted for what is left.
const N = 24, BURSTS = 6, WARM = 80, FROM = 40;
let got = 0, warmGot = 0, atStart = null, atFrom = null, window = null;
const bursts = [];
const server = net.createServer((c) => c.on('data', (d) => {
  for (const byte of d) {
    spin(3);
    if (byte === 0x62) { // 'b': one connection's share of a burst
      if (++got % N === 0) {
        const end = snap();
        bursts.push({ lengthBoosts: end.byLength - atStart.byLength, boostedAtEnd: end.boostedNow });
        if (bursts.length === BURSTS) finish(); else setTimeout(ask, 300);
      }
    } else if (++warmGot === FROM) {
      atFrom = snap();
    }
  }
}));
let w;
const ask = () => { atStart = snap(); w.postMessage('burst'); };
server.listen(0, '127.0.0.1', () => {
  w = new Worker(BURSTER, { eval: true, workerData: { N, port: server.address().port, warm: WARM, every: 10 } });
  w.on('message', () => {
    const now = snap();
    window = { arrivals: warmGot - FROM, wakeups: now.monitorWakeups - atFrom.monitorWakeups,
      arrivalWakeups: now.monitorArrivals - atFrom.monitorArrivals, boosts: now.boosts - atFrom.boosts };
    setTimeout(ask, 300);
  });
});
function finish() {
  console.log(JSON.stringify({ window, bursts, st: eb.stats().queue }));
  process.exit(0);
}
`);
  assertBurstBoosted(t, r);
  const { window, st } = r.json[0];
  assert.strictEqual(st.bursts, 'threshold');
  assert.strictEqual(st.headOfLine, 'always');
  t.diagnostic(JSON.stringify(window));
  // The default wakes about once per arrival here (about 40 of 40); the
  // threshold mode for a look now and then (a GC, a slow TCG iteration
  // crossing the threshold).  A crossing is a boost, and a boost brings up
  // to three wake-ups (the timer's, the boosted look, its end): one 3 ms
  // callback crosses the 10 ms floor in a clock step (above SNAP), and the
  // window had a boost in 3 of 8 runs (6.1, 6.12 and 7.2 guests, 2026-12-02),
  // 4 in one 7.2-rt run beside two other guests: the bound is an eighth of
  // the arrivals, each of which is 3 ms, far below the 10 ms floor.
  assert.strictEqual(window.arrivalWakeups, 0, JSON.stringify(window));
  assert.ok(window.boosts * 8 <= window.arrivals, JSON.stringify(window));
  assert.ok(window.wakeups * 4 <= window.arrivals + 12 * window.boosts, JSON.stringify(window));
});

test('Queue-Boost: a burst that arrives while the loop is busy boosts by length while it runs', async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + BURSTER + `
const net = require('node:net');
const { Worker } = require('node:worker_threads');
pin(process.pid, 1);
// The overload bound out of the way (a loop that never waits crosses it
// across iterations): this is about the length signal.
const s = eb.start({ gc: false, queueFactor: 2.5, bursts: 'arrival', maxDelayMs: 60000 });
if (!s.active) throw new Error(s.reason);
// The loop never waits: 20 ms callbacks back to back, the typical
// iteration.  Bursts of ready connections arrive in the middle of one and
// wait for the next poll: boosted from the prepare before it (the monitor
// looks only about once per 20 ms here), and held while they run.
const N = 24, BURSTS = 6;
let got = 0, atStart = null, done = false;
const bursts = [];
const bg = () => { spin(20); if (!done) setImmediate(bg); };
const server = net.createServer((c) => c.on('data', (d) => {
  for (const byte of d) {
    spin(3);
    if (byte === 0x62 && ++got % N === 0) { // 'b': one connection's share of a burst
      const end = snap();
      bursts.push({ lengthBoosts: end.byLength - atStart.byLength, boostedAtEnd: end.boostedNow });
      if (bursts.length === BURSTS) finish(); else setTimeout(burst, 300);
    }
  }
}));
let w;
const burst = () => { atStart = snap(); w.postMessage('burst'); };
server.listen(0, '127.0.0.1', () => {
  w = new Worker(BURSTER, { eval: true, workerData: { N, port: server.address().port, warm: 40, every: 20 } });
  w.on('message', () => setTimeout(burst, 300));
  setImmediate(bg);
});
function finish() {
  done = true;
  console.log(JSON.stringify({ bursts, st: eb.stats().queue }));
  process.exit(0);
}
`);
  assertBurstBoosted(t, r);
});

test('Queue-Boost: a step in per-callback work is boosted for as long as the step lasts', async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + `
pin(process.pid, 1);
const s = eb.start({ gc: false, queueFactor: 2.5, bursts: 'arrival' });
if (!s.active) throw new Error(s.reason);
// 1 ms callbacks with the loop waiting 1 ms between them, then a step to
// 100 ms callbacks: a change the service keeps, not one long callback.
// (Large: under TCG on a loaded host an iteration's own overhead is many ms.)
let i = 0;
const BASE = 400, STEP = 30;
const atEnd = [];
const tick = () => {
  if (i < BASE) spin(1);
  else { spin(100); atEnd.push(snap().boostedNow); }
  if (++i < BASE + STEP) setTimeout(tick, 1);
  else console.log(JSON.stringify({ atEnd, st: eb.stats().queue }));
};
setTimeout(tick, 1);
`);
  assert.strictEqual(r.code, 0, r.err);
  const { atEnd, st } = r.json[0];
  const late = atEnd.slice(-10);
  t.diagnostic(`boosted at the end of ${atEnd.filter(Boolean).length} of ${atEnd.length} step callbacks, ` +
    `${late.filter(Boolean).length} of the last 10; avgBusyUs ${st.avgBusyUs}`);
  // By the head-of-line threshold, or by the overload bound where the
  // iterations' own overhead has raised the baseline past it.
  assert.ok(st.byHeadOfLine + st.byOverload >= 1, JSON.stringify(st));
  // The step is not learnt away: its last callbacks are still boosted.
  assert.ok(late.filter(Boolean).length >= 8, JSON.stringify(atEnd));
});

test('Queue-Boost: a timer callback that blocks the loop among 2 ms callbacks is boosted', async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + `
pin(process.pid, 1);
const s = eb.start({ gc: false });
if (!s.active) throw new Error(s.reason);
// Background: a 2 ms callback every 4 ms.  Now and then a timer blocks the
// loop for 300 ms.
const bg = setInterval(() => spin(2), 4);
const blocks = [];
let n = 0;
const block = () => {
  spin(300);
  blocks.push(snap());
  if (++n < 3) setTimeout(block, 500);
  else { clearInterval(bg); setTimeout(() => console.log(JSON.stringify({ blocks, st: eb.stats().queue })), 50); }
};
setTimeout(block, 1500);
`);
  assert.strictEqual(r.code, 0, r.err);
  const { blocks, st } = r.json[0];
  t.diagnostic(JSON.stringify(st));
  // The shipped defaults, as stats() reports the options a run used.
  assert.deepStrictEqual([st.queueFactor, st.bursts, st.headOfLine, st.sampleUs, st.maxDelayMs], [5, 'threshold', 'always', 1000, 100]);
  assert.ok(st.byHeadOfLine + st.byOverload >= 1, JSON.stringify(st));
  assert.ok(blocks.every((b) => b.boostedNow), `boosted at the end of each blocking timer: ${JSON.stringify(blocks)}`);
  assert.ok(blocks.some((b) => b.kernelBoosted), 'the kernel held the core boosted');
});

// Both ways of seeing work arrive: the default 'threshold' and 'arrival'
// (whose monitor also waits on the loop's epoll set).
for (const bursts of ['threshold', 'arrival']) {
  test(`Queue-Boost: an idle service does not wake the monitor (bursts '${bursts}')`, async (t) => {
    const r = await h.runNode(h.PRELUDE + SNAP + `
const net = require('node:net');
pin(process.pid, 1);
// Under TCG on a loaded host one of these iterations can reach the overload
// bound's 100 ms of CPU time: out of the way, this is about the monitor.
// So can one reach the head-of-line threshold's floor, one sampleUs: an
// iteration of a few microseconds natively takes a millisecond or more
// under TCG, so the floor is 10 ms here.
const s = eb.start({ gc: false, maxDelayMs: 60000, sampleUs: 10000, bursts: '${bursts}' });
if (!s.active) throw new Error(s.reason);
// A server nobody calls and a housekeeping timer: the loop wakes 30 times
// for a few microseconds of work.  Count from when the monitor has settled.
net.createServer().listen(0, '127.0.0.1', () => setTimeout(() => {
  const before = snap();
  let n = 0;
  const t = setInterval(() => {
    if (++n < 30) return;
    clearInterval(t);
    const after = snap();
    console.log(JSON.stringify({ wakeups: after.monitorWakeups - before.monitorWakeups,
      iterations: after.iterations - before.iterations, boosts: after.boosts - before.boosts, after }));
    process.exit(0);
  }, 50);
}, 500));
`);
    assert.strictEqual(r.code, 0, r.err);
    const { wakeups, iterations, boosts, after } = r.json[0];
    t.diagnostic(`${wakeups} monitor wake-ups over ${iterations} loop iterations`);
    assert.ok(iterations >= 30, JSON.stringify(after));
    assert.strictEqual(boosts, 0, JSON.stringify(after));
    // The stated bound (README): no wake-up for an iteration shorter than the
    // head-of-line threshold (natively none here).  Under TCG a few of these
    // iterations may still cross it: at most one wake-up per two loop
    // wake-ups (the code before issue 21 woke it for nearly every one).
    assert.ok(wakeups * 2 <= iterations, `${wakeups} monitor wake-ups for ${iterations} short iterations`);
    assert.deepStrictEqual([after.bursts, after.sampleUs, after.maxDelayMs], [bursts, 10000, 60000]);
  });
}

test("Queue-Boost: with bursts 'threshold', the head-of-line baseline keeps learning while the loop mostly waits", async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + `
pin(process.pid, 1);
const s = eb.start({ gc: false, queueFactor: 2.5, maxDelayMs: 60000, bursts: 'threshold' });
if (!s.active) throw new Error(s.reason);
// Start-up: 40 iterations of 20 ms back to back (the warm-up's 32 and a
// few more).  Then 6 s of 1 ms timer callbacks 20 ms apart: the loop
// waits nearly all the time, and no arrival on its epoll set (Node's own
// async handles among them) wakes the monitor with bursts 'threshold':
// only a prepare can wake it while it sleeps on the head-of-line timer,
// which these iterations never reach.  The baseline (a count-weighted
// mean over ~30 s, learnt at the monitor's looks) must keep falling
// towards what a quiet iteration costs through the quiet phase: from its
// 2nd second to its 6th it takes in three times as many of them.
let i = 0, t0 = 0, at2 = null;
const quiet = () => {
  if (!t0) t0 = Date.now();
  spin(1);
  const el = Date.now() - t0;
  if (!at2 && el >= 2000) at2 = { ...snap(), cpuMs: threadMs() };
  if (el < 6000) return setTimeout(quiet, 20);
  const at6 = { ...snap(), cpuMs: threadMs() };
  const pick = (a) => ({ avgBusyUs: a.avgBusyUs, samples: a.samples, iterations: a.iterations, cpuMs: a.cpuMs });
  console.log(JSON.stringify({ at2: pick(at2), at6: pick(at6), st: eb.stats().queue }));
  process.exit(0);
};
const startup = () => { spin(20); if (++i < 40) setImmediate(startup); else setTimeout(quiet, 20); };
setImmediate(startup);
`);
  assert.strictEqual(r.code, 0, r.err);
  const { at2, at6, st } = r.json[0];
  t.diagnostic(JSON.stringify({ at2, at6 }));
  assert.strictEqual(st.errors, 0);
  // About one look a second: a prepare wakes the monitor when it has not
  // looked for a second (6 looks and 0.73 on 6.12).  Without that wake-up
  // nothing but an iteration crossing the threshold makes it look here:
  // on this testbed such crossings (a slow TCG iteration, a scavenge) gave
  // 3 looks and 0.80, so this guards the behaviour more than it shows the
  // defect, which a review found by reading.
  assert.ok(at6.samples - at2.samples >= 2, JSON.stringify({ at2, at6 }));
  // Measured from what a quiet iteration costs the loop thread here (q,
  // its CPU time per iteration between the two): the baseline's distance
  // from q shrinks as the quiet iterations outnumber the start-up's, to
  // about half (0.42-0.49 by the counts), whatever the host's speed; a
  // baseline that stopped learning keeps its distance (1), one fallen to
  // nothing goes far below q (negative).  The ratio of the raw means
  // (0.70-0.79 in 13 runs, 2026-12-07) rises towards 1 as q grows with a
  // slower host.
  const q = ((at6.cpuMs - at2.cpuMs) * 1000) / (at6.iterations - at2.iterations);
  const closer = (at6.avgBusyUs - q) / (at2.avgBusyUs - q);
  t.diagnostic(`quiet iteration ${q.toFixed(0)} us; distance from it at 6 s / at 2 s ${closer.toFixed(3)}`);
  assert.ok(at2.avgBusyUs > q && closer > -0.5 && closer < 0.75, JSON.stringify({ q, closer, at2, at6 }));
});

test('Queue-Boost: a saturated loop below the thresholds hardly wakes the monitor, and a long callback in it still boosts', async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + `
pin(process.pid, 1);
// The overload bound out of the way: a loop that never waits crosses it
// across iterations (the test after the overload test below).
const s = eb.start({ gc: false, queueFactor: 2.5, bursts: 'arrival', maxDelayMs: 60000 });
if (!s.active) throw new Error(s.reason);
// Back-to-back 20 ms callbacks: the loop never waits, nothing arrives, and
// no iteration reaches the head-of-line threshold (2.5x the typical one).
// The monitor, on the loop's own core, has
// nothing to find; every look it takes is time the loop's core spends on
// it.  Then one callback of 7.5x the typical one (spin() counts the
// process's CPU time, of which V8's threads on this CPU may take a share):
// the monitor must still be there for it.
let i = 0, before = null, quiet = null;
const WARM = 40, MEASURED = 40;
const tick = () => {
  if (i === WARM + MEASURED) {
    spin(150);
    const after = snap();
    console.log(JSON.stringify({ ...quiet, longBoosted: after.boostedNow,
      longBoosts: after.byHeadOfLine + after.byOverload - before.byHeadOfLine - before.byOverload, after }));
    return;
  }
  spin(20);
  if (++i === WARM) before = snap();
  if (i === WARM + MEASURED) {
    const at = snap();
    quiet = { wakeups: at.monitorWakeups - before.monitorWakeups, iterations: at.iterations - before.iterations };
  }
  setImmediate(tick);
};
setImmediate(tick);
`);
  assert.strictEqual(r.code, 0, r.err);
  const { wakeups, iterations, longBoosted, longBoosts, after } = r.json[0];
  t.diagnostic(`${wakeups} monitor wake-ups over ${iterations} loop iterations of 20 ms; ` +
    `the 150 ms callback after them boosted: ${longBoosted}`);
  assert.ok(iterations >= 35, JSON.stringify(after));
  // The stated bound (README): no wake-up while iterations stay below the
  // thresholds and nothing arrives (natively none here; under TCG one
  // iteration may cross the threshold now and then).  The monitor before
  // 2026-11-26 looked about once per iteration (43 looks over 40), and
  // before 2026-11-24 up to every sampleUs (631: docs/evidence/2026-11-24-monitor-looks/).
  assert.ok(wakeups * 4 <= iterations, `${wakeups} monitor wake-ups for ${iterations} iterations: ` + JSON.stringify(after));
  // And it still watches: a monitor that stopped would pass the bound above.
  assert.ok(longBoosted && longBoosts >= 1, JSON.stringify(after));
});

test('Queue-Boost: a stream of arrivals into a busy loop does not wake the monitor', async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + `
pin(process.pid, 1);
// The overload bound out of the way: a loop that never waits crosses it
// across iterations, and a boost held is looked at.
const s = eb.start({ gc: false, queueFactor: 2.5, bursts: 'arrival', maxDelayMs: 60000 });
if (!s.active) throw new Error(s.reason);
// Back-to-back 20 ms callbacks, and a writer on CPU 0 putting a byte into a
// pipe every millisecond (a busy wait: under TCG a timer that fine would
// not keep time): about 20 arrivals per iteration, each a new edge of the
// loop's epoll set, none a backlog (each is read at the next poll).  Work
// that arrives while the loop works waits for its next poll, where the loop
// counts it itself (its prepare): a look by the monitor, on the loop's own
// core, would find nothing the prepare does not.
const writer = spawnWriter(
  "const fs = require('fs'); for (;;) { const t = process.hrtime.bigint(); while (process.hrtime.bigint() - t < 1000000n); fs.writeSync(1, 'x'); }",
  'stream');
let bytes = 0;
writer.stdout.on('data', (d) => { bytes += d.length; });
let i = 0, before = null, bytesBefore = 0;
const WARM = 40, MEASURED = 40;
const tick = () => {
  spin(20);
  if (++i === WARM) { before = snap(); bytesBefore = bytes; }
  if (i < WARM + MEASURED) { setImmediate(tick); return; }
  const after = snap();
  writer.finish();
  console.log(JSON.stringify({ wakeups: after.monitorWakeups - before.monitorWakeups, arrivals: bytes - bytesBefore,
    samples: after.samples - before.samples, iterations: after.iterations - before.iterations, after }));
  process.exit(0);
};
writer.stdout.once('data', () => setImmediate(tick));
`);
  assert.strictEqual(r.code, 0, r.err);
  const { wakeups, arrivals, samples, iterations, after } = r.json[0];
  t.diagnostic(`${wakeups} monitor wake-ups (${samples} looks) over ${iterations} loop iterations and ${arrivals} bytes arriving`);
  assert.ok(iterations >= 35, JSON.stringify(after));
  // A stream: several arrivals per iteration, or the test says nothing.
  assert.ok(arrivals >= 4 * iterations, `only ${arrivals} bytes arrived in ${iterations} iterations`);
  // The stated bound (README): arrivals into a working loop wake nothing,
  // as in the saturated loop above with nothing arriving.  The monitor
  // before 2026-11-27 looked at such a stream once per gate (the typical
  // iteration): 37-40 wake-ups over 40 iterations; the one of e7ae48f
  // about twice per sampleUs, the one before it once per iteration plus
  // once per arrival while the loop waited.
  assert.ok(wakeups * 4 <= iterations, `${wakeups} monitor wake-ups for ${iterations} iterations: ` + JSON.stringify(after));
});

test('Queue-Boost: work arriving at a waiting loop wakes the monitor', async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + `
pin(process.pid, 1);
// The bounds out of the way (TCG's slow iterations): this is about arrivals.
const s = eb.start({ gc: false, queueFactor: 2.5, bursts: 'arrival', maxDelayMs: 60000, sampleUs: 10000 });
if (!s.active) throw new Error(s.reason);
// A writer on CPU 0 putting a byte into a pipe every 100 ms; the loop
// waits in between.  Each byte is work arriving at a waiting loop, the one
// moment a burst can come in unseen by the loop's own count (its prepare
// ran before it): the monitor must look, each time, not only at the first
// arrival after it started.
const writer = spawnWriter(
  "const fs = require('fs'); for (;;) { const t = process.hrtime.bigint(); while (process.hrtime.bigint() - t < 100000000n); fs.writeSync(1, 'x'); }",
  'arrivals');
let n = 0, before = null;
const WARM = 5, MEASURED = 20;
writer.stdout.on('data', (d) => {
  n += d.length;
  if (!before && n >= WARM) { before = snap(); n = WARM; }
  if (n < WARM + MEASURED) return;
  const after = snap();
  writer.finish();
  console.log(JSON.stringify({ wakeups: after.monitorWakeups - before.monitorWakeups, arrivals: n - WARM,
    arrivalWakeups: after.monitorArrivals - before.monitorArrivals, iterations: after.iterations - before.iterations, after }));
  process.exit(0);
});
`);
  assert.strictEqual(r.code, 0, r.err);
  const { wakeups, arrivals, arrivalWakeups, iterations, after } = r.json[0];
  t.diagnostic(`${wakeups} monitor wake-ups (${arrivalWakeups} counted as for an arrival) for ${arrivals} arrivals at a waiting loop (${iterations} iterations)`);
  assertNoBoostButAClockStep(after);
  // About one per arrival, fewer where the loop read the byte before the
  // monitor's epoll_wait delivered it (the edge is then not delivered): 17-20
  // of 20 on 6.1 and 6.12, 14 on 6.12-rt, whose loop wins that race more
  // often.  A monitor that watched only the first arrival after its start
  // shows about none (0 of 20: guest-tests.txt).
  assert.ok(wakeups * 2 >= arrivals, `${wakeups} monitor wake-ups for ${arrivals} arrivals: ` + JSON.stringify(after));
  // stats().queue.monitorArrivals counts them: nothing else wakes it here.
  assert.ok(arrivalWakeups <= wakeups && arrivalWakeups * 2 >= arrivals, JSON.stringify(after));
});

test('Queue-Boost: work arriving while an I/O callback runs does not wake the monitor', async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + `
// The bounds out of the way (TCG's slow iterations, and the clock steps
// above SNAP: at factor 2.5 one in a 20 ms callback crosses the
// threshold): this is about arrivals.
const s = eb.start({ gc: false, queueFactor: 20, bursts: 'arrival', maxDelayMs: 60000, sampleUs: 10000 });
if (!s.active) throw new Error(s.reason);
// The loop thread on CPU 1, the monitor on CPU 0: an unpinned service's
// monitor runs beside its loop, and looks while the loop's callbacks run.
pin(process.pid, 1);
pinMonitor(0);
// A writer on CPU 0 sending pairs of bytes: one at a waiting loop, whose
// callback works 20 ms, and the second 5 ms later, while that callback
// runs (the loop is in its poll phase then, as it is for every I/O
// callback), then 60 ms of quiet.  The first of each pair is the monitor's
// to see; the second waits for the loop's next poll.
const writer = spawnWriter(
  "const fs = require('fs');" +
  "const pair = () => { fs.writeSync(1, 'a'); const t = process.hrtime.bigint(); while (process.hrtime.bigint() - t < 5000000n); fs.writeSync(1, 'b'); setTimeout(pair, 60); };" +
  "setTimeout(pair, 60);",
  'pairs');
let pairs = 0, merged = 0, before = null;
const WARM = 3, MEASURED = 20;
writer.stdout.on('data', (d) => {
  spin(20);
  if (d.includes(0x62)) { // 'b': a pair is over
    if (pairs >= WARM && d.length > 1) merged++;
    if (++pairs === WARM) before = snap();
  }
  if (pairs < WARM + MEASURED) return;
  const after = snap();
  writer.finish();
  console.log(JSON.stringify({ wakeups: after.monitorWakeups - before.monitorWakeups, pairs: MEASURED, merged,
    arrivalWakeups: after.monitorArrivals - before.monitorArrivals, iterations: after.iterations - before.iterations, after }));
  process.exit(0);
});
`);
  assert.strictEqual(r.code, 0, r.err);
  const { wakeups, pairs, merged, arrivalWakeups, iterations, after } = r.json[0];
  t.diagnostic(`${wakeups} monitor wake-ups (${arrivalWakeups} for an arrival) for ${pairs} pairs of arrivals (${merged} read as one; ${iterations} iterations)`);
  assert.strictEqual(after.boosts, 0, JSON.stringify(after));
  // Most second bytes arrive during the first's callback (one read each).
  assert.ok(merged <= pairs / 2, `${merged} of ${pairs} pairs came in one read: ` + JSON.stringify(after));
  // About one wake-up per pair, for its first byte (more where the loop read
  // that byte before the monitor's epoll_wait delivered it: the watch then
  // stays armed, and the second byte wakes it).  A monitor that armed its
  // watch again while the callback ran would wake twice per pair read apart.
  // Counted as stats().queue.monitorArrivals: the once-a-second looks (more
  // of them the slower the host) are not arrivals (19-21 wake-ups of all
  // kinds for 20 pairs in 13 runs, 2026-12-07).
  assert.ok(arrivalWakeups * 4 <= pairs * 5, `${arrivalWakeups} arrival wake-ups for ${pairs} pairs: ` + JSON.stringify(after));
  assert.ok(wakeups * 2 <= pairs * 3, `${wakeups} monitor wake-ups for ${pairs} pairs: ` + JSON.stringify(after));
  assert.ok(wakeups * 2 >= pairs, `${wakeups} monitor wake-ups for ${pairs} pairs: ` + JSON.stringify(after));
});

test('Queue-Boost: work arriving while a timer callback runs after a timed-out wait does not wake the monitor', async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + `
const net = require('node:net');
// The bounds out of the way (TCG's slow iterations; on the RT debug kernel
// one of 80 iterations crossed 2.5 times the typical one): this is about
// arrivals.
const s = eb.start({ gc: false, bursts: 'arrival', maxDelayMs: 60000, sampleUs: 10000, queueFactor: 20 });
if (!s.active) throw new Error(s.reason);
// The loop thread on CPU 1, the monitor on CPU 0, so that an arrival it is
// watching for wakes it at once.
pin(process.pid, 1);
pinMonitor(0);
// A loop that waits for its next timer (its poll ends on the timeout, no
// event), whose callback sends a byte over a loopback connection the loop
// holds both ends of, then works 5 ms: the byte arrives while the loop
// works, and waits for its next poll, where the loop counts it itself.
const server = net.createServer((c) => c.on('data', () => {}));
server.listen(0, '127.0.0.1', () => {
  const client = net.connect(server.address().port, '127.0.0.1', () => {
    client.setNoDelay(true);
    let i = 0, before = null;
    const WARM = 10, MEASURED = 30;
    const tick = () => {
      client.write('x');
      spin(5);
      if (++i === WARM) before = snap();
      if (i < WARM + MEASURED) { setTimeout(tick, 30); return; }
      const after = snap();
      console.log(JSON.stringify({ wakeups: after.monitorWakeups - before.monitorWakeups,
        arrivals: after.monitorArrivals - before.monitorArrivals, ticks: MEASURED,
        iterations: after.iterations - before.iterations, after }));
      process.exit(0);
    };
    setTimeout(tick, 30);
  });
});
`);
  assert.strictEqual(r.code, 0, r.err);
  const { wakeups, arrivals, ticks, iterations, after } = r.json[0];
  t.diagnostic(`${wakeups} monitor wake-ups (${arrivals} for an arrival) for ${ticks} timer callbacks that each sent a byte (${iterations} iterations)`);
  assertNoBoostButAClockStep(after);
  // A wait for the timer and the iteration that reads the byte, per tick
  // (59 and 60 for 30 ticks; the byte and the next timer can share one).
  assert.ok(2 * iterations >= 3 * ticks, JSON.stringify(after));
  // Each wait ends on its timeout, and the loop works from there: a watch
  // still armed from that wait would wake the monitor for each byte (30 of
  // 30 on 709f71b).  What else wakes it here (a once-a-second look while
  // the loop uses over an eighth of the CPU) is not an arrival.
  assert.ok(arrivals * 10 <= ticks, `${arrivals} wake-ups for arrivals for ${ticks} timer callbacks: ` + JSON.stringify(after));
  assert.ok(wakeups * 4 <= ticks, `${wakeups} monitor wake-ups for ${ticks} timer callbacks: ` + JSON.stringify(after));
});

test('Queue-Boost: with a monitor that rarely looks, a long callback is still boosted while it runs', async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + `
pin(process.pid, 1);
// The overload bound out of the way (a loop that never waits crosses it
// across iterations): this is about the head-of-line signal.
const s = eb.start({ gc: false, queueFactor: 2.5, bursts: 'arrival', maxDelayMs: 60000 });
if (!s.active) throw new Error(s.reason);
// 20 ms callbacks back to back (the typical iteration), and now and then
// one of 200 ms: over the head-of-line threshold (2.5x the typical
// iteration, which learns the long ones too when they stay under it: with
// 110 ms ones a 6.12-rt guest's baseline reached 47 ms, a threshold of
// 118 ms, and 2 of 5 ended unboosted).  The
// monitor sleeps through the 20 ms ones, so it must count the long one from
// its start (the CPU-time timer, the start the loop publishes), not from a
// look.  The work is own()'s: spin() counts the process's CPU time, and on
// Node 26 V8's threads on the same CPU took up to half of a 110 ms spin
// from the loop thread (a 70 ms one then missed the threshold in 2 of 5).
let i = 0;
const WARM = 40, ROUNDS = 5;
const atEnd = [], ownMs = [];
const tick = () => {
  const round = i - WARM;
  if (round >= 0 && round % 5 === 0) {
    // The loop thread's own share of it, for the record.
    const t0 = threadMs();
    own(200);
    atEnd.push(snap().boostedNow);
    ownMs.push(Math.round(threadMs() - t0));
  } else own(20);
  if (++i < WARM + 5 * ROUNDS) setImmediate(tick);
  else console.log(JSON.stringify({ atEnd, ownMs, st: eb.stats().queue }));
};
setImmediate(tick);
`);
  assert.strictEqual(r.code, 0, r.err);
  const { atEnd, ownMs, st } = r.json[0];
  t.diagnostic(`boosted at the end of ${atEnd.filter(Boolean).length} of ${atEnd.length} long callbacks ` +
    `(the loop thread's own ms in each: ${ownMs.join(', ')}); ${JSON.stringify(st)}`);
  assert.ok(st.byHeadOfLine >= 1, JSON.stringify(st));
  // One may be unlucky under TCG (a look delayed past its end); not two.
  assert.ok(atEnd.filter(Boolean).length >= atEnd.length - 1, JSON.stringify(atEnd));
});

// The two tests below: each of ROUNDS rounds ends in a timer callback of
// 170 ms of the loop thread's own time, past the overload bound and short of
// twice it, snapshots around it; overloadRound(next) runs it, then next()
// 400 ms on, or after the last round reports to the verdict.
const OVERLOAD_ROUND = `
const ROUNDS = 6;
const atStart = [], atEnd = [];
const overloadRound = (next) => {
  atStart.push(snap());
  own(170);
  atEnd.push(snap());
  if (atEnd.length < ROUNDS) setTimeout(next, 400);
  else afterWait(() => { console.log(JSON.stringify({ atStart, atEnd, st: eb.stats().queue })); process.exit(0); });
};
`;

// Their verdict: each round's long callback ended boosted, by the overload
// bound.
const assertEveryRoundBoostedByOverload = (t, r) => {
  assert.strictEqual(r.code, 0, r.err);
  // atStart: a snapshot just before each round's long callback.
  const { atStart, atEnd, st } = r.json[0];
  // A round that ended unboosted: what the monitor did during its long
  // callback, for the record.
  const missed = atEnd.map((x, i) => x.boostedNow ? null : i).filter((i) => i !== null).map((i) => {
    const d = (k) => atEnd[i][k] - atStart[i][k];
    return `round ${i}: ${d('samples')} looks, ${d('monitorWakeups')} wake-ups, ${d('byOverload')} overload boosts, ${d('iterations')} iterations`;
  });
  t.diagnostic(`boosted at the end of rounds ${atEnd.map((x, i) => x.boostedNow ? i : null).filter((i) => i !== null).join(', ')} ` +
    `of 0-${atEnd.length - 1}${missed.length ? ` (${missed.join('; ')})` : ''}; ${JSON.stringify(st)}`);
  assert.strictEqual(st.errors, 0, JSON.stringify(st));
  // A refused boost (the budget) would stop boosts for 16 sampleUs: no defect.
  assert.strictEqual(st.refused, 0, JSON.stringify(st));
  // One may be unlucky under TCG (a fire a tick late past the end); not two.
  assert.ok(atEnd.filter((x) => x.boostedNow).length >= atEnd.length - 1, JSON.stringify(atEnd));
  assert.ok(st.byOverload >= atEnd.length - 1, JSON.stringify(st));
};

// The monitor sleeps on a CPU-time timer armed from an iteration's start
// (the one the loop publishes at its prepare).  An iteration that waits
// right after one that did not (an immediate's work, then a timer) must
// publish its own start: counted from the look its predecessor's stale
// timer brings instead, a callback after the wait crosses the overload
// bound unseen for up to one bound more (a 7.2-rt guest: a 300 ms callback
// after a busy start-up ended unboosted once in 8; here all rounds).  And
// a boost the loop ended when it went to wait must not leave the monitor
// asleep until its next boosted look (4 sampleUs: 800 ms here), blind to
// the next round (every other round ended unboosted).  Every other round
// also opens a connection with the immediate: its fd waits to be
// registered at the immediate's prepare, a poll that still cannot block
// (taken for one that could, and returned at once, it hid the next
// iteration's start again: those rounds ended unboosted).
test('Queue-Boost: a callback after a wait that followed a busy iteration is timed from its own iteration', async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + OVERLOAD_ROUND + `
pin(process.pid, 1);
// sampleUs over the typical iteration: no iteration counts as slow (which
// would publish every start); the overload bound (100 ms) decides.
const s = eb.start({ gc: false, queueFactor: 2.5, bursts: 'arrival', sampleUs: 200000 });
if (!s.active) throw new Error(s.reason);
const net = require('node:net');
const server = net.createServer(() => {}); // accepts; nobody writes
const conns = [];
const round = () => {
  if (atEnd.length % 2) conns.push(net.connect(server.address().port, '127.0.0.1'));
  setImmediate(() => {
    own(5); // an iteration that does not wait (an immediate was due)
    setTimeout(() => overloadRound(round), 50);
  });
};
server.listen(0, '127.0.0.1', () => setTimeout(round, 400));
`);
  assertEveryRoundBoostedByOverload(t, r);
});

// The same after a poll that had a timeout and returned at once (a
// request came during the callback before it: the saturated loop's case).
// The prepare after such a poll does not publish its iteration's start (a
// saturated loop would pay a system call per iteration); the check after
// the wait that follows does, so the timer callback after it is timed from
// its own start, not from the look the monitor's stale timer brings (up to
// one bound late: here every round ended unboosted).
test('Queue-Boost: a callback after a wait that followed a poll which returned at once is timed from its own iteration', async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + OVERLOAD_ROUND + `
pin(process.pid, 1);
// As above: the overload bound (100 ms) decides.
const s = eb.start({ gc: false, queueFactor: 2.5, bursts: 'arrival', sampleUs: 200000 });
if (!s.active) throw new Error(s.reason);
const net = require('node:net');
const server = net.createServer((c) => c.on('data', () => {}));
let client;
const round = () => {
  own(5);
  // On the server's socket before this iteration's poll, whose timeout is
  // the timer's below: it returns at once.  The wait after it is the timer's.
  client.write('x');
  setTimeout(() => overloadRound(round), 50);
};
server.listen(0, '127.0.0.1', () => {
  client = net.connect(server.address().port, '127.0.0.1', () => setTimeout(round, 400));
});
`);
  assertEveryRoundBoostedByOverload(t, r);
});

// The monitor looks, then says it sleeps (asleep); the loop's prepare
// published where an iteration after a wait begins only when it read the
// monitor asleep.  A prepare between the monitor's look and its sleep found
// it awake and published nothing, while the monitor went to sleep on the
// timer of the iteration before: the look that timer brought early timed
// the iteration from itself, up to one bound late.  An iteration after a
// wait now always publishes its start.  Here the monitor wakes for each
// round's byte (bursts 'arrival'), and the test-only
// EVENTBOOST_TEST_SLEEP_DELAY_US holds it between its look and its sleep
// while the loop's data callback queues an immediate, whose own immediate,
// in the next iteration (its poll cannot block), is the round.
test('Queue-Boost: a callback in the iteration that began while the monitor went to sleep is timed from its own iteration', async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + OVERLOAD_ROUND + `
pin(process.pid, 1);
// As above: the overload bound (100 ms) decides.
const s = eb.start({ gc: false, queueFactor: 2.5, bursts: 'arrival', sampleUs: 200000 });
if (!s.active) throw new Error(s.reason);
pinMonitor(0);
// Asked for each round (a byte on its stdin), a peer on CPU 0 writes one
// byte back 50 ms later: it arrives at a waiting loop (sooner, it may be
// ready at the poll after the asking timer's, which returns at once and
// publishes nothing: another case, README).
const writer = spawnWriter("process.stdin.on('data', () => setTimeout(() => process.stdout.write('x'), 50))", 'round', 'pipe');
const round = () => writer.stdin.write('?');
writer.stdout.on('data', () => setImmediate(() => setImmediate(() => overloadRound(round))));
setTimeout(round, 400);
`, { env: { EVENTBOOST_TEST_SLEEP_DELAY_US: '20000' } });
  assertEveryRoundBoostedByOverload(t, r);
});

// headOfLine 'waiting' (issue 21's energy): a callback long next to the
// typical one is boosted only once work waits behind it.  The same kind of
// long work, in turn: with nothing arriving; with a byte arriving from a
// peer before the head-of-line threshold is crossed (the look at the
// crossing finds it); after it (the monitor, past the threshold, watches
// for it); and after it where the work crossed it in an I/O callback and
// goes on in an immediate, past the iteration's check (the watch must
// outlive the check).
test("Queue-Boost: with headOfLine 'waiting', a long callback is boosted only once work waits behind it", async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + `
// The overload bound out of the way (a loop that never waits crosses it
// across iterations): this is about the head-of-line signal.
const s = eb.start({ gc: false, queueFactor: 2.5, bursts: 'arrival', maxDelayMs: 60000, headOfLine: 'waiting' });
if (!s.active) throw new Error(s.reason);
// The loop on CPU 1, the monitor on CPU 0 beside the peer, so that an
// arrival it watches for wakes it at once.
pin(process.pid, 1);
pinMonitor(0);
// For each line it reads ("K MS"), the peer writes K at once and a byte x
// MS later.  It says when it is ready (a Node starting under TCG takes
// seconds).
const writer = spawnWriter(
  "const fs = require('fs'); fs.writeSync(1, 'r');" +
  "require('readline').createInterface({ input: process.stdin }).on('line', (l) => {" +
  "  const [k, ms] = l.split(' '); if (k !== '-') fs.writeSync(1, k); setTimeout(() => fs.writeSync(1, 'x'), Number(ms)); });",
  'bytes', 'pipe');
// 20 ms callbacks, and every fifth round long work: the threshold is 2.5
// times the typical iteration (25-50 ms under TCG, more on a loaded host,
// whose emulation the guest charges to the running thread: 60-130 ms).
const KINDS = [['quiet', 300, 0], ['early', 300, 30], ['late', 500, 350], ['phases', 250, 450]];
const WARM = 60, ROUNDS = 16;
const rounds = { quiet: [], early: [], late: [], phases: [] };
let i = 0, before = null;
const record = (kind) => {
  const at = snap();
  rounds[kind].push({ boostedNow: at.boostedNow, hol: at.byHeadOfLine - before.byHeadOfLine,
    arrivals: at.monitorArrivals - before.monitorArrivals, wakeups: at.monitorWakeups - before.monitorWakeups });
};
const next = () => {
  if (++i < WARM + 5 * ROUNDS) setImmediate(tick);
  else { writer.finish(); console.log(JSON.stringify({ rounds, st: eb.stats().queue })); }
};
const tick = () => {
  const round = i - WARM;
  if (round >= 0 && round % 5 === 0) {
    const [kind, ms, byteAt] = KINDS[(round / 5) % KINDS.length];
    before = snap();
    if (kind === 'phases') {
      // The peer's K starts the work in an I/O callback (below).
      writer.stdin.write('K ' + byteAt + '\\n');
      return;
    }
    if (byteAt) writer.stdin.write('- ' + byteAt + '\\n');
    spin(ms);
    record(kind);
  } else {
    // The peer's first bytes come late (its code is compiled, under TCG):
    // not into the rounds (its last ones 20 iterations before).  Nor V8's
    // first optimisation of a long spin, whose result a helper thread may
    // post to the loop (on Node 26 something came in the first long round):
    // one long callback first, unrecorded.
    if (i < WARM - 20 && i % 4 === 0) writer.stdin.write('- 1\\n');
    spin(i === WARM - 10 ? 300 : 20);
  }
  next();
};
writer.stdout.once('data', () => {
  writer.stdout.on('data', (d) => {
    if (!d.includes(0x4b)) return; // 'K'
    spin(250);
    setImmediate(() => { spin(400); record('phases'); next(); });
  });
  setImmediate(tick);
});
`, { args: ['--single-threaded'] });
  assert.strictEqual(r.code, 0, r.err);
  const { rounds: { quiet, early, late, phases }, st } = r.json[0];
  const boosted = (a) => a.filter((x) => x.boostedNow).length;
  t.diagnostic(`boosted at the end: nothing arriving ${boosted(quiet)} of ${quiet.length} ` +
    `(monitor wake-ups ${quiet.map((x) => x.wakeups).join(', ')}), ` +
    `a byte before the threshold ${boosted(early)} of ${early.length}, after it ${boosted(late)} of ${late.length} ` +
    `(woken for it ${late.filter((x) => x.arrivals > 0).length} times), after it in an immediate ${boosted(phases)} of ${phases.length} ` +
    `(woken for it ${phases.filter((x) => x.arrivals > 0).length} times); ${JSON.stringify(st)}`);
  // V8 posting a task to the loop is work waiting too: the service runs
  // with --single-threaded (no background compiles to finish during a
  // quiet round; on Node 26 without it one quiet round in four or five was
  // boosted).  One may still be unlucky.  The default ('always') boosts
  // every one of them: the tests above.
  assert.ok(quiet.filter((x) => x.hol > 0).length <= 1, JSON.stringify(quiet));
  // Past the threshold with nothing arriving the monitor sleeps: woken at
  // the threshold (its CPU-time timer) and by the prepare that ends the
  // work, not a look every sampleUs (a 1 ms poll would be ~70 here).  But it
  // does wake: until the end of the warm-up woke it (32 iterations), a
  // monitor that had not learnt the baselines slept through the first
  // long callbacks, up to maxDelayMs of CPU time.  (An unlucky round, boosted,
  // looks as a boosted monitor does.)
  assert.ok(quiet.filter((x) => x.hol === 0).every((x) => x.wakeups >= 1 && x.wakeups <= 6), JSON.stringify(quiet));
  assert.ok(boosted(early) >= early.length - 1, JSON.stringify(early));
  // The late bytes woke the monitor, which was watching for them.
  for (const a of [late, phases]) {
    assert.ok(a.filter((x) => x.boostedNow && x.arrivals > 0 && x.hol > 0).length >= a.length - 1, JSON.stringify(a));
  }
});

// A server's long callback nearly always changes what libuv watches: it
// accepted a connection (a read started), or ends one (a shutdown waits for
// POLLOUT).  libuv's public uv_backend_timeout() then answers 0 at the next
// prepare, though uv_run() blocks all the same.  The boost must still end
// at that prepare, when the loop goes to wait, not at the monitor's next
// looks (boosted, 4 sampleUs apart: 400 ms here, so a boost left to them
// is still on when the timer below runs).
test('Queue-Boost: the boost ends when the loop waits after a callback that accepted and ended a connection', async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + `
const net = require('node:net');
pin(process.pid, 1);
const s = eb.start({ gc: false, queueFactor: 2.5, bursts: 'arrival', sampleUs: 100000 });
if (!s.active) throw new Error(s.reason);
const results = [];
const ROUNDS = 3;
const server = net.createServer((c) => {
  spin(300); // three times maxDelayMs: boosted while it runs
  const during = snap();
  c.end('x');
  // The loop waits next (the client keeps quiet).
  afterWait(() => {
    results.push({ during, after: snap() });
    if (results.length < ROUNDS) setTimeout(connect, 100);
    else { console.log(JSON.stringify({ results, st: eb.stats().queue })); process.exit(0); }
  });
});
// The client: a child on CPU 0, one fresh connection per round.  It keeps
// its side open (allowHalfOpen) for 20 s after the server's FIN, past the
// test's end, so nothing more happens on any connection while a timer above
// waits: what the loop does after each round is this round's alone.
let port;
const connect = () => spawnPeer(
  'const c = require("node:net").connect({ port: ' + port + ', host: "127.0.0.1", allowHalfOpen: true });' +
  'c.resume(); c.on("end", () => setTimeout(() => process.exit(0), 20000));');
server.listen(0, '127.0.0.1', () => { port = server.address().port; setTimeout(connect, 200); });
`);
  assert.strictEqual(r.code, 0, r.err);
  const { results, st } = r.json[0];
  t.diagnostic(JSON.stringify({ results, st }));
  assert.strictEqual(st.errors, 0, JSON.stringify(st));
  // Each long callback was boosted while it ran ...
  assert.ok(results.every((x) => x.during.boostedNow), JSON.stringify(results));
  // ... and the boost was over, in the monitor and in the kernel, once the
  // loop had waited.
  assert.ok(results.every((x) => !x.after.boostedNow && !x.after.kernelBoosted), JSON.stringify(results));
});

// The monitor decides to boost on what it saw of the loop a moment ago.  If
// the loop finishes its long callback and begins to wait in between, its
// prepare found no vote to end: a vote cast then must end at once, not hold
// an idle core until the monitor's next looks.  The test hook delays every
// vote by 600 ms after the decision, so that the wait always overtakes it
// (the decision comes 100-200 ms into the callback, which ends ~300 ms in).
test('Queue-Boost: a vote cast after the loop began to wait ends at once', async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + `
pin(process.pid, 1);
const s = eb.start({ gc: false, queueFactor: 2.5, bursts: 'arrival', sampleUs: 100000 });
if (!s.active) throw new Error(s.reason);
setTimeout(() => {
  spin(300); // past maxDelayMs: the monitor decides to boost while it runs
  const during = snap();
  // The loop waits 1 s: the late vote comes in that wait.
  setTimeout(() => { console.log(JSON.stringify({ during, after: snap() })); process.exit(0); }, 1000);
}, 200);
`, { env: { EVENTBOOST_TEST_VOTE_DELAY_US: '600000' } });
  assert.strictEqual(r.code, 0, r.err);
  const { during, after } = r.json[0];
  t.diagnostic(JSON.stringify({ during, after }));
  assert.strictEqual(after.errors, 0, JSON.stringify(after));
  // The vote came after the callback had ended ...
  assert.ok(!during.boostedNow && during.boosts === 0, JSON.stringify(during));
  assert.strictEqual(after.boosts, 1, JSON.stringify(after));
  // ... and did not hold while the loop waited.
  assert.ok(!after.boostedNow && !after.kernelBoosted, JSON.stringify(after));
});

// Each vote the monitor casts wakes the loop once: that iteration is no
// work of the service's, and the baselines must not count it.
test('Queue-Boost: the wake-up after each monitor vote is not an iteration of the baselines', async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + `
pin(process.pid, 1);
// The overload bound (5 ms) sees every 30 ms callback: the monitor votes
// during each, and each vote wakes the loop once more (an extra iteration
// with the vote's wake-up as its only event) before it waits again.
const s = eb.start({ gc: false, queueFactor: 2.5, bursts: 'arrival', maxDelayMs: 5 });
if (!s.active) throw new Error(s.reason);
let i = 0;
const tick = () => {
  spin(30);
  if (++i < 40) setTimeout(tick, 20);
  else afterWait(() => { console.log(JSON.stringify({ st: eb.stats().queue })); process.exit(0); });
};
setTimeout(tick, 20);
`);
  assert.strictEqual(r.code, 0, r.err);
  const { st } = r.json[0];
  t.diagnostic(JSON.stringify(st));
  assert.strictEqual(st.errors, 0);
  // The monitor voted during most callbacks (each one woke the loop).
  assert.ok(st.byOverload >= 20, JSON.stringify(st));
  // The typical iteration is a callback of 30 ms of CPU time or more, and
  // iterations have no events (timers): counted as iterations, the
  // wake-ups would halve the one and make the other about one half.
  assert.ok(st.avgBusyUs >= 0.6 * 30000, `avgBusyUs ${st.avgBusyUs}: ` + JSON.stringify(st));
  assert.ok(st.avgLength < 0.25, `avgLength ${st.avgLength}: ` + JSON.stringify(st));
});

// The other side of the accept-and-end test above: connections that
// arrived while the loop was held are accepted in one iteration, and their
// requests are read in the next.  At the prepare between the two their fds
// are not in the epoll set yet, but their requests are in: the loop will
// not wait, and the boost must hold into the iteration that reads them.
test('Queue-Boost: a boost holds from accepting a backlog of connections into reading their requests', async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + `
const net = require('node:net');
pin(process.pid, 1);
const s = eb.start({ gc: false, queueFactor: 2.5, bursts: 'arrival', sampleUs: 100000 });
if (!s.active) throw new Error(s.reason);
const N = 8;
let during = null, firstRead = null, reads = 0;
const server = net.createServer((c) => c.on('data', () => {
  if (!firstRead) firstRead = snap();
  if (++reads === N) { console.log(JSON.stringify({ during, firstRead, st: eb.stats().queue })); process.exit(0); }
}));
server.listen(0, '127.0.0.1', () => {
  // A child on CPU 0 that connects N times and sends on each at once, when
  // told to: while this loop is held by the callback below.
  const ch = spawnPeer(
    'let closed = 0; process.stdout.write("ready"); process.stdin.once("data", () => { for (let i = 0; i < ' + N + '; i++) {' +
    ' const c = require("node:net").connect(' + server.address().port + ', "127.0.0.1", () => c.write("x")); c.resume();' +
    ' c.on("close", () => { if (++closed === ' + N + ') process.exit(0); }); } });' +
    'setTimeout(() => process.exit(0), 20000);',
    ['pipe', 'pipe', 'ignore']);
  // The server's end of each connection the kernel has established (in
  // the listen queue or accepted): /proc/net/tcp, state 01.
  const port = server.address().port.toString(16).toUpperCase().padStart(4, '0');
  const established = () => require('node:fs').readFileSync('/proc/net/tcp', 'utf8').split('\\n')
    .filter((l) => { const f = l.trim().split(/\\s+/); return f[1] && f[1].endsWith(':' + port) && f[3] === '01'; }).length;
  ch.stdout.once('data', () => {
    ch.stdin.write('go');
    spin(600); // six times maxDelayMs: boosted, and the connections arrive meanwhile
    // Under TCG the child may connect late, and the loop then finds
    // nothing ready and rightly ends the boost (the likely cause of one
    // failure in 15 runs on 6.12-rt): hold the loop until all N are in,
    // and their bytes a moment later.
    for (let i = 0; established() < N && i < 200; i++) spin(50);
    spin(50);
    during = snap();
  });
});
`);
  assert.strictEqual(r.code, 0, r.err);
  const { during, firstRead, st } = r.json[0];
  t.diagnostic(JSON.stringify({ during, firstRead, st }));
  assert.strictEqual(st.errors, 0, JSON.stringify(st));
  assert.ok(during.boostedNow, JSON.stringify(during));
  assert.ok(firstRead.boostedNow && firstRead.kernelBoosted, JSON.stringify(firstRead));
});

// node -r eventboost/register starts the monitor before the main script
// runs: the script's own start-up work (requires, set-up, a synchronous
// spawn) is no backlog -- nothing waits behind it until the loop runs --
// and no iteration either: it must not teach the typical iteration's time.
// The monitor sleeps until the loop's first prepare, so a baseline that
// took what ran before it would take all 900 ms of start-up, over twice
// maxDelayMs, which is 400 because in a KASAN guest the loop's first
// iteration itself (V8's first tasks) has used more than 100 ms of its CPU.
test('Queue-Boost: start-up work before the loop first runs is not a backlog', async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + `
pin(process.pid, 1);
const s = eb.start({ gc: false, queueFactor: 2.5, bursts: 'arrival', maxDelayMs: 400 });
if (!s.active) throw new Error(s.reason);
spin(900);
const atStart = snap();
setImmediate(() => {
  const first = snap();
  // The monitor looks at the first iteration, then sleeps while the loop
  // waits for this timer.
  setTimeout(() => console.log(JSON.stringify({ atStart, first, later: snap() })), 50);
});
`);
  assert.strictEqual(r.code, 0, r.err);
  const { atStart, first, later } = r.json[0];
  t.diagnostic(JSON.stringify(later));
  assert.strictEqual(atStart.boosts, 0, JSON.stringify(atStart));
  // It did not look before the loop ran.
  assert.strictEqual(atStart.monitorWakeups, 0, JSON.stringify(atStart));
  assert.strictEqual(first.boosts, 0, JSON.stringify(first));
  assert.strictEqual(first.kernelBoosted, false, JSON.stringify(first));
  assert.strictEqual(later.boosts, 0, JSON.stringify(later));
  assert.ok(later.samples >= 1, JSON.stringify(later));
  // The typical iteration is the loop's, not the start-up's 900 ms (or
  // still 0: no look has seen an iteration end yet).
  assert.ok(later.avgBusyUs < 450000, JSON.stringify(later));
});

test('Queue-Boost: watching begins at the first iteration, whatever sampleUs', async (t) => {
  // The monitor waits for the loop's first iteration before it looks; it
  // must start looking then, not a fixed nap later (10 sample periods: 5 s
  // here, which saw nothing of a 2 s callback).
  const r = await h.runNode(h.PRELUDE + SNAP + `
pin(process.pid, 1);
const s = eb.start({ gc: false, queueFactor: 2.5, bursts: 'arrival', sampleUs: 500000 });
if (!s.active) throw new Error(s.reason);
setTimeout(() => {
  spin(2000); // twenty times maxDelayMs, four sample periods
  console.log(JSON.stringify(snap()));
}, 20);
`);
  assert.strictEqual(r.code, 0, r.err);
  const st = r.json[0];
  t.diagnostic(JSON.stringify(st));
  assert.ok(st.boosts >= 1 && st.byOverload >= 1, JSON.stringify(st));
});

// Under sustained overload the kernel ends the queue vote -- the watchdog
// after max_boost_us, the budget at the process's share -- while the
// backlog lasts.  The monitor must notice and vote again (within the
// budget), not believe itself boosted while the core runs at base.
test('Queue-Boost: a vote the kernel ended is renewed while the overload lasts, within the budget', async (t) => {
  h.governEverything({ maxBoostUs: 100000 });
  h.tunable(1, 'budget_pct', 40); // a process may hold 20% of each 1 s window
  const r = await h.runNode(h.PRELUDE + SNAP + `
pin(process.pid, 1);
const s = eb.start({ gc: false, queueFactor: 2.5, bursts: 'arrival' });
if (!s.active) throw new Error(s.reason);
const k0 = eb.stats().kernel, t0 = process.hrtime.bigint();
let i = 0;
const tick = () => {
  spin(200);
  if (++i < 30) return setImmediate(tick);
  const k1 = eb.stats().kernel, st = eb.stats().queue;
  console.log(JSON.stringify({ st, k1,
    wallMs: Number(process.hrtime.bigint() - t0) / 1e6,
    boostedMs: k1.boostedMs - k0.boostedMs,
    watchdogEnds: k1.watchdogEnds - k0.watchdogEnds,
    budgetEnds: k1.budgetEnds - k0.budgetEnds }));
};
setImmediate(tick);
`);
  assert.strictEqual(r.code, 0, r.err);
  const { st, wallMs, boostedMs, watchdogEnds } = r.json[0];
  t.diagnostic(`kernel boosted ${boostedMs.toFixed(0)} of ${wallMs.toFixed(0)} ms, ` +
    `${watchdogEnds} watchdog ends; ${JSON.stringify(st)}`);
  assert.ok(st.byOverload >= 1, JSON.stringify(st));
  // The watchdog ended votes, and the monitor renewed them.
  assert.ok(watchdogEnds >= 2, `watchdog ends ${watchdogEnds}`);
  assert.ok(st.renewed >= 2, JSON.stringify(st));
  // One vote is at most 100 ms: more than three of them means renewed
  // votes were held (30 callbacks of 200 ms of the process's CPU time:
  // 6 s and more of overload, a 200 ms share in each second) ...
  assert.ok(boostedMs > 300, `kernel boosted ${boostedMs} ms of ${wallMs}`);
  // ... and never past the process's share of a window, in each window
  // the run touched (a part-window at either end may hold a whole share).
  const windows = Math.floor(wallMs / 1000) + 2;
  assert.ok(boostedMs <= 200 * windows, `kernel boosted ${boostedMs} ms of ${wallMs}`);
});

// Where eventboost does not govern the loop's CPU a hint succeeds and holds
// nothing: the monitor must not take that for a vote to renew at every look.
test('Queue-Boost: on a CPU eventboost does not govern, nothing is renewed', async (t) => {
  h.governEverything({ maxBoostUs: 100000 });
  require('node:fs').writeFileSync('/sys/devices/system/cpu/cpufreq/policy1/scaling_governor', 'performance');
  try {
    const r = await h.runNode(h.PRELUDE + SNAP + `
pin(process.pid, 1);
const s = eb.start({ gc: false, queueFactor: 2.5, bursts: 'arrival' });
if (!s.active) throw new Error(s.reason);
let i = 0;
const tick = () => {
  spin(200);
  if (++i < 8) return setImmediate(tick);
  console.log(JSON.stringify(eb.stats().queue));
};
setImmediate(tick);
`);
    assert.strictEqual(r.code, 0, r.err);
    const st = r.json[0];
    t.diagnostic(JSON.stringify(st));
    assert.ok(st.byOverload >= 1, JSON.stringify(st)); // it boosted, as far as it knows
    assert.ok(st.samples >= 8, JSON.stringify(st)); // and looked while boosted
    assert.strictEqual(st.renewed, 0, JSON.stringify(st));
    assert.strictEqual(st.errors, 0, JSON.stringify(st));
  } finally {
    h.governEverything();
  }
});

test('Queue-Boost: a loop saturated by uniform long callbacks (overload) is boosted', async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + `
pin(process.pid, 1);
const s = eb.start({ gc: false });
if (!s.active) throw new Error(s.reason);
// Every callback takes 200 ms and the loop never waits: the average is the
// load itself, only the absolute bound (maxDelayMs, 100 ms) can see it.
const seen = [];
let i = 0;
const tick = () => {
  spin(200);
  seen.push(snap());
  if (++i < 12) setImmediate(tick);
  else console.log(JSON.stringify({ seen, st: eb.stats().queue }));
};
setImmediate(tick);
`);
  assert.strictEqual(r.code, 0, r.err);
  const { seen, st } = r.json[0];
  t.diagnostic(JSON.stringify(st));
  assert.ok(st.boosts >= 1, JSON.stringify(st));
  assert.ok(st.byOverload >= 1, JSON.stringify(st));
  // Held while the overload lasts.
  assert.ok(seen.slice(-5).every((x) => x.boostedNow), JSON.stringify(seen.map((x) => x.boostedNow)));
});

// In a callback: three times the overload bound (maxDelayMs, 100 ms) of
// the loop's CPU, a 2 s sleep, and as much CPU again; what the core and the
// monitor did meanwhile.
const SLEEP_IN_CALLBACK = `
function sleepInCallback() {
  own(300);
  const before = snap();
  const k0 = eb.stats(), t0 = process.hrtime.bigint();
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2000);
  const k1 = eb.stats(), t1 = process.hrtime.bigint();
  own(300);
  return { before, after: snap(), st: eb.stats().queue,
    sleptMs: Number(t1 - t0) / 1e6,
    boostedMs: k1.kernel.boostedMs - k0.kernel.boostedMs,
    wakeups: k1.queue.monitorWakeups - k0.queue.monitorWakeups };
}
`;

function assertNotHeldAsleep(res) {
  const { before, after, st, sleptMs, boostedMs, wakeups } = res;
  assert.ok(before.boostedNow, `not boosted before the sleep: ${JSON.stringify(before)}`);
  // Ended, not held for the 2 s: the first look inside the sleep comes
  // within a boosted monitor's interval (here at most the overload bound,
  // 100 ms), the look that confirms it 32 samples (32 ms) after that, and
  // the guest's clock steps are up to 100 ms.  Until 2026-12-03 the
  // confirming look came a whole interval later, and the first inside the
  // sleep did not count: up to 500 ms on 7.2 with Node 26.
  assert.ok(boostedMs <= 300, `boosted ${boostedMs} of the ${sleptMs} ms asleep`);
  // Then asleep until the loop runs: not a look every few samples (~500
  // while the boost was held).
  assert.ok(wakeups < 50, `${wakeups} monitor wake-ups in ${sleptMs} ms asleep`);
  assert.ok(after.boostedNow, `not boosted once it ran again: ${JSON.stringify(after)}`);
  assert.ok(st.byOverload >= 2, JSON.stringify(st));
  // Ended by the sleep rule, not by a signal that let go.
  assert.ok(st.endedAsleep >= 1, JSON.stringify(st));
}

// A callback that blocks outside the poll (Atomics.wait here; execSync, a
// synchronous read alike) leaves nothing of the loop on its core: the
// boost its overload earned ends while it sleeps, and comes back once it
// runs again.  Before 2026-12-02 the boost was held, and renewed, through
// the whole sleep.
test('Queue-Boost: a loop asleep outside its poll is not held boosted, and is boosted again when it runs', async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + SLEEP_IN_CALLBACK + `
pin(process.pid, 1);
const s = eb.start({ gc: false });
if (!s.active) throw new Error(s.reason);
setImmediate(() => console.log(JSON.stringify(sleepInCallback())));
`);
  assert.strictEqual(r.code, 0, r.err);
  const res = r.json[0];
  t.diagnostic(`boosted ${res.boostedMs} of the ${res.sleptMs.toFixed(0)} ms asleep, ${res.wakeups} monitor wake-ups meanwhile; ${JSON.stringify(res.st)}`);
  assertNotHeldAsleep(res);
});

// The same sleep in an I/O callback ('data' comes from the pipe's read
// callback, in the poll phase), while a peer keeps writing: the loop's
// epoll set is ready (the bytes, and the monitor's wake-up after its vote
// in the callback, read only at the next poll), so it is not taken for a
// loop waiting in its poll, yet nothing of it runs on its core.  Until
// 2026-12-03 the boost was held, and renewed, through the sleep.
test('Queue-Boost: a loop asleep in an I/O callback with work ready is not held boosted, and is boosted again when it runs', async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + SLEEP_IN_CALLBACK + `
pin(process.pid, 1);
const s = eb.start({ gc: false });
if (!s.active) throw new Error(s.reason);
// A byte every 10 ms into the loop's pipe, through the sleep too.
const writer = spawnWriter(
  "const fs = require('fs'); const w = () => { fs.writeSync(1, 'x'); setTimeout(w, 10); }; w();",
  'bytes');
let res = null;
writer.stdout.on('data', (d) => {
  if (res) {
    // What the writer wrote while the loop slept, read now: the premise.
    res.queued = d.length;
    writer.finish();
    console.log(JSON.stringify(res));
    process.exit(0);
  }
  res = sleepInCallback();
});
`);
  assert.strictEqual(r.code, 0, r.err);
  const res = r.json[0];
  t.diagnostic(`boosted ${res.boostedMs} of the ${res.sleptMs.toFixed(0)} ms asleep, ${res.wakeups} monitor wake-ups and ${res.queued} bytes queued meanwhile; ${JSON.stringify(res.st)}`);
  // The premise: the peer kept the loop's pipe ready through the sleep (a
  // byte every 10 ms: ~200 in the 2 s, ~30 in the 300 ms after it).
  assert.ok(res.queued >= 100, `${res.queued} bytes written while the loop slept`);
  assertNotHeldAsleep(res);
});

// A saturated loop that waits, a few ms at a time, on a thread on its own
// core -- V8's GC helpers when the whole process shares one core, as in
// make demo; a lock, a page fault alike: the loop is not runnable and its
// CPU time stands still for a moment, but its work goes on on that core.
// A boost held by the overload is not ended at each such wait (two ioctls
// and a look each, and the helper's work at the base clock).  Until
// 2026-12-03 a look that fell inside one ended it: the rule for a loop
// asleep in a callback took one look for a sleep.
test('Queue-Boost: a saturated loop that waits briefly on a thread on its core keeps its boost', async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + `
pin(process.pid, 1);
const s = eb.start({ gc: false });
if (!s.active) throw new Error(s.reason);
const { Worker } = require('node:worker_threads');
// The helper, on CPU 1 too (a thread started after the pin inherits it):
// at each call, 8 ms of work, then an answer.
const flag = new Int32Array(new SharedArrayBuffer(4));
const helper = new Worker(\`
  const { workerData } = require('node:worker_threads');
  const flag = new Int32Array(workerData);
  Atomics.store(flag, 0, 2); Atomics.notify(flag, 0);
  for (;;) {
    Atomics.wait(flag, 0, 0);
    const end = performance.now() + 8;
    while (performance.now() < end);
    Atomics.store(flag, 0, 0); Atomics.notify(flag, 0);
  }
\`, { eval: true, workerData: flag.buffer });
helper.unref();
// The helper runs (the monitor, started after the pin, is on CPU 1 too:
// it looks only while that CPU runs).
if (Atomics.wait(flag, 0, 0, 60000) === 'timed-out') throw new Error('the helper did not start in 60 s');
Atomics.store(flag, 0, 0);
// A byte every 10 ms into the loop's pipe: work is ready throughout.
const writer = spawnWriter(
  "const fs = require('fs'); const w = () => { fs.writeSync(1, 'x'); setTimeout(w, 10); }; w();",
  'bytes');
// A hundred short iterations first: a boosted monitor then looks every 4
// samples (4 ms), not every typical iteration (the start-up's, ~100 ms
// here), so a look can fall inside one wait.
let reads = 0;
writer.stdout.on('data', () => {
  if (++reads !== 100) return;
  const call = () => {
    Atomics.store(flag, 0, 1); Atomics.notify(flag, 0);
    if (Atomics.wait(flag, 0, 1, 60000) === 'timed-out') throw new Error('the helper did not answer in 60 s');
  };
  for (let i = 0; i < 5; i++) call(); // the helper's first calls are slow
  own(300); // past the overload bound: boosted
  const before = snap();
  const held = [], waitMs = [];
  for (let i = 0; i < 80; i++) {
    own(2);
    const w0 = performance.now();
    call(); // returns when the helper answers
    waitMs.push(Math.round(performance.now() - w0));
    held.push(snap().boostedNow);
  }
  writer.finish();
  console.log(JSON.stringify({ before, held, waitMs, st: eb.stats().queue }));
  process.exit(0);
});
`);
  assert.strictEqual(r.code, 0, r.err);
  const { before, held, waitMs, st } = r.json[0];
  const looks = st.samples - before.samples;
  t.diagnostic(`${held.length} waits on the helper (ms: ${waitMs.join(' ')}), unboosted after ${held.map((b, i) => (b ? -1 : i)).filter((i) => i >= 0).join(', ') || 'none'}; ${looks} looks; ${JSON.stringify(st)}`);
  assert.ok(before.boostedNow, `not boosted before the waits: ${JSON.stringify(before)}`);
  // The premise: the monitor looked all through the waits (a boosted one
  // every 4 samples), so its looks fell inside them.
  assert.ok(looks >= 80, `${looks} looks in 80 waits`);
  // A wait may last longer under TCG (up to 81 ms seen, TCG running the
  // other vCPU alone meanwhile) and end a boost once it outlasts 32
  // samples; a short one may not.  Most are short (8 ms of the helper's
  // work: 9-14 ms on 6.12, 9-30 on 7.2).
  // The premise: most waits were short.
  const long = waitMs.filter((ms) => ms >= 32).length;
  assert.ok(long <= 40, `${long} of the waits lasted 32 ms or more: ${waitMs.join(' ')}`);
  const ended = st.endedAsleep - before.endedAsleep;
  assert.ok(ended <= long, `${ended} boosts ended in ${long} waits of 32 ms or more: ${JSON.stringify(st)}`);
  // And the boost was on after the waits but those that ended it (and one
  // or two after each, until the monitor boosts the running loop again).
  const unboosted = held.filter((b) => !b).length;
  assert.ok(unboosted <= 3 * ended, `unboosted after ${unboosted} waits, ${ended} boosts ended: ${JSON.stringify(held)}`);
});

// Closed-loop overload as make demo's wrk makes it: iterations far below
// every bound, each finding work ready, the loop never waiting.  Only the
// loop's CPU time since it last waited shows it (before 2026-12-01 the
// overload bound counted one iteration's time, and this loop ran at its
// base clock).
test('Queue-Boost: a loop saturated by short callbacks that never waits is boosted, until it waits', async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + `
pin(process.pid, 1);
// The head-of-line threshold at 20x the typical iteration, clear of the
// clock steps above SNAP: at 5x (about 90 ms here) a head-of-line boost was
// once begun after the loop had waited (6.12 guest, Node 20, 2026-12-02;
// one step the likely cause).  This is about the overload bound.
const s = eb.start({ gc: false, queueFactor: 20 });
if (!s.active) throw new Error(s.reason);
// 10 ms callbacks back to back (immediates): no iteration nears the
// head-of-line threshold or the overload bound (100 ms), but after ten of
// them the loop has gone 100 ms of its CPU time without waiting.
const seen = [];
let i = 0;
const tick = () => {
  own(10);
  seen.push(snap());
  if (++i < 60) setImmediate(tick);
  else afterWait(() => { console.log(JSON.stringify({ seen, after: snap() })); process.exit(0); });
};
setImmediate(tick);
`);
  assert.strictEqual(r.code, 0, r.err);
  const { seen, after } = r.json[0];
  const last = seen[seen.length - 1];
  t.diagnostic(JSON.stringify(after));
  // The loop never waited while the callbacks ran.
  assert.strictEqual(last.waits, seen[0].waits, JSON.stringify(last));
  assert.ok(last.byOverload >= 1, JSON.stringify(last));
  // Held while the loop stays saturated: the last 20 callbacks ended boosted.
  assert.ok(seen.slice(-20).every((x) => x.boostedNow), JSON.stringify(seen.map((x) => x.boostedNow)));
  // Looked at as a boosted monitor looks: about once per typical
  // iteration, not a spin.
  const held = seen.length - 20;
  assert.ok(last.monitorWakeups - seen[held].monitorWakeups <= 2 * (last.iterations - seen[held].iterations), JSON.stringify({ at: seen[held], last }));
  // And over once it waits, with no boost begun at that wait (before its
  // check the loop's last wait is still the saturated run's start: a look
  // then once took the run for still going, and voted again).
  assert.ok(after.waits > last.waits && !after.boostedNow, JSON.stringify(after));
  assert.strictEqual(after.byOverload, last.byOverload, JSON.stringify({ last, after }));
});

// Saturated under a budget that refuses, then idle: the monitor must not
// take the idle loop for the saturated one it last saw, asking the kernel
// again every 16 samples or boosting once the budget frees.
//
// The saturation's own end is not idle: between its last callback and the
// poll that blocks, the loop is still runnable and has not waited, and a
// look there cannot tell it from a saturated one.  That look may be refused
// or, if the budget's 1 s window has just rolled, granted: a boost the
// loop's next prepare ends before it waits (6.12 guest, CI of e9c742d,
// 2026-12-02: one such boost, held 66 ms of guest time, likely while TCG
// ran the other vCPU; re-run 10 times there, 2 runs had one).  So the idle
// part is counted from a point after the loop waited: 1.5 s from there
// holds a whole budget window, past which a monitor that still took the
// loop for saturated boosts.
test('Queue-Boost: after a saturation the budget refused, an idle loop is left alone', async (t) => {
  h.tunable(1, 'budget_pct', 10); // a process may hold 5% of each 1 s window
  const r = await h.runNode(h.PRELUDE + SNAP + `
pin(process.pid, 1);
const s = eb.start({ gc: false });
if (!s.active) throw new Error(s.reason);
let i = 0;
const tick = () => {
  own(10);
  if (++i < 60) return setImmediate(tick);
  // 600 ms saturated, past the budget's 50 ms; then idle.
  const atIdle = snap();
  afterWait(() => {
    const waited = snap();
    setTimeout(() => { console.log(JSON.stringify({ atIdle, waited, after: snap() })); process.exit(0); }, 1500);
  });
};
setImmediate(tick);
`);
  assert.strictEqual(r.code, 0, r.err);
  const { atIdle, waited, after } = r.json[0];
  const d = (k) => after[k] - waited[k];
  t.diagnostic(`saturated: ${atIdle.byOverload} overload boosts, ${atIdle.refused} refused; its end: ` +
    `${waited.boosts - atIdle.boosts} boosts, ${waited.refused - atIdle.refused} refused; idle: ` +
    `${d('boosts')} boosts, ${d('refused')} refused, ${d('monitorWakeups')} wake-ups`);
  // The test's premise: the saturation was boosted, then refused, and the
  // loop has waited since.
  assert.ok(atIdle.byOverload >= 1 && atIdle.refused >= 1, JSON.stringify(atIdle));
  assert.ok(waited.waits > atIdle.waits, JSON.stringify({ atIdle, waited }));
  // Before the fix: a boost once the budget freed, and 9 refusals and 13
  // wake-ups in 1.5 s of idle.  Since: none, none and 1 (6.12 guest, Node
  // 20, 10 runs, 2026-12-02; the saturation's end had 0-1 boosts, 2-6
  // refusals).  A wake-up a second is the baselines' refresh (kRefreshNs).
  assert.strictEqual(d('boosts'), 0, JSON.stringify({ waited, after }));
  assert.ok(!after.boostedNow, JSON.stringify(after));
  assert.ok(d('refused') <= 1, JSON.stringify({ waited, after }));
  assert.ok(d('monitorWakeups') <= 4, JSON.stringify({ waited, after }));
});

// The other side: callbacks of the same length with a wait between them (a
// loop busy half the time) are not overloaded, though their CPU time adds
// up to one and a half times the bound.  For the clock steps above SNAP the
// work is spin()'s, the waits are as long as a callback (with 2 ms ones and
// own(), it failed 6 runs of 6 on the 6.1 guest, Node 22), and the bound is
// 1 s, ten steps without a wait (at 250 ms, 1 run in 8 was boosted).  A monitor that counted across waits
// crosses it two thirds of the way in.
test('Queue-Boost: a loop that waits between short callbacks is not boosted by the overload bound', async (t) => {
  const r = await h.runNode(h.PRELUDE + SNAP + `
pin(process.pid, 1);
const s = eb.start({ gc: false, maxDelayMs: 1000 });
if (!s.active) throw new Error(s.reason);
let i = 0;
const tick = () => {
  spin(10);
  if (++i < 150) setTimeout(tick, 10);
  else console.log(JSON.stringify(snap()));
};
setTimeout(tick, 10);
`);
  assert.strictEqual(r.code, 0, r.err);
  const st = r.json[0];
  t.diagnostic(JSON.stringify(st));
  assert.ok(st.waits >= 110, JSON.stringify(st));
  assert.strictEqual(st.byOverload, 0, JSON.stringify(st));
});

// A loop whose callbacks each end in a short wait (the threadpool's answer,
// a peer's, a timer, a closed-loop client's next request) is as saturated
// as one that never waits: the overload count stands through waits while
// the loop stays idle less than a tenth of its CPU time, and the boost
// stays on through them.  Before 2026-12-02 every wait restarted the
// count, and such a loop ran at its base clock however busy; before
// 2026-12-03 every wait of a sample or more did (make demo's overload: a
// few waits of some ms a second, each followed by 100 ms of CPU time
// unboosted).  Scaled for the clock steps above SNAP: callbacks of 160 ms
// of the loop's CPU, a 400 ms bound, and every other thread of the
// process (V8's, the monitor) on CPU 0; each callback followed by a 5 ms
// timer's wait, with a 50 ms sample or the default 1 ms one (waits past
// it: 10 ms ones left the count only ~5 ms of its idle allowance at the
// first waits, too little for the clock steps).  A wait in the 2026-12-02
// CI was an fs.stat's: with Node 24 and 26 the threadpool often answered
// before the loop polled, and the loop did not wait.
for (const sampleUs of [50000, 1000]) {
  test(`Queue-Boost: a loop saturated by callbacks with short waits between them is boosted (sampleUs ${sampleUs}), until it waits long`, async (t) => {
    const r = await h.runNode(h.PRELUDE + SNAP + `
pin(process.pid, 1);
const s = eb.start({ gc: false, queueFactor: 20, sampleUs: ${sampleUs}, maxDelayMs: 400 });
if (!s.active) throw new Error(s.reason);
for (const tid of require('node:fs').readdirSync('/proc/self/task')) {
  try { if (Number(tid) !== process.pid) pin(tid, 0); } catch {} // a thread may have ended
}
const seen = [];
let i = 0;
const tick = () => {
  own(160);
  seen.push(snap());
  if (++i < 25) return setTimeout(tick, 5);
  // The loop waits long: 300 ms, three quarters of the bound.
  setTimeout(() => { console.log(JSON.stringify({ seen, after: snap() })); process.exit(0); }, 300);
};
setTimeout(tick, 5);
`);
    assert.strictEqual(r.code, 0, r.err);
    const { seen, after } = r.json[0];
    const last = seen[seen.length - 1];
    t.diagnostic(JSON.stringify({ boostedAtEnd: seen.map((x) => (x.boostedNow ? 1 : 0)).join(''), last, after }));
    assert.strictEqual(last.errors, 0, JSON.stringify(last));
    // The premise: the loop waited between at least half of the last 20
    // callbacks.  Not all: a clock step between a callback and its poll
    // uses the wait up (with Node 26 on 7.2, 16 waits between 25 callbacks
    // in one run of three; 20-23 with Node 20 on 6.12).  A run of
    // callbacks with no wait between them is a saturation the old count
    // saw too, but it never held a boost through a wait: without the
    // change no callback of 25 ended boosted (5 ms waits, 6.12, Node 20, 2
    // runs of 2; with a 1 ms sample, before 2026-12-03: none either, 10 ms
    // waits, same guest).
    const held = seen[seen.length - 21];
    assert.ok(last.waits - held.waits >= 10, JSON.stringify({ held, last }));
    // Boosted by the overload bound, and held: the bound is crossed in the
    // 3rd callback, and at least 15 of the last 20 ended boosted (18-20 in
    // 18 runs on every kernel with 5 ms waits: a wait a clock step
    // stretches past the idle time the count allows restarts it, and the
    // two callbacks after it run unboosted).
    assert.ok(last.byOverload >= 1, JSON.stringify(last));
    assert.ok(seen.slice(-20).filter((x) => x.boostedNow).length >= 15, JSON.stringify(seen.map((x) => x.boostedNow)));
    // Held through the short waits, not ended before each and begun again
    // after it.
    assert.ok(last.keptThroughWaits >= 10 && last.boosts <= 5, JSON.stringify(last));
    // Over once the loop waited long, in the monitor and in the kernel.
    assert.ok(!after.boostedNow && !after.kernelBoosted, JSON.stringify(after));
    // ... and soon into that wait: the boost kept through it lasts at most
    // the idle time the count allows (a fifth of maxDelayMs, 80 ms here),
    // when the package's timer ends the poll and the check the boost
    // (KeepThroughWait()); boostedMs counts the boost held now.  The
    // monitor alone would end it one to two of its looks into the wait (it
    // looks at a boosted loop every 4 samples or a callback's typical
    // length, the longer: 200 ms with a 50 ms sample, ~110-160 ms with a
    // 1 ms one), so with a 50 ms sample this bounds the timer; with 1 ms the
    // monitor may end it within the bound too.  One run each on 6.12 with
    // Node 20 (2026-12-05): 37.6-66.7 ms into the wait; with the timer taken
    // out 298.8 ms (50 ms) and 194.3 ms (1 ms), both failing.  Twice the
    // bound: a guest's timer can fire late.  Only where the last callback's
    // wait was kept (most runs: at least 15 of 20 callbacks end boosted).
    const into = after.boostedMs - last.boostedMs;
    if (after.keptThroughWaits > last.keptThroughWaits) {
      t.diagnostic(`boosted ${into.toFixed(1)} ms into the long wait`);
      assert.ok(into >= 0 && into < 2 * 80, `boosted ${into.toFixed(1)} ms into the long wait: ${JSON.stringify({ last, after })}`);
    } else {
      t.diagnostic('the last callback\'s wait was not kept: no kept boost to bound');
    }
  });
}
