#!/bin/bash
# setup-node.sh on a bare Debian 12 (debootstrap's minbase: no Node, no npm),
# in a chroot: Node 24 with npm and its headers installed from the npm
# registry, Debian's npm installed for that and every package it brought
# removed again, a second run a no-op.  The chroot takes this machine's
# Debian archive (the one its bookworm entry names), npm settings and
# certificate authorities (a registry behind a proxy of its own needs them).
# About 1.5 minutes on an idle host (73-88 s here); run as root.  TAP on
# stdout.  The host's proxy variables, if any, pass into the chroot.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" = 0 ] || { echo "test-bare-node.sh: run it as root (debootstrap, chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null ||
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
mirror=$("$top/scripts/debian-archive.sh") || exit 1
root=$(mktemp -d -p /var/tmp eb-bare.XXXXXX)
cleanup() {
	for m in dev/pts dev proc; do
		mountpoint -q "$root/$m" 2>/dev/null || continue
		umount "$root/$m" || umount -l "$root/$m" ||
			echo "test-bare-node.sh: $root/$m stays mounted" >&2
	done
	rm -rf --one-file-system "$root"
}
trap cleanup EXIT
n=0 fail=0
check() { # NAME WANT GOT
	n=$((n + 1))
	if [ "$2" = "$3" ]; then echo "ok $n - $1"; else
		fail=1; echo "not ok $n - $1"; printf '#   want: %s\n#   got:  %s\n' "$2" "$3"
	fi
}

timeout 900 debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.log" 2>&1 ||
	{ echo "test-bare-node.sh: debootstrap failed (log: $root.log)" >&2; exit 1; }
rm -f "$root.log"
# (its apt sources: debootstrap's one line, that archive's bookworm; a root
# apt's own user must enter)
chmod 755 "$root"
cp /etc/resolv.conf "$root/etc/"
for f in /etc/npmrc /root/.npmrc; do [ -e "$f" ] && cp "$f" "$root$f"; done
# This machine's authorities, kept when the chroot's ca-certificates
# (which npm brings) rebuilds the bundle.
mkdir -p "$root/usr/local/share/ca-certificates"
cp /etc/ssl/certs/ca-certificates.crt "$root/usr/local/share/ca-certificates/host.crt"
mkdir -p "$root/repo/scripts" "$root/repo/node-binding"
cp "$top/scripts/check-node.sh" "$top/scripts/setup-node.sh" "$root/repo/scripts/"
cp "$top/node-binding/package.json" "$root/repo/node-binding/"
mount -t proc proc "$root/proc" && mount --bind /dev "$root/dev" && mount --bind /dev/pts "$root/dev/pts" ||
	{ echo "test-bare-node.sh: could not mount /proc and /dev in the chroot" >&2; exit 1; }
proxies=()
for v in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY; do
	[ -n "${!v:-}" ] && proxies+=("$v=${!v}")
done
in_root() { # (10 minutes at most: a stalled archive or registry fails the test)
	timeout 600 chroot "$root" env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		NODE_EXTRA_CA_CERTS=/usr/local/share/ca-certificates/host.crt "${proxies[@]}" bash -c "$1"
}

check "a bare Debian 12 has no node and no npm" "" "$(in_root 'command -v node npm')"
packages='dpkg-query -W -f "\${Package} \${db:Status-Abbrev}\n"'
# (a package purged is as one never installed: not listed, or "un"/"pn")
before=$(in_root "$packages" | awk '$2 !~ /^.n/')
out=$(in_root '/repo/scripts/setup-node.sh' 2>&1); rc=$?
echo "$out" | sed 's/^/# /'
check "setup-node.sh installs Node 24 there" 0 "$rc"
check "node and npm on PATH are the ones it installed" \
	"/usr/local/bin/node /usr/local/lib/eventboost-node/bin/node /usr/local/bin/npm" \
	"$(in_root 'echo $(command -v node) $(readlink -f /usr/local/bin/node) $(command -v npm)')"
check "Node 24 with its headers, npm 11" "24 node.h 11" \
	"$(in_root 'node -p "process.versions.node.split(\".\")[0]"; ls /usr/local/lib/eventboost-node/include/node/node.h | xargs basename; npm --version | cut -d. -f1' 2>&1 | paste -sd' ')"
check "npm reads the global settings in /etc/npmrc" /etc/npmrc "$(in_root 'npm config get globalconfig 2>/dev/null')"
check "check-node.sh accepts it" 0 "$(in_root '/repo/scripts/check-node.sh >/dev/null 2>&1; echo $?')"
check "every package apt installed for the fetch is gone: dpkg's packages as before" \
	"$before" "$(in_root "$packages" | awk '$2 !~ /^.n/')"
out=$(in_root '/repo/scripts/setup-node.sh' 2>&1); rc=$?
check "a second run changes nothing and says nothing" "0:" "$rc:$out"
echo "1..$n"
exit $fail
