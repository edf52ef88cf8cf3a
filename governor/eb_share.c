// SPDX-License-Identifier: GPL-2.0
/*
 * eventboost: a process's share of the budget: found or made by tgid at
 * open, charged with the time its clients' votes are held, kept until its
 * window ends.  Its own file: a share outlives its clients, so its
 * lifetime is not the vote state machine's.
 */
#include <linux/hashtable.h>
#include <linux/jiffies.h>
#include <linux/pid.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "eb_internal.h"

DEFINE_HASHTABLE(eb_shares, EB_SHARES_BITS);
static void eb_shares_reclaim(struct work_struct *work);
DECLARE_DELAYED_WORK(eb_shares_reclaim_work, eb_shares_reclaim);

/* The share of @tgid's process, with one more client; NULL if no memory. */
struct eb_share *eb_share_get(struct pid *tgid)
{
	struct eb_share *s;

	lockdep_assert_held(&eb_clients_lock);
	hash_for_each_possible(eb_shares, s, node, (unsigned long)tgid) {
		if (s->tgid == tgid) {
			s->clients++;
			return s;
		}
	}
	s = kzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);
	if (!s)
		return NULL;
	raw_spin_lock_init(&s->lock);
	s->tgid = get_pid(tgid);
	s->clients = 1;
	hash_add(eb_shares, &s->node, (unsigned long)tgid);
	return s;
}

/*
 * How long @s must stay: U64_MAX while it has clients; without, until the
 * end of its window if it spent time of that window, not yet over; else 0
 * (it may go).  Without clients nothing else reads or writes the window,
 * so no lock is needed then.
 */
static u64 eb_share_live_until(struct eb_share *s, u64 now)
{
	u64 end = s->win_start_ns + EB_BUDGET_WINDOW_NS;

	if (s->clients)
		return U64_MAX;
	return s->win_used_ns && now < end ? end : 0;
}

void eb_share_free(struct eb_share *s)
{
	hash_del(&s->node);
	put_pid(s->tgid);
	kfree(s);
}

/*
 * One client fewer.  A share left without clients stays while it has spent
 * time of a window not yet over, so that closing every client and opening
 * a new one does not start a fresh share; it is freed when that window is
 * over, or taken up again by the process's next client.
 */
void eb_share_put(struct eb_share *s)
{
	u64 now = ktime_get_ns(), end;

	lockdep_assert_held(&eb_clients_lock);
	if (--s->clients)
		return;
	end = eb_share_live_until(s, now);
	if (!end) {
		eb_share_free(s);
		return;
	}
	queue_delayed_work(system_wq, &eb_shares_reclaim_work,
			   nsecs_to_jiffies(end - now) + 1);
}

/* Free the shares without clients whose window is over. */
static void eb_shares_reclaim(struct work_struct *work)
{
	u64 now = ktime_get_ns(), next = U64_MAX, end;
	struct hlist_node *tmp;
	struct eb_share *s;
	int bkt;

	mutex_lock(&eb_clients_lock);
	hash_for_each_safe(eb_shares, bkt, tmp, s, node) {
		if (s->clients)
			continue;
		end = eb_share_live_until(s, now);
		if (end)
			next = min(next, end);
		else
			eb_share_free(s);
	}
	if (next != U64_MAX)
		queue_delayed_work(system_wq, &eb_shares_reclaim_work,
				   nsecs_to_jiffies(next - now) + 1);
	mutex_unlock(&eb_clients_lock);
}

/*
 * Charge the time the client's votes were held to its process's window;
 * roll the window.  Called with c->lock held (irqs off).
 */
void eb_client_account(struct eb_client *c, u64 now)
{
	struct eb_share *s = c->share;
	u64 held = 0;

	if (c->votes && now > c->acct_ns)
		held = now - c->acct_ns;
	c->acct_ns = now;
	raw_spin_lock(&s->lock);
	s->win_used_ns += held;
	if (now >= s->win_start_ns + EB_BUDGET_WINDOW_NS) {
		s->win_start_ns = now;
		s->win_used_ns = 0;
	}
	c->used_ns = s->win_used_ns;
	raw_spin_unlock(&s->lock);
}
