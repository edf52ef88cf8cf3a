'use strict';
// The profiler's environment, validated: a bad value is an Error naming the
// variable.
function fromEnv(env) {
  const o = { out: 'eventboost-profile.json', seconds: 0, sample: 1 };
  if (env.EVENTBOOST_PROFILE_OUT !== undefined) {
    if (env.EVENTBOOST_PROFILE_OUT === '') throw new Error('EVENTBOOST_PROFILE_OUT must be a file name');
    o.out = env.EVENTBOOST_PROFILE_OUT;
  }
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
