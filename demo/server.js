'use strict';
// The demo service: node:http with a light endpoint and an allocation-heavy
// one (a large JSON.stringify response, as in the Airtable case), run with
// `node -r eventboost/register server.js`.  GET /eventboost returns
// eventboost.stats() when the package is loaded.
const http = require('node:http');

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
  let body;
  if (req.url === '/light') {
    body = JSON.stringify({ ok: true, t: Date.now() });
  } else if (req.url === '/heavy') {
    body = heavy();
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
});
server.listen(port, '127.0.0.1', () => console.log(`demo server on ${port}, pid ${process.pid}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
