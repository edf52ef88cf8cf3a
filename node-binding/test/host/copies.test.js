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
const version = require('../../package.json').version;

// A copy of the package's JavaScript, without any binary.
function copyWithoutBinary() {
  const other = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-copy-'));
  fs.cpSync(path.join(pkg, 'index.js'), path.join(other, 'index.js'));
  fs.cpSync(path.join(pkg, 'package.json'), path.join(other, 'package.json'));
  fs.cpSync(path.join(pkg, 'lib'), path.join(other, 'lib'), { recursive: true });
  return other;
}

function run(script) {
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH } });
  assert.strictEqual(r.status, 0, r.stderr);
  return r;
}

test('a second copy gives the first copy\'s instance, one warning a thread; a Worker has its own', () => {
  const other = copyWithoutBinary();
  const r = run(`
    const a = require(${JSON.stringify(pkg)});
    a.start({ device: '/nonexistent' });
    const b = require(${JSON.stringify(other)});
    require(${JSON.stringify(other)});
    const { Worker } = require('node:worker_threads');
    new Worker('const w = require(' + ${JSON.stringify(JSON.stringify(pkg))} + ');' +
      'const w2 = require(' + ${JSON.stringify(JSON.stringify(other))} + ');' +
      'require("node:worker_threads").parentPort.postMessage([w === w2, w.stats().reason])', { eval: true })
      .on('message', ([same, reason]) => console.log(a === b, /modprobe/.test(b.stats().reason), same, reason));
  `);
  assert.strictEqual(r.stdout, 'true true true not started\n');
  const warnings = r.stderr.split('\n').filter((l) => l.includes('EVENTBOOST_SECOND_COPY'));
  assert.strictEqual(warnings.length, 2, r.stderr);
  assert.ok(warnings[0].includes(`(${version}, ${path.join(other, 'index.js')}) gives the first's (${version}, ${path.join(pkg, 'index.js')})`), warnings[0]);
});

test('a first copy without its native addon does not make the thread inert: the next copy loads its own', () => {
  const other = copyWithoutBinary();
  const r = run(`
    const inert = require(${JSON.stringify(other)});
    const b = require(${JSON.stringify(pkg)});
    console.log(inert === b, inert.start().reason.includes('npm rebuild'),
      b.start({ device: '/nonexistent' }).reason.includes('modprobe'));
  `);
  assert.strictEqual(r.stdout, 'false true true\n');
  assert.doesNotMatch(r.stderr, /EVENTBOOST_SECOND_COPY/);
});
