'use strict';
// The experiment's preload: lets the driver switch this server's policy at
// run time, so that every policy is measured on the same warmed process
// (separate processes can differ in JIT and heap state by more than some
// policies' effect).
//   GET http://127.0.0.1:CONTROL_PORT/policy?eb=MODE&oracle=0|1&gc=0|1
//   MODE off|gc|queue|all: eventboost's hooks, as EVENTBOOST= gives them;
//        gcpause: GC-Boost of the stop-the-world pauses alone (no marking
//        cycle), to show what boosting the marking adds; gcmark: of the
//        major GC cycles alone (marking through its mark-compact, no
//        scavenges), to show what boosting the scavenges costs; allmark:
//        gcmark with Queue-Boost
//   oracle=1: Adrenaline-style oracle, boost the whole of every request to
//             the URLs most likely to be tail (ORACLE_URLS, a regexp)
//   gc=1:     a full GC first (hooks off), so that every run starts from
//             the same heap state and meets the next major GC at the same
//             point: otherwise it lands in a run or not by chance, and
//             decides that run's tail
// node -r ./control.js service.js
const http = require('node:http');
const v8 = require('node:v8');
const vm = require('node:vm');
// The application's eventboost (this file is preloaded from elsewhere).
const eb = require(require.resolve('eventboost', { paths: [process.cwd()] }));

const PAUSES = ['scavenge', 'minor-mark-compact', 'mark-compact'];
const MAJOR = ['incremental-marking', 'mark-compact'];
const MODES = {
  off: null, gc: { queue: false }, gcpause: { queue: false, gc: PAUSES },
  gcmark: { queue: false, gc: MAJOR }, queue: { gc: false }, all: {}, allmark: { gc: MAJOR },
};
const tail = new RegExp(process.env.ORACLE_URLS || '^/(heavy|posts)$');
let oracle = false;
let inflight = 0; // tail requests begun and not yet closed

// The oracle holds one boost while any tail request is in flight: a
// request closing must not end the boost of the next one, already running.
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, req, res) {
  if (event === 'request' && oracle && this !== control && tail.test(req.url)) {
    inflight++;
    eb.boostFor(200000);
    res.on('close', () => {
      if (--inflight === 0) eb.boostFor(0);
    });
  }
  return emit.apply(this, arguments);
};

let fullGc = null;
function collect() {
  if (!fullGc) {
    v8.setFlagsFromString('--expose-gc');
    fullGc = vm.runInNewContext('gc');
  }
  fullGc();
}

function setPolicy(mode, withOracle, gc) {
  if (!(mode in MODES)) return { error: `eb must be one of ${Object.keys(MODES).join('|')}` };
  eb.stop();
  oracle = false;
  if (gc) collect();
  if (!MODES[mode] && !withOracle) return { active: false };
  const r = eb.start(MODES[mode] || { gc: false, queue: false });
  oracle = withOracle && r.active;
  return r;
}

const control = http.createServer((req, res) => {
  const u = new URL(req.url, 'http://x');
  const r = u.pathname === '/policy'
    ? setPolicy(u.searchParams.get('eb') || 'off', u.searchParams.get('oracle') === '1',
      u.searchParams.get('gc') === '1')
    : { error: `GET /policy?eb=${Object.keys(MODES).join('|')}&oracle=0|1&gc=0|1` };
  res.writeHead(r.error || r.reason ? 400 : 200, { 'content-type': 'application/json' }).end(JSON.stringify(r));
});
control.listen(Number(process.env.CONTROL_PORT), '127.0.0.1');
control.unref();
