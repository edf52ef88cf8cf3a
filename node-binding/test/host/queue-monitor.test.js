'use strict';
// Queue-Boost's monitor on the host, against a fake device (userlib/tests/fake-device.c,
// preloaded): what the monitor asks for and when, in the loop's CPU time,
// where the guests' TCG clock (a tick of 4 ms of guest time per short
// iteration, and steps of up to 100 ms) cannot show it.  The guest tests
// (test/guest/queue.test.js) test it against the module.
const test = require('node:test');
const assert = require('node:assert');
const { runFake } = require('./fake.js');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

// A warmed-up loop, then 1 ms callbacks back to back (immediates) until one
// runs boosted or CALLBACKS ran; prints where the first refusal and the
// first boosted callback came.
const SATURATED_CHAIN = `
const eb = require(process.env.EB_PKG);
const N = Number(process.env.CALLBACKS);
// The head-of-line threshold out of the way (20x the typical iteration):
// the chain's iterations are about the overload bound.  At 5x, the first
// iteration after the warm-up's last wait crossed it in 5 of 6 runs on
// Node 20 here (2026-12-07; the loop thread's work after a 300 ms wait,
// the first stats() among it, which costs 3.5-4 ms of CPU): boosted by
// head-of-line, the boost then held through the bound.
const s = eb.start({ gc: false, device: process.env.EB_FAKE_DEVICE, sampleUs: 500, queueFactor: 20 });
if (!s.active) throw new Error(s.reason);
// Work of so many ms of the process's CPU time (nearly all the loop's).
const spin = (ms) => { const t = process.cpuUsage(); for (;;) { const d = process.cpuUsage(t); if (d.user + d.system >= ms * 1000) return; } };
let i = 0;
const warm = setInterval(() => {
  spin(1);
  eb.stats(); // the chain's work
  if (++i < 100) return;
  clearInterval(warm);
  setTimeout(chain, 300);
}, 3);
// 1 ms callbacks back to back (immediates), each far under the head-of-line
// threshold (20x them): the bound is crossed at about the 100th.  Those
// from SLEEP_FROM to SLEEP_TO (none unless set) then sleep SLEEP_MS in the
// callback (no wait of the loop's: its poll never blocks).
const sleepFrom = Number(process.env.SLEEP_FROM ?? -1), sleepTo = Number(process.env.SLEEP_TO ?? -1);
const nap = new Int32Array(new SharedArrayBuffer(4));
function chain() {
  const q0 = eb.stats().queue;
  let k = 0, first = -1, refusedAt = -1;
  const tick = () => {
    spin(1);
    if (k >= sleepFrom && k < sleepTo) Atomics.wait(nap, 0, 0, Number(process.env.SLEEP_MS));
    const q = eb.stats().queue;
    if (q.boostedNow && first < 0) first = k;
    if (q.refused > q0.refused && refusedAt < 0) refusedAt = k;
    if (++k < N && first < 0) return setImmediate(tick);
    console.log(JSON.stringify({ q0, first, refusedAt, n: k, q }));
    process.exit(0);
  };
  setImmediate(tick);
}
`;

// Iterations longer than sampleUs ("slow": each prepare before the bound
// re-arms the sleeping monitor's CPU-time timer) that never wait and stay
// under the head-of-line threshold: only the overload bound across iterations (maxDelayMs, 100 ms
// of the loop's CPU time) can see them.  The kernel checks CPU-time timers
// at its tick, seldom inside the one short iteration that crosses the
// bound, and until 2026-12-06 every prepare after it moved the timer a
// threshold ahead again: the crossing was seen at the monitor's next
// refresh, up to a second of wall time later (an outside review measured
// 0.4-1.1 s in 12 of 15 runs with 1-2 ms iterations).
test('a loop of slow iterations that never waits is boosted at the overload bound', () => {
  const r = runFake(SATURATED_CHAIN, { CALLBACKS: '600' });
  const { q0, first, n, q } = r;
  // The premises: slow iterations, and a chain that never waited nor
  // crossed the head-of-line threshold.
  assert.ok(q0.avgBusyUs > 500, JSON.stringify(q0));
  assert.strictEqual(q.waits, q0.waits, JSON.stringify(q));
  assert.strictEqual(q.byHeadOfLine, q0.byHeadOfLine, JSON.stringify(q));
  // Boosted by the 200th callback (twice the bound), by the bound.
  assert.ok(first >= 0 && first < 200, `first boosted callback: ${first} of ${n}; ${JSON.stringify(q)}`);
  assert.strictEqual(q.byOverload - q0.byOverload, 1, JSON.stringify(q));
});

// The same chain, the kernel refusing the first boost (a spent budget):
// neither thread asks again for 16 samples (8 ms), then the next look must
// boost.  The prepare wakes the monitor only once for each wait the bound
// counts from, so the look after the refusal is the monitor's own (its
// sleep ends at refused_until), not a second wake-up nor the refresh a
// second later.
test('a loop that never waits is boosted soon after a refused boost', () => {
  const r = runFake(SATURATED_CHAIN, { CALLBACKS: '2000', EB_FAKE_REFUSE_QUEUE: '1' });
  const { q0, first, refusedAt, n, q } = r;
  assert.strictEqual(q.waits, q0.waits, JSON.stringify(q));
  assert.strictEqual(q.refused - q0.refused, 1, `one refusal: ${JSON.stringify(q)}`);
  assert.ok(refusedAt >= 0 && refusedAt < 200, `refused by the 200th callback: ${refusedAt}`);
  // 16 samples are 8 callbacks: boosted within 100 callbacks of the refusal.
  assert.ok(first >= 0 && first - refusedAt < 100,
    `refused at callback ${refusedAt}, first boosted ${first} of ${n}; ${JSON.stringify(q)}`);
});

// Callbacks 30-159 each sleep 15 ms after their 1 ms of work (about 2 s):
// the bound, 100 ms of the loop's CPU time, is crossed during the sleeps
// (at about the 85th callback; by the 159th even were the loop's share of
// each callback half of it), and the monitor's wake-ups come 3 ms late
// (EVENTBOOST_TEST_WAKE_DELAY_US, as under load), so each look finds the
// loop asleep in a callback and boosts nothing.  Once the sleeps end the
// loop is saturated, and the first look after a sample of its CPU time
// must boost it.  Until 2026-12-07 each prepare past the bound moved the
// CPU-time timer the monitor had armed for that look a head-of-line
// threshold ahead, once the crossing had woken it: the next look was the
// refresh, up to a second later (a CI run on Node 26 met it under
// contention): the first boosted callback of 700 was the 639th, the 697th
// or none (4 runs); now the 162nd-166th.  (Were a refresh to land in the
// first 30 callbacks after the sleeps, about 3% of a second, the old code
// would pass.)
test('a loop that sleeps in its callbacks past the overload bound is boosted soon after it runs on', () => {
  const r = runFake(SATURATED_CHAIN, {
    CALLBACKS: '700', SLEEP_FROM: '30', SLEEP_TO: '160', SLEEP_MS: '15', EVENTBOOST_TEST_WAKE_DELAY_US: '3000',
  });
  const { q0, first, n, q } = r;
  assert.ok(q0.avgBusyUs > 500, JSON.stringify(q0));
  assert.strictEqual(q.waits, q0.waits, JSON.stringify(q));
  assert.strictEqual(q.byHeadOfLine, q0.byHeadOfLine, JSON.stringify(q));
  assert.ok(first >= 0 && first < 190, `first boosted callback: ${first} of ${n}; ${JSON.stringify(q)}`);
  assert.ok(q.byOverload > q0.byOverload, JSON.stringify(q));
});

// A Worker's teardown with its monitor thread running, its votes held and
// its loop busy: terminate() at a random point of 1 ms callbacks back to
// back must leave the process running (Node's environment cleanup order
// differs across majors: the host tests run on each), and each Worker's
// client closed by the time its 'exit' is emitted (the module ends the
// votes of a closed client), its timed vote still held then.
test('Workers terminated while Queue-Boost watches their busy loops leave the process running', { timeout: 240000 }, () => {
  const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'eb-close-')), 'log');
  const r = runFake(`
const { Worker } = require('node:worker_threads');
let ended = 0, active = 0, late = 0;
function one() {
  const w = new Worker(\`
    const eb = require(process.env.EB_PKG);
    const s = eb.start({ device: process.env.EB_FAKE_DEVICE, sampleUs: 500 });
    eb.boostFor(10000000);
    const spin = () => { const t = Date.now() + 1; while (Date.now() < t); };
    const tick = () => { spin(); setImmediate(tick); };
    tick();
    require('node:worker_threads').parentPort.postMessage(s.active);
  \`, { eval: true });
  w.once('message', (a) => { if (a) active++; setTimeout(() => w.terminate(), 20 + Math.random() * 200); });
  w.once('exit', () => {
    const closed = require('node:fs').readFileSync(process.env.EB_FAKE_LOG, 'utf8').split('\\n').filter(Boolean);
    if (closed.length !== ended + 1) late++; // not closed by its 'exit'
    if (++ended < 30) one();
    else console.log(JSON.stringify({ ended, active, late, closed: closed.length, timed: closed.filter((l) => Number(l.split('=')[1]) & 4).length }));
  });
}
one();
`, { EB_FAKE_LOG: log });
  fs.rmSync(path.dirname(log), { recursive: true, force: true });
  assert.deepStrictEqual(r, { ended: 30, active: 30, late: 0, closed: 30, timed: 30 });
});
