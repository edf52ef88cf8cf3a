// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libeventboost's binary interface, as applications see it.  TAP.
 *   test_abi LIBRARY.so [DEVICE]
 * Both eb_stats entry points are exported, and the header routes eb_stats()
 * calls through the sized one.  With DEVICE (the module's in a guest, the
 * fake one, fake-device.c, on the host): the library writes no byte past
 * the size the caller gave, the legacy entry point fills the 0.1.0 layout,
 * a size below it and a NULL buffer are refused; a read-only client reads
 * and cannot hint.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "eventboost.h"

static int n, failed;

static void ok(int cond, const char *what)
{
	printf("%sok %d - abi: %s\n", cond ? "" : "not ", ++n, what);
	failed |= !cond;
}

/* The 0.1.0 layout: fields are only ever appended after latency[]. */
_Static_assert(EB_STATS_SIZE_V1 == offsetof(struct eb_stats, latency) +
	       sizeof(((struct eb_stats *)0)->latency), "v1 ends after latency[]");
_Static_assert(sizeof(struct eb_stats) >= EB_STATS_SIZE_V1, "struct only grows");
#ifdef __x86_64__
_Static_assert(EB_STATS_SIZE_V1 == 256, "0.1.0 x86_64 layout");
#endif

#ifndef eb_stats
#error "eventboost.h must route eb_stats() calls through eb_stats_sized()"
#endif
#undef eb_stats
int eb_stats(struct eb_client *c, unsigned int cpu, struct eb_stats *st);

int main(int argc, char **argv)
{
	unsigned char buf[EB_STATS_SIZE_V1 + 64];
	struct eb_client *c;
	void *h;

	if (argc < 2) {
		fprintf(stderr, "usage: test_abi LIBRARY.so [DEVICE]\n");
		return 2;
	}
	printf("1..%d\n", argc > 2 ? 10 : 2);
	h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	ok(h && dlsym(h, "eb_stats"), "eb_stats is exported (binaries built against 0.1.0)");
	ok(h && dlsym(h, "eb_stats_sized"), "eb_stats_sized is exported");
	if (argc < 3)
		return failed;

	if (eb_open(&c, argv[2])) {
		printf("Bail out! cannot open %s\n", argv[2]);
		return 1;
	}
	/* With a client that works: only the buffer is wrong. */
	ok(eb_stats_sized(c, 0, NULL, EB_STATS_SIZE_V1) == -EINVAL,
	   "eb_stats_sized refuses a NULL buffer");
	memset(buf, 0xa5, sizeof(buf));
	ok(eb_stats_sized(c, 0, (struct eb_stats *)buf, EB_STATS_SIZE_V1) == 0,
	   "eb_stats_sized with the 0.1.0 size");
	{
		int clean = 1;

		for (size_t i = EB_STATS_SIZE_V1; i < sizeof(buf); i++)
			clean &= buf[i] == 0xa5;
		ok(clean, "nothing written past the caller's size");
	}
	{
		struct eb_stats a, b;

		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		ok(eb_stats(c, 0, &a) == 0 && eb_stats_sized(c, 0, &b, sizeof(b)) == 0 &&
		   a.base_khz && a.base_khz == b.base_khz && a.boost_khz == b.boost_khz,
		   "legacy eb_stats and eb_stats_sized agree");
	}
	ok(eb_stats_sized(c, 0, (struct eb_stats *)buf, EB_STATS_SIZE_V1 - 8) == -EINVAL,
	   "a size below the 0.1.0 layout is refused");
	{
		/* A newer caller's bigger struct: the tail it knows of but we
		 * do not is zeroed, so its new fields read as "absent". */
		memset(buf, 0xa5, sizeof(buf));
		ok(eb_stats_sized(c, 0, (struct eb_stats *)buf, sizeof(buf)) == 0 &&
		   buf[sizeof(buf) - 1] == 0, "a bigger caller struct gets zeros past ours");
	}
	eb_close(c);
	{
		/* A monitor's client: reads, cannot hint. */
		struct eb_stats st;

		ok(eb_open_readonly(&c, argv[2]) == 0 && eb_stats(c, 0, &st) == 0 &&
		   st.base_khz, "a read-only client reads the counters");
		ok(eb_gc_enter(c) == -EBADF && eb_bind(c, 0) == -EBADF,
		   "a read-only client's hints and bind are refused (EBADF)");
		eb_close(c);
	}
	if (h)
		dlclose(h);
	return failed;
}
