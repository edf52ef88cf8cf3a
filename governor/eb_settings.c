// SPDX-License-Identifier: GPL-2.0
/*
 * eventboost: the operator's tunables outlive the governor instance.
 *
 * The cpufreq core frees a governor's tunables with the instance: when the
 * last CPU of a policy goes offline (CPU hotplug, suspend) and when the
 * policy switches to another governor.  For eventboost the tunables are the
 * energy policy, so they are kept here while the module is loaded: one
 * record per policy, by the N of its sysfs policyN (which the cpufreq core
 * keeps across hotplug), or one for the global tunables.  New tunables start
 * from their record, and every write to a tunable is copied into it.
 */
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "eb_internal.h"

/* The key of the one record of global tunables: no policy has this N. */
#define EB_SETTINGS_GLOBAL	UINT_MAX

struct eb_settings {
	struct list_head node;
	unsigned int key;		/* policy N, or EB_SETTINGS_GLOBAL */
	unsigned int base_khz;
	unsigned int boost_khz;
	unsigned int max_boost_us;
	unsigned int budget_pct;
	unsigned int rate_limit_us;
};

static LIST_HEAD(eb_settings_list);
static DEFINE_MUTEX(eb_settings_lock);	/* the list and every record */

/* The record of @key; a new one has the defaults. */
static struct eb_settings *eb_settings_get(unsigned int key)
{
	struct eb_settings *s;

	lockdep_assert_held(&eb_settings_lock);
	list_for_each_entry(s, &eb_settings_list, node)
		if (s->key == key)
			return s;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return NULL;
	s->key = key;
	s->max_boost_us = EB_DEFAULT_MAX_BOOST_US;
	s->budget_pct = EB_DEFAULT_BUDGET_PCT;
	s->rate_limit_us = EB_DEFAULT_RATE_LIMIT_US;
	list_add(&s->node, &eb_settings_list);
	return s;
}

/*
 * A kept frequency outside the hardware range (the driver's range changed
 * since it was set) is refused as a write of it would be: the default.
 */
static unsigned int eb_settings_khz(struct eb_policy *ebp, const char *name,
				    unsigned int khz)
{
	struct cpufreq_policy *policy = ebp->policy;

	if (eb_khz_valid(policy, khz))
		return khz;
	pr_info("eventboost: policy%u: %s %u kHz is outside the hardware range %u..%u kHz now: default\n",
		ebp->nr, name, khz, policy->cpuinfo.min_freq,
		policy->cpuinfo.max_freq);
	return 0;
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
 * for @ebp's policy (@global: for the global tunables), checked against that
 * policy as writes are.  The record then holds what is in effect.
 */
int eb_settings_restore(struct eb_tunables *t, struct eb_policy *ebp,
			bool global)
{
	struct eb_settings *s;

	mutex_lock(&eb_settings_lock);
	s = eb_settings_get(global ? EB_SETTINGS_GLOBAL : ebp->nr);
	if (!s) {
		mutex_unlock(&eb_settings_lock);
		return -ENOMEM;
	}
	t->settings = s;
	t->base_khz = eb_settings_khz(ebp, "base_freq", s->base_khz);
	t->boost_khz = eb_settings_khz(ebp, "boost_freq", s->boost_khz);
	t->max_boost_us = eb_max_boost_us_valid(s->max_boost_us) ?
			  s->max_boost_us : EB_DEFAULT_MAX_BOOST_US;
	t->budget_pct = eb_budget_pct_valid(s->budget_pct) ?
			s->budget_pct : EB_DEFAULT_BUDGET_PCT;
	t->rate_limit_us = eb_rate_limit_us_valid(s->rate_limit_us) ?
			   s->rate_limit_us : EB_DEFAULT_RATE_LIMIT_US;
	eb_settings_copy(s, t);
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
