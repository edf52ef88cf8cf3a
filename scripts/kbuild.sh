#!/bin/bash
# Build a kernel module out of tree for one kernel, in build/<kver>/<name>,
# so that several kernels can be built side by side.
#   scripts/kbuild.sh KVER NAME SRCDIR... [-- extra make args]
# With STRICT=1: W=1 and sparse (C=1), and any warning fails the build.
# EB_KDIR: a kernel build tree instead of /lib/modules/KVER/build.
set -euo pipefail
kver=$1 name=$2; shift 2
srcs=()
while (($#)) && [ "$1" != -- ]; do srcs+=("$1"); shift; done
[ "${1:-}" = -- ] && shift
kdir=${EB_KDIR:-/lib/modules/$kver/build}
if [ ! -d "$kdir" ]; then
	echo "error: no headers for kernel $kver ($kdir missing)." >&2
	echo "       install linux-headers-$kver, or pass KVER=<release> of an installed kernel" >&2
	exit 2
fi
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/$kver/$name
mkdir -p "$out"
for s in "${srcs[@]}"; do cp -a "$top/$s" "$out/"; done
extra=()
if [ "${STRICT:-0}" = 1 ]; then
	extra=(W=1 C=2)
	# A kernel whose checker test the system's sparse fails (7.2) gets
	# the one built from Debian unstable's source.
	valid=$kdir/scripts/checker-valid.sh
	if [ -x "$valid" ] && [ "$(sh "$valid" sparse 2>/dev/null)" != 1 ]; then
		extra+=(CHECK="$("$top/scripts/build-sparse.sh")") || exit 1
	fi
fi
log=$out/build.log
if ! make -C "$kdir" M="$out" "${extra[@]}" "$@" modules >"$log" 2>&1; then
	cat "$log" >&2
	echo "error: building $name for $kver failed" >&2
	exit 1
fi
# A kernel without a working checker says so and checks nothing: that
# is a failure too.
if [ "${STRICT:-0}" = 1 ] && grep -E 'warning:|error:|is not available' "$log" >&2; then
	echo "error: $name for $kver: warnings with W=1 C=2 (above)" >&2
	exit 1
fi
echo "  built" "$out"/*.ko
