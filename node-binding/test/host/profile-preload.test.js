'use strict';
// eventboost/profile as a preload: -r and --import, no code change, the
// application's own behaviour (output, exit code) unchanged, the
// environment validated, the report written at exit or after
// EVENTBOOST_PROFILE_SECONDS, sampling.
const test = require('node:test');
const assert = require('node:assert');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

// An application folder that depends on eventboost, as a user's would.
const app = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-profile-app-'));
fs.mkdirSync(path.join(app, 'node_modules'));
fs.symlinkSync(path.resolve(__dirname, '../..'), path.join(app, 'node_modules', 'eventboost'));
test.after(() => fs.rmSync(app, { recursive: true, force: true }));
// A server that asks itself N requests, one after the other, then ends
// with exit code 7 -- or, with WAIT_FOR, first waits for that file.
const body = `
const server = http.createServer((req, res) => setImmediate(() => res.end('ok')));
server.listen(0, '127.0.0.1', async () => {
  const agent = new http.Agent({ keepAlive: true });
  const n = Number(process.env.N || 40);
  for (let i = 0; i < n; i++) {
    await new Promise((r) => http.get({ host: '127.0.0.1', port: server.address().port, path: '/' + i, agent },
      (res) => { res.resume(); res.on('end', r); }));
  }
  agent.destroy();
  server.close();
  const w = process.env.WAIT_FOR;
  if (w) { for (let k = 0; k < 200 && !fs.existsSync(w); k++) await new Promise((r) => setTimeout(r, 100)); console.log('report seen', fs.existsSync(w)); }
  if (process.env.SHOW_KEPT) {
    // What the profiler still holds once its timed report is written.
    await new Promise((r) => setTimeout(r, 200));
    const p = globalThis[Symbol.for('eventboost.profile')];
    console.log('kept', p.rows.length + p.slowest.length + p.rec.finished.length + p.rec.idle.length + p.rec.gc.length);
  }
  console.log('app ran');
  process.exitCode = 7;
});
`;
fs.writeFileSync(path.join(app, 'app.js'), `const http = require('node:http'); const fs = require('node:fs');\n${body}`);
fs.writeFileSync(path.join(app, 'app.mjs'), `import http from 'node:http'; import fs from 'node:fs';\n${body}`);

function run(args, env = {}) {
  const r = spawnSync(process.execPath, args, {
    cwd: app, encoding: 'utf8', timeout: 60000, env: { PATH: process.env.PATH, ...env },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const read = (f) => JSON.parse(fs.readFileSync(path.join(app, f), 'utf8'));

test('node -r eventboost/profile: default report beside the app, application unchanged', () => {
  fs.rmSync(path.join(app, 'eventboost-profile.json'), { force: true });
  const r = run(['-r', 'eventboost/profile', 'app.js']);
  assert.deepStrictEqual(r, { code: 7, out: 'app ran\n', err: '' });
  const rep = read('eventboost-profile.json');
  assert.strictEqual(rep.requests, 40);
  assert.ok(['gc', 'cpu', 'io'].includes(rep.verdict.cause));
  assert.ok(['gc', 'queue', 'gc+queue', 'none'].includes(rep.verdict.boost));
  assert.match(fs.readFileSync(path.join(app, 'eventboost-profile.html'), 'utf8'), /^<!doctype html>[^]*<svg/);
});

test('node --import eventboost/profile with an ES module application', () => {
  const r = run(['--import', 'eventboost/profile', 'app.mjs'], { EVENTBOOST_PROFILE_OUT: 'esm/out.json' });
  assert.deepStrictEqual(r, { code: 7, out: 'app ran\n', err: '' });
  assert.strictEqual(read('esm/out.json').requests, 40);
  assert.ok(fs.existsSync(path.join(app, 'esm/out.html')));
});

test('EVENTBOOST_PROFILE_SECONDS: the report is written while the application still runs', () => {
  const out = path.join(app, 'timed.json');
  fs.rmSync(out, { force: true });
  const r = run(['-r', 'eventboost/profile', 'app.js'],
    { EVENTBOOST_PROFILE_OUT: out, EVENTBOOST_PROFILE_SECONDS: '0.5', WAIT_FOR: out, SHOW_KEPT: '1' });
  assert.strictEqual(r.code, 7);
  // Written, then nothing kept: no cost afterwards, in memory either.
  assert.strictEqual(r.out, 'report seen true\nkept 0\napp ran\n');
  assert.match(r.err, /^eventboost: profile of \d+ requests \(0\.5 s\): tail is (gc|cpu|io), boost/);
  assert.strictEqual(r.err.split('\n').filter(Boolean).length, 1);
});

test('EVENTBOOST_PROFILE_SAMPLE profiles that fraction of the requests', () => {
  const r = run(['-r', 'eventboost/profile', 'app.js'],
    { EVENTBOOST_PROFILE_OUT: 'sampled.json', EVENTBOOST_PROFILE_SAMPLE: '0.25', N: '400' });
  assert.strictEqual(r.code, 7);
  const rep = read('sampled.json');
  assert.strictEqual(rep.seenRequests, 400);
  assert.strictEqual(rep.sample, 0.25);
  // Binomial(400, 0.25): mean 100, sd ~8.7; 40 .. 160 is ~7 sd either side.
  assert.ok(rep.requests > 40 && rep.requests < 160, `${rep.requests} profiled`);
});

test('a bad variable: one line naming it, application unchanged and unprofiled', () => {
  for (const [env, re] of [[{ EVENTBOOST_PROFILE_SAMPLE: '2' }, /EVENTBOOST_PROFILE_SAMPLE must be a fraction/],
    [{ EVENTBOOST_PROFILE_SAMPLE: 'x' }, /EVENTBOOST_PROFILE_SAMPLE must be a fraction/],
    [{ EVENTBOOST_PROFILE_SECONDS: '-1' }, /EVENTBOOST_PROFILE_SECONDS must be a number of seconds/],
    [{ EVENTBOOST_PROFILE_OUT: '' }, /EVENTBOOST_PROFILE_OUT must be a file name/],
    // Said at the start, not at exit after a whole profiled run (until
    // 2026-12-08: "cannot write the profile: EISDIR", the run lost).
    [{ EVENTBOOST_PROFILE_OUT: os.tmpdir() }, /EVENTBOOST_PROFILE_OUT names a directory/]]) {
    fs.rmSync(path.join(app, 'eventboost-profile.json'), { force: true });
    const r = run(['-r', 'eventboost/profile', 'app.js'], env);
    assert.strictEqual(r.code, 7);
    assert.strictEqual(r.out, 'app ran\n');
    assert.strictEqual(r.err.split('\n').filter(Boolean).length, 1, r.err);
    assert.match(r.err, re);
    assert.match(r.err, /running without the profiler/);
    assert.ok(!fs.existsSync(path.join(app, 'eventboost-profile.json')));
  }
});

test('no HTTP server: an empty report, nothing else changes', () => {
  fs.writeFileSync(path.join(app, 'plain.js'), "console.log('plain'); process.exitCode = 3;\n");
  const r = run(['-r', 'eventboost/profile', 'plain.js'], { EVENTBOOST_PROFILE_OUT: 'plain.json' });
  assert.deepStrictEqual(r, { code: 3, out: 'plain\n', err: '' });
  const rep = read('plain.json');
  assert.strictEqual(rep.requests, 0);
  assert.deepStrictEqual(rep.verdict.boost, 'none');
});

// Each cluster worker writes a report of its own, NAME.<pid>.json, beside
// the primary's NAME.json (until 2026-12-06 the worker and the primary both
// wrote NAME.json: Node removes NODE_UNIQUE_ID before the preloads run).
test('cluster: each worker writes its own report', () => {
  fs.writeFileSync(path.join(app, 'cluster-app.js'), `
const cluster = require('node:cluster');
const http = require('node:http');
if (cluster.isPrimary) {
  const w = cluster.fork();
  w.on('message', (port) => {
    let left = 5;
    for (let i = 0; i < 5; i++) {
      http.get({ host: '127.0.0.1', port, path: '/' + i, agent: false }, (res) => {
        res.resume();
        res.on('end', () => { if (--left === 0) w.disconnect(); });
      });
    }
  });
  w.on('exit', () => console.log('worker ' + w.process.pid));
} else {
  const s = http.createServer((req, res) => res.end('ok')).listen(0, '127.0.0.1', () => process.send(s.address().port));
}
`);
  for (const f of fs.readdirSync(app)) if (f.startsWith('cprof')) fs.rmSync(path.join(app, f));
  const r = run(['-r', 'eventboost/profile', 'cluster-app.js'], { EVENTBOOST_PROFILE_OUT: 'cprof.json' });
  assert.strictEqual(r.err, '');
  const pid = (/^worker (\d+)\n$/.exec(r.out) || assert.fail(r.out))[1];
  assert.strictEqual(read(`cprof.${pid}.json`).requests, 5, "the worker's report");
  assert.strictEqual(read('cprof.json').requests, 0, "the primary's: it served nothing");
  assert.ok(fs.existsSync(path.join(app, `cprof.${pid}.html`)));
});

// A process the profiled one forks (child_process.fork() passes the
// preload on, and the environment) writes a report of its own, as a
// cluster worker does, not over the parent's: until 2026-12-08 a job runner
// forked by a server replaced the server's report with its empty one.
test('a forked child writes its own report, not over its parent\'s', () => {
  fs.writeFileSync(path.join(app, 'fork-app.js'), `
const { fork } = require('node:child_process');
const http = require('node:http');
if (process.argv[2] === 'child') {
  setTimeout(() => {}, 300);
} else {
  const s = http.createServer((req, res) => res.end('ok')).listen(0, '127.0.0.1', async () => {
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => http.get({ host: '127.0.0.1', port: s.address().port, path: '/' + i, agent: false },
        (res) => { res.resume(); res.on('end', r); }));
    }
    s.close();
    const c = fork(__filename, ['child']);
    c.on('exit', () => console.log('child ' + c.pid));
  });
}
`);
  for (const f of fs.readdirSync(app)) if (f.startsWith('fprof')) fs.rmSync(path.join(app, f));
  const r = run(['-r', 'eventboost/profile', 'fork-app.js'], { EVENTBOOST_PROFILE_OUT: 'fprof.json' });
  assert.strictEqual(r.err, '');
  const pid = (/^child (\d+)\n$/.exec(r.out) || assert.fail(r.out))[1];
  assert.strictEqual(read('fprof.json').requests, 5, "the parent's report");
  assert.strictEqual(read(`fprof.${pid}.json`).requests, 0, "the child's: it served nothing");
  // A process that inherited the variable from elsewhere (a shell) but was
  // not started by that process writes NAME.json, as the first one.
  fs.rmSync(path.join(app, 'fprof.json'));
  const stale = run(['-r', 'eventboost/profile', 'fork-app.js'],
    { EVENTBOOST_PROFILE_OUT: 'fprof.json', EVENTBOOST_PROFILE_OWNER: `${process.pid}:0` });
  assert.strictEqual(stale.err, '');
  assert.strictEqual(read('fprof.json').requests, 5, 'a stale owner is no parent');
});

// An application whose signal handler re-raises the signal only when it is
// the last listener (signal-exit, which execa, write-file-atomic, ora and
// foreground-child use, does so) still dies of the signal: the profiler's
// own handler writes the report and steps aside, so that the application's
// sees the listeners it would see unprofiled.  Until 2026-12-08 each saw the
// other and neither re-raised: Ctrl-C did nothing, docker stop waited out
// its grace period.  The profiler's report is written all the same.
test('a signal the application re-raises when alone still ends it, with the report written', async () => {
  const { spawn } = require('node:child_process');
  fs.writeFileSync(path.join(app, 'reraise.js'), `
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, function onSignal() {
    if (process.listeners(sig).length === 1) {
      process.removeListener(sig, onSignal);
      process.kill(process.pid, sig);
    }
  });
}
setInterval(() => {}, 1000);
console.log('ready');
`);
  for (const sig of ['SIGINT', 'SIGTERM']) {
    const out = `reraise-${sig}.json`;
    fs.rmSync(path.join(app, out), { force: true });
    const child = spawn(process.execPath, ['-r', 'eventboost/profile', 'reraise.js'], {
      cwd: app, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, EVENTBOOST_PROFILE_OUT: out },
    });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    await new Promise((resolve) => child.stdout.once('data', resolve));
    const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    child.kill(sig);
    // A child the signal did not end is ended here, and the test fails.
    const guard = setTimeout(() => child.kill('SIGKILL'), 10000);
    const how = await exited;
    clearTimeout(guard);
    assert.deepStrictEqual(how, { code: null, signal: sig }, stderr);
    assert.strictEqual(read(out).requests, 0);
  }
});

// An application that handles a signal itself keeps control of it, and the
// profiler's handler is back, first, for the next one: here a handler that
// re-raises when alone (added first) and one that takes the first SIGINT
// only.  Unprofiled the first is handled and the second ends the process;
// so it must be profiled (until the review of 2026-12-08 the handler came
// back last, behind the re-raiser, and the second signal did nothing).
test('an application that handles a signal keeps control, and the next one still ends it', async () => {
  const { spawn } = require('node:child_process');
  fs.writeFileSync(path.join(app, 'handles.js'), `
process.on('SIGINT', function onSignal() {
  if (process.listeners('SIGINT').length === 1) {
    process.removeListener('SIGINT', onSignal);
    process.kill(process.pid, 'SIGINT');
  }
});
process.once('SIGINT', () => console.log('handled'));
setInterval(() => {}, 1000);
console.log('ready');
`);
  const out = 'handles.json';
  fs.rmSync(path.join(app, out), { force: true });
  const child = spawn(process.execPath, ['-r', 'eventboost/profile', 'handles.js'], {
    cwd: app, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, EVENTBOOST_PROFILE_OUT: out },
  });
  let stdout = '';
  const waits = [];
  child.stdout.on('data', (d) => {
    stdout += d;
    for (const w of waits.splice(0)) w();
  });
  const lines = async (n) => {
    while (stdout.split('\n').filter(Boolean).length < n) await new Promise((resolve) => waits.push(resolve));
  };
  await lines(1);
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  child.kill('SIGINT');
  await lines(2);
  assert.ok(fs.existsSync(path.join(app, out)), 'the report is written at the first signal');
  child.kill('SIGINT');
  // A child the second signal did not end is ended here, and the test fails.
  const guard = setTimeout(() => child.kill('SIGKILL'), 10000);
  const how = await exited;
  clearTimeout(guard);
  assert.deepStrictEqual({ how, stdout }, { how: { code: null, signal: 'SIGINT' }, stdout: 'ready\nhandled\n' });
});
