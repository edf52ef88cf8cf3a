/* SPDX-License-Identifier: GPL-2.0 */
/*
 * eventboost tracepoints: trace-cmd record -e eventboost,
 * perf record -e 'eventboost:*'.  The fields and their print format are
 * documented in README.md ("Tracing"); keep them in step.
 *
 * "policy" is the N of /sys/devices/system/cpu/cpufreq/policyN, which
 * stays the CPU the policy was created for when policy->cpu moves on
 * hotplug.  Units are in the field names: _khz, _us, _ns.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM eventboost

#if !defined(_EB_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _EB_TRACE_H

#include <linux/tracepoint.h>

/* Why a client's votes ended before it let go of them (eventboost_vote_end) */
#define EB_END_WATCHDOG		0	/* held max_boost_us */
#define EB_END_CLIENT_BUDGET	1	/* its process's share, or a kind's part */
#define EB_END_BUDGET		2	/* the policy's budget_pct is spent */

/*
 * A hint: @reason's vote started (@start) or ended; @votes, the client's
 * votes after it (on an error, those it asked for); @timed_us, a timed
 * boost's length.
 */
TRACE_EVENT(eventboost_hint,
	    TP_PROTO(int cpu, int tid, int reason, bool start,
		     unsigned int timed_us, unsigned int votes, int ret),
	    TP_ARGS(cpu, tid, reason, start, timed_us, votes, ret),
	    TP_STRUCT__entry(__field(int, cpu)
			     __field(int, tid)
			     __field(int, reason)
			     __field(bool, start)
			     __field(unsigned int, timed_us)
			     __field(unsigned int, votes)
			     __field(int, ret)),
	    TP_fast_assign(__entry->cpu = cpu;
			   __entry->tid = tid;
			   __entry->reason = reason;
			   __entry->start = start;
			   __entry->timed_us = timed_us;
			   __entry->votes = votes;
			   __entry->ret = ret;),
	    TP_printk("cpu=%d tid=%d reason=%s op=%s timed_us=%u votes=%s ret=%d",
		      __entry->cpu, __entry->tid,
		      __print_symbolic(__entry->reason,
				       { EB_REASON_GC, "gc" },
				       { EB_REASON_QUEUE, "queue" },
				       { EB_REASON_TIMED, "timed" }),
		      __entry->start ? "start" : "end", __entry->timed_us,
		      __print_flags(__entry->votes, "|",
				    { EB_VOTE_GC, "gc" },
				    { EB_VOTE_QUEUE, "queue" },
				    { EB_VOTE_TIMED, "timed" }),
		      __entry->ret)
);

/* The policy's target changed: boost or base, clamped to its limits. */
TRACE_EVENT(eventboost_decide,
	    TP_PROTO(unsigned int policy, unsigned int target_khz,
		     bool boosted, bool budget_spent),
	    TP_ARGS(policy, target_khz, boosted, budget_spent),
	    TP_STRUCT__entry(__field(unsigned int, policy)
			     __field(unsigned int, target_khz)
			     __field(bool, boosted)
			     __field(bool, budget_spent)),
	    TP_fast_assign(__entry->policy = policy;
			   __entry->target_khz = target_khz;
			   __entry->boosted = boosted;
			   __entry->budget_spent = budget_spent;),
	    TP_printk("policy=%u target_khz=%u boosted=%d budget_spent=%d",
		      __entry->policy, __entry->target_khz,
		      __entry->boosted, __entry->budget_spent)
);

/* The driver took @freq_khz; @latency_ns since the hint, 0 if none. */
TRACE_EVENT(eventboost_apply,
	    TP_PROTO(unsigned int policy, unsigned int freq_khz, bool fast,
		     u64 latency_ns),
	    TP_ARGS(policy, freq_khz, fast, latency_ns),
	    TP_STRUCT__entry(__field(unsigned int, policy)
			     __field(unsigned int, freq_khz)
			     __field(bool, fast)
			     __field(u64, latency_ns)),
	    TP_fast_assign(__entry->policy = policy;
			   __entry->freq_khz = freq_khz;
			   __entry->fast = fast;
			   __entry->latency_ns = latency_ns;),
	    TP_printk("policy=%u freq_khz=%u path=%s latency_ns=%llu",
		      __entry->policy, __entry->freq_khz,
		      __entry->fast ? "fast" : "worker",
		      (unsigned long long)__entry->latency_ns)
);

/*
 * The watchdog or a budget ended a client's @votes on @cpu after they
 * were held for @held_us.  @tid: the client's bound thread.
 */
TRACE_EVENT(eventboost_vote_end,
	    TP_PROTO(int cpu, int tid, int cause, unsigned int votes,
		     u64 held_us),
	    TP_ARGS(cpu, tid, cause, votes, held_us),
	    TP_STRUCT__entry(__field(int, cpu)
			     __field(int, tid)
			     __field(int, cause)
			     __field(unsigned int, votes)
			     __field(u64, held_us)),
	    TP_fast_assign(__entry->cpu = cpu;
			   __entry->tid = tid;
			   __entry->cause = cause;
			   __entry->votes = votes;
			   __entry->held_us = held_us;),
	    TP_printk("cpu=%d tid=%d cause=%s votes=%s held_us=%llu",
		      __entry->cpu, __entry->tid,
		      __print_symbolic(__entry->cause,
				       { EB_END_WATCHDOG, "watchdog" },
				       { EB_END_CLIENT_BUDGET, "client_budget" },
				       { EB_END_BUDGET, "budget" }),
		      __print_flags(__entry->votes, "|",
				    { EB_VOTE_GC, "gc" },
				    { EB_VOTE_QUEUE, "queue" },
				    { EB_VOTE_TIMED, "timed" }),
		      (unsigned long long)__entry->held_us)
);

/*
 * The policy spent its budget: @boosted_us of @budget_us in this window.
 * Its votes end (eventboost_vote_end cause=budget) and boosts are refused
 * until the window ends.
 */
TRACE_EVENT(eventboost_budget_end,
	    TP_PROTO(unsigned int policy, u64 boosted_us, u64 budget_us),
	    TP_ARGS(policy, boosted_us, budget_us),
	    TP_STRUCT__entry(__field(unsigned int, policy)
			     __field(u64, boosted_us)
			     __field(u64, budget_us)),
	    TP_fast_assign(__entry->policy = policy;
			   __entry->boosted_us = boosted_us;
			   __entry->budget_us = budget_us;),
	    TP_printk("policy=%u boosted_us=%llu budget_us=%llu",
		      __entry->policy,
		      (unsigned long long)__entry->boosted_us,
		      (unsigned long long)__entry->budget_us)
);

#endif /* _EB_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE eb_trace
#include <trace/define_trace.h>
