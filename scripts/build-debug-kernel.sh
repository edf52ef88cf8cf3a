#!/bin/bash
# Build (once) a 6.12 debug kernel from Debian's linux-source-6.12 for the
# check-debug lane: KASAN, lockdep, DEBUG_ATOMIC_SLEEP, kmemleak, plus what
# virtme-ng needs to boot it.  The result is cached outside the repo, keyed
# by the source package version and CONFIG_REV, and is a full
# build tree, so out-of-tree modules build with `make -C <tree> M=...`.
#   scripts/build-debug-kernel.sh       prints the tree's path on stdout
# Env: EB_DEBUG_CACHE (default /var/cache/eventboost/debug-kernel), JOBS.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tarball=/usr/src/linux-source-6.12.tar.xz
if [ ! -r "$tarball" ]; then
	echo "error: $tarball missing (apt-get install linux-source-6.12; scripts/setup-deps.sh does)" >&2
	exit 2
fi
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || stat -c %Y "$tarball")
# Bump when the options below change, so the cache is rebuilt.
CONFIG_REV=2
self=r$CONFIG_REV
cache=${EB_DEBUG_CACHE:-/var/cache/eventboost/debug-kernel}
tree=$cache/$srcver-$self/linux
if [ -e "$tree/.eb-built" ]; then
	echo "$tree"
	exit 0
fi
mkdir -p "$cache"
# Earlier keys are stale: drop them (each tree is several GB).
find "$cache" -mindepth 1 -maxdepth 1 ! -name "$srcver-$self" -exec rm -rf {} +
rm -rf "$tree"
mkdir -p "$tree"
log=$cache/$srcver-$self/build.log
echo "debug kernel: building in $tree (log: $log); this takes a while" >&2
start=$(date +%s)
{
	tar -xJf "$tarball" -C "$tree" --strip-components=1
	cd "$tree"
	# vng's own base: defconfig plus what a virtme guest needs (virtio,
	# 9p/virtiofs, overlayfs, serial console, ...).
	virtme-configkernel --defconfig
	c=scripts/config
	# The lane's purpose: memory errors, lock order, sleeping in atomic
	# context, leaks.  Inline KASAN is the faster instrumentation.
	$c -e KASAN -e KASAN_GENERIC -e KASAN_INLINE -d KASAN_VMALLOC \
	   -e PROVE_LOCKING -e DEBUG_ATOMIC_SLEEP -e DEBUG_SPINLOCK \
	   -e DEBUG_MUTEXES -e DEBUG_LOCK_ALLOC \
	   -e DEBUG_KMEMLEAK -d DEBUG_KMEMLEAK_DEFAULT_OFF \
	   -e DEBUG_KMEMLEAK_AUTO_SCAN --set-val DEBUG_KMEMLEAK_MEM_POOL_SIZE 65536 \
	   -e DEBUG_FS -e DEBUG_FS_ALLOW_ALL
	# What the suite needs (kconfig-suite.sh), and the release name.
	"$here/kconfig-suite.sh"
	$c \
	   --set-str LOCALVERSION -ebdebug -d LOCALVERSION_AUTO
	make olddefconfig
	for opt in KASAN PROVE_LOCKING DEBUG_ATOMIC_SLEEP DEBUG_KMEMLEAK CPU_FREQ \
		   MODULES HOTPLUG_CPU FTRACE USER_NS; do
		grep -q "^CONFIG_$opt=y" .config || { echo "error: CONFIG_$opt not set" >&2; exit 1; }
	done
	make -j"${JOBS:-$(nproc)}" bzImage modules
	make modules_prepare
} >"$log" 2>&1 || { tail -50 "$log" >&2; echo "error: debug kernel build failed (log: $log)" >&2; exit 1; }
echo "$(( $(date +%s) - start ))" >"$tree/.eb-built"
echo "debug kernel: built $(make -s -C "$tree" kernelrelease) in $(cat "$tree/.eb-built") s" >&2
echo "$tree"
