'use strict';
// The demo service: node:http with a light endpoint and an allocation-heavy
// one (a large JSON.stringify response, as in the Airtable case), run with
// `node -r eventboost/register server.js`.  GET /eventboost returns
// eventboost.stats() when the package is loaded.
const http = require('node:http');
const { PerformanceObserver, performance } = require('node:perf_hooks');

// GET /trace: the GCs (and handlers that ran 10 ms or more) since the last
// call, [epoch ms, ms, kind or url], for the driver to set beside the
// requests' latencies.  Kinds (perf_hooks.constants.NODE_PERFORMANCE_GC_*):
// 1 minor (scavenge), 4 major (mark-compact), 8 incremental marking, 16
// weak callbacks.
let trace = { gc: [], slow: [] };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) trace.gc.push([performance.timeOrigin + e.startTime, e.duration, e.detail ? e.detail.kind : e.kind]);
}).observe({ entryTypes: ['gc'] });

const port = Number(process.env.PORT || 8080);
const rows = Number(process.env.HEAVY_ROWS || 2000);
// CACHE_ENTRIES > 0 keeps the last N heavy results, as services keep
// caches and sessions: objects that live a while give V8's GC real work
// (copying, promotion, mark-compact), not only short-lived garbage.
const cache = new Array(Number(process.env.CACHE_ENTRIES || 0));
let cached = 0;

function heavy() {
  // Fresh objects per request: garbage for V8 to collect.
  const data = [];
  for (let i = 0; i < rows; i++) {
    data.push({ id: i, name: `row-${i}`, tags: ['a', 'b', String(i % 7)], score: Math.sqrt(i), at: Date.now() });
  }
  if (cache.length) cache[cached++ % cache.length] = data;
  return JSON.stringify({ rows: data });
}

const server = http.createServer((req, res) => {
  const t0 = performance.now();
  let body;
  if (req.url === '/light') {
    body = JSON.stringify({ ok: true, t: Date.now() });
  } else if (req.url === '/heavy') {
    body = heavy();
  } else if (req.url === '/trace') {
    body = JSON.stringify(trace);
    trace = { gc: [], slow: [] };
  } else if (req.url === '/eventboost') {
    let eb = null;
    // The package as the preload found it: from the working directory
    // (the service's folder), where this file's own folder may not see it.
    try {
      eb = require(require.resolve('eventboost', { paths: [process.cwd(), __dirname] })).stats();
    } catch { /* not installed */ }
    body = JSON.stringify(eb);
  } else {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  const ms = performance.now() - t0;
  if (ms >= 10) trace.slow.push([performance.timeOrigin + t0, ms, req.url]);
});
// HOST: make experiment's servers take their load from outside the guest.
server.listen(port, process.env.HOST || '127.0.0.1', () => console.log(`demo server on ${port}, pid ${process.pid}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
