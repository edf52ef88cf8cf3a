'use strict';
// Guest-side helpers: the real module with ebtest_cpufreq loaded per-CPU
// (base 2.6 GHz, boost 4.0 GHz).  The driver's record of every frequency
// change is the ground truth the tests check.
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');

// EB_TEST_PKG: run the tests against another copy of the package (an older
// build, to see a test fail without a fix).
const PKG = process.env.EB_TEST_PKG || path.resolve(__dirname, '../..');
const CF = '/sys/devices/system/cpu/cpufreq';
const BASE = 2600000;
const BOOST = 4000000;

const ebtest = () => fs.readFileSync('/dev/ebtest_cpufreq', 'utf8');

function cur(policy) {
  const m = new RegExp(`^policy ${policy} cur (\\d+)`, 'm').exec(ebtest());
  return m ? Number(m[1]) : null;
}

// Frequency changes recorded since the last clear(): {policy, cpu, khz}.
function changes() {
  return ebtest().split('\n').filter((l) => l.startsWith('change ')).map((l) => {
    const f = l.split(' ');
    return { policy: Number(f[3]), cpu: Number(f[4]), khz: Number(f[5]) };
  });
}

function clear() { fs.writeFileSync('/dev/ebtest_cpufreq', 'clear'); }

function tunable(policy, name, value) {
  fs.writeFileSync(`${CF}/policy${policy}/eventboost/${name}`, String(value));
}

// Fresh eventboost on every policy; no budget in the way of the tests.
// A governor switch keeps the tunables: the others get their defaults.
function governEverything({ maxBoostUs = 100000 } = {}) {
  for (const p of fs.readdirSync(CF).filter((d) => /^policy\d+$/.test(d))) {
    fs.writeFileSync(`${CF}/${p}/scaling_governor`, 'performance');
    fs.writeFileSync(`${CF}/${p}/scaling_governor`, 'eventboost');
    tunable(p.slice(6), 'base_freq', 0);
    tunable(p.slice(6), 'boost_freq', 0);
    tunable(p.slice(6), 'rate_limit_us', 1000);
    tunable(p.slice(6), 'budget_pct', 100);
    tunable(p.slice(6), 'max_boost_us', maxBoostUs);
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitCur(policy, khz, timeoutMs = 10000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (cur(policy) === khz) return true;
    await sleep(20);
  }
  return false;
}

// Run a script in a child node; resolves with its exit code and the JSON
// lines it printed.  onLine(line, child) sees each line as it arrives.
function runNode(script, { args = [], env = {}, cwd, onLine } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...args, '-e', script], {
      cwd, env: { ...process.env, EB_PKG: PKG, ...env },
    });
    const out = [];
    let buf = '';
    let err = '';
    child.stdout.on('data', (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        out.push(line);
        if (onLine) onLine(line, child);
      }
    });
    child.stderr.on('data', (d) => { err += d; });
    child.on('close', (code, signal) => resolve({ code, signal, out, err, pid: child.pid,
      json: out.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)) }));
  });
}

// Script prelude for children: the package, and pinning one thread.
const PRELUDE = `
const eb = require(process.env.EB_PKG);
const { execFileSync } = require('node:child_process');
const pin = (tid, cpu) => execFileSync('taskset', ['-pc', String(cpu), String(tid)], { stdio: 'ignore' });
const alloc = (ms) => { let keep = []; const end = Date.now() + ms;
  while (Date.now() < end) { keep.push(JSON.stringify({ a: new Array(500).fill('x'.repeat(40)) }));
    if (keep.length > 100) keep = []; } };
`;

module.exports = { PKG, BASE, BOOST, cur, changes, clear, tunable, governEverything, waitCur, sleep, runNode, PRELUDE };
