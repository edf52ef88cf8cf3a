#!/bin/sh
# What a system call costs in the testbed's guest, with and without page
# table isolation (run from the repository's top, after make check):
#   scripts/guest.sh 7.2.13-eb build/probe 300 sh docs/evidence/2026-11-26-pti/syscalls.sh
#   EB_GUEST_APPEND=nopti scripts/guest.sh 7.2.13-eb build/probe 300 sh docs/evidence/2026-11-26-pti/syscalls.sh
# On CPU 1, three times: 100 000 one-byte dd blocks (a read and a write
# each: 200 000 system calls, little else), and 300 fork+exec of true.
echo "meltdown: $(cat /sys/devices/system/cpu/vulnerabilities/meltdown)"
for i in 1 2 3; do
	t0=$(date +%s%N)
	taskset -c 1 dd if=/dev/zero of=/dev/null bs=1 count=100000 2>/dev/null
	t1=$(date +%s%N)
	taskset -c 1 sh -c 'i=0; while [ $i -lt 300 ]; do /bin/true; i=$((i + 1)); done'
	t2=$(date +%s%N)
	echo "dd_200k_syscalls_us $(( (t1 - t0) / 1000 )) fork_exec_300_us $(( (t2 - t1) / 1000 ))"
done
