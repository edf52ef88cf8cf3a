// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ebctl — operator CLI for the eventboost cpufreq governor.
 *
 *   ebctl status [--json] [--watch[=INTERVAL] [--count N]]
 *                                      cpufreq policies and eventboost counters
 *   ebctl set KEY=VALUE... [--policy LIST] tunables (root)
 *   ebctl boost --for DURATION [--cpu N] a timed boost of this process's core
 *
 * The cpufreq side comes from sysfs, the eventboost side from libeventboost
 * (eb_stats, eb_boost_for).  Parsing and formatting live in ebctl_parse.c so
 * they can be tested without a kernel.
 */
#define _GNU_SOURCE		/* sched_setaffinity, sched_getcpu, getopt_long */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "eventboost.h"
#include "ebctl_parse.h"

#define EBCTL_VERSION		"0.1.0"
#define DEFAULT_CPUFREQ_DIR	"/sys/devices/system/cpu/cpufreq"
#define GOVERNOR		"eventboost"

/* One eb_boost_for() holds at most this long (EB_BOOST_FOR_MAX_US). */
#define BOOST_FOR_MAX_US	10000000ULL
/* Longer boosts are re-issued this often. */
#define REISSUE_US		1000000ULL
/* Sanity limit of `boost --for`: the watchdog (<= 10 s) cuts any hold
 * anyway, so a longer run is almost certainly a typo. */
#define BOOST_MAX_TOTAL_US	(24ULL * 3600 * 1000000)
/* Version of `status --json`'s layout: raised when a key changes meaning or
 * goes away (new keys may appear in any version). */
#define JSON_SCHEMA_VERSION	1
/* `status --watch` without an interval. */
#define WATCH_DEFAULT_US	1000000ULL

enum {
	RC_OK = 0,
	RC_FAIL = 1,		/* runtime failure */
	RC_USAGE = 2,		/* usage error or invalid value */
	RC_NOTREADY = 3,	/* module not loaded or no cpufreq */
	RC_PERM = 4,		/* permission denied */
};

static uint64_t now_us(void);
static void sleep_until_us(uint64_t t);

/* cpufreq's sysfs directory; EBCTL_CPUFREQ_DIR overrides it for tests. */
static const char *cpufreq_dir = DEFAULT_CPUFREQ_DIR;

/* ---------------------------------------------------------------- help */

static const char main_usage[] =
"Usage: ebctl <command> [options]\n"
"       ebctl --help | --version\n"
"\n"
"Operate the eventboost cpufreq governor and its hint device /dev/eventboost.\n"
"\n"
"Commands:\n"
"  status [--json] [--watch[=INTERVAL] [--count N]]\n"
"                                   cpufreq policies and eventboost counters\n"
"  set KEY=VALUE... [--policy LIST] change eventboost tunables (root)\n"
"  boost --for DURATION [--cpu N]   boost this process's core for a while\n"
"\n"
"Run 'ebctl <command> --help' for details.\n"
"\n"
"Exit status:\n"
"  0  success\n"
"  1  runtime failure\n"
"  2  usage error or invalid value\n"
"  3  eventboost module not loaded, or no cpufreq driver active\n"
"  4  permission denied (hint device or tunables)\n"
"\n"
"Environment:\n"
"  EVENTBOOST_DEVICE   hint device (default /dev/eventboost)\n"
"  EBCTL_CPUFREQ_DIR   cpufreq sysfs directory, for tests\n"
"                      (default " DEFAULT_CPUFREQ_DIR ")\n";

static const char status_usage[] =
"Usage: ebctl status [--json] [--watch[=INTERVAL] [--count N]]\n"
"\n"
"For every cpufreq policy: its CPUs, driver, governor and current frequency;\n"
"for policies run by eventboost also base/boost frequency, path (fast switch\n"
"or worker thread), whether it is boosted now, share of time boosted, hints\n"
"by reason, boosts, watchdog and budget ends, refused hints, the limits and\n"
"the hint->applied latency (p50/p99, upper bounds; \">= 16.38 ms\" has none).\n"
"\n"
"  --json             one JSON object on one line: {\"schema_version\": 1,\n"
"                     \"module_loaded\": bool, \"policies\": [...], ...},\n"
"                     values in base units (khz, us, ns, counts); a latency\n"
"                     percentile is null without data, 32768 in the last\n"
"                     bucket (latency_histogram[15]: 16384 us or more)\n"
"  --watch[=INTERVAL] print again every INTERVAL (default 1s; 1s, 500ms...)\n"
"                     with the boosts, hints and boosted time of the\n"
"                     interval; with --json one object per line\n"
"  --count N          with --watch: stop after N reports (default: never)\n"
"\n"
"Without the eventboost module the cpufreq part is still shown, and the\n"
"exit status is 3.  Without any cpufreq policy it says why (a VM or a\n"
"cloud instance whose hypervisor owns the clock, no driver loaded...).\n"
"Exit status: 0 ok, 1 failure, 2 usage, 3 module not loaded or no cpufreq\n"
"driver active, 4 no permission on /dev/eventboost (the cpufreq part is\n"
"still shown).\n";

static const char set_usage[] =
"Usage: ebctl set KEY=VALUE... [--policy LIST]\n"
"\n"
"Keys (all pairs are checked before anything is written; the tunable's\n"
"file name in parentheses is accepted as a key too):\n"
"  base=FREQ        frequency without a vote     (base_freq)\n"
"  boost=FREQ       frequency while boosted      (boost_freq)\n"
"  max-boost=TIME   watchdog, 1us .. 10s         (max_boost_us)\n"
"  rate-limit=TIME  frequency changes at most once per TIME, 0 .. 100ms\n"
"                   (rate_limit_us)\n"
"  budget=PCT       boosted share of each second, 1 .. 100 (budget_pct)\n"
"\n"
"  FREQ: 2.6GHz, 2600MHz, 2600000kHz, 2600000 (bare = kHz), 0 or default;\n"
"        within the policy's cpuinfo_min_freq .. cpuinfo_max_freq\n"
"  TIME: 1s, 50ms, 1.5ms, 100us, 100 (bare = us)\n"
"  PCT:  30% or 30\n"
"\n"
"  --policy LIST  only these policies, as cpupower -c takes CPUs: 2,3 or\n"
"                 0-3 or 0-1,4 or all (default: every policy whose governor\n"
"                 is eventboost); with global tunables every such policy\n"
"                 changes\n"
"\n"
"The module keeps the values, per policy, across CPU hotplug, suspend and\n"
"governor switches until it is unloaded; EVENTBOOST_SETTINGS in\n"
"/etc/default/eventboost sets them at boot.\n"
"\n"
"Exit status: 0 ok, 1 failure, 2 invalid key or value (also when the kernel\n"
"refuses it), 3 module not loaded or no cpufreq, 4 not root.\n";

static const char boost_usage[] =
"Usage: ebctl boost --for DURATION [--cpu N]\n"
"\n"
"Hold a timed boost of the core this process runs on, then release it.\n"
"\n"
"  --for DURATION   1.5h, 2min, 1s, 50ms, 1.5ms, 100us, 100 (bare = us),\n"
"                   at most 24h.  The policy's watchdog (max_boost_us, 100ms\n"
"                   by default) ends any vote held longer: ebctl says so at\n"
"                   once, holds the boost as long as the watchdog allows and\n"
"                   exits then (raise it: ebctl set max-boost=2s).  The\n"
"                   budget (budget_pct) may end it sooner too.\n"
"  --cpu N          run on CPU N first, so that CPU's policy is boosted\n"
"\n"
"Exit status: 0 ok, 1 failure (e.g. budget spent, policy not run by\n"
"eventboost), 2 usage, 3 module not loaded or no cpufreq policy for the CPU,\n"
"4 no permission on the device.\n";

static void usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A usage problem: say what, and where the help is. */
static void usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("ebctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'ebctl %s--help'.\n", cmd ? cmd : "");
}

/* The long option of @opts that takes no value and was given one
 * ("--json=1", or abbreviated "--js=1": getopt_long sets optopt to its
 * val), else NULL. */
static const char *long_given_value(const struct option *opts,
				    const char *arg)
{
	size_t len;

	if (strncmp(arg, "--", 2) || !strchr(arg, '='))
		return NULL;
	len = (size_t)(strchr(arg, '=') - arg - 2);
	for (; opts->name; opts++)
		if (opts->has_arg == no_argument && opts->val == optopt &&
		    len && !strncmp(opts->name, arg + 2, len))
			return opts->name;
	return NULL;
}

/* getopt_long's '?' and ':' results as a message (opterr is off). */
static int bad_option(const char *cmd, int c, char **argv,
		      const struct option *opts)
{
	const char *name = long_given_value(opts, argv[optind - 1]);

	if (c == ':')
		usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
	else if (name)
		usage_error(cmd, "option '--%s' takes no value", name);
	else if (optopt)	/* an unknown short option, maybe in a group */
		usage_error(cmd, "unknown option '-%c'", optopt);
	else
		usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
	return RC_USAGE;
}

/* Print a help text: asked for, so on stdout, and success. */
static int show_help(const char *text)
{
	fputs(text, stdout);
	return RC_OK;
}

/* -------------------------------------------------------------- errors */

/* eb_open() says -ENOENT for a node with no driver behind it too. */
static bool err_not_loaded(int err)
{
	return err == -ENOENT || err == -ENXIO;
}

/* Exit status for a negative errno from libeventboost (-ENODEV: the CPU
 * has no cpufreq policy). */
static int rc_for_eb_err(int err)
{
	if (err_not_loaded(err) || err == -ENODEV)
		return RC_NOTREADY;
	if (err == -EACCES || err == -EPERM)
		return RC_PERM;
	if (err == -EINVAL)
		return RC_USAGE;
	return RC_FAIL;
}

static int report_eb_err(int err)
{
	fprintf(stderr, "ebctl: %s\n", eb_strerror(err));
	return rc_for_eb_err(err);
}

/* How to select the governor, for policy @id or, if negative, any. */
static void print_select_hint(FILE *f, long id)
{
	if (id < 0)
		fprintf(f, "select it: echo " GOVERNOR " > %s/policyN/"
			"scaling_governor (as root)\n", cpufreq_dir);
	else
		fprintf(f, "select it: echo " GOVERNOR " > %s/policy%ld/"
			"scaling_governor (as root)\n", cpufreq_dir, id);
}

/* --------------------------------------------------------------- sysfs */

/* Read a sysfs attribute without its trailing newline/blanks. */
static int read_attr(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return 0;
}

/* Write a tunable: sysfs reports EINVAL from write(), EACCES from open(). */
static int write_attr(const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* ------------------------------------------------------------ policies */

struct policy {
	unsigned int id;		/* policyN */
	unsigned int *cpus;		/* affected_cpus: its online CPUs */
	size_t ncpus;
	char driver[64];		/* "" when unreadable */
	char governor[64];
	unsigned int cur_khz, min_khz, max_khz;	/* 0 when unreadable */
	bool has_stats;			/* eventboost counters in st */
	int stats_err;			/* why not, 0 if never asked */
	struct eb_stats st;
};

static int policy_attr(const struct policy *p, const char *name,
		       char *buf, size_t len)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/policy%u/%s", cpufreq_dir,
			     p->id, name) >= sizeof(path))
		return -ENAMETOOLONG;
	return read_attr(path, buf, len);
}

static unsigned int policy_khz(const struct policy *p, const char *name)
{
	unsigned int v;
	char buf[32];

	if (policy_attr(p, name, buf, sizeof(buf)) || ebp_parse_uint(buf, &v))
		return 0;
	return v;
}

static bool policy_is_eb(const struct policy *p)
{
	return !strcmp(p->governor, GOVERNOR);
}

/* A CPU of the policy for eb_stats(): an online one if there is any. */
static unsigned int policy_cpu(const struct policy *p)
{
	return p->ncpus ? p->cpus[0] : p->id;
}

static int load_cpus(struct policy *p)
{
	char buf[4096 + 1];	/* a sysfs attribute is at most a page */
	size_t n;

	if (policy_attr(p, "affected_cpus", buf, sizeof(buf)) ||
	    ebp_parse_cpulist(buf, NULL, 0, &n) || !n)
		return 0;	/* shown as "-": not worth failing status */
	p->cpus = calloc(n, sizeof(*p->cpus));
	if (!p->cpus)
		return -ENOMEM;
	ebp_parse_cpulist(buf, p->cpus, n, &p->ncpus);
	return 0;
}

static int load_policy(struct policy *p)
{
	if (policy_attr(p, "scaling_driver", p->driver, sizeof(p->driver)))
		p->driver[0] = '\0';
	if (policy_attr(p, "scaling_governor", p->governor,
			sizeof(p->governor)))
		p->governor[0] = '\0';
	p->cur_khz = policy_khz(p, "scaling_cur_freq");
	p->min_khz = policy_khz(p, "cpuinfo_min_freq");
	p->max_khz = policy_khz(p, "cpuinfo_max_freq");
	return load_cpus(p);
}

static void free_policies(struct policy *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i].cpus);
	free(v);
}

static int cmp_policy(const void *a, const void *b)
{
	const struct policy *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* The policy ids found in cpufreq_dir; -ENOENT when there is no cpufreq. */
static int scan_policies(struct policy **out, size_t *n)
{
	struct policy *v = NULL, *nv;
	size_t cnt = 0, cap = 0;
	struct dirent *e;
	DIR *d;

	d = opendir(cpufreq_dir);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		unsigned int id;

		if (ebp_parse_policy_name(e->d_name, &id))
			continue;
		if (cnt == cap) {
			cap = cap ? 2 * cap : 16;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				closedir(d);
				free(v);
				return -ENOMEM;
			}
			v = nv;
		}
		memset(&v[cnt], 0, sizeof(v[cnt]));
		v[cnt++].id = id;
	}
	closedir(d);
	qsort(v, cnt, sizeof(*v), cmp_policy);
	*out = v;
	*n = cnt;
	return 0;
}

/* All policies, sorted, with their sysfs state.  *n is 0 without cpufreq. */
static int list_policies(struct policy **out, size_t *n)
{
	size_t i;
	int err;

	*out = NULL;
	*n = 0;
	err = scan_policies(out, n);
	if (err == -ENOENT)
		return 0;
	if (err)
		return err;
	for (i = 0; i < *n; i++) {
		err = load_policy(&(*out)[i]);
		if (err) {
			free_policies(*out, *n);
			*out = NULL;
			*n = 0;
			return err;
		}
	}
	return 0;
}

/* Does /proc/cpuinfo carry the "hypervisor" flag (x86 guests)? */
static bool under_hypervisor(void)
{
	const char *path = getenv("EBCTL_CPUINFO");
	char line[4096];
	bool found = false;
	FILE *f;

	f = fopen(path && *path ? path : "/proc/cpuinfo", "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		if (!strncmp(line, "flags", 5) && strstr(line, " hypervisor"))
			found = true;
	fclose(f);
	return found;
}

/* Why there is no cpufreq policy: one sentence, for humans and JSON. */
static const char *no_cpufreq_reason(void)
{
	if (under_hypervisor())
		return "this is a virtual machine: its hypervisor owns the CPU "
		       "clock and exposes no P-states, so no governor can "
		       "choose a frequency here (eventboost needs bare metal, "
		       "or an instance type that exposes P-states)";
	return "no cpufreq driver is loaded: check that the firmware enables "
	       "P-states (SpeedStep/Cool'n'Quiet/CPPC) and that a driver "
	       "such as acpi_cpufreq, intel_pstate or amd_pstate is loaded "
	       "(dmesg | grep -i cpufreq)";
}

static void no_cpufreq_message(void)
{
	fprintf(stderr, "ebctl: no cpufreq policy in %s: %s\n", cpufreq_dir,
		no_cpufreq_reason());
}

/* -------------------------------------------------------- JSON writer */

/* Just enough of a JSON writer: objects, arrays, scalars, commas. */
struct jw {
	FILE *f;
	int depth;
	bool first[8];
};

static void jw_pre(struct jw *w, const char *key)
{
	if (!w->first[w->depth])
		fputc(',', w->f);
	w->first[w->depth] = false;
	if (key)		/* keys are our own ASCII literals */
		fprintf(w->f, "\"%s\":", key);
}

static void jw_open(struct jw *w, const char *key, char brace)
{
	jw_pre(w, key);
	fputc(brace, w->f);
	w->first[++w->depth] = true;
}

static void jw_close(struct jw *w, char brace)
{
	w->depth--;
	fputc(brace, w->f);
}

static void jw_u64(struct jw *w, const char *key, uint64_t v)
{
	jw_pre(w, key);
	fprintf(w->f, "%llu", (unsigned long long)v);
}

/* An unsigned value, or null when @valid is false. */
static void jw_u64_or_null(struct jw *w, const char *key, uint64_t v,
			   bool valid)
{
	if (valid) {
		jw_u64(w, key, v);
	} else {
		jw_pre(w, key);
		fputs("null", w->f);
	}
}

/* A percentage with two decimals ("C" locale: we never call setlocale). */
static void jw_pct_or_null(struct jw *w, const char *key, uint64_t part,
			   uint64_t whole)
{
	jw_pre(w, key);
	if (whole)
		fprintf(w->f, "%.2f", 100.0 * (double)part / (double)whole);
	else
		fputs("null", w->f);
}

static void jw_bool(struct jw *w, const char *key, bool v)
{
	jw_pre(w, key);
	fputs(v ? "true" : "false", w->f);
}

/* A string, or null for NULL or "" (an unreadable attribute). */
static void jw_str(struct jw *w, const char *key, const char *s)
{
	char buf[1024];

	jw_pre(w, key);
	if (!s || !*s) {
		fputs("null", w->f);
		return;
	}
	ebp_json_string(s, buf, sizeof(buf));	/* cut but valid if long */
	fputs(buf, w->f);
}

/* --------------------------------------------------------------- status */

/* Latency percentile in us for output, or -1 when there is no data. */
static long latency_us(const struct eb_stats *st, double pct)
{
	long v = eb_latency_percentile_us(st, pct);

	return v < 0 ? -1 : v;
}

static void json_eb_stats(struct jw *w, const struct eb_stats *st)
{
	long p50 = latency_us(st, 50), p99 = latency_us(st, 99);
	int i;

	jw_open(w, "eventboost", '{');
	jw_u64(w, "policy_cpu", st->policy_cpu);
	jw_bool(w, "governed", st->governed);
	jw_str(w, "path", st->fast_switch ? "fast_switch" : "worker");
	jw_bool(w, "boosted", st->boosted);
	jw_bool(w, "budget_spent", st->budget_spent);
	jw_u64(w, "cur_khz", st->cur_khz);
	jw_u64(w, "target_khz", st->target_khz);
	jw_u64(w, "base_khz", st->base_khz);
	jw_u64(w, "boost_khz", st->boost_khz);
	jw_u64(w, "max_boost_us", st->max_boost_us);
	jw_u64(w, "budget_pct", st->budget_pct);
	jw_u64(w, "boosted_ns", st->boosted_ns);
	jw_u64(w, "governed_ns", st->governed_ns);
	jw_pct_or_null(w, "boosted_pct", st->boosted_ns, st->governed_ns);
	jw_open(w, "hints", '{');
	jw_u64(w, "gc", st->hints_gc);
	jw_u64(w, "queue", st->hints_queue);
	jw_u64(w, "timed", st->hints_timed);
	jw_close(w, '}');
	jw_u64(w, "boosts", st->boosts);
	jw_u64(w, "watchdog_ends", st->watchdog_ends);
	jw_u64(w, "budget_ends", st->budget_ends);
	jw_u64(w, "refused", st->refused);
	jw_u64(w, "applied", st->applied);
	jw_u64_or_null(w, "latency_p50_us", (uint64_t)p50, p50 >= 0);
	jw_u64_or_null(w, "latency_p99_us", (uint64_t)p99, p99 >= 0);
	jw_open(w, "latency_histogram", '[');
	for (i = 0; i < 16; i++)
		jw_u64(w, NULL, st->latency[i]);
	jw_close(w, ']');
	jw_close(w, '}');
}

static void json_policy(struct jw *w, const struct policy *p)
{
	size_t i;

	jw_open(w, NULL, '{');
	jw_u64(w, "policy", p->id);
	jw_open(w, "cpus", '[');
	for (i = 0; i < p->ncpus; i++)
		jw_u64(w, NULL, p->cpus[i]);
	jw_close(w, ']');
	jw_str(w, "driver", p->driver);
	jw_str(w, "governor", p->governor);
	jw_u64_or_null(w, "cur_khz", p->cur_khz, p->cur_khz);
	jw_u64_or_null(w, "cpuinfo_min_khz", p->min_khz, p->min_khz);
	jw_u64_or_null(w, "cpuinfo_max_khz", p->max_khz, p->max_khz);
	if (p->has_stats) {
		json_eb_stats(w, &p->st);
	} else {
		jw_pre(w, "eventboost");
		fputs("null", w->f);
	}
	jw_str(w, "error", p->stats_err ? eb_strerror(p->stats_err) : NULL);
	jw_close(w, '}');
}

static void print_json(const struct policy *v, size_t n, int open_err)
{
	struct jw w = { .f = stdout, .first = { true } };
	size_t i;

	jw_open(&w, NULL, '{');
	jw_u64(&w, "schema_version", JSON_SCHEMA_VERSION);
	jw_str(&w, "cpufreq_error", n ? NULL : no_cpufreq_reason());
	jw_bool(&w, "module_loaded", !err_not_loaded(open_err));
	jw_str(&w, "module_error", open_err ? eb_strerror(open_err) : NULL);
	jw_open(&w, "policies", '[');
	for (i = 0; i < n; i++)
		json_policy(&w, &v[i]);
	jw_close(&w, ']');
	jw_close(&w, '}');
	fputc('\n', stdout);
}

static void row(const char *label, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* One "  label        value" line of the human status. */
static void row(const char *label, const char *fmt, ...)
{
	va_list ap;

	printf("  %-14s", label);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* "8 us", ">= 16.38 ms" (the last bucket, 32768: no upper bound) or "-"
 * for a latency percentile. */
static void format_latency(const struct eb_stats *st, double pct, char *buf,
			   size_t len)
{
	long us = eb_latency_percentile_us(st, pct);
	char d[16];

	if (us == 1L << 15) {
		ebp_format_duration_ns(16384000, d, sizeof(d));
		snprintf(buf, len, ">= %s", d);
	} else if (us < 0) {
		snprintf(buf, len, "-");
	} else {
		ebp_format_duration_ns((unsigned long long)us * 1000, buf, len);
	}
}

static void human_eb_stats(const struct eb_stats *st)
{
	char a[32], b[32], c[32];

	ebp_format_freq(st->base_khz, a, sizeof(a));
	ebp_format_freq(st->boost_khz, b, sizeof(b));
	row("base/boost", "%s / %s, applied by %s", a, b,
	    st->fast_switch ? "fast switch" : "worker thread");
	row("state", "%s%s", st->boosted ? "boosted" : "not boosted",
	    st->budget_spent ? ", budget spent (boosts refused)" : "");
	ebp_format_share(st->boosted_ns, st->governed_ns, a, sizeof(a));
	ebp_format_duration_ns(st->boosted_ns, b, sizeof(b));
	ebp_format_duration_ns(st->governed_ns, c, sizeof(c));
	row("time boosted", "%s (%s of %s governed)", a, b, c);
	row("hints", "gc %llu, queue %llu, timed %llu",
	    (unsigned long long)st->hints_gc,
	    (unsigned long long)st->hints_queue,
	    (unsigned long long)st->hints_timed);
	row("boosts", "%llu; ended by watchdog %llu, by budget %llu; "
	    "refused %llu", (unsigned long long)st->boosts,
	    (unsigned long long)st->watchdog_ends,
	    (unsigned long long)st->budget_ends,
	    (unsigned long long)st->refused);
	ebp_format_setting_us(st->max_boost_us, a, sizeof(a));
	row("limits", "max boost %s, budget %u%%", a, st->budget_pct);
	format_latency(st, 50, a, sizeof(a));
	format_latency(st, 99, b, sizeof(b));
	row("latency", "p50 %s, p99 %s (hint to applied, upper bounds)", a, b);
}

static void human_policy(const struct policy *p)
{
	char cpus[256], cur[32], lo[32], hi[32];

	ebp_format_cpulist(p->cpus, p->ncpus, cpus, sizeof(cpus));
	printf("policy%u: CPU%s %s, driver %s, governor %s\n", p->id,
	       p->ncpus == 1 ? "" : "s", cpus,
	       *p->driver ? p->driver : "-", *p->governor ? p->governor : "-");
	strcpy(cur, "-");
	if (p->cur_khz)
		ebp_format_freq(p->cur_khz, cur, sizeof(cur));
	ebp_format_freq(p->min_khz, lo, sizeof(lo));
	ebp_format_freq(p->max_khz, hi, sizeof(hi));
	if (p->min_khz && p->max_khz)
		row("frequency", "%s (hardware %s .. %s)", cur, lo, hi);
	else
		row("frequency", "%s", cur);
	if (p->has_stats)
		human_eb_stats(&p->st);
	else if (policy_is_eb(p))
		row("eventboost", "counters unavailable%s%s",
		    p->stats_err ? ": " : "",
		    p->stats_err ? eb_strerror(p->stats_err) : "");
}

static void print_human(const struct policy *v, size_t n, int open_err)
{
	bool any_eb = false;
	size_t i;

	for (i = 0; i < n; i++) {
		if (i)
			putchar('\n');
		human_policy(&v[i]);
		any_eb |= policy_is_eb(&v[i]);
	}
	if (!n)
		return;
	if (err_not_loaded(open_err)) {
		printf("\neventboost module not loaded: run 'sudo modprobe "
		       "eventboost'\n");
	} else if (!any_eb) {
		printf("\nno policy uses the eventboost governor: ");
		print_select_hint(stdout, -1);
	}
}

/* eventboost counters of every policy it runs. */
static int fetch_stats(struct eb_client *c, struct policy *v, size_t n)
{
	int rc = RC_OK;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!policy_is_eb(&v[i]))
			continue;
		v[i].stats_err = eb_stats(c, policy_cpu(&v[i]), &v[i].st);
		v[i].has_stats = !v[i].stats_err;
		if (v[i].stats_err)
			rc = RC_FAIL;
	}
	return rc;
}

/*
 * Exit status of status: no cpufreq first, then the device, then stats.
 * What the full report (!@terse) says of them, the JSON and the watch
 * lines do not: stderr does.
 */
static int status_rc(const struct policy *v, size_t n, int open_err,
		     int stats_rc, bool terse)
{
	size_t i;

	if (!n) {
		no_cpufreq_message();
		return RC_NOTREADY;
	}
	if (err_not_loaded(open_err)) {
		if (terse)
			fprintf(stderr, "eventboost module not loaded: run "
				"'sudo modprobe eventboost'\n");
		return RC_NOTREADY;
	}
	if (open_err)
		return report_eb_err(open_err);
	for (i = 0; terse && i < n; i++)
		if (v[i].stats_err)
			fprintf(stderr, "ebctl: policy%u: counters unavailable: "
				"%s\n", v[i].id, eb_strerror(v[i].stats_err));
	return stats_rc;
}

/* One line per policy for `status --watch`: what changed in the interval. */
struct watch_prev {
	unsigned int id;
	struct eb_stats st;
};

static const struct eb_stats *watch_find(const struct watch_prev *w,
					 size_t n, unsigned int id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (w[i].id == id)
			return &w[i].st;
	return NULL;
}

static void watch_header(void)
{
	printf("%-8s %-9s %-10s %-7s %7s %23s %9s %9s\n", "time", "policy",
	       "cur", "state", "boosts", "hints gc/queue/timed", "boosted",
	       "wd/budget");
}

static void watch_line(const struct policy *p, const struct eb_stats *old)
{
	char t[16], cur[32], share[32], hints[64];
	const struct eb_stats *st = &p->st;
	struct tm tm;
	time_t now = time(NULL);

	localtime_r(&now, &tm);
	strftime(t, sizeof(t), "%H:%M:%S", &tm);
	strcpy(cur, "-");
	if (p->cur_khz)
		ebp_format_freq(p->cur_khz, cur, sizeof(cur));
	printf("%-8s policy%-3u %-10s ", t, p->id, cur);
	if (!p->has_stats) {
		printf("%s\n", *p->governor ? p->governor : "-");
		return;
	}
	/* The first report, or a policy new since the last: totals. */
	if (!old || st->boosts < old->boosts || st->governed_ns < old->governed_ns) {
		static const struct eb_stats zero;

		old = &zero;
	}
	snprintf(hints, sizeof(hints), "+%llu/+%llu/+%llu",
		 (unsigned long long)(st->hints_gc - old->hints_gc),
		 (unsigned long long)(st->hints_queue - old->hints_queue),
		 (unsigned long long)(st->hints_timed - old->hints_timed));
	ebp_format_share(st->boosted_ns - old->boosted_ns,
			 st->governed_ns - old->governed_ns, share, sizeof(share));
	printf("%-7s %7s%llu %23s %9s %4llu/%llu\n",
	       st->budget_spent ? "spent" : st->boosted ? "boosted" : "base", "+",
	       (unsigned long long)(st->boosts - old->boosts), hints, share,
	       (unsigned long long)(st->watchdog_ends - old->watchdog_ends),
	       (unsigned long long)(st->budget_ends - old->budget_ends));
}

/* One report: read sysfs and the counters, print, keep the counters. */
static int status_once(bool json, bool watch, struct watch_prev **prev,
		       size_t *nprev)
{
	struct eb_client *c = NULL;
	int err, open_err, stats_rc = RC_OK, rc;
	struct watch_prev *w;
	struct policy *v;
	size_t i, n;

	err = list_policies(&v, &n);
	if (err) {
		fprintf(stderr, "ebctl: %s: %s\n", cpufreq_dir, strerror(-err));
		return RC_FAIL;
	}
	/* Counters need read access only (a monitoring user may have no more). */
	open_err = eb_open_readonly(&c, NULL);
	if (!open_err) {
		stats_rc = fetch_stats(c, v, n);
		eb_close(c);
	}
	if (json)
		print_json(v, n, open_err);
	else if (!watch)
		print_human(v, n, open_err);
	else
		for (i = 0; i < n; i++)
			watch_line(&v[i], watch_find(*prev, *nprev, v[i].id));
	fflush(stdout);		/* the report comes before the complaint */
	rc = status_rc(v, n, open_err, stats_rc, json || watch);
	if (watch && rc == RC_OK) {
		w = realloc(*prev, (n ? n : 1) * sizeof(*w));
		if (w) {
			for (i = 0; i < n; i++) {
				w[i].id = v[i].id;
				w[i].st = v[i].st;
			}
			*prev = w;
			*nprev = n;
		}
	}
	free_policies(v, n);
	return rc;
}

static int cmd_status(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "watch", optional_argument, NULL, 'w' },
		{ "count", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long interval = WATCH_DEFAULT_US;
	unsigned int count = 0, done;
	struct watch_prev *prev = NULL;
	bool json = false, watch = false, have_count = false;
	size_t nprev = 0;
	uint64_t next;
	int ch, rc;

	while ((ch = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (ch == 'j') {
			json = true;
		} else if (ch == 'w') {
			watch = true;
			if (optarg && (ebp_parse_duration_us(optarg, &interval) ||
				       interval < 1000 ||
				       interval > BOOST_MAX_TOTAL_US)) {
				usage_error("status ", "--watch: invalid interval "
					    "'%s' (1s, 500ms, 2min; 1ms .. 24h)",
					    optarg);
				return RC_USAGE;
			}
		} else if (ch == 'n') {
			if (ebp_parse_uint(optarg, &count) || !count) {
				usage_error("status ", "--count: expected a number "
					    "of reports >= 1, got '%s'", optarg);
				return RC_USAGE;
			}
			have_count = true;
		} else if (ch == 'h') {
			return show_help(status_usage);
		} else {
			return bad_option("status ", ch, argv, opts);
		}
	}
	if (optind < argc) {
		unsigned long long us;

		/* An optional argument goes with '=': --watch 1s is two words. */
		if (watch && !ebp_parse_duration_us(argv[optind], &us))
			usage_error("status ", "unexpected argument '%s': an "
				    "interval is written --watch=%s",
				    argv[optind], argv[optind]);
		else
			usage_error("status ", "unexpected argument '%s'",
				    argv[optind]);
		return RC_USAGE;
	}
	if (have_count && !watch) {
		usage_error("status ", "--count goes with --watch");
		return RC_USAGE;
	}
	if (!watch)
		return status_once(json, false, &prev, &nprev);

	if (!json)
		watch_header();
	next = now_us();
	for (done = 0;;) {
		rc = status_once(json, true, &prev, &nprev);
		/* A watch ends on anything but a good report. */
		if (rc != RC_OK || (have_count && ++done >= count))
			break;
		next += interval;
		/* Stopped past it (SIGSTOP, Ctrl-Z): on from now, no burst. */
		if (next < now_us())
			next = now_us() + interval;
		sleep_until_us(next);
	}
	free(prev);
	return rc;
}

/* ----------------------------------------------------------------- set */

/* Each key at most once (duplicates are refused), so this never fills. */
#define MAX_ASSIGN	8

struct assignment {
	const struct ebp_key *key;
	unsigned long long value;	/* as written: kHz, us or % */
};

/* "ebctl: set: <what> '<arg>' (keys: base, boost, ...)" */
static int bad_key(const char *what, const char *arg)
{
	const struct ebp_key *k;
	size_t i, n;

	fprintf(stderr, "ebctl: set: %s '%s' (keys: ", what, arg);
	k = ebp_keys(&n);
	for (i = 0; i < n; i++)
		fprintf(stderr, "%s%s", i ? ", " : "", k[i].name);
	fputs(")\n", stderr);
	return RC_USAGE;
}

/* Parse one KEY=VALUE argument; nothing is written yet. */
static int add_assignment(const char *arg, struct assignment *as, size_t *n)
{
	const struct ebp_key *k;
	const char *val;
	char name[64];
	size_t i;

	if (ebp_parse_assignment(arg, name, sizeof(name), &val))
		return bad_key("expected KEY=VALUE, got", arg);
	k = ebp_find_key(name);
	if (!k)
		return bad_key("unknown key", name);
	for (i = 0; i < *n; i++) {
		if (as[i].key == k) {
			fprintf(stderr, "ebctl: set: %s given twice\n", k->name);
			return RC_USAGE;
		}
	}
	if (ebp_parse_setting(k, val, &as[*n].value)) {
		fprintf(stderr, "ebctl: set: %s: invalid value '%s' (accepted: "
			"%s)\n", k->name, val, k->forms);
		return RC_USAGE;
	}
	as[(*n)++].key = k;
	return RC_OK;
}

/* "2.60 GHz", "default", "50 ms", "30%": a value as the operator sees it. */
static void format_setting(const struct assignment *a, char *buf, size_t len)
{
	switch (a->key->kind) {
	case EBP_FREQ:
		if (a->value)
			ebp_format_freq((unsigned int)a->value, buf, len);
		else
			snprintf(buf, len, "default");
		return;
	case EBP_DURATION:
		ebp_format_setting_us(a->value, buf, len);
		return;
	case EBP_PCT:
		snprintf(buf, len, "%llu%%", a->value);
		return;
	}
}

/* Is "eventboost" among the governors this policy may use? */
static bool governor_available(const struct policy *p)
{
	char buf[512], *tok, *save;

	if (policy_attr(p, "scaling_available_governors", buf, sizeof(buf)))
		return false;
	for (tok = strtok_r(buf, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save))
		if (!strcmp(tok, GOVERNOR))
			return true;
	return false;
}

/* The hint device, as libeventboost picks it for eb_open(c, NULL). */
static const char *device_path(void)
{
	const char *dev = getenv("EVENTBOOST_DEVICE");

	return dev && *dev ? dev : EB_DEFAULT_DEVICE;
}

/*
 * Why @p cannot be changed: the module is missing (3), the driver cannot
 * run any governor, or eventboost is merely not selected.
 */
static int not_governed(const struct policy *p, bool some)
{
	if (!governor_available(p)) {
		if (access(device_path(), F_OK)) {
			fprintf(stderr, "ebctl: eventboost module not loaded: "
				"run 'sudo modprobe eventboost'\n");
			return RC_NOTREADY;
		}
		/* e.g. intel_pstate active: it has its own algorithm */
		fprintf(stderr, "ebctl: policy%u's driver %s cannot run the "
			GOVERNOR " governor (see README: Troubleshooting)\n",
			p->id, *p->driver ? p->driver : "?");
		return RC_FAIL;
	}
	if (some)
		fprintf(stderr, "ebctl: policy%u uses governor '%s', not "
			GOVERNOR "\n", p->id, *p->governor ? p->governor : "?");
	else
		fprintf(stderr, "ebctl: no policy uses the " GOVERNOR
			" governor\n");
	fputs("ebctl: ", stderr);
	print_select_hint(stderr, some ? (long)p->id : -1);
	return RC_FAIL;
}

/* Policies named by --policy: a list, or all of them (policy N is named
 * after CPU N: as many as Debian's kernels have CPUs, NR_CPUS). */
#define MAX_POLICY_IDS	8192

struct policy_sel {
	bool given;		/* --policy was given */
	bool all;		/* --policy all */
	unsigned int ids[MAX_POLICY_IDS];
	size_t n;
};

static bool sel_has(const struct policy_sel *ps, unsigned int id)
{
	size_t i;

	if (ps->all)
		return true;
	for (i = 0; i < ps->n; i++)
		if (ps->ids[i] == id)
			return true;
	return false;
}

/* Mark the policies to change: those of --policy, or every eventboost one. */
static int select_policies(const struct policy *v, size_t n,
			   const struct policy_sel *ps, bool *sel)
{
	bool any = false;
	size_t i, j;

	for (j = 0; j < ps->n; j++) {
		for (i = 0; i < n && v[i].id != ps->ids[j]; i++)
			;
		if (i == n) {
			fprintf(stderr, "ebctl: set: no policy%u in %s\n",
				ps->ids[j], cpufreq_dir);
			return RC_USAGE;
		}
	}
	for (i = 0; i < n; i++) {
		sel[i] = ps->given ? sel_has(ps, v[i].id) : policy_is_eb(&v[i]);
		if (!sel[i])
			continue;
		if (!policy_is_eb(&v[i]))
			return not_governed(&v[i], true);
		any = true;
	}
	if (any)
		return RC_OK;
	return not_governed(&v[0], false);
}

/* Per-policy tunables when the driver has them, else the global ones. */
static int tunables_dir(const struct policy *p, char *buf, size_t len,
			bool *global)
{
	snprintf(buf, len, "%s/policy%u/" GOVERNOR, cpufreq_dir, p->id);
	*global = false;
	if (is_dir(buf))
		return RC_OK;
	snprintf(buf, len, "%s/" GOVERNOR, cpufreq_dir);
	*global = true;
	if (is_dir(buf))
		return RC_OK;
	fprintf(stderr, "ebctl: set: no eventboost tunables for policy%u "
		"(neither %s/policy%u/" GOVERNOR " nor %s)\n", p->id,
		cpufreq_dir, p->id, buf);
	return RC_FAIL;
}

/* Frequencies must lie in the hardware range of every policy they reach. */
static int check_ranges(const struct policy *v, size_t n, const bool *reach,
			const struct assignment *as, size_t nas)
{
	char f[32], lo[32], hi[32];
	size_t i, j;

	for (i = 0; i < n; i++) {
		const struct policy *p = &v[i];

		if (!reach[i] || !p->min_khz || !p->max_khz)
			continue;	/* unknown range: the kernel checks */
		for (j = 0; j < nas; j++) {
			unsigned long long khz = as[j].value;

			if (as[j].key->kind != EBP_FREQ || !khz ||
			    (khz >= p->min_khz && khz <= p->max_khz))
				continue;
			ebp_format_freq((unsigned int)khz, f, sizeof(f));
			ebp_format_freq(p->min_khz, lo, sizeof(lo));
			ebp_format_freq(p->max_khz, hi, sizeof(hi));
			fprintf(stderr, "ebctl: set: %s: %s is outside policy%u's "
				"hardware range %s .. %s (or use 0/default)\n",
				as[j].key->name, f, p->id, lo, hi);
			return RC_USAGE;
		}
	}
	return RC_OK;
}

static int write_error(const char *path, const char *val, int err)
{
	if (err == -EACCES || err == -EPERM) {
		fprintf(stderr, "ebctl: tunables are root-only: run with sudo\n");
		return RC_PERM;
	}
	if (err == -EINVAL) {
		fprintf(stderr, "ebctl: the kernel refused %s for %s\n", val,
			path);
		return RC_USAGE;
	}
	fprintf(stderr, "ebctl: %s: %s\n", path, strerror(-err));
	return RC_FAIL;
}

/*
 * What a set has written so far, with the values it replaced: sysfs has
 * no transactions, so a write refused half-way (the kernel's own check, a
 * file gone with its policy) puts these back, the last first.
 */
struct written {
	char path[PATH_MAX];
	char old[32];
	const char *label;
	const char *key;
};

struct journal {
	struct written *w;
	size_t n, cap;
};

static struct written *journal_add(struct journal *j)
{
	if (j->n == j->cap) {
		size_t cap = j->cap ? 2 * j->cap : 8;
		struct written *w = realloc(j->w, cap * sizeof(*w));

		if (!w)
			return NULL;
		j->w = w;
		j->cap = cap;
	}
	return &j->w[j->n++];
}

static void journal_undo(struct journal *j)
{
	while (j->n) {
		const struct written *w = &j->w[--j->n];
		int err = write_attr(w->path, w->old);

		if (err)
			fprintf(stderr, "ebctl: %s: %s could not be restored "
				"to %s (%s): write it back by hand\n", w->label,
				w->key, w->old, strerror(-err));
		else
			fprintf(stderr, "ebctl: %s: %s restored to %s\n",
				w->label, w->key, w->old);
	}
}

/* Write every assignment into one tunables directory. */
static int apply(const char *dir, const char *label,
		 const struct assignment *as, size_t nas, struct journal *j)
{
	char path[PATH_MAX], val[32];
	struct written *w;
	size_t i;
	int err;

	for (i = 0; i < nas; i++) {
		snprintf(val, sizeof(val), "%llu", as[i].value);
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				     as[i].key->file) >= sizeof(path))
			return write_error(path, val, -ENAMETOOLONG);
		w = journal_add(j);
		if (!w)
			return write_error(path, val, -ENOMEM);
		err = read_attr(path, w->old, sizeof(w->old));
		if (!err)
			err = write_attr(path, val);
		if (err) {
			j->n--;
			return write_error(path, val, err);
		}
		memcpy(w->path, path, sizeof(path));
		w->label = label;
		w->key = as[i].key->file;
	}
	return RC_OK;
}

/* What @label now has: said once every write has landed. */
static void report_set(const char *label, const struct assignment *as,
		       size_t nas)
{
	char shown[32];
	size_t i;

	printf("%s:", label);
	for (i = 0; i < nas; i++) {
		format_setting(&as[i], shown, sizeof(shown));
		printf("%s %s %s", i ? "," : "", as[i].key->name, shown);
	}
	putchar('\n');
}

/* Every selected policy has tunables, and every frequency fits. */
static int validate_set(const struct policy *v, size_t n, const bool *sel,
			const struct assignment *as, size_t nas)
{
	bool global = false, *reach;
	char dir[PATH_MAX];
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		bool g;

		if (!sel[i])
			continue;
		rc = tunables_dir(&v[i], dir, sizeof(dir), &g);
		if (rc)
			return rc;
		global |= g;
	}
	/* Global tunables reach every eventboost policy, and the kernel
	 * checks a frequency against each of them. */
	reach = calloc(n, sizeof(*reach));
	if (!reach)
		return RC_FAIL;
	for (i = 0; i < n; i++)
		reach[i] = sel[i] || (global && policy_is_eb(&v[i]));
	rc = check_ranges(v, n, reach, as, nas);
	free(reach);
	return rc;
}

/* Write each tunables directory once: per policy, or the global one. */
static int write_set(const struct policy *v, size_t n, const bool *sel,
		     const struct assignment *as, size_t nas)
{
	char dir[PATH_MAX], (*labels)[64];
	struct journal j = { 0 };
	bool global_done = false;
	size_t i;
	int rc = RC_OK;

	/* Each policy's label lives as long as the journal naming it. */
	labels = calloc(n, sizeof(*labels));
	if (!labels)
		return RC_FAIL;

	for (i = 0; i < n && rc == RC_OK; i++) {
		bool g;

		if (!sel[i] || tunables_dir(&v[i], dir, sizeof(dir), &g))
			continue;
		if (g && global_done)
			continue;
		global_done |= g;
		if (g)
			snprintf(labels[i], sizeof(labels[i]),
				 "all eventboost policies (global tunables)");
		else
			snprintf(labels[i], sizeof(labels[i]), "policy%u", v[i].id);
		rc = apply(dir, labels[i], as, nas, &j);
	}
	if (rc != RC_OK)
		journal_undo(&j);
	for (i = 0; i < n && rc == RC_OK; i++)
		if (labels[i][0])
			report_set(labels[i], as, nas);
	free(j.w);
	free(labels);
	return rc;
}

static int cmd_set(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct assignment as[MAX_ASSIGN];
	static struct policy_sel ps;
	struct policy *v;
	bool *sel;
	size_t nas = 0, n;
	int ch, rc, err;

	while ((ch = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (ch == 'h')
			return show_help(set_usage);
		if (ch != 'p')
			return bad_option("set ", ch, argv, opts);
		err = ebp_parse_policy_list(optarg, ps.ids, MAX_POLICY_IDS,
					    &ps.n, &ps.all);
		if (err == -E2BIG) {
			usage_error("set ", "--policy: at most %d policies, got "
				    "'%s'", MAX_POLICY_IDS, optarg);
			return RC_USAGE;
		}
		if (err) {
			usage_error("set ", "--policy: expected policy numbers "
				    "(2 or 2,3 or 0-3 or all), got '%s'", optarg);
			return RC_USAGE;
		}
		ps.given = true;
	}
	for (; optind < argc; optind++) {
		if (nas == MAX_ASSIGN) {
			usage_error("set ", "too many KEY=VALUE pairs");
			return RC_USAGE;
		}
		rc = add_assignment(argv[optind], as, &nas);
		if (rc)
			return rc;
	}
	if (!nas) {
		usage_error("set ", "nothing to set: give KEY=VALUE pairs");
		return RC_USAGE;
	}

	rc = list_policies(&v, &n);
	if (rc) {
		fprintf(stderr, "ebctl: %s: %s\n", cpufreq_dir, strerror(-rc));
		return RC_FAIL;
	}
	if (!n) {
		no_cpufreq_message();
		return RC_NOTREADY;
	}
	sel = calloc(n, sizeof(*sel));
	rc = sel ? select_policies(v, n, &ps, sel) : RC_FAIL;
	if (rc == RC_OK)
		rc = validate_set(v, n, sel, as, nas);
	if (rc == RC_OK)
		rc = write_set(v, n, sel, as, nas);
	free(sel);
	free_policies(v, n);
	return rc;
}

/* --------------------------------------------------------------- boost */

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static void sleep_until_us(uint64_t t)
{
	struct timespec ts = {
		.tv_sec = (time_t)(t / 1000000),
		.tv_nsec = (long)(t % 1000000) * 1000,
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

static unsigned int boost_chunk(uint64_t us)
{
	return (unsigned int)(us < BOOST_FOR_MAX_US ? us : BOOST_FOR_MAX_US);
}

/*
 * Sleep until @deadline.  A boost longer than one eb_boost_for() is
 * re-issued every second with the time left: the kernel keeps the later
 * end, so the vote never outlives the deadline, and a vote the watchdog
 * ended starts again.  Budget refusals (-EBUSY) are counted and retried.
 */
static int hold_until(struct eb_client *c, uint64_t deadline, bool reissue,
		      unsigned int *refused)
{
	uint64_t now;
	int err;

	while ((now = now_us()) < deadline) {
		if (!reissue) {
			sleep_until_us(deadline);
			continue;
		}
		sleep_until_us(now + REISSUE_US < deadline ? now + REISSUE_US :
			       deadline);
		now = now_us();
		if (now >= deadline)
			break;
		err = eb_boost_for(c, boost_chunk(deadline - now));
		if (err == -EBUSY)
			(*refused)++;
		else if (err)
			return err;
	}
	return 0;
}

/* Run on @cpu only, so the boost lands on its policy. */
static int pin_to_cpu(unsigned int cpu)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	cpu_set_t *set;
	size_t size;
	int err = 0;

	if (ncpu > 0 && cpu >= (unsigned long)ncpu) {
		fprintf(stderr, "ebctl: boost: no cpu %u (CPUs 0..%ld)\n", cpu,
			ncpu - 1);
		return RC_USAGE;
	}
	set = CPU_ALLOC(cpu + 1);
	if (!set)
		return RC_FAIL;
	size = CPU_ALLOC_SIZE(cpu + 1);
	CPU_ZERO_S(size, set);
	CPU_SET_S(cpu, size, set);
	if (sched_setaffinity(0, size, set))
		err = errno;
	CPU_FREE(set);
	if (!err)
		return RC_OK;
	fprintf(stderr, "ebctl: boost: cannot run on cpu %u: %s\n", cpu,
		err == EINVAL ? "offline or outside this process's cpuset" :
		strerror(err));
	return err == EINVAL ? RC_USAGE : err == EPERM ? RC_PERM : RC_FAIL;
}

/* Tell when the watchdog or the budget may have cut the boost short. */
static void boost_notes(const struct eb_stats *before,
			const struct eb_stats *after, unsigned int refused)
{
	char s[32];

	if (after->watchdog_ends > before->watchdog_ends) {
		ebp_format_setting_us(after->max_boost_us, s, sizeof(s));
		fprintf(stderr, "ebctl: note: the watchdog ended a boost on "
			"policy%u during this run (max_boost_us %s), so it may "
			"have been shorter; raise it: ebctl set max-boost=...\n",
			after->policy_cpu, s);
	}
	if (after->budget_ends > before->budget_ends)
		fprintf(stderr, "ebctl: note: the budget (budget_pct %u%%) ended "
			"a boost on policy%u during this run; raise it: ebctl "
			"set budget=...\n", after->budget_pct, after->policy_cpu);
	if (refused)
		fprintf(stderr, "ebctl: note: %u re-issued boost(s) refused: the "
			"budget was spent\n", refused);
}

/*
 * What the policy's limits let a boost of @us be, said before it starts:
 * the watchdog ends a vote held longer than max_boost_us (re-issuing it
 * would defeat the operator's limit), so hold only that long; the budget
 * may end it sooner.  Returns the time to hold, in us.
 */
static unsigned long long boost_limits(const struct eb_stats *st,
				       unsigned long long us)
{
	unsigned long long hold = us, budget_us;
	/*
	 * One process may use half of the budget (README: Tunables): the
	 * budget_pct whose half holds @us, 100 (no budget) past 500 ms.
	 */
	unsigned long long need_pct = us > 500000 ? 100 : (us + 4999) / 5000;
	bool budget_short = st->budget_pct && st->budget_pct < need_pct;
	char want[32], wd[32], b[32], half[32], raise[32] = "";

	ebp_format_setting_us(us, want, sizeof(want));
	if (budget_short)
		snprintf(raise, sizeof(raise), " budget=%llu", need_pct);
	if (st->max_boost_us && us > st->max_boost_us) {
		hold = st->max_boost_us;
		ebp_format_setting_us(hold, wd, sizeof(wd));
		fprintf(stderr, "ebctl: boost: policy%u's watchdog (max_boost_us "
			"%s) ends any boost held longer: boosting for %s, not "
			"%s.", st->policy_cpu, wd, wd, want);
		/*
		 * Exact, and one word each: a command to paste, with the
		 * budget the boost would meet next.
		 */
		if (us <= BOOST_FOR_MAX_US)
			fprintf(stderr, " To hold %s: sudo ebctl set max-boost=%llu%s%s "
				"--policy %u\n", want,
				us % 1000 ? us : us % 1000000 ? us / 1000 : us / 1000000,
				us % 1000 ? "us" : us % 1000000 ? "ms" : "s",
				raise, st->policy_cpu);
		else
			fputs(" (max-boost is at most 10 s)\n", stderr);
	}
	budget_us = (unsigned long long)st->budget_pct * 10000;	/* of 1 s */
	if (budget_short && hold > budget_us / 2) {
		ebp_format_duration_ns(budget_us * 1000, b, sizeof(b));
		ebp_format_duration_ns(budget_us / 2 * 1000, half, sizeof(half));
		fprintf(stderr, "ebctl: boost: policy%u's budget (budget_pct %u%%) "
			"allows %s boosted in each 1 s window, one process at "
			"most half of it (%s): the boost may end sooner (raise "
			"it: sudo ebctl set%s --policy %u)\n",
			st->policy_cpu, st->budget_pct, b, half, raise,
			st->policy_cpu);
	}
	fflush(stderr);
	return hold;
}

/* Boost the policy of the CPU we run on for @us, then report. */
static int run_boost(struct eb_client *c, unsigned long long us)
{
	struct eb_stats before, after;
	unsigned long long hold;
	unsigned int refused = 0;
	char f[32], d[32];
	uint64_t deadline;
	int cpu, err;

	cpu = sched_getcpu();
	if (cpu < 0) {
		perror("ebctl: sched_getcpu");
		return RC_FAIL;
	}
	err = eb_stats(c, (unsigned int)cpu, &before);
	if (err) {
		fprintf(stderr, "ebctl: boost: cpu %d: %s\n", cpu,
			eb_strerror(err));
		return rc_for_eb_err(err);
	}
	if (!before.governed) {
		fprintf(stderr, "ebctl: boost: policy%u (cpu %d) is not run by "
			"eventboost; ", before.policy_cpu, cpu);
		print_select_hint(stderr, before.policy_cpu);
		return RC_FAIL;
	}
	hold = boost_limits(&before, us);
	deadline = now_us() + hold;
	err = eb_boost_for(c, boost_chunk(hold));
	if (err)
		return report_eb_err(err);
	ebp_format_freq(before.boost_khz, f, sizeof(f));
	ebp_format_setting_us(hold, d, sizeof(d));
	printf("boosted policy%u (cpu %d) to %s for %s\n", before.policy_cpu,
	       cpu, f, d);
	fflush(stdout);		/* visible while we hold it */

	/* Killed meanwhile?  The kernel undoes the boost when the fd closes. */
	err = hold_until(c, deadline, hold > BOOST_FOR_MAX_US, &refused);
	if (err)
		return report_eb_err(err);
	/*
	 * Read by the CPU it ran on: the policy's number is its first CPU,
	 * which may be offline, and stats refuse an offline CPU.
	 */
	if (!eb_stats(c, (unsigned int)cpu, &after) ||
	    !eb_stats(c, before.policy_cpu, &after))
		boost_notes(&before, &after, refused);
	return RC_OK;
}

static int cmd_boost(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "for", required_argument, NULL, 'f' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dur = NULL, *cpu_arg = NULL;
	struct eb_client *c;
	unsigned long long us;
	unsigned int cpu;
	int ch, err, rc;

	while ((ch = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (ch == 'h')
			return show_help(boost_usage);
		if (ch == 'f')
			dur = optarg;
		else if (ch == 'c')
			cpu_arg = optarg;
		else
			return bad_option("boost ", ch, argv, opts);
	}
	if (optind < argc) {
		usage_error("boost ", "unexpected argument '%s'", argv[optind]);
		return RC_USAGE;
	}
	if (!dur) {
		usage_error("boost ", "--for DURATION is required");
		return RC_USAGE;
	}
	if (ebp_parse_duration_us(dur, &us) || !us || us > BOOST_MAX_TOTAL_US) {
		usage_error("boost ", "--for: invalid duration '%s' (accepted: "
			    "2min, 1s, 50ms, 1.5ms, 100us, 100 (us); 1us .. 24h)",
			    dur);
		return RC_USAGE;
	}
	if (cpu_arg && ebp_parse_uint(cpu_arg, &cpu)) {
		usage_error("boost ", "--cpu: expected a CPU number, got '%s'",
			    cpu_arg);
		return RC_USAGE;
	}
	/* Pin before opening: the client binds to this thread, and its vote
	 * lands on whichever CPU the thread is on. */
	if (cpu_arg) {
		rc = pin_to_cpu(cpu);
		if (rc)
			return rc;
	}
	err = eb_open(&c, NULL);
	if (err)
		return report_eb_err(err);
	rc = run_boost(c, us);
	eb_close(c);
	return rc;
}

/* ---------------------------------------------------------------- main */

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
};

static const struct command commands[] = {
	{ "status", cmd_status },
	{ "set", cmd_set },
	{ "boost", cmd_boost },
};

static int run(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		fputs(main_usage, stderr);
		return RC_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return show_help(main_usage);
	if (!strcmp(argv[1], "--version"))
		return show_help("ebctl " EBCTL_VERSION "\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "ebctl: unknown command '%s' (commands: status, set, "
		"boost)\nTry 'ebctl --help'.\n", argv[1]);
	return RC_USAGE;
}

int main(int argc, char **argv)
{
	const char *dir = getenv("EBCTL_CPUFREQ_DIR");
	int rc;

	if (dir && *dir)
		cpufreq_dir = dir;
	opterr = 0;		/* we word option errors ourselves */
	rc = run(argc, argv);
	/* A report cut short (full disk, closed pipe) is a failure too. */
	errno = 0;
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, "ebctl: cannot write to standard output: %s\n",
			errno ? strerror(errno) : "write error");
		if (rc == RC_OK)
			rc = RC_FAIL;
	}
	return rc;
}
