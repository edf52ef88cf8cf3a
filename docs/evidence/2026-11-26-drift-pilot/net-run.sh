#!/bin/bash
cd /work/main
fwd=; for p in $(seq 8100 2 8198); do fwd="$fwd,hostfwd=tcp:127.0.0.1:$((p + 10000))-:$p"; done
run() { # name qemuopts variant
  EB_QEMU_OPTS="$2" EB_GUEST_MEM=3G scripts/guest.sh 7.2.13-eb build/probe 2400 sh /work/pilot/net/guest-v.sh $3 7.2.13-eb "$PWD" > /work/pilot/net/$1.log 2>&1
  grep "^[0-9]" /work/pilot/net/$1.log > /work/pilot/net/$1.txt
  echo "== $1 ($3; $(echo "$2" | cut -c1-40)...)"; node /work/pilot/sum2.js /work/pilot/net/$1.txt
}
run fwd-irq1 "-netdev user,id=ebnet$fwd -device virtio-net-pci,netdev=ebnet" irq1
run fwd-irq0 "-netdev user,id=ebnet$fwd -device virtio-net-pci,netdev=ebnet" irq0
run nofwd-irq1 "-netdev user,id=ebnet -device virtio-net-pci,netdev=ebnet" irq1
run fwd-down "-netdev user,id=ebnet$fwd -device virtio-net-pci,netdev=ebnet" down
run none "" down
