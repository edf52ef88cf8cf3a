'use strict';
// An open-loop HTTP load generator that accounts for every request it
// schedules (make experiment and make demo).
//
// Requests are scheduled before the run starts: Poisson arrivals at RATE
// per second from a seeded generator (the same seed gives every policy of
// a repetition the same arrivals and URLs), for WARM + SECS seconds.  Each
// is sent at its scheduled time (or as soon as the generator can, if it is
// behind) and its latency runs from the scheduled time, so a stalled
// server or a late generator is measured, not omitted.  The run waits
// until every request is answered or GRACE seconds after the last
// scheduled time (the deadline), whichever comes first; a
// request not answered by then (not sent, or sent and not answered)
// counts as censored, and one answered with a failure (non-2xx, a reset)
// as an error: either gets the worst latency of the run, deadline - end
// of the warm-up, which no answered request can exceed -- never a missing
// one, nor a short one (until 2026-11-26 a censored request got deadline -
// its own scheduled time, less than a slow answer's near the end, and a
// failed one its own).  The warm-up is filtered by scheduled time.
//   const r = await openLoop({ port, rate, secs, warm, grace, seed, path })
//   r.lat: every measured request's latency (ms), sorted, censored and
//   failed ones included; r.scheduled, r.censored, r.errors (non-2xx or failed),
//   r.firstError (the first failure's message, or null).
// `path` is a string or a function (random) -> path.
const http = require('node:http');

// mulberry32: a small seeded generator (reproducible arrivals).
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function schedule({ rate, secs, warm = 0, seed = 1, path = '/' }) {
  const rand = rng(seed);
  const out = [];
  const end = (warm + secs) * 1000;
  for (let t = -Math.log(1 - rand()) * 1000 / rate; t < end; t += -Math.log(1 - rand()) * 1000 / rate) {
    out.push({ at: t, path: typeof path === 'function' ? path(rand) : path, measured: t >= warm * 1000 });
  }
  return out;
}

function openLoop(opts) {
  const { port, host = '127.0.0.1', secs, warm = 0, grace = 5, maxSockets = 64 } = opts;
  const reqs = schedule(opts);
  // An idle kept-alive socket is closed here after 2 s, before a Node
  // server's own keepAliveTimeout (5 s) closes it: otherwise a request can
  // go out on a socket whose close is still on its way (ECONNRESET), a
  // race QEMU's user network, which relays the close late, made real.
  const agent = new http.Agent({ keepAlive: true, maxSockets, timeout: 2000 });
  let firstError = null;
  const deadline = (warm + secs + grace) * 1000;
  // No measured request (scheduled after the warm-up) answered by the
  // deadline can have waited longer.
  const worst = deadline - warm * 1000;
  return new Promise((resolve) => {
    const t0 = performance.now();
    let next = 0;
    let finished = false;
    const pending = new Set();
    function send(r) {
      r.sent = true;
      r.sentAt = performance.now() - t0;
      const req = http.get({ host, port, path: r.path, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          r.done = performance.now() - t0;
          r.ok = res.statusCode >= 200 && res.statusCode < 300;
          if (!r.ok) firstError ??= `HTTP ${res.statusCode}`;
          pending.delete(req);
        });
      });
      req.on('error', (e) => {
        r.done = performance.now() - t0;
        r.ok = false;
        firstError ??= e.message;
        pending.delete(req);
      });
      pending.add(req);
    }
    function pump() {
      const now = performance.now() - t0;
      while (next < reqs.length && reqs[next].at <= now) send(reqs[next++]);
      // Done at the deadline, or once every request was answered.
      if (now >= deadline || (next === reqs.length && pending.size === 0)) return finish();
      const wait = next < reqs.length ? reqs[next].at - now : deadline - now;
      setTimeout(pump, Math.max(0, Math.min(wait, 50)));
    }
    function finish() {
      if (finished) return;
      finished = true;
      for (const req of pending) req.destroy();
      agent.destroy();
      const lat = [];
      let censored = 0;
      let errors = 0;
      let scheduled = 0;
      // Answered after the deadline counts as not answered by it.
      const unanswered = (r) => r.done === undefined || r.done > deadline;
      const latency = (r) => (unanswered(r) || !r.ok ? worst : r.done - r.at);
      for (const r of reqs) {
        if (!r.measured) continue;
        scheduled++;
        if (unanswered(r)) censored++;
        else if (!r.ok) errors++;
        lat.push(latency(r));
      }
      // Per measured request, in schedule order: [scheduled ms, how late
      // it was sent (ms), latency ms (the worst for a censored or failed
      // one), its path] from the run's start (t0: epoch ms), for looking
      // at when the slow ones came.
      const raw = reqs.filter((r) => r.measured).map((r) => [r.at, (r.sentAt ?? NaN) - r.at, latency(r), r.path]);
      lat.sort((a, b) => a - b);
      resolve({ lat, raw, t0: performance.timeOrigin + t0, scheduled, censored, errors, firstError,
        sent: reqs.filter((r) => r.sent).length });
    }
    pump();
  });
}

// A path chooser from the experiment's regexp-like spec '/(a|b|c)': one
// alternative uniformly, alternatives with [0-9] get one random digit.
function pathChooser(spec) {
  const m = /^\/\((.*)\)$/.exec(spec);
  if (!m) return spec;
  const alts = m[1].split('|');
  return (rand) => '/' + alts[Math.floor(rand() * alts.length)].replace(/\[0-9\]/g, () => String(Math.floor(rand() * 10)));
}

module.exports = { openLoop, schedule, pathChooser, rng };

// CLI: node loadgen.js PORT RATE SECS [WARM] [SEED] [PATHSPEC] -> JSON summary
if (require.main === module) {
  const [port, rate, secs, warm = '0', seed = '1', spec = '/'] = process.argv.slice(2);
  openLoop({ port: Number(port), rate: Number(rate), secs: Number(secs), warm: Number(warm), seed: Number(seed),
    path: pathChooser(spec) }).then((r) => {
    const q = (p) => r.lat[Math.min(r.lat.length - 1, Math.ceil(p * r.lat.length) - 1)];
    console.log(JSON.stringify({ scheduled: r.scheduled, censored: r.censored, errors: r.errors,
      p50: q(0.5), p99: q(0.99), p999: q(0.999), lat: r.lat }));
  });
}
