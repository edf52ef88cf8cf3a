'use strict';
// make experiment's and make demo's load generator, run on the host,
// outside the guest.
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
//   POST /wrk {port, threads, connections, secs, script} -> closedLoop()'s
//   result (closed-loop.js: the host's wrk; script: a .lua file in this
//   repository, which the guest sees at the same path)
// experiment/agent-client.js is the guest's side.
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');
const { openLoop, pathChooser } = require('./loadgen');
const { closedLoop } = require('./closed-loop');

const [PORT, OFFSET] = process.argv.slice(2).map(Number);
if (!(PORT > 0 && OFFSET >= 0)) {
  console.error('usage: node load-agent.js PORT OFFSET');
  process.exit(2);
}
const TOP = path.resolve(__dirname, '..');
let busy = false;

function fail(res, code, msg) {
  res.writeHead(code, { 'content-type': 'text/plain' });
  res.end(`load-agent: ${msg}\n`);
}

function numbers(o, keys) {
  for (const k of keys) {
    if (!Number.isFinite(o[k])) throw new Error(`${k}: a number, not ${JSON.stringify(o[k])}`);
  }
}

// A run's request, checked, -> () => the run's promise.
const ROUTES = {
  '/load': (o) => {
    numbers(o, ['port', 'rate', 'secs', 'warm', 'grace', 'seed']);
    if (typeof o.path !== 'string') throw new Error('path: a string');
    return () => openLoop({ ...o, port: o.port + OFFSET, path: pathChooser(o.path) });
  },
  '/wrk': (o) => {
    numbers(o, ['port', 'threads', 'connections', 'secs']);
    for (const k of ['threads', 'connections', 'secs']) {
      if (!Number.isInteger(o[k]) || o[k] < 1) throw new Error(`${k}: a whole number from 1, not ${o[k]}`);
    }
    if (o.connections < o.threads) throw new Error(`connections (${o.connections}): at least threads (${o.threads}), as wrk needs`);
    const script = typeof o.script === 'string' ? path.resolve(o.script) : '';
    if (!script.startsWith(TOP + path.sep) || !script.endsWith('.lua') || !fs.existsSync(script)) {
      throw new Error(`script: a .lua file in this repository (${TOP}), not ${JSON.stringify(o.script)}`);
    }
    return () => closedLoop({ port: o.port + OFFSET, threads: o.threads, connections: o.connections, secs: o.secs, script });
  },
};

http.createServer((req, res) => {
  const route = ROUTES[req.url];
  if (req.method !== 'POST' || !route) return fail(res, 404, `POST ${Object.keys(ROUTES).join(' or ')} only`);
  let body = '';
  req.on('data', (d) => { body += d; });
  req.on('end', async () => {
    let start;
    try {
      const o = JSON.parse(body);
      if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new Error('the body: a JSON object');
      start = route(o);
    } catch (e) {
      return fail(res, 400, `${req.url}: ${e.message}`);
    }
    if (busy) return fail(res, 409, 'a run is under way');
    busy = true;
    try {
      const r = await start();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(r));
    } catch (e) {
      fail(res, 500, `${req.url}: ${e.message}`);
    } finally {
      busy = false;
    }
  });
}).listen(PORT, '127.0.0.1', () => console.log(`load-agent: listening on 127.0.0.1:${PORT}, guest port P at 127.0.0.1:P+${OFFSET}`));
