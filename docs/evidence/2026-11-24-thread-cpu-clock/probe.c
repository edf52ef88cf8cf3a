/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fixed work on CPU 1, its thread CPU clock per chunk, with hogs on CPU 1
 * and/or CPU 0.  gcc -O1 -o probe probe.c; run in a guest as root.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <time.h>
#include <sys/wait.h>
#include <stdint.h>
static uint64_t tcpu(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec * 1000000000ull + t.tv_nsec; }
static uint64_t mono(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1000000000ull + t.tv_nsec; }
static volatile unsigned sink;
static void work(long n) { unsigned x = 1; for (long i = 0; i < n; i++) x = x * 1103515245u + 12345u; sink = x; }
static void pin(int c) { cpu_set_t s; CPU_ZERO(&s); CPU_SET(c, &s); sched_setaffinity(0, sizeof(s), &s); }
static pid_t hog(int c) { pid_t p = fork(); if (!p) { pin(c); for (;;) sink++; } return p; }
static int cmp(const void *a, const void *b) { uint64_t x = *(uint64_t *)a, y = *(uint64_t *)b; return x < y ? -1 : x > y; }
static void busy0(unsigned long long *b, unsigned long long *a) { FILE *f = fopen("/proc/stat", "r"); char l[512]; while (fgets(l, sizeof l, f)) if (!strncmp(l, "cpu0 ", 5)) { unsigned long long v[10] = {0}; sscanf(l + 5, "%llu %llu %llu %llu %llu %llu %llu %llu", v, v+1, v+2, v+3, v+4, v+5, v+6, v+7); *b = v[0]+v[1]+v[2]+v[5]+v[6]; *a = 0; for (int i = 0; i < 8; i++) *a += v[i]; } fclose(f); }
int main(void) {
	long n = 1000;
	pin(1);
	for (;;) { uint64_t t = tcpu(); work(n); if (tcpu() - t >= 1000000) break; n *= 2; }
	const char *names[] = {"alone", "hog cpu1", "busy cpu0", "hog cpu1 + busy cpu0"};
	int h1[] = {0, 1, 0, 1}, h0[] = {0, 0, 1, 1};
	for (int r = 0; r < 2; r++) for (int s = 0; s < 4; s++) {
		pid_t a = h1[s] ? hog(1) : 0, b = h0[s] ? hog(0) : 0;
		usleep(200000);
		uint64_t c[300], w[300]; unsigned long long b0, a0, b1, a1;
		busy0(&b0, &a0);
		for (int i = 0; i < 300; i++) { uint64_t t = tcpu(), m = mono(); work(n); c[i] = tcpu() - t; w[i] = mono() - m; }
		busy0(&b1, &a1);
		if (a) kill(a, 9); if (b) kill(b, 9); while (wait(NULL) > 0);
		qsort(c, 300, 8, cmp); qsort(w, 300, 8, cmp);
		printf("%-22s n=%ld cpu0 %llu/%llu  thread-cpu us med %llu p99 %llu max %llu | wall us med %llu max %llu\n", names[s], n, b1-b0, a1-a0,
		       (unsigned long long)c[150]/1000, (unsigned long long)c[297]/1000, (unsigned long long)c[299]/1000, (unsigned long long)w[150]/1000, (unsigned long long)w[299]/1000);
		fflush(stdout);
	}
	return 0;
}
