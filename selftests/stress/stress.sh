#!/bin/bash
# Stress suite, in a guest with eventboost.ko and ebtest_cpufreq loaded:
# eb_stress's clients (random hints, timed boosts, rebinding, migration,
# SIGKILL) while CPU 1 is unplugged and replugged, policies switch between
# eventboost, performance and powersave, scaling_max_freq and the tunables
# change.  Then: no vote or boost left once eventboost is re-selected,
# counters consistent (eb_stress's monitor), kernel log clean.  TAP output.
#   stress.sh DURATION-S [LABEL [PROCS THREADS SEED]]
set -u
dur=$1 label=${2:-stress} procs=${3:-6} threads=${4:-4} seed=${5:-$(date +%s)}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
bin=$top/build/selftests/eb_stress
cf=/sys/devices/system/cpu/cpufreq
hp=/sys/devices/system/cpu/cpu1/online
. "$here/splats.sh"
tmp=$(mktemp -d)
n=0 rc=0
tap() { # tap OK|FAIL description
	n=$((n + 1))
	if [ "$1" = OK ]; then echo "ok $n - $label: $2"; else echo "not ok $n - $label: $2"; rc=1; fi
}
# No $(...) in the loops: a fork costs milliseconds under TCG.
pick() { shift $((RANDOM % $#)); R=$1; }
policies() { ls -d $cf/policy* 2>/dev/null; }
stopped() { [ -e "$tmp/stop" ]; }

# Each disturber runs until $tmp/stop and leaves its count in $tmp/<name>.
hotplug() {
	local c=0
	[ -w "$hp" ] || { echo 0 >"$tmp/hotplug"; return; }
	while ! stopped; do
		sleep "0.$((RANDOM % 4))"
		echo 0 >"$hp" 2>/dev/null || continue
		sleep "0.$((RANDOM % 4))"
		# Replug must work; retry rather than leave the CPU down.
		until echo 1 >"$hp" 2>/dev/null; do sleep 0.1; done
		c=$((c + 1))
	done
	echo $c >"$tmp/hotplug"
}

governors() {
	local c=0 p
	while ! stopped; do
		sleep "0.$((RANDOM % 3))"
		pick $cf/policy*; p=$R
		pick eventboost eventboost performance powersave
		echo $R >"$p/scaling_governor" 2>/dev/null && c=$((c + 1))
	done
	echo $c >"$tmp/governors"
}

limits() {
	local c=0 p f
	while ! stopped; do
		sleep "0.$((RANDOM % 3))"
		pick $cf/policy*; p=$R
		read -r -a fs <"$p/scaling_available_frequencies" 2>/dev/null || continue
		# Half the time back to the top: lowered and raised.
		if ((RANDOM % 2)); then pick "${fs[@]}"; else R=${fs[-1]}; fi
		echo "$R" >"$p/scaling_max_freq" 2>/dev/null && c=$((c + 1))
	done
	echo $c >"$tmp/limits"
}

# Per-policy tunables (global ones with per_policy_gov=0).
tunables() {
	local c=0 d
	while ! stopped; do
		sleep "0.$((RANDOM % 3))"
		pick $cf/policy*/eventboost $cf/eventboost; d=$R
		[ -d "$d" ] || continue
		case $((RANDOM % 4)) in
		0) echo $((10 + RANDOM % 91)) >"$d/budget_pct" ;;
		1) echo $((1000 + RANDOM * 10)) >"$d/max_boost_us" ;;
		2) pick 0 1600000 2600000; echo "$R" >"$d/base_freq" ;;
		3) pick 0 3300000 4000000; echo "$R" >"$d/boost_freq" ;;
		esac 2>/dev/null && c=$((c + 1))
	done
	echo $c >"$tmp/tunables"
}

since=$(dmesg | wc -l)
for p in $(policies); do echo eventboost >"$p/scaling_governor"; done
hotplug & governors & limits & tunables &
echo "# $label: eb_stress -d $dur -p $procs -t $threads -s $seed"
# Niced, so that the disturbers keep their pace on two TCG CPUs.
timeout --kill-after=10 $((dur + 60)) nice -n 10 "$bin" -d "$dur" -p "$procs" -t "$threads" -s "$seed"
st=$?
touch "$tmp/stop"
wait
case $st in
0) tap OK "clients: only valid results, counters consistent" ;;
124|137) tap FAIL "clients: eb_stress hung (killed after $((dur + 60)) s)" ;;
*) tap FAIL "clients: eb_stress failed (exit $st, see FAIL lines above)" ;;
esac
echo "# $label: survived $(cat "$tmp/hotplug") hotplug cycles, $(cat "$tmp/governors") governor" \
     "switches, $(cat "$tmp/limits") limit changes, $(cat "$tmp/tunables") tunable writes"
[ "$(cat "$tmp/hotplug")" -gt 0 ] || [ ! -w "$hp" ] && tap OK "cpu1 unplugged and replugged" ||
	tap FAIL "no hotplug cycle completed"

# Restore: all CPUs up, full range, eventboost freshly selected with the
# default tunables (a governor switch keeps them).  A vote leaked by any
# client would boost the policy again right here.
echo 1 >"$hp" 2>/dev/null
for p in $(policies); do
	cat "$p/cpuinfo_max_freq" >"$p/scaling_max_freq"
	cat "$p/cpuinfo_min_freq" >"$p/scaling_min_freq"
	echo performance >"$p/scaling_governor"
	echo eventboost >"$p/scaling_governor"
done
for d in $cf/policy*/eventboost $cf/eventboost; do
	[ -d "$d" ] || continue
	echo 0 >"$d/base_freq"
	echo 0 >"$d/boost_freq"
	echo 50 >"$d/budget_pct"
	echo 100000 >"$d/max_boost_us"
	echo 1000 >"$d/rate_limit_us"
done
if "$bin" -i; then tap OK "no vote or boost left: every policy at base"
else tap FAIL "a policy is boosted or not at base after the run"; fi
if eb_splats "$since"; then tap FAIL "kernel log has splats (above)"
else tap OK "kernel log clean"; fi
rm -rf "$tmp"
exit $rc
