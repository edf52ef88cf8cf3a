// SPDX-License-Identifier: GPL-2.0
/*
 * libeventboost against the real module, in the guest (run_guest.sh), with
 * ebtest_cpufreq in per-CPU fast-switch mode: base 2.6 GHz, boost 4.0 GHz.
 * Written from eventboost.h alone, as a user would.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "eventboost.h"

#define BASE	2600000u
#define BOOST	4000000u

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* The policy's frequency as eventboost sees it (policy->cur). */
static unsigned int cur_khz(struct eb_client *c, int cpu)
{
	struct eb_stats st;

	return eb_stats(c, cpu, &st) ? 0 : st.cur_khz;
}

/*
 * The policy's frequency once it is @want, or after 2 s: a change within
 * rate_limit_us (1 ms) of the previous one lands when the interval ends.
 */
static unsigned int khz_soon(struct eb_client *c, int cpu, unsigned int want)
{
	unsigned int khz = cur_khz(c, cpu);

	for (int i = 0; i < 400 && khz != want; i++) {
		usleep(5000);
		khz = cur_khz(c, cpu);
	}
	return khz;
}

TEST(open_errors_say_what_to_do)
{
	struct eb_client *c = (void *)1;

	EXPECT_EQ(-ENOENT, eb_open(&c, "/dev/no-such-eventboost"));
	EXPECT_EQ(NULL, c);
	EXPECT_NE(NULL, strstr(eb_strerror(-ENOENT), "modprobe eventboost"));
	EXPECT_EQ(-ENOTTY, eb_open(&c, "/dev/null"));
	EXPECT_NE(NULL, strstr(eb_strerror(-EACCES), "group"));
	EXPECT_NE(NULL, strstr(eb_strerror(-EPROTO), "ABI"));
	EXPECT_NE(NULL, strstr(eb_strerror(-EBUSY), "budget"));
	EXPECT_EQ(-EINVAL, eb_gc_enter(NULL));
	eb_close(NULL);
	/* EVENTBOOST_DEVICE is used when the argument is NULL */
	setenv("EVENTBOOST_DEVICE", "/dev/no-such-eventboost", 1);
	EXPECT_EQ(-ENOENT, eb_open(&c, NULL));
	setenv("EVENTBOOST_DEVICE", "/dev/eventboost", 1);
	ASSERT_EQ(0, eb_open(&c, NULL));
	eb_close(c);
	unsetenv("EVENTBOOST_DEVICE");
}

TEST(every_call_acts_on_the_bound_threads_core)
{
	struct eb_client *c;
	struct eb_stats st0, st;

	ASSERT_EQ(0, pin(1));
	ASSERT_EQ(0, eb_open(&c, NULL));
	ASSERT_EQ(0, eb_stats(c, 1, &st0));
	EXPECT_TRUE(st0.governed);
	EXPECT_EQ(BASE, st0.cur_khz);
	ASSERT_EQ(0, eb_gc_enter(c));
	EXPECT_EQ(BOOST, khz_soon(c, 1, BOOST));
	EXPECT_EQ(BASE, khz_soon(c, 0, BASE));
	ASSERT_EQ(0, eb_gc_exit(c));
	EXPECT_EQ(BASE, khz_soon(c, 1, BASE));
	ASSERT_EQ(0, eb_queue_busy(c));
	EXPECT_EQ(BOOST, khz_soon(c, 1, BOOST));
	ASSERT_EQ(0, eb_queue_idle(c));
	EXPECT_EQ(BASE, khz_soon(c, 1, BASE));
	ASSERT_EQ(0, eb_boost_for(c, 5000000));
	EXPECT_EQ(BOOST, khz_soon(c, 1, BOOST));
	ASSERT_EQ(0, eb_boost_for(c, 0));
	EXPECT_EQ(BASE, khz_soon(c, 1, BASE));
	EXPECT_EQ(-EINVAL, eb_boost_for(c, 10000001));

	ASSERT_EQ(0, eb_stats(c, 1, &st));
	EXPECT_EQ(1u, st.policy_cpu);
	EXPECT_EQ(st0.hints_gc + 2, st.hints_gc);
	EXPECT_EQ(st0.hints_queue + 2, st.hints_queue);
	EXPECT_EQ(st0.hints_timed + 2, st.hints_timed);
	EXPECT_EQ(st0.boosts + 3, st.boosts);
	EXPECT_EQ(BASE, st.base_khz);
	EXPECT_EQ(BOOST, st.boost_khz);
	EXPECT_GT(eb_latency_percentile_us(&st, 50), 0);
	EXPECT_GE(eb_latency_percentile_us(&st, 99), eb_latency_percentile_us(&st, 50));
	EXPECT_EQ(-EINVAL, eb_stats(c, 100000, &st));
	eb_close(c);
	/* closing undid the votes */
	ASSERT_EQ(0, eb_open(&c, NULL));
	EXPECT_EQ(BASE, khz_soon(c, 1, BASE));
	eb_close(c);
}

/*
 * Read (into @old, if not NULL) and write a tunable of CPU @cpu's policy;
 * 0 on success.
 */
static int tunable(int cpu, const char *name, char old[32], const char *val)
{
	char path[128];
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpufreq/policy%d/eventboost/%s", cpu, name);
	if (old) {
		f = fopen(path, "r");
		if (!f || !fgets(old, 32, f))
			ret = -EIO;
		if (f)
			fclose(f);
		if (ret)
			return ret;
	}
	f = fopen(path, "w");
	if (!f)
		return -errno;
	ret = fputs(val, f) < 0 ? -EIO : 0;
	return fclose(f) ? -errno : ret;
}

TEST(votes_say_what_the_kernel_holds)
{
	struct eb_client *c;

	ASSERT_EQ(0, pin(1));
	ASSERT_EQ(0, eb_open(&c, NULL));
	EXPECT_EQ(0, eb_votes(c));
	ASSERT_EQ(0, eb_gc_enter(c));
	EXPECT_EQ((int)EB_HOLDS_GC, eb_votes(c));
	ASSERT_EQ(0, eb_queue_busy(c));
	ASSERT_EQ(0, eb_boost_for(c, 5000000));
	EXPECT_EQ((int)(EB_HOLDS_GC | EB_HOLDS_QUEUE | EB_HOLDS_TIMED), eb_votes(c));
	ASSERT_EQ(0, eb_gc_exit(c));
	ASSERT_EQ(0, eb_boost_for(c, 0));
	EXPECT_EQ((int)EB_HOLDS_QUEUE, eb_votes(c));
	ASSERT_EQ(0, eb_queue_idle(c));
	EXPECT_EQ(0, eb_votes(c));
	EXPECT_EQ(-EINVAL, eb_votes(NULL));
	eb_close(c);
}

/* A 20 ms watchdog on CPU 1's policy, the old value back however the test ends. */
FIXTURE(watchdog) {
	char max_boost[32];
	struct eb_client *c;
};

FIXTURE_SETUP(watchdog)
{
	self->c = NULL;
	ASSERT_EQ(0, pin(1));
	ASSERT_EQ(0, tunable(1, "max_boost_us", self->max_boost, "20000"));
	ASSERT_EQ(0, eb_open(&self->c, NULL));
}

FIXTURE_TEARDOWN(watchdog)
{
	eb_close(self->c);
	EXPECT_EQ(0, tunable(1, "max_boost_us", NULL, self->max_boost));
}

TEST_F(watchdog, a_vote_the_watchdog_ended_is_no_longer_held)
{
	struct eb_stats st0, st, again;
	int i, v;

	ASSERT_EQ(0, eb_stats(self->c, 1, &st0));
	ASSERT_EQ(0, eb_queue_busy(self->c));
	v = eb_votes(self->c);
	for (i = 0; i < 400 && v == (int)EB_HOLDS_QUEUE; i++) {
		usleep(5000);
		v = eb_votes(self->c);
	}
	EXPECT_EQ(0, v);
	ASSERT_EQ(0, eb_stats(self->c, 1, &st));
	EXPECT_EQ(st0.watchdog_ends + 1, st.watchdog_ends);
	/*
	 * The program still "holds" it; voting again holds it again, until
	 * the next watchdog end (a guest's vCPU may stall past 20 ms).
	 */
	ASSERT_EQ(0, eb_queue_busy(self->c));
	v = eb_votes(self->c);
	if (v != (int)EB_HOLDS_QUEUE) {
		ASSERT_EQ(0, eb_stats(self->c, 1, &again));
		EXPECT_EQ(st.watchdog_ends + 1, again.watchdog_ends);
	}
	EXPECT_TRUE(v == (int)EB_HOLDS_QUEUE || v == 0) TH_LOG("votes %d", v);
	ASSERT_EQ(0, eb_queue_idle(self->c));
}

TEST(latency_percentile_from_histogram)
{
	struct eb_stats st;

	memset(&st, 0, sizeof(st));
	EXPECT_EQ(-ENODATA, eb_latency_percentile_us(&st, 50));
	st.latency[0] = 90;	/* < 1 us */
	st.latency[5] = 10;	/* [16, 32) us */
	EXPECT_EQ(1, eb_latency_percentile_us(&st, 50));
	EXPECT_EQ(1, eb_latency_percentile_us(&st, 90));
	EXPECT_EQ(32, eb_latency_percentile_us(&st, 99));
	EXPECT_EQ(-EINVAL, eb_latency_percentile_us(&st, 101));
	/* The last bucket (>= 16384 us) has no bound: 32768 says so. */
	st.latency[15] = 100;
	EXPECT_EQ(32768, eb_latency_percentile_us(&st, 99));
}

struct shared {
	struct eb_client *c;
	int cpu, errors;
};

static void *hammer(void *p)
{
	struct shared *s = p;

	pin(s->cpu);
	for (int i = 0; i < 1000; i++) {
		if (eb_gc_enter(s->c) || eb_queue_busy(s->c) ||
		    eb_gc_exit(s->c) || eb_queue_idle(s->c))
			s->errors++;
	}
	return NULL;
}

TEST(one_client_from_several_threads)
{
	struct shared s[4];
	struct eb_client *c;
	pthread_t t[4];

	ASSERT_EQ(0, pin(1));
	/* Thread safety, not the budget: on a slow guest 4000 boosts can spend it. */
	ASSERT_EQ(0, tunable(1, "budget_pct", NULL, "100"));
	ASSERT_EQ(0, eb_open(&c, NULL));
	for (int i = 0; i < 4; i++) {
		s[i] = (struct shared){ .c = c, .cpu = i % 2 };
		ASSERT_EQ(0, pthread_create(&t[i], NULL, hammer, &s[i]));
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		EXPECT_EQ(0, s[i].errors);
	}
	EXPECT_EQ(BASE, cur_khz(c, 1));
	eb_close(c);
}

static void *open_and_exit(void *p)
{
	struct eb_client **c = p;

	pin(1);
	if (eb_open(c, NULL) || eb_gc_enter(*c)) {
		eb_close(*c);
		*c = NULL;
	}
	return NULL;
}

TEST(bound_thread_gone_then_rebind)
{
	struct eb_client *c = NULL;
	pthread_t t;

	ASSERT_EQ(0, pin(1));
	ASSERT_EQ(0, pthread_create(&t, NULL, open_and_exit, &c));
	pthread_join(t, NULL);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(BASE, khz_soon(c, 1, BASE));
	EXPECT_EQ(-ESRCH, eb_gc_enter(c));
	EXPECT_NE(NULL, strstr(eb_strerror(-ESRCH), "eb_bind"));
	ASSERT_EQ(0, eb_bind(c, 0));
	ASSERT_EQ(0, eb_gc_enter(c));
	/* within rate_limit_us of the step to base: the boost may wait */
	EXPECT_EQ(BOOST, khz_soon(c, 1, BOOST));
	/* a thread of another process is out of reach */
	EXPECT_EQ(-ESRCH, eb_bind(c, 1));
	eb_close(c);
}

TEST_HARNESS_MAIN
