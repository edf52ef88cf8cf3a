// SPDX-License-Identifier: GPL-2.0
/*
 * eventboost: a process's share of the budget: found or made by tgid at
 * open, charged with the time its clients' votes are held, kept until its
 * window ends.  Its own file: a share outlives its clients, so its
 * lifetime is not the vote state machine's.
 */
#include <linux/bitops.h>
#include <linux/hashtable.h>
#include <linux/jiffies.h>
#include <linux/pid.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "eb_internal.h"

static DEFINE_HASHTABLE(eb_shares, EB_SHARES_BITS);
static void eb_shares_reclaim(struct work_struct *work);
static DECLARE_DELAYED_WORK(eb_shares_reclaim_work, eb_shares_reclaim);

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

static void eb_share_free(struct eb_share *s)
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
 * The device is gone and with it every client: free the shares still
 * waiting for their window to end.
 */
void eb_shares_exit(void)
{
	struct hlist_node *tmp;
	struct eb_share *s;
	int bkt;

	cancel_delayed_work_sync(&eb_shares_reclaim_work);
	hash_for_each_safe(eb_shares, bkt, tmp, s, node)
		eb_share_free(s);
}

/*
 * The kinds of vote a process wants share its share fairly: while more than
 * one kind was asked for in this window or the one before, each may use
 * the share less what the others have not yet used of their equal part.
 * A kind alone (GC-Boost without Queue-Boost, say) may use all of it; two
 * wanted get at least half each, however long one of them holds its vote.
 * Sets c->over to the kinds at their limit and c->fair_left_ns to how long
 * the kinds the client holds or asks for (@want) may go on.  Under s->lock.
 */
static void eb_share_fair(struct eb_share *s, struct eb_client *c,
			  unsigned int want)
{
	unsigned int wanted = s->wanted | s->wanted_before;
	unsigned int n = hweight32(wanted), k, o;
	u64 share = c->share_ns, fair, reserve, used;

	c->over = 0;
	c->fair_left_ns = U64_MAX;
	if (n < 2 || share == U64_MAX)
		return;
	fair = div_u64(share, n);
	for (k = 0; k < EB_NR_VOTE_KINDS; k++) {
		if (!(wanted & BIT(k)))
			continue;
		reserve = 0;
		for (o = 0; o < EB_NR_VOTE_KINDS; o++)
			if (o != k && (wanted & BIT(o)))
				reserve += fair - min(fair, s->kind_ns[o]);
		used = s->kind_ns[k] + reserve;
		if (used >= share)
			c->over |= BIT(k);
		else if ((c->votes | want) & BIT(k))
			c->fair_left_ns = min(c->fair_left_ns, share - used);
	}
}

/*
 * Charge the time the client's votes were held to its process's window,
 * each kind's to its own too, and note the kinds in @want as asked for;
 * roll the window.  Called with c->lock held (irqs off).
 */
void eb_client_account(struct eb_client *c, u64 now, unsigned int want)
{
	struct eb_share *s = c->share;
	unsigned int k;
	u64 held = 0;

	if (c->votes && now > c->acct_ns)
		held = now - c->acct_ns;
	c->acct_ns = now;
	raw_spin_lock(&s->lock);
	s->win_used_ns += held;
	for (k = 0; k < EB_NR_VOTE_KINDS; k++)
		if (c->votes & BIT(k))
			s->kind_ns[k] += held;
	if (now >= s->win_start_ns + EB_BUDGET_WINDOW_NS) {
		/* A window that ended a window ago says nothing of today. */
		s->wanted_before = now < s->win_start_ns + 2 * EB_BUDGET_WINDOW_NS ?
				   s->wanted : 0;
		s->wanted = 0;
		s->win_start_ns = now;
		s->win_used_ns = 0;
		memset(s->kind_ns, 0, sizeof(s->kind_ns));
	}
	/* A vote still held is still wanted. */
	s->wanted |= want | c->votes;
	c->used_ns = s->win_used_ns;
	eb_share_fair(s, c, want);
	raw_spin_unlock(&s->lock);
}
