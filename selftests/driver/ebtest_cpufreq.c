// SPDX-License-Identifier: GPL-2.0
/*
 * ebtest_cpufreq - a fake cpufreq driver for eventboost's tests.
 *
 * QEMU guests have no cpufreq driver.  This one gives them a frequency
 * table, per-CPU, shared or clustered policies, fast switching on or off,
 * and a record of every frequency change the governor asked for, which the
 * tests read from /dev/ebtest_cpufreq:
 *
 *   policy <N of policyN> cur <khz> overlaps <n> offcpu <n> changes <n> \
 *	strict <0|1> min <khz> max <khz>
 *   ...one line per active policy, then the recorded changes, oldest first:
 *   change <seq> <ts_ns> <N of policyN> <on_cpu> <khz> <f|t>
 *   ...and with emulate=1, per online CPU and frequency, then per CPU:
 *   busy <cpu> <khz> <ns>
 *   idle <cpu> <us>
 *   steal <cpu> <owed_ns> <spun_ns> <pays>
 *   held <cpu> <ns>
 *
 * strict, min and max are what the cpufreq core asked of the driver at the
 * last change: policy->strict_target (the governor's target is the
 * frequency, not a floor) and the policy's limits.
 *
 * Writing "clear" empties the change record; sequence numbers go on.
 *
 * With emulate=1 a frequency also costs time, as clock modulation does on
 * real parts: on each CPU a pinned hard-irq hrtimer fires every
 * emulate_period_us and keeps the CPU busy long enough that whatever runs
 * there gets f / f_max of the time, f being the CPU's current frequency:
 * after being busy r ns at f it owes r * (f_max - f) / f ns.  Debts follow
 * the busy time actually run (idle time is not slowed: nothing ran), so
 * late timers, as under QEMU/TCG, do not skew the ratio; they are reckoned
 * every period at that period's frequency (a change counts from the next
 * period) and paid, by spinning, every period or, with emulate_pay_us,
 * once they reach it.  Time the CPU was held (the host ran something
 * else, or interrupts were off) is neither busy time nor paid: see
 * emulate_held_us.  The busy time each CPU spent at each frequency (what
 * it owed there included: a slower clock is busy longer) is read back as
 * "busy <cpu> <khz> <ns>" lines, for energy models, each CPU's idle time
 * as "idle <cpu> <us>" (-1 where the kernel keeps none), the debts owed and
 * paid since the module loaded, and in how many payments, as "steal <cpu>
 * <owed_ns> <spun_ns> <pays>" (a CPU that goes offline forgets its
 * outstanding debt, not these sums), and the time it was held, not
 * charged, as "held <cpu> <ns>".
 *
 * Writing "hold <us>" holds the writer's CPU with interrupts off for that
 * long (at most 100 ms): to a tick, what the host's holding a vCPU looks
 * like (selftests).
 *
 * One TCG thread runs every vCPU in turns, so under QEMU the emulation holds
 * only while the other CPUs idle: whatever runs on one takes turns from the
 * others at a rate that has nothing to do with frequency (with CPU 0
 * spinning, a fixed loop on CPU 1 took about twice as long at any clock;
 * before the debt was carried across ticks, 2.6 GHz cost 13.7x its 4 GHz
 * time; since then 1.6x).  The idle lines let a measurement check that it was
 * alone.
 *
 * ->fast_switch() runs with interrupts off (also on PREEMPT_RT), so the
 * change path uses only atomics and a raw spinlock.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpufreq.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/kernel_stat.h>
#include <linux/kobject.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/tick.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "eb_compat.h"

#define EBT_MAX_FREQS		16
#define EBT_RING_SIZE		4096	/* a power of two */
#define EBT_LATENCY_NS		(10 * NSEC_PER_USEC)
#define EBT_POLICY_LINE_MAX	192
#define EBT_CHANGE_LINE_MAX	96
#define EBT_BUSY_LINE_MAX	96

static bool shared;
module_param(shared, bool, 0444);
MODULE_PARM_DESC(shared, "One policy for all CPUs (default: one per CPU)");

/*
 * A cluster that does not hold CPU 0, whose first CPU can go offline (x86
 * cannot offline CPU 0): the CPUs from this one on share one policy.
 */
static int shared_from = -1;
module_param(shared_from, int, 0444);
MODULE_PARM_DESC(shared_from,
		 "CPUs from this one on share one policy, the others one each (default: -1, off)");

/*
 * Fault injection: the next fail_changes frequency changes fail (fast
 * switch returns 0, ->target_index() -EIO) and change nothing, as a real
 * driver's may.  Written by the tests; no lock: they make one change at a
 * time.
 */
static unsigned int fail_changes;
module_param(fail_changes, uint, 0644);
MODULE_PARM_DESC(fail_changes, "Fail the next N frequency changes (default: 0)");

static bool ebt_fail_this_change(void)
{
	unsigned int n = READ_ONCE(fail_changes);

	if (!n)
		return false;
	WRITE_ONCE(fail_changes, n - 1);
	return true;
}

/*
 * The governor calls the core makes around a suspend whose ->resume
 * failed: cpufreq_suspend() stops each policy's governor, and
 * cpufreq_resume() starts it again only where the driver resumed; the
 * governor stays selected, and the next stop finds it stopped.  Writing a
 * CPU to gov_stop (gov_start) stops (starts) its policy's governor as
 * cpufreq_stop_governor() (cpufreq_start_governor()) does, under the
 * policy's rwsem.  A guest's real suspend would suspend its virtio
 * filesystem too.  Write-only; the tests' own sequence of calls.
 */
static int ebt_gov_call(const char *val, bool start)
{
	struct cpufreq_policy *policy;
	unsigned int cpu;
	int ret;

	ret = kstrtouint(val, 0, &cpu);
	if (ret)
		return ret;
	if (cpu >= nr_cpu_ids)
		return -EINVAL;
	policy = cpufreq_cpu_get(cpu);
	if (!policy)
		return -ENODEV;
	down_write(&policy->rwsem);
	if (!policy->governor)
		ret = -ENODEV;
	else if (start && policy->governor->start)
		ret = policy->governor->start(policy);
	else if (!start && policy->governor->stop)
		policy->governor->stop(policy);
	up_write(&policy->rwsem);
	cpufreq_cpu_put(policy);
	return ret;
}

static int ebt_gov_stop_set(const char *val, const struct kernel_param *kp)
{
	return ebt_gov_call(val, false);
}

static int ebt_gov_start_set(const char *val, const struct kernel_param *kp)
{
	return ebt_gov_call(val, true);
}

static const struct kernel_param_ops ebt_gov_stop_ops = {
	.set = ebt_gov_stop_set,
};

static const struct kernel_param_ops ebt_gov_start_ops = {
	.set = ebt_gov_start_set,
};
module_param_cb(gov_stop, &ebt_gov_stop_ops, NULL, 0200);
MODULE_PARM_DESC(gov_stop, "Stop the governor of this CPU's policy, as the core does at a suspend");
module_param_cb(gov_start, &ebt_gov_start_ops, NULL, 0200);
MODULE_PARM_DESC(gov_start, "Start the governor of this CPU's policy, as the core does at a resume");

/*
 * A slow driver: ->target_index() takes this long before it changes the
 * frequency, as one that asks firmware does.  Written by the tests.
 */
static unsigned int target_delay_us;
module_param(target_delay_us, uint, 0644);
MODULE_PARM_DESC(target_delay_us,
		 "->target_index() sleeps this long first, us (default: 0)");

/*
 * ->fast_switch() programs the entry the core resolved last
 * (policy->cached_resolved_idx), ignoring the frequency it is given, as
 * qcom-cpufreq-hw and apple-soc-cpufreq do.  Written by the tests.
 */
static bool fast_switch_resolved;
module_param(fast_switch_resolved, bool, 0644);
MODULE_PARM_DESC(fast_switch_resolved,
		 "->fast_switch() applies policy->cached_resolved_idx (default: 0)");

static bool fast_switch = true;
module_param(fast_switch, bool, 0444);
MODULE_PARM_DESC(fast_switch, "Offer fast frequency switching (default: 1)");

static bool per_policy_gov = true;
module_param(per_policy_gov, bool, 0444);
MODULE_PARM_DESC(per_policy_gov,
		 "Ask for per-policy governor tunables (default: 1)");

static char *freqs = "800000,1600000,2600000,3300000,4000000";
module_param(freqs, charp, 0444);
MODULE_PARM_DESC(freqs, "Frequency table in kHz, ascending, at most 16");

static unsigned int boost_from_khz;
module_param(boost_from_khz, uint, 0444);
MODULE_PARM_DESC(boost_from_khz,
		 "Mark entries >= this as boost frequencies (default: 0, none)");

static bool emulate;
module_param(emulate, bool, 0444);
MODULE_PARM_DESC(emulate,
		 "Make frequency cost time: steal (f_max - f) / f of busy time (default: 0)");

/*
 * The CPUs whose clock is emulated.  Each gets a 1 kHz timer, idle or not:
 * under TCG those interrupts alone kept an idle CPU 0 3-7% busy, which is
 * what make experiment needs idle.  Its measured CPU alone needs it.
 */
static char *emulate_cpus = "";
module_param(emulate_cpus, charp, 0444);
MODULE_PARM_DESC(emulate_cpus,
		 "With emulate=1, the CPUs to emulate, a cpulist (default: all)");
static cpumask_var_t ebt_emu_mask;

static unsigned int emulate_period_us = 1000;
module_param(emulate_period_us, uint, 0444);
MODULE_PARM_DESC(emulate_period_us,
		 "Emulation period in microseconds, 100..100000 (default: 1000)");

/*
 * Under TCG every instruction costs the same, so a slower clock slows
 * memory-bound work as much as arithmetic; real parts do not.  This share
 * of busy time is taken as frequency-insensitive (memory stalls) and is
 * not slowed.  Writable at run time; takes effect at the next period.
 */
static unsigned int emulate_fixed_pct;
module_param(emulate_fixed_pct, uint, 0644);
MODULE_PARM_DESC(emulate_fixed_pct,
		 "Share of busy time (percent, 0..100) a slower clock does not slow (default: 0)");

/*
 * Pay a debt once it reaches this much, not every period (0, the default:
 * every period).  Under QEMU/TCG a return from a steal may cost the code it
 * interrupted time of its own, which a slower clock pays more often; lumps
 * pay it less often but stall in coarser steps, and a debt left below the
 * lump waits for the next slow period
 * (docs/evidence/2026-11-26-drift-pilot).  Writable at run time, up to
 * what one payment may spin.
 */
static unsigned int emulate_pay_us;

/*
 * Under QEMU/TCG the host holds a vCPU while it runs something else (other
 * guests, the load generator, QEMU's own threads); guest time goes on.
 * Charged as busy time, the hold made a slower clock pay for the host's
 * load too: with two busy loops on the host, a CPU loop at 2.6 GHz took
 * 1.98x its 4.0 GHz time against 1.60x on a quiet host
 * (docs/evidence/2026-12-05-emulation-held).  A held CPU's timer comes late
 * by about as long as the hold lasted after it was due: a tick this late or
 * later (us) is taken as held, and none of its lateness is charged (a tick
 * 0.49 ms late is charged in full, one 0.5 ms late not at all); nor is a
 * gap this long between two readings of the clock while a debt is spun
 * paid (it stays owed).  On a quiet host a tick comes 50-200 us late (taken
 * as busy time: QEMU raises the timer from its main loop while the vCPU
 * runs on) and seldom 0.5 ms or more; with the host busy, most of the
 * lateness came in ticks 2-10 ms late.  Under TCG's one thread, another
 * vCPU's turn holds this one too.  0 charges every hold, as the driver did
 * until 2026-12-05.  Writable at run time.
 */
static unsigned int emulate_held_us = 500;

/* The longest "hold <us>", and the largest emulate_held_us: 0.1 s. */
#define EBT_HOLD_MAX_US		100000

static int ebt_held_us_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 0, EBT_HOLD_MAX_US);
}

static const struct kernel_param_ops ebt_held_us_ops = {
	.set = ebt_held_us_set,
	.get = param_get_uint,
};
module_param_cb(emulate_held_us, &ebt_held_us_ops, &emulate_held_us, 0644);
MODULE_PARM_DESC(emulate_held_us,
		 "With emulate=1, a period's timer this late, or a gap this long in a debt's spin (us), is a hold: not busy, not paid; 0..100000 (default: 500; 0: counted as busy)");

/* Never steal more than this many periods at once. */
#define EBT_EMU_MAX_STEAL_PERIODS	20

static int ebt_pay_us_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 0, EBT_EMU_MAX_STEAL_PERIODS *
				     READ_ONCE(emulate_period_us));
}

static const struct kernel_param_ops ebt_pay_us_ops = {
	.set = ebt_pay_us_set,
	.get = param_get_uint,
};
module_param_cb(emulate_pay_us, &ebt_pay_us_ops, &emulate_pay_us, 0644);
MODULE_PARM_DESC(emulate_pay_us,
		 "With emulate=1, pay a debt once it reaches this many microseconds, 0..20 periods (default: 0, every period)");

/* One recorded frequency change. */
struct ebt_change {
	u64 seq;
	u64 ts_ns;
	unsigned int policy_cpu;
	unsigned int on_cpu;
	unsigned int khz;
	char path;		/* 'f': ->fast_switch(), 't': ->target_index() */
};

/* Our state of one policy, from ->init() to ->exit(). */
struct ebt_policy {
	struct list_head node;		/* in ebt_policies, by nr */
	struct cpufreq_policy *policy;
	/*
	 * N of sysfs policyN, how the records name the policy: policy->cpu
	 * moves when CPU N goes offline, the name does not.
	 */
	unsigned int nr;
	unsigned int cur_khz;
	atomic_t in_flight;		/* driver calls running right now */
	atomic64_t overlaps;		/* calls that found another in flight */
	atomic64_t offcpu;		/* fast switches off the policy's CPUs */
	atomic64_t changes;		/* all changes since ->init() */
	/* At the last change: */
	bool strict;			/* policy->strict_target */
	unsigned int min_khz;		/* policy->min */
	unsigned int max_khz;		/* policy->max */
};

static struct cpufreq_frequency_table ebt_table[EBT_MAX_FREQS + 1];
static unsigned int ebt_nfreqs;
static bool ebt_has_boost;

static DEFINE_MUTEX(ebt_lock);		/* protects ebt_policies */
static LIST_HEAD(ebt_policies);

/*
 * The change with sequence number seq lives in ebt_ring[(seq - 1) % size];
 * the ring holds the ebt_ring_len changes before ebt_next_seq.
 */
static DEFINE_RAW_SPINLOCK(ebt_ring_lock);
static struct ebt_change ebt_ring[EBT_RING_SIZE];
static u64 ebt_next_seq = 1;
static unsigned int ebt_ring_len;

struct ebt_snapshot {
	size_t len;
	char text[];
};

static struct ebt_change *ebt_ring_slot(u64 seq)
{
	return &ebt_ring[(seq - 1) & (EBT_RING_SIZE - 1)];
}

/*
 * Emulated DVFS (emulate=1): the frequency each CPU runs at, and a pinned
 * hard-irq timer per CPU that steals the time a slower clock would cost.
 */
struct ebt_emu {
	struct hrtimer timer;
	unsigned int khz;
	unsigned int index;	/* of khz in ebt_table */
	u64 busy_ns[EBT_MAX_FREQS];
	u64 owed_ns;		/* debts reckoned, in all */
	u64 spun_ns;		/* debts paid, in all */
	s64 debt_ns;		/* owed, not paid yet (< 0: overpaid) */
	u64 pays;		/* payments made */
	u64 held_ns;		/* time held, not charged, in all */
	u64 ran_from;		/* end of the last steal (ns) */
	u64 idle_us;		/* the CPU's idle time then */
};

static DEFINE_PER_CPU(struct ebt_emu, ebt_emu);
static unsigned int ebt_max_khz;
static enum cpuhp_state ebt_emu_hp_state;

static void ebt_emu_set(const struct cpumask *cpus, unsigned int index)
{
	unsigned int cpu;

	for_each_cpu(cpu, cpus) {
		WRITE_ONCE(per_cpu(ebt_emu, cpu).index, index);
		WRITE_ONCE(per_cpu(ebt_emu, cpu).khz, ebt_table[index].frequency);
	}
}

/*
 * Spins from @now until @end, interrupts off: returns the time paid, that
 * is spun less any gap of @held_from or more between two readings of the
 * clock (the host held the vCPU: nothing was paid meanwhile; 0: none),
 * which counts as held.  What a hold left unpaid stays owed.
 */
static u64 ebt_emu_spin(struct ebt_emu *e, u64 now, u64 end, u64 held_from)
{
	u64 t = now, prev, held = 0;

	while (t < end) {
		cpu_relax();
		prev = t;
		t = ktime_get_ns();
		if (held_from && t - prev >= held_from)
			held += t - prev;
	}
	WRITE_ONCE(e->held_ns, e->held_ns + held);
	return t - now - held;
}

static enum hrtimer_restart ebt_emu_tick(struct hrtimer *timer)
{
	struct ebt_emu *e = container_of(timer, struct ebt_emu, timer);
	u64 period = (u64)emulate_period_us * NSEC_PER_USEC;
	unsigned int khz = READ_ONCE(e->khz), index = READ_ONCE(e->index);
	u64 now = ktime_get_ns(), due = ktime_to_ns(hrtimer_get_expires(timer));
	u64 held_from = (u64)READ_ONCE(emulate_held_us) * NSEC_PER_USEC;
	u64 busy, idle, late, owed, end, spun;
	u64 idle_us;

	/* Idle now: the debt is paid when something runs here again. */
	if (is_idle_task(current))
		goto out;
	idle_us = get_cpu_idle_time_us(smp_processor_id(), NULL);
	if (khz && e->ran_from) {
		busy = now - e->ran_from;
		idle = (idle_us - e->idle_us) * NSEC_PER_USEC;
		busy = busy > idle ? busy - idle : 0;
		/* Held, not busy: see emulate_held_us. */
		late = now > due ? now - due : 0;
		if (held_from && late >= held_from) {
			late = min(late, busy);
			WRITE_ONCE(e->held_ns, e->held_ns + late);
			busy -= late;
		}
		owed = div_u64(busy * (100 - min(READ_ONCE(emulate_fixed_pct), 100U)) *
			       (ebt_max_khz - khz), (u64)khz * 100);
		WRITE_ONCE(e->owed_ns, e->owed_ns + owed);
		WRITE_ONCE(e->busy_ns[index], e->busy_ns[index] + busy + owed);
		e->debt_ns += owed;
		if (e->debt_ns > 0 &&
		    e->debt_ns >= (s64)READ_ONCE(emulate_pay_us) * NSEC_PER_USEC) {
			end = now + min_t(u64, e->debt_ns,
					  EBT_EMU_MAX_STEAL_PERIODS * period);
			spun = ebt_emu_spin(e, now, end, held_from);
			WRITE_ONCE(e->spun_ns, e->spun_ns + spun);
			WRITE_ONCE(e->pays, e->pays + 1);
			e->debt_ns -= spun;
		}
	}
	e->ran_from = ktime_get_ns();
	e->idle_us = idle_us;
out:
	hrtimer_forward_now(timer, ns_to_ktime(period));
	return HRTIMER_RESTART;
}

/* cpuhp callbacks run on the CPU coming up or going down. */
static int ebt_emu_cpu_online(unsigned int cpu)
{
	struct ebt_emu *e = this_cpu_ptr(&ebt_emu);

	eb_hrtimer_setup(&e->timer, ebt_emu_tick, CLOCK_MONOTONIC,
			 HRTIMER_MODE_REL_PINNED_HARD);
	e->ran_from = 0;
	e->debt_ns = 0;
	if (!cpumask_test_cpu(cpu, ebt_emu_mask))
		return 0;
	hrtimer_start(&e->timer, ns_to_ktime(emulate_period_us * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	return 0;
}

static int ebt_emu_cpu_offline(unsigned int cpu)
{
	hrtimer_cancel(&this_cpu_ptr(&ebt_emu)->timer);
	return 0;
}

static int __init ebt_emu_start(void)
{
	int ret;

	if (!emulate)
		return 0;
	if (emulate_period_us < 100 || emulate_period_us > 100000) {
		pr_err("emulate_period_us must be 100..100000\n");
		return -EINVAL;
	}
	if (emulate_pay_us > EBT_EMU_MAX_STEAL_PERIODS * emulate_period_us) {
		pr_err("emulate_pay_us must be at most %u periods\n",
		       EBT_EMU_MAX_STEAL_PERIODS);
		return -EINVAL;
	}
	if (!zalloc_cpumask_var(&ebt_emu_mask, GFP_KERNEL))
		return -ENOMEM;
	if (!*emulate_cpus) {
		cpumask_setall(ebt_emu_mask);
	} else if (cpulist_parse(emulate_cpus, ebt_emu_mask) ||
		   cpumask_empty(ebt_emu_mask)) {
		pr_err("emulate_cpus: a list of CPUs, e.g. 1 or 1-3, not \"%s\"\n",
		       emulate_cpus);
		free_cpumask_var(ebt_emu_mask);
		return -EINVAL;
	}
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "ebtest:emulate",
				ebt_emu_cpu_online, ebt_emu_cpu_offline);
	if (ret < 0) {
		free_cpumask_var(ebt_emu_mask);
		return ret;
	}
	ebt_emu_hp_state = ret;
	return 0;
}

static void ebt_emu_stop(void)
{
	if (!emulate)
		return;
	cpuhp_remove_state(ebt_emu_hp_state);
	free_cpumask_var(ebt_emu_mask);
}

/*
 * The one place where a policy's frequency changes, whichever path asked
 * for it; any emulation of hardware behaviour belongs here.
 */
static unsigned int ebt_apply(struct cpufreq_policy *policy,
			      unsigned int index, char path,
			      unsigned int on_cpu)
{
	struct ebt_policy *ep = policy->driver_data;
	unsigned int khz = ebt_table[index].frequency;
	struct ebt_change *c;
	unsigned long flags;

	WRITE_ONCE(ep->cur_khz, khz);
	WRITE_ONCE(ep->strict, READ_ONCE(policy->strict_target));
	WRITE_ONCE(ep->min_khz, READ_ONCE(policy->min));
	WRITE_ONCE(ep->max_khz, READ_ONCE(policy->max));
	atomic64_inc(&ep->changes);
	ebt_emu_set(policy->cpus, index);

	raw_spin_lock_irqsave(&ebt_ring_lock, flags);
	c = ebt_ring_slot(ebt_next_seq);
	c->seq = ebt_next_seq++;
	c->ts_ns = ktime_get_ns();
	c->policy_cpu = ep->nr;
	c->on_cpu = on_cpu;
	c->khz = khz;
	c->path = path;
	if (ebt_ring_len < EBT_RING_SIZE)
		ebt_ring_len++;
	raw_spin_unlock_irqrestore(&ebt_ring_lock, flags);

	return khz;
}

static void ebt_enter(struct ebt_policy *ep)
{
	if (atomic_inc_return(&ep->in_flight) > 1)
		atomic64_inc(&ep->overlaps);
}

static void ebt_leave(struct ebt_policy *ep)
{
	atomic_dec(&ep->in_flight);
}

/*
 * CPUFREQ_RELATION_L, as cpufreq_driver_fast_switch() expects: the lowest
 * entry at or above target, but never above policy->max (which keeps boost
 * entries out while boost is off).
 */
static unsigned int ebt_resolve(struct cpufreq_policy *policy,
				unsigned int target)
{
	unsigned int max = READ_ONCE(policy->max);
	unsigned int i, best = 0;

	for (i = 0; i < ebt_nfreqs; i++) {
		if (ebt_table[i].frequency > max)
			break;
		best = i;
		if (ebt_table[i].frequency >= target)
			break;
	}

	return best;
}

static unsigned int ebt_fast_switch(struct cpufreq_policy *policy,
				    unsigned int target_freq)
{
	struct ebt_policy *ep = policy->driver_data;
	unsigned int cpu = raw_smp_processor_id();
	unsigned int khz, idx;

	idx = READ_ONCE(fast_switch_resolved) ?
	      min(READ_ONCE(policy->cached_resolved_idx), ebt_nfreqs - 1) :
	      ebt_resolve(policy, target_freq);
	ebt_enter(ep);
	/* A preemptible caller is not bound to any CPU: count that too. */
	if (preemptible() || !cpumask_test_cpu(cpu, policy->cpus))
		atomic64_inc(&ep->offcpu);
	if (ebt_fail_this_change())
		khz = 0;
	else
		khz = ebt_apply(policy, idx, 'f', cpu);
	ebt_leave(ep);

	return khz;
}

static int ebt_target_index(struct cpufreq_policy *policy, unsigned int index)
{
	struct ebt_policy *ep = policy->driver_data;
	unsigned int delay_us = READ_ONCE(target_delay_us);
	int ret = 0;

	/* Inside enter/leave: a test sees the change in flight, and overlaps. */
	ebt_enter(ep);
	if (delay_us)
		fsleep(delay_us);
	if (ebt_fail_this_change())
		ret = -EIO;
	else
		ebt_apply(policy, index, 't', raw_smp_processor_id());
	ebt_leave(ep);

	return ret;
}

static unsigned int ebt_get(unsigned int cpu)
{
	struct cpufreq_policy *policy = cpufreq_cpu_get_raw(cpu);
	struct ebt_policy *ep;

	if (!policy)
		return 0;
	ep = policy->driver_data;

	return ep ? READ_ONCE(ep->cur_khz) : 0;
}

static int ebt_cpu_init(struct cpufreq_policy *policy)
{
	struct ebt_policy *ep, *pos;

	ep = kzalloc(sizeof(*ep), GFP_KERNEL);
	if (!ep)
		return -ENOMEM;
	ep->policy = policy;
	if (sscanf(kobject_name(&policy->kobj), "policy%u", &ep->nr) != 1)
		ep->nr = policy->cpu;
	ep->cur_khz = ebt_table[0].frequency;

	if (shared) {
		cpumask_copy(policy->cpus, cpu_possible_mask);
		policy->shared_type = CPUFREQ_SHARED_TYPE_ANY;
	} else if (shared_from >= 0 && policy->cpu >= shared_from) {
		unsigned int cpu;

		cpumask_clear(policy->cpus);
		for_each_possible_cpu(cpu)
			if (cpu >= shared_from)
				cpumask_set_cpu(cpu, policy->cpus);
		policy->shared_type = CPUFREQ_SHARED_TYPE_ANY;
	}
	policy->freq_table = ebt_table;
	policy->cpuinfo.transition_latency = EBT_LATENCY_NS;
	policy->fast_switch_possible = fast_switch;
	policy->driver_data = ep;
	ebt_emu_set(policy->cpus, 0);

#if !EB_CPUFREQ_BOOST_BY_SET_BOOST
	/*
	 * As cpufreq-dt did: enabling boost support from ->init(), before the
	 * core adds the policy's sysfs files, gives the global "boost" file
	 * (and, on kernels with per-policy boost, the policy's one).  Newer
	 * kernels do it for a driver with ->set_boost (ebt_init()).
	 */
	if (ebt_has_boost) {
		int ret = cpufreq_enable_boost_support();

		if (ret) {
			policy->driver_data = NULL;
			kfree(ep);
			return ret;
		}
	}
#endif

	mutex_lock(&ebt_lock);
	list_for_each_entry(pos, &ebt_policies, node)
		if (pos->nr > ep->nr)
			break;
	list_add_tail(&ep->node, &pos->node);
	mutex_unlock(&ebt_lock);

	return 0;
}

static void ebt_cpu_teardown(struct cpufreq_policy *policy)
{
	struct ebt_policy *ep = policy->driver_data;

	mutex_lock(&ebt_lock);
	list_del(&ep->node);
	mutex_unlock(&ebt_lock);
	policy->driver_data = NULL;
	kfree(ep);
}

#if EB_CPUFREQ_EXIT_VOID
static void ebt_cpu_exit(struct cpufreq_policy *policy)
{
	ebt_cpu_teardown(policy);
}
#else
static int ebt_cpu_exit(struct cpufreq_policy *policy)
{
	ebt_cpu_teardown(policy);
	return 0;
}
#endif

#if !EB_CPUFREQ_BOOST_BY_SET_BOOST
static struct freq_attr *ebt_boost_attr[] = {
	&cpufreq_freq_attr_scaling_available_freqs,
	&cpufreq_freq_attr_scaling_boost_freqs,
	NULL,
};
#endif

/* Not const: flags, ->fast_switch and ->attr follow the parameters. */
static struct cpufreq_driver ebt_driver = {
	.name		= "ebtest",
	.verify		= cpufreq_generic_frequency_table_verify,
	.target_index	= ebt_target_index,
	.get		= ebt_get,
	.init		= ebt_cpu_init,
	.exit		= ebt_cpu_exit,
#if !EB_CPUFREQ_BOOST_BY_SET_BOOST
	.attr		= cpufreq_generic_attr,
#endif
};

/* Copies the recorded changes, oldest first; returns how many. */
static unsigned int ebt_ring_copy(struct ebt_change *out)
{
	unsigned int len, first, n1;
	unsigned long flags;

	raw_spin_lock_irqsave(&ebt_ring_lock, flags);
	len = ebt_ring_len;
	first = (ebt_next_seq - len - 1) & (EBT_RING_SIZE - 1);
	n1 = min(len, EBT_RING_SIZE - first);
	memcpy(out, &ebt_ring[first], n1 * sizeof(*out));
	memcpy(out + n1, ebt_ring, (len - n1) * sizeof(*out));
	raw_spin_unlock_irqrestore(&ebt_ring_lock, flags);

	return len;
}

/* Emulation only: busy time per CPU and frequency, idle time and steals. */
static void ebt_busy_lines(struct ebt_snapshot *snap, size_t cap)
{
	unsigned int cpu, i;

	for_each_online_cpu(cpu) {
		for (i = 0; i < ebt_nfreqs; i++)
			snap->len += scnprintf(snap->text + snap->len,
					       cap - snap->len,
					       "busy %u %u %llu\n", cpu,
					       ebt_table[i].frequency,
					       READ_ONCE(per_cpu(ebt_emu, cpu).busy_ns[i]));
		snap->len += scnprintf(snap->text + snap->len, cap - snap->len,
				       "idle %u %lld\n", cpu,
				       (s64)get_cpu_idle_time_us(cpu, NULL));
		snap->len += scnprintf(snap->text + snap->len, cap - snap->len,
				       "steal %u %llu %llu %llu\n", cpu,
				       READ_ONCE(per_cpu(ebt_emu, cpu).owed_ns),
				       READ_ONCE(per_cpu(ebt_emu, cpu).spun_ns),
				       READ_ONCE(per_cpu(ebt_emu, cpu).pays));
		snap->len += scnprintf(snap->text + snap->len, cap - snap->len,
				       "held %u %llu\n", cpu,
				       READ_ONCE(per_cpu(ebt_emu, cpu).held_ns));
	}
}

static int ebt_open(struct inode *inode, struct file *file)
{
	struct ebt_snapshot *snap;
	struct ebt_change *chg;
	struct ebt_policy *ep;
	unsigned int npol = 0, nchg, i;
	size_t cap;

	/* misc_open() left our struct miscdevice here. */
	file->private_data = NULL;
	if (!(file->f_mode & FMODE_READ))
		return 0;

	chg = kvmalloc_array(EBT_RING_SIZE, sizeof(*chg), GFP_KERNEL);
	if (!chg)
		return -ENOMEM;

	mutex_lock(&ebt_lock);
	list_for_each_entry(ep, &ebt_policies, node)
		npol++;
	cap = (size_t)npol * EBT_POLICY_LINE_MAX +
	      (size_t)EBT_RING_SIZE * EBT_CHANGE_LINE_MAX +
	      (emulate ? (size_t)nr_cpu_ids * (ebt_nfreqs + 3) * EBT_BUSY_LINE_MAX : 0);
	snap = kvmalloc(struct_size(snap, text, cap), GFP_KERNEL);
	if (!snap) {
		mutex_unlock(&ebt_lock);
		kvfree(chg);
		return -ENOMEM;
	}
	snap->len = 0;
	list_for_each_entry(ep, &ebt_policies, node)
		snap->len += scnprintf(snap->text + snap->len, cap - snap->len,
				       "policy %u cur %u overlaps %llu offcpu %llu changes %llu strict %d min %u max %u in_flight %d\n",
				       ep->nr,
				       READ_ONCE(ep->cur_khz),
				       (u64)atomic64_read(&ep->overlaps),
				       (u64)atomic64_read(&ep->offcpu),
				       (u64)atomic64_read(&ep->changes),
				       READ_ONCE(ep->strict),
				       READ_ONCE(ep->min_khz),
				       READ_ONCE(ep->max_khz),
				       atomic_read(&ep->in_flight));
	mutex_unlock(&ebt_lock);

	nchg = ebt_ring_copy(chg);
	for (i = 0; i < nchg; i++)
		snap->len += scnprintf(snap->text + snap->len, cap - snap->len,
				       "change %llu %llu %u %u %u %c\n",
				       chg[i].seq, chg[i].ts_ns,
				       chg[i].policy_cpu, chg[i].on_cpu,
				       chg[i].khz, chg[i].path);
	kvfree(chg);
	if (emulate)
		ebt_busy_lines(snap, cap);

	file->private_data = snap;
	return 0;
}

static ssize_t ebt_read(struct file *file, char __user *buf, size_t count,
			loff_t *ppos)
{
	struct ebt_snapshot *snap = file->private_data;

	if (!snap)
		return -EBADF;

	return simple_read_from_buffer(buf, count, ppos, snap->text, snap->len);
}

/* Holds this CPU with interrupts off for @us (see "hold" above). */
static void ebt_hold(unsigned int us)
{
	unsigned long flags;
	u64 end;

	local_irq_save(flags);
	end = ktime_get_ns() + (u64)us * NSEC_PER_USEC;
	while (ktime_get_ns() < end)
		cpu_relax();
	local_irq_restore(flags);
}

static ssize_t ebt_write(struct file *file, const char __user *buf,
			 size_t count, loff_t *ppos)
{
	char cmd[24];
	unsigned long flags;
	unsigned int us;
	size_t len;

	if (count >= sizeof(cmd))
		return -EINVAL;
	if (copy_from_user(cmd, buf, count))
		return -EFAULT;
	cmd[count] = '\0';
	len = str_has_prefix(cmd, "hold ");
	if (len) {
		if (kstrtouint(cmd + len, 10, &us) || us > EBT_HOLD_MAX_US)
			return -EINVAL;
		ebt_hold(us);
		return count;
	}
	if (!sysfs_streq(cmd, "clear"))
		return -EINVAL;

	raw_spin_lock_irqsave(&ebt_ring_lock, flags);
	ebt_ring_len = 0;
	raw_spin_unlock_irqrestore(&ebt_ring_lock, flags);

	return count;
}

static int ebt_release(struct inode *inode, struct file *file)
{
	kvfree(file->private_data);
	return 0;
}

static const struct file_operations ebt_fops = {
	.owner		= THIS_MODULE,
	.open		= ebt_open,
	.read		= ebt_read,
	.write		= ebt_write,
	.release	= ebt_release,
	.llseek		= default_llseek,
};

static struct miscdevice ebt_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "ebtest_cpufreq",
	.fops	= &ebt_fops,
	.mode	= 0600,
};

static int __init ebt_parse_freqs(void)
{
	char *buf, *s, *tok;
	unsigned int khz, n = 0;
	int ret = -EINVAL;

	buf = kstrdup(freqs ? freqs : "", GFP_KERNEL);
	if (!buf)
		return -ENOMEM;

	s = strim(buf);
	while ((tok = strsep(&s, ",")) != NULL) {
		tok = strim(tok);
		if (n == EBT_MAX_FREQS) {
			pr_err("freqs: more than %d entries\n", EBT_MAX_FREQS);
			goto out;
		}
		if (kstrtouint(tok, 10, &khz) || !khz ||
		    khz >= CPUFREQ_ENTRY_INVALID) {
			pr_err("freqs: bad entry \"%s\"\n", tok);
			goto out;
		}
		if (n && khz <= ebt_table[n - 1].frequency) {
			pr_err("freqs: not strictly ascending at %u\n", khz);
			goto out;
		}
		ebt_table[n].driver_data = n;
		ebt_table[n].frequency = khz;
		if (boost_from_khz && khz >= boost_from_khz) {
			ebt_table[n].flags = CPUFREQ_BOOST_FREQ;
			ebt_has_boost = true;
		}
		n++;
	}

	if (ebt_table[0].flags & CPUFREQ_BOOST_FREQ) {
		pr_err("boost_from_khz=%u leaves no non-boost frequency\n",
		       boost_from_khz);
		goto out;
	}
	ebt_table[n].frequency = CPUFREQ_TABLE_END;
	ebt_nfreqs = n;
	ebt_max_khz = ebt_table[n - 1].frequency;
	ret = 0;
out:
	kfree(buf);
	return ret;
}

static int __init ebt_init(void)
{
	int ret;

	ret = ebt_parse_freqs();
	if (ret)
		return ret;
	if (shared_from < -1 || (shared && shared_from >= 0)) {
		pr_err("shared_from=%d: a CPU, or -1; not with shared=1\n",
		       shared_from);
		return -EINVAL;
	}

	/* The guest's real clock never changes. */
	ebt_driver.flags = CPUFREQ_CONST_LOOPS;
	if (per_policy_gov)
		ebt_driver.flags |= CPUFREQ_HAVE_GOVERNOR_PER_POLICY;
	if (fast_switch)
		ebt_driver.fast_switch = ebt_fast_switch;
#if EB_CPUFREQ_BOOST_BY_SET_BOOST
	if (ebt_has_boost)
		ebt_driver.set_boost = cpufreq_boost_set_sw;
#else
	if (ebt_has_boost)
		ebt_driver.attr = ebt_boost_attr;
#endif

	ret = ebt_emu_start();
	if (ret)
		return ret;

	ret = misc_register(&ebt_misc);
	if (ret) {
		pr_err("cannot register /dev/%s: %d\n", ebt_misc.name, ret);
		goto err_emu;
	}

	ret = cpufreq_register_driver(&ebt_driver);
	if (ret) {
		pr_err("cannot register cpufreq driver: %d\n", ret);
		goto err_misc;
	}

	pr_info("%u frequencies, %s, fast switch %s%s%s\n", ebt_nfreqs,
		shared ? "one shared policy" : shared_from >= 0 ?
		"one policy from shared_from on" : "a policy per CPU",
		fast_switch ? "on" : "off", ebt_has_boost ? ", boost" : "",
		emulate ? ", emulated DVFS" : "");
	return 0;

err_misc:
	misc_deregister(&ebt_misc);
err_emu:
	ebt_emu_stop();
	return ret;
}
module_init(ebt_init);

static void __exit ebt_exit(void)
{
	cpufreq_unregister_driver(&ebt_driver);
	misc_deregister(&ebt_misc);
	ebt_emu_stop();
}
module_exit(ebt_exit);

MODULE_DESCRIPTION("Fake cpufreq driver for eventboost's tests");
MODULE_LICENSE("GPL");
