'use strict';
// index.d.ts: correct uses compile, wrong ones are rejected.
const test = require('node:test');
const assert = require('node:assert');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const tsc = require.resolve('typescript/bin/tsc');
const pkg = path.resolve(__dirname, '../..');

function compile(src) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-ts-'));
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.symlinkSync(pkg, path.join(dir, 'node_modules', 'eventboost'));
  fs.writeFileSync(path.join(dir, 'a.ts'), src);
  const r = spawnSync(process.execPath, [tsc, '--noEmit', '--strict', '--skipLibCheck',
    '--module', 'node16', '--moduleResolution', 'node16', 'a.ts'], { cwd: dir, encoding: 'utf8' });
  return { code: r.status, out: r.stdout + r.stderr };
}

test('the documented API type-checks', () => {
  const r = compile(`import * as eb from 'eventboost';
const r: eb.StartResult = eb.start({ gc: ['scavenge', 'mark-compact'], queue: true, queueFactor: 2.5, sampleUs: 1000, headOfLine: 'waiting', bursts: 'threshold' });
if (!r.active) { const why: string | null = r.reason; void why; }
const s = eb.stats();
const n: number = s.gc.boosts + s.queue.boosts + (s.kernel ? s.kernel.hints.gc : 0);
const k: eb.GcKind = eb.GC_KINDS[0];
void n; void k; eb.stop();
const pauses = ['scavenge', 'mark-compact'] as const;
eb.start({ gc: pauses });
eb.start({ gc: eb.GC_KINDS });
const ro: readonly eb.GcKind[] = eb.GC_KINDS;
const e: number = r.errno; const c: string | null = r.code;
void ro; void e; void c;
`);
  assert.strictEqual(r.code, 0, r.out);
});

test('wrong option types are compile errors', () => {
  const r = compile(`import * as eb from 'eventboost';\neb.start({ queueFactor: '2' });\neb.start({ gc: ['full'] });\neb.start({ headOfLine: 'never' });\neb.start({ bursts: 'late' });\n`);
  assert.notStrictEqual(r.code, 0);
  assert.match(r.out, /a.ts\(4,\d+\): error TS2322: Type '"never"' is not assignable to type '"always" \| "waiting"/);
  assert.match(r.out, /a.ts\(2,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/);
  assert.match(r.out, /"full"/);
  assert.match(r.out, /a.ts\(5,\d+\): error TS2322: Type '"late"' is not assignable to type '"arrival" \| "threshold"/);
});
