#!/bin/bash
# apt-get against a single Debian suite alone (default bookworm-backports),
# with its own sources list, lists and cache under /work/mttcg-probe/apt-SUITE:
# the system's apt sources and state are never touched.  Copy of the approach
# of /work/main/scripts/sid-apt.sh.  Run in the directory that should
# receive the download.
#   SUITE=bookworm-backports ./bpo-apt.sh download PKG...
set -euo pipefail
suite=${SUITE:-bookworm-backports}
cache=/work/mttcg-probe/apt-$suite
mkdir -p "$cache/lists/partial" "$cache/cache/archives/partial"
if [ ! -s "$cache/sources.list" ]; then
	uri=$(awk '/^URIs:/ {u = $2} /^Suites:/ && / bookworm( |$)/ {print u; exit}' \
		/etc/apt/sources.list.d/debian.sources)
	key=/usr/share/keyrings/debian-archive-keyring.gpg
	printf 'deb [signed-by=%s] %s %s main\n' "$key" "$uri" "$suite" >"$cache/sources.list"
fi
a=(-q -o Dir::Etc::SourceList="$cache/sources.list" -o Dir::Etc::SourceParts=/dev/null
   -o Dir::State::Lists="$cache/lists" -o Dir::Cache="$cache/cache"
   -o APT::Sandbox::User=root)
if [ -z "$(find "$cache/lists" -maxdepth 1 -name "*_${suite}_*Packages*" -mtime -1 2>/dev/null)" ]; then
	apt-get "${a[@]}" update >&2
fi
apt-get "${a[@]}" "$@"
