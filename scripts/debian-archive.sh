#!/bin/bash
# Print the Debian archive the system's own apt sources name for bookworm
# (deb822 debian.sources first, then a one-line sources.list entry, past an
# [options] field), for what takes packages from outside the system's lists:
# sid-apt.sh (Debian unstable) and test-bare-node.sh (debootstrap).  Exit 2,
# saying so, if there is none.
set -uo pipefail
uri=$(awk '/^URIs:/ {u = $2} /^Suites:/ && / bookworm( |$)/ {print u; exit}' \
	/etc/apt/sources.list.d/debian.sources 2>/dev/null)
[ -n "$uri" ] || uri=$(awk '$1 == "deb" {
		i = 2; if ($i ~ /^\[/) while ($i !~ /\]$/) i++
		if ($i ~ /\]$/) i++
		if ($(i + 1) == "bookworm") { print $i; exit }
	}' /etc/apt/sources.list 2>/dev/null)
if [ -z "$uri" ]; then
	echo "error: no Debian archive for bookworm in the system's apt sources" >&2
	exit 2
fi
echo "$uri"
