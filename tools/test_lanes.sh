#!/usr/bin/env bash
# The middle of `make test`: its jobs in two lanes (two cores), so that neither core waits.
#   usage: tools/test_lanes.sh VENV LONG_NOTEBOOK... -- SHORT_NOTEBOOK...
# Lane jobs, in this order, each lane taking the next job when its own is done:
#   1. `specdec warm`: SmolLM2's kernel plan, steps and cost curves, measured once; it holds a lock that every
#      notebook job waits on (shared), so no notebook measures SmolLM2 itself;
#   2. the sampling half of tests/test_lossless.py (tiny models only: it needs nothing warm);
#   3. the long notebooks, longest first, each in a process of its own (IPython keeps every shell it made
#      alive, so a process that runs notebook after notebook keeps all their models);
#   4. the short notebooks, one after another in one process (saves a Python start each).
# xargs runs the jobs and fails (123) when one does.
set -euo pipefail
venv=$1; shift
long=(); short=()
while (($#)); do
  if [[ $1 == -- ]]; then shift; short=("$@"); break; fi
  long+=("$1"); shift
done
mkdir -p .logs
lock=.logs/warm.lock
nb="flock -s $lock env SPECDEC_OV_MEMORY=0.05 OMP_NUM_THREADS=1 $venv/bin/nbdev_test --flags slow --timing"
{
  echo "flock -x $lock env OMP_NUM_THREADS=1 $venv/bin/specdec warm --threads 1"
  echo "env OMP_NUM_THREADS=1 $venv/bin/python -m pytest -q tests/test_lossless.py -k test_sampling_distribution"
  for f in "${long[@]}"; do echo "$nb --path $f"; done
  if ((${#short[@]})); then
    names=$(printf '%s|' "${short[@]##*/}"); names=${names%|}
    echo "$nb --n_workers 0 --path nbs --file_re '^(${names//./\\.})\$'"
  fi
} | xargs -d '\n' -P 2 -I{} bash -c '{}'
