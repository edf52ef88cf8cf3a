#!/bin/sh
# ebctl against the real module, in the guest, with ebtest_cpufreq loaded
# per-CPU with fast switch (base 2.6 GHz, boost 4.0 GHz).  TAP output.
#   ebctl_test.sh EBCTL EVENTBOOST_KO
E=$1 KO=$2
CF=/sys/devices/system/cpu/cpufreq
TAP_NAME=ebctl
. "$(dirname "$0")/tap.sh"

cur() { sed -n "s/^policy $1 cur \([0-9]*\).*/\1/p" /dev/ebtest_cpufreq; }
wait_cur() {
	i=0
	while [ "$i" -lt 200 ]; do
		[ "$(cur "$1")" = "$2" ] && return 0
		sleep 0.02; i=$((i + 1))
	done
	return 1
}
all_gov() { for p in "$CF"/policy*; do echo "$1" > "$p/scaling_governor"; done; }
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

all_gov performance
all_gov eventboost
echo "1..17"
t "status shows each policy on eventboost" \
	'$E status > /tmp/st.txt && grep -q "policy0" /tmp/st.txt && grep -q "policy1" /tmp/st.txt && grep -q eventboost /tmp/st.txt'
t "status --json is valid JSON with the policies" \
	'$E status --json > /tmp/st.json && python3 -c "import json,sys; d=json.load(open(\"/tmp/st.json\")); sys.exit(0 if d[\"module_loaded\"] and len(d[\"policies\"]) == 2 else 1)"'
t "set base=1.6GHz --policy 1" \
	'$E set base=1.6GHz --policy 1 >/dev/null && [ "$(cat $CF/policy1/eventboost/base_freq)" = 1600000 ] && wait_cur 1 1600000'
t "set leaves other policies alone with --policy" '[ "$(cat $CF/policy0/eventboost/base_freq)" = 2600000 ]'
t "set base=2600MHz boost=4GHz on all policies" \
	'$E set base=2600MHz boost=4GHz >/dev/null && [ "$(cat $CF/policy1/eventboost/base_freq)" = 2600000 ] && [ "$(cat $CF/policy0/eventboost/boost_freq)" = 4000000 ]'
t "set max-boost=50ms budget=30%" \
	'$E set max-boost=50ms budget=30% >/dev/null && [ "$(cat $CF/policy0/eventboost/max_boost_us)" = 50000 ] && [ "$(cat $CF/policy1/eventboost/budget_pct)" = 30 ]'
t "set with a bad value exits 2 and writes nothing" \
	'$E set base=2GHz budget=abc 2>/dev/null; [ $? = 2 ] && [ "$(cat $CF/policy0/eventboost/base_freq)" = 2600000 ]'
t "set with an unknown key exits 2" '$E set turbo=1 2>/dev/null; [ $? = 2 ]'
t "set out of range exits 2" '$E set boost=9GHz 2>/dev/null; [ $? = 2 ] && [ "$(cat $CF/policy0/eventboost/boost_freq)" = 4000000 ]'
$E set max-boost=1s budget=100% >/dev/null
t "boost --for 1s --cpu 1 boosts policy1 only, then ends" \
	'$E boost --for 1s --cpu 1 >/tmp/boost.txt & pid=$!; wait_cur 1 4000000 && [ "$(cur 0)" = 2600000 ] && wait $pid && wait_cur 1 2600000'
t "boost prints what it did" 'grep -q "policy1" /tmp/boost.txt'
t "status counts the timed hint" '$E status --json | grep -q "\"timed\": *[1-9]"'
t "boost without permission: exit 4 and says which group" \
	'nobody $E boost --for 10ms 2>/tmp/err.txt; [ $? = 4 ] && grep -q group /tmp/err.txt'
t "set without root: exit 4" 'nobody $E set budget=50 2>/dev/null; [ $? = 4 ]'
t "--help and unknown command" '$E --help >/dev/null && { $E frobnicate 2>/dev/null; [ $? = 2 ]; }'
all_gov performance
rmmod eventboost
t "status without the module says to modprobe" '$E status 2>&1 | grep -q "modprobe eventboost"'
insmod "$KO"
all_gov eventboost
t "boost without the module loaded earlier left nothing" 'wait_cur 0 2600000 && wait_cur 1 2600000'
exit $rc
