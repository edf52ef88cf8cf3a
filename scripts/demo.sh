#!/bin/bash
# make demo: install what is needed, build everything, boot a QEMU guest
# with the governor over a cpufreq driver whose frequencies cost time, and
# run a Node service under load with eventboost off, on, and at a fixed
# maximum clock.  DEMO_SECONDS sets each measurement's length (default 15).
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
step "boot a QEMU guest ($kver, TCG, 2 CPUs) and run the demo (about 3 minutes)"
scripts/guest.sh "$kver" "$out" 900 \
	sh "$top/demo/run_in_guest.sh" "$kver" "$top" "$out" "${DEMO_SECONDS:-15}"
if [ "$(cat "$out/result" 2>/dev/null)" != 0 ]; then
	echo "demo: failed (files in $out)" >&2
	exit 1
fi
step "done"
