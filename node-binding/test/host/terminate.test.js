'use strict';
// worker.terminate() stops a Worker's JavaScript wherever it is, also inside
// a native call of the addon: the call must end quietly, never abort the
// whole process (napi_throw fails while the Worker is being torn down).
const test = require('node:test');
const assert = require('node:assert');
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const pkg = path.resolve(__dirname, '../..');

// Workers that call start() and stats() in a loop (the device is missing, so
// both take their quick paths), each terminated at a random point.
const script = `
const { Worker } = require('node:worker_threads');
let ended = 0;
function one() {
  const w = new Worker(\`
    const eb = require(${JSON.stringify(pkg)});
    require('node:worker_threads').parentPort.postMessage('looping');
    for (;;) { eb.start({ device: '/nonexistent/eventboost' }); eb.stats(); }
  \`, { eval: true });
  w.once('message', () => setTimeout(() => w.terminate(), Math.random() * 5));
  w.once('exit', () => { if (++ended < 30) one(); else console.log('terminated', ended); });
}
one();
`;

test('terminating Workers inside start() and stats() leaves the process running', { timeout: 240000 }, () => {
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  assert.doesNotMatch(r.stderr, /FATAL ERROR/);
  assert.strictEqual(r.signal, null, r.stderr);
  assert.strictEqual(r.status, 0, r.stderr);
  assert.strictEqual(r.stdout, 'terminated 30\n');
});
