// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libeventboost: a thin, thread-safe wrapper around /dev/eventboost.
 * Each call is one ioctl on the client's fd; the kernel serializes what
 * must be serialized, so the handle needs no lock.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "eventboost.h"
#include "../uapi/linux/eventboost.h"

struct eb_client {
	int fd;
};

static int eb_ioctl(struct eb_client *c, unsigned long cmd, void *arg)
{
	if (!c)
		return -EINVAL;
	return ioctl(c->fd, cmd, arg) ? -errno : 0;
}

/*
 * The module's device appears before its governor is registered and
 * refuses opens (EAGAIN) until it is: a client started by the device's
 * appearance waits for that (a load takes microseconds; up to a second
 * here), or sees the device go (ENOENT) with a load that failed.
 */
static int eb_open_device(const char *device, int flags)
{
	const struct timespec ms = { .tv_nsec = 1000000 };
	struct timespec now, end;
	int fd;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += 1;
	while ((fd = open(device, flags)) < 0 && errno == EAGAIN) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end.tv_sec ||
		    (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec))
			break;
		nanosleep(&ms, NULL);	/* (a signal only shortens a step) */
	}
	return fd;
}

/* @mode: O_RDWR for a client that hints, O_RDONLY for one that reads. */
static int eb_open_mode(struct eb_client **out, const char *device, int mode)
{
	struct eb_version v;
	struct eb_client *c;
	int fd, ret;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!device) {
		device = getenv("EVENTBOOST_DEVICE");
		if (!device || !*device)
			device = EB_DEFAULT_DEVICE;
	}
	fd = eb_open_device(device, mode | O_CLOEXEC);
	if (fd < 0) {
		/* A node with no driver behind it: the module is not loaded. */
		if (errno == ENODEV || errno == ENXIO)
			return -ENOENT;
		return errno == EPERM ? -EACCES : -errno;
	}
	memset(&v, 0, sizeof(v));
	if (ioctl(fd, EB_IOC_VERSION, &v)) {
		/* not our device (ENOTTY) or an ABI we do not speak */
		ret = errno == ENOTTY ? -ENOTTY : -errno;
		goto fail;
	}
	if (v.abi_version != EB_ABI_VERSION) {
		ret = -EPROTO;
		goto fail;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		ret = -ENOMEM;
		goto fail;
	}
	c->fd = fd;
	*out = c;
	return 0;
fail:
	close(fd);
	return ret;
}

int eb_open(struct eb_client **out, const char *device)
{
	return eb_open_mode(out, device, O_RDWR);
}

int eb_open_readonly(struct eb_client **out, const char *device)
{
	return eb_open_mode(out, device, O_RDONLY);
}

void eb_close(struct eb_client *c)
{
	if (!c)
		return;
	close(c->fd);
	free(c);
}

int eb_bind(struct eb_client *c, int tid)
{
	struct eb_bind b = { .tid = tid };

	return eb_ioctl(c, EB_IOC_BIND, &b);
}

int eb_gc_enter(struct eb_client *c)
{
	return eb_ioctl(c, EB_IOC_GC_ENTER, NULL);
}

int eb_gc_exit(struct eb_client *c)
{
	return eb_ioctl(c, EB_IOC_GC_EXIT, NULL);
}

int eb_queue_busy(struct eb_client *c)
{
	return eb_ioctl(c, EB_IOC_QUEUE_BUSY, NULL);
}

int eb_queue_idle(struct eb_client *c)
{
	return eb_ioctl(c, EB_IOC_QUEUE_IDLE, NULL);
}

int eb_boost_for(struct eb_client *c, unsigned int usec)
{
	struct eb_boost_for b = { .usec = usec };

	return eb_ioctl(c, EB_IOC_BOOST_FOR, &b);
}

_Static_assert(EB_HOLDS_GC == EB_VOTE_GC && EB_HOLDS_QUEUE == EB_VOTE_QUEUE &&
	       EB_HOLDS_TIMED == EB_VOTE_TIMED, "EB_HOLDS_* are the uapi's bits");

int eb_votes(struct eb_client *c)
{
	struct eb_client_info info;
	int ret = eb_ioctl(c, EB_IOC_CLIENT_INFO, &info);

	if (ret)
		return ret;
	/* A timed vote past its end is dropped at the client's next tick. */
	if (!info.timed_left_us)
		info.votes &= ~EB_VOTE_TIMED;
	return (int)(info.votes & (EB_HOLDS_GC | EB_HOLDS_QUEUE | EB_HOLDS_TIMED));
}

int eb_stats_sized(struct eb_client *c, unsigned int cpu,
		   struct eb_stats *out, size_t size)
{
	struct eb_policy_stats k;
	struct eb_stats full, *st = &full;
	int ret;

	if (!out || size < EB_STATS_SIZE_V1)
		return -EINVAL;
	memset(&k, 0, sizeof(k));
	k.cpu = cpu;
	ret = eb_ioctl(c, EB_IOC_POLICY_STATS, &k);
	if (ret)
		return ret;
	memset(st, 0, sizeof(*st));
	st->policy_cpu = k.policy_cpu;
	st->governed = !!(k.flags & EB_POLICY_GOVERNED);
	st->fast_switch = !!(k.flags & EB_POLICY_FAST_SWITCH);
	st->boosted = !!(k.flags & EB_POLICY_BOOSTED);
	st->budget_spent = !!(k.flags & EB_POLICY_BUDGET_SPENT);
	st->cur_khz = k.cur_khz;
	st->target_khz = k.target_khz;
	st->base_khz = k.base_khz;
	st->boost_khz = k.boost_khz;
	st->max_boost_us = k.max_boost_us;
	st->budget_pct = k.budget_pct;
	st->hints_gc = k.hints[EB_REASON_GC];
	st->hints_queue = k.hints[EB_REASON_QUEUE];
	st->hints_timed = k.hints[EB_REASON_TIMED];
	st->boosts = k.boosts;
	st->boosted_ns = k.boosted_ns;
	st->governed_ns = k.governed_ns;
	st->watchdog_ends = k.watchdog_ends;
	st->budget_ends = k.budget_ends;
	st->refused = k.refused;
	st->applied = k.applied;
	for (int i = 0; i < EB_LAT_BUCKETS && i < 16; i++)
		st->latency[i] = k.latency[i];
	if (size > sizeof(full)) {
		memset((char *)out + sizeof(full), 0, size - sizeof(full));
		size = sizeof(full);
	}
	memcpy(out, &full, size);
	return 0;
}

/* The 0.1.0 entry point: its callers' struct is EB_STATS_SIZE_V1 bytes. */
#undef eb_stats
int eb_stats(struct eb_client *c, unsigned int cpu, struct eb_stats *st)
{
	return eb_stats_sized(c, cpu, st, EB_STATS_SIZE_V1);
}

long eb_latency_percentile_us(const struct eb_stats *st, double pct)
{
	uint64_t total = 0, seen = 0, want;
	int i;

	if (!st || pct < 0 || pct > 100)
		return -EINVAL;
	for (int i = 0; i < 16; i++)
		total += st->latency[i];
	if (!total)
		return -ENODATA;
	want = (uint64_t)(pct / 100.0 * (double)total + 0.999999);
	if (!want)
		want = 1;
	for (i = 0; i < 15; i++) {
		seen += st->latency[i];
		if (seen >= want)
			break;
	}
	/* Bucket i is < 2^i us; the last has no upper bound: 32768 says it. */
	return 1L << i;
}

const char *eb_strerror(int err)
{
	switch (err) {
	case 0:
		return "success";
	case -ENOENT:
	case -ENXIO:
		return "no eventboost device: the module is not loaded (run 'sudo modprobe eventboost'), or EVENTBOOST_DEVICE names a missing path, or a container was started without --device /dev/eventboost";
	case -ENODEV:
		return "no cpufreq policy for this CPU: it is offline, or no cpufreq driver runs it (in a virtual machine the hypervisor often owns the clock); 'ebctl status' lists the policies";
	case -EACCES:
	case -EPERM:
		return "permission denied: the client is not in the bound thread's process, or the user cannot open /dev/eventboost (add the user to group 'eventboost', in a container --group-add the host's eventboost GID; the udev rule 60-eventboost.rules makes the device root:eventboost 0660)";
	case -EPROTO:
		return "ABI mismatch: the eventboost module and this libeventboost (ABI 1) speak different versions; install matching versions";
	case -ENOTTY:
		return "not an eventboost device: check EVENTBOOST_DEVICE";
	case -EAGAIN:
		return "the eventboost module is still loading (its device refused to open for a second): try again once 'modprobe eventboost' has returned";
	case -EBUSY:
		return "boost refused: the policy's budget_pct, or this process's share of it (half), is spent for this 1 s window; retry later or raise budget_pct";
	case -ESRCH:
		return "no such thread: the thread given to eb_bind() is not in this process, or the bound thread has exited; bind a live thread of this process";
	case -EINVAL:
		return "invalid argument: a NULL handle or buffer, a size below EB_STATS_SIZE_V1, a duration above 10 s, or a CPU or thread id out of range";
	case -EBADF:
		return "bad file descriptor: the client was opened read-only (eb_open_readonly()), whose hints and eb_bind() are refused (use eb_open(), with write access to /dev/eventboost: group 'eventboost'), or its descriptor was closed behind the library's back";
	case -ENOMEM:
		return "out of memory";
	default:
		return err < 0 ? strerror(-err) : "unknown error";
	}
}
