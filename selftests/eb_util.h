/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the guest suite, the fuzzer, the stress helper and the
 * figures program:
 * the device, the test driver's record, per-policy stats, a small PRNG.
 * Everything here is static so each program stays one translation unit.
 */
#ifndef EB_UTIL_H
#define EB_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../uapi/linux/eventboost.h"

#define EB_DEV		"/dev/eventboost"
#define EB_DRV		"/dev/ebtest_cpufreq"
#define EB_CPUFREQ	"/sys/devices/system/cpu/cpufreq"
#define EB_MAX_CPUS	64

static inline pid_t eb_gettid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static inline uint64_t eb_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static inline void eb_sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* xorshift64*: cheap, per thread, reproducible from the seed. */
static inline uint64_t eb_rand(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1Dull;
}

static inline uint64_t eb_seed(uint64_t seed, uint64_t n)
{
	uint64_t s = seed * 0x9E3779B97F4A7C15ull + n + 1;

	eb_rand(&s);
	return s ? s : 1;
}

/* Uniform in [0, n). */
static inline unsigned int eb_below(uint64_t *s, unsigned int n)
{
	return n ? (unsigned int)((eb_rand(s) >> 32) % n) : 0;
}

static inline int eb_write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static inline int eb_read_str(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	return 0;
}

static inline int eb_policy_stats(int fd, int cpu, struct eb_policy_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->cpu = cpu;
	return ioctl(fd, EB_IOC_POLICY_STATS, st) ? -errno : 0;
}

static inline int eb_boost_for(int fd, unsigned int usec)
{
	struct eb_boost_for b = { .usec = usec };

	return ioctl(fd, EB_IOC_BOOST_FOR, &b) ? -errno : 0;
}

/* Per-policy state of the test driver, indexed by policy CPU. */
struct eb_drv {
	long cur[EB_MAX_CPUS];		/* -1: no such policy */
	long changes[EB_MAX_CPUS];
};

/* One recorded change; eb_drv_read() calls @fn for each, oldest first. */
struct eb_drv_change {
	long long seq, ts;
	int policy, on_cpu;
	long khz;
	char path;
};

typedef void (*eb_change_fn)(const struct eb_drv_change *c, void *arg);

/* The test driver's whole record, NUL-terminated, in a static buffer. */
static inline char *eb_drv_record(void)
{
	static char buf[1 << 20];
	ssize_t n, off = 0;
	int fd = open(EB_DRV, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	while ((n = read(fd, buf + off, sizeof(buf) - 1 - off)) > 0)
		off += n;
	close(fd);
	buf[off] = 0;
	return buf;
}

/* A "change" line of the record into *c: 1, or 0 if @line is not one. */
static inline int eb_drv_change_parse(const char *line, struct eb_drv_change *c)
{
	return sscanf(line, "change %lld %lld %d %d %ld %c", &c->seq, &c->ts,
		      &c->policy, &c->on_cpu, &c->khz, &c->path) == 6;
}

static inline int eb_drv_read(struct eb_drv *d, eb_change_fn fn, void *arg)
{
	char *line, *save, *buf = eb_drv_record();

	if (!buf)
		return -errno;
	for (int i = 0; i < EB_MAX_CPUS; i++)
		d->cur[i] = d->changes[i] = -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct eb_drv_change c;
		long cur, ov, off_cpu, ch;
		int pol;

		if (sscanf(line, "policy %d cur %ld overlaps %ld offcpu %ld changes %ld",
			   &pol, &cur, &ov, &off_cpu, &ch) == 5) {
			if (pol >= 0 && pol < EB_MAX_CPUS) {
				d->cur[pol] = cur;
				d->changes[pol] = ch;
			}
		} else if (fn && eb_drv_change_parse(line, &c)) {
			fn(&c, arg);
		}
	}
	return 0;
}

static inline const char *eb_errname(int err)
{
	static const struct { int e; const char *n; } names[] = {
		{ 0, "ok" }, { EPERM, "EPERM" }, { ENOENT, "ENOENT" },
		{ ESRCH, "ESRCH" }, { EINTR, "EINTR" }, { EBADF, "EBADF" },
		{ ENOMEM, "ENOMEM" }, { EFAULT, "EFAULT" }, { EBUSY, "EBUSY" },
		{ ENODEV, "ENODEV" }, { EINVAL, "EINVAL" }, { ENOTTY, "ENOTTY" },
		{ EACCES, "EACCES" }, { EOPNOTSUPP, "EOPNOTSUPP" },
	};

	for (unsigned int i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == err)
			return names[i].n;
	return "other";
}

#endif /* EB_UTIL_H */
