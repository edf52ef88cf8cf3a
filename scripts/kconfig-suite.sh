#!/bin/bash
# Run in a kernel tree after virtme-configkernel --defconfig: the options
# the module, the test driver and the suite need in every kernel built from
# source (the 7.2 kernels, the debug kernel): cpufreq with the governors the
# suite switches to, hotplug, unsigned unversioned modules, tracepoints in
# tracefs; user namespaces (podman's runtime, crun, reads
# /proc/self/setgroups for every container: the container test); no
# hardware cpufreq driver (the test driver is the one) and no debug
# information (BTF would need DWARF, and double the build).
set -euo pipefail
scripts/config -e CPU_FREQ -e CPU_FREQ_STAT -e CPU_FREQ_GOV_PERFORMANCE \
	-e CPU_FREQ_GOV_POWERSAVE -e CPU_FREQ_GOV_USERSPACE \
	-e CPU_FREQ_GOV_ONDEMAND -e CPU_FREQ_GOV_SCHEDUTIL \
	-e HOTPLUG_CPU -e SMP \
	-e MODULES -e MODULE_UNLOAD -e MODULE_FORCE_UNLOAD -d MODULE_SIG \
	-d MODVERSIONS \
	-e FTRACE -e ENABLE_DEFAULT_TRACERS -e EVENT_TRACING \
	-e NAMESPACES -e USER_NS \
	-d X86_INTEL_PSTATE -d X86_ACPI_CPUFREQ -d X86_AMD_PSTATE \
	-d DEBUG_INFO_BTF -e DEBUG_INFO_NONE -d DEBUG_INFO_DWARF5 \
	-d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT
