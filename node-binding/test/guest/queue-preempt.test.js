'use strict';
// Queue-Boost and preemption (issue 21): a CPU hog on the loop's CPU must
// not boost it.  The head-of-line signal is the loop thread's own CPU time,
// so this test needs a guest whose thread CPU clocks are exact, and only
// scripts/check.sh's one-CPU -icount guest has them (run_guest_preempt.sh):
// * host-timed TCG charges the host's descheduling of QEMU to the running
//   guest thread;
// * under -icount with two vCPUs on one TCG thread, the other vCPU's
//   instructions advance the shared virtual clock and are charged to the
//   task current on this one: measured, 1.28 ms of fixed work read as up
//   to 77 ms of thread CPU time while the other CPU was busy, and 1.28 ms
//   (at most 1.33) while it was idle, a hog beside the thread or not
//   (docs/evidence/2026-11-24-thread-cpu-clock/).
// So the test refuses to run on more than one CPU rather than measure the
// emulator.  (Whether the guest runs under -icount it cannot see: its step
// in check.sh says so.)
const test = require('node:test');
const assert = require('node:assert');
const os = require('node:os');
const { spawn } = require('node:child_process');
const h = require('./helpers');

test.beforeEach(() => h.governEverything({ maxBoostUs: 5000000 }));

// V8's interpreter alone: no compile job finishing on the loop thread
// mid-run (its foreground tasks run in the poll phase: measured, 2-3 ms
// of loop CPU time once, at about the 120th iteration, a true long
// iteration that is not what these tests are about).
const JITLESS = ['--jitless'];

// A child that starts Queue-Boost and then runs @ticks timer callbacks,
// 2 ms apart, each ~1 ms of the same work (callback @longAt: 10x that),
// and prints its queue stats.  The same work every time: a fixed count of
// arithmetic steps, no allocation (no scavenges mid-run); under -icount a
// fixed count of instructions is a fixed CPU time.
const uniformTicks = ({ ticks, longAt = -1 }) => h.PRELUDE + `
let sink = 0;
const work = (n) => { let x = sink | 1; for (let i = 0; i < n; i++) x = (x * 1103515245 + 12345) | 0; sink = x; };
for (let i = 0; i < 300; i++) work(2000);
// About 1 ms of CPU: calibrated over 100 calls, before the hog matters
// (whatever the hog takes, CPU time is the process's own).
let n = 20000;
const t0 = process.cpuUsage();
for (let i = 0; i < 100; i++) work(n);
const d = process.cpuUsage(t0);
n = Math.max(1000, Math.round(n * 100000 / (d.user + d.system)));
// What the last callback does, warm too: its first call would be a long
// callback of its own (stdout's set-up, the stats' first reading).
process.stdout;
JSON.stringify(eb.stats());
const s = eb.start({ gc: false, queueFactor: 2.5, bursts: 'arrival', maxDelayMs: 60000 });
if (!s.active) throw new Error(s.reason);
// Each callback's wall-clock time too: the longest shows whether anything
// preempted the loop at all.
let i = 0, maxWallMs = 0;
const tick = () => {
  const w0 = performance.now();
  work(i === ${longAt} ? 10 * n : n);
  maxWallMs = Math.max(maxWallMs, performance.now() - w0);
  if (++i < ${ticks}) setTimeout(tick, 2);
  else console.log(JSON.stringify({ n, maxWallMs, ...eb.stats().queue }));
};
setTimeout(tick, 2);
`;

test('Queue-Boost: a CPU hog preempting the loop thread does not boost', async (t) => {
  assert.strictEqual(os.availableParallelism(), 1,
    'run this test in a one-CPU -icount guest (scripts/check.sh does): with more CPUs the ' +
    'emulator charges the other CPUs\' work to the loop thread\'s CPU clock');
  // A hog that comes and goes, at nice -20 (it takes the CPU while it
  // runs): 10 ms of spinning every 50 ms, preemption in bursts that
  // stretch some callbacks tenfold and not others.  (A hog that never
  // sleeps stretches every callback alike, and a wall-clock baseline would
  // absorb it: then the test could not tell CPU time from wall-clock time.)
  const hog = spawn('nice', ['-n', '-20', process.execPath, '-e',
    'setInterval(() => { const e = Date.now() + 10; while (Date.now() < e); }, 50);'],
  { stdio: ['ignore', 'ignore', 'pipe'] });
  let hogErr = '';
  hog.stderr.on('data', (d) => { hogErr += d; });
  try {
    // Uniform work, never more: the hog stretches the callbacks in
    // wall-clock time only.
    const r = await h.runNode(uniformTicks({ ticks: 600 }), { args: JITLESS });
    assert.strictEqual(r.code, 0, r.err);
    const st = r.json[0];
    t.diagnostic(JSON.stringify(st));
    assert.ok(st.iterations >= 590, JSON.stringify(st));
    // The monitor ran and measured: a typical iteration near the 1 ms of work.
    assert.ok(st.avgBusyUs > 500 && st.avgBusyUs < 5000, JSON.stringify(st));
    // The hog ran throughout, and preempted: some ~1 ms callback took 5 ms
    // or more of wall-clock time.
    assert.strictEqual(hog.exitCode, null, `the hog ended early: ${hogErr}`);
    assert.strictEqual(hogErr, '', 'the hog runs at nice -20');
    assert.ok(st.maxWallMs >= 5, `no callback was stretched: ${JSON.stringify(st)}`);
    assert.strictEqual(st.boosts, 0, JSON.stringify(st));
  } finally {
    hog.kill('SIGKILL');
  }
});

// The same workload without the hog: the test can fail.  A callback that
// really runs long (here 10x the typical work, once) must boost in this
// guest, or the test above would pass with a monitor that never boosts.
test('Queue-Boost: one callback of 10x the typical work boosts, in the same guest', async (t) => {
  assert.strictEqual(os.availableParallelism(), 1, 'run in a one-CPU -icount guest');
  const r = await h.runNode(uniformTicks({ ticks: 400, longAt: 300 }), { args: JITLESS });
  assert.strictEqual(r.code, 0, r.err);
  const st = r.json[0];
  t.diagnostic(JSON.stringify(st));
  assert.ok(st.byHeadOfLine >= 1 && st.byLength === 0, JSON.stringify(st));
});
