#!/bin/bash
# scripts/guest.sh's vng command, under the extracted QEMU 10.0.2 (bookworm-backports).
#   THREAD=multi|single [QEMU=...] ./guest-new.sh KVER RWDIR TIMEOUT LOG COMMAND...
# The whole vng output (kernel console + command output) goes to LOG.
set -uo pipefail
kver=$1 rwdir=$2 limit=$3 log=$4; shift 4
R=/work/mttcg-probe/root
qemu=${QEMU:-$R/usr/bin/qemu-system-x86_64}
thread=${THREAD:-multi}
model=Skylake-Client-v1
[ "$(printf '%s\n' 6.15 "$kver" | sort -V | head -1)" = 6.15 ] && model=Skylake-Client-v1,model=58
kimg=/boot/vmlinuz-$kver; [ -e "$kimg" ] || kimg=/lib/modules/$kver/vmlinuz
ldata=; [ "$qemu" != /usr/bin/qemu-system-x86_64 ] && ldata="-L $R/usr/share/qemu -L $R/usr/share/seabios"
timeout --kill-after=30 "$limit" \
	vng --disable-kvm --qemu "$qemu" -r "$kimg" --cpus "${EB_GUEST_CPUS:-2}" --memory "${EB_GUEST_MEM:-2G}" \
	    --verbose --append "loglevel=4 no_timer_check ${EB_GUEST_APPEND:-}" \
	    --rwdir "$rwdir" \
	    --qemu-opts="$ldata -cpu $model -accel tcg,thread=$thread ${EB_QEMU_OPTS:-}" --exec "$*" \
	</dev/null >"$log" 2>&1
