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
TAP_NAME=install
. "$top/selftests/tap.sh"
echo "1..9"
t "make install DESTDIR" 'make -s -C "$top" install DESTDIR="$d" PREFIX=/usr KVER="$kver" >/dev/null'
t "make install-dkms DESTDIR" 'make -s -C "$top" install-dkms DESTDIR="$d" >/dev/null'
files="lib/modules/$kver/extra/eventboost.ko usr/lib/libeventboost.so.0.1.0 usr/lib/libeventboost.so.1
usr/lib/libeventboost.so usr/lib/libeventboost.a usr/lib/pkgconfig/eventboost.pc usr/include/eventboost.h
usr/include/linux/eventboost.h usr/bin/ebctl lib/udev/rules.d/60-eventboost.rules
usr/sbin/eventboost-select-governor lib/systemd/system/eventboost-governor.service
usr/share/doc/eventboost/default-eventboost usr/share/doc/eventboost/modprobe-eventboost.conf
usr/src/eventboost-0.1.0/dkms.conf usr/src/eventboost-0.1.0/Kbuild usr/src/eventboost-0.1.0/governor/eb_main.c
usr/src/eventboost-0.1.0/uapi/linux/eventboost.h"
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
t "the systemd unit runs the installed selector" \
	'grep -q "^ExecStart=/usr/sbin/eventboost-select-governor " "$d/lib/systemd/system/eventboost-governor.service"'
# DKMS builds the installed sources as it would on a kernel upgrade (it signs
# the module with its MOK key, /var/lib/dkms/mok.key, as on a real server).
rm -rf "$top/build/dkms" && mkdir -p "$top/build/dkms"
t "dkms builds the installed sources for $kver" \
	'dkms build -m eventboost -v 0.1.0 -k "$kver" --sourcetree "$d/usr/src" \
	     --dkmstree "$top/build/dkms" >"$top/build/dkms.log" 2>&1 &&
	 modinfo -F version "$top"/build/dkms/eventboost/0.1.0/"$kver"/*/module/eventboost.ko* | grep -qx 0.1.0'
# The selector against a fake cpufreq tree: what it writes, and what it says.
f=$top/build/fake-cpufreq
rm -rf "$f"
for i in 0 1; do
	mkdir -p "$f/policy$i"
	echo schedutil > "$f/policy$i/scaling_governor"
done
echo "performance schedutil eventboost" > "$f/policy0/scaling_available_governors"
echo acpi-cpufreq > "$f/policy0/scaling_driver"
echo "performance powersave" > "$f/policy1/scaling_available_governors"
echo intel_pstate > "$f/policy1/scaling_driver"
t "select-governor selects where it can and says why not elsewhere" \
	'EBCTL_CPUFREQ_DIR=$f "$d/usr/sbin/eventboost-select-governor" all >/dev/null 2>"$f/err"; [ $? = 1 ] &&
	 [ "$(cat "$f/policy0/scaling_governor")" = eventboost ] &&
	 [ "$(cat "$f/policy1/scaling_governor")" = schedutil ] && grep -q "intel_pstate=passive" "$f/err"'
t "make uninstall and uninstall-dkms remove it all" \
	'make -s -C "$top" uninstall uninstall-dkms DESTDIR="$d" PREFIX=/usr KVER="$kver" >/dev/null &&
	[ -z "$(find "$d" -type f -o -type l)" ]'
exit $rc
