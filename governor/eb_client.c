// SPDX-License-Identifier: GPL-2.0
/*
 * eventboost: a client's votes, the state machine behind the hints.
 *
 * A client is bound to one thread and holds up to three votes (GC, queue,
 * timed) for the CPU that thread runs on.  A per-client hrtimer, running
 * only while votes are held, ends timed votes, enforces the watchdog,
 * follows the thread across CPUs (within a tick) and notices thread exit.
 * The clients of one process share one share of the budget (struct
 * eb_share, eb_share.c): opening more of them does not multiply it.  The
 * device (eb_dev.c) makes the clients and turns the ioctls into calls here.
 */
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/sched.h>

#include "eb_internal.h"
#include "eb_trace.h"

LIST_HEAD(eb_clients);
DEFINE_MUTEX(eb_clients_lock);	/* eb_clients, eb_shares */

bool eb_task_gone(struct task_struct *task)
{
	return READ_ONCE(task->flags) & PF_EXITING;
}

/*
 * The watchdog of the policy the votes count on; while that CPU is not
 * governed (another governor, its policy offline), the last one seen.
 */
static u64 eb_client_max_ns(struct eb_client *c)
{
	unsigned int us = 0;

	if (c->vote_cpu >= 0)
		us = eb_cpu_max_boost_us(c->vote_cpu);
	if (us)
		c->max_boost_us = us;
	return (u64)c->max_boost_us * NSEC_PER_USEC;
}

/*
 * The process's share of the budget of the policy the votes count on, as
 * its budget_pct is now; while that CPU is not governed, the last one seen.
 */
static u64 eb_client_share_ns(struct eb_client *c)
{
	u64 share = 0;

	if (c->vote_cpu >= 0)
		share = eb_cpu_client_budget_ns(c->vote_cpu);
	if (share)
		c->share_ns = share;
	return c->share_ns;
}

/*
 * Next check: a tick (to follow migration), timed end, the watchdog, or
 * the end of the process's share of the budget or of a kind's fair part
 * of it (a share that other clients of the process spend too ends sooner:
 * noticed within a tick).
 */
static void eb_client_arm(struct eb_client *c, u64 now)
{
	u64 max_ns = eb_client_max_ns(c);
	u64 next = min(now + TICK_NSEC, c->vote_start_ns + max_ns);

	if (c->share_ns > c->used_ns && c->share_ns - c->used_ns < TICK_NSEC)
		next = min(next, now + c->share_ns - c->used_ns);
	if (c->fair_left_ns < TICK_NSEC)
		next = min(next, now + c->fair_left_ns);
	if (c->votes & EB_VOTE_TIMED)
		next = min(next, c->timed_end_ns);
	/*
	 * A check already due no later re-arms from there: spare a GC or
	 * queue hint right after the last one the timer requeue.
	 */
	if (hrtimer_is_queued(&c->timer) &&
	    ktime_to_ns(hrtimer_get_expires(&c->timer)) <= next)
		return;
	hrtimer_start(&c->timer, ns_to_ktime(next), HRTIMER_MODE_ABS_HARD);
}

/*
 * Make @votes the client's votes, counted on @cpu, unless they move there
 * onto a policy whose budget is spent: then they end (c->votes is 0).
 * Returns the CPU whose count dropped (-1 if none); the caller re-decides
 * it and @cpu after dropping c->lock.
 */
int eb_client_set_votes(struct eb_client *c, unsigned int votes,
			int cpu, u64 now)
{
	int from = -1;

	/*
	 * Votes that move (their thread migrated, or was rebound) onto a
	 * policy whose budget is spent end, as that policy's sweep ended the
	 * votes it found there: a new vote there would be refused.
	 */
	if (votes && c->votes && cpu >= 0 && cpu != c->vote_cpu &&
	    eb_cpu_budget_spent(cpu, now)) {
		trace_eventboost_vote_end(cpu, task_pid_nr(c->task),
					  EB_END_BUDGET, votes & c->votes,
					  div_u64(now - c->vote_start_ns,
						  NSEC_PER_USEC));
		votes = 0;
	}
	/* The kinds about to be held: their fair part arms the timer. */
	eb_client_account(c, now, votes);
	if (c->votes && (!votes || cpu != c->vote_cpu)) {
		from = c->vote_cpu;
		eb_cpu_vote_del(from);
		c->vote_cpu = -1;
	}
	if (votes && c->vote_cpu < 0) {
		eb_cpu_vote_add(cpu);
		c->vote_cpu = cpu;
	}
	if (votes && !c->votes) {
		c->vote_start_ns = now;
		c->votes = votes;
		eb_client_arm(c, now);
	}
	c->votes = votes;
	return from;
}

enum hrtimer_restart eb_client_timer_fn(struct hrtimer *timer)
{
	struct eb_client *c = container_of(timer, struct eb_client, timer);
	int from = -1, to = -1, wd_cpu = -1, cause = -1;
	unsigned int votes;
	unsigned long flags;
	u64 max_ns, now;

	raw_spin_lock_irqsave(&c->lock, flags);
	/*
	 * Read under the lock: a vote started on another CPU since would
	 * otherwise be younger than now and end at once as a watchdog end.
	 */
	now = ktime_get_ns();
	votes = c->votes;
	if (!votes)
		goto unlock;
	if ((votes & EB_VOTE_TIMED) && now >= c->timed_end_ns)
		votes &= ~EB_VOTE_TIMED;
	max_ns = eb_client_max_ns(c);
	if (votes && now >= c->vote_start_ns + max_ns) {
		wd_cpu = c->vote_cpu;
		cause = EB_END_WATCHDOG;
	}
	/* A budget_pct written since the last hint counts now. */
	eb_client_share_ns(c);
	eb_client_account(c, now, 0);
	if (votes && cause < 0 && c->used_ns >= c->share_ns)
		cause = EB_END_CLIENT_BUDGET;
	if (cause >= 0) {
		trace_eventboost_vote_end(c->vote_cpu, task_pid_nr(c->task),
					  cause, votes,
					  div_u64(now - c->vote_start_ns,
						  NSEC_PER_USEC));
		votes = 0;
	} else if (votes & c->over) {
		/*
		 * A kind at its fair part of the share ends alone (held_us is
		 * the client's, as for any end).
		 */
		trace_eventboost_vote_end(c->vote_cpu, task_pid_nr(c->task),
					  EB_END_CLIENT_BUDGET, votes & c->over,
					  div_u64(now - c->vote_start_ns,
						  NSEC_PER_USEC));
		votes &= ~c->over;
	}
	if (eb_task_gone(c->task))
		votes = 0;
	to = votes ? task_cpu(c->task) : -1;
	from = eb_client_set_votes(c, votes, to, now);
	if (c->votes)
		eb_client_arm(c, now);
unlock:
	raw_spin_unlock_irqrestore(&c->lock, flags);

	if (wd_cpu >= 0)
		eb_cpu_count_end(wd_cpu, true);
	/*
	 * Only a vote that ended or moved changes a decision.  A look that
	 * found the thread where it was takes no policy lock, unless the
	 * policy is not at what it decided (a failed apply is retried).
	 */
	if (from >= 0)
		eb_cpu_update(from, -1, 0, false);
	if (to >= 0 && (from >= 0 || eb_cpu_unsettled(to)))
		eb_cpu_update(to, -1, 0, false);
	return HRTIMER_NORESTART;
}

/*
 * A hint: add @set and remove @clear from the client's votes; a timed vote
 * lasts until the later of its current end and now + @timed_us.
 */
long eb_client_vote(struct eb_client *c, unsigned int set,
		    unsigned int clear, u64 timed_us, int reason)
{
	unsigned int votes;
	unsigned long flags;
	int cpu, from, ret = 0;
	u64 now, share;

	raw_spin_lock_irqsave(&c->lock, flags);
	now = ktime_get_ns();
	if (eb_task_gone(c->task)) {
		from = eb_client_set_votes(c, 0, -1, now);
		raw_spin_unlock_irqrestore(&c->lock, flags);
		if (from >= 0)
			eb_cpu_update(from, -1, 0, true);
		return set ? -ESRCH : 0;
	}
	cpu = task_cpu(c->task);
	share = eb_cpu_client_budget_ns(cpu);
	if (!share) {
		/*
		 * Not governed by eventboost: no vote, and no timer work for
		 * it, where no budget applies.  Harmless, so not an error.
		 * (A policy stopped while a CPU leaves or joins it is still
		 * governed: its start counts the vote.  One stopped for good,
		 * switched to another governor, holds it until the watchdog or
		 * the client ends it, as it does the votes held before: a
		 * CPU's policy exits before its threads are pushed off it, so
		 * the timer cannot tell that from a CPU going offline, whose
		 * votes follow their thread.)
		 */
		from = eb_client_set_votes(c, 0, -1, now);
		raw_spin_unlock_irqrestore(&c->lock, flags);
		if (from >= 0)
			eb_cpu_update(from, -1, 0, true);
		return 0;
	}
	c->share_ns = share;
	votes = (c->votes | set) & ~clear;
	if (set & ~c->votes || (set & EB_VOTE_TIMED)) {
		eb_client_account(c, now, set);
		ret = c->used_ns >= share || (set & c->over) ? -EBUSY : 0;
		if (!ret)
			ret = eb_cpu_may_boost(cpu, now);
		if (ret) {
			/*
			 * Votes held elsewhere, their thread moved here onto a
			 * spent policy: they end now, as the move at the
			 * client's tick ends them, not a tick later.  Other
			 * moves are the tick's (it applies the share's rules).
			 */
			from = c->votes && c->vote_cpu != cpu &&
			       eb_cpu_budget_spent(cpu, now) ?
			       eb_client_set_votes(c, c->votes, cpu, now) : -1;
			raw_spin_unlock_irqrestore(&c->lock, flags);
			trace_eventboost_hint(cpu, task_pid_nr(current), reason,
					      set, timed_us, votes, ret);
			/* (Moved, not ended, if the budget was raised since.) */
			if (from >= 0) {
				eb_cpu_update(cpu, -1, 0, true);
				eb_cpu_update(from, -1, 0, true);
			}
			return ret;
		}
	}
	if (set & EB_VOTE_TIMED) {
		u64 end = now + timed_us * NSEC_PER_USEC;

		if (!(c->votes & EB_VOTE_TIMED) || end > c->timed_end_ns)
			c->timed_end_ns = end;
	}
	from = eb_client_set_votes(c, votes, cpu, now);
	/*
	 * Ended as they moved here, onto a policy whose budget is spent: a
	 * hint asking for them is refused, as a new vote here would be (a
	 * failing hint that changes something, as -ESRCH does); one that
	 * only ends a vote succeeds.
	 */
	if (set && votes && !c->votes)
		ret = -EBUSY;
	else if (set & EB_VOTE_TIMED)
		eb_client_arm(c, now);
	votes = c->votes;
	raw_spin_unlock_irqrestore(&c->lock, flags);

	trace_eventboost_hint(cpu, task_pid_nr(current), reason, set,
			      timed_us, votes, ret);
	if (ret)
		eb_cpu_count_refused(cpu);
	eb_cpu_update(cpu, ret ? -1 : reason, now, true);
	if (from >= 0 && from != cpu)
		eb_cpu_update(from, -1, 0, true);
	return ret;
}

/*
 * The budget of the policy of @cpus is spent: end every vote there while it
 * is.  Asked again per vote: the sweep can be preempted for any time, and a
 * budget raised or rolled over meanwhile lets hints count new votes.
 */
void eb_clients_end_votes(const struct cpumask *cpus)
{
	struct eb_client *c;
	unsigned long flags;
	unsigned int cpu;
	u64 now;

	mutex_lock(&eb_clients_lock);
	list_for_each_entry(c, &eb_clients, node) {
		raw_spin_lock_irqsave(&c->lock, flags);
		now = ktime_get_ns();
		if (c->votes && cpumask_test_cpu(c->vote_cpu, cpus) &&
		    eb_cpu_budget_spent(c->vote_cpu, now)) {
			trace_eventboost_vote_end(c->vote_cpu,
						  task_pid_nr(c->task),
						  EB_END_BUDGET, c->votes,
						  div_u64(now - c->vote_start_ns,
							  NSEC_PER_USEC));
			eb_client_set_votes(c, 0, -1, now);
		}
		raw_spin_unlock_irqrestore(&c->lock, flags);
	}
	mutex_unlock(&eb_clients_lock);
	for_each_cpu(cpu, cpus)
		eb_cpu_update(cpu, -1, 0, true);
}
