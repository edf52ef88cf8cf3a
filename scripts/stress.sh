#!/bin/bash
# make stress / make fuzz: build, then boot each kernel of the matrix under
# QEMU/TCG exactly as selftests/run_vm.sh does and run
# selftests/run_guest_stress.sh MODE there.
#   scripts/stress.sh [long|fuzz-long|short]      (default: long)
# Output: build/stress/tap-stress-<kernel>.txt, dmesg-stress-<kernel>.txt.
# Env: EB_KERNELS (space-separated subset), EB_SEED, EB_STRESS_S, EB_FUZZ_CALLS.
set -uo pipefail
mode=${1:-long}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
case $mode in
short) tmo=900 ;;
long) tmo=5400 ;;	# 3 driver modes x (1M fuzz + 120 s stress + figures), RT slowest
fuzz-long) tmo=3600 ;;
*) echo "usage: scripts/stress.sh [long|fuzz-long|short]" >&2; exit 2 ;;
esac
if [ -n "${EB_KERNELS:-}" ]; then
	read -r -a kernels <<<"$EB_KERNELS"
else
	mapfile -t kernels < <(scripts/kernels.sh)
fi
[ "${#kernels[@]}" -gt 0 ] || { echo "error: no kernel (scripts/kernels.sh)" >&2; exit 1; }

fail=0
for k in "${kernels[@]}"; do
	scripts/kbuild.sh "$k" eventboost Kbuild governor uapi >/dev/null &&
	scripts/kbuild.sh "$k" ebtest selftests/driver/Kbuild \
		selftests/driver/ebtest_cpufreq.c selftests/driver/ebtest_pause.c \
		selftests/driver/ebtest_fail.c governor/eb_compat.h >/dev/null || fail=1
done
make -s -C selftests ../build/selftests/eb_fuzz ../build/selftests/eb_stress \
	../build/selftests/eb_figures || fail=1
[ $fail = 0 ] || { echo "FAIL: build"; exit 1; }

out=$top/build/stress
mkdir -p "$out"
start=$(date +%s)
results=()
for k in "${kernels[@]}"; do
	echo "==> $mode stress on $k"
	rm -f "$out/result-stress-$k"
	t0=$(date +%s)
	# The guest of run_vm.sh (scripts/guest.sh).
	scripts/guest.sh "$k" "$out" "$tmo" \
		sh "$top/selftests/run_guest_stress.sh" "$k" "$top" "$out" "$mode" |
		tee "$out/tap-stress-$k.txt"
	if [ "$(cat "$out/result-stress-$k" 2>/dev/null)" = 0 ]; then
		results+=("PASS $k ($(( $(date +%s) - t0 )) s)")
	else
		results+=("FAIL $k (see $out/tap-stress-$k.txt, $out/dmesg-stress-$k.txt)")
		fail=1
	fi
done
echo
echo "==> $mode stress summary ($(( $(date +%s) - start )) s)"
printf '  %s\n' "${results[@]}"
exit $fail
