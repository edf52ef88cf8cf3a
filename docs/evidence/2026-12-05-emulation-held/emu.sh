#!/bin/sh
# guest: a CPU loop's run time at 2.6 against 4.0 GHz under the emulation,
# in phases named STATE/HELD_US (the host's load, emulate_held_us); the
# host watches $RW/phase and runs two busy loops while STATE is "hog".
B=${B:-/work/emu/build/$(uname -r)}
RW=${RW:-/work/emu/rw}
CF=/sys/devices/system/cpu/cpufreq
modprobe -q cpufreq_userspace
insmod $B/ebtest/ebtest_cpufreq.ko emulate=1 emulate_cpus=1 || exit 1
echo userspace > $CF/policy1/scaling_governor
N=${N:-200000000}
echo 4000000 > $CF/policy1/scaling_setspeed
for phase in $PHASES; do
  echo ${phase#*/} > /sys/module/ebtest_cpufreq/parameters/emulate_held_us
  echo ${phase%/*} > $RW/phase
  sleep 3
  i=0
  while [ $i -lt ${PAIRS:-7} ]; do
    echo 4000000 > $CF/policy1/scaling_setspeed; sleep 0.1
    f=$(taskset -c 1 $RW/spin $N)
    echo 2600000 > $CF/policy1/scaling_setspeed; sleep 0.1
    s=$(taskset -c 1 $RW/spin $N)
    echo "$phase pair $i full $f slow $s ratio $(awk "BEGIN{printf \"%.3f\", $s/$f}")"
    i=$((i+1))
  done
  grep -E "^(steal|held) 1" /dev/ebtest_cpufreq | sed "s|^|$phase |"
done
echo done > $RW/phase
echo performance > $CF/policy1/scaling_governor
rmmod ebtest_cpufreq
