#!/bin/sh
# A load of eventboost.ko that fails at a step leaves nothing behind.  The
# loader frees a module whose init failed without waiting for what took it
# meanwhile: a policy that selected the governor, a file opened on
# /dev/eventboost would run its code after it is gone.  ebtest_fail.ko
# holds the failing step 300 ms while a writer selects the governor on
# every policy and an opener opens the device, each as fast as it can;
# then no policy runs the governor, no open succeeded, and the module
# loads as ever.  And a load slowed at its last step serves a client that
# opened the device as it appeared (libeventboost waits for it).  Run
# before eventboost.ko is loaded, with ebtest_cpufreq's policies.  TAP.
#   module_load_test.sh EVENTBOOST_KO EBTEST_FAIL_KO EBCTL
KO=$1 FAIL=$2 EBCTL=$3
CF=/sys/devices/system/cpu/cpufreq
R=/tmp/eb-load-race
TAP_NAME="failing load"
. "$(dirname "$0")/tap.sh"

govs() { cat "$CF"/policy*/scaling_governor | sort -u | tr '\n' ' '; }
count() { [ -e "$1" ] && wc -l < "$1" || echo 0; }

# race STEP: load eventboost.ko failing at STEP, raced by the writer and
# the opener; leaves its files in $R for the checks.
race() {
	rm -rf "$R" && mkdir "$R" || return 1
	# (Each write of a governor not registered asks for a module
	# cpufreq_eventboost: a modprobe each time, the writer's pace.)
	(while [ ! -e "$R/stop" ]; do
		for p in "$CF"/policy*; do
			{ echo eventboost > "$p/scaling_governor"; } 2>/dev/null &&
				echo "$p" >> "$R/selected"
		done
	done) &
	writer=$!
	taskset -pc 1 "$writer" > /dev/null
	(while [ ! -e "$R/stop" ]; do
		# (true, not exec: a failed redirection of a special built-in
		# would end the loop)
		{ true < /dev/eventboost; } 2>/dev/null && echo opened >> "$R/opened"
	done) &
	opener=$!
	taskset -pc 1 "$opener" > /dev/null
	insmod "$FAIL" step="$1" || { touch "$R/stop"; wait; return 1; }
	taskset -c 0 insmod "$KO" 2> "$R/insmod.err"
	echo $? > "$R/insmod.rc"
	touch "$R/stop"
	wait "$writer" "$opener"
	cat /sys/module/ebtest_fail/parameters/slowed > "$R/slowed"
	rmmod ebtest_fail
}

# The failing step spins with preemption off: the races run on a second
# CPU (1), the load on CPU 0 (else the scheduler may leave them behind the
# spin, as it did on 6.12-rt).
if [ "$(nproc)" -lt 2 ]; then
	echo "not ok 1 - $TAP_NAME: needs two CPUs, has $(nproc)"
	exit 1
fi
echo "1..10"
for p in "$CF"/policy*; do echo performance > "$p/scaling_governor"; done
for step in misc governor; do
	race "$step"
	t "at $step: the load fails there" \
		'[ "$(cat $R/insmod.rc)" != 0 ] && [ "$(cat $R/slowed)" = 1 ] ||
		 { sed "s/^/# /" $R/insmod.err; false; }'
	t "at $step: no policy took the governor (selected $(count $R/selected))" \
		'[ "$(count $R/selected)" = 0 ] && [ "$(govs)" = "performance " ] ||
		 { echo "# governors: $(govs)"; false; }'
	t "at $step: no file was opened on the device, none is left (opened $(count $R/opened))" \
		'[ "$(count $R/opened)" = 0 ] && [ ! -e /dev/eventboost ] && [ ! -d /sys/module/eventboost ]'
	for p in "$CF"/policy*; do echo performance > "$p/scaling_governor"; done
done
# Slowed 800 ms after the device appeared: an open as soon as it is there
# is refused (EAGAIN: the window is open), and ebctl, started then, opens
# it within the rest (a fork and exec) and is served: libeventboost waits
# (up to a second) for the governor.
rm -rf "$R" && mkdir "$R"
(i=0
 while [ ! -e /dev/eventboost ] && [ $i -lt 3000 ]; do sleep 0.01; i=$((i + 1)); done
 { true < /dev/eventboost; } 2> "$R/first"
 "$EBCTL" status > "$R/ebctl.out" 2>&1; echo $? > "$R/ebctl.rc") &
client=$!
taskset -pc 1 "$client" > /dev/null
insmod "$FAIL" step=governor succeed=1 delay_ms=800
taskset -c 0 insmod "$KO" 2> "$R/insmod.err"
echo $? > "$R/insmod.rc"
wait "$client"
cat /sys/module/ebtest_fail/parameters/slowed > "$R/slowed"
rmmod ebtest_fail
t "a slowed load: a client started as the device appeared is served" \
	'[ "$(cat $R/insmod.rc)" = 0 ] && [ "$(cat $R/slowed)" = 1 ] &&
	 grep -qi "temporarily unavailable" $R/first && [ "$(cat $R/ebctl.rc)" = 0 ] ||
	 { sed "s/^/# /" $R/insmod.err $R/first $R/ebctl.out; false; }'
t "then a policy runs it" \
	'echo eventboost > "$CF/policy0/scaling_governor" &&
	 [ "$(cat $CF/policy0/scaling_governor)" = eventboost ] && true < /dev/eventboost'
t "and unloads" \
	'for p in "$CF"/policy*; do echo performance > "$p/scaling_governor"; done; rmmod eventboost'
t "bad steps are refused" \
	'! insmod "$FAIL" 2>/dev/null && ! insmod "$FAIL" step=open 2>/dev/null &&
	 ! insmod "$FAIL" step=misc delay_ms=2001 2>/dev/null'
rm -rf "$R"
exit $rc
