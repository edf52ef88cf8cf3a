/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by eventboost's microbenchmarks: the clock, CPU pinning,
 * sysfs access, sample sets with median/p99, and a tiny JSON writer (the
 * programs print one JSON object on stdout; bench/report.js reads it).
 */
#ifndef EB_BENCH_H
#define EB_BENCH_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../uapi/linux/eventboost.h"

/* A command with eventboost's magic that the device does not know. */
#define EB_IOC_NULL	_IO(EB_IOC_MAGIC, 0x7f)

#define CPUFREQ_CPU	"/sys/devices/system/cpu/cpu%d/cpufreq/%s"

static inline void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("bench: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* CLOCK_MONOTONIC, the clock of the kernel's ktime_get_ns(). */
static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000u,
			       .tv_nsec = ns % 1000000000u };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Pin the calling thread to one CPU. */
static inline void pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("cannot pin to CPU %d: %s", cpu, strerror(errno));
}

/* Write a string to /sys/devices/system/cpu/cpuN/cpufreq/<attr>. */
static inline int cpufreq_write(int cpu, const char *attr, const char *val)
{
	char path[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), CPUFREQ_CPU, cpu, attr);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	close(fd);
	return n < 0 ? -errno : 0;
}

static inline long cpufreq_read_long(int cpu, const char *attr)
{
	char path[256], buf[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), CPUFREQ_CPU, cpu, attr);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

static inline void set_governor(int cpu, const char *gov)
{
	int ret = cpufreq_write(cpu, "scaling_governor", gov);

	if (ret)
		die("cannot select governor %s on CPU %d: %s", gov, cpu,
		    strerror(-ret));
}

/* ---- sample sets ---- */

struct samples {
	const char *name;
	uint64_t *v;
	size_t n, cap;
};

static inline void samples_init(struct samples *s, const char *name,
				size_t cap)
{
	s->name = name;
	s->n = 0;
	s->cap = cap;
	s->v = calloc(cap ? cap : 1, sizeof(*s->v));
	if (!s->v)
		die("out of memory");
}

static inline void samples_add(struct samples *s, uint64_t v)
{
	if (s->n < s->cap)
		s->v[s->n++] = v;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of a sorted set. */
static inline uint64_t pct_sorted(const struct samples *s, double p)
{
	size_t rank;

	if (!s->n)
		return 0;
	rank = (size_t)(p / 100.0 * (double)s->n + 0.999999);
	if (rank < 1)
		rank = 1;
	if (rank > s->n)
		rank = s->n;
	return s->v[rank - 1];
}

/* ---- JSON on stdout ---- */

static int json_depth_first = 1;	/* no comma before the next item */

static inline void json_sep(void)
{
	if (!json_depth_first)
		putchar(',');
	json_depth_first = 0;
}

static inline void json_key(const char *key)
{
	json_sep();
	if (key)
		printf("\"%s\":", key);
}

static inline void json_open(const char *key, char c)
{
	json_key(key);
	putchar(c);
	json_depth_first = 1;
}

static inline void json_close(char c)
{
	putchar(c);
	json_depth_first = 0;
}

static inline void json_u64(const char *key, uint64_t v)
{
	json_key(key);
	printf("%llu", (unsigned long long)v);
}

static inline void json_dbl(const char *key, double v)
{
	json_key(key);
	printf("%.6g", v);
}

static inline void json_str(const char *key, const char *v)
{
	json_key(key);
	printf("\"%s\"", v);	/* callers pass plain identifiers */
}

/* {"median_ns":..,"p99_ns":..,"n":..} and more; sorts the set. */
static inline void json_samples(struct samples *s)
{
	double sum = 0;
	size_t i;

	qsort(s->v, s->n, sizeof(*s->v), cmp_u64);
	for (i = 0; i < s->n; i++)
		sum += (double)s->v[i];
	json_open(s->name, '{');
	json_u64("median_ns", pct_sorted(s, 50));
	json_u64("p99_ns", pct_sorted(s, 99));
	json_u64("n", s->n);
	json_u64("min_ns", s->n ? s->v[0] : 0);
	json_u64("p90_ns", pct_sorted(s, 90));
	json_u64("max_ns", s->n ? s->v[s->n - 1] : 0);
	json_dbl("mean_ns", s->n ? sum / (double)s->n : 0);
	json_close('}');
}

#endif /* EB_BENCH_H */
