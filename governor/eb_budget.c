// SPDX-License-Identifier: GPL-2.0
/*
 * eventboost: a policy's budget.  Boosted time is charged to a window of
 * EB_BUDGET_WINDOW_NS, and the budget timer is armed for when it runs out.
 * A leaf: the decision and the stats read it, and it calls nothing back.
 */
#include <linux/hrtimer.h>
#include <linux/kernel.h>

#include "eb_internal.h"

/* The policy's budget per window as budget_pct is now; U64_MAX: none (100). */
u64 eb_budget_ns(struct eb_policy *ebp)
{
	unsigned int pct = READ_ONCE(ebp->tunables->budget_pct);

	return pct >= 100 ? U64_MAX : EB_BUDGET_WINDOW_NS / 100 * pct;
}

/*
 * Charge the time since the last call to boosted time while the clock is
 * at a boost (made by the driver, and no step down made since: the
 * clock's, not the decision's, which a slow or failing driver lags); roll
 * the budget window.  Call before at_boost changes.
 */
void eb_account(struct eb_policy *ebp, u64 now)
{
	if (now <= ebp->acct_ns)
		return;
	if (ebp->at_boost)
		eb_charge_since(ebp, ebp->acct_ns, now);
	ebp->acct_ns = now;
	if (now - ebp->window_start_ns >= EB_BUDGET_WINDOW_NS) {
		ebp->window_start_ns = now;
		ebp->window_used_ns = 0;
		WRITE_ONCE(ebp->budget_spent, false);
	}
	/*
	 * A budget raised (budget_pct written) past what the window used is
	 * spent no longer: the operator who lifts the bound does not wait for
	 * the window to roll, with every hint refused until then.
	 */
	if (ebp->budget_spent && ebp->window_used_ns < eb_budget_ns(ebp))
		WRITE_ONCE(ebp->budget_spent, false);
}

/* A boost made at some moment since @since, found at @now: charged from @since. */
void eb_charge_since(struct eb_policy *ebp, u64 since, u64 now)
{
	if (since >= now)
		return;
	ebp->window_used_ns += now - since;
	ebp->cnt.boosted_ns += now - since;
}

void eb_budget_arm(struct eb_policy *ebp, u64 now, u64 budget)
{
	u64 end = ebp->window_start_ns + EB_BUDGET_WINDOW_NS;

	/*
	 * Only a boost decided has an end to time: a step down on its way
	 * (at_boost alone) is already its end, and past the budget the
	 * deadline would be in the past, the timer firing again at once.
	 */
	if (ebp->boosted)
		end = min(end, now + budget - ebp->window_used_ns);
	else if (!ebp->budget_spent)
		return;
	/* While boosted the deadline does not move: re-arm only if it did. */
	if (hrtimer_is_queued(&ebp->budget_timer) &&
	    ktime_to_ns(hrtimer_get_expires(&ebp->budget_timer)) == end)
		return;
	hrtimer_start(&ebp->budget_timer, ns_to_ktime(end),
		      HRTIMER_MODE_ABS_HARD);
}
