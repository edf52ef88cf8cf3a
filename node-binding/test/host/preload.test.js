'use strict';
// node -r eventboost/register: never changes what the application does.
const test = require('node:test');
const assert = require('node:assert');
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { fakeEnv } = require('./fake.js');

// An application folder that depends on eventboost, as a user's would.
const app = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-app-'));
fs.mkdirSync(path.join(app, 'node_modules'));
fs.symlinkSync(path.resolve(__dirname, '../..'), path.join(app, 'node_modules', 'eventboost'));
fs.writeFileSync(path.join(app, 'app.js'),
  "console.log('app ran', JSON.stringify(require('eventboost').stats().active)); process.exitCode = 7;\n");

function run(env) {
  const r = spawnSync(process.execPath, ['-r', 'eventboost/register', 'app.js'], {
    cwd: app, encoding: 'utf8',
    env: { PATH: process.env.PATH, EVENTBOOST_DEVICE: '/nonexistent/eventboost', ...env },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('EVENTBOOST=off: silent, application unchanged', () => {
  const r = run({ EVENTBOOST: 'off' });
  assert.deepStrictEqual(r, { code: 7, out: 'app ran false\n', err: '' });
});

test('no device: one line on stderr saying what to do, application unchanged', () => {
  const r = run({});
  assert.strictEqual(r.code, 7);
  assert.strictEqual(r.out, 'app ran false\n');
  assert.strictEqual(r.err.split('\n').filter(Boolean).length, 1);
  assert.match(r.err, /^eventboost: inactive: .*modprobe eventboost/);
});

test('bad environment: one line naming the variable, application unchanged', () => {
  for (const [env, re] of [[{ EVENTBOOST: 'fast' }, /EVENTBOOST must be off, gc, queue or all/],
    [{ EVENTBOOST_QUEUE_FACTOR: 'x' }, /EVENTBOOST_QUEUE_FACTOR must be a number/],
    [{ EVENTBOOST_SAMPLE_US: '5' }, /EVENTBOOST_SAMPLE_US must be an integer from 100/],
    [{ EVENTBOOST_GC_KINDS: 'full' }, /EVENTBOOST_GC_KINDS: unknown GC kind 'full'/]]) {
    const r = run(env);
    assert.strictEqual(r.code, 7);
    assert.strictEqual(r.out, 'app ran false\n');
    assert.strictEqual(r.err.split('\n').filter(Boolean).length, 1, r.err);
    assert.match(r.err, re);
    assert.match(r.err, /running without eventboost/);
  }
});

test('workers load the preload too, and stay inert', () => {
  fs.writeFileSync(path.join(app, 'worker.js'),
    "const { Worker } = require('node:worker_threads');\n" +
    "new Worker(\"require('node:worker_threads').parentPort.postMessage(require('eventboost').stats().reason)\", { eval: true })\n" +
    "  .on('message', (m) => console.log('worker:', m));\n");
  const r = spawnSync(process.execPath, ['-r', 'eventboost/register', 'worker.js'], {
    cwd: app, encoding: 'utf8', env: { PATH: process.env.PATH, EVENTBOOST_DEVICE: '/nonexistent/eventboost' },
  });
  assert.strictEqual(r.status, 0);
  assert.match(r.stdout, /^worker: .*modprobe eventboost/);
});

test('node --import eventboost/register (ESM) works as -r does', () => {
  fs.writeFileSync(path.join(app, 'app.mjs'),
    "import eb from 'eventboost';\nconsole.log('app ran', JSON.stringify(eb.stats().active));\n");
  const r = spawnSync(process.execPath, ['--import', 'eventboost/register', 'app.mjs'], {
    cwd: app, encoding: 'utf8', env: { PATH: process.env.PATH, EVENTBOOST_DEVICE: '/nonexistent/eventboost' },
  });
  assert.strictEqual(r.status, 0, r.stderr);
  assert.strictEqual(r.stdout, 'app ran false\n');
  assert.match(r.stderr, /^eventboost: inactive: .*modprobe eventboost[^\n]*\n$/);
});

// A main thread with a Worker and a child process, all under the preload.
const tree = "const { Worker } = require('node:worker_threads');\n" +
  "const { spawnSync } = require('node:child_process');\n" +
  "new Worker('0', { eval: true }).on('exit', () => {\n" +
  "  spawnSync(process.execPath, ['-e', '0'], { stdio: 'inherit' });\n" +
  "  console.log('tree ran');\n" +
  '});\n';

test('one warning per process tree: not again from Workers or child processes', () => {
  fs.writeFileSync(path.join(app, 'tree.js'), tree);
  const r = spawnSync(process.execPath, ['tree.js'], {
    cwd: app, encoding: 'utf8',
    env: { PATH: process.env.PATH, NODE_OPTIONS: '-r eventboost/register', EVENTBOOST_DEVICE: '/nonexistent/eventboost' },
  });
  assert.strictEqual(r.status, 0, r.stderr);
  assert.strictEqual(r.stdout, 'tree ran\n');
  assert.strictEqual(r.stderr.split('\n').filter(Boolean).length, 1, r.stderr);
  assert.match(r.stderr, /^eventboost: inactive: .*modprobe eventboost/);
});

test('EVENTBOOST_QUIET=1: no warning at all', () => {
  for (const env of [{}, { EVENTBOOST: 'fast' }]) {
    const r = run({ EVENTBOOST_QUIET: '1', ...env });
    assert.deepStrictEqual(r, { code: 7, out: 'app ran false\n', err: '' });
  }
});

// Runs a spawned preloaded app to its end: `step(out)` sees its stdout so
// far at each chunk (to act on it); the app is killed after `limitMs`.
async function converse(child, step, limitMs = 15000) {
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => { out += d; step(out); });
  const timer = setTimeout(() => child.kill(), limitMs);
  const code = await new Promise((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  return { out, code };
}

// Where the module is missing (the package inert), the watch for the device
// costs one inotify instance per process, not one per thread: Workers run
// the preload too, and inotify instances are few (128 per user by default).
// A Worker's preload looks for the device once a second instead.
test('Workers watch for a missing device without an inotify instance each', { timeout: 60000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-late-'));
  const dev = path.join(dir, 'eventboost');
  fs.writeFileSync(path.join(app, 'workers-late.js'),
    "const { Worker } = require('node:worker_threads');\n" +
    "const fs = require('node:fs');\n" +
    'const inotify = () => fs.readdirSync(\'/proc/self/fd\').filter((f) => {\n' +
    "  try { return fs.readlinkSync('/proc/self/fd/' + f) === 'anon_inode:inotify'; } catch { return false; }\n" +
    '}).length;\n' +
    'const src = "const { parentPort } = require(\'node:worker_threads\'); const eb = require(\'eventboost\');" +\n' +
    '  "parentPort.postMessage(\'up\'); const t = setInterval(() => { const r = eb.stats().reason;" +\n' +
    '  "if (!r.includes(\'modprobe\')) { parentPort.postMessage(r); clearInterval(t); } }, 20);";\n' +
    'let up = 0, seen = 0;\n' +
    'for (let i = 0; i < 8; i++) new Worker(src, { eval: true }).on(\'message\', (m) => {\n' +
    "  if (m === 'up' && ++up === 8) console.log('inotify ' + inotify());\n" +
    "  else if (m !== 'up') { console.log('worker: ' + m); if (++seen === 8) process.exit(0); }\n" +
    '});\n');
  const child = spawn(process.execPath, ['-r', 'eventboost/register', 'workers-late.js'], {
    cwd: app, env: { PATH: process.env.PATH, EVENTBOOST_DEVICE: dev },
  });
  const { out, code } = await converse(child, (o) => {
    // Then the device appears: every Worker notices it still.
    if (/^inotify \d+\n$/.test(o)) fs.symlinkSync('/dev/null', dev);
  }, 30000);
  const n = Number((/^inotify (\d+)/.exec(out) || [])[1]);
  assert.ok(n <= 1, out);
  assert.strictEqual(code, 0, out);
  assert.strictEqual(out.match(/worker: .*not an eventboost device/g).length, 8, out);
});

test('a device that appears after start (boot order) is noticed without a restart', { timeout: 60000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-late-'));
  const dev = path.join(dir, 'eventboost');
  fs.writeFileSync(path.join(app, 'late.js'),
    "const eb = require('eventboost');\n" +
    "console.log(eb.stats().reason.includes('modprobe') ? 'missing' : 'unexpected');\n" +
    "const t = setInterval(() => {\n" +
    "  const r = eb.stats().reason;\n" +
    "  if (!r.includes('modprobe')) { console.log(r); clearInterval(t); }\n" +
    '}, 20);\n');
  const child = spawn(process.execPath, ['-r', 'eventboost/register', 'late.js'], {
    cwd: app, env: { PATH: process.env.PATH, EVENTBOOST_DEVICE: dev },
  });
  const { out, code } = await converse(child, (o) => {
    // Not an eventboost device, but one that appeared: start() tried again.
    if (o === 'missing\n') fs.symlinkSync('/dev/null', dev);
  }, 30000);
  assert.strictEqual(code, 0);
  assert.match(out, /^missing\n.*not an eventboost device/);
});

// The module's device appears before its governor is registered and refuses
// opens (EAGAIN) until it is: a preload whose start() met a load not done
// after libeventboost's second of waiting tries again once a second, without
// a start() (which would wait a second) while the device still refuses, and
// starts once the load is done (the fake device refuses while a file exists).
test('a device whose module is still loading is started once the load is done', { timeout: 60000 }, async () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'eb-loading-')));
  const dev = path.join(dir, 'eventboost');
  const loading = path.join(dir, 'loading');
  const log = path.join(dir, 'log');
  fs.writeFileSync(dev, '');
  fs.writeFileSync(loading, '');
  fs.writeFileSync(path.join(app, 'loading.js'),
    "const eb = require('eventboost');\n" +
    'console.log(`first: ${eb.stats().reason}`);\n' +
    "const t = setInterval(() => { if (eb.stats().active) { console.log('active'); clearInterval(t); } }, 20);\n" +
    'setTimeout(() => clearInterval(t), 20000);\n');
  const child = spawn(process.execPath, ['-r', 'eventboost/register', 'loading.js'], {
    cwd: app,
    env: { PATH: process.env.PATH, EVENTBOOST_DEVICE: dev, ...fakeEnv(dev), EB_FAKE_POLICY: '1',
      EB_FAKE_DEVICE_LOADING: loading, EB_FAKE_LOG: log },
  });
  let err = '';
  child.stderr.on('data', (d) => { err += d; });
  const { out } = await converse(child, (o) => {
    // Refused through three of the preload's tries, then done.
    if (/^first: /.test(o) && fs.existsSync(loading)) setTimeout(() => fs.rmSync(loading), 3500);
    if (/^active/m.test(o)) child.kill();
  }, 30000);
  assert.match(out, /^first: [^\n]*still loading[^\n]*\nactive\n$/, out);
  assert.match(err, /still loading[^\n]*\neventboost: active now: a later try started it\n$/, err);
  // The first start() waited its second (an open a millisecond, at most a
  // thousand refused); each later try looked once (one refused open), not
  // a start() that waits a second with the application's loop.
  const refused = fs.readFileSync(log, 'utf8').split('\n').filter((l) => l === 'refused open').length;
  assert.ok(refused > 3 && refused <= 1100, `${refused} refused opens`);
});

// A preload started before the device that reports what it saw, each reason
// once, as it changes; `then` runs after the first.
function lateApp(name, then = '') {
  fs.writeFileSync(path.join(app, name),
    "const eb = require('eventboost');\n" +
    'let last = null;\n' +
    'const report = () => { const r = eb.stats().reason; if (r !== last) console.log(last = r); };\n' +
    `report();\n${then}\n` +
    'const t = setInterval(report, 20);\n' +
    'setTimeout(() => clearInterval(t), 20000);\n');
}

// As a user (root opens anything): the app folder and the device's reachable.
function lateSpawn(name, dev, preloads = []) {
  fs.chmodSync(app, 0o755);
  fs.chmodSync(path.dirname(dev), 0o777);
  return spawn(process.execPath, [...preloads.flatMap((p) => ['-r', p]), '-r', 'eventboost/register', name], {
    cwd: app, env: { PATH: process.env.PATH, EVENTBOOST_DEVICE: dev },
    ...(process.getuid() === 0 ? { uid: 65534, gid: 65534 } : {}),
  });
}

test('a device that appears before its permissions (udev sets them after) is still started', { timeout: 60000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-late-'));
  const dev = path.join(dir, 'eventboost');
  lateApp('late-perm.js');
  const child = lateSpawn('late-perm.js', dev);
  const { out } = await converse(child, (o) => {
    if (/^[^\n]*modprobe[^\n]*\n$/.test(o)) {
      // As devtmpfs makes it: there at once, usable only once udev's rule ran.
      const made = path.join(os.tmpdir(), `eb-made-${process.pid}`);
      fs.writeFileSync(made, '', { mode: 0o000 });
      fs.chmodSync(made, 0o000);
      fs.renameSync(made, dev);
    } else if (/permission denied[^\n]*\n$/.test(o)) {
      fs.chmodSync(dev, 0o666); // a file, not the device: started, then refused as not eventboost's
    } else if (/not an eventboost device/.test(o)) {
      child.kill();
    }
  });
  assert.match(out, /^[^\n]*modprobe[^\n]*\n[^\n]*permission denied[^\n]*\n[^\n]*not an eventboost device/, out);
});

test('a device not the service\'s to open is watched for the 30 s grace, not after', { timeout: 60000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-late-'));
  const dev = path.join(dir, 'eventboost');
  lateApp('late-grace.js');
  // The preload's timer of 30 s, and only that one, made 0.3 s (loaded
  // before it): the grace ends before udev's rule would have run.
  fs.writeFileSync(path.join(app, 'grace-clock.js'),
    'const real = global.setTimeout;\n' +
    'global.setTimeout = (fn, ms, ...a) => ms !== 30000 ? real(fn, ms, ...a) :\n' +
    "  (console.log('grace'), real(() => { fn(...a); console.log('grace over'); }, 300));\n");
  const child = lateSpawn('late-grace.js', dev, ['./grace-clock.js']);
  const { out } = await converse(child, (o) => {
    if (/^[^\n]*modprobe[^\n]*\n$/.test(o)) {
      const made = path.join(os.tmpdir(), `eb-made-${process.pid}`);
      fs.writeFileSync(made, '', { mode: 0o000 });
      fs.chmodSync(made, 0o000);
      fs.renameSync(made, dev);
    } else if (/grace over\n$/.test(o)) {
      // As udev's rule would, late: a start would now say "not an eventboost device".
      fs.chmodSync(dev, 0o666);
      setTimeout(() => child.kill(), 1500);
    }
  });
  assert.match(out, /^[^\n]*modprobe[^\n]*\n(grace\n[^\n]*permission denied[^\n]*\n|[^\n]*permission denied[^\n]*\ngrace\n)grace over\n$/, out);
});

test("the application's own stop() is not undone when the device appears later", { timeout: 60000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-late-'));
  const dev = path.join(dir, 'eventboost');
  // stop() at once; once the device is there (the app's own watch, made
  // after the preload's), what eventboost says a while later.
  lateApp('late-stop.js', "eb.stop();\n" +
    `require('node:fs').watch(${JSON.stringify(dir)}, { persistent: false }, () => ` +
    'setTimeout(() => console.log(`after: ${eb.stats().active} ${eb.stats().reason}`), 500));');
  const child = lateSpawn('late-stop.js', dev);
  const { out } = await converse(child, (o) => {
    if (o.includes('\nstopped') && !fs.existsSync(dev)) fs.symlinkSync('/dev/null', dev);
    if (o.includes('after:')) child.kill();
  });
  // (stop() keeps why it was inactive)
  assert.match(out, /^([^\n]*modprobe[^\n]*)\nstopped \(inactive before: \1\)\n(after: false stopped \(inactive before: \1\)\n)+$/, out);
});

// A folder for the tests below (real: the fake device compares the path
// /proc/self/fd shows), removed at the end.
const made = [];
test.after(() => { for (const d of made) fs.rmSync(d, { recursive: true, force: true }); });
function tmpDir(prefix) {
  made.push(fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix))));
  return made.at(-1);
}

// A stream's whole text, once it ends (a child's exit can come first).
function collect(stream) {
  let s = '';
  stream.setEncoding('utf8');
  stream.on('data', (d) => { s += d; });
  const ended = new Promise((resolve) => stream.on('end', resolve));
  return async () => { await ended; return s; };
}

// A device that appears after start: the preload, which printed that it
// was inactive, says it is active now, or (the fake device's CPU has no
// cpufreq policy, unless EB_FAKE_POLICY=1) why that does nothing.
test('a device that appears after start: the preload says it is active now, or why it does nothing', { timeout: 60000 }, async () => {
  const { fakeEnv } = require('./fake.js');
  fs.writeFileSync(path.join(app, 'late-active.js'),
    "const eb = require('eventboost');\n" +
    "console.log(eb.stats().reason.includes('modprobe') ? 'missing' : 'unexpected');\n" +
    "setInterval(() => { if (eb.stats().active) { console.log('active'); process.exit(0); } }, 20);\n");
  for (const [env, line] of [[{}, /^eventboost: active, but the event loop's CPU \d+ is not governed by eventboost/],
    [{ EB_FAKE_POLICY: '1' }, /^eventboost: active now: /]]) {
    const dev = path.join(tmpDir('eb-late-'), 'eventboost');
    const child = spawn(process.execPath, ['-r', 'eventboost/register', 'late-active.js'], {
      cwd: app, env: { PATH: process.env.PATH, EVENTBOOST_DEVICE: dev, ...fakeEnv(dev), ...env },
    });
    const err = collect(child.stderr);
    const { out, code } = await converse(child, (o) => {
      if (o === 'missing\n') fs.writeFileSync(dev, '');
    }, 30000);
    const lines = (await err()).split('\n').filter(Boolean);
    assert.deepStrictEqual({ out, code }, { out: 'missing\nactive\n', code: 0 }, lines.join('\n'));
    assert.strictEqual(lines.length, 2, lines.join('\n'));
    assert.match(lines[0], /^eventboost: inactive: .*modprobe eventboost/);
    assert.match(lines[1], line);
  }
});

// Under Node's permission model (Node 20: --experimental-permission), as a
// locked-down service runs: reads allowed in the application's folder, the
// package copied into it (a link out of it is read where it points).
const PERMISSION = process.versions.node.startsWith('20.') ? '--experimental-permission' : '--permission';
function permissionApp() {
  const dir = tmpDir('eb-perm-app-');
  const pkg = path.resolve(__dirname, '../..');
  for (const f of ['package.json', 'index.js', 'register.js', 'lib', 'build/Release',
    `prebuilds/${process.platform}-${process.arch}`]) {
    if (fs.existsSync(path.join(pkg, f))) {
      fs.cpSync(path.join(pkg, f), path.join(dir, 'node_modules', 'eventboost', f), { recursive: true });
    }
  }
  return dir;
}
const permissionArgs = (dir, ...reads) => [PERMISSION, '--allow-addons', '--allow-worker', '--no-warnings',
  ...[dir, ...reads].map((p) => `--allow-fs-read=${p}`), '-r', 'eventboost/register'];

test('permission model: a device path it may not read is not looked for, said once; a Worker lives on', { timeout: 60000 }, () => {
  const dir = permissionApp();
  fs.writeFileSync(path.join(dir, 'perm.js'),
    "const { Worker } = require('node:worker_threads');\n" +
    "new Worker('setTimeout(() => {}, 2500)', { eval: true }).on('exit', (c) => console.log('worker exit ' + c));\n");
  const r = spawnSync(process.execPath, [...permissionArgs(dir), 'perm.js'], {
    cwd: dir, encoding: 'utf8', timeout: 30000,
    env: { PATH: process.env.PATH, EVENTBOOST_DEVICE: '/nonexistent/eventboost' },
  });
  assert.deepStrictEqual({ code: r.status, out: r.stdout }, { code: 0, out: 'worker exit 0\n' }, r.stderr);
  const lines = r.stderr.split('\n').filter(Boolean);
  assert.strictEqual(lines.length, 2, r.stderr);
  assert.match(lines[0], /^eventboost: inactive: .*modprobe eventboost/);
  assert.match(lines[1], /^eventboost: .*permission model.*--allow-fs-read=\/nonexistent\/eventboost/);
});

// Reads allowed for the package's JavaScript but not for its native addon
// (build/, prebuilds/), as an operator granting only what the preload
// asked for so far would: inert with a reason naming the flag, never an
// ERR_ACCESS_DENIED that ends the application before its code runs (until
// 2026-12-08 fs.existsSync() threw it from the addon's look-up).
test('permission model: an addon it may not read leaves the application running, and says which read to allow', () => {
  const dir = permissionApp();
  const pkg = path.join(dir, 'node_modules', 'eventboost');
  fs.writeFileSync(path.join(dir, 'app.js'),
    "console.log('app ran', JSON.stringify(require('eventboost').stats()));\n");
  const reads = ['app.js', 'package.json', 'index.js', 'register.js', 'lib'].map((f) =>
    path.join(f === 'app.js' ? dir : pkg, f));
  const r = spawnSync(process.execPath, [PERMISSION, '--allow-addons', '--no-warnings',
    ...reads.map((p) => `--allow-fs-read=${p}`), '-r', './node_modules/eventboost/register.js', 'app.js'], {
    cwd: dir, encoding: 'utf8', timeout: 30000,
    env: { PATH: process.env.PATH, EVENTBOOST_DEVICE: '/nonexistent/eventboost' },
  });
  assert.strictEqual(r.status, 0, r.stderr);
  assert.match(r.stdout, /^app ran /, r.stderr);
  const stats = JSON.parse(r.stdout.slice('app ran '.length));
  assert.strictEqual(stats.active, false);
  const allow = `--allow-fs-read=${pkg}`;
  assert.ok(stats.reason.includes('permission model') && stats.reason.includes(allow), stats.reason);
  const lines = r.stderr.split('\n').filter(Boolean);
  assert.strictEqual(lines.length, 1, r.stderr);
  assert.ok(lines[0].startsWith('eventboost: inactive: ') && lines[0].includes(allow), r.stderr);
});

// The device's path readable but not its folder (no watch of it then): the
// main thread looks once a second, as a Worker does.
test('permission model: the device readable but not its folder is looked for, and started', { timeout: 60000 }, async () => {
  const { fakeEnv } = require('./fake.js');
  const dir = permissionApp();
  const dev = path.join(tmpDir('eb-perm-dev-'), 'eventboost');
  fs.writeFileSync(path.join(dir, 'perm-late.js'),
    "const eb = require('eventboost');\n" +
    "console.log(eb.stats().reason.includes('modprobe') ? 'missing' : 'unexpected');\n" +
    "setInterval(() => { if (eb.stats().active) { console.log('active'); process.exit(0); } }, 20);\n");
  const child = spawn(process.execPath, [...permissionArgs(dir, dev), 'perm-late.js'], {
    cwd: dir, env: { PATH: process.env.PATH, EVENTBOOST_DEVICE: dev, ...fakeEnv(dev) },
  });
  const err = collect(child.stderr);
  const { out, code } = await converse(child, (o) => {
    if (o === 'missing\n') fs.writeFileSync(dev, '');
  }, 10000);
  const stderr = await err();
  assert.deepStrictEqual({ out, code }, { out: 'missing\nactive\n', code: 0 }, stderr);
  assert.doesNotMatch(stderr, /permission model/);
});
