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
# A LONG entry `tests:cli`, `tests:rest` or `tests:linear` is a pytest job instead of a notebook: tests/test_cli.py,
# the rest of tests/ (the docs site built once, in that process), or the greedy matrix on F.linear and transformers'
# forward. In the lanes they fill the time one lane would otherwise wait for the other.
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
# the greedy matrix on the default path is 13_checks' registry check (the same tiny models, prompt and tokens)
skip="not test_sampling_distribution and not test_greedy_equals_target"
nb="flock -s $lock env SPECDEC_OV_MEMORY=0.05 OMP_NUM_THREADS=1 $venv/bin/nbdev_test --flags slow --timing"
{
  echo "flock -x $lock env OMP_NUM_THREADS=1 $venv/bin/specdec warm --threads 1"
  echo "env OMP_NUM_THREADS=1 $venv/bin/python -m pytest -q tests/test_lossless.py -k test_sampling_distribution"
  py="env OMP_NUM_THREADS=1 $venv/bin/python -m pytest -q -p no:xdist"
  for f in "${long[@]}"; do
    case $f in
      tests:cli) echo "flock -s $lock $py tests/test_cli.py" ;;
      tests:rest) echo "flock -s $lock $py tests --ignore=tests/test_cli.py -k \"$skip\"" ;;
      tests:linear) echo "env SPECDEC_KERNELS=linear SPECDEC_COMPILE=off $py tests/test_lossless.py -k greedy" ;;
      *) echo "$nb --path $f" ;;
    esac
  done
  if ((${#short[@]})); then
    names=$(printf '%s|' "${short[@]##*/}"); names=${names%|}
    echo "$nb --n_workers 0 --path nbs --file_re '^(${names//./\\.})\$'"
  fi
} | xargs -d '\n' -P 2 -I{} bash -c '{}'
