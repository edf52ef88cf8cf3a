'use strict';
// make experiment's first look at its design, before it builds or boots
// anything (driver.js looks again in the guest): the verdict on the targets
// it names (paired.js), and with EXPERIMENT_EXTEND the same verdict as the
// run it adds repetitions to.  Exits 1 with a sentence saying what to do.
//   node check-design.js CONFIG.json [EXTENDED-RAW.json]
const fs = require('node:fs');
const { primaryVerdict, extendedVerdict } = require('./paired');

const [configFile, priorFile] = process.argv.slice(2);
try {
  const config = JSON.parse(fs.readFileSync(configFile, 'utf8'));
  if (priorFile) extendedVerdict(config, JSON.parse(fs.readFileSync(priorFile, 'utf8')).config);
  else primaryVerdict(config);
} catch (e) {
  console.error(`experiment: ${configFile}: ${e.message}`);
  process.exit(1);
}
