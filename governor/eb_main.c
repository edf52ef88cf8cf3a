// SPDX-License-Identifier: GPL-2.0
/*
 * eventboost: a cpufreq governor that boosts the core of a hinting thread.
 * See README.md; the hint ABI is uapi/linux/eventboost.h.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/module.h>

#include "eb_internal.h"

#define CREATE_TRACE_POINTS
#include "eb_trace.h"

/*
 * An open refused while init fails still holds a reference to the module
 * until the VFS drops it, after misc_mtx: wait for that, as the loader
 * does not (init's own reference is the one left; a second at most).
 */
static void eb_wait_for_refused_opens(void)
{
#ifdef CONFIG_MODULE_UNLOAD
	unsigned long end = jiffies + HZ;

	while (module_refcount(THIS_MODULE) > 1) {
		if (time_after(jiffies, end)) {
			/* What holds it may run this module's code once freed. */
			pr_warn("eventboost: failed load freed with %d references held\n",
				module_refcount(THIS_MODULE) - 1);
			break;
		}
		usleep_range(1000, 2000);
	}
#endif
}

/*
 * The loader frees a module whose init failed without waiting for what
 * took it meanwhile: a policy that selected the governor, a file opened on
 * the device would run this module's code after it is gone.  So the device
 * comes first but refuses opens until init is done, and the governor last:
 * nothing can fail once a policy may select it.  (Its registration fails
 * with cpufreq disabled, cpufreq.off=1, or its name taken: the device goes
 * again, never opened.)
 */
static int __init eb_init(void)
{
	int ret;

	ret = eb_dev_init();
	if (ret)
		return ret;
	ret = eb_governor_register();
	if (ret) {
		eb_dev_exit();
		eb_wait_for_refused_opens();
		return ret;
	}
	eb_dev_ready();
	return 0;
}

static void __exit eb_exit(void)
{
	eb_governor_unregister();
	eb_dev_exit();
}

module_init(eb_init);
module_exit(eb_exit);

MODULE_DESCRIPTION("eventboost: cpufreq governor boosting the core of a Node.js event loop on hints");
MODULE_LICENSE("GPL");
MODULE_VERSION("0.1.0");
