'use strict';
// eventboost: boost the event loop's core during V8 GC and while the
// loop's queue is backed up.  Inert (never throws, changes nothing) where
// the governor is absent.  One client per thread: the main thread and each
// Worker that calls start() have their own.

// One instance per thread (each Worker has its own): a second copy of the
// package, a dependency's nested one say, gives the first's,
// or each would hook GC and watch the loop on its own, and stop() on one
// would leave the other boosting; its start() and stop() act on the
// thread's instance.  Unless the first has no native addon (inert): then
// the second loads its own, and is the instance from then on.
const INSTANCE = Symbol.for('eventboost.instance');
let VERSION = null;
try {
  VERSION = require('./package.json').version;
} catch {
  // a copy of the code alone (the package's tests)
}
const first = globalThis[INSTANCE];
if (first?.native) {
  // (The same file evaluated again, as jest.resetModules() does, is no
  // second copy.)
  if (!first.warned && first.file !== __filename) {
    first.warned = true;
    process.emitWarning(`eventboost: a second copy of the package (${VERSION ?? 'version unknown'}, ` +
      `${__filename}) gives the first's (${first.version ?? 'version unknown'}, ${first.file}): ` +
      'one instance per thread; dedupe them (npm dedupe) to run one version',
    { code: 'EVENTBOOST_SECOND_COPY' });
  }
  module.exports = first.api;
  return;
}

const { normalize, GC_KINDS, DEFAULT_DEVICE } = require('./lib/options');

const fs = require('node:fs');
const path = require('node:path');

// The native addon: one built here from source (build/Release, made by
// `npm install` only where no prebuild fits or the one that fits does not
// load, or by a developer), else the
// prebuild for this Node's ABI that the package ships
// (prebuilds/<platform>-<arch>/node.abi<ABI>.node, node-gyp-build's naming).
// The addon calls V8's C++ API, so a binary of another Node ABI is refused:
// it would load and then crash.  `loadError` is the reason it is inert.
const ABI = Number(process.versions.modules);
const RUNTIME = `Node ${process.versions.node} (ABI ${ABI}, ${process.platform}-${process.arch})`;
function loadNative() {
  const candidates = [
    path.join(__dirname, 'build', 'Release', 'eventboost.node'),
    path.join(__dirname, 'prebuilds', `${process.platform}-${process.arch}`, `node.abi${ABI}.node`),
  ];
  let why = null;
  let denied = false;
  for (const file of candidates) {
    // Under the permission model fs throws ERR_ACCESS_DENIED for a path
    // the process may not read (existsSync() too): asked first, so that
    // requiring the package never throws.
    if (process.permission && !process.permission.has('fs.read', file)) {
      denied = true;
      continue;
    }
    if (!fs.existsSync(file)) continue;
    let addon;
    try {
      addon = require(file);
    } catch (e) {
      // Not the build's fault, and no rebuild helps.
      if (e.code === 'ERR_DLOPEN_DISABLED') {
        return { native: null, loadError: 'native addons are disabled in this process (--no-addons, ' +
          'or the permission model without --allow-addons): allow them to use eventboost' };
      }
      why ??= `the native addon does not load (${String(e.message).split('\n')[0]})`;
      continue;
    }
    if (addon.abi === ABI) return { native: addon, loadError: null };
    why ??= `the native addon was built for another Node (ABI ${addon.abi}), this is ${RUNTIME}`;
  }
  if (denied && !why) {
    return { native: null, loadError: 'the permission model keeps this process from reading the native ' +
      `addon (in ${__dirname}: build/Release or prebuilds): allow it with --allow-fs-read=${__dirname}` };
  }
  why ??= `the native addon is not built and no prebuild fits ${RUNTIME}`;
  return { native: null, loadError: `${why}; run 'npm rebuild eventboost' (needs a C++ compiler, ` +
    'make, python3 and the Node headers)' };
}
const { native, loadError } = loadNative();

// The thread's state, kept on its addon's exports: those are the thread's
// own, one native instance, shared by every realm that loads this copy (a
// vm context, as Jest runs each test file, loads addons with Node's
// require), so that one realm's start() or stop() is what another's stats()
// says.  Each realm has its own functions (its own errors and results);
// the state is primitives only, so that no realm keeps another alive.
// Without the addon, this realm's alone.
const STATE = Symbol.for('eventboost.state');  // {active, reason, options} as JSON
// start() and stop() calls so far: the preload's deferred start gives way
// to the application's own (register.js).
const CALLS = Symbol.for('eventboost.calls.count');
const holder = native ?? {};
const NOT_STARTED = JSON.stringify({ active: false, reason: 'not started', options: null });
const ACTIVE = Symbol.for('eventboost.active');  // the state's active, for boostFor() without a parse
function getState() { return JSON.parse(holder[STATE] ?? NOT_STARTED); }
function setState(active, reason, options) {
  holder[STATE] = JSON.stringify({ active, reason, options });
  holder[ACTIVE] = active;
}
function countCall() { holder[CALLS] = (holder[CALLS] ?? 0) + 1; }

// An errno's name (ENOENT...), for start()'s result: libuv's, as Node's
// own errors name it (EAGAIN, not EWOULDBLOCK; ENOTSUP, not EOPNOTSUPP),
// else the first of os.constants.errno's names for it.
const UV_ERRORS = require('node:util').getSystemErrorMap();
const ERRNO = {};
for (const [name, n] of Object.entries(require('node:os').constants.errno)) ERRNO[n] ??= name;
const errnoName = (errno) => UV_ERRORS.get(errno)?.[0] ?? ERRNO[-errno] ?? null;

// For a device option libeventboost's sentences point at EVENTBOOST_DEVICE
// (or /dev/eventboost) for these; the path was the caller's (or the preload's, which passes
// EVENTBOOST_DEVICE as the option): "the path".  libeventboost says ENOENT
// also for a device node without the module behind it.
const AT_PATH = {
  ENOENT: 'no eventboost device at this path: check the path, or load the module ' +
    "(run 'sudo modprobe eventboost'); in a container, pass the device (--device /dev/eventboost)",
  ENOTTY: 'not an eventboost device at this path: check the path',
  EACCES: "permission denied: this user (or container) may not open it: check its permissions (the " +
    "udev rule 60-eventboost.rules makes /dev/eventboost root:eventboost 0660: add the user to group " +
    "'eventboost'; in a container, pass the device with --device and --group-add the host's eventboost GID)",
};

function result(reason, errno) {
  return { active: false, reason, errno, code: errno ? errnoName(errno) : null };
}

function inactive(reason, errno = 0) {
  setState(false, reason, null);
  return result(reason, errno);
}

// For the package's own tests only, each an integer of µs up to 1 s
// (anything else is no delay):
//   EVENTBOOST_TEST_VOTE_DELAY_US delays each Queue-Boost vote after the
//   monitor's decision, so a test can make the loop's wait overtake the
//   vote every time;
//   EVENTBOOST_TEST_SLEEP_DELAY_US delays the monitor between a look and
//   the sleep after it, so a test can make the loop's next iteration begin
//   in between every time;
//   EVENTBOOST_TEST_WAKE_DELAY_US delays the monitor between the end of an
//   unboosted sleep and its look (the loop still sees it asleep), as a
//   wake-up is late on a loaded machine.
// Set (but to 0), each draws a process warning once, at start(): a service
// that inherited one by mistake is told.
const TEST_HOOKS = {
  EVENTBOOST_TEST_VOTE_DELAY_US: 'delays every Queue-Boost vote',
  EVENTBOOST_TEST_SLEEP_DELAY_US: 'delays every Queue-Boost monitor sleep',
  EVENTBOOST_TEST_WAKE_DELAY_US: 'delays every unboosted Queue-Boost monitor wake-up',
};
const testHooksWarned = new Set();
function testDelayUs(name) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return 0;
  const v = Number(raw);
  const ok = Number.isInteger(v) && v >= 0 && v <= 1e6;
  if (ok && v === 0) return 0;
  if (!testHooksWarned.has(name)) {
    testHooksWarned.add(name);
    process.emitWarning(ok
      ? `${name}=${raw} ${TEST_HOOKS[name]} by ${v} µs: a hook for eventboost's own tests; unset it for a service`
      : `${name}=${raw} is ignored (eventboost's tests give it an integer from 0 to 1000000); unset it`,
    { code: 'EVENTBOOST_TEST_HOOK' });
  }
  return ok ? v : 0;
}

/**
 * Start GC-Boost and Queue-Boost for the calling thread's event loop.
 * Returns {active: true, reason: null, errno: 0, code: null}, or {active:
 * false, reason, errno, code}: reason says what to do, errno is the
 * negative errno met (0 when none, e.g. no addon) and code its name
 * ('ENOENT'); throws only on invalid options.  Calling it again replaces
 * the running configuration, unless its device cannot be opened or its
 * Queue-Boost monitor cannot start: then the running one runs on.  With
 * gc and queue both off the client is open for boostFor() alone.
 */
function start(options) {
  const o = normalize(options);
  countCall();
  const voteDelayUs = testDelayUs('EVENTBOOST_TEST_VOTE_DELAY_US');
  const sleepDelayUs = testDelayUs('EVENTBOOST_TEST_SLEEP_DELAY_US');
  const wakeDelayUs = testDelayUs('EVENTBOOST_TEST_WAKE_DELAY_US');
  if (!native) {
    return inactive(loadError);
  }
  const mask = o.gc.reduce((m, k) => m | native.gcKinds[k], 0);
  // Resolved here, from this thread's environment: a Worker's may differ
  // from the process's, which the C library would read (and read without
  // the lock Node's own setenv() takes).
  const device = o.device ?? (process.env.EVENTBOOST_DEVICE || DEFAULT_DEVICE);
  const r = native.start(device, mask, o.queue, o.queueFactor, o.sampleUs, o.maxDelayMs,
    o.headOfLine === 'waiting', o.bursts === 'threshold', voteDelayUs, sleepDelayUs, wakeDelayUs);
  // Not opened (or not eventboost's): the reason names the caller's path
  // (libeventboost's names only EVENTBOOST_DEVICE).  An EACCES names the
  // path whatever named it: libeventboost's sentence for it also speaks of
  // a client outside the bound thread's process, which an open never is.
  // Not opened, or its monitor not started: what ran runs on
  // (native.start() stopped nothing).
  const code = errnoName(r.errno);
  const named = o.device ?? (code === 'EACCES' ? device : null);
  const reason = !r.opened && named ? `${named}: ${AT_PATH[code] ?? r.reason}` : r.reason;
  if (!r.active && !r.stopped && getState().active) return result(reason, r.errno);
  if (!r.active) return inactive(reason, r.errno);
  setState(true, null, o);
  return { active: true, reason: null, errno: 0, code: null };
}

/** Stop: unhook, end every vote, close the client.  Safe to call twice. */
function stop() {
  countCall();
  if (native) native.stop();
  // Inactive before: why, kept (a shutdown handler that logs it).
  const state = getState();
  let reason = 'stopped';
  if (state.reason?.startsWith('stopped')) reason = state.reason;
  else if (!state.active && state.reason !== 'not started') reason += ` (inactive before: ${state.reason})`;
  setState(false, reason, null);
}

const BOOST_FOR_MAX_US = 10000000;

/**
 * Hold the loop's core at boost for `usec` microseconds from now (extends
 * a running timed boost; 0 ends it): for code that knows a slow request is
 * coming.  Returns true when the kernel accepted it, false when inactive or
 * refused (budget spent).  The watchdog and budget still apply.
 */
function boostFor(usec) {
  if (typeof usec !== 'number') {
    const e = new TypeError(`eventboost: boostFor(usec) needs a number, got ${typeof usec}`);
    e.code = 'ERR_INVALID_ARG_TYPE';
    throw e;
  }
  if (!Number.isInteger(usec) || usec < 0 || usec > BOOST_FOR_MAX_US) {
    const e = new RangeError(`eventboost: boostFor(usec) needs an integer from 0 to ${BOOST_FOR_MAX_US}, got ${usec}`);
    e.code = 'ERR_OUT_OF_RANGE';
    throw e;
  }
  if (!native || holder[ACTIVE] !== true) return false;
  return native.boostFor(usec) === 0;
}

function ms(ns) { return ns / 1e6; }

// Active but doing nothing: the hints succeed, yet the loop's CPU is not run
// by the eventboost governor (another governor selected, or a machine, such
// as many cloud VMs, without a cpufreq driver).  Says so, else null.
function idleReason(n, k) {
  if (!n || (k && k.governed)) return null;
  // The policy's counters read (k): a cpufreq driver runs the CPU, whose
  // governor the permission model may keep us from reading.
  let what = k ? 'another cpufreq governor runs it' : 'it has no cpufreq driver';
  try {
    what = `its cpufreq governor is ${fs.readFileSync(`/sys/devices/system/cpu/cpu${n.cpu}/cpufreq/scaling_governor`, 'utf8').trim()}`;
  } catch {
    // no cpufreq driver for that CPU, or not ours to read
  }
  return `active, but the event loop's CPU ${n.cpu} is not governed by eventboost (${what}): ` +
    "the hints change nothing; select the governor (see 'ebctl status')";
}

/** What this thread's eventboost did, and the kernel's view of its core's policy. */
function stats() {
  const n = native ? native.stats() : null;
  const state = getState();
  const o = state.options;
  const g = n ? n.gc : null;
  const q = n ? n.queue : null;
  const k = n ? n.kernel : null;
  return {
    active: state.active,
    reason: state.active ? idleReason(n, k) : state.reason,
    thread: n && n.active && n.tid ? { tid: n.tid, cpu: n.cpu } : null,
    gc: {
      enabled: !!(o && o.gc.length),
      kinds: o ? o.gc : [],
      boosts: g ? g.boosts : 0,
      refused: g ? g.refused : 0,
      errors: g ? g.errors : 0,
      count: g ? g.count : 0,
      timeMs: g ? ms(g.totalNs) : 0,
      maxMs: g ? ms(g.maxNs) : 0,
      markingMs: g ? ms(g.markingNs) : 0,
      markingNow: g ? g.markingNow : false,
      byKind: Object.fromEntries(GC_KINDS.map((kind, i) => [kind, g ? g.byKind[i] : 0])),
    },
    queue: {
      enabled: !!(o && o.queue),
      headOfLine: o && o.queue ? o.headOfLine : null,
      bursts: o && o.queue ? o.bursts : null,
      queueFactor: o && o.queue ? o.queueFactor : null,
      sampleUs: o && o.queue ? o.sampleUs : null,
      maxDelayMs: o && o.queue ? o.maxDelayMs : null,
      boosts: q ? q.boosts : 0,
      boostedNow: q ? q.boostedNow : false,
      boostedMs: q ? ms(q.boostedNs) : 0,
      byLength: q ? q.byLength : 0,
      byHeadOfLine: q ? q.byHeadOfLine : 0,
      byOverload: q ? q.byOverload : 0,
      keptThroughWaits: q ? q.keptThroughWaits : 0,
      endedAsleep: q ? q.endedAsleep : 0,
      renewed: q ? q.renewed : 0,
      refused: q ? q.refused : 0,
      errors: q ? q.errors : 0,
      avgLength: q ? q.avgLength : 0,
      avgBusyUs: q ? q.avgBusyUs : 0,
      iterations: q ? q.iterations : 0,
      waits: q ? q.waits : 0,
      samples: q ? q.samples : 0,
      monitorWakeups: q ? q.wakeups : 0,
      monitorArrivals: q ? q.arrivals : 0,
    },
    kernel: k ? {
      policy: k.policy,
      governed: k.governed,
      fastSwitch: k.fastSwitch,
      boosted: k.boosted,
      budgetSpent: k.budgetSpent,
      curKhz: k.curKhz,
      baseKhz: k.baseKhz,
      boostKhz: k.boostKhz,
      hints: { gc: k.hintsGc, queue: k.hintsQueue, timed: k.hintsTimed },
      boosts: k.boosts,
      boostedShare: k.governedNs ? k.boostedNs / k.governedNs : 0,
      boostedMs: k.boostedNs / 1e6,
      maxBoostUs: k.maxBoostUs,
      watchdogEnds: k.watchdogEnds,
      budgetEnds: k.budgetEnds,
      refused: k.refused,
      // null: nothing recorded (-ENODATA); 32768: the last bucket, 16384 us
      // or more, which has no upper bound.
      latencyP50Us: k.latencyP50Us >= 0 ? k.latencyP50Us : null,
      latencyP99Us: k.latencyP99Us >= 0 ? k.latencyP99Us : null,
    } : null,
  };
}

module.exports = { start, stop, stats, boostFor, GC_KINDS };
// For register.js only, off the public API.
Object.defineProperty(module.exports, Symbol.for('eventboost.calls'), { value: () => holder[CALLS] ?? 0 });
// (configurable: the package's tests load copies on purpose, deleting it)
Object.defineProperty(globalThis, INSTANCE, {
  value: { api: module.exports, file: __filename, version: VERSION, native: !!native, warned: false },
  configurable: true,
});
