'use strict';
// The addon uses V8's C++ API, which Node does not version-check: a binary
// built for another Node ABI must be refused (inert, with a reason), never
// loaded.  The prebuilds (scripts/prebuild.sh, run by `npm test`) give a
// binary of every tested ABI.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const pkg = path.resolve(__dirname, '../..');
const prebuilds = path.join(pkg, 'prebuilds', 'linux-x64');
const abi = process.versions.modules;

// A copy of the package's JavaScript with the given binaries.
function copy(binaries) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-abi-'));
  fs.cpSync(path.join(pkg, 'index.js'), path.join(dir, 'index.js'));
  fs.cpSync(path.join(pkg, 'lib'), path.join(dir, 'lib'), { recursive: true });
  for (const [from, to] of binaries) {
    fs.mkdirSync(path.dirname(path.join(dir, to)), { recursive: true });
    fs.copyFileSync(from, path.join(dir, to));
  }
  delete globalThis[Symbol.for('eventboost.instance')]; // a copy of its own, not the first's
  return require(dir);
}

test('a prebuild for each tested Node ABI is there', () => {
  const have = fs.readdirSync(prebuilds).filter((f) => /^node\.abi\d+\.node$/.test(f));
  assert.ok(have.length >= 4, `prebuilds: ${have.join(', ')}`);
  assert.ok(have.includes(`node.abi${abi}.node`));
});

test("this Node's prebuild is built for this Node", () => {
  // A prebuild named for one ABI but built against another Node's headers
  // is refused at run time: the package would be inert on that Node.
  const addon = require(path.join(prebuilds, `node.abi${abi}.node`));
  assert.strictEqual(String(addon.abi), abi, `prebuilds/linux-x64/node.abi${abi}.node is built for ABI ${addon.abi}`);
});

test('a build for another Node ABI is refused: inert, says to rebuild', () => {
  const other = fs.readdirSync(prebuilds).find((f) => /^node\.abi\d+\.node$/.test(f) && f !== `node.abi${abi}.node`);
  assert.ok(other, 'a binary of another ABI');
  const eb = copy([[path.join(prebuilds, other), 'build/Release/eventboost.node']]);
  const r = eb.start({ device: '/nonexistent' });
  assert.strictEqual(r.active, false);
  assert.match(r.reason, new RegExp(`built for another Node \\(ABI ${/\d+/.exec(other)[0]}\\), this is Node ${process.versions.node} \\(ABI ${abi}`));
  assert.match(r.reason, /npm rebuild eventboost/);
});

test('a stale build beside a fitting prebuild: the prebuild loads', () => {
  const other = fs.readdirSync(prebuilds).find((f) => /^node\.abi\d+\.node$/.test(f) && f !== `node.abi${abi}.node`);
  const eb = copy([[path.join(prebuilds, other), 'build/Release/eventboost.node'],
    [path.join(prebuilds, `node.abi${abi}.node`), `prebuilds/linux-x64/node.abi${abi}.node`]]);
  assert.match(eb.start({ device: '/nonexistent' }).reason, /modprobe eventboost/);
});

test('no binary at all: inert, says no prebuild fits and to rebuild', () => {
  const r = copy([]).start();
  assert.strictEqual(r.active, false);
  assert.match(r.reason, new RegExp(`not built and no prebuild fits Node ${process.versions.node} \\(ABI ${abi}, linux-x64\\); run 'npm rebuild eventboost'`));
});
