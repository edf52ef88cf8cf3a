// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin that counts the instructions each vCPU executes, user
 * and kernel apart, and appends "<CLOCK_REALTIME ns> <vcpu> <user> <kernel>"
 * for each vCPU to the file named by its "out=" argument at most every
 * 20 ms while any vCPU runs (looked at every 4096 blocks executed; QEMU
 * 7.2's round-robin TCG thread calls no idle callback), and at exit.  The
 * host's speed cannot change a count for given guest work, but can still
 * change the work itself (timeouts, spinning, how much a timer finds to do).
 * Declarations of the QEMU 7.2 plugin API (version 1) are
 * our own, from its documented interface.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef struct qemu_info_t qemu_info_t;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
typedef void (*vcpu_udata_cb_t)(unsigned int vcpu, void *udata);
typedef void (*udata_cb_t)(qemu_plugin_id_t id, void *udata);
typedef void (*tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags, void *udata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, udata_cb_t cb, void *udata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

#define MAX_VCPUS 8
#define KERNEL_BIT (1ull << 63)	/* x86-64: kernel addresses have the top bit */

static uint64_t user[MAX_VCPUS], kern[MAX_VCPUS], last_ns, execs;
static FILE *out;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void emit(uint64_t t)
{
	for (unsigned int v = 0; v < MAX_VCPUS; v++)
		if (user[v] || kern[v])
			fprintf(out, "%llu %u %llu %llu\n", (unsigned long long)t, v,
				(unsigned long long)user[v], (unsigned long long)kern[v]);
	fflush(out);
	last_ns = t;
}

/* One thread runs every vCPU (thread=single): no lock needed. */
static void tb_exec(unsigned int vcpu, void *udata)
{
	uint64_t n = (uintptr_t)udata;

	if (vcpu >= MAX_VCPUS)
		return;
	if (n & KERNEL_BIT)
		kern[vcpu] += n & ~KERNEL_BIT;
	else
		user[vcpu] += n;
	if (!(++execs & 4095)) {
		uint64_t t = now_ns();

		if (t - last_ns >= 20000000ull)
			emit(t);
	}
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t n = qemu_plugin_tb_n_insns(tb);

	if (qemu_plugin_tb_vaddr(tb) & KERNEL_BIT)
		n |= KERNEL_BIT;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS,
					     (void *)(uintptr_t)n);
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	emit(now_ns());
	fclose(out);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
	const char *path = NULL;

	for (int i = 0; i < argc; i++)
		if (!strncmp(argv[i], "out=", 4))
			path = argv[i] + 4;
	if (!path) {
		fprintf(stderr, "insn_count: give out=FILE\n");
		return -1;
	}
	out = fopen(path, "a");
	if (!out) {
		perror(path);
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
