#!/bin/bash
for i in 1 2 3; do
	rm -rf /work/dc-$i
	git clone -q /work/main /work/dc-$i && cd /work/dc-$i && git checkout -q 87df868 || exit 1
	echo "run $i start $(date -u +%FT%T) $(git rev-parse --short HEAD)" >> /work/demos5.times
	make demo > /work/dc-$i.log 2>&1
	echo "run $i end $(date -u +%FT%T) rc $?" >> /work/demos5.times
done
