'use strict';
// make experiment's design as a run takes it, in one place for the two
// that read it: scripts/experiment.sh's first look on the host
// (check-design.js, before anything is built or booted) and driver.js in
// the guest.  The run lengths, repetitions and rates from the design and
// the environment (EXPERIMENT_QUICK, _SECONDS, _REPS, _RATES), checked, and
// whether an earlier run's raw.json can take more repetitions of this
// design (EXPERIMENT_EXTEND).
// What only the guest knows (its page table isolation) driver.js checks
// itself.
const { primaryVerdict, extendedVerdict } = require('./paired');

// EXPERIMENT_QUICK=1: a smoke run (driver.js: one repetition of the
// headline phase at rate 0.5, 4 s runs, a 1 s warm-up run).
const quick = (env) => env.EXPERIMENT_QUICK === '1';

// An environment variable's value a run cannot take (check-design.js names
// the variable, not the design's file).
function envError(name, msg) {
  const e = new Error(`${name}: ${msg}`);
  e.variable = name;
  return e;
}

// The variables scripts/experiment.sh hands to the guest, as words: a value
// with white space in it would be split there, after the build and boot.
const PASSED = ['QUICK', 'SECONDS', 'REPS', 'RATES', 'SERVICES', 'POLICIES', 'CONFIG', 'EXTEND'];

function checkPassed(env) {
  for (const name of PASSED) {
    const v = env[`EXPERIMENT_${name}`];
    if (v !== undefined && /\s/.test(v)) {
      throw envError(`EXPERIMENT_${name}`, `'${v}' has white space in it, which the guest would split: leave it out (lists are separated by commas alone)`);
    }
  }
}

// What a run length, a repetition count and a rate must be, for the
// environment's values and the design's alike: [test, what to say].
const SECONDS = [(n) => n > 0, 'a number of seconds above 0'];
const REPS = [(n) => Number.isInteger(n) && n > 0, 'a whole number of repetitions above 0'];
const RATE = [(n) => n > 0, 'fractions of capacity above 0'];

// A number of the design (config.json) a run cannot take, named.
function checkConfigNumber(what, v, ok, want) {
  if (typeof v !== 'number' || !Number.isFinite(v) || !ok(v)) {
    throw new Error(`config: ${what} must be ${want}, not ${JSON.stringify(v)}`);
  }
}

// EXPERIMENT_@name as a number that passes @ok, or undefined when unset.
function envNumber(env, name, ok, want) {
  const v = env[`EXPERIMENT_${name}`];
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || !ok(n)) throw envError(`EXPERIMENT_${name}`, `want ${want}, not '${v}'`);
  return n;
}

// Seconds of each measured run.
function runSecs(config, env) {
  return envNumber(env, 'SECONDS', ...SECONDS) ??
    (quick(env) ? 4 : config.secs);
}

// Repetitions of @phase (one of the design's phases).
function runReps(phase, env) {
  return envNumber(env, 'REPS', ...REPS) ??
    (quick(env) ? 1 : phase.reps);
}

// The rates, as fractions of each service's capacity (above 1: overload).
function runRates(config, env) {
  const v = env.EXPERIMENT_RATES;
  if (!v) return quick(env) ? [0.5] : config.rates;
  const rates = v.split(',').map((r) => (r.trim() === '' ? NaN : Number(r)));
  if (!rates.every((r) => Number.isFinite(r) && RATE[0](r))) {
    throw envError('EXPERIMENT_RATES', `want ${RATE[1]}, separated by commas, not '${v}'`);
  }
  return rates;
}

// warmUpSecs: after each repetition's calibration block, the reference runs
// this long, unmeasured, so that no measured run is the first after the
// block: that one did more work (docs/evidence/2026-11-28-first-run-work/).
// 0 or absent (designs before 2026-11-28, afternoon): none.  QUICK: 1 s.
function warmUpSecs(config, env) {
  const secs = config.warmUpSecs ? (quick(env) ? 1 : Number(config.warmUpSecs)) : 0;
  if (!(secs >= 0)) throw new Error(`config: warmUpSecs must be a number of seconds (0 for none), not ${JSON.stringify(config.warmUpSecs)}`);
  return secs;
}

// An error in the earlier run's raw.json itself (e.prior: @msg without the
// variable's name, for check-design.js to name the file).
function priorError(msg) {
  const e = new Error(`EXPERIMENT_EXTEND: ${msg}`);
  e.prior = msg;
  return e;
}

// Throws an Error that says what to do if @config (with @env) cannot run,
// or cannot add repetitions to @prior (an earlier run's raw.json, or null).
// Returns the run lengths and rates it checked: { secs, warmUpSecs, rates }.
function checkDesign(config, prior, env) {
  checkPassed(env);
  const secs = runSecs(config, env);
  const warmUp = warmUpSecs(config, env);
  runReps({}, env);
  const rates = runRates(config, env);
  primaryVerdict(config);
  checkConfigNumber('secs', config.secs, ...SECONDS);
  if (!Array.isArray(config.rates) || !config.rates.length) {
    throw new Error(`config: rates must be a list of fractions of capacity, not ${JSON.stringify(config.rates)}`);
  }
  config.rates.forEach((r) => checkConfigNumber('rates', r, ...RATE));
  if (!Array.isArray(config.phases) || !config.phases.length) {
    throw new Error(`config: phases must be a list of phases, not ${JSON.stringify(config.phases)}`);
  }
  config.phases.forEach((ph) => checkConfigNumber(`phase ${ph.name}: reps`, ph.reps, ...REPS));
  if (!prior) return { secs, warmUpSecs: warmUp, rates };
  // Runs of the earlier testbed (load in the guest, no record of CPU 0) are
  // no measurement to pool with.
  if (!prior.cpu0BusyMax) {
    throw priorError('that raw.json is from the earlier testbed (no CPU 0 record, the load inside the guest): its runs cannot be pooled with these');
  }
  // Its repetitions must have been calibrated (the testbed check) as these are.
  if (!prior.calibrations) {
    throw priorError('that raw.json has no calibration blocks (made before the testbed check timed a fixed job): analyze.js would refuse the pooled run');
  }
  // The verdict on the targets it names (paired.js; an unknown one of the
  // earlier run's is an error in its raw.json, marked e.prior).
  extendedVerdict(config, prior.config);
  if (prior.secs !== secs) {
    throw new Error(`EXPERIMENT_EXTEND: its runs last ${prior.secs} s, these ${secs} s: set EXPERIMENT_SECONDS=${prior.secs}`);
  }
  if ((prior.warmUpSecs || 0) !== warmUp) {
    throw new Error(`EXPERIMENT_EXTEND: its repetitions had ${prior.warmUpSecs || 0} s of warm-up run, these would have ${warmUp} s: run it with its own design (its raw.json's config) as EXPERIMENT_CONFIG`);
  }
  return { secs, warmUpSecs: warmUp, rates };
}

module.exports = { quick, runReps, checkDesign };
