// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ebctl_parse — parsing and formatting for ebctl, without I/O (see
 * ebctl_parse.h).  Numbers are parsed with integer arithmetic only, so
 * "2.6GHz" is exactly 2600000 kHz, never 2599999 through a double.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ebctl_parse.h"

/* Fraction digits kept: 10^9 * the largest unit (3.6 * 10^9 us in an
 * hour) still fits in 64 bits, and 10^-9 of a GHz or a second is far below
 * a kHz or a us. */
#define FRAC_DIGITS	9

#define MAX_BOOST_US_MAX	10000000ULL	/* the kernel's limit: 10 s */
#define RATE_LIMIT_US_MAX	100000ULL	/* the kernel's: 100 ms */

struct unit {
	const char *name;
	unsigned long long mult;	/* base units (kHz, us) per unit */
};

static const struct unit freq_units[] = {
	{ "GHz", 1000000 }, { "MHz", 1000 }, { "kHz", 1 }, { NULL, 0 },
};

static const struct unit duration_units[] = {
	{ "h", 3600000000ULL }, { "min", 60000000 },
	{ "s", 1000000 }, { "ms", 1000 }, { "us", 1 },
	{ "\xc2\xb5s", 1 },	/* "µs" in UTF-8 */
	{ NULL, 0 },
};

/* A decimal number as typed: integer part and up to FRAC_DIGITS of the
 * fraction (10^-k of 1 is frac / scale). */
struct decimal {
	unsigned long long ip;
	unsigned long long frac;
	unsigned long long scale;
	bool nonzero;		/* any non-zero digit, kept or not */
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* ASCII-only, so the result does not depend on the locale. */
static bool equal_nocase(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = (*a >= 'A' && *a <= 'Z') ? *a - 'A' + 'a' : *a;
		char y = (*b >= 'A' && *b <= 'Z') ? *b - 'A' + 'a' : *b;

		if (x != y)
			return false;
	}
	return *a == *b;
}

/* One or more digits into *v; the end, or NULL on no digit or overflow. */
static const char *parse_digits(const char *p, unsigned long long *v)
{
	unsigned long long x = 0;

	if (!is_digit(*p))
		return NULL;
	for (; is_digit(*p); p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (x > (ULLONG_MAX - d) / 10)
			return NULL;
		x = x * 10 + d;
	}
	*v = x;
	return p;
}

/* "12" or "12.34"; a point needs digits on both sides. */
static const char *parse_decimal(const char *p, struct decimal *d)
{
	unsigned int kept = 0;

	p = parse_digits(p, &d->ip);
	if (!p)
		return NULL;
	d->frac = 0;
	d->scale = 1;
	d->nonzero = d->ip != 0;
	if (*p != '.')
		return p;
	p++;
	if (!is_digit(*p))
		return NULL;
	for (; is_digit(*p); p++) {
		if (*p != '0')
			d->nonzero = true;
		if (kept++ < FRAC_DIGITS) {
			d->frac = d->frac * 10 + (unsigned long long)(*p - '0');
			d->scale *= 10;
		}
	}
	return p;
}

/* Multiplier of the unit named exactly @s, or 0 if there is none. */
static unsigned long long unit_mult(const struct unit *units, const char *s)
{
	for (; units->name; units++)
		if (equal_nocase(s, units->name))
			return units->mult;
	return 0;
}

/*
 * A decimal with an optional unit from @units (none: @bare), as a count of
 * base units rounded half up, at most @max.
 */
static int parse_scaled(const char *s, const struct unit *units,
			unsigned long long bare, unsigned long long max,
			unsigned long long *out)
{
	unsigned long long mult, v, fr, r;
	struct decimal d;
	const char *p;

	if (!s)
		return -EINVAL;
	p = parse_decimal(s, &d);
	if (!p)
		return -EINVAL;
	if (*p == '\0') {
		mult = bare;
	} else {
		while (*p == ' ')
			p++;
		mult = unit_mult(units, p);	/* "" (trailing blanks) fails */
		if (!mult)
			return -EINVAL;
	}
	if (d.ip > ULLONG_MAX / mult)
		return -EINVAL;
	v = d.ip * mult;
	fr = d.frac * mult;
	r = fr / d.scale + (fr % d.scale * 2 >= d.scale);
	if (v > ULLONG_MAX - r)
		return -EINVAL;
	v += r;
	if (v > max || (!v && d.nonzero))
		return -EINVAL;
	*out = v;
	return 0;
}

int ebp_parse_uint(const char *s, unsigned int *out)
{
	unsigned long long v;
	const char *p;

	if (!s)
		return -EINVAL;
	p = parse_digits(s, &v);
	if (!p || *p || v > UINT_MAX)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

int ebp_parse_freq_khz(const char *s, unsigned int *khz)
{
	unsigned long long v;
	int ret;

	if (s && equal_nocase(s, "default")) {
		*khz = 0;
		return 0;
	}
	ret = parse_scaled(s, freq_units, 1, UINT_MAX, &v);
	if (!ret)
		*khz = (unsigned int)v;
	return ret;
}

int ebp_parse_duration_us(const char *s, unsigned long long *us)
{
	return parse_scaled(s, duration_units, 1, ULLONG_MAX, us);
}

int ebp_parse_pct(const char *s, unsigned int *pct)
{
	unsigned long long v;
	const char *p;

	if (!s)
		return -EINVAL;
	p = parse_digits(s, &v);
	if (!p)
		return -EINVAL;
	if (*p == '%')
		p++;
	if (*p || v > 100)
		return -EINVAL;
	*pct = (unsigned int)v;
	return 0;
}

int ebp_parse_assignment(const char *arg, char *key, size_t keylen,
			 const char **value)
{
	const char *eq;
	size_t klen;

	if (!arg)
		return -EINVAL;
	eq = strchr(arg, '=');
	if (!eq || eq == arg || eq[1] == '\0')
		return -EINVAL;
	klen = (size_t)(eq - arg);
	if (klen >= keylen)
		return -EINVAL;
	memcpy(key, arg, klen);
	key[klen] = '\0';
	*value = eq + 1;
	return 0;
}

int ebp_parse_policy_name(const char *name, unsigned int *id)
{
	if (!name || strncmp(name, "policy", 6))
		return -EINVAL;
	return ebp_parse_uint(name + 6, id);
}

static bool is_cpulist_sep(char c)
{
	return c == ' ' || c == ',' || c == '\t' || c == '\n';
}

/* Count the CPUs of list @s, storing the first @max of them in @cpus. */
static int cpulist_walk(const char *s, unsigned int *cpus, size_t max,
			size_t *n)
{
	size_t stored = 0, count = 0;
	const char *p = s;

	for (;;) {
		unsigned long long lo, hi, c;

		while (is_cpulist_sep(*p))
			p++;
		if (!*p)
			break;
		p = parse_digits(p, &lo);
		if (!p)
			return -EINVAL;
		hi = lo;
		if (*p == '-') {
			p = parse_digits(p + 1, &hi);
			if (!p || hi < lo)
				return -EINVAL;
		}
		if (hi > UINT_MAX || (*p && !is_cpulist_sep(*p)))
			return -EINVAL;
		/* Bounded by @max, not by the range: "0-4000000000" is cheap. */
		for (c = lo; c <= hi && stored < max; c++)
			cpus[stored++] = (unsigned int)c;
		count += (size_t)(hi - lo + 1);
	}
	*n = count;
	return 0;
}

/* Checked whole before anything is stored: a refused list stores nothing. */
int ebp_parse_cpulist(const char *s, unsigned int *cpus, size_t max,
		      size_t *n)
{
	size_t count;

	if (!s || !n || cpulist_walk(s, NULL, 0, &count))
		return -EINVAL;
	return cpulist_walk(s, cpus, max, n);
}

int ebp_parse_policy_list(const char *s, unsigned int *ids, size_t max,
			  size_t *n, bool *all)
{
	size_t count;

	if (!s || !n || !all)
		return -EINVAL;
	if (!strcmp(s, "all")) {
		*all = true;
		*n = 0;
		return 0;
	}
	if (!*s || strspn(s, "0123456789,-") != strlen(s))
		return -EINVAL;
	if (cpulist_walk(s, NULL, 0, &count) || !count)
		return -EINVAL;
	if (count > max)
		return -E2BIG;
	*all = false;
	return cpulist_walk(s, ids, max, n);
}

#define FREQ_FORMS "2.6GHz, 2600MHz, 2600000kHz, 2600000 (kHz), " \
		   "0 or default; within the policy's hardware range"

static const struct ebp_key keys[] = {
	/* Frequencies: checked against the policy's range by the caller. */
	{ "base", "base_freq", EBP_FREQ, FREQ_FORMS, 0, 0 },
	{ "boost", "boost_freq", EBP_FREQ, FREQ_FORMS, 0, 0 },
	{ "max-boost", "max_boost_us", EBP_DURATION,
	  "1s, 50ms, 1.5ms, 100us, 100 (us); 1us .. 10s",
	  1, MAX_BOOST_US_MAX },
	{ "rate-limit", "rate_limit_us", EBP_DURATION,
	  "1ms, 500us, 500 (us), 0 (none); 0 .. 100ms",
	  0, RATE_LIMIT_US_MAX },
	{ "budget", "budget_pct", EBP_PCT, "30% or 30; 1 .. 100", 1, 100 },
};

const struct ebp_key *ebp_keys(size_t *n)
{
	*n = sizeof(keys) / sizeof(keys[0]);
	return keys;
}

const struct ebp_key *ebp_find_key(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(name, keys[i].name) ||
		    !strcmp(name, keys[i].file))
			return &keys[i];
	return NULL;
}

int ebp_parse_setting(const struct ebp_key *key, const char *value,
		      unsigned long long *out)
{
	unsigned long long us;
	unsigned int v;

	if (!key)
		return -EINVAL;
	switch (key->kind) {
	case EBP_FREQ:
		if (ebp_parse_freq_khz(value, &v))
			return -EINVAL;
		*out = v;
		return 0;
	case EBP_DURATION:
		if (ebp_parse_duration_us(value, &us) || us < key->min ||
		    us > key->max)
			return -EINVAL;
		*out = us;
		return 0;
	case EBP_PCT:
		if (ebp_parse_pct(value, &v) || v < key->min || v > key->max)
			return -EINVAL;
		*out = v;
		return 0;
	}
	return -EINVAL;
}

void ebp_format_freq(unsigned int khz, char *buf, size_t len)
{
	if (khz >= 1000000) {
		/* hundredths of a GHz, rounded: 2599999 kHz is "2.60 GHz" */
		unsigned long long c = ((unsigned long long)khz + 5000) / 10000;

		snprintf(buf, len, "%llu.%02llu GHz", c / 100, c % 100);
	} else if (khz >= 1000) {
		snprintf(buf, len, "%u MHz", (khz + 500) / 1000);
	} else {
		snprintf(buf, len, "%u kHz", khz);
	}
}

/* @c hundredths of @unit, trailing zeros cut: "1.5 ms", "2.25 s", "3 min". */
static void format_centi(unsigned long long c, const char *unit, char *buf,
			 size_t len)
{
	if (c % 100 == 0)
		snprintf(buf, len, "%llu %s", c / 100, unit);
	else if (c % 10 == 0)
		snprintf(buf, len, "%llu.%llu %s", c / 100, c % 100 / 10, unit);
	else
		snprintf(buf, len, "%llu.%02llu %s", c / 100, c % 100, unit);
}

void ebp_format_duration_ns(unsigned long long ns, char *buf, size_t len)
{
	static const struct unit units[] = {
		{ "h", 3600000000000ULL }, { "min", 60000000000ULL },
		{ "s", 1000000000ULL }, { "ms", 1000000ULL },
		{ "us", 1000ULL }, { "ns", 1ULL },
	};
	unsigned long long c = 0;
	size_t i;

	if (!ns) {
		snprintf(buf, len, "0 s");
		return;
	}
	/* First unit in which the value rounds to >= 1.00 (999.996 ms: 1 s). */
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		unsigned long long m = units[i].mult;

		c = ns / m * 100 + (ns % m * 100 + m / 2) / m;
		if (c >= 100)
			break;
	}
	format_centi(c, units[i].name, buf, len);
}

void ebp_format_setting_us(unsigned long long us, char *buf, size_t len)
{
	static const struct unit units[] = {
		{ "s", 1000000ULL }, { "ms", 1000ULL },
	};
	size_t i;

	/* Minutes and hours: only --for takes them, as written. */
	if (!us || us >= 60000000ULL) {
		ebp_format_duration_ns(us * 1000, buf, len);
		return;
	}
	/* The largest unit whose two decimals hold it exactly. */
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (us >= units[i].mult && us * 100 % units[i].mult == 0) {
			format_centi(us * 100 / units[i].mult, units[i].name,
				     buf, len);
			return;
		}
	}
	snprintf(buf, len, "%llu us", us);
}

void ebp_format_cpulist(const unsigned int *cpus, size_t n, char *buf,
			size_t len)
{
	size_t i, j, o = 0;
	int w;

	if (!len)
		return;
	buf[0] = '\0';
	if (!n) {
		snprintf(buf, len, "-");
		return;
	}
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && cpus[j] == cpus[j - 1] + 1; j++)
			;
		if (j - 1 > i)
			w = snprintf(buf + o, len - o, "%s%u-%u", i ? "," : "",
				     cpus[i], cpus[j - 1]);
		else
			w = snprintf(buf + o, len - o, "%s%u", i ? "," : "",
				     cpus[i]);
		if (w < 0 || (size_t)w >= len - o)
			return;		/* truncated, still terminated */
		o += (size_t)w;
	}
}

void ebp_format_share(uint64_t part, uint64_t whole, char *buf, size_t len)
{
	if (!whole)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f%%", 100.0 * (double)part / (double)whole);
}

/* JSON escape of one byte into @esc (at most 7 bytes with the NUL). */
static void json_escape_byte(unsigned char c, char esc[8])
{
	switch (c) {
	case '"':  strcpy(esc, "\\\""); return;
	case '\\': strcpy(esc, "\\\\"); return;
	case '\n': strcpy(esc, "\\n"); return;
	case '\r': strcpy(esc, "\\r"); return;
	case '\t': strcpy(esc, "\\t"); return;
	case '\b': strcpy(esc, "\\b"); return;
	case '\f': strcpy(esc, "\\f"); return;
	}
	/*
	 * Controls must be escaped.  Bytes >= 0x80 are too: sysfs names are
	 * ASCII, and a stray byte passed through could be invalid UTF-8,
	 * which would make the whole document invalid.
	 */
	if (c < 0x20 || c >= 0x7f)
		snprintf(esc, 8, "\\u%04x", c);
	else {
		esc[0] = (char)c;
		esc[1] = '\0';
	}
}

int ebp_json_string(const char *s, char *buf, size_t len)
{
	size_t o = 0;
	char esc[8];

	if (len < 3) {		/* not even room for "" */
		if (len)
			buf[0] = '\0';
		return -EINVAL;
	}
	buf[o++] = '"';
	for (; s && *s; s++) {
		size_t el;

		json_escape_byte((unsigned char)*s, esc);
		el = strlen(esc);
		if (o + el + 2 > len) {	/* + closing quote + NUL */
			buf[o++] = '"';
			buf[o] = '\0';
			return -EINVAL;
		}
		memcpy(buf + o, esc, el);
		o += el;
	}
	buf[o++] = '"';
	buf[o] = '\0';
	return 0;
}
