// SPDX-License-Identifier: GPL-2.0
/*
 * eventboost: applying a decision.  eb_kick() hands the decided frequency
 * to the driver: fast switch on a CPU of the policy (locally or by IPI), or
 * the SCHED_FIFO worker.  Separate from eb_decide(), which never touches a
 * driver; the budget and rate timers re-decide and apply from here.
 */
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/smp.h>

#include "eb_internal.h"
#include "eb_trace.h"

/*
 * @boost: @khz is the boost, the clock is there now (charged from @since:
 * a slow driver may have made it at any moment of its call), or it left it.
 * The same frequency asked again (new limits) is no change: not for the
 * rate limit, nor for a grant.
 */
static void eb_applied(struct eb_policy *ebp, unsigned int khz, bool boost,
		       u64 since, bool fast)
{
	u64 now = ktime_get_ns(), lat = 0;

	eb_account(ebp, now);
	if (boost && !ebp->at_boost)
		eb_charge_since(ebp, since, now);
	ebp->at_boost = boost;
	/* A grant is good for one change, whichever change came first. */
	if (khz != ebp->applied_khz || khz == ebp->granted_khz) {
		ebp->change_ns = now;
		ebp->granted_khz = 0;
	}
	ebp->applied_khz = khz;
	ebp->cnt.applied++;
	if (ebp->hint_ns) {
		u64 us;

		lat = now - ebp->hint_ns;
		us = div_u64(lat, NSEC_PER_USEC);
		ebp->cnt.latency[min_t(unsigned int, fls64(us),
				       EB_LAT_BUCKETS - 1)]++;
		ebp->hint_ns = 0;
	}
	trace_eventboost_apply(ebp->nr, khz, fast, lat);
}

/*
 * A target no decision let through, decided while a change was on its way
 * (against the applied_khz before it): if it is a step up, it waits for
 * the rate limit, as a decision would have made it.
 */
static bool eb_apply_held_back(struct eb_policy *ebp, unsigned int khz)
{
	return khz > ebp->applied_khz && khz != ebp->granted_khz &&
	       eb_rate_limited(ebp, ktime_get_ns());
}

/*
 * The driver failed a change.  A voting client's next look retries a
 * boost, but nothing would retry a step down (no vote, no look): the rate
 * timer re-decides after the rate limit, a tick at least, so that a driver
 * that keeps failing is not called in a loop.  Not once stopped: stop has
 * cancelled the timer, or is about to (ebp->lock held).
 */
static void eb_apply_failed(struct eb_policy *ebp)
{
	u64 delay = (u64)READ_ONCE(ebp->tunables->rate_limit_us) * NSEC_PER_USEC;

	/* The grant was for this change: a retry is decided anew. */
	ebp->granted_khz = 0;
	if (ebp->started && !hrtimer_is_queued(&ebp->rate_timer))
		hrtimer_start(&ebp->rate_timer,
			      ns_to_ktime(ktime_get_ns() + max_t(u64, delay, TICK_NSEC)),
			      HRTIMER_MODE_ABS_HARD);
}

/*
 * The driver is called now: the limits it sees count as asked for, also if
 * the call fails (a failing driver is not asked again at every hint).
 */
static void eb_asking(struct eb_policy *ebp)
{
	ebp->applied_min_khz = READ_ONCE(ebp->policy->min);
	ebp->applied_max_khz = READ_ONCE(ebp->policy->max);
}

/*
 * Fast switch: on a CPU of the policy, with ebp->lock held (irqs off).  An
 * IPI sent before its target CPU left the policy leaves the change to the
 * policy's CPUs (the governor's start after the change applies anew).
 * Resolved first, as schedutil does: some drivers' fast switch
 * (qcom-cpufreq-hw, apple-soc-cpufreq) applies the table entry the core
 * resolved last, not the frequency it is given.
 */
static void eb_apply_fast_locked(struct eb_policy *ebp)
{
	struct cpufreq_policy *policy = ebp->policy;
	unsigned int khz = ebp->target_khz;

	if (!ebp->started ||
	    (khz == ebp->applied_khz && !eb_limits_new(ebp)) ||
	    !cpumask_test_cpu(smp_processor_id(), policy->cpus) ||
	    eb_apply_held_back(ebp, khz))
		return;
	eb_asking(ebp);
	if (cpufreq_driver_fast_switch(policy,
				       cpufreq_driver_resolve_freq(policy, khz)))
		eb_applied(ebp, khz, ebp->target_boost, ktime_get_ns(), true);
	else
		eb_apply_failed(ebp);
}

static void eb_apply_ipi(void *info)
{
	struct eb_policy *ebp = info;

	raw_spin_lock(&ebp->lock);
	eb_apply_fast_locked(ebp);
	raw_spin_unlock(&ebp->lock);
}

/*
 * A csd, not an irq_work as in schedutil: irq_work_queue_on() is not
 * exported to modules (6.1 to 7.2).  The csd is free again before this
 * runs, and ipi_pending is cleared before the unlock (a kick after it must
 * send its own IPI): eb_policy_stop() waits for ipi_pending, then for an
 * RCU grace period, which this interrupts-off handler holds up until it
 * has let go of ebp.
 */
void eb_apply_ipi_async(void *info)
{
	struct eb_policy *ebp = info;

	raw_spin_lock(&ebp->lock);
	WRITE_ONCE(ebp->ipi_pending, false);
	eb_apply_fast_locked(ebp);
	raw_spin_unlock(&ebp->lock);
}

/* Slow path: process context, may sleep in the driver. */
void eb_apply_slow(struct eb_policy *ebp)
{
	unsigned long flags;
	unsigned int khz;
	u64 called;
	bool boost;
	int ret;

	mutex_lock(&ebp->work_lock);
	raw_spin_lock_irqsave(&ebp->lock, flags);
	ebp->work_in_progress = false;
	/*
	 * A decision made while the driver ran was compared with the old
	 * applied_khz and may have been filtered as a no-op: once applied,
	 * apply the latest target too, until they agree and the call saw the
	 * policy's limits (eb_limits_new()); one that no
	 * decision let through may have to wait for the rate timer.
	 */
	while (ebp->started && (ebp->target_khz != ebp->applied_khz ||
				eb_limits_new(ebp))) {
		khz = ebp->target_khz;
		if (eb_apply_held_back(ebp, khz))
			break;
		/*
		 * The driver may make a boost at any moment of its call, and
		 * nothing takes it back: once made, it is charged from the
		 * call, until a step down is made, whether or not its vote
		 * lasts that long.  A failed call made nothing: no charge.
		 */
		boost = ebp->target_boost;
		ebp->applying = true;
		ebp->applying_boost = boost;
		eb_asking(ebp);
		called = ktime_get_ns();
		raw_spin_unlock_irqrestore(&ebp->lock, flags);
		ret = __cpufreq_driver_target(ebp->policy, khz, CPUFREQ_RELATION_L);
		raw_spin_lock_irqsave(&ebp->lock, flags);
		ebp->applying = false;
		ebp->applying_boost = false;
		if (ret) {
			eb_apply_failed(ebp);
			break;
		}
		eb_applied(ebp, khz, boost, called, false);
	}
	raw_spin_unlock_irqrestore(&ebp->lock, flags);
	mutex_unlock(&ebp->work_lock);
}

void eb_work_fn(struct kthread_work *work)
{
	eb_apply_slow(container_of(work, struct eb_policy, work));
}

/*
 * Apply the latest decision.  @sync (process context only): with fast
 * switch, the frequency is set before this returns.
 */
void eb_kick(struct eb_policy *ebp, bool sync)
{
	unsigned long flags;
	unsigned int cpu, target_cpu;

	if (!ebp->fast) {
		raw_spin_lock_irqsave(&ebp->lock, flags);
		if (ebp->started && !ebp->work_in_progress) {
			ebp->work_in_progress = true;
			kthread_queue_work(ebp->worker, &ebp->work);
		}
		raw_spin_unlock_irqrestore(&ebp->lock, flags);
		return;
	}

	cpu = get_cpu();
	if (cpumask_test_cpu(cpu, ebp->policy->cpus)) {
		raw_spin_lock_irqsave(&ebp->lock, flags);
		eb_apply_fast_locked(ebp);
		raw_spin_unlock_irqrestore(&ebp->lock, flags);
		goto out;
	}
	/* intel_cpufreq and others write the MSR of the CPU they run on. */
	target_cpu = cpumask_any_and(ebp->policy->cpus, cpu_online_mask);
	if (target_cpu >= nr_cpu_ids)
		goto out;
	if (sync && !irqs_disabled()) {
		smp_call_function_single(target_cpu, eb_apply_ipi, ebp, 1);
		goto out;
	}
	raw_spin_lock_irqsave(&ebp->lock, flags);
	if (ebp->started && !ebp->ipi_pending) {
		WRITE_ONCE(ebp->ipi_pending, true);
		if (smp_call_function_single_async(target_cpu, &ebp->csd))
			WRITE_ONCE(ebp->ipi_pending, false);
	}
	raw_spin_unlock_irqrestore(&ebp->lock, flags);
out:
	put_cpu();
}

static void eb_redecide_async(struct eb_policy *ebp)
{
	unsigned long flags;
	bool kick;

	raw_spin_lock_irqsave(&ebp->lock, flags);
	kick = eb_decide(ebp, ktime_get_ns(), 0, true);
	raw_spin_unlock_irqrestore(&ebp->lock, flags);
	if (kick)
		eb_kick(ebp, false);
}

enum hrtimer_restart eb_budget_timer_fn(struct hrtimer *timer)
{
	eb_redecide_async(container_of(timer, struct eb_policy, budget_timer));
	return HRTIMER_NORESTART;
}

enum hrtimer_restart eb_rate_timer_fn(struct hrtimer *timer)
{
	eb_redecide_async(container_of(timer, struct eb_policy, rate_timer));
	return HRTIMER_NORESTART;
}
