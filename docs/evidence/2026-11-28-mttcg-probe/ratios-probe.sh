#!/bin/sh
# Runs in the guest: docs/evidence/2026-11-24-emulation/ratios.sh's setup
# (modules, driver parameters, spinner), measured with src/emuratio (no
# rejection of busy pairs), then the project's own test for CPU 0 idle.
#   sh ratios-probe.sh KVER TOP
KVER=$1 TOP=$2 MS=${3:-30}
B=$TOP/build/$KVER
P=/work/mttcg-probe
modprobe -q cpufreq_userspace; modprobe -q cpufreq_performance
insmod "$B/eventboost/eventboost.ko"
insmod "$B/ebtest/ebtest_cpufreq.ko" shared=0 fast_switch=1 emulate=1
echo "== CPU 0 idle"
$P/src/emuratio idle ${MS:-30}
taskset -c 0 sh -c 'while :; do :; done' &
hog=$!
sleep 1
echo "== CPU 0 busy (a spinning shell)"
$P/src/emuratio busy ${MS:-30}
kill $hog
echo "== CPU 0 idle, the project's test (today's version, which drops busy pairs)"
EBTEST_FAST=1 "$TOP/build/selftests/eventboost_test" -f emulated -t runtime_follows_frequency 2>&1 | grep -E "kHz:|ok "
grep ^steal /dev/ebtest_cpufreq
dmesg | grep -E 'WARNING|BUG|Oops|Call Trace|int3' | grep -v 'report a bug' || echo "no splats"
