// SPDX-License-Identifier: GPL-2.0
/*
 * eventboost: a cpufreq governor that boosts the core of a hinting thread.
 * See README.md; the hint ABI is uapi/linux/eventboost.h.
 */
#include <linux/module.h>

#include "eb_internal.h"

#define CREATE_TRACE_POINTS
#include "eb_trace.h"

/*
 * The governor first: its registration is what fails for a reason (no
 * cpufreq: -ENODEV), and it fails then before /dev/eventboost exists, so
 * no file can be opened on a module whose init is failing.
 */
static int __init eb_init(void)
{
	int ret;

	ret = eb_governor_register();
	if (ret)
		return ret;
	ret = eb_dev_init();
	if (ret)
		eb_governor_unregister();
	return ret;
}

static void __exit eb_exit(void)
{
	eb_dev_exit();
	eb_governor_unregister();
}

module_init(eb_init);
module_exit(eb_exit);

MODULE_DESCRIPTION("eventboost: cpufreq governor boosting the core of a Node.js event loop on hints");
MODULE_LICENSE("GPL");
MODULE_VERSION("0.1.0");
