'use strict';
// make demo's closed-loop overload, run on the host by load-agent.js: the
// host's wrk (scripts/setup-deps.sh installs it) against one port, and the
// figures the demo reports, read from wrk's --latency output.
//   const r = await closedLoop({ port, threads, connections, secs, script })
//   r: { rps, p50, p99 (ms), errors (1 if wrk saw non-2xx answers or
//   socket errors, else 0), out (wrk's output) }
const { execFile } = require('node:child_process');

// wrk's figures: "Requests/sec: N" and, with --latency, "  50%  12.3ms".
function parseWrk(out) {
  const ms = (v, u) => Number(v) * { us: 1e-3, ms: 1, s: 1e3, m: 6e4 }[u];
  const p = {};
  for (const m of out.matchAll(/^\s+(\d+)%\s+([\d.]+)(us|ms|s|m)\s*$/gm)) p[m[1]] = ms(m[2], m[3]);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  if (!rps || p['50'] === undefined || p['99'] === undefined) {
    throw new Error(`wrk's output has no Requests/sec or no 50% and 99% latency lines:\n${out}`);
  }
  return { rps: Number(rps[1]), p50: p['50'], p99: p['99'], errors: /Non-2xx|Socket errors/.test(out) ? 1 : 0 };
}

// --timeout past the run's end: wrk leaves a request slower than its
// timeout (2 s by default) out of its percentiles, and under TCG a GC
// stall at a low clock can last that long.
function closedLoop({ port, threads, connections, secs, script, host = '127.0.0.1' }) {
  const args = [`-t${threads}`, `-c${connections}`, `-d${secs}s`, `--timeout`, `${secs + 10}s`, '--latency', '-s', script,
    `http://${host}:${port}`];
  return new Promise((resolve, reject) => {
    execFile('wrk', args, { encoding: 'utf8', timeout: (secs + 60) * 1000 }, (err, out, errOut) => {
      if (err && err.code === 'ENOENT') return reject(new Error('no wrk on this host: scripts/setup-deps.sh installs it (Debian: apt-get install wrk)'));
      if (err) return reject(new Error(`wrk ${args.join(' ')} failed (${err.signal || `exit ${err.code}`}): ${(errOut || out).trim()}`));
      try {
        resolve({ ...parseWrk(out), out });
      } catch (e) {
        reject(e);
      }
    });
  });
}

module.exports = { closedLoop, parseWrk };
