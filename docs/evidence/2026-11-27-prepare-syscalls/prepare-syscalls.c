// SPDX-License-Identifier: MIT
/*
 * What the Queue-Boost prepare's system calls cost, natively on the host:
 * the loop thread's CPU clock (clock_gettime() of a per-thread clock id,
 * LoopCpuNs() in node-binding/src/queue_monitor.cc: a real system call,
 * no vDSO) against the poll() of the loop's epoll fd that a prepare whose
 * poll may block already makes (Readable()), and the vDSO's monotonic clock
 * (uv_hrtime()).  Each is called in a tight loop on one thread.
 *
 *   cc -O2 -o prepare-syscalls prepare-syscalls.c -lpthread && ./prepare-syscalls
 */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(void)
{
	const int n = 2000000;
	struct epoll_event ev = { .events = EPOLLIN };
	struct timespec ts;
	clockid_t thread_clock;
	int efd, ep, rep, i;

	pthread_getcpuclockid(pthread_self(), &thread_clock);
	/* An epoll set with one ready fd, as a saturated loop's. */
	efd = eventfd(1, EFD_NONBLOCK);
	ep = epoll_create1(0);
	ev.data.fd = efd;
	if (efd < 0 || ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev))
		return 1;
	for (rep = 0; rep < 5; rep++) {
		double t0, t1, t2, t3;

		t0 = now_ns();
		for (i = 0; i < n; i++)
			clock_gettime(thread_clock, &ts);
		t1 = now_ns();
		for (i = 0; i < n; i++) {
			struct pollfd p = { ep, POLLIN, 0 };

			poll(&p, 1, 0);
		}
		t2 = now_ns();
		for (i = 0; i < n; i++)
			clock_gettime(CLOCK_MONOTONIC, &ts);
		t3 = now_ns();
		printf("rep %d: thread CPU clock %.0f ns, poll(epoll fd) %.0f ns, monotonic (vDSO) %.0f ns; clock/poll %.2f\n",
		       rep, (t1 - t0) / n, (t2 - t1) / n, (t3 - t2) / n,
		       (t1 - t0) / (t2 - t1));
	}
	return 0;
}
