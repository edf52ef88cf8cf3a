#!/bin/sh
# Where does a 2.6 GHz calibration job's time go?  Runs in a guest, host-
# timed as make experiment's (after make check or make experiment built the
# modules):
#   scripts/guest.sh 7.2.13-eb build/probe 3600 \
#       sh docs/evidence/2026-11-26-drift-pilot/probe.sh 7.2.13-eb "$PWD"
# The calibration job of experiment/driver.js (sha256sum of 24 MB in tmpfs
# on CPU 1, CPU 0 idle) in rounds; in each, for each emulate_period_us,
# PAIRS pairs at 4.0 and 2.6 GHz after one untimed job.  One line per job:
#   round period khz us loc owed_ns spun_ns busy_ns pay_us
# loc: CPU 1's local timer interrupts during the job; owed/spun: the steal
# the emulating timer computed and ran; busy: its busy time (spun included);
# pay_us: the debt paid at once (emulate_pay_us; 0: every period), alternated.
KVER=$1 TOP=$2 ROUNDS=${ROUNDS:-4} PAIRS=${PAIRS:-4} PERIODS=${PERIODS:-"1000 250 4000"} PAY=${PAY:-"0 2000"}
B=$TOP/build/$KVER
taskset -p -c 0 $$ > /dev/null  # this shell, its awk and date on CPU 0
modprobe -q cpufreq_userspace
insmod "$B/eventboost/eventboost.ko" || exit 1
F=/tmp/probe.bin
head -c 24M /dev/urandom > $F
P=/sys/devices/system/cpu/cpufreq/policy1
loc() { awk '$1 == "LOC:" { print $3 }' /proc/interrupts; }
steal() { awk '$1 == "steal" && $2 == 1 { print $3, $4 }' /dev/ebtest_cpufreq; }
busy() { awk '$1 == "busy" && $2 == 1 { s += $4 } END { printf "%d\n", s }' /dev/ebtest_cpufreq; }
# As make experiment's calibration runs it: one shell on CPU 1 runs the
# job when asked (the fork and exec on CPU 1 too), here through two fifos.
mkfifo /tmp/probe.go /tmp/probe.done
taskset -c 1 sh -c "while read -r _ < /tmp/probe.go; do sha256sum $F > /dev/null; echo done > /tmp/probe.done; done" &
job() { # khz -> "us loc owed spun busy" of one job on CPU 1
	echo "$1" > $P/scaling_setspeed
	l0=$(loc); s0=$(steal); b0=$(busy)
	t0=$(date +%s%N)
	echo go > /tmp/probe.go
	read -r _ < /tmp/probe.done
	t1=$(date +%s%N)
	l1=$(loc); s1=$(steal); b1=$(busy)
	set -- $s0 $s1
	echo $(( (t1 - t0) / 1000 )) $((l1 - l0)) $(($3 - $1)) $(($4 - $2)) $((b1 - b0))
}
r=0
while [ $r -lt $ROUNDS ]; do
	for per in $PERIODS; do
		insmod "$B/ebtest/ebtest_cpufreq.ko" emulate=1 emulate_cpus=1 emulate_period_us=$per || exit 1
		echo userspace > $P/scaling_governor
		job 4000000 > /dev/null	# untimed, as each calibration block's first
		i=0
		while [ $i -lt $PAIRS ]; do
			for pay in $PAY; do
				echo $pay > /sys/module/ebtest_cpufreq/parameters/emulate_pay_us
				echo "$r $per 4000000 $(job 4000000) $pay"
				echo "$r $per 2600000 $(job 2600000) $pay"
			done
			i=$((i + 1))
		done
		rmmod ebtest_cpufreq
	done
	r=$((r + 1))
done
kill %1
rmmod eventboost
rm -f $F /tmp/probe.go /tmp/probe.done
