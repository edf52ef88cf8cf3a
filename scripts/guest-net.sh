#!/bin/sh
# Inside a guest whose load comes from the host (make experiment, make
# demo; scripts/experiment.sh and scripts/demo.sh start the host's load
# agent and give QEMU the user network): the network up, the NIC's
# interrupts on CPU 1.  QEMU's user network: the guest is 10.0.2.15, the
# host 10.0.2.2.  The NIC's interrupts (and so its receive processing) go to
# CPU 1, the measured server's, as a NIC steered to the application's core
# would: CPU 0 must stay idle while the load runs (experiment/load-agent.js
# says why).
#   sh scripts/guest-net.sh
set -u
modprobe -q virtio_net 2>/dev/null
dev=$(ls /sys/class/net | grep -vx lo | head -1)
if [ -z "$dev" ] || ! ip link set lo up || ! ip link set "$dev" up ||
	! ip addr add 10.0.2.15/24 dev "$dev"; then
	echo "guest-net.sh: no network in the guest (a NIC: '$dev'; does the guest's QEMU have -netdev user and a virtio-net-pci device?)" >&2
	exit 1
fi
irqs=$(grep -E 'virtio[0-9]+-(input|output)' /proc/interrupts | cut -d: -f1)
if [ -z "$irqs" ]; then
	echo "guest-net.sh: no virtio-net queue interrupts in /proc/interrupts to move to CPU 1" >&2
	exit 1
fi
for irq in $irqs; do
	echo 1 > "/proc/irq/$irq/smp_affinity_list" || exit 1
done
