'use strict';
// make experiment's load generator, run on the host, outside the guest.
//
// QEMU runs every vCPU of the guest on one host thread, in turns, so
// whatever runs on the guest's CPU 0 takes turns from CPU 1 at a rate that
// has nothing to do with CPU 1's emulated frequency (a spinning CPU 0 made
// 2.6 GHz cost CPU 1 13.7x its 4.0 GHz time; 1/f is 1.54x).  A load
// generator inside the guest is such a task.  So the driver in the guest
// asks this agent for each run's load, over QEMU's user networking: the
// guest reaches it at 10.0.2.2:PORT, and it reaches the guest's port P at
// 127.0.0.1:P+OFFSET (QEMU's hostfwd).  One run at a time.
//   node load-agent.js PORT OFFSET
//   POST /load {port, rate, secs, warm, grace, seed, path} -> openLoop()'s
//   result (loadgen.js; path: the spec pathChooser takes)
const http = require('node:http');
const { openLoop, pathChooser } = require('./loadgen');

const [PORT, OFFSET] = process.argv.slice(2).map(Number);
if (!(PORT > 0 && OFFSET >= 0)) {
  console.error('usage: node load-agent.js PORT OFFSET');
  process.exit(2);
}
let busy = false;

function fail(res, code, msg) {
  res.writeHead(code, { 'content-type': 'text/plain' });
  res.end(`load-agent: ${msg}\n`);
}

http.createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/load') return fail(res, 404, 'POST /load only');
  let body = '';
  req.on('data', (d) => { body += d; });
  req.on('end', async () => {
    let o;
    try {
      o = JSON.parse(body);
      for (const k of ['port', 'rate', 'secs', 'warm', 'grace', 'seed']) {
        if (!Number.isFinite(o[k])) throw new Error(`${k}: a number, not ${JSON.stringify(o[k])}`);
      }
      if (typeof o.path !== 'string') throw new Error('path: a string');
    } catch (e) {
      return fail(res, 400, e.message);
    }
    if (busy) return fail(res, 409, 'a run is under way');
    busy = true;
    try {
      const r = await openLoop({ ...o, port: o.port + OFFSET, path: pathChooser(o.path) });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(r));
    } catch (e) {
      fail(res, 500, e.message);
    } finally {
      busy = false;
    }
  });
}).listen(PORT, '127.0.0.1', () => console.log(`load-agent: listening on 127.0.0.1:${PORT}, guest port P at 127.0.0.1:P+${OFFSET}`));
