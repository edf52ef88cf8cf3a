'use strict';
// node -r eventboost/register app.js, or node --import eventboost/register
// app.mjs: start eventboost with options from the environment
// (EVENTBOOST=off|gc|queue|all, EVENTBOOST_GC_KINDS, EVENTBOOST_QUEUE_FACTOR,
// EVENTBOOST_SAMPLE_US, EVENTBOOST_QUEUE_MAX_DELAY_MS,
// EVENTBOOST_QUEUE_HEAD_OF_LINE, EVENTBOOST_QUEUE_BURSTS, EVENTBOOST_DEVICE).  Never stops the application:
// where eventboost cannot act, or is active but does nothing, it prints one
// line to stderr and the application runs unchanged.  One line per process
// tree: Workers (which run the preload too) and child processes (which
// inherit NODE_OPTIONS) stay quiet; EVENTBOOST_QUIET=1 silences it.
// When the device is missing (the module loads after the service starts),
// or not yet the service's to open (devtmpfs makes it root's, udev's rule
// then gives it to the eventboost group), the preload watches for it and
// starts when it appears or its permissions change, unless the application
// has started or stopped eventboost itself meanwhile.
const fs = require('node:fs');
const path = require('node:path');
const { isMainThread } = require('node:worker_threads');
const { fromEnv } = require('./lib/options');

const DEFAULT_DEVICE = '/dev/eventboost';

function warn(line) {
  if (!isMainThread || process.env.EVENTBOOST_QUIET === '1' || process.env.EVENTBOOST_WARNED) return;
  process.env.EVENTBOOST_WARNED = String(process.pid); // child processes inherit it
  process.stderr.write(`eventboost: ${line}\n`);
}

// Try again whenever the device appears or its attributes change, while
// retry() says to go on (a non-persistent watch: it never keeps the
// application alive).
function watchFor(device, retry) {
  let watcher;
  try {
    watcher = fs.watch(path.dirname(device), { persistent: false }, (event, name) => {
      if (name && name !== path.basename(device)) return;
      if (!fs.existsSync(device)) return;
      if (!retry()) watcher.close();
    });
  } catch {
    // the directory is missing too: nothing to watch
  }
}

let cfg;
try {
  cfg = fromEnv(process.env);
} catch (e) {
  warn(`${e.message}; running without eventboost`);
}
if (cfg && !cfg.off) {
  const eventboost = require('./index.js');
  const device = cfg.options.device ?? DEFAULT_DEVICE;
  const calls = eventboost[Symbol.for('eventboost.calls')];
  let mine;
  // Whether to try again: the device is missing, or not ours to open yet.
  const startNow = (later) => {
    const r = eventboost.start(cfg.options);
    mine = calls();
    if (!r.active) {
      if (!later) warn(`inactive: ${r.reason}`);
      return r.code === 'ENOENT' || r.code === 'EACCES';
    }
    const idle = eventboost.stats().reason;
    if (idle) warn(idle);
    return false;
  };
  if (startNow(false)) watchFor(device, () => calls() === mine && startNow(true));
}
