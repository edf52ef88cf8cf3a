'use strict';
// The latency model of eventboost/profile on hand-made timelines: what a
// request's wait is charged to, and that the parts add up.
const test = require('node:test');
const assert = require('node:assert');
const { Intervals } = require('../../lib/profile/recorder');
const { breakdown, fold, needsFrom, report } = require('../../lib/profile/analyze');

function iv(list, kinds) {
  const x = new Intervals();
  list.forEach(([s, e], i) => x.push(s, e, kinds ? kinds[i] : undefined));
  return x;
}
const close = (a, b) => assert.ok(Math.abs(a - b) < 1e-9, `${a} vs ${b}`);

test('a wait is I/O until the loop last blocked in poll, then queue', () => {
  // Request 0..100: own callbacks 0..5 and 90..100; the loop blocked in poll
  // 10..40 and 50..70; a GC pause 75..80 while the event was queued.
  const st = { t0: 0, t1: 100, segs: [0, 5, 90, 100] };
  const r = breakdown(st, iv([[10, 40], [50, 70]]), iv([[75, 80]], ['major']), null, null);
  close(r.io, 65);        // 5..70: not ready yet
  close(r.queueGc, 5);    // 75..80
  close(r.queueCpu, 15);  // 70..75, 80..90: others' callbacks
  close(r.execCpu, 15);
  close(r.io + r.gc + r.cpu, r.latency);
});

// What the profiler sums of a running request as it goes (fold) changes
// nothing in its breakdown: folded at any points, with the loop's history
// before what it still needs dropped each time, the parts are those of the
// request analysed whole at its end.  Timelines: waits that polls end, one
// that none does (queue, with GC and descheduled time in it), one a later
// poll ends, and a callback running across a fold.
test('a request folded while it runs breaks down as one analysed whole', () => {
  const cases = [
    { t1: 120, segs: [0, 5, 90, 100, 112, 115], idle: [[10, 40], [50, 70], [104, 110]],
      gc: [[75, 80], [92, 94]], stall: [[[80, 100]], [0.25]],
      folds: [[3], [45], [60, 72], [20, 95, 101], [5, 40, 100, 111], [116], [72, 76, 85, 89, 96]] },
    { t1: 100, segs: [0, 5, 60, 65], idle: [[70, 80]], gc: [[20, 30], [40, 45], [62, 63]],
      stall: [[[10, 50]], [0.5]], folds: [[15], [15, 25, 35], [25, 44, 61], [55, 64, 75, 90], [6, 66]] },
    { t1: 90, segs: [0, 5, 80, 85], idle: [[30, 50]], gc: [[10, 12], [60, 70]], stall: null,
      folds: [[8, 20], [20, 40], [11, 35, 55, 65], [45, 82]] },
  ];
  for (const c of cases) {
    const hist = () => ({
      idle: iv(c.idle), gc: iv(c.gc, c.gc.map(() => 'major')), stall: c.stall && iv(...c.stall),
    });
    const h = hist();
    const whole = breakdown({ t0: 0, t1: c.t1, segs: c.segs.slice() }, h.idle, h.gc, null, h.stall);
    close(whole.io + whole.gc + whole.cpu, whole.latency);
    for (const points of c.folds) {
      const f = hist();
      const st = { t0: 0, t1: 0, segs: c.segs.slice() };
      for (const until of points) {
        fold(st, until, f.idle, f.gc, f.stall);
        const from = needsFrom(st);
        for (const x of [f.idle, f.gc, f.stall]) if (x) x.prune(from);
      }
      st.t1 = c.t1;
      const pieces = [];
      const r = breakdown(st, f.idle, f.gc, pieces, f.stall);
      for (const k of ['io', 'descheduled', 'queueGc', 'queueCpu', 'execGc', 'execCpu', 'latency']) {
        assert.ok(Math.abs(r[k] - whole[k]) < 1e-9, `${JSON.stringify(c.segs)} folded at ${points}: ${k} ${r[k]}, whole ${whole[k]}`);
      }
      if (st.acc.at > 0) assert.deepStrictEqual(pieces[0], ['earlier', 0, st.acc.at]);
    }
  }
});

test('GC inside its own callback is GC; descheduled time is I/O, apart', () => {
  const st = { t0: 0, t1: 50, segs: [0, 50] };
  // GC 10..20; the thread lost half of 30..50 to the OS.
  const r = breakdown(st, iv([]), iv([[10, 20]], ['minor']), null, iv([[30, 50]], [0.5]));
  close(r.execGc, 10);
  close(r.descheduled, 10);
  close(r.io, 10);
  close(r.execCpu, 30);
  close(r.io + r.gc + r.cpu, r.latency);
  close(r.own, 40);
});

test('verdicts: the component by which the tail exceeds the typical request', () => {
  const row = (latency, io, gc, cpu, queueCpu = 0) => ({
    latency, io, gc, cpu, descheduled: 0, own: latency, queueGc: 0, queueCpu, execGc: gc, execCpu: cpu - queueCpu,
  });
  const many = (mk) => Array.from({ length: 200 }, (_, i) => (i < 5 ? mk() : row(2, 1, 0, 1)));
  assert.deepStrictEqual(
    [report(many(() => row(100, 1, 80, 19))).verdict.cause, report(many(() => row(100, 1, 80, 19))).verdict.boost],
    ['gc', 'gc']);
  const q = report(many(() => row(100, 1, 2, 97, 90))).verdict;
  assert.deepStrictEqual([q.cause, q.boost], ['cpu', 'queue']);
  const both = report(many(() => row(100, 1, 40, 59, 50))).verdict;
  assert.deepStrictEqual([both.cause, both.boost], ['cpu', 'gc+queue']);
  const io = report(many(() => row(100, 95, 1, 4))).verdict;
  assert.deepStrictEqual([io.cause, io.boost], ['io', 'none']);
  assert.match(io.advice, /faster clock will not help/);
  const r = report(many(() => row(100, 95, 1, 4)));
  assert.strictEqual(r.requests, 200);
  assert.strictEqual(r.tail.count, 5);
  assert.strictEqual(r.typical.count, 0 + r.typical.count);
  assert.deepStrictEqual(report([]).verdict, { cause: null, boost: 'none', advice: 'No HTTP request was profiled: nothing to say.' });
});

// The report's latencyMs percentiles are of the measured latency, as the
// README says, all of them: the ranking that picks the tail (latency less
// descheduled time) is not a percentile of latency.  Until 2026-12-08 p50
// and p99 were of the ranking, p90 and p99.9 of the latency: with the
// slowest fifth descheduled 9 ms, p99 read below p90.
test('latency percentiles are of the measured latency, whatever was descheduled', () => {
  const rows = Array.from({ length: 1000 }, (_, i) => {
    const latency = 10 + i * 0.01, descheduled = i >= 800 ? 9 : 0;
    return { latency, own: latency - descheduled, io: descheduled, descheduled, gc: 0, cpu: latency - descheduled,
      queueGc: 0, queueCpu: 0, execGc: 0, execCpu: latency - descheduled };
  });
  const l = report(rows).latencyMs;
  // Nearest rank over 10.00, 10.01, ... 19.99 ms.
  assert.deepStrictEqual(l, { p50: 14.99, p90: 18.99, p99: 19.89, p999: 19.98, max: 19.99 });
});

test('a report of as many requests as the profiler keeps (200,000) is written', () => {
  // The profiler keeps up to 200,000 per-request rows; a report of them
  // must not spread them into a call (Math.max(...rows) overflows V8's
  // stack: "Maximum call stack size exceeded", the report lost).
  const rows = Array.from({ length: 200000 }, (_, i) => ({
    latency: 1 + (i % 1000), io: 1, gc: 0, cpu: i % 1000, descheduled: 0, own: 1 + (i % 1000),
    queueGc: 0, queueCpu: 0, execGc: 0, execCpu: i % 1000,
  }));
  const r = report(rows);
  assert.strictEqual(r.requests, 200000);
  assert.strictEqual(r.typical.maxLatencyMs, 499);
  assert.strictEqual(r.rest.maxLatencyMs, 989);
});
