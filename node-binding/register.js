'use strict';
// node -r eventboost/register app.js: start eventboost with options from
// the environment (EVENTBOOST=off|gc|queue|all, EVENTBOOST_GC_KINDS,
// EVENTBOOST_QUEUE_FACTOR, EVENTBOOST_SAMPLE_US, EVENTBOOST_DEVICE).  Never
// stops the application: where eventboost cannot act it prints one line to
// stderr (nothing for EVENTBOOST=off) and the application runs unchanged.
const { fromEnv } = require('./lib/options');

let cfg;
try {
  cfg = fromEnv(process.env);
} catch (e) {
  process.stderr.write(`eventboost: ${e.message}; running without eventboost\n`);
}
if (cfg && !cfg.off) {
  const r = require('./index.js').start(cfg.options);
  if (!r.active) process.stderr.write(`eventboost: inactive: ${r.reason}\n`);
}
