// SPDX-License-Identifier: GPL-2.0
/*
 * eventboost: a cpufreq governor that boosts the core of a hinting thread.
 * See README.md; the hint ABI is uapi/linux/eventboost.h.
 */
#include <linux/module.h>

#include "eb_internal.h"

#define CREATE_TRACE_POINTS
#include "eb_trace.h"

static int __init eb_init(void)
{
	int ret;

	ret = eb_dev_init();
	if (ret)
		return ret;
	ret = eb_governor_register();
	if (ret)
		eb_dev_exit();
	return ret;
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
