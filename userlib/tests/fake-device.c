// SPDX-License-Identifier: GPL-2.0
/*
 * A fake /dev/eventboost for host tests of the Queue-Boost monitor, where
 * no module can load: preloaded (LD_PRELOAD) into Node, it answers the
 * eventboost ioctls on a regular file named by EB_FAKE_DEVICE, keeps each
 * client's votes as the module would (no watchdog, budget or limits), and
 * lets everything else through to the C library; EB_FAKE_REFUSE_QUEUE=N
 * refuses the first N queue hints, as a spent budget does (EBUSY), and
 * EB_FAKE_FAIL_THREADS=N fails the first N threads an addon (a .node
 * file) creates, as a process at its thread limit does (EAGAIN), after the
 * first EB_FAKE_SPARE_THREADS=M (0 by default) it creates as ever, and
 * EB_FAKE_FAIL_TASK_STAT=ERRNO fails every open of a thread's
 * /proc/self/task/<tid>/stat with that errno (24, EMFILE: the open-files
 * limit; 2, ENOENT: no /proc), and EB_FAKE_FAIL_DEVICE_OPEN=ERRNO every
 * open of EB_FAKE_DEVICE (13, EACCES: as for a user without permission,
 * also where the tests run as root; 11, EAGAIN: as while the module
 * loads), or its first EB_FAKE_DEVICE_OPEN_FAILURES=N opens only, and
 * EB_FAKE_DEVICE_LOADING=FILE its opens with EAGAIN while FILE exists (a
 * module whose load is not done);
 * EB_FAKE_LOG=FILE appends a line to FILE at each close of a client, with
 * the votes it held (timed ones too: EB_IOC_BOOST_FOR votes), and at each
 * open EB_FAKE_DEVICE_LOADING refused.  What a
 * test reads is the package's own stats(): what the monitor asked for, not
 * what a CPU did.  Policy stats fail as on a CPU without a cpufreq policy
 * (ENODEV), unless EB_FAKE_POLICY=1: then every CPU's policy is governed
 * (=2: run by another governor),
 * its watchdog at EB_FAKE_MAX_BOOST_US (100 ms by default), its budget at
 * EB_FAKE_BUDGET_PCT (100 by default), with
 * EB_FAKE_SLOW_APPLIES hints applied 16 ms or more after them (ebctl's
 * host tests).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/eventboost.h>

#define MAX_FD 4096

static unsigned int votes[MAX_FD];

/* Whether @path names the fake device (as given: opens are not resolved). */
static int is_fake_path(const char *path)
{
	const char *dev = getenv("EB_FAKE_DEVICE");

	return dev && !strcmp(path, dev);
}

static int is_fake(int fd)
{
	char link[64], path[PATH_MAX];
	ssize_t n;

	if (fd < 0 || fd >= MAX_FD)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return 0;
	path[n] = 0;
	return is_fake_path(path);
}

static int vote(int fd, unsigned int set, unsigned int clear)
{
	__atomic_fetch_or(&votes[fd], set, __ATOMIC_RELAXED);
	__atomic_fetch_and(&votes[fd], ~clear, __ATOMIC_RELAXED);
	return 0;
}

static int refusals_left, thread_failures_left, spare_threads_left;
static int policy, max_boost_us, budget_pct;
static int fail_task_stat, fail_device_open, device_open_failures_left;
static const char *close_log;
static int (*real_open)(const char *, int, ...);
static int (*real_close)(int);
static int (*real_ioctl)(int, unsigned long, ...);
static int slow_applies;
static int (*real_pthread_create)(pthread_t *, const pthread_attr_t *,
				  void *(*)(void *), void *);

/* A count of failures to fake from the environment variable @name. */
static int env_count(const char *name)
{
	const char *n = getenv(name);

	return n ? atoi(n) : 0;
}

__attribute__((constructor)) static void read_env(void)
{
	refusals_left = env_count("EB_FAKE_REFUSE_QUEUE");
	thread_failures_left = env_count("EB_FAKE_FAIL_THREADS");
	spare_threads_left = env_count("EB_FAKE_SPARE_THREADS");
	policy = env_count("EB_FAKE_POLICY");
	fail_task_stat = env_count("EB_FAKE_FAIL_TASK_STAT");
	fail_device_open = env_count("EB_FAKE_FAIL_DEVICE_OPEN");
	device_open_failures_left = getenv("EB_FAKE_DEVICE_OPEN_FAILURES") ?
		env_count("EB_FAKE_DEVICE_OPEN_FAILURES") : INT_MAX;
	close_log = getenv("EB_FAKE_LOG");
	real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
	real_ioctl = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	max_boost_us = env_count("EB_FAKE_MAX_BOOST_US") ?: 100000;
	budget_pct = env_count("EB_FAKE_BUDGET_PCT") ?: 100;
	slow_applies = env_count("EB_FAKE_SLOW_APPLIES");
	real_pthread_create = (int (*)(pthread_t *, const pthread_attr_t *,
				       void *(*)(void *), void *))
		dlsym(RTLD_NEXT, "pthread_create");
}

/* Whether to take one of @left's failures: 1 while any is left. */
static int take_one(int *left)
{
	for (;;) {
		int v = __atomic_load_n(left, __ATOMIC_RELAXED);

		if (v <= 0)
			return 0;
		if (__atomic_compare_exchange_n(left, &v, v - 1, 0,
						__ATOMIC_RELAXED,
						__ATOMIC_RELAXED))
			return 1;
	}
}

/* Whether to refuse this queue hint (the first EB_FAKE_REFUSE_QUEUE ones). */
static int refuse_queue(void)
{
	return take_one(&refusals_left);
}

/*
 * Node's own threads are created as ever; an addon's fail while any is
 * left, once its spare ones are used.
 */
int pthread_create(pthread_t *th, const pthread_attr_t *attr,
		   void *(*fn)(void *), void *arg)
{
	size_t len;
	Dl_info in;

	if (dladdr((void *)fn, &in) && in.dli_fname &&
	    (len = strlen(in.dli_fname)) > 5 &&
	    !strcmp(in.dli_fname + len - 5, ".node") &&
	    !take_one(&spare_threads_left) &&
	    take_one(&thread_failures_left))
		return EAGAIN;
	return real_pthread_create(th, attr, fn, arg);
}

static void log_line(const char *line, int n);

/* While EB_FAKE_DEVICE_LOADING names a file that exists. */
static int still_loading(void)
{
	const char *f = getenv("EB_FAKE_DEVICE_LOADING");

	return f && !access(f, F_OK);
}

/*
 * open(), and open64() as its alias (one is called, by _FILE_OFFSET_BITS;
 * on 64-bit glibc they are one function); a mode is passed only with
 * O_CREAT or O_TMPFILE (which holds O_DIRECTORY's bit).
 */
int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (flags & O_CREAT || (flags & O_TMPFILE) == O_TMPFILE) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if (fail_task_stat && !strncmp(path, "/proc/self/task/", 16) &&
	    strstr(path, "/stat")) {
		errno = fail_task_stat;
		return -1;
	}
	if (is_fake_path(path) && still_loading()) {
		if (close_log)
			log_line("refused open\n", 13);
		errno = EAGAIN;
		return -1;
	}
	if (fail_device_open && is_fake_path(path) &&
	    take_one(&device_open_failures_left)) {
		errno = fail_device_open;
		return -1;
	}
	return real_open(path, flags, mode);
}

int open64(const char *path, int flags, ...) __attribute__((alias("open")));

/*
 * What a caller built with _FORTIFY_SOURCE calls for an open() whose
 * flags the compiler cannot see and that passes no mode (a package's
 * build of libeventboost).
 */
int __open_2(const char *path, int flags)
{
	return open(path, flags);
}

int __open64_2(const char *path, int flags) __attribute__((alias("__open_2")));

/* Append @line (@n bytes) to EB_FAKE_LOG. */
static void log_line(const char *line, int n)
{
	int log = open(close_log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);

	if (log < 0 || write(log, line, n) != n)
		perror("fake-device: EB_FAKE_LOG");
	if (log >= 0)
		real_close(log);
}

/* A client's end (EB_FAKE_LOG): "close votes=N", N its EB_VOTE_* bits. */
int close(int fd)
{
	char line[32];
	int n;

	if (close_log && is_fake(fd)) {
		n = snprintf(line, sizeof(line), "close votes=%u\n",
			     __atomic_exchange_n(&votes[fd], 0, __ATOMIC_RELAXED));
		log_line(line, n);
	}
	return real_close(fd);
}

int ioctl(int fd, unsigned long req, ...)
{
	struct eb_policy_stats *ps;
	struct eb_client_info *ci;
	struct eb_version *v;
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (_IOC_TYPE(req) != EB_IOC_MAGIC || !is_fake(fd))
		return real_ioctl(fd, req, arg);
	/* As the module: what changes state needs a file open for writing. */
	if (req != EB_IOC_VERSION && req != EB_IOC_POLICY_STATS &&
	    req != EB_IOC_CLIENT_INFO && (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDONLY) {
		errno = EBADF;
		return -1;
	}
	switch (req) {
	case EB_IOC_VERSION:
		v = arg;
		memset(v, 0, sizeof(*v));
		v->abi_version = EB_ABI_VERSION;
		v->features = EB_FEAT_GC | EB_FEAT_QUEUE | EB_FEAT_TIMED |
			      EB_FEAT_BIND | EB_FEAT_CLIENT_INFO;
		__atomic_store_n(&votes[fd], 0, __ATOMIC_RELAXED);
		return 0;
	case EB_IOC_GC_ENTER:
		return vote(fd, EB_VOTE_GC, 0);
	case EB_IOC_GC_EXIT:
		return vote(fd, 0, EB_VOTE_GC);
	case EB_IOC_QUEUE_BUSY:
		if (refuse_queue()) {
			errno = EBUSY;
			return -1;
		}
		return vote(fd, EB_VOTE_QUEUE, 0);
	case EB_IOC_QUEUE_IDLE:
		return vote(fd, 0, EB_VOTE_QUEUE);
	case EB_IOC_BOOST_FOR:
		if (((struct eb_boost_for *)arg)->usec)
			return vote(fd, EB_VOTE_TIMED, 0);
		return vote(fd, 0, EB_VOTE_TIMED);
	case EB_IOC_BIND:
		return 0;
	case EB_IOC_CLIENT_INFO:
		ci = arg;
		memset(ci, 0, sizeof(*ci));
		ci->votes = __atomic_load_n(&votes[fd], __ATOMIC_RELAXED) &
			    (EB_VOTE_GC | EB_VOTE_QUEUE);
		ci->vote_cpu = ci->votes ? sched_getcpu() : -1;
		return 0;
	case EB_IOC_POLICY_STATS:
		if (!policy)
			break;
		ps = arg;
		ps->policy_cpu = ps->cpu;
		ps->flags = policy == 1 ? EB_POLICY_GOVERNED | EB_POLICY_FAST_SWITCH : 0;
		ps->cur_khz = ps->target_khz = ps->base_khz = 2600000;
		ps->boost_khz = 4000000;
		ps->max_boost_us = max_boost_us;
		ps->budget_pct = budget_pct;
		ps->applied = slow_applies;
		ps->latency[EB_LAT_BUCKETS - 1] = slow_applies;
		return 0;
	}
	errno = ENODEV;
	return -1;
}
