#!/bin/sh
# The experiment's calibration job (../2026-11-26-drift-pilot/probe.sh), 5
# rounds of 4 pairs at the 1 ms period, paid every period (the default), as
# syscalls.sh with and without EB_GUEST_APPEND=nopti (EB_GUEST_MEM=3G).
echo "meltdown: $(cat /sys/devices/system/cpu/vulnerabilities/meltdown)"
ROUNDS=5 PAIRS=4 PERIODS="1000" PAY="0" exec sh "$2/docs/evidence/2026-11-26-drift-pilot/probe.sh" "$@"
