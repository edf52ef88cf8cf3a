// SPDX-License-Identifier: GPL-2.0
/*
 * eventboost: the operator's tunables outlive the governor instance.
 *
 * The cpufreq core frees a governor's tunables with the instance: when the
 * last CPU of a policy goes offline (CPU hotplug, suspend) and when the
 * policy switches to another governor.  For eventboost the tunables are the
 * energy policy, so they are kept here while the module is loaded: one
 * record per policy, by the N of its sysfs policyN (which the cpufreq core
 * keeps across hotplug and suspend), or one for the global tunables.  New
 * tunables start from their record, and every write to a tunable is copied
 * into it.  A record names the driver and CPUs it was set for: a policyN
 * that a driver reload or swap recreated over other CPUs, or for another
 * driver, starts from the defaults instead.
 */
#include <linux/cpufreq.h>
#include <linux/cpumask.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "eb_internal.h"

/* The key of the one record of global tunables: no policy has this N. */
#define EB_SETTINGS_GLOBAL	UINT_MAX

struct eb_settings {
	struct list_head node;
	unsigned int key;		/* policy N, or EB_SETTINGS_GLOBAL */
	char driver[CPUFREQ_NAME_LEN];	/* set for this driver */
	struct cpumask cpus;		/* and these CPUs (none: global) */
	unsigned int base_khz;
	unsigned int boost_khz;
	unsigned int max_boost_us;
	unsigned int budget_pct;
	unsigned int rate_limit_us;
};

static LIST_HEAD(eb_settings_list);
static DEFINE_MUTEX(eb_settings_lock);	/* the list and every record */

static void eb_settings_defaults(struct eb_settings *s)
{
	s->base_khz = 0;
	s->boost_khz = 0;
	s->max_boost_us = EB_DEFAULT_MAX_BOOST_US;
	s->budget_pct = EB_DEFAULT_BUDGET_PCT;
	s->rate_limit_us = EB_DEFAULT_RATE_LIMIT_US;
}

/*
 * The record of @key, for @driver and @cpus (NULL: global); a new one, or
 * one kept for another driver or other CPUs, has the defaults.
 */
static struct eb_settings *eb_settings_get(unsigned int key,
					   const char *driver,
					   const struct cpumask *cpus)
{
	struct eb_settings *s;

	lockdep_assert_held(&eb_settings_lock);
	list_for_each_entry(s, &eb_settings_list, node) {
		if (s->key != key)
			continue;
		if (!strcmp(s->driver, driver) &&
		    (!cpus || cpumask_equal(&s->cpus, cpus)))
			return s;
		if (key == EB_SETTINGS_GLOBAL)
			pr_info("eventboost: the kept global tunables were for another driver: defaults\n");
		else
			pr_info("eventboost: policy%u: the kept tunables were for another driver or other CPUs: defaults\n",
				key);
		goto reset;
	}
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return NULL;
	s->key = key;
	list_add(&s->node, &eb_settings_list);
reset:
	strscpy(s->driver, driver, sizeof(s->driver));
	cpumask_clear(&s->cpus);
	if (cpus)
		cpumask_copy(&s->cpus, cpus);
	eb_settings_defaults(s);
	return s;
}

static void eb_settings_copy(struct eb_settings *s,
			     const struct eb_tunables *t)
{
	s->base_khz = t->base_khz;
	s->boost_khz = t->boost_khz;
	s->max_boost_us = t->max_boost_us;
	s->budget_pct = t->budget_pct;
	s->rate_limit_us = t->rate_limit_us;
}

/*
 * Fill new tunables @t, before anyone can see them, with the settings kept
 * for @ebp's policy (@global: for the global tunables).  They were checked
 * when written; a kept frequency the policy's limits no longer allow is
 * clamped when applied, as a written one is, and stays kept.
 */
int eb_settings_restore(struct eb_tunables *t, struct eb_policy *ebp,
			bool global)
{
	const char *driver = cpufreq_get_current_driver();
	struct eb_settings *s;

	mutex_lock(&eb_settings_lock);
	s = eb_settings_get(global ? EB_SETTINGS_GLOBAL : ebp->nr,
			    driver ? driver : "",
			    global ? NULL : ebp->policy->related_cpus);
	if (!s) {
		mutex_unlock(&eb_settings_lock);
		return -ENOMEM;
	}
	t->settings = s;
	t->base_khz = s->base_khz;
	t->boost_khz = s->boost_khz;
	t->max_boost_us = s->max_boost_us;
	t->budget_pct = s->budget_pct;
	t->rate_limit_us = s->rate_limit_us;
	mutex_unlock(&eb_settings_lock);
	return 0;
}

/* Keep @t's values after a write (attr_set->update_lock held). */
void eb_settings_save(const struct eb_tunables *t)
{
	mutex_lock(&eb_settings_lock);
	eb_settings_copy(t->settings, t);
	mutex_unlock(&eb_settings_lock);
}

/* At module exit: no tunables are left to point here. */
void eb_settings_free(void)
{
	struct eb_settings *s, *tmp;

	mutex_lock(&eb_settings_lock);
	list_for_each_entry_safe(s, tmp, &eb_settings_list, node) {
		list_del(&s->node);
		kfree(s);
	}
	mutex_unlock(&eb_settings_lock);
}
