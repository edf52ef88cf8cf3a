'use strict';
// Options of start() and the preload's environment: validated here, so a
// mistake is a TypeError or RangeError that names the option.

const GC_KINDS = Object.freeze(['scavenge', 'minor-mark-compact', 'mark-compact',
  'incremental-marking', 'weak-callbacks']);
// The major GC cycles alone: a major GC's marking cycle (its incremental
// steps on the loop thread and concurrent markers on its core, from marking
// start to the mark-compact's end) and the mark-compact.  In the experiment
// they kept the tail cut at a fifth of the energy of also boosting every
// scavenge, and they leave the budget to Queue-Boost (issue 21).
const DEFAULT_GC_KINDS = ['incremental-marking', 'mark-compact'];
// Queue-Boost's factor 5 and bursts 'threshold': the pair met Queue-Boost's
// and GC+queue's targets by the rule decided before the run
// (docs/evidence/2026-11-28-warm-up/); until then 2.5 and 'arrival', whose
// monitor woke at every arrival and did more work than it saved.
const DEFAULTS = Object.freeze({
  gc: true, queue: true, queueFactor: 5, sampleUs: 1000, maxDelayMs: 100, headOfLine: 'always',
  bursts: 'threshold', device: undefined,
});
// When a callback long next to the typical one boosts: 'always', or
// 'waiting', only once work waits behind it on the loop's epoll set (an
// arrival, a completion): a long callback nobody waits behind then runs at
// the base clock, up to the overload bound.
const HEAD_OF_LINE = Object.freeze(['always', 'waiting']);
// When the monitor sees a burst of work that comes to a waiting loop:
// 'arrival', woken by the work's arrival (a look, a context switch on the
// loop's core, for nearly every request of a service that is mostly
// waiting), or 'threshold', only once the iteration that processes it has
// used the head-of-line threshold of the loop's CPU time.
const BURSTS = Object.freeze(['arrival', 'threshold']);
const QUEUE_FACTOR_MIN = 1;
const QUEUE_FACTOR_MAX = 100;
const SAMPLE_US_MIN = 100;
const SAMPLE_US_MAX = 1000000;
// Queue-Boost's overload bound: a loop that has used this much of its own
// CPU time since its poll last blocked (one callback, or iterations that
// each found work ready) boosts whatever the averages say.
const MAX_DELAY_MS_MIN = 1;
const MAX_DELAY_MS_MAX = 60000;

function describe(v) {
  if (typeof v === 'string') return `'${v}'`;
  if (v === null || typeof v !== 'object') return String(v);
  return Array.isArray(v) ? 'an array' : 'an object';
}

// Errors carry Node's codes, as Node's own argument checks do.
function coded(e, code) {
  e.code = code;
  return e;
}

function typeError(name, want, got) {
  return coded(new TypeError(`eventboost: option ${name} must be ${want}, got ${describe(got)}`),
    'ERR_INVALID_ARG_TYPE');
}

function gcKinds(v) {
  if (v === true) return [...DEFAULT_GC_KINDS];
  if (v === false) return [];
  if (!Array.isArray(v)) {
    throw typeError('gc', `true, false or an array of GC kinds (${GC_KINDS.join(', ')})`, v);
  }
  for (const k of v) {
    if (typeof k !== 'string') throw typeError('gc', 'an array of strings', v);
    if (!GC_KINDS.includes(k)) {
      throw coded(new RangeError(`eventboost: option gc: unknown GC kind '${k}' (kinds: ${GC_KINDS.join(', ')})`),
        'ERR_INVALID_ARG_VALUE');
    }
  }
  return [...new Set(v)];
}

function number(name, v, min, max, integer) {
  if (typeof v !== 'number' || Number.isNaN(v)) {
    throw typeError(name, integer ? 'an integer' : 'a number', v);
  }
  if (!Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
    throw coded(new RangeError(`eventboost: option ${name} must be ${integer ? 'an integer' : 'a number'} ` +
      `from ${min} to ${max}, got ${v}`), 'ERR_OUT_OF_RANGE');
  }
  return v;
}

// start()'s options, with defaults filled in.  Throws on anything wrong.
function normalize(options) {
  if (options === undefined || options === null) options = {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw coded(new TypeError(`eventboost: options must be an object, got ${describe(options)}`),
      'ERR_INVALID_ARG_TYPE');
  }
  // A Map's or a Date's entries are no own properties: read as options
  // they would run the defaults.  A plain object's prototype is an
  // Object.prototype, of this realm or another's (a vm context), whose own
  // is null; Object.create(null) and a module namespace have none.
  const proto = Object.getPrototypeOf(options);
  if (proto !== null && Object.getPrototypeOf(proto) !== null) {
    const tag = Object.prototype.toString.call(options).slice(8, -1);
    const what = tag !== 'Object' ? tag : proto.constructor?.name || 'an object of a class';
    throw coded(new TypeError(`eventboost: options must be a plain object, got a ${what}`),
      'ERR_INVALID_ARG_TYPE');
  }
  for (const k of Object.keys(options)) {
    if (!Object.hasOwn(DEFAULTS, k)) {
      throw coded(new TypeError(`eventboost: unknown option '${k}' (options: ${Object.keys(DEFAULTS).join(', ')})`),
        'ERR_INVALID_ARG_VALUE');
    }
  }
  const o = { ...DEFAULTS };
  for (const [k, v] of Object.entries(options)) if (v !== undefined) o[k] = v;
  const queue = o.queue;
  if (typeof queue !== 'boolean') throw typeError('queue', 'true or false', queue);
  if (!HEAD_OF_LINE.includes(o.headOfLine)) {
    if (typeof o.headOfLine !== 'string') throw typeError('headOfLine', `'always' or 'waiting'`, o.headOfLine);
    throw coded(new RangeError(`eventboost: option headOfLine must be 'always' or 'waiting', got ${describe(o.headOfLine)}`),
      'ERR_INVALID_ARG_VALUE');
  }
  if (!BURSTS.includes(o.bursts)) {
    if (typeof o.bursts !== 'string') throw typeError('bursts', `'arrival' or 'threshold'`, o.bursts);
    throw coded(new RangeError(`eventboost: option bursts must be 'arrival' or 'threshold', got ${describe(o.bursts)}`),
      'ERR_INVALID_ARG_VALUE');
  }
  if (o.device !== undefined && (typeof o.device !== 'string' || !o.device || o.device.includes('\0'))) {
    throw typeError('device', 'a non-empty path', o.device);
  }
  return {
    gc: gcKinds(o.gc),
    queue,
    queueFactor: number('queueFactor', o.queueFactor, QUEUE_FACTOR_MIN, QUEUE_FACTOR_MAX, false),
    sampleUs: number('sampleUs', o.sampleUs, SAMPLE_US_MIN, SAMPLE_US_MAX, true),
    maxDelayMs: number('maxDelayMs', o.maxDelayMs, MAX_DELAY_MS_MIN, MAX_DELAY_MS_MAX, true),
    headOfLine: o.headOfLine,
    bursts: o.bursts,
    device: o.device,
  };
}

// The preload's options from the environment: {options} or {off: true}.
// A bad value is an Error whose message names the variable.
function fromEnv(env) {
  const mode = (env.EVENTBOOST ?? 'all').trim();
  const modes = { off: null, gc: { gc: true, queue: false }, queue: { gc: false, queue: true }, all: {}, '': {} };
  if (!(mode in modes)) {
    throw new Error(`EVENTBOOST must be off, gc, queue or all, got '${mode}'`);
  }
  if (modes[mode] === null) return { off: true };
  const options = { ...modes[mode] };
  const num = (name, key) => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') return;
    const v = Number(raw);
    if (Number.isNaN(v)) throw new Error(`${name} must be a number, got '${raw}'`);
    options[key] = v;
  };
  // The GC kinds to boost, as the gc option takes them: a comma-separated
  // list (the major GC cycles alone: incremental-marking,mark-compact).
  const kinds = (env.EVENTBOOST_GC_KINDS ?? '').trim();
  if (kinds) {
    if (options.gc === false) {
      throw new Error(`EVENTBOOST_GC_KINDS is set but EVENTBOOST=${mode} boosts no GC: unset it or use EVENTBOOST=gc or all`);
    }
    options.gc = kinds.split(',').map((k) => k.trim());
  }
  num('EVENTBOOST_QUEUE_FACTOR', 'queueFactor');
  num('EVENTBOOST_SAMPLE_US', 'sampleUs');
  num('EVENTBOOST_QUEUE_MAX_DELAY_MS', 'maxDelayMs');
  const hol = (env.EVENTBOOST_QUEUE_HEAD_OF_LINE ?? '').trim();
  if (hol) options.headOfLine = hol;
  const bursts = (env.EVENTBOOST_QUEUE_BURSTS ?? '').trim();
  if (bursts) options.bursts = bursts;
  if (env.EVENTBOOST_DEVICE) options.device = env.EVENTBOOST_DEVICE;
  try {
    normalize(options);
  } catch (e) {
    const name = { queueFactor: 'EVENTBOOST_QUEUE_FACTOR', sampleUs: 'EVENTBOOST_SAMPLE_US',
      maxDelayMs: 'EVENTBOOST_QUEUE_MAX_DELAY_MS', headOfLine: 'EVENTBOOST_QUEUE_HEAD_OF_LINE',
      bursts: 'EVENTBOOST_QUEUE_BURSTS',
      device: 'EVENTBOOST_DEVICE', gc: 'EVENTBOOST_GC_KINDS' };
    const m = /option (\w+)/.exec(e.message);
    throw new Error(m && name[m[1]] ? e.message.replace(/^eventboost: option \w+/, name[m[1]]) : e.message);
  }
  return { options };
}

// Where the hint device is when neither the device option nor
// EVENTBOOST_DEVICE says.
const DEFAULT_DEVICE = '/dev/eventboost';

module.exports = { normalize, fromEnv, GC_KINDS, DEFAULT_GC_KINDS, DEFAULTS, DEFAULT_DEVICE };
