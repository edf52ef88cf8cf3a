#!/bin/sh
# ebctl on a policy whose first CPU is offline, in the guest's clustered
# layout (ebtest_cpufreq shared_from=1: CPU 0 alone, CPUs 1 and 2 one
# policy, policy1).  TAP output.
#   ebctl_cluster_test.sh EBCTL
E=$1
CF=/sys/devices/system/cpu/cpufreq
ONLINE1=/sys/devices/system/cpu/cpu1/online
TAP_NAME="ebctl (cluster)"
. "$(dirname "$0")/tap.sh"

echo "1..2"
echo eventboost > "$CF/policy1/scaling_governor"
echo 100 > "$CF/policy1/eventboost/budget_pct"
echo 500000 > "$CF/policy1/eventboost/max_boost_us"
echo 0 > "$ONLINE1"
# The policy is still policy1, but stats refuse CPU 1 while it is offline:
# the notes after a boost must come from the CPU the boost ran on.  The
# note here: another process's GC vote on CPU 2, held past the watchdog
# (500 ms) while ebctl's boost of 500 ms (started after it) runs.
rm -f /tmp/cb.ready
python3 -c '
import fcntl, os, time
os.sched_setaffinity(0, {2})
fd = os.open("/dev/eventboost", os.O_RDWR)
fcntl.ioctl(fd, 0xEB01)		# EB_IOC_GC_ENTER
open("/tmp/cb.ready", "w").close()
time.sleep(1.5)
' &
gc=$!
i=0
while [ ! -e /tmp/cb.ready ] && [ "$i" -lt 100 ]; do sleep 0.02; i=$((i + 1)); done
t "boost on CPU 2 with policy1's first CPU offline: the watchdog's note" \
	'$E boost --cpu 2 --for 500ms >/tmp/cb.out 2>/tmp/cb.err &&
	 grep -q "boosted policy1 (cpu 2)" /tmp/cb.out &&
	 grep -q "the watchdog ended a boost on policy1" /tmp/cb.err ||
	 { sed "s/^/# /" /tmp/cb.out /tmp/cb.err; false; }'
wait "$gc"
echo 1 > "$ONLINE1"
echo 50 > "$CF/policy1/eventboost/budget_pct"
echo 100000 > "$CF/policy1/eventboost/max_boost_us"
t "CPU 1 back online" '[ "$(cat $ONLINE1)" = 1 ]'
exit $rc
