'use strict';
// make bench: turn the guest's raw results into a table (stdout) and one
// JSON document.   node bench/report.js RAW-DIR OUT.json [host-lscpu.json]
// Every figure is a median with its p99 and n; every comparison a ratio
// of figures measured in the same run.
const fs = require('node:fs');
const path = require('node:path');

const [dir, outFile] = process.argv.slice(2);
if (!dir || !outFile) {
  console.error('usage: node bench/report.js RAW-DIR OUT.json');
  process.exit(2);
}
const file = (f) => path.join(dir, f);
const text = (f) => fs.readFileSync(file(f), 'utf8');
const json = (f) => JSON.parse(text(f));
const exists = (f) => fs.existsSync(file(f));

// ---------------------------------------------------------------- helpers
const us = (ns) => ns / 1000;
const round = (x, d = 3) => (Number.isFinite(x) ? Number(x.toFixed(d)) : null);
const fmtUs = (ns) => (Number.isFinite(ns) ? `${us(ns).toFixed(1)}` : '-');
const fmtX = (x) => (Number.isFinite(x) ? `${x.toFixed(2)}x` : '-');
const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);

function median(xs) {
  const v = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!v.length) return NaN;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// A C program's sample set as {median_us, p99_us, n}.
function fig(s) {
  return { median_us: round(us(s.median_ns)), p99_us: round(us(s.p99_ns)), n: s.n };
}

// lscpu -J: the fields that describe a machine.
function machine(f) {
  let l;
  try { l = JSON.parse(fs.readFileSync(f, 'utf8')).lscpu; } catch { return null; }
  const get = (k) => (l.find((e) => e.field.replace(/:$/, '') === k) || {}).data;
  const flat = [];
  const walk = (es) => es.forEach((e) => { flat.push(e); if (e.children) walk(e.children); });
  walk(l);
  const val = (k) => (flat.find((e) => e.field.replace(/:$/, '') === k) || {}).data;
  return {
    architecture: get('Architecture') || val('Architecture'),
    model_name: val('Model name'),
    vendor: val('Vendor ID'),
    cpus: Number(val('CPU(s)')),
    threads_per_core: Number(val('Thread(s) per core')),
    cores_per_socket: Number(val('Core(s) per socket')),
    sockets: Number(val('Socket(s)')),
    hypervisor: val('Hypervisor vendor') || null,
    virtualization: val('Virtualization type') || null,
    max_mhz: val('CPU max MHz') || null,
    l3: val('L3') || null,
  };
}

// wrk --latency output: requests/s and latency percentiles in ms.
function wrk(f) {
  const t = text(f);
  const unit = { us: 1e-3, ms: 1, s: 1e3 };
  const pct = {};
  for (const m of t.matchAll(/^\s+(\d+)%\s+([\d.]+)(us|ms|s)\s*$/gm)) pct[m[1]] = Number(m[2]) * unit[m[3]];
  const req = /(\d+) requests in ([\d.]+)(ms|s)/.exec(t);
  const errs = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(t);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(t);
  return {
    rps: Number((/Requests\/sec:\s+([\d.]+)/.exec(t) || [])[1]),
    requests: req ? Number(req[1]) : NaN,
    p50_ms: pct['50'],
    p90_ms: pct['90'],
    p99_ms: pct['99'],
    errors: (errs ? errs.slice(1).reduce((a, b) => a + Number(b), 0) : 0) + (non2xx ? Number(non2xx[1]) : 0),
  };
}

// What the Node package itself counted between two stats() snapshots.
function serviceDelta(fa, fb, secs) {
  if (!exists(fa) || !exists(fb)) return null;
  const a = json(fa);
  const b = json(fb);
  if (!a || !b || !a.gc || !b.gc) return null;
  return {
    gc_pauses_per_s: round((b.gc.count - a.gc.count) / secs, 1),
    gc_pause_ms_per_s: round((b.gc.timeMs - a.gc.timeMs) / secs, 1),
    gc_boosts_per_s: round((b.gc.boosts - a.gc.boosts) / secs, 1),
    queue_boosts_per_s: round((b.queue.boosts - a.queue.boosts) / secs, 1),
    queue_boosted_ms_per_s: round((b.queue.boostedMs - a.queue.boostedMs) / secs, 1),
    queue_monitor_samples_per_s: round((b.queue.samples - a.queue.samples) / secs, 1),
    loop_iterations_per_s: round((b.queue.iterations - a.queue.iterations) / secs, 1),
  };
}

const targets = [];
const checks = [];	// correctness seen along the way (not targets)
function target(name, met, figure, detail) {
  targets.push({ target: name, met: Boolean(met), figure, detail });
}

const params = exists('params.json') ? json('params.json') : {};
const paths = ['fast_switch', 'worker'].filter((p) => exists(`hint_cost-${p}.json`));
const kernel = text('kernel.txt').trim();
const out = {
  kernel,
  generated: new Date().toISOString(),
  quick: params.quick === 1,
  parameters: params,
  emulation: `QEMU ${exists('clock.txt') ? text('clock.txt').trim() : 'TCG'} (virtme-ng --disable-kvm), 2 vCPUs, ` +
    '-cpu Skylake-Client-v1, 2 GiB. With -icount the guest clock counts instructions (2 ns each), ' +
    'so a time is work done, not host scheduling, and every instruction costs the same ' +
    '(a syscall entry or TLB flush as little as an add): absolute times mean little, compare ratios within this run.',
  machine: {
    host: machine(process.env.BENCH_HOST_LSCPU || file('lscpu-host.json')),
    host_load_avg: exists('host-load.txt') ? text('host-load.txt').trim() : null,
    guest: machine(file('lscpu-guest.json')),
    guest_clocksource: text('clocksource.txt').trim(),
    guest_meltdown: ((/meltdown:(.*)/.exec(exists('vulnerabilities.txt') ? text('vulnerabilities.txt') : '') || [])[1] || '').trim() || null,
  },
  driver: {
    name: 'ebtest_cpufreq (selftests/driver), no emulated DVFS',
    policies: 'one per CPU; the benchmarks run on CPU 1 (policy1), CPU 0 hosts wrk and cross-CPU hints',
    paths_measured: paths,
  },
  hint_cost: {},
  hint_latency: {},
  governor_reaction: {},
  node: null,
  activity: null,
  profile_overhead: null,
  targets,
  checks,
};

const lines = [];
const say = (s = '') => lines.push(s);
say(`eventboost benchmarks: kernel ${kernel}, ${out.machine.guest ? out.machine.guest.model_name : '?'} ` +
  `guest on ${out.machine.host ? out.machine.host.model_name : '?'}`);
say(`Measured under QEMU ${exists('clock.txt') ? text('clock.txt').trim() : 'TCG'} (emulation): absolute times mean little; ` +
  'compare the ratios, which are taken within this run.');
say('Times in microseconds: median / p99 (n).');

// ------------------------------------------------------ 1. cost of a hint
const cost = {};
for (const p of paths) {
  const c = json(`hint_cost-${p}.json`);
  cost[p] = c;
  const oneHint = c.hint_pair.median_ns / 2;
  const r = {
    ops: {},
    ratios: {
      pair_over_null_pair: round(c.hint_pair.median_ns / c.null_pair.median_ns),
      pair_over_null_pair_p99: round(c.hint_pair.p99_ns / c.null_pair.p99_ns),
      sysfs_write_over_one_hint: round(c.sysfs_write.median_ns / oneHint),
      sysfs_open_write_close_over_one_hint: round(c.sysfs_open_write_close.median_ns / oneHint),
      one_hint_over_null_ioctl: round(oneHint / (c.null_pair.median_ns / 2)),
      sysfs_write_over_null_ioctl: round(c.sysfs_write.median_ns / (c.null_pair_userspace.median_ns / 2)),
    },
    breakdown_per_hint_us: {
      syscall_null_ioctl: round(us(c.null_pair.median_ns / 2)),
      client_bookkeeping: round(us((c.hint_pair_ungoverned.median_ns - c.null_pair_ungoverned.median_ns) / 2)),
      policy_decision: round(us((c.hint_pair_nochange.median_ns - c.hint_pair_ungoverned.median_ns) / 2)),
      frequency_change: round(us((c.hint_pair.median_ns - c.hint_pair_nochange.median_ns) / 2)),
    },
    one_hint_us: round(us(oneHint)),
  };
  for (const k of ['hint_pair', 'hint_enter', 'hint_exit', 'null_pair', 'null_pair_userspace',
    'sysfs_write', 'sysfs_open_write_close', 'hint_pair_nochange', 'null_pair_nochange',
    'hint_pair_ungoverned', 'null_pair_ungoverned', 'timer']) r.ops[k] = fig(c[k]);
  out.hint_cost[p] = r;
}
say('');
say('1. Cost of a hint (CPU 1, same guest; each hint changes the frequency, as does each sysfs write)');
const costRows = [
  ['GC enter+exit pair', 'hint_pair'], ['  enter (boost)', 'hint_enter'], ['  exit (unboost)', 'hint_exit'],
  ['2 null ioctls (ENOTTY)', 'null_pair'], ['scaling_setspeed write, open fd', 'sysfs_write'],
  ['  open+write+close', 'sysfs_open_write_close'], ['pair, no frequency change', 'hint_pair_nochange'],
  ['pair, policy not eventboost', 'hint_pair_ungoverned'], ['clock read overhead', 'timer'],
];
say(pad('', 42) + paths.map((p) => pad(p, 30)).join(''));
for (const [label, k] of costRows) {
  say(pad(label, 42) + paths.map((p) => {
    const s = cost[p][k];
    return pad(`${fmtUs(s.median_ns)} / ${fmtUs(s.p99_ns)} (${s.n})`, 30);
  }).join(''));
}
for (const p of paths) {
  const r = out.hint_cost[p].ratios;
  const b = out.hint_cost[p].breakdown_per_hint_us;
  say(`  ${p}: pair / null pair ${fmtX(r.pair_over_null_pair)} (p99 ${fmtX(r.pair_over_null_pair_p99)}); ` +
    `sysfs write / one hint ${fmtX(r.sysfs_write_over_one_hint)}; open+write+close / one hint ` +
    `${fmtX(r.sysfs_open_write_close_over_one_hint)}; sysfs write / null ioctl ${fmtX(r.sysfs_write_over_null_ioctl)}`);
  say(`  ${p}: one hint = syscall ${b.syscall_null_ioctl} + client ${b.client_bookkeeping} + decision ${b.policy_decision} + ` +
    `frequency change ${b.frequency_change} us (medians)`);
}
if (cost.fast_switch) {
  const r = out.hint_cost.fast_switch.ratios;
  target('hint pair <= 1.5x null-ioctl pair (fast switch)', r.pair_over_null_pair <= 1.5,
    `${r.pair_over_null_pair}x`, 'medians, interleaved on CPU 1');
  target('one hint >= 3x cheaper than one persistent-fd sysfs write (fast switch)',
    r.sysfs_write_over_one_hint >= 3, `${r.sysfs_write_over_one_hint}x`,
    'sysfs write median / (hint pair median / 2)');
}
if (cost.worker) {
  const r = out.hint_cost.worker.ratios;
  target('hint pair <= 1.5x null-ioctl pair (worker)', r.pair_over_null_pair <= 1.5,
    `${r.pair_over_null_pair}x`, 'medians, interleaved on CPU 1');
  target('one hint >= 3x cheaper than one persistent-fd sysfs write (worker)',
    r.sysfs_write_over_one_hint >= 3, `${r.sysfs_write_over_one_hint}x`,
    'sysfs write median / (hint pair median / 2)');
}

// ------------------------------------------- 2. hint -> frequency applied
say('');
say('2. Hint -> frequency applied (CLOCK_MONOTONIC before the ioctl to the driver\'s change record)');
say(pad('', 42) + pad('latency', 26) + pad('ioctl returns', 26) + 'applied before return');
for (const p of paths) {
  const h = json(`hint_latency-${p}.json`);
  // eventboost's rate_limit_us: every hint came that long after the last change.
  const r = { rate_limit_us: h.rate_limit_us ?? null };
  for (const w of ['same_cpu', 'cross_cpu']) {
    const x = h[w];
    const n = x.before_return + x.after_return;
    r[w] = {
      latency: fig(x.latency),
      ioctl: fig(x.ioctl),
      applied_before_return: n ? round(x.before_return / n, 4) : null,
      missing: x.missing,
      lost_updates: { enter: x.stuck_enter || 0, exit: x.stuck_exit || 0 },
      later_than_200ms: x.slow || 0,
      driver_calls: { fast_switch: x.path_fast, target: x.path_target },
    };
    say(pad(`${p}, ${w === 'same_cpu' ? 'hint on the boosted CPU' : 'hint from CPU 0'}`, 42) +
      pad(`${fmtUs(x.latency.median_ns)} / ${fmtUs(x.latency.p99_ns)} (${x.latency.n})`, 26) +
      pad(`${fmtUs(x.ioctl.median_ns)} / ${fmtUs(x.ioctl.p99_ns)}`, 26) +
      `${n ? ((x.before_return / n) * 100).toFixed(1) : '-'}%` + (x.missing ? ` (${x.missing} unmatched)` : '') +
      (x.slow ? `  ${x.slow} waits > 200 ms` : '') +
      (x.stuck_enter || x.stuck_exit ? `  LOST UPDATES: ${x.stuck_enter} boosts, ${x.stuck_exit} unboosts` : ''));
  }
  const sw = cost[p] ? cost[p].sysfs_write.median_ns : NaN;
  r.ratios = {
    same_cpu_p99_over_sysfs_write_median: round(h.same_cpu.latency.p99_ns / sw),
    cross_cpu_p99_over_sysfs_write_median: round(h.cross_cpu.latency.p99_ns / sw),
  };
  out.hint_latency[p] = r;
}
for (const p of paths) {
  const reac = {};
  for (const g of ['schedutil', 'ondemand']) {
    if (!exists(`burst-${g}-${p}.json`)) continue;
    const b = json(`burst-${g}-${p}.json`);
    reac[g] = {
      bursts: b.bursts, spin_ms: b.spin_ms, idle_ms: b.idle_ms,
      first_raise: fig(b.first_raise), to_max: fig(b.to_max),
      never_raised: b.never_raised, never_max: b.never_max, started_at_max: b.start_at_max,
    };
    say(pad(`${p}, ${g}: burst -> first raise`, 42) +
      pad(`${fmtUs(b.first_raise.median_ns)} / ${fmtUs(b.first_raise.p99_ns)} (${b.first_raise.n})`, 26) +
      `-> 4.0 GHz ${fmtUs(b.to_max.median_ns)} / ${fmtUs(b.to_max.p99_ns)} (${b.to_max.n})` +
      (b.never_max ? `, ${b.never_max} of ${b.bursts} never within ${b.spin_ms} ms` : ''));
  }
  out.governor_reaction[p] = reac;
  const hl = out.hint_latency[p];
  if (reac.schedutil && hl) {
    hl.ratios.schedutil_to_max_over_same_cpu_hint = round(reac.schedutil.to_max.median_us / hl.same_cpu.latency.median_us, 1);
    if (reac.ondemand) hl.ratios.ondemand_to_max_over_same_cpu_hint = round(reac.ondemand.to_max.median_us / hl.same_cpu.latency.median_us, 1);
  }
}
for (const p of paths) {
  const r = out.hint_latency[p].ratios;
  say(`  ${p}: p99 / sysfs write median: same CPU ${fmtX(r.same_cpu_p99_over_sysfs_write_median)}, ` +
    `cross CPU ${fmtX(r.cross_cpu_p99_over_sysfs_write_median)}; schedutil to 4.0 GHz / hint (medians) ` +
    `${fmtX(r.schedutil_to_max_over_same_cpu_hint)}, ondemand ${fmtX(r.ondemand_to_max_over_same_cpu_hint)}`);
}
// The in-kernel alternative: a thread's own uclamp_min raised with
// sched_setattr(), schedutil deciding (issue 22).  The control is a plain
// burst as long: if it reached 4.0 GHz, the spin did, not the clamp.
out.uclamp = {};
for (const p of paths) {
  if (!exists(`uclamp-${p}.json`)) continue;
  const u = json(`uclamp-${p}.json`);
  if (!u.supported) {
    out.uclamp[p] = { supported: false, reason: u.reason };
    say(pad(`${p}, uclamp_min + schedutil`, 42) + `not measured: ${u.reason}`);
    continue;
  }
  const c = json(`uclamp-control-${p}.json`);
  const hl = out.hint_latency[p];
  out.uclamp[p] = {
    supported: true, times: u.bursts, spin_ms: u.spin_ms, idle_ms: u.idle_ms,
    schedutil_rate_limit_us: u.rate_limit_us,
    first_raise: fig(u.first_raise), to_max: fig(u.to_max), sched_setattr: fig(u.syscall),
    applied_before_return: u.to_max.n ? round(u.before_return / u.to_max.n, 4) : null,
    never_max: u.never_max, started_at_max: u.start_at_max,
    never_raised: u.never_raised,
    control_without_clamp: { to_max_n: c.to_max.n, never_raised: c.never_raised, never_max: c.never_max, bursts: c.bursts },
    to_max_over_same_cpu_hint: hl ? round(u.to_max.median_ns / 1000 / hl.same_cpu.latency.median_us, 1) : null,
  };
  say(pad(`${p}, uclamp_min + schedutil -> 4.0 GHz`, 42) +
    pad(`${fmtUs(u.to_max.median_ns)} / ${fmtUs(u.to_max.p99_ns)} (${u.to_max.n})`, 26) +
    pad(`${fmtUs(u.syscall.median_ns)} / ${fmtUs(u.syscall.p99_ns)}`, 26) +
    `${u.to_max.n ? ((u.before_return / u.to_max.n) * 100).toFixed(1) : '-'}%` +
    (u.never_max ? `, ${u.never_max} of ${u.bursts} never within ${u.spin_ms} ms` : '') +
    `; without the clamp ${c.to_max.n} of ${c.bursts} reached it`);
  checks.push({ check: `${p}: the uclamp control: a ${c.spin_ms} ms spin alone does not reach 4.0 GHz`,
    ok: c.to_max.n === 0, figure: `${c.to_max.n} of ${c.bursts}`,
    detail: 'otherwise the uclamp latency would be the spin\'s, not the clamp\'s' });
}
if (out.hint_latency.fast_switch) {
  const h = out.hint_latency.fast_switch;
  for (const w of ['same_cpu', 'cross_cpu']) {
    target(`fast switch: frequency applied before the ioctl returns (${w.replace('_', ' ')})`,
      h[w].applied_before_return === 1 && !h[w].missing,
      `${(h[w].applied_before_return * 100).toFixed(1)}% of ${h[w].latency.n}`, 'driver record ts <= CLOCK_MONOTONIC after the ioctl');
  }
}
for (const p of paths) {
  const h = out.hint_latency[p];
  const lost = ['same_cpu', 'cross_cpu'].reduce((a, w) => a + h[w].lost_updates.enter + h[w].lost_updates.exit, 0);
  const n = h.same_cpu.latency.n + h.cross_cpu.latency.n;
  if (lost) {
    say(`  ${p}: ${lost} hints were lost (the frequency never followed the decision until hinted again): ` +
      'see the report\'s notes');
  }
  h.lost_updates_total = lost;
  checks.push({ check: `${p}: every hint is applied (no lost updates)`, ok: lost === 0,
    figure: `${lost} lost of ${2 * n + lost} hints`,
    detail: 'lost: the frequency did not follow the decision for 2 s after a hint; the hint is then sent again' });
}
if (out.hint_latency.worker) {
  const h = out.hint_latency.worker;
  for (const w of ['same_cpu', 'cross_cpu']) {
    const ratio = h.ratios[`${w}_p99_over_sysfs_write_median`];
    target(`worker path: p99 < one sysfs write's median (${w.replace('_', ' ')})`, ratio < 1,
      `${h[w].latency.p99_us} us vs ${out.hint_cost.worker.ops.sysfs_write.median_us} us (${ratio}x)`,
      'hint->applied p99 / scaling_setspeed write median, same driver configuration');
  }
}

// Migration following (issue 18): a vote follows its thread when the
// client's timer next looks, each tick while a vote is held.  The move's
// latency against the tick, and what the looking costs per voting client.
out.migration = {};
for (const p of paths) {
  if (!exists(`migrate-${p}.json`)) continue;
  const m = json(`migrate-${p}.json`);
  const tickUs = m.hz ? 1e6 / m.hz : null;
  out.migration[p] = {
    hz: m.hz, tick_us: tickUs, moves: m.moves, missing: m.missing, stuck: m.stuck,
    rate_limit_us: m.rate_limit_us,
    to_boost: fig(m.to_boost), from_base: fig(m.from_base),
    to_boost_away_from_timer_cpu: fig(m.to_boost_away), to_boost_back_to_timer_cpu: fig(m.to_boost_back),
    to_boost_within_tick: tickUs ? round(m.to_boost.median_ns / 1000 / tickUs, 2) : null,
  };
  say(pad(`${p}, migration -> new CPU boosted`, 42) +
    pad(`${fmtUs(m.to_boost.median_ns)} / ${fmtUs(m.to_boost.p99_ns)} (${m.to_boost.n})`, 26) +
    `away from the timer's CPU ${fmtUs(m.to_boost_away.median_ns)}, back to it ` +
    `${fmtUs(m.to_boost_back.median_ns)}; old CPU at base ${fmtUs(m.from_base.median_ns)} / ` +
    `${fmtUs(m.from_base.p99_ns)} us; ` +
    `tick ${tickUs ? tickUs.toFixed(0) : '?'} us (HZ ${m.hz || '?'})`);
  checks.push({ check: `${p}: every migration moved the vote`, ok: !m.missing && !m.stuck,
    figure: `${m.moves - m.missing} of ${m.moves}`,
    detail: 'the new CPU\'s policy at boost_freq and the old one\'s back at base_freq before the next move' });
}
out.following_cost = {};
for (const p of paths) {
  if (!exists(`ticks-${p}.json`)) continue;
  const t = json(`ticks-${p}.json`);
  out.following_cost[p] = {
    hz: t.hz, spin_ms: t.spin_ms, repetitions: t.repetitions,
    by_clients: t.by_clients.map((b) => ({
      clients: b.clients, callbacks_per_s: round(b.callbacks_per_s, 1), cpu_pct: round(b.cpu_pct, 3),
      callback: { ...fig(b.callback), mean_us: round(us(b.callback.mean_ns)) },
    })),
  };
  say(`  ${p}: following's timer callbacks on the voting thread's CPU (HZ ${t.hz}): ` +
    t.by_clients.map((b) => `${b.clients} clients ${b.callbacks_per_s.toFixed(0)}/s, ` +
      `${us(b.callback.mean_ns).toFixed(2)} us mean, ${b.cpu_pct.toFixed(2)}% CPU`).join('; '));
}

// --------------------------------------------------------- 3. cost to Node
const cfgs = ['off', 'gc', 'queue', 'all', 'q10ms'].filter((c) => exists(`node-${c}-1.wrk.txt`));
const cfgLabel = { off: 'hooks off', gc: 'GC only', queue: 'queue only', all: 'all hooks',
  q10ms: 'queue, 10 ms sampling' };
const reps = [];
for (let r = 1; exists(`node-off-${r}.wrk.txt`); r++) reps.push(r);
if (reps.length) {
  const runs = {};
  for (const c of cfgs) runs[c] = reps.map((r) => ({ rep: r, ...wrk(`node-${c}-${r}.wrk.txt`) }));
  const node = { diagnostics: { q10ms: 'EVENTBOOST=queue EVENTBOOST_SAMPLE_US=10000' }, endpoint_mix: '4/5 /light, 1/5 /heavy (bench/mixed.lua), demo/server.js',
    load: 'wrk -t1 -c8 --timeout 30s on CPU 0, server pinned to CPU 1, loopback', repetitions: reps.length,
    seconds_per_run: params.node_secs, order: `ABBA: ${cfgs.join(',')} then reversed`, configs: {} };
  say('');
  say(`3. Cost to Node (demo/server.js on CPU 1, wrk -c8 on CPU 0, mixed light/heavy; ${reps.length} ABBA repetitions)`);
  say(pad('', 24) + pad('requests/s', 24) + pad('p50 ms', 24) + pad('p99 ms', 26) + 'vs off (median of per-pair ratios)');
  for (const c of cfgs) {
    const rs = runs[c];
    const ratio = (k) => median(rs.map((x, i) => x[k] / runs.off[i][k]));
    const stat = (k) => ({ median: round(median(rs.map((x) => x[k])), 2),
      n: rs.length, runs: rs.map((x) => round(x[k], 2)) });
    const cfg = {
      requests_per_s: stat('rps'), latency_p50_ms: stat('p50_ms'), latency_p99_ms: stat('p99_ms'),
      errors: rs.reduce((a, x) => a + x.errors, 0),
      ratio_to_off: { requests_per_s: round(ratio('rps')), latency_p50: round(ratio('p50_ms')),
        latency_p99: round(ratio('p99_ms')) },
    };
    if (exists(`node-${c}.stats.json`)) {
      const st = json(`node-${c}.stats.json`);
      cfg.service_totals = st && st.gc ? { gc_pauses: st.gc.count, gc_boosts: st.gc.boosts,
        queue_boosts: st.queue.boosts, queue_monitor_samples: st.queue.samples,
        loop_iterations: st.queue.iterations } : null;
    }
    node.configs[c] = cfg;
    const rng = (k) => `${cfg[k].median} [${Math.min(...cfg[k].runs)}-${Math.max(...cfg[k].runs)}]`;
    say(pad(cfgLabel[c], 24) + pad(rng('requests_per_s'), 24) + pad(rng('latency_p50_ms'), 24) +
      pad(rng('latency_p99_ms'), 26) +
      (c === 'off' ? '' : `rps ${fmtX(cfg.ratio_to_off.requests_per_s)}, p50 ${fmtX(cfg.ratio_to_off.latency_p50)}, ` +
        `p99 ${fmtX(cfg.ratio_to_off.latency_p99)}`) + (cfg.errors ? `  (${cfg.errors} errors)` : ''));
  }
  say('  (each cell: median [min-max] over repetitions; latency p50/p99 are wrk\'s over each run\'s requests;');
  say('   the last row is a diagnostic of the queue hook\'s cost, not a configuration to deploy)');
  for (const c of cfgs) {
    const t = node.configs[c].service_totals;
    if (t && t.loop_iterations) {
      say(`  ${cfgLabel[c]}: queue monitor ${t.queue_monitor_samples} samples over ${t.loop_iterations} loop iterations ` +
        `(${(t.queue_monitor_samples / t.loop_iterations).toFixed(1)} per iteration), ${t.queue_boosts} queue boosts`);
    }
  }
  out.node = node;
  const a = node.configs.all.ratio_to_off;
  target('Node, all hooks: >= 99% of hooks-off throughput', a.requests_per_s >= 0.99,
    `${(a.requests_per_s * 100).toFixed(1)}%`, 'median of per-repetition ratios');
  target('Node, all hooks: p99 no worse than hooks off', a.latency_p99 <= 1,
    `${a.latency_p99}x`, 'median of per-repetition ratios');
}

// ------------------------------------------------------- 4. boost activity
if (exists('activity-heavy-before-ebctl.json')) {
  const act = {};
  say('');
  say('4. Boost activity, all hooks on (CPU 1; module counters and cpufreq time_in_state)');
  say(pad('', 10) + pad('requests/s', 12) + pad('p99 ms', 10) + pad('hints/s (gc+queue)', 22) +
    pad('boosts/s', 10) + pad('boosted (module)', 18) + 'at 4.0 GHz (time_in_state)');
  for (const ep of ['heavy', 'light']) {
    const pol = (f) => json(f).policies.find((p) => p.policy === 1).eventboost;
    const a = pol(`activity-${ep}-before-ebctl.json`);
    const b = pol(`activity-${ep}-after-ebctl.json`);
    const tis = (f) => Object.fromEntries(text(f).trim().split('\n').map((l) => l.trim().split(/\s+/).map(Number)));
    const ta = tis(`activity-${ep}-before-tis.txt`);
    const tb = tis(`activity-${ep}-after-tis.txt`);
    let total = 0;
    for (const k of Object.keys(tb)) total += tb[k] - (ta[k] || 0);
    const atBoost = (tb[b.boost_khz] || 0) - (ta[b.boost_khz] || 0);
    const secs = (b.governed_ns - a.governed_ns) / 1e9;
    const d = (k) => b[k] - a[k];
    const hints = { gc: b.hints.gc - a.hints.gc, queue: b.hints.queue - a.hints.queue, timed: b.hints.timed - a.hints.timed };
    const w = wrk(`activity-${ep}.wrk.txt`);
    const e = {
      requests_per_s: round(w.rps, 1), latency_p50_ms: w.p50_ms, latency_p99_ms: w.p99_ms,
      seconds: round(secs, 2),
      hints_per_s: { gc: round(hints.gc / secs, 1), queue: round(hints.queue / secs, 1),
        timed: round(hints.timed / secs, 1), total: round((hints.gc + hints.queue + hints.timed) / secs, 1) },
      boosts_per_s: round(d('boosts') / secs, 1),
      boosted_share_module: round(d('boosted_ns') / d('governed_ns'), 4),
      boosted_share_time_in_state: total ? round(atBoost / total, 4) : null,
      watchdog_ends: d('watchdog_ends'), budget_ends: d('budget_ends'), refused: d('refused'),
      // (the driver's requests: its limits do not change during a run)
      frequency_changes: d('applied'),
      service: serviceDelta(`activity-${ep}-before-stats.json`, `activity-${ep}-after-stats.json`, secs),
    };
    act[ep] = e;
    say(pad(`/${ep}`, 10) + pad(e.requests_per_s, 12) + pad(round(w.p99_ms, 2), 10) +
      pad(`${e.hints_per_s.total} (${e.hints_per_s.gc}+${e.hints_per_s.queue})`, 22) +
      pad(e.boosts_per_s, 10) + pad(`${(e.boosted_share_module * 100).toFixed(1)}%`, 18) +
      `${e.boosted_share_time_in_state === null ? '-' : (e.boosted_share_time_in_state * 100).toFixed(1)}%` +
      (e.budget_ends || e.watchdog_ends ? `  (budget ends ${e.budget_ends}, watchdog ends ${e.watchdog_ends})` : ''));
  }
  say('  (default tunables: budget_pct 50, max_boost_us 100000)');
  out.activity = act;
}

// ------------------------------------------- 5. the profiler's overhead
const profFiles = ['1', '0.1'].filter((x) => exists(`profile-overhead-${x}.json`));
if (profFiles.length) {
  say('');
  const pp = exists('profile-params.json') ? json('profile-params.json') : {};
  say('5. eventboost/profile: with the profiler / without, same run, interleaved (median of ' +
    `${pp.repetitions || '?'} repetitions; a JSON handler with three awaits; on the host, service on CPU 1, client on CPU 0,` +
    ` load average ${pp.loadavg_before || '?'} before)`);
  say(pad('sampled', 10) + pad('CPU per request', 26) + pad('throughput', 14) + 'p99 at 100 req/s');
  out.profile_overhead = {};
  for (const x of profFiles) {
    const p = json(`profile-overhead-${x}.json`);
    const spread = (a) => `${round(Math.min(...a), 1)}-${round(Math.max(...a), 1)}`;
    out.profile_overhead[x] = {
      sample: p.sample, repetitions: p.reps, seconds: p.seconds, rate: p.rate,
      cpu_per_request_ratio: round(p.cpuPerRequestRatio, 3),
      throughput_ratio: round(p.throughputRatio, 3),
      p99_ratio: round(p.p99Ratio, 3),
      off: p.off, on: p.on,
      cpu_us_per_request_spread: { off: spread(p.runs.off.cpuUs), on: spread(p.runs.on.cpuUs) },
    };
    say(pad(x === '1' ? 'all' : `1 in ${Math.round(1 / Number(x))}`, 10) +
      pad(`x${round(p.cpuPerRequestRatio, 2)} (${round(p.off.cpuUsPerRequest, 0)} -> ${round(p.on.cpuUsPerRequest, 0)} us)`, 26) +
      pad(`x${round(p.throughputRatio, 2)}`, 14) + `x${round(p.p99Ratio, 2)}`);
  }
}

// ---------------------------------------------------------------- targets
say('');
say('Targets (measured under emulation):');
for (const t of targets) say(`  ${t.met ? 'met   ' : 'MISSED'}  ${t.target}: ${t.figure}`);
for (const c of checks) say(`  ${c.ok ? 'ok    ' : 'FAILED'}  check: ${c.check}: ${c.figure}`);

fs.writeFileSync(outFile, `${JSON.stringify(out, null, 2)}\n`);
say('');
say(`JSON: ${outFile}`);
console.log(lines.join('\n'));
fs.writeFileSync(file('table.txt'), `${lines.join('\n')}\n`);
