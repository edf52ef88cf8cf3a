#!/bin/bash
# Host CPU of each thread of this probe's QEMU over 10 s of a guest that sleeps (CPU 0, CPU 1 idle) or spins on CPU 0.
#   THREAD=.. EB_QEMU_OPTS=.. ./mainloop.sh TAG GUESTCMD
tag=$1 cmd=$2
cd /work/mttcg-probe
./guest-new.sh 7.2.13-eb /work/mttcg-probe/rw 300 logs/$tag.log "$cmd" & g=$!
sleep 30
pid=$(pgrep -f '^/work/mttcg-probe/root/usr/bin/qemu-system-x86_64')
snap() { for t in /proc/$pid/task/*; do echo "$(basename $t) $(awk '{print $14+$15}' $t/stat) $(tr " " _ <$t/comm)"; done; }
a=$(snap); sleep 10; b=$(snap)
echo "$tag: other_qemus=$(pgrep -fc "^/usr/bin/qemu-system") fds=$(ls /proc/$pid/fd | wc -l); per-thread CPU% over 10 s (tid: %):" $(join <(echo "$a") <(echo "$b") | awk -v p=$pid '{d=($4-$2); if (d>5) printf "%s%s[%s]:%d%% ", $1, ($1==p?"(main)":""), $3, d/10}')
wait $g
