#!/bin/bash
# make bench: install what is needed, build everything, boot a QEMU guest
# with the governor over the test cpufreq driver, run bench/run_in_guest.sh
# there, then print the table and write bench/results-<kernel>.json.
# BENCH_KVER picks the kernel (default: the 6.12 non-rt one), BENCH_QUICK=1
# makes a short run (a smoke test; its figures are too noisy to quote).
# BENCH_ICOUNT=0 runs the guest on host-timed TCG instead of -icount.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

eb_setup_deps || exit 1
kver=$(eb_kernel "${BENCH_KVER:-}" bench) || exit 1
quick=${BENCH_QUICK:-0}
# Own build directories (bench-*), so that a concurrent `make check`
# rebuilding build/<kver>/eventboost cannot swap a module under the guest.
eb_build_modules "$kver" bench- || exit 1
step "build libeventboost, ebctl and the microbenchmarks"
make -s userlib >/dev/null || exit 1
make -s -C bench OUT="$top/build/bench" >/dev/null || exit 1
eb_build_node || exit 1

out=$top/build/bench/raw-$kver
rm -rf "$out"
mkdir -p "$out"
lscpu -J > "$out/lscpu-host.json" 2>/dev/null
cut -d' ' -f1-3 /proc/loadavg > "$out/host-load.txt"
# The guest's clock counts instructions (-icount), as make experiment's
# does: under host-timed TCG a vCPU the host deschedules shows up as a slow
# ioctl or a slow request, and the Node figures varied more run to run than
# the hooks' cost.  Under -icount a ratio is one of work done (instructions,
# a syscall's entry as one of them), repeatable, not of host scheduling.
clock="TCG, -icount"
if [ "${BENCH_ICOUNT:-1}" = 1 ]; then
	export EB_QEMU_OPTS="-icount shift=1,sleep=on"
else
	clock="TCG, host-timed"
fi
echo "$clock" > "$out/clock.txt"
step "boot a QEMU guest ($kver, $clock, 2 CPUs) and run the benchmarks" \
	"(about $([ "$quick" = 1 ] && echo 5 || echo 25) minutes)"
scripts/guest.sh "$kver" "$out" "${BENCH_TIMEOUT:-3000}" \
	env BENCH_NODE="$(node --version)" sh "$top/bench/run_in_guest.sh" "$kver" "$top" "$out" "$quick"
if [ "$(cat "$out/result" 2>/dev/null)" != 0 ]; then
	echo "bench: failed in the guest (files in $out)" >&2
	exit 1
fi
echo "$(cut -d' ' -f1-3 /proc/loadavg) (after)" >> "$out/host-load.txt"

# Part 5, what eventboost/profile costs a service, needs no device: it runs
# here on the host, the service on CPU 1 and the client on CPU 0, with and
# without the profiler interleaved.  (In the guest both vCPUs share one
# host thread, and the client's turns on CPU 0 showed as the service's
# time.)  Every request followed, then one in ten.
prof_reps=6 prof_secs=3
[ "$quick" = 1 ] && prof_reps=2 prof_secs=2
echo "{\"repetitions\": $prof_reps, \"secs\": $prof_secs, \"rate\": 100, \"loadavg_before\": \"$(cut -d' ' -f1-3 /proc/loadavg)\"}" \
	> "$out/profile-params.json"
for sample in 1 0.1; do
	step "profile: the profiler's overhead on the host, sample $sample ($prof_reps repetitions)"
	taskset -c 0 node node-binding/bench/profile-overhead.js $prof_reps $prof_secs 100 $sample \
		> "$out/profile-overhead-$sample.json" || { echo "bench: profile-overhead ($sample) failed" >&2; exit 1; }
done

step "report"
json=$top/bench/results-$kver.json
[ "$quick" = 1 ] && json=$top/build/bench/results-$kver-quick.json
node bench/report.js "$out" "$json" || exit 1
step "done"
