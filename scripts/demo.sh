#!/bin/bash
# make demo: install what is needed, build everything, boot a QEMU guest
# with the governor over a cpufreq driver whose frequencies cost time, and
# run a Node service under load with eventboost off, on, and at a fixed
# maximum clock.  DEMO_SECONDS sets each measurement's length (default 15).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
start=$(date +%s)
step() { echo "==> [$(( $(date +%s) - start )) s] $*"; }

step "dependencies"
if [ "$(id -u)" = 0 ]; then scripts/setup-deps.sh; else sudo scripts/setup-deps.sh; fi || exit 1
mapfile -t kernels < <(scripts/kernels.sh)
kver=${DEMO_KVER:-${kernels[1]:-}}
[ -n "$kver" ] || { echo "demo: no 6.12 kernel with headers installed" >&2; exit 1; }

step "build eventboost.ko and the test cpufreq driver for $kver"
scripts/kbuild.sh "$kver" eventboost Kbuild governor uapi >/dev/null || exit 1
scripts/kbuild.sh "$kver" ebtest selftests/driver/Kbuild \
	selftests/driver/ebtest_cpufreq.c >/dev/null || exit 1
step "build libeventboost and ebctl"
make -s userlib >/dev/null || exit 1
step "build the Node package (npm install in node-binding/)"
(cd node-binding && npm install --no-audit --no-fund --loglevel=error >/dev/null) || exit 1

out=$top/build/demo
rm -rf "$out"
mkdir -p "$out"
step "boot a QEMU guest ($kver, TCG, 2 CPUs) and run the demo (about 3 minutes)"
scripts/guest.sh "$kver" "$out" 900 \
	sh "$top/demo/run_in_guest.sh" "$kver" "$top" "$out" "${DEMO_SECONDS:-15}"
if [ "$(cat "$out/result" 2>/dev/null)" != 0 ]; then
	echo "demo: failed (files in $out)" >&2
	exit 1
fi
step "done"
