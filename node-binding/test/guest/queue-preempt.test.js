'use strict';
// Queue-Boost and preemption (issue 21): a CPU hog on the loop's CPU must
// not boost it.  Kept apart from queue.test.js: in a host-timed TCG guest
// the guest charges the host's descheduling of QEMU (and, with one TCG
// thread, the other vCPU's turns) to the running guest thread as CPU time,
// so there the loop thread's CPU clock overstates its work.  Not in make
// check: under -icount, where a thread's CPU time is its own instructions,
// it passed 4 of 5 runs; the fifth saw one head-of-line boost of 0.06 ms
// (an iteration over 2.5x the average of the loop's own CPU time, a GC
// perhaps: a true positive the test cannot tell from preemption).
const test = require('node:test');
const assert = require('node:assert');
const { spawn } = require('node:child_process');
const h = require('./helpers');

test.beforeEach(() => h.governEverything({ maxBoostUs: 5000000 }));

// The queue stats and whether the kernel holds the loop core boosted.
const SNAP = `
const snap = () => { const s = eb.stats(); return { ...s.queue, kernelBoosted: !!(s.kernel && s.kernel.boosted) }; };
// Work of so many ms of CPU time (the process's, nearly all this thread's):
// under TCG and a loaded host a wall-clock spin is any amount of work.
const spin = (ms) => { const t = process.cpuUsage(); for (;;) { const d = process.cpuUsage(t); if (d.user + d.system >= ms * 1000) return; } };
`;


test('Queue-Boost: a CPU hog preempting the loop thread does not boost', async (t) => {
  const hog = spawn('taskset', ['-c', '1', process.execPath, '-e', 'for (;;);'], { stdio: 'ignore' });
  try {
    const r = await h.runNode(h.PRELUDE + SNAP + `
pin(process.pid, 1);
// The overload bound out of the way: this is about the head-of-line signal.
const s = eb.start({ gc: false, maxDelayMs: 60000 });
if (!s.active) throw new Error(s.reason);
// Uniform 1 ms of work every 2 ms, never more: the hog on the same CPU
// stretches the callbacks in wall-clock time only.
let i = 0;
const tick = () => {
  spin(1);
  if (++i < 600) setTimeout(tick, 2);
  else console.log(JSON.stringify(eb.stats().queue));
};
setTimeout(tick, 2);
`);
    assert.strictEqual(r.code, 0, r.err);
    const st = r.json[0];
    t.diagnostic(JSON.stringify(st));
    assert.ok(st.iterations >= 600, JSON.stringify(st));
    assert.strictEqual(st.boosts, 0, JSON.stringify(st));
  } finally {
    hog.kill('SIGKILL');
  }
});
