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
// then gives it to the eventboost group: watched 30 s), the preload watches
// for it and starts when it appears or its permissions change (while its
// module's load is not done, EAGAIN, it tries once a second for 30 s),
// unless the application has started or stopped eventboost itself
// meanwhile; a preload that printed its line then prints one more, that it
// is active now (or why that does nothing).  Under the permission model, a device
// path the application may not read is not looked for: it says so.
const fs = require('node:fs');
const path = require('node:path');
const { isMainThread } = require('node:worker_threads');
const { fromEnv, DEFAULT_DEVICE } = require('./lib/options');

const EACCES_GRACE_MS = 30000;

let warned = false; // this preload printed the tree's line: what follows is its to say
function warn(line) {
  if (!isMainThread || process.env.EVENTBOOST_QUIET === '1' || process.env.EVENTBOOST_WARNED) return;
  process.env.EVENTBOOST_WARNED = String(process.pid); // child processes inherit it
  warned = true;
  process.stderr.write(`eventboost: ${line}\n`);
}
// A line after that one: what changed since.
function follow(line) {
  if (warned) process.stderr.write(`eventboost: ${line}\n`);
}

// Under the permission model (--permission), fs throws ERR_ACCESS_DENIED
// for a path the process may not read.
const mayRead = (p) => !process.permission || process.permission.has('fs.read', p);

let cfg;
try {
  cfg = fromEnv(process.env);
} catch (e) {
  warn(`${e.message}; running without eventboost`);
}
if (cfg && !cfg.off) {
  const eventboost = require('./index.js');
  const device = cfg.options.device ?? DEFAULT_DEVICE;
  const calls = eventboost[Symbol.for('eventboost.calls')] ?? (() => 0);
  let mine;
  // A watch of the device's directory (non-persistent: it never keeps the
  // application alive), while the device is missing, and for a grace
  // period while it is there but not ours to open: udev's rule regroups
  // it after devtmpfs makes it root's, within moments; a user not in the
  // group is not watched for longer.  In the main thread only: each
  // Worker's would be an inotify instance of its own, and a user has 128
  // (fs.inotify.max_user_instances), also for the application's own
  // watches; a Worker looks once a second instead (an unref'd timer), and
  // so does the main thread where it may read the device but not its
  // directory (the permission model).  Nothing here may throw out of a
  // timer or a watch: it would be the application's uncaught exception.
  let watcher = null;
  let grace = null;
  let poller = null;
  let loading = false; // the last start() met EAGAIN: tried again once a second
  const unwatch = () => {
    if (watcher) watcher.close();
    watcher = null;
    clearInterval(poller);
    poller = null;
    clearTimeout(grace);
    grace = null;
  };
  // The device still refuses opens (its module's load is not done): a
  // start() would wait a second for it, the application's loop with it.
  const refusing = () => {
    try {
      fs.closeSync(fs.openSync(device, 'r'));
    } catch (e) {
      return e.code === 'EAGAIN';
    }
    return false;
  };
  const look = () => {
    try {
      if (!fs.existsSync(device)) {
        // A load that failed took its device away: watched for its return.
        if (loading) {
          loading = false;
          unwatch();
          watch();
        }
        return;
      }
      if (calls() !== mine) unwatch(); // the application's own start() or stop() stands
      else if (!(loading && refusing())) startNow(true);
    } catch {
      unwatch();
    }
  };
  const watch = () => {
    if (watcher || poller) return;
    if (!mayRead(device)) {
      follow(`not watching ${device} (for it to appear or its permissions to change): the permission ` +
        `model denies reading it; grant --allow-fs-read=${device}, or restart once it is usable`);
      return;
    }
    if (!isMainThread || !mayRead(path.dirname(device))) {
      poller = setInterval(look, 1000).unref();
      return;
    }
    try {
      watcher = fs.watch(path.dirname(device), { persistent: false }, (event, name) => {
        if (!name || name === path.basename(device)) look();
      }).on('error', unwatch);
    } catch {
      return; // the directory is missing too (or no inotify left): nothing to watch
    }
    // What changed before the watch began: seen now.
    if (fs.existsSync(device)) setImmediate(() => { if (watcher) look(); });
  };
  const startNow = (later) => {
    const r = eventboost.start(cfg.options);
    mine = calls();
    const retried = loading;
    loading = r.code === 'EAGAIN';
    if (r.active) {
      unwatch();
      const idle = eventboost.stats().reason;
      // After its inactive line: active now, or why that does nothing.
      if (warned) follow(idle ?? (retried ? 'active now: a later try started it'
        : `active now: ${device} became usable after the application started`));
      else if (idle) warn(idle);
      return;
    }
    if (!later) warn(`inactive: ${r.reason}`);
    // (An ENOENT with the device there is not the device's: Queue-Boost's /proc.)
    if (r.code === 'ENOENT' && !(mayRead(device) && fs.existsSync(device))) {
      clearTimeout(grace); // gone again: watched until it is back
      grace = null;
      watch();
    } else if (r.code === 'EACCES') {
      watch();
      grace ??= setTimeout(unwatch, EACCES_GRACE_MS).unref();
    } else if (r.code === 'EAGAIN') {
      // The module still loading (its device refuses opens until its
      // governor is registered; libeventboost waited a second), or no
      // monitor thread to be had: tried again once a second for the grace
      // period (no change of the device would say when), a Worker's
      // look for a missing device included.
      if (watcher) watcher.close();
      watcher = null;
      poller ??= setInterval(look, 1000).unref();
      grace ??= setTimeout(unwatch, EACCES_GRACE_MS).unref();
    } else {
      unwatch();
    }
  };
  startNow(false);
}
