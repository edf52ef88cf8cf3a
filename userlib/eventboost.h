/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libeventboost — hints for the eventboost cpufreq governor.
 *
 * A client is one open /dev/eventboost, bound to the thread that called
 * eb_open().  Hints may come from any thread of the same process and act on
 * the core the bound thread runs on (and follow it if it migrates): a
 * monitor thread can boost the event loop's core.  One client may be used
 * from several threads at once; eb_close() must not race with other calls
 * on the same client.  There is no global state.
 *
 * Every call returns 0 or a negative errno; eb_strerror() says what to do.
 * What a client holds is undone when it is closed, when the bound thread or
 * the process exits (also on SIGKILL), when a vote is held longer than the
 * policy's max_boost_us, when the process has used its share (half) of the
 * policy's budget_pct, and when the policy's budget_pct is spent.
 */
#ifndef EVENTBOOST_H
#define EVENTBOOST_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stddef.h>
#include <stdint.h>

#define EB_DEFAULT_DEVICE "/dev/eventboost"

struct eb_client;

/*
 * Open a client bound to the calling thread.  @device: NULL for
 * $EVENTBOOST_DEVICE, else /dev/eventboost.  -ENOENT: module not loaded
 * (also for a device node with no driver behind it); -EACCES: no
 * permission; -EPROTO: the module speaks another ABI version; -EAGAIN: the
 * module is still loading (waited for up to a second first).
 */
int eb_open(struct eb_client **out, const char *device);

/*
 * The same, for a client that only reads (eb_stats(), eb_votes()): needs
 * read access to the device only, as a monitoring user may have; its hints
 * and eb_bind() get -EBADF.  (libeventboost 1.3)
 */
int eb_open_readonly(struct eb_client **out, const char *device);

/* Close: every vote of the client ends.  NULL is ignored. */
void eb_close(struct eb_client *c);

/* Bind to thread @tid of this process (0: the calling thread). */
int eb_bind(struct eb_client *c, int tid);

/*
 * Votes, idempotent per reason: entering twice and exiting once leaves no
 * vote; exiting without entering is harmless.  -EBUSY: the policy's budget,
 * or this process's share of it (half, for all its clients together), is
 * spent for this window; -ESRCH: the bound thread exited (eb_bind).
 */
int eb_gc_enter(struct eb_client *c);
int eb_gc_exit(struct eb_client *c);
int eb_queue_busy(struct eb_client *c);
int eb_queue_idle(struct eb_client *c);

/* Timed vote until the later of its current end and now + @usec
 * (at most 10 s); 0 ends it. */
int eb_boost_for(struct eb_client *c, unsigned int usec);

/*
 * The votes the kernel holds for the client now, EB_HOLDS_* bits, or a
 * negative errno.  A vote the program still thinks it holds may be gone:
 * the watchdog (max_boost_us) or a budget ended it.  A program that still
 * wants it votes again (the budget decides); a monitor that holds a vote
 * while a condition lasts asks here rather than trust its own state.
 * Held is not boosting: where eventboost does not govern the bound
 * thread's CPU a hint succeeds and holds nothing, and a vote held when
 * the CPU stops being governed (or the thread exits) is dropped within a
 * tick.
 */
#define EB_HOLDS_GC	0x1u
#define EB_HOLDS_QUEUE	0x2u
#define EB_HOLDS_TIMED	0x4u
int eb_votes(struct eb_client *c);

/*
 * The kernel's view of one policy, from eb_stats().  The structure only
 * grows: new fields are appended after latency[], and the library writes
 * only as many bytes as the caller's sizeof (see eb_stats_sized), so a
 * program built against an older header keeps working with a newer library.
 */
struct eb_stats {
	unsigned int policy_cpu;	/* policyN */
	int governed;			/* eventboost runs this policy */
	int fast_switch;		/* applied by fast switch, else worker */
	int boosted;			/* at boost_khz now */
	int budget_spent;		/* boosts refused until the window ends */
	unsigned int cur_khz, target_khz, base_khz, boost_khz;
	unsigned int max_boost_us, budget_pct;
	uint64_t hints_gc, hints_queue, hints_timed;
	uint64_t boosts;		/* times the policy went to boost */
	uint64_t boosted_ns, governed_ns;
	uint64_t watchdog_ends, budget_ends, refused, applied;
	uint64_t latency[16];		/* hint->applied: [0] <1us, [k] <2^k us,
					 * [15] >=16384us */
};

/* Size of struct eb_stats in libeventboost 0.1.0 (SONAME libeventboost.so.1). */
#define EB_STATS_SIZE_V1	(offsetof(struct eb_stats, latency) + 16 * sizeof(uint64_t))

/*
 * Counters of the policy of @cpu (any client may read any policy) into the
 * first @size bytes of @st: pass sizeof(*st).  Fields this library does not
 * know of (a caller built against a newer header) are zeroed.  -EINVAL when
 * @size is below EB_STATS_SIZE_V1; -ENODEV when @cpu is offline or has no
 * cpufreq policy (policy_cpu names a policy's first CPU, which may be).
 */
int eb_stats_sized(struct eb_client *c, unsigned int cpu, struct eb_stats *st,
		   size_t size);

/* eb_stats(c, cpu, &st): the same, with the caller's sizeof(st).  (The
 * function of that name, kept for binaries built against 0.1.0, fills
 * EB_STATS_SIZE_V1 bytes.) */
int eb_stats(struct eb_client *c, unsigned int cpu, struct eb_stats *st);
#define eb_stats(c, cpu, st) eb_stats_sized((c), (cpu), (st), sizeof(*(st)))

/* Upper bound in microseconds of the @pct (0..100) hint->applied
 * percentile, or -ENODATA when nothing was recorded.  32768 is latency[15]'s,
 * which has none: 16384 us or more. */
long eb_latency_percentile_us(const struct eb_stats *st, double pct);

/* A sentence for a negative errno from these calls: what went wrong and
 * what to do. */
const char *eb_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif /* EVENTBOOST_H */
