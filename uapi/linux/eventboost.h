/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * eventboost: hint device ABI (/dev/eventboost).
 *
 * Each open file is a client bound to one thread (the opener, or the thread
 * given to EB_IOC_BIND).  Hints from any thread of that process vote for the
 * CPU the bound thread runs on; the vote follows the thread if it migrates.
 * Reasons vote separately and idempotently: GC, queue and a timed boost.
 * Every vote ends on close, on bound-thread or process exit, when held longer
 * than the policy's max_boost_us (watchdog), when the client's process has
 * used its share (half, for all its clients together) of the policy's
 * budget_pct in its own 1 s window, when the policy's budget_pct is spent,
 * and when the bound thread moves to a CPU whose policy's is.  The kinds of
 * vote (GC, queue, timed) a process asked for in that window or the one
 * before share its share: each may use it less what the others have not yet
 * used of their equal part, so that a GC vote held long leaves Queue-Boost
 * its half (a kind alone may use all of it); a kind at its limit ends alone,
 * and its hints get -EBUSY.  A hint for a CPU that eventboost does not govern
 * is accepted and ignored: it starts no vote and ends the client's votes, as
 * EB_IOC_BIND to a thread on such a CPU does.
 *
 * Stability: ioctl numbers and struct layouts never change.  Structures
 * carry reserved fields that must be zero; new features set bits in
 * eb_version.features.  All structures have the same layout for 32- and
 * 64-bit userspace.
 *
 * Errors: -ENOTTY unknown command, -EINVAL bad value or reserved field set,
 * -EFAULT bad pointer, -EPERM caller is not in the bound thread's process,
 * -ESRCH from a hint: the bound thread has exited (rebind); from EB_IOC_BIND:
 * no such thread in the caller's process, -EBUSY budget spent (retry later),
 * -EBADF a hint or EB_IOC_BIND through a file not opened for writing.
 * A failing call changes nothing, with three exceptions: -ESRCH from a hint
 * also ends the client's votes (they were for the exited thread's CPU), so
 * does -EBUSY from a hint while the bound thread moved to a CPU whose
 * policy's budget is spent (the move ends them; the client's next look,
 * within a tick, ends them anyway), and a hint refused with -EBUSY counts
 * as asking for its kind (the fair share above).
 */
#ifndef _UAPI_LINUX_EVENTBOOST_H
#define _UAPI_LINUX_EVENTBOOST_H

#include <linux/const.h>
#include <linux/ioctl.h>
#include <linux/types.h>

#define EB_ABI_VERSION		1

/* eb_version.features */
#define EB_FEAT_GC		_BITUL(0)
#define EB_FEAT_QUEUE		_BITUL(1)
#define EB_FEAT_TIMED		_BITUL(2)
#define EB_FEAT_BIND		_BITUL(3)
#define EB_FEAT_POLICY_STATS	_BITUL(4)
#define EB_FEAT_CLIENT_INFO	_BITUL(5)
#define EB_FEAT_FAIR_SHARE	_BITUL(6)	/* kinds of vote share the share */

struct eb_version {
	__u32 abi_version;	/* out: EB_ABI_VERSION */
	__u32 features;		/* out: EB_FEAT_* */
	__u32 reserved[6];	/* in: must be zero */
};

/* Votes held by a client (eb_client_info.votes). */
#define EB_VOTE_GC		_BITUL(0)
#define EB_VOTE_QUEUE		_BITUL(1)
#define EB_VOTE_TIMED		_BITUL(2)

/* Longest single timed boost: 10 s (the watchdog usually ends it sooner). */
#define EB_BOOST_FOR_MAX_US	10000000U

struct eb_boost_for {
	__u32 usec;		/* 0 ends the timed vote; else hold it for usec */
	__u32 flags;		/* must be zero */
	__u64 reserved;		/* must be zero */
};

struct eb_bind {
	__s32 tid;		/* thread to bind to, 0 = calling thread */
	__u32 flags;		/* must be zero */
	__u64 reserved;		/* must be zero */
};

struct eb_client_info {
	__s32 bound_tid;	/* bound thread, 0 if it has exited */
	__s32 vote_cpu;		/* CPU the votes land on, -1 if none */
	__u32 votes;		/* EB_VOTE_* */
	__u32 reserved0;
	__u64 timed_left_us;	/* remaining timed boost */
	__u64 reserved[2];
};

/* Hint->applied latency histogram: bucket 0 is < 1 us, bucket k (1..14)
 * is [2^(k-1), 2^k) us, bucket 15 is >= 16384 us.
 */
#define EB_LAT_BUCKETS		16

/* eb_policy_stats.flags (out) */
#define EB_POLICY_GOVERNED	_BITUL(0)	/* eventboost runs this policy */
#define EB_POLICY_FAST_SWITCH	_BITUL(1)	/* applied by fast switch */
#define EB_POLICY_BOOSTED	_BITUL(2)	/* at boost_freq now, or being set to it */
#define EB_POLICY_BUDGET_SPENT	_BITUL(3)	/* boosts refused until window end */

#define EB_REASON_GC		0
#define EB_REASON_QUEUE		1
#define EB_REASON_TIMED		2
#define EB_NR_REASONS		4	/* one spare slot */

/* EB_IOC_POLICY_STATS: a CPU number the machine cannot have is EINVAL. */
struct eb_policy_stats {
	__u32 cpu;		/* in: an online CPU of the policy, else ENODEV */
	__u32 in_flags;		/* in: must be zero */
	__u32 policy_cpu;	/* out: N of sysfs policyN (stays while CPU N is offline) */
	__u32 flags;		/* out: EB_POLICY_* */
	__u32 cur_khz;		/* out: policy->cur */
	__u32 target_khz;	/* out: last decided frequency */
	__u32 base_khz;		/* out: effective base_freq */
	__u32 boost_khz;	/* out: effective boost_freq */
	__u32 max_boost_us;	/* out: watchdog */
	__u32 budget_pct;	/* out: budget */
	__u64 hints[EB_NR_REASONS];	/* hints landing on the policy */
	__u64 boosts;		/* transitions to boosted */
	__u64 boosted_ns;	/* time spent boosted */
	__u64 governed_ns;	/* time governed by eventboost */
	__u64 watchdog_ends;	/* votes ended by max_boost_us */
	__u64 budget_ends;	/* boosts ended by budget_pct */
	__u64 refused;		/* hints refused while budget spent */
	__u64 applied;		/* frequency requests (also re-asked limits) */
	__u64 latency[EB_LAT_BUCKETS];	/* hint->applied, see above */
	__u64 reserved[8];	/* in: must be zero; out: zero */
};

#define EB_IOC_MAGIC		0xEB

#define EB_IOC_VERSION		_IOWR(EB_IOC_MAGIC, 0x00, struct eb_version)
/* Hints: the argument must be 0. */
#define EB_IOC_GC_ENTER		_IO(EB_IOC_MAGIC, 0x01)
#define EB_IOC_GC_EXIT		_IO(EB_IOC_MAGIC, 0x02)
#define EB_IOC_QUEUE_BUSY	_IO(EB_IOC_MAGIC, 0x03)
#define EB_IOC_QUEUE_IDLE	_IO(EB_IOC_MAGIC, 0x04)
#define EB_IOC_BOOST_FOR	_IOW(EB_IOC_MAGIC, 0x05, struct eb_boost_for)
#define EB_IOC_BIND		_IOW(EB_IOC_MAGIC, 0x06, struct eb_bind)
#define EB_IOC_CLIENT_INFO	_IOR(EB_IOC_MAGIC, 0x07, struct eb_client_info)
#define EB_IOC_POLICY_STATS	_IOWR(EB_IOC_MAGIC, 0x08, struct eb_policy_stats)

#endif /* _UAPI_LINUX_EVENTBOOST_H */
