'use strict';
// The published latency model (the event dependency graph of VEE'19): a
// request's critical path runs from its source event through the callbacks it
// causes to its response.  Between two of its callbacks it waits, first for
// I/O (the loop blocks in poll: nobody works on its behalf -- a backend, a
// client draining a large response), then in the queue behind other work
// once its event is ready.  Queue time is charged to what the loop was doing
// (GC or other execution); the request's own callbacks are execution, GC
// separated.  So: latency = io + gc + cpu, exactly, for each request.

// Pieces of [s, e) split by the GC pauses overlapping it.
function splitGc(gc, s, e, kind, gcKind, out) {
  let gcMs = 0;
  let cur = s;
  const a = gc.a;
  for (let i = gc.firstEndingAfter(s); i < gc.length && a[2 * i] < e; i++) {
    const gs = Math.max(a[2 * i], cur), ge = Math.min(a[2 * i + 1], e);
    if (ge <= gs) continue;
    if (out && gs > cur) out.push([kind, cur, gs]);
    if (out) out.push([gcKind, gs, ge]);
    gcMs += ge - gs;
    cur = ge;
  }
  if (out && e > cur) out.push([kind, cur, e]);
  return gcMs;
}

// Time of [s, e) the loop's thread was descheduled (an estimate: each
// stall interval's share of its busy time).
function stalled(stall, s, e) {
  if (!stall) return 0;
  let ms = 0;
  const a = stall.a;
  for (let i = stall.firstEndingAfter(s); i < stall.length && a[2 * i] < e; i++) {
    const o = Math.min(a[2 * i + 1], e) - Math.max(a[2 * i], s);
    if (o > 0) ms += o * stall.kinds[i];
  }
  return ms;
}

// A request's breakdown so far: the sums, how far its critical path has been
// followed (`at`), up to when the loop's history was read (`settled`), and
// `open`: the parts of a wait from `at` to open.to that no poll has ended
// yet, summed as queue (if one ends it later, the whole wait up to it was
// I/O instead).
const fresh = (st) => ({
  at: st.t0, settled: st.t0, open: null,
  io: 0, descheduled: 0, queueGc: 0, queueCpu: 0, execGc: 0, execCpu: 0,
});
const QUEUE_SUMS = ['io', 'descheduled', 'queueGc', 'queueCpu'];

// Follow st's critical path from acc.at, adding to acc.  `end` (a finished
// request's t1): to its end.  Otherwise (a running request): through its
// callbacks that ended by `until` and the wait after them up to `until`.
// Returns how many numbers of st.segs it consumed.
function follow(st, acc, { end, until }, idle, gc, out, stall) {
  // Busy time the thread was not running is no work on the request's behalf:
  // it counts as waiting (io), apart.
  // Adds the part of [s, e) lost that way to `into`; returns it, split
  // between its GC pauses and the rest.
  const lost = (into, s, e) => {
    if (!stall || !stall.length || e <= s) return { gc: 0, cpu: 0 };
    const d = Math.min(e - s, stalled(stall, s, e));
    let dg = 0;
    const a = gc.a;
    for (let i = gc.firstEndingAfter(s); i < gc.length && a[2 * i] < e; i++) {
      dg += stalled(stall, Math.max(a[2 * i], s), Math.min(a[2 * i + 1], e));
    }
    dg = Math.min(dg, d);
    into.descheduled += d;
    into.io += d;
    return { gc: dg, cpu: d - dg };
  };
  // [w, s) queued behind the loop's other work or GC.
  const queued = (into, w, s) => {
    const g = splitGc(gc, w, s, 'queue', 'queue-gc', out);
    const d = lost(into, w, s);
    into.queueGc += g - d.gc;
    into.queueCpu += s - w - g - d.cpu;
  };
  const ia = idle.a;
  // The last time the loop blocked in poll in (a, s): until then the
  // request's event was not ready (I/O), after it it was queued.
  const lastPoll = (a, s) => {
    let w = a;
    for (let i = idle.firstEndingAfter(a); i < idle.length && ia[2 * i] < s; i++) w = Math.min(ia[2 * i + 1], s);
    return w;
  };
  const wait = (a, s) => {
    if (s <= a) return;
    let w = lastPoll(a, s);
    const o = acc.open;
    acc.open = null;
    if (w > a) {
      acc.io += w - a;
      if (out) out.push(['io', a, w]);
    } else if (o) {
      for (const k of QUEUE_SUMS) acc[k] += o[k];
      if (out) out.push(['earlier', a, o.to]);
      w = o.to;
    }
    if (s > w) queued(acc, w, s);
  };
  const stop = end === undefined ? until : end;
  const segs = st.segs;
  let k = 0;
  for (; k < segs.length && (end !== undefined || segs[k + 1] <= until); k += 2) {
    const s = Math.max(segs[k], acc.at), e = Math.min(segs[k + 1], stop);
    if (e <= s) continue;
    wait(acc.at, s);
    const g = splitGc(gc, s, e, 'exec', 'exec-gc', out);
    const d = lost(acc, s, e);
    acc.execGc += g - d.gc;
    acc.execCpu += e - s - g - d.cpu;
    acc.at = e;
  }
  if (end !== undefined) {
    wait(acc.at, end);
    acc.at = end;
  } else if (k < segs.length && segs[k] < until) {
    // Its next callback began by `until`: the wait before it is over.
    wait(acc.at, segs[k]);
    acc.at = Math.max(acc.at, segs[k]);
    acc.settled = acc.at;  // (that callback's GC is still to be read)
  } else {
    // A wait still going on.  (An interval that ends by `until` has been
    // pushed: the loop pushes one as it wakes.)  I/O until the loop last
    // blocked in poll, whatever comes next; after that, queue unless a
    // later poll ends the wait.
    const w = until > acc.at ? lastPoll(acc.at, until) : acc.at;
    if (w > acc.at) {
      acc.io += w - acc.at;
      acc.at = w;
      acc.open = null;
    }
    if (until > acc.at) {
      const o = acc.open || (acc.open = { to: acc.at, io: 0, descheduled: 0, queueGc: 0, queueCpu: 0 });
      queued(o, o.to, until);
      o.to = until;
    }
    acc.settled = until;
  }
  return k;
}

// Breakdown of one finished request (from what fold() summed of it while it
// ran, if anything); with `out`, its critical path as [kind, start, end]
// pieces (kinds: io, queue, queue-gc, exec, exec-gc; 'earlier' for parts
// fold() summed).
function breakdown(st, idle, gc, out, stall) {
  const acc = st.acc ? { ...st.acc } : fresh(st);
  if (out && acc.at > st.t0) out.push(['earlier', st.t0, acc.at]);
  follow(st, acc, { end: st.t1 }, idle, gc, out, stall);
  const r = { latency: st.t1 - st.t0, aborted: !!st.aborted };
  for (const k of QUEUE_SUMS) r[k] = acc[k];
  r.execGc = acc.execGc;
  r.execCpu = acc.execCpu;
  r.gc = r.queueGc + r.execGc;
  r.cpu = r.queueCpu + r.execCpu;
  // What the latency would have been with the CPU to itself: ranks requests.
  r.own = r.latency - r.descheduled;
  return r;
}

// Sum what is settled (by `until`) of a running request into st.acc and let
// go of its callbacks: a stream's memory stays bounded, and it needs the
// loop's history only from needsFrom(st) on (`until`, or the start of a
// callback that began by then and ended after).
function fold(st, until, idle, gc, stall) {
  if (!st.acc) st.acc = fresh(st);
  const k = follow(st, st.acc, { until }, idle, gc, null, stall);
  if (k) st.segs.splice(0, k);
}

// From when a request needs the loop's history.
const needsFrom = (st) => (st.acc ? st.acc.settled : st.t0);

const round = (x, d = 3) => Math.round(x * 10 ** d) / 10 ** d;
const countAborted = (rows) => rows.reduce((c, r) => c + (r.aborted ? 1 : 0), 0);

function group(rows, percentile) {
  const n = rows.length;
  const sum = { latency: 0, io: 0, descheduled: 0, gc: 0, cpu: 0, queueGc: 0, queueCpu: 0, execGc: 0, execCpu: 0 };
  for (const r of rows) for (const k in sum) sum[k] += r[k];
  const m = (k) => (n ? sum[k] / n : 0);
  const share = (k) => (sum.latency > 0 ? round(sum[k] / sum.latency, 4) : 0);
  const g = {
    percentile,
    count: n,
    latencyMs: round(m('latency')),
    breakdownMs: { io: round(m('io')), gc: round(m('gc')), cpu: round(m('cpu')) },
    share: { io: share('io'), gc: share('gc'), cpu: share('cpu') },
    queueMs: { gc: round(m('queueGc')), cpu: round(m('queueCpu')) },
    executionMs: { gc: round(m('execGc')), cpu: round(m('execCpu')) },
    ioMs: { wait: round(m('io') - m('descheduled')), descheduled: round(m('descheduled')) },
    // their connection closed before the response ended: latency until then
    aborted: countAborted(rows),
  };
  // (A loop, not Math.max(...rows): 200,000 arguments overflow the stack.)
  if (n) g.maxLatencyMs = round(rows.reduce((m, r) => (r.latency > m ? r.latency : m), -Infinity));
  return g;
}

// Nearest-rank percentile of sorted values.  (p * n / 100, not p / 100 * n:
// 99.9 / 100 * 1000 is 999.0000000000001, a rank too high.)
function pct(sorted, p) {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p * sorted.length) / 100) - 1))];
}

const pctStr = (x) => `${(100 * x).toFixed(1)}%`;

// Which boost acts on this tail: what makes a tail request slower than a
// typical one (the per-request excess of each component) names the cause.
function verdict(tail, typical) {
  if (!tail.count) {
    return { cause: null, boost: 'none', advice: 'No HTTP request was profiled: nothing to say.' };
  }
  const ex = {};
  for (const k of ['io', 'gc', 'cpu']) ex[k] = Math.max(0, tail.breakdownMs[k] - typical.breakdownMs[k]);
  // The machine's share (the thread descheduled) is reported, not blamed on
  // the application.
  const deschedEx = Math.max(0, tail.ioMs.descheduled - typical.ioMs.descheduled);
  ex.io = Math.max(0, ex.io - deschedEx);
  const cause = ['gc', 'cpu', 'io'].reduce((a, b) => (ex[b] > ex[a] ? b : a));
  const queueCpuEx = Math.max(0, tail.queueMs.cpu - typical.queueMs.cpu);
  const ms = (x) => `${x.toFixed(1)} ms`;
  let boost, advice;
  if (cause === 'io') {
    boost = 'none';
    advice = `The tail is I/O: a tail request spends ${ms(tail.breakdownMs.io)} of its ` +
      `${ms(tail.latencyMs)} waiting with no CPU work on its behalf (a slow backend, a client ` +
      'draining a large response, a timer); a faster clock will not help. Look at what those ' +
      'requests wait for (the slowest timelines in the HTML report).';
  } else if (cause === 'gc') {
    boost = ex.cpu >= 0.5 * ex.gc ? 'gc+queue' : 'gc';
    advice = `The tail is GC: ${ms(tail.breakdownMs.gc)} of a tail request's ${ms(tail.latencyMs)} ` +
      `is GC (${ms(tail.queueMs.gc)} of it queued behind pauses), against ` +
      `${ms(typical.breakdownMs.gc)} for a typical one. Turn on GC-Boost ` +
      (boost === 'gc+queue'
        ? `and Queue-Boost (other execution adds ${ms(ex.cpu)} too): EVENTBOOST=all`
        : '(EVENTBOOST=gc)') +
      '; a smaller live heap or less allocation per request shortens the pauses themselves.';
  } else {
    boost = ex.gc >= 0.5 * ex.cpu ? 'gc+queue' : 'queue';
    const queued = queueCpuEx >= 0.5 * ex.cpu;
    advice = `The tail is CPU on the event loop: ${ms(tail.breakdownMs.cpu)} of a tail request's ` +
      `${ms(tail.latencyMs)} is execution, ${ms(tail.queueMs.cpu)} of it waiting behind other ` +
      `callbacks, against ${ms(typical.breakdownMs.cpu)} for a typical one. Turn on Queue-Boost ` +
      (boost === 'gc+queue' ? `and GC-Boost (GC adds ${ms(ex.gc)} too): EVENTBOOST=all` : '(EVENTBOOST=queue)') +
      (queued
        ? '; long synchronous callbacks hold the others up: splitting them or moving them to a worker cuts the tail further.'
        : '; the slow requests are slow in their own callbacks: the clock helps, a cheaper handler more.');
  }
  if (tail.ioMs.descheduled > 0.25 * tail.latencyMs) {
    advice += ` Besides, the machine is oversubscribed: the event loop's thread was runnable but ` +
      `not running (descheduled by the OS) for ${ms(tail.ioMs.descheduled)} of a tail request's ` +
      `${ms(tail.latencyMs)} (counted as I/O); give the service a CPU of its own, no clock speed helps that.`;
  }
  return { cause, boost, advice };
}

// The report: tail (>= p99) against typical (below the median).
// Requests are ranked by their latency less the time the loop's thread was
// descheduled, so that a noisy neighbour does not decide which requests are
// the tail (on a machine of its own, that is the latency itself).
function report(rows, { sample = 1, seen = rows.length, total = rows.length, aborted, unfinished = 0, durationS = 0, slowest = [] } = {}) {
  const lat = rows.map((r) => r.latency).sort((a, b) => a - b);
  const own = rows.map((r) => r.own).sort((a, b) => a - b);
  const p99 = pct(own, 99), p50 = pct(own, 50);
  const tailRows = rows.filter((r) => r.own >= p99);
  const typicalRows = rows.filter((r) => r.own < p50);
  const restRows = rows.filter((r) => r.own < p99);
  const tail = group(tailRows, 99);
  const typical = group(typicalRows, 50);
  const rest = group(restRows, 99);
  const v = verdict(tail, typical);
  return {
    requests: total,
    tail,
    typical,
    verdict: v,
    rest,
    framing: rows.length
      ? `GC is ${pctStr(tail.share.gc)} of tail-request time and ${pctStr(rest.share.gc)} of the rest; ` +
        `I/O ${pctStr(tail.share.io)} and ${pctStr(rest.share.io)}; other execution ` +
        `${pctStr(tail.share.cpu)} and ${pctStr(rest.share.cpu)}` +
        (tail.ioMs.descheduled > 0.05 * tail.latencyMs ? `; the thread was descheduled ${pctStr(tail.ioMs.descheduled / tail.latencyMs)} of tail-request time (counted as I/O).` : '.')
      : 'no requests',
    // Of the measured latency, all of them (p50 and p99 above rank the
    // requests, less their descheduled time).
    latencyMs: { p50: round(pct(lat, 50)), p90: round(pct(lat, 90)), p99: round(pct(lat, 99)), p999: round(pct(lat, 99.9)), max: round(lat.length ? lat[lat.length - 1] : 0) },
    sample,
    seenRequests: seen,
    abortedRequests: aborted === undefined ? countAborted(rows) : aborted,
    unfinishedRequests: unfinished,
    analysedRequests: rows.length,
    durationS: round(durationS, 1),
    slowest,
    model: 'VEE19 event dependency graph: latency = io + gc + cpu; queue time charged to GC or other execution',
    version: 1,
  };
}

module.exports = { breakdown, fold, needsFrom, report, verdict, pct };
