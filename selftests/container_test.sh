#!/bin/sh
# Inside a guest with eventboost and ebtest_cpufreq loaded, every policy on
# eventboost: a Node service in a podman container, as the README's
# containers section runs one, with and without the device passed in.
#   container_test.sh TOP EBCTL NODE
# The container's root is built from the guest's own /usr, /etc and the
# tree (no image: the guest has no registry); it runs as nobody, whose
# groups do not include the device's.  Prints TAP.
TOP=$1 EBCTL=$2 NODE=$3
GID=4242	# the host's eventboost group, as a number the image does not know
W=/tmp/eb-container
R=$W/rootfs
n=0 rc=0
ok() { n=$((n + 1)); echo "ok $n - container: $*"; }
nok() { n=$((n + 1)); echo "not ok $n - container: $*"; rc=1; }

echo "1..5"
if ! command -v podman >/dev/null; then
	nok "podman is not installed (scripts/setup-deps.sh installs it)"
	exit 1
fi
# Undone on every way out: the device's mode, the mounts, the CDI spec.
mode=$(stat -c '%g %a' /dev/eventboost)
mounts=
cleanup() {
	chgrp "${mode% *}" /dev/eventboost; chmod "${mode#* }" /dev/eventboost
	for m in $mounts; do umount "$m"; done
	[ -e $W/cdi-saved ] && mv $W/cdi-saved /etc/cdi/eventboost.json
	rm -rf $W
}
trap cleanup EXIT
bind_in() { # host directory -> the same path in the container's root
	mkdir -p "$R$1" && mount --bind "$1" "$R$1" && mounts="$R$1 $mounts"
}
mkdir -p "$R" || exit 1
for d in proc sys dev tmp run var; do mkdir -p "$R/$d"; done
for l in bin sbin lib lib64; do [ -L "/$l" ] && ln -sfn "usr/$l" "$R/$l"; done
# Node from npm (make check's) lives under the tree or its own prefix.
# Resolved first: with a merged /usr, node found as /bin/node would make
# the prefix /, bound over the whole root (the debug guest's PATH does).
NODE=$(readlink -f "$NODE")
prefix=$(dirname "$(dirname "$NODE")")
case $prefix in / | /usr | "$TOP"/*) prefix= ;; esac
bind_in /usr && bind_in /etc && bind_in "$TOP" && { [ -z "$prefix" ] || bind_in "$prefix"; } ||
	{ nok "cannot build the container's root"; exit 1; }
# What the udev rule does on a host, with a group the container lacks.
chgrp $GID /dev/eventboost && chmod 0660 /dev/eventboost
pod() {
	timeout 300 podman --root $W/storage --runroot $W/run --storage-driver vfs \
		--cgroup-manager cgroupfs --events-backend file \
		run --rm --network none --user 65534:65534 "$@"
}
# The service: GC-Boost with zero code change, a few forced major GCs,
# then its stats on stdout.
app='for (let i = 0; i < 5; i++) { const a = []; for (let j = 0; j < 2e5; j++) a.push({ j }); gc(); }
const s = require(process.env.EB_PKG).stats();
console.log(JSON.stringify({ active: s.active, boosts: s.gc.boosts, errors: s.gc.errors }));'
run_app() { # podman options...
	pod "$@" --env EVENTBOOST=gc --env EB_PKG="$TOP/node-binding" --rootfs "$R" \
		"$NODE" -r "$TOP/node-binding/register.js" --expose-gc -e "$app" \
		>$W/out 2>$W/err
}

# 1. Without the device: the service runs, eventboost says why it is off.
if run_app && grep -q '"active":false' $W/out &&
	grep -q 'eventboost: inactive: no eventboost device.*--device /dev/eventboost' $W/err; then
	ok "without --device the service runs and eventboost says to pass the device"
else
	nok "without --device: $(cat $W/out $W/err)"
fi
# 2. The device without its group: permission denied, said.
if run_app --device /dev/eventboost && grep -q '"active":false' $W/out &&
	grep -q 'eventboost: inactive: /dev/eventboost: permission denied.*--group-add' $W/err; then
	ok "--device without the group: the service runs and eventboost says to add the group"
else
	nok "--device without --group-add: $(cat $W/out $W/err)"
fi
# 3 and 4. Both: GC hints reach the module, counted by the kernel.
gc_hints() { # the kernel's GC hints, all policies
	"$EBCTL" status --json | "$NODE" -e 'let s = "";
process.stdin.on("data", (d) => { s += d; }).on("end", () => console.log(JSON.parse(s).policies
  .reduce((a, p) => a + (p.eventboost ? p.eventboost.hints.gc : 0), 0)));'
}
before=$(gc_hints)
if run_app --device /dev/eventboost --group-add $GID && grep -q '"active":true' $W/out &&
	grep -q '"errors":0' $W/out && ! grep -q '^eventboost:' $W/err; then
	ok "--device and --group-add: eventboost active in the container, no error"
else
	nok "--device --group-add: $(cat $W/out $W/err)"
fi
after=$(gc_hints)
boosts=$(sed -n 's/.*"boosts":\([0-9]*\).*/\1/p' $W/out)
if [ -n "$boosts" ] && [ "$boosts" -ge 5 ] && [ "$((after - before))" -ge "$((2 * boosts))" ]; then
	ok "the container's $boosts GC boosts reached the module ($((after - before)) GC hints counted)"
else
	nok "GC hints: the service saw ${boosts:-none}, the module counted $before -> $after"
fi

# 5. The CDI spec the package ships, as /etc/cdi/eventboost.json: the
# device by its CDI name alone, no group to add (the spec makes the node
# usable by the container's users).
mkdir -p /etc/cdi
[ -e /etc/cdi/eventboost.json ] && mv /etc/cdi/eventboost.json $W/cdi-saved
cp "$TOP/packaging/cdi/eventboost.json" /etc/cdi/eventboost.json
if run_app --device eventboost/hint=hint && grep -q '"active":true' $W/out &&
	grep -q '"errors":0' $W/out && ! grep -q '^eventboost:' $W/err; then
	ok "CDI: --device eventboost/hint=hint with the shipped spec, eventboost active"
else
	nok "CDI --device eventboost/hint=hint: $(cat $W/out $W/err)"
fi
rm -f /etc/cdi/eventboost.json
exit $rc
