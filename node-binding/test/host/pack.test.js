'use strict';
// `npm pack` gives a tarball a user can install anywhere: it carries
// libeventboost's sources and builds the addon on install.
const test = require('node:test');
const assert = require('node:assert');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const pkg = path.resolve(__dirname, '../..');

test('npm pack, then npm install of the tarball into an application', { timeout: 300000 }, () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-pack-'));
  const out = execFileSync(npm, ['pack', '--json', '--pack-destination', tmp],
    { cwd: pkg, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const [info] = JSON.parse(out);
  const files = info.files.map((f) => f.path);
  for (const f of ['index.js', 'index.d.ts', 'register.js', 'binding.gyp', 'lib/options.js',
    'src/addon.cc', 'deps/libeventboost/libeventboost.c', 'deps/libeventboost/eventboost.h',
    'deps/uapi/linux/eventboost.h', 'scripts/build.js']) {
    assert.ok(files.includes(f), `${f} is in the tarball`);
  }
  assert.ok(!files.some((f) => f.startsWith('test/') || f.startsWith('build/')), 'no tests or build output');

  const app = path.join(tmp, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), '{"name":"app","version":"1.0.0","private":true}');
  execFileSync(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error',
    path.join(tmp, info.filename)], { cwd: app, stdio: ['ignore', 'ignore', 'inherit'] });
  const r = JSON.parse(execFileSync(process.execPath, ['-e',
    "console.log(JSON.stringify(require('eventboost').start({ device: '/nonexistent' })))"],
  { cwd: app, encoding: 'utf8' }));
  assert.strictEqual(r.active, false);
  assert.match(r.reason, /modprobe eventboost/, 'the installed addon loads and answers');
});
