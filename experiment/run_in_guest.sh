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
insmod "$B/ebtest/ebtest_cpufreq.ko" emulate=1 || exit 1
# QEMU's user network: the guest is 10.0.2.15, the host 10.0.2.2.  The
# NIC's interrupts (and so its receive processing) go to CPU 1, the
# server's, as a NIC steered to the application's core would: CPU 0 must
# stay idle while the load runs (load-agent.js says why).
modprobe -q virtio_net 2>/dev/null
dev=$(ls /sys/class/net | grep -vx lo | head -1)
if [ -z "$dev" ] || ! ip link set lo up || ! ip link set "$dev" up ||
	! ip addr add 10.0.2.15/24 dev "$dev"; then
	echo "experiment: no network in the guest (a NIC: $dev)"; exit 1
fi
for irq in $(grep -E 'virtio[0-9]+-(input|output)' /proc/interrupts | cut -d: -f1); do
	echo 1 > "/proc/irq/$irq/smp_affinity_list"
done
taskset -c 0 node "$TOP/experiment/driver.js" "$OUT" || echo "experiment: driver failed"
for p in /sys/devices/system/cpu/cpufreq/policy*; do echo performance > "$p/scaling_governor"; done
rmmod ebtest_cpufreq; rmmod eventboost
if dmesg | grep -E 'BUG:|WARNING: CPU|Oops|Call Trace'; then echo 1 > "$OUT/result"; fi
