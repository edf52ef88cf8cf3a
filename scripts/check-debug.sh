#!/bin/bash
# make check-debug: the whole guest suite, the stress suite and the fuzzer
# on two 6.12 debug kernels, built once and cached by build-debug-kernel.sh:
# generic (KASAN, lockdep, DEBUG_ATOMIC_SLEEP, kmemleak) and rt (PREEMPT_RT,
# lockdep with raw-lock nesting, DEBUG_ATOMIC_SLEEP).  Zero reports to pass.
#   scripts/check-debug.sh                  host: build, boot, report
#   scripts/check-debug.sh --guest KVER TOP OUT FLAVOR   (inside the guest)
# Env: EB_DEBUG_FLAVORS (default "generic rt").
# Output: build/debug/tap-<kernel>.txt, dmesg-*.txt, kmemleak-<kernel>.txt.
set -uo pipefail

if [ "${1:-}" = --guest ]; then
	KVER=$2 TOP=$3 OUT=$4 FLAVOR=${5:-generic}
	. "$TOP/selftests/stress/splats.sh"
	rc=0
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	kml=/sys/kernel/debug/kmemleak
	# Boot is checked here; then the log is emptied so that the suite's
	# own check sees only what the tests caused.
	# Scan only when asked (the periodic scan would log to dmesg mid-run)
	# and forget what boot leaked: only leaks made by the tests count.
	if [ -w $kml ]; then
		echo scan=off > $kml
		# The scan thread says goodbye asynchronously: let it, before
		# the log is emptied.
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			dmesg | grep -q 'scanning thread ended' && break
			sleep 1
		done
		echo scan > $kml; echo clear > $kml
	fi
	dmesg > "$OUT/dmesg-boot-$KVER.txt"
	# The rt lane is worth what its kernel is: PREEMPT_RT, lockdep on.
	if [ "$FLAVOR" = rt ]; then
		if uname -v | grep -q PREEMPT_RT; then echo "ok - the kernel is PREEMPT_RT ($(uname -v))"
		else echo "not ok - the rt debug kernel is not PREEMPT_RT ($(uname -v))"; rc=1; fi
	fi
	if grep -E "$EB_SPLATS" "$OUT/dmesg-boot-$KVER.txt"; then
		echo "not ok - debug kernel boots without reports"; rc=1
	fi
	dmesg -C
	# The whole guest suite, its short stress and fuzz run included, but
	# for one timing test: emulated DVFS holds only while the other CPUs
	# idle, and this kernel's own debugging (RCU and ticks under KASAN and
	# lockdep) keeps CPU 0 about 11% busy beside a spinning CPU 1, past
	# the test's 10% (measured; 0 of 60 pairs judged in two runs).  It
	# tests the test driver, not the module, and runs in every make check
	# guest.
	echo "# check-debug: emulated.runtime_follows_frequency not run (CPU 0 is not idle here; make check runs it)"
	EB_EMULATED_ARGS="-T runtime_follows_frequency" \
		sh "$TOP/selftests/run_guest.sh" "$KVER" "$TOP" "$OUT" || true
	[ "$(cat "$OUT/result-$KVER" 2>/dev/null)" = 0 ] || rc=1
	if [ "$FLAVOR" = rt ]; then
		echo "# kmemleak: not in the rt debug kernel (the generic one runs it)"
	elif [ -w $kml ]; then
		# An object is reported once unreferenced for 5 s and seen by
		# two scans.
		sleep 6; echo scan > $kml; sleep 6; echo scan > $kml
		cat $kml > "$OUT/kmemleak-$KVER.txt"
		n=$(grep -c '^unreferenced object' "$OUT/kmemleak-$KVER.txt")
		if [ "$n" = 0 ]; then echo "ok - kmemleak: no leak"
		else head -60 "$OUT/kmemleak-$KVER.txt"; echo "not ok - kmemleak: $n leaks (above)"; rc=1; fi
	else
		echo "not ok - kmemleak not available"; rc=1
	fi
	# Lockdep turns itself off at its first report: still on, it saw
	# every lock taken in the run.
	if grep -q 'debug_locks: *1' /proc/lockdep_stats 2>/dev/null; then
		echo "ok - lockdep still on at the end of the run"
	else
		echo "not ok - lockdep is off at the end of the run (/proc/lockdep_stats)"; rc=1
	fi
	checks="KASAN, lockdep, atomic-sleep or kmemleak"
	[ "$FLAVOR" != rt ] || checks="lockdep (raw-lock nesting too) or atomic-sleep"
	if dmesg | grep -E "$EB_SPLATS"; then
		echo "not ok - debug reports in the kernel log (above)"; rc=1
	else
		echo "ok - no $checks report"
	fi
	dmesg > "$OUT/dmesg-debug-$KVER.txt"
	echo "$rc" > "$OUT/result-debug-$KVER"
	exit $rc
fi

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

# One debug kernel: build (once), boot, run the suite in it.
run_flavor() {
	local flavor=$1 t0 t1 t2 tree kver kimg out fail
	t0=$(date +%s)
	tree=$(scripts/build-debug-kernel.sh "$flavor") ||
		{ echo "FAIL: the $flavor debug kernel's build (above)"; return 1; }
	echo "==> $flavor debug kernel: $tree (built in $(cat "$tree/.eb-built") s, once)"
	kver=$(make -s -C "$tree" kernelrelease)
	kimg=$tree/../bzImage
	# A copy outside the tree: given the tree's own image, vng would treat the
	# tree as a kernel source directory and set up its modules.
	cmp -s "$tree/arch/x86/boot/bzImage" "$kimg" || cp "$tree/arch/x86/boot/bzImage" "$kimg"

	echo "==> build for $kver"
	fail=0
	EB_KDIR=$tree scripts/kbuild.sh "$kver" eventboost Kbuild governor uapi || fail=1
	EB_KDIR=$tree scripts/kbuild.sh "$kver" ebtest selftests/driver/Kbuild \
		selftests/driver/ebtest_cpufreq.c selftests/driver/ebtest_pause.c \
		selftests/driver/ebtest_fail.c governor/eb_compat.h || fail=1
	scripts/fetch-ksrc.sh || fail=1
	make -s userlib || fail=1
	make -s -C selftests || fail=1
	(cd node-binding && npm install --no-audit --no-fund --loglevel=error >/dev/null) || fail=1
	[ $fail = 0 ] || { echo "FAIL: build"; return 1; }

	out=$top/build/debug
	mkdir -p "$out"
	rm -f "$out/result-debug-$kver"
	t1=$(date +%s)
	echo "==> guest suite, stress and fuzz on $kver"
	# As selftests/run_vm.sh; KASAN and lockdep make TCG a few times slower.
	EB_KIMG=$kimg scripts/guest.sh "$kver" "$out" "${EB_VM_TIMEOUT:-5400}" \
		bash "$top/scripts/check-debug.sh" --guest "$kver" "$top" "$out" "$flavor" |
		tee "$out/tap-$kver.txt"
	t2=$(date +%s)
	echo
	echo "==> check-debug ($flavor): build and setup $((t1 - t0)) s, guest run $((t2 - t1)) s"
	grep -h -E '^# Totals' "$out/tap-$kver.txt" | sed 's/^/  /'
	if [ "$(cat "$out/result-debug-$kver" 2>/dev/null)" != 0 ]; then
		echo "FAIL: $flavor debug kernel run (see $out/tap-$kver.txt, $out/dmesg-debug-$kver.txt)"
		return 1
	fi
	echo "PASS: debug kernel $kver: zero reports"
}

flavors=${EB_DEBUG_FLAVORS-generic rt}
for flavor in $flavors; do
	case $flavor in generic | rt) ;; *) echo "check-debug: EB_DEBUG_FLAVORS: '$flavor' is not generic or rt" >&2; exit 2 ;; esac
done
[ -n "${flavors// /}" ] || { echo "check-debug: EB_DEBUG_FLAVORS is empty: say generic, rt or both" >&2; exit 2; }
rc=0
for flavor in $flavors; do
	run_flavor "$flavor" || rc=1
done
exit $rc
