// SPDX-License-Identifier: GPL-2.0
/*
 * ebtest_pause - hold eventboost at a point where it may be preempted or
 * interrupted for as long as the scheduler likes, for the tests of what may
 * happen meanwhile.  No test could make it happen at will otherwise.
 *
 * The budget sweep (eb_gov_budget_spent()) finds a policy's budget spent,
 * then ends the votes on it in eb_clients_end_votes().  Writing 0 to
 * release, then 1 to hold_sweep arms a hold of the next call of
 * eb_clients_end_votes() (one call, on any CPU but spare_cpu).
 *
 * A policy stats read (eb_cpu_policy_stats()) finds the CPU's policy, then
 * takes its lock.  Writing 0 to release, then a thread's id (as the initial
 * pid namespace numbers it) to hold_stats arms a hold of that thread's next
 * such read between the two: at its _raw_spin_lock_irqsave() call, whose
 * probe stays enabled until 0 is written.  x86-64 only, where the return
 * address is on the stack at a probed function's entry; where that lock
 * function cannot be probed through ftrace, writing a thread's id fails
 * (EOPNOTSUPP) and the sweep's hold works as ever.
 *
 * A held call spins until 1 is written to release, or for EBTP_HOLD_MAX_MS.
 * It spins as a kprobe-on-ftrace handler runs, with preemption off and
 * interrupts on: the other CPUs, and IPIs to this one, go on, but nothing
 * else runs on this one meanwhile.
 *
 *   hold_sweep     1: hold the next sweep (reads 0 once one took it)
 *   hold_stats     a thread id: hold its next stats read (0: none, and
 *                  the lock's probe disabled)
 *   release        0 before arming a hold; 1: let the held call go
 *   spare_cpu      a CPU whose sweeps are not held (the test's own), or -1
 *   held           sweeps held since the module loaded
 *   held_on_cpu    the CPU the last one held ran on
 *   held_too_long  holds that ended at EBTP_HOLD_MAX_MS, not by a release
 *   spared         sweeps not held because they ran on spare_cpu
 *   swept          calls of eb_clients_end_votes() that returned
 *   stats_held     stats reads held since the module loaded
 *   probe_gone     1 once eventboost.ko was unloaded: the sweep's probe is
 *                  dead
 *
 * Load after eventboost.ko, unload before it: a reloaded eventboost.ko's
 * sweep is not probed again (probe_gone).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/string.h>

#define EBTP_SWEEP_FN		"eb_clients_end_votes"
#define EBTP_STATS_FN		"eb_cpu_policy_stats"
#define EBTP_LOCK_FN		"_raw_spin_lock_irqsave"
/*
 * Far below the kernel's own watchdogs at their defaults (soft lockup 20 s,
 * RCU stall 21 s), and enough for a test's few syscalls under TCG.
 */
#define EBTP_HOLD_MAX_MS	5000

/* An int: taken with xchg(), which not every architecture has for a byte. */
static int hold_sweep;
module_param(hold_sweep, int, 0644);
MODULE_PARM_DESC(hold_sweep, "Hold the next budget sweep (one)");

/* Written 0 before a hold is armed, 1 to let the held call go. */
static bool release = true;
module_param(release, bool, 0644);
MODULE_PARM_DESC(release, "Let the held call go");

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

/* Written by the one stats read held at a time (hold_stats is taken once). */
static unsigned int stats_held;
module_param(stats_held, uint, 0444);
MODULE_PARM_DESC(stats_held, "Stats reads held");

/* Spin until released, or for EBTP_HOLD_MAX_MS. */
static void ebtp_hold(void)
{
	unsigned long end = jiffies + msecs_to_jiffies(EBTP_HOLD_MAX_MS);

	while (!READ_ONCE(release)) {
		if (time_after(jiffies, end)) {
			WRITE_ONCE(held_too_long, held_too_long + 1);
			break;
		}
		cpu_relax();
	}
}

static int ebtp_sweep_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	int cpu = smp_processor_id();

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
	ebtp_hold();
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

/* The thread whose next stats read to hold; 0: none.  An int for cmpxchg(). */
static int hold_stats;
/* The lock function is probed through ftrace (ebtp_init()). */
static bool stats_probed;

/*
 * Whether the lock's caller is eb_cpu_policy_stats(): the return address is
 * on top of the stack at entry.  Apart, so that only the thread named pays
 * for the symbol's buffer on its stack.
 */
static noinline bool ebtp_called_by_stats(struct pt_regs *regs)
{
	const size_t len = strlen(EBTP_STATS_FN);
	char sym[KSYM_SYMBOL_LEN];

	sprint_symbol(sym, regs_get_kernel_stack_nth(regs, 0));
	return !strncmp(sym, EBTP_STATS_FN, len) &&
	       (sym[len] == '+' || sym[len] == '.');
}

/*
 * At the entry of _raw_spin_lock_irqsave(), called by eb_cpu_policy_stats()
 * of the thread hold_stats names: the policy found, its lock not taken yet.
 */
static int ebtp_stats_lock(struct kprobe *p, struct pt_regs *regs)
{
	int tid = READ_ONCE(hold_stats);

	if (!tid || tid != current->pid || !in_task() || irqs_disabled())
		return 0;
	if (!ebtp_called_by_stats(regs))
		return 0;
	if (cmpxchg(&hold_stats, tid, 0) != tid)
		return 0;
	/* Pairs with nothing: a test reads it, then waits on other things. */
	WRITE_ONCE(stats_held, stats_held + 1);
	ebtp_hold();
	return 0;
}

/*
 * Enabled only from a test's arming to its writing 0: every lock in the
 * system pays for it meanwhile.
 */
static struct kprobe ebtp_stats_probe = {
	.symbol_name = EBTP_LOCK_FN,
	.pre_handler = ebtp_stats_lock,
	.flags = KPROBE_FLAG_DISABLED,
};

static int ebtp_hold_stats_set(const char *val, const struct kernel_param *kp)
{
	int tid, ret;

	ret = kstrtoint(val, 0, &tid);
	if (ret || tid < 0)
		return -EINVAL;
	if (!tid) {
		WRITE_ONCE(hold_stats, 0);
		return stats_probed ? disable_kprobe(&ebtp_stats_probe) : 0;
	}
	/* Elsewhere the return address is not where ebtp_stats_lock() looks. */
	if (!IS_ENABLED(CONFIG_X86_64) || !stats_probed)
		return -EOPNOTSUPP;
	WRITE_ONCE(hold_stats, tid);
	ret = enable_kprobe(&ebtp_stats_probe);
	if (ret)
		WRITE_ONCE(hold_stats, 0);
	return ret;
}

static const struct kernel_param_ops ebtp_hold_stats_ops = {
	.set = ebtp_hold_stats_set,
	.get = param_get_int,
};

module_param_cb(hold_stats, &ebtp_hold_stats_ops, &hold_stats, 0644);
MODULE_PARM_DESC(hold_stats, "Hold this thread's next policy stats read (0: none)");

static int ebtp_probe_gone_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", kprobe_gone(&ebtp_sweep_probe.kp));
}

static const struct kernel_param_ops ebtp_probe_gone_ops = {
	.get = ebtp_probe_gone_get,
};

module_param_cb(probe_gone, &ebtp_probe_gone_ops, NULL, 0444);
MODULE_PARM_DESC(probe_gone, "eventboost.ko was unloaded: no sweep is held");

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
	/* Optional: without it only hold_stats fails. */
	if (register_kprobe(&ebtp_stats_probe))
		return 0;
	if (!kprobe_ftrace(&ebtp_stats_probe)) {
		unregister_kprobe(&ebtp_stats_probe);
		return 0;
	}
	stats_probed = true;
	return 0;
}

static void __exit ebtp_exit(void)
{
	WRITE_ONCE(hold_sweep, 0);
	WRITE_ONCE(hold_stats, 0);
	WRITE_ONCE(release, true);
	if (stats_probed)
		unregister_kprobe(&ebtp_stats_probe);
	unregister_kretprobe(&ebtp_sweep_probe);
}

module_init(ebtp_init);
module_exit(ebtp_exit);
MODULE_DESCRIPTION("Hold eventboost where it may be preempted, for its tests");
MODULE_LICENSE("GPL");
