'use strict';
// The linux-arm64 prebuild (scripts/prebuild.sh cross-builds it) on the
// arm64 Node of this Node's major, run under qemu-user: the package loads
// that prebuild, not a source build, and is inert where it cannot act.
// qemu-user runs arm64 user space on this kernel, without the eventboost
// module, so the active path (GC hooks, queue monitor, the hints) is never
// reached here: it is tested on x64 in the guests alone.  Missing qemu-user
// or a missing prebuild fails this test, never skips it.
const test = require('node:test');
const assert = require('node:assert');
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const pkg = path.resolve(__dirname, '../..');
const abi = process.versions.modules;
const major = process.versions.node.split('.')[0];
const prebuild = path.join(pkg, 'prebuilds', 'linux-arm64', `node.abi${abi}.node`);
const x64 = path.join(pkg, 'prebuilds', 'linux-x64', `node.abi${abi}.node`);
const root = '/usr/aarch64-linux-gnu'; // the arm64 loader and libc (libc6-arm64-cross)
const TOOLS = 'a cross compiler and qemu-user (Debian: apt-get install g++-aarch64-linux-gnu qemu-user)';

// The newest GLIBC_x.y a binary asks for (its version needs in .dynstr).
function glibc(file) {
  const v = [...fs.readFileSync(file, 'latin1').matchAll(/GLIBC_(\d+)\.(\d+)(?:\.(\d+))?\0/g)]
    .map((m) => [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)]);
  v.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  return v.at(-1);
}

test('the linux-arm64 prebuild for this ABI: a 64-bit AArch64 ELF, no newer glibc than x64\'s', () => {
  assert.ok(fs.existsSync(prebuild), `${prebuild} is missing: run scripts/prebuild.sh, which needs ${TOOLS}`);
  const h = fs.readFileSync(prebuild).subarray(0, 20);
  assert.deepStrictEqual([...h.subarray(0, 5)], [0x7f, 0x45, 0x4c, 0x46, 2], 'a 64-bit ELF');
  assert.strictEqual(h.readUInt16LE(18), 183, 'e_machine EM_AARCH64');
  const arm = glibc(prebuild);
  const amd = glibc(x64);
  assert.ok(arm && amd, 'both name their glibc versions');
  assert.ok(arm[0] < amd[0] || (arm[0] === amd[0] && arm[1] <= amd[1]),
    `the arm64 prebuild needs GLIBC_${arm.join('.')}, x64's GLIBC_${amd.join('.')}`);
});

// One arm64 Node process does everything (qemu-user starts a Node in about a second).
const probe = `
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Worker } = require('node:worker_threads');
const pkg = ${JSON.stringify(pkg)};
const out = { arch: process.arch, abi: process.versions.modules };
const eb = require(pkg);
out.loaded = Object.keys(require.cache).filter((f) => f.endsWith('.node'));
out.missing = eb.start({ device: '/nonexistent/eventboost' });
out.notOurs = eb.start({ device: '/dev/null' });
delete process.env.EVENTBOOST_DEVICE;
out.plain = eb.start();
// GC-Boost asked for: still inert, and GCs pass unhooked.
out.gcStart = eb.start({ gc: true, queue: true, device: '/nonexistent/eventboost' });
let keep = [];
for (let i = 0; i < 200000; i++) { keep.push({ i, s: 'x'.repeat(i % 64) }); if (keep.length > 5000) keep = []; }
globalThis.gc();
out.stats = eb.stats();
out.boostFor = eb.boostFor(1000);
eb.stop();
eb.stop();
out.stopped = eb.stats().active;
// The package without any binary says which platform and arch it looked for.
const bare = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-arm64-'));
fs.cpSync(path.join(pkg, 'index.js'), path.join(bare, 'index.js'));
fs.cpSync(path.join(pkg, 'lib'), path.join(bare, 'lib'), { recursive: true });
delete globalThis[Symbol.for('eventboost.instance')]; // a copy of its own, not the first's
out.bare = require(bare).start();
fs.rmSync(bare, { recursive: true });
// A Worker loads the addon for its own environment.
const w = new Worker('const eb = require(' + JSON.stringify(pkg) + ');' +
  "require('node:worker_threads').parentPort.postMessage(eb.start({ device: '/nonexistent/eventboost' }));",
{ eval: true });
w.once('message', (m) => { out.worker = m; });
w.once('exit', (code) => { out.workerExit = code; console.log(JSON.stringify(out)); });
`;

let res = null;
test(`under qemu-user, the arm64 Node ${major} loads the package`, { timeout: 120000 }, () => {
  const qemu = spawnSync('qemu-aarch64', ['--version'], { encoding: 'utf8' });
  assert.ok(!qemu.error && qemu.status === 0, `qemu-aarch64 does not run (${qemu.error?.code ?? qemu.stderr}): this test needs ${TOOLS}`);
  assert.ok(fs.existsSync(path.join(root, 'lib', 'ld-linux-aarch64.so.1')),
    `${root}/lib/ld-linux-aarch64.so.1 is missing (libc6-arm64-cross): this test needs ${TOOLS}`);
  // The arm64 Node of this major, from the same cache prebuild.sh used.
  const home = execFileSync(path.join(pkg, 'scripts', 'node-home.sh'), [major],
    { env: { ...process.env, EB_NODE_ARCH: 'arm64' }, encoding: 'utf8' }).trim();
  const r = spawnSync('qemu-aarch64', ['-L', root, path.join(home, 'bin', 'node'), '--expose-gc', '-e', probe],
    { cwd: pkg, encoding: 'utf8', timeout: 100000 });
  assert.strictEqual(r.status, 0, `the arm64 Node under qemu-user: ${r.error ?? ''}${r.stderr}`);
  res = JSON.parse(r.stdout);
  assert.strictEqual(res.arch, 'arm64');
  assert.strictEqual(res.abi, abi);
});

test('it loaded prebuilds/linux-arm64, nothing else', () => {
  assert.ok(res, 'the arm64 run above');
  assert.deepStrictEqual(res.loaded, [prebuild]);
});

test('inert where it cannot act: start() says why, the addon answers', () => {
  assert.ok(res, 'the arm64 run above');
  // The native addon's errno (without the addon the reason says to rebuild).
  assert.deepStrictEqual(res.missing, {
    active: false, errno: -2, code: 'ENOENT',
    reason: '/nonexistent/eventboost: ' +
      "no eventboost device at this path: check the path, or load the module (run 'sudo modprobe eventboost'); " +
      'in a container, pass the device (--device /dev/eventboost)',
  });
  // Not an eventboost device: ENOTTY on arm64 hardware; qemu-user refuses
  // an ioctl it does not know with ENOSYS before the kernel sees it.
  assert.strictEqual(res.notOurs.active, false);
  assert.ok(['ENOTTY', 'ENOSYS'].includes(res.notOurs.code), JSON.stringify(res.notOurs));
  // The default device: missing here, or (qemu-user again) not usable.
  assert.strictEqual(res.plain.active, false);
  assert.ok(typeof res.plain.reason === 'string' && res.plain.reason.length > 0);
  assert.doesNotMatch(res.plain.reason, /npm rebuild/);
});

test('GC-Boost asked for, inert: GCs run unhooked, stats() and boostFor() answer', () => {
  assert.ok(res, 'the arm64 run above');
  assert.strictEqual(res.gcStart.active, false);
  assert.match(res.gcStart.reason, /modprobe eventboost/);
  const s = res.stats;
  assert.strictEqual(s.active, false);
  assert.strictEqual(s.reason, res.gcStart.reason);
  assert.strictEqual(s.thread, null);
  assert.strictEqual(s.kernel, null);
  assert.strictEqual(s.gc.enabled, false);
  assert.strictEqual(s.gc.count, 0);
  assert.strictEqual(s.queue.samples, 0);
  assert.strictEqual(res.boostFor, false);
  assert.strictEqual(res.stopped, false);
});

test('without a binary: no prebuild fits linux-arm64, says to rebuild', () => {
  assert.ok(res, 'the arm64 run above');
  assert.strictEqual(res.bare.active, false);
  assert.match(res.bare.reason, new RegExp(`no prebuild fits Node \\d+\\.\\d+\\.\\d+ \\(ABI ${abi}, linux-arm64\\); run 'npm rebuild eventboost'`));
});

test('a Worker loads the arm64 prebuild too', () => {
  assert.ok(res, 'the arm64 run above');
  assert.strictEqual(res.workerExit, 0);
  assert.strictEqual(res.worker.active, false);
  assert.match(res.worker.reason, /modprobe eventboost/);
});
