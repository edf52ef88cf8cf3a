#!/bin/bash
# Is the `node` on PATH one the Node package supports (node-binding's
# package.json engines, "^20.20 || ^22.23 || ..."), with npm and its headers
# (bin/../include/node/node.h, what the addon builds against)?  Exit 0 if so;
# else say what is missing and what to do, exit 1.  Debian 12's own nodejs is
# 18.x, which the engines refuse: setup-node.sh installs Node 24 where there
# is no Node or only Debian's, and leaves any other Node to the operator.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
engines=$(sed -n 's/.*"engines": *{ *"node": *"\([^"]*\)".*/\1/p' "$top/node-binding/package.json")
if [ -z "$engines" ]; then
	echo "check-node: no engines.node in node-binding/package.json" >&2
	exit 1
fi

# supported vX.Y.Z: one of the engines' ^MAJOR[.MINOR[.PATCH]] ranges.
supported() {
	local v r want have i
	IFS=. read -r -a have <<<"${1#v}"
	for r in ${engines//||/ }; do
		[ "${r:0:1}" = '^' ] || continue
		IFS=. read -r -a want <<<"${r#^}"
		[ "${have[0]:-}" = "${want[0]}" ] || continue
		for i in 1 2; do
			v=${have[$i]:-0} r=${want[$i]:-0}
			[ "$v" -gt "$r" ] 2>/dev/null && return 0
			[ "$v" -lt "$r" ] 2>/dev/null && return 1
		done
		return 0
	done
	return 1
}

todo="install one (nodejs.org's binaries, or NodeSource's packages, which bring npm and the headers) and run this again, or take this node off PATH: the set-up, as root, then installs Node 24 itself"
node=$(command -v node 2>/dev/null)
if [ -z "$node" ]; then
	echo "setup: no node on PATH; the Node package needs $engines: $todo" >&2
	exit 1
fi
ver=$("$node" --version 2>/dev/null)
if ! supported "$ver"; then
	echo "setup: $node is Node ${ver:-of no version}; the Node package needs $engines (Debian 12's nodejs is 18.x): $todo" >&2
	exit 1
fi
if ! command -v npm >/dev/null 2>&1; then
	echo "setup: Node $ver has no npm on PATH: $todo" >&2
	exit 1
fi
if [ ! -e "$(dirname "$(readlink -f "$node")")/../include/node/node.h" ] &&
   [ ! -e "$(dirname "$node")/../include/node/node.h" ]; then
	echo "setup: Node $ver has no headers beside it (include/node/node.h), which the addon builds against: $todo" >&2
	exit 1
fi
