// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Host unit tests of ebctl's parse/format functions (TAP output).
 *
 *   gcc -std=c11 -Wall -Wextra -Werror -Iuserlib -o test_ebctl_parse \
 *       userlib/tests/test_ebctl_parse.c userlib/ebctl_parse.c
 *
 * Exit status: 0 when every test passed, 1 otherwise.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ebctl_parse.h"

static int n_run, n_failed;

static void report(int ok, const char *name)
{
	n_run++;
	if (!ok)
		n_failed++;
	printf("%s %d - %s\n", ok ? "ok" : "not ok", n_run, name);
}

/* A parse case: input, expected return, expected value when 0. */
struct u_case {
	const char *in;
	int ret;
	unsigned long long val;
};

#define BAD(s) { s, -EINVAL, 0 }

static const struct u_case freq_cases[] = {
	{ "2.6GHz", 0, 2600000 },
	{ "2.60 GHz", 0, 2600000 },	/* as ebctl status prints it */
	{ "2600MHz", 0, 2600000 },
	{ "2600000kHz", 0, 2600000 },
	{ "2600000", 0, 2600000 },	/* bare = kHz */
	{ "2.6ghz", 0, 2600000 },	/* units are case-insensitive */
	{ "3.9999999GHz", 0, 4000000 },	/* 3999999.9 kHz rounds up */
	{ "1.0000004GHz", 0, 1000000 },	/* 1000000.4 kHz rounds down */
	{ "800.5MHz", 0, 800500 },
	{ "0.5kHz", 0, 1 },		/* half rounds up */
	{ "0", 0, 0 },
	{ "default", 0, 0 },
	{ "0GHz", 0, 0 },
	{ "4294967295", 0, 4294967295ULL },
	BAD(""),
	BAD("-1GHz"),
	BAD("+2GHz"),
	BAD(" 2GHz"),
	BAD("2GHz "),
	BAD("2600 "),
	BAD("1.2.3GHz"),
	BAD("2.GHz"),
	BAD(".5GHz"),
	BAD("2.6THz"),
	BAD("2.6Hz"),
	BAD("2.6G"),
	BAD("GHz"),
	BAD("4294967296"),		/* > UINT_MAX kHz */
	BAD("5000GHz"),
	BAD("99999999999999999999999"),	/* > 64 bits */
	BAD("0.0001kHz"),		/* non-zero, would round to "default" */
	BAD("0x10"),
	BAD("defaults"),
};

static const struct u_case duration_cases[] = {
	{ "50ms", 0, 50000 },
	{ "100us", 0, 100 },
	{ "1s", 0, 1000000 },
	{ "1.5ms", 0, 1500 },
	{ "100", 0, 100 },		/* bare = us */
	{ "0.25s", 0, 250000 },
	{ "2.5 ms", 0, 2500 },
	{ "10S", 0, 10000000 },
	{ "7\xc2\xb5s", 0, 7 },		/* "7µs" */
	{ "0.0015ms", 0, 2 },		/* 1.5 us rounds up */
	{ "1.5min", 0, 90000000 },
	{ "24h", 0, 86400000000ULL },
	{ "0", 0, 0 },
	BAD(""),
	BAD("-5ms"),
	BAD("1.5m"),
	BAD("5 minutes"),
	BAD("1.2.3ms"),
	BAD("ms"),
	BAD("1e3us"),
	BAD("0.0001us"),
	BAD("18446744073709551616"),	/* 2^64 */
	BAD("18446744073709551615s"),	/* overflows once scaled */
};

static const struct u_case pct_cases[] = {
	{ "30%", 0, 30 },
	{ "30", 0, 30 },
	{ "100", 0, 100 },
	{ "0", 0, 0 },
	BAD(""),
	BAD("%"),
	BAD("101"),
	BAD("12.5%"),
	BAD("30%%"),
	BAD("-1"),
	BAD("30 %"),
};

enum which { FREQ, DURATION, PCT };

/* @v holds a seed the parser must leave as it is on failure. */
static int run_parse(enum which w, const char *in, unsigned long long *v)
{
	unsigned int u = (unsigned int)*v;
	int ret;

	switch (w) {
	case FREQ:
		ret = ebp_parse_freq_khz(in, &u);
		*v = u;
		return ret;
	case DURATION:
		return ebp_parse_duration_us(in, v);
	case PCT:
		ret = ebp_parse_pct(in, &u);
		*v = u;
		return ret;
	}
	return -1;
}

static void test_cases(enum which w, const char *what,
		       const struct u_case *c, size_t n)
{
	char name[128];
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned long long v = 12345;
		int ret = run_parse(w, c[i].in, &v);
		/* A failure leaves the output untouched (ebctl_parse.h). */
		int ok = ret == c[i].ret && v == (ret ? 12345 : c[i].val);

		snprintf(name, sizeof(name), "%s \"%s\" -> %s", what, c[i].in,
			 c[i].ret ? "-EINVAL" : "value");
		if (!ok)
			printf("# got ret %d value %llu, want ret %d value %llu\n",
			       ret, v, c[i].ret, c[i].val);
		report(ok, name);
	}
}

/* Formatters: compare with the expected text. */
static void expect_str(const char *got, const char *want, const char *name)
{
	if (strcmp(got, want))
		printf("# got \"%s\", want \"%s\"\n", got, want);
	report(!strcmp(got, want), name);
}

static void test_format_freq(void)
{
	static const struct { unsigned int khz; const char *want; } c[] = {
		{ 2600000, "2.60 GHz" }, { 800000, "800 MHz" },
		{ 4000000, "4.00 GHz" }, { 2599999, "2.60 GHz" },
		{ 1234567, "1.23 GHz" }, { 500, "500 kHz" },
	};
	char buf[32], name[64];
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		ebp_format_freq(c[i].khz, buf, sizeof(buf));
		snprintf(name, sizeof(name), "format_freq %u", c[i].khz);
		expect_str(buf, c[i].want, name);
	}
	ebp_format_freq(2600000, buf, 5);
	expect_str(buf, "2.60", "format_freq truncates to the buffer");
}

struct format_case {
	unsigned long long in;
	const char *want;
};

/* Each case through @fmt, named "@what <in>". */
static void expect_formats(void (*fmt)(unsigned long long, char *, size_t),
			   const char *what, const struct format_case *c,
			   size_t n)
{
	char buf[32], name[64];
	size_t i;

	for (i = 0; i < n; i++) {
		fmt(c[i].in, buf, sizeof(buf));
		snprintf(name, sizeof(name), "%s %llu", what, c[i].in);
		expect_str(buf, c[i].want, name);
	}
}

/*
 * A setting (the watchdog, a boost's length) is shown exactly: two of
 * them that differ never read alike (until 2026-12-08 "boosting for 1 ms,
 * not 1 ms" for max_boost_us 1001 and --for 1002us).
 */
static void test_format_setting(void)
{
	static const struct format_case c[] = {
		{ 1001, "1001 us" }, { 1002, "1002 us" }, { 1500, "1.5 ms" },
		{ 100000, "100 ms" }, { 1230, "1.23 ms" }, { 999996, "999996 us" },
		{ 2000000, "2 s" }, { 7, "7 us" }, { 0, "0 s" },
		{ 1001000, "1001 ms" }, { 5400000000ULL, "1.5 h" },
	};

	expect_formats(ebp_format_setting_us, "format_setting_us", c,
		       sizeof(c) / sizeof(c[0]));
}

static void test_format_duration(void)
{
	static const struct format_case c[] = {
		{ 100000000ULL, "100 ms" }, { 1500000ULL, "1.5 ms" },
		{ 1234567ULL, "1.23 ms" }, { 2250000000ULL, "2.25 s" },
		{ 999996000ULL, "1 s" }, { 50000ULL, "50 us" },
		{ 750ULL, "750 ns" }, { 0ULL, "0 s" },
		{ 180000000000ULL, "3 min" }, { 5400000000000ULL, "1.5 h" },
	};

	expect_formats(ebp_format_duration_ns, "format_duration_ns", c,
		       sizeof(c) / sizeof(c[0]));
}

static void test_assignment(void)
{
	const char *value = NULL;
	char key[16];

	report(!ebp_parse_assignment("base=2.6GHz", key, sizeof(key), &value) &&
	       !strcmp(key, "base") && !strcmp(value, "2.6GHz"),
	       "assignment base=2.6GHz");
	report(!ebp_parse_assignment("max-boost=a=b", key, sizeof(key), &value)
	       && !strcmp(key, "max-boost") && !strcmp(value, "a=b"),
	       "assignment splits at the first '='");
	report(ebp_parse_assignment("base", key, sizeof(key), &value) == -EINVAL,
	       "assignment without '=' is rejected");
	report(ebp_parse_assignment("=5", key, sizeof(key), &value) == -EINVAL,
	       "assignment with empty key is rejected");
	report(ebp_parse_assignment("base=", key, sizeof(key), &value) == -EINVAL,
	       "assignment with empty value is rejected");
	report(ebp_parse_assignment("a-very-long-key-name=1", key, sizeof(key),
				    &value) == -EINVAL,
	       "assignment with a key longer than the buffer is rejected");
}

static void test_settings(void)
{
	const struct ebp_key *k;
	unsigned long long v = 0;

	k = ebp_find_key("base");
	report(k && !strcmp(k->file, "base_freq") &&
	       !ebp_parse_setting(k, "2.6GHz", &v) && v == 2600000,
	       "setting base=2.6GHz writes base_freq 2600000");
	k = ebp_find_key("boost");
	report(k && !strcmp(k->file, "boost_freq") &&
	       !ebp_parse_setting(k, "default", &v) && v == 0,
	       "setting boost=default writes 0");
	k = ebp_find_key("max-boost");
	report(k && !strcmp(k->file, "max_boost_us") &&
	       !ebp_parse_setting(k, "10s", &v) && v == 10000000,
	       "setting max-boost=10s is the upper limit");
	report(k && ebp_parse_setting(k, "10.000001s", &v) == -EINVAL,
	       "setting max-boost above 10s is rejected");
	report(k && ebp_parse_setting(k, "0", &v) == -EINVAL,
	       "setting max-boost=0 is rejected");
	k = ebp_find_key("rate-limit");
	report(k && !strcmp(k->file, "rate_limit_us") &&
	       !ebp_parse_setting(k, "2ms", &v) && v == 2000,
	       "setting rate-limit=2ms writes rate_limit_us 2000");
	report(k && !ebp_parse_setting(k, "0", &v) && v == 0,
	       "setting rate-limit=0 (no limit) is accepted");
	report(k && !ebp_parse_setting(k, "100ms", &v) && v == 100000,
	       "setting rate-limit=100ms is the upper limit");
	report(k && ebp_parse_setting(k, "100001us", &v) == -EINVAL,
	       "setting rate-limit above 100ms is rejected");
	report(ebp_find_key("rate_limit_us") == k && k,
	       "setting rate_limit_us is the same key");
	k = ebp_find_key("budget");
	report(k && !strcmp(k->file, "budget_pct") &&
	       !ebp_parse_setting(k, "30%", &v) && v == 30,
	       "setting budget=30% writes 30");
	report(k && ebp_parse_setting(k, "0", &v) == -EINVAL,
	       "setting budget=0 is rejected");
	report(!ebp_find_key("base_fre") && !ebp_find_key("") &&
	       !ebp_find_key("Base"), "unknown keys are not found");
	/* The tunables' own file names, as in sysfs and the README. */
	report(ebp_find_key("base_freq") == ebp_find_key("base") &&
	       ebp_find_key("boost_freq") == ebp_find_key("boost") &&
	       ebp_find_key("max_boost_us") == ebp_find_key("max-boost") &&
	       ebp_find_key("budget_pct") == ebp_find_key("budget") &&
	       ebp_find_key("base"), "sysfs names are keys too");
	k = ebp_find_key("max_boost_us");
	report(k && !ebp_parse_setting(k, "50000", &v) && v == 50000,
	       "setting max_boost_us=50000 is in us");
	k = ebp_find_key("budget_pct");
	report(k && !ebp_parse_setting(k, "30", &v) && v == 30,
	       "setting budget_pct=30");
}

/* Refused lists whose start is valid (the last too long for a policy
 * list): nothing of them is stored. */
static bool untouched_on_failure(bool policy)
{
	static const char *const bad[] = { "0-3,5-", "0-3,x", "1,2,3-1", "0-99" };
	unsigned int ids[8];
	size_t i, j, n;
	bool all;
	int ret;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]) - !policy; i++) {
		for (j = 0; j < 8; j++)
			ids[j] = 777;
		n = 5;
		all = true;
		ret = policy ? ebp_parse_policy_list(bad[i], ids, 8, &n, &all) :
			       ebp_parse_cpulist(bad[i], ids, 8, &n);
		if (!ret)
			return false;
		for (j = 0; j < 8; j++)
			if (ids[j] != 777)
				return false;
		if (n != 5 || !all)
			return false;
	}
	return true;
}

static void test_policy_list(void)
{
	unsigned int ids[8];
	size_t n = 0;
	bool all = false;

	report(!ebp_parse_policy_list("all", ids, 8, &n, &all) && all,
	       "policy list \"all\"");
	report(!ebp_parse_policy_list("2,3", ids, 8, &n, &all) && !all &&
	       n == 2 && ids[0] == 2 && ids[1] == 3, "policy list \"2,3\"");
	report(!ebp_parse_policy_list("0-3", ids, 8, &n, &all) && !all &&
	       n == 4 && ids[3] == 3, "policy list \"0-3\"");
	report(!ebp_parse_policy_list("1", ids, 8, &n, &all) && n == 1 &&
	       ids[0] == 1, "policy list \"1\"");
	report(!ebp_parse_policy_list("0-1,4", ids, 8, &n, &all) && n == 3 &&
	       ids[2] == 4, "policy list \"0-1,4\"");
	report(ebp_parse_policy_list("", ids, 8, &n, &all) == -EINVAL &&
	       ebp_parse_policy_list(",", ids, 8, &n, &all) == -EINVAL &&
	       ebp_parse_policy_list("1,x", ids, 8, &n, &all) == -EINVAL &&
	       ebp_parse_policy_list("policy1", ids, 8, &n, &all) == -EINVAL &&
	       ebp_parse_policy_list("3-1", ids, 8, &n, &all) == -EINVAL,
	       "policy list junk is rejected");
	report(ebp_parse_policy_list("0-99", ids, 8, &n, &all) == -E2BIG,
	       "policy list longer than the buffer is refused");
	report(untouched_on_failure(true),
	       "policy list: a refused list leaves ids, n and all untouched");
}

static void test_cpulist(void)
{
	unsigned int cpus[8];
	size_t n = 0;
	char buf[64];

	report(!ebp_parse_cpulist("0 1 2 3\n", cpus, 8, &n) && n == 4 &&
	       cpus[0] == 0 && cpus[3] == 3, "cpulist \"0 1 2 3\\n\"");
	report(!ebp_parse_cpulist("0-3,8", cpus, 8, &n) && n == 5 &&
	       cpus[3] == 3 && cpus[4] == 8, "cpulist \"0-3,8\"");
	report(!ebp_parse_cpulist("", cpus, 8, &n) && n == 0,
	       "cpulist empty = no CPU");
	report(!ebp_parse_cpulist("0-99", NULL, 0, &n) && n == 100,
	       "cpulist counts past the buffer");
	report(ebp_parse_cpulist("3-1", cpus, 8, &n) == -EINVAL,
	       "cpulist reversed range is rejected");
	report(ebp_parse_cpulist("0 x", cpus, 8, &n) == -EINVAL,
	       "cpulist junk is rejected");
	report(ebp_parse_cpulist("1-", cpus, 8, &n) == -EINVAL,
	       "cpulist open range is rejected");
	report(untouched_on_failure(false),
	       "cpulist: a refused list leaves cpus and n untouched");

	cpus[0] = 0; cpus[1] = 1; cpus[2] = 2; cpus[3] = 3; cpus[4] = 8;
	cpus[5] = 10; cpus[6] = 11;
	ebp_format_cpulist(cpus, 7, buf, sizeof(buf));
	expect_str(buf, "0-3,8,10-11", "format_cpulist ranges");
	ebp_format_cpulist(cpus, 0, buf, sizeof(buf));
	expect_str(buf, "-", "format_cpulist empty");
}

static void test_misc(void)
{
	unsigned int u = 0;
	char buf[32];

	report(!ebp_parse_policy_name("policy12", &u) && u == 12,
	       "policy name policy12");
	report(ebp_parse_policy_name("policy", &u) == -EINVAL &&
	       ebp_parse_policy_name("policy1x", &u) == -EINVAL &&
	       ebp_parse_policy_name("cpu1", &u) == -EINVAL,
	       "bad policy names are rejected");
	report(!ebp_parse_uint("4294967295", &u) && u == 4294967295U &&
	       ebp_parse_uint("4294967296", &u) == -EINVAL &&
	       ebp_parse_uint("1 ", &u) == -EINVAL, "parse_uint limits");

	ebp_format_share(123, 1000, buf, sizeof(buf));
	expect_str(buf, "12.3%", "format_share 123/1000");
	ebp_format_share(5, 0, buf, sizeof(buf));
	expect_str(buf, "-", "format_share of nothing");

	report(!ebp_json_string("a\"b\\c\nd\x01\xe9", buf, sizeof(buf)) &&
	       !strcmp(buf, "\"a\\\"b\\\\c\\nd\\u0001\\u00e9\""),
	       "json_string escapes quotes, backslash, controls, high bytes");
	report(ebp_json_string("abcdef", buf, 6) == -EINVAL &&
	       !strcmp(buf, "\"abc\""), "json_string truncates but stays quoted");
	report(!ebp_json_string("", buf, 3) && !strcmp(buf, "\"\""),
	       "json_string empty");
}

int main(void)
{
	test_cases(FREQ, "freq", freq_cases,
		   sizeof(freq_cases) / sizeof(freq_cases[0]));
	test_cases(DURATION, "duration", duration_cases,
		   sizeof(duration_cases) / sizeof(duration_cases[0]));
	test_cases(PCT, "pct", pct_cases, sizeof(pct_cases) / sizeof(pct_cases[0]));
	test_format_freq();
	test_format_duration();
	test_format_setting();
	test_assignment();
	test_settings();
	test_cpulist();
	test_policy_list();
	test_misc();
	printf("1..%d\n", n_run);
	if (n_failed)
		printf("# %d of %d failed\n", n_failed, n_run);
	return n_failed ? 1 : 0;
}
