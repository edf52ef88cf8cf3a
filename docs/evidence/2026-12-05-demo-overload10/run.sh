#!/bin/bash
# The three runs of plan.md: fresh clones of the commit given, make demo, times.
c=$1
for i in 1 2 3; do
	rm -rf /work/do-$i
	git clone -q /work/main /work/do-$i && cd /work/do-$i && git checkout -q "$c" || exit 1
	echo "run $i start $(date -u +%FT%T) $(git rev-parse --short HEAD)" >> /work/demos6.times
	make demo > /work/do-$i.log 2>&1
	rc=$?  # (the runs of 2026-12-05 logged $? after date's, always 0: reading.md)
	echo "run $i end $(date -u +%FT%T) rc $rc" >> /work/demos6.times
done
