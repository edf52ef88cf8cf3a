#!/bin/bash
# Boot KVER under QEMU/TCG with virtme-ng and run run_guest.sh there.
#   run_vm.sh KVER OUTDIR   (OUTDIR must be on the shared filesystem, not /tmp)
# Env: EB_MODES (driver mode filter), EB_TEST_ARGS (kselftest args, e.g. -t name),
#      EB_NODE (the node binary for the Node tests; default: node on PATH),
#      EB_TWIN and EB_TWIN_RUNS (parts its generic twin's run covers: run_guest.sh)
set -uo pipefail
kver=$1 out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out/result-$kver"
"$top/scripts/guest.sh" "$kver" "$out" "${EB_VM_TIMEOUT:-1200}" \
	sh "$top/selftests/run_guest.sh" "$kver" "$top" "$out" "'${EB_MODES:-}'" "'${EB_TEST_ARGS:-}'" \
	"'${EB_NODE:-node}'" "'${EB_TWIN:-}'" "'${EB_TWIN_RUNS:-}'" |
	tee "$out/tap-$kver.txt"
if [ "$(cat "$out/result-$kver" 2>/dev/null)" != 0 ]; then
	echo "FAIL: guest run on $kver (see $out/tap-$kver.txt, $out/dmesg-$kver.txt," \
		"$out/console-$kver.txt)"
	exit 1
fi
echo "PASS: guest run on $kver"
