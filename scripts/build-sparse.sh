#!/bin/bash
# Build (once) sparse from Debian unstable's source for the kernels whose
# checker test Debian 12's sparse 0.6.4 fails (7.2 wants __typeof_unqual__):
# there, `C=2` would print "sparse is not available or not up to date" and
# check nothing.  sid's binary needs a newer glibc; its source builds with
# the system compiler in seconds.  Cached outside the repo.
#   scripts/build-sparse.sh       prints the sparse binary's path
# Env: EB_SID_CACHE (default /var/cache/eventboost/sid).
set -euo pipefail
cache=${EB_SID_CACHE:-/var/cache/eventboost/sid}
here=$(cd "$(dirname "$0")" && pwd)
dir=$cache/sparse
bin=$(ls -d "$dir"/*/sparse 2>/dev/null | sort -V | tail -1 || true)
if [ -n "$bin" ] && [ -x "$bin" ]; then
	echo "$bin"
	exit 0
fi
rm -rf "$dir" && mkdir -p "$dir/src"
(cd "$dir/src" && "$here/sid-apt.sh" source --download-only sparse)
orig=$(ls "$dir"/src/sparse_*.orig.tar.* | sort -V | tail -1)
ver=$(basename "$orig"); ver=${ver#sparse_}; ver=${ver%.orig.tar.*}
mkdir -p "$dir/$ver"
tar -xf "$orig" -C "$dir/$ver" --strip-components=1
if ! make -C "$dir/$ver" -j"$(nproc)" sparse >"$dir/build.log" 2>&1; then
	tail -20 "$dir/build.log" >&2
	echo "error: building sparse $ver failed (log: $dir/build.log)" >&2
	exit 1
fi
echo "sparse: built $ver from Debian unstable's source" >&2
echo "$dir/$ver/sparse"
