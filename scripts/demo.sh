#!/bin/bash
# make demo: install what is needed, build everything, boot a QEMU guest
# with the governor over a cpufreq driver whose frequencies cost time, and
# run the demo service with eventboost off and on: open-loop load at 60% of
# its capacity and a closed-loop overload, DEMO_REPS (4) pairs of runs each
# (demo/driver.js).  DEMO_SECONDS sets an open-loop run's length (default
# 6; the overload's is half).  About 8 minutes on an idle host.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

eb_setup_deps || exit 1
kver=$(eb_kernel "${DEMO_KVER:-}" demo) || exit 1
eb_build_modules "$kver" || exit 1
step "build libeventboost and ebctl"
make -s userlib >/dev/null || exit 1
eb_build_node || exit 1

out=$top/build/demo
rm -rf "$out"
mkdir -p "$out"
# The guest's clock counts instructions (-icount), as in make experiment:
# on plain TCG a vCPU descheduled by the host looks like a slow request,
# and the demo measured that noise (see scripts/experiment.sh).
export EB_QEMU_OPTS="-icount shift=1,sleep=on"
step "boot a QEMU guest ($kver, TCG -icount, 2 CPUs) and run the demo (about 6 minutes)"
scripts/guest.sh "$kver" "$out" 2700 \
	env DEMO_REPS="${DEMO_REPS:-4}" DEMO_LOAD="${DEMO_LOAD:-0.6}" \
	sh "$top/demo/run_in_guest.sh" "$kver" "$top" "$out" "${DEMO_SECONDS:-6}"
if [ "$(cat "$out/result" 2>/dev/null)" != 0 ]; then
	echo "demo: failed (files in $out)" >&2
	exit 1
fi
step "done"
