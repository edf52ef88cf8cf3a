#!/bin/sh
# Runs inside a one-CPU -icount guest (scripts/check.sh boots it; see
# node-binding/test/guest/queue-preempt.test.js for why only there): the
# Queue-Boost preemption tests against the real module over the test
# driver, then the kernel log.  Writes "$OUT/result-preempt-$KVER".
#   run_guest_preempt.sh KVER TOP OUT [NODE]
KVER=$1 TOP=$2 OUT=$3 NODE=${4:-node}
B=$TOP/build/$KVER
rc=0
. "$TOP/selftests/stress/splats.sh"
since=$(dmesg | wc -l)

modprobe -q cpufreq_performance 2>/dev/null
insmod "$B/eventboost/eventboost.ko" || rc=1
insmod "$B/ebtest/ebtest_cpufreq.ko" shared=0 fast_switch=1 || rc=1
echo "# CPUs: $(nproc); clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
(cd "$TOP/node-binding" && "$NODE" --test --test-reporter=tap test/guest/queue-preempt.test.js) || rc=1
rmmod ebtest_cpufreq || { echo "not ok - driver unload"; rc=1; }
rmmod eventboost || { echo "not ok - eventboost unloads"; rc=1; }
if eb_splats "$since"; then
	echo "not ok - kernel log has splats (above)"
	rc=1
else
	echo "ok - kernel log clean"
fi
dmesg > "$OUT/dmesg-preempt-$KVER.txt"
echo "$rc" > "$OUT/result-preempt-$KVER"
