'use strict';
// Where the governor is absent the package must do nothing and say why.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const eventboost = require('../..');

test('no device: inactive, the reason says to load the module, stats say the same', () => {
  const r = eventboost.start({ device: '/nonexistent/eventboost' });
  assert.strictEqual(r.active, false);
  assert.match(r.reason, /modprobe eventboost/);
  const s = eventboost.stats();
  assert.strictEqual(s.active, false);
  assert.strictEqual(s.reason, r.reason);
  assert.strictEqual(s.kernel, null);
  assert.strictEqual(s.thread, null);
  assert.strictEqual(s.gc.boosts, 0);
  assert.strictEqual(s.queue.boosts, 0);
  assert.strictEqual(s.queue.bursts, null);
  assert.strictEqual(s.queue.headOfLine, null);
  assert.strictEqual(s.queue.queueFactor, null);
  assert.strictEqual(s.queue.sampleUs, null);
  assert.strictEqual(s.queue.maxDelayMs, null);
});

test('a device that is not eventboost: inactive, says so', () => {
  const r = eventboost.start({ device: '/dev/null' });
  assert.strictEqual(r.active, false);
  assert.match(r.reason, /not an eventboost device/);
});

test('no permission: inactive, names the group', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-'));
  const dev = path.join(dir, 'dev');
  fs.writeFileSync(dev, '', { mode: 0o600 });
  fs.chmodSync(dir, 0o755);
  // Root opens anything: ask as nobody then; a user, of a file it cannot open.
  const asRoot = process.getuid() === 0;
  if (!asRoot) fs.chmodSync(dev, 0o000);
  const r = spawnSync(process.execPath, ['-e',
    `console.log(JSON.stringify(require(${JSON.stringify(path.resolve(__dirname, '../..'))}).start({ device: ${JSON.stringify(dev)} })))`],
  { encoding: 'utf8', ...(asRoot ? { uid: 65534, gid: 65534 } : {}) });
  assert.strictEqual(r.status, 0, r.stderr);
  const res = JSON.parse(r.stdout);
  assert.strictEqual(res.active, false);
  assert.match(res.reason, /group/);
});

test('gc and queue both off still needs the device (boostFor only)', () => {
  const r = eventboost.start({ gc: false, queue: false, device: '/nonexistent' });
  assert.strictEqual(r.active, false);
  assert.match(r.reason, /modprobe eventboost/);
});

test('stop() before and after start() is harmless, and keeps why it was inactive', () => {
  eventboost.stop();
  eventboost.start({ device: '/nonexistent' });
  eventboost.stop();
  eventboost.stop();
  assert.strictEqual(eventboost.stats().active, false);
  assert.match(eventboost.stats().reason, /^stopped \(inactive before: \/nonexistent: no eventboost device at this path: .*modprobe/);
});

test('boostFor: validated, false while inactive', () => {
  eventboost.start({ device: '/nonexistent' });
  assert.strictEqual(eventboost.boostFor(1000), false);
  assert.throws(() => eventboost.boostFor(-1), RangeError);
  assert.throws(() => eventboost.boostFor(1.5), RangeError);
  assert.throws(() => eventboost.boostFor(10000001), /from 0 to 10000000/);
});

test('invalid options throw even where the device is missing', () => {
  assert.throws(() => eventboost.start({ queueFactor: -1 }), RangeError);
});

test('without the native addon: require works, start() says to rebuild', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-nobuild-'));
  fs.cpSync(path.join(__dirname, '../../index.js'), path.join(dir, 'index.js'));
  fs.cpSync(path.join(__dirname, '../../lib'), path.join(dir, 'lib'), { recursive: true });
  delete globalThis[Symbol.for('eventboost.instance')]; // a copy of its own, not the first's
  const eb = require(dir);
  const r = eb.start();
  assert.strictEqual(r.active, false);
  assert.match(r.reason, /npm rebuild eventboost/);
  assert.strictEqual(eb.stats().active, false);
});

test('addons disabled (--no-addons): inactive, and the reason says so, not to rebuild', () => {
  const pkg = JSON.stringify(path.resolve(__dirname, '../..'));
  const r = spawnSync(process.execPath, ['--no-addons', '-e',
    `console.log(require(${pkg}).start({ device: '/nonexistent' }).reason)`], { encoding: 'utf8' });
  assert.strictEqual(r.status, 0, r.stderr);
  assert.match(r.stdout, /native addons are disabled in this process \(--no-addons, or the permission model without --allow-addons\)/);
  assert.doesNotMatch(r.stdout, /npm rebuild/);
});

for (const [name, what] of [['EVENTBOOST_TEST_VOTE_DELAY_US', 'delays every Queue-Boost vote'],
  ['EVENTBOOST_TEST_SLEEP_DELAY_US', 'delays every Queue-Boost monitor sleep'],
  ['EVENTBOOST_TEST_WAKE_DELAY_US', 'delays every unboosted Queue-Boost monitor wake-up']]) {
  test(`the test-only ${name} draws one warning at start(), also when ignored`, () => {
    const pkg = JSON.stringify(path.resolve(__dirname, '../..'));
    const run = (v) => spawnSync(process.execPath, ['-e',
      `const eb = require(${pkg}); eb.start({ device: '/nonexistent' }); eb.start({ device: '/nonexistent' });`],
    { encoding: 'utf8', env: { ...process.env, [name]: v } });
    const set = run('300000');
    assert.strictEqual(set.status, 0, set.stderr);
    assert.strictEqual(set.stderr.match(new RegExp(`${name}=300000 ${what} by 300000`, 'g'))?.length, 1, set.stderr);
    const bad = run('soon');
    assert.match(bad.stderr, new RegExp(`${name}=soon is ignored`));
    for (const quiet of ['', '0']) assert.doesNotMatch(run(quiet).stderr, new RegExp(name));
  });
}
