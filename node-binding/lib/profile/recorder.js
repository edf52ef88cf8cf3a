'use strict';
// Records, on the thread that loads it, what the profiler needs to rebuild
// each HTTP request's critical path through the event loop:
//  - every request from its source event to the end of its response
//    (diagnostics_channel 'http.server.request.start' / '...response.finish',
//    or its connection's close first: aborted), with when its connection
//    was accepted ('net.server.socket'),
//    with the callbacks run on its behalf (AsyncLocalStorage carries the
//    request through every resource it creates; async_hooks before/after
//    time the top-level callbacks);
//  - when the loop blocked in its poll, waiting for I/O (libuv's idle-time
//    metric, performance.nodeTiming.idleTime, read at each top-level callback);
//  - while it never blocks, the loop's iterations (a 1 ms timer, armed only
//    then: it fires at most once in each timers phase, and there is one
//    timers phase between two polls);
//  - every GC pause (PerformanceObserver 'gc' entries).
// Pure JavaScript: no addon, no device.
const asyncHooks = require('node:async_hooks');
const dc = require('node:diagnostics_channel');
const { performance, PerformanceObserver, constants } = require('node:perf_hooks');
// Taken at load: fake timers an application installs later (they patch the
// global and node:timers alike) must not stop the marks.
const { setTimeout } = require('node:timers');

const KIND = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

const CPU_READ_MS = 1;     // read the process's CPU time at most this often
const STALL_MIN_MS = 0.5;  // less lost than this is measurement noise
const MARK_AFTER_MS = 1;   // mark iterations once the loop ran this long without waiting

const kState = Symbol('eventboost.profile.request');
// The request a connection's reads now work for (its body), where the
// store entered at its start does not reach them (below).
const kReading = Symbol('eventboost.profile.reading');
const kAccepted = Symbol('eventboost.profile.accepted');  // [bound, markLast] then

// What the report keeps of a request's URL: its path, at most 120
// characters, not its query string (tokens, addresses), only that it had
// one, nor the scheme and authority of an absolute-form one (a proxy's:
// user:password@host).
function pathOf(url) {
  let u = String(url);
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(u);
  if (m) u = u.slice(m[0].length) || '/';
  const q = u.indexOf('?');
  return q < 0 ? u.slice(0, 120) : `${u.slice(0, Math.min(q, 120))}?…`;
}

// Time-ordered flat interval lists [start0, end0, start1, end1, ...].
class Intervals {
  constructor() { this.a = []; this.kinds = []; }
  push(s, e, kind) { this.a.push(s, e); if (kind !== undefined) this.kinds.push(kind); }
  get length() { return this.a.length >> 1; }
  // Drop intervals that ended before t.
  prune(t) {
    let i = 0;
    while (i < this.a.length && this.a[i + 1] < t) i += 2;
    if (i) { this.a.splice(0, i); if (this.kinds.length) this.kinds.splice(0, i >> 1); }
  }
  // Index of the first interval whose end is > t.
  firstEndingAfter(t) {
    let lo = 0, hi = this.length;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if (this.a[2 * m + 1] > t) hi = m; else lo = m + 1;
    }
    return lo;
  }
}

class Recorder {
  constructor({ sample = 1 } = {}) {
    this.sample = sample;
    this.idle = new Intervals();    // the loop blocked in poll
    this.gc = new Intervals();      // GC pauses, with their kinds
    this.stall = new Intervals();   // the thread descheduled, with its share
    this.cpuAt = performance.now();
    this.cpuIdle = performance.nodeTiming.idleTime;
    const u = process.cpuUsage();
    this.cpuMs = (u.user + u.system) / 1000;
    this.finished = [];             // requests whose response ended
    this.open = new Set();          // and those still running
    this.seen = 0;                  // requests started (sampled or not)
    this.started = 0;               // sampled requests started
    this.ended = 0;                 // and ended
    this.depth = 0;
    this.owner = undefined;         // request the running callback works for
    this.segStart = 0;
    this.lastAfter = performance.now();
    this.lastWake = this.lastAfter; // end of the loop's last wait in poll
    this.lastIdle = performance.nodeTiming.idleTime;
    this.kPending = Symbol('eventboost.profile.pending');  // a socket's responses
    this.sockets = new Set();       // the connections that have them
    this.markPrev = 0;              // the two latest iteration marks
    this.markLast = 0;
    this.marking = false;           // a mark timer is armed
    this.mark = () => {
      this.marking = false;
      this.markPrev = this.markLast;
      this.markLast = performance.now();
    };
    this.als = new asyncHooks.AsyncLocalStorage();
    // The context the marks are armed in: the one the recorder is made in,
    // which must be before any application code runs (the preload's), not
    // the callback's whose after hook arms one, nor, through it, every
    // mark's after it.
    this.markScope = new asyncHooks.AsyncResource('eventboost.profile.mark');
    this.running = false;
  }

  start() {
    if (this.running) return;
    this.running = true;
    const self = this;
    const nodeTiming = performance.nodeTiming;
    this.hook = asyncHooks.createHook({
      before() {
        if (self.depth++ !== 0) return;
        const now = performance.now();
        const idle = nodeTiming.idleTime;
        const d = idle - self.lastIdle;
        if (d > 0.001) {
          self.idle.push(Math.max(self.lastAfter, now - d), now);
          self.lastWake = now;
        }
        self.lastIdle = idle;
        if (now - self.cpuAt >= CPU_READ_MS) self.readCpu(now, idle);
        // (Not a request that is over: what it left behind, an interval, a
        // pooled socket, runs in its context without working for it.)
        // On Node 24 and later (AsyncContextFrame) a connection's later
        // reads -- a request's body -- run in the context the connection
        // was made in, which the request's store does not reach: its
        // parser's resource names the connection, which names the request.
        let st = self.als.getStore();
        if (!st) {
          // (Only node:http's parser resource: another's getter could throw.)
          const r = asyncHooks.executionAsyncResource();
          if (r && r.type === 'HTTPINCOMINGMESSAGE' && r.socket) st = r.socket[kReading];
        }
        self.owner = st && !st.t1 ? st : undefined;
        self.segStart = now;
      },
      after() {
        if (self.depth > 1) { self.depth--; return; }
        const now = performance.now();
        if (self.owner) self.owner.segs.push(self.segStart, now);
        self.owner = undefined;
        self.lastAfter = now;
        // At depth 1 still: the mark scope's own before and after hooks
        // (runInAsyncScope()) are a nested callback's, not the loop's.
        if (!self.marking && now - self.lastWake > MARK_AFTER_MS) self.armMark();
        self.depth = 0;
      },
    });
    this.hook.enable();
    // An exception that reaches the top: Node emits the after hooks of the
    // stack it unwinds (the first, at depth 1, ends the callback).  One
    // taken outside any callback (async id 0: a rejection nothing handled,
    // a microtask's throw) has none to follow.
    this.onUncaught = () => { this.depth = asyncHooks.executionAsyncId() === 0 ? 0 : 1; };
    process.on('uncaughtExceptionMonitor', this.onUncaught);

    this.obs = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const kind = e.detail ? e.detail.kind : e.kind;
        self.gc.push(e.startTime, e.startTime + e.duration, KIND[kind] || 'other');
      }
    });
    this.obs.observe({ type: 'gc' });

    this.onStart = (m) => this.requestStart(m);
    this.onFinish = (m) => this.responseFinish(m);
    this.onAccept = ({ socket }) => { socket[kAccepted] = [this.readyBound(), this.markLast]; };
    // A connection that closes first ends its requests still pending (all
    // of them: on Node 20 a response queued behind another never emits
    // 'close' of its own).
    this.onSocketClose = function onSocketClose() {
      const pending = this[self.kPending];
      this[self.kPending] = undefined;
      self.sockets.delete(this);
      if (!self.running || !pending) return;
      for (const res of pending) self.responseEnd(res, null, true);
    };
    dc.subscribe('net.server.socket', this.onAccept);
    dc.subscribe('http.server.request.start', this.onStart);
    dc.subscribe('http.server.response.finish', this.onFinish);
  }

  // A loop that never blocks in poll says nothing through the idle metric
  // about when a request's event became ready: the marks do.  The mark timer
  // runs outside any request's context, the profiler's and the
  // application's (markScope), once an iteration at most, and is re-armed
  // by the after hook of its own callback while the loop stays busy.
  armMark() {
    this.marking = true;
    this.markScope.runInAsyncScope(setTimeout, null, this.mark, 1).unref();
  }

  stop() {
    if (!this.running) return;
    this.running = false;
    this.hook.disable();
    this.flushGc();
    this.obs.disconnect();
    process.removeListener('uncaughtExceptionMonitor', this.onUncaught);
    dc.unsubscribe('net.server.socket', this.onAccept);
    dc.unsubscribe('http.server.request.start', this.onStart);
    dc.unsubscribe('http.server.response.finish', this.onFinish);
    this.als.disable();
  }

  flushGc() {
    if (!this.obs || typeof this.obs.takeRecords !== 'function') return;
    for (const e of this.obs.takeRecords()) {
      const kind = e.detail ? e.detail.kind : e.kind;
      this.gc.push(e.startTime, e.startTime + e.duration, KIND[kind] || 'other');
    }
  }

  // The loop's thread can be busy without running: descheduled by the OS
  // when the machine is oversubscribed.  Over each stretch of at least
  // CPU_READ_MS, wall time not spent in poll and not on a CPU was lost that
  // way; `stall` keeps the share of the stretch's busy time it took.  (The
  // process's CPU time counts its other threads too, so this errs low.)
  readCpu(now, idle) {
    const u = process.cpuUsage();
    const cpu = (u.user + u.system) / 1000;
    const busy = now - this.cpuAt - (idle - this.cpuIdle);
    const lost = busy - (cpu - this.cpuMs);
    if (lost > STALL_MIN_MS && busy > 0) this.stall.push(this.cpuAt, now, Math.min(1, lost / busy));
    this.cpuAt = now;
    this.cpuMs = cpu;
    this.cpuIdle = idle;
  }

  // When an event the poll returns now became ready, at the earliest, for
  // a file descriptor that was in the poll before: after the loop's last
  // wait in it (had it been ready, the loop would not have waited), and
  // after the poll of the iteration before this one, which would have
  // returned it (that poll came after the older of the two latest marks).
  readyBound() {
    return this.markPrev > this.lastWake ? this.markPrev : this.lastWake;
  }

  requestStart({ request, response, socket }) {
    const now = performance.now();
    this.seen++;
    // The callback that parsed this request works for it from here on.
    if (this.owner && this.depth > 0) this.owner.segs.push(this.segStart, now);
    this.segStart = now;
    if (this.sample < 1 && Math.random() >= this.sample) {
      this.owner = undefined;
      this.als.enterWith(undefined);
      if (socket) socket[kReading] = undefined;
      return;
    }
    // The source event, the request's bytes, became ready at readyBound()
    // at the earliest.  (Not bounded by the previous response's 'finish' on
    // the connection: that comes a tick after its last write, after what
    // its callback did next, while the client may have sent this request.)
    // A connection's first bytes are read in the poll after the one that
    // accepted it, before which it was in no poll: they, and the requests
    // that came with them, are bounded as its connection was then, until the
    // marks have moved past that poll.
    let t0 = this.readyBound();
    const acc = socket && socket[kAccepted];
    if (acc && this.markPrev <= acc[1]) t0 = acc[0] > this.lastWake ? acc[0] : this.lastWake;
    if (t0 > now) t0 = now;
    const st = {
      t0, t1: 0, parsed: now, segs: [], aborted: false, res: response,
      url: `${request.method} ${pathOf(request.url)}`,
    };
    response[kState] = st;
    this.open.add(st);
    this.started++;
    // A connection that closes first gets no 'finish': its close ends the
    // request there, marked aborted.  (node:http gives every request its
    // socket.)
    if (socket) {
      if (!socket[this.kPending]) {
        socket[this.kPending] = new Set();
        socket.once('close', this.onSocketClose);
        this.sockets.add(socket);
      }
      socket[this.kPending].add(response);
    }
    this.owner = this.depth > 0 ? st : undefined;
    this.als.enterWith(st);
    if (socket) socket[kReading] = st;
  }

  responseFinish({ response, socket }) {
    this.responseEnd(response, socket, false);
  }

  responseEnd(response, socket, aborted) {
    const st = response && response[kState];
    if (!st) return;
    const now = performance.now();
    if (socket && socket[this.kPending]) socket[this.kPending].delete(response);
    response[kState] = undefined;
    st.res = undefined;
    this.open.delete(st);
    this.ended++;
    st.t1 = now;
    st.aborted = aborted;
    if (this.owner === st) {
      st.segs.push(this.segStart, now);
      this.owner = undefined;
    }
    this.finished.push(st);
  }

  // Once stopped and reported: forget everything, and unhook from the
  // requests still running.  (What they created still holds each one's
  // record through AsyncLocalStorage until it is gone: its URL and a few
  // numbers.)
  release() {
    for (const socket of this.sockets) {
      socket.removeListener('close', this.onSocketClose);
      socket[this.kPending] = undefined;
      socket[kReading] = undefined;
    }
    this.sockets = new Set();
    for (const st of this.open) {
      st.res[kState] = undefined;
      st.res = undefined;
      st.segs = [];
      st.acc = undefined;
    }
    this.open = new Set();
    this.finished = [];
    this.idle = new Intervals();
    this.gc = new Intervals();
    this.stall = new Intervals();
  }

  // Forget loop history older than t (requests started before it are
  // analysed with what is left).
  prune(t) {
    this.idle.prune(t);
    this.gc.prune(t);
    this.stall.prune(t);
  }
}

module.exports = { Recorder, Intervals };
