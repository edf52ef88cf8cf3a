/** V8 collections eventboost can boost: pauses, and a major GC's marking cycle (incremental-marking). */
export type GcKind =
  | 'scavenge'
  | 'minor-mark-compact'
  | 'mark-compact'
  | 'incremental-marking'
  | 'weak-callbacks';

export interface StartOptions {
  /**
   * GC-Boost: true (the major GC cycles alone: a major GC's whole marking cycle,
   * incremental-marking, and its mark-compact), false, or the kinds to boost; the preload takes
   * them from $EVENTBOOST_GC_KINDS. Adding 'scavenge' and 'minor-mark-compact' boosts every
   * pause, at about five times the extra energy. Default true.
   */
  gc?: boolean | readonly GcKind[];
  /** Queue-Boost. Default true. */
  queue?: boolean;
  /** Dynamic thresholds are the running averages times this factor (1..100). Default 5 (2.5 until 2026-11-28). */
  queueFactor?: number;
  /**
   * The floor of the head-of-line threshold, the typical iteration above which the loop counts
   * its backlog itself at each prepare, and a quarter of the monitor's look interval or less
   * while it holds a boost, µs (100..1000000). Default 1000.
   */
  sampleUs?: number;
  /**
   * Queue-Boost's overload bound in ms (1..60000): a loop that has used this much of
   * its own CPU time since its poll last blocked (one long callback, or iterations that
   * each found work ready: a saturated loop) is boosted whatever the averages say, until
   * it waits again. Waits do not end that time while the loop stays idle less than a
   * tenth of it: callbacks that each end in a short wait (the threadpool, a client's next
   * request) are a saturated loop too. Default 100.
   */
  maxDelayMs?: number;
  /**
   * When a callback long next to the typical iteration (the head-of-line threshold) boosts:
   * 'always', or 'waiting': only once work waits behind it on the loop's epoll set.
   * The overload bound boosts in either. Default 'always'.
   */
  headOfLine?: 'always' | 'waiting';
  /**
   * When the monitor sees a burst of work that comes to a waiting loop: 'arrival', woken by
   * the work's arrival, or 'threshold', only once the iteration processing it has used the
   * head-of-line threshold of the loop's CPU time (no wake-up for work that stays below it).
   * Default 'threshold' ('arrival' until 2026-11-28).
   */
  bursts?: 'arrival' | 'threshold';
  /** Hint device. Default $EVENTBOOST_DEVICE (this thread's process.env), else /dev/eventboost. */
  device?: string;
}

export interface StartResult {
  /**
   * Whether this start() took effect.  false (a device that cannot be opened, a Queue-Boost
   * monitor that cannot start: code 'EAGAIN', 'EMFILE'...) changes nothing: the configuration
   * that ran before runs on, if one did; stats().active says whether one does.  'EAGAIN' is
   * also a module still loading (its device refuses opens until its governor is registered;
   * start() first waits up to a second for it, blocking the calling thread).
   */
  active: boolean;
  /** Why eventboost is inactive and what to do; null when active. */
  reason: string | null;
  /** The negative errno start() met (-ENOENT...), 0 when none (active, or no addon). */
  errno: number;
  /** That errno's name as Node names it ('ENOENT', 'EAGAIN'...), null when none. */
  code: string | null;
}

export interface Stats {
  active: boolean;
  /**
   * Why eventboost is inactive; while active, null, or what makes it do nothing (the loop's
   * CPU is not governed by eventboost: another governor, or no cpufreq driver).
   */
  reason: string | null;
  /** The event-loop thread the client is bound to, and the CPU it is on now. */
  thread: { tid: number; cpu: number } | null;
  /**
   * The gc and queue counts are the running configuration's: each start() that opens its device
   * counts afresh; after stop(), what the last one did.
   */
  gc: {
    enabled: boolean;
    kinds: GcKind[];
    /** GCs whose boost hint the kernel accepted. */
    boosts: number;
    /** Hints refused (EBUSY): the policy's budget, the process's share of it, or GC's fair part of that share was spent. */
    refused: number;
    errors: number;
    /** Hooked GC events, byKind's sum: a marking cycle's start ('incremental-marking') and its
     *  mark-compact pause count one each; timeMs and maxMs are of the pauses only. */
    count: number;
    timeMs: number;
    maxMs: number;
    /** 'incremental-marking': time the vote was held for marking cycles
     *  (finished ones), and whether a cycle holds it now. */
    markingMs: number;
    markingNow: boolean;
    byKind: Record<GcKind, number>;
  };
  queue: {
    enabled: boolean;
    /** The start() options it runs with; null when it does not run. */
    headOfLine: 'always' | 'waiting' | null;
    bursts: 'arrival' | 'threshold' | null;
    queueFactor: number | null;
    sampleUs: number | null;
    maxDelayMs: number | null;
    boosts: number;
    /** Whether the monitor holds a boost, and for how long in all it did: its own view,
     *  from its vote to its end (kernel.boostedMs is what the core saw). */
    boostedNow: boolean;
    boostedMs: number;
    /** Boosts started by the queue length, the head-of-line time, and the overload bound (one
     *  callback, or iterations that never waited or were idle less than a tenth of the time,
     *  past maxDelayMs of the loop's CPU time). */
    byLength: number;
    byHeadOfLine: number;
    byOverload: number;
    /** Times a boost was kept on through a poll of a loop the overload bound holds saturated
     *  (the wait likely one of its short ones); one that turns out long ends it once the loop
     *  has been idle a tenth of the count's CPU time (at most maxDelayMs / 5, plus 1 ms). */
    keptThroughWaits: number;
    /** Boosts ended, though a signal still held them, because the loop thread slept in a
     *  callback (not runnable, its CPU time still) at every look for 32 sampleUs, at most
     *  maxDelayMs. */
    endedAsleep: number;
    /** Votes the kernel ended (watchdog, budget) while the backlog lasted,
     *  and the monitor renewed. */
    renewed: number;
    refused: number;
    errors: number;
    /** Running averages the thresholds scale. */
    avgLength: number;
    avgBusyUs: number;
    iterations: number;
    /** Of iterations, those whose poll blocked (the loop waited for work): a saturated loop's
     *  stay put while its iterations grow. */
    waits: number;
    samples: number;
    monitorWakeups: number;
    /** Of monitorWakeups, those for work arriving at a waiting loop, or (headOfLine 'waiting')
     *  behind a long callback. */
    monitorArrivals: number;
  };
  /** The kernel's counters for the policy of the loop's CPU; null when unavailable. */
  kernel: {
    policy: number;
    governed: boolean;
    fastSwitch: boolean;
    boosted: boolean;
    budgetSpent: boolean;
    curKhz: number;
    baseKhz: number;
    boostKhz: number;
    hints: { gc: number; queue: number; timed: number };
    boosts: number;
    /** Share of the governed time the policy spent boosted. */
    boostedShare: number;
    /** Time (ms) the policy spent boosted, for every process's votes, since eventboost
     *  was last selected for it; differences over an interval give a rate. */
    boostedMs: number;
    /** The policy's watchdog (max_boost_us): a vote held longer is ended, boostFor()'s too. */
    maxBoostUs: number;
    watchdogEnds: number;
    budgetEnds: number;
    refused: number;
    /** Hint to applied frequency, upper bounds in µs; null when nothing was recorded; 32768
     *  for the last bucket, which has none (16384 µs or more). */
    latencyP50Us: number | null;
    latencyP99Us: number | null;
  } | null;
}

/**
 * Start for the calling thread's event loop; throws only on invalid options: a TypeError
 * (code ERR_INVALID_ARG_TYPE, or ERR_INVALID_ARG_VALUE for an unknown option) or a RangeError
 * (ERR_OUT_OF_RANGE, or ERR_INVALID_ARG_VALUE for an unknown GC kind).  Again: replaces the
 * running configuration, unless its device cannot be opened or its Queue-Boost monitor cannot
 * start (the running one runs on).
 */
export function start(options?: StartOptions): StartResult;
/** Undo everything; safe to call when not started. */
export function stop(): void;
export function stats(): Stats;
/** Timed boost of the loop's core for usec µs (0..10000000, 0 ends it); false when inactive or refused.
 *  The policy's watchdog (stats().kernel.maxBoostUs, 100 ms by default) ends it sooner. */
export function boostFor(usec: number): boolean;
export const GC_KINDS: readonly GcKind[];
