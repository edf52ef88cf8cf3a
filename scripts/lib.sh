#!/bin/bash
# Sourced by the scripts of make demo, bench and experiment: the parts they
# share.  Sets $top (the repository) and cds there.
#   step MESSAGE...          a progress line with the seconds since start
#   eb_as_root COMMAND...    COMMAND as root (itself, or through sudo)
#   eb_setup_deps            install what is missing (as root or via sudo)
#   eb_kernel OVERRIDE NAME  the kernel to boot: OVERRIDE if set, else the
#                            matrix's 6.12 (non-rt) one
#   eb_build_modules KVER [PREFIX]   eventboost.ko and the test modules in
#                            build/KVER/PREFIXeventboost and PREFIXebtest
#   eb_build_node            the Node package (npm install in node-binding/)
#   eb_start_agent PORT LOG  the host side of make experiment's and demo's load
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top" || exit 1
eb_start=$(date +%s)

step() { echo "==> [$(($(date +%s) - eb_start)) s] $*"; }

# COMMAND... as root: itself when root, else through sudo.
eb_as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

eb_setup_deps() {
	step "dependencies"
	[ "$(id -u)" = 0 ] && { scripts/setup-deps.sh; return; }
	# Through sudo, whose PATH is not the user's: the Node the rest runs
	# with is the user's own (nvm's, say), which root's set-up never sees.
	# One the package takes is all the rest needs: root's set-up then
	# installs no Node of its own.  Else it may install one (a Node 24 in
	# /usr/local/bin, which a user's PATH may find) and the user's is
	# checked again, and refused with what to do.
	if scripts/check-node.sh 2>/dev/null; then
		sudo scripts/setup-deps.sh --user-node
	else
		sudo scripts/setup-deps.sh && scripts/check-node.sh
	fi
}

eb_kernel() {
	local k
	if [ -n "$1" ]; then echo "$1"; return; fi
	# By name, not by place: kernels.sh skips what is missing, and a
	# machine without 6.1's headers would boot 6.12-rt in its place.
	k=$(scripts/kernels.sh | grep '^6\.12\.' | grep -v -- '-rt-amd64$')
	if [ -z "$k" ]; then
		echo "$2: no 6.12 kernel with both an image and headers (scripts/setup-deps.sh installs them)" >&2
		return 1
	fi
	echo "$k"
}

eb_build_modules() {
	step "build eventboost.ko and the test modules (ebtest_cpufreq, ebtest_pause, ebtest_fail) for $1"
	scripts/kbuild.sh "$1" "${2:-}eventboost" Kbuild governor uapi >/dev/null &&
	scripts/kbuild.sh "$1" "${2:-}ebtest" selftests/driver/Kbuild \
		selftests/driver/ebtest_cpufreq.c selftests/driver/ebtest_pause.c \
		selftests/driver/ebtest_fail.c governor/eb_compat.h >/dev/null
}

eb_build_node() {
	step "build the Node package (npm install in node-binding/)"
	(cd node-binding && npm install --no-audit --no-fund --loglevel=error >/dev/null)
}

# The measuring guests (make demo, make experiment, and make check's
# pipeline step, which runs experiment.sh) boot without page table
# isolation.  Their Skylake model is taken for Meltdown-vulnerable and has no
# PCID under TCG, so with PTI every kernel entry and exit writes CR3, and
# QEMU's TCG flushes its whole software TLB at each: a one-byte read or write
# costs 10.25 us against 1.45 us without, about 8.8 us more per entry into
# the kernel (docs/evidence/2026-11-26-pti/).  That over-charges a server's
# work in the kernel (epoll, sockets) and eventboost's own there (its hints,
# the queue monitor's looks) as no current server pays: CPUs from about 2019
# need no PTI, older ones tag the TLB with PCID.  Against runs made with PTI
# it favours eventboost's kernel-heavy parts.  make check's other guests keep
# the default mitigations (the module must work either way).
EB_TESTBED_APPEND=nopti

# eb_start_agent PORT LOG: experiment/load-agent.js on the host, listening
# on 127.0.0.1:PORT, its output in LOG; the caller kills $EB_AGENT_PID.
# Returns once it listens, or fails with its log (a port taken since the
# caller checked it, say) rather than let a guest boot to find no agent.
eb_start_agent() {
	node experiment/load-agent.js "$1" 10000 > "$2" 2>&1 &
	EB_AGENT_PID=$!
	for _ in $(seq 50); do
		grep -q '^load-agent: listening' "$2" && return 0
		kill -0 "$EB_AGENT_PID" 2>/dev/null || break
		sleep 0.2
	done
	echo "the load agent did not start on 127.0.0.1:$1:" >&2
	cat "$2" >&2
	return 1
}
