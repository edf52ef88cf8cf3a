#!/bin/sh
TOP=/work/main KVER=$(uname -r) B=/work/main/build/$(uname -r)
dev=$(ls /sys/class/net | grep -v "^lo$" | head -1); ip link set lo up; ip link set $dev up; ip addr add 10.0.2.15/24 dev $dev; ip route add default via 10.0.2.2
for i in $(grep -E 'virtio[0-9]+-(input|output)' /proc/interrupts | cut -d: -f1); do echo 1 > /proc/irq/$i/smp_affinity_list; done
grep virtio /proc/interrupts
modprobe -q cpufreq_userspace
insmod $B/eventboost/eventboost.ko; insmod $B/ebtest/ebtest_cpufreq.ko emulate=1
echo userspace > /sys/devices/system/cpu/cpufreq/policy1/scaling_governor
echo userspace > /sys/devices/system/cpu/cpufreq/policy0/scaling_governor
echo 4000000 > /sys/devices/system/cpu/cpufreq/policy0/scaling_setspeed
taskset -c 1 node /work/main/build/proto/server.js &
while [ ! -e /work/main/build/proto/out/done ]; do sleep 1; done
