#!/bin/bash
cd /work/mttcg-probe
while [ ! -e logs/chain-4.done ]; do sleep 5; done
run() { # TAG QEMU THREAD SECS EXTRA
	local t0=$(date +%s) rc
	QEMU=$2 THREAD=$3 EB_QEMU_OPTS="$5" ./guest-new.sh 7.2.13-eb /work/mttcg-probe/rw $(( $4 + 300 )) logs/$1.log "taskset -c 1 sh /work/mttcg-probe/textpoke-stress.sh $4"; rc=$?
	echo "$1 rc=$rc wall=$(( $(date +%s)-t0 ))s $(grep -a toggles logs/$1.log) splats=$(grep -a -cE 'int3|Oops|Kernel panic|WARNING' logs/$1.log) died_at=$(grep -a 'Oops' logs/$1.log | tr -d '\r' | head -1 | cut -c1-40)" >> logs/stress-summary.txt
}
N=/work/mttcg-probe/root/usr/bin/qemu-system-x86_64 O=/usr/bin/qemu-system-x86_64
run stress-qemu72-multi-2 $O multi 60 ""
run stress-multi-4 $N multi 180 ""
run stress-multi-maxports-5 $N multi 120 "-global virtio-serial-pci.max_ports=2"
echo done > logs/chain-5.done
