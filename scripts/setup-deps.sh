#!/bin/bash
# Install everything `make check` needs on a fresh Debian 12 machine.
# Idempotent: a second run only checks.  Must run as root (or with sudo).
#   setup-deps.sh [--user-node]
# --user-node: no Node step; the caller (make demo, bench or experiment as a
# user, through sudo) runs everything after it with its own Node, which
# check-node.sh has taken.
set -euo pipefail
user_node=
case ${1:-} in
--user-node) user_node=yes ;;
'') ;;
*) echo "setup-deps.sh: unknown argument '$1' (usage: setup-deps.sh [--user-node])" >&2; exit 1 ;;
esac

want_pkgs=(qemu-system-x86 busybox-static sparse flex bison bc libelf-dev
	   libssl-dev pkg-config kmod cpio zstd python3-pip trace-cmd linux-perf
	   g++ make python3 util-linux wrk dkms
	   debhelper dh-dkms lintian
	   # The npm package's linux-arm64 prebuilds: cross-compiled, then loaded
	   # by the arm64 Node under qemu-user.  qemu-user, not -static: a
	   # quarter of the size, and (without its recommended qemu-user-binfmt)
	   # it registers no binfmt handler, so arm64 binaries run only where
	   # qemu-aarch64 is called by name.
	   g++-aarch64-linux-gnu qemu-user
	   # A service in a container with the device passed in (the guest
	   # suite's container_test.sh): podman and its OCI runtime.
	   podman crun conmon catatonit
	   # A bare Debian 12 for setup-node.sh's test (test-bare-node.sh).
	   debootstrap)

newest() { # newest installed-or-available package matching a regex
	apt-cache search --names-only "$1" | awk '{print $1}' | sort -V | tail -1
}

# A dpkg run stopped half-way (an install killed, a power cut) leaves
# packages unpacked but not configured ("iU"), which dpkg -s still reports,
# and apt installs nothing until that run is finished: finish it first.
if [ -n "$(dpkg --audit 2>/dev/null)" ]; then
	echo "setup: finishing an interrupted dpkg run (dpkg --configure -a)"
	DEBIAN_FRONTEND=noninteractive dpkg --configure -a --force-confdef --force-confold >/dev/null
fi

installed() { [ "$(dpkg-query -W -f '${db:Status-Abbrev}' "$1" 2>/dev/null)" = "ii " ]; }
need=()
for p in "${want_pkgs[@]}"; do
	installed "$p" || need+=("$p")
done

# The test matrix: Debian's 6.1 (linux-image-amd64) and the newest 6.12 and
# 6.12-rt, each with both an image and headers (kernels.sh: an installed
# Debian has the image, and the headers come only with their own package).
missing=$("$(dirname "$0")/kernels.sh" --missing)
if grep -qx '6\.1' <<<"$missing"; then
	apt-get update -qq  # the image's ABI may be older than the mirror's
	need+=(linux-image-amd64 linux-headers-amd64)
fi
if grep -qx '6\.12\(-rt\)\?' <<<"$missing" ||
   ! ls -d /usr/src/linux-source-6.12* >/dev/null 2>&1; then
	apt-get update -qq
	img=$(newest '^linux-image-6\.12\.[0-9]+\+deb12-rt-amd64-unsigned$')
	ver=${img#linux-image-}; ver=${ver%-rt-amd64-unsigned}
	need+=("linux-image-$ver-amd64-unsigned" "linux-headers-$ver-amd64"
	       "linux-image-$ver-rt-amd64-unsigned" "linux-headers-$ver-rt-amd64"
	       linux-source-6.12)
fi

if ((${#need[@]})); then
	echo "setup: installing ${need[*]}"
	[ -n "$(find /var/lib/apt/lists -name '*Packages*' 2>/dev/null | head -1)" ] ||
		apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends "${need[@]}" >/dev/null
fi

# A Node the package supports, with npm and its headers (the addon builds
# against them offline): Debian 12's nodejs (18.x) is not one.  Where there
# is none, setup-node.sh installs one from the npm registry.  After the
# packages above: what it installs to fetch Node and removes again is then
# none of theirs.
[ -n "$user_node" ] || "$(dirname "$0")/setup-node.sh" || exit 1

if ! command -v vng >/dev/null 2>&1; then
	echo "setup: installing virtme-ng from PyPI"
	# Debian 12's own Python refuses system-wide pip installs (PEP 668,
	# "externally-managed-environment"): then pipx, a venv of its own.
	if ! pip install -q virtme-ng 2>/dev/null; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends pipx >/dev/null &&
		PIPX_HOME=/opt/pipx PIPX_BIN_DIR=/usr/local/bin pipx install virtme-ng ||
			{ echo "setup: could not install virtme-ng (pip, then pipx)" >&2; exit 1; }
	fi
fi
