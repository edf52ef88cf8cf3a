// SPDX-License-Identifier: GPL-2.0
/*
 * ebtest_fail - make one step of eventboost.ko's load fail, slowly, for the
 * test that nothing the failing load exposed meanwhile outlives it: no
 * policy runs a governor whose module is gone, no file is open on a device
 * whose module is gone.  A load fails at a step only by an allocation
 * failure or a name taken, which no test could time otherwise.
 *
 *   step      misc: the next misc_register() of a device named
 *             "eventboost"; governor: the next cpufreq_register_governor()
 *             of a governor named "eventboost" (required)
 *   delay_ms  how long that call spins before it fails (default 300): the
 *             window in which other CPUs may race the load
 *   succeed   1: after the spin the call runs (a slow step, not a failing
 *             one)
 *   slowed    calls held so far
 *
 * Unless it succeeds the call fails with -ENOMEM without running: its
 * probe's handler spins, then sends the call to a function that only
 * returns the error, as livepatch sends a call to a function's
 * replacement.  x86-64 only, where
 * the return address is on the stack at a probed function's entry (a jump
 * there returns to the caller).  One call only: load it anew for each.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpufreq.h>
#include <linux/delay.h>
#include <linux/kprobes.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/ptrace.h>
#include <linux/string.h>

#define EBTF_NAME	"eventboost"

static char *step;
module_param(step, charp, 0444);
MODULE_PARM_DESC(step, "The load step to fail: misc or governor");

static uint delay_ms = 300;
module_param(delay_ms, uint, 0444);
MODULE_PARM_DESC(delay_ms, "How long the failing call spins first (ms, at most 2000)");

static bool succeed;
module_param(succeed, bool, 0444);
MODULE_PARM_DESC(succeed, "1: the call runs after the spin");

static atomic_t slowed = ATOMIC_INIT(0);
module_param_named(slowed, slowed.counter, int, 0444);
MODULE_PARM_DESC(slowed, "Calls held so far");

/* Taken by the one call failed. */
static atomic_t armed = ATOMIC_INIT(1);

/* What the failed calls run instead: their own signatures. */
static noinline int ebtf_misc_register(struct miscdevice *misc)
{
	return -ENOMEM;
}

static noinline int ebtf_register_governor(struct cpufreq_governor *gov)
{
	return -ENOMEM;
}

/*
 * Spin, then run the call, or return into @instead (1: the kprobe must not
 * run the call).
 */
static int ebtf_fail(struct pt_regs *regs, void *instead)
{
	if (!atomic_xchg(&armed, 0))
		return 0;
	mdelay(delay_ms);
	atomic_inc(&slowed);
	if (succeed)
		return 0;
	instruction_pointer_set(regs, (unsigned long)instead);
	return 1;
}

static int ebtf_misc_entry(struct kprobe *p, struct pt_regs *regs)
{
	const struct miscdevice *misc =
		(const void *)regs_get_kernel_argument(regs, 0);

	if (!misc->name || strcmp(misc->name, EBTF_NAME))
		return 0;
	return ebtf_fail(regs, ebtf_misc_register);
}

static int ebtf_governor_entry(struct kprobe *p, struct pt_regs *regs)
{
	const struct cpufreq_governor *gov =
		(const void *)regs_get_kernel_argument(regs, 0);

	if (strcmp(gov->name, EBTF_NAME))
		return 0;
	return ebtf_fail(regs, ebtf_register_governor);
}

/*
 * Never called (a pre-handler that redirects returns 1), but its presence
 * arms the probe with ftrace's IPMODIFY ops, as a changed IP needs, and
 * keeps an int3 probe from being optimized (an optprobe ignores the IP).
 */
static void ebtf_post(struct kprobe *p, struct pt_regs *regs,
		      unsigned long flags)
{
}

static struct kprobe ebtf_probe = {
	.post_handler = ebtf_post,
};

static int __init ebtf_init(void)
{
	int ret;

	if (!IS_ENABLED(CONFIG_X86_64)) {
		pr_err("x86-64 only\n");
		return -EOPNOTSUPP;
	}
	if (delay_ms > 2000) {
		pr_err("delay_ms=%u: at most 2000\n", delay_ms);
		return -EINVAL;
	}
	if (step && !strcmp(step, "misc")) {
		ebtf_probe.symbol_name = "misc_register";
		ebtf_probe.pre_handler = ebtf_misc_entry;
	} else if (step && !strcmp(step, "governor")) {
		ebtf_probe.symbol_name = "cpufreq_register_governor";
		ebtf_probe.pre_handler = ebtf_governor_entry;
	} else {
		pr_err("step=%s: give step=misc or step=governor\n",
		       step ?: "(none)");
		return -EINVAL;
	}
	ret = register_kprobe(&ebtf_probe);
	if (ret)
		pr_err("cannot probe %s: %d\n", ebtf_probe.symbol_name, ret);
	return ret;
}

static void __exit ebtf_exit(void)
{
	unregister_kprobe(&ebtf_probe);
}

module_init(ebtf_init);
module_exit(ebtf_exit);

MODULE_DESCRIPTION("eventboost test: make a step of eventboost.ko's load fail (or only slow)");
MODULE_LICENSE("GPL");
