#!/bin/bash
# DKMS as a kernel upgrade runs it: the installed sources build for every
# kernel of the matrix (the 7.2 ones from their source trees), and a kernel
# outside the supported range, or without cpufreq, is skipped with a reason,
# not a failed build.
#   scripts/test-dkms.sh KVER...   TAP
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
d=$top/build/dkms-src tree=$top/build/dkms-tree
rm -rf "$d" "$tree" && mkdir -p "$tree"
TAP_NAME=dkms
. "$top/selftests/tap.sh"
echo "1..$(($# + 3))"
t "make install-dkms DESTDIR" 'make -s -C "$top" install-dkms DESTDIR="$d" >/dev/null'
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$d"/usr/src/eventboost-*/dkms.conf)
for k in "$@"; do
	t "dkms builds the installed sources for $k" \
		'dkms build -m eventboost -v "$ver" -k "$k" --sourcetree "$d/usr/src" \
		     --dkmstree "$tree" >"$tree/build-$k.log" 2>&1 &&
		 modinfo -F version "$tree"/eventboost/"$ver"/"$k"/*/module/eventboost.ko* | grep -qx "$ver" ||
		 { sed "s/^/# /" "$tree/build-$k.log"; false; }'
done
# A kernel DKMS must not build for: no headers are needed to be refused.
old=5.10.0-99-amd64
t "a kernel outside the range is skipped (77) and told why" \
	'dkms build -m eventboost -v "$ver" -k "$old" --sourcetree "$d/usr/src" \
	     --dkmstree "$tree" >"$tree/build-$old.log" 2>&1; [ $? = 77 ] &&
	 grep -q "supports Linux 6.1 to 7.2; not building for $old" "$tree/build-$old.log" ||
	 { sed "s/^/# /" "$tree/build-$old.log"; false; }'
# A kernel in the range without cpufreq: its configuration alone says so.
nocf=6.12.0-99-nocpufreq
mkdir -p "$tree/src-$nocf" && echo '# CONFIG_CPU_FREQ is not set' >"$tree/src-$nocf/.config"
t "a kernel without CONFIG_CPU_FREQ is skipped (77) and told why" \
	'dkms build -m eventboost -v "$ver" -k "$nocf" --kernelsourcedir "$tree/src-$nocf" \
	     --sourcetree "$d/usr/src" --dkmstree "$tree" >"$tree/build-$nocf.log" 2>&1; [ $? = 77 ] &&
	 grep -q "needs CONFIG_CPU_FREQ; $nocf has none" "$tree/build-$nocf.log" ||
	 { sed "s/^/# /" "$tree/build-$nocf.log"; false; }'
exit $rc
