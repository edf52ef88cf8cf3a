// beside: does CPU 1 run beside CPU 0 or take turns with it?  A fixed loop
// pinned to the last CPU, timed REPS times; run once with CPU 0 idle and once
// with a spinner on CPU 0 (the caller starts it).  Prints each run's ms and
// the median.  No cpufreq driver needed.
//   beside LABEL N REPS
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
static double now_ms(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
int main(int argc, char **argv)
{
	unsigned long n = strtoul(argv[2], 0, 0);
	int reps = atoi(argv[3]), cpu = sysconf(_SC_NPROCESSORS_ONLN) - 1;
	double ms[64];
	cpu_set_t s; CPU_ZERO(&s); CPU_SET(cpu, &s);
	if (sched_setaffinity(0, sizeof(s), &s)) return 1;
	printf("# %s: cpu %d n=%lu runs(ms):", argv[1], cpu, n);
	for (int r = 0; r < reps; r++) {
		volatile unsigned long x = 0; double a = now_ms();
		for (unsigned long i = 0; i < n; i++) x += i;
		ms[r] = now_ms() - a; printf(" %.1f", ms[r]); fflush(stdout);
	}
	qsort(ms, reps, sizeof(ms[0]), cmpd);
	printf("\n%s: median %.1f ms (min %.1f max %.1f) over %d runs of n=%lu\n", argv[1], ms[reps / 2], ms[0], ms[reps - 1], reps, n);
	return 0;
}
