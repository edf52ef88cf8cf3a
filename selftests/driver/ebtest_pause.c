// SPDX-License-Identifier: GPL-2.0
/*
 * ebtest_pause - hold eventboost's budget sweep at its start, for the tests
 * of what may happen while it runs.
 *
 * The sweep (eb_gov_budget_spent()) finds a policy's budget spent, then ends
 * the votes on it in eb_clients_end_votes().  Between the two a kworker can
 * be preempted for as long as the scheduler likes; no test could make it
 * happen at will.  With this module loaded, writing 0 to release, then 1 to
 * hold_sweep arms a hold of the next call of eb_clients_end_votes() (one
 * call, on any CPU but spare_cpu): it spins on entry until 1 is written to
 * release, or for
 * EBTP_HOLD_MAX_MS.  It spins as a kprobe-on-ftrace handler runs, with
 * preemption off and interrupts on: the other CPUs, and IPIs to this one,
 * go on, but nothing else runs on this one meanwhile.
 *
 *   hold_sweep     1: hold the next sweep (reads 0 once one took it)
 *   release        0 before arming a hold; 1: let the held sweep go
 *   spare_cpu      a CPU whose sweeps are not held (the test's own), or -1
 *   held           sweeps held since the module loaded
 *   held_on_cpu    the CPU the last one held ran on
 *   held_too_long  holds that ended at EBTP_HOLD_MAX_MS, not by a release
 *   spared         sweeps not held because they ran on spare_cpu
 *   swept          calls of eb_clients_end_votes() that returned
 *   probe_gone     1 once eventboost.ko was unloaded: the probe is dead
 *
 * Load after eventboost.ko, unload before it: a reloaded eventboost.ko is
 * not probed again (probe_gone).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/smp.h>

#define EBTP_SWEEP_FN		"eb_clients_end_votes"
/*
 * Far below the kernel's own watchdogs at their defaults (soft lockup 20 s,
 * RCU stall 21 s), and enough for a test's few syscalls under TCG.
 */
#define EBTP_HOLD_MAX_MS	5000

/* An int: taken with xchg(), which not every architecture has for a byte. */
static int hold_sweep;
module_param(hold_sweep, int, 0644);
MODULE_PARM_DESC(hold_sweep, "Hold the next budget sweep (one)");

/* Written 0 before hold_sweep, 1 to let the held sweep go. */
static bool release = true;
module_param(release, bool, 0644);
MODULE_PARM_DESC(release, "Let the held sweep go");

static int spare_cpu = -1;
module_param(spare_cpu, int, 0644);
MODULE_PARM_DESC(spare_cpu, "A CPU whose sweeps are not held (-1: none)");

/* Written by the one sweep held at a time (hold_sweep is taken once). */
static unsigned int held;
module_param(held, uint, 0444);
MODULE_PARM_DESC(held, "Sweeps held");

static int held_on_cpu = -1;
module_param(held_on_cpu, int, 0444);
MODULE_PARM_DESC(held_on_cpu, "The CPU the last sweep held ran on");

static unsigned int held_too_long;
module_param(held_too_long, uint, 0444);
MODULE_PARM_DESC(held_too_long, "Holds ended by their time limit");

/* Per-CPU policies sweep on several CPUs at once: atomic. */
static atomic_t spared = ATOMIC_INIT(0);
module_param_named(spared, spared.counter, int, 0444);
MODULE_PARM_DESC(spared, "Sweeps not held: they ran on spare_cpu");

static atomic_t swept = ATOMIC_INIT(0);
module_param_named(swept, swept.counter, int, 0444);
MODULE_PARM_DESC(swept, "Sweeps that returned");

static int ebtp_sweep_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	int cpu = smp_processor_id();
	unsigned long end;

	/* Interrupts off (not the ftrace path): an IPI to here would wait. */
	if (irqs_disabled() || in_nmi() || !READ_ONCE(hold_sweep))
		return 0;
	if (cpu == READ_ONCE(spare_cpu)) {
		atomic_inc(&spared);
		return 0;
	}
	if (!xchg(&hold_sweep, 0))
		return 0;
	WRITE_ONCE(held_on_cpu, cpu);
	/* Seen held: held_on_cpu is set. */
	smp_store_release(&held, held + 1);
	end = jiffies + msecs_to_jiffies(EBTP_HOLD_MAX_MS);
	while (!READ_ONCE(release)) {
		if (time_after(jiffies, end)) {
			WRITE_ONCE(held_too_long, held_too_long + 1);
			break;
		}
		cpu_relax();
	}
	return 0;
}

static int ebtp_sweep_return(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	atomic_inc(&swept);
	return 0;
}

/*
 * At most two sweeps (two policies' on two CPUs) are in flight in the
 * suite's guests; a missed return is only a count the test waits for.
 */
static struct kretprobe ebtp_sweep_probe = {
	.kp.symbol_name = EBTP_SWEEP_FN,
	.entry_handler = ebtp_sweep_entry,
	.handler = ebtp_sweep_return,
	.maxactive = 8,
};

static int ebtp_probe_gone_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", kprobe_gone(&ebtp_sweep_probe.kp));
}

static const struct kernel_param_ops ebtp_probe_gone_ops = {
	.get = ebtp_probe_gone_get,
};

module_param_cb(probe_gone, &ebtp_probe_gone_ops, NULL, 0444);
MODULE_PARM_DESC(probe_gone, "eventboost.ko was unloaded: nothing is held");

static int __init ebtp_init(void)
{
	int ret = register_kretprobe(&ebtp_sweep_probe);

	if (ret) {
		pr_err("cannot probe %s (is eventboost loaded?): %d\n",
		       EBTP_SWEEP_FN, ret);
		return ret;
	}
	/* An int3 probe runs with interrupts off: it would hold nothing. */
	if (!kprobe_ftrace(&ebtp_sweep_probe.kp)) {
		unregister_kretprobe(&ebtp_sweep_probe);
		pr_err("%s is not probed through ftrace: cannot hold it\n",
		       EBTP_SWEEP_FN);
		return -EOPNOTSUPP;
	}
	return 0;
}

static void __exit ebtp_exit(void)
{
	WRITE_ONCE(hold_sweep, 0);
	WRITE_ONCE(release, true);
	unregister_kretprobe(&ebtp_sweep_probe);
}

module_init(ebtp_init);
module_exit(ebtp_exit);
MODULE_DESCRIPTION("Hold eventboost's budget sweep, for its tests");
MODULE_LICENSE("GPL");
