'use strict';
// Host test of loadgen.js (make check's experiment pipeline step runs it):
// every scheduled request is counted, a request not answered by the
// deadline or answered with a failure is a worst latency (not a missing
// one, nor a fast one), and the warm-up is filtered by scheduled time, not
// by send time.
//   node experiment/test-loadgen.js
const http = require('node:http');
const { openLoop, schedule } = require('./loadgen');

let failed = 0;
const check = (ok, what) => {
  console.log(`${ok ? 'ok' : 'not ok'} - loadgen: ${what}`);
  if (!ok) failed = 1;
};

// /hang is never answered; /ok at once; the first /stall request that
// arrives 400 ms or more after the first one holds the server's loop for
// 600 ms (a stall across the end of the warm-up).
let stallFrom = 0;
const server = http.createServer((req, res) => {
  if (req.url === '/hang') return;
  if (req.url === '/slow') return setTimeout(() => res.end('x'), 800);
  if (req.url === '/err') {
    res.statusCode = 500;
    return res.end('x');
  }
  if (req.url === '/stall') {
    stallFrom = stallFrom || Date.now() + 400;
    if (stallFrom > 0 && Date.now() >= stallFrom) {
      stallFrom = -1;
      const until = Date.now() + 600;
      while (Date.now() < until);
    }
  }
  res.end('x');
});

server.listen(0, '127.0.0.1', async () => {
  const port = server.address().port;
  const opts = { port, rate: 40, secs: 1.5, warm: 0.5, grace: 0.5, seed: 7 };
  // One URL in four hangs.
  opts.path = (rand) => (rand() < 0.25 ? '/hang' : '/ok');
  const plan = schedule(opts).filter((r) => r.measured);
  const hangs = plan.filter((r) => r.path === '/hang').length;
  const r = await openLoop(opts);
  check(r.scheduled === plan.length && r.lat.length === plan.length,
    `all ${plan.length} scheduled requests measured (got ${r.lat.length})`);
  check(r.censored === hangs, `the ${hangs} never answered are censored (got ${r.censored})`);
  const worst = r.lat.slice(-hangs);
  check(hangs > 0 && worst.every((x) => x >= opts.grace * 1000 - 1),
    `censored requests are the worst latencies, each >= the grace (${worst[0]?.toFixed(0)} ms)`);

  // Slow answers (800 ms, longer than the grace), failures (HTTP 500) and
  // requests never answered: a failed or unanswered request is a worst
  // latency, at least every answered one's, however late in the run it
  // was scheduled (deadline - scheduled would give one scheduled near the
  // end only the grace, less than the slow answers before it).
  const o3 = { port, rate: 40, secs: 1.5, warm: 0.5, grace: 0.5, seed: 11 };
  o3.path = (rand) => { const x = rand(); return x < 0.15 ? '/slow' : x < 0.3 ? '/err' : x < 0.4 ? '/hang' : '/ok'; };
  const plan3 = schedule(o3).filter((x) => x.measured);
  const r3 = await openLoop(o3);
  const failedN = plan3.filter((x) => x.path === '/err').length;
  const bad = r3.censored + r3.errors;
  const answered = r3.lat.slice(0, r3.lat.length - bad);
  check(r3.errors === failedN && r3.censored >= plan3.filter((x) => x.path === '/hang').length &&
    answered.some((x) => x >= 700) && r3.lat.slice(-bad).every((x) => x >= Math.max(...answered)) &&
    r3.raw.filter((x) => x[3] === '/err' || x[3] === '/hang').every((x) => x[2] >= Math.max(...answered)),
  `failed (${r3.errors}) and unanswered (${r3.censored}) requests are worst latencies, ` +
    `at least the slowest answered one (${Math.max(...answered).toFixed(0)} ms): ${r3.lat.slice(-bad)[0]?.toFixed(0)} ms`);

  // A stall that holds every request sent near the end of the warm-up:
  // those scheduled in the warm-up are out even if sent or answered after
  // it, and those scheduled after it are in, however late.
  const o2 = { port, rate: 30, secs: 1, warm: 0.5, grace: 2, seed: 3, path: '/stall' };
  const plan2 = schedule(o2);
  const r2 = await openLoop(o2);
  check(r2.lat.length === plan2.filter((x) => x.at >= 500).length && r2.censored === 0,
    `warm-up filtered by scheduled time: ${r2.lat.length} of ${plan2.length} measured`);
  // The stall starts in the warm-up and lasts 600 ms: the first request
  // scheduled after the warm-up waits for most of it.
  check(r2.lat[r2.lat.length - 1] >= 300, `a request queued behind a 600 ms stall shows it (${r2.lat[r2.lat.length - 1].toFixed(0)} ms)`);
  server.closeAllConnections();
  server.close();
  process.exit(failed);
});
