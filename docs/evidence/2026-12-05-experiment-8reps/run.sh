#!/bin/bash
# The run, as it was made: a fresh clone of COMMIT, this directory's
# design, then the results copied here and committed (only these files),
# so that they land even if nobody is there to read them.
# Usage: run.sh COMMIT (from /work/main; the clone goes to /work/exp8).
set -u
commit=$1
main=/work/main
here=docs/evidence/2026-12-05-experiment-8reps
rm -rf /work/exp8 && git clone -q "$main" /work/exp8 && cd /work/exp8 && git checkout -q "$commit" || exit 1
start=$(date -u +%FT%TZ)
EXPERIMENT_CONFIG=$here/config.json EXPERIMENT_DEST=/work/exp8/out EXPERIMENT_OUT=/work/exp8/build/experiment \
	scripts/experiment.sh > /work/exp8.log 2>&1
rc=$?
end=$(date -u +%FT%TZ)
echo "start $start end $end rc $rc commit $commit" > "$main/$here/times.txt"
cp /work/exp8.log "$main/$here/log.txt"
grep '^==>' /work/exp8.log > "$main/$here/driver-log.txt"
for f in results.json results.svg results.txt raw.json.gz; do [ -f out/$f ] && cp out/$f "$main/$here/"; done
# No analysis (it failed): keep the driver's raw runs whole.
[ ! -f out/raw.json.gz ] && [ -f build/experiment/raw.json ] && gzip -9c build/experiment/raw.json > "$main/$here/raw-unanalysed.json.gz"
cd "$main" && git add -- "$here" && git commit -q -m "evidence: the 8-repetition experiment's output as the run left it (rc $rc), not yet read" -- "$here"
