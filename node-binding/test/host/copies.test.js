'use strict';
// Two copies of the package in one process (a preload from one
// node_modules, a dependency's own nested copy): one instance per thread,
// the first loaded, or each would hook GC and watch the loop on its own.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const pkg = path.resolve(__dirname, '../..');

test('a second copy of the package gives the first copy\'s instance, and says so once', () => {
  const other = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-copy-'));
  fs.cpSync(path.join(pkg, 'index.js'), path.join(other, 'index.js'));
  fs.cpSync(path.join(pkg, 'package.json'), path.join(other, 'package.json'));
  fs.cpSync(path.join(pkg, 'lib'), path.join(other, 'lib'), { recursive: true });
  const r = spawnSync(process.execPath, ['-e', `
    const a = require(${JSON.stringify(pkg)});
    const b = require(${JSON.stringify(other)});
    require(${JSON.stringify(other)});
    const { Worker } = require('node:worker_threads');
    // A Worker has its own: its first copy is its instance.
    new Worker('const w = require(${JSON.stringify(other).replace(/'/g, "\\'")}); ' +
      'require("node:worker_threads").parentPort.postMessage(w.stats().reason)', { eval: true })
      .on('message', (m) => console.log(a === b, m));
  `], { encoding: 'utf8', env: { PATH: process.env.PATH } });
  assert.strictEqual(r.status, 0, r.stderr);
  assert.strictEqual(r.stdout, 'true not started\n');
  const warnings = r.stderr.match(/EVENTBOOST_SECOND_COPY/g) ?? [];
  assert.strictEqual(warnings.length, 1, r.stderr);
  assert.ok(r.stderr.includes(path.join(other, 'index.js')) && r.stderr.includes(path.join(pkg, 'index.js')), r.stderr);
});
