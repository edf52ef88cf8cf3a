'use strict';
// Errors follow Node's conventions: a code on every thrown error, the errno
// start() met in its result, and a GC_KINDS no caller can change.
const test = require('node:test');
const assert = require('node:assert');
const eventboost = require('../..');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { runFake, fakeDevice } = require('./fake.js');

test('invalid options throw with Node error codes', () => {
  for (const [opts, cls, code] of [
    [{ gc: 'yes' }, TypeError, 'ERR_INVALID_ARG_TYPE'],
    [{ queue: 1 }, TypeError, 'ERR_INVALID_ARG_TYPE'],
    [{ queueFactor: '2' }, TypeError, 'ERR_INVALID_ARG_TYPE'],
    [{ queueFactor: 0.5 }, RangeError, 'ERR_OUT_OF_RANGE'],
    [{ sampleUs: 99 }, RangeError, 'ERR_OUT_OF_RANGE'],
    [{ gc: ['full'] }, RangeError, 'ERR_INVALID_ARG_VALUE'],
    [{ fast: true }, TypeError, 'ERR_INVALID_ARG_VALUE'],
    // names every object inherits are not options either
    [{ toString: 1 }, TypeError, 'ERR_INVALID_ARG_VALUE'],
    [{ constructor: {} }, TypeError, 'ERR_INVALID_ARG_VALUE'],
    [JSON.parse('{"__proto__": 1}'), TypeError, 'ERR_INVALID_ARG_VALUE'],
    ['all', TypeError, 'ERR_INVALID_ARG_TYPE'],
  ]) {
    assert.throws(() => eventboost.start(opts), (e) => e instanceof cls && e.code === code,
      `${JSON.stringify(opts)}: ${cls.name} ${code}`);
  }
});

test('boostFor: TypeError ERR_INVALID_ARG_TYPE, RangeError ERR_OUT_OF_RANGE', () => {
  assert.throws(() => eventboost.boostFor('1000'), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' });
  assert.throws(() => eventboost.boostFor(-1), { name: 'RangeError', code: 'ERR_OUT_OF_RANGE' });
  assert.throws(() => eventboost.boostFor(1.5), { name: 'RangeError', code: 'ERR_OUT_OF_RANGE' });
});

test('start() reports the errno it met', () => {
  assert.deepStrictEqual(
    { ...eventboost.start({ device: '/nonexistent/eventboost' }), reason: null },
    { active: false, reason: null, errno: -2, code: 'ENOENT' });
  const r = eventboost.start({ device: '/dev/null' });
  assert.strictEqual(r.code, 'ENOTTY');
  assert.strictEqual(r.errno, -25);
});

// The path tried, where the caller gave one: not EVENTBOOST_DEVICE's name
// alone (a typo in the option was otherwise nowhere in the reason).
test('start() with a device option names the path it tried, errno and code as before', () => {
  for (const [device, errno, code] of [['/dev/evenboost', -2, 'ENOENT'], ['/dev/null', -25, 'ENOTTY']]) {
    const r = eventboost.start({ device });
    assert.deepStrictEqual({ errno: r.errno, code: r.code }, { errno, code });
    assert.ok(r.reason.includes(device), r.reason);
    assert.strictEqual(eventboost.stats().reason, r.reason);
  }
});

// A device option the user may not open: the reason names the path and
// what to check, not /dev/eventboost (libeventboost's sentence, which also
// speaks of a client in another process: not what an open meets).
test('start() with a device option the user cannot open names the path and its permissions', () => {
  const r = runFake(`
const eb = require(process.env.EB_PKG);
console.log(JSON.stringify(eb.start({ device: process.env.EB_FAKE_DEVICE })));
`, { EB_FAKE_FAIL_DEVICE_OPEN: '13' });
  assert.deepStrictEqual({ active: r.active, errno: r.errno, code: r.code }, { active: false, errno: -13, code: 'EACCES' });
  assert.ok(r.reason.startsWith(`${fakeDevice}: permission denied`), r.reason);
  assert.match(r.reason, /check its permissions.*group 'eventboost'.*--device/, r.reason);
  assert.doesNotMatch(r.reason, /\/dev\/eventboost \(|bound thread/, r.reason);
});

// Without the option too (EVENTBOOST_DEVICE, or /dev/eventboost): an open
// start() makes meets no bound thread of another process; until 2026-12-07
// the reason was libeventboost's sentence, which names that first.
test('start() on a default device the user cannot open names the path and its permissions', () => {
  const r = runFake(`
const eb = require(process.env.EB_PKG);
console.log(JSON.stringify(eb.start()));
`, { EB_FAKE_FAIL_DEVICE_OPEN: '13', EVENTBOOST_DEVICE: fakeDevice });
  assert.deepStrictEqual({ active: r.active, errno: r.errno, code: r.code }, { active: false, errno: -13, code: 'EACCES' });
  assert.ok(r.reason.startsWith(`${fakeDevice}: permission denied`), r.reason);
  assert.match(r.reason, /check its permissions.*group 'eventboost'.*--group-add/, r.reason);
  assert.doesNotMatch(r.reason, /bound thread/, r.reason);
});

// The option named the path: the reason says to check it (and still how to
// load the module), not EVENTBOOST_DEVICE, which the caller did not set.
test('start() with a device option that names no device says to check the path', () => {
  const r = eventboost.start({ device: '/dev/evenboost' });
  assert.strictEqual(r.code, 'ENOENT');
  assert.match(r.reason, /^\/dev\/evenboost: /);
  assert.match(r.reason, /check the path/);
  assert.match(r.reason, /modprobe eventboost/);
  assert.doesNotMatch(r.reason, /EVENTBOOST_DEVICE/);
  const notOurs = eventboost.start({ device: '/dev/null' });
  assert.strictEqual(notOurs.code, 'ENOTTY');
  assert.strictEqual(notOurs.reason, '/dev/null: not an eventboost device at this path: check the path');
  // Without the option, the variable named the path: the library's sentence.
  const saved = process.env.EVENTBOOST_DEVICE;
  process.env.EVENTBOOST_DEVICE = '/nonexistent/eventboost';
  try {
    const env = eventboost.start();
    assert.strictEqual(env.code, 'ENOENT');
    assert.match(env.reason, /EVENTBOOST_DEVICE names a missing path/);
  } finally {
    if (saved === undefined) delete process.env.EVENTBOOST_DEVICE; else process.env.EVENTBOOST_DEVICE = saved;
  }
});

test('GC_KINDS is frozen and start() takes it', () => {
  assert.ok(Object.isFrozen(eventboost.GC_KINDS));
  assert.throws(() => { 'use strict'; eventboost.GC_KINDS.push('x'); }, TypeError);
  assert.strictEqual(eventboost.start({ gc: eventboost.GC_KINDS, device: '/nonexistent' }).active, false);
});

test('stats().thread is null while no client is open', () => {
  eventboost.start({ device: '/nonexistent' });
  eventboost.stop();
  assert.strictEqual(eventboost.stats().thread, null);
});

// Bad input changes nothing: a start() whose device cannot be opened (a
// typo, the module not loaded, no permission) leaves the configuration
// that runs running, its client open and its monitor watching.
test('a start() that cannot open its device leaves the running configuration as it was', () => {
  const r = runFake(`
const eb = require(process.env.EB_PKG);
const a = eb.start({ gc: ['mark-compact'], device: process.env.EB_FAKE_DEVICE, sampleUs: 500 });
const b = eb.start({ gc: false, queue: false, device: '/nonexistent/eventboost' });
const s = eb.stats();
const out = { a: a.active, b: { active: b.active, code: b.code }, active: s.active,
  thread: s.thread !== null, gc: s.gc.kinds, queue: s.queue.sampleUs, boostFor: eb.boostFor(1000) };
const i0 = s.queue.iterations;
setTimeout(() => setTimeout(() => {
  out.watching = eb.stats().queue.iterations > i0;
  console.log(JSON.stringify(out));
  eb.stop();
}, 5), 5);
`);
  assert.deepStrictEqual(r, {
    a: true, b: { active: false, code: 'ENOENT' }, active: true, thread: true,
    gc: ['mark-compact'], queue: 500, boostFor: true, watching: true,
  });
});

// Without a device option, start() opens the device the thread's own
// environment names: a Worker given an environment of its own (env: {...})
// does not read the process's (the C library's getenv(), which also races
// the main thread's setenv()).
test("start() in a Worker opens the device its own environment names", () => {
  const r = runFake(`
const { Worker } = require('node:worker_threads');
const w = new Worker(\`
const eb = require(process.env.EB_PKG);
require('node:worker_threads').parentPort.postMessage(eb.start({ gc: false, queue: false }));
eb.stop();
\`, { eval: true, env: { ...process.env, EVENTBOOST_DEVICE: process.env.EB_FAKE_DEVICE } });
w.on('message', (m) => console.log(JSON.stringify(m)));
`);
  assert.deepStrictEqual({ active: r.active, code: r.code }, { active: true, code: null }, r.reason);
});

// The loop thread's /proc stat that cannot be opened (the open-files limit:
// each monitor takes five descriptors): without it the monitor cannot tell
// a loop asleep in a callback from one running, and held its boost through
// such a sleep, renewed past the watchdog.  start() now fails and says what
// to raise, and a later one works.
test('a start() whose monitor cannot open the loop thread\'s stat says why, and a later one works', () => {
  const script = `
const eb = require(process.env.EB_PKG);
const a = eb.start({ gc: false, device: process.env.EB_FAKE_DEVICE });
const s = eb.stats();
const b = eb.start({ gc: false, queue: false, device: process.env.EB_FAKE_DEVICE });
console.log(JSON.stringify({ a, active: s.active, b: b.active }));
eb.stop();
`;
  const emfile = runFake(script, { EB_FAKE_FAIL_TASK_STAT: '24' });
  assert.deepStrictEqual({ active: emfile.a.active, code: emfile.a.code, stats: emfile.active, b: emfile.b },
    { active: false, code: 'EMFILE', stats: false, b: true }, emfile.a.reason);
  assert.match(emfile.a.reason, /open-files limit.*ulimit -n.*LimitNOFILE.*queue: false/, emfile.a.reason);
  // No /proc (a chroot): the reason says so, not that the device is missing.
  const enoent = runFake(script, { EB_FAKE_FAIL_TASK_STAT: '2' });
  assert.deepStrictEqual({ active: enoent.a.active, code: enoent.a.code, b: enoent.b },
    { active: false, code: 'ENOENT', b: true }, enoent.a.reason);
  assert.match(enoent.a.reason, /\/proc.*queue: false/, enoent.a.reason);
  assert.doesNotMatch(enoent.a.reason, /modprobe/);
});

// A Queue-Boost monitor thread that cannot be created (a thread limit, the
// user's or the cgroup's): start() says so by Node's name for the errno
// and what to do, nothing of it is left running, and a later start() works.
// A Worker's environment that goes right after such a start() (terminated
// in a busy loop, its close callbacks not run) leaves the process running.
test('a start() whose monitor thread cannot be created says why, and a later one works', () => {
  const r = runFake(`
const eb = require(process.env.EB_PKG);
const { Worker } = require('node:worker_threads');
const a = eb.start({ gc: false, device: process.env.EB_FAKE_DEVICE });
const s = eb.stats();
const out = { a, active: s.active, thread: s.thread, queue: s.queue.sampleUs ?? null };
const w = new Worker(\`
const eb = require(process.env.EB_PKG);
require('node:worker_threads').parentPort.postMessage(eb.start({ gc: false, device: process.env.EB_FAKE_DEVICE }));
for (;;) {}
\`, { eval: true });
w.on('message', (m) => { out.worker = m.code; w.terminate(); });
w.on('exit', () => {
  const b = eb.start({ gc: false, device: process.env.EB_FAKE_DEVICE, sampleUs: 500 });
  const i0 = eb.stats().queue.iterations;
  setTimeout(() => setTimeout(() => {
    out.b = b.active;
    out.watching = eb.stats().queue.iterations > i0;
    console.log(JSON.stringify(out));
    eb.stop();
  }, 5), 5);
});
`, { EB_FAKE_FAIL_THREADS: '2' });
  assert.strictEqual(r.a.active, false);
  assert.strictEqual(r.a.code, 'EAGAIN');
  assert.match(r.a.reason, /monitor thread.*limit.*ulimit -u.*pids\.max.*queue: false/, r.a.reason);
  assert.deepStrictEqual({ active: r.active, thread: r.thread }, { active: false, thread: null });
  assert.strictEqual(r.worker, 'EAGAIN');
  assert.deepStrictEqual({ b: r.b, watching: r.watching }, { b: true, watching: true });
});

// A start() that would replace a running configuration but whose Queue-Boost
// monitor cannot start (a thread limit; the open-files limit) changes
// nothing, as one whose device cannot be opened: the running configuration
// runs on, and the result says why (until 2026-12-07 the running one was
// stopped first: nothing ran).  The client the failed start() opened is
// closed at once; the running one's at stop().
test('a restart whose monitor cannot start leaves the running configuration running', () => {
  const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'eb-close-')), 'log');
  const script = `
const fs = require('node:fs');
const eb = require(process.env.EB_PKG);
const device = process.env.EB_FAKE_DEVICE;
const a = eb.start({ ...JSON.parse(process.env.FIRST), device });
const b = eb.start({ gc: false, device, sampleUs: 700, queueFactor: 3 });
const closes = fs.readFileSync(process.env.EB_FAKE_LOG, 'utf8').split('\\n').filter(Boolean).length;
const s = eb.stats();
const i0 = s.queue.iterations;
setTimeout(() => setTimeout(() => {
  const out = { a: a.active, b, active: s.active, gc: s.gc.kinds, queue: s.queue.enabled,
    sampleUs: s.queue.sampleUs ?? null, factor: s.queue.queueFactor ?? null,
    watching: eb.stats().queue.iterations > i0, boostFor: eb.boostFor(1000), closes };
  eb.stop();
  out.closesAfterStop = fs.readFileSync(process.env.EB_FAKE_LOG, 'utf8').split('\\n').filter(Boolean).length;
  console.log(JSON.stringify(out));
}, 5), 5);
`;
  const run = (env) => {
    fs.rmSync(log, { force: true });
    return runFake(script, { EB_FAKE_LOG: log, ...env });
  };
  // The running configuration's monitor thread is created, the new one's not.
  const thread = run({ FIRST: JSON.stringify({ gc: ['mark-compact'], sampleUs: 500 }),
    EB_FAKE_SPARE_THREADS: '1', EB_FAKE_FAIL_THREADS: '1' });
  assert.deepStrictEqual({ active: thread.b.active, code: thread.b.code }, { active: false, code: 'EAGAIN' },
    thread.b.reason);
  assert.match(thread.b.reason, /monitor thread.*ulimit -u/, thread.b.reason);
  assert.deepStrictEqual({ ...thread, b: undefined }, {
    a: true, b: undefined, active: true, gc: ['mark-compact'], queue: true, sampleUs: 500, factor: 5,
    watching: true, boostFor: true, closes: 1, closesAfterStop: 2,
  });
  // A GC-Boost-only configuration, and a monitor short of descriptors.
  const fds = run({ FIRST: JSON.stringify({ gc: ['mark-compact'], queue: false }), EB_FAKE_FAIL_TASK_STAT: '24' });
  assert.deepStrictEqual({ active: fds.b.active, code: fds.b.code }, { active: false, code: 'EMFILE' }, fds.b.reason);
  assert.deepStrictEqual({ ...fds, b: undefined }, {
    a: true, b: undefined, active: true, gc: ['mark-compact'], queue: false, sampleUs: null, factor: null,
    watching: false, boostFor: true, closes: 1, closesAfterStop: 2,
  });
  fs.rmSync(path.dirname(log), { recursive: true, force: true });
});
