#!/bin/sh
# Runs inside a guest (scripts/test-deb.sh): install the packages built in
# DEBDIR with dpkg -i onto overlays of the read-only shared /usr, /etc and
# /var, then run ebctl's guest tests against the installed ebctl, library
# and udev/sysusers files, with the module built for KVER.  TAP.
#   deb-in-guest.sh TOP DEBDIR KVER
TOP=$1 DEB=$2 KVER=$3
TAP_NAME=deb-guest
. "$TOP/selftests/tap.sh"
modprobe -q overlay
# The upper layers on a tmpfs of our own (the guest's /tmp cannot be one).
ov=/run/eb-deb-overlay
mkdir -p "$ov" && mount -t tmpfs tmpfs "$ov"
for d in usr etc var; do
	mkdir -p "$ov/$d/up" "$ov/$d/work"
	mount -t overlay overlay -o "xino=off,lowerdir=/$d,upperdir=$ov/$d/up,workdir=$ov/$d/work" "/$d" ||
		{ dmesg | tail -3 | sed "s/^/# /"; echo "Bail out! cannot overlay /$d"; exit 1; }
done
arch=$(dpkg --print-architecture)
# No man-db index rebuild (minutes under TCG), no questions.
rm -f /var/lib/man-db/auto-update
export DEBIAN_FRONTEND=noninteractive
echo "1..5"
t "dpkg -i eventboost and libeventboost1/-dev" \
	'dpkg -i "$DEB/libeventboost1_0.1.0_$arch.deb" "$DEB/libeventboost-dev_0.1.0_$arch.deb" \
		"$DEB/eventboost_0.1.0_$arch.deb" >/tmp/dpkg.log 2>&1 || { sed "s/^/# /" /tmp/dpkg.log; false; }'
t "the group eventboost exists (sysusers.d)" 'getent group eventboost >/dev/null'
t "a program builds against the installed -dev package and runs" \
	'printf "#include <eventboost.h>\nint main(void){struct eb_client *c; return eb_open(&c, \"/nonexistent\") == -2 ? 0 : 1;}\n" > /tmp/p.c &&
	 cc -o /tmp/p /tmp/p.c $(pkg-config --cflags --libs eventboost) && /tmp/p'
insmod "$TOP/build/$KVER/eventboost/eventboost.ko"
insmod "$TOP/build/$KVER/ebtest/ebtest_cpufreq.ko" shared=0 fast_switch=1
t "udev gives the installed rule's group to /dev/eventboost" \
	'udevadm control --reload 2>/dev/null; udevadm trigger -s misc 2>/dev/null; udevadm settle 2>/dev/null;
	 [ "$(stat -c %G /dev/eventboost)" = eventboost ] || { echo "# $(ls -l /dev/eventboost) (no udevd in this guest?)"; false; }'
t "ebctl's guest tests pass with the installed /usr/bin/ebctl" \
	'EB_USERLIB=$TOP/build/userlib EB_LIB=$(echo /usr/lib/*/libeventboost.so.1.3.0) \
	 sh "$TOP/selftests/ebctl_test.sh" /usr/bin/ebctl "$TOP/build/$KVER/eventboost/eventboost.ko" >/tmp/ebctl.tap 2>&1;
	 r=$?; grep "^not ok" /tmp/ebctl.tap | sed "s/^/# /"; [ $r = 0 ]'
rmmod ebtest_cpufreq; rmmod eventboost
exit $rc
