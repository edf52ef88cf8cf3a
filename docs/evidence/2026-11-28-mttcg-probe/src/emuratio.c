// emuratio: the measurement of selftests/eventboost_test.c's
// emulated/runtime_follows_frequency (docs/evidence/2026-11-24-emulation),
// without its rule that drops pairs during which the other CPUs were busy:
// this probe wants the ratio *with* CPU 0 busy.  Runs in the guest with
// eventboost.ko and ebtest_cpufreq.ko (shared=0 fast_switch=1 emulate=1)
// loaded; pins itself to the last CPU, uses the eventboost governor's
// base_freq tunable as the test does, 7 back-to-back pairs (4 GHz, then f)
// per frequency, median ratio.  Also prints each pair's other-CPU busy share.
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DRV "/dev/ebtest_cpufreq"
#define CF "/sys/devices/system/cpu/cpufreq"

static int wr(const char *p, const char *v)
{
	FILE *f = fopen(p, "w");
	if (!f) return -1;
	int r = fputs(v, f) < 0;
	return fclose(f) || r ? -1 : 0;
}

static char buf[1 << 20];
static char *drv(void)
{
	FILE *f = fopen(DRV, "r");
	size_t n;
	if (!f) return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return buf;
}

static long cur_khz(int pol)
{
	char *b = drv(), *l, *s;
	int p; long cur;
	if (!b) return -1;
	for (l = strtok_r(b, "\n", &s); l; l = strtok_r(NULL, "\n", &s))
		if (sscanf(l, "policy %d cur %ld", &p, &cur) == 2 && p == pol)
			return cur;
	return -1;
}

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

/* others' busy ns so far, from the driver's idle lines */
static double others_busy(int cpu)
{
	char *b, *l, *s;
	int c, n = 0; long long us; double idle = 0, t = now_ns();
	b = drv();
	if (!b) return -1;
	for (l = strtok_r(b, "\n", &s); l; l = strtok_r(NULL, "\n", &s))
		if (sscanf(l, "idle %d %lld", &c, &us) == 2 && c != cpu) {
			if (us < 0) return -1;
			idle += us * 1e3; n++;
		}
	return n ? n * t - idle : -1;
}

static double spin_ms(unsigned long n)
{
	volatile unsigned long x = 0;
	double a = now_ns();
	for (unsigned long i = 0; i < n; i++) x += i;
	return (now_ns() - a) / 1e6;
}

static char tun[160];
static double timed_at(int pol, long khz, unsigned long n)
{
	char v[16];
	snprintf(v, sizeof(v), "%ld", khz);
	if (wr(tun, v)) { perror(tun); exit(1); }
	for (int t = 0; t < 400 && cur_khz(pol) != khz; t++) usleep(5000);
	if (cur_khz(pol) != khz) { fprintf(stderr, "cur != %ld\n", khz); exit(1); }
	return spin_ms(n);
}

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	const long khz[] = { 3300000, 2600000, 1600000 };
	int cpu = sysconf(_SC_NPROCESSORS_ONLN) - 1, pol = cpu;
	const char *label = argc > 1 ? argv[1] : "";
	double target = argc > 2 ? atof(argv[2]) : 30;
	unsigned long n = 1UL << 16;
	char p[160];
	cpu_set_t set;

	CPU_ZERO(&set); CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) { perror("affinity"); return 1; }
	snprintf(p, sizeof(p), CF "/policy%d/scaling_governor", pol);
	if (wr(p, "performance") || wr(p, "eventboost")) { perror(p); return 1; }
	snprintf(tun, sizeof(tun), CF "/policy%d/eventboost/base_freq", pol);
	timed_at(pol, 4000000, 1);
	while (spin_ms(n) < target) n *= 2;
	printf("# %s: cpu %d, n=%lu (about %.0f ms or more at 4 GHz)\n", label, cpu, n, target);
	for (unsigned i = 0; i < 3; i++) {
		double r[7], full[7], ob[7], want = 4000000.0 / khz[i];
		for (int k = 0; k < 7; k++) {
			double o0 = others_busy(cpu), f, s;
			f = timed_at(pol, 4000000, n);
			s = timed_at(pol, khz[i], n);
			ob[k] = (others_busy(cpu) - o0) / 1e6 / (f + s);
			r[k] = s / f; full[k] = f;
		}
		printf("# %s: %ld kHz pairs (ratio, 4GHz ms, others busy share):", label, khz[i]);
		for (int k = 0; k < 7; k++) printf(" %.2f/%.1f/%.2f", r[k], full[k], ob[k]);
		printf("\n");
		qsort(r, 7, sizeof(r[0]), cmpd); qsort(full, 7, sizeof(full[0]), cmpd);
		qsort(ob, 7, sizeof(ob[0]), cmpd);
		printf("%s: %ld kHz: %.2fx the 4 GHz run time (1/f: %.2fx), median of 7 pairs (min %.2f max %.2f); 4 GHz run %.1f ms median; others busy %.0f%% median\n",
		       label, khz[i], r[3], want, r[0], r[6], full[3], ob[3] * 100);
	}
	wr(tun, "0");
	return 0;
}
