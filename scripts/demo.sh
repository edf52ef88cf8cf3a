#!/bin/bash
# make demo: install what is needed, build everything, boot a QEMU guest
# with the governor over a cpufreq driver whose frequencies cost time, and
# run the demo service with eventboost off and on: open-loop load at 60% of
# its capacity and a closed-loop overload, both generated on the host,
# DEMO_REPS (4) pairs of open-loop runs, with a third side, eventboost's
# governor alone, and DEMO_OVERLOAD_REPS (10) pairs of overload runs
# (demo/driver.js says why 10).  DEMO_SECONDS sets an open-loop run's length
# (default 20; the overload's is 1.5 times it).  Then the service's tail
# profile, on the host (demo/profile-host.js).  About 20 minutes in all on
# an otherwise idle 2-core host (13.7-15.9 with 4 overload pairs: 821-951 s,
# 2026-12-01 to 2026-12-05).  It needs host ports 18089 (the load agent;
# DEMO_AGENT_PORT moves it), 18080 and 18081 (DEMO_PROFILE_PORT) free.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

reps=${DEMO_REPS:-4} oreps=${DEMO_OVERLOAD_REPS:-10} secs=${DEMO_SECONDS:-20} conns=${DEMO_CONNECTIONS:-8}
for v in "DEMO_REPS=$reps" "DEMO_OVERLOAD_REPS=$oreps" "DEMO_SECONDS=$secs" "DEMO_CONNECTIONS=$conns"; do
	case ${v#*=} in
	'' | *[!0-9]* | 0*) echo "demo: ${v%%=*} must be a whole number above 0 (no leading zero), got '${v#*=}'" >&2; exit 1 ;;
	esac
done
# DEMO_ARMS (an investigation's sides, demo/driver.js): off, on or gov,
# each once, refused here rather than in the guest after the build.
if [ -n "${DEMO_ARMS:-}" ]; then
	seen=,
	IFS=, read -ra arms <<<"$DEMO_ARMS,"
	for a in "${arms[@]}"; do
		case $a in off | on | gov) ;; *) echo "demo: DEMO_ARMS: '$a' is not off, on or gov" >&2; exit 1 ;; esac
		case $seen in *,"$a",*) echo "demo: DEMO_ARMS: '$DEMO_ARMS' names $a twice (a pair runs each side once)" >&2; exit 1 ;; esac
		seen=$seen$a,
	done
fi

eb_setup_deps || exit 1
kver=$(eb_kernel "${DEMO_KVER:-}" demo) || exit 1
eb_build_modules "$kver" || exit 1
step "build libeventboost and ebctl"
make -s userlib >/dev/null || exit 1
eb_build_node || exit 1

agent_port=${DEMO_AGENT_PORT:-18089}
profile_port=${DEMO_PROFILE_PORT:-18081}
for p in "$agent_port" 18080 "$profile_port"; do
	if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
		echo "demo: host port $p is in use (the load agent takes $agent_port, the demo service's forward 18080, its profile on the host $profile_port; DEMO_AGENT_PORT and DEMO_PROFILE_PORT move the first and the last; is make experiment running?)" >&2
		exit 1
	fi
done
out=$top/build/demo
rm -rf "$out"
mkdir -p "$out"
# The load comes from the host, as in make experiment (experiment/load-agent.js
# says why): the guest reaches the agent at 10.0.2.2:$agent_port, the agent
# the service's guest port 8080 at 127.0.0.1:18080 (QEMU hostfwd; the
# agent's offset, 10000).  The guest's clock is the host's (no -icount):
# latency is timed on the host, and under -icount the guest's clock drifts
# from the host's by the instruction mix (scripts/experiment.sh).  A host
# that deschedules QEMU shows up as latency: run it on an otherwise idle
# host.
export EB_GUEST_APPEND=$EB_TESTBED_APPEND  # no PTI (lib.sh says why)
export EB_QEMU_OPTS="-netdev user,id=ebnet,hostfwd=tcp:127.0.0.1:18080-:8080 -device virtio-net-pci,netdev=ebnet"
trap 'kill ${EB_AGENT_PID:-} 2>/dev/null' EXIT
eb_start_agent "$agent_port" "$out/load-agent.log" || exit 1
step "boot a QEMU guest ($kver, TCG, 2 CPUs, the load from the host) and run the demo (about 19 minutes)"
# The guest's time limit grows with the runs: DEMO_REPS open-loop pairs and
# DEMO_OVERLOAD_REPS overload pairs, each load with up to 5 warm-up runs, an
# open-loop run SECONDS long and an overload run 1.5 times that; three times
# their sum, and 15 minutes for the rest (4170 s at the defaults).
# The open loop's pairs have three sides (off, eventboost's governor alone,
# on), the overload's two; DEMO_ARMS, for investigations, sets both
# (demo/driver.js), as DEMO_KINDS the loads.
open_sides=3 overload_sides=2
if [ -n "${DEMO_ARMS:-}" ]; then
	open_sides=$(($(tr -cd , <<<"$DEMO_ARMS" | wc -c) + 1)) overload_sides=$open_sides
fi
limit=$((900 + 3 * ((open_sides * reps + 5) * 2 + (overload_sides * oreps + 5) * 3) * secs / 2))
scripts/guest.sh "$kver" "$out" "$limit" \
	env DEMO_NODE="$(node --version)" DEMO_REPS="$reps" DEMO_OVERLOAD_REPS="$oreps" DEMO_LOAD="${DEMO_LOAD:-0.6}" DEMO_AGENT="10.0.2.2:$agent_port" DEMO_CONNECTIONS="$conns" \
	DEMO_ARMS="${DEMO_ARMS:-}" DEMO_KINDS="${DEMO_KINDS:-service,overload}" \
	sh "$top/demo/run_in_guest.sh" "$kver" "$top" "$out" "$secs"
if [ "$(cat "$out/result" 2>/dev/null)" != 0 ]; then
	echo "demo: failed (files in $out)" >&2
	exit 1
fi
kill "$EB_AGENT_PID" 2>/dev/null
# Which boost would act on this service's tail: the profiler, which needs
# no device, on the host (demo/profile-host.js).
step "where the service's tail comes from: node -r eventboost/profile on the host (about 45 s)"
node demo/profile-host.js "$out" "$profile_port" || exit 1
step "done"
