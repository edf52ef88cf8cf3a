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
 * The loader frees a module whose init failed without waiting for what
 * took it meanwhile: a policy that selected the governor, a file opened on
 * the device would run this module's code after it is gone.  So the device
 * comes first but refuses opens until init is done, and the governor last:
 * nothing can fail once a policy may select it.  (Without cpufreq the
 * governor's registration fails, -ENODEV: the device goes again, never
 * opened.)
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
