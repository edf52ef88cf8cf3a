'use strict';
// stats().kernel against the fake device's governed policy: the watchdog
// that bounds boostFor(), and hint-to-applied latencies in the histogram's
// open last bucket, which have no upper bound.
const test = require('node:test');
const assert = require('node:assert');
const { runFake } = require('./fake.js');

test("stats().kernel: the policy's watchdog, and no upper bound past the last bucket", () => {
  const r = runFake(`
const eb = require(process.env.EB_PKG);
eb.start({ gc: false, queue: false, device: process.env.EB_FAKE_DEVICE });
const k = eb.stats().kernel;
console.log(JSON.stringify({ maxBoostUs: k.maxBoostUs, p50: k.latencyP50Us, p99: k.latencyP99Us }));
eb.stop();
`, { EB_FAKE_POLICY: '1', EB_FAKE_MAX_BOOST_US: '250000', EB_FAKE_SLOW_APPLIES: '3' });
  assert.deepStrictEqual(r, { maxBoostUs: 250000, p50: null, p99: null });
});
