// SPDX-License-Identifier: GPL-2.0
/*
 * eb_stress: the client side of the stress suite (stress.sh runs hotplug,
 * governor, tunable and limit changes around it).
 *
 *   eb_stress [-d SECONDS] [-p PROCS] [-t THREADS] [-s SEED]
 *   eb_stress -i		check that no policy is boosted and the driver
 *				runs every governed policy at its base
 *
 * PROCS worker processes of THREADS threads each open and close clients,
 * hint (GC, queue, timed boosts, ends), rebind and migrate at random; the
 * supervisor SIGKILLs a random worker every few ms and starts a new one.
 * Every call is valid: the only acceptable errors are EBUSY (budget) and,
 * for POLICY_STATS of an offline CPU, ENODEV.  A monitor thread samples
 * EB_IOC_POLICY_STATS of every CPU and checks the counters: monotone while
 * the policy stays governed, boosted_ns <= governed_ns, latency samples
 * <= applied.  Exit 0 if all held, 1 otherwise, 2 on a setup error.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "../eb_util.h"

#define MAX_PROCS	64

/* Counters shared with the workers (MAP_SHARED, survives their death). */
struct shared {
	atomic_ulong calls, ok, ebusy, enodev, opens;
	atomic_ulong unexpected;
	atomic_uint last_cmd, last_err;
};

static struct shared *sh;
static int ncpu_conf;
static volatile sig_atomic_t stop;

static void count(unsigned int cmd, int ret)
{
	atomic_fetch_add(&sh->calls, 1);
	if (!ret) {
		atomic_fetch_add(&sh->ok, 1);
	} else if (ret == EBUSY && cmd != EB_IOC_POLICY_STATS) {
		atomic_fetch_add(&sh->ebusy, 1);
	} else if (ret == ENODEV && cmd == EB_IOC_POLICY_STATS) {
		atomic_fetch_add(&sh->enodev, 1);
	} else {
		atomic_fetch_add(&sh->unexpected, 1);
		atomic_store(&sh->last_cmd, cmd);
		atomic_store(&sh->last_err, ret);
	}
}

static int call(int fd, unsigned int cmd, void *arg)
{
	int ret = ioctl(fd, cmd, arg) ? errno : 0;

	count(cmd, ret);
	return ret;
}

static int open_client(void)
{
	int fd = open(EB_DEV, O_RDWR | O_CLOEXEC);

	if (fd >= 0)
		atomic_fetch_add(&sh->opens, 1);
	else
		count(0, errno);
	return fd;
}

/* ---- worker processes ---- */

static int proc_fd;		/* one client per process, shared by its threads */

static void *worker_thread(void *p)
{
	static const unsigned int hints[] = {
		EB_IOC_GC_ENTER, EB_IOC_GC_EXIT, EB_IOC_QUEUE_BUSY, EB_IOC_QUEUE_IDLE,
	};
	uint64_t rs = (uintptr_t)p;
	int fd = open_client();

	for (;;) {
		unsigned int r = eb_below(&rs, 100);
		struct eb_boost_for b = { 0 };
		struct eb_bind bind = { 0 };
		struct eb_client_info ci;
		struct eb_policy_stats st;
		cpu_set_t set;

		if (r < 30) {
			call(fd, hints[eb_below(&rs, 4)], NULL);
		} else if (r < 45) {
			call(proc_fd, hints[eb_below(&rs, 4)], NULL);
		} else if (r < 60) {
			b.usec = 1 + eb_below(&rs, eb_below(&rs, 10) ? 20000 : 500000);
			call(eb_below(&rs, 2) ? fd : proc_fd, EB_IOC_BOOST_FOR, &b);
		} else if (r < 64) {
			call(fd, EB_IOC_BOOST_FOR, &b);		/* usec 0: end */
		} else if (r < 69) {
			close(fd);
			fd = open_client();
		} else if (r < 72) {
			call(proc_fd, EB_IOC_BIND, &bind);	/* to this thread */
		} else if (r < 78) {
			/* Migrate: the votes must follow (or the CPU may be offline). */
			CPU_ZERO(&set);
			if (eb_below(&rs, 3))
				CPU_SET(eb_below(&rs, ncpu_conf), &set);
			else
				for (int i = 0; i < ncpu_conf; i++)
					CPU_SET(i, &set);
			sched_setaffinity(0, sizeof(set), &set);
		} else if (r < 82) {
			call(fd, EB_IOC_CLIENT_INFO, &ci);
		} else if (r < 85) {
			memset(&st, 0, sizeof(st));
			st.cpu = eb_below(&rs, ncpu_conf);
			call(fd, EB_IOC_POLICY_STATS, &st);
		}
		/* Back to back, short sleeps, or a CPU burst like a GC pause. */
		r = eb_below(&rs, 8);
		if (r >= 1 && r <= 3) {
			eb_sleep_us(eb_below(&rs, 1000));
		} else if (r == 0) {
			uint64_t end = eb_now_ns() + eb_below(&rs, 1000) * 1000ull;

			while (eb_now_ns() < end)
				;
		}
	}
	return NULL;
}

static void worker_main(int nthreads, uint64_t seed)
{
	pthread_t t;

	proc_fd = open_client();
	for (int i = 1; i < nthreads; i++)
		if (pthread_create(&t, NULL, worker_thread,
				   (void *)(uintptr_t)eb_seed(seed, i)))
			_exit(2);
	worker_thread((void *)(uintptr_t)eb_seed(seed, 0));
}

/* ---- monitor: counter invariants from POLICY_STATS ---- */

struct sample {
	bool have;
	int64_t tb, ta;			/* clock around the ioctl */
	struct eb_policy_stats st;
};

static unsigned long samples, sessions, violations;

static void violation(int cpu, const char *what, unsigned long long a,
		      unsigned long long b)
{
	if (violations++ < 20)
		printf("# FAIL: cpu%d: %s (%llu -> %llu)\n", cpu, what, a, b);
}

/*
 * The governor started at tb - governed_ns .. ta - governed_ns.  Two samples
 * belong to one governed period if those ranges meet; a restart between
 * them cannot look the same when the first one's period is longer than both
 * ranges together, else we cannot tell and do not compare.
 */
static bool same_period(const struct sample *a, const struct sample *b)
{
	int64_t ga = a->st.governed_ns, gb = b->st.governed_ns;
	int64_t wa = a->ta - a->tb, wb = b->ta - b->tb;

	if (ga <= wa + wb)
		return false;
	return a->tb - ga <= b->ta - gb && b->tb - gb <= a->ta - ga;
}

static void check_sample(int cpu, const struct sample *prev,
			 const struct sample *cur)
{
	const struct eb_policy_stats *a = &prev->st, *b = &cur->st;
	unsigned long long lat = 0;

	for (int i = 0; i < EB_LAT_BUCKETS; i++)
		lat += b->latency[i];
	if (b->boosted_ns > b->governed_ns)
		violation(cpu, "boosted_ns > governed_ns", b->boosted_ns,
			  b->governed_ns);
	if (lat > b->applied)
		violation(cpu, "latency samples > applied", lat, b->applied);
	if (!prev->have || !same_period(prev, cur)) {
		sessions++;
		return;
	}
#define MONOTONE(f) do { \
		if (b->f < a->f) \
			violation(cpu, #f " went back", a->f, b->f); \
	} while (0)
	for (int i = 0; i < EB_NR_REASONS; i++)
		MONOTONE(hints[i]);
	for (int i = 0; i < EB_LAT_BUCKETS; i++)
		MONOTONE(latency[i]);
	MONOTONE(boosts);
	MONOTONE(boosted_ns);
	MONOTONE(watchdog_ends);
	MONOTONE(budget_ends);
	MONOTONE(refused);
	MONOTONE(applied);
#undef MONOTONE
}

static void *monitor(void *p)
{
	static struct sample last[EB_MAX_CPUS];
	int fd = open(EB_DEV, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	while (!stop) {
		for (int cpu = 0; cpu < ncpu_conf; cpu++) {
			struct sample s = { .have = true };

			s.tb = eb_now_ns();
			if (eb_policy_stats(fd, cpu, &s.st) ||
			    !(s.st.flags & EB_POLICY_GOVERNED)) {
				last[cpu].have = false;
				continue;
			}
			s.ta = eb_now_ns();
			samples++;
			check_sample(cpu, &last[cpu], &s);
			last[cpu] = s;
		}
		eb_sleep_us(10000);
	}
	close(fd);
	return NULL;
}

/* ---- after the run: nothing boosted, every policy at base ---- */

static int idle_check(void)
{
	struct eb_policy_stats st;
	struct eb_drv d;
	int fd = open(EB_DEV, O_RDWR | O_CLOEXEC), bad = 0;

	if (fd < 0) {
		perror("eb_stress: open");
		return 2;
	}
	for (int cpu = 0; cpu < ncpu_conf; cpu++) {
		bool done = false;
		long cur = -1;

		/* The worker path applies asynchronously: allow 5 s. */
		for (int t = 0; t < 500 && !done; t++) {
			if (eb_policy_stats(fd, cpu, &st) || eb_drv_read(&d, NULL, NULL) ||
			    st.policy_cpu >= EB_MAX_CPUS)
				break;
			cur = d.cur[st.policy_cpu];
			done = (st.flags & EB_POLICY_GOVERNED) &&
			       !(st.flags & EB_POLICY_BOOSTED) &&
			       st.target_khz == st.base_khz && cur == st.base_khz;
			if (!done)
				eb_sleep_us(10000);
		}
		printf("# cpu%d: policy%u flags %#x target %u base %u driver cur %ld: %s\n",
		       cpu, st.policy_cpu, st.flags, st.target_khz, st.base_khz, cur,
		       done ? "at base" : "NOT at base");
		bad |= !done;
	}
	close(fd);
	return bad;
}

/* ---- supervisor ---- */

static pid_t spawn(int nthreads, uint64_t seed)
{
	pid_t pid = fork();

	if (!pid) {
		worker_main(nthreads, seed);
		_exit(0);
	}
	return pid;
}

static void on_alarm(int sig)
{
	stop = 1;
}

int main(int argc, char **argv)
{
	int secs = 20, nprocs = 6, nthreads = 4, opt, status;
	unsigned long spawned = 0, killed = 0;
	uint64_t seed = 1, rs, t0;
	pid_t procs[MAX_PROCS];
	pthread_t mon;

	ncpu_conf = sysconf(_SC_NPROCESSORS_CONF);
	if (ncpu_conf > EB_MAX_CPUS)
		ncpu_conf = EB_MAX_CPUS;
	while ((opt = getopt(argc, argv, "d:p:t:s:i")) != -1) {
		switch (opt) {
		case 'i': return idle_check();
		case 'd': secs = atoi(optarg); break;
		case 'p': nprocs = atoi(optarg); break;
		case 't': nthreads = atoi(optarg); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		default:
			fprintf(stderr, "usage: eb_stress [-d SECONDS] [-p PROCS] [-t THREADS] [-s SEED]\n");
			return 2;
		}
	}
	if (nprocs < 1 || nprocs > MAX_PROCS || nthreads < 1 || secs < 1)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || access(EB_DEV, R_OK | W_OK)) {
		perror("eb_stress: setup");
		return 2;
	}
	memset(sh, 0, sizeof(*sh));
	rs = eb_seed(seed, 1000);
	t0 = eb_now_ns();
	signal(SIGALRM, on_alarm);
	alarm(secs);
	pthread_create(&mon, NULL, monitor, NULL);
	for (int i = 0; i < nprocs; i++, spawned++)
		procs[i] = spawn(nthreads, eb_rand(&rs));
	while (!stop) {
		int i = eb_below(&rs, nprocs);

		eb_sleep_us(5000 + eb_below(&rs, 45000));
		kill(procs[i], SIGKILL);
		waitpid(procs[i], &status, 0);
		killed++;
		if (!WIFSIGNALED(status))
			printf("# worker %d exited with %#x\n", procs[i], status);
		procs[i] = spawn(nthreads, eb_rand(&rs));
		spawned++;
	}
	for (int i = 0; i < nprocs; i++) {
		kill(procs[i], SIGKILL);
		waitpid(procs[i], &status, 0);
	}
	pthread_join(mon, NULL);

	printf("# eb_stress: %.1f s, %d procs x %d threads, spawned %lu, SIGKILLed %lu, clients opened %lu\n",
	       (eb_now_ns() - t0) / 1e9, nprocs, nthreads, spawned, killed + nprocs,
	       atomic_load(&sh->opens));
	printf("# calls %lu: ok %lu, EBUSY %lu, ENODEV %lu, unexpected %lu\n",
	       atomic_load(&sh->calls), atomic_load(&sh->ok),
	       atomic_load(&sh->ebusy), atomic_load(&sh->enodev),
	       atomic_load(&sh->unexpected));
	if (atomic_load(&sh->unexpected))
		printf("# FAIL: unexpected errors, last: cmd %#x %s\n",
		       atomic_load(&sh->last_cmd),
		       eb_errname(atomic_load(&sh->last_err)));
	printf("# monitor: %lu samples, %lu governed periods seen, %lu violations\n",
	       samples, sessions, violations);
	return atomic_load(&sh->unexpected) || violations ? 1 : 0;
}
