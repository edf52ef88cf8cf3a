// SPDX-License-Identifier: GPL-2.0
/*
 * hint_cost: what one eventboost hint costs the caller, against references
 * measured on the same CPU in the same run:
 *
 *   hint_pair     EB_IOC_GC_ENTER + EB_IOC_GC_EXIT (each changes the
 *                 frequency: boost, then base)
 *   null_pair     two ioctls the device rejects at once (ENOTTY)
 *   sysfs_write   one scaling_setspeed write through a persistent fd, the
 *                 userspace governor's path (alternating base and boost
 *                 frequency, so that each write changes the frequency too)
 *   sysfs_open_write_close   the same write with open + write + close
 *   timer         two clock reads with nothing between (the overhead
 *                 included in every figure)
 *
 * and, to see where a hint's time goes:
 *
 *   hint_pair_nochange    the pair with boost_freq = base_freq: votes and
 *                         decisions, but no frequency change
 *   hint_pair_ungoverned  the pair while the userspace governor runs the
 *                         policy: only the client's bookkeeping
 *
 * Rounds alternate between the eventboost governor (hints and null ioctls,
 * interleaved) and the userspace governor (sysfs writes and null ioctls,
 * interleaved), so that host noise falls on all of them alike.
 *
 *   hint_cost [-c CPU] [-n ITERATIONS-PER-ROUND] [-r ROUNDS]
 *
 * Needs root, eventboost governing CPU's policy, and the cpufreq_userspace
 * governor.  While eventboost runs, budget_pct=100 and max_boost_us=10 s,
 * so that neither ends a vote.  Prints one JSON object.
 */
#include "bench.h"	/* first: it defines _GNU_SOURCE */

#include <sys/ioctl.h>

static int eb_fd, cpu = 1;

static void hint(unsigned long cmd)
{
	if (ioctl(eb_fd, cmd, 0))
		die("hint ioctl %#lx: %s", cmd, strerror(errno));
}

static void null_ioctl(void)
{
	if (ioctl(eb_fd, EB_IOC_NULL, 0) != -1 || errno != ENOTTY)
		die("null ioctl did not fail with ENOTTY");
}

static void write_all(int fd, const char *s)
{
	if (pwrite(fd, s, strlen(s), 0) != (ssize_t)strlen(s))
		die("scaling_setspeed write: %s", strerror(errno));
}

static void tunable(const char *name, const char *val)
{
	char attr[64];
	int ret;

	snprintf(attr, sizeof(attr), "eventboost/%s", name);
	ret = cpufreq_write(cpu, attr, val);
	if (ret)
		die("cannot set %s=%s: %s", name, val, strerror(-ret));
}

/* Select eventboost and set the tunables this needs (a switch keeps them). */
static void select_eventboost(void)
{
	set_governor(cpu, "eventboost");
	tunable("budget_pct", "100");
	tunable("max_boost_us", "10000000");
}

/* Hint pairs interleaved with null pairs (and, if given, timer reads). */
static void hint_pairs(long iters, struct samples *pair, struct samples *enter,
		       struct samples *exitt, struct samples *null,
		       struct samples *timer)
{
	uint64_t t0, t1, t2;
	long i;

	for (i = 0; i < iters; i++) {
		t0 = now_ns();
		hint(EB_IOC_GC_ENTER);
		t1 = now_ns();
		hint(EB_IOC_GC_EXIT);
		t2 = now_ns();
		samples_add(pair, t2 - t0);
		if (enter) {
			samples_add(enter, t1 - t0);
			samples_add(exitt, t2 - t1);
		}

		t0 = now_ns();
		null_ioctl();
		null_ioctl();
		t1 = now_ns();
		samples_add(null, t1 - t0);

		if (timer) {
			t0 = now_ns();
			t1 = now_ns();
			samples_add(timer, t1 - t0);
		}
	}
}

/* scaling_setspeed writes (persistent fd; open+write+close), null pairs. */
static void sysfs_writes(long iters, char khz[2][32], struct samples *sw,
			 struct samples *owc, struct samples *null)
{
	char path[256];
	uint64_t t0, t1;
	int set_fd, fd;
	long i;

	snprintf(path, sizeof(path), CPUFREQ_CPU, cpu, "scaling_setspeed");
	set_fd = open(path, O_WRONLY | O_CLOEXEC);
	if (set_fd < 0)
		die("%s: %s", path, strerror(errno));
	for (i = 0; i < iters; i++) {
		t0 = now_ns();
		write_all(set_fd, khz[!(i & 1)]);
		t1 = now_ns();
		samples_add(sw, t1 - t0);

		t0 = now_ns();
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			die("%s: %s", path, strerror(errno));
		write_all(fd, khz[i & 1]);
		close(fd);
		t1 = now_ns();
		samples_add(owc, t1 - t0);

		t0 = now_ns();
		null_ioctl();
		null_ioctl();
		t1 = now_ns();
		samples_add(null, t1 - t0);
	}
	close(set_fd);
}

int main(int argc, char **argv)
{
	struct samples pair, enter, exitt, null_a, null_b, sw, owc, timer;
	struct samples pair_nc, null_nc, pair_ug, null_ug;
	struct eb_policy_stats st = { 0 };
	int rounds = 6, opt, round;
	long iters = 2000, total;
	char khz[2][32];

	while ((opt = getopt(argc, argv, "c:n:r:")) != -1) {
		switch (opt) {
		case 'c':
			cpu = atoi(optarg);
			break;
		case 'n':
			iters = atol(optarg);
			break;
		case 'r':
			rounds = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [-c CPU] [-n ITER] [-r ROUNDS]\n",
				argv[0]);
			return 2;
		}
	}
	if (iters < 1 || rounds < 1)
		die("-n and -r must be positive");
	pin_cpu(cpu);

	/* The client is bound to this thread, on CPU. */
	eb_fd = open("/dev/eventboost", O_RDWR | O_CLOEXEC);
	if (eb_fd < 0)
		die("/dev/eventboost: %s", strerror(errno));
	select_eventboost();
	st.cpu = cpu;
	if (ioctl(eb_fd, EB_IOC_POLICY_STATS, &st))
		die("EB_IOC_POLICY_STATS: %s", strerror(errno));
	if (!(st.flags & EB_POLICY_GOVERNED))
		die("eventboost does not govern CPU %d", cpu);
	snprintf(khz[0], sizeof(khz[0]), "%u", st.base_khz);
	snprintf(khz[1], sizeof(khz[1]), "%u", st.boost_khz);

	total = iters * rounds;
	samples_init(&pair, "hint_pair", total);
	samples_init(&enter, "hint_enter", total);
	samples_init(&exitt, "hint_exit", total);
	samples_init(&null_a, "null_pair", total);
	samples_init(&timer, "timer", total);
	samples_init(&pair_nc, "hint_pair_nochange", total);
	samples_init(&null_nc, "null_pair_nochange", total);
	samples_init(&sw, "sysfs_write", total);
	samples_init(&owc, "sysfs_open_write_close", total);
	samples_init(&null_b, "null_pair_userspace", total);
	samples_init(&pair_ug, "hint_pair_ungoverned", total);
	samples_init(&null_ug, "null_pair_ungoverned", total);

	for (round = 0; round < rounds; round++) {
		select_eventboost();
		hint_pairs(iters, &pair, &enter, &exitt, &null_a, &timer);
		tunable("boost_freq", khz[0]);
		hint_pairs(iters / 2, &pair_nc, NULL, NULL, &null_nc, NULL);
		tunable("boost_freq", "0");

		set_governor(cpu, "userspace");
		sysfs_writes(iters, khz, &sw, &owc, &null_b);
		hint_pairs(iters / 2, &pair_ug, NULL, NULL, &null_ug, NULL);
	}
	select_eventboost();

	json_open(NULL, '{');
	json_u64("cpu", cpu);
	json_str("path", (st.flags & EB_POLICY_FAST_SWITCH) ? "fast_switch" : "worker");
	json_u64("base_khz", st.base_khz);
	json_u64("boost_khz", st.boost_khz);
	json_u64("rounds", rounds);
	json_u64("iterations_per_round", iters);
	json_samples(&pair);
	json_samples(&enter);
	json_samples(&exitt);
	json_samples(&null_a);
	json_samples(&null_b);
	json_samples(&sw);
	json_samples(&owc);
	json_samples(&timer);
	json_samples(&pair_nc);
	json_samples(&null_nc);
	json_samples(&pair_ug);
	json_samples(&null_ug);
	json_close('}');
	putchar('\n');
	close(eb_fd);
	return 0;
}
