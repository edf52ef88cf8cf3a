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

// The package loaded again in another realm of the thread (a vm context:
// Jest runs each test file in one, and loads addons with Node's own
// require, so both realms share the thread's one native instance): the
// second realm's require gives the first's instance, or each realm would
// keep a state of its own over one native client, and one's start() or
// stop() would change what the other says it runs.
test('the package loaded in a second realm of the thread gives the first realm\'s instance', () => {
  const { runFake } = require('./fake.js');
  const r = runFake(`
const vm = require('node:vm');
const { createRequire } = require('node:module');
const path = require('node:path');
const a = require(process.env.EB_PKG);
const file = path.join(process.env.EB_PKG, 'index.js');
// As Jest loads a module into a test file's context.
const realm = vm.createContext({ process, console });
const fn = vm.compileFunction(require('node:fs').readFileSync(file, 'utf8'),
  ['exports', 'require', 'module', '__filename', '__dirname'], { parsingContext: realm, filename: file });
const m = { exports: {} };
fn.call(m.exports, m.exports, createRequire(file), m, file, process.env.EB_PKG);
const b = m.exports;
const out = { start: a.start({ gc: false, queue: false, device: process.env.EB_FAKE_DEVICE }).active };
out.same = a === b;
out.bActive = b.stats().active;
b.stop();
out.aActiveAfterBStop = a.stats().active;
console.log(JSON.stringify(out));
`);
  assert.deepStrictEqual(r, { start: true, same: true, bActive: true, aActiveAfterBStop: false });
});
