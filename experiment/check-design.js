'use strict';
// make experiment's first look at its design, before it builds or boots
// anything (driver.js looks again in the guest): design.js's checks, the
// verdict on the targets it names (paired.js), and with EXPERIMENT_EXTEND
// whether the run it adds repetitions to can take them (its testbed,
// verdict, run length and warm-up run).  Reads EXPERIMENT_QUICK, _SECONDS,
// _REPS and _RATES as the driver does.  Exits 1 with a sentence saying what
// to do.
//   node check-design.js CONFIG.json [EXTENDED-RAW.json]
const fs = require('node:fs');
const { checkDesign } = require('./design');

const [configFile, priorFile] = process.argv.slice(2);
const refuse = (what, msg) => {
  console.error(`experiment: ${what}: ${msg}`);
  process.exit(1);
};
let config;
try {
  config = JSON.parse(fs.readFileSync(configFile, 'utf8'));
} catch (e) {
  refuse(configFile, e.message);
}
let prior = null;
if (priorFile) {
  try {
    const bytes = fs.readFileSync(priorFile);
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) refuse(`EXPERIMENT_EXTEND: ${priorFile}`, 'gzip-compressed: gunzip it first (an earlier run\'s raw.json)');
    prior = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    refuse(`EXPERIMENT_EXTEND: ${priorFile}`, e.code === 'ENOENT' ? 'no such file (an earlier run\'s raw.json)' : e.message);
  }
}
// The guest runs this Node (scripts/guest.sh gives it the host's PATH): a
// run on another is another testbed (cpu1.js, testbedDifference).
if (prior && prior.guest && prior.guest.node && prior.guest.node !== process.version) {
  refuse(`EXPERIMENT_EXTEND: ${priorFile}`, `its guest ran Node ${prior.guest.node}, this one would run ${process.version} ` +
    `(${process.execPath}): put a Node ${prior.guest.node} first on PATH, or start a new run`);
}
try {
  checkDesign(config, prior, process.env);
} catch (e) {
  if (e.prior) refuse(`EXPERIMENT_EXTEND: ${priorFile}`, e.prior);
  if (e.variable) refuse(e.variable, e.message.slice(e.variable.length + 2));
  refuse(configFile, e.message);
}
