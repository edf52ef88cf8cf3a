#!/bin/bash
# The test matrix: the newest installed Debian 6.1, 6.12 and 6.12-rt kernels
# that have both an image in /boot and headers, then the 7.2 and 7.2-rt
# kernels built from Debian unstable's source (build-sid-kernel.sh), whose
# image is /lib/modules/KVER/vmlinuz.
for pat in '6.1.*-amd64' '6.12.*-amd64' '6.12.*-rt-amd64' '7.2.*-eb' '7.2.*-eb-rt'; do
	# shellcheck disable=SC2086
	ls -d /lib/modules/$pat/build 2>/dev/null |
		sed 's,/lib/modules/,,; s,/build,,' |
		grep -v -- "$([ "$pat" = '6.12.*-amd64' ] && echo -rt-amd64 || echo '^$')" |
		while read -r k; do
			[ -e "/boot/vmlinuz-$k" ] || [ -e "/lib/modules/$k/vmlinuz" ] && echo "$k"
		done |
		sort -V | tail -1
done
