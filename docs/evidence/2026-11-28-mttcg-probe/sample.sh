#!/bin/bash
# Host side: every 15 s, the busiest threads of this probe's QEMU over the last second (top -H), and the host load.
while :; do
	pid=$(pgrep -f '^/work/mttcg-probe/root/usr/bin/qemu-system-x86_64' | head -1)
	[ -n "$pid" ] && { echo "== $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"; top -H -b -d 1 -n 2 -p "$pid" | awk '/^top/{n++} n==2 && $9+0 > 5 {print $1, $9"%", $12}'; }
	sleep 15
done
