'use strict';
// The profiler's environment, validated: a bad value is an Error naming the
// variable.
const fs = require('node:fs');
const path = require('node:path');

// A report path that cannot be written is said at the start, not at exit
// after a whole profiled run.  (Its folder is made at exit: the nearest
// one that exists must be writable.  What fs may not look at, under the
// permission model, is left to the write.)
function checkOut(out) {
  let dir = path.dirname(path.resolve(out));
  try {
    if (fs.statSync(out, { throwIfNoEntry: false })?.isDirectory()) {
      throw new Error(`EVENTBOOST_PROFILE_OUT names a directory (${out}): give a file path in it`);
    }
    while (!fs.existsSync(dir)) dir = path.dirname(dir);
    fs.accessSync(dir, fs.constants.W_OK);
  } catch (e) {
    if (e.code === 'ERR_ACCESS_DENIED') return;
    if (!e.code) throw e;
    throw new Error(`EVENTBOOST_PROFILE_OUT: cannot write ${out} (${e.code} at ${dir}): give a path this process may write`);
  }
}

function fromEnv(env) {
  const o = { out: 'eventboost-profile.json', seconds: 0, sample: 1 };
  if (env.EVENTBOOST_PROFILE_OUT !== undefined) {
    if (env.EVENTBOOST_PROFILE_OUT === '') throw new Error('EVENTBOOST_PROFILE_OUT must be a file name');
    o.out = env.EVENTBOOST_PROFILE_OUT;
  }
  checkOut(o.out);
  if (env.EVENTBOOST_PROFILE_SECONDS !== undefined && env.EVENTBOOST_PROFILE_SECONDS !== '') {
    const s = Number(env.EVENTBOOST_PROFILE_SECONDS);
    if (!Number.isFinite(s) || s <= 0 || s > 2147483) {
      throw new Error(`EVENTBOOST_PROFILE_SECONDS must be a number of seconds > 0, got '${env.EVENTBOOST_PROFILE_SECONDS}'`);
    }
    o.seconds = s;
  }
  if (env.EVENTBOOST_PROFILE_SAMPLE !== undefined && env.EVENTBOOST_PROFILE_SAMPLE !== '') {
    const f = Number(env.EVENTBOOST_PROFILE_SAMPLE);
    if (!Number.isFinite(f) || f <= 0 || f > 1) {
      throw new Error(`EVENTBOOST_PROFILE_SAMPLE must be a fraction of requests in (0, 1], got '${env.EVENTBOOST_PROFILE_SAMPLE}'`);
    }
    o.sample = f;
  }
  return o;
}

module.exports = { fromEnv };
