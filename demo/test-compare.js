'use strict';
// demo/compare.js against pairs of known distribution: a change it calls
// resolved is one a 95% interval should resolve.  node demo/test-compare.js
const assert = require('node:assert/strict');
const { rng } = require('../experiment/loadgen');
const { pairedChange, describe, changesPrinted } = require('./compare');

// Normal draws (Box-Muller) from a seeded generator: the test is the same
// every time.
const rand = rng(7);
const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
// A run's figure; a list of runs' figure is their mean (the overload's
// throughput and p99, report.js).
const figure = (runs) => runs.reduce((a, r) => a + r.v, 0) / runs.length;
// @n pairs whose on run is off's times exp(@shift + noise): the log ratio
// of a pair is normal with SD @sd.
function pairs(n, shift, sd) {
  return Array.from({ length: n }, () => {
    const off = 100 * Math.exp(0.5 * normal());
    return { off: { v: off }, on: { v: off * Math.exp(shift + sd * normal()) } };
  });
}
let failed = 0;
function test(name, fn) {
  try {
    fn();
    console.log(`ok - ${name}`);
  } catch (e) {
    failed++;
    console.log(`not ok - ${name}\n  ${e.message.split('\n').join('\n  ')}`);
  }
}

// A heavy-tailed noise: one pair in seven four times as noisy (as a demo's
// open loop, whose worst run can hold twice the others' p99).
const heavy = () => normal() * (rand() < 1 / 7 ? 4 : 1);
// How many of @sets sets of @n no-change pairs @method calls lower and
// higher.
function nullRate(method, n, sets, noise = normal) {
  const r = { lower: 0, higher: 0 };
  for (let i = 0; i < sets; i++) {
    const ps = Array.from({ length: n }, () => {
      const off = 100 * Math.exp(0.5 * normal());
      return { off: { v: off }, on: { v: off * Math.exp(0.6 * noise()) } };
    });
    const v = method(ps, figure).verdict;
    if (v) r[v]++;
  }
  return r;
}
const share = (r, sets) => `lower ${r.lower}, higher ${r.higher} of ${sets}`;

// The method the report used until 2026-12-04, kept as the test's control:
// a percentile bootstrap of the pooled figures over the pairs.
function pooledBootstrap(ps, stat) {
  const change = (xs) => stat(xs.map((p) => p.on)) / stat(xs.map((p) => p.off)) - 1;
  const r = rng(1);
  const bs = Array.from({ length: 2000 }, () => change(ps.map(() => ps[Math.floor(r() * ps.length)]))).sort((a, b) => a - b);
  const lo = bs[49];
  const hi = bs[1949];
  return { verdict: hi < 0 ? 'lower' : lo > 0 ? 'higher' : null };
}

for (const n of [4, 8]) {
  test(`no change, normal noise: ${n} pairs resolve 4-6% of 4000 sets, at most 3.5% either way (a 95% interval: 5%, 2.5%)`, () => {
    const r = nullRate(pairedChange, n, 4000);
    const all = (r.lower + r.higher) / 4000;
    assert.ok(all >= 0.04 && all <= 0.06 && r.lower <= 140 && r.higher <= 140, share(r, 4000));
    console.log(`# ${share(r, 4000)}`);
  });
}

test('no change, heavy-tailed noise: 4 pairs resolve at most 3.5% of 4000 sets either way', () => {
  const r = nullRate(pairedChange, 4, 4000, heavy);
  assert.ok(r.lower <= 140 && r.higher <= 140, share(r, 4000));
  console.log(`# ${share(r, 4000)}`);
});

test('control: the bootstrap the report used until 2026-12-04 fails the band (it resolves over 7% of no-change sets)', () => {
  const r = nullRate(pooledBootstrap, 4, 1000);
  assert.ok(r.lower + r.higher > 70, share(r, 1000));
  console.log(`# ${share(r, 1000)}`);
});

test("an overload-sized change (every pair about -30%, SD 0.1 in log) is resolved lower by 4 pairs in 95% of 1000 sets", () => {
  let lower = 0;
  for (let i = 0; i < 1000; i++) if (pairedChange(pairs(4, Math.log(0.7), 0.1), figure).verdict === 'lower') lower++;
  assert.ok(lower >= 950, `lower in ${lower} of 1000`);
});

// A demo's report of no change at all: its open loop's three sides (p99 and
// mean, each side's run its pair's figure times its own noise, the mean
// moving with the p99) and its overload's two (throughput and p99).
function nullReport() {
  const side = (base) => ({ v: base * Math.exp(0.6 * normal()), m: 0 });
  const service = Array.from({ length: 4 }, () => {
    const base = 100 * Math.exp(0.5 * normal());
    const p = { off: side(base), gov: side(base), on: side(base) };
    for (const s of ['off', 'gov', 'on']) p[s].m = p[s].v * Math.exp(0.3 * normal());
    return p;
  });
  const overload = Array.from({ length: 4 }, () => {
    const base = 50 * Math.exp(0.3 * normal());
    return { off: { v: base, m: 500 }, on: { v: base * Math.exp(0.05 * normal()), m: 500 * Math.exp(0.2 * normal()) } };
  });
  return { service, overload };
}
const meanFigure = (runs) => runs.reduce((a, r) => a + r.m, 0) / runs.length;
// Whether a report of @d, each change's interval for a family of @family,
// calls any of its changes resolved (as report.js prints them).
function anyResolved(d, family) {
  const changes = [];
  for (const [a, b] of [['on', 'off'], ['gov', 'off'], ['on', 'gov']]) {
    for (const stat of [figure, meanFigure]) changes.push(pairedChange(d.service, stat, a, b, family));
  }
  for (const stat of [figure, meanFigure]) changes.push(pairedChange(d.overload, stat, 'on', 'off', family));
  return changes.some((c) => c.verdict);
}

test('a report counts the changes it prints: 2 per side compared, the governor alone adds 4', () => {
  const d = nullReport();
  assert.equal(changesPrinted(d), 8);
  assert.equal(changesPrinted({ service: d.service.map(({ off, on }) => ({ off, on })), overload: d.overload }), 4);
  assert.equal(changesPrinted({ service: [], overload: d.overload }), 2);
  assert.equal(changesPrinted({ service: d.service, overload: [] }), 6);
});

test('a demo of no change calls any of its 8 changes resolved in at most 5.5% of 2000 reports (simultaneous intervals); at 95% each, in over 15%', () => {
  let family = 0;
  let each = 0;
  for (let i = 0; i < 2000; i++) {
    const d = nullReport();
    if (anyResolved(d, changesPrinted(d))) family++;
    if (anyResolved(d, 1)) each++;
  }
  assert.ok(family <= 110, `${family} of 2000 with the report's family`);
  assert.ok(each > 300, `${each} of 2000 with each at 95%`);
  console.log(`# any change resolved: ${family} of 2000 reports (simultaneous), ${each} (each at 95%)`);
});

test("at a report's family of 8, an overload-sized change as the committed runs' (-30%, SD 0.05 in log) is resolved lower by 4 pairs in 97% of 1000 sets", () => {
  let lower = 0;
  for (let i = 0; i < 1000; i++) if (pairedChange(pairs(4, Math.log(0.7), 0.05), figure, 'on', 'off', 8).verdict === 'lower') lower++;
  assert.ok(lower >= 970, `lower in ${lower} of 1000`);
});

test("a family's interval worked by hand: 8 changes, each at 99.375% (t 6.895 with 3 degrees of freedom)", () => {
  const ps = [[100, 70], [120, 90], [80, 60], [110, 70]].map(([off, on]) => ({ off: { v: off }, on: { v: on } }));
  const c = pairedChange(ps, figure, 'on', 'off', 8);
  // exp(mean log ratio +- 6.895 SD / 2) - 1, by hand.
  assert.deepEqual([c.est, c.lo, c.hi].map((x) => (100 * x).toFixed(1)), ['-29.2', '-45.9', '-7.5']);
  assert.match(describe(c, 'p99 latency'), /\(99\.4% interval -45\.9% to -7\.5%\): lower, better;/);
});

test('the estimate and interval of a set worked by hand, and each pair is its own change', () => {
  const ps = [[100, 70], [120, 90], [80, 60], [110, 70]].map(([off, on]) => ({ off: { v: off }, on: { v: on } }));
  const c = pairedChange(ps, figure);
  // exp(mean log ratio +- 3.182 SD / 2) - 1, by hand.
  assert.deepEqual([c.est, c.lo, c.hi].map((x) => (100 * x).toFixed(1)), ['-29.2', '-37.5', '-19.9']);
  assert.deepEqual(c.per.map((x) => x.toFixed(4)), ['-0.3000', '-0.2500', '-0.2500', '-0.3636']);
  assert.equal(c.verdict, 'lower');
});

test('fewer than 3 pairs resolve nothing', () => {
  const ps = [[100, 50], [120, 60]].map(([off, on]) => ({ off: { v: off }, on: { v: on } }));
  assert.equal(pairedChange(ps, figure).verdict, null);
});

test('a resolved change is printed with its estimate and interval, an unresolved one with its interval only', () => {
  const mk = (xs) => xs.map(([off, on]) => ({ off: { v: off }, on: { v: on } }));
  const cut = pairedChange(mk([[100, 70], [120, 90], [80, 60], [110, 70]]), figure);
  assert.match(describe(cut, 'p99 latency'), /^ {2}p99 latency {4}-29\.2% \(95% interval -\d+\.\d% to -\d+\.\d%\): lower, better; per pair -30\.0%, -25\.0%, -25\.0%, -36\.4%$/);
  assert.match(describe(cut, 'throughput', false), /: lower, worse;/);
  const mixed = pairedChange(mk([[100, 70], [120, 150], [80, 60], [110, 130]]), figure);
  assert.equal(mixed.verdict, null);
  assert.match(describe(mixed, 'p99 latency'), /^ {2}p99 latency {4}not resolved \(95% interval -\d+\.\d% to \+\d+\.\d%\); per pair -30\.0%, \+25\.0%, -25\.0%, \+18\.2%$/);
  const two = pairedChange(mk([[100, 50], [120, 60]]), figure);
  assert.match(describe(two, 'p99 latency'), /not resolved \(fewer than 3 pairs\); per pair -50\.0%, -50\.0%$/);
});

test('a run with a figure of 0 (a wrk run that served nothing) resolves nothing and says why', () => {
  const mk = (xs) => xs.map(([off, on]) => ({ off: { v: off }, on: { v: on } }));
  for (const ps of [mk([[100, 150], [120, 180], [80, 120], [0, 150]]), mk([[100, 0], [120, 60], [80, 40], [110, 50]])]) {
    const c = pairedChange(ps, figure);
    assert.equal(c.verdict, null);
    assert.match(describe(c, 'throughput', false), /not resolved \(a pair has a figure of 0 or none: no ratio\); per pair [-+0-9.%, ]*(-|-100\.0%)/);
    assert.doesNotMatch(describe(c, 'throughput', false), /NaN|Infinity/);
  }
});

// report.js reprints a committed run as the guest printed it (its report,
// from its header to its list of files): the runs of the demo check of
// 2026-12-05, whose held time demo.json kept only in each run's cpu1 delta,
// and the runs the README quotes.
test('report.js reprints the committed demo-check and quoted runs as printed, the held row included', () => {
  const fs = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  const zlib = require('node:zlib');
  const { execFileSync } = require('node:child_process');
  const section = (text) => text.slice(text.indexOf('=== The demo service'), text.indexOf('\nFiles: '));
  const check = path.join(__dirname, '..', 'docs', 'evidence', '2026-12-05-emulation-held', 'demo-check');
  // The demo check's runs, the runs the README quoted until the overload's
  // 10 pairs and then until 2026-12-07, and those it quotes now.
  const runs = [path.join(check, '2-B'), path.join(check, '3-B'),
    ...['2026-12-05-c', '2026-12-05-o', '2026-12-07-h'].flatMap((set) => [1, 2, 3].map((i) => path.join(__dirname, 'runs', `${set}-${i}`)))];
  for (const src of runs) {
    const run = path.basename(src);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-reprint-'));
    const gz = path.join(src, 'demo.json.gz');
    const json = fs.existsSync(gz) ? zlib.gunzipSync(fs.readFileSync(gz)) : fs.readFileSync(path.join(src, 'demo.json'));
    fs.writeFileSync(path.join(dir, 'demo.json'), json);
    const out = execFileSync(process.execPath, [path.join(__dirname, 'report.js'), dir], { encoding: 'utf8' });
    const overloadOnly = JSON.parse(json).service.length === 0;
    fs.rmSync(dir, { recursive: true, force: true });
    let printed = fs.readFileSync(path.join(src, 'printed.txt'), 'utf8');
    // A demo of the overload alone (the demo check's) was headed "pairs of
    // runs per load" until its header counted the loads that ran (the test
    // after the next).
    if (overloadOnly) printed = printed.replace(/; (\d+) pairs of runs per load,/, '; $1 pairs of overload runs,');
    assert.match(section(printed), /CPU 1 held by host \(%\)/, `${run}: printed.txt has no held row`);
    // But for the overload's work line, added after the earlier of them
    // (the next test).
    const added = /\n   CPU 1's work per request \(cycles\), off against on, per pair: [^\n]*/;
    assert.match(section(out), added, `${run}: no overload work line`);
    assert.equal(section(out).replace(added, ''), section(printed).replace(added, ''), `${run}: reprinted differently`);
  }
});

// The overload's work line says what the throughput's change is made of:
// a pair's on/off throughput is its busy cycles' ratio times the off run's
// work a request over the on run's.  Checked on a committed run.
test("the overload's work line and the busy cycles make up each pair's throughput ratio", () => {
  const fs = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  const zlib = require('node:zlib');
  const { execFileSync } = require('node:child_process');
  const { cycles } = require('../experiment/cpu1');
  const src = path.join(__dirname, '..', 'docs', 'evidence', '2026-12-05-emulation-held', 'demo-check', '2-B', 'demo.json.gz');
  const d = JSON.parse(zlib.gunzipSync(fs.readFileSync(src)));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-work-'));
  fs.writeFileSync(path.join(dir, 'demo.json'), JSON.stringify(d));
  const out = execFileSync(process.execPath, [path.join(__dirname, 'report.js'), dir], { encoding: 'utf8' });
  fs.rmSync(dir, { recursive: true, force: true });
  const line = out.match(/CPU 1's work per request \(cycles\), off against on, per pair: ([^\n]*)/);
  assert.ok(line, 'no overload work line');
  const ratios = line[1].split(', ').map((x) => Number(x.replace(/x$/, '')));
  assert.equal(ratios.length, d.overload.length);
  d.overload.forEach((p, i) => {
    const clock = cycles(p.on.busyNsByKhz) / cycles(p.off.busyNsByKhz);
    const rps = p.on.rps / p.off.rps;
    assert.ok(Math.abs(clock * ratios[i] / rps - 1) < 0.01, `pair ${i + 1}: ${clock.toFixed(3)} x ${ratios[i]} against ${rps.toFixed(3)}`);
  });
});

// A demo recording its bound on the host's holds (heldMax, from
// 2026-12-05) fails a run the host held over it, as it fails one with CPU
// 0 busy, and says which and what to do; at the bound's side it passes.
test('a run the host held over heldMax fails the demo, named; the same demo within it passes', () => {
  const fs = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  const { spawnSync } = require('node:child_process');
  const d = JSON.parse(fs.readFileSync(path.join(__dirname, 'runs', '2026-12-05-c-1', 'demo.json'), 'utf8'));
  const report = (demo) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-held-'));
    fs.writeFileSync(path.join(dir, 'demo.json'), JSON.stringify(demo));
    const r = spawnSync(process.execPath, [path.join(__dirname, 'report.js'), dir], { encoding: 'utf8' });
    fs.rmSync(dir, { recursive: true, force: true });
    return r;
  };
  const ok = report({ ...d, heldMax: 0.10 });
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /CPU 1 held by the host 0\.8-2\.8% of each run \(a run above 10% fails the demo\)/);
  const held = JSON.parse(JSON.stringify({ ...d, heldMax: 0.10 }));
  held.overload[1].on.cpu1.heldNs = 0.2 * held.overload[1].on.wallMs * 1e6;
  const bad = report(held);
  assert.equal(bad.status, 1, 'a held run passed');
  assert.match(bad.stderr, /the host held CPU 1 over 10% of the time.*nothing else busy.*\):\n  overload 2\/4 eventboost on: CPU 1 held by the host 20\.00% \(over 10%\)$/m);
  const before = report(d);
  assert.equal(before.status, 0, 'a demo from before the bound judged by it');
  assert.doesNotMatch(before.stdout, /CPU 1 held by the host/, 'a demo from before the bound: a judged line');
  // A driver loaded with emulate_held_us=0 counts no holds: said, not judged.
  const uncounted = report({ ...held, guest: { ...held.guest, heldUs: 0 } });
  assert.equal(uncounted.status, 0, uncounted.stderr);
  assert.match(uncounted.stdout, /CPU 1 held by the host: not counted in 20 of 20 runs .*not judged there/);
});

// The header says how many pairs each load ran (DEMO_REPS the open loop's,
// DEMO_OVERLOAD_REPS the overload's since 2026-12-05), and of a demo of
// one load (DEMO_KINDS) only that load; an odd count names its load.
test("the report's header counts the pairs each load ran", () => {
  const fs = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  const { execFileSync } = require('node:child_process');
  const d = JSON.parse(fs.readFileSync(path.join(__dirname, 'runs', '2026-12-05-c-1', 'demo.json'), 'utf8'));
  const header = (demo) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-header-'));
    fs.writeFileSync(path.join(dir, 'demo.json'), JSON.stringify(demo));
    const out = execFileSync(process.execPath, [path.join(__dirname, 'report.js'), dir], { encoding: 'utf8' });
    fs.rmSync(dir, { recursive: true, force: true });
    return out.split('\n')[2];
  };
  assert.match(header(d), /; 4 pairs of runs per load, their sides in a Williams row, then its mirror;$/);
  const ten = [...d.overload, ...d.overload, ...d.overload.slice(0, 2)];
  assert.match(header({ ...d, overloadReps: 10, overload: ten }), /; 4 pairs of open-loop runs and 10 of overload, their sides in a Williams row, then its mirror;$/);
  assert.match(header({ ...d, overloadReps: 10, overload: [] }), /; 4 pairs of open-loop runs, their sides in a Williams row, then its mirror;$/);
  assert.match(header({ ...d, overloadReps: 3, service: [], overload: d.overload.slice(0, 3) }),
    /; 3 pairs of overload runs, their sides in a Williams row, then its mirror \(an odd count: the overload's last pair unbalanced\)\)$/);
});

process.exit(failed ? 1 : 0);
