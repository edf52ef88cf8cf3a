#!/bin/bash
# Boot an installed Debian kernel under QEMU and run a command in the guest.
#   scripts/guest.sh KVER RWDIR TIMEOUT_S COMMAND...
# virtme-ng shares the host's filesystem, read-only except RWDIR (which must
# not be under /tmp: the guest's /tmp is its own tmpfs).  KVM hangs at guest
# boot on these machines: TCG.  An Intel CPU model gives the guest
# constant_tsc, without which the cpufreq core refuses fast switching.
# One host thread runs both vCPUs (thread=single): with a thread per vCPU,
# QEMU 7.2's TCG lets a vCPU execute the int3 of a kernel text poke after the
# poke is over ("Oops: int3", a panic), so enabling any tracepoint, or the
# clocksource watchdog flipping sched_clock's static key, could kill the
# guest at random (a stock kernel toggling tracepoints dies within seconds).
# EB_GUEST_MEM sets the guest's memory (default 2G), EB_GUEST_CPUS its CPUs
# (default 2); EB_KIMG boots that
# kernel image instead of /boot/vmlinuz-KVER, or /lib/modules/KVER/vmlinuz
# for the kernels built from source (7.2: build-sid-kernel.sh); EB_QEMU_OPTS
# adds QEMU options (-icount for make bench and the preemption tests),
# EB_GUEST_APPEND kernel command-line options.
#
# The kernel's console (warnings and worse) goes to RWDIR/console-KVER.txt,
# the command's output to stdout: a guest that dies without a word from
# the command (a panic) still leaves its last messages, and they are shown.
set -uo pipefail
kver=$1 rwdir=$2 limit=$3
shift 3
console=$rwdir/console-$kver.txt
# From 6.15 the kernel grants constant_tsc to Intel models after Ivy Bridge
# only for CPUID's invariant-TSC bit, which TCG cannot offer (and an Ivy
# Bridge model's guest fails its IO-APIC timer check under TCG): those
# kernels get the same Skylake, reporting Ivy Bridge's model number (58).
# no_timer_check: under a loaded host, TCG can fail the IO-APIC timer's
# boot-time check, and the guest panics ("IO-APIC + timer doesn't work").
model=Skylake-Client-v1
[ "$(printf '%s\n' 6.15 "$kver" | sort -V | head -1)" = 6.15 ] && model=Skylake-Client-v1,model=58
model=${EB_CPU_MODEL:-$model}
kimg=${EB_KIMG:-/boot/vmlinuz-$kver}
[ -e "$kimg" ] || [ -n "${EB_KIMG:-}" ] || kimg=/lib/modules/$kver/vmlinuz
# The guest's PATH is virtme-ng-init's (/usr/bin ahead of /usr/local/bin),
# not the caller's: the caller's node goes first, the Node the package was
# built with (setup-node.sh's Node 24 beside Debian's 18 in /usr/bin, or the
# nvm Node a user runs make demo with).  Unless the guest cannot see it:
# its /tmp, /run and /var/cache, among others, are tmpfs of its own (make
# demo's, bench's and experiment's guests refuse another Node).
# (Where the binary itself is: a version manager's shim or link resolves
# through state the guest has not; in single quotes for the guest's dash.)
cmd="$*"
if node_dir=$(node -p 'require("path").dirname(process.execPath)' 2>/dev/null); then
	cmd="PATH='${node_dir//\'/\'\\\'\'}':\$PATH; export PATH; $cmd"
fi
# Console lines end in CR (serial line discipline); the command's do not.
# (A command line with a CR, a progress bar, is dropped too.)  --verbose
# also has vng report its virtiofsd fallback: noise, dropped.
timeout --kill-after=30 "$limit" \
	vng --disable-kvm -r "$kimg" --cpus "${EB_GUEST_CPUS:-2}" --memory "${EB_GUEST_MEM:-2G}" \
	    --verbose --append "loglevel=4 no_timer_check ${EB_GUEST_APPEND:-}" \
	    --rwdir "$rwdir" \
	    --qemu-opts="-cpu $model -accel tcg,thread=single ${EB_QEMU_OPTS:-}" --exec "$cmd" \
	</dev/null 2>&1 | tee "$console" |
	grep --line-buffered -v -e $'\r' -e "TCG doesn't support requested feature" \
		-e virtiofsd -e "^fuse: invalid argument"
rc=(${PIPESTATUS[@]})
kernel=$(grep -a $'\r' "$console" | tr -d '\r')
died=
grep -q "Kernel panic" <<<"$kernel" && died="died"
[ "${rc[0]}" = 124 ] && died="ran out of its ${limit}s"
if [ -n "$died" ]; then
	echo "guest.sh: the $kver guest $died; its console ($console) ends:" >&2
	tail -n 60 <<<"$kernel" >&2
	[ "${rc[0]}" = 0 ] && rc[0]=1
fi
exit "${rc[0]}"
