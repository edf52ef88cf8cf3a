#!/bin/bash
# make bench: install what is needed, build everything, boot a QEMU guest
# with the governor over the test cpufreq driver, run bench/run_in_guest.sh
# there, then print the table and write bench/results-<kernel>.json.
# BENCH_KVER picks the kernel (default: the 6.12 non-rt one), BENCH_QUICK=1
# makes a short run (a smoke test; its figures are too noisy to quote).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
start=$(date +%s)
step() { echo "==> [$(( $(date +%s) - start )) s] $*"; }

step "dependencies"
if [ "$(id -u)" = 0 ]; then scripts/setup-deps.sh; else sudo scripts/setup-deps.sh; fi || exit 1
mapfile -t kernels < <(scripts/kernels.sh)
kver=${BENCH_KVER:-${kernels[1]:-}}
[ -n "$kver" ] || { echo "bench: no 6.12 kernel with headers installed" >&2; exit 1; }
quick=${BENCH_QUICK:-0}

# Own build directories (bench-*), so that a concurrent `make check`
# rebuilding build/<kver>/eventboost cannot swap a module under the guest.
step "build eventboost.ko and the test cpufreq driver for $kver"
scripts/kbuild.sh "$kver" bench-eventboost Kbuild governor uapi >/dev/null || exit 1
scripts/kbuild.sh "$kver" bench-ebtest selftests/driver/Kbuild \
	selftests/driver/ebtest_cpufreq.c >/dev/null || exit 1
step "build libeventboost, ebctl and the microbenchmarks"
make -s userlib >/dev/null || exit 1
make -s -C bench OUT="$top/build/bench" >/dev/null || exit 1
step "build the Node package (npm install in node-binding/)"
(cd node-binding && npm install --no-audit --no-fund --loglevel=error >/dev/null) || exit 1

out=$top/build/bench/raw-$kver
rm -rf "$out"
mkdir -p "$out"
lscpu -J > "$out/lscpu-host.json" 2>/dev/null
cut -d' ' -f1-3 /proc/loadavg > "$out/host-load.txt"
step "boot a QEMU guest ($kver, TCG, 2 CPUs) and run the benchmarks" \
	"(about $([ "$quick" = 1 ] && echo 3 || echo 11) minutes)"
timeout --kill-after=30 "${BENCH_TIMEOUT:-1500}" \
	vng --disable-kvm -r "/boot/vmlinuz-$kver" --cpus 2 --memory 2G --rwdir "$out" \
	    --qemu-opts="-cpu Skylake-Client-v1" \
	    --exec "sh $top/bench/run_in_guest.sh $kver $top $out $quick" \
	</dev/null 2>&1 | grep --line-buffered -v "TCG doesn't support requested feature"
if [ "$(cat "$out/result" 2>/dev/null)" != 0 ]; then
	echo "bench: failed in the guest (files in $out)" >&2
	exit 1
fi
echo "$(cut -d' ' -f1-3 /proc/loadavg) (after)" >> "$out/host-load.txt"

step "report"
json=$top/bench/results-$kver.json
[ "$quick" = 1 ] && json=$top/build/bench/results-$kver-quick.json
node bench/report.js "$out" "$json" || exit 1
step "done"
