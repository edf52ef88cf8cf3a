#!/bin/sh
# Inside the demo guest: the governor over ebtest_cpufreq with emulated DVFS
# (a lower frequency really costs time), the demo service on CPU 1 and wrk
# on CPU 0, run three ways: eventboost off (fixed base clock), eventboost
# on, and fixed maximum clock for reference.  Results go to $OUT.
#   run_in_guest.sh KVER TOP OUT SECONDS
KVER=$1 TOP=$2 OUT=$3 SECS=$4
B=$TOP/build/$KVER
CF=/sys/devices/system/cpu/cpufreq
set -u

say() { echo "==> $*"; }
fail() { echo "demo: $*" >&2; echo 1 > "$OUT/result"; exit 1; }

modprobe -q cpufreq_performance 2>/dev/null
insmod "$B/eventboost/eventboost.ko" || fail "cannot load eventboost.ko"
insmod "$B/ebtest/ebtest_cpufreq.ko" emulate=1 || fail "cannot load ebtest_cpufreq.ko"
say "guest: eventboost loaded over ebtest_cpufreq (emulated DVFS, 0.8-4.0 GHz)"

# A throwaway application folder that depends on the package, as a user's.
app=/tmp/demo-app
mkdir -p $app/node_modules
ln -sfn "$TOP/node-binding" $app/node_modules/eventboost
cp "$TOP/demo/server.js" $app/

gov() { for p in "$CF"/policy*; do echo "$1" > "$p/scaling_governor"; done; }

run() { # name governor EVENTBOOST
	name=$1
	gov performance
	[ "$2" = eventboost ] && gov eventboost
	say "$name: starting the service (CPU 1) and warming up"
	(cd $app && EVENTBOOST=$3 exec taskset -c 1 node -r eventboost/register server.js) \
		> "$OUT/server-$name.txt" 2>&1 &
	spid=$!
	i=0
	until wget -q -O /dev/null http://127.0.0.1:8080/light 2>/dev/null; do
		i=$((i + 1)); [ $i -gt 300 ] && fail "the service did not start"
		sleep 0.1
	done
	taskset -c 0 wrk -t1 -c8 -d3s -s "$TOP/demo/mixed.lua" http://127.0.0.1:8080 > /dev/null
	cat "$CF/policy1/stats/time_in_state" > "$OUT/tis-before-$name.txt"
	"$TOP/build/userlib/ebctl" status --json > "$OUT/ebctl-before-$name.json" 2>/dev/null
	say "$name: wrk, 8 connections, ${SECS} s, one request in five heavy"
	taskset -c 0 wrk -t1 -c8 -d"${SECS}s" --latency -s "$TOP/demo/mixed.lua" \
		http://127.0.0.1:8080 > "$OUT/wrk-$name.txt"
	cat "$CF/policy1/stats/time_in_state" > "$OUT/tis-after-$name.txt"
	wget -q -O "$OUT/stats-$name.json" http://127.0.0.1:8080/eventboost
	"$TOP/build/userlib/ebctl" status --json > "$OUT/ebctl-after-$name.json" 2>/dev/null
	"$TOP/build/userlib/ebctl" status > "$OUT/ebctl-$name.txt" 2>&1
	kill $spid; wait $spid 2>/dev/null
}

run off eventboost off
run eventboost eventboost all
run max performance off
gov performance
rmmod ebtest_cpufreq && rmmod eventboost || fail "modules did not unload"
if dmesg | grep -E 'BUG:|WARNING: CPU|Oops|Call Trace'; then fail "kernel log has splats"; fi
node "$TOP/demo/report.js" "$OUT" || fail "report"
echo 0 > "$OUT/result"
