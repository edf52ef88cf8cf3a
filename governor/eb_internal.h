/* SPDX-License-Identifier: GPL-2.0 */
/*
 * eventboost internals shared by the governor, the policy logic and the
 * hint device.
 *
 * Calls go one way: the governor (eb_governor.c) and the hint device
 * (eb_client.c) call the policy logic (eb_policy.c), which calls neither.
 * What a policy asks of the clients (end their votes when its budget is
 * spent) the governor wires in at init.
 *
 * Locking, outermost first (a lock is only ever taken under those above it):
 *   eb_clients_lock (mutex) -> eb_client.lock (raw) -> eb_policy.lock (raw)
 *   eb_client.lock (raw) -> eb_share.lock (raw)
 *   eb_policy.work_lock (mutex) -> eb_policy.lock (raw)
 *   eb_global_tunables_lock, gov_attr_set.update_lock -> eb_settings_lock
 *   (mutexes; eb_settings_lock nests nothing)
 * eb_client.lock nests eb_policy.lock when a hint asks whether the budget
 * allows it (eb_cpu_may_boost()), and the lock of its process's share of
 * that budget (eb_client.c), which nests nothing.  The raw locks are taken
 * from hard-irq context (hrtimers, IPIs).  eb_policy.work_lock serializes
 * the slow path's ->target() (worker, limits, tunable writes, stop); it is
 * never taken under a raw lock.  The per-CPU policy pointers (eb_cpus) are
 * RCU.
 */
#ifndef _EB_INTERNAL_H
#define _EB_INTERNAL_H

#include <linux/cpufreq.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "../uapi/linux/eventboost.h"
#include "eb_compat.h"

#define EB_DEFAULT_MAX_BOOST_US	100000U		/* 100 ms */
#define EB_MAX_MAX_BOOST_US	10000000U	/* 10 s */
#define EB_DEFAULT_BUDGET_PCT	50U
/* Frequency changes per policy: at most one per rate_limit_us. */
#define EB_DEFAULT_RATE_LIMIT_US	1000U
#define EB_MAX_RATE_LIMIT_US	100000U
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

/*
 * The values a write to each tunable accepts; a kept setting must still
 * pass them to be restored (eb_settings.c).
 */
static inline bool eb_khz_valid(const struct cpufreq_policy *policy,
				unsigned int khz)
{
	/* 0: the default; else within the hardware range */
	return !khz || (khz >= policy->cpuinfo.min_freq &&
			khz <= policy->cpuinfo.max_freq);
}

static inline bool eb_max_boost_us_valid(unsigned int us)
{
	return us && us <= EB_MAX_MAX_BOOST_US;
}

static inline bool eb_budget_pct_valid(unsigned int pct)
{
	return pct && pct <= 100;
}

static inline bool eb_rate_limit_us_valid(unsigned int us)
{
	return us <= EB_MAX_RATE_LIMIT_US;
}

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
	unsigned int nr;		/* N of sysfs policyN, for traces */
	unsigned int nominal_khz;	/* 0 if the driver does not tell */
	bool fast;			/* fast switch enabled at start */

	raw_spinlock_t lock;		/* everything below */
	bool started;
	bool boosted;			/* decided: target is boost */
	unsigned int target_khz;	/* decided frequency */
	unsigned int applied_khz;	/* last frequency given to the driver */
	u64 hint_ns;			/* first hint not yet applied, or 0 */
	u64 acct_ns;			/* time accounted up to */
	u64 start_ns;
	u64 window_start_ns;
	u64 window_used_ns;
	u64 change_ns;			/* last change started, or 0 */
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

/* eb_policy.c */
int eb_policy_init_state(struct eb_policy *ebp, work_func_t budget_spent);
void eb_policy_exit_state(struct eb_policy *ebp);
void eb_policy_start(struct eb_policy *ebp);
void eb_policy_stop(struct eb_policy *ebp);
void eb_policy_limits(struct eb_policy *ebp);
void eb_policy_retune(struct eb_policy *ebp);
unsigned int eb_policy_base_khz(struct eb_policy *ebp);
unsigned int eb_policy_boost_khz(struct eb_policy *ebp);
unsigned int eb_nominal_khz(struct cpufreq_policy *policy);

/* Vote bookkeeping per CPU, in eb_policy.c. */
int eb_cpu_may_boost(int cpu, u64 now);
void eb_cpu_vote_add(int cpu);
void eb_cpu_vote_del(int cpu);
void eb_cpu_update(int cpu, int reason, u64 hint_ns, bool sync);
void eb_cpu_count_end(int cpu, bool watchdog);
unsigned int eb_cpu_max_boost_us(int cpu);
u64 eb_cpu_client_budget_ns(int cpu);
int eb_cpu_policy_stats(struct eb_policy_stats *st);

/* eb_client.c */
int eb_dev_init(void);
void eb_dev_exit(void);
void eb_clients_end_votes(const struct cpumask *cpus);

/* eb_governor.c */
int eb_governor_register(void);
void eb_governor_unregister(void);

/* eb_settings.c */
int eb_settings_restore(struct eb_tunables *t, struct eb_policy *ebp,
			bool global);
void eb_settings_save(const struct eb_tunables *t);
void eb_settings_free(void);

#endif /* _EB_INTERNAL_H */
