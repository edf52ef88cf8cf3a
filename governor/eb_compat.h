/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels eventboost builds for, in one place:
 * the governor and the test cpufreq driver (selftests/driver/) include it,
 * and no other file tests the kernel's version.
 *
 * Built and tested on 6.1, 6.12, 6.12-rt and 7.2.  The version test spells
 * out the major and patch level because checkpatch rejects
 * LINUX_VERSION_CODE.
 */
#ifndef _EB_COMPAT_H
#define _EB_COMPAT_H

#include <linux/cpufreq.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/version.h>

#define EB_KERNEL_GE(major, minor)					\
	(KERNEL_VERSION(LINUX_VERSION_MAJOR, LINUX_VERSION_PATCHLEVEL, 0) >= \
	 KERNEL_VERSION(major, minor, 0))

/*
 * hrtimer_setup() (6.13) sets the callback with the clock and mode;
 * hrtimer_init() is gone from 6.15 on.
 */
static inline void
eb_hrtimer_setup(struct hrtimer *timer,
		 enum hrtimer_restart (*function)(struct hrtimer *),
		 clockid_t clock_id, enum hrtimer_mode mode)
{
#if EB_KERNEL_GE(6, 13)
	hrtimer_setup(timer, function, clock_id, mode);
#else
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
#endif
}

/*
 * From 6.14 on kthread_create_worker() leaves the thread asleep (it would
 * sit in D state, tripping hung-task warnings) and kthread_run_worker()
 * creates and wakes it; before, kthread_create_worker() did both.
 */
#if EB_KERNEL_GE(6, 14)
#define eb_kthread_run_worker(flags, namefmt, ...)			\
	kthread_run_worker(flags, namefmt, ##__VA_ARGS__)
#else
#define eb_kthread_run_worker(flags, namefmt, ...)			\
	kthread_create_worker(flags, namefmt, ##__VA_ARGS__)
#endif

/* A cpufreq driver's ->exit() returns void from 6.11 on. */
#define EB_CPUFREQ_EXIT_VOID		EB_KERNEL_GE(6, 11)

/*
 * Boost frequencies in a cpufreq driver.  Up to 6.14 the driver calls
 * cpufreq_enable_boost_support() from ->init() and lists the
 * scaling_available_frequencies and scaling_boost_frequencies attributes
 * itself (cpufreq_generic_attr).  From 6.15 on both helpers are gone: a
 * driver with ->set_boost = cpufreq_boost_set_sw gets the boost files, and
 * the core adds the frequency lists of any policy with a table.
 */
#define EB_CPUFREQ_BOOST_BY_SET_BOOST	EB_KERNEL_GE(6, 15)

#endif /* _EB_COMPAT_H */
