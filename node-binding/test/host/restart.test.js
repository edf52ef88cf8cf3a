'use strict';
// Each start() that takes effect counts afresh: stats() says what the
// configuration that runs did (after stop(), what the last one did), not
// what an earlier one with other options did.
const test = require('node:test');
const assert = require('node:assert');
const { runFake } = require('./fake.js');

test('a start() counts GC-Boost and Queue-Boost afresh, also what it leaves off', () => {
  const r = runFake(`
require('node:v8').setFlagsFromString('--expose-gc');
const gc = require('node:vm').runInNewContext('gc');
const eb = require(process.env.EB_PKG);
const a = eb.start({ gc: ['mark-compact'], device: process.env.EB_FAKE_DEVICE, sampleUs: 500 });
gc();
setTimeout(() => setTimeout(() => {
  const s1 = eb.stats();
  const b = eb.start({ gc: false, queue: false, device: process.env.EB_FAKE_DEVICE });
  const s2 = eb.stats();
  console.log(JSON.stringify({
    active: [a.active, b.active],
    before: { gcBoosts: s1.gc.boosts > 0, iterations: s1.queue.iterations > 0 },
    after: { gcBoosts: s2.gc.boosts, gcCount: s2.gc.count, iterations: s2.queue.iterations, queueBoosts: s2.queue.boosts },
  }));
  eb.stop();
}, 5), 5);
`);
  assert.deepStrictEqual(r, {
    active: [true, true],
    before: { gcBoosts: true, iterations: true },
    after: { gcBoosts: 0, gcCount: 0, iterations: 0, queueBoosts: 0 },
  });
});

// A replaced Queue-Boost monitor gives its descriptors back at once, not
// at the loop's next close phase: a configuration reloaded in a loop, or a
// test helper's start() after start() in one tick, does not run into the
// open-files limit (until 2026-12-08 each kept its five until then: with
// `ulimit -n 1024` the 200th start() in a tick failed with EMFILE).
test('start() after start() in one tick keeps no descriptors of the monitors it replaced', () => {
  const r = runFake(`
const fs = require('node:fs');
const eb = require(process.env.EB_PKG);
const device = process.env.EB_FAKE_DEVICE;
const fds = () => fs.readdirSync('/proc/self/fd').length;
eb.start({ gc: false, device });
const before = fds();
const active = [];
for (let i = 0; i < 50; i++) active.push(eb.start({ gc: false, device }).active);
const after = fds();
eb.stop();
console.log(JSON.stringify({ allActive: active.every(Boolean), added: after - before }));
`);
  assert.deepStrictEqual(r, { allActive: true, added: 0 });
});
