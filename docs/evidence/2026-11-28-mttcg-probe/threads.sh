#!/bin/bash
# Host side: per-thread CPU use of this probe's QEMU (the binary under /work/mttcg-probe/root).
sleep "${1:-40}"
for pid in $(pgrep -f '^/work/mttcg-probe/root/usr/bin/qemu-system-x86_64'); do
	echo "== $(date +%T) pid $pid: $(tr '\0' ' ' </proc/$pid/cmdline | grep -o 'thread=[a-z]*')"
	ps -L -o tid,comm,pcpu,time,psr -p "$pid" | awk 'NR==1 || $3 > 1.0'
done
