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
// Jest runs each test file in one, loading its modules there and addons
// with Node's require, so every realm shares the thread's one native
// instance): one state for the thread, or each realm would keep its own
// over one native client, and one's start() or stop() would change what
// the other runs without its knowing.  Each realm keeps its own functions,
// errors and results (Jest's toThrow(TypeError) is the test file's).
test('the package loaded in another realm of the thread shares its state, with its own errors', () => {
  const { runFake } = require('./fake.js');
  const r = runFake(`
const vm = require('node:vm');
const fs = require('node:fs');
const path = require('node:path');
const { createRequire } = require('node:module');
const a = require(process.env.EB_PKG);
// As Jest loads a module into a test file's context: JavaScript there,
// addons and Node's own modules through Node's require.
const realm = vm.createContext({ process, console });
const cache = new Map();
function load(file) {
  if (cache.has(file)) return cache.get(file).exports;
  const m = { exports: {} };
  cache.set(file, m);
  const fn = vm.compileFunction(fs.readFileSync(file, 'utf8'),
    ['exports', 'require', 'module', '__filename', '__dirname'], { parsingContext: realm, filename: file });
  const node = createRequire(file);
  const req = (id) => (id.startsWith('.') && !id.endsWith('.node') && !id.endsWith('.json')
    ? load(node.resolve(id)) : node(id));
  fn.call(m.exports, m.exports, req, m, file, path.dirname(file));
  return m.exports;
}
const b = load(path.join(process.env.EB_PKG, 'index.js'));
const out = { start: a.start({ gc: ['mark-compact'], queue: false, device: process.env.EB_FAKE_DEVICE }).active };
out.same = a === b;
out.bActive = b.stats().active;
out.bKinds = b.stats().gc.kinds;
try { b.start({ queueFactor: 0.5 }); } catch (e) {
  out.bError = { realms: e instanceof vm.runInContext('RangeError', realm), code: e.code };
}
out.bActiveAfterBadStart = b.stats().active;
b.stop();
out.aAfterBStop = { active: a.stats().active, reason: a.stats().reason };
out.calls = [a[Symbol.for('eventboost.calls')](), b[Symbol.for('eventboost.calls')]()];
console.log(JSON.stringify(out));
`);
  assert.deepStrictEqual(r, {
    start: true, same: false, bActive: true, bKinds: ['mark-compact'],
    bError: { realms: true, code: 'ERR_OUT_OF_RANGE' }, bActiveAfterBadStart: true,
    aAfterBStop: { active: false, reason: 'stopped' }, calls: [2, 2],
  });
});

// The same file evaluated again in the same realm (jest.resetModules(), a
// require cache emptied) is no second copy: the instance, and no warning.
test('the same copy evaluated again gives the instance without a warning', () => {
  const r = run(`
    const a = require(${JSON.stringify(pkg)});
    a.start({ device: '/nonexistent' });
    for (const k of Object.keys(require.cache)) if (!k.endsWith('.node')) delete require.cache[k];
    const b = require(${JSON.stringify(pkg)});
    console.log(a === b);
  `);
  assert.strictEqual(r.stdout, 'true\n');
  assert.doesNotMatch(r.stderr, /EVENTBOOST_SECOND_COPY/);
});
