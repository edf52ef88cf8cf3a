// SPDX-License-Identifier: GPL-2.0
/*
 * ebtest_pause - hold eventboost's budget sweep at its start, for the tests
 * of what may happen while it runs.
 *
 * The sweep (eb_gov_budget_spent()) finds a policy's budget spent, then ends
 * the votes on it in eb_clients_end_votes().  Between the two a kworker can
 * be preempted for as long as the scheduler likes; no test could make it
 * happen at will.  With this module loaded, writing 1 to hold_sweep holds the
 * next call of eb_clients_end_votes() on entry until 0 is written (or
 * EBTP_HOLD_MAX_MS passed), spinning with preemption off as a kprobe handler
 * runs, interrupts on: the other CPUs, and IPIs to this one, go on.
 *
 *   hold_sweep  1: hold the next sweep; 0: let it go (cleared when it goes)
 *   held        sweeps held since the module loaded
 *   swept       calls of eb_clients_end_votes() that returned
 *   held_on_cpu the CPU the last one was held on
 *   held_too_long  holds that ended at EBTP_HOLD_MAX_MS, not by a write
 *
 * Load after eventboost.ko, unload before it.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/smp.h>

#define EBTP_SWEEP_FN		"eb_clients_end_votes"
/* Below any watchdog's threshold (soft lockup: 20 s, RCU stall: 21 s). */
#define EBTP_HOLD_MAX_MS	5000

static bool hold_sweep;
module_param(hold_sweep, bool, 0644);
MODULE_PARM_DESC(hold_sweep, "Hold the next budget sweep until 0 is written");

static unsigned int held;
module_param(held, uint, 0444);
MODULE_PARM_DESC(held, "Sweeps held");

static unsigned int swept;
module_param(swept, uint, 0444);
MODULE_PARM_DESC(swept, "Sweeps that returned");

static int held_on_cpu = -1;
module_param(held_on_cpu, int, 0444);
MODULE_PARM_DESC(held_on_cpu, "The CPU the last sweep held ran on");

static unsigned int held_too_long;
module_param(held_too_long, uint, 0444);
MODULE_PARM_DESC(held_too_long, "Holds ended by their time limit");

static int ebtp_sweep_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	unsigned long end;

	if (!READ_ONCE(hold_sweep))
		return 0;
	/* One sweep at a time reaches here: the work item does not run twice. */
	WRITE_ONCE(held_on_cpu, smp_processor_id());
	WRITE_ONCE(held, held + 1);
	end = jiffies + msecs_to_jiffies(EBTP_HOLD_MAX_MS);
	while (READ_ONCE(hold_sweep)) {
		if (time_after(jiffies, end)) {
			WRITE_ONCE(held_too_long, held_too_long + 1);
			WRITE_ONCE(hold_sweep, false);
			break;
		}
		cpu_relax();
	}
	return 0;
}

static int ebtp_sweep_return(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	WRITE_ONCE(swept, swept + 1);
	return 0;
}

static struct kretprobe ebtp_sweep_probe = {
	.kp.symbol_name = EBTP_SWEEP_FN,
	.entry_handler = ebtp_sweep_entry,
	.handler = ebtp_sweep_return,
	.maxactive = 4,
};

static int __init ebtp_init(void)
{
	int ret = register_kretprobe(&ebtp_sweep_probe);

	if (ret)
		pr_err("cannot probe %s (is eventboost loaded?): %d\n",
		       EBTP_SWEEP_FN, ret);
	return ret;
}

static void __exit ebtp_exit(void)
{
	unregister_kretprobe(&ebtp_sweep_probe);
}

module_init(ebtp_init);
module_exit(ebtp_exit);
MODULE_DESCRIPTION("Hold eventboost's budget sweep, for its tests");
MODULE_LICENSE("GPL");
