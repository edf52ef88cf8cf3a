#!/bin/bash
cd /work/mttcg-probe
while pgrep -f mttcg-probe/ratio-runs.sh >/dev/null; do sleep 5; done
QEMU=/usr/bin/qemu-system-x86_64 THREAD=single ./boots.sh q72-single 3 > logs/boots-q72-single.txt 2>&1
KVER=6.12.117+deb12-amd64 THREAD=multi ./boots.sh deb612-multi 3 > logs/boots-deb612-multi.txt 2>&1
for k in 6.12.117+deb12-amd64; do
	t0=$(date +%s); THREAD=multi ./guest-new.sh $k /work/mttcg-probe/rw 400 logs/stress-deb612-multi-1.log "taskset -c 1 sh /work/mttcg-probe/textpoke-stress.sh 60"; rc=$?
	echo "stress-deb612-multi-1 rc=$rc wall=$(( $(date +%s)-t0 ))s $(grep -a toggles logs/stress-deb612-multi-1.log) splats=$(grep -a -cE 'int3|Oops|Kernel panic|WARNING' logs/stress-deb612-multi-1.log)" >> logs/stress-summary.txt
done
EB_QEMU_OPTS="-global virtio-serial-pci.max_ports=2" THREAD=multi ./boots.sh multi-maxports 5 > logs/boots-multi-maxports.txt 2>&1
echo done > logs/chain-4.done
