// SPDX-License-Identifier: GPL-2.0
/*
 * eventboost: the cpufreq governor and its tunables.
 *
 * Tunables live where the cpufreq core puts governor tunables: per policy
 * (policyN/eventboost/) when the driver asks for per-policy governors, else
 * one global set (cpufreq/eventboost/) shared by all policies, as schedutil.
 * Unlike schedutil's, the values outlive the instance (eb_settings.c): every
 * write is kept, and new tunables start from what was kept.
 */
#include <linux/slab.h>

#include "eb_internal.h"

static struct eb_tunables *eb_global_tunables;
static DEFINE_MUTEX(eb_global_tunables_lock);

/* What a store accepts: each tunable's range. */
static bool eb_khz_valid(const struct cpufreq_policy *policy, unsigned int khz)
{
	/* 0: the default; else within the hardware range */
	return !khz || (khz >= policy->cpuinfo.min_freq &&
			khz <= policy->cpuinfo.max_freq);
}

static bool eb_max_boost_us_valid(unsigned int us)
{
	return us && us <= EB_MAX_MAX_BOOST_US;
}

static bool eb_budget_pct_valid(unsigned int pct)
{
	return pct && pct <= 100;
}

static bool eb_rate_limit_us_valid(unsigned int us)
{
	return us <= EB_MAX_RATE_LIMIT_US;
}

static struct eb_tunables *to_eb_tunables(struct gov_attr_set *attr_set)
{
	return container_of(attr_set, struct eb_tunables, attr_set);
}

/* With one policy, show the effective value; shared: the raw (0 = auto). */
static ssize_t eb_show_khz(struct gov_attr_set *attr_set, char *buf,
			   bool boost)
{
	struct eb_tunables *t = to_eb_tunables(attr_set);
	unsigned int khz = boost ? t->boost_khz : t->base_khz;
	struct eb_policy *ebp;

	mutex_lock(&attr_set->update_lock);
	if (list_is_singular(&attr_set->policy_list)) {
		ebp = list_first_entry(&attr_set->policy_list,
				       struct eb_policy, tunables_hook);
		khz = boost ? eb_policy_boost_khz(ebp) : eb_policy_base_khz(ebp);
	}
	mutex_unlock(&attr_set->update_lock);
	return sysfs_emit(buf, "%u\n", khz);
}

/*
 * kHz within the hardware range of every policy using these tunables, or 0
 * for the default.  Called with attr_set->update_lock held.
 */
static ssize_t eb_store_khz(struct gov_attr_set *attr_set, const char *buf,
			    size_t count, bool boost)
{
	struct eb_tunables *t = to_eb_tunables(attr_set);
	struct eb_policy *ebp;
	unsigned int khz;

	if (kstrtouint(buf, 10, &khz))
		return -EINVAL;
	list_for_each_entry(ebp, &attr_set->policy_list, tunables_hook) {
		if (!eb_khz_valid(ebp->policy, khz))
			return -EINVAL;
	}
	if (boost)
		WRITE_ONCE(t->boost_khz, khz);
	else
		WRITE_ONCE(t->base_khz, khz);
	eb_settings_save(t);
	list_for_each_entry(ebp, &attr_set->policy_list, tunables_hook)
		eb_policy_retune(ebp);
	return count;
}

static ssize_t base_freq_show(struct gov_attr_set *attr_set, char *buf)
{
	return eb_show_khz(attr_set, buf, false);
}

static ssize_t base_freq_store(struct gov_attr_set *attr_set, const char *buf,
			       size_t count)
{
	return eb_store_khz(attr_set, buf, count, false);
}

static ssize_t boost_freq_show(struct gov_attr_set *attr_set, char *buf)
{
	return eb_show_khz(attr_set, buf, true);
}

static ssize_t boost_freq_store(struct gov_attr_set *attr_set, const char *buf,
				size_t count)
{
	return eb_store_khz(attr_set, buf, count, true);
}

static ssize_t max_boost_us_show(struct gov_attr_set *attr_set, char *buf)
{
	return sysfs_emit(buf, "%u\n", to_eb_tunables(attr_set)->max_boost_us);
}

static ssize_t max_boost_us_store(struct gov_attr_set *attr_set,
				  const char *buf, size_t count)
{
	struct eb_tunables *t = to_eb_tunables(attr_set);
	unsigned int us;

	if (kstrtouint(buf, 10, &us) || !eb_max_boost_us_valid(us))
		return -EINVAL;
	WRITE_ONCE(t->max_boost_us, us);
	eb_settings_save(t);
	return count;
}

static ssize_t budget_pct_show(struct gov_attr_set *attr_set, char *buf)
{
	return sysfs_emit(buf, "%u\n", to_eb_tunables(attr_set)->budget_pct);
}

static ssize_t budget_pct_store(struct gov_attr_set *attr_set, const char *buf,
				size_t count)
{
	struct eb_tunables *t = to_eb_tunables(attr_set);
	struct eb_policy *ebp;
	unsigned int pct;

	if (kstrtouint(buf, 10, &pct) || !eb_budget_pct_valid(pct))
		return -EINVAL;
	WRITE_ONCE(t->budget_pct, pct);
	eb_settings_save(t);
	list_for_each_entry(ebp, &attr_set->policy_list, tunables_hook)
		eb_policy_retune(ebp);
	return count;
}

static ssize_t rate_limit_us_show(struct gov_attr_set *attr_set, char *buf)
{
	return sysfs_emit(buf, "%u\n", to_eb_tunables(attr_set)->rate_limit_us);
}

static ssize_t rate_limit_us_store(struct gov_attr_set *attr_set,
				   const char *buf, size_t count)
{
	struct eb_tunables *t = to_eb_tunables(attr_set);
	unsigned int us;

	if (kstrtouint(buf, 10, &us) || !eb_rate_limit_us_valid(us))
		return -EINVAL;
	WRITE_ONCE(t->rate_limit_us, us);
	eb_settings_save(t);
	return count;
}

static struct governor_attr base_freq = __ATTR_RW(base_freq);
static struct governor_attr boost_freq = __ATTR_RW(boost_freq);
static struct governor_attr max_boost_us = __ATTR_RW(max_boost_us);
static struct governor_attr budget_pct = __ATTR_RW(budget_pct);
static struct governor_attr rate_limit_us = __ATTR_RW(rate_limit_us);

static struct attribute *eb_attrs[] = {
	&base_freq.attr,
	&boost_freq.attr,
	&max_boost_us.attr,
	&budget_pct.attr,
	&rate_limit_us.attr,
	NULL
};
ATTRIBUTE_GROUPS(eb);

static void eb_tunables_free(struct kobject *kobj)
{
	kfree(to_eb_tunables(to_gov_attr_set(kobj)));
}

static const struct kobj_type eb_tunables_ktype = {
	.default_groups = eb_groups,
	.sysfs_ops = &governor_sysfs_ops,
	.release = &eb_tunables_free,
};

static struct cpufreq_governor eb_gov;

/*
 * The policy's budget is spent: end every vote on it.  The governor wires
 * the two together, so that the policy logic, which the clients call, does
 * not call the clients.  Not if it is spent no longer (budget_pct raised
 * since, or the window rolled): that only saves a pass over the clients;
 * eb_clients_end_votes() asks again per vote, since it can be preempted.
 */
static void eb_gov_budget_spent(struct work_struct *work)
{
	struct eb_policy *ebp = container_of(work, struct eb_policy,
					     sweep_work);

	/*
	 * The related CPUs, not the current ones: a vote counted on a CPU
	 * that left the policy since (the sweep cancelled by that restart)
	 * would follow its thread back unended.
	 */
	if (READ_ONCE(ebp->budget_spent))
		eb_clients_end_votes(ebp->policy->related_cpus);
}

static int eb_gov_init(struct cpufreq_policy *policy)
{
	struct eb_tunables *t;
	struct eb_policy *ebp;
	int ret;

	if (policy->governor_data)
		return -EBUSY;

	cpufreq_enable_fast_switch(policy);
	ebp = kzalloc(sizeof(*ebp), GFP_KERNEL);
	if (!ebp) {
		ret = -ENOMEM;
		goto disable_fast_switch;
	}
	ebp->policy = policy;
	ret = eb_policy_init_state(ebp, eb_gov_budget_spent);
	if (ret)
		goto free_ebp;

	mutex_lock(&eb_global_tunables_lock);
	if (eb_global_tunables) {
		ebp->tunables = eb_global_tunables;
		gov_attr_set_get(&eb_global_tunables->attr_set,
				 &ebp->tunables_hook);
		policy->governor_data = ebp;
		mutex_unlock(&eb_global_tunables_lock);
		eb_policy_govern(ebp);
		return 0;
	}

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t) {
		ret = -ENOMEM;
		goto unlock;
	}
	/* What the operator set before hotplug, suspend or a switch. */
	ret = eb_settings_restore(t, ebp, !have_governor_per_policy());
	if (ret) {
		kfree(t);
		goto unlock;
	}
	gov_attr_set_init(&t->attr_set, &ebp->tunables_hook);
	ebp->tunables = t;
	policy->governor_data = ebp;

	ret = kobject_init_and_add(&t->attr_set.kobj, &eb_tunables_ktype,
				   get_governor_parent_kobj(policy), "%s",
				   eb_gov.name);
	if (ret) {
		kobject_put(&t->attr_set.kobj);
		policy->governor_data = NULL;
		goto unlock;
	}
	if (!have_governor_per_policy())
		eb_global_tunables = t;
	mutex_unlock(&eb_global_tunables_lock);
	eb_policy_govern(ebp);
	return 0;

unlock:
	mutex_unlock(&eb_global_tunables_lock);
	eb_policy_exit_state(ebp);
free_ebp:
	kfree(ebp);
disable_fast_switch:
	cpufreq_disable_fast_switch(policy);
	pr_err("eventboost: policy%u: initialization failed (%d)\n",
	       policy->cpu, ret);
	return ret;
}

static void eb_gov_exit(struct cpufreq_policy *policy)
{
	struct eb_policy *ebp = policy->governor_data;
	struct eb_tunables *t = ebp->tunables;

	eb_policy_ungovern(ebp);
	mutex_lock(&eb_global_tunables_lock);
	/*
	 * The last user takes the files out of sysfs first, which waits for
	 * a store or show in progress: gov_attr_set_put() destroys their
	 * update_lock before its kobject_put() removes them, and one that
	 * came in between would lock a destroyed mutex.  usage_count changes
	 * only here and in eb_gov_init(), under eb_global_tunables_lock.
	 */
	if (t->attr_set.usage_count == 1)
		kobject_del(&t->attr_set.kobj);
	/* The last put frees @t: compare the pointer only. */
	if (!gov_attr_set_put(&t->attr_set, &ebp->tunables_hook) &&
	    t == eb_global_tunables)
		eb_global_tunables = NULL;
	policy->governor_data = NULL;
	mutex_unlock(&eb_global_tunables_lock);

	eb_policy_exit_state(ebp);
	kfree(ebp);
	cpufreq_disable_fast_switch(policy);
}

static int eb_gov_start(struct cpufreq_policy *policy)
{
	eb_policy_start(policy->governor_data);
	return 0;
}

static void eb_gov_stop(struct cpufreq_policy *policy)
{
	eb_policy_stop(policy->governor_data);
}

static void eb_gov_limits(struct cpufreq_policy *policy)
{
	eb_policy_limits(policy->governor_data);
}

static struct cpufreq_governor eb_gov = {
	.name = "eventboost",
	.owner = THIS_MODULE,
	/*
	 * The target is the frequency, not a floor: intel_cpufreq on HWP
	 * otherwise lets the hardware run anywhere up to policy->max.
	 */
	.flags = CPUFREQ_GOV_DYNAMIC_SWITCHING | CPUFREQ_GOV_STRICT_TARGET,
	.init = eb_gov_init,
	.exit = eb_gov_exit,
	.start = eb_gov_start,
	.stop = eb_gov_stop,
	.limits = eb_gov_limits,
};

int eb_governor_register(void)
{
	return cpufreq_register_governor(&eb_gov);
}

void eb_governor_unregister(void)
{
	cpufreq_unregister_governor(&eb_gov);
	eb_settings_free();
}
