// SPDX-License-Identifier: GPL-2.0
/*
 * make experiment's uclamp policy: the strongest in-kernel alternative to
 * eventboost, per-task uclamp_min with schedutil.  Preloaded into the
 * server (LD_PRELOAD), it turns the eventboost package's GC enter and exit
 * hints -- the same hook points, the same moments -- into one
 * sched_setattr() each on the calling thread (the event loop): enter sets
 * its uclamp_min to 1024 (schedutil then picks the highest frequency for
 * its CPU), exit back to 0.  Those two ioctls never reach /dev/eventboost;
 * every other one passes through.  Needs CONFIG_UCLAMP_TASK.
 *   cc -O2 -shared -fPIC -o uclamp-shim.so uclamp-shim.c
 * EB_UCLAMP_LOG=FILE appends "<ns> <1|0> <ret>" per call, for the
 * hint -> clamp latency.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* From uapi/linux/eventboost.h: _IO(0xEB, 0x01) and _IO(0xEB, 0x02). */
#define SHIM_GC_ENTER _IO(0xEB, 0x01)
#define SHIM_GC_EXIT _IO(0xEB, 0x02)

/* struct sched_attr, SCHED_ATTR_SIZE_VER1 (with the clamp fields). */
struct shim_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
};

#define SHIM_FLAG_KEEP_ALL 0x18		/* SCHED_FLAG_KEEP_POLICY | _PARAMS */
#define SHIM_FLAG_UTIL_CLAMP_MIN 0x20

static int (*real_ioctl)(int, unsigned long, ...);

static int clamp(uint32_t min)
{
	struct shim_sched_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sched_flags = SHIM_FLAG_KEEP_ALL | SHIM_FLAG_UTIL_CLAMP_MIN;
	a.sched_util_min = min;
	return syscall(SYS_sched_setattr, 0, &a, 0) ? -errno : 0;
}

static void note(int on, int ret)
{
	static FILE *f;
	const char *p = getenv("EB_UCLAMP_LOG");
	struct timespec ts;

	if (!p)
		return;
	if (!f)
		f = fopen(p, "a");
	if (!f)
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	fprintf(f, "%lld %d %d\n", (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec, on, ret);
	fflush(f);
}

int ioctl(int fd, unsigned long cmd, ...)
{
	va_list ap;
	void *arg;
	int ret;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (cmd == SHIM_GC_ENTER || cmd == SHIM_GC_EXIT) {
		ret = clamp(cmd == SHIM_GC_ENTER ? 1024 : 0);
		note(cmd == SHIM_GC_ENTER, ret);
		if (ret) {
			errno = -ret;
			return -1;
		}
		return 0;
	}
	if (!real_ioctl)
		real_ioctl = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	return real_ioctl(fd, cmd, arg);
}
