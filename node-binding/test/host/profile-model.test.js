'use strict';
// The latency model of eventboost/profile on hand-made timelines: what a
// request's wait is charged to, and that the parts add up.
const test = require('node:test');
const assert = require('node:assert');
const { Intervals } = require('../../lib/profile/recorder');
const { breakdown, fold, report } = require('../../lib/profile/analyze');

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
// nothing in its breakdown: folded at any points, the parts are those of the
// request analysed whole at its end.
test('a request folded while it runs breaks down as one analysed whole', () => {
  const idle = iv([[10, 40], [50, 70], [104, 110]]);
  const gc = iv([[75, 80], [92, 94]], ['major', 'minor']);
  const stall = iv([[80, 100]], [0.25]);
  const whole = breakdown({ t0: 0, t1: 120, segs: [0, 5, 90, 100, 112, 115] }, idle, gc, null, stall);
  for (const points of [[3], [45], [60, 72], [20, 95, 101], [5, 40, 100, 111], [116]]) {
    const st = { t0: 0, t1: 0, segs: [0, 5, 90, 100, 112, 115] };
    for (const until of points) fold(st, until, idle, gc, stall);
    st.t1 = 120;
    const pieces = [];
    const r = breakdown(st, idle, gc, pieces, stall);
    for (const k of ['io', 'descheduled', 'queueGc', 'queueCpu', 'execGc', 'execCpu', 'latency']) {
      close(r[k], whole[k]);
    }
    assert.ok(st.segs.length < 6 || points[0] < 5, `folded at ${points}: ${st.segs}`);
    if (st.acc.at > 0) assert.deepStrictEqual(pieces[0], ['earlier', 0, st.acc.at]);
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
