// SPDX-License-Identifier: GPL-2.0
/*
 * eventboost: the per-CPU vote registry and the calls the clients make
 * through it: count a vote, re-decide a CPU's policy, ask its budget and
 * watchdog, read its counters.  The one interface between the hint device
 * and the policy logic, so that neither reaches into the other.
 */
#include <linux/atomic.h>
#include <linux/cpufreq.h>
#include <linux/compiler.h>
#include <linux/cpumask.h>
#include <linux/nospec.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>

#include "eb_internal.h"

DEFINE_PER_CPU(struct eb_cpu, eb_cpus);

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
 * Whether @cpu's policy runs at other than it decided: an apply the driver
 * failed, or a boost the rate limit holds back.  A following look that
 * finds its thread where it was then re-decides, which retries the apply.
 * Lockless: a stale answer costs one look, or one more.
 */
bool eb_cpu_unsettled(int cpu)
{
	struct eb_policy *ebp;
	bool ret = false;

	rcu_read_lock();
	ebp = rcu_dereference(per_cpu(eb_cpus, cpu).ebp);
	if (ebp) {
		/* Written under ebp->lock; a stale read costs one look. */
		ret = data_race(ebp->target_khz != ebp->applied_khz);
	}
	rcu_read_unlock();
	return ret;
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

/*
 * Whether @cpu's policy has spent its budget for this window, as of @now
 * (accounted first: the window may roll, a raised budget_pct counts).  The
 * budget sweep asks again for each vote, under the client's lock that a
 * hint holds while eb_cpu_may_boost() lets its vote count: so it ends no
 * vote that the budget has room for.  Votes moving to @cpu ask it too
 * (eb_client_set_votes()).  The governed policy, started or not: a vote
 * on a related CPU that is offline is swept too.
 */
bool eb_cpu_budget_spent(int cpu, u64 now)
{
	struct eb_policy *ebp;
	unsigned long flags;
	bool spent = false;

	rcu_read_lock();
	ebp = rcu_dereference(per_cpu(eb_cpus, cpu).gov);
	if (ebp && READ_ONCE(ebp->budget_spent)) {
		raw_spin_lock_irqsave(&ebp->lock, flags);
		eb_account(ebp, now);
		spent = ebp->budget_spent;
		raw_spin_unlock_irqrestore(&ebp->lock, flags);
	}
	rcu_read_unlock();
	return spent;
}

/* A hint @cpu's policy refused (its budget spent), counted as may_boost's. */
void eb_cpu_count_refused(int cpu)
{
	struct eb_policy *ebp;
	unsigned long flags;

	rcu_read_lock();
	ebp = rcu_dereference(per_cpu(eb_cpus, cpu).ebp);
	if (ebp) {
		raw_spin_lock_irqsave(&ebp->lock, flags);
		ebp->cnt.refused++;
		raw_spin_unlock_irqrestore(&ebp->lock, flags);
	}
	rcu_read_unlock();
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
	ebp = rcu_dereference(per_cpu(eb_cpus, cpu).gov);
	if (ebp)
		us = READ_ONCE(ebp->tunables->max_boost_us);
	rcu_read_unlock();
	return us;
}

/*
 * How long one process's votes may be held per budget window on @cpu's
 * policy: a share of the budget, so that no process can spend it all and
 * leave the others EBUSY.  U64_MAX without a budget; 0 if not governed
 * (or offline).
 */
u64 eb_cpu_client_budget_ns(int cpu)
{
	struct eb_policy *ebp;
	unsigned int pct = 0;

	/* An offline CPU's votes would count nowhere (eb_decide()). */
	if (!cpu_online(cpu))
		return 0;
	rcu_read_lock();
	ebp = rcu_dereference(per_cpu(eb_cpus, cpu).gov);
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

/* What a governed policy has done, for EB_IOC_POLICY_STATS. */
static void eb_policy_fill_stats(struct eb_policy *ebp,
				 struct eb_policy_stats *st)
{
	unsigned int i;
	u64 now;

	lockdep_assert_held(&ebp->lock);
	now = ktime_get_ns();
	eb_account(ebp, now);
	st->flags = EB_POLICY_GOVERNED;
	if (ebp->fast)
		st->flags |= EB_POLICY_FAST_SWITCH;
	if (ebp->at_boost || ebp->applying_boost)
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
}

int eb_cpu_policy_stats(struct eb_policy_stats *st)
{
	struct cpufreq_policy *policy;
	struct eb_policy *ebp;
	unsigned long flags;

	if (st->cpu >= nr_cpu_ids)
		return -EINVAL;
	/* A user's index into per-CPU data: not past the check, even speculatively. */
	st->cpu = array_index_nospec(st->cpu, nr_cpu_ids);
	if (!cpu_possible(st->cpu))
		return -EINVAL;
	policy = cpufreq_cpu_get(st->cpu);
	if (!policy)
		return -ENODEV;

	st->policy_cpu = eb_policy_nr(policy);
	st->cur_khz = policy->cur;
	st->flags = 0;

	rcu_read_lock();
	ebp = rcu_dereference(per_cpu(eb_cpus, st->cpu).ebp);
	if (ebp) {
		raw_spin_lock_irqsave(&ebp->lock, flags);
		/* Stopped since it was found (the stop counted its time). */
		if (ebp->started)
			eb_policy_fill_stats(ebp, st);
		raw_spin_unlock_irqrestore(&ebp->lock, flags);
	}
	rcu_read_unlock();
	cpufreq_cpu_put(policy);
	return 0;
}
