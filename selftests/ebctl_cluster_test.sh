#!/bin/sh
# ebctl on a policy whose first CPU is offline, in the guest's clustered
# layout (ebtest_cpufreq shared_from=1: CPU 0 alone, CPUs 1 and 2 one
# policy, policy1).  TAP output.
#   ebctl_cluster_test.sh EBCTL
E=$1
P=/sys/devices/system/cpu/cpufreq/policy1
ONLINE1=/sys/devices/system/cpu/cpu1/online
READY=/tmp/ebctl-cluster.ready
TAP_NAME="ebctl (cluster)"
. "$(dirname "$0")/tap.sh"

gov=$(cat "$P/scaling_governor")
echo eventboost > "$P/scaling_governor"
budget=$(cat "$P/eventboost/budget_pct")
wd=$(cat "$P/eventboost/max_boost_us")
restore() {
	echo 1 > "$ONLINE1"
	echo "$budget" > "$P/eventboost/budget_pct"
	echo "$wd" > "$P/eventboost/max_boost_us"
	echo "$gov" > "$P/scaling_governor"
	rm -f "$READY" /tmp/cb.out /tmp/cb.err
}
trap restore EXIT
trap 'exit 1' INT TERM

echo "1..2"
echo 100 > "$P/eventboost/budget_pct"
echo 2000000 > "$P/eventboost/max_boost_us"
echo 0 > "$ONLINE1"
t "CPU 1, policy1's first, is offline" '[ "$(cat $ONLINE1)" = 0 ]'
# The policy is still policy1, but stats refuse CPU 1 while it is offline:
# the notes after a boost must come from the CPU the boost ran on.  The
# note here: another process's GC vote on CPU 2, held past the watchdog
# (2 s) while ebctl's boost of 2 s, started 0.5 s after it, runs.
rm -f "$READY"
python3 -c '
import fcntl, os, sys, time
os.sched_setaffinity(0, {2})
fd = os.open("/dev/eventboost", os.O_RDWR)
fcntl.ioctl(fd, 0xEB01)		# EB_IOC_GC_ENTER
open(sys.argv[1], "w").close()
time.sleep(4)
' "$READY" &
gc=$!
i=0
while [ ! -e "$READY" ] && [ "$i" -lt 500 ]; do sleep 0.02; i=$((i + 1)); done
if [ ! -e "$READY" ]; then
	echo "# the GC vote's process did not start within 10 s"
	kill "$gc" 2>/dev/null
fi
sleep 0.5
t "boost on CPU 2 with policy1's first CPU offline: the watchdog's note" \
	'[ -e "$READY" ] &&
	 $E boost --cpu 2 --for 2s >/tmp/cb.out 2>/tmp/cb.err &&
	 grep -q "boosted policy1 (cpu 2)" /tmp/cb.out &&
	 grep -q "the watchdog ended a boost on policy1" /tmp/cb.err ||
	 { sed "s/^/# /" /tmp/cb.out /tmp/cb.err; false; }'
wait "$gc" || { echo "# the GC vote's process failed"; rc=1; }
exit $rc
