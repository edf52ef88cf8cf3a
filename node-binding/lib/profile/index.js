'use strict';
// The tail profiler: records requests (recorder.js), analyses them in the
// background as they finish (analyze.js) and writes the JSON report and its
// HTML page (html.js).
const fs = require('node:fs');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { Recorder } = require('./recorder');
const { breakdown, fold, needsFrom, report } = require('./analyze');
const { page } = require('./html');

const SLOWEST = 10;        // critical paths kept for the HTML page
const MAX_ROWS = 200000;   // per-request breakdowns kept (~220 B each); beyond, a uniform sample
const HISTORY_MS = 30000;  // loop history kept for requests still running
const FOLD_SEGS = 4096;    // a running request's callbacks (two numbers each) kept unanalysed at most
const SETTLE_MS = 250;     // GC entries reach the observer a little late

function htmlPath(out) {
  return out.endsWith('.json') ? `${out.slice(0, -5)}.html` : `${out}.html`;
}

class Profiler {
  // historyMs: how much of the loop's history is kept for requests still
  // running (the default is what production uses; tests shorten it).
  constructor({ out = 'eventboost-profile.json', sample = 1, historyMs = HISTORY_MS } = {}) {
    this.out = path.resolve(out);
    this.sample = sample;
    this.historyMs = historyMs;
    this.rec = new Recorder({ sample });
    this.rows = [];
    this.total = 0;
    this.aborted = 0;
    this.slowest = [];
    this.t0 = performance.now();
  }

  start() {
    this.rec.start();
    // From an immediate, which comes after the loop's own that hand the
    // observer the GC entries of the iteration, up to this timer: a GC in
    // an immediate ahead of the pass's is handed over an iteration later.
    this.timer = setInterval(() => {
      const at = performance.now();
      setImmediate(() => this.digest(false, at)).unref();
    }, 1000);
    this.timer.unref();
    return this;
  }

  // Analyse the requests that finished long enough ago (all with `all`: the
  // report), and sum the running ones as far as the GC entries in hand
  // (those of GCs before `seenAt`) settle them.
  digest(all, seenAt = Infinity) {
    const rec = this.rec;
    rec.flushGc();
    const now = performance.now();
    const until = Math.min(now - SETTLE_MS, seenAt);
    const fin = rec.finished;
    let n = 0;
    while (n < fin.length && (all || fin[n].t1 < until)) n++;
    const done = fin.splice(0, n);
    for (const st of done) {
      const minSlow = this.slowest.length < SLOWEST ? -1 : this.slowest[this.slowest.length - 1].ownMs;
      let r = breakdown(st, rec.idle, rec.gc, null, rec.stall);
      const keep = r.own > minSlow;
      const pieces = keep ? [] : null;
      if (keep) r = breakdown(st, rec.idle, rec.gc, pieces, rec.stall);
      this.total++;
      if (st.aborted) this.aborted++;
      if (this.rows.length < MAX_ROWS) this.rows.push(r);
      else {
        const j = Math.floor(Math.random() * this.total);
        if (j < MAX_ROWS) this.rows[j] = r;
      }
      if (keep) this.keepSlow(st, r, pieces);
      // (What the request created may keep its record: not its callbacks.)
      st.segs = [];
      st.acc = undefined;
    }
    // A request running for a while (or with many callbacks) is analysed
    // as far as it is settled: what it keeps and the history it needs stay
    // bounded.  The history goes back to what any request needs, and at
    // least historyMs (a request's start can precede its parse).
    const foldBefore = now - this.historyMs / 6;
    let oldest = now - this.historyMs;
    for (const st of rec.open) {
      // (Not the report's pass: it may run inside a request's callback,
      // whose segment is not recorded yet.)
      if (!all && (needsFrom(st) < foldBefore || st.segs.length > FOLD_SEGS)) {
        fold(st, until, rec.idle, rec.gc, rec.stall);
      }
      oldest = Math.min(oldest, needsFrom(st));
    }
    for (const st of fin) oldest = Math.min(oldest, needsFrom(st));
    rec.prune(oldest);
  }

  keepSlow(st, r, pieces) {
    const rel = (x) => Math.round((x - st.t0) * 1000) / 1000;
    const path = [];
    for (const [kind, s, e] of pieces) {
      const last = path[path.length - 1];
      if (last && last.kind === kind && Math.abs(last.endMs - rel(s)) < 1e-6) last.endMs = rel(e);
      else path.push({ kind, startMs: rel(s), endMs: rel(e) });
    }
    const round = (x) => Math.round(x * 1000) / 1000;
    this.slowest.push({
      request: st.url,
      atMs: round(st.t0 - this.t0),
      latencyMs: round(r.latency),
      aborted: r.aborted,
      breakdownMs: { io: round(r.io), gc: round(r.gc), cpu: round(r.cpu) },
      descheduledMs: round(r.descheduled),
      ownMs: round(r.own),
      queueMs: { gc: round(r.queueGc), cpu: round(r.queueCpu) },
      path: path.length > 400 ? path.slice(0, 400) : path,
    });
    this.slowest.sort((a, b) => b.ownMs - a.ownMs);
    if (this.slowest.length > SLOWEST) this.slowest.length = SLOWEST;
  }

  report() {
    this.digest(true);
    return report(this.rows, {
      sample: this.sample,
      seen: this.rec.seen,
      unfinished: this.rec.started - this.rec.ended,
      total: this.total,
      aborted: this.aborted,
      durationS: (performance.now() - this.t0) / 1000,
      slowest: this.slowest,
    });
  }

  write() {
    const r = this.report();
    r.pid = process.pid;
    fs.mkdirSync(path.dirname(this.out), { recursive: true });
    fs.writeFileSync(this.out, `${JSON.stringify(r, null, 2)}\n`);
    fs.writeFileSync(htmlPath(this.out), page(r));
    return r;
  }

  stop() {
    clearInterval(this.timer);
    this.rec.stop();
  }

  // After the last report: keep nothing (no cost afterwards, in memory
  // either).
  release() {
    this.rows = [];
    this.slowest = [];
    this.rec.release();
  }
}

module.exports = { Profiler, htmlPath };
