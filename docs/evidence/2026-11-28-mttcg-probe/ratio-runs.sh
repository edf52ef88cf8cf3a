#!/bin/bash
# The ratio measurements, one guest at a time.  Each line: TAG THREAD MS EXTRA-QEMU-OPTS
cd /work/mttcg-probe
while read -r tag thread ms extra; do
	./sample.sh > logs/threads-$tag.txt 2>&1 & sp=$!
	t0=$(date +%s); oq0=$(pgrep -fc "^/usr/bin/qemu-system")
	q=; case $tag in *q72*) q=/usr/bin/qemu-system-x86_64 ;; esac
	QEMU=${q:-/work/mttcg-probe/root/usr/bin/qemu-system-x86_64} EB_QEMU_OPTS="$extra" THREAD=$thread ./guest-new.sh 7.2.13-eb /work/mttcg-probe/rw 1500 logs/$tag.log \
		"sh /work/mttcg-probe/ratios-probe.sh 7.2.13-eb /work/main $ms"
	rc=$?
	kill $sp
	echo "$tag thread=$thread ms=$ms opts='$extra' rc=$rc wall=$(( $(date +%s)-t0 ))s load=$(cut -d' ' -f1-3 /proc/loadavg) other_qemus_at_start=$oq0 at_end=$(pgrep -fc "^/usr/bin/qemu-system")"
	grep -a -E '^(idle|busy): ' logs/$tag.log | sed 's/^/    /'
done
