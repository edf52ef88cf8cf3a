// SPDX-License-Identifier: GPL-2.0
/*
 * eventboost: the one decision.  eb_decide() picks a policy's next
 * frequency, base or boost, from its votes, budget, rate limit and limits,
 * and applies nothing: as in schedutil, one function decides and one
 * place (eb_apply.c) applies.
 */
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/workqueue.h>

#include "eb_internal.h"
#include "eb_trace.h"

unsigned int eb_nominal_khz(struct cpufreq_policy *policy)
{
	struct cpufreq_frequency_table *pos;
	unsigned int nominal = 0;
	bool has_boost = false;

	if (!policy->freq_table)
		return 0;
	cpufreq_for_each_valid_entry(pos, policy->freq_table) {
		if (pos->flags & CPUFREQ_BOOST_FREQ) {
			has_boost = true;
			continue;
		}
		nominal = max(nominal, pos->frequency);
	}
	/* acpi-cpufreq reports turbo only in cpuinfo.max_freq */
	if (has_boost || (nominal && nominal < policy->cpuinfo.max_freq))
		return nominal;
	return 0;
}

unsigned int eb_policy_boost_khz(struct eb_policy *ebp)
{
	unsigned int khz = READ_ONCE(ebp->tunables->boost_khz);

	return khz ? khz : ebp->policy->cpuinfo.max_freq;
}

unsigned int eb_policy_base_khz(struct eb_policy *ebp)
{
	struct cpufreq_policy *policy = ebp->policy;
	unsigned int khz = READ_ONCE(ebp->tunables->base_khz);

	if (khz)
		return khz;
	if (ebp->nominal_khz)
		return ebp->nominal_khz;
	return max(policy->cpuinfo.min_freq,
		   policy->cpuinfo.max_freq / 100 * EB_FALLBACK_BASE_PCT);
}

static unsigned int eb_policy_votes(struct eb_policy *ebp)
{
	unsigned int cpu, votes = 0;

	for_each_cpu(cpu, ebp->policy->cpus)
		votes += atomic_read(&per_cpu(eb_cpus, cpu).votes);
	return votes;
}

/*
 * A boost within rate_limit_us of the last change waits for the rate timer
 * (which re-decides then); after a quiet period it goes at once, so the
 * first boost still lands inside the hint's ioctl.  This bounds the
 * frequency changes, and the cross-CPU calls that apply them, per policy,
 * to two per interval.  A step down is never held back: a boost frequency
 * left behind would run for nothing, charged to the budget.  The
 * interval counts from the last change decided or applied, whichever is
 * later (a slow driver applies well after the decision).
 */
bool eb_rate_limited(struct eb_policy *ebp, u64 now)
{
	u64 next = ebp->change_ns +
		   (u64)READ_ONCE(ebp->tunables->rate_limit_us) * NSEC_PER_USEC;

	if (!ebp->change_ns || now >= next)
		return false;
	if (!hrtimer_is_queued(&ebp->rate_timer))
		hrtimer_start(&ebp->rate_timer, ns_to_ktime(next),
			      HRTIMER_MODE_ABS_HARD);
	return true;
}

/*
 * The limits changed since the driver was last called (with a frequency:
 * before the first, nothing is asked again).  Some drivers write them
 * into the hardware only with a frequency request
 * (CPUFREQ_NEED_UPDATE_LIMITS, not exported to modules: amd-pstate, cppc,
 * intel_cpufreq on HWP), so the frequency is asked for again, unchanged
 * or not, as schedutil asks them; a worker's call the limits overtook is
 * followed by another.  For other drivers the fast switch costs a call
 * of the same frequency, and the worker's __cpufreq_driver_target() lets
 * the core drop it.
 */
bool eb_limits_new(struct eb_policy *ebp)
{
	return ebp->applied_khz &&
	       (ebp->applied_min_khz != READ_ONCE(ebp->policy->min) ||
		ebp->applied_max_khz != READ_ONCE(ebp->policy->max));
}

/*
 * The one decision: boost while any CPU of the policy holds a vote, the
 * budget is not spent and the current limits leave room above base.
 * Returns true when the driver must be given a new frequency now (@limit:
 * unless rate limited).
 * Called with ebp->lock held.
 */
bool eb_decide(struct eb_policy *ebp, u64 now, u64 hint_ns, bool limit)
{
	struct cpufreq_policy *policy = ebp->policy;
	u64 budget = eb_budget_ns(ebp);
	unsigned int lo, hi, boost_khz, base_khz, target;
	bool want, held;

	if (!ebp->started)
		return false;
	lo = READ_ONCE(policy->min);
	hi = READ_ONCE(policy->max);
	boost_khz = clamp(eb_policy_boost_khz(ebp), lo, hi);
	base_khz = clamp(eb_policy_base_khz(ebp), lo, hi);
	eb_account(ebp, now);
	/*
	 * A vote never lowers the clock, nor spends the budget for nothing:
	 * with boost_freq written below base_freq, or the limits holding
	 * both at one frequency (scaling_max_freq at base_freq, a thermal
	 * cap), it holds that frequency, unboosted.
	 */
	want = !ebp->budget_spent && eb_policy_votes(ebp) &&
	       boost_khz > base_khz;
	if (want && ebp->window_used_ns >= budget) {
		WRITE_ONCE(ebp->budget_spent, true);
		ebp->cnt.budget_ends++;
		trace_eventboost_budget_end(ebp->nr,
					    div_u64(ebp->window_used_ns,
						    NSEC_PER_USEC),
					    div_u64(budget, NSEC_PER_USEC));
		want = false;
		queue_work(system_highpri_wq, &ebp->sweep_work);
	}
	target = want ? boost_khz : base_khz;
	if (target != ebp->target_khz)
		trace_eventboost_decide(ebp->nr, target, want,
					ebp->budget_spent);
	ebp->target_khz = target;
	ebp->target_boost = want;
	if (target != ebp->applied_khz && hint_ns && !ebp->hint_ns)
		ebp->hint_ns = hint_ns;
	/*
	 * A boost the rate limit holds back is decided, not made: the clock
	 * stays at base, so it is neither counted nor charged until the rate
	 * timer lets it through.  One already let through (on its way to the
	 * driver) is not held back again.
	 */
	held = limit && want && target != ebp->applied_khz &&
	       target != ebp->granted_khz && eb_rate_limited(ebp, now);
	/*
	 * One on its way was counted when it was let through; one a restart
	 * (stop, then start) found was counted before it: a hotplug's
	 * restart changes no frequency (a resume's driver may have; still
	 * one vote, one boost).
	 */
	if (want && !held && !ebp->boosted && target != ebp->granted_khz &&
	    !ebp->boosted_at_stop)
		ebp->cnt.boosts++;
	ebp->boosted = want && !held;
	ebp->boosted_at_stop = false;
	if (budget != U64_MAX)
		eb_budget_arm(ebp, now, budget);

	if (target == ebp->applied_khz) {
		/*
		 * No change is waiting, so no hint waits for one either; but
		 * one the worker is making is still timed from its hint.
		 * New limits are asked for, not granted: no change.
		 */
		if (!ebp->applying)
			ebp->hint_ns = 0;
		return eb_limits_new(ebp);
	}
	if (held)
		return false;
	ebp->granted_khz = target;
	ebp->change_ns = now;
	return true;
}
