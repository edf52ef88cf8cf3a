'use strict';
// Runs a script in a Node child with fake-device.c preloaded: the eventboost
// ioctls answered on a regular file (EB_FAKE_DEVICE), as the module would,
// where no module can load.  The script prints one JSON line.
const { execFileSync, spawnSync } = require('node:child_process');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

// (real: the fake device compares the path /proc/self/fd shows)
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'eb-fake-')));
const shim = path.join(tmp, 'fake-device.so');
const dev = path.join(tmp, 'eventboost');
fs.writeFileSync(dev, '');
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));
execFileSync('cc', ['-O2', '-Wall', '-shared', '-fPIC', '-I', path.resolve(__dirname, '../../../uapi'),
  '-o', shim, path.resolve(__dirname, '../../../userlib/tests/fake-device.c'), '-ldl']);

function runFake(script, env = {}) {
  const r = spawnSync(process.execPath, ['-e', script], {
    encoding: 'utf8', timeout: 60000,
    env: { PATH: process.env.PATH, LD_PRELOAD: shim, EB_FAKE_DEVICE: dev, EB_PKG: path.resolve(__dirname, '../..'), ...env },
  });
  assert.strictEqual(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

// The environment that makes `device` (a real path, which need not exist
// yet) a fake eventboost device in a child, for a test that spawns its own.
function fakeEnv(device) {
  return { LD_PRELOAD: shim, EB_FAKE_DEVICE: device };
}

module.exports = { runFake, fakeEnv, fakeDevice: dev };
