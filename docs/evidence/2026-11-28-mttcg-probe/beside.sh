#!/bin/sh
# Runs in the guest: CPU 1's fixed loop with CPU 0 idle, spinning, idle again.
P=/work/mttcg-probe/src/beside
N=${1:-33554432}
$P idle $N 9
taskset -c 0 sh -c 'while :; do :; done' & hog=$!
sleep 1
$P busy $N 9
kill $hog
$P idle-again $N 9
