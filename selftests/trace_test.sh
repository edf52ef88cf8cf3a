#!/bin/sh
# The tracepoints as kernel people read them: the real trace-cmd and perf
# record hints against the module, in the guest, with ebtest_cpufreq loaded
# per-CPU with fast switch; their reports must show the fields decoded.
# TAP output.  No check is skipped: a missing tool or a kernel the tool
# refuses fails.
#   trace_test.sh EBCTL HELPER   (HELPER: build/selftests/eb_trace_helper)
E=$1 H=$2
CF=/sys/devices/system/cpu/cpufreq
CPU=1
TAP_NAME=trace
. "$(dirname "$0")/tap.sh"

for p in "$CF"/policy*; do echo eventboost > "$p/scaling_governor"; done
# What an operator sees: the policyN directory CPU 1's policy has in sysfs.
P=$(basename "$(readlink -f /sys/devices/system/cpu/cpu$CPU/cpufreq)")
N=${P#policy}
tun=$CF/$P/eventboost
[ -d "$tun" ] || tun=$CF/eventboost
boost=$(cat "$tun/boost_freq")
mb=$(cat "$tun/max_boost_us") bp=$(cat "$tun/budget_pct")
# trace-cmd and perf write their data to a writable directory (the guest's
# own /tmp); perf's build-id cache is off and its HOME there too.
W=$(mktemp -d /tmp/eb-trace.XXXXXX)

# The hints both tools record: ebctl's timed boost, three votes at once
# (with the longest watchdog, so that no stall of the guest ends them), a
# GC vote the watchdog ends (max_boost_us 20 ms) and clients that spend the
# budget (10%: 100 ms a second, 50 ms per client).  The budget's window
# rolls at the first hint a second after the last boost: the first client
# starts a fresh one, so its own share, not the policy's budget, ends its
# vote.  At the end, the same wait lets the next run boost at once.
cat > "$W/hints.sh" <<EOF
set -e
echo 1000000 > $tun/max_boost_us
echo 100 > $tun/budget_pct
$E boost --for 50ms --cpu $CPU
echo 10000000 > $tun/max_boost_us
$H votes $CPU
echo 20000 > $tun/max_boost_us
$H watchdog $CPU
echo 1000000 > $tun/max_boost_us
echo 10 > $tun/budget_pct
sleep 1.1
$H budget $CPU
echo 100 > $tun/budget_pct
sleep 1.1
EOF

# check TOOL FILE: what every report must show.
check() {
	f=$2
	t "$1: ebctl's timed boost: reason=timed op=start timed_us=50000 votes=timed" \
		'grep -Eq "eventboost_hint: +cpu=$CPU tid=[0-9]+ reason=timed op=start timed_us=50000 votes=timed ret=0" $f'
	t "$1: votes decoded as flags: votes=gc|queue|timed" \
		'grep -Eq "eventboost_hint: +cpu=$CPU tid=[0-9]+ reason=timed op=start timed_us=2000000 votes=gc\|queue\|timed ret=0" $f &&
		 grep -Eq "eventboost_hint: +cpu=$CPU tid=[0-9]+ reason=gc op=end timed_us=0 votes=queue\|timed ret=0" $f'
	t "$1: decide names the sysfs $P and the target in kHz" \
		'grep -Eq "eventboost_decide: +policy=$N target_khz=$boost boosted=1 budget_spent=0" $f'
	t "$1: apply shows policy, kHz, path and latency_ns" \
		'grep -Eq "eventboost_apply: +policy=$N freq_khz=$boost path=fast latency_ns=[0-9]+" $f'
	t "$1: the watchdog ends the GC vote after max_boost_us (20 ms)" \
		'held=$(sed -nE "s/.*eventboost_vote_end: +cpu=$CPU tid=[0-9]+ cause=watchdog votes=gc held_us=([0-9]+).*/\1/p" $f | head -1) &&
		 [ -n "$held" ] && [ "$held" -ge 20000 ]'
	t "$1: a client's share of the budget ends its vote" \
		'grep -Eq "eventboost_vote_end: +cpu=$CPU tid=[0-9]+ cause=client_budget votes=timed held_us=[0-9]+" $f'
	t "$1: the budget ends a boost: budget_end with boosted_us >= budget_us" \
		'used=$(sed -nE "s/.*eventboost_budget_end: +policy=$N boosted_us=([0-9]+) budget_us=100000.*/\1/p" $f | head -1) &&
		 [ -n "$used" ] && [ "$used" -ge 100000 ]'
	t "$1: power:cpu_frequency shows the change to $boost on cpu $CPU" \
		'grep -Eq "cpu_frequency: +state=$boost cpu_id=$CPU" $f'
	t "$1: every event decoded (no raw values, nothing unparsed)" \
		'! grep -Eq "FAILED TO PARSE|(votes|reason|cause)=0x" $f'
}

echo "1..22"

# trace-cmd
t "trace-cmd is installed" 'command -v trace-cmd >/dev/null'
t "trace-cmd record -e eventboost -e power:cpu_frequency around the hints" \
	'(cd "$W" && trace-cmd record -q -e eventboost -e power:cpu_frequency \
		-o "$W/trace.dat" sh "$W/hints.sh") >"$W/record.log" 2>&1 ||
	 { sed "s/^/# /" "$W/record.log"; false; }'
trace-cmd report -i "$W/trace.dat" >"$W/report.txt" 2>&1
grep -E 'eventboost_|cpu_frequency' "$W/report.txt" | head -60 | sed 's/^/# /'
check "trace-cmd report" "$W/report.txt"

# perf (Debian's linux-perf; its perf is 6.1 on every kernel of the matrix)
t "perf is installed" 'command -v perf >/dev/null'
t "perf record -e 'eventboost:*' -e power:cpu_frequency -a around the hints" \
	'(cd "$W" && HOME=$W perf record -q -N -B -a -e "eventboost:*" \
		-e power:cpu_frequency -o "$W/perf.data" sh "$W/hints.sh") \
		>"$W/perf-record.log" 2>&1 ||
	 { sed "s/^/# /" "$W/perf-record.log"; false; }'
HOME=$W perf script -i "$W/perf.data" >"$W/script.txt" 2>&1
grep -E 'eventboost_|cpu_frequency' "$W/script.txt" | head -60 | sed 's/^/# /'
check "perf script" "$W/script.txt"

echo "$mb" > "$tun/max_boost_us"
echo "$bp" > "$tun/budget_pct"
rm -rf "$W"
exit $rc
