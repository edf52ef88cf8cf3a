#!/bin/bash
# Every guest log of this probe: QEMU binary, thread mode, kernel, and its
# splat lines (WARNING/BUG/Oops/Call Trace/Kernel panic/int3; the benign
# "report a bug" PCI line and RETBleed's mitigation notice excluded).
cd /work/mttcg-probe/logs
for f in boot-*.log stress-*.log ratio-*.log beside-*.log ml-*.log; do
	[ -e "$f" ] || continue
	case $f in *q72*|*qemu72*) q=7.2.22 ;; *) q=10.0.2 ;; esac
	case $f in *multi*) mode=multi ;; *single*) mode=single ;; *) mode=multi ;; esac
	case $f in *deb612*) k=6.12.117+deb12-amd64 ;; *) k=7.2.13-eb ;; esac
	n=$(grep -aE 'WARNING|BUG|Oops|Call Trace|Kernel panic|int3' "$f" | grep -av -e 'report a bug' -e 'RETBleed' | wc -l)
	echo "$f qemu=$q thread=$mode kernel=$k splat_lines=$n"
done
