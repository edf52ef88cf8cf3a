'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { normalize, fromEnv } = require('../../lib/options');

test('defaults: the major GC cycles, queue on, factor 5, 1 ms sampling, 100 ms overload bound, head-of-line always, bursts at the threshold', () => {
  assert.deepStrictEqual(normalize(), {
    gc: ['incremental-marking', 'mark-compact'],
    queue: true, queueFactor: 5, sampleUs: 1000, maxDelayMs: 100, headOfLine: 'always', bursts: 'threshold',
    device: undefined,
  });
  assert.strictEqual(normalize({ bursts: 'arrival' }).bursts, 'arrival');
  assert.strictEqual(normalize({ headOfLine: 'waiting' }).headOfLine, 'waiting');
  assert.strictEqual(normalize({ maxDelayMs: 20 }).maxDelayMs, 20);
  assert.throws(() => normalize({ maxDelayMs: 0 }), /option maxDelayMs must be an integer from 1 to 60000, got 0/);
  assert.deepStrictEqual(fromEnv({ EVENTBOOST_QUEUE_MAX_DELAY_MS: '50' }), { options: { maxDelayMs: 50 } });
  assert.throws(() => fromEnv({ EVENTBOOST_QUEUE_MAX_DELAY_MS: '0.5' }),
    /^Error: EVENTBOOST_QUEUE_MAX_DELAY_MS must be an integer from 1 to 60000, got 0.5/);
  assert.deepStrictEqual(normalize({ gc: false, queue: false }).gc, []);
  assert.deepStrictEqual(normalize({ gc: ['mark-compact', 'mark-compact'] }).gc, ['mark-compact']);
  assert.strictEqual(normalize({ queueFactor: 1, sampleUs: 100 }).sampleUs, 100);
  assert.strictEqual(normalize({ sampleUs: undefined }).sampleUs, 1000);
});

const bad = [
  [{ gc: 'yes' }, TypeError, /option gc must be true, false or an array/],
  [{ gc: ['full'] }, RangeError, /option gc: unknown GC kind 'full'/],
  [{ gc: [1] }, TypeError, /option gc must be an array of strings/],
  [{ queue: 1 }, TypeError, /option queue must be true or false, got 1/],
  [{ queueFactor: '2' }, TypeError, /option queueFactor must be a number, got '2'/],
  [{ queueFactor: NaN }, TypeError, /option queueFactor must be a number/],
  [{ queueFactor: 0.5 }, RangeError, /option queueFactor must be a number from 1 to 100, got 0.5/],
  [{ queueFactor: Infinity }, RangeError, /option queueFactor/],
  [{ sampleUs: 99 }, RangeError, /option sampleUs must be an integer from 100 to 1000000, got 99/],
  [{ sampleUs: 1000.5 }, RangeError, /option sampleUs/],
  [{ sampleUs: 2e6 }, RangeError, /option sampleUs/],
  [{ device: '' }, TypeError, /option device must be a non-empty path/],
  [{ device: 3 }, TypeError, /option device/],
  [{ headOfLine: 'wait' }, RangeError, /option headOfLine must be 'always' or 'waiting', got 'wait'/],
  [{ headOfLine: true }, TypeError, /option headOfLine must be 'always' or 'waiting', got true/],
  [{ bursts: 'never' }, RangeError, /option bursts must be 'arrival' or 'threshold', got 'never'/],
  [{ bursts: 1 }, TypeError, /option bursts must be 'arrival' or 'threshold', got 1/],
  [{ queu: true }, TypeError, /unknown option 'queu' \(options: gc, queue, queueFactor, sampleUs, maxDelayMs, headOfLine, bursts, device\)/],
  ['all', TypeError, /options must be an object, got 'all'/],
  [[], TypeError, /options must be an object, got an array/],
  // Not read as options (their entries are no own properties): until
  // 2026-12-08 they ran the defaults.
  [new Map([['queue', false]]), TypeError, /options must be a plain object, got a Map/],
  [new Date(0), TypeError, /options must be a plain object, got a Date/],
  [new (class Settings { constructor() { this.queue = false; } })(), TypeError, /options must be a plain object, got a Settings/],
];
for (const [opts, cls, re] of bad) {
  const shown = opts instanceof Map ? 'new Map(...)' : opts instanceof Date ? 'new Date(0)'
    : opts && opts.constructor && opts.constructor.name === 'Settings' ? 'new Settings()' : JSON.stringify(opts);
  test(`start(${shown}) throws ${cls.name} naming the option`, () => {
    assert.throws(() => normalize(opts), (e) => e instanceof cls && re.test(e.message));
  });
}

// Options made in another realm (a vm context, as Jest runs a test file)
// are options: no Object.prototype of this realm is asked for.
test('options from another realm are read', () => {
  const o = require('node:vm').runInNewContext('({ queue: false, sampleUs: 500 })');
  assert.deepStrictEqual([normalize(o).queue, normalize(o).sampleUs], [false, 500]);
  assert.strictEqual(normalize(Object.create(null)).queue, true);
  // A module namespace (import * as options) has no prototype either.
  const ns = require('node:vm').runInNewContext('Object.freeze(Object.setPrototypeOf({ queue: false }, null))');
  assert.strictEqual(normalize(ns).queue, false);
});

test('environment: EVENTBOOST modes', () => {
  assert.deepStrictEqual(fromEnv({}), { options: {} });
  assert.deepStrictEqual(fromEnv({ EVENTBOOST: 'all' }), { options: {} });
  assert.deepStrictEqual(fromEnv({ EVENTBOOST: 'off' }), { off: true });
  assert.deepStrictEqual(fromEnv({ EVENTBOOST: 'gc' }), { options: { gc: true, queue: false } });
  assert.deepStrictEqual(fromEnv({ EVENTBOOST: 'queue' }), { options: { gc: false, queue: true } });
  assert.throws(() => fromEnv({ EVENTBOOST: 'fast' }), /EVENTBOOST must be off, gc, queue or all, got 'fast'/);
});

test('environment: EVENTBOOST_GC_KINDS, a list of GC kinds for GC-Boost', () => {
  const major = ['incremental-marking', 'mark-compact'];
  assert.deepStrictEqual(fromEnv({ EVENTBOOST_GC_KINDS: 'incremental-marking,mark-compact' }), { options: { gc: major } });
  assert.deepStrictEqual(fromEnv({ EVENTBOOST: 'gc', EVENTBOOST_GC_KINDS: ' incremental-marking , mark-compact ' }),
    { options: { gc: major, queue: false } });
  assert.deepStrictEqual(fromEnv({ EVENTBOOST_GC_KINDS: '  ' }), { options: {} });
  assert.throws(() => fromEnv({ EVENTBOOST_GC_KINDS: 'scavenge,full' }),
    /^Error: EVENTBOOST_GC_KINDS: unknown GC kind 'full' \(kinds: scavenge, /);
  assert.throws(() => fromEnv({ EVENTBOOST_GC_KINDS: 'scavenge,' }), /EVENTBOOST_GC_KINDS: unknown GC kind ''/);
  assert.throws(() => fromEnv({ EVENTBOOST: 'queue', EVENTBOOST_GC_KINDS: 'scavenge' }),
    /EVENTBOOST_GC_KINDS is set but EVENTBOOST=queue boosts no GC/);
  assert.deepStrictEqual(fromEnv({ EVENTBOOST: 'off', EVENTBOOST_GC_KINDS: 'full' }), { off: true });
});

test('environment: numbers and device, checked like options and named by variable', () => {
  assert.deepStrictEqual(fromEnv({ EVENTBOOST_QUEUE_FACTOR: '3', EVENTBOOST_SAMPLE_US: '500', EVENTBOOST_DEVICE: '/dev/x' }),
    { options: { queueFactor: 3, sampleUs: 500, device: '/dev/x' } });
  assert.throws(() => fromEnv({ EVENTBOOST_QUEUE_FACTOR: 'abc' }), /EVENTBOOST_QUEUE_FACTOR must be a number, got 'abc'/);
  assert.throws(() => fromEnv({ EVENTBOOST_QUEUE_FACTOR: '0' }), /^Error: EVENTBOOST_QUEUE_FACTOR must be a number from 1 to 100/);
  assert.throws(() => fromEnv({ EVENTBOOST_SAMPLE_US: '10' }), /EVENTBOOST_SAMPLE_US must be an integer from 100/);
  assert.deepStrictEqual(fromEnv({ EVENTBOOST_QUEUE_HEAD_OF_LINE: ' waiting ' }), { options: { headOfLine: 'waiting' } });
  assert.throws(() => fromEnv({ EVENTBOOST_QUEUE_HEAD_OF_LINE: 'never' }),
    /^Error: EVENTBOOST_QUEUE_HEAD_OF_LINE must be 'always' or 'waiting', got 'never'/);
  assert.deepStrictEqual(fromEnv({ EVENTBOOST_QUEUE_BURSTS: ' threshold ' }), { options: { bursts: 'threshold' } });
  assert.throws(() => fromEnv({ EVENTBOOST_QUEUE_BURSTS: 'late' }),
    /^Error: EVENTBOOST_QUEUE_BURSTS must be 'arrival' or 'threshold', got 'late'/);
});
