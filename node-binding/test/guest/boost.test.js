'use strict';
// The npm package against the real governor in a guest.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const h = require('./helpers');

test.beforeEach(() => h.governEverything());

test('GC-Boost: an allocating loop boosts its own core during GC and returns to base', async () => {
  h.clear();
  const r = await h.runNode(h.PRELUDE + `
pin(process.pid, 1); // before start(): a GC on another CPU would boost its policy
const s = eb.start({ queue: false, gc: ['scavenge', 'minor-mark-compact'] }); // the pauses: the default is the major cycles
if (!s.active) throw new Error(s.reason);
alloc(1500);
setTimeout(() => console.log(JSON.stringify(eb.stats())), 300);
`);
  assert.strictEqual(r.code, 0, r.err);
  const st = r.json[0];
  assert.strictEqual(st.active, true);
  assert.strictEqual(st.thread.cpu, 1);
  assert.ok(st.gc.count > 0 && st.gc.boosts > 0, JSON.stringify(st.gc));
  assert.strictEqual(st.gc.errors, 0);
  assert.ok(st.gc.byKind.scavenge > 0);
  assert.strictEqual(st.kernel.policy, 1);
  assert.ok(st.kernel.hints.gc > 0);
  assert.strictEqual(st.queue.enabled, false);
  const ch = h.changes();
  assert.ok(ch.some((c) => c.policy === 1 && c.khz === h.BOOST), 'policy 1 went to boost');
  assert.ok(!ch.some((c) => c.policy === 0 && c.khz === h.BOOST), 'policy 0 was not boosted');
  assert.ok(await h.waitCur(1, h.BASE, 1000), `policy 1 back at base: ${h.cur(1)}`);
});

test('GC-Boost: a major GC cycle holds the boost from marking start through its mark-compact', async (t) => {
  h.governEverything({ maxBoostUs: 5000000 });
  h.clear();
  const r = await h.runNode(h.PRELUDE + `
const fs = require('node:fs');
pin(process.pid, 1);
const s = eb.start({ queue: false, gc: ['incremental-marking'] });
if (!s.active) throw new Error(s.reason);
// A ring of live objects, refilled a little every loop turn: old space
// grows until V8 starts incremental marking, which its tasks and the
// allocations then advance over many turns until a mark-compact ends it.
const ring = new Array(3000);
let n = 0, seen = 0, boosted = 0, cycles = 0;
// Ends at the second cycle; the deadline only bounds a broken run (a
// loaded host slows the guest's allocation, not its clock).
const end = Date.now() + 60000;
(function turn() {
  for (let k = 0; k < 20; k++) ring[n++ % ring.length] = Array.from({ length: 100 }, (_, j) => ({ j, s: 'row-' + j }));
  const now = eb.stats();
  const g = now.gc;
  if (g.markingNow) { // JavaScript runs: no pause now, only the cycle
    seen++;
    if (Number(fs.readFileSync('/sys/devices/system/cpu/cpufreq/policy1/scaling_cur_freq', 'utf8')) === ${h.BOOST}) boosted++;
  }
  cycles = g.byKind['incremental-marking'];
  // Two cycles at least, and more until JavaScript has run during marking
  // (a loaded host's V8 may finish a cycle in the turn that began it).
  if (Date.now() < end && (cycles < 2 || seen <= cycles || g.markingNow)) setImmediate(turn);
  // The stats of this turn, between cycles: a later look may find V8 in
  // the next cycle already (one began within 100 ms on 6.12-rt).
  else console.log(JSON.stringify({ seen, boosted, st: now }));
})();
`, { args: ['--max-old-space-size=64'] }); // a small old space: cycles begin sooner
  assert.strictEqual(r.code, 0, r.err);
  const { seen, boosted, st } = r.json[0];
  t.diagnostic(`${st.gc.byKind['incremental-marking']} cycles, ${st.gc.markingMs.toFixed(0)} ms marking, ` +
    `${seen} loop turns during marking, ${boosted} of them boosted`);
  assert.ok(st.gc.byKind['incremental-marking'] >= 2, JSON.stringify(st.gc));
  assert.strictEqual(st.gc.count, st.gc.byKind['incremental-marking'], 'only marking cycles were hooked');
  assert.strictEqual(st.gc.markingNow, false, 'the last cycle ended with its mark-compact');
  assert.ok(st.gc.markingMs > 0);
  assert.strictEqual(st.gc.errors, 0);
  // Between pauses, with the cycle going on, the loop's core stayed boosted
  // (on the worker path a cycle's first turn may beat the switch).
  assert.ok(seen > st.gc.byKind['incremental-marking'], 'JavaScript ran while marking');
  assert.ok(boosted >= seen - st.gc.byKind['incremental-marking'],
    `boosted in ${boosted} of ${seen} loop turns during marking`);
  assert.strictEqual(h.cur(1), h.BASE, 'back to base after the cycle');
});

test('Queue-Boost: a callback that blocks the loop boosts; the boost ends when the loop drains', async () => {
  h.governEverything({ maxBoostUs: 2000000 });
  h.clear();
  const r = await h.runNode(h.PRELUDE + `
const fs = require('node:fs');
// The overload bound out of the way: the 300 immediates never let the loop
// wait, and under TCG they can pass 100 ms of its CPU time.
const s = eb.start({ gc: false, maxDelayMs: 60000 });
if (!s.active) throw new Error(s.reason);
pin(process.pid, 1);
let i = 0;
const tick = () => (++i < 300 ? setImmediate(tick) : block());
function block() {
  console.log('blocking');
  const end = Date.now() + 600;
  while (Date.now() < end);
  // Drained: the loop now waits.  Poll (each poll a short loop iteration)
  // until the boost is gone, for at most 10 s: a loaded TCG host can hold
  // the monitor thread or the kernel's apply off for a while.
  const t0 = Date.now();
  const check = () => {
    const cur = Number(/^policy 1 cur (\\d+)/m.exec(fs.readFileSync('/dev/ebtest_cpufreq', 'utf8'))[1]);
    const stats = eb.stats();
    const done = !stats.queue.boostedNow && !stats.kernel.boosted && cur === 2600000;
    if (done || Date.now() - t0 > 10000) console.log(JSON.stringify({ stats, cur }));
    else setTimeout(check, 50);
  };
  setTimeout(check, 300);
}
setImmediate(tick);
`);
  assert.strictEqual(r.code, 0, r.err);
  const { stats: st, cur } = r.json[0];
  assert.ok(st.queue.boosts >= 1, JSON.stringify(st.queue));
  assert.ok(st.queue.byHeadOfLine >= 1, JSON.stringify(st.queue));
  assert.strictEqual(st.queue.errors, 0);
  assert.strictEqual(st.queue.boostedNow, false, 'drained loop holds no boost');
  assert.ok(st.queue.boostedMs > 0);
  assert.strictEqual(st.kernel.boosted, false);
  assert.strictEqual(cur, h.BASE, 'policy 1 back at base while the process still runs');
  assert.strictEqual(st.gc.count, 0);
  const ch = h.changes();
  const why = `changes ${JSON.stringify(ch)}, queue ${JSON.stringify(st.queue)}, kernel ${JSON.stringify(st.kernel)}`;
  assert.ok(ch.some((c) => c.policy === 1 && c.khz === h.BOOST), `policy 1 went to boost: ${why}`);
  assert.ok(!ch.some((c) => c.policy === 0 && c.khz === h.BOOST), `policy 0 was not boosted: ${why}`);
});

test("Worker: a Worker's boosts land on the Worker's core, with its own client", async () => {
  h.clear();
  const r = await h.runNode(h.PRELUDE + `
const { Worker } = require('node:worker_threads');
pin(process.pid, 0);
const w = new Worker(\`
  const { parentPort } = require('node:worker_threads');
  \${${JSON.stringify(h.PRELUDE)}}
  // Pin before start(): the Worker inherits the main thread's CPU 0, and a
  // GC between start() and pinning would boost CPU 0's policy.
  pin(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop(), 1);
  const s = eb.start({ queue: false, gc: ['scavenge', 'minor-mark-compact'] });
  if (!s.active) throw new Error(s.reason);
  alloc(1500);
  parentPort.postMessage(eb.stats());
\`, { eval: true });
w.on('message', (ws) => console.log(JSON.stringify({ mainStats: eb.stats(), worker: ws })));
`);
  assert.strictEqual(r.code, 0, r.err);
  const { mainStats, worker } = r.json[0];
  assert.strictEqual(mainStats.active, false, 'start() in a Worker does not start the main thread');
  assert.strictEqual(worker.active, true);
  assert.notStrictEqual(worker.thread.tid, r.pid);
  assert.strictEqual(worker.thread.cpu, 1);
  assert.ok(worker.gc.boosts > 0, JSON.stringify(worker.gc));
  assert.strictEqual(worker.kernel.policy, 1);
  const ch = h.changes();
  assert.ok(ch.some((c) => c.policy === 1 && c.khz === h.BOOST), "the worker's policy went to boost");
  assert.ok(!ch.some((c) => c.policy === 0 && c.khz === h.BOOST), "the main thread's policy was not boosted");
});

test('SIGKILL mid-boost leaves nothing boosted', async () => {
  h.governEverything({ maxBoostUs: 10000000 }); // the watchdog must not be what ends it
  let boosted = false;
  const r = await h.runNode(h.PRELUDE + `
const s = eb.start({ gc: false });
if (!s.active) throw new Error(s.reason);
pin(process.pid, 1);
let i = 0;
const tick = () => (++i < 300 ? setImmediate(tick) : (console.log('blocking'), setImmediate(() => { for (;;); })));
setImmediate(tick);
`, { onLine: async (line, child) => {
    if (line !== 'blocking') return;
    boosted = await h.waitCur(1, h.BOOST, 8000);
    child.kill('SIGKILL');
  } });
  assert.strictEqual(r.signal, 'SIGKILL');
  assert.ok(boosted, 'the blocked loop was boosted before the kill');
  assert.ok(await h.waitCur(1, h.BASE, 5000), 'policy 1 back at base after SIGKILL');
});

test('preload: node -r eventboost/register boosts an unmodified application', async () => {
  const app = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-app-'));
  fs.mkdirSync(path.join(app, 'node_modules'));
  fs.symlinkSync(h.PKG, path.join(app, 'node_modules', 'eventboost'));
  fs.writeFileSync(path.join(app, 'app.js'), `
let keep = []; const end = Date.now() + 1000;
while (Date.now() < end) { keep.push(JSON.stringify({ a: new Array(500).fill('y'.repeat(40)) })); if (keep.length > 100) keep = []; }
setTimeout(() => console.log(JSON.stringify(require('eventboost').stats())), 100);
`);
  const r = await h.runNode(fs.readFileSync(path.join(app, 'app.js'), 'utf8'),
    { args: ['-r', 'eventboost/register'], cwd: app,
      env: { EVENTBOOST_GC_KINDS: 'scavenge,minor-mark-compact' } }); // the default (major cycles) may not come in 1 s
  assert.strictEqual(r.code, 0, r.err);
  assert.strictEqual(r.err, '', 'nothing on stderr when active');
  const st = r.json[0];
  assert.strictEqual(st.active, true);
  assert.strictEqual(st.gc.enabled, true);
  assert.strictEqual(st.queue.enabled, true);
  assert.ok(st.gc.boosts > 0);
});

test('preload: EVENTBOOST_GC_KINDS picks the GC kinds boosted', async () => {
  // The allocation loop scavenges (the test above sees it); gc() ends in a
  // mark-compact.  Only the kinds named are hooked.
  const r = await h.runNode(`
let keep = []; const end = Date.now() + 1000;
while (Date.now() < end) { keep.push(JSON.stringify({ a: new Array(500).fill('y'.repeat(40)) })); if (keep.length > 100) keep = []; }
gc();
setTimeout(() => console.log(JSON.stringify(require(process.env.EB_PKG).stats())), 100);
`, { args: ['--expose-gc', '-r', path.join(h.PKG, 'register.js')],
    env: { EVENTBOOST: 'gc', EVENTBOOST_GC_KINDS: 'incremental-marking, mark-compact' } });
  assert.strictEqual(r.code, 0, r.err);
  assert.strictEqual(r.err, '', 'nothing on stderr when active');
  const st = r.json[0];
  assert.strictEqual(st.active, true);
  assert.deepStrictEqual(st.gc.kinds, ['incremental-marking', 'mark-compact']);
  assert.strictEqual(st.queue.enabled, false);
  assert.strictEqual(st.gc.byKind.scavenge, 0, JSON.stringify(st.gc));
  assert.ok(st.gc.byKind['mark-compact'] >= 1, JSON.stringify(st.gc));
  assert.ok(st.gc.boosts >= 1, JSON.stringify(st.gc));
});

test('boostFor: a timed boost of the loop core, ended by boostFor(0)', async () => {
  h.governEverything({ maxBoostUs: 10000000 });
  h.clear();
  const r = await h.runNode(h.PRELUDE + `
const fs = require('node:fs');
const cur = () => Number(/^policy 1 cur (\\d+)/m.exec(fs.readFileSync('/dev/ebtest_cpufreq', 'utf8'))[1]);
const s = eb.start({ gc: false, queue: false }); // no hooks: boostFor() only
if (!s.active) throw new Error(s.reason);
pin(process.pid, 1);
const ok = eb.boostFor(5000000);
const during = cur();
eb.boostFor(0);
console.log(JSON.stringify({ ok, during, after: cur() }));
`);
  assert.strictEqual(r.code, 0, r.err);
  assert.deepStrictEqual(r.json[0], { ok: true, during: h.BOOST, after: h.BASE });
});

test('stop() closes the client; start() again replaces it', async () => {
  const r = await h.runNode(h.PRELUDE + `
const fs = require('node:fs');
const clients = () => fs.readdirSync('/proc/self/fd').filter((f) => {
  try { return fs.readlinkSync('/proc/self/fd/' + f) === '/dev/eventboost'; } catch { return false; } }).length;
const a = eb.start(); const n1 = clients();
const b = eb.start({ gc: false }); const n2 = clients();
eb.stop(); const n3 = clients();
console.log(JSON.stringify({ a, b, n1, n2, n3, after: eb.stats() }));
`);
  assert.strictEqual(r.code, 0, r.err);
  const { a, b, n1, n2, n3, after } = r.json[0];
  assert.ok(a.active && b.active);
  assert.deepStrictEqual([n1, n2, n3], [1, 1, 0]);
  assert.strictEqual(after.active, false);
  assert.strictEqual(after.kernel, null);
  assert.strictEqual(after.thread, null);
});

test('active but doing nothing: the loop\'s CPU under another governor is said, by stats() and the preload', async () => {
  fs.writeFileSync('/sys/devices/system/cpu/cpufreq/policy1/scaling_governor', 'performance');
  const r = await h.runNode(h.PRELUDE + `
pin(process.pid, 1);
const s = eb.start();
console.log(JSON.stringify({ s, st: eb.stats() }));
`);
  assert.strictEqual(r.code, 0, r.err);
  const { s, st } = r.json[0];
  assert.strictEqual(s.active, true);
  assert.strictEqual(st.active, true);
  assert.strictEqual(st.kernel.governed, false);
  assert.match(st.reason, /CPU 1 is not governed by eventboost \(its cpufreq governor is performance\)/);
  // The preload checks the CPU its thread is on: make it any.
  fs.writeFileSync('/sys/devices/system/cpu/cpufreq/policy0/scaling_governor', 'performance');
  const p = await h.runNode(h.PRELUDE + `
console.log(JSON.stringify(0));
`, { args: ['-r', path.join(h.PKG, 'register.js')], env: { EVENTBOOST_WARNED: '' } });
  assert.strictEqual(p.code, 0, p.err);
  assert.match(p.err, /^eventboost: active, but the event loop's CPU \d+ is not governed by eventboost/);
});
