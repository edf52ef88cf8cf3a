// SPDX-License-Identifier: GPL-2.0
/*
 * eventboost: per-CPU votes -> one per-policy decision -> one apply.
 *
 * eb_decide() is the only place a frequency is chosen; eb_kick() is the only
 * place it is applied: by fast switch on a CPU of the policy (locally, or by
 * IPI), or by a SCHED_FIFO kthread worker that always applies the latest
 * decision.  Both run under or after eb_policy.lock, a raw spinlock, so the
 * hint path never sleeps (also on PREEMPT_RT).
 */
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "eb_internal.h"
#include "eb_trace.h"

DEFINE_PER_CPU(struct eb_cpu, eb_cpus);

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
	/*
	 * The cpufreq core names the policy's directory after the CPU it
	 * was created for ("policy%u"); policy->cpu moves to another CPU
	 * when that one goes offline, the name does not.
	 */
	if (sscanf(kobject_name(&policy->kobj), "policy%u", &ebp->nr) != 1)
		ebp->nr = policy->cpu;
	ebp->nominal_khz = eb_nominal_khz(policy);
	ebp->fast = policy->fast_switch_enabled;
	if (ebp->fast)
		return 0;

	ebp->worker = eb_kthread_run_worker(0, "eventboost/%u", policy->cpu);
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

void eb_policy_start(struct eb_policy *ebp)
{
	u64 now = ktime_get_ns();
	unsigned long flags;
	unsigned int cpu;

	raw_spin_lock_irqsave(&ebp->lock, flags);
	ebp->started = true;
	ebp->boosted = false;
	WRITE_ONCE(ebp->budget_spent, false);
	ebp->target_khz = 0;
	ebp->applied_khz = 0;
	ebp->hint_ns = 0;
	ebp->change_ns = 0;
	ebp->acct_ns = now;
	ebp->start_ns = now;
	ebp->window_start_ns = now;
	ebp->window_used_ns = 0;
	raw_spin_unlock_irqrestore(&ebp->lock, flags);

	for_each_cpu(cpu, ebp->policy->cpus)
		rcu_assign_pointer(per_cpu(eb_cpus, cpu).ebp, ebp);
	eb_policy_retune(ebp);
}

void eb_policy_stop(struct eb_policy *ebp)
{
	unsigned long flags;
	u64 now;
	unsigned int cpu;

	for_each_cpu(cpu, ebp->policy->related_cpus)
		if (rcu_access_pointer(per_cpu(eb_cpus, cpu).ebp) == ebp)
			RCU_INIT_POINTER(per_cpu(eb_cpus, cpu).ebp, NULL);

	/* Every apply path checks started under the lock. */
	raw_spin_lock_irqsave(&ebp->lock, flags);
	now = ktime_get_ns();
	eb_account(ebp, now);
	/* Counters live as long as the policy's governor: keep the time too. */
	ebp->cnt.governed_ns += now - ebp->start_ns;
	ebp->started = false;
	ebp->boosted = false;
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

/* Re-decide after a tunable or limits change and apply at once. */
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

void eb_policy_limits(struct eb_policy *ebp)
{
	eb_policy_retune(ebp);
}

/* ---- votes, per CPU ---- */

void eb_cpu_vote_add(int cpu)
{
	atomic_inc(&per_cpu(eb_cpus, cpu).votes);
	/* Order the count before the eb_decide() that follows it. */
	smp_mb__after_atomic();
}

void eb_cpu_vote_del(int cpu)
{
	atomic_dec(&per_cpu(eb_cpus, cpu).votes);
	/* Order the count before the eb_decide() that follows it. */
	smp_mb__after_atomic();
}

/* Re-decide the policy of @cpu after its votes changed; count a hint. */
void eb_cpu_update(int cpu, int reason, u64 hint_ns, bool sync)
{
	struct eb_policy *ebp;
	unsigned long flags;
	bool kick = false;

	rcu_read_lock();
	ebp = rcu_dereference(per_cpu(eb_cpus, cpu).ebp);
	if (ebp) {
		raw_spin_lock_irqsave(&ebp->lock, flags);
		if (reason >= 0 && reason < EB_NR_REASONS)
			ebp->cnt.hints[reason]++;
		kick = eb_decide(ebp, ktime_get_ns(), hint_ns, true);
		raw_spin_unlock_irqrestore(&ebp->lock, flags);
		if (kick)
			eb_kick(ebp, sync);
	}
	rcu_read_unlock();
}

/*
 * 0, or -EBUSY when @cpu's policy has spent its budget for this window.
 * Unspent is the common case and needs no lock: the eb_decide() that the
 * hint runs next re-checks under it, so a budget spent in between only
 * means the vote is held without boosting, as for any vote then.
 */
int eb_cpu_may_boost(int cpu, u64 now)
{
	struct eb_policy *ebp;
	unsigned long flags;
	int ret = 0;

	rcu_read_lock();
	ebp = rcu_dereference(per_cpu(eb_cpus, cpu).ebp);
	if (ebp && READ_ONCE(ebp->budget_spent)) {
		raw_spin_lock_irqsave(&ebp->lock, flags);
		eb_account(ebp, now);
		if (ebp->started && ebp->budget_spent) {
			ebp->cnt.refused++;
			ret = -EBUSY;
		}
		raw_spin_unlock_irqrestore(&ebp->lock, flags);
	}
	rcu_read_unlock();
	return ret;
}

void eb_cpu_count_end(int cpu, bool watchdog)
{
	struct eb_policy *ebp;
	unsigned long flags;

	rcu_read_lock();
	ebp = rcu_dereference(per_cpu(eb_cpus, cpu).ebp);
	if (ebp && watchdog) {
		raw_spin_lock_irqsave(&ebp->lock, flags);
		ebp->cnt.watchdog_ends++;
		raw_spin_unlock_irqrestore(&ebp->lock, flags);
	}
	rcu_read_unlock();
}

/* The watchdog of @cpu's policy, 0 if eventboost does not govern it. */
unsigned int eb_cpu_max_boost_us(int cpu)
{
	unsigned int us = 0;
	struct eb_policy *ebp;

	rcu_read_lock();
	ebp = rcu_dereference(per_cpu(eb_cpus, cpu).ebp);
	if (ebp)
		us = READ_ONCE(ebp->tunables->max_boost_us);
	rcu_read_unlock();
	return us;
}

/*
 * How long one process's votes may be held per budget window on @cpu's
 * policy: a share of the budget, so that no process can spend it all and
 * leave the others EBUSY.  U64_MAX without a budget; 0 if not governed.
 */
u64 eb_cpu_client_budget_ns(int cpu)
{
	struct eb_policy *ebp;
	unsigned int pct = 0;

	rcu_read_lock();
	ebp = rcu_dereference(per_cpu(eb_cpus, cpu).ebp);
	if (ebp)
		pct = READ_ONCE(ebp->tunables->budget_pct);
	rcu_read_unlock();
	if (!pct)
		return 0;
	if (pct >= 100)
		return U64_MAX;
	return EB_BUDGET_WINDOW_NS / 100 * pct / 100 *
	       EB_CLIENT_BUDGET_SHARE_PCT;
}

int eb_cpu_policy_stats(struct eb_policy_stats *st)
{
	struct cpufreq_policy *policy;
	struct eb_policy *ebp;
	unsigned long flags;
	unsigned int i;
	u64 now;

	if (st->cpu >= nr_cpu_ids || !cpu_possible(st->cpu))
		return -EINVAL;
	policy = cpufreq_cpu_get(st->cpu);
	if (!policy)
		return -ENODEV;

	st->policy_cpu = policy->cpu;
	st->cur_khz = policy->cur;
	st->flags = 0;

	rcu_read_lock();
	ebp = rcu_dereference(per_cpu(eb_cpus, st->cpu).ebp);
	if (ebp) {
		raw_spin_lock_irqsave(&ebp->lock, flags);
		now = ktime_get_ns();
		eb_account(ebp, now);
		st->flags = EB_POLICY_GOVERNED;
		if (ebp->fast)
			st->flags |= EB_POLICY_FAST_SWITCH;
		if (ebp->boosted)
			st->flags |= EB_POLICY_BOOSTED;
		if (ebp->budget_spent)
			st->flags |= EB_POLICY_BUDGET_SPENT;
		st->target_khz = ebp->target_khz;
		st->base_khz = eb_policy_base_khz(ebp);
		st->boost_khz = eb_policy_boost_khz(ebp);
		st->max_boost_us = READ_ONCE(ebp->tunables->max_boost_us);
		st->budget_pct = READ_ONCE(ebp->tunables->budget_pct);
		for (i = 0; i < EB_NR_REASONS; i++)
			st->hints[i] = ebp->cnt.hints[i];
		st->boosts = ebp->cnt.boosts;
		st->boosted_ns = ebp->cnt.boosted_ns;
		st->governed_ns = ebp->cnt.governed_ns + now - ebp->start_ns;
		st->watchdog_ends = ebp->cnt.watchdog_ends;
		st->budget_ends = ebp->cnt.budget_ends;
		st->refused = ebp->cnt.refused;
		st->applied = ebp->cnt.applied;
		for (i = 0; i < EB_LAT_BUCKETS; i++)
			st->latency[i] = ebp->cnt.latency[i];
		raw_spin_unlock_irqrestore(&ebp->lock, flags);
	}
	rcu_read_unlock();
	cpufreq_cpu_put(policy);
	return 0;
}
