/* SPDX-License-Identifier: GPL-2.0 */
/*
 * eventboost internals shared by the governor, the policy logic and the
 * hint device.
 *
 * The policy logic: per-CPU votes (eb_votes.c) -> one per-policy decision
 * (eb_decide.c, with the budget of eb_budget.c) -> one apply (eb_apply.c);
 * eb_policy.c starts and stops a policy.  eb_decide() is the only place a
 * frequency is chosen; eb_kick() is the only place it is applied: by fast
 * switch on a CPU of the policy (locally, or by IPI), or by a SCHED_FIFO
 * kthread worker that always applies the latest decision.  Both run under
 * or after eb_policy.lock, a raw spinlock, so the hint path never sleeps
 * (also on PREEMPT_RT).
 *
 * The hint device: the file operations and ioctls (eb_dev.c) drive a
 * client's votes (eb_client.c), charged to its process's share of the
 * budget (eb_share.c).
 *
 * Calls go one way: the governor (eb_governor.c) calls eb_policy.c (and
 * eb_decide.c for the frequencies it shows, eb_settings.c for the tunables
 * it keeps, which calls none, and eb_client.c to end the votes on a policy
 * whose budget is spent), the hint device (eb_dev.c,
 * eb_client.c) calls eb_votes.c, and the policy logic calls neither.
 * Within it, eb_votes.c and eb_policy.c call eb_apply.c, eb_decide.c and
 * eb_budget.c; eb_apply.c calls eb_decide.c, which calls eb_budget.c,
 * which calls none.  In the device, eb_dev.c calls eb_client.c and
 * eb_share.c; eb_client.c calls eb_share.c, which calls none.  Only data is
 * shared the other way: eb_decide() reads eb_cpus' vote counts, eb_share.c
 * takes eb_clients_lock.  What a policy asks of the clients (end their
 * votes when its budget is spent) the governor wires in at init.
 *
 * Locking, outermost first (a lock is only ever taken under those above it):
 *   eb_clients_lock (mutex) -> eb_client.lock (raw) -> eb_policy.lock (raw)
 *   eb_client.lock (raw) -> eb_share.lock (raw)
 *   eb_policy.work_lock (mutex) -> eb_policy.lock (raw)
 *   policy->rwsem (cpufreq core) -> eb_global_tunables_lock ->
 *     gov_attr_set.update_lock -> eb_settings_lock (mutexes; it nests nothing)
 *   gov_attr_set.update_lock -> eb_policy.work_lock (a store retunes)
 * eb_gov_exit() drains the tunables' sysfs stores under
 * eb_global_tunables_lock: a store must never take it.
 * eb_clients_lock (eb_client.c) guards the clients and the shares; the
 * budget sweep, eb_clients_end_votes(), takes each client's lock under it.
 * eb_client.lock nests eb_policy.lock when a hint asks whether the budget
 * allows it (eb_cpu_may_boost(), eb_votes.c), and when the sweep or a move
 * of its votes asks whether it is spent (eb_cpu_budget_spent()); and it
 * nests the lock of its process's share of that budget
 * (eb_client_account(), eb_share.c), which nests nothing.  The raw locks
 * are taken from hard-irq context (hrtimers, IPIs).  eb_policy.work_lock
 * serializes the slow path's ->target() (worker, limits, tunable writes,
 * stop: eb_apply.c, eb_policy.c); it is never taken under a raw lock.
 * The per-CPU policy pointers (eb_cpus, eb_votes.c) are RCU.
 */
#ifndef _EB_INTERNAL_H
#define _EB_INTERNAL_H

#include <linux/cpufreq.h>
#include <linux/hashtable.h>
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "../uapi/linux/eventboost.h"
#include "eb_compat.h"

/*
 * N of sysfs policyN, how the uapi and the traces name a policy: the
 * cpufreq core names the policy's directory after the CPU it was created
 * for; policy->cpu moves to another CPU of the policy when that one goes
 * offline, the name does not.
 */
static inline unsigned int eb_policy_nr(struct cpufreq_policy *policy)
{
	unsigned int nr;

	if (sscanf(kobject_name(&policy->kobj), "policy%u", &nr) != 1)
		nr = policy->cpu;
	return nr;
}

#define EB_DEFAULT_MAX_BOOST_US	100000U		/* 100 ms */
#define EB_MAX_MAX_BOOST_US	10000000U	/* 10 s */
#define EB_DEFAULT_BUDGET_PCT	50U
/* Frequency changes per policy: at most one per rate_limit_us. */
#define EB_DEFAULT_RATE_LIMIT_US	1000U
#define EB_MAX_RATE_LIMIT_US	100000U
/* The kinds of vote, EB_VOTE_GC to EB_VOTE_TIMED. */
#define EB_NR_VOTE_KINDS	3
/* One process's votes may use at most this share of its policy's budget. */
#define EB_CLIENT_BUDGET_SHARE_PCT	50U
#define EB_BUDGET_WINDOW_NS	NSEC_PER_SEC
/* Without a known nominal frequency, base is this share of the maximum
 * (the published prototype's 2.6 GHz of 4.0 GHz).
 */
#define EB_FALLBACK_BASE_PCT	65U

struct eb_settings;

struct eb_tunables {
	struct gov_attr_set attr_set;
	struct eb_settings *settings;	/* where writes are kept */
	unsigned int base_khz;		/* 0: nominal, or EB_FALLBACK_BASE_PCT */
	unsigned int boost_khz;		/* 0: cpuinfo.max_freq */
	unsigned int max_boost_us;
	unsigned int budget_pct;
	unsigned int rate_limit_us;
};

struct eb_counters {
	u64 hints[EB_NR_REASONS];
	u64 boosts;
	u64 boosted_ns;
	u64 governed_ns;	/* in earlier start..stop periods */
	u64 watchdog_ends;
	u64 budget_ends;
	u64 refused;
	u64 applied;
	u64 latency[EB_LAT_BUCKETS];
};

struct eb_policy {
	struct cpufreq_policy *policy;
	struct eb_tunables *tunables;
	struct list_head tunables_hook;
	unsigned int nr;		/* eb_policy_nr() */
	unsigned int nominal_khz;	/* 0 if the driver does not tell */
	bool fast;			/* fast switch enabled at start */

	raw_spinlock_t lock;		/* everything below */
	bool started;
	bool boosted;			/* decided: target is boost */
	bool boosted_at_stop;		/* a boost the stop left the clock at */
	bool at_boost;			/* a boost the driver made, no step down since: charged */
	unsigned int target_khz;	/* decided frequency */
	bool target_boost;		/* and it is the boost */
	unsigned int applied_khz;	/* last frequency given to the driver */
	unsigned int applied_min_khz;	/* policy->min and max the last call saw */
	unsigned int applied_max_khz;
	unsigned int granted_khz;	/* target let through since the last change, or 0 */
	bool applying;			/* the worker is in the driver */
	bool applying_boost;		/* with a boost */
	u64 hint_ns;			/* first hint not yet applied, or 0 */
	u64 acct_ns;			/* time accounted up to */
	u64 start_ns;
	u64 window_start_ns;
	u64 window_used_ns;
	u64 change_ns;			/* last change decided or applied, or 0 */
	bool budget_spent;
	bool ipi_pending;
	bool work_in_progress;
	struct eb_counters cnt;

	struct hrtimer budget_timer;
	struct hrtimer rate_timer;	/* a change deferred by rate_limit_us */
	call_single_data_t csd;		/* remote fast switch */
	struct work_struct sweep_work;	/* the budget is spent: end votes */
	struct kthread_worker *worker;	/* slow path */
	struct kthread_work work;
	struct mutex work_lock;		/* serializes ->target() */
};

/*
 * The per-CPU vote registry (eb_votes.c): the clients voting on each CPU,
 * and the policy that governs it.  eb_policy.c sets and clears the policy
 * pointers: ebp at start and stop, gov at init and exit (a policy stops
 * and starts again under its other CPUs when one of them leaves or joins
 * it, and stays governed meanwhile); eb_decide() adds up the votes of a
 * policy's CPUs.
 */
struct eb_cpu {
	atomic_t votes;				/* clients voting here */
	struct eb_policy __rcu *ebp;		/* set while started */
	struct eb_policy __rcu *gov;		/* set from init to exit */
};

DECLARE_PER_CPU(struct eb_cpu, eb_cpus);

/*
 * A process's share of the budget, per window of its own: the time the
 * votes of all its clients were held, added up.  One per thread group with
 * clients, found by tgid at open; it outlives the last client until its
 * window is over (eb_share_put()).
 */
struct eb_share {
	struct pid *tgid;		/* reference held */
	unsigned int clients;		/* under eb_clients_lock */
	struct hlist_node node;		/* eb_shares, under eb_clients_lock */
	raw_spinlock_t lock;		/* the window; nests in eb_client.lock */
	u64 win_start_ns;
	u64 win_used_ns;
	/* Per kind of vote (EB_VOTE_* bit): held time this window. */
	u64 kind_ns[EB_NR_VOTE_KINDS];
	unsigned int wanted;		/* EB_VOTE_* asked for this window */
	unsigned int wanted_before;	/* ... and in the window before */
};

/* One per open file of /dev/eventboost (eb_dev.c). */
struct eb_client {
	/*
	 * The process the client acts for, fixed at open: EB_IOC_BIND takes
	 * only threads of it.  share->tgid is compared without c->lock
	 * (c->task changes).
	 */
	struct eb_share *share;
	raw_spinlock_t lock;		/* all fields below */
	struct task_struct *task;	/* bound thread, reference held */
	unsigned int votes;		/* EB_VOTE_* */
	int vote_cpu;			/* where the votes count, -1 if none */
	u64 vote_start_ns;		/* votes held continuously since */
	u64 timed_end_ns;
	u64 acct_ns;			/* held time charged up to */
	u64 used_ns;			/* the process's share used, at acct_ns */
	u64 share_ns;			/* of the last governed vote CPU */
	unsigned int over;		/* kinds past their fair part, at acct_ns */
	u64 fair_left_ns;		/* till a held kind reaches its part */
	unsigned int max_boost_us;	/* of the last governed vote CPU */
	struct hrtimer timer;
	struct list_head node;		/* eb_clients, under eb_clients_lock */
};

/* eb_policy.c */
int eb_policy_init_state(struct eb_policy *ebp, work_func_t budget_spent);
void eb_policy_exit_state(struct eb_policy *ebp);
void eb_policy_govern(struct eb_policy *ebp);
void eb_policy_ungovern(struct eb_policy *ebp);
void eb_policy_start(struct eb_policy *ebp);
void eb_policy_stop(struct eb_policy *ebp);
void eb_policy_limits(struct eb_policy *ebp);
void eb_policy_retune(struct eb_policy *ebp);

/* eb_decide.c: eb_decide() is called with ebp->lock held */
bool eb_decide(struct eb_policy *ebp, u64 now, u64 hint_ns, bool limit);
bool eb_rate_limited(struct eb_policy *ebp, u64 now);
bool eb_limits_new(struct eb_policy *ebp);
unsigned int eb_policy_base_khz(struct eb_policy *ebp);
unsigned int eb_policy_boost_khz(struct eb_policy *ebp);
unsigned int eb_nominal_khz(struct cpufreq_policy *policy);

/* eb_apply.c; the callbacks are set by eb_policy_init_state() */
void eb_kick(struct eb_policy *ebp, bool sync);
void eb_apply_slow(struct eb_policy *ebp);
void eb_apply_ipi_async(void *info);
void eb_work_fn(struct kthread_work *work);
enum hrtimer_restart eb_budget_timer_fn(struct hrtimer *timer);
enum hrtimer_restart eb_rate_timer_fn(struct hrtimer *timer);

/* eb_budget.c: called with ebp->lock held */
u64 eb_budget_ns(struct eb_policy *ebp);
void eb_account(struct eb_policy *ebp, u64 now);
void eb_charge_since(struct eb_policy *ebp, u64 since, u64 now);
void eb_budget_arm(struct eb_policy *ebp, u64 now, u64 budget);

/* Vote bookkeeping per CPU, in eb_votes.c: what the clients call. */
int eb_cpu_may_boost(int cpu, u64 now);
bool eb_cpu_budget_spent(int cpu, u64 now);
void eb_cpu_count_refused(int cpu);
void eb_cpu_vote_add(int cpu);
void eb_cpu_vote_del(int cpu);
void eb_cpu_update(int cpu, int reason, u64 hint_ns, bool sync);
bool eb_cpu_unsettled(int cpu);
void eb_cpu_count_end(int cpu, bool watchdog);
unsigned int eb_cpu_max_boost_us(int cpu);
u64 eb_cpu_client_budget_ns(int cpu);
int eb_cpu_policy_stats(struct eb_policy_stats *st);

/* eb_share.c: a process's share; eb_client_account() under c->lock */
#define EB_SHARES_BITS	6
struct eb_share *eb_share_get(struct pid *tgid);
void eb_share_put(struct eb_share *s);
void eb_shares_exit(void);
void eb_client_account(struct eb_client *c, u64 now, unsigned int want);

/* eb_client.c: a client's votes; eb_client_set_votes() under c->lock */
extern struct list_head eb_clients;
extern struct mutex eb_clients_lock;
bool eb_task_gone(struct task_struct *task);
int eb_client_set_votes(struct eb_client *c, unsigned int votes,
			int cpu, u64 now);
enum hrtimer_restart eb_client_timer_fn(struct hrtimer *timer);
long eb_client_vote(struct eb_client *c, unsigned int set,
		    unsigned int clear, u64 timed_us, int reason);
void eb_clients_end_votes(const struct cpumask *cpus);

/* eb_dev.c: opens are refused until eb_dev_ready() */
int eb_dev_init(void);
void eb_dev_ready(void);
void eb_dev_exit(void);

/* eb_governor.c */
int eb_governor_register(void);
void eb_governor_unregister(void);

/* eb_settings.c */
int eb_settings_restore(struct eb_tunables *t, struct eb_policy *ebp,
			bool global);
void eb_settings_save(const struct eb_tunables *t);
void eb_settings_free(void);

#endif /* _EB_INTERNAL_H */
