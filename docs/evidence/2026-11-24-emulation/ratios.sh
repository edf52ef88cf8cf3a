#!/bin/sh
# Emulated DVFS with the other vCPU idle, then busy: runs in a guest,
#   EB_QEMU_OPTS="-icount shift=1,sleep=on" scripts/guest.sh 7.2.13-eb build/diag 1800 \
#       sh docs/evidence/2026-11-24-emulation/ratios.sh 7.2.13-eb "$PWD"
# (after make check has built the modules and build/selftests).
KVER=$1 TOP=$2
B=$TOP/build/$KVER
modprobe -q cpufreq_userspace; modprobe -q cpufreq_performance
insmod "$B/eventboost/eventboost.ko"
insmod "$B/ebtest/ebtest_cpufreq.ko" shared=0 fast_switch=1 emulate=1
echo "== CPU 0 idle"
EBTEST_FAST=1 "$TOP/build/selftests/eventboost_test" -f emulated -t runtime_follows_frequency 2>&1 | grep "kHz:"
taskset -c 0 sh -c 'while :; do :; done' &
hog=$!
echo "== CPU 0 busy (a spinning shell)"
EBTEST_FAST=1 "$TOP/build/selftests/eventboost_test" -f emulated -t runtime_follows_frequency 2>&1 | grep "kHz:"
kill $hog
