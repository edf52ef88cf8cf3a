#!/bin/bash
# Build the Debian packages from the work tree (a copy in build/deb), check
# them with lintian and look inside; with KVER, also install them with
# dpkg -i in a KVER guest and run ebctl's guest tests against the installed
# files (scripts/deb-in-guest.sh).  TAP.  Needs debhelper, dh-dkms and
# lintian (apt-get install debhelper dh-dkms lintian).
#   test-deb.sh [KVER]
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
b=$top/build/deb
rm -rf "$b" && mkdir -p "$b/src"
TAP_NAME=deb
. "$top/selftests/tap.sh"
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
(cd "$top" && git ls-files -co --exclude-standard -z | grep -zv '^build/' |
	tar --null -T - -cf -) | tar -xf - -C "$b/src"
contents() { dpkg-deb -c "$b/$1" | awk '{print $6}'; }
echo "1..$([ -n "${1:-}" ] && echo 8 || echo 7)"
t "dpkg-buildpackage builds the four packages" \
	'(cd "$b/src" && dpkg-buildpackage -us -uc -b >"$b/build.log" 2>&1) &&
	 for p in eventboost-dkms_0.1.0_all eventboost_0.1.0_$arch libeventboost1_0.1.0_$arch libeventboost-dev_0.1.0_$arch; do
		[ -f "$b/$p.deb" ] || { echo "# missing $p.deb"; exit 1; }; done || { tail -20 "$b/build.log" | sed "s/^/# /"; false; }'
t "lintian: no error or warning" \
	'lintian --allow-root --fail-on error,warning --suppress-tags-from-file "$top/debian/lintian-justified" "$b"/*.changes >"$b/lintian.txt" 2>&1 ||
	 { sed "s/^/# /" "$b/lintian.txt"; false; }'
t "libeventboost1: the library in the multiarch directory, SONAME in shlibs" \
	'contents libeventboost1_0.1.0_$arch.deb | grep -qx "./usr/lib/$ma/libeventboost.so.1.3.0" &&
	 dpkg-deb -I "$b/libeventboost1_0.1.0_$arch.deb" shlibs | grep -q "^libeventboost 1 libeventboost1"'
t "libeventboost-dev: headers out of /usr/include/linux, pkg-config" \
	'c=$(contents libeventboost-dev_0.1.0_$arch.deb) && [[ $c == *./usr/include/eventboost/linux/eventboost.h* ]] &&
	 [[ $c != *./usr/include/linux/* ]] && [[ $c == *./usr/lib/$ma/pkgconfig/eventboost.pc* ]]'
t "eventboost-dkms: sources and dkms.conf, postinst runs dkms" \
	'c=$(contents eventboost-dkms_0.1.0_all.deb) && [[ $c == *./usr/src/eventboost-0.1.0/dkms.conf* ]] &&
	 dpkg-deb -I "$b/eventboost-dkms_0.1.0_all.deb" postinst | grep -q dkms'
t "eventboost: ebctl, man page, unit, udev rule, sysusers group, /etc/default conffile" \
	'c=$(contents eventboost_0.1.0_$arch.deb) &&
	 for f in ./usr/bin/ebctl ./usr/share/man/man8/ebctl.8.gz ./usr/share/man/man8/eventboost-select-governor.8.gz ./lib/systemd/system/eventboost-governor.service \
		  ./lib/udev/rules.d/60-eventboost.rules ./usr/lib/sysusers.d/eventboost.conf ./etc/default/eventboost; do
		[[ $c == *"$f"* ]] || { echo "# missing $f"; exit 1; }; done &&
	 dpkg-deb -I "$b/eventboost_0.1.0_$arch.deb" conffiles | grep -qx /etc/default/eventboost &&
	 dpkg-deb -I "$b/eventboost_0.1.0_$arch.deb" postinst | grep -q sysusers'
t "the unit is not enabled nor started by the package (it changes every governor)" \
	'pi=$(dpkg-deb -I "$b/eventboost_0.1.0_$arch.deb" postinst) && [[ $pi == *"debian-installed '"'"'eventboost-governor.service'"'"'"* ]] &&
	 [[ $pi != *"was-enabled defaults to true"* && $pi != *deb-systemd-invoke* ]]'
if [ -n "${1:-}" ]; then
	kver=$1
	t "dpkg -i in a $kver guest, then ebctl's tests against the installed files" \
		'"$top/scripts/guest.sh" "$kver" "$b" 1800 sh "$top/scripts/deb-in-guest.sh" "$top" "$b" "$kver" \
			>"$b/guest.tap" 2>&1; grep -q "^1\.\.5" "$b/guest.tap" && ! grep -q "^not ok" "$b/guest.tap" ||
		 { grep -v "^ok" "$b/guest.tap" | tail -30 | sed "s/^/# /"; false; }'
fi
exit $rc
