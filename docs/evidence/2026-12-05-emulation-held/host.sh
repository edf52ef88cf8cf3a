#!/bin/bash
# host side: hogs while the guest's phase is "hog"; QEMU threads' schedstat at each phase change
rw=/work/emu/rw; pids=(); last=
qstat() { local q; q=$(pgrep -f qemu-system | head -1); [ -n "$q" ] || return; for t in /proc/$q/task/*; do echo "  $(cat $t/comm) $(cat $t/schedstat)"; done; }
while :; do
  p=$(cat $rw/phase 2>/dev/null)
  if [ "$p" != "$last" ]; then
    echo "$(date +%T.%N) phase $p"; qstat
    if [ "$p" = hog ]; then for i in 1 2; do (while :; do :; done) & pids+=($!); done
    else [ ${#pids[@]} -gt 0 ] && kill ${pids[@]}; pids=(); fi
    last=$p
  fi
  [ "$p" = done ] && exit 0
  sleep 0.2
done
