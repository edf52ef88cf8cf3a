// SPDX-License-Identifier: GPL-2.0
/*
 * hint_latency: how long until a frequency is applied, from the test
 * driver's record of changes (/dev/ebtest_cpufreq, timestamps from
 * ktime_get_ns(), i.e. CLOCK_MONOTONIC).
 *
 *   hint_latency hint [-b BOOST_CPU] [-o OTHER_CPU] [-n N] [-k BLOCK]
 *	eventboost: CLOCK_MONOTONIC just before EB_IOC_GC_ENTER to the
 *	driver's change to boost_freq, and whether the change landed before
 *	the ioctl returned.  Two ways, alternating in blocks:
 *	  same:  the client's bound thread hints itself, on BOOST_CPU;
 *	  cross: the bound thread spins on BOOST_CPU (an event loop at work)
 *	         and a thread on OTHER_CPU hints through the same fd.
 *	Each boost comes rate_limit_us (eventboost's tunable) after the
 *	last change: a boost after a quiet period, as the governor applies
 *	it inside the ioctl.  Needs eventboost on BOOST_CPU's policy,
 *	budget_pct=100, a large max_boost_us.
 *
 *   hint_latency burst -g GOVERNOR [-b CPU] [-n N] [-d SPIN_MS] [-i IDLE_MS]
 *	A stock governor's reaction: after IDLE_MS of idling (in 10 ms
 *	sleeps, so that the governor sees the CPU idle), a thread starts
 *	spinning on CPU at t0; reported are the first change to a higher
 *	frequency after t0 and the first change to the highest one.
 *	Selects GOVERNOR on CPU's policy and leaves it selected.
 *
 *   hint_latency uclamp [-b CPU] [-n N] [-d SPIN_MS] [-i IDLE_MS]
 *	The in-kernel alternative to a hint: per-task uclamp_min with
 *	schedutil.  As burst, but at t0 the thread raises its own uclamp_min
 *	to the maximum (one sched_setattr(), as a GC-enter hook would) and
 *	lowers it after SPIN_MS; reported are t0 to the first change to the
 *	highest frequency, and whether it landed before sched_setattr()
 *	returned.  SPIN_MS short enough that the spin alone does not reach
 *	the highest frequency (burst, same SPIN_MS, is the control).  A kernel
 *	without CONFIG_UCLAMP_TASK gives {"supported": false} and the reason.
 *	Selects schedutil on CPU's policy and leaves it selected.
 *
 *   hint_latency migrate [-b CPU_A] [-o CPU_B] [-n MOVES]
 *	Migration following: a thread holding a GC vote moves itself
 *	between the two CPUs (their own policies); the move to the new
 *	policy at boost_freq and the old one back at base_freq.
 *
 *   hint_latency ticks [-b CPU] [-n REPS] [-d SPIN_MS]
 *	What following costs: 1, 4, 16, 64 clients hold a vote while their
 *	thread spins on CPU; each of their timer callbacks (one per client
 *	per tick), timed by the kernel's timer tracepoints.  Needs tracefs.
 *
 * Prints one JSON object.  Needs root and ebtest_cpufreq.ko.
 */
#include "bench.h"	/* first: it defines _GNU_SOURCE */

#include <pthread.h>
#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

/*
 * sched_setattr()'s argument (SCHED_ATTR_SIZE_VER1) and flags, as the uapi
 * defines them: glibc 2.36 has no wrapper, and <linux/sched/types.h>
 * clashes with glibc's struct sched_param.
 */
struct uclamp_attr {
	uint32_t size, sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
	uint32_t sched_util_min, sched_util_max;
};
_Static_assert(sizeof(struct uclamp_attr) == 56, "SCHED_ATTR_SIZE_VER1");
#define SCHED_FLAG_KEEP_POLICY		0x08
#define SCHED_FLAG_KEEP_PARAMS		0x10
#define SCHED_FLAG_UTIL_CLAMP_MIN	0x20
#define UCLAMP_MAX_VALUE		1024	/* SCHED_CAPACITY_SCALE */

#define RECORD "/dev/ebtest_cpufreq"
#define EB_MAX_CPUS_BENCH 256
/*
 * A change not landed SLOW_NS after a hint is late (counted, still
 * measured).  One not landed STUCK_NS after it never will: the governor lost
 * the update.  The hint is then sent again and the iteration counted as
 * lost and left out.  (Under TCG a loaded host can stall a vCPU for a
 * hundred milliseconds; a lost update stays lost.)
 */
#define SLOW_NS		200000000ull
#define STUCK_NS	2000000000ull

struct change {
	uint64_t ts;
	unsigned int policy, on_cpu, khz;
	char path;
};

struct record {
	struct change *c;
	size_t n;
};

static void record_clear(void)
{
	int fd = open(RECORD, O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, "clear", 5) != 5)
		die(RECORD ": cannot clear: %s", strerror(errno));
	close(fd);
}

/* The recorded changes of one policy, oldest first. */
static void record_read(struct record *r, unsigned int policy)
{
	size_t len = 0, cap = 1 << 20;
	char *buf = malloc(cap), *line, *save;
	ssize_t n;
	int fd = open(RECORD, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !buf)
		die(RECORD ": %s", strerror(errno));
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += n;
		if (cap - len < 4096) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				die("out of memory");
		}
	}
	close(fd);
	buf[len] = '\0';

	free(r->c);
	r->c = calloc(len / 16 + 1, sizeof(*r->c));
	r->n = 0;
	if (!r->c)
		die("out of memory");
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct change c;
		unsigned long long seq, ts;

		if (sscanf(line, "change %llu %llu %u %u %u %c", &seq, &ts,
			   &c.policy, &c.on_cpu, &c.khz, &c.path) != 6 ||
		    c.policy != policy)
			continue;
		c.ts = ts;
		r->c[r->n++] = c;
	}
	free(buf);
}

/* ---------------------------------------------------------------- hint */

struct hint_iter {
	uint64_t t0, t1;	/* around EB_IOC_GC_ENTER */
	uint64_t t_exit;	/* just before EB_IOC_GC_EXIT */
	bool stuck;		/* the boost was lost, sent again */
};

struct hint_run {
	const char *name;
	struct samples lat, ioctl_ns;
	long before_return, after_return, missing, fast, target, on_boost_cpu;
	long stuck_enter, stuck_exit;	/* lost updates, see STUCK_NS */
	long slow;			/* changes later than SLOW_NS */
};

static int eb_fd, boost_cpu = 1, other_cpu;
static unsigned int base_khz, boost_khz, policy_cpu;
static uint64_t rate_limit_ns;	/* eventboost's rate_limit_us on the policy */
static volatile int spinning;

static struct eb_policy_stats policy_stats(void)
{
	struct eb_policy_stats st = { .cpu = boost_cpu };

	if (ioctl(eb_fd, EB_IOC_POLICY_STATS, &st))
		die("EB_IOC_POLICY_STATS: %s", strerror(errno));
	return st;
}

/* The bench's client, bound to the calling thread, which stays on @cpu. */
static void open_client(int cpu)
{
	pin_cpu(cpu);
	eb_fd = open("/dev/eventboost", O_RDWR | O_CLOEXEC);
	if (eb_fd < 0)
		die("/dev/eventboost: %s", strerror(errno));
}

/* eventboost's rate_limit_us on @cpu's policy, in ns. */
static uint64_t rate_limit_of(int cpu)
{
	long rl = cpufreq_read_long(cpu, "eventboost/rate_limit_us");

	if (rl < 0)
		die("cannot read CPU %d's eventboost/rate_limit_us", cpu);
	return (uint64_t)rl * 1000;
}

/* Wait (sleeping) until the policy runs at khz; false after max_ns. */
static bool wait_khz(unsigned int khz, uint64_t max_ns)
{
	uint64_t start = now_ns();

	while (policy_stats().cur_khz != khz) {
		if (now_ns() - start > max_ns)
			return false;
		sleep_ns(100000);
	}
	return true;
}

static void hint(unsigned long cmd)
{
	if (ioctl(eb_fd, cmd, 0))
		die("hint ioctl %#lx: %s", cmd, strerror(errno));
}

/*
 * Wait for the policy to reach @khz after hint @cmd; send the hint again if
 * the governor lost it (it stays at the other frequency with the decision
 * made).  Returns false for a lost update.
 */
static bool settle(struct hint_run *run, unsigned long cmd, unsigned int khz,
		   long *stuck)
{
	struct eb_policy_stats st;

	if (wait_khz(khz, SLOW_NS))
		return true;
	run->slow++;
	if (wait_khz(khz, STUCK_NS - SLOW_NS))
		return true;
	st = policy_stats();
	if (!(*stuck)++)
		fprintf(stderr, "bench: lost update: at %u kHz for %llu ms, decided %u kHz; hinting again\n",
			st.cur_khz, STUCK_NS / 1000000, st.target_khz);
	hint(cmd);
	if (!wait_khz(khz, STUCK_NS))
		die("policy did not reach %u kHz (at %u)", khz, policy_stats().cur_khz);
	return false;
}

/* One block of boosts from the calling thread; then match the record. */
static void hint_block(struct hint_run *run, struct hint_iter *it, long k)
{
	struct record rec = { 0 };
	size_t j = 0;
	long i;

	if (!wait_khz(base_khz, STUCK_NS))
		die("policy not at base_freq before a block");
	record_clear();
	for (i = 0; i < k; i++) {
		/*
		 * After the policy's rate_limit_us since the last change (the
		 * unboost just settled): a boost after a quiet period, which the
		 * governor applies inside the ioctl.  One within it waits for the
		 * rate timer, by design.  A little jitter so that hints do not
		 * phase-lock with ticks.
		 */
		sleep_ns(rate_limit_ns + 200000 + (uint64_t)(rand() % 800) * 1000);
		it[i].t0 = now_ns();
		hint(EB_IOC_GC_ENTER);
		it[i].t1 = now_ns();
		it[i].stuck = !settle(run, EB_IOC_GC_ENTER, boost_khz, &run->stuck_enter);
		it[i].t_exit = now_ns();
		hint(EB_IOC_GC_EXIT);
		settle(run, EB_IOC_GC_EXIT, base_khz, &run->stuck_exit);
	}

	record_read(&rec, policy_cpu);
	for (i = 0; i < k; i++) {
		while (j < rec.n && (rec.c[j].ts < it[i].t0 ||
				     rec.c[j].khz != boost_khz))
			j++;
		if (j == rec.n || rec.c[j].ts > it[i].t_exit) {
			run->missing++;
			continue;
		}
		if (it[i].stuck) {	/* applied only when hinted again */
			j++;
			continue;
		}
		samples_add(&run->lat, rec.c[j].ts - it[i].t0);
		samples_add(&run->ioctl_ns, it[i].t1 - it[i].t0);
		if (rec.c[j].ts <= it[i].t1)
			run->before_return++;
		else
			run->after_return++;
		if (rec.c[j].path == 'f')
			run->fast++;
		else
			run->target++;
		if ((int)rec.c[j].on_cpu == boost_cpu)
			run->on_boost_cpu++;
		j++;
	}
	free(rec.c);
}

struct cross_arg {
	struct hint_run *run;
	struct hint_iter *it;
	long k;
};

/* The hinting thread of a cross block, on OTHER_CPU. */
static void *cross_thread(void *p)
{
	struct cross_arg *a = p;

	pin_cpu(other_cpu);
	hint_block(a->run, a->it, a->k);
	spinning = 0;
	return NULL;
}

static void json_run(struct hint_run *r)
{
	json_open(r->name, '{');
	json_samples(&r->lat);
	json_samples(&r->ioctl_ns);
	json_u64("before_return", r->before_return);
	json_u64("after_return", r->after_return);
	json_u64("missing", r->missing);
	json_u64("path_fast", r->fast);
	json_u64("path_target", r->target);
	json_u64("on_boost_cpu", r->on_boost_cpu);
	json_u64("stuck_enter", r->stuck_enter);
	json_u64("stuck_exit", r->stuck_exit);
	json_u64("slow", r->slow);
	json_close('}');
}

static int run_hint(long n, long k)
{
	struct hint_run same = { .name = "same_cpu" }, cross = { .name = "cross_cpu" };
	struct eb_policy_stats st = { 0 };
	struct hint_iter *it = calloc(k, sizeof(*it));
	long done;

	if (!it)
		die("out of memory");
	open_client(boost_cpu);
	st.cpu = boost_cpu;
	if (ioctl(eb_fd, EB_IOC_POLICY_STATS, &st))
		die("EB_IOC_POLICY_STATS: %s", strerror(errno));
	if (!(st.flags & EB_POLICY_GOVERNED))
		die("eventboost does not govern CPU %d", boost_cpu);
	base_khz = st.base_khz;
	boost_khz = st.boost_khz;
	policy_cpu = st.policy_cpu;
	rate_limit_ns = rate_limit_of(boost_cpu);
	samples_init(&same.lat, "latency", n);
	samples_init(&same.ioctl_ns, "ioctl", n);
	samples_init(&cross.lat, "latency", n);
	samples_init(&cross.ioctl_ns, "ioctl", n);

	for (done = 0; done < n; done += k) {
		struct cross_arg a = { &cross, it, k };
		pthread_t t;

		if (k > n - done)
			a.k = k = n - done;
		hint_block(&same, it, k);

		spinning = 1;
		if (pthread_create(&t, NULL, cross_thread, &a))
			die("pthread_create failed");
		while (spinning)
			;
		pthread_join(t, NULL);
	}

	json_open(NULL, '{');
	json_str("mode", "hint");
	json_str("path", (st.flags & EB_POLICY_FAST_SWITCH) ? "fast_switch" : "worker");
	json_u64("boost_cpu", boost_cpu);
	json_u64("other_cpu", other_cpu);
	json_u64("base_khz", base_khz);
	json_u64("boost_khz", boost_khz);
	json_u64("rate_limit_us", rate_limit_ns / 1000);
	json_run(&same);
	json_run(&cross);
	json_close('}');
	putchar('\n');
	return 0;
}

/* -------------------------------------------------------------- uclamp */

/* The calling thread's uclamp_min: 0, or -errno. */
static int set_uclamp_min(unsigned int v)
{
	struct uclamp_attr a = {
		.size = sizeof(a),
		.sched_flags = SCHED_FLAG_KEEP_POLICY | SCHED_FLAG_KEEP_PARAMS |
			       SCHED_FLAG_UTIL_CLAMP_MIN,
		.sched_util_min = v,
	};

	return syscall(SYS_sched_setattr, 0, &a, 0) ? -errno : 0;
}

/* --------------------------------------------------------------- burst */

/*
 * @clamp: the uclamp mode (schedutil; the thread's uclamp_min raised to the
 * maximum at t0 and lowered after the spin), else a plain burst under @gov.
 */
static int run_burst(const char *gov, long n, long spin_ms, long idle_ms,
		     bool clamp)
{
	struct samples raise, top, call;
	struct record rec = { 0 };
	uint64_t *t0 = calloc(n, sizeof(*t0)), *t1 = calloc(n, sizeof(*t1));
	unsigned int *f0 = calloc(n, sizeof(*f0));
	long i, j, never_raised = 0, never_top = 0, before_return = 0;
	long max_khz, policy;
	size_t c;
	int err;

	if (!t0 || !t1 || !f0)
		die("out of memory");
	pin_cpu(boost_cpu);
	set_governor(boost_cpu, gov);
	max_khz = cpufreq_read_long(boost_cpu, "cpuinfo_max_freq");
	policy = cpufreq_read_long(boost_cpu, "related_cpus");	/* first CPU */
	if (max_khz <= 0 || policy < 0)
		die("cannot read CPU %d's policy", boost_cpu);
	if (clamp && (err = set_uclamp_min(0))) {
		json_open(NULL, '{');
		json_str("mode", "uclamp");
		json_u64("supported", 0);
		json_str("reason", err == -EOPNOTSUPP ?
			 "sched_setattr: EOPNOTSUPP (a kernel without CONFIG_UCLAMP_TASK)" :
			 strerror(-err));
		json_close('}');
		putchar('\n');
		return 0;
	}
	samples_init(&raise, "first_raise", n);
	samples_init(&top, "to_max", n);
	samples_init(&call, "syscall", n);

	record_clear();
	for (i = 0; i < n; i++) {
		uint64_t end;

		for (j = 0; j < idle_ms / 10; j++)
			sleep_ns(10000000);
		f0[i] = cpufreq_read_long(boost_cpu, "scaling_cur_freq");
		t0[i] = now_ns();
		if (clamp && (err = set_uclamp_min(UCLAMP_MAX_VALUE)))
			die("sched_setattr(uclamp_min %d): %s",
			    UCLAMP_MAX_VALUE, strerror(-err));
		t1[i] = now_ns();
		if (clamp)
			samples_add(&call, t1[i] - t0[i]);
		end = t0[i] + (uint64_t)spin_ms * 1000000;
		while (now_ns() < end)
			;
		if (clamp && set_uclamp_min(0))
			die("sched_setattr(uclamp_min 0) failed");
	}
	record_read(&rec, policy);

	for (i = 0, c = 0; i < n; i++) {
		uint64_t end = t0[i] + (uint64_t)spin_ms * 1000000;
		bool raised = false, topped = false;

		while (c < rec.n && rec.c[c].ts < t0[i])
			c++;
		for (; c < rec.n && rec.c[c].ts <= end; c++) {
			if (!raised && rec.c[c].khz > f0[i]) {
				samples_add(&raise, rec.c[c].ts - t0[i]);
				raised = true;
			}
			if (!topped && rec.c[c].khz >= max_khz) {
				samples_add(&top, rec.c[c].ts - t0[i]);
				before_return += rec.c[c].ts <= t1[i];
				topped = true;
			}
		}
		never_raised += !raised && f0[i] < max_khz;
		never_top += !topped && f0[i] < max_khz;
	}

	json_open(NULL, '{');
	json_str("mode", clamp ? "uclamp" : "burst");
	if (clamp)
		json_u64("supported", 1);
	json_str("governor", gov);
	json_u64("cpu", boost_cpu);
	json_u64("spin_ms", spin_ms);
	json_u64("idle_ms", idle_ms);
	json_u64("bursts", n);
	for (i = 0, j = 0; i < n; i++)
		j += f0[i] >= max_khz;
	json_u64("start_at_max", j);
	json_u64("never_raised", never_raised);
	json_u64("never_max", never_top);
	json_samples(&raise);
	json_samples(&top);
	if (clamp) {
		json_u64("rate_limit_us",
			 cpufreq_read_long(boost_cpu, "schedutil/rate_limit_us"));
		json_u64("before_return", before_return);
		json_samples(&call);
	}
	json_close('}');
	putchar('\n');
	return 0;
}

/* ------------------------------------------------------------- migrate */

/* CPU @cpu's policy stats through the bench's client. */
static struct eb_policy_stats stats_of(int cpu)
{
	struct eb_policy_stats st = { .cpu = cpu };

	if (ioctl(eb_fd, EB_IOC_POLICY_STATS, &st))
		die("EB_IOC_POLICY_STATS(%d): %s", cpu, strerror(errno));
	return st;
}

static double dabs(double x)
{
	return x < 0 ? -x : x;
}

/*
 * The kernel's HZ, from jiffies against CLOCK_MONOTONIC over 0.5 s
 * (/proc/timer_list), rounded to the values Kconfig offers; 0 if unknown.
 */
static long kernel_hz(void)
{
	static const long hzs[] = { 100, 250, 300, 1000 };
	unsigned long long j[2] = { 0, 0 };
	uint64_t t[2];
	char line[256];
	long best = 0;
	double hz;
	int i;

	for (i = 0; i < 2; i++) {
		FILE *f = fopen("/proc/timer_list", "r");

		if (!f)
			return 0;
		t[i] = now_ns();
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "jiffies: %llu", &j[i]) == 1)
				break;
		fclose(f);
		if (!i)
			sleep_ns(500000000);
	}
	if (!j[0] || j[1] <= j[0])
		return 0;
	hz = (double)(j[1] - j[0]) * 1e9 / (double)(t[1] - t[0]);
	for (i = 0; i < (int)(sizeof(hzs) / sizeof(hzs[0])); i++)
		if (!best || dabs(hz - hzs[i]) < dabs(hz - best))
			best = hzs[i];
	return dabs(hz - best) < best * 0.2 ? best : 0;
}

/*
 * migrate: a thread holding a GC vote moves itself between CPU A
 * (BOOST_CPU) and CPU B (OTHER_CPU), spinning where it is, as an event
 * loop the scheduler moved would.  The vote follows it when the client's
 * timer next looks (each tick while a vote is held).  Reported: the move
 * (just before sched_setaffinity()) to the new CPU's policy at boost_freq
 * and to the old one's back at base_freq.  Each move after rate_limit_us
 * of quiet, so that the rate limit holds back none.  The client's timer
 * fires on the CPU that armed it, A: split by direction, away from A (the
 * timer looks from the CPU the thread left) and back to A.
 */
static int run_migrate(long n)
{
	struct samples to_boost, from_base, away, back;
	struct record rec_a = { 0 }, rec_b = { 0 };
	uint64_t *t0 = calloc(n, sizeof(*t0));
	unsigned int pol[2];
	long i, stuck = 0, missing = 0;
	size_t ca = 0, cb = 0;
	int cpus[2] = { boost_cpu, other_cpu };
	struct eb_policy_stats st;

	if (!t0)
		die("out of memory");
	open_client(boost_cpu);
	for (i = 0; i < 2; i++) {
		st = stats_of(cpus[i]);
		if (!(st.flags & EB_POLICY_GOVERNED))
			die("eventboost does not govern CPU %d", cpus[i]);
		pol[i] = st.policy_cpu;
	}
	if (pol[0] == pol[1])
		die("CPUs %d and %d share a policy: a move changes nothing", cpus[0], cpus[1]);
	base_khz = st.base_khz;
	boost_khz = st.boost_khz;
	rate_limit_ns = rate_limit_of(boost_cpu);
	samples_init(&to_boost, "to_boost", n);
	samples_init(&from_base, "from_base", n);
	samples_init(&away, "to_boost_away", n);
	samples_init(&back, "to_boost_back", n);

	hint(EB_IOC_GC_ENTER);
	record_clear();
	for (i = 0; i < n; i++) {
		int to = cpus[(i + 1) & 1], from = cpus[i & 1];
		uint64_t deadline;

		/* quiet since the last change, a little jitter against ticks */
		sleep_ns(rate_limit_ns + 200000 + (uint64_t)(rand() % 800) * 1000);
		t0[i] = now_ns();
		pin_cpu(to);
		deadline = t0[i] + STUCK_NS;
		while (stats_of(to).cur_khz != boost_khz ||
		       stats_of(from).cur_khz != base_khz)
			if (now_ns() > deadline) {
				stuck++;
				break;
			}
	}
	hint(EB_IOC_GC_EXIT);
	record_read(&rec_a, pol[0]);
	record_read(&rec_b, pol[1]);

	for (i = 0; i < n; i++) {
		uint64_t end = i + 1 < n ? t0[i + 1] : UINT64_MAX;
		/* move i: from cpus[i & 1] to cpus[(i + 1) & 1] */
		struct record *rto = (i & 1) ? &rec_a : &rec_b;
		struct record *rfrom = (i & 1) ? &rec_b : &rec_a;
		size_t *cto = (i & 1) ? &ca : &cb, *cfrom = (i & 1) ? &cb : &ca;
		bool got = false;

		while (*cto < rto->n && rto->c[*cto].ts < t0[i])
			(*cto)++;
		if (*cto < rto->n && rto->c[*cto].ts < end &&
		    rto->c[*cto].khz == boost_khz) {
			samples_add(&to_boost, rto->c[*cto].ts - t0[i]);
			samples_add(i & 1 ? &back : &away, rto->c[*cto].ts - t0[i]);
			got = true;
		}
		while (*cfrom < rfrom->n && rfrom->c[*cfrom].ts < t0[i])
			(*cfrom)++;
		if (*cfrom < rfrom->n && rfrom->c[*cfrom].ts < end &&
		    rfrom->c[*cfrom].khz == base_khz)
			samples_add(&from_base, rfrom->c[*cfrom].ts - t0[i]);
		else
			got = false;
		missing += !got;
	}

	json_open(NULL, '{');
	json_str("mode", "migrate");
	json_str("path", (st.flags & EB_POLICY_FAST_SWITCH) ? "fast_switch" : "worker");
	json_u64("cpu_a", cpus[0]);
	json_u64("cpu_b", cpus[1]);
	json_u64("hz", kernel_hz());
	json_u64("rate_limit_us", rate_limit_ns / 1000);
	json_u64("moves", n);
	json_u64("missing", missing);
	json_u64("stuck", stuck);
	json_samples(&to_boost);
	json_samples(&away);
	json_samples(&back);
	json_samples(&from_base);
	json_close('}');
	putchar('\n');
	return 0;
}

/* --------------------------------------------------------------- ticks */

#define TRACEFS "/sys/kernel/tracing"

static void tracefs_write(const char *file, const char *val)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), TRACEFS "/%s", file);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0 || write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		die("%s: %s (is tracefs mounted?)", path, strerror(errno));
	close(fd);
}

struct cb_open {
	unsigned long long timer;
	double ts;
};

/*
 * From the trace: each eb_client_timer_fn callback's duration (entry to
 * exit of the same hrtimer on the same CPU), in ns (the trace prints
 * microseconds: each duration is off by less than 1 us, their mean is not).
 */
static void trace_callbacks(struct samples *dur)
{
	struct cb_open open_cb[EB_MAX_CPUS_BENCH];
	char line[512];
	FILE *f = fopen(TRACEFS "/trace", "r");
	int cpu;

	if (!f)
		die(TRACEFS "/trace: %s", strerror(errno));
	memset(open_cb, 0, sizeof(open_cb));
	while (fgets(line, sizeof(line), f)) {
		unsigned long long timer;
		char *p = strchr(line, '[');
		double ts;

		if (line[0] == '#' || !p || sscanf(p, "[%d] %*s %lf:", &cpu, &ts) != 2 ||
		    cpu < 0 || cpu >= EB_MAX_CPUS_BENCH)
			continue;
		if ((p = strstr(line, "hrtimer_expire_entry: hrtimer=")) &&
		    sscanf(p, "hrtimer_expire_entry: hrtimer=%llx", &timer) == 1) {
			open_cb[cpu].timer = strstr(p, "function=eb_client_timer_fn") ? timer : 0;
			open_cb[cpu].ts = ts;
		} else if ((p = strstr(line, "hrtimer_expire_exit: hrtimer=")) &&
			   sscanf(p, "hrtimer_expire_exit: hrtimer=%llx", &timer) == 1) {
			if (open_cb[cpu].timer && open_cb[cpu].timer == timer)
				samples_add(dur, (uint64_t)((ts - open_cb[cpu].ts) * 1e9 + 0.5));
			open_cb[cpu].timer = 0;
		}
	}
	fclose(f);
}

/*
 * ticks: what following costs.  While a client holds a vote its timer
 * fires each tick (on the CPU that armed it) to follow its thread.  N of
 * this thread's clients hold a GC vote for SPIN_MS while it spins on CPU;
 * the kernel's timer tracepoints time each callback.  Reported per N: the
 * callbacks per second and their duration (median, p99, mean).
 */
static int run_ticks(long reps, long spin_ms)
{
	static const int ns[] = { 1, 4, 16, 64 };
	const int nn = sizeof(ns) / sizeof(ns[0]);
	int fds[64];
	long hz, r, i, j;

	pin_cpu(boost_cpu);
	for (i = 0; i < 64; i++) {
		fds[i] = open("/dev/eventboost", O_RDWR | O_CLOEXEC);
		if (fds[i] < 0)
			die("/dev/eventboost: %s", strerror(errno));
	}
	eb_fd = fds[0];
	if (!(stats_of(boost_cpu).flags & EB_POLICY_GOVERNED))
		die("eventboost does not govern CPU %d", boost_cpu);
	hz = kernel_hz();
	tracefs_write("tracing_on", "0");
	tracefs_write("buffer_size_kb", "16384");
	tracefs_write("set_event", "");
	tracefs_write("events/timer/hrtimer_expire_entry/enable", "1");
	tracefs_write("events/timer/hrtimer_expire_exit/enable", "1");

	json_open(NULL, '{');
	json_str("mode", "ticks");
	json_u64("cpu", boost_cpu);
	json_u64("hz", hz);
	json_u64("repetitions", reps);
	json_u64("spin_ms", spin_ms);
	json_open("by_clients", '[');
	for (j = 0; j < nn; j++) {
		struct samples dur;
		uint64_t held = 0;
		double sum = 0;

		samples_init(&dur, "callback", (size_t)ns[j] * reps * (spin_ms + 50) * 1001 / 1000);
		for (r = 0; r < reps; r++) {
			uint64_t t0, end;

			tracefs_write("trace", "");
			tracefs_write("tracing_on", "1");
			t0 = now_ns();
			for (i = 0; i < ns[j]; i++)
				if (ioctl(fds[i], EB_IOC_GC_ENTER, 0))
					die("GC_ENTER: %s", strerror(errno));
			end = t0 + (uint64_t)spin_ms * 1000000;
			while (now_ns() < end)
				;
			for (i = 0; i < ns[j]; i++)
				ioctl(fds[i], EB_IOC_GC_EXIT, 0);
			held += now_ns() - t0;
			tracefs_write("tracing_on", "0");
			trace_callbacks(&dur);
		}
		for (i = 0; i < (long)dur.n; i++)
			sum += (double)dur.v[i];
		json_open(NULL, '{');
		json_u64("clients", ns[j]);
		json_u64("held_ns", held);
		json_dbl("callbacks_per_s", (double)dur.n * 1e9 / (double)held);
		json_dbl("cpu_pct", 100.0 * sum / (double)held);
		json_samples(&dur);
		json_close('}');
		free(dur.v);
	}
	json_close(']');
	json_close('}');
	putchar('\n');
	tracefs_write("set_event", "");
	for (i = 0; i < 64; i++)
		close(fds[i]);
	return 0;
}

int main(int argc, char **argv)
{
	long n = 400, k = 100, spin_ms = 200, idle_ms = 300;
	const char *mode = argc > 1 ? argv[1] : "", *gov = NULL;
	int opt;

	optind = 2;
	while ((opt = getopt(argc, argv, "b:o:n:k:g:d:i:")) != -1) {
		switch (opt) {
		case 'b':
			boost_cpu = atoi(optarg);
			break;
		case 'o':
			other_cpu = atoi(optarg);
			break;
		case 'n':
			n = atol(optarg);
			break;
		case 'k':
			k = atol(optarg);
			break;
		case 'g':
			gov = optarg;
			break;
		case 'd':
			spin_ms = atol(optarg);
			break;
		case 'i':
			idle_ms = atol(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (n < 1 || k < 1 || k > 1000 || spin_ms < 1 || idle_ms < 10)
		goto usage;
	srand(1);
	if (!strcmp(mode, "hint"))
		return run_hint(n, k);
	if (!strcmp(mode, "burst") && gov)
		return run_burst(gov, n, spin_ms, idle_ms, false);
	if (!strcmp(mode, "uclamp"))
		return run_burst("schedutil", n, spin_ms, idle_ms, true);
	if (!strcmp(mode, "migrate"))
		return run_migrate(n);
	if (!strcmp(mode, "ticks"))
		return run_ticks(n, spin_ms);
usage:
	fprintf(stderr,
		"usage: %s hint [-b BOOST_CPU] [-o OTHER_CPU] [-n N] [-k BLOCK<=1000]\n"
		"       %s burst -g GOVERNOR [-b CPU] [-n N] [-d SPIN_MS] [-i IDLE_MS]\n"
		"       %s uclamp [-b CPU] [-n N] [-d SPIN_MS] [-i IDLE_MS]\n"
		"       %s migrate [-b CPU_A] [-o CPU_B] [-n MOVES]\n"
		"       %s ticks [-b CPU] [-n REPS] [-d SPIN_MS]\n",
		argv[0], argv[0], argv[0], argv[0], argv[0]);
	return 2;
}
