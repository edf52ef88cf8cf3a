#!/bin/sh
# ebctl against the real module, in the guest, with ebtest_cpufreq loaded
# per-CPU with fast switch (base 2.6 GHz, boost 4.0 GHz).  TAP output.
#   ebctl_test.sh EBCTL EVENTBOOST_KO
# EB_USERLIB: where test_abi is (default: beside EBCTL); EB_LIB: the shared
# library it tests (default: the one there; an installed one for packages).
E=$1 KO=$2
U=${EB_USERLIB:-$(dirname "$E")}
LIB=${EB_LIB:-$U/libeventboost.so.1}
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

tun() { for p in "$CF"/policy*; do cat "$p/eventboost/$1"; done | sort -u; }

all_gov performance
all_gov eventboost
# A governor switch keeps the tunables: the defaults here, whatever the
# suites before left (0: the default frequency).
for p in "$CF"/policy*; do
	echo 0 > "$p/eventboost/base_freq"
	echo 0 > "$p/eventboost/boost_freq"
	echo 50 > "$p/eventboost/budget_pct"
	echo 100000 > "$p/eventboost/max_boost_us"
	echo 1000 > "$p/eventboost/rate_limit_us"
done
echo "1..29"
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
t "set rate-limit=2ms writes rate_limit_us" \
	'$E set rate-limit=2ms >/dev/null && [ "$(cat $CF/policy0/eventboost/rate_limit_us)" = 2000 ] && [ "$(cat $CF/policy1/eventboost/rate_limit_us)" = 2000 ]'
t "set rate-limit over 100ms exits 2 and writes nothing" \
	'was=$(cat $CF/policy0/eventboost/rate_limit_us); $E set rate-limit=101ms 2>/dev/null; [ $? = 2 ] && [ "$(cat $CF/policy0/eventboost/rate_limit_us)" = "$was" ]'
$E set rate_limit_us=1000 >/dev/null
t "set with a bad value exits 2 and writes nothing" \
	'$E set base=2GHz budget=abc 2>/dev/null; [ $? = 2 ] && [ "$(cat $CF/policy0/eventboost/base_freq)" = 2600000 ]'
t "set with an unknown key exits 2" '$E set turbo=1 2>/dev/null; [ $? = 2 ]'
t "set out of range exits 2" '$E set boost=9GHz 2>/dev/null; [ $? = 2 ] && [ "$(cat $CF/policy0/eventboost/boost_freq)" = 4000000 ]'
$E set max-boost=1s budget=10% >/dev/null
t "boost over a process's half of the budget says so at once" \
	'$E boost --for 60ms --cpu 1 >/dev/null 2>/tmp/boost.err &&
	 grep -q "one process at most half of it (50 ms)" /tmp/boost.err ||
	 { sed "s/^/# /" /tmp/boost.err; false; }'
$E set max-boost=1s budget=100% >/dev/null
t "boost --for 1s --cpu 1 boosts policy1 only, then ends" \
	'$E boost --for 1s --cpu 1 >/tmp/boost.txt 2>/tmp/boost.err & pid=$!; wait_cur 1 4000000 && [ "$(cur 0)" = 2600000 ] && wait $pid && wait_cur 1 2600000'
t "boost prints what it did" 'grep -q "policy1" /tmp/boost.txt'
t "boost --for 1s within the watchdog: no note" '! grep -q watchdog /tmp/boost.err 2>/dev/null'
$E set max-boost=1s --policy 1 >/dev/null
t "boost --for 3s over a 1 s watchdog says so at once and holds 1 s, not 3" \
	'$E boost --for 3s --cpu 1 >/tmp/boost.txt 2>/tmp/boost.err & pid=$!; wait_cur 1 4000000 &&
	 grep -q "watchdog (max_boost_us 1 s)" /tmp/boost.err && grep -q "boosting for 1 s, not 3 s" /tmp/boost.err &&
	 wd=$($E status --json | python3 -c "import json,sys; print([p for p in json.load(sys.stdin)[\"policies\"] if p[\"policy\"] == 1][0][\"eventboost\"][\"watchdog_ends\"])") &&
	 wait $pid && grep -q "for 1 s" /tmp/boost.txt && wait_cur 1 2600000 &&
	 [ "$($E status --json | python3 -c "import json,sys; print([p for p in json.load(sys.stdin)[\"policies\"] if p[\"policy\"] == 1][0][\"eventboost\"][\"watchdog_ends\"])")" = "$wd" ]'
t "set --policy 0,1 and sysfs names as keys" \
	'$E set budget_pct=100 max_boost_us=1000000 --policy 0,1 >/dev/null &&
	 [ "$(cat $CF/policy0/eventboost/max_boost_us)" = 1000000 ] && [ "$(cat $CF/policy1/eventboost/budget_pct)" = 100 ]'
t "status --watch=100ms --count 3 --json: three JSON lines with a schema version" \
	'$E status --watch=100ms --count 3 --json >/tmp/watch.json &&
	 python3 -c "import json,sys; l=open(\"/tmp/watch.json\").read().splitlines(); sys.exit(0 if len(l) == 3 and all(json.loads(x)[\"schema_version\"] == 1 for x in l) else 1)"'
t "status --watch=100ms --count 2: a header, then one line per policy per report" \
	'$E status --watch=100ms --count 2 >/tmp/watch.txt && [ "$(wc -l < /tmp/watch.txt)" = 5 ] &&
	 [ "$(grep -c "^[0-9:]* *policy1 " /tmp/watch.txt)" = 2 ]'
t "libeventboost ABI: sized stats against the module" \
	'LD_LIBRARY_PATH=$(dirname $LIB) $U/test_abi $LIB /dev/eventboost >/tmp/abi.txt || { sed "s/^/# /" /tmp/abi.txt; false; }'
t "status counts the timed hint" '$E status --json | grep -q "\"timed\": *[1-9]"'
t "boost without permission: exit 4 and says which group" \
	'nobody $E boost --for 10ms 2>/tmp/err.txt; [ $? = 4 ] && grep -q group /tmp/err.txt'
t "set without root: exit 4" 'nobody $E set budget=50 2>/dev/null; [ $? = 4 ]'
t "status by a user who may only read the device: the counters, exit 0" \
	'm=$(stat -c %a /dev/eventboost); chmod o+r,o-w /dev/eventboost;
	 nobody $E status >/tmp/ro.txt 2>&1; r=$?; chmod "$m" /dev/eventboost;
	 [ $r = 0 ] && grep -q "^  hints *gc [0-9]" /tmp/ro.txt || { sed "s/^/# /" /tmp/ro.txt; false; }'
t "--help and unknown command" '$E --help >/dev/null && { $E frobnicate 2>/dev/null; [ $? = 2 ]; }'
all_gov performance
rmmod eventboost
t "status without the module says to modprobe" '$E status 2>&1 | grep -q "modprobe eventboost"'
t "status without the module exits 3" '$E status >/dev/null 2>&1; [ $? = 3 ]'
insmod "$KO"
all_gov eventboost
t "boost without the module loaded earlier left nothing" 'wait_cur 0 2600000 && wait_cur 1 2600000'
t "a reloaded module forgets the settings: every policy has the defaults" \
	'[ "$(tun base_freq)" = 2600000 ] && [ "$(tun boost_freq)" = 4000000 ] &&
	 [ "$(tun max_boost_us)" = 100000 ] && [ "$(tun budget_pct)" = 50 ] && [ "$(tun rate_limit_us)" = 1000 ]'
exit $rc
