'use strict';
// stats().kernel against the fake device's governed policy: the watchdog
// that bounds boostFor(), and hint-to-applied latencies in the histogram's
// last bucket (32768: 16384 us or more, no upper bound).
const test = require('node:test');
const assert = require('node:assert');
const { runFake } = require('./fake.js');

test("stats().kernel: the policy's watchdog, and the last latency bucket's 32768", () => {
  const r = runFake(`
const eb = require(process.env.EB_PKG);
eb.start({ gc: false, queue: false, device: process.env.EB_FAKE_DEVICE });
const k = eb.stats().kernel;
console.log(JSON.stringify({ maxBoostUs: k.maxBoostUs, p50: k.latencyP50Us, p99: k.latencyP99Us }));
eb.stop();
`, { EB_FAKE_POLICY: '1', EB_FAKE_MAX_BOOST_US: '250000', EB_FAKE_SLOW_APPLIES: '3' });
  assert.deepStrictEqual(r, { maxBoostUs: 250000, p50: 32768, p99: 32768 });
});

// A CPU whose policy another governor runs (its counters read, not
// governed): the reason says so even where its governor cannot be read
// (no cpufreq in sysfs here; the permission model on a server), not that
// the CPU has no cpufreq driver.
test('active on a CPU another governor runs: the reason does not say it has no cpufreq driver', () => {
  const r = runFake(`
const eb = require(process.env.EB_PKG);
eb.start({ gc: false, queue: false, device: process.env.EB_FAKE_DEVICE });
console.log(JSON.stringify({ reason: eb.stats().reason }));
eb.stop();
`, { EB_FAKE_POLICY: '2' });
  assert.match(r.reason, /not governed by eventboost \((another cpufreq governor runs it|its cpufreq governor is \w+)\)/, r.reason);
});
