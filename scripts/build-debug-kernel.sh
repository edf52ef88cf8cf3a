#!/bin/bash
# Build (once) a 6.12 debug kernel from Debian's linux-source-6.12 for the
# check-debug lane, plus what virtme-ng needs to boot it:
#   generic  KASAN, lockdep, DEBUG_ATOMIC_SLEEP, kmemleak;
#   rt       PREEMPT_RT with lockdep (raw-lock nesting: a sleeping lock
#            taken under a raw one is reported even where RT would not
#            sleep that time) and DEBUG_ATOMIC_SLEEP; no KASAN or kmemleak
#            (the generic kernel's), so that RT's own checks run at a speed
#            the whole suite fits in.
# The result is cached outside the repo, keyed by the source package
# version, the flavour and CONFIG_REV, and is a full build tree, so
# out-of-tree modules build with `make -C <tree> M=...`.
#   scripts/build-debug-kernel.sh [generic|rt]   prints the tree's path
# Env: EB_DEBUG_CACHE (default /var/cache/eventboost/debug-kernel), JOBS.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
flavor=${1:-generic}
case $flavor in generic | rt) ;; *) echo "usage: $0 [generic|rt]" >&2; exit 2 ;; esac
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
# The generic tree keeps the key it always had.  (Not $(test && echo):
# under set -e an assignment from a failing substitution ends the script.)
sfx=
[ "$flavor" != rt ] || sfx=-rt
key=$srcver-$self$sfx
tree=$cache/$key/linux
if [ -e "$tree/.eb-built" ]; then
	echo "$tree"
	exit 0
fi
mkdir -p "$cache"
# Earlier keys of this flavour are stale: drop them (each tree is several
# GB); the other flavour's stay.
for d in "$cache"/*; do
	[ -d "$d" ] && [ "$d" != "$cache/$key" ] || continue
	case $d in *-rt) [ "$flavor" = rt ] ;; *) [ "$flavor" = generic ] ;; esac && rm -rf "$d"
done
rm -rf "$tree"
mkdir -p "$tree"
log=$cache/$key/build.log
echo "debug kernel: building the $flavor one in $tree (log: $log); this takes a while" >&2
start=$(date +%s)
# A subshell of its own with errexit on: a step that fails ends the build
# there, not a later step that happens to succeed (in a { } || list, or a
# subshell whose status is tested, bash ignores set -e).
set +e
(
	set -e
	tar -xJf "$tarball" -C "$tree" --strip-components=1
	cd "$tree"
	# vng's own base: defconfig plus what a virtme guest needs (virtio,
	# 9p/virtiofs, overlayfs, serial console, ...).
	virtme-configkernel --defconfig
	c=scripts/config
	# The lane's purpose: memory errors, lock order, sleeping in atomic
	# context, leaks.  Inline KASAN is the faster instrumentation.
	$c -e PROVE_LOCKING -e DEBUG_ATOMIC_SLEEP -e DEBUG_SPINLOCK \
	   -e DEBUG_MUTEXES -e DEBUG_LOCK_ALLOC -e DEBUG_FS -e DEBUG_FS_ALLOW_ALL
	# The suite's ebtest_pause.ko: a kretprobe on the ftrace path.
	$c -e KPROBES -e KRETPROBES -e FUNCTION_TRACER -e DYNAMIC_FTRACE
	if [ "$flavor" = rt ]; then
		$c -d PREEMPT -d PREEMPT_VOLUNTARY -d PREEMPT_NONE -d PREEMPT_LAZY \
		   -e EXPERT -e PREEMPT_RT -e PROVE_RAW_LOCK_NESTING
		want="PREEMPT_RT PROVE_RAW_LOCK_NESTING"
	else
		$c -e KASAN -e KASAN_GENERIC -e KASAN_INLINE -d KASAN_VMALLOC \
		   -e DEBUG_KMEMLEAK -d DEBUG_KMEMLEAK_DEFAULT_OFF \
		   -e DEBUG_KMEMLEAK_AUTO_SCAN --set-val DEBUG_KMEMLEAK_MEM_POOL_SIZE 65536
		want="KASAN DEBUG_KMEMLEAK"
	fi
	# What the suite needs (kconfig-suite.sh), and the release name.
	"$here/kconfig-suite.sh"
	$c \
	   --set-str LOCALVERSION "-ebdebug$sfx" -d LOCALVERSION_AUTO
	make olddefconfig
	for opt in $want PROVE_LOCKING DEBUG_ATOMIC_SLEEP CPU_FREQ \
		   MODULES HOTPLUG_CPU FTRACE USER_NS KRETPROBES KPROBES_ON_FTRACE; do
		grep -q "^CONFIG_$opt=y" .config || { echo "error: CONFIG_$opt not set" >&2; exit 1; }
	done
	make -j"${JOBS:-$(nproc)}" bzImage modules
	make modules_prepare
) >"$log" 2>&1
st=$?
set -e
if [ "$st" != 0 ]; then
	tail -50 "$log" >&2
	echo "error: the $flavor debug kernel's build failed (log: $log)" >&2
	exit 1
fi
echo "$(( $(date +%s) - start ))" >"$tree/.eb-built"
echo "debug kernel: built $(make -s -C "$tree" kernelrelease) in $(cat "$tree/.eb-built") s" >&2
echo "$tree"
