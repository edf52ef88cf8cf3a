#!/bin/bash
# N boots of the 7.2.13-eb guest, each running a trivial command that saves
# the guest's dmesg; prints one line per boot: mode, i, rc, seconds, splats.
#   THREAD=multi|single ./boots.sh TAG N
tag=$1 n=$2
cd /work/mttcg-probe
for i in $(seq 1 "$n"); do
	f=rw/dmesg-$tag-$i.txt; rm -f "$f"
	load=$(cut -d' ' -f1 /proc/loadavg)
	t0=$(date +%s.%N)
	./guest-new.sh ${KVER:-7.2.13-eb} /work/mttcg-probe/rw 600 logs/boot-$tag-$i.log \
		"uname -r; nproc; dmesg > $f"
	rc=$?
	t1=$(date +%s.%N)
	splats=$( { grep -E 'WARNING|BUG|Oops|Call Trace|Kernel panic' "$f" logs/boot-$tag-$i.log; grep -i 'int3' "$f" logs/boot-$tag-$i.log; } 2>/dev/null | grep -v 'report a bug' | wc -l)
	up=$(grep -a 'reboot: Power down' logs/boot-$tag-$i.log | tr -d '\r' | sed 's/^\[ *\([0-9.]*\)\].*/\1/')
	printf '%s boot %d rc=%d wall=%.1fs guest_uptime_at_poweroff=%ss splat_lines=%d dmesg=%s hostload1=%s\n' \
		"$tag" "$i" "$rc" "$(echo "$t1 - $t0" | bc)" "${up:-?}" "$splats" "$([ -s "$f" ] && echo saved || echo MISSING)" "$load"
done
