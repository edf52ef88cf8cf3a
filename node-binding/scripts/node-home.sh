#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# node-home.sh MAJOR: print a directory holding bin/node and include/node for
# that Node major.  The system's Node when it is that major (with its headers
# beside it, bin/../include/node), else Node's own build from the npm package
# node-<os>-<arch>@MAJOR, fetched once with `npm pack` into a cache
# ($EB_NODE_CACHE; by default root's /var/cache/eventboost/node, and another
# user's ${XDG_CACHE_HOME:-~/.cache}/eventboost/node unless root's already
# holds that build) and reused offline.  (EB_SYSROOT: a fake system root for
# root's cache, scripts/test-scripts.sh's.)
set -eu
major=${1:?usage: node-home.sh MAJOR}
arch=${EB_NODE_ARCH:-x64}
for sys in /usr/bin/node "$(command -v node 2>/dev/null || true)"; do
	[ "$arch" = x64 ] && [ -x "$sys" ] || continue
	[ "$("$sys" -p 'process.versions.node.split(".")[0]')" = "$major" ] || continue
	home=$(dirname "$(dirname "$(readlink -f "$sys")")")
	if [ -e "$home/include/node/node.h" ]; then echo "$home"; exit 0; fi
done
# A complete build in cache directory $1.
built() { [ -x "$1/package/bin/node" ] && [ -e "$1/package/include/node/node.h" ]; }
root_cache=${EB_SYSROOT:-}/var/cache/eventboost/node
if [ -n "${EB_NODE_CACHE:-}" ]; then
	cache=$EB_NODE_CACHE
elif [ "$(id -u)" = 0 ] || built "$root_cache/linux-$arch/$major"; then
	cache=$root_cache
else	# (npm pack as a user: not root's directory; XDG: a relative one is ignored)
	case ${XDG_CACHE_HOME:-} in
	/*) cache=$XDG_CACHE_HOME/eventboost/node ;;
	*) cache=${HOME:-}/.cache/eventboost/node ;;
	esac
fi
dir=$cache/linux-$arch/$major
if ! built "$dir"; then
	mkdir -p "$dir" 2>/dev/null && [ -w "$dir" ] ||
		{ echo "node-home.sh: cannot write $dir, the cache of Node $major's build: set EB_NODE_CACHE to a directory you can write (the default: /var/cache/eventboost/node as root, \$XDG_CACHE_HOME or ~/.cache's eventboost/node as another user)" >&2; exit 1; }
	rm -rf "$dir/package" "$dir"/*.tgz
	# (also when npm runs this, as prepack: its pack settings are not ours)
	(cd "$dir" && env -u npm_config_pack_destination -u npm_config_json -u npm_config_dry_run \
		npm pack --silent --pack-destination "$dir" "node-linux-$arch@$major" >/dev/null) ||
		{ echo "node-home.sh: could not fetch node-linux-$arch@$major" >&2; exit 1; }
	tar -xzf "$dir"/node-linux-"$arch"-*.tgz -C "$dir"
	rm -f "$dir"/*.tgz
fi
echo "$dir/package"
