#!/bin/sh
# Inside the experiment guest: eventboost over ebtest_cpufreq with emulated
# DVFS (0.8-4.0 GHz; base 2.6), the network to the host's load agent
# (scripts/experiment.sh), then driver.js.  run_in_guest.sh KVER TOP OUT
KVER=$1 TOP=$2 OUT=$3
B=$TOP/build/$KVER
modprobe -q cpufreq_performance 2>/dev/null
modprobe -q cpufreq_ondemand 2>/dev/null
# Fixed clocks: the userspace governor, which no eventboost client can move.
modprobe -q cpufreq_userspace 2>/dev/null
insmod "$B/eventboost/eventboost.ko" || exit 1
# Only CPU 1, the measured one, is emulated: CPU 0 gets no 1 kHz timer.
insmod "$B/ebtest/ebtest_cpufreq.ko" emulate=1 emulate_cpus=1 || exit 1
# The network to the host's load agent, the NIC's interrupts on CPU 1.
sh "$TOP/scripts/guest-net.sh" || exit 1
taskset -c 0 node "$TOP/experiment/driver.js" "$OUT" || echo "experiment: driver failed"
for p in /sys/devices/system/cpu/cpufreq/policy*; do echo performance > "$p/scaling_governor"; done
rmmod ebtest_cpufreq; rmmod eventboost
if dmesg | grep -E 'BUG:|WARNING: CPU|Oops|Call Trace'; then echo 1 > "$OUT/result"; fi
