// SPDX-License-Identifier: GPL-2.0
/*
 * eventboost selftests: run as root in a guest with eventboost.ko and the
 * ebtest_cpufreq driver loaded (see run_guest.sh).  Table 800..4000 MHz, so
 * the default base is 2.6 GHz (65% of max) and the default boost 4.0 GHz.
 * Env: EBTEST_FAST=1 if the driver was loaded with fast_switch=1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "eb_util.h"

#define BASE		2600000u
#define BOOST		4000000u
#define MAX_POLICIES	64

/* ---- sysfs and driver helpers ---- */

static long read_long(const char *path)
{
	char buf[64];

	if (eb_read_str(path, buf, sizeof(buf)))
		return -1;
	return strtol(buf, NULL, 10);
}

#define DRV_PARAM "/sys/module/ebtest_cpufreq/parameters/"
/* ebtest_pause.ko: holds the budget sweep (a_sweep_spares_a_vote_...) */
#define PAUSE_PARAM "/sys/module/ebtest_pause/parameters/"

static int policy_of(int cpu)
{
	char path[128], buf[64];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/related_cpus", cpu);
	if (eb_read_str(path, buf, sizeof(buf)))
		return -1;
	return atoi(buf);
}

/* Tunables: per policy, else global (driver without per-policy governors). */
static void tunable_path(char *path, size_t len, int pol, const char *name)
{
	struct stat st;

	snprintf(path, len, EB_CPUFREQ "/policy%d/eventboost", pol);
	if (stat(path, &st))
		snprintf(path, len, EB_CPUFREQ "/eventboost/%s", name);
	else
		snprintf(path, len, EB_CPUFREQ "/policy%d/eventboost/%s", pol, name);
}

static int set_tunable(int pol, const char *name, const char *val)
{
	char path[160];

	tunable_path(path, sizeof(path), pol, name);
	return eb_write_str(path, val);
}

static long get_tunable(int pol, const char *name)
{
	char path[160];

	tunable_path(path, sizeof(path), pol, name);
	return read_long(path);
}

static void msleep(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * The limits (scaling_min_freq, scaling_max_freq) apply after the write
 * returns: the cpufreq core updates the policy from a work item
 * (cpufreq_notifier_max()).  Wait until they read back as written, or a
 * hint right after would be decided under the old ones.
 */
static int set_policy_attr(int pol, const char *name, const char *val)
{
	char path[160], buf[64];
	int ret;

	snprintf(path, sizeof(path), EB_CPUFREQ "/policy%d/%s", pol, name);
	ret = eb_write_str(path, val);
	if (ret || strncmp(name, "scaling_m", 9))
		return ret;
	for (int i = 0; i < 2000; i++) {
		if (!eb_read_str(path, buf, sizeof(buf)) &&
		    strtol(buf, NULL, 10) == strtol(val, NULL, 10))
			return 0;
		msleep(1);
	}
	return -ETIMEDOUT;
}

struct drv_policy {
	long cur, overlaps, offcpu, changes;
	/* at the last change: policy->strict_target and the limits */
	int strict;
	long min, max;
	int in_flight;		/* changes inside the driver now */
};

/*
 * Snapshot the test driver's record: @pol's line, with the fields
 * eb_drv_read() leaves out, and @pol's last change in *last.
 */
static int drv_read(int pol, struct drv_policy *p, struct eb_drv_change *last)
{
	char *line, *save, *buf = eb_drv_record();
	int found = 0;

	if (!buf)
		return -errno;
	if (last)
		memset(last, 0, sizeof(*last));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct eb_drv_change c;
		struct drv_policy dp;
		int pc;

		if (sscanf(line, "policy %d cur %ld overlaps %ld offcpu %ld changes %ld "
			   "strict %d min %ld max %ld in_flight %d",
			   &pc, &dp.cur, &dp.overlaps, &dp.offcpu, &dp.changes,
			   &dp.strict, &dp.min, &dp.max, &dp.in_flight) == 9) {
			if (pc == pol) {
				*p = dp;
				found = 1;
			}
		} else if (last && eb_drv_change_parse(line, &c) && c.policy == pol) {
			*last = c;
		}
	}
	return found ? 0 : -ENOENT;
}

static long cur_khz(int pol)
{
	struct drv_policy p;

	return drv_read(pol, &p, NULL) ? -1 : p.cur;
}

/* Poll for a frequency: the worker path and timers apply asynchronously. */
static long wait_khz(int pol, long khz, long timeout_ms)
{
	long cur = -1;

	for (long t = 0; t <= timeout_ms; t += 5) {
		cur = cur_khz(pol);
		if (cur == khz)
			return cur;
		msleep(5);
	}
	return cur;
}

/*
 * Poll the stats of @cpu's policy into @st until it counts @applied
 * frequency requests (a worker counts its request after the driver's
 * record), 2 s at most.
 */
static int wait_applied(int fd, int cpu, __u64 applied,
			struct eb_policy_stats *st)
{
	for (long t = 0;; t += 5) {
		int err = eb_policy_stats(fd, cpu, st);

		if (err || st->applied >= applied || t >= 2000)
			return err;
		msleep(5);
	}
}

static int fast_mode(void)
{
	const char *s = getenv("EBTEST_FAST");

	return s && *s == '1';
}

/* With fast switch the frequency is set when the ioctl returns. */
static long applied_khz(int pol, long khz)
{
	return fast_mode() ? cur_khz(pol) : wait_khz(pol, khz, 2000);
}

/* The seq of the driver's last change of @pol, 0 before any; -1: no record. */
static long long drv_last_seq(int pol)
{
	struct eb_drv_change last;
	struct drv_policy p;

	return drv_read(pol, &p, &last) ? -1 : last.seq;
}

/* Poll for @pol to be at @khz with no change inside the driver. */
static long wait_settled_khz(int pol, long khz, long timeout_ms)
{
	struct drv_policy d = { .cur = -1 };

	for (long t = 0; t <= timeout_ms; t += 5) {
		if (!drv_read(pol, &d, NULL) && d.cur == khz && !d.in_flight)
			return khz;
		msleep(5);
	}
	return d.cur;
}

struct set_since {
	int pol;
	long khz;
	long long seq;
	int seen;
};

static void note_set_since(const struct eb_drv_change *c, void *arg)
{
	struct set_since *s = arg;

	if (c->seq > s->seq && c->policy == s->pol && c->khz == s->khz)
		s->seen = 1;
}

/*
 * Whether @pol was set to @khz after the driver's change @seq: @khz if it
 * was, else the frequency now (-1: @seq is drv_last_seq()'s no record).
 * For a boost that a timer ends within tens of milliseconds (a watchdog,
 * a share): a guest's vCPU may stall that long, and a read of the
 * frequency then finds it over; the driver's record keeps it.  With fast
 * switch the change is made in the hint's ioctl, so one look; else poll
 * for up to 2 s.
 */
static long set_khz_since(int pol, long khz, long long seq)
{
	struct set_since s = { .pol = pol, .khz = khz, .seq = seq };
	uint64_t end = eb_now_ns() + 2000000000ull;
	struct eb_drv d;

	if (seq < 0 || pol < 0 || pol >= EB_MAX_CPUS)
		return -1;
	do {
		if (!eb_drv_read(&d, note_set_since, &s) &&
		    (s.seen || d.cur[pol] == khz))
			return khz;
		if (fast_mode())
			break;
		msleep(5);
	} while (eb_now_ns() < end);
	return cur_khz(pol);
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static int eb_open(void)
{
	return open(EB_DEV, O_RDWR | O_CLOEXEC);
}

static int hint(int fd, unsigned long cmd)
{
	return ioctl(fd, cmd, 0) ? -errno : 0;
}

static struct eb_client_info client_info(int fd)
{
	struct eb_client_info ci;

	memset(&ci, 0xff, sizeof(ci));
	if (ioctl(fd, EB_IOC_CLIENT_INFO, &ci))
		ci.votes = ~0u;
	return ci;
}

/*
 * Poll for the policy the client's vote is on, the vote off CPU not_cpu,
 * to run at khz, its last decision khz too: the thread may move, and its
 * vote with it.  (A policy already at khz passes at once: the test proves
 * a move to another policy by a later pin.)
 */
static long wait_vote_khz(int fd, int not_cpu, long khz, long timeout_ms)
{
	struct eb_policy_stats st;
	long cur = -1;

	for (long t = 0; t <= timeout_ms; t += 5) {
		int cpu = client_info(fd).vote_cpu;

		if (cpu >= 0 && cpu != not_cpu) {
			cur = cur_khz(policy_of(cpu));
			if (cur == khz && !eb_policy_stats(fd, cpu, &st) &&
			    st.target_khz == khz && client_info(fd).vote_cpu == cpu)
				return cur;
		}
		msleep(5);
	}
	return cur;
}

static long time_in_state(int pol, long khz)
{
	char path[128], buf[4096], *p;

	snprintf(path, sizeof(path), EB_CPUFREQ "/policy%d/stats/time_in_state", pol);
	if (eb_read_str(path, buf, sizeof(buf)))
		return -1;
	for (p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		long f, t;

		if (sscanf(p, "%ld %ld", &f, &t) == 2 && f == khz)
			return t;
	}
	return -1;
}

/* ---- fixture: every policy freshly on eventboost, budget unlimited ---- */

/*
 * Hold no sweep nor stats read, and let a held one go (ebtest_pause.ko,
 * where loaded): after a test that failed while one was held.
 */
static int pause_reset(void)
{
	if (access(PAUSE_PARAM "hold_sweep", W_OK))
		return 0;
	return eb_write_str(PAUSE_PARAM "hold_sweep", "0") ?:
	       eb_write_str(PAUSE_PARAM "release", "1") ?:
	       eb_write_str(PAUSE_PARAM "hold_stats", "0") ?:
	       eb_write_str(PAUSE_PARAM "spare_cpu", "-1");
}

FIXTURE(eb) {
	int ncpu;
	int last_cpu;
	int pol_last;		/* policy of the last CPU */
	int pol_first;		/* policy of CPU 0 */
	int shared;		/* CPU 0 and the last CPU share a policy */
	int npol;
	int pols[MAX_POLICIES];
};

static void all_governors(struct __test_metadata *_metadata,
			  FIXTURE_DATA(eb) *self, const char *gov)
{
	for (int i = 0; i < self->npol; i++)
		ASSERT_EQ(0, set_policy_attr(self->pols[i], "scaling_governor", gov));
}

FIXTURE_SETUP(eb)
{
	char seen[MAX_POLICIES] = { 0 };

	self->ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	ASSERT_GE(self->ncpu, 2) TH_LOG("the suite needs two online CPUs");
	self->last_cpu = self->ncpu - 1;
	self->npol = 0;
	for (int cpu = 0; cpu < self->ncpu; cpu++) {
		int pol = policy_of(cpu);

		ASSERT_GE(pol, 0) TH_LOG("cpu%d has no cpufreq policy: load ebtest_cpufreq", cpu);
		if (pol < MAX_POLICIES && !seen[pol]) {
			seen[pol] = 1;
			self->pols[self->npol++] = pol;
		}
	}
	self->pol_first = policy_of(0);
	self->pol_last = policy_of(self->last_cpu);
	self->shared = self->pol_first == self->pol_last;
	/*
	 * Leaving and re-entering the governor resets its counters, not the
	 * tunables (they are the operator's, kept while the module is
	 * loaded): set every one of them.
	 */
	/* A test that failed half-way may have left the driver slow, or failing. */
	ASSERT_EQ(0, eb_write_str(DRV_PARAM "target_delay_us", "0"));
	ASSERT_EQ(0, eb_write_str(DRV_PARAM "fail_changes", "0"));
	ASSERT_EQ(0, eb_write_str(DRV_PARAM "fast_switch_resolved", "0"));
	/* ... or the budget sweep held. */
	ASSERT_EQ(0, pause_reset());
	all_governors(_metadata, self, "performance");
	all_governors(_metadata, self, "eventboost");
	for (int i = 0; i < self->npol; i++) {
		ASSERT_EQ(0, set_policy_attr(self->pols[i], "scaling_max_freq", "4000000"));
		ASSERT_EQ(0, set_policy_attr(self->pols[i], "scaling_min_freq", "800000"));
		/* 0: the default frequencies, BASE and BOOST */
		ASSERT_EQ(0, set_tunable(self->pols[i], "base_freq", "0"));
		ASSERT_EQ(0, set_tunable(self->pols[i], "boost_freq", "0"));
		ASSERT_EQ(0, set_tunable(self->pols[i], "budget_pct", "100"));
		/*
		 * Under TCG on a busy host 100 ms can pass between two
		 * ioctls: only the watchdog's own tests get the default.
		 */
		ASSERT_EQ(0, set_tunable(self->pols[i], "max_boost_us", "10000000"));
		/*
		 * Changes in quick succession apply at once (the suite asserts
		 * the frequency when the ioctl returns): only the rate limit's
		 * own test has the default.
		 */
		ASSERT_EQ(0, set_tunable(self->pols[i], "rate_limit_us", "0"));
		ASSERT_EQ(BASE, wait_khz(self->pols[i], BASE, 2000));
	}
}

FIXTURE_TEARDOWN(eb)
{
	/* A test that failed while a sweep was held (a_sweep_spares_...). */
	pause_reset();
	pin(0);
}

/* One GC vote from the last CPU: its policy at boost, then at base. */
static void gc_boost_on_last_cpu(struct __test_metadata *_metadata,
				 FIXTURE_DATA(eb) *self)
{
	int fd;

	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(BOOST, applied_khz(self->pol_last, BOOST));
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
	EXPECT_EQ(BASE, applied_khz(self->pol_last, BASE));
	close(fd);
}

TEST_F(eb, abi_version)
{
	struct eb_version v = { 0 };
	int fd = eb_open();

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, EB_IOC_VERSION, &v));
	EXPECT_EQ(EB_ABI_VERSION, v.abi_version);
	EXPECT_TRUE(v.features & EB_FEAT_GC);
	EXPECT_TRUE(v.features & EB_FEAT_TIMED);
	EXPECT_TRUE(v.features & EB_FEAT_FAIR_SHARE);
	memset(&v, 0, sizeof(v));
	v.reserved[5] = 1;
	EXPECT_EQ(-1, ioctl(fd, EB_IOC_VERSION, &v));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0u, v.abi_version);
	close(fd);
}

TEST_F(eb, bad_ioctls_change_nothing)
{
	struct eb_boost_for b = { .usec = 1000, .flags = 1 };
	struct eb_bind bind = { .tid = 0, .reserved = 1 };
	struct eb_policy_stats st0, st1;
	struct eb_client_info ci;
	int fd;

	pin(self->last_cpu);
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st0));

	EXPECT_EQ(-1, ioctl(fd, _IO(EB_IOC_MAGIC, 0x7f), 0));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(fd, _IO('x', 0x01), 0));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(fd, EB_IOC_GC_ENTER, 1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(fd, EB_IOC_QUEUE_BUSY, 7));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(fd, EB_IOC_BOOST_FOR, &b));
	EXPECT_EQ(EINVAL, errno);
	b.flags = 0;
	b.usec = EB_BOOST_FOR_MAX_US + 1;
	EXPECT_EQ(-1, ioctl(fd, EB_IOC_BOOST_FOR, &b));
	EXPECT_EQ(EINVAL, errno);
	b.usec = 1000;
	b.reserved = 1;
	EXPECT_EQ(-1, ioctl(fd, EB_IOC_BOOST_FOR, &b));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(fd, EB_IOC_BOOST_FOR, NULL));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(fd, EB_IOC_BOOST_FOR, (void *)16));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(fd, EB_IOC_BIND, &bind));
	EXPECT_EQ(EINVAL, errno);
	bind.reserved = 0;
	bind.tid = -5;
	EXPECT_EQ(-1, ioctl(fd, EB_IOC_BIND, &bind));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(fd, EB_IOC_CLIENT_INFO, (void *)8));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(fd, EB_IOC_VERSION, NULL));
	EXPECT_EQ(EFAULT, errno);
	memset(&st1, 0, sizeof(st1));
	st1.in_flags = 1;
	EXPECT_EQ(-1, ioctl(fd, EB_IOC_POLICY_STATS, &st1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-EINVAL, eb_policy_stats(fd, 100000, &st1));
	memset(&st1, 0, sizeof(st1));
	st1.cpu = self->last_cpu;
	st1.reserved[7] = 1;
	EXPECT_EQ(-1, ioctl(fd, EB_IOC_POLICY_STATS, &st1));
	EXPECT_EQ(EINVAL, errno);

	/* Nothing changed: no vote, no boost, no hint counted. */
	ci = client_info(fd);
	EXPECT_EQ(0u, ci.votes);
	EXPECT_EQ(-1, ci.vote_cpu);
	EXPECT_EQ(BASE, cur_khz(self->pol_last));
	ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st1));
	EXPECT_EQ(st0.hints[EB_REASON_GC], st1.hints[EB_REASON_GC]);
	EXPECT_EQ(st0.hints[EB_REASON_QUEUE], st1.hints[EB_REASON_QUEUE]);
	EXPECT_EQ(st0.hints[EB_REASON_TIMED], st1.hints[EB_REASON_TIMED]);
	EXPECT_EQ(st0.boosts, st1.boosts);
	close(fd);
}

TEST_F(eb, defaults_and_tunable_validation)
{
	const char *junk[] = { "abc", "-1", "100", "99999999", "\n", "2600000x" };
	int pol = self->pol_last, fd;

	/*
	 * The defaults, not the fixture's.  A governor switch keeps the
	 * tunables: write them (0 is the default frequency).  ebctl_test.sh
	 * checks what a freshly loaded module starts with.
	 */
	ASSERT_EQ(0, set_tunable(pol, "max_boost_us", "100000"));
	ASSERT_EQ(0, set_tunable(pol, "budget_pct", "50"));
	ASSERT_EQ(0, set_tunable(pol, "rate_limit_us", "1000"));
	EXPECT_EQ(BASE, get_tunable(pol, "base_freq"));
	EXPECT_EQ(BOOST, get_tunable(pol, "boost_freq"));
	EXPECT_EQ(100000, get_tunable(pol, "max_boost_us"));
	EXPECT_EQ(50, get_tunable(pol, "budget_pct"));
	EXPECT_EQ(1000, get_tunable(pol, "rate_limit_us"));
	EXPECT_EQ(-EINVAL, set_tunable(pol, "rate_limit_us", "100001"));
	EXPECT_EQ(-EINVAL, set_tunable(pol, "rate_limit_us", "-1"));
	EXPECT_EQ(1000, get_tunable(pol, "rate_limit_us"));
	for (unsigned int i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
		EXPECT_EQ(-EINVAL, set_tunable(pol, "base_freq", junk[i])) TH_LOG("'%s'", junk[i]);
		EXPECT_EQ(-EINVAL, set_tunable(pol, "boost_freq", junk[i])) TH_LOG("'%s'", junk[i]);
	}
	EXPECT_EQ(-EINVAL, set_tunable(pol, "budget_pct", "0"));
	EXPECT_EQ(-EINVAL, set_tunable(pol, "budget_pct", "101"));
	EXPECT_EQ(-EINVAL, set_tunable(pol, "max_boost_us", "0"));
	EXPECT_EQ(-EINVAL, set_tunable(pol, "max_boost_us", "10000001"));
	EXPECT_EQ(BASE, get_tunable(pol, "base_freq"));
	EXPECT_EQ(BOOST, get_tunable(pol, "boost_freq"));
	EXPECT_EQ(50, get_tunable(pol, "budget_pct"));
	EXPECT_EQ(100000, get_tunable(pol, "max_boost_us"));
	EXPECT_EQ(BASE, cur_khz(pol));
	ASSERT_EQ(0, set_tunable(pol, "max_boost_us", "10000000"));
	ASSERT_EQ(0, set_tunable(pol, "rate_limit_us", "0"));

	/* A new base applies at once; a new boost at the next boost. */
	ASSERT_EQ(0, set_tunable(pol, "base_freq", "1600000"));
	EXPECT_EQ(1600000, cur_khz(pol));
	ASSERT_EQ(0, set_tunable(pol, "boost_freq", "3300000"));
	pin(self->last_cpu);
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(3300000, applied_khz(pol, 3300000));
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
	EXPECT_EQ(1600000, applied_khz(pol, 1600000));
	/* 0 restores the defaults. */
	ASSERT_EQ(0, set_tunable(pol, "base_freq", "0"));
	ASSERT_EQ(0, set_tunable(pol, "boost_freq", "0"));
	EXPECT_EQ(BASE, get_tunable(pol, "base_freq"));
	EXPECT_EQ(BOOST, get_tunable(pol, "boost_freq"));
	EXPECT_EQ(BASE, cur_khz(pol));
	close(fd);
}

TEST_F(eb, boost_lands_on_the_bound_threads_cpu)
{
	int fd;

	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(BOOST, applied_khz(self->pol_last, BOOST));
	if (!self->shared)
		EXPECT_EQ(BASE, cur_khz(self->pol_first));
	EXPECT_EQ(self->last_cpu, client_info(fd).vote_cpu);
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
	EXPECT_EQ(BASE, applied_khz(self->pol_last, BASE));
	close(fd);
}

/*
 * A driver whose fast switch applies the entry the core resolved last
 * (qcom-cpufreq-hw, apple-soc-cpufreq) gets the frequency asked for: the
 * governor resolves it first, as schedutil does.  (Before, such a driver
 * applied whatever the limits' update resolved last: min, on 6.1 and 7.2.)
 */
TEST_F(eb, a_driver_that_applies_the_resolved_entry_gets_the_boost)
{
	if (!fast_mode())
		SKIP(return, "a fast switch's driver (the worker's core resolves)");
	ASSERT_EQ(0, eb_write_str(DRV_PARAM "fast_switch_resolved", "1"));
	gc_boost_on_last_cpu(_metadata, self);
	EXPECT_EQ(0, eb_write_str(DRV_PARAM "fast_switch_resolved", "0"));
}

struct monitor_arg {
	int fd, cpu;
	unsigned long cmd;
	int ret;
};

static void *monitor(void *p)
{
	struct monitor_arg *a = p;

	pin(a->cpu);
	a->ret = hint(a->fd, a->cmd);
	return NULL;
}

static int hint_from_cpu(int fd, int cpu, unsigned long cmd)
{
	struct monitor_arg a = { .fd = fd, .cpu = cpu, .cmd = cmd, .ret = -1 };
	pthread_t t;

	if (pthread_create(&t, NULL, monitor, &a))
		return -1;
	pthread_join(t, NULL);
	return a.ret;
}

TEST_F(eb, monitor_thread_boosts_the_loop_threads_cpu)
{
	int fd;

	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, hint_from_cpu(fd, 0, EB_IOC_QUEUE_BUSY));
	/* Sync IPI from CPU 0: applied before the ioctl returned. */
	EXPECT_EQ(BOOST, applied_khz(self->pol_last, BOOST));
	if (!self->shared)
		EXPECT_EQ(BASE, cur_khz(self->pol_first));
	EXPECT_EQ(self->last_cpu, client_info(fd).vote_cpu);
	ASSERT_EQ(0, hint_from_cpu(fd, 0, EB_IOC_QUEUE_IDLE));
	EXPECT_EQ(BASE, applied_khz(self->pol_last, BASE));
	close(fd);
}

TEST_F(eb, votes_are_idempotent_and_per_reason)
{
	int pol = self->pol_last, fd;

	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	/* exit without enter is harmless */
	EXPECT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
	EXPECT_EQ(0, hint(fd, EB_IOC_QUEUE_IDLE));
	EXPECT_EQ(0u, client_info(fd).votes);
	EXPECT_EQ(BASE, cur_khz(pol));
	/* enter twice, exit once: no vote */
	EXPECT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(BOOST, applied_khz(pol, BOOST));
	EXPECT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
	EXPECT_EQ(0u, client_info(fd).votes);
	EXPECT_EQ(BASE, applied_khz(pol, BASE));
	/* reasons are separate votes */
	EXPECT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(0, hint(fd, EB_IOC_QUEUE_BUSY));
	EXPECT_EQ(EB_VOTE_GC | EB_VOTE_QUEUE, client_info(fd).votes);
	EXPECT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
	EXPECT_EQ(EB_VOTE_QUEUE, client_info(fd).votes);
	EXPECT_EQ(BOOST, applied_khz(pol, BOOST));	/* worker: async */
	EXPECT_EQ(0, hint(fd, EB_IOC_QUEUE_IDLE));
	EXPECT_EQ(BASE, applied_khz(pol, BASE));
	close(fd);
}

TEST_F(eb, timed_boost_ends_and_extends)
{
	struct eb_client_info ci;
	int pol = self->pol_last, fd;

	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	/* long enough that a slow guest still sees it held */
	ASSERT_EQ(0, eb_boost_for(fd, 500000));
	EXPECT_EQ(BOOST, applied_khz(pol, BOOST));
	ci = client_info(fd);
	EXPECT_EQ(EB_VOTE_TIMED, ci.votes);
	EXPECT_LE(ci.timed_left_us, 500000u);
	EXPECT_EQ(BASE, wait_khz(pol, BASE, 5000));
	EXPECT_EQ(0u, client_info(fd).votes);

	/* extend: the later end wins; 0 ends it */
	ASSERT_EQ(0, set_tunable(pol, "max_boost_us", "10000000"));
	ASSERT_EQ(0, eb_boost_for(fd, 300000));
	ASSERT_EQ(0, eb_boost_for(fd, 5000000));
	EXPECT_GT(client_info(fd).timed_left_us, 300000u);
	ASSERT_EQ(0, eb_boost_for(fd, 1000));
	EXPECT_GT(client_info(fd).timed_left_us, 300000u);
	EXPECT_EQ(BOOST, applied_khz(pol, BOOST));
	ASSERT_EQ(0, eb_boost_for(fd, 0));
	EXPECT_EQ(0u, client_info(fd).votes);
	EXPECT_EQ(BASE, applied_khz(pol, BASE));
	close(fd);
}

TEST_F(eb, close_releases)
{
	int fd;

	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	ASSERT_EQ(0, hint(fd, EB_IOC_QUEUE_BUSY));
	EXPECT_EQ(BOOST, applied_khz(self->pol_last, BOOST));
	close(fd);
	EXPECT_EQ(BASE, applied_khz(self->pol_last, BASE));
}

/*
 * A client's close ends its votes also while a child it forked keeps a
 * copy of the descriptor (a prefork server, Python's multiprocessing, a
 * fork without exec): the file stays open then, and only its flush sees
 * the client's process let go (until 2026-12-08 the votes lasted until the
 * watchdog).  The child's close of its copy leaves the client's votes.
 */
TEST_F(eb, close_ends_votes_while_a_forked_child_keeps_a_copy)
{
	int fd, p[2], q[2], status;
	pid_t pid;
	char c;

	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(BOOST, applied_khz(self->pol_last, BOOST));
	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, pipe(q));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		/*
		 * Closes its copy, says so, then holds a dup of it until the
		 * parent says.
		 */
		int copy = dup(fd);

		close(p[1]);
		close(q[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(fd);
		if (copy < 0 || write(q[1], "c", 1) != 1 || read(p[0], &c, 1) < 0)
			_exit(1);
		close(copy);
		_exit(0);
	}
	close(p[0]);
	close(q[1]);
	/* The child's close of a copy (its fork's) ends nothing. */
	ASSERT_EQ(1, read(q[0], &c, 1));
	close(q[0]);
	EXPECT_TRUE(client_info(fd).votes & EB_VOTE_GC);
	EXPECT_EQ(BOOST, applied_khz(self->pol_last, BOOST));
	close(fd);
	EXPECT_EQ(BASE, applied_khz(self->pol_last, BASE));
	close(p[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
}

TEST_F(eb, sigkill_releases)
{
	int p[2], status;
	char c;
	pid_t pid;

	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		int fd;

		pin(self->last_cpu);
		fd = eb_open();
		if (fd < 0 || hint(fd, EB_IOC_GC_ENTER) || eb_boost_for(fd, 10000000))
			_exit(1);
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	ASSERT_EQ(1, read(p[0], &c, 1));
	EXPECT_EQ(BOOST, wait_khz(self->pol_last, BOOST, 2000));
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(BASE, wait_khz(self->pol_last, BASE, 2000));
	close(p[0]);
	close(p[1]);
}

struct opener_arg {
	int cpu, fd;
};

static void *opener(void *p)
{
	struct opener_arg *a = p;

	pin(a->cpu);
	a->fd = eb_open();
	if (a->fd >= 0 && hint(a->fd, EB_IOC_GC_ENTER))
		a->fd = -1;
	return NULL;	/* exits holding a vote */
}

TEST_F(eb, bound_thread_exit_releases_and_rebind)
{
	struct opener_arg a = { .cpu = self->last_cpu, .fd = -1 };
	struct eb_bind b = { 0 };
	pthread_t t;

	ASSERT_EQ(0, pin(0));
	ASSERT_EQ(0, pthread_create(&t, NULL, opener, &a));
	pthread_join(t, NULL);
	ASSERT_GE(a.fd, 0);
	/* The vote ends with its thread, within about a tick. */
	EXPECT_EQ(BASE, wait_khz(self->pol_last, BASE, 2000));
	EXPECT_EQ(0u, client_info(a.fd).votes);
	EXPECT_EQ(0, client_info(a.fd).bound_tid);
	EXPECT_EQ(-ESRCH, hint(a.fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(0, hint(a.fd, EB_IOC_GC_EXIT));
	/* Rebind to this thread: hints work again, on this thread's CPU. */
	ASSERT_EQ(0, pin(self->last_cpu));
	ASSERT_EQ(0, ioctl(a.fd, EB_IOC_BIND, &b));
	EXPECT_EQ(syscall(SYS_gettid), client_info(a.fd).bound_tid);
	EXPECT_EQ(0, hint(a.fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(BOOST, applied_khz(self->pol_last, BOOST));
	close(a.fd);
	EXPECT_EQ(BASE, applied_khz(self->pol_last, BASE));
}

TEST_F(eb, no_reach_into_other_processes)
{
	struct eb_bind b = { .tid = 1 };
	int fd, status;
	pid_t pid;

	fd = eb_open();
	ASSERT_GE(fd, 0);
	/* init is not a thread of ours */
	EXPECT_EQ(-1, ioctl(fd, EB_IOC_BIND, &b));
	EXPECT_EQ(ESRCH, errno);
	/* an inherited fd does not let a child hint for its parent */
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid)
		_exit(hint(fd, EB_IOC_GC_ENTER) == -EPERM &&
		      eb_boost_for(fd, 1000) == -EPERM ? 0 : 1);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0u, client_info(fd).votes);
	close(fd);
}

TEST_F(eb, vote_follows_migration)
{
	int fd;

	ASSERT_EQ(0, set_tunable(self->pol_last, "max_boost_us", "10000000"));
	ASSERT_EQ(0, set_tunable(self->pol_first, "max_boost_us", "10000000"));
	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(BOOST, applied_khz(self->pol_last, BOOST));
	ASSERT_EQ(0, pin(0));
	EXPECT_EQ(BOOST, wait_khz(self->pol_first, BOOST, 2000));
	if (!self->shared)
		EXPECT_EQ(BASE, wait_khz(self->pol_last, BASE, 2000));
	for (int i = 0; i < 400 && client_info(fd).vote_cpu != 0; i++)
		msleep(5);
	EXPECT_EQ(0, client_info(fd).vote_cpu);
	close(fd);
	EXPECT_EQ(BASE, wait_khz(self->pol_first, BASE, 2000));
}

struct bind_target {
	int cpu, go, done;
	pid_t tid;
};

static void *bind_target(void *p)
{
	struct bind_target *t = p;

	pin(t->cpu);
	__atomic_store_n(&t->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	while (!__atomic_load_n(&t->done, __ATOMIC_ACQUIRE))
		msleep(1);
	return NULL;
}

/*
 * EB_IOC_BIND to a thread on a CPU eventboost does not govern ends the
 * client's votes, as a hint from that CPU does: moved there, they would
 * boost nothing and spend the process's share until the watchdog.
 */
TEST_F(eb, bind_to_a_thread_on_an_ungoverned_cpu_ends_votes)
{
	struct bind_target t = { .cpu = self->last_cpu };
	struct eb_bind b = { 0 };
	pthread_t th;
	int fd;

	if (self->shared)
		SKIP(return, "one policy: no CPU is left ungoverned beside a governed one");
	ASSERT_EQ(0, pin(0));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(EB_VOTE_GC, client_info(fd).votes);
	ASSERT_EQ(0, set_policy_attr(self->pol_last, "scaling_governor", "performance"));
	ASSERT_EQ(0, pthread_create(&th, NULL, bind_target, &t));
	while (!__atomic_load_n(&t.tid, __ATOMIC_ACQUIRE))
		msleep(1);
	msleep(20);
	b.tid = t.tid;
	EXPECT_EQ(0, ioctl(fd, EB_IOC_BIND, &b));
	EXPECT_EQ(t.tid, client_info(fd).bound_tid);
	EXPECT_EQ(0u, client_info(fd).votes);
	EXPECT_EQ(-1, client_info(fd).vote_cpu);
	EXPECT_EQ(BASE, wait_khz(self->pol_first, BASE, 2000));
	__atomic_store_n(&t.done, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	close(fd);
	ASSERT_EQ(0, set_policy_attr(self->pol_last, "scaling_governor", "eventboost"));
}

TEST_F(eb, watchdog_ends_long_votes)
{
	struct eb_policy_stats st;
	long long seq;
	int fd;

	ASSERT_EQ(0, set_tunable(self->pol_last, "max_boost_us", "50000"));
	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	seq = drv_last_seq(self->pol_last);
	ASSERT_EQ(0, hint(fd, EB_IOC_QUEUE_BUSY));
	EXPECT_EQ(BOOST, set_khz_since(self->pol_last, BOOST, seq));
	EXPECT_EQ(BASE, wait_khz(self->pol_last, BASE, 3000));
	EXPECT_EQ(0u, client_info(fd).votes);
	ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st));
	EXPECT_GE(st.watchdog_ends, 1u);
	/* a new hint starts a new vote */
	seq = drv_last_seq(self->pol_last);
	EXPECT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(BOOST, set_khz_since(self->pol_last, BOOST, seq));
	close(fd);
}

/*
 * In a process of its own, so with a share of the budget of its own: a
 * timed boost of @usec on @cpu, checked to boost @pol (if >= 0), held
 * until the vote ends.  0, or the hint's -errno (-200 and up: the child
 * failed otherwise).
 */
static int boost_in_child(int cpu, int pol, unsigned int usec)
{
	int status, ret, fd;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		long long seq = pol >= 0 ? drv_last_seq(pol) : 0;

		pin(cpu);
		fd = eb_open();
		if (fd < 0)
			_exit(200);
		ret = eb_boost_for(fd, usec);
		if (ret)
			_exit(-ret < 200 ? -ret : 202);
		if (pol >= 0 && set_khz_since(pol, BOOST, seq) != BOOST)
			_exit(201);
		for (int i = 0; i < 400 && client_info(fd).votes; i++)
			msleep(5);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -255;
	return -WEXITSTATUS(status);
}

TEST_F(eb, budget_ends_and_refuses_boosts)
{
	struct eb_policy_stats st0, st;
	int pol = self->pol_last, fd, ret = 0, n;
	long long seq;
	uint64_t t_w;

	/*
	 * 10% of a 1 s window: 100 ms of boost, then base until it rolls.
	 * One process may use half of it: three in turn spend it, more if
	 * the window rolls in between (raising_the_budget_releases_a_spent_one
	 * says why not two).  Idle past the window the fixture's start opened,
	 * nothing charges it: it rolls at the first write, at t_w or later.
	 */
	msleep(1100);
	t_w = eb_now_ns();
	for (int i = 0; i < self->npol; i++)
		ASSERT_EQ(0, set_tunable(self->pols[i], "budget_pct", "10"));
	ASSERT_EQ(0, set_tunable(pol, "max_boost_us", "10000000"));
	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st0));
	seq = drv_last_seq(pol);
	ASSERT_EQ(0, eb_boost_for(fd, 5000000));
	EXPECT_EQ(BOOST, set_khz_since(pol, BOOST, seq)) {
		ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st));
		TH_LOG("flags %x target %u votes %u vote_cpu %d", st.flags,
		       st.target_khz, client_info(fd).votes, client_info(fd).vote_cpu);
	}
	for (int j = 0; j < 200 && client_info(fd).votes; j++)
		msleep(1);
	for (n = 1; n <= 6; n++) {
		ret = boost_in_child(self->last_cpu, -1, 5000000);
		ASSERT_TRUE(ret == 0 || ret == -EBUSY) TH_LOG("%d", ret);
		ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st));
		if (st.budget_ends > st0.budget_ends)
			break;
	}
	/*
	 * In one window the second child is cut at the latest; a third if
	 * a vCPU stall inside a hint delays its boost; more, and the budget
	 * charged far less than the time boosted.
	 */
	if (eb_now_ns() - t_w < 1000000000ull)
		EXPECT_LE(n, 3) TH_LOG("%d children to spend one window's budget", n);
	EXPECT_EQ(BASE, wait_khz(pol, BASE, 1500));
	ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st));
	EXPECT_GT(st.budget_ends, st0.budget_ends);
	/* the sweep ends held votes */
	for (int i = 0; i < 200 && client_info(fd).votes; i++)
		msleep(5);
	EXPECT_EQ(0u, client_info(fd).votes);
	/*
	 * Refused while spent (unless the window rolled meanwhile), also a
	 * process whose own share is unused.
	 */
	if (st.flags & EB_POLICY_BUDGET_SPENT) {
		ret = boost_in_child(self->last_cpu, -1, 1000000);
		if (ret == -EBUSY) {
			ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st));
			EXPECT_GE(st.refused, 1u);
		}
	}
	EXPECT_EQ(BASE, cur_khz(pol));
	hint(fd, EB_IOC_GC_EXIT);
	/* after the window boosts are allowed again */
	msleep(1100);
	seq = drv_last_seq(pol);
	EXPECT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(BOOST, set_khz_since(pol, BOOST, seq)) {
		ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st));
		TH_LOG("flags %x target %u votes %u vote_cpu %d", st.flags,
		       st.target_khz, client_info(fd).votes, client_info(fd).vote_cpu);
	}
	close(fd);
	EXPECT_EQ(BASE, applied_khz(pol, BASE));
}

/*
 * Raising budget_pct releases a budget the policy spent under the old one
 * at once: the operator who lifts the bound does not wait for the window
 * to roll, with every hint refused (EBUSY) until then.
 */
TEST_F(eb, raising_the_budget_releases_a_spent_one)
{
	struct eb_policy_stats st;
	int pol = self->pol_last, fd, ret, n, spent = 0;
	uint64_t t_w;

	/* The window rolls at the first write (budget_ends_and_refuses_boosts). */
	msleep(1100);
	t_w = eb_now_ns();
	ASSERT_EQ(0, set_tunable(pol, "max_boost_us", "10000000"));
	for (int j = 0; j < self->npol; j++)
		ASSERT_EQ(0, set_tunable(self->pols[j], "budget_pct", "1"));
	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	/*
	 * 1% of a 1 s window: 10 ms, a process's share half of it.  Processes
	 * boost in turn until one holds its vote as the window's use reaches
	 * the budget: that ends the vote, the budget spent.  Not two: the
	 * second one's share ends as the budget does, spent only if the
	 * budget's timer wins.  (A window rolling in between takes more.)
	 */
	for (n = 0; n < 8 && !spent; n++) {
		ret = boost_in_child(self->last_cpu, -1, 5000000);
		ASSERT_TRUE(ret == 0 || ret == -EBUSY) TH_LOG("%d", ret);
		ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st));
		spent = !!(st.flags & EB_POLICY_BUDGET_SPENT);
	}
	ASSERT_TRUE(spent)
		TH_LOG("never spent by %d processes: boosted %llu ns, %llu budget ends",
		       n, (unsigned long long)st.boosted_ns,
		       (unsigned long long)st.budget_ends);
	/* In one window the third is cut at the latest (a fourth: a stall). */
	if (eb_now_ns() - t_w < 1000000000ull)
		EXPECT_LE(n, 4) TH_LOG("%d processes to spend one window's budget", n);
	/* Raised past what the window used: a new process boosts at once. */
	for (int j = 0; j < self->npol; j++)
		ASSERT_EQ(0, set_tunable(self->pols[j], "budget_pct", "50"));
	ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st));
	EXPECT_FALSE(st.flags & EB_POLICY_BUDGET_SPENT);
	EXPECT_EQ(0, boost_in_child(self->last_cpu, pol, 100000));
	close(fd);
	EXPECT_EQ(BASE, wait_khz(pol, BASE, 2000));
}

/* Whether @cpu's policy has spent its budget for this window. */
static int budget_spent(int fd, int cpu)
{
	struct eb_policy_stats st;

	return !eb_policy_stats(fd, cpu, &st) &&
	       (st.flags & EB_POLICY_BUDGET_SPENT);
}

/*
 * Spend the budget of the last CPU's policy (10%: 100 ms a window, so a
 * process's share, 50 ms, outlasts a test's few steps) in one window, as
 * budget_ends_and_refuses_boosts does; every other policy's is lifted.
 * 1 when it is spent, else 0.
 */
static int spend_last_budget(struct __test_metadata *_metadata,
			     FIXTURE_DATA(eb) *self, int fd)
{
	int spent = 0;

	msleep(1100);
	for (int j = 0; j < self->npol; j++)
		if (set_tunable(self->pols[j], "budget_pct",
				self->pols[j] == self->pol_last ? "10" : "100"))
			return 0;
	for (int n = 0; n < 8 && !spent; n++) {
		int ret = boost_in_child(self->last_cpu, -1, 5000000);

		if (ret && ret != -EBUSY)
			return 0;
		spent = budget_spent(fd, self->last_cpu);
	}
	return spent;
}

/*
 * A vote that moves onto a policy whose budget is spent ends there, as that
 * policy's sweep ended the votes it found: its thread rebound (EB_IOC_BIND)
 * or migrated there.  A hint from there is refused (EBUSY), as a new vote
 * there is, the vote ended by its move, which the hint makes if the tick
 * has not.
 */
TEST_F_TIMEOUT(eb, a_vote_moved_onto_a_spent_policy_ends, 90)
{
	struct bind_target t = { .cpu = self->last_cpu };
	struct eb_client_info info;
	struct eb_bind b = { 0 };
	int fd, tries, ret, moved = 0;
	pthread_t th;

	if (self->shared)
		SKIP(return, "one policy: a vote has no other policy to move to");
	ASSERT_EQ(0, pin(0));
	ASSERT_EQ(0, pthread_create(&th, NULL, bind_target, &t));
	while (!__atomic_load_n(&t.tid, __ATOMIC_ACQUIRE))
		msleep(1);
	/* The window may roll between the spend and a check: then again. */
	for (tries = 0; tries < 3 && !moved; tries++) {
		fd = eb_open();
		ASSERT_GE(fd, 0);
		ASSERT_EQ(1, spend_last_budget(_metadata, self, fd));
		/* Bound to a thread there. */
		ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
		ASSERT_EQ(0, client_info(fd).vote_cpu);
		b.tid = t.tid;
		ASSERT_EQ(0, ioctl(fd, EB_IOC_BIND, &b));
		if (!budget_spent(fd, self->last_cpu))
			goto rolled;
		EXPECT_EQ(0u, client_info(fd).votes)
			TH_LOG("a vote rebound onto a spent policy is held");
		/* Migrated there: the client's tick follows its thread. */
		b.tid = 0;
		ASSERT_EQ(0, ioctl(fd, EB_IOC_BIND, &b));
		ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
		ASSERT_EQ(0, client_info(fd).vote_cpu);
		ASSERT_EQ(0, pin(self->last_cpu));
		/*
		 * A hint from there, before the tick moved the vote or after:
		 * refused either way (the move ends the vote, or it is new).
		 */
		ret = hint(fd, EB_IOC_GC_ENTER);
		if (!budget_spent(fd, self->last_cpu))
			goto rolled;
		EXPECT_EQ(-EBUSY, ret);
		EXPECT_EQ(0u, client_info(fd).votes);
		/*
		 * A hint that only ends a vote, from there: it succeeds (ending
		 * never fails), the vote left ended by the move.
		 */
		ASSERT_EQ(0, pin(0));
		ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
		ASSERT_EQ(0, hint(fd, EB_IOC_QUEUE_BUSY));
		ASSERT_EQ(0, pin(self->last_cpu));
		ret = hint(fd, EB_IOC_GC_EXIT);
		if (!budget_spent(fd, self->last_cpu))
			goto rolled;
		EXPECT_EQ(0, ret);
		EXPECT_EQ(0u, client_info(fd).votes);
		/*
		 * A hint for a kind not held, from there, before the tick
		 * moved the held vote: refused, and the held vote moves with
		 * it, ending, not a tick later (until 2026-12-07 it stayed on
		 * the CPU its thread had left).
		 */
		ASSERT_EQ(0, pin(0));
		ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
		ASSERT_EQ(0, client_info(fd).vote_cpu);
		ASSERT_EQ(0, pin(self->last_cpu));
		ret = hint(fd, EB_IOC_QUEUE_BUSY);
		info = client_info(fd);
		if (!budget_spent(fd, self->last_cpu))
			goto rolled;
		EXPECT_EQ(-EBUSY, ret);
		EXPECT_EQ(0u, info.votes)
			TH_LOG("a refused hint left vote %u held on cpu %d, which its thread left",
			       info.votes, info.vote_cpu);
		/* Without the hint: the tick moves the vote, which ends. */
		ASSERT_EQ(0, pin(0));
		ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
		ASSERT_EQ(0, client_info(fd).vote_cpu);
		ASSERT_EQ(0, pin(self->last_cpu));
		for (int i = 0; i < 2000 && client_info(fd).vote_cpu == 0; i++)
			msleep(1);
		moved = budget_spent(fd, self->last_cpu) &&
			client_info(fd).vote_cpu != 0;
		if (moved)
			EXPECT_EQ(0u, client_info(fd).votes)
				TH_LOG("a vote that followed its thread onto a spent policy is held");
rolled:
		ASSERT_EQ(0, pin(0));
		close(fd);
	}
	EXPECT_TRUE(moved) TH_LOG("the window rolled during each of %d tries", tries);
	__atomic_store_n(&t.done, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	EXPECT_EQ(BASE, wait_khz(self->pol_last, BASE, 2000));
}

/*
 * The budget sweep ends the votes of a budget still spent, not a vote
 * granted because the budget came back (raised, or a new window) while it
 * ran: that vote boosts, under a budget with room for it.  ebtest_pause
 * holds the sweep between its finding the budget spent and its ending the
 * votes, where a kworker can be preempted for any time.
 */
#define SWEEP_CHILDREN	8

/*
 * ebtest_pause's counters, opened before a hold and read with pread(): no
 * path walk while a task preempted on the held CPU may hold a lock it takes.
 */
enum { P_HELD, P_HELD_ON_CPU, P_HELD_TOO_LONG, P_SPARED, P_SWEPT, P_NR };
static const char * const pause_names[P_NR] = {
	"held", "held_on_cpu", "held_too_long", "spared", "swept",
};
static int pause_fds[P_NR];

static int pause_open(void)
{
	char path[128];

	for (int i = 0; i < P_NR; i++) {
		snprintf(path, sizeof(path), PAUSE_PARAM "%s", pause_names[i]);
		pause_fds[i] = open(path, O_RDONLY | O_CLOEXEC);
		if (pause_fds[i] < 0)
			return -errno;
	}
	return 0;
}

static long pause_param(int which)
{
	char buf[32];
	ssize_t n = pread(pause_fds[which], buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return -1;
	buf[n] = 0;
	return strtol(buf, NULL, 10);
}

TEST_F_TIMEOUT(eb, a_sweep_spares_a_vote_the_budget_came_back_for, 90)
{
	struct bind_target t = { .cpu = self->last_cpu };
	int budget_fd[MAX_POLICIES], release_fd, fd, n, status;
	long held0, swept0, late0, spared0;
	pid_t pids[SWEEP_CHILDREN] = { 0 };
	struct eb_bind b = { 0 };
	int *votes_ended;
	pthread_t th;

	ASSERT_EQ(0, access(PAUSE_PARAM "hold_sweep", W_OK))
		TH_LOG("load ebtest_pause.ko after eventboost.ko (selftests/run_guest.sh does)");
	ASSERT_EQ(0, read_long(PAUSE_PARAM "probe_gone"))
		TH_LOG("eventboost.ko was reloaded after ebtest_pause.ko: reload ebtest_pause.ko");
	votes_ended = mmap(NULL, SWEEP_CHILDREN * sizeof(*votes_ended),
			   PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, votes_ended);
	/* The window rolls at the first write (budget_ends_and_refuses_boosts). */
	msleep(1100);
	ASSERT_EQ(0, set_tunable(self->pol_last, "max_boost_us", "10000000"));
	for (int j = 0; j < self->npol; j++)
		ASSERT_EQ(0, set_tunable(self->pols[j], "budget_pct", "1"));
	/*
	 * This thread stays off the CPU the sweep is held on (the budget
	 * timer's, as a rule the votes' CPU; a sweep on this one is not held):
	 * it acts while the sweep is held, with files opened before, through
	 * a client that votes for that CPU by a thread bound there.
	 */
	ASSERT_EQ(0, pin(0));
	for (int j = 0; j < self->npol; j++) {
		char path[160];

		tunable_path(path, sizeof(path), self->pols[j], "budget_pct");
		budget_fd[j] = open(path, O_WRONLY | O_CLOEXEC);
		ASSERT_GE(budget_fd[j], 0);
	}
	release_fd = open(PAUSE_PARAM "release", O_WRONLY | O_CLOEXEC);
	ASSERT_GE(release_fd, 0);
	ASSERT_EQ(0, pthread_create(&th, NULL, bind_target, &t));
	while (!__atomic_load_n(&t.tid, __ATOMIC_ACQUIRE))
		msleep(1);
	fd = eb_open();
	ASSERT_GE(fd, 0);
	b.tid = t.tid;
	ASSERT_EQ(0, ioctl(fd, EB_IOC_BIND, &b));
	ASSERT_EQ(0, pause_open());
	held0 = pause_param(P_HELD);
	late0 = pause_param(P_HELD_TOO_LONG);
	spared0 = pause_param(P_SPARED);
	ASSERT_EQ(0, eb_write_str(PAUSE_PARAM "spare_cpu", "0"));
	ASSERT_EQ(0, eb_write_str(PAUSE_PARAM "release", "0"));
	ASSERT_EQ(0, eb_write_str(PAUSE_PARAM "hold_sweep", "1"));
	/*
	 * Processes boost in turn until the budget is spent with a vote held
	 * (raising_the_budget_releases_a_spent_one): its sweep is held.  Each
	 * says through shared memory when its vote ended (or was refused) and
	 * sleeps until killed: nothing on the held CPU holds a lock this
	 * thread needs (on PREEMPT_RT a process exiting there would hold
	 * tasklist_lock).  A sweep on this CPU, not held, spent the window:
	 * the next process waits for the next one.
	 */
	for (n = 0; n < SWEEP_CHILDREN && pause_param(P_HELD) == held0; n++) {
		if (pause_param(P_SPARED) != spared0) {
			spared0 = pause_param(P_SPARED);
			msleep(1100);
		}
		pids[n] = fork();
		ASSERT_GE(pids[n], 0);
		if (!pids[n]) {
			int cfd;

			/* Not left behind by a failed assertion. */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() == 1 || pin(self->last_cpu))
				_exit(1);
			cfd = eb_open();
			if (cfd < 0)
				_exit(1);
			if (!eb_boost_for(cfd, 5000000))
				for (int i = 0; i < 400 && client_info(cfd).votes; i++)
					msleep(5);
			__atomic_store_n(&votes_ended[n], 1, __ATOMIC_RELEASE);
			for (;;)
				pause();
		}
		for (int i = 0; i < 3000; i++) {
			if (pause_param(P_HELD) != held0 ||
			    __atomic_load_n(&votes_ended[n], __ATOMIC_ACQUIRE))
				break;
			msleep(1);
		}
	}
	ASSERT_NE(held0, pause_param(P_HELD))
		TH_LOG("no sweep held in %d processes", n);
	ASSERT_NE(0, pause_param(P_HELD_ON_CPU));
	/* While it is held: the budget raised, and a vote granted under it. */
	for (int j = 0; j < self->npol; j++)
		ASSERT_EQ(3, write(budget_fd[j], "50\n", 3));
	EXPECT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(EB_VOTE_GC, client_info(fd).votes);
	swept0 = pause_param(P_SWEPT);
	ASSERT_EQ(2, write(release_fd, "1\n", 2));
	for (int i = 0; i < 5000 && pause_param(P_SWEPT) == swept0; i++)
		msleep(1);
	ASSERT_NE(swept0, pause_param(P_SWEPT));
	ASSERT_EQ(late0, pause_param(P_HELD_TOO_LONG))
		TH_LOG("the sweep was let go late: the test's steps took 5 s");
	EXPECT_EQ(EB_VOTE_GC, client_info(fd).votes)
		TH_LOG("the sweep ended a vote granted after the budget came back");
	EXPECT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
	close(fd);
	for (int i = 0; i < n; i++) {
		kill(pids[i], SIGKILL);
		waitpid(pids[i], &status, 0);
	}
	__atomic_store_n(&t.done, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	for (int j = 0; j < self->npol; j++)
		close(budget_fd[j]);
	close(release_fd);
	for (int i = 0; i < P_NR; i++)
		close(pause_fds[i]);
	munmap(votes_ended, SWEEP_CHILDREN * sizeof(*votes_ended));
	EXPECT_EQ(BASE, wait_khz(self->pol_last, BASE, 2000));
}

/* ebtest_pause's EBTP_HOLD_MAX_MS: a hold lets go by itself after it. */
#define HOLD_MAX_NS	5000000000ull

/* A task's state letter (R, S, D...) from its pre-opened /proc stat. */
static char task_state(int stat_fd)
{
	char buf[512], *p;
	ssize_t n = pread(stat_fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return 0;
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

struct stats_race {
	int go;				/* 1: read; 2: stop */
	int err;			/* the read's */
	uint64_t stop_began, stop_ended;
	struct eb_policy_stats st;
};

/*
 * One try: 1 with the held read's outcome in @sh, 0 when the hold ran out
 * (EBTP_HOLD_MAX_MS): on PREEMPT_RT a task preempted on the held CPU may
 * hold a lock the stop needs.  The policy governed again after it.
 */
static int stats_race_once(struct __test_metadata *_metadata,
			   FIXTURE_DATA(eb) *self, struct stats_race *sh,
			   int fd, int release_fd, uint64_t *bound)
{
	struct eb_policy_stats st0, st;
	uint64_t t0, released, step[2];
	pid_t reader, stopper;
	int stat_fd, status;
	char gov[160], path[64], tid[16];
	long held0, late0;

	memset(sh, 0, sizeof(*sh));
	/* Governed long enough that counting it twice is far past the bound. */
	msleep(1000);
	ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st0));
	t0 = eb_now_ns();
	ASSERT_TRUE(st0.flags & EB_POLICY_GOVERNED);
	ASSERT_GE(st0.governed_ns, 900000000ull);
	held0 = read_long(PAUSE_PARAM "stats_held");
	late0 = read_long(PAUSE_PARAM "held_too_long");
	snprintf(gov, sizeof(gov), EB_CPUFREQ "/policy%d/scaling_governor",
		 self->pol_last);

	/* Each child only sleeps until told, then makes one syscall. */
	reader = fork();
	ASSERT_GE(reader, 0);
	if (!reader) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1 || pin(self->last_cpu))
			_exit(1);
		while (__atomic_load_n(&sh->go, __ATOMIC_ACQUIRE) < 1)
			msleep(1);
		sh->err = eb_policy_stats(fd, self->last_cpu, &sh->st);
		_exit(0);
	}
	stopper = fork();
	ASSERT_GE(stopper, 0);
	if (!stopper) {
		int gfd = open(gov, O_WRONLY | O_CLOEXEC);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1 || gfd < 0)
			_exit(1);
		while (__atomic_load_n(&sh->go, __ATOMIC_ACQUIRE) < 2)
			msleep(1);
		sh->stop_began = eb_now_ns();
		if (write(gfd, "performance\n", 12) != 12)
			_exit(1);
		sh->stop_ended = eb_now_ns();
		_exit(0);
	}
	snprintf(path, sizeof(path), "/proc/%d/stat", stopper);
	stat_fd = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_GE(stat_fd, 0);
	ASSERT_EQ(0, eb_write_str(PAUSE_PARAM "release", "0"));
	snprintf(tid, sizeof(tid), "%d", reader);
	ASSERT_EQ(0, eb_write_str(PAUSE_PARAM "hold_stats", tid));
	__atomic_store_n(&sh->go, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 3000 && read_long(PAUSE_PARAM "stats_held") == held0; i++)
		msleep(1);
	ASSERT_NE(held0, read_long(PAUSE_PARAM "stats_held"))
		TH_LOG("the stats read was not held");
	step[0] = eb_now_ns();
	/*
	 * The stop runs up to its wait for the held read: it unpublishes the
	 * policy (a read now finds none), counts its time under the lock,
	 * and sleeps first after that (uninterruptibly, in its RCU wait or a
	 * timer's cancel), needing nothing of the held CPU.
	 */
	__atomic_store_n(&sh->go, 2, __ATOMIC_RELEASE);
	/* Each wait no longer than the hold lasts (then it has run out). */
	do {
		ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st));
		if (!(st.flags & EB_POLICY_GOVERNED))
			break;
		msleep(1);
	} while (eb_now_ns() - step[0] < HOLD_MAX_NS);
	step[1] = eb_now_ns();
	while (eb_now_ns() - step[0] < HOLD_MAX_NS && task_state(stat_fd) != 'D' &&
	       task_state(stat_fd) != 'Z')
		msleep(1);
	released = eb_now_ns();
	ASSERT_EQ(2, write(release_fd, "1\n", 2));
	ASSERT_EQ(reader, waitpid(reader, &status, 0));
	EXPECT_EQ(0, status);
	ASSERT_EQ(stopper, waitpid(stopper, &status, 0));
	EXPECT_EQ(0, status);
	*bound = st0.governed_ns + (eb_now_ns() - t0);
	close(stat_fd);
	ASSERT_EQ(0, eb_write_str(PAUSE_PARAM "hold_stats", "0"));
	ASSERT_EQ(0, set_policy_attr(self->pol_last, "scaling_governor", "eventboost"));
	if (read_long(PAUSE_PARAM "held_too_long") != late0) {
		TH_LOG("the hold ran out: stop unpublished %llu ms, asleep %llu ms after the hold",
		       (unsigned long long)(step[1] - step[0]) / 1000000,
		       (unsigned long long)(released - step[0]) / 1000000);
		return 0;
	}
	ASSERT_EQ(0, st.flags & EB_POLICY_GOVERNED)
		TH_LOG("the stop did not begin");
	/* The premise: the stop began before the release and waited for it. */
	ASSERT_LT(sh->stop_began, released);
	ASSERT_GT(sh->stop_ended, released);
	return 1;
}

/*
 * A policy stats read that found the policy just before a stop, and that
 * the stop overtook, reads it as a read after the stop does: not governed
 * (until 2026-12-07 governed, its last start..stop counted twice).
 * ebtest_pause holds the read between its finding the policy and its
 * taking the policy's lock (where a preempted reader may be for any time)
 * while the stop runs; the stop then waits for the read (RCU) before it
 * frees the policy.
 */
TEST_F_TIMEOUT(eb, a_stats_read_the_stop_overtook_reads_not_governed, 90)
{
	struct stats_race *sh;
	int fd, release_fd, tries, clean = 0;
	uint64_t bound = 0;

	ASSERT_EQ(0, access(PAUSE_PARAM "hold_stats", W_OK))
		TH_LOG("load ebtest_pause.ko after eventboost.ko (selftests/run_guest.sh does)");
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, sh);
	ASSERT_EQ(0, pin(0));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	release_fd = open(PAUSE_PARAM "release", O_WRONLY | O_CLOEXEC);
	ASSERT_GE(release_fd, 0);
	for (tries = 0; tries < 3 && !clean; tries++)
		clean = stats_race_once(_metadata, self, sh, fd, release_fd, &bound);
	ASSERT_TRUE(clean) TH_LOG("the hold ran out in each of %d tries", tries);
	ASSERT_EQ(0, sh->err);
	EXPECT_LE(sh->st.governed_ns, bound)
		TH_LOG("governed %llu ns in %llu ns: the stop's time counted twice",
		       (unsigned long long)sh->st.governed_ns,
		       (unsigned long long)bound);
	EXPECT_EQ(0, sh->st.flags & EB_POLICY_GOVERNED);
	EXPECT_EQ(0, sh->st.governed_ns);
	close(release_fd);
	close(fd);
	munmap(sh, sizeof(*sh));
}

/*
 * A governor the core stops twice counts its governed time once.  After a
 * suspend whose driver ->resume failed, cpufreq_resume() leaves the policy
 * stopped with its governor selected; the next suspend, a CPU leaving a
 * shared policy, or a switch stops it again (cpufreq_stop_governor() keeps
 * no state).  ebtest_cpufreq's gov_stop and gov_start make those calls as
 * the core does (a guest's real suspend would suspend its virtio
 * filesystem too).  Until 2026-12-08 the second stop added the time since
 * the last start again, the stopped time with it.
 */
TEST_F(eb, a_governor_stopped_twice_counts_its_governed_time_once)
{
	struct eb_policy_stats st0, st;
	uint64_t t0, stopped0, stopped1;
	int fd, stop_err, start_err;
	char cpu[16];

	snprintf(cpu, sizeof(cpu), "%d", self->last_cpu);
	fd = eb_open();
	ASSERT_GE(fd, 0);
	/* Governed a second: counting it twice is far past the bound. */
	msleep(1000);
	/* Before the read, whose governed_ns is counted in it. */
	t0 = eb_now_ns();
	ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st0));
	ASSERT_TRUE(st0.flags & EB_POLICY_GOVERNED);
	ASSERT_GE(st0.governed_ns, 900000000ull);
	/* The suspend; the driver's resume fails: no start. */
	ASSERT_EQ(0, eb_write_str(DRV_PARAM "gov_stop", cpu));
	stopped0 = eb_now_ns();
	msleep(1000);
	/* The next suspend, and its resume, whatever the stop says. */
	stopped1 = eb_now_ns();
	stop_err = eb_write_str(DRV_PARAM "gov_stop", cpu);
	start_err = eb_write_str(DRV_PARAM "gov_start", cpu);
	if (start_err) {
		/* Not left stopped for the tests after this one. */
		set_policy_attr(self->pol_last, "scaling_governor", "performance");
		set_policy_attr(self->pol_last, "scaling_governor", "eventboost");
	}
	ASSERT_EQ(0, stop_err);
	ASSERT_EQ(0, start_err);
	ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st));
	ASSERT_TRUE(st.flags & EB_POLICY_GOVERNED);
	/* At most its time before the stop and since the start. */
	EXPECT_LE(st.governed_ns, st0.governed_ns + (eb_now_ns() - t0) -
				  (stopped1 - stopped0))
		TH_LOG("governed %llu ns, %llu ns of them before the stop: the stopped time counted",
		       (unsigned long long)st.governed_ns,
		       (unsigned long long)st0.governed_ns);
	close(fd);
}

/*
 * A vote never lowers the clock: with boost_freq written below base_freq
 * (each within the hardware range, so each write is valid alone, as it is
 * half-way through a reconfiguration), a vote holds base_freq, and spends
 * no budget on it (no boost counted, no boosted time).
 */
TEST_F(eb, a_boost_freq_below_base_freq_never_lowers_the_clock)
{
	struct eb_policy_stats st0, st1;
	int pol = self->pol_last, fd;

	ASSERT_EQ(0, set_tunable(pol, "boost_freq", "1600000"));
	EXPECT_EQ(BASE, applied_khz(pol, BASE));
	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st0));
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	msleep(50);
	EXPECT_EQ(BASE, cur_khz(pol));
	ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st1));
	EXPECT_FALSE(st1.flags & EB_POLICY_BOOSTED);
	EXPECT_EQ(st0.boosts, st1.boosts);
	EXPECT_EQ(st0.boosted_ns, st1.boosted_ns);
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
	close(fd);
	EXPECT_EQ(BASE, wait_khz(pol, BASE, 2000));
}

/*
 * Nor where the limits hold the clock at base_freq (scaling_max_freq
 * there, as a thermal cap puts it): a vote changes nothing and spends no
 * budget, so no other process is refused for time no core spent boosted.
 * At 10% of a 1 s window (100 ms, half of it a process's share) two
 * processes' votes, each to the end of its share, would spend it all.
 */
TEST_F(eb, a_boost_the_limits_hold_at_base_spends_no_budget)
{
	struct eb_policy_stats st0, st1;
	int pol = self->pol_last, fd;

	ASSERT_EQ(0, set_policy_attr(pol, "scaling_max_freq", "2600000"));
	EXPECT_EQ(BASE, wait_khz(pol, BASE, 2000));
	ASSERT_EQ(0, set_tunable(pol, "budget_pct", "10"));
	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st0));
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	msleep(100);
	EXPECT_EQ(BASE, cur_khz(pol));
	EXPECT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
	EXPECT_EQ(0, boost_in_child(self->last_cpu, -1, 200000));
	ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st1));
	EXPECT_FALSE(st1.flags & EB_POLICY_BOOSTED);
	EXPECT_EQ(st0.boosts, st1.boosts);
	EXPECT_EQ(st0.boosted_ns, st1.boosted_ns);
	EXPECT_EQ(st0.budget_ends, st1.budget_ends);
	/* A third process: not refused. */
	EXPECT_EQ(0, boost_in_child(self->last_cpu, -1, 1000));
	close(fd);
}

/*
 * Lowering rate_limit_us applies a boost the old limit holds back within a
 * tick (the client's timer decides again, with the new limit), not when the
 * old interval ends (up to 100 ms later).
 */
TEST_F(eb, lowering_the_rate_limit_applies_a_held_boost)
{
	int pol = self->pol_last, fd, decided = 0;
	long long t0, t1;
	long got;

	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	/*
	 * A boost, its step down (never held back), and a boost right after
	 * it: held back until 100 ms after the step down.  Held means still
	 * at base 20 ms later (a worker applies an unheld one sooner).  An
	 * attempt decides only if the boost came, or did not, well before
	 * the old interval's end; a busy host that let too much time pass
	 * tries again.
	 */
	for (int i = 0; i < 5 && !decided; i++) {
		ASSERT_EQ(0, set_tunable(pol, "rate_limit_us", "100000"));
		msleep(150);
		ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
		ASSERT_EQ(BOOST, applied_khz(pol, BOOST));
		ASSERT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
		ASSERT_EQ(BASE, applied_khz(pol, BASE));
		t0 = eb_now_ns();
		ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
		msleep(20);
		if (cur_khz(pol) == BASE && eb_now_ns() - t0 < 40000000) {
			ASSERT_EQ(0, set_tunable(pol, "rate_limit_us", "0"));
			got = wait_khz(pol, BOOST, 30);
			t1 = eb_now_ns();
			decided = t1 - t0 < 90000000;
			if (decided)
				EXPECT_EQ(BOOST, got) TH_LOG("at %lld ms", (t1 - t0) / 1000000);
		}
		ASSERT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
		ASSERT_EQ(BASE, wait_khz(pol, BASE, 2000));
	}
	ASSERT_TRUE(decided) TH_LOG("no attempt held a boost back and decided in time");
	close(fd);
}

/*
 * A boost the rate limit holds back is not yet a boost: while the clock
 * stays at base it is neither counted nor charged (EB_POLICY_BOOSTED is
 * "at boost_freq now", boosts "transitions to boosted", boosted_ns "time
 * spent boosted", and the budget charges boosted time).  Once the interval
 * ends it is let through, counted once and charged from then.  A try
 * decides only if the stats were read well inside the 100 ms interval
 * (counted from before the step down was asked for); a stalled guest tries
 * again.
 */
TEST_F(eb, a_boost_the_rate_limit_holds_back_is_not_charged)
{
	struct eb_policy_stats st0, st1, st2;
	int pol = self->pol_last, fd, decided = 0;
	long long t0, t1, t2;
	unsigned long long applied;

	ASSERT_EQ(0, set_tunable(pol, "rate_limit_us", "100000"));
	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	for (int i = 0; i < 5 && !decided; i++) {
		msleep(150);
		ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st0));
		applied = st0.applied;
		ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
		ASSERT_EQ(BOOST, applied_khz(pol, BOOST));
		t0 = eb_now_ns();
		ASSERT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
		ASSERT_EQ(BASE, applied_khz(pol, BASE));
		/* a worker records what it applied after the driver has it */
		ASSERT_EQ(0, wait_applied(fd, self->last_cpu, applied + 2, &st0));
		ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
		msleep(30);
		ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st1));
		t1 = eb_now_ns();
		if (t1 - t0 < 90000000) {
			decided = 1;
			EXPECT_EQ(BASE, cur_khz(pol));
			EXPECT_FALSE(st1.flags & EB_POLICY_BOOSTED);
			EXPECT_EQ(st0.boosts, st1.boosts);
			EXPECT_EQ(st0.boosted_ns, st1.boosted_ns);
			/* Let through when the interval ends; counted once. */
			EXPECT_EQ(BOOST, wait_khz(pol, BOOST, 2000));
			ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st2));
			t2 = eb_now_ns();
			EXPECT_TRUE(st2.flags & EB_POLICY_BOOSTED);
			EXPECT_EQ(st0.boosts + 1, st2.boosts);
			EXPECT_LE(st2.boosted_ns - st0.boosted_ns,
				  (unsigned long long)(t2 - t0 - 100000000));
		}
		ASSERT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
		ASSERT_EQ(BASE, wait_khz(pol, BASE, 2000));
	}
	ASSERT_TRUE(decided) TH_LOG("no try read the stats inside the interval");
	close(fd);
}

/*
 * A test of one budget window (1 s) must fit in it: a try that took longer
 * than IN_ONE_WINDOW_NS (a stalled guest) is tried again after
 * TWO_WINDOWS_MS, which forget what the last try spent and asked for.
 */
#define IN_ONE_WINDOW_NS	900000000ull
#define TWO_WINDOWS_MS		2100

/* What one_client_cannot_starve_the_others saw, judged once it is known. */
struct starve_seen {
	int boost, again;
	long khz;
	unsigned int votes_after;
	uint64_t ns;			/* first look to refusal */
};

static void starve_scenario(int pol, int fd, struct starve_seen *s)
{
	uint64_t t0 = eb_now_ns();
	long long seq = drv_last_seq(pol);

	s->boost = eb_boost_for(fd, 5000000);
	s->khz = set_khz_since(pol, BOOST, seq);
	for (int i = 0; i < 400 && client_info(fd).votes; i++)
		msleep(5);
	s->votes_after = client_info(fd).votes;
	s->again = hint(fd, EB_IOC_GC_ENTER);
	s->ns = eb_now_ns() - t0;
}

/*
 * One client cannot spend its policy's whole budget and leave the others
 * EBUSY: its votes end when it has used its share (half), and it is
 * refused until its window rolls, while another process's client still
 * boosts.  The refusal must come in the share's 1 s window: a slow guest
 * that takes longer tries again after two windows, at most three times.
 */
TEST_F(eb, one_client_cannot_starve_the_others)
{
	int pol = self->pol_last, a = -1, tries = 0;
	struct eb_policy_stats st;
	struct starve_seen s;

	for (int i = 0; i < self->npol; i++)
		ASSERT_EQ(0, set_tunable(self->pols[i], "budget_pct", "40"));
	ASSERT_EQ(0, pin(self->last_cpu));
	do {
		if (tries) {
			close(a);
			msleep(TWO_WINDOWS_MS);
		}
		a = eb_open();
		ASSERT_GE(a, 0);
		/* Its share: 200 ms of the policy's 400 ms per second. */
		starve_scenario(pol, a, &s);
	} while (s.ns > IN_ONE_WINDOW_NS && ++tries < 3);
	ASSERT_LE(s.ns, IN_ONE_WINDOW_NS)
		TH_LOG("3 tries took over 900 ms of a 1 s window each (last: boost %d, %ld kHz, votes %#x, again %d)",
		       s.boost, s.khz, s.votes_after, s.again);
	ASSERT_EQ(0, s.boost);
	EXPECT_EQ(BOOST, s.khz);
	EXPECT_EQ(0u, s.votes_after);
	EXPECT_EQ(-EBUSY, s.again);
	ASSERT_EQ(0, eb_policy_stats(a, self->last_cpu, &st));
	EXPECT_FALSE(st.flags & EB_POLICY_BUDGET_SPENT);
	EXPECT_EQ(0, boost_in_child(self->last_cpu, pol, 100000));
	EXPECT_EQ(BASE, applied_khz(pol, BASE));
	close(a);
}

/* What one_kind_cannot_starve_the_other saw, judged once it is known. */
struct kinds_seen {
	unsigned int gc_votes_after;	/* votes once GC's part was spent */
	int gc_again, queue_then, queue_again;
	long khz_queue_over, khz_gc_over;	/* after each kind's boost: base, settled */
	long khz_gc, khz_queue, khz_end;
	unsigned int queue_votes_after;
	uint64_t ns;			/* first hint to last check */
};

static void kinds_scenario(int pol, int fd, struct kinds_seen *k)
{
	uint64_t t0 = eb_now_ns();
	long long seq;

	hint(fd, EB_IOC_QUEUE_BUSY);
	hint(fd, EB_IOC_QUEUE_IDLE);
	/* The queue's boost over, none in the driver: a boost after it is GC's. */
	k->khz_queue_over = wait_settled_khz(pol, BASE, 2000);
	seq = drv_last_seq(pol);
	hint(fd, EB_IOC_GC_ENTER);
	k->khz_gc = set_khz_since(pol, BOOST, seq);
	for (int i = 0; i < 400 && client_info(fd).votes; i++)
		msleep(5);
	k->gc_votes_after = client_info(fd).votes;
	k->gc_again = hint(fd, EB_IOC_GC_ENTER);
	k->khz_gc_over = wait_settled_khz(pol, BASE, 2000);
	seq = drv_last_seq(pol);
	k->queue_then = hint(fd, EB_IOC_QUEUE_BUSY);
	k->khz_queue = set_khz_since(pol, BOOST, seq);
	for (int i = 0; i < 400 && client_info(fd).votes; i++)
		msleep(5);
	k->queue_votes_after = client_info(fd).votes;
	k->queue_again = hint(fd, EB_IOC_QUEUE_BUSY);
	k->khz_end = applied_khz(pol, BASE);
	k->ns = eb_now_ns() - t0;
}

/*
 * The kinds of vote a process asks for share its share: GC held as long as
 * it may, with the queue asked for once in the window, ends at its half
 * (a later GC hint is refused) and leaves the queue its half to boost
 * with.  GC alone may spend all of it (one_client_cannot_starve_the_others
 * does that with timed votes), so the queue's vote ends at the share too.
 * All of it must happen in one 1 s window of the process's share: a slow
 * guest that takes longer tries again after two windows (which forget
 * what was asked), at most three times.
 */
TEST_F(eb, one_kind_cannot_starve_the_other)
{
	int pol = self->pol_last, a, tries = 0;
	struct kinds_seen k;

	/* The process's share: 100 ms of the policy's 200 ms per second. */
	for (int i = 0; i < self->npol; i++)
		ASSERT_EQ(0, set_tunable(self->pols[i], "budget_pct", "20"));
	ASSERT_EQ(0, pin(self->last_cpu));
	a = eb_open();
	ASSERT_GE(a, 0);
	do {
		if (tries)
			msleep(TWO_WINDOWS_MS);
		kinds_scenario(pol, a, &k);
	} while (k.ns > IN_ONE_WINDOW_NS && ++tries < 3);
	ASSERT_LE(k.ns, IN_ONE_WINDOW_NS)
		TH_LOG("3 tries took over 900 ms of a 1 s window each");
	EXPECT_EQ(BASE, k.khz_queue_over);
	EXPECT_EQ(BOOST, k.khz_gc);
	EXPECT_EQ(0u, k.gc_votes_after) TH_LOG("GC still held past its part");
	EXPECT_EQ(-EBUSY, k.gc_again);
	EXPECT_EQ(0, k.queue_then) TH_LOG("GC spent the queue's half");
	EXPECT_EQ(BASE, k.khz_gc_over);
	EXPECT_EQ(BOOST, k.khz_queue);
	EXPECT_EQ(0u, k.queue_votes_after);
	EXPECT_EQ(-EBUSY, k.queue_again);
	EXPECT_EQ(BASE, k.khz_end);
	close(a);
}

/*
 * A budget_pct written while a vote is held counts at once: the process's
 * share of the new budget ends the vote before the policy's own budget is
 * spent, as if the vote had started under it.
 */
TEST_F(eb, a_budget_written_during_a_vote_bounds_it)
{
	int pol = self->pol_last, a = -1, tries = 0;
	struct eb_policy_stats st;
	uint64_t t0, took;

	ASSERT_EQ(0, pin(self->last_cpu));
	/*
	 * The write charges the vote's time so far to the policy's window
	 * at once: over 400 ms of it (a slow guest) spends the policy's
	 * budget before the share ends the vote.  Then, with the budget
	 * lifted, both windows end, and it is tried again.
	 */
	do {
		if (tries) {
			close(a);
			for (int i = 0; i < self->npol; i++)
				ASSERT_EQ(0, set_tunable(self->pols[i], "budget_pct", "100"));
			msleep(TWO_WINDOWS_MS);
		}
		a = eb_open();
		ASSERT_GE(a, 0);
		/* No budget yet (the fixture's 100%): no share either. */
		t0 = eb_now_ns();
		ASSERT_EQ(0, eb_boost_for(a, 5000000));
		EXPECT_EQ(BOOST, applied_khz(pol, BOOST));
		/* The process's share now: 200 ms of the policy's 400 ms per second. */
		for (int i = 0; i < self->npol; i++)
			ASSERT_EQ(0, set_tunable(self->pols[i], "budget_pct", "40"));
		took = eb_now_ns() - t0;
	} while (took > 300000000ull && ++tries < 3);
	ASSERT_LE(took, 300000000ull)
		TH_LOG("3 tries took over 300 ms from the boost to the write");
	for (int i = 0; i < 400 && client_info(a).votes; i++)
		msleep(5);
	EXPECT_EQ(0u, client_info(a).votes);
	ASSERT_EQ(0, eb_policy_stats(a, self->last_cpu, &st));
	EXPECT_FALSE(st.flags & EB_POLICY_BUDGET_SPENT)
		TH_LOG("the policy's budget ended the vote, not the process's share");
	EXPECT_EQ(BASE, applied_khz(pol, BASE));
	close(a);
}

/* What one_process_one_share saw, judged once it is known. */
struct share_seen {
	int boost[2], third_timed, third_gc, fresh_gc, reopened_gc;
	long khz;
	unsigned int votes_after[3];
	int reopened;			/* a client opened after all were closed */
	uint64_t gap_ns;		/* first boost to second */
	uint64_t ns;			/* first open to last refusal */
};

static void share_scenario(int pol, struct share_seen *s)
{
	uint64_t t0 = eb_now_ns(), t1;
	long long seq = drv_last_seq(pol);
	int a[3], fresh;

	for (int i = 0; i < 3; i++)
		a[i] = eb_open();
	s->boost[0] = eb_boost_for(a[0], 5000000);
	t1 = eb_now_ns();
	s->boost[1] = eb_boost_for(a[1], 5000000);
	s->gap_ns = eb_now_ns() - t1;
	s->khz = set_khz_since(pol, BOOST, seq);
	for (int i = 0; i < 400 && (client_info(a[0]).votes || client_info(a[1]).votes); i++)
		msleep(5);
	s->third_timed = eb_boost_for(a[2], 5000000);
	s->third_gc = hint(a[2], EB_IOC_GC_ENTER);
	for (int i = 0; i < 3; i++)
		s->votes_after[i] = client_info(a[i]).votes;
	fresh = eb_open();
	s->fresh_gc = hint(fresh, EB_IOC_GC_ENTER);
	close(fresh);
	for (int i = 0; i < 3; i++)
		close(a[i]);
	s->reopened = eb_open();
	s->reopened_gc = hint(s->reopened, EB_IOC_GC_ENTER);
	s->ns = eb_now_ns() - t0;
}

/*
 * A process's clients draw from one share of the budget: opening more of
 * them does not multiply it.  Two of its clients hold votes at once (their
 * held times add up) until the share is spent; then a third client of the
 * process, and a new one, are refused, also after the process closed them
 * all, while a client of another process still boosts (the policy's budget
 * is not spent).  The refusals must come in the share's 1 s window, and
 * the second vote before the first has spent the share alone: a slow guest
 * that takes over 900 ms, or 100 ms between the boosts, tries again after
 * two windows, at most three times.
 */
TEST_F(eb, one_process_one_share)
{
	int pol = self->pol_last, tries = 0;
	struct eb_policy_stats st;
	struct share_seen s = { .reopened = -1 };

	for (int i = 0; i < self->npol; i++)
		ASSERT_EQ(0, set_tunable(self->pols[i], "budget_pct", "40"));
	ASSERT_EQ(0, pin(self->last_cpu));
	do {
		if (tries) {
			close(s.reopened);
			msleep(TWO_WINDOWS_MS);
		}
		/* The process's share: 200 ms of the policy's 400 ms per second. */
		share_scenario(pol, &s);
		ASSERT_GE(s.reopened, 0);
	} while ((s.ns > IN_ONE_WINDOW_NS || s.gap_ns > 100000000ull) && ++tries < 3);
	ASSERT_LE(s.gap_ns, 100000000ull)
		TH_LOG("3 tries took over 100 ms from one boost to the next (last: boosts %d %d)",
		       s.boost[0], s.boost[1]);
	ASSERT_LE(s.ns, IN_ONE_WINDOW_NS)
		TH_LOG("3 tries took over 900 ms of a 1 s window each (last: boosts %d %d, %ld kHz, third %d %d, votes %#x %#x %#x, fresh %d, reopened %d)",
		       s.boost[0], s.boost[1], s.khz, s.third_timed, s.third_gc,
		       s.votes_after[0], s.votes_after[1], s.votes_after[2],
		       s.fresh_gc, s.reopened_gc);
	ASSERT_EQ(0, s.boost[0]);
	ASSERT_EQ(0, s.boost[1]);
	EXPECT_EQ(BOOST, s.khz);
	EXPECT_EQ(-EBUSY, s.third_timed);
	EXPECT_EQ(-EBUSY, s.third_gc);
	EXPECT_EQ(0u, s.votes_after[0]);
	EXPECT_EQ(0u, s.votes_after[1]);
	EXPECT_EQ(0u, s.votes_after[2]);
	EXPECT_EQ(-EBUSY, s.fresh_gc);
	EXPECT_EQ(-EBUSY, s.reopened_gc);
	ASSERT_EQ(0, eb_policy_stats(s.reopened, self->last_cpu, &st));
	EXPECT_FALSE(st.flags & EB_POLICY_BUDGET_SPENT);
	EXPECT_EQ(0, boost_in_child(self->last_cpu, pol, 100000));
	close(s.reopened);
	EXPECT_EQ(BASE, applied_khz(pol, BASE));
}

/*
 * A vote ended by close is charged to the process's share like any other
 * vote.  The process keeps one client open (its share lives on) and opens,
 * boosts and closes others, each vote held for less than the tick at which
 * a held vote is next charged: its share still ends its boosts, before the
 * policy's budget is spent, and another process still boosts.
 */
TEST_F(eb, closed_clients_votes_are_charged)
{
	int pol = self->pol_last, keep, fd, ret = 0, n = 0;
	unsigned long long t0, held = 0;
	struct eb_policy_stats st;

	/* The process's share: 100 ms of the policy's 200 ms per second. */
	for (int i = 0; i < self->npol; i++)
		ASSERT_EQ(0, set_tunable(self->pols[i], "budget_pct", "20"));
	ASSERT_EQ(0, pin(self->last_cpu));
	keep = eb_open();
	ASSERT_GE(keep, 0);
	t0 = eb_now_ns();
	while (eb_now_ns() - t0 < 3000000000ull) {
		unsigned long long start;

		fd = eb_open();
		ASSERT_GE(fd, 0);
		ret = hint(fd, EB_IOC_GC_ENTER);
		if (ret) {
			close(fd);
			break;
		}
		/*
		 * Held 0.7 ms: below a tick at HZ=1000, so the client's timer
		 * (a tick after the vote began) never charges it; only the
		 * close does.  Long enough that the votes are held well over
		 * 10% of the time even when open and close are slow (TCG).
		 */
		start = eb_now_ns();
		while (eb_now_ns() - start < 700000)
			;
		held += eb_now_ns() - start;
		n++;
		close(fd);
	}
	EXPECT_EQ(-EBUSY, ret) TH_LOG("%d votes held %llu ms", n, held / 1000000);
	ASSERT_EQ(0, eb_policy_stats(keep, self->last_cpu, &st));
	EXPECT_FALSE(st.flags & EB_POLICY_BUDGET_SPENT)
		TH_LOG("%d votes held %llu ms", n, held / 1000000);
	EXPECT_EQ(0, boost_in_child(self->last_cpu, pol, 50000));
	close(keep);
	EXPECT_EQ(BASE, applied_khz(pol, BASE));
}

/* Hints and BIND need a file opened for writing; reading needs none. */
TEST_F(eb, read_only_fd_cannot_hint)
{
	struct eb_boost_for bf = { .usec = 1000 };
	struct eb_bind bind = { 0 };
	struct eb_version v = { 0 };
	int fd = open(EB_DEV, O_RDONLY | O_CLOEXEC);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, pin(self->last_cpu));
	EXPECT_EQ(-EBADF, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(-EBADF, hint(fd, EB_IOC_QUEUE_BUSY));
	EXPECT_EQ(-1, ioctl(fd, EB_IOC_BOOST_FOR, &bf));
	EXPECT_EQ(EBADF, errno);
	EXPECT_EQ(-1, ioctl(fd, EB_IOC_BIND, &bind));
	EXPECT_EQ(EBADF, errno);
	EXPECT_EQ(0, ioctl(fd, EB_IOC_VERSION, &v));
	EXPECT_EQ(0u, client_info(fd).votes);
	EXPECT_EQ(BASE, cur_khz(self->pol_last));
	close(fd);
}

/*
 * A hint for a CPU that eventboost does not govern starts no vote (and so
 * no timer work there, where no budget would bound it).
 */
TEST_F(eb, no_vote_where_not_governed)
{
	int fd;

	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(EB_VOTE_GC, client_info(fd).votes);
	ASSERT_EQ(0, set_policy_attr(self->pol_last, "scaling_governor", "performance"));
	/* Accepted and ignored: the held vote ends too. */
	EXPECT_EQ(0, hint(fd, EB_IOC_QUEUE_BUSY));
	EXPECT_EQ(0u, client_info(fd).votes);
	EXPECT_EQ(-1, client_info(fd).vote_cpu);
	EXPECT_EQ(0, eb_boost_for(fd, 1000000));
	EXPECT_EQ(0u, client_info(fd).votes);
	ASSERT_EQ(0, set_policy_attr(self->pol_last, "scaling_governor", "eventboost"));
	ASSERT_EQ(0, set_tunable(self->pol_last, "rate_limit_us", "0"));
	EXPECT_EQ(BASE, wait_khz(self->pol_last, BASE, 2000));
	EXPECT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(BOOST, applied_khz(self->pol_last, BOOST));
	close(fd);
	EXPECT_EQ(BASE, applied_khz(self->pol_last, BASE));
}

struct flood_arg {
	int fd, cpu, stop;
	long n;
};

static void *gc_flood(void *p)
{
	struct flood_arg *a = p;

	pin(a->cpu);
	while (!__atomic_load_n(&a->stop, __ATOMIC_RELAXED)) {
		hint(a->fd, EB_IOC_GC_ENTER);
		hint(a->fd, EB_IOC_GC_EXIT);
		a->n++;
	}
	return NULL;
}

/*
 * rate_limit_us bounds the frequency changes of a policy (and the
 * cross-CPU calls that make them) under a flood of GC enter/exit pairs
 * sent from another CPU; after a quiet period the first boost still lands
 * inside the ioctl, and the last change of a flood is not lost.  Only a
 * boost waits for the window: the step back to base applies at once, or a
 * client could hold the boost frequency for a whole window uncharged (the
 * budget counts votes, not the frequency left behind).
 */
TEST_F(eb, rate_limit_bounds_changes)
{
	struct flood_arg a = { .cpu = 0 };
	int pol = self->pol_last;
	struct drv_policy d0, d1;
	long long t0, t1, bound;
	pthread_t t;

	ASSERT_EQ(0, set_tunable(pol, "rate_limit_us", "10000"));
	ASSERT_EQ(0, pin(self->last_cpu));
	a.fd = eb_open();
	ASSERT_GE(a.fd, 0);
	msleep(30);
	ASSERT_EQ(0, hint(a.fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(BOOST, applied_khz(pol, BOOST));
	ASSERT_EQ(0, hint(a.fd, EB_IOC_GC_EXIT));
	EXPECT_EQ(BASE, applied_khz(pol, BASE));

	ASSERT_EQ(0, drv_read(pol, &d0, NULL));
	t0 = eb_now_ns();
	ASSERT_EQ(0, pthread_create(&t, NULL, gc_flood, &a));
	msleep(1000);
	__atomic_store_n(&a.stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	/* The flood ended on an exit: the deferred change to base lands. */
	EXPECT_EQ(BASE, wait_khz(pol, BASE, 2000));
	t1 = eb_now_ns();
	ASSERT_EQ(0, drv_read(pol, &d1, NULL));
	/* One boost per 10 ms and its step back, and the first at once. */
	bound = 2 * ((t1 - t0) / 10000000) + 2;
	EXPECT_LE(d1.changes - d0.changes, bound)
		TH_LOG("%ld enter/exit pairs", a.n);
	EXPECT_GE(a.n, 1);

	/* Quiet again: the first boost is applied when the ioctl returns. */
	msleep(30);
	ASSERT_EQ(0, hint(a.fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(BOOST, applied_khz(pol, BOOST));
	close(a.fd);
	EXPECT_EQ(BASE, wait_khz(pol, BASE, 2000));
}

/* Wait until the test driver is inside a change of @pol. */
static int wait_in_flight(int pol, long timeout_ms)
{
	struct drv_policy d;

	for (long t = 0; t <= timeout_ms; t++) {
		if (!drv_read(pol, &d, NULL) && d.in_flight > 0)
			return 0;
		msleep(1);
	}
	return -1;
}

/*
 * Also behind a slow driver: the worker applies a step down (the driver
 * takes 300 ms), and a GC entered meanwhile decides a boost that no rate
 * limit has seen (the step down not yet applied).  The worker must not
 * apply it as soon as the driver is free: the boost is let through a
 * window (100 ms) after the step down was applied, and then takes the
 * driver's 300 ms.  Then the same once more, the GC exiting during the
 * boost's change and entering again during the step down's that follows:
 * the grant of the first boost must not let the second one through.
 * (300 ms, not less: each hint must land while a change is in the driver,
 * and a guest's vCPU may stall for tens of milliseconds.)
 */
TEST_F(eb, rate_limit_holds_a_boost_behind_a_slow_change)
{
	int pol = self->pol_last, fd;
	struct eb_drv_change down, up;
	struct drv_policy d;
	long long t_exit;

	if (fast_mode())
		SKIP(return, "a slow driver's path: the worker's (percpu-worker mode)");
	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	ASSERT_EQ(BOOST, wait_khz(pol, BOOST, 2000));
	ASSERT_EQ(0, set_tunable(pol, "rate_limit_us", "100000"));
	ASSERT_EQ(0, eb_write_str(DRV_PARAM "target_delay_us", "300000"));
	t_exit = eb_now_ns();
	EXPECT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
	EXPECT_EQ(0, wait_in_flight(pol, 2000));
	EXPECT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	/* the premise: the hint came while the step down was in the driver */
	EXPECT_EQ(0, drv_read(pol, &d, NULL));
	EXPECT_EQ(1, d.in_flight);
	EXPECT_EQ(BASE, wait_khz(pol, BASE, 2000));
	EXPECT_EQ(0, drv_read(pol, &d, &down));
	EXPECT_EQ(BOOST, wait_khz(pol, BOOST, 4000));
	EXPECT_EQ(0, drv_read(pol, &d, &up));
	EXPECT_EQ(BASE, down.khz);
	EXPECT_EQ(BOOST, up.khz);
	EXPECT_GE(up.ts - down.ts, 400000000LL)
		TH_LOG("step down %lld ms, boost %lld ms after the exit",
		       (down.ts - t_exit) / 1000000, (up.ts - t_exit) / 1000000);

	/* A grant is good for one change. */
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
	ASSERT_EQ(BASE, wait_khz(pol, BASE, 2000));
	msleep(150);
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(0, wait_in_flight(pol, 2000));
	EXPECT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
	EXPECT_EQ(BOOST, wait_khz(pol, BOOST, 2000));
	EXPECT_EQ(0, wait_in_flight(pol, 2000));
	EXPECT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(0, drv_read(pol, &d, NULL));
	EXPECT_EQ(1, d.in_flight);
	EXPECT_EQ(BASE, wait_khz(pol, BASE, 2000));
	EXPECT_EQ(0, drv_read(pol, &d, &down));
	EXPECT_EQ(BOOST, wait_khz(pol, BOOST, 4000));
	EXPECT_EQ(0, drv_read(pol, &d, &up));
	EXPECT_EQ(BASE, down.khz);
	EXPECT_GE(up.ts - down.ts, 400000000LL)
		TH_LOG("the second boost %lld ms after the step down",
		       (up.ts - down.ts) / 1000000);
	EXPECT_EQ(0, eb_write_str(DRV_PARAM "target_delay_us", "0"));
	close(fd);
	EXPECT_EQ(BASE, wait_khz(pol, BASE, 4000));
}

/*
 * A boost let through is not held back by a hint that comes while the
 * worker applies it (the driver takes 300 ms; the rate limit, 100 ms,
 * counts from the decision): it stays counted once and charged.  Nor is
 * it counted again when every vote ends and one comes again meanwhile:
 * the clock makes one boost.  A try whose hints came after the interval,
 * or after the change left the driver (a stalled guest), could not tell,
 * and is tried again.
 */
TEST_F(eb, a_boost_on_its_way_is_not_held_back_by_another_hint)
{
	struct eb_policy_stats st0, st1, st2;
	int pol = self->pol_last, fd, decided = 0;
	long long t0, t1, t2;
	struct drv_policy d1, d2;

	if (fast_mode())
		SKIP(return, "a slow driver's path: the worker's (percpu-worker mode)");
	ASSERT_EQ(0, set_tunable(pol, "rate_limit_us", "100000"));
	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	for (int i = 0; i < 3 && !decided; i++) {
		msleep(150);
		ASSERT_EQ(0, eb_write_str(DRV_PARAM "target_delay_us", "300000"));
		ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st0));
		t0 = eb_now_ns();	/* the interval begins after this */
		ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
		EXPECT_EQ(0, wait_in_flight(pol, 2000));
		EXPECT_EQ(0, hint(fd, EB_IOC_QUEUE_BUSY));
		ASSERT_EQ(0, drv_read(pol, &d1, NULL));
		ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st1));
		EXPECT_EQ(0, hint(fd, EB_IOC_QUEUE_IDLE));
		EXPECT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
		EXPECT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
		t1 = eb_now_ns();	/* decided again before this */
		ASSERT_EQ(0, drv_read(pol, &d2, NULL));
		if (t1 - t0 < 90000000 && d1.in_flight == 1 && d2.in_flight == 1 &&
		    d1.changes == d2.changes) {
			decided = 1;
			EXPECT_TRUE(st1.flags & EB_POLICY_BOOSTED);
			EXPECT_EQ(st0.boosts + 1, st1.boosts);
			EXPECT_EQ(BOOST, wait_khz(pol, BOOST, 4000));
			msleep(150);	/* past a rate timer's re-decision */
			t2 = eb_now_ns();	/* accounted after this */
			ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st2));
			EXPECT_TRUE(st2.flags & EB_POLICY_BOOSTED);
			EXPECT_EQ(st0.boosts + 1, st2.boosts);
			/* charged from the decision, before t1 */
			EXPECT_GE(st2.boosted_ns - st0.boosted_ns,
				  (unsigned long long)(t2 - t1));
		}
		EXPECT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
		EXPECT_EQ(0, eb_write_str(DRV_PARAM "target_delay_us", "0"));
		EXPECT_EQ(BASE, wait_khz(pol, BASE, 4000));
	}
	EXPECT_TRUE(decided) TH_LOG("no try's hints came inside the interval");
	close(fd);
}

/*
 * A flood of GC enter/exit pairs behind a slow driver (5 ms a change):
 * each step down the worker applies, a boost decided meanwhile is found
 * again by the next run of the worker.  Still at most one boost and its
 * step back per rate_limit_us (100 ms), plus the first.  (The flood hits
 * that interleaving often, not every time: the code before the fix passed
 * once in two runs.)
 */
TEST_F(eb, rate_limit_bounds_changes_behind_a_slow_driver)
{
	struct flood_arg a = { .cpu = 0 };
	int pol = self->pol_last;
	struct drv_policy d0, d1;
	long long t0, t1, bound;
	pthread_t t;

	if (fast_mode())
		SKIP(return, "a slow driver's path: the worker's (percpu-worker mode)");
	ASSERT_EQ(0, set_tunable(pol, "rate_limit_us", "100000"));
	ASSERT_EQ(0, eb_write_str(DRV_PARAM "target_delay_us", "5000"));
	ASSERT_EQ(0, pin(self->last_cpu));
	a.fd = eb_open();
	ASSERT_GE(a.fd, 0);
	ASSERT_EQ(0, drv_read(pol, &d0, NULL));
	t0 = eb_now_ns();
	ASSERT_EQ(0, pthread_create(&t, NULL, gc_flood, &a));
	msleep(1000);
	__atomic_store_n(&a.stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	EXPECT_EQ(BASE, wait_khz(pol, BASE, 2000));
	t1 = eb_now_ns();
	ASSERT_EQ(0, drv_read(pol, &d1, NULL));
	EXPECT_EQ(0, eb_write_str(DRV_PARAM "target_delay_us", "0"));
	bound = 2 * ((t1 - t0) / 100000000) + 2;
	EXPECT_LE(d1.changes - d0.changes, bound);
	TH_LOG("%ld enter/exit pairs, %ld changes, bound %lld", a.n, d1.changes - d0.changes, bound);
	EXPECT_EQ(0, d1.overlaps - d0.overlaps);
	close(a.fd);
}

/*
 * The hint -> applied histogram times a change from the hint that asked
 * for it.  A boost the rate limit held back and a GC exit then cancelled
 * leaves no change waiting: the next boost, half a second later, is timed
 * from its own hint (in the ioctl, with fast switch), not from that one.
 */
TEST_F(eb, latency_is_timed_from_the_hint_that_asked)
{
	struct eb_policy_stats st0, sth, st1;
	int pol = self->pol_last, fd;
	unsigned long long n = 0;
	bool held = false;

	if (!fast_mode())
		SKIP(return, "fast switch applies in the ioctl: any late sample is the defect's");
	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, set_tunable(pol, "rate_limit_us", "100000"));
	/*
	 * A boost within the rate limit: held back, then cancelled.  Under
	 * TCG more than the limit's 100 ms can pass between two ioctls: then
	 * the boost is not held, and the sequence is tried again.
	 */
	for (int i = 0; i < 5 && !held; i++) {
		msleep(150);
		ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
		ASSERT_EQ(BOOST, cur_khz(pol));
		ASSERT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
		ASSERT_EQ(BASE, cur_khz(pol));
		ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st0));
		ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
		held = cur_khz(pol) == BASE;
		ASSERT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
		/* Nor held if the rate timer applied it before the exit. */
		ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &sth));
		held = held && sth.applied == st0.applied;
	}
	ASSERT_TRUE(held) TH_LOG("no boost was held back in 5 tries");
	msleep(500);
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(BOOST, cur_khz(pol));
	ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st1));
	for (int i = 0; i < EB_LAT_BUCKETS; i++)
		n += st1.latency[i] - st0.latency[i];
	EXPECT_EQ(1, n);
	EXPECT_EQ(st0.latency[EB_LAT_BUCKETS - 1], st1.latency[EB_LAT_BUCKETS - 1])
		TH_LOG("the boost was timed from the cancelled hint (>= 16 ms)");
	close(fd);
}

TEST_F(eb, limits_take_effect_at_once)
{
	/* QoS limits reach the governor from a work item: poll. */
	int pol = self->pol_last, fd;

	ASSERT_EQ(0, set_tunable(pol, "max_boost_us", "10000000"));
	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(BOOST, applied_khz(pol, BOOST));
	ASSERT_EQ(0, set_policy_attr(pol, "scaling_max_freq", "3300000"));
	EXPECT_EQ(3300000, wait_khz(pol, 3300000, 2000));
	ASSERT_EQ(0, set_policy_attr(pol, "scaling_max_freq", "4000000"));
	EXPECT_EQ(BOOST, wait_khz(pol, BOOST, 2000));
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
	EXPECT_EQ(BASE, applied_khz(pol, BASE));
	ASSERT_EQ(0, set_policy_attr(pol, "scaling_max_freq", "1600000"));
	EXPECT_EQ(1600000, wait_khz(pol, 1600000, 2000));
	ASSERT_EQ(0, set_policy_attr(pol, "scaling_max_freq", "4000000"));
	ASSERT_EQ(0, set_policy_attr(pol, "scaling_min_freq", "3300000"));
	EXPECT_EQ(3300000, wait_khz(pol, 3300000, 2000));
	ASSERT_EQ(0, set_policy_attr(pol, "scaling_min_freq", "800000"));
	EXPECT_EQ(BASE, wait_khz(pol, BASE, 2000));
	close(fd);
}

TEST_F(eb, apply_path_and_driver_rules)
{
	struct eb_policy_stats st;
	struct eb_drv_change last;
	struct drv_policy dp;
	int pol = self->pol_last, fd;

	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st));
	EXPECT_TRUE(st.flags & EB_POLICY_GOVERNED);
	EXPECT_EQ(!!fast_mode(), !!(st.flags & EB_POLICY_FAST_SWITCH));
	/* from the boosted CPU and, by IPI, from another one */
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(BOOST, applied_khz(pol, BOOST));
	ASSERT_EQ(0, drv_read(pol, &dp, &last));
	EXPECT_EQ(fast_mode() ? 'f' : 't', last.path);
	EXPECT_EQ(BOOST, last.khz);
	if (fast_mode() && !self->shared)
		EXPECT_EQ(self->last_cpu, last.on_cpu);
	ASSERT_EQ(0, hint_from_cpu(fd, 0, EB_IOC_GC_EXIT));
	EXPECT_EQ(BASE, applied_khz(pol, BASE));
	ASSERT_EQ(0, drv_read(pol, &dp, &last));
	EXPECT_EQ(BASE, last.khz);
	/* by IPI on a CPU of the policy: the last CPU if it is alone there */
	if (fast_mode() && !self->shared)
		EXPECT_EQ(pol, policy_of(last.on_cpu));
	if (fast_mode() && !self->shared && policy_of(self->last_cpu - 1) != pol)
		EXPECT_EQ(self->last_cpu, last.on_cpu);
	/* never concurrent, never off the policy's CPUs */
	for (int i = 0; i < self->npol; i++) {
		ASSERT_EQ(0, drv_read(self->pols[i], &dp, NULL));
		EXPECT_EQ(0, dp.overlaps);
		EXPECT_EQ(0, dp.offcpu);
	}
	close(fd);
}

/*
 * A driver may fail a change (fast switch returning 0, ->target() an
 * error).  While the vote that wants the boost is held, the client's
 * following look retries it within a tick or so, not only the next hint.
 */
TEST_F(eb, a_failed_change_is_retried_while_voting)
{
	int pol = self->pol_last, fd;

	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, eb_write_str(DRV_PARAM "fail_changes", "1"));
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	/* the boost failed once; no other hint comes */
	EXPECT_EQ(BOOST, wait_khz(pol, BOOST, 1000))
		TH_LOG("votes %u", client_info(fd).votes);
	EXPECT_EQ(0, eb_write_str(DRV_PARAM "fail_changes", "0"));
	EXPECT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
	EXPECT_EQ(BASE, wait_khz(pol, BASE, 2000));
	close(fd);
}

/*
 * And a failed step back to base, after which no vote is held and no
 * client looks: the governor retries it itself, or the boost frequency
 * would stay until the next hint, uncharged (the budget counts votes).
 */
TEST_F(eb, a_failed_step_down_is_retried)
{
	int pol = self->pol_last, fd;

	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	ASSERT_EQ(BOOST, wait_khz(pol, BOOST, 2000));
	ASSERT_EQ(0, eb_write_str(DRV_PARAM "fail_changes", "1"));
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
	EXPECT_EQ(BASE, wait_khz(pol, BASE, 1000))
		TH_LOG("votes %u", client_info(fd).votes);
	EXPECT_EQ(0, eb_write_str(DRV_PARAM "fail_changes", "0"));
	close(fd);
}

/*
 * The budget charges what the clock does, not what was decided.  A change
 * the driver fails leaves the clock where it was: a boost it never made is
 * not charged, nor "at boost_freq now", while the vote waits for a retry
 * (until 2026-12-06 all 300 ms were).
 */
TEST_F(eb, a_boost_the_driver_fails_is_not_charged)
{
	struct eb_policy_stats st0, st1;
	int pol = self->pol_last, fd;

	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st0));
	ASSERT_EQ(0, eb_write_str(DRV_PARAM "fail_changes", "1000000"));
	EXPECT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	msleep(300);
	EXPECT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st1));
	/*
	 * The driver's own frequency, not policy->cur: a failed worker
	 * change posts the new frequency, then the old one back.
	 */
	EXPECT_EQ(BASE, cur_khz(pol));
	EXPECT_EQ(0, eb_write_str(DRV_PARAM "fail_changes", "0"));
	/* (flagged while a worker's try is in the driver: "being set to it") */
	if (fast_mode())
		EXPECT_FALSE(st1.flags & EB_POLICY_BOOSTED);
	EXPECT_EQ(st0.boosted_ns, st1.boosted_ns);
	/* Retried while the vote is held, and charged once made. */
	EXPECT_EQ(BOOST, wait_khz(pol, BOOST, 2000));
	EXPECT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
	EXPECT_EQ(BASE, wait_khz(pol, BASE, 2000));
	close(fd);
}

/*
 * Behind a slow driver a vote can end before its boost lands: the boost is
 * made anyway (the worker cannot take back what the driver has), then the
 * step down, each taking the driver's time.  The clock is at the boost in
 * between, and that is charged: until 2026-12-06 the charge stopped with
 * the vote, and votes shorter than the driver's latency boosted uncharged,
 * past the budget.
 */
TEST_F(eb, a_boost_landing_after_its_vote_ended_is_charged_until_the_step_down)
{
	struct eb_policy_stats st0, st1;
	int pol = self->pol_last, fd;
	long long seq;

	if (fast_mode())
		SKIP(return, "fast switch makes each change inside the hint");
	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, eb_write_str(DRV_PARAM "target_delay_us", "20000"));
	seq = drv_last_seq(pol);
	ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st0));
	EXPECT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(0, wait_in_flight(pol, 2000));
	EXPECT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
	/* The boost, then the step down, each after 20 ms in the driver. */
	ASSERT_EQ(0, wait_applied(fd, self->last_cpu, st0.applied + 2, &st1));
	EXPECT_EQ(0, eb_write_str(DRV_PARAM "target_delay_us", "0"));
	EXPECT_EQ(st0.applied + 2, st1.applied);
	EXPECT_EQ(BASE, st1.cur_khz);
	EXPECT_EQ(BOOST, set_khz_since(pol, BOOST, seq));
	/* At the boost for the step down's 20 ms at least. */
	EXPECT_GE(st1.boosted_ns - st0.boosted_ns, 20000000ull);
	EXPECT_FALSE(st1.flags & EB_POLICY_BOOSTED);
	close(fd);
}

/*
 * The target is the frequency to run at, not a floor (intel_cpufreq on HWP
 * would otherwise let the hardware go up to the maximum), and the driver
 * is given the policy's limits.
 */
TEST_F(eb, driver_is_told_the_target_is_strict)
{
	int pol = self->pol_last, fd;
	struct drv_policy dp;

	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(BOOST, applied_khz(pol, BOOST));
	ASSERT_EQ(0, drv_read(pol, &dp, NULL));
	EXPECT_EQ(1, dp.strict);
	EXPECT_EQ(800000, dp.min);
	EXPECT_EQ(4000000, dp.max);
	ASSERT_EQ(0, set_policy_attr(pol, "scaling_max_freq", "3300000"));
	EXPECT_EQ(3300000, wait_khz(pol, 3300000, 2000));
	ASSERT_EQ(0, drv_read(pol, &dp, NULL));
	EXPECT_EQ(1, dp.strict);
	EXPECT_EQ(3300000, dp.max);
	ASSERT_EQ(0, set_policy_attr(pol, "scaling_max_freq", "4000000"));
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
	EXPECT_EQ(BASE, wait_khz(pol, BASE, 2000));
	close(fd);
}

/*
 * New limits are asked of the driver again even where the frequency stays
 * the same: some drivers learn them only from a request
 * (CPUFREQ_NEED_UPDATE_LIMITS: amd-pstate, cppc, intel_cpufreq on HWP), as
 * schedutil knows; a thermal cap lowered under a boost then reaches them.
 * A fast switch reaches the driver itself; on the worker path the core
 * passes an unchanged frequency on only to a ->target() driver that asks
 * (ebtest_cpufreq is not one: the governor's count of requests shows it).
 * A worker's call the new limits overtook (a slow driver) is followed by
 * another.  (Before, the governor asked only for a new frequency.)
 */
TEST_F(eb, new_limits_are_asked_for_at_an_unchanged_frequency)
{
	struct eb_policy_stats st0, st1;
	int pol = self->pol_last, fd;
	struct drv_policy dp;
	long long seq;
	char buf[16];

	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, set_tunable(pol, "boost_freq", "3300000"));
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(3300000, applied_khz(pol, 3300000));
	/* (The worker counts its request after the driver's record.) */
	msleep(100);
	ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st0));
	seq = drv_last_seq(pol);
	/* A cap at the boost: the frequency stays, the driver is asked. */
	ASSERT_EQ(0, set_policy_attr(pol, "scaling_max_freq", "3300000"));
	ASSERT_EQ(0, wait_applied(fd, self->last_cpu, st0.applied + 1, &st1));
	EXPECT_EQ(st0.applied + 1, st1.applied);
	/* New limits asked for once, not at every hint after. */
	ASSERT_EQ(0, hint(fd, EB_IOC_QUEUE_BUSY));
	ASSERT_EQ(0, hint(fd, EB_IOC_QUEUE_IDLE));
	ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st0));
	EXPECT_EQ(st1.applied, st0.applied);
	if (fast_mode()) {
		EXPECT_LT(seq, drv_last_seq(pol));
		ASSERT_EQ(0, drv_read(pol, &dp, NULL));
		EXPECT_EQ(3300000, dp.cur);
		EXPECT_EQ(3300000, dp.max);
		/*
		 * A driver that keeps failing it is asked once, not again at
		 * every hint and tick after (each call takes one failure).
		 */
		ASSERT_EQ(0, eb_write_str(DRV_PARAM "fail_changes", "1000"));
		ASSERT_EQ(0, set_policy_attr(pol, "scaling_min_freq", "1600000"));
		for (int i = 0; i < 10; i++) {
			ASSERT_EQ(0, hint(fd, EB_IOC_QUEUE_BUSY));
			ASSERT_EQ(0, hint(fd, EB_IOC_QUEUE_IDLE));
		}
		msleep(100);
		ASSERT_EQ(0, eb_read_str(DRV_PARAM "fail_changes", buf, sizeof(buf)));
		EXPECT_STREQ("999\n", buf) TH_LOG("calls made: 1000 - %s", buf);
		EXPECT_EQ(0, eb_write_str(DRV_PARAM "fail_changes", "0"));
		ASSERT_EQ(0, set_policy_attr(pol, "scaling_min_freq", "800000"));
	}
	/* The limits as they were: no vote, base. */
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
	EXPECT_EQ(BASE, applied_khz(pol, BASE));
	ASSERT_EQ(0, set_policy_attr(pol, "scaling_max_freq", "4000000"));
	if (!fast_mode()) {
		/*
		 * A slow driver's boost in flight when the limits change
		 * (->limits waits for it: the write returns after it).
		 */
		ASSERT_EQ(0, eb_write_str(DRV_PARAM "target_delay_us", "1000000"));
		msleep(100);
		ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st0));
		ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
		ASSERT_EQ(0, wait_in_flight(pol, 2000));
		ASSERT_EQ(0, set_policy_attr(pol, "scaling_max_freq", "3300000"));
		EXPECT_EQ(0, eb_write_str(DRV_PARAM "target_delay_us", "0"));
		ASSERT_EQ(0, wait_applied(fd, self->last_cpu, st0.applied + 2, &st1));
		EXPECT_EQ(st0.applied + 2, st1.applied)
			TH_LOG("the boost, then the new limits asked for again");
		/* (Else an ordinary retune: the limits came after the call.) */
		ASSERT_EQ(0, drv_read(pol, &dp, NULL));
		EXPECT_EQ(3300000, dp.max)
			TH_LOG("the new limits came while the boost was in the driver");
		ASSERT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
		EXPECT_EQ(BASE, wait_khz(pol, BASE, 2000));
	}
	close(fd);
	EXPECT_EQ(0, set_policy_attr(pol, "scaling_max_freq", "4000000"));
}

struct flip_arg {
	int fd, cpu, stop, errors, last_error;
	long n, busy;		/* busy: EBUSY, the budget's refusals */
};

/* GC enter/exit on a shared client as fast as possible. */
static void *gc_flipper(void *p)
{
	struct flip_arg *a = p;

	pin(a->cpu);
	while (!__atomic_load_n(&a->stop, __ATOMIC_RELAXED)) {
		int ret = hint(a->fd, EB_IOC_GC_ENTER);

		if (ret == -EBUSY)
			a->busy++;
		else if (!ret)
			ret = hint(a->fd, EB_IOC_GC_EXIT);
		if (ret && ret != -EBUSY) {
			a->errors++;
			a->last_error = ret;
		}
		a->n++;
	}
	return NULL;
}

/*
 * A vote that starts on one CPU while the client's timer runs on another
 * is not ended at once as a watchdog end (the timer read the clock before
 * it took the client's lock: the vote looked younger than zero).  The
 * watchdog is 10 s and the run 2 s: any watchdog end is spurious.
 */
TEST_F(eb, no_spurious_watchdog_ends)
{
	struct eb_policy_stats st0[2], st1[2];
	struct flip_arg a[2];
	pthread_t t[2];
	int fd;

	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, eb_policy_stats(fd, 0, &st0[0]));
	ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st0[1]));
	for (int i = 0; i < 2; i++) {
		a[i] = (struct flip_arg){ .fd = fd, .cpu = i ? self->last_cpu : 0 };
		ASSERT_EQ(0, pthread_create(&t[i], NULL, gc_flipper, &a[i]));
	}
	msleep(2000);
	for (int i = 0; i < 2; i++) {
		__atomic_store_n(&a[i].stop, 1, __ATOMIC_RELAXED);
		pthread_join(t[i], NULL);
		EXPECT_EQ(0, a[i].errors);
		EXPECT_EQ(0, a[i].busy);	/* budget_pct 100 */
	}
	ASSERT_EQ(0, eb_policy_stats(fd, 0, &st1[0]));
	ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st1[1]));
	EXPECT_EQ(st0[0].watchdog_ends, st1[0].watchdog_ends)
		TH_LOG("%ld + %ld enter/exit pairs", a[0].n, a[1].n);
	EXPECT_EQ(st0[1].watchdog_ends, st1[1].watchdog_ends);
	close(fd);
	EXPECT_EQ(BASE, wait_khz(self->pol_last, BASE, 2000));
}

struct switch_arg {
	int pol, stop;
	long n;
};

static void *gov_switcher(void *p)
{
	struct switch_arg *a = p;

	while (!__atomic_load_n(&a->stop, __ATOMIC_RELAXED)) {
		set_policy_attr(a->pol, "scaling_governor", "performance");
		set_policy_attr(a->pol, "scaling_governor", "eventboost");
		a->n++;
	}
	return NULL;
}

static void *tunable_writer(void *p)
{
	struct switch_arg *a = p;

	/* The tunables come and go with the governor: errors are expected. */
	while (!__atomic_load_n(&a->stop, __ATOMIC_RELAXED)) {
		set_tunable(a->pol, "base_freq", a->n & 1 ? "1600000" : "3300000");
		set_tunable(a->pol, "budget_pct", a->n & 1 ? "60" : "100");
		a->n++;
	}
	return NULL;
}

/*
 * Stop waits for everything that may still be applying: a tunable write's
 * retune in the driver (->target() after stop, concurrent with the next
 * governor's), a remote fast switch's IPI handler (use after free under
 * KASAN), hints that found the policy just before.  The driver counts calls
 * that overlap and fast switches off the policy's CPUs.
 */
TEST_F(eb, governor_switch_races_tunables_and_hints)
{
	struct switch_arg sw = { .pol = self->pol_last }, tw = { .pol = self->pol_last };
	struct flip_arg a = { .cpu = 0 };
	pthread_t ts, tt, tf;
	struct drv_policy dp;

	a.fd = eb_open();
	ASSERT_GE(a.fd, 0);
	/* Bound to a thread on the last CPU; hints from CPU 0 (IPIs). */
	ASSERT_EQ(0, pin(self->last_cpu));
	ASSERT_EQ(0, pthread_create(&tf, NULL, gc_flipper, &a));
	ASSERT_EQ(0, pthread_create(&ts, NULL, gov_switcher, &sw));
	ASSERT_EQ(0, pthread_create(&tt, NULL, tunable_writer, &tw));
	msleep(3000);
	__atomic_store_n(&sw.stop, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&tw.stop, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&a.stop, 1, __ATOMIC_RELAXED);
	pthread_join(ts, NULL);
	pthread_join(tt, NULL);
	pthread_join(tf, NULL);
	/*
	 * No error but EBUSY: the writer sets budget_pct 60, and the flipper,
	 * which holds its vote about half the time, the policy stopped for a
	 * switch included, can spend its share of it.
	 */
	EXPECT_EQ(0, a.errors) TH_LOG("last error %d", a.last_error);
	TH_LOG("%ld of %ld GC enters EBUSY, %ld switches", a.busy, a.n, sw.n);
	EXPECT_GE(sw.n, 1);
	ASSERT_EQ(0, set_policy_attr(self->pol_last, "scaling_governor", "eventboost"));
	for (int i = 0; i < self->npol; i++) {
		ASSERT_EQ(0, drv_read(self->pols[i], &dp, NULL));
		EXPECT_EQ(0, dp.overlaps) TH_LOG("%ld switches, %ld tunable writes", sw.n, tw.n);
		EXPECT_EQ(0, dp.offcpu);
	}
	close(a.fd);
}

struct binder_arg {
	int fd, stop, errors;
	long n;
};

static void *short_lived(void *p)
{
	struct eb_bind b = { 0 };

	/* Bind the client to this thread, then exit (and be reaped). */
	if (ioctl(*(int *)p, EB_IOC_BIND, &b))
		return (void *)1;
	return NULL;
}

static void *binder(void *p)
{
	struct binder_arg *a = p;

	while (!__atomic_load_n(&a->stop, __ATOMIC_RELAXED)) {
		pthread_t t;
		void *ret;

		if (pthread_create(&t, NULL, short_lived, &a->fd))
			continue;
		pthread_join(t, &ret);
		if (ret)
			a->errors++;
		a->n++;
	}
	return NULL;
}

/*
 * Hints race EB_IOC_BIND to threads that exit at once: the permission
 * check must not look at a bound thread that BIND has just let go (use
 * after free under KASAN).  Every hint either works or finds the bound
 * thread gone; none is refused as from another process.
 */
TEST_F(eb, hints_race_bind_to_exiting_threads)
{
	struct binder_arg b = { 0 };
	long eperm = 0, other = 0, n = 0;
	pthread_t t;
	uint64_t end;

	b.fd = eb_open();
	ASSERT_GE(b.fd, 0);
	ASSERT_EQ(0, pthread_create(&t, NULL, binder, &b));
	end = eb_now_ns() + 2000000000ull;
	while (eb_now_ns() < end) {
		int ret = hint(b.fd, n & 1 ? EB_IOC_GC_EXIT : EB_IOC_GC_ENTER);

		if (ret == -EPERM)
			eperm++;
		else if (ret && ret != -ESRCH)
			other++;
		n++;
	}
	__atomic_store_n(&b.stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	EXPECT_EQ(0, b.errors);
	EXPECT_EQ(0, eperm);
	EXPECT_EQ(0, other) TH_LOG("%ld hints, %ld binds", n, b.n);
	EXPECT_GE(b.n, 1);
	close(b.fd);
	EXPECT_EQ(BASE, wait_khz(self->pol_last, BASE, 2000));
}

TEST_F(eb, counters_latency_and_time_in_state)
{
	struct eb_policy_stats st0, st1;
	long tis0, tis1, lat = 0;
	int pol = self->pol_last, fd;

	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st0));
	tis0 = time_in_state(pol, BOOST);
	ASSERT_GE(tis0, 0) TH_LOG("no cpufreq stats/time_in_state");
	for (int i = 0; i < 5; i++) {
		ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
		EXPECT_EQ(BOOST, applied_khz(pol, BOOST));
		msleep(30);
		ASSERT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
		EXPECT_EQ(BASE, applied_khz(pol, BASE));
	}
	ASSERT_EQ(0, hint(fd, EB_IOC_QUEUE_BUSY));
	ASSERT_EQ(0, hint(fd, EB_IOC_QUEUE_IDLE));
	ASSERT_EQ(0, eb_policy_stats(fd, self->last_cpu, &st1));
	EXPECT_EQ(st0.hints[EB_REASON_GC] + 10, st1.hints[EB_REASON_GC]);
	EXPECT_EQ(st0.hints[EB_REASON_QUEUE] + 2, st1.hints[EB_REASON_QUEUE]);
	EXPECT_GE(st1.boosts, st0.boosts + 5);
	EXPECT_GE(st1.boosted_ns, st0.boosted_ns + 5 * 30000000ull);
	EXPECT_GE(st1.applied, st0.applied + 10);
	for (int i = 0; i < EB_LAT_BUCKETS; i++)
		lat += st1.latency[i] - st0.latency[i];
	EXPECT_GE(lat, 10);
	EXPECT_EQ(BASE, st1.base_khz);
	EXPECT_EQ(BOOST, st1.boost_khz);
	EXPECT_EQ(BASE, st1.target_khz);
	/* time_in_state counts in 10 ms units */
	tis1 = time_in_state(pol, BOOST);
	EXPECT_GE(tis1, tis0 + 10);
	close(fd);
}

TEST_F(eb, governor_switch_and_back)
{
	struct eb_policy_stats st;
	int fd;

	ASSERT_EQ(0, set_tunable(self->pol_last, "max_boost_us", "10000000"));
	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(BOOST, applied_khz(self->pol_last, BOOST));
	ASSERT_EQ(0, set_policy_attr(self->pol_last, "scaling_governor", "powersave"));
	EXPECT_EQ(800000, cur_khz(self->pol_last));
	/* hints while another governor runs are harmless */
	EXPECT_EQ(0, hint(fd, EB_IOC_QUEUE_BUSY));
	EXPECT_EQ(800000, cur_khz(self->pol_last));
	/* Not governed: only what the cpufreq core knows, no input echoed. */
	memset(&st, 0xa5, sizeof(st));
	st.cpu = self->last_cpu;
	st.in_flags = 0;
	memset(st.reserved, 0, sizeof(st.reserved));
	ASSERT_EQ(0, ioctl(fd, EB_IOC_POLICY_STATS, &st));
	EXPECT_EQ(0u, st.flags);
	EXPECT_EQ(800000u, st.cur_khz);
	EXPECT_EQ(0u, st.base_khz);
	EXPECT_EQ(0u, st.boosts);
	EXPECT_EQ(0u, st.latency[0]);
	close(fd);
	ASSERT_EQ(0, set_policy_attr(self->pol_last, "scaling_governor", "eventboost"));
	EXPECT_EQ(BASE, wait_khz(self->pol_last, BASE, 2000));
}

TEST_F(eb, cpu_hotplug_with_votes)
{
	struct eb_policy_stats st;
	char path[96];
	int fd;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", self->last_cpu);
	for (int i = 0; i < self->npol; i++)
		ASSERT_EQ(0, set_tunable(self->pols[i], "max_boost_us", "10000000"));
	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(BOOST, applied_khz(self->pol_last, BOOST));
	/*
	 * The thread is pushed off the dying CPU; its vote follows.  Where
	 * to is the scheduler's choice, and in the clustered layout CPU 1
	 * (the dying CPU's policy) is as good a choice as CPU 0.
	 */
	ASSERT_EQ(0, eb_write_str(path, "0"));
	EXPECT_EQ(BOOST, wait_vote_khz(fd, self->last_cpu, BOOST, 2000))
		TH_LOG("vote_cpu %d votes %u", client_info(fd).vote_cpu, client_info(fd).votes);
	/*
	 * Offlining widened the thread's affinity to every CPU: keep it on CPU
	 * 0, or the scheduler may move it back once the CPU returns and its
	 * vote would follow it there (seen once, percpu-worker on 6.12).
	 */
	ASSERT_EQ(0, pin(0));
	/* wherever the push put it, the vote reaches CPU 0's policy */
	EXPECT_EQ(BOOST, wait_khz(self->pol_first, BOOST, 2000));
	ASSERT_EQ(0, eb_write_str(path, "1"));
	if (!self->shared)
		EXPECT_EQ(BASE, wait_khz(self->pol_last, BASE, 2000));
	/* A shared policy stopped and restarted under the vote: time adds up. */
	ASSERT_EQ(0, eb_policy_stats(fd, 0, &st));
	EXPECT_LE(st.boosted_ns, st.governed_ns);
	close(fd);
	EXPECT_EQ(BASE, wait_khz(self->pol_first, BASE, 2000));
	EXPECT_EQ(BASE, wait_khz(self->pol_last, BASE, 2000));
}

struct hint_loop_arg {
	int fd, cpu, stop;
	long n, errors;
};

/* Queue hints as fast as they go, until told to stop. */
static void *queue_hint_loop(void *p)
{
	struct hint_loop_arg *a = p;

	pin(a->cpu);
	while (!__atomic_load_n(&a->stop, __ATOMIC_RELAXED)) {
		if (hint(a->fd, a->n & 1 ? EB_IOC_QUEUE_IDLE : EB_IOC_QUEUE_BUSY))
			a->errors++;
		a->n++;
	}
	return NULL;
}

/* A CPU of @pol below @last (which can go offline), or -1: none shares it. */
static int cpu_sharing_with(int pol, int last)
{
	for (int cpu = 0; cpu < last; cpu++)
		if (policy_of(cpu) == pol)
			return cpu;
	return -1;
}

/*
 * A CPU leaving or joining a shared policy stops and restarts its governor
 * under the policy's other CPUs.  A hint that comes in between is still on
 * a governed CPU: it must keep the client's other votes (here a GC that
 * has not ended), not end them as on a CPU eventboost does not govern.
 */
TEST_F(eb, hints_during_a_shared_policy_restart_keep_votes)
{
	struct hint_loop_arg a = { 0 };
	struct eb_policy_stats st0, st1;
	struct eb_client_info ci;
	int pol = self->pol_last, stay = cpu_sharing_with(pol, self->last_cpu);
	int tries = 0;
	uint64_t t0, took;
	char path[96];
	pthread_t t;

	if (stay < 0)
		SKIP(return, "the last CPU shares no policy (shared and cluster modes do)");
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", self->last_cpu);

	ASSERT_EQ(0, pin(stay));
	/*
	 * The GC vote is untimed: the fixture's 10 s watchdog ends it if a
	 * slow guest takes that long to restart the policy eight times, and
	 * then the try says nothing.  Over 9 s: again, at most three times.
	 */
	do {
		if (tries)
			close(a.fd);
		memset(&a, 0, sizeof(a));
		a.fd = eb_open();
		ASSERT_GE(a.fd, 0);
		a.cpu = stay;
		t0 = eb_now_ns();
		ASSERT_EQ(0, hint(a.fd, EB_IOC_GC_ENTER));
		EXPECT_EQ(BOOST, applied_khz(pol, BOOST));
		ASSERT_EQ(0, eb_policy_stats(a.fd, stay, &st0));
		ASSERT_EQ(0, pthread_create(&t, NULL, queue_hint_loop, &a));
		for (int i = 0; i < 4; i++) {
			ASSERT_EQ(0, eb_write_str(path, "0"));
			ASSERT_EQ(0, eb_write_str(path, "1"));
		}
		__atomic_store_n(&a.stop, 1, __ATOMIC_RELAXED);
		pthread_join(t, NULL);
		ASSERT_EQ(0, pin(stay));
		/* The GC vote alone is left to hold the boost. */
		ASSERT_EQ(0, hint(a.fd, EB_IOC_QUEUE_IDLE));
		ASSERT_EQ(0, eb_policy_stats(a.fd, stay, &st1));
		ci = client_info(a.fd);
		took = eb_now_ns() - t0;
	} while (took > 9000000000ull && ++tries < 3);
	ASSERT_LE(took, 9000000000ull)
		TH_LOG("3 tries took over 9 s of the 10 s watchdog each");
	/*
	 * The premise: some hints came while the policy was stopped (a
	 * started policy counts every hint it sees; a stopped one none).
	 */
	EXPECT_LT(st1.hints[EB_REASON_QUEUE] - st0.hints[EB_REASON_QUEUE],
		  (unsigned long long)a.n + 1);
	EXPECT_EQ(0, a.errors);
	EXPECT_TRUE(ci.votes & EB_VOTE_GC)
		TH_LOG("votes %#x after %ld queue hints", ci.votes, a.n);
	EXPECT_EQ(BOOST, wait_khz(pol, BOOST, 2000));
	ASSERT_EQ(0, hint(a.fd, EB_IOC_GC_EXIT));
	EXPECT_EQ(BASE, wait_khz(pol, BASE, 2000));
	close(a.fd);
}

/*
 * A restart leaves the clock where it was (the cpufreq core neither stops
 * nor starts a governor with a frequency change): a vote held across it is
 * one boost, not one more per restart.
 */
TEST_F(eb, a_boost_held_across_a_policy_restart_is_one_boost)
{
	int pol = self->pol_last, stay = cpu_sharing_with(pol, self->last_cpu);
	struct eb_policy_stats st0, st1;
	long long seq;
	char path[96];
	int fd;

	if (stay < 0)
		SKIP(return, "the last CPU shares no policy (shared and cluster modes do)");
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", self->last_cpu);
	ASSERT_EQ(0, pin(stay));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	ASSERT_EQ(BOOST, applied_khz(pol, BOOST));
	ASSERT_EQ(BOOST, wait_settled_khz(pol, BOOST, 2000));
	seq = drv_last_seq(pol);
	ASSERT_EQ(0, eb_policy_stats(fd, stay, &st0));
	ASSERT_EQ(0, eb_write_str(path, "0"));
	ASSERT_EQ(0, eb_write_str(path, "1"));
	ASSERT_EQ(BOOST, wait_settled_khz(pol, BOOST, 2000));
	ASSERT_EQ(0, eb_policy_stats(fd, stay, &st1));
	/* The premise: the clock never left the boost. */
	EXPECT_EQ(BOOST, set_khz_since(pol, BOOST, seq));
	EXPECT_NE(BASE, set_khz_since(pol, BASE, seq));
	EXPECT_EQ(st0.boosts, st1.boosts);
	EXPECT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
	EXPECT_EQ(BASE, wait_khz(pol, BASE, 2000));
	close(fd);
}

/*
 * Open a fresh budget window of @pct on @pol (idle past a window, the
 * next opens at the first write: budget_ends_and_refuses_boosts; *@t_w is
 * at or before it) and spend it with children boosting on @cpu, one
 * process using at most half: 0 once spent, 1 if four did not, or -errno.
 */
static int spend_a_fresh_budget(int pol, int cpu, int fd, const char *pct,
				uint64_t *t_w)
{
	struct eb_policy_stats st;
	int ret;

	ret = set_tunable(pol, "budget_pct", "100");
	if (ret)
		return ret;
	msleep(TWO_WINDOWS_MS);
	*t_w = eb_now_ns();
	ret = set_tunable(pol, "budget_pct", pct);
	for (int n = 0; !ret && n < 4; n++) {
		ret = eb_policy_stats(fd, cpu, &st);
		if (ret)
			return ret;
		if (st.flags & EB_POLICY_BUDGET_SPENT)
			return 0;
		ret = boost_in_child(cpu, -1, 5000000);
		if (ret == -EBUSY)
			ret = 0;
	}
	return ret ? ret : 1;
}

/*
 * The restart of a shared policy's governor (a CPU leaving it) keeps the
 * budget window: a budget spent before it stays spent after it, or each
 * hotplug would hand out a fresh budget.  Idle past a window first, the
 * next one opens at the first write (budget_ends_and_refuses_boosts); a
 * try that does not fit in it is tried again (three tries of a window and
 * more each: over the harness's default 30 s).
 */
TEST_F_TIMEOUT(eb, a_spent_budget_stays_spent_across_a_policy_restart, 90)
{
	struct eb_policy_stats st;
	int pol = self->pol_last, stay = cpu_sharing_with(pol, self->last_cpu);
	int fd, decided = 0, ret = 0, err;
	uint64_t t_w = 0, took = 0;
	char path[96];

	if (stay < 0)
		SKIP(return, "the last CPU shares no policy (shared and cluster modes do)");
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", self->last_cpu);
	ASSERT_EQ(0, set_tunable(pol, "max_boost_us", "10000000"));
	ASSERT_EQ(0, pin(stay));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	for (int i = 0; i < 3 && !decided; i++) {
		ret = spend_a_fresh_budget(pol, stay, fd, "10", &t_w);
		ASSERT_LE(0, ret);
		if (ret)
			continue;
		ASSERT_EQ(0, eb_write_str(path, "0"));
		ret = boost_in_child(stay, -1, 1000);
		err = eb_policy_stats(fd, stay, &st);
		took = eb_now_ns() - t_w;
		ASSERT_EQ(0, eb_write_str(path, "1"));	/* before any ASSERT */
		ASSERT_EQ(0, err);
		if (took < IN_ONE_WINDOW_NS) {
			decided = 1;
			EXPECT_TRUE(st.flags & EB_POLICY_BUDGET_SPENT);
			EXPECT_EQ(-EBUSY, ret);
		}
	}
	ASSERT_TRUE(decided) TH_LOG("no try fit in a window (last %llu ms)",
				    (unsigned long long)took / 1000000);
	close(fd);
}

#define VOTE_END_EVENT "/sys/kernel/tracing/events/eventboost/eventboost_vote_end/enable"

struct gc_try_arg {
	int fd, cpu, stop, got, errors;
};

/* GC enters until one is taken (not refused: 0), or until told to stop. */
static void *gc_enter_until_taken(void *p)
{
	struct gc_try_arg *a = p;
	int ret;

	pin(a->cpu);
	while (!__atomic_load_n(&a->stop, __ATOMIC_RELAXED)) {
		ret = hint(a->fd, EB_IOC_GC_ENTER);
		if (!ret) {
			__atomic_store_n(&a->got, 1, __ATOMIC_RELAXED);
			break;
		}
		if (ret != -EBUSY)
			a->errors++;
	}
	return NULL;
}

/* Empty the trace buffer (tracefs empties it on an open with O_TRUNC). */
static int trace_clear(void)
{
	int fd = open("/sys/kernel/tracing/trace", O_WRONLY | O_TRUNC);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* The cause the last eventboost_vote_end of @tid gives, into @cause. */
static int vote_end_cause(int tid, char *cause, size_t size)
{
	static char buf[1 << 16];
	char key[32], *p, *q = NULL;
	ssize_t n;
	int fd;

	fd = open("/sys/kernel/tracing/trace", O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	buf[n] = 0;
	snprintf(key, sizeof(key), "tid=%d cause=", tid);
	for (p = strstr(buf, key); p; p = strstr(p + 1, key))
		q = p + strlen(key);
	if (!q)
		return -ENOENT;
	snprintf(cause, size, "%.*s", (int)strcspn(q, " \n"), q);
	return 0;
}

/*
 * A hint while a shared policy's governor is stopped (a CPU leaving it)
 * is not refused, spent budget or not: the start after it must end such
 * a vote while the budget is still spent (cause "budget"), as the
 * budget's sweep ended every vote held when it ran out, not hold it
 * unboosted until its process's share ends it ("client_budget", 100 ms
 * here) or the window rolls and it boosts.  A GC enter is tried as fast
 * as it goes while CPU last goes off and on line, until one is taken; a
 * try that does not fit in the window is tried again.
 */
TEST_F_TIMEOUT(eb, a_vote_taken_during_a_restart_ends_while_the_budget_is_spent, 120)
{
	struct gc_try_arg a = { 0 };
	struct eb_policy_stats st;
	int pol = self->pol_last, stay = cpu_sharing_with(pol, self->last_cpu);
	int decided = 0, err = 0;
	unsigned int votes = 0;
	uint64_t t_w = 0, took = 0;
	char path[96], cause[32] = "";
	pthread_t t;

	if (stay < 0)
		SKIP(return, "the last CPU shares no policy (shared and cluster modes do)");
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", self->last_cpu);
	ASSERT_EQ(0, set_tunable(pol, "max_boost_us", "10000000"));
	ASSERT_EQ(0, pin(stay));
	for (int i = 0; i < 3 && !decided; i++) {
		a = (struct gc_try_arg){ .cpu = stay };
		a.fd = eb_open();
		ASSERT_GE(a.fd, 0);
		/* a share of 100 ms: the sweep is not raced by its end */
		err = spend_a_fresh_budget(pol, stay, a.fd, "20", &t_w);
		if (err) {
			close(a.fd);
			ASSERT_LE(0, err);
			continue;
		}
		ASSERT_EQ(0, trace_clear()) TH_LOG("tracefs not mounted at /sys/kernel/tracing?");
		ASSERT_EQ(0, eb_write_str(VOTE_END_EVENT, "1"));
		err = pthread_create(&t, NULL, gc_enter_until_taken, &a);
		if (err)
			eb_write_str(VOTE_END_EVENT, "0");
		ASSERT_EQ(0, err);
		for (int k = 0; k < 8 && !__atomic_load_n(&a.got, __ATOMIC_RELAXED); k++) {
			err = eb_write_str(path, "0");
			err = err ?: eb_write_str(path, "1");
			if (err)
				break;
		}
		__atomic_store_n(&a.stop, 1, __ATOMIC_RELAXED);
		pthread_join(t, NULL);
		if (err)
			eb_write_str(path, "1");
		/* the sweep runs from a workqueue: give it a moment */
		for (int j = 0; j < 60; j++) {
			votes = client_info(a.fd).votes;
			if (!votes)
				break;
			msleep(5);
		}
		eb_write_str(VOTE_END_EVENT, "0");
		ASSERT_EQ(0, err);
		EXPECT_EQ(0, a.errors);
		ASSERT_EQ(0, eb_policy_stats(a.fd, stay, &st));
		took = eb_now_ns() - t_w;
		if (a.got && took < IN_ONE_WINDOW_NS &&
		    (st.flags & EB_POLICY_BUDGET_SPENT)) {
			decided = 1;
			EXPECT_EQ(0, votes) TH_LOG("votes %#x", votes);
			EXPECT_EQ(BASE, cur_khz(pol));
			EXPECT_EQ(0, vote_end_cause(syscall(SYS_gettid), cause, sizeof(cause)));
			EXPECT_STREQ("budget", cause);
		}
		close(a.fd);
	}
	ASSERT_TRUE(decided) TH_LOG("no try took a vote during a restart in one window (last %llu ms)",
				    (unsigned long long)took / 1000000);
}

/*
 * The tunables are the operator's energy policy (issue 24): a switch to
 * another governor and back ends the governor's instance but keeps them,
 * and the policy runs at the kept base again.
 */
TEST_F(eb, settings_survive_a_governor_round_trip)
{
	int pol = self->pol_last;

	ASSERT_EQ(0, set_tunable(pol, "base_freq", "1600000"));
	ASSERT_EQ(0, set_tunable(pol, "budget_pct", "30"));
	ASSERT_EQ(1600000, wait_khz(pol, 1600000, 2000));
	ASSERT_EQ(0, set_policy_attr(pol, "scaling_governor", "performance"));
	EXPECT_EQ(BOOST, wait_khz(pol, BOOST, 2000));
	ASSERT_EQ(0, set_policy_attr(pol, "scaling_governor", "eventboost"));
	EXPECT_EQ(1600000, get_tunable(pol, "base_freq"));
	EXPECT_EQ(30, get_tunable(pol, "budget_pct"));
	/* and the fixture's */
	EXPECT_EQ(BOOST, get_tunable(pol, "boost_freq"));
	EXPECT_EQ(10000000, get_tunable(pol, "max_boost_us"));
	EXPECT_EQ(0, get_tunable(pol, "rate_limit_us"));
	EXPECT_EQ(1600000, wait_khz(pol, 1600000, 2000));
}

/*
 * Offlining the last CPU of a policy ends its governor instance (as suspend
 * does), onlining it starts a new one: with the tunables set before.  A
 * policy shared with CPU 0 (shared=1) only stops and starts.
 */
TEST_F(eb, settings_survive_cpu_hotplug)
{
	int pol = self->pol_last;
	char path[96];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", self->last_cpu);
	ASSERT_EQ(0, set_tunable(pol, "base_freq", "1600000"));
	ASSERT_EQ(0, set_tunable(pol, "budget_pct", "30"));
	ASSERT_EQ(1600000, wait_khz(pol, 1600000, 2000));
	ASSERT_EQ(0, eb_write_str(path, "0"));
	ASSERT_EQ(0, eb_write_str(path, "1"));
	EXPECT_EQ(1600000, get_tunable(pol, "base_freq"));
	EXPECT_EQ(30, get_tunable(pol, "budget_pct"));
	EXPECT_EQ(10000000, get_tunable(pol, "max_boost_us"));
	EXPECT_EQ(0, get_tunable(pol, "rate_limit_us"));
	EXPECT_EQ(1600000, wait_khz(pol, 1600000, 2000));
}

/*
 * EB_IOC_POLICY_STATS names the policy as sysfs does (policyN, N the CPU
 * it was created for), also once CPU N is offline and the cpufreq core has
 * moved policy->cpu to another CPU of the policy.  Needs a policy of two
 * CPUs that does not hold CPU 0 (which x86 cannot offline): the 3-CPU guest
 * of make check, with the driver's shared_from=1.
 */
TEST_F(eb, policy_named_after_its_first_cpu)
{
	struct eb_policy_stats st;
	char path[96], link[128];
	int pol = -1, other = -1, named = -1, fd;
	ssize_t n;

	for (int cpu = 1; cpu < self->ncpu && other < 0; cpu++)
		if (policy_of(cpu) > 0 && policy_of(cpu) != cpu) {
			other = cpu;
			pol = policy_of(cpu);
		}
	if (other < 0)
		SKIP(return, "no policy of two CPUs without CPU 0 (the 3-CPU guest has one)");

	ASSERT_EQ(0, pin(other));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, eb_policy_stats(fd, other, &st));
	EXPECT_EQ((unsigned int)pol, st.policy_cpu);

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", pol);
	ASSERT_EQ(0, eb_write_str(path, "0"));
	/* The premise: the policy is still policyN with CPU N offline. */
	snprintf(link, sizeof(link), "/sys/devices/system/cpu/cpu%d/cpufreq", other);
	n = readlink(link, path, sizeof(path) - 1);
	path[n > 0 ? n : 0] = '\0';
	if (strrchr(path, '/'))
		sscanf(strrchr(path, '/'), "/policy%d", &named);
	/* (no ASSERT until CPU N is back online) */
	EXPECT_EQ(pol, named) TH_LOG("%s -> %s", link, path);
	EXPECT_EQ(0, eb_policy_stats(fd, other, &st));
	EXPECT_EQ((unsigned int)pol, st.policy_cpu);
	EXPECT_TRUE(st.flags & EB_POLICY_GOVERNED);
	/* and a hint there still boosts that policy */
	EXPECT_EQ(0, hint(fd, EB_IOC_GC_ENTER));
	EXPECT_EQ(BOOST, applied_khz(pol, BOOST));
	EXPECT_EQ(0, hint(fd, EB_IOC_GC_EXIT));
	EXPECT_EQ(BASE, wait_khz(pol, BASE, 2000));
	close(fd);
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", pol);
	ASSERT_EQ(0, eb_write_str(path, "1"));
	EXPECT_EQ(BASE, wait_khz(pol, BASE, 2000));
}

struct hammer_arg {
	int fd, cpu, errors;
};

static void *hammer(void *p)
{
	struct hammer_arg *a = p;

	pin(a->cpu);
	for (int i = 0; i < 2000; i++) {
		if (hint(a->fd, i & 1 ? EB_IOC_GC_EXIT : EB_IOC_GC_ENTER))
			a->errors++;
		if (hint(a->fd, i & 2 ? EB_IOC_QUEUE_IDLE : EB_IOC_QUEUE_BUSY))
			a->errors++;
	}
	return NULL;
}

TEST_F(eb, one_client_many_threads)
{
	struct hammer_arg a[4];
	pthread_t t[4];
	int fd;

	ASSERT_EQ(0, pin(self->last_cpu));
	fd = eb_open();
	ASSERT_GE(fd, 0);
	for (int i = 0; i < 4; i++) {
		a[i] = (struct hammer_arg){ .fd = fd, .cpu = i % self->ncpu };
		ASSERT_EQ(0, pthread_create(&t[i], NULL, hammer, &a[i]));
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		EXPECT_EQ(0, a[i].errors);
	}
	hint(fd, EB_IOC_GC_EXIT);
	hint(fd, EB_IOC_QUEUE_IDLE);
	EXPECT_EQ(0u, client_info(fd).votes);
	EXPECT_EQ(BASE, applied_khz(self->pol_last, BASE));
	close(fd);
}

TEST_F(eb, tracepoints_record_hints_and_applies)
{
	const char *tr = "/sys/kernel/tracing";
	char path[128], buf[65536];
	int tfd;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/events/eventboost/enable", tr);
	ASSERT_EQ(0, eb_write_str(path, "1")) TH_LOG("tracefs not mounted at %s?", tr);
	snprintf(path, sizeof(path), "%s/trace", tr);
	ASSERT_EQ(0, eb_write_str(path, ""));
	gc_boost_on_last_cpu(_metadata, self);
	snprintf(path, sizeof(path), "%s/events/eventboost/enable", tr);
	eb_write_str(path, "0");
	snprintf(path, sizeof(path), "%s/trace", tr);
	tfd = open(path, O_RDONLY);
	ASSERT_GE(tfd, 0);
	n = read(tfd, buf, sizeof(buf) - 1);
	close(tfd);
	ASSERT_GT(n, 0);
	buf[n] = 0;
	EXPECT_NE(NULL, strstr(buf, "eventboost_hint:"));
	EXPECT_NE(NULL, strstr(buf, "eventboost_decide:"));
	EXPECT_NE(NULL, strstr(buf, "eventboost_apply:"));
	EXPECT_NE(NULL, strstr(buf, fast_mode() ? "path=fast" : "path=worker"));
}

TEST_F(eb, unload_refused_while_in_use)
{
	int fd;

	/* governor in use */
	EXPECT_NE(0, syscall(SYS_delete_module, "eventboost", O_NONBLOCK));
	all_governors(_metadata, self, "performance");
	fd = eb_open();
	ASSERT_GE(fd, 0);
	/* client open */
	EXPECT_NE(0, syscall(SYS_delete_module, "eventboost", O_NONBLOCK));
	close(fd);
	all_governors(_metadata, self, "eventboost");
}

/*
 * ebtest_cpufreq loaded with emulate=1 (run_guest.sh does so for this
 * fixture alone): a frequency costs time, and a CPU-bound loop's run time
 * follows 1/f.
 */
FIXTURE(emulated) {
	int cpu, pol;
	char pay_us[16];	/* emulate_pay_us, restored at teardown */
	char held_us[16];	/* emulate_held_us, likewise */
};

FIXTURE_SETUP(emulated)
{
	char buf[8] = "";
	FILE *f = fopen("/sys/module/ebtest_cpufreq/parameters/emulate", "r");

	ASSERT_NE(NULL, f) TH_LOG("load ebtest_cpufreq");
	ASSERT_NE(NULL, fgets(buf, sizeof(buf), f));
	fclose(f);
	ASSERT_EQ('Y', buf[0]) TH_LOG("load ebtest_cpufreq with emulate=1");
	ASSERT_EQ(0, eb_read_str(DRV_PARAM "emulate_pay_us", self->pay_us,
				 sizeof(self->pay_us)));
	ASSERT_EQ(0, eb_read_str(DRV_PARAM "emulate_held_us", self->held_us,
				 sizeof(self->held_us)));
	self->cpu = sysconf(_SC_NPROCESSORS_ONLN) - 1;
	self->pol = policy_of(self->cpu);
	ASSERT_GE(self->pol, 0);
	ASSERT_EQ(0, set_policy_attr(self->pol, "scaling_governor", "performance"));
	ASSERT_EQ(0, set_policy_attr(self->pol, "scaling_governor", "eventboost"));
	ASSERT_EQ(0, pin(self->cpu));
}

FIXTURE_TEARDOWN(emulated)
{
	eb_write_str(DRV_PARAM "emulate_pay_us", self->pay_us);
	eb_write_str(DRV_PARAM "emulate_held_us", self->held_us);
	set_tunable(self->pol, "base_freq", "0");
	pin(0);
}

static double spin_ms(unsigned long n)
{
	struct timespec a, b;
	volatile unsigned long x = 0;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (unsigned long i = 0; i < n; i++)
		x += i;
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6;
}

/* Run time of @n iterations at frequency @khz (set as the base: no votes). */
static double timed_at(struct __test_metadata *_metadata, int pol, long khz,
		       unsigned long n)
{
	char val[16];

	snprintf(val, sizeof(val), "%ld", khz);
	EXPECT_EQ(0, set_tunable(pol, "base_freq", val));
	EXPECT_EQ(khz, wait_khz(pol, khz, 2000));
	return spin_ms(n);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The other CPUs' busy time so far: CPU time (ns) on every online CPU but
 * @cpu that was not idle, as the driver's "idle <cpu> <us>" lines and the
 * clock they were read at tell; -1 if the driver has no idle lines.
 */
static long long others_busy_ns(int cpu)
{
	char line[128];
	long long idle_us = 0, us, now;
	int c, others = 0;
	FILE *f;

	now = eb_now_ns();
	f = fopen(EB_DRV, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "idle %d %lld", &c, &us) == 2 && c != cpu) {
			if (us < 0)
				break;
			idle_us += us;
			others++;
		}
	fclose(f);
	return others ? others * now - idle_us * 1000 : -1;
}

TEST_F(emulated, runtime_follows_frequency)
{
	const long khz[] = { 3300000, 2600000, 1600000 };
	unsigned long n = 1UL << 16;
	double ratio[7], prev = 1.0;

	/* Calibrate: about 30 ms of work at full speed. */
	ASSERT_EQ(0, set_tunable(self->pol, "base_freq", "4000000"));
	ASSERT_EQ(4000000, wait_khz(self->pol, 4000000, 2000));
	while (spin_ms(n) < 30)
		n *= 2;
	ASSERT_LE(0, others_busy_ns(self->cpu))
		TH_LOG("no idle lines in %s (a kernel without NO_HZ?)", EB_DRV);
	for (unsigned int i = 0; i < sizeof(khz) / sizeof(khz[0]); i++) {
		double want = 4000000.0 / khz[i], got;
		int valid = 0, tries = 0;

		/*
		 * Pairs back to back, 4 GHz then khz[i]: the host's load
		 * changes over seconds under TCG, and both runs of a pair see
		 * about the same.  One TCG thread runs every vCPU in turns,
		 * so the emulation holds only while the other CPUs idle: a
		 * task running there takes turns from this one at a rate that
		 * has nothing to do with frequency (a spinning CPU 0 made a
		 * fixed loop take twice as long).  A pair during which the other CPUs
		 * were busy more than 10% of its time is measured again: a
		 * 6.12-rt guest's CPU 0 idles at 3-7% busy (which moved the
		 * ratios up 6-10%) and has spells of 15-40% (up to 2.2x).
		 */
		while (valid < 7) {
			long long o0 = others_busy_ns(self->cpu), o1;
			double full, slow;

			ASSERT_LT(tries++, 60)
				TH_LOG("%d of 60 pairs at %ld kHz had the other CPUs idle: emulated DVFS needs them idle (see ebtest_cpufreq.c)",
				       valid, khz[i]);
			full = timed_at(_metadata, self->pol, 4000000, n);
			slow = timed_at(_metadata, self->pol, khz[i], n);
			o1 = others_busy_ns(self->cpu);
			if (o1 - o0 > (full + slow) * 1e6 / 10) {
				TH_LOG("%ld kHz: pair %d not judged: the other CPUs were busy %.1f ms of its %.1f ms",
				       khz[i], tries, (o1 - o0) / 1e6, full + slow);
				continue;
			}
			ratio[valid++] = slow / full;
		}
		qsort(ratio, 7, sizeof(ratio[0]), cmp_double);
		got = ratio[3];
		TH_LOG("%ld kHz: %.2fx the 4 GHz run time (1/f: %.2fx), %d pairs measured",
		       khz[i], got, want, tries);
		/*
		 * TCG timing is noisy: on a quiet host the ratio lands within
		 * 8% of 1/f, but other guests on a busy host pushed it up to
		 * +48% (seen at 2.6 GHz, before emulate_held_us; with it, two
		 * busy loops on the host moved it -7% to -11%, or down 11% with
		 * the final driver).  Hold it to
		 * 1/f within -35%/+50%, and slower than the frequency above.
		 */
		EXPECT_GT(got, want * 0.65);
		EXPECT_LT(got, want * 1.5);
		EXPECT_GT(got, prev);
		prev = got;
	}
}

/* Busy time per CPU and frequency ("busy <cpu> <khz> <ns>"), in ns. */
static long long busy_ns(int cpu, long khz)
{
	char line[128];
	long long ns = -1, n;
	int c;
	long k;
	FILE *f = fopen(EB_DRV, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "busy %d %ld %lld", &c, &k, &n) == 3 &&
		    c == cpu && k == khz)
			ns = n;
	fclose(f);
	return ns;
}

TEST_F(emulated, busy_time_is_accounted_per_frequency)
{
	long long b0, b1, other0, other1;
	double ms;

	ASSERT_EQ(0, set_tunable(self->pol, "base_freq", "1600000"));
	ASSERT_EQ(1600000, wait_khz(self->pol, 1600000, 2000));
	b0 = busy_ns(self->cpu, 1600000);
	other0 = busy_ns(self->cpu, 3300000);
	ASSERT_GE(b0, 0) TH_LOG("no busy lines in %s", EB_DRV);
	ms = spin_ms(1UL << 24);
	usleep(20000);	/* the next tick accounts the last stretch */
	b1 = busy_ns(self->cpu, 1600000);
	other1 = busy_ns(self->cpu, 3300000);
	TH_LOG("spun %.1f ms, accounted %.1f ms at 1.6 GHz", ms, (b1 - b0) / 1e6);
	/* Most of the spin lands at 1.6 GHz, nothing at a frequency unused. */
	EXPECT_GT(b1 - b0, (long long)(ms * 1e6 * 0.5));
	EXPECT_EQ(other0, other1);
}

/* The "steal <cpu> <owed_ns> <spun_ns> <pays>" line of @cpu; 0 if found. */
static int steal_of(int cpu, long long v[3])
{
	char line[128];
	int c, ret = -1;
	FILE *f = fopen(EB_DRV, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "steal %d %lld %lld %lld", &c, &v[0], &v[1], &v[2]) == 4 &&
		    c == cpu)
			ret = 0;
	fclose(f);
	return ret;
}

/*
 * With emulate_pay_us, debts are paid once they reach it, in full
 * (docs/evidence/2026-11-26-drift-pilot: a return from a steal may cost
 * the interrupted code time under TCG).  The fixture restores the value.
 */
TEST_F(emulated, debts_are_paid_in_lumps_of_emulate_pay_us)
{
	char now[16];
	long long a[3], b[3];
	double ms;

	/* Over 20 periods (what one payment may spin): refused, nothing changed. */
	EXPECT_EQ(-EINVAL, eb_write_str(DRV_PARAM "emulate_pay_us", "20001"));
	EXPECT_EQ(-EINVAL, eb_write_str(DRV_PARAM "emulate_pay_us", "-1"));
	ASSERT_EQ(0, eb_read_str(DRV_PARAM "emulate_pay_us", now, sizeof(now)));
	EXPECT_EQ(0, strcmp(self->pay_us, now));

	ASSERT_EQ(0, eb_write_str(DRV_PARAM "emulate_pay_us", "3000"));
	/*
	 * A payment spins 3 ms of clock, of which a hold (the host's, or the
	 * other vCPU's turn under TCG's one thread) is not paid but stays
	 * owed: time_the_cpu_was_held_is_not_charged tests that.  Here every
	 * spin counts, so each payment is the whole lump.
	 */
	ASSERT_EQ(0, eb_write_str(DRV_PARAM "emulate_held_us", "0"));
	ASSERT_EQ(0, set_tunable(self->pol, "base_freq", "1600000"));
	ASSERT_EQ(1600000, wait_khz(self->pol, 1600000, 2000));
	ASSERT_EQ(0, steal_of(self->cpu, a)) TH_LOG("no steal line in %s", EB_DRV);
	ms = spin_ms(1UL << 24);
	ASSERT_EQ(0, steal_of(self->cpu, b));
	TH_LOG("spun %.1f ms at 1.6 GHz: owed %.1f ms, paid %.1f ms in %lld payments",
	       ms, (b[0] - a[0]) / 1e6, (b[1] - a[1]) / 1e6, b[2] - a[2]);
	/* Paid, in payments of 3 ms or more (1 ms periods owe 1.5 ms each). */
	EXPECT_GT(b[2] - a[2], 0);
	EXPECT_GE(b[1] - a[1], (b[2] - a[2]) * 3000000LL);
	/*
	 * In full: what is left owed is under a payment and a period's debt.
	 * The debt is owed minus paid since the driver loaded (this group's
	 * CPUs stay online).  Only the debt left is asserted, not the window's
	 * owed against its paid: a payment spins to a clock, and when the host
	 * holds the vCPU past its end (seen: 23 ms) the overpayment is carried
	 * as a negative debt that the next periods absorb.  A clock step
	 * under TCG can owe more than one payment spins (20 periods): give
	 * the payments that follow a few more spins to clear it.
	 */
	EXPECT_GT(b[0] - a[0], 0);
	for (int i = 0; i < 3 && b[0] - b[1] >= 6000000LL; i++) {
		TH_LOG("debt left: %.1f ms, spinning on", (b[0] - b[1]) / 1e6);
		spin_ms(1UL << 22);
		ASSERT_EQ(0, steal_of(self->cpu, b));
	}
	TH_LOG("debt left: %.1f ms (negative: overpaid, absorbed next)",
	       (b[0] - b[1]) / 1e6);
	EXPECT_LT(b[0] - b[1], 6000000LL);
}

/* The "held <cpu> <ns>" line of @cpu: the time held, not charged; -1 if none. */
static long long held_of(int cpu)
{
	char line[128];
	long long ns = -1, v;
	int c;
	FILE *f = fopen(EB_DRV, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "held %d %lld", &c, &v) == 2 && c == cpu)
			ns = v;
	fclose(f);
	return ns;
}

/*
 * The debt (ns) the emulation reckons over @hold_us with the CPU held
 * (interrupts off: its timer cannot run, as when the host deschedules the
 * vCPU; 0: no hold), at 2.6 GHz, with emulate_held_us @held_us; in @held
 * what it took as held.
 */
static long long owed_over_hold(struct __test_metadata *_metadata, int cpu,
				int pol, const char *held_us, long hold_us,
				long long *held)
{
	char cmd[32];
	long long a[3], b[3], h0;

	EXPECT_EQ(0, eb_write_str(DRV_PARAM "emulate_held_us", held_us));
	EXPECT_EQ(0, set_tunable(pol, "base_freq", "2600000"));
	EXPECT_EQ(2600000, wait_khz(pol, 2600000, 2000));
	usleep(20000);	/* a tick settles what ran before */
	EXPECT_EQ(0, steal_of(cpu, a));
	h0 = held_of(cpu);
	snprintf(cmd, sizeof(cmd), "hold %ld", hold_us);
	if (hold_us)
		EXPECT_EQ(0, eb_write_str(EB_DRV, cmd));
	usleep(20000);
	EXPECT_EQ(0, steal_of(cpu, b));
	*held = held_of(cpu) - h0;
	return b[0] - a[0];
}

/*
 * Under QEMU/TCG the host holds a vCPU whenever it runs something else
 * (other guests, the load generator, QEMU's own threads); guest time goes
 * on meanwhile.  A debt reckoned on that time made a slower clock pay for
 * the host's load too: with two busy loops on the host a CPU loop at
 * 2.6 GHz took 1.98x its 4.0 GHz time against 1.60x on a quiet host
 * (docs/evidence/2026-12-05-emulation-held).  The period's timer comes as
 * late as the hold lasted; a tick emulate_held_us late or later is taken
 * as held and its lateness is not charged; 0 charges it, as the driver did
 * until 2026-12-05.  A hold with interrupts off stands in for the host's.
 * (A hold during the timer's own spin is not paid either; no test can put
 * one there: the probe of the evidence measures it.)
 */
TEST_F(emulated, time_the_cpu_was_held_is_not_charged)
{
	const long hold_us = 80000;
	/* What 80 ms of busy time owes at 2.6 GHz: 80 * (4.0 - 2.6) / 2.6. */
	const long long owes = 43000000;
	long long owed, base, held;
	char now[16];
	long period_us;

	/* Out of range, or not a number: refused, nothing changed. */
	EXPECT_EQ(-EINVAL, eb_write_str(DRV_PARAM "emulate_held_us", "100001"));
	EXPECT_EQ(-EINVAL, eb_write_str(DRV_PARAM "emulate_held_us", "-1"));
	ASSERT_EQ(0, eb_read_str(DRV_PARAM "emulate_held_us", now, sizeof(now)));
	EXPECT_EQ(0, strcmp(self->held_us, now));
	EXPECT_EQ(-EINVAL, eb_write_str(EB_DRV, "hold 100001"));
	EXPECT_EQ(-EINVAL, eb_write_str(EB_DRV, "hold x"));
	ASSERT_EQ(0, eb_read_str(DRV_PARAM "emulate_period_us", now, sizeof(now)));
	period_us = atol(now);

	/* 0: every hold charged, as before 2026-12-05. */
	owed = owed_over_hold(_metadata, self->cpu, self->pol, "0", hold_us, &held);
	TH_LOG("emulate_held_us=0: held %ld ms: owed %.1f ms, taken as held %.1f ms",
	       hold_us / 1000, owed / 1e6, held / 1e6);
	EXPECT_GE(owed, owes * 9 / 10);
	EXPECT_EQ(0, held);

	/*
	 * A hold shorter than emulate_held_us is busy time: charged.  Half
	 * the hold against the largest threshold: the host's own holds (up
	 * to tens of ms on a loaded host) must not push it over.  One that
	 * does (60 ms or more beside ours) is the host's, not the driver's:
	 * tried again, at most three times.
	 */
	for (int i = 0; i < 3; i++) {
		owed = owed_over_hold(_metadata, self->cpu, self->pol, "100000",
				      hold_us / 2, &held);
		TH_LOG("emulate_held_us=100000: held %ld ms: owed %.1f ms, taken as held %.1f ms",
		       hold_us / 2000, owed / 1e6, held / 1e6);
		if (!held)
			break;
	}
	EXPECT_GE(owed, owes / 2 * 9 / 10);
	EXPECT_EQ(0, held);

	/*
	 * 500: the hold is not charged.  Against the same window without a
	 * hold: the test's own reads of the driver's file are busy time.  A
	 * window the host held too (taken as held 10 ms or more beyond ours:
	 * 121.8 ms for 80 on a 7.2-rt guest, its short holds charged; 81.5-82.1
	 * otherwise, beside a make check) is the host's, not the driver's:
	 * tried again, at most three times.
	 */
	for (int i = 0; i < 3; i++) {
		base = owed_over_hold(_metadata, self->cpu, self->pol, "500", 0, &held);
		owed = owed_over_hold(_metadata, self->cpu, self->pol, "500", hold_us, &held);
		TH_LOG("emulate_held_us=500: held %ld ms: owed %.1f ms (%.1f ms without the hold), taken as held %.1f ms",
		       hold_us / 1000, owed / 1e6, base / 1e6, held / 1e6);
		if (held < (hold_us + 10000) * 1000LL)
			break;
	}
	/* Held once its timer was due: up to a period less than the hold. */
	EXPECT_GE(held, (hold_us - period_us) * 1000LL);
	EXPECT_LT(owed, base + owes / 4);
}

/* The fastest of three runs of spin_ms(): the host's noise only adds. */
static double min_spin_ms(unsigned long n)
{
	double best = spin_ms(n);

	for (int i = 0; i < 2; i++) {
		double t = spin_ms(n);

		if (t < best)
			best = t;
	}
	return best;
}

/*
 * emulate_cpus: a CPU left out runs at full speed whatever its clock, and
 * has no emulation timer (make experiment keeps CPU 0 so).  The suite loads
 * the driver with emulate_cpus=1: CPU 0 is out.
 */
TEST_F(emulated, only_the_listed_cpus_are_emulated)
{
	char buf[32] = "";
	FILE *f = fopen("/sys/module/ebtest_cpufreq/parameters/emulate_cpus", "r");
	int pol0 = policy_of(0);
	long long b0, b1;
	double full, slow;

	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(buf, sizeof(buf), f));
	fclose(f);
	ASSERT_EQ(0, strcmp(buf, "1\n")) TH_LOG("load ebtest_cpufreq with emulate_cpus=1, not %s", buf);
	ASSERT_NE(pol0, self->pol) TH_LOG("CPU 0 needs a policy of its own (shared=0)");
	ASSERT_EQ(0, set_policy_attr(pol0, "scaling_governor", "performance"));
	ASSERT_EQ(0, set_policy_attr(pol0, "scaling_governor", "eventboost"));
	ASSERT_EQ(0, pin(0));
	ASSERT_EQ(0, set_tunable(pol0, "base_freq", "4000000"));
	ASSERT_EQ(4000000, wait_khz(pol0, 4000000, 2000));
	full = min_spin_ms(1UL << 22);
	b0 = busy_ns(0, 800000);
	ASSERT_EQ(0, set_tunable(pol0, "base_freq", "800000"));
	ASSERT_EQ(800000, wait_khz(pol0, 800000, 2000));
	slow = min_spin_ms(1UL << 22);
	usleep(20000);
	b1 = busy_ns(0, 800000);
	set_tunable(pol0, "base_freq", "0");
	TH_LOG("CPU 0: %.1f ms at 4.0 GHz, %.1f ms at 0.8 GHz (emulated: 5x)", full, slow);
	/* Nothing accounted, and nowhere near 5x (the fastest of three). */
	EXPECT_EQ(b0, b1);
	EXPECT_LT(slow, full * 2);
}

TEST_HARNESS_MAIN
