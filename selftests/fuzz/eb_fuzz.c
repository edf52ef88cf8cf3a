// SPDX-License-Identifier: GPL-2.0
/*
 * eb_fuzz: ioctl fuzzer for /dev/eventboost.  Run as root in a guest with
 * eventboost.ko and ebtest_cpufreq loaded, every policy on eventboost.
 *
 *   eb_fuzz [-n CALLS | -d SECONDS] [-s SEED] [-j THREADS]
 *
 * Every call is generated together with what the ABI (uapi/linux/eventboost.h)
 * says must happen: valid calls succeed (or get EBUSY when the budget is
 * spent), invalid ones fail with their errno (ENOTTY unknown command, EINVAL
 * bad value or reserved field, EFAULT bad pointer, ESRCH foreign thread,
 * EPERM from another process).  Commands in and out of the magic, random
 * sizes and directions, NULL/unmapped/PROT_NONE/read-only/kernel/page-edge
 * pointers.
 *
 * Phase 1 (first tenth, one thread, several fds, forked children using
 * inherited fds): around every invalid call the policies' hint and refusal
 * counters and every client's votes are read back; an invalid call must
 * not count a hint nor add a vote or extend a timed boost.  Phase 2 (the
 * rest): THREADS threads on shared and own fds, reopening them, forking
 * children that exit or are SIGKILLed with clients open.  At the end no
 * policy may be boosted and the driver must be back at the decided
 * frequency.  Exit 0 if all held, 1 otherwise, 2 on a setup error.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "../eb_util.h"

#define MAX_THREADS	32
#define NFDS		4		/* shared fds of the main thread */
#define OWN_FDS		2		/* per thread in phase 2 */
#define NERR		16		/* errno buckets: eb_errname() order */

/* Pointers that must give EFAULT (ro: only where the kernel writes). */
static struct {
	char *unmapped, *none, *ro, *edge_page;
	long page;
} mem;

static pid_t helper_tids[MAX_THREADS];	/* our threads: bindable */
static int nhelpers;
static pid_t foreign_pid;		/* another process: never bindable */
static int ncpu;
static int nfail;
static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;

static atomic_ulong ncalls, nvalid, ninvalid, nforeign, nchildren;
static atomic_ulong counts[2][NERR];	/* [invalid][errno bucket] */

static const int buckets[NERR] = {
	0, EPERM, ENOENT, ESRCH, EINTR, EBADF, ENOMEM, EFAULT, EBUSY, ENODEV,
	EINVAL, ENOTTY, EACCES, EOPNOTSUPP, -1, -1,
};

struct call {
	unsigned int cmd;
	unsigned long arg;
	bool invalid;
	int expect;		/* errno an invalid call must fail with */
	int also;		/* valid call: another acceptable errno */
	bool client_cmd;	/* acts on the client: EPERM elsewhere */
	bool hint_arg;		/* hint with a non-zero argument */
	bool unmapped;		/* arg is the unmapped page */
	const char *what;
	union {
		struct eb_boost_for b;
		struct eb_bind bind;
		struct eb_version v;
		struct eb_client_info ci;
		struct eb_policy_stats st;
		unsigned char raw[512];
	} buf;
};

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&report_lock);
	if (nfail++ < 20) {
		printf("# FAIL: ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
		fflush(stdout);
	}
	pthread_mutex_unlock(&report_lock);
}

static int bucket(int err)
{
	for (int i = 0; i < NERR; i++)
		if (buckets[i] == err)
			return i;
	return NERR - 1;
}

/* The ioctl's magic also holds generic VFS commands (FIOCLEX, FIGETBSZ,
 * FIFREEZE, FICLONE, ...) that never reach the driver: leave those alone.
 */
static bool vfs_type(unsigned int type)
{
	return type == 0x00 || type == 'T' || type == 'X' || type == 'f' ||
	       type == 0x94 || type == 0x15;
}

static bool known_cmd(unsigned int cmd)
{
	switch (cmd) {
	case EB_IOC_VERSION: case EB_IOC_GC_ENTER: case EB_IOC_GC_EXIT:
	case EB_IOC_QUEUE_BUSY: case EB_IOC_QUEUE_IDLE: case EB_IOC_BOOST_FOR:
	case EB_IOC_BIND: case EB_IOC_CLIENT_INFO: case EB_IOC_POLICY_STATS:
		return true;
	}
	return false;
}

/* A pointer that faults for a @size-byte access; @write: kernel writes. */
static unsigned long bad_ptr(uint64_t *rs, size_t size, bool write,
			     struct call *c)
{
	switch (eb_below(rs, write ? 7 : 6)) {
	case 0:
		return 0;
	case 1:
		return 1 + eb_below(rs, 4096);
	case 2:
		c->unmapped = true;
		return (unsigned long)mem.unmapped + eb_below(rs, mem.page);
	case 3:
		return (unsigned long)mem.none + eb_below(rs, mem.page);
	case 4:	/* straddles the end of a good page into a PROT_NONE one */
		return (unsigned long)mem.edge_page + mem.page -
		       1 - eb_below(rs, size - 1);
	case 5:
		return eb_below(rs, 2) ? 0xffff888000000000ul :
					 0x8000000000000000ul;
	default:
		return (unsigned long)mem.ro;
	}
}

static unsigned long junk_arg(uint64_t *rs, struct call *c)
{
	switch (eb_below(rs, 6)) {
	case 0:
		return 0;
	case 1:
		return eb_below(rs, 1024);
	case 2:
		for (unsigned int i = 0; i < sizeof(c->buf.raw); i++)
			c->buf.raw[i] = eb_rand(rs);
		return (unsigned long)&c->buf;
	case 3:
		return (unsigned long)mem.none;
	case 4:
		c->unmapped = true;
		return (unsigned long)mem.unmapped;
	default:
		return eb_rand(rs);
	}
}

static unsigned int junk_cmd(uint64_t *rs, bool ours)
{
	static const unsigned int sizes[] = {
		0, 4, 8, 16, 24, 32, sizeof(struct eb_policy_stats), 1, 3,
	};
	unsigned int cmd, type, size;

	do {
		if (!ours && eb_below(rs, 4) == 0) {
			cmd = eb_rand(rs);		/* any 32 bits */
		} else {
			type = ours ? EB_IOC_MAGIC : eb_below(rs, 256);
			size = eb_below(rs, 3) ? sizes[eb_below(rs, 9)] :
						 eb_below(rs, 1 << _IOC_SIZEBITS);
			cmd = _IOC(eb_below(rs, 4), type,
				   eb_below(rs, 2) ? eb_below(rs, 16) : eb_below(rs, 256),
				   size);
		}
		type = _IOC_TYPE(cmd);
	} while (known_cmd(cmd) || vfs_type(type) ||
		 (!ours && type == EB_IOC_MAGIC));
	return cmd;
}

static void invalid(struct call *c, int err, const char *what)
{
	c->invalid = true;
	c->expect = err;
	c->also = 0;
	c->what = what;
}

/* One random call and what the ABI says about it. */
static void gen_call(uint64_t *rs, struct call *c)
{
	static const unsigned int hints[] = {
		EB_IOC_GC_ENTER, EB_IOC_GC_EXIT, EB_IOC_QUEUE_BUSY, EB_IOC_QUEUE_IDLE,
	};
	unsigned long p;

	memset(c, 0, offsetof(struct call, buf));
	memset(&c->buf, 0, sizeof(struct eb_policy_stats));
	c->also = EBUSY;		/* a valid boost may meet a spent budget */
	switch (eb_below(rs, 16)) {
	case 0: case 1: case 2:
		c->cmd = hints[eb_below(rs, 4)];
		c->client_cmd = true;
		c->what = "hint";
		break;
	case 3:
		c->cmd = hints[eb_below(rs, 4)];
		c->client_cmd = c->hint_arg = true;
		do
			c->arg = junk_arg(rs, c);
		while (!c->arg);
		invalid(c, EINVAL, "hint with an argument");
		break;
	case 4:
		c->cmd = EB_IOC_BOOST_FOR;
		c->client_cmd = true;
		c->buf.b.usec = eb_below(rs, 8) ? eb_below(rs, 200000) :
			       eb_below(rs, EB_BOOST_FOR_MAX_US + 1);
		c->arg = (unsigned long)&c->buf;
		c->what = "boost_for";
		break;
	case 5:
		c->cmd = EB_IOC_BOOST_FOR;
		c->client_cmd = true;
		c->buf.b.usec = eb_below(rs, 100000);
		switch (eb_below(rs, 3)) {
		case 0:
			c->buf.b.flags = 1u << eb_below(rs, 32);
			break;
		case 1:
			c->buf.b.reserved = 1ull << eb_below(rs, 64);
			break;
		default:
			c->buf.b.usec = EB_BOOST_FOR_MAX_US + 1 +
					eb_below(rs, 0xffffffffu - EB_BOOST_FOR_MAX_US);
		}
		c->arg = (unsigned long)&c->buf;
		invalid(c, EINVAL, "boost_for bad field");
		break;
	case 6:
		c->cmd = EB_IOC_BIND;
		c->client_cmd = true;
		c->buf.bind.tid = eb_below(rs, 3) ? helper_tids[eb_below(rs, nhelpers)] : 0;
		c->arg = (unsigned long)&c->buf;
		c->what = "bind";
		break;
	case 7:
		c->cmd = EB_IOC_BIND;
		c->client_cmd = true;
		c->arg = (unsigned long)&c->buf;
		switch (eb_below(rs, 6)) {
		case 0:
			c->buf.bind.flags = 1u << eb_below(rs, 32);
			invalid(c, EINVAL, "bind flags");
			break;
		case 1:
			c->buf.bind.reserved = 1ull << eb_below(rs, 64);
			invalid(c, EINVAL, "bind reserved");
			break;
		case 2:
			c->buf.bind.tid = -1 - (int)eb_below(rs, 0x7fffffff);
			invalid(c, EINVAL, "bind negative tid");
			break;
		case 3:
			c->buf.bind.tid = 1;
			invalid(c, ESRCH, "bind to init");
			break;
		case 4:
			c->buf.bind.tid = foreign_pid;
			invalid(c, ESRCH, "bind to another process");
			break;
		default:
			c->buf.bind.tid = 0x40000000 + eb_below(rs, 0x3fffffff);
			invalid(c, ESRCH, "bind to no thread");
		}
		break;
	case 8:
		switch (eb_below(rs, 3)) {
		case 0:
			c->cmd = EB_IOC_CLIENT_INFO;
			c->client_cmd = true;
			c->what = "client_info";
			break;
		case 1:
			c->cmd = EB_IOC_VERSION;
			c->buf.v.abi_version = eb_rand(rs);	/* out fields */
			c->what = "version";
			break;
		default:
			c->cmd = EB_IOC_POLICY_STATS;
			c->buf.st.cpu = eb_below(rs, ncpu);
			c->what = "policy_stats";
		}
		c->arg = (unsigned long)&c->buf;
		break;
	case 9:
		c->arg = (unsigned long)&c->buf;
		switch (eb_below(rs, 4)) {
		case 0:
			c->cmd = EB_IOC_VERSION;
			c->buf.v.reserved[eb_below(rs, 6)] = eb_rand(rs) | 1;
			invalid(c, EINVAL, "version reserved");
			break;
		case 1:
			c->cmd = EB_IOC_POLICY_STATS;
			c->buf.st.in_flags = 1u << eb_below(rs, 32);
			invalid(c, EINVAL, "policy_stats in_flags");
			break;
		case 2:
			c->cmd = EB_IOC_POLICY_STATS;
			c->buf.st.cpu = eb_below(rs, ncpu);
			c->buf.st.reserved[eb_below(rs, 8)] = eb_rand(rs) | 1;
			invalid(c, EINVAL, "policy_stats reserved");
			break;
		default:
			c->cmd = EB_IOC_POLICY_STATS;
			c->buf.st.cpu = EB_MAX_CPUS + eb_below(rs, 0xffffffffu - EB_MAX_CPUS);
			invalid(c, EINVAL, "policy_stats cpu");
		}
		break;
	case 10: case 11: {
		static const unsigned int cmds[] = {
			EB_IOC_BOOST_FOR, EB_IOC_BIND, EB_IOC_CLIENT_INFO,
			EB_IOC_VERSION, EB_IOC_POLICY_STATS,
		};
		unsigned int i = eb_below(rs, 5);

		c->cmd = cmds[i];
		c->client_cmd = i < 3;
		/* The kernel writes back for _IOR/_IOWR: read-only faults too. */
		p = bad_ptr(rs, _IOC_SIZE(c->cmd), _IOC_DIR(c->cmd) & _IOC_READ, c);
		c->arg = p;
		invalid(c, EFAULT, "bad pointer");
		break;
	}
	case 12: case 13: case 14:
		c->cmd = junk_cmd(rs, true);
		c->arg = junk_arg(rs, c);
		invalid(c, ENOTTY, "unknown command in magic");
		break;
	default:
		c->cmd = junk_cmd(rs, false);
		c->arg = junk_arg(rs, c);
		invalid(c, ENOTTY, "foreign command");
	}
}

/* In another process an inherited client refuses everything but the
 * argument check of hints: EPERM.
 */
static void as_foreign(struct call *c)
{
	if (!c->client_cmd || c->hint_arg)
		return;
	c->invalid = true;
	c->expect = EPERM;
	c->also = 0;
	c->what = "client of another process";
}

static bool still_unmapped(void)
{
	unsigned char v;

	return mincore(mem.unmapped, mem.page, &v) && errno == ENOMEM;
}

/* Issue @c on @fd, count it, check the result.  Returns the errno (0). */
static int do_call(int fd, struct call *c)
{
	int ret = ioctl(fd, c->cmd, c->arg) ? errno : 0;
	bool ok;

	atomic_fetch_add(&ncalls, 1);
	atomic_fetch_add(c->invalid ? &ninvalid : &nvalid, 1);
	atomic_fetch_add(&counts[c->invalid][bucket(ret)], 1);
	if (c->invalid)
		ok = ret == c->expect;
	else
		ok = ret == 0 || ret == c->also;
	/* Someone mapped the hole meanwhile: the kernel was right. */
	if (!ok && c->unmapped && !still_unmapped())
		ok = true;
	if (!ok)
		fail("%s: cmd %#x arg %#lx: got %s, want %s", c->what, c->cmd,
		     c->arg, eb_errname(ret),
		     eb_errname(c->invalid ? c->expect : 0));
	return ret;
}

/* ---- phase 1: one thread, state read back around invalid calls ---- */

struct snap {
	uint64_t hints[EB_MAX_CPUS][EB_NR_REASONS];
	uint64_t refused[EB_MAX_CPUS];
	struct eb_client_info ci[NFDS];
};

static int statfd;

static void snapshot(int *fds, struct snap *s)
{
	struct eb_policy_stats st;

	memset(s, 0, sizeof(*s));
	for (int cpu = 0; cpu < ncpu && cpu < EB_MAX_CPUS; cpu++) {
		if (eb_policy_stats(statfd, cpu, &st))
			continue;
		memcpy(s->hints[cpu], st.hints, sizeof(st.hints));
		s->refused[cpu] = st.refused;
	}
	for (int i = 0; i < NFDS; i++)
		if (ioctl(fds[i], EB_IOC_CLIENT_INFO, &s->ci[i]))
			fail("client_info: %s", strerror(errno));
}

/* Time passes and timers fire: votes may end, never begin or extend. */
static void compare(const struct snap *a, const struct snap *b,
		    const struct call *c)
{
	for (int cpu = 0; cpu < ncpu && cpu < EB_MAX_CPUS; cpu++) {
		if (memcmp(a->hints[cpu], b->hints[cpu], sizeof(a->hints[cpu])))
			fail("%s (cmd %#x): cpu%d hint counters changed", c->what,
			     c->cmd, cpu);
		if (a->refused[cpu] != b->refused[cpu])
			fail("%s (cmd %#x): cpu%d refused changed", c->what,
			     c->cmd, cpu);
	}
	for (int i = 0; i < NFDS; i++) {
		if (b->ci[i].votes & ~a->ci[i].votes)
			fail("%s (cmd %#x): fd %d gained votes %#x -> %#x",
			     c->what, c->cmd, i, a->ci[i].votes, b->ci[i].votes);
		if (b->ci[i].timed_left_us > a->ci[i].timed_left_us)
			fail("%s (cmd %#x): fd %d timed boost extended", c->what,
			     c->cmd, i);
		if (b->ci[i].bound_tid != a->ci[i].bound_tid)
			fail("%s (cmd %#x): fd %d rebound %d -> %d", c->what,
			     c->cmd, i, a->ci[i].bound_tid, b->ci[i].bound_tid);
	}
}

static int reopen(int fd)
{
	if (fd >= 0)
		close(fd);
	fd = open(EB_DEV, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		fail("open %s: %s", EB_DEV, strerror(errno));
	return fd;
}

/* A child uses the parent's clients: everything but EPERM is a bug. */
static void foreign_child(int *fds, uint64_t seed, int calls)
{
	uint64_t rs = seed;
	struct call c;

	nfail = 0;
	for (int i = 0; i < calls; i++) {
		gen_call(&rs, &c);
		as_foreign(&c);
		do_call(fds[eb_below(&rs, NFDS)], &c);
	}
	_exit(nfail ? 1 : 0);
}

static void run_forked(int *fds, uint64_t seed, int calls)
{
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		fail("fork: %s", strerror(errno));
		return;
	}
	if (!pid)
		foreign_child(fds, seed, calls);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		fail("child using inherited clients: status %#x", status);
	atomic_fetch_add(&ncalls, calls);
	atomic_fetch_add(&ninvalid, calls);
	atomic_fetch_add(&nforeign, calls);
}

static void phase1(int *fds, uint64_t *rs, unsigned long calls,
		   uint64_t deadline)
{
	struct snap a, b;
	struct call c;

	for (unsigned long i = 0; i < calls; i++) {
		int k = eb_below(rs, NFDS);

		if ((i & 255) == 0 && deadline && eb_now_ns() > deadline)
			break;
		if (eb_below(rs, 1000) == 0) {
			fds[k] = reopen(fds[k]);
			continue;
		}
		if (eb_below(rs, 2000) == 0) {
			snapshot(fds, &a);
			run_forked(fds, eb_rand(rs), 50);
			snapshot(fds, &b);
			memset(&c, 0, offsetof(struct call, buf));
			c.what = "inherited clients";
			compare(&a, &b, &c);
			continue;
		}
		gen_call(rs, &c);
		if (!c.invalid) {
			do_call(fds[k], &c);
			continue;
		}
		snapshot(fds, &a);
		do_call(fds[k], &c);
		snapshot(fds, &b);
		compare(&a, &b, &c);
	}
}

/* ---- phase 2: threads, own and shared fds, dying children ---- */

struct worker {
	pthread_t thread;
	int idx;
	uint64_t rs;
	unsigned long calls;
	uint64_t deadline;
	int *shared;
};

static pthread_barrier_t start_bar, end_bar;

/* A child that votes and then exits or is killed with its client open. */
static void dying_child(uint64_t *rs)
{
	int status, fd;
	bool kill_it = eb_below(rs, 2);
	pid_t pid = fork();

	if (pid < 0) {
		fail("fork: %s", strerror(errno));
		return;
	}
	if (!pid) {
		fd = open(EB_DEV, O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			ioctl(fd, EB_IOC_GC_ENTER, 0);
			eb_boost_for(fd, 1000000);
		}
		if (kill_it)
			pause();
		_exit(0);
	}
	if (kill_it) {
		eb_sleep_us(eb_below(rs, 2000));
		kill(pid, SIGKILL);
	}
	waitpid(pid, &status, 0);
	atomic_fetch_add(&nchildren, 1);
}

static void *worker_fn(void *p)
{
	struct worker *w = p;
	int own[OWN_FDS];
	struct call c;

	helper_tids[w->idx] = eb_gettid();
	pthread_barrier_wait(&start_bar);	/* tids published */
	pthread_barrier_wait(&start_bar);	/* phase 1 done */
	for (int i = 0; i < OWN_FDS; i++)
		own[i] = reopen(-1);
	for (unsigned long i = 0; i < w->calls; i++) {
		unsigned int k = eb_below(&w->rs, NFDS + OWN_FDS);
		int fd = k < NFDS ? w->shared[k] : own[k - NFDS];

		if ((i & 255) == 0 && w->deadline && eb_now_ns() > w->deadline)
			break;
		if (eb_below(&w->rs, 500) == 0) {
			own[k % OWN_FDS] = reopen(own[k % OWN_FDS]);
			continue;
		}
		if (eb_below(&w->rs, 5000) == 0) {
			dying_child(&w->rs);
			continue;
		}
		gen_call(&w->rs, &c);
		do_call(fd, &c);
	}
	for (int i = 0; i < OWN_FDS; i++)
		close(own[i]);
	/* Stay bindable until everybody is done. */
	pthread_barrier_wait(&end_bar);
	return NULL;
}

/* ---- end state: nothing boosted, driver at the decided frequency ---- */

static void check_idle(void)
{
	struct eb_policy_stats st;
	struct eb_client_info ci;
	struct eb_drv d;
	int fd = open(EB_DEV, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		fail("open: %s", strerror(errno));
		return;
	}
	if (ioctl(fd, EB_IOC_CLIENT_INFO, &ci) || ci.votes || ci.vote_cpu != -1)
		fail("fresh client has votes %#x on cpu %d", ci.votes, ci.vote_cpu);
	for (int cpu = 0; cpu < ncpu; cpu++) {
		bool done = false;

		/* The worker path applies asynchronously: give it 3 s. */
		for (int t = 0; t < 300 && !done; t++) {
			if (eb_policy_stats(fd, cpu, &st)) {
				fail("policy_stats cpu%d: %s", cpu, strerror(errno));
				break;
			}
			done = !(st.flags & EB_POLICY_BOOSTED) &&
			       (eb_drv_read(&d, NULL, NULL) ||
				st.policy_cpu >= EB_MAX_CPUS ||
				d.cur[st.policy_cpu] == st.target_khz);
			if (!done)
				eb_sleep_us(10000);
		}
		if (!done)
			fail("cpu%d: still boosted or not applied (flags %#x target %u cur %u)",
			     cpu, st.flags, st.target_khz, st.cur_khz);
	}
	close(fd);
}

static int setup_mem(void)
{
	unsigned char v;
	char *p;

	mem.page = sysconf(_SC_PAGESIZE);
	/* Far above anything mmap() hands out here, so it stays unmapped. */
	mem.unmapped = (char *)0x100000000000ul;
	if (!still_unmapped())
		return -1;
	p = mmap(NULL, 3 * mem.page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	/* [none][edge rw][none] */
	mem.none = p;
	mem.edge_page = p + mem.page;
	mprotect(mem.none, mem.page, PROT_NONE);
	mprotect(mem.edge_page + mem.page, mem.page, PROT_NONE);
	mem.ro = mmap(NULL, mem.page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem.ro == MAP_FAILED || mincore(mem.ro, mem.page, &v))
		return -1;
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: eb_fuzz [-n CALLS | -d SECONDS] [-s SEED] [-j THREADS]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long calls = 100000, secs = 0;
	uint64_t seed = 1, rs, deadline1 = 0, deadline2 = 0, t0;
	struct worker w[MAX_THREADS];
	int nthreads = 4, opt, fds[NFDS], status;

	while ((opt = getopt(argc, argv, "n:d:s:j:")) != -1) {
		switch (opt) {
		case 'n': calls = strtoul(optarg, NULL, 0); break;
		case 'd': secs = strtoul(optarg, NULL, 0); calls = ~0ul / 2; break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'j': nthreads = atoi(optarg); break;
		default: usage();
		}
	}
	if (nthreads < 1 || nthreads > MAX_THREADS || optind != argc)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu > EB_MAX_CPUS)
		ncpu = EB_MAX_CPUS;
	statfd = open(EB_DEV, O_RDWR | O_CLOEXEC);
	if (statfd < 0 || setup_mem()) {
		perror("eb_fuzz: setup");
		return 2;
	}
	/* A process whose tid is no thread of ours. */
	foreign_pid = fork();
	if (!foreign_pid) {
		pause();
		_exit(0);
	}
	rs = eb_seed(seed, 0);
	t0 = eb_now_ns();
	if (secs) {
		deadline1 = t0 + secs * 100000000ull;
		deadline2 = t0 + secs * 1000000000ull;
	}
	printf("# eb_fuzz: seed %llu, %s %lu, %d threads, %d cpus\n",
	       (unsigned long long)seed, secs ? "seconds" : "calls",
	       secs ? secs : calls, nthreads, ncpu);

	pthread_barrier_init(&start_bar, NULL, nthreads + 1);
	pthread_barrier_init(&end_bar, NULL, nthreads);
	for (int i = 0; i < nthreads; i++) {
		w[i].idx = i;
		w[i].rs = eb_seed(seed, i + 1);
		w[i].calls = (calls - calls / 10) / nthreads;
		w[i].deadline = deadline2;
		w[i].shared = fds;
		if (pthread_create(&w[i].thread, NULL, worker_fn, &w[i])) {
			perror("pthread_create");
			return 2;
		}
	}
	nhelpers = nthreads;
	pthread_barrier_wait(&start_bar);
	for (int i = 0; i < NFDS; i++)
		fds[i] = reopen(-1);

	phase1(fds, &rs, calls / 10, deadline1);
	printf("# phase 1 (checked, 1 thread): %lu calls in %.1f s\n",
	       atomic_load(&ncalls), (eb_now_ns() - t0) / 1e9);
	pthread_barrier_wait(&start_bar);
	for (int i = 0; i < nthreads; i++)
		pthread_join(w[i].thread, NULL);
	for (int i = 0; i < NFDS; i++)
		close(fds[i]);
	kill(foreign_pid, SIGKILL);
	waitpid(foreign_pid, &status, 0);
	check_idle();

	printf("# calls %lu (valid %lu, invalid %lu) in %.1f s\n",
	       atomic_load(&ncalls), atomic_load(&nvalid),
	       atomic_load(&ninvalid), (eb_now_ns() - t0) / 1e9);
	for (int inv = 0; inv < 2; inv++) {
		printf("# %s:", inv ? "invalid" : "valid");
		for (int i = 0; i < NERR; i++)
			if (atomic_load(&counts[inv][i]))
				printf(" %s %lu", i == NERR - 1 ? "other" :
				       eb_errname(buckets[i]),
				       atomic_load(&counts[inv][i]));
		printf("\n");
	}
	printf("# %lu calls by children on inherited clients; %lu children exited or were killed holding votes\n",
	       atomic_load(&nforeign), atomic_load(&nchildren));
	printf("# failures: %d\n", nfail);
	return nfail ? 1 : 0;
}
