'use strict';
// `npm pack` gives a tarball a user can install anywhere: it carries a
// prebuilt addon per tested Node ABI, for linux-x64 and linux-arm64, so an
// install needs no compiler, and an install that can neither use a prebuild
// nor build never fails.
const test = require('node:test');
const assert = require('node:assert');
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const pkg = path.resolve(__dirname, '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-pack-'));

// A PATH with this Node, npm and a shell, nothing else: no compiler, make or python.
const bin = path.join(tmp, 'bin');
fs.mkdirSync(bin);
fs.symlinkSync('/bin/sh', path.join(bin, 'sh'));
fs.symlinkSync(process.execPath, path.join(bin, 'node'));
const npmCli = fs.realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim());
fs.symlinkSync(npmCli, path.join(bin, 'npm'));
const bare = { HOME: process.env.HOME, PATH: bin, CC: '/bin/false', CXX: '/bin/false' };

let tarball;
test('npm pack: sources, a prebuild for each tested Node and architecture, README and licence', { timeout: 600000 }, () => {
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', tmp],
    { cwd: pkg, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const [info] = JSON.parse(out);
  tarball = path.join(tmp, info.filename);
  const files = info.files.map((f) => f.path);
  const abi = process.versions.modules;
  for (const f of ['index.js', 'index.d.ts', 'register.js', 'binding.gyp', 'lib/options.js',
    'src/addon.cc', 'deps/libeventboost/libeventboost.c', 'deps/libeventboost/eventboost.h',
    'deps/uapi/linux/eventboost.h', 'scripts/build.js', 'README.md', 'LICENSE', 'package.json',
    `prebuilds/linux-x64/node.abi${abi}.node`, `prebuilds/linux-arm64/node.abi${abi}.node`]) {
    assert.ok(files.includes(f), `${f} is in the tarball`);
  }
  for (const arch of ['x64', 'arm64']) {
    assert.ok(files.filter((f) => new RegExp(`^prebuilds/linux-${arch}/node\\.abi\\d+\\.node$`).test(f)).length >= 4,
      `a linux-${arch} prebuild per tested Node major`);
  }
  assert.ok(!files.some((f) => f.startsWith('test/') || f.startsWith('build/')), 'no tests or build output');
});

function app(name) {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'package.json'), '{"name":"app","version":"1.0.0","private":true}');
  fs.writeFileSync(path.join(dir, 'app.js'), "console.log('app ran');\n");
  return dir;
}

function npmIn(dir, args, env = bare) {
  return spawnSync('npm', [...args, '--offline', '--no-audit', '--no-fund', '--loglevel=error'],
    { cwd: dir, env, encoding: 'utf8' });
}

function startResult(dir, env = bare) {
  return JSON.parse(execFileSync(process.execPath, ['-e',
    "console.log(JSON.stringify(require('eventboost').start({ device: '/nonexistent' })))"],
  { cwd: dir, env, encoding: 'utf8' }));
}

test('install without a compiler: the prebuild loads, the preload works', { timeout: 300000 }, () => {
  const dir = app('app');
  const r = npmIn(dir, ['install', tarball]);
  assert.strictEqual(r.status, 0, r.stderr);
  const installed = path.join(dir, 'node_modules', 'eventboost');
  assert.ok(!fs.existsSync(path.join(installed, 'build')), 'nothing was built');
  assert.match(startResult(dir).reason, /modprobe eventboost/, 'the prebuilt addon loads and answers');
  const p = spawnSync(process.execPath, ['-r', 'eventboost/register', 'app.js'],
    { cwd: dir, env: { ...bare, EVENTBOOST_DEVICE: '/nonexistent' }, encoding: 'utf8' });
  assert.strictEqual(p.status, 0, p.stderr);
  assert.strictEqual(p.stdout, 'app ran\n');
  assert.match(p.stderr, /^eventboost: inactive: .*modprobe eventboost/);
});

test('no prebuild fits and no compiler: the install succeeds, inert with a reason', { timeout: 300000 }, () => {
  const dir = app('app-nofit');
  assert.strictEqual(npmIn(dir, ['install', tarball]).status, 0);
  const installed = path.join(dir, 'node_modules', 'eventboost');
  fs.rmSync(path.join(installed, 'prebuilds'), { recursive: true });
  const r = npmIn(dir, ['rebuild', '--foreground-scripts', 'eventboost']);
  assert.strictEqual(r.status, 0, r.stderr);
  assert.match(r.stderr, /no prebuild fits .* the install goes on/s);
  const s = startResult(dir);
  assert.strictEqual(s.active, false);
  assert.match(s.reason, /no prebuild fits .*npm rebuild eventboost/);
});

// A prebuild that is there but does not load (a glibc older than the 2.34
// it needs: RHEL 8, Debian 11) is no prebuild: the install tries a source
// build, and says why when that fails too.
// An app with the tarball installed and this Node's prebuild replaced by
// a file that does not load.
function appWithBrokenPrebuild(name) {
  const dir = app(name);
  assert.strictEqual(npmIn(dir, ['install', tarball]).status, 0);
  const installed = path.join(dir, 'node_modules', 'eventboost');
  fs.writeFileSync(path.join(installed, 'prebuilds', `linux-${process.arch}`,
    `node.abi${process.versions.modules}.node`), 'not an ELF object\n');
  return { dir, installed };
}

test('a prebuild that does not load: the install tries a source build, inert with a reason', { timeout: 300000 }, () => {
  const { dir } = appWithBrokenPrebuild('app-noload');
  const r = npmIn(dir, ['rebuild', '--foreground-scripts', 'eventboost']);
  assert.strictEqual(r.status, 0, r.stderr);
  assert.match(r.stderr, /the prebuild .* does not load .*building it from source/s);
  assert.match(r.stderr, /building the native addon failed .* the install goes on/s);
  const s = startResult(dir);
  assert.strictEqual(s.active, false);
  assert.match(s.reason, /does not load .*npm rebuild eventboost/);
});

// The same with a compiler and this Node's headers: the source build
// replaces the prebuild that does not load, and the package answers.
test('a prebuild that does not load, a compiler there: the source build is used', { timeout: 600000 }, () => {
  const { dir, installed } = appWithBrokenPrebuild('app-noload-cc');
  const env = { HOME: process.env.HOME, PATH: `${bin}:/usr/bin:/bin` };
  const r = npmIn(dir, ['rebuild', '--foreground-scripts', 'eventboost'], env);
  assert.strictEqual(r.status, 0, r.stderr);
  assert.match(r.stderr, /does not load here .*building it from source/s);
  assert.ok(fs.existsSync(path.join(installed, 'build', 'Release', 'eventboost.node')), r.stderr);
  assert.match(startResult(dir, env).reason, /modprobe eventboost/, 'the addon built here loads and answers');
});
