'use strict';
// node -r eventboost/profile app.js (or --import eventboost/profile): find
// where the application's tail latency comes from -- I/O, GC or other
// execution on the event loop -- and which boost would act on it.  No code
// change, no device.  Writes the JSON report to EVENTBOOST_PROFILE_OUT
// (default eventboost-profile.json) and an HTML page beside it, at exit or
// after EVENTBOOST_PROFILE_SECONDS; EVENTBOOST_PROFILE_SAMPLE profiles that
// fraction of the requests.  Never stops the application: a bad variable is
// one line on stderr and the application runs unprofiled.
const { isMainThread } = require('node:worker_threads');

// A process's parent and start time (clock ticks since boot), from
// /proc/<pid>/stat; null where it cannot be read.
function procStat(pid) {
  try {
    const s = require('node:fs').readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), start: f[19] };
  } catch {
    return null;
  }
}

// Whether @owner ("pid:start") is a live ancestor of this process.
function startedByOwner(owner) {
  const [pid, start] = String(owner ?? '').split(':');
  if (!pid || !start) return false;
  for (let p = process.ppid, i = 0; p > 1 && i < 64; i++) {
    const st = procStat(p);
    if (!st) return false;
    if (String(p) === pid) return st.start === start;
    p = st.ppid;
  }
  return false;
}

function main() {
  if (!isMainThread || globalThis[Symbol.for('eventboost.profile')]) return;
  const { fromEnv } = require('./lib/profile/env');
  let o;
  try {
    o = fromEnv(process.env);
  } catch (e) {
    process.stderr.write(`eventboost: ${e.message}; running without the profiler\n`);
    return;
  }
  let out = o.out;
  // A process the profiled one started with the preload (a cluster worker,
  // a child_process.fork(), which pass it on) writes a report of its own:
  // the first profiled process names itself in the environment its
  // children inherit, by pid and start time: it counts while it is an
  // ancestor (not in a process started later from a shell that inherited
  // it, nor in one that reuses its pid).  (Not NODE_UNIQUE_ID for cluster
  // workers: Node removes it from the environment before the preloads
  // run.)
  if (require('node:cluster').isWorker || startedByOwner(process.env.EVENTBOOST_PROFILE_OWNER)) {
    out = out.replace(/(\.json)?$/, `.${process.pid}$1`);
  } else {
    // (Where /proc cannot tell its start, no process is its child.)
    const self = procStat(process.pid);
    if (self) process.env.EVENTBOOST_PROFILE_OWNER = `${process.pid}:${self.start}`;
    else delete process.env.EVENTBOOST_PROFILE_OWNER;
  }
  const { Profiler, htmlPath } = require('./lib/profile');
  const p = new Profiler({ out, sample: o.sample }).start();
  globalThis[Symbol.for('eventboost.profile')] = p;
  let done = false;
  const write = (why) => {
    try {
      const r = p.write();
      if (why) {
        process.stderr.write(`eventboost: profile of ${r.requests} requests (${why}): ` +
          `tail is ${r.verdict.cause}, boost ${r.verdict.boost}; ${p.out}, ${htmlPath(p.out)}\n`);
      }
    } catch (e) {
      process.stderr.write(`eventboost: cannot write the profile: ${e.message}\n`);
    }
  };
  process.on('exit', () => { if (!done) write(null); });
  // A signal that would end the process writes the report first; when the
  // application handles the signal itself, it decides what happens next.
  // The handler steps aside before the application's run (an emit calls
  // the listeners it found), so that theirs see the listeners they would
  // see unprofiled: signal-exit, among others, re-raises a signal only
  // when its own are the last.  Back, first again, for the next signal if
  // the process lives on (an immediate runs before the loop's next poll
  // takes another signal).
  const handlers = new Map();
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    const h = () => {
      if (!done) write(null);
      process.removeListener(sig, h);
      if (process.listenerCount(sig) === 0) {
        done = true;
        process.kill(process.pid, sig);
        return;
      }
      setImmediate(() => {
        if (!done && !process.listeners(sig).includes(h)) process.prependListener(sig, h);
      }).unref();
    };
    handlers.set(sig, h);
    // First, also ahead of handlers added before it (a preload of
    // NODE_OPTIONS): it must step aside before any of theirs runs.
    process.prependListener(sig, h);
  }
  if (o.seconds) {
    const t = setTimeout(() => {
      done = true;
      for (const [sig, h] of handlers) process.removeListener(sig, h);
      write(`${o.seconds} s`);
      p.stop();
      p.release();
    }, o.seconds * 1000);
    t.unref();
  }
}

main();
