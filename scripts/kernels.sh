#!/bin/bash
# The test matrix: newest installed Debian 6.1, 6.12 and 6.12-rt kernels
# that have both an image in /boot and headers.
for pat in '6.1.*-amd64' '6.12.*-amd64' '6.12.*-rt-amd64'; do
	# shellcheck disable=SC2086
	ls -d /lib/modules/$pat/build 2>/dev/null |
		sed 's,/lib/modules/,,; s,/build,,' |
		grep -v -- "$([ "$pat" = '6.12.*-amd64' ] && echo -rt-amd64 || echo '^$')" |
		while read -r k; do [ -e "/boot/vmlinuz-$k" ] && echo "$k"; done |
		sort -V | tail -1
done
