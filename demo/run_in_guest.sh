#!/bin/sh
# Inside the demo guest: the governor over ebtest_cpufreq with emulated DVFS
# (a lower frequency really costs time), the network to the host's load
# agent (scripts/demo.sh starts it; the NIC's interrupts on CPU 1), then
# driver.js (the whole service on CPU 1, the driver idle on CPU 0 while the
# load runs) and report.js.  Results go to $OUT.
#   DEMO_AGENT=HOST:PORT run_in_guest.sh KVER TOP OUT SECONDS
KVER=$1 TOP=$2 OUT=$3 SECS=$4
B=$TOP/build/$KVER
CF=/sys/devices/system/cpu/cpufreq
set -u

say() { echo "==> $*"; }
fail() { echo "demo: $*" >&2; echo 1 > "$OUT/result"; exit 1; }

modprobe -q cpufreq_performance 2>/dev/null
modprobe -q cpufreq_userspace 2>/dev/null
insmod "$B/eventboost/eventboost.ko" || fail "cannot load eventboost.ko"
# Only CPU 1, the service's, is emulated: CPU 0 gets no 1 kHz timer.
insmod "$B/ebtest/ebtest_cpufreq.ko" emulate=1 emulate_cpus=1 || fail "cannot load ebtest_cpufreq.ko"
say "guest: eventboost loaded over ebtest_cpufreq (emulated DVFS, 0.8-4.0 GHz)"
sh "$TOP/scripts/guest-net.sh" || fail "no network to the host's load agent (above)"
taskset -c 0 node "$TOP/demo/driver.js" "$OUT" "$SECS" || fail "the demo's driver failed"
for p in "$CF"/policy*; do echo performance > "$p/scaling_governor"; done
rmmod ebtest_cpufreq && rmmod eventboost || fail "modules did not unload"
if dmesg | grep -E 'BUG:|WARNING: CPU|Oops|Call Trace'; then fail "kernel log has splats"; fi
node "$TOP/demo/report.js" "$OUT" || fail "report.js failed or found runs that fail the demo (above)"
echo 0 > "$OUT/result"
