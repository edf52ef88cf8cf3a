#!/bin/sh
# $1: variant: irq1 (as make experiment), irq0 (NIC interrupts left where they are), down (NIC not brought up)
v=$1; shift
case $v in
irq1) sh /work/main/scripts/guest-net.sh || exit 1 ;;
irq0) dev=$(ls /sys/class/net | grep -vx lo | head -1); ip link set lo up; ip link set "$dev" up; ip addr add 10.0.2.15/24 dev "$dev"
      for irq in $(grep -E 'virtio[0-9]+-(input|output)' /proc/interrupts | cut -d: -f1); do echo 0 > /proc/irq/$irq/smp_affinity_list; done ;;
down) ;;
esac
ROUNDS=10 PAIRS=3 PERIODS="1000" PAY="0 2000" exec sh /work/main/docs/evidence/2026-11-26-drift-pilot/probe.sh "$@"
