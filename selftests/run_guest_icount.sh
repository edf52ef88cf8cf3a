#!/bin/sh
# Inside a guest booted with -icount (scripts/check.sh): the tests whose
# assertions need the guest's CPU clocks to count the guest's own work.
# Under host-timed TCG a guest thread is charged the host's descheduling of
# QEMU as CPU time, so a loop thread beside a CPU hog looks busier than it
# is; under -icount its CPU time is its instructions.  Writes
# "$OUT/result-icount-$KVER".
#   run_guest_icount.sh KVER TOP OUT NODE
KVER=$1 TOP=$2 OUT=$3 NODE=${4:-node}
B=$TOP/build/$KVER
rc=0
. "$TOP/selftests/stress/splats.sh"
since=$(dmesg | wc -l)

modprobe -q cpufreq_performance 2>/dev/null
insmod "$B/eventboost/eventboost.ko" || rc=1
insmod "$B/ebtest/ebtest_cpufreq.ko" shared=0 fast_switch=1 || rc=1
(cd "$TOP/node-binding" && "$NODE" --test test/guest/queue-preempt.test.js) || rc=1
for p in /sys/devices/system/cpu/cpufreq/policy*; do echo performance > "$p/scaling_governor"; done
rmmod ebtest_cpufreq && rmmod eventboost || { echo "not ok - modules unload"; rc=1; }
if eb_splats "$since"; then
	echo "not ok - kernel log has splats (above)"
	rc=1
else
	echo "ok - kernel log clean"
fi
echo "$rc" > "$OUT/result-icount-$KVER"
