#!/bin/sh
KVER=$1; B=/work/main/build/$KVER
modprobe -q cpufreq_performance 2>/dev/null
insmod "$B/eventboost/eventboost.ko" || exit 1
insmod "$B/ebtest/ebtest_cpufreq.ko" shared=0 fast_switch=1 || exit 1
for c in /sys/devices/system/cpu/cpufreq/policy*; do echo eventboost > $c/scaling_governor; done
cd /work/prof
for i in 1 2 3 4; do
  for v in old new; do SECS=14 PKG=/work/ab/$v node wl.js 2>/dev/null | grep '^{' >> /work/prof/out/ab.jsonl; done
  for v in new old; do SECS=14 PKG=/work/ab/$v node wl.js 2>/dev/null | grep '^{' >> /work/prof/out/ab.jsonl; done
done
rmmod ebtest_cpufreq; rmmod eventboost
dmesg | grep -E "WARNING|BUG|Oops" | grep -v RETBleed | head
