#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# prebuild.sh [MAJOR...]: build the addon for each Node major (default: every
# tested one, $EB_NODE_MAJORS or 20 22 24 26) into
# prebuilds/linux-x64/node.abi<ABI>.node, the name index.js looks for (the
# node-gyp-build convention), offline against that Node's own headers (see
# node-home.sh).  `npm pack` runs it, so the tarball carries one binary per
# tested Node and installs need no compiler.  A prebuild newer than every
# source is kept.
set -eu
pkg=$(cd "$(dirname "$0")/.." && pwd)
here=$pkg/scripts
[ $# -gt 0 ] || set -- ${EB_NODE_MAJORS:-20 22 24 26}
node "$pkg/scripts/build.js" vendor
[ -d "$pkg/node_modules/node-addon-api" ] ||
	{ echo "prebuild.sh: run 'npm install' in $pkg first" >&2; exit 1; }
gyp=${npm_config_node_gyp:-}
if [ -z "$gyp" ] || [ ! -e "$gyp" ]; then
	gyp=$(npm root -g 2>/dev/null)/npm/node_modules/node-gyp/bin/node-gyp.js
fi
mkdir -p "$pkg/prebuilds/linux-x64"
for major; do
	home=$("$here/node-home.sh" "$major")
	abi=$("$home/bin/node" -p process.versions.modules)
	out=$pkg/prebuilds/linux-x64/node.abi$abi.node
	if [ -e "$out" ] && [ -z "$(find "$pkg/binding.gyp" "$pkg/src" "$pkg/deps" \
	     "$pkg/node_modules/node-addon-api" -newer "$out" -print -quit)" ]; then
		continue
	fi
	echo "prebuild.sh: Node $major (ABI $abi)" >&2
	tmp=$(mktemp -d)
	cp -r "$pkg/binding.gyp" "$pkg/src" "$pkg/deps" "$tmp/"
	ln -s "$pkg/node_modules" "$tmp/node_modules"
	# Under npm (prepack, pretest) npm's config comes as npm_config_*
	# variables, which node-gyp takes over its command line: a user's
	# `nodedir=/usr` in .npmrc built every prebuild against the system
	# Node's headers.  Only --nodedir says which Node.
	# (node-gyp matches those names in any case, and a package's
	# npm_package_config_node_gyp_* too: clear them all.)
	unset_npm=$(env | sed -n 's/^\([Nn][Pp][Mm]_[A-Za-z_]*\)=.*/-u \1/p' |
		grep -iE -- '-u npm_(config_|package_config_node_gyp_)(nodedir|target|runtime|disturl|dist_url|devdir)$' || true)
	# shellcheck disable=SC2086
	(cd "$tmp" && env $unset_npm \
		PATH="$home/bin:$PATH" "$home/bin/node" "$gyp" rebuild \
		--nodedir="$home" --loglevel=warn >build.log 2>&1) ||
		{ cat "$tmp/build.log" >&2; rm -rf "$tmp"; exit 1; }
	got=$("$home/bin/node" -p "require('$tmp/build/Release/eventboost.node').abi" 2>&1) ||
		got="no load ($got)"
	if [ "$got" != "$abi" ]; then
		echo "prebuild.sh: the addon built for Node $major (ABI $abi) reports ABI $got" >&2
		rm -rf "$tmp"; exit 1
	fi
	cp "$tmp/build/Release/eventboost.node" "$out.tmp"
	mv "$out.tmp" "$out"
	rm -rf "$tmp"
done
