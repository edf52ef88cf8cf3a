/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ebctl_parse — the pure part of ebctl: parsing what the operator types and
 * formatting what ebctl prints.  No I/O and no global state, so every
 * function can be unit-tested on any host (tests/test_ebctl_parse.c).
 *
 * Parsers return 0 or -EINVAL and leave *out untouched on failure.  They
 * reject junk: empty strings, signs, leading or trailing garbage, overflow,
 * unknown units and malformed numbers such as "1.2.3GHz".
 *
 * Formatters always NUL-terminate (when len > 0) and truncate silently.
 */
#ifndef EBCTL_PARSE_H
#define EBCTL_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Plain decimal unsigned int ("42"): CPU and policy numbers, sysfs values. */
int ebp_parse_uint(const char *s, unsigned int *out);

/*
 * Frequency in kHz: "2.6GHz", "2600MHz", "2600000kHz", "2600000" (bare =
 * kHz), units case-insensitive, optionally separated by spaces ("2.60 GHz",
 * as ebctl prints it).  "0" and "default" give 0 (the governor's default).
 * Fractions round to the nearest kHz; a non-zero value that rounds to 0 is
 * rejected rather than silently meaning "default".
 */
int ebp_parse_freq_khz(const char *s, unsigned int *khz);

/* Duration in microseconds: "1.5h", "2min", "1s", "50ms", "1.5ms", "100us",
 * "100" (bare = us); same number rules as frequencies.  ("m" is refused:
 * minutes or milliseconds?) */
int ebp_parse_duration_us(const char *s, unsigned long long *us);

/* Whole percentage 0..100: "30%" or "30". */
int ebp_parse_pct(const char *s, unsigned int *pct);

/*
 * Split "KEY=VALUE": copies KEY into @key (NUL-terminated, must fit in
 * @keylen) and points *value into @arg after the '='.  KEY and VALUE must
 * both be non-empty.
 */
int ebp_parse_assignment(const char *arg, char *key, size_t keylen,
			 const char **value);

/* "policy12" -> 12; anything else (e.g. "policy", "policy1x") -EINVAL. */
int ebp_parse_policy_name(const char *name, unsigned int *id);

/*
 * CPU list as in sysfs: "0 1 2 3" (affected_cpus) or "0-3,8" (cpulist
 * files), trailing newline allowed, empty = no CPU.  Stores up to @max CPUs
 * in @cpus but counts all of them in *n, so a caller can size a buffer with
 * a first call (cpus NULL, max 0).
 */
int ebp_parse_cpulist(const char *s, unsigned int *cpus, size_t max,
		      size_t *n);

/*
 * Policy numbers as cpupower -c takes CPUs: "2,3", "0-3", "0-1,4", or
 * "all" (*all set, *n 0).  Junk, an empty list and blanks are -EINVAL; more
 * than @max numbers -E2BIG.
 */
int ebp_parse_policy_list(const char *s, unsigned int *ids, size_t max,
			  size_t *n, bool *all);

/* The tunables `ebctl set` knows. */
enum ebp_kind { EBP_FREQ, EBP_DURATION, EBP_PCT };

struct ebp_key {
	const char *name;	/* what the operator types: "max-boost" */
	const char *file;	/* tunable file: "max_boost_us" */
	enum ebp_kind kind;
	const char *forms;	/* accepted forms, for error messages */
	unsigned long long min, max;	/* us or % (not for frequencies) */
};

/* The key called @name ("base") or its file ("base_freq"), or NULL. */
const struct ebp_key *ebp_find_key(const char *name);

/* All keys, for help texts; *n gets the count. */
const struct ebp_key *ebp_keys(size_t *n);

/*
 * Parse @value for @key into the number written to its tunable file (kHz,
 * us or %), checking the ranges that do not depend on the hardware:
 * max-boost 1 us .. 10 s, rate-limit 0 .. 100 ms, budget 1 .. 100.  Frequencies are range-checked
 * against the policy by the caller.
 */
int ebp_parse_setting(const struct ebp_key *key, const char *value,
		      unsigned long long *out);

/* "2.60 GHz" (>= 1 GHz, two decimals), "800 MHz", "500 kHz". */
void ebp_format_freq(unsigned int khz, char *buf, size_t len);

/* "100 ms", "1.5 ms", "2.25 s", "3 min", "1.5 h", "0 s": the largest unit
 * in which the value is at least 1, up to two decimals, trailing zeros cut. */
void ebp_format_duration_ns(unsigned long long ns, char *buf, size_t len);

/* A setting in us, exactly: as ebp_format_duration_ns() where two decimals
 * hold it ("1.5 ms"), else in us ("1001 us"). */
void ebp_format_setting_us(unsigned long long us, char *buf, size_t len);

/* Sorted CPUs as ranges: "0-3,8"; "-" when there is none. */
void ebp_format_cpulist(const unsigned int *cpus, size_t n, char *buf,
			size_t len);

/* @part of @whole as "12.3%", "-" when @whole is 0. */
void ebp_format_share(uint64_t part, uint64_t whole, char *buf, size_t len);

/*
 * @s as a quoted JSON string literal.  Returns -EINVAL when @buf is too
 * small; the output is then cut at a character boundary but still quoted,
 * so it stays valid JSON.
 */
int ebp_json_string(const char *s, char *buf, size_t len);

#endif /* EBCTL_PARSE_H */
