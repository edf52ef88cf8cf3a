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
echo "1..27"
t "make install DESTDIR" 'make -s -C "$top" install DESTDIR="$d" PREFIX=/usr KVER="$kver" >/dev/null'
t "make install-dkms DESTDIR" 'make -s -C "$top" install-dkms DESTDIR="$d" >/dev/null'
# PREFIX=/usr on Debian: the library goes to the multiarch directory.
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
L=usr/lib/$ma
files="lib/modules/$kver/extra/eventboost.ko $L/libeventboost.so.1.3.0 $L/libeventboost.so.1
$L/libeventboost.so $L/libeventboost.a $L/pkgconfig/eventboost.pc usr/include/eventboost.h
usr/include/eventboost/linux/eventboost.h usr/bin/ebctl lib/udev/rules.d/60-eventboost.rules
usr/share/man/man8/ebctl.8 usr/share/bash-completion/completions/ebctl usr/share/man/man8/eventboost-select-governor.8
usr/sbin/eventboost-select-governor lib/systemd/system/eventboost-governor.service
usr/share/doc/eventboost/default-eventboost usr/share/doc/eventboost/modprobe-eventboost.conf
usr/src/eventboost-0.1.0/dkms.conf usr/src/eventboost-0.1.0/Kbuild usr/src/eventboost-0.1.0/governor/eb_main.c
usr/src/eventboost-0.1.0/uapi/linux/eventboost.h"
t "every file landed" 'for f in $files; do [ -e "$d/$f" ] || { echo "# missing $f"; exit 1; }; done'
t "soname libeventboost.so.1 matches the file libeventboost.so.1.3.0" \
	'objdump -p "$d/$L/libeventboost.so.1.3.0" | grep -c "SONAME *libeventboost.so.1$" >/dev/null'
t "nothing under /usr/include/linux (the kernel headers package owns it)" '[ ! -e "$d/usr/include/linux" ]'
t "ebctl is linked with full RELRO and BIND_NOW" \
	'readelf -d "$d/usr/bin/ebctl" | grep -c BIND_NOW >/dev/null && readelf -l "$d/usr/bin/ebctl" | grep -c GNU_RELRO >/dev/null'
cat > "$top/build/destdir-prog.c" <<'C'
#include <eventboost.h>
#include <linux/eventboost.h>
#include <stdio.h>
int main(void) { struct eb_client *c; int r = eb_open(&c, "/nonexistent"); puts(eb_strerror(r)); return r == -2 ? 0 : 1; }
C
t "a program builds from pkg-config and runs" \
	'PKG_CONFIG_SYSROOT_DIR="$d" PKG_CONFIG_LIBDIR="$d/$L/pkgconfig" \
	 cc -o "$top/build/destdir-prog" "$top/build/destdir-prog.c" $(PKG_CONFIG_SYSROOT_DIR="$d" PKG_CONFIG_LIBDIR="$d/$L/pkgconfig" pkg-config --cflags --libs eventboost) &&
	 LD_LIBRARY_PATH="$d/$L" "$top/build/destdir-prog" | grep -q modprobe'
t "the man pages render without groff warnings" \
	'[ -z "$(groff -man -ww -z "$d"/usr/share/man/man8/*.8 2>&1)" ] &&
	 man -l "$d/usr/share/man/man8/ebctl.8" 2>/dev/null | grep -c "EXIT STATUS" >/dev/null'
complete_ebctl() { # words... : what bash would offer for the last one
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ebctl; echo "${COMPREPLY[*]}"' \
		_ "$d/usr/share/bash-completion/completions/ebctl" "$@"
}
t "bash completion: commands, keys, sysfs names, options" \
	'[ "$(complete_ebctl ebctl s)" = "status set" ] &&
	 [ "$(complete_ebctl ebctl set bu)" = "budget= budget_pct=" ] &&
	 [ "$(complete_ebctl ebctl status --w)" = "--watch --watch=" ] &&
	 [ "$(complete_ebctl ebctl boost --)" = "--for --cpu --help" ]'
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
# A distribution build: its flags are appended to ours (a define shows it),
# warnings are not errors, the library and tools install without kernel headers.
u=$top/build/destdir-user
rm -rf "$u"
t "make install with no kernel headers installs the library and tools, and says why not the module" \
	'make -s -C "$top" install DESTDIR="$u" PREFIX=/usr KVER=0.0-none >/dev/null 2>"$u.err" &&
	 grep -q "not installing the module" "$u.err" && [ -x "$u/usr/bin/ebctl" ] &&
	 [ -e "$u/$L/libeventboost.so.1" ] && [ ! -d "$u/lib/modules" ]'
# dpkg-buildflags' hardening set: stack protector (CFLAGS), fortify
# (CPPFLAGS), relro/now (LDFLAGS).  Neither of the first two is on by default.
export DEB_BUILD_MAINT_OPTIONS=hardening=+all
t "CFLAGS, CPPFLAGS and LDFLAGS (dpkg-buildflags) are honoured, ours kept" \
	'rm -rf "$top/build/userlib-flags" &&
	 make -s -C "$top/userlib" OUT="$top/build/userlib-flags" CPPFLAGS="$(dpkg-buildflags --get CPPFLAGS)" \
	      CFLAGS="$(dpkg-buildflags --get CFLAGS) -frecord-gcc-switches" \
	      LDFLAGS="$(dpkg-buildflags --get LDFLAGS) -Wl,--build-id=sha1" >/dev/null &&
	 readelf --dyn-syms -W "$top/build/userlib-flags/ebctl" | grep -c __stack_chk_fail >/dev/null &&
	 readelf --dyn-syms -W "$top/build/userlib-flags/ebctl" | grep -c __snprintf_chk >/dev/null &&
	 readelf --dyn-syms -W "$top/build/userlib-flags/libeventboost.so.1.3.0" | grep -c __stack_chk_fail >/dev/null &&
	 readelf -p .GCC.command.line "$top/build/userlib-flags/ebctl.o" | grep -c -- -std=gnu11 >/dev/null &&
	 readelf -d "$top/build/userlib-flags/libeventboost.so.1.3.0" | grep -c BIND_NOW >/dev/null'
t "libeventboost and ebctl build warning-free (WERROR=1, as make check wants)" \
	'rm -rf "$top/build/userlib-werror" &&
	 make -s -C "$top/userlib" OUT="$top/build/userlib-werror" WERROR=1 >/dev/null'
t "no -Werror unless WERROR=1" \
	'plain=$(make -n -B -C "$top/userlib" OUT="$top/build/userlib-flags") &&
	 strict=$(make -n -B -C "$top/userlib" OUT="$top/build/userlib-flags" WERROR=1) &&
	 [[ $plain == *-Wall* && $plain != *-Werror* && $strict == *-Werror* ]]'
t "LIBDIR=/usr/lib64 puts the library and pkg-config file there" \
	'rm -rf "$u" && make -s -C "$top" install-user DESTDIR="$u" PREFIX=/usr LIBDIR=/usr/lib64 >/dev/null &&
	 [ -e "$u/usr/lib64/libeventboost.so.1.3.0" ] && grep -qx "libdir=/usr/lib64" "$u/usr/lib64/pkgconfig/eventboost.pc"'
rm -rf "$u" "$u.err"
# Start saves what each policy ran, stop gives it back (not a fixed
# schedutil), and leaves alone a policy the operator changed meanwhile.
rm -rf "$f" "$f.run"
for i in 0 1 2; do
	mkdir -p "$f/policy$i"
	echo "performance powersave schedutil eventboost" > "$f/policy$i/scaling_available_governors"
	echo acpi-cpufreq > "$f/policy$i/scaling_driver"
done
echo powersave > "$f/policy0/scaling_governor"
echo performance > "$f/policy1/scaling_governor"
echo schedutil > "$f/policy2/scaling_governor"
sel() { EBCTL_CPUFREQ_DIR=$f EVENTBOOST_STATE_DIR=$f.run "$d/usr/sbin/eventboost-select-governor" "$@"; }
govs() { echo $(cat "$f"/policy*/scaling_governor); }
t "select-governor saves each policy's governor, and a restart keeps the first saved" \
	'sel all >/dev/null && sel all >/dev/null && [ "$(govs)" = "eventboost eventboost eventboost" ] &&
	 [ "$(cat "$f.run/policy0.governor")" = powersave ] && [ "$(cat "$f.run/policy1.governor")" = performance ]'
echo schedutil > "$f/policy2/scaling_governor"	# the operator, meanwhile
t "--restore gives each policy back its own governor, leaves a changed one alone" \
	'sel --restore --governor schedutil all >/dev/null && [ "$(govs)" = "powersave performance schedutil" ] &&
	 [ -z "$(ls "$f.run")" ]'
t "--restore without saved state uses the fallback governor" \
	'echo eventboost > "$f/policy1/scaling_governor" && sel --restore --governor powersave 1 >/dev/null &&
	 [ "$(cat "$f/policy1/scaling_governor")" = powersave ]'
# EVENTBOOST_SETTINGS (/etc/default/eventboost): the tunables the unit sets at
# start, by the ebctl installed beside the selector, on the policies selected.
for i in 0 1 2; do
	echo "$i" > "$f/policy$i/affected_cpus"
	echo 800000 > "$f/policy$i/cpuinfo_min_freq"
	echo 4000000 > "$f/policy$i/cpuinfo_max_freq"
	mkdir -p "$f/policy$i/eventboost"
	echo 0 > "$f/policy$i/eventboost/base_freq"
	echo 50 > "$f/policy$i/eventboost/budget_pct"
done
# (ebctl writes no newline, as into sysfs.)
tun() { echo $(for x in "$f"/policy*/eventboost/"$1"; do echo "$(cat "$x")"; done); }
cat "$f/policy0/scaling_governor" > "$f/gov0.before"
t "select-governor sets EVENTBOOST_SETTINGS with ebctl on the policies it selected only" \
	'EVENTBOOST_SETTINGS="base=1.6GHz budget_pct=30" sel 0 1 >/dev/null &&
	 [ "$(tun base_freq)" = "1600000 1600000 0" ] && [ "$(tun budget_pct)" = "30 30 50" ]'
t "select-governor: settings ebctl refuses fail the start, say why, change nothing, give the governor back" \
	'EVENTBOOST_SETTINGS="budget=40% base=9GHz" sel 0 >/dev/null 2>"$f/err"; [ $? = 1 ] &&
	 grep -q "outside policy0" "$f/err" && grep -q "EVENTBOOST_SETTINGS=.* not applied" "$f/err" &&
	 [ "$(tun base_freq)" = "1600000 1600000 0" ] && [ "$(tun budget_pct)" = "30 30 50" ] &&
	 [ "$(cat "$f/policy0/scaling_governor")" = "$(cat "$f/gov0.before")" ] && [ ! -e "$f.run/policy0.governor" ]'
t "no cpufreq policy (a VM): the selector says why and fails" \
	'mkdir -p "$f.empty" && EBCTL_CPUFREQ_DIR=$f.empty "$d/usr/sbin/eventboost-select-governor" all 2>"$f/err"; [ $? = 1 ] &&
	 grep -q "hypervisor owns the clock" "$f/err"'
rm -rf "$f.run" "$f.empty"
u=$d/lib/systemd/system/eventboost-governor.service
t "the unit is skipped, not failed, without policies, and comes after the drivers" \
	'grep -qx "ConditionPathExistsGlob=/sys/devices/system/cpu/cpufreq/policy\*" "$u" &&
	 ! grep -q "^ConditionPathIsDirectory" "$u" && grep -q "^After=.*systemd-modules-load.service" "$u" &&
	 grep -q "^WantedBy=sys-module-acpi_cpufreq.device" "$u" &&
	 grep -q "SUBSYSTEM==\"module\", KERNEL==\"acpi_cpufreq|cppc_cpufreq\", TAG+=\"systemd\"" "$d/lib/udev/rules.d/60-eventboost.rules" &&
	 grep -q "^ExecStop=/usr/sbin/eventboost-select-governor --restore " "$u" &&
	 grep -q "^Conflicts=tuned.service tlp.service cpupower.service" "$u"'
t "systemd-analyze verify: the unit and its hardening options are clean" \
	'sed "s,@SBINDIR@,$d/usr/sbin," "$top/packaging/eventboost-governor.service" > "$f/eventboost-governor.service" &&
	 out=$(systemd-analyze verify --man=no "$f/eventboost-governor.service" 2>&1) && [ -z "$out" ] &&
	 grep -q "^ProtectSystem=strict" "$u" && grep -q "^NoNewPrivileges=yes" "$u" && ! grep -q "^ProtectKernelTunables" "$u" || { echo "# $out"; false; }'
t "the CDI spec is a device eventboost/hint=hint, in CDI 0.3.0 (what older runtimes read)" \
	'python3 -c "import json,sys; s=json.load(open(sys.argv[1])); d=s[\"devices\"][0]; n=d[\"containerEdits\"][\"deviceNodes\"][0]
sys.exit(0 if s[\"cdiVersion\"] == \"0.3.0\" and s[\"kind\"] == \"eventboost/hint\" and d[\"name\"] == \"hint\" and n[\"path\"] == \"/dev/eventboost\" and n[\"fileMode\"] == 0o666 else 1)" "$d/usr/share/doc/eventboost/cdi-eventboost.json"'
t "make uninstall and uninstall-dkms remove it all" \
	'make -s -C "$top" uninstall uninstall-dkms DESTDIR="$d" PREFIX=/usr KVER="$kver" >/dev/null &&
	[ -z "$(find "$d" -type f -o -type l)" ]'
exit $rc
