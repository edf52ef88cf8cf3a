#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# node-matrix.sh [MAJOR...]: the host tests on every tested Node major
# (default $EB_NODE_MAJORS or 20 22 24 26, the majors `engines` names), each
# with that Node's own binary and the addon built for it (prebuild.sh; Nodes
# other than the system's are fetched once into $EB_NODE_CACHE, see
# node-home.sh).  prebuild.sh also cross-builds the linux-arm64 prebuilds,
# and test/host/prebuild-arm64.test.js loads each major's under that major's
# arm64 Node in qemu-user.  Exit status 1 if any major fails.
set -u
pkg=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || set -- ${EB_NODE_MAJORS:-20 22 24 26}
"$pkg/scripts/prebuild.sh" "$@" || exit 1
rc=0
for major; do
	home=$("$pkg/scripts/node-home.sh" "$major") || { rc=1; continue; }
	echo "# ---- host tests, Node $("$home/bin/node" --version)"
	(cd "$pkg" && PATH=$home/bin:$PATH "$home/bin/node" --test test/host/*.test.js) || {
		echo "not ok - host tests on Node $major"; rc=1; }
done
exit $rc
