// SPDX-License-Identifier: GPL-2.0
/*
 * Hints for trace_test.sh, from the calling process pinned to one CPU:
 *   eb_trace_helper votes CPU   GC, queue and timed votes held together,
 *                               then let go (one hint shows gc|queue|timed)
 *   eb_trace_helper watchdog CPU  a GC vote never let go, until the
 *                               watchdog (max_boost_us) ends it
 *   eb_trace_helper budget CPU  clients of processes of their own boost
 *                               one after the other, each until its
 *                               share of the budget ends it, until the
 *                               policy's budget is spent
 * Exit 0 when done, 1 with a message otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "eventboost.h"

#define MAX_CLIENTS	64

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static int fail(const char *what, int err)
{
	fprintf(stderr, "eb_trace_helper: %s: %s\n", what, eb_strerror(err));
	return 1;
}

static int votes(struct eb_client *c)
{
	int ret;

	ret = eb_gc_enter(c);
	if (!ret)
		ret = eb_queue_busy(c);
	if (!ret)
		ret = eb_boost_for(c, 2000000);
	if (ret)
		return fail("vote", ret);
	ret = eb_gc_exit(c);
	if (!ret)
		ret = eb_queue_idle(c);
	if (!ret)
		ret = eb_boost_for(c, 0);
	return ret ? fail("end vote", ret) : 0;
}

static int watchdog(struct eb_client *c, int cpu)
{
	unsigned long long ends;
	struct eb_stats st;
	int ret, wait;

	ret = eb_stats(c, cpu, &st);
	if (ret)
		return fail("stats", ret);
	ends = st.watchdog_ends;
	ret = eb_gc_enter(c);
	if (ret)
		return fail("gc enter", ret);
	for (wait = 0; wait < 10000; wait++) {
		ret = eb_stats(c, cpu, &st);
		if (ret)
			return fail("stats", ret);
		if (st.watchdog_ends > ends)
			return eb_gc_exit(c) ? 1 : 0;
		sleep_ms(1);
	}
	fprintf(stderr, "eb_trace_helper: the watchdog did not end the vote\n");
	return 1;
}

/*
 * A timed boost held until it ends: share, policy budget (or watchdog).
 * 0, -EBUSY if refused, 1 on another error (with a message).
 */
static int boost_held(struct eb_client *c, int cpu)
{
	struct eb_stats st;
	int ret, wait;

	ret = eb_boost_for(c, 5000000);
	if (ret == -EBUSY)
		return ret;
	if (ret)
		return fail("boost", ret);
	for (wait = 0; wait < 5000; wait++) {
		ret = eb_stats(c, cpu, &st);
		if (ret)
			return fail("stats", ret);
		if (!st.boosted)
			break;
		sleep_ms(1);
	}
	return 0;
}

/* boost_held() by a client of a new process, with a share of its own. */
static int boost_held_elsewhere(int cpu)
{
	struct eb_client *c;
	int ret, status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return fail("fork", -errno);
	if (!pid) {
		ret = eb_open(&c, NULL);
		if (ret)
			_exit(fail("open", ret));
		ret = boost_held(c, cpu);
		_exit(ret == -EBUSY ? 3 : ret);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 1;
	return WEXITSTATUS(status) == 3 ? -EBUSY : WEXITSTATUS(status);
}

/*
 * One process may hold its votes for half the budget per window: the
 * policy spends it only with a second and a third one.  A window may roll
 * over between them, so go on until the policy counts a budget end.
 */
static int budget(struct eb_client *first, int cpu)
{
	unsigned long long ends;
	struct eb_stats st;
	int i, ret;

	ret = eb_stats(first, cpu, &st);
	if (ret)
		return fail("stats", ret);
	ends = st.budget_ends;
	for (i = 0; i < MAX_CLIENTS; i++) {
		ret = i ? boost_held_elsewhere(cpu) : boost_held(first, cpu);
		if (ret > 0)
			return ret;
		ret = eb_stats(first, cpu, &st);
		if (ret)
			return fail("stats", ret);
		if (st.budget_ends > ends) {
			printf("budget spent after %d clients\n", i + 1);
			return 0;
		}
		sleep_ms(10);
	}
	fprintf(stderr, "eb_trace_helper: no budget end after %d clients\n",
		MAX_CLIENTS);
	return 1;
}

int main(int argc, char **argv)
{
	struct eb_client *c;
	cpu_set_t set;
	int cpu, ret;

	if (argc != 3 || (strcmp(argv[1], "votes") &&
			  strcmp(argv[1], "watchdog") &&
			  strcmp(argv[1], "budget"))) {
		fprintf(stderr, "usage: eb_trace_helper votes|watchdog|budget CPU\n");
		return 2;
	}
	cpu = atoi(argv[2]);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return 1;
	}
	ret = eb_open(&c, NULL);
	if (ret)
		return fail("open", ret);
	if (!strcmp(argv[1], "votes"))
		return votes(c);
	if (!strcmp(argv[1], "watchdog"))
		return watchdog(c, cpu);
	return budget(c, cpu);
}
