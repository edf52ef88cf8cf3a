#!/bin/sh
# Runs inside the guest (virtme-ng shares the host filesystem): load the
# modules built for this kernel, run the suite once per test-driver mode,
# unload, and fail on any kernel splat.  Writes "$OUT/result".
#   run_guest.sh KVER TOP OUT [MODE-FILTER [TEST-ARGS [NODE [TWIN [TWIN-RUNS]]]]]
# TWIN-RUNS: parts ("node", "container") that the run on TWIN, this
# kernel's generic twin, covers; said here, not run.
KVER=$1 TOP=$2 OUT=$3 FILTER=${4:-} TARGS=${5:-} NODE=${6:-node}
TWIN=${7:-} TWIN_RUNS=${8:-}
B=$TOP/build/$KVER
T=$TOP/build/selftests/eventboost_test
rc=0
. "$TOP/selftests/stress/splats.sh"
since=$(dmesg | wc -l)
# Whether this run does @part (else its generic twin's run did: said).
twin_runs() {
	case " $TWIN_RUNS " in
	*" $1 "*)
		echo "# not here: the run on $TWIN covers it (this kernel's generic twin)"
		return 1 ;;
	esac
}
# Each step's length, for make check's time budget (README: How long).
step_at=$(date +%s)
took() {
	now=$(date +%s)
	echo "# took $((now - step_at)) s"
	step_at=$now
}

mountpoint -q /sys/kernel/tracing ||
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
modprobe -q cpufreq_powersave 2>/dev/null
modprobe -q cpufreq_performance 2>/dev/null

# Before the module is loaded: a load that fails at a step leaves nothing
# behind (ebtest_cpufreq's policies to select it on).
if [ -z "$FILTER$TARGS" ]; then
	echo "# ---- a failing load"
	if insmod "$B/ebtest/ebtest_cpufreq.ko" shared=0 fast_switch=1; then
		sh "$TOP/selftests/module_load_test.sh" "$B/eventboost/eventboost.ko" \
			"$B/ebtest/ebtest_fail.ko" "$TOP/build/userlib/ebctl" || rc=1
		rmmod ebtest_cpufreq || { echo "not ok - failing load: driver unload"; rc=1; }
	else
		echo "not ok - failing load: ebtest_cpufreq did not load"; rc=1
	fi
	took
fi
insmod "$B/eventboost/eventboost.ko" || rc=1
# mode name, driver parameters, EBTEST_FAST
for mode in "emulated:shared=0 fast_switch=1 emulate=1 emulate_cpus=1:1" \
	    "percpu-fast:shared=0 fast_switch=1:1" \
	    "percpu-worker:shared=0 fast_switch=0:0" \
	    "shared-global-fast:shared=1 fast_switch=1 per_policy_gov=0:1" \
	    "cluster:shared_from=1 fast_switch=1:1"; do
	name=${mode%%:*}; rest=${mode#*:}
	params=${rest%:*}; fast=${rest##*:}
	case $name in *"$FILTER"*) ;; *) continue ;; esac
	# CPU 0 alone, the others one policy: whose first CPU can go offline.
	if [ "$name" = cluster ] && [ "$(nproc)" -lt 3 ]; then
		echo "# ==== $KVER $name: needs 3 CPUs, run by make check's 3-CPU guest"
		continue
	fi
	echo "# ==== $KVER $name ($params)"
	# shellcheck disable=SC2086
	if ! insmod "$B/ebtest/ebtest_cpufreq.ko" $params; then
		echo "not ok - $name: ebtest_cpufreq did not load"
		rc=1
		continue
	fi
	# Holds the budget sweep for the suite's test of a race in it: a kprobe
	# on eventboost.ko, so loaded after it (ebctl_test.sh reloads it).
	pause=1
	if ! insmod "$B/ebtest/ebtest_pause.ko"; then
		echo "not ok - $name: ebtest_pause did not load"
		rc=1 pause=0
	fi
	# The emulated-DVFS fixture needs the driver's emulate=1, and only it
	# (EB_EMULATED_ARGS: harness options before it, which win: check-debug's -T).
	fixture="-F emulated"
	[ "$name" = emulated ] && fixture="${EB_EMULATED_ARGS:-} -f emulated"
	# shellcheck disable=SC2086
	EBTEST_FAST=$fast "$T" $fixture $TARGS || rc=1
	took
	if [ "$name" = percpu-fast ] && [ -z "$TARGS" ]; then
		echo "# ---- libeventboost"
		"$TOP/build/selftests/libeventboost_test" || rc=1
		took
		echo "# ---- ebctl"
		sh "$TOP/selftests/ebctl_test.sh" "$TOP/build/userlib/ebctl" \
			"$B/eventboost/eventboost.ko" || rc=1
		took
		echo "# ---- tracing: trace-cmd and perf"
		sh "$TOP/selftests/trace_test.sh" "$TOP/build/userlib/ebctl" \
			"$TOP/build/selftests/eb_trace_helper" || rc=1
		took
		echo "# ---- node binding"
		if twin_runs node; then
			(cd "$TOP/node-binding" &&
				"$NODE" --test --test-reporter=tap test/guest/boost.test.js test/guest/queue.test.js) || rc=1
		fi
		took
		echo "# ---- a service in a container (podman)"
		if twin_runs container; then
			sh "$TOP/selftests/container_test.sh" "$TOP" "$TOP/build/userlib/ebctl" \
				"$(command -v "$NODE")" || rc=1
		fi
		took
	fi
	if [ "$name" = cluster ]; then
		echo "# ---- ebctl, policy1's first CPU offline"
		sh "$TOP/selftests/ebctl_cluster_test.sh" "$TOP/build/userlib/ebctl" || rc=1
		took
	fi
	[ $pause = 0 ] || rmmod ebtest_pause ||
		{ echo "not ok - $name: ebtest_pause unload"; rc=1; }
	rmmod ebtest_cpufreq || { echo "not ok - $name: driver unload"; rc=1; }
done
if rmmod eventboost; then
	echo "ok - eventboost unloads"
else
	echo "not ok - eventboost unloads"; rc=1
fi
# The short stress and fuzz run (issue 6), unless a filter narrows the run.
if [ -z "$FILTER$TARGS" ]; then
	sh "$TOP/selftests/run_guest_stress.sh" "$KVER" "$TOP" "$OUT" short || rc=1
	took
fi

if eb_splats "$since"; then
	echo "not ok - kernel log has splats (above)"
	rc=1
else
	echo "ok - kernel log clean"
fi
dmesg > "$OUT/dmesg-$KVER.txt"
echo "$rc" > "$OUT/result-$KVER"
