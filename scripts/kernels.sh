#!/bin/bash
# The test matrix: the newest installed Debian 6.1, 6.12 and 6.12-rt kernels
# that have both an image in /boot and headers, then the 7.2 and 7.2-rt
# kernels built from Debian unstable's source (build-sid-kernel.sh), whose
# image is /lib/modules/KVER/vmlinuz.  Other flavours (-cloud-amd64, ...) are
# not the matrix's.  One line per kernel found, in that order; a missing one
# is skipped, so callers pick kernels by name or check the count.
#   scripts/kernels.sh --missing   the matrix's entries not found (6.1, 6.12,
#                                  6.12-rt, 7.2, 7.2-rt), one per line
# EB_SYSROOT, for scripts/test-scripts.sh: a directory standing for /.
root=${EB_SYSROOT:-}
names=(6.1 6.12 6.12-rt 7.2 7.2-rt)
res=('6\.1\.0-[0-9]+-amd64' '6\.12\.[0-9]+\+deb12-amd64' '6\.12\.[0-9]+\+deb12-rt-amd64'
     '7\.2\.[0-9]+-eb' '7\.2\.[0-9]+-eb-rt')
installed=()
for b in "$root"/lib/modules/*/build; do
	[ -e "$b" ] || continue  # headers there, not a dangling link
	k=${b#"$root"/lib/modules/}
	k=${k%/build}
	[ -e "$root/boot/vmlinuz-$k" ] || [ -e "$root/lib/modules/$k/vmlinuz" ] && installed+=("$k")
done
for i in "${!res[@]}"; do
	k=$(printf '%s\n' "${installed[@]}" | grep -xE "${res[$i]}" | sort -V | tail -1)
	if [ "${1:-}" = --missing ]; then
		[ -n "$k" ] || echo "${names[$i]}"
	elif [ -n "$k" ]; then
		echo "$k"
	fi
done
