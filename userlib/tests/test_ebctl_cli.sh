#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# ebctl on the host, against fake cpufreq trees (EBCTL_CPUFREQ_DIR) and no
# hint device, or a fake one (fake-device.c, preloaded): exit codes,
# messages, --policy lists, sysfs key names, JSON.  What needs the module is
# in selftests/ebctl_test.sh.  TAP.
#   test_ebctl_cli.sh EBCTL SCRATCHDIR FAKE_DEVICE_SO
E=$1 D=$2 FAKE_SO=$(cd "$(dirname "$3")" && pwd -P)/$(basename "$3")
TAP_NAME=ebctl-cli
. "$(dirname "$0")/../../selftests/tap.sh"
rm -rf "$D" && mkdir -p "$D/empty" "$D/cf"
D=$(cd "$D" && pwd -P)	# the fake device knows its file by its real path
export EVENTBOOST_DEVICE=$D/no-device
# Two policies run by eventboost with per-policy tunables, one by schedutil.
for i in 0 1 2; do
	p=$D/cf/policy$i
	mkdir -p "$p/eventboost"
	echo "$i" > "$p/affected_cpus"
	echo eventboost > "$p/scaling_governor"
	echo "performance schedutil eventboost" > "$p/scaling_available_governors"
	echo acpi-cpufreq > "$p/scaling_driver"
	echo 800000 > "$p/cpuinfo_min_freq"
	echo 4000000 > "$p/cpuinfo_max_freq"
	echo 2600000 > "$p/scaling_cur_freq"
	echo 2600000 > "$p/eventboost/base_freq"
	echo 4000000 > "$p/eventboost/boost_freq"
	echo 100000 > "$p/eventboost/max_boost_us"
	echo 100 > "$p/eventboost/budget_pct"
done
echo schedutil > "$D/cf/policy2/scaling_governor"
printf 'processor\t: 0\nflags\t\t: fpu vme hypervisor lahf_lm\n' > "$D/cpuinfo-vm"
printf 'processor\t: 0\nflags\t\t: fpu vme lahf_lm\n' > "$D/cpuinfo-metal"
base() { cat "$D/cf/policy$1/eventboost/base_freq"; }
reset() { for i in 0 1; do echo 2600000 > "$D/cf/policy$i/eventboost/base_freq"; done; }
cf() { EBCTL_CPUFREQ_DIR=$D/cf "$@"; }
# The fake device: policy stats fail (ENODEV) unless EB_FAKE_POLICY=1.
: > "$D/fake-dev"
fake() { EVENTBOOST_DEVICE=$D/fake-dev EB_FAKE_DEVICE=$D/fake-dev LD_PRELOAD=$FAKE_SO "$@"; }

echo "1..32"
t "status without the module: exit 3, the policies still shown" \
	'cf $E status >"$D/out" 2>&1; [ $? = 3 ] && grep -q "^policy0:" "$D/out" && grep -q "modprobe eventboost" "$D/out"'
t "status --json without the module: exit 3, schema_version 1, module_loaded false" \
	'cf $E status --json >"$D/out" 2>/dev/null; [ $? = 3 ] &&
	 python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d[\"schema_version\"] == 1 and d[\"module_loaded\"] is False and len(d[\"policies\"]) == 3 and d[\"cpufreq_error\"] is None else 1)" "$D/out"'
t "no cpufreq policy in a VM: exit 3, says the hypervisor owns the clock" \
	'EBCTL_CPUINFO=$D/cpuinfo-vm EBCTL_CPUFREQ_DIR=$D/empty $E status 2>"$D/err"; [ $? = 3 ] &&
	 grep -q "virtual machine" "$D/err" && grep -q "hypervisor owns" "$D/err"'
t "no cpufreq policy on bare metal: says to check the firmware and the driver" \
	'EBCTL_CPUINFO=$D/cpuinfo-metal EBCTL_CPUFREQ_DIR=$D/empty $E status 2>"$D/err"; [ $? = 3 ] &&
	 grep -q "no cpufreq driver is loaded" "$D/err" && ! grep -q "virtual machine" "$D/err"'
t "no cpufreq policy, --json: cpufreq_error says why" \
	'EBCTL_CPUINFO=$D/cpuinfo-vm EBCTL_CPUFREQ_DIR=$D/empty $E status --json 2>/dev/null >"$D/out";
	 python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if \"hypervisor\" in d[\"cpufreq_error\"] and d[\"policies\"] == [] else 1)" "$D/out"'
t "unknown command: exit 2, one line and a hint, not the usage" \
	'$E frobnicate 2>"$D/err"; [ $? = 2 ] && [ "$(wc -l < "$D/err")" = 2 ] &&
	 grep -q "unknown command .frobnicate." "$D/err" && grep -q "ebctl --help" "$D/err"'
# A write the kernel (or sysfs) refuses after earlier ones landed: those
# are put back, and it says so (until 2026-12-08 they stayed, "N earlier
# value(s) were written").  policy1's base_freq a directory: EISDIR.
reset
mv "$D/cf/policy1/eventboost/base_freq" "$D/base1" && mkdir "$D/cf/policy1/eventboost/base_freq"
t "set refused half-way: what it wrote before is restored, and it says so" \
	'cf $E set base=1.6GHz --policy 0,1 >"$D/out" 2>"$D/err"; [ $? = 1 ] && [ "$(base 0)" = 2600000 ] &&
	 grep -q "policy0: base_freq restored to 2600000" "$D/err" && [ ! -s "$D/out" ] ||
	 { sed "s/^/# /" "$D/err" "$D/out"; false; }'
rmdir "$D/cf/policy1/eventboost/base_freq" && mv "$D/base1" "$D/cf/policy1/eventboost/base_freq"
reset
t "set --policy 0,1 writes both" \
	'cf $E set base=1.6GHz --policy 0,1 >/dev/null && [ "$(base 0)" = 1600000 ] && [ "$(base 1)" = 1600000 ]'
reset
t "set --policy 1 writes policy1 only" \
	'cf $E set base=1.6GHz --policy 1 >/dev/null && [ "$(base 0)" = 2600000 ] && [ "$(base 1)" = 1600000 ]'
reset
t "set --policy 0-1 writes both" \
	'cf $E set base=2GHz --policy 0-1 >/dev/null && [ "$(base 0)" = 2000000 ] && [ "$(base 1)" = 2000000 ]'
reset
t "set --policy all with a policy not on eventboost: exit 1, names it, writes nothing" \
	'cf $E set base=2GHz --policy all >/dev/null 2>"$D/err"; [ $? = 1 ] && grep -q "policy2 uses governor .schedutil." "$D/err" &&
	 [ "$(base 0)" = 2600000 ]'
t "set --policy 0,7: no policy7, exit 2, writes nothing" \
	'cf $E set base=2GHz --policy 0,7 2>"$D/err"; [ $? = 2 ] && grep -q "no policy7" "$D/err" && [ "$(base 0)" = 2600000 ]'
t "set --policy junk: exit 2" 'cf $E set base=2GHz --policy 1,x 2>/dev/null; [ $? = 2 ]'
reset
t "sysfs names as keys: budget_pct=30 max_boost_us=50000 base_freq=1600000" \
	'cf $E set budget_pct=30 max_boost_us=50000 base_freq=1600000 --policy 0 >/dev/null &&
	 [ "$(cat "$D/cf/policy0/eventboost/budget_pct")" = 30 ] &&
	 [ "$(cat "$D/cf/policy0/eventboost/max_boost_us")" = 50000 ] && [ "$(base 0)" = 1600000 ]'
t "a key and its sysfs name together are the same key twice: exit 2" \
	'cf $E set base=2GHz base_freq=2GHz 2>"$D/err"; [ $? = 2 ] && grep -q twice "$D/err"'
t "status --watch stops at the first report that is not good (no module)" \
	'cf $E status --watch=10ms --count 3 --json >"$D/out" 2>/dev/null; [ $? = 3 ] && [ "$(wc -l < "$D/out")" = 1 ]'
t "status --count without --watch, and a bad interval: exit 2" \
	'cf $E status --count 2 2>/dev/null; a=$?; cf $E status --watch=0 2>/dev/null; b=$?; [ $a = 2 ] && [ $b = 2 ]'
t "status --watch without the module: says why on stderr" \
	'cf $E status --watch=10ms --count 2 >/dev/null 2>"$D/err"; [ $? = 3 ] && grep -q "modprobe eventboost" "$D/err"'
t "status --watch, counters unavailable: names the policy and why on stderr" \
	'fake cf $E status --watch=10ms --count 2 >/dev/null 2>"$D/err"; [ $? = 1 ] &&
	 grep -q "policy0: counters unavailable: .*cpufreq policy" "$D/err"'
t "boost on a CPU without a cpufreq policy: says so, not to load the module" \
	'fake $E boost --for 1ms 2>"$D/err"; [ $? = 3 ] && grep -q "no cpufreq policy" "$D/err" && ! grep -q modprobe "$D/err"'
t "boost past the watchdog: the max-boost=... it suggests works as written" \
	'EB_FAKE_POLICY=1 EB_FAKE_MAX_BOOST_US=1000 fake $E boost --for 1.5ms --cpu 0 >/dev/null 2>"$D/err" &&
	 fix=$(sed -n "s/.*To hold [^:]*: sudo ebctl set \\(.*\\)\$/\\1/p" "$D/err") &&
	 [ -n "$fix" ] && cf $E set $fix >/dev/null && [ "$(cat "$D/cf/policy0/eventboost/max_boost_us")" = 1500 ]'
echo 100000 > "$D/cf/policy0/eventboost/max_boost_us"
# ... and with the budget it would meet next: one process may use half of
# it (until 2026-12-08 the fix named max-boost alone, and the boost it
# promised ended at the share, 250 ms at budget_pct 50, with no note).
t "boost past the watchdog and the budget's share: the fix names both" \
	'EB_FAKE_POLICY=1 EB_FAKE_MAX_BOOST_US=1000 EB_FAKE_BUDGET_PCT=50 fake $E boost --for 300ms --cpu 0 >/dev/null 2>"$D/err" &&
	 fix=$(sed -n "s/.*To hold [^:]*: sudo ebctl set \\(.*\\)\$/\\1/p" "$D/err") &&
	 cf $E set $fix >/dev/null && [ "$(cat "$D/cf/policy0/eventboost/max_boost_us")" = 300000 ] &&
	 [ "$(cat "$D/cf/policy0/eventboost/budget_pct")" = 60 ] || { sed "s/^/# /" "$D/err"; false; }'
echo 100000 > "$D/cf/policy0/eventboost/max_boost_us"
echo 100 > "$D/cf/policy0/eventboost/budget_pct"
t "a watchdog and a boost that differ by a microsecond read apart" \
	'EB_FAKE_POLICY=1 EB_FAKE_MAX_BOOST_US=1001 fake $E boost --for 1002us --cpu 0 >"$D/out" 2>"$D/err" &&
	 grep -q "boosting for 1001 us, not 1002 us" "$D/err" && grep -q "for 1001 us\$" "$D/out" ||
	 { sed "s/^/# /" "$D/err" "$D/out"; false; }'
t "a p99 in the last latency bucket is shown as >= 16.38 ms (32768 in the JSON, as before)" \
	'EB_FAKE_POLICY=1 EB_FAKE_SLOW_APPLIES=5 fake cf $E status >"$D/out" 2>&1 &&
	 grep -q "latency .*p99 >= 16.38 ms" "$D/out" && ! grep -q "32.77" "$D/out" &&
	 EB_FAKE_POLICY=1 EB_FAKE_SLOW_APPLIES=5 fake cf $E status --json >"$D/out" &&
	 python3 -c "import json,sys; p=json.load(open(sys.argv[1]))[\"policies\"][0][\"eventboost\"]; sys.exit(0 if p[\"latency_p99_us\"] == 32768 and p[\"latency_histogram\"][15] == 5 else 1)" "$D/out"'
t "--policy beyond the ids ebctl takes: says the limit, not the syntax" \
	'cf $E set base=2GHz --policy 0-9000 2>"$D/err"; [ $? = 2 ] && ! grep -q "expected policy numbers" "$D/err" && grep -q "at most" "$D/err"'
t "a value given to a flag, also abbreviated: names the long option" \
	'$E status --json=1 2>"$D/err"; [ $? = 2 ] && grep -q -- "--json" "$D/err" && ! grep -q "'"'"'-j'"'"'" "$D/err" &&
	 { $E status --js=1 2>"$D/err"; [ $? = 2 ]; } && grep -q -- "--json" "$D/err"'
# A watch that was stopped (SIGSTOP, Ctrl-Z) goes on at its interval from
# where it resumed: until 2026-12-08 it printed every report it had missed
# at once, each over no time at all.  A 2 s interval, stopped 5 s: the
# report due at the resume comes, the next one 2 s after it, none between
# (before: two more at once).
watch_stall() {
	# env execs ebctl: $! is its pid (a function's would be a subshell's)
	env EBCTL_CPUFREQ_DIR="$D/cf" EVENTBOOST_DEVICE="$D/fake-dev" EB_FAKE_DEVICE="$D/fake-dev" \
		LD_PRELOAD="$FAKE_SO" EB_FAKE_POLICY=1 $E status --watch=2s --count 10 --json >"$D/out" 2>/dev/null &
	w=$!
	i=0
	while [ "$(wc -l < "$D/out")" -lt 1 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	kill -STOP $w
	base=$(wc -l < "$D/out")
	sleep 5
	kill -CONT $w
	i=0
	while [ "$(wc -l < "$D/out")" -le "$base" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	sleep 0.5
	lines=$(wc -l < "$D/out")
	kill $w 2>/dev/null; wait $w 2>/dev/null
	echo "# reports at the stop: $base, soon after the resume: $lines"
	[ "$lines" = $((base + 1)) ]
}
t "status --watch after a stall: no burst of the reports it missed" watch_stall
t "--watch 1s (the interval apart): exit 2, says to write --watch=1s" \
	'$E status --watch 1s 2>"$D/err"; [ $? = 2 ] && grep -q -- "--watch=1s" "$D/err"'
t "--watch beyond 24 h: says the limit" \
	'$E status --watch=25h 2>"$D/err"; [ $? = 2 ] && grep -q "24h" "$D/err"'
t "output that cannot be written: exit 1 and says so" \
	'$E --help >/dev/full 2>"$D/err"; [ $? = 1 ] && grep -q "ebctl: .*standard output" "$D/err"'
# The module's device appears before its governor is registered, and
# refuses opens (EAGAIN) until it is: a client that opens it then waits.
t "a device that refuses opens while its module loads: waited for" \
	'cf fake env EB_FAKE_FAIL_DEVICE_OPEN=11 EB_FAKE_DEVICE_OPEN_FAILURES=20 EB_FAKE_POLICY=1 \
	 $E status >"$D/out" 2>&1 || { sed "s/^/# /" "$D/out"; false; }'
t "one that keeps refusing: exit 1 and says the module is still loading" \
	'cf fake env EB_FAKE_FAIL_DEVICE_OPEN=11 $E status >/dev/null 2>"$D/err"; [ $? = 1 ] &&
	 grep -q "still loading" "$D/err" || { sed "s/^/# /" "$D/err"; false; }'
exit $rc
