#!/bin/bash
# ABBA overload demos under a host busy loop (docs/evidence/2026-12-05-emulation-held/demo-check.md)
cd /work
(while :; do :; done) & hog=$!
trap 'kill $hog' EXIT
i=0
for arm in A B B A; do
  i=$((i+1)); d=/work/dck-$i-$arm
  git clone -q /work/main $d
  if [ $arm = A ]; then sed -i 's/emulate=1 emulate_cpus=1 ||/emulate=1 emulate_cpus=1 emulate_held_us=0 ||/' $d/demo/run_in_guest.sh; (cd $d && git diff) > $d.diff; fi
  echo "$(date +%T) run $i $arm start" >> /work/dck.times
  (cd $d && DEMO_KINDS=overload make demo) > $d.log 2>&1
  echo "$(date +%T) run $i $arm end rc $?" >> /work/dck.times
done
