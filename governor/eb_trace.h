/* SPDX-License-Identifier: GPL-2.0 */
/* eventboost tracepoints: trace-cmd record -e eventboost */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM eventboost

#if !defined(_EB_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _EB_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(eventboost_hint,
	    TP_PROTO(int cpu, int tid, unsigned int votes, int ret),
	    TP_ARGS(cpu, tid, votes, ret),
	    TP_STRUCT__entry(__field(int, cpu)
			     __field(int, tid)
			     __field(unsigned int, votes)
			     __field(int, ret)),
	    TP_fast_assign(__entry->cpu = cpu;
			   __entry->tid = tid;
			   __entry->votes = votes;
			   __entry->ret = ret;),
	    TP_printk("cpu=%d tid=%d votes=%#x ret=%d",
		      __entry->cpu, __entry->tid, __entry->votes, __entry->ret)
);

TRACE_EVENT(eventboost_decide,
	    TP_PROTO(unsigned int policy_cpu, unsigned int target_khz,
		     bool boosted, bool budget_spent),
	    TP_ARGS(policy_cpu, target_khz, boosted, budget_spent),
	    TP_STRUCT__entry(__field(unsigned int, policy_cpu)
			     __field(unsigned int, target_khz)
			     __field(bool, boosted)
			     __field(bool, budget_spent)),
	    TP_fast_assign(__entry->policy_cpu = policy_cpu;
			   __entry->target_khz = target_khz;
			   __entry->boosted = boosted;
			   __entry->budget_spent = budget_spent;),
	    TP_printk("policy=%u target=%u boosted=%d budget_spent=%d",
		      __entry->policy_cpu, __entry->target_khz,
		      __entry->boosted, __entry->budget_spent)
);

TRACE_EVENT(eventboost_apply,
	    TP_PROTO(unsigned int policy_cpu, unsigned int khz, bool fast,
		     u64 latency_ns),
	    TP_ARGS(policy_cpu, khz, fast, latency_ns),
	    TP_STRUCT__entry(__field(unsigned int, policy_cpu)
			     __field(unsigned int, khz)
			     __field(bool, fast)
			     __field(u64, latency_ns)),
	    TP_fast_assign(__entry->policy_cpu = policy_cpu;
			   __entry->khz = khz;
			   __entry->fast = fast;
			   __entry->latency_ns = latency_ns;),
	    TP_printk("policy=%u khz=%u path=%s hint_to_applied_ns=%llu",
		      __entry->policy_cpu, __entry->khz,
		      __entry->fast ? "fast" : "worker",
		      (unsigned long long)__entry->latency_ns)
);

#endif /* _EB_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE eb_trace
#include <trace/define_trace.h>
