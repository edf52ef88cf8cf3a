'use strict';
// The experiment's preload: lets the driver switch this server's policy at
// run time, so that every policy is measured on the same warmed process
// (separate processes can differ in JIT and heap state by more than some
// policies' effect).
//   GET http://127.0.0.1:CONTROL_PORT/policy?eb=MODE&oracle=0|1&gc=0|1
//   MODE off|gc|queue|all: eventboost's hooks, as EVENTBOOST= gives them;
//        gcpause: GC-Boost of the stop-the-world pauses alone (no marking
//        cycle), to show what boosting the marking adds; gcmc: of the
//        major GC's final pause alone (mark-compact), the cheapest GC-Boost
//        that still covers the major GCs; gcmark: of the
//        major GC cycles alone (marking through its mark-compact, no
//        scavenges), to show what boosting the scavenges costs; allmark:
//        gcmark with Queue-Boost; queuewait, allmarkwait: queue and
//        allmark with headOfLine 'waiting' (a long callback boosts only
//        once work waits behind it); queuethreshold: queue with bursts
//        'threshold' (no monitor wake-up for work arriving at a waiting
//        loop); queuef5, allmarkf5: queue and allmark with queueFactor 5
//        (thresholds at twice the earlier default's multiple of the
//        baselines); these four at factor 2.5 and bursts 'arrival' for
//        what they do not name (WAS, below); queuef5threshold,
//        allmarkf5threshold: queuef5 and allmarkf5 with bursts
//        'threshold' (the package's defaults since 2026-11-28)
//   oracle=1: Adrenaline-style oracle, boost the whole of every request to
//             the URLs most likely to be tail (ORACLE_URLS, a regexp)
//   gc=1:     a full GC first (hooks off), so that every run starts from
//             the same heap state (an ablation only: the headline runs
//             without it, as a real service does)
//   GET http://127.0.0.1:CONTROL_PORT/stats: the hints this process tried
//        to send since it started, all sessions summed ({hints, gc,
//        queue, oracle}, and refused: how many of gc's and queue's the
//        kernel refused): the driver checks that runs which must see no
//        hints saw none; and V8's collections since start ({v8gc: {major,
//        minor, pauseMs}}, from perf_hooks), so that a run says how many GC
//        cycles it held; and the running session's Queue-Boost options
//        (queueOptions: {queueFactor, bursts, headOfLine, sampleUs,
//        maxDelayMs}, null without Queue-Boost)
// node -r ./control.js service.js
const http = require('node:http');
const { PerformanceObserver, constants: perf } = require('node:perf_hooks');
const v8 = require('node:v8');
const vm = require('node:vm');
// The application's eventboost (this file is preloaded from elsewhere).
const eb = require(require.resolve('eventboost', { paths: [process.cwd()] }));

const PAUSES = ['scavenge', 'minor-mark-compact', 'mark-compact'];
const MAJOR = ['incremental-marking', 'mark-compact'];
const MAJOR_PAUSE = ['mark-compact'];
// queue, all, allmark: the package's Queue-Boost defaults (queueFactor 5,
// bursts 'threshold' from 2026-11-28, afternoon; 2.5 and 'arrival' in every
// run before).  The variants name what they set, and set the rest as they
// ran when they were measured: the earlier defaults.
const WAS = { queueFactor: 2.5, bursts: 'arrival' };
const MODES = {
  off: null, gc: { queue: false }, gcpause: { queue: false, gc: PAUSES },
  gcmc: { queue: false, gc: MAJOR_PAUSE },
  gcmark: { queue: false, gc: MAJOR }, queue: { gc: false }, all: {}, allmark: { gc: MAJOR },
  queuewait: { ...WAS, gc: false, headOfLine: 'waiting' }, allmarkwait: { ...WAS, gc: MAJOR, headOfLine: 'waiting' },
  queuethreshold: { ...WAS, gc: false, bursts: 'threshold' },
  queuef5: { ...WAS, gc: false, queueFactor: 5 }, allmarkf5: { ...WAS, gc: MAJOR, queueFactor: 5 },
  queuef5threshold: { gc: false, queueFactor: 5, bursts: 'threshold' },
  allmarkf5threshold: { gc: MAJOR, queueFactor: 5, bursts: 'threshold' },
};
const tail = new RegExp(process.env.ORACLE_URLS || '^/(heavy|posts)$');
let oracle = false;
let inflight = 0; // tail requests begun and not yet closed

// The oracle holds one vote while any tail request is in flight, however
// long it stalls: a request closing must not end the vote of the next one,
// already running.  The package has no untimed vote, so the vote is the
// longest timed one (10 s, as long as the experiment's watchdog allows),
// renewed every second while a tail request is in flight: it cannot lapse
// during a stall (a timed 200 ms vote lapsed in exactly the long GC
// stalls that make the tail).
const VOTE_US = 10000000;
let renew = null;
let oracleHints = 0;
function vote() {
  oracleHints++;
  eb.boostFor(VOTE_US);
}
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, req, res) {
  if (event === 'request' && oracle && this !== control && tail.test(req.url)) {
    if (inflight++ === 0) {
      vote();
      renew = setInterval(vote, 1000);
    }
    res.on('close', () => {
      if (--inflight === 0) {
        clearInterval(renew);
        eb.boostFor(0);
      }
    });
  }
  return emit.apply(this, arguments);
};

// Hints this process tried to send: finished sessions plus the running one
// (counted from its start, whatever the package does with its counters
// across stop and start).
// refused: of those, the ones the kernel refused (-EBUSY: the budget or the
// client's share spent), which it does not count as hints (hints.js).
const acc = { gc: 0, queue: 0, refused: 0 };
let base = null;
function sessionCounts() {
  const s = eb.stats();
  return { gc: s.gc.boosts + s.gc.refused + s.gc.errors, queue: s.queue.boosts + s.queue.refused + s.queue.errors,
    refused: s.gc.refused + s.queue.refused };
}
// V8's collections: major (mark-compact) and minor (scavenge, minor
// mark-compact) pauses, and the time in all pauses.
const v8gc = { major: 0, minor: 0, pauseMs: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = e.detail ? e.detail.kind : e.kind;
    if (kind === perf.NODE_PERFORMANCE_GC_MAJOR) v8gc.major++;
    else if (kind === perf.NODE_PERFORMANCE_GC_MINOR) v8gc.minor++;
    v8gc.pauseMs += e.duration;
  }
}).observe({ entryTypes: ['gc'] });

// Queue-Boost's monitor in the running session (0 without one): what it
// cost (its looks and wake-ups on the loop's CPU) beside what it did.
function monitorCounts(q) {
  return { iterations: q.iterations, samples: q.samples, wakeups: q.monitorWakeups, arrivals: q.monitorArrivals, boosts: q.boosts,
    byLength: q.byLength, byHeadOfLine: q.byHeadOfLine, byOverload: q.byOverload, boostedMs: q.boostedMs };
}

// The Queue-Boost options of the session running now (null without one):
// a run records what its policy meant, since a policy's name outlives the
// package's defaults (eb-queue's changed on 2026-11-28).
function queueOptions(q) {
  return q.enabled ? { queueFactor: q.queueFactor, bursts: q.bursts, headOfLine: q.headOfLine, sampleUs: q.sampleUs, maxDelayMs: q.maxDelayMs } : null;
}

function counts() {
  const q = eb.stats().queue;
  const c = { ...acc, oracle: oracleHints, v8gc: { ...v8gc }, monitor: monitorCounts(q), queueOptions: queueOptions(q) };
  if (base) {
    const n = sessionCounts();
    c.gc += n.gc - base.gc;
    c.queue += n.queue - base.queue;
    c.refused += n.refused - base.refused;
  }
  c.hints = c.gc + c.queue + c.oracle;
  return c;
}
function stopSession() {
  if (base) {
    const n = sessionCounts();
    acc.gc += n.gc - base.gc;
    acc.queue += n.queue - base.queue;
    acc.refused += n.refused - base.refused;
    base = null;
  }
  if (renew) clearInterval(renew);
  eb.stop();
}

let fullGc = null;
function collect() {
  if (!fullGc) {
    v8.setFlagsFromString('--expose-gc');
    fullGc = vm.runInNewContext('gc');
  }
  fullGc();
}

function setPolicy(mode, withOracle, gc) {
  if (!(mode in MODES)) return { error: `eb must be one of ${Object.keys(MODES).join('|')}` };
  stopSession();
  oracle = false;
  if (gc) collect();
  if (!MODES[mode] && !withOracle) return { active: false };
  const r = eb.start(MODES[mode] || { gc: false, queue: false });
  if (r.active) base = sessionCounts();
  oracle = withOracle && r.active;
  return r;
}

const control = http.createServer((req, res) => {
  const u = new URL(req.url, 'http://x');
  const r = u.pathname === '/stats' ? counts() : u.pathname === '/policy'
    ? setPolicy(u.searchParams.get('eb') || 'off', u.searchParams.get('oracle') === '1',
      u.searchParams.get('gc') === '1')
    : { error: `GET /policy?eb=${Object.keys(MODES).join('|')}&oracle=0|1&gc=0|1` };
  res.writeHead(r.error || r.reason ? 400 : 200, { 'content-type': 'application/json' }).end(JSON.stringify(r));
});
control.listen(Number(process.env.CONTROL_PORT), '127.0.0.1');
control.unref();
