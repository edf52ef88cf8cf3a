#!/bin/bash
# scripts/guest.sh's diagnostics, which otherwise run only when a guest
# dies: a guest that panics must fail the run and show its console; a
# command's own output must reach stdout, the kernel's must not.  TAP.
#   guest_console_test.sh KVER OUTDIR
set -uo pipefail
kver=$1 out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
TAP_NAME=guest.sh
. "$top/selftests/tap.sh"
echo "1..4"
"$top/scripts/guest.sh" "$kver" "$out" 300 \
	'echo guest-says-hello; echo c > /proc/sysrq-trigger; echo still-alive' \
	> "$out/panic.out" 2> "$out/panic.err"
status=$?
t "a guest that panics fails the run" '[ "$status" != 0 ]'
t "and its console's panic is shown" 'grep -q "Kernel panic - not syncing: sysrq" "$out/panic.err"'
t "the command's output reaches stdout" \
	'grep -qx guest-says-hello "$out/panic.out" && ! grep -q still-alive "$out/panic.out"'
t "the kernel's console does not" '! grep -q "sysrq: Trigger a crash" "$out/panic.out"'
exit $rc
