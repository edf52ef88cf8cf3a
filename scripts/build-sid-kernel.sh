#!/bin/bash
# Build (once) a Linux 7.2 kernel from Debian unstable's linux-source-7.2
# with the system compiler, for the test matrix: sid's prebuilt images and
# headers need a newer gcc and glibc than Debian 12 has.
#   scripts/build-sid-kernel.sh [generic|rt]    prints the build tree's path
# The source package comes through scripts/sid-apt.sh (the system's own
# sources never see sid, so nothing else upgrades).  The result
# is cached outside the repo, keyed by the package version and CONFIG_REV,
# as a full build tree: out-of-tree modules build with make -C TREE M=...,
# and /lib/modules/RELEASE/build points at it for DKMS.
# Env: EB_SID_CACHE (default /var/cache/eventboost/sid), JOBS.
set -euo pipefail
flavor=${1:-generic}
case $flavor in generic | rt) ;; *) echo "usage: $0 [generic|rt]" >&2; exit 2 ;; esac
# Bump when the options below change, so the cache is rebuilt.
CONFIG_REV=2
pkg=linux-source-7.2
cache=${EB_SID_CACHE:-/var/cache/eventboost/sid}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$cache"
# One build at a time: a second caller (another make check or make
# experiment) waits for the first and then finds its tree built, where it
# would have deleted that tree under the first one's make.  One lock for
# both flavours (a caller of one may wait through the other's build), and
# a waiter whose build failed under the first caller builds it again.
exec 9>"$cache/.lock"
if ! flock -n 9; then
	echo "sid kernel: another build is under way (it holds $cache/.lock): waiting for it" >&2
	flock 9
fi

deb=$(ls "$cache"/${pkg}_*_all.deb 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$deb" ]; then
	echo "sid kernel: fetching $pkg (scripts/sid-apt.sh: sid's lists in $cache)" >&2
	(cd "$cache" && "$here/sid-apt.sh" download "$pkg")
	deb=$(ls "$cache"/${pkg}_*_all.deb | sort -V | tail -1)
fi
srcver=$(dpkg-deb -f "$deb" Version)
key=$srcver-$flavor-r$CONFIG_REV
tree=$cache/$key/linux

# Where kbuild.sh, kernels.sh and DKMS look for a kernel's headers, and
# guest.sh for its image: a copy outside the tree (given the tree's own
# image, vng would take the tree for a source directory to set up).
install_links() {
	local rel
	rel=$(make -s -C "$tree" kernelrelease)
	mkdir -p "/lib/modules/$rel"
	ln -sfn "$tree" "/lib/modules/$rel/build"
	cmp -s "$tree/arch/x86/boot/bzImage" "/lib/modules/$rel/vmlinuz" ||
		cp "$tree/arch/x86/boot/bzImage" "/lib/modules/$rel/vmlinuz"
	echo "$rel"
}

if [ -e "$tree/.eb-built" ]; then
	install_links >/dev/null
	echo "$tree"
	exit 0
fi
# Earlier keys of this flavour are stale: drop them (each tree is GBs).
find "$cache" -mindepth 1 -maxdepth 1 -name "*-$flavor-r*" ! -name "$key" -exec rm -rf {} +
rm -rf "$tree"
mkdir -p "$tree"
log=$cache/$key/build.log
echo "sid kernel: building $srcver ($flavor) in $tree (log: $log); this takes a while" >&2
start=$(date +%s)
# A subshell of its own with errexit on: a step that fails ends the build
# there.  (In a { } || list bash ignores set -e: a failed make bzImage
# followed by a make modules_prepare that succeeded passed as built.)
set +e
(
	set -e
	dpkg-deb --fsys-tarfile "$deb" | tar -xO --wildcards '*/linux-source-7.2.tar.xz' |
		tar -xJ -C "$tree" --strip-components=1
	cd "$tree"
	# vng's own base: defconfig plus what a virtme guest needs.
	virtme-configkernel --defconfig
	c=scripts/config
	# What a guest never has: graphics, sound, USB, RAID, ATA disks.  (KVM
	# stays: it selects PREEMPT_NOTIFIERS, as in Debian's kernels.)
	$c -d DRM -d SOUND -d USB_SUPPORT -d AGP -d MD -d ATA -d FB
	# What the suite needs (kconfig-suite.sh), per-task uclamp for the
	# evaluation's comparison, and the release name.
	"$here/kconfig-suite.sh"
	$c -e UCLAMP_TASK --set-val UCLAMP_BUCKETS_COUNT 5 \
	   --set-str LOCALVERSION "-eb$([ "$flavor" = rt ] && echo -rt)" -d LOCALVERSION_AUTO
	if [ "$flavor" = rt ]; then
		$c -d PREEMPT -d PREEMPT_VOLUNTARY -d PREEMPT_NONE \
			-d PREEMPT_LAZY -e PREEMPT_RT -e EXPERT
	fi
	make olddefconfig
	for opt in CPU_FREQ CPU_FREQ_GOV_SCHEDUTIL UCLAMP_TASK MODULES HOTPLUG_CPU FTRACE USER_NS \
		   $([ "$flavor" = rt ] && echo PREEMPT_RT); do
		grep -q "^CONFIG_$opt=y" .config || { echo "error: CONFIG_$opt not set" >&2; exit 1; }
	done
	make -j"${JOBS:-$(nproc)}" bzImage modules
	make modules_prepare
) >"$log" 2>&1
st=$?
set -e
if [ "$st" != 0 ]; then
	tail -50 "$log" >&2
	echo "error: $pkg build failed (log: $log)" >&2
	exit 1
fi
echo "$(( $(date +%s) - start ))" >"$tree/.eb-built"
rel=$(install_links)
echo "sid kernel: built $rel in $(cat "$tree/.eb-built") s" >&2
echo "$tree"
