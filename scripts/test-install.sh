#!/bin/bash
# make install into a scratch DESTDIR: check what lands, build a program
# against the installed header, library and pkg-config file, uninstall.  TAP.
set -uo pipefail
# pkg-config hides -I/usr/include and -L/usr/lib unless told: the sysroot needs them.
export PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1
top=$(cd "$(dirname "$0")/.." && pwd)
kver=$1
d=$top/build/destdir
rm -rf "$d"
n=0 rc=0
t() { n=$((n + 1)); if eval "$2"; then echo "ok $n - install: $1"; else echo "not ok $n - install: $1"; rc=1; fi; }
echo "1..5"
t "make install DESTDIR" 'make -s -C "$top" install DESTDIR="$d" PREFIX=/usr KVER="$kver" >/dev/null'
files="lib/modules/$kver/extra/eventboost.ko usr/lib/libeventboost.so.0.1.0 usr/lib/libeventboost.so.1
usr/lib/libeventboost.so usr/lib/libeventboost.a usr/lib/pkgconfig/eventboost.pc usr/include/eventboost.h
usr/include/linux/eventboost.h usr/bin/ebctl lib/udev/rules.d/60-eventboost.rules"
t "every file landed" 'for f in $files; do [ -e "$d/$f" ] || { echo "# missing $f"; exit 1; }; done'
t "soname is libeventboost.so.1" 'objdump -p "$d/usr/lib/libeventboost.so.0.1.0" | grep -q "SONAME *libeventboost.so.1"'
cat > "$top/build/destdir-prog.c" <<'C'
#include <eventboost.h>
#include <stdio.h>
int main(void) { struct eb_client *c; int r = eb_open(&c, "/nonexistent"); puts(eb_strerror(r)); return r == -2 ? 0 : 1; }
C
t "a program builds from pkg-config and runs" \
	'PKG_CONFIG_SYSROOT_DIR="$d" PKG_CONFIG_LIBDIR="$d/usr/lib/pkgconfig" \
	 cc -o "$top/build/destdir-prog" "$top/build/destdir-prog.c" $(PKG_CONFIG_SYSROOT_DIR="$d" PKG_CONFIG_LIBDIR="$d/usr/lib/pkgconfig" pkg-config --cflags --libs eventboost) &&
	 LD_LIBRARY_PATH="$d/usr/lib" "$top/build/destdir-prog" | grep -q modprobe'
t "make uninstall removes it all" 'make -s -C "$top" uninstall DESTDIR="$d" PREFIX=/usr KVER="$kver" >/dev/null &&
	[ -z "$(find "$d" -type f -o -type l)" ]'
exit $rc
