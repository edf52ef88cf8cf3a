#!/bin/bash
# make experiment: tail latency vs energy on emulated DVFS, the policies and
# phases of experiment/config.json (fixed before the run), open-loop load
# (experiment/loadgen.js).  Results: experiment/results.json and
# experiment/results.svg (and the raw runs in build/experiment/).
# EXPERIMENT_QUICK=1: the headline phase, one rate, one repetition, 4 s
# runs (a smoke test).  EXPERIMENT_CONFIG: another design file;
# EXPERIMENT_SECONDS, _REPS, _RATES (fractions of capacity), _SERVICES and
# _POLICIES (comma-separated names, see experiment/driver.js) narrow it;
# EXPERIMENT_EXTEND=RAW.json adds _REPS repetitions of the headline phase
# to that earlier run's, at its rates, under the same verdict on the
# targets (its config's); raw.json then holds both.
# EXPERIMENT_DEST: where results.json and results.svg go; EXPERIMENT_OUT:
# the raw runs (default build/experiment).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

eb_setup_deps || exit 1
# The design's verdict on the targets (and an extended run's), refused
# before anything is built or booted, not by analyze.js after the run.
node experiment/check-design.js "${EXPERIMENT_CONFIG:-experiment/config.json}" ${EXPERIMENT_EXTEND:+"$EXPERIMENT_EXTEND"} || exit 1
step "the load generator's, the run order's and the statistics' host tests"
node experiment/test-loadgen.js || exit 1
node experiment/test-order.js || exit 1
node experiment/test-paired.js || exit 1
node experiment/test-analyze.js || exit 1
# The testbed: Linux 7.2 built from Debian unstable's source (once, cached
# outside the tree, as make check builds it), so that every phase --
# uclamp's too, which needs CONFIG_UCLAMP_TASK -- runs on one kernel.
if [ -z "${EXPERIMENT_KVER:-}" ]; then
	step "Linux 7.2 from Debian unstable's linux-source-7.2 (built once: about 11 minutes)"
	# (as root: it writes /var/cache/eventboost and /lib/modules; sudo
	# passes it no environment of ours unless named)
	eb_as_root env ${EB_SID_CACHE:+EB_SID_CACHE="$EB_SID_CACHE"} ${JOBS:+JOBS="$JOBS"} \
		scripts/build-sid-kernel.sh generic >/dev/null || exit 1
	EXPERIMENT_KVER=$(scripts/kernels.sh | grep -- '-eb$')
fi
kver=$(eb_kernel "$EXPERIMENT_KVER" experiment) || exit 1
eb_build_modules "$kver" || exit 1
step "build libeventboost, the Node package and json-server"
make -s userlib >/dev/null || exit 1
eb_build_node || exit 1
(cd experiment && npm install --no-audit --no-fund --loglevel=error >/dev/null) || exit 1
# The uclamp policy's preload (experiment/uclamp-shim.c).
cc -O2 -Wall -shared -fPIC -o build/experiment-uclamp-shim.so experiment/uclamp-shim.c -ldl || exit 1

out=${EXPERIMENT_OUT:-$top/build/experiment}
if [ -n "${EXPERIMENT_EXTEND:-}" ]; then
	# A copy the guest can read, which the rm below cannot take (it may
	# be $out/raw.json itself).
	# (check-design.js, above, refused a file that is not one.)
	cp "$EXPERIMENT_EXTEND" "$top/build/experiment-extend.json" || exit 1
	export EXPERIMENT_EXTEND=$top/build/experiment-extend.json
fi
for p in ${EXPERIMENT_AGENT_PORT:-18099} $(seq 18100 2 18198); do
	if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
		echo "experiment: host port $p is in use (the load agent takes ${EXPERIMENT_AGENT_PORT:-18099} and 18100-18198; EXPERIMENT_AGENT_PORT moves the first)" >&2
		exit 1
	fi
done
rm -rf "$out"
mkdir -p "$out"
# The load comes from the host (experiment/load-agent.js says why): the
# guest reaches the agent at 10.0.2.2:$agent_port, the agent a server's
# guest port P at 127.0.0.1:P+10000 (QEMU hostfwd; the driver gives its
# servers the even ports from 8100).  The guest's clock is the host's
# (no -icount): latency is timed on the host, and under -icount the guest
# clock drifts from the host's by the instruction mix -- a fixed request
# measured from the host took 4.7x its 4.0 GHz time at 2.6 GHz, where
# the guest's own clock saw 1.5x (1/f: 1.54x).  EXPERIMENT_ICOUNT=1 runs it
# under -icount all the same, for CPU times counted in instructions (a
# diagnostic: docs/evidence/2026-11-26-monitor-cost/); its latencies then
# mean nothing.
agent_port=${EXPERIMENT_AGENT_PORT:-18099}
fwd=
for p in $(seq 8100 2 8198); do fwd="$fwd,hostfwd=tcp:127.0.0.1:$((p + 10000))-:$p"; done
export EB_GUEST_APPEND=$EB_TESTBED_APPEND  # no PTI (lib.sh says why)
icount=
[ "${EXPERIMENT_ICOUNT:-0}" = 1 ] && icount="-icount shift=1,sleep=on "
export EB_QEMU_OPTS="$icount-netdev user,id=ebnet$fwd -device virtio-net-pci,netdev=ebnet"
export EXPERIMENT_AGENT=10.0.2.2:$agent_port
# The code a run measured, recorded in its raw.json ("+changes": tracked
# files differed from that commit; "unrecorded": no git checkout).
EXPERIMENT_COMMIT=$(git -C "$top" rev-parse HEAD 2>/dev/null) || EXPERIMENT_COMMIT=unrecorded
[ "$EXPERIMENT_COMMIT" != unrecorded ] && [ -n "$(git -C "$top" status --porcelain --untracked-files=no)" ] &&
	EXPERIMENT_COMMIT=$EXPERIMENT_COMMIT+changes
export EXPERIMENT_COMMIT
# The Node the package was built for: the guest's driver refuses another.
EXPERIMENT_NODE=$(node --version) || exit 1
export EXPERIMENT_NODE
trap 'kill ${EB_AGENT_PID:-} 2>/dev/null' EXIT
eb_start_agent "$agent_port" "$out/load-agent.log" || exit 1
step "boot a QEMU guest ($kver, the load from the host) and run every phase of experiment/config.json (about 2 hours; QUICK: 2 minutes)"
EB_GUEST_MEM=3G scripts/guest.sh "$kver" "$out" "${EXPERIMENT_TIMEOUT:-10800}" \
	env $(env | grep -E '^EXPERIMENT_(QUICK|SECONDS|REPS|EXTEND|RATES|SERVICES|POLICIES|CONFIG|AGENT|COMMIT|NODE)=' | tr '\n' ' ') \
	sh "$top/experiment/run_in_guest.sh" "$kver" "$top" "$out"
if [ "$(cat "$out/result" 2>/dev/null)" != 0 ]; then
	echo "experiment: the guest run failed (files in $out)" >&2
	exit 1
fi
step "analysis"
dest=${EXPERIMENT_DEST:-$top/experiment}
[ "${EXPERIMENT_QUICK:-0}" = 1 ] && dest=$out
node experiment/analyze.js "$out/raw.json" "$dest" || exit 1
step "done: $dest/results.json, $dest/results.svg"
