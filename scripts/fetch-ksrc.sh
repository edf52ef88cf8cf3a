#!/bin/bash
# Take kselftest.h, kselftest_harness.h and checkpatch.pl from Debian's
# linux-source-6.12 (installed by setup-deps.sh) into build/ksrc.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dst=$top/build/ksrc
[ -f "$dst/scripts/checkpatch.pl" ] && [ -f "$dst/kselftest_harness.h" ] && exit 0
tarball=$(ls /usr/src/linux-source-6.12*.tar.* 2>/dev/null | sort -V | tail -1)
if [ -z "$tarball" ]; then
	echo "error: /usr/src/linux-source-6.12.tar.xz missing: apt-get install linux-source-6.12" >&2
	exit 1
fi
tmp=$(mktemp -d)
tar -xf "$tarball" -C "$tmp" --wildcards --strip-components=1 \
	'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
	'*/scripts/const_structs.checkpatch' \
	'*/tools/testing/selftests/kselftest.h' \
	'*/tools/testing/selftests/kselftest_harness.h'
mkdir -p "$dst/scripts"
cp "$tmp"/scripts/* "$dst/scripts/"
cp "$tmp"/tools/testing/selftests/kselftest*.h "$dst/"
rm -rf "$tmp"
