#!/bin/bash
# Boot an installed Debian kernel under QEMU and run a command in the guest.
#   scripts/guest.sh KVER RWDIR TIMEOUT_S COMMAND...
# virtme-ng shares the host's filesystem, read-only except RWDIR (which must
# not be under /tmp: the guest's /tmp is its own tmpfs).  KVM hangs at guest
# boot on these machines: TCG.  An Intel CPU model gives the guest
# constant_tsc, without which the cpufreq core refuses fast switching.
# EB_GUEST_MEM sets the guest's memory (default 2G); EB_KIMG boots that
# kernel image instead of /boot/vmlinuz-KVER (the debug kernel); EB_QEMU_OPTS
# adds QEMU options (make experiment: -icount, see scripts/experiment.sh).
set -uo pipefail
kver=$1 rwdir=$2 limit=$3
shift 3
timeout --kill-after=30 "$limit" \
	vng --disable-kvm -r "${EB_KIMG:-/boot/vmlinuz-$kver}" --cpus 2 --memory "${EB_GUEST_MEM:-2G}" \
	    --rwdir "$rwdir" --qemu-opts="-cpu Skylake-Client-v1 ${EB_QEMU_OPTS:-}" --exec "$*" \
	</dev/null 2>&1 | grep --line-buffered -v "TCG doesn't support requested feature"
