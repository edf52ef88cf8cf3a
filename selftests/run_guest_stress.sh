#!/bin/sh
# Runs inside the guest (like run_guest.sh): the ioctl fuzzer, the stress
# suite and (long forms) the reliability figures, once per test-driver mode,
# the driver reloaded in between; then unload and check the kernel log.
# Writes "$OUT/result-stress-$KVER" (0 pass, 1 fail) and the kernel log.
#   run_guest_stress.sh KVER TOP OUT MODE
#   MODE: short (make check), long (make stress), fuzz-long (make fuzz)
# Env: EB_SEED (default: time), EB_STRESS_S, EB_FUZZ_CALLS override sizes.
KVER=$1 TOP=$2 OUT=$3 MODE=${4:-short}
B=$TOP/build/$KVER
S=$TOP/build/selftests
seed=${EB_SEED:-$(date +%s)}
rc=0
. "$TOP/selftests/stress/splats.sh"

# Sizes: the short form must stay within about a minute per kernel (TCG,
# PREEMPT_RT included); fuzz runs once there, in every mode otherwise.
case $MODE in
short)	 stress_s=15 fuzz=100000 figures=0
	 modes="fast:shared=0 fast_switch=1 worker:shared=0 fast_switch=0" ;;
long)	 stress_s=120 fuzz=1000000 figures=1
	 modes="fast:shared=0 fast_switch=1 worker:shared=0 fast_switch=0 shared:shared=1 fast_switch=1 per_policy_gov=0" ;;
fuzz-long) stress_s=0 fuzz=3000000 figures=0
	 modes="fast:shared=0 fast_switch=1 worker:shared=0 fast_switch=0" ;;
*)	 echo "usage: run_guest_stress.sh KVER TOP OUT short|long|fuzz-long" >&2; exit 2 ;;
esac
stress_s=${EB_STRESS_S:-$stress_s}
fuzz=${EB_FUZZ_CALLS:-$fuzz}

ok() { echo "ok - $*"; }
nok() { echo "not ok - $*"; rc=1; }

since=$(dmesg | wc -l)
echo "# ==== $KVER stress ($MODE, seed $seed)"
modprobe -q cpufreq_powersave 2>/dev/null
modprobe -q cpufreq_performance 2>/dev/null
# Self-contained: load eventboost unless the caller already did.
own=0
if [ ! -d /sys/module/eventboost ]; then
	insmod "$B/eventboost/eventboost.ko" || nok "eventboost loads"
	own=1
fi
[ -d /sys/module/ebtest_cpufreq ] && rmmod ebtest_cpufreq

# "name:params" words; params run up to the next name (word with ':').
set -- $modes
while [ $# -gt 0 ]; do
	name=${1%%:*} params=${1#*:}; shift
	while [ $# -gt 0 ] && case $1 in *:*) false ;; esac; do
		params="$params $1"; shift
	done
	echo "# ---- $name ($params)"
	# shellcheck disable=SC2086
	if ! insmod "$B/ebtest/ebtest_cpufreq.ko" $params; then
		nok "$name: ebtest_cpufreq loads"
		continue
	fi
	for p in /sys/devices/system/cpu/cpufreq/policy*; do
		echo eventboost > "$p/scaling_governor"
	done
	if [ "$fuzz" -gt 0 ] && { [ "$MODE" != short ] || [ "$name" = fast ]; }; then
		if timeout --kill-after=10 $((fuzz / 1000 + 120)) \
			"$S/eb_fuzz" -n "$fuzz" -s "$seed" -j 4; then
			ok "$name: fuzz $fuzz calls, invalid calls refused and changed nothing"
		else
			nok "$name: fuzz (seed $seed; 124: hung)"
		fi
	fi
	if [ "$stress_s" -gt 0 ]; then
		bash "$TOP/selftests/stress/stress.sh" "$stress_s" "$name" 6 4 "$seed" || rc=1
	fi
	if [ "$figures" = 1 ]; then
		for p in /sys/devices/system/cpu/cpufreq/policy*; do
			echo performance > "$p/scaling_governor"
			echo eventboost > "$p/scaling_governor"
		done
		"$S/eb_figures" -n 20 -b 20 -d 10 -m 1000000 -o 20000 || rc=1
	fi
	rmmod ebtest_cpufreq || nok "$name: driver unload"
done

if [ $own = 1 ]; then
	if rmmod eventboost; then ok "eventboost unloads after stress"
	else nok "eventboost unloads after stress"; fi
fi
if eb_splats "$since"; then nok "kernel log has splats after stress (above)"
else ok "kernel log clean after stress"; fi
dmesg > "$OUT/dmesg-stress-$KVER.txt"
echo "$rc" > "$OUT/result-stress-$KVER"
exit $rc
