#!/bin/bash
# The test matrix: the newest installed Debian 6.1, 6.12 and 6.12-rt kernels
# that have both an image in /boot and headers, then the 7.2 and 7.2-rt
# kernels built from Debian unstable's source (build-sid-kernel.sh), whose
# image is /lib/modules/KVER/vmlinuz.  One line per kernel found, in that
# order; a missing one is skipped, so callers pick kernels by name or check
# the count.
#   scripts/kernels.sh --missing   the matrix's entries not found (6.1, 6.12,
#                                  6.12-rt, 7.2, 7.2-rt), one per line
# EB_SYSROOT, for scripts/test-scripts.sh: a directory standing for /.
root=${EB_SYSROOT:-}
names=(6.1 6.12 6.12-rt 7.2 7.2-rt)
pats=('6.1.*-amd64' '6.12.*-amd64' '6.12.*-rt-amd64' '7.2.*-eb' '7.2.*-eb-rt')
for i in "${!pats[@]}"; do
	pat=${pats[$i]}
	# shellcheck disable=SC2086
	k=$(ls -d "$root"/lib/modules/$pat/build 2>/dev/null |
		sed "s,^$root/lib/modules/,,; s,/build\$,," |
		grep -v -- "$([ "$pat" = '6.12.*-amd64' ] && echo -rt-amd64 || echo '^$')" |
		while read -r k; do
			[ -e "$root/boot/vmlinuz-$k" ] || [ -e "$root/lib/modules/$k/vmlinuz" ] && echo "$k"
		done |
		sort -V | tail -1)
	if [ "${1:-}" = --missing ]; then
		[ -n "$k" ] || echo "${names[$i]}"
	elif [ -n "$k" ]; then
		echo "$k"
	fi
done
