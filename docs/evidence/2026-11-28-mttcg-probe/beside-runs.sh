#!/bin/bash
# CPU 1's fixed loop with CPU 0 idle / spinning / idle.  Lines: TAG THREAD EXTRA-QEMU-OPTS
cd /work/mttcg-probe
while read -r tag thread extra; do
	./sample.sh > logs/threads-$tag.txt 2>&1 & sp=$!
	t0=$(date +%s)
	q=; case $tag in *q72*) q=/usr/bin/qemu-system-x86_64 ;; esac
	QEMU=${q:-/work/mttcg-probe/root/usr/bin/qemu-system-x86_64} EB_QEMU_OPTS="$extra" THREAD=$thread ./guest-new.sh 7.2.13-eb /work/mttcg-probe/rw 900 logs/$tag.log \
		"sh /work/mttcg-probe/beside.sh"
	rc=$?
	kill $sp
	echo "$tag thread=$thread opts='$extra' rc=$rc wall=$(( $(date +%s)-t0 ))s load=$(cut -d' ' -f1-3 /proc/loadavg) other_qemus=$(pgrep -fc '^/usr/bin/qemu-system')"
	grep -a -E '^(idle|busy|idle-again): ' logs/$tag.log | sed 's/^/    /'
done
