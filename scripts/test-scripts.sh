#!/bin/bash
# Host tests of the set-up scripts' choices, on a fake system root
# (EB_SYSROOT): which kernels the matrix finds (kernels.sh), which of them
# setup-deps.sh must install (kernels.sh --missing), which kernel make demo,
# bench and experiment boot (lib.sh's eb_kernel), and make demo's refusal of
# bad DEMO_* counts before it installs or builds anything.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; }
expect() { # NAME WANT GOT
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1"; printf '#   want: %s\n#   got:  %s\n' "$2" "$3"; fi
}
root=$(mktemp -d)
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
expect "the whole matrix, in order, the newest of each" \
	"6.1.0-57-amd64 6.12.118+deb12-amd64 6.12.118+deb12-rt-amd64 7.2.13-eb 7.2.13-eb-rt" "$(list)"
expect "nothing missing" "" "$(missing)"
expect "make demo boots the 6.12" "6.12.118+deb12-amd64" "$(boots)"
unset EB_SYSROOT

# setup-deps.sh's Node: one the package supports is left alone; another
# (Debian 12's 18.19) gets Node 20 linked before it on PATH.
fake=$root/fake-node prefix=$root/prefix
mkdir -p "$fake"
for v in v18.19.0 v20.19.9 v21.7.3 v22.23.0 v20.20.2; do
	rm -rf "$prefix"
	printf '#!/bin/sh\necho %s\n' "$v" >"$fake/node" && chmod +x "$fake/node"
	out=$(PATH=$prefix/bin:$fake:$PATH EB_NODE_PREFIX=$prefix scripts/system-node.sh 2>&1); rc=$?
	case $v in
	v22.23.0 | v20.20.2)
		expect "system-node.sh leaves Node $v alone" "0:no link" "$rc:$out$([ -e "$prefix" ] && echo " linked")no link" ;;
	*)
		got=$rc:$("$prefix/bin/node" --version 2>&1 | cut -d. -f1):$([ -e "$prefix/include/node/node.h" ] && echo headers)
		expect "system-node.sh links Node 20 before Node $v" "0:v20:headers" "$got" ;;
	esac
done

# make demo refuses a bad count before it installs or builds anything.
for v in DEMO_REPS=0 DEMO_SECONDS=010 DEMO_CONNECTIONS=x DEMO_REPS=-1; do
	out=$(env "$v" scripts/demo.sh 2>&1); rc=$?
	case $rc:$out in
	"1:demo: ${v%%=*} must be a whole number above 0 (no leading zero), got '${v#*=}'") ok "make demo refuses $v" ;;
	*) not_ok "make demo refuses $v"; printf '#   rc %s: %s\n' "$rc" "$out" | head -5 ;;
	esac
done
# make check as another user stops at once, saying why (it writes
# /lib/modules); make check itself runs as root, so runuser is there.
# (A copy, where nobody can read it whatever the clone's directory.)
mkdir -p "$root/repo/scripts" && cp scripts/check.sh "$root/repo/scripts/" && chmod -R a+rX "$root"
out=$(cd /tmp && runuser -u nobody -- "$root/repo/scripts/check.sh" 2>&1); rc=$?
case $rc:$out in
"1:make check: run it as root"*) ok "make check refuses to run as a user" ;;
*) not_ok "make check refuses to run as a user"; printf '#   rc %s: %s\n' "$rc" "$out" | head -5 ;;
esac
echo "1..$n"
exit $fail
