# Sourced by the stress scripts: the kernel log patterns that fail a guest
# run (those of run_guest.sh).  kmemleak's own boot banner is not a report:
# match its "suspected memory leaks" line only.
EB_SPLATS='BUG:|WARNING: CPU|Oops|Call Trace|possible circular locking|possible recursive locking|scheduling while atomic|INFO: task .* blocked|kmemleak: .*suspected memory leak|KASAN|inconsistent lock state|sleeping function called from invalid context|UBSAN|suspicious RCU usage'

# eb_splats [SINCE-LINE]: print splat lines of dmesg after line SINCE-LINE;
# true if there are any.
eb_splats() {
	dmesg | tail -n +"$((${1:-0} + 1))" | grep -E "$EB_SPLATS"
}
