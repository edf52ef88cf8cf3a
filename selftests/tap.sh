# Sourced by the shell tests (POSIX sh): one TAP line per check, the check
# a shell condition.  Set TAP_NAME first; rc becomes 1 once a check fails.
#   t DESCRIPTION CONDITION
n=0 rc=0
t() {
	n=$((n + 1))
	if eval "$2"; then echo "ok $n - $TAP_NAME: $1"; else echo "not ok $n - $TAP_NAME: $1"; rc=1; fi
}
