#!/bin/sh
# Does the emulation's own timer tick cost the measured CPU time, and so
# bias the 2.6/4.0 GHz ratio?  Runs in a guest, host-timed as make
# experiment's (after make experiment or make check built the modules):
#   scripts/guest.sh 7.2.13-eb build/diag 3600 \
#       sh docs/evidence/2026-11-24-emulation-period/periods.sh 7.2.13-eb "$PWD"
# The calibration job of experiment/driver.js (sha256sum of 24 MB in tmpfs,
# on CPU 1, CPU 0 idle), timed in rounds; in each round, for each
# emulate_period_us (and once with no emulation at all, "none": no timer),
# PAIRS pairs at 4.0 and 2.6 GHz.  Prints one line per job:
#   round period khz ms
KVER=$1 TOP=$2 ROUNDS=${ROUNDS:-6} PAIRS=${PAIRS:-4} PERIODS=${PERIODS:-"none 1000 2000 5000"}
B=$TOP/build/$KVER
modprobe -q cpufreq_userspace
insmod "$B/eventboost/eventboost.ko" || exit 1
F=/tmp/periods.bin
head -c 24M /dev/urandom > $F
P=/sys/devices/system/cpu/cpufreq/policy1
job() { # khz -> ms of one job on CPU 1
	echo "$1" > $P/scaling_setspeed
	t0=$(date +%s%N)
	taskset -c 1 sha256sum $F > /dev/null
	t1=$(date +%s%N)
	echo $(( (t1 - t0) / 1000000 ))
}
r=0
while [ $r -lt $ROUNDS ]; do
	for per in $PERIODS; do
		if [ "$per" = none ]; then
			insmod "$B/ebtest/ebtest_cpufreq.ko" || exit 1
		else
			insmod "$B/ebtest/ebtest_cpufreq.ko" emulate=1 emulate_cpus=1 emulate_period_us=$per || exit 1
		fi
		echo userspace > $P/scaling_governor
		job 4000000 > /dev/null	# untimed, as each calibration block's first
		i=0
		while [ $i -lt $PAIRS ]; do
			echo "$r $per 4000000 $(job 4000000)"
			echo "$r $per 2600000 $(job 2600000)"
			i=$((i + 1))
		done
		rmmod ebtest_cpufreq
	done
	r=$((r + 1))
done
rmmod eventboost
rm -f $F
