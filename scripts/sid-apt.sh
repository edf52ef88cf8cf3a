#!/bin/bash
# apt-get against Debian unstable (sid) alone, for the few things the test
# matrix takes from it (linux-source-7.2, sparse's source): a sources list
# and lists directory of its own, so the system's sources never see sid and
# nothing else upgrades.  The archive is the one the system's own bookworm
# entry names.  Run in the directory that should receive the download.
#   scripts/sid-apt.sh download PKG | source --download-only PKG
# Env: EB_SID_CACHE (default /var/cache/eventboost/sid).
set -euo pipefail
cache=${EB_SID_CACHE:-/var/cache/eventboost/sid}
mkdir -p "$cache/lists/partial" "$cache/cache/archives/partial"
if [ ! -s "$cache/sources.list" ] || ! grep -q '^deb-src ' "$cache/sources.list"; then
	uri=$("$(dirname "$0")/debian-archive.sh") || exit 2
	key=/usr/share/keyrings/debian-archive-keyring.gpg
	printf 'deb [signed-by=%s] %s sid main\ndeb-src [signed-by=%s] %s sid main\n' \
		"$key" "$uri" "$key" "$uri" >"$cache/sources.list"
	rm -f "$cache/lists/"*_sid_* 2>/dev/null || true
fi
a=(-q -o Dir::Etc::SourceList="$cache/sources.list" -o Dir::Etc::SourceParts=/dev/null
   -o Dir::State::Lists="$cache/lists" -o Dir::Cache="$cache/cache"
   -o APT::Sandbox::User=root)
# Lists older than a day are refreshed; a failed refresh with lists at hand
# is not fatal (the cached download may still be there).
if [ -z "$(find "$cache/lists" -maxdepth 1 -name '*_sid_*Sources*' -mtime -1 2>/dev/null)" ]; then
	apt-get "${a[@]}" update >/dev/null
fi
apt-get "${a[@]}" "$@" >/dev/null
