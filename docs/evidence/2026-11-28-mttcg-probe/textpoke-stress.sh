#!/bin/sh
# Runs in the guest: kernel text patching under load on both vCPUs.
# CPU 1 toggles all sched + syscalls tracepoints (each toggle patches
# kernel text through int3-based text_poke_bp) while CPU 0 forks and
# switches tasks through those very sites.  Prints the toggle count.
#   sh textpoke-stress.sh SECONDS
secs=${1:-60}
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T
taskset -c 0 sh -c 'while :; do /bin/true; done' &
load=$!
end=$(( $(date +%s) + secs ))
n=0
taskset -c 1 true
while [ "$(date +%s)" -lt $end ]; do
	echo 1 > $T/events/sched/enable
	echo 1 > $T/events/raw_syscalls/enable
	echo 0 > $T/events/sched/enable
	echo 0 > $T/events/raw_syscalls/enable
	n=$((n + 1))
done
kill $load
echo "toggles: $n in ${secs}s"
dmesg | grep -E 'WARNING|BUG|Oops|Call Trace|int3' | grep -v 'report a bug' || echo "no splats"
