// SPDX-License-Identifier: GPL-2.0
/*
 * eventboost: a policy's lifetime under the governor.  Its state set up
 * and torn down, start, stop, and the re-decision after a limits or
 * tunable change: what eb_governor.c calls, none of it per hint.
 */
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/kthread.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/workqueue.h>

#include "eb_internal.h"

/* @budget_spent: run (in process context) when the budget is spent. */
int eb_policy_init_state(struct eb_policy *ebp, work_func_t budget_spent)
{
	struct cpufreq_policy *policy = ebp->policy;

	raw_spin_lock_init(&ebp->lock);
	mutex_init(&ebp->work_lock);
	INIT_LIST_HEAD(&ebp->tunables_hook);
	eb_hrtimer_setup(&ebp->budget_timer, eb_budget_timer_fn,
			 CLOCK_MONOTONIC, HRTIMER_MODE_ABS_HARD);
	eb_hrtimer_setup(&ebp->rate_timer, eb_rate_timer_fn,
			 CLOCK_MONOTONIC, HRTIMER_MODE_ABS_HARD);
	INIT_CSD(&ebp->csd, eb_apply_ipi_async, ebp);
	INIT_WORK(&ebp->sweep_work, budget_spent);
	kthread_init_work(&ebp->work, eb_work_fn);
	ebp->nr = eb_policy_nr(policy);
	ebp->nominal_khz = eb_nominal_khz(policy);
	ebp->fast = policy->fast_switch_enabled;
	if (ebp->fast)
		return 0;

	ebp->worker = eb_kthread_run_worker(0, "eventboost/%u", ebp->nr);
	if (IS_ERR(ebp->worker)) {
		int ret = PTR_ERR(ebp->worker);

		ebp->worker = NULL;
		return ret;
	}
	/* Like schedutil's worker: a boost must not wait behind the loop. */
	sched_set_fifo(ebp->worker->task);
	return 0;
}

void eb_policy_exit_state(struct eb_policy *ebp)
{
	if (ebp->worker)
		kthread_destroy_worker(ebp->worker);
}

/*
 * From init to exit the policy's CPUs are governed, also while it is
 * stopped: the clients find its tunables (budget, watchdog) there, and a
 * hint then keeps its votes for the start that follows to count.
 */
void eb_policy_govern(struct eb_policy *ebp)
{
	unsigned int cpu;

	for_each_cpu(cpu, ebp->policy->related_cpus)
		rcu_assign_pointer(per_cpu(eb_cpus, cpu).gov, ebp);
}

/* Before the tunables and ebp are freed: no client reads them after. */
void eb_policy_ungovern(struct eb_policy *ebp)
{
	unsigned int cpu;

	for_each_cpu(cpu, ebp->policy->related_cpus)
		if (rcu_access_pointer(per_cpu(eb_cpus, cpu).gov) == ebp)
			RCU_INIT_POINTER(per_cpu(eb_cpus, cpu).gov, NULL);
	synchronize_rcu();
}

void eb_policy_start(struct eb_policy *ebp)
{
	u64 now = ktime_get_ns();
	unsigned long flags;
	unsigned int cpu;

	raw_spin_lock_irqsave(&ebp->lock, flags);
	ebp->started = true;
	ebp->boosted = false;
	ebp->at_boost = false;
	ebp->target_khz = 0;
	ebp->target_boost = false;
	ebp->applied_khz = 0;
	ebp->applied_min_khz = 0;
	ebp->applied_max_khz = 0;
	ebp->granted_khz = 0;
	ebp->applying = false;
	ebp->hint_ns = 0;
	ebp->change_ns = 0;
	ebp->acct_ns = now;
	ebp->start_ns = now;
	/*
	 * The budget window is the policy's, not the start's: a restart (a
	 * CPU leaving or joining a shared policy, resume) keeps what it has
	 * spent, or each would hand out a fresh budget (its votes end
	 * below).  It rolls as ever.
	 */
	if (!ebp->window_start_ns) {
		ebp->window_start_ns = now;
		ebp->window_used_ns = 0;
		WRITE_ONCE(ebp->budget_spent, false);
	}
	raw_spin_unlock_irqrestore(&ebp->lock, flags);

	for_each_cpu(cpu, ebp->policy->cpus)
		rcu_assign_pointer(per_cpu(eb_cpus, cpu).ebp, ebp);
	/*
	 * A hint while stopped counted its vote, then found no ebp to decide
	 * (eb_cpu_vote_add() orders the two): pair with it, so that either
	 * it sees ebp or the decision below sees its vote.
	 */
	smp_mb();
	eb_policy_retune(ebp);
	/*
	 * A budget still spent ends the votes held: the stop may have
	 * cancelled the sweep, and a hint while stopped was not refused.
	 */
	if (READ_ONCE(ebp->budget_spent))
		queue_work(system_highpri_wq, &ebp->sweep_work);
}

void eb_policy_stop(struct eb_policy *ebp)
{
	unsigned long flags;
	u64 now;
	unsigned int cpu;

	for_each_cpu(cpu, ebp->policy->related_cpus)
		if (rcu_access_pointer(per_cpu(eb_cpus, cpu).ebp) == ebp)
			RCU_INIT_POINTER(per_cpu(eb_cpus, cpu).ebp, NULL);

	/* Every apply path, and the stats read, checks started under the lock. */
	raw_spin_lock_irqsave(&ebp->lock, flags);
	/*
	 * Stopped already: cpufreq_resume() starts no governor whose driver
	 * failed to resume, and the next stop (a suspend, a CPU leaving, a
	 * switch) finds it so.  Its time was counted, its work waited for.
	 */
	if (!ebp->started) {
		raw_spin_unlock_irqrestore(&ebp->lock, flags);
		return;
	}
	now = ktime_get_ns();
	eb_account(ebp, now);
	/* Counters live as long as the policy's governor: keep the time too. */
	ebp->cnt.governed_ns += now - ebp->start_ns;
	ebp->started = false;
	ebp->boosted_at_stop = ebp->boosted;
	ebp->boosted = false;
	ebp->at_boost = false;
	raw_spin_unlock_irqrestore(&ebp->lock, flags);

	hrtimer_cancel(&ebp->budget_timer);
	hrtimer_cancel(&ebp->rate_timer);
	/* No new IPI after !started; wait for one in flight ... */
	while (READ_ONCE(ebp->ipi_pending))
		cpu_relax();
	/*
	 * ... and for its handler to unlock (see eb_apply_ipi_async()), and
	 * for the hints that still found ebp through eb_cpus.
	 */
	synchronize_rcu();
	cancel_work_sync(&ebp->sweep_work);
	if (ebp->worker)
		kthread_cancel_work_sync(&ebp->work);
	/*
	 * A tunable write's retune applies on its own thread, not the
	 * worker's: wait until it has left the driver.
	 */
	mutex_lock(&ebp->work_lock);
	ebp->work_in_progress = false;
	mutex_unlock(&ebp->work_lock);
}

/*
 * Re-decide after a tunable or limits change and apply at once (a boost
 * decided while the worker is in the driver with another change waits
 * for the rate limit, as any boost then).
 */
void eb_policy_retune(struct eb_policy *ebp)
{
	unsigned long flags;
	bool kick;

	raw_spin_lock_irqsave(&ebp->lock, flags);
	kick = eb_decide(ebp, ktime_get_ns(), 0, false);
	raw_spin_unlock_irqrestore(&ebp->lock, flags);
	if (!kick)
		return;
	if (ebp->fast)
		eb_kick(ebp, true);
	else
		eb_apply_slow(ebp);
}

/* New limits are asked for even at an unchanged frequency: eb_limits_new(). */
void eb_policy_limits(struct eb_policy *ebp)
{
	eb_policy_retune(ebp);
}
