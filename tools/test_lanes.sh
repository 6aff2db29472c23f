#!/usr/bin/env bash
# The middle of `make test`: its jobs in two lanes (two cores), so that neither core waits.
#   usage: tools/test_lanes.sh VENV JOB...
# A JOB is a notebook's name (`05b_quant`: nbs/05b_quant.ipynb, in a process of its own), a group of notebooks
# (`13a_longrun+07_lookahead`: one after another in one process), or a pytest job: `tests:cli` (tests/test_cli.py),
# `tests:rest` (the rest of tests/, the docs site built once in that process) or `tests:linear` (the greedy matrix on
# F.linear and transformers' forward). Every notebook no JOB names runs in one group too: where the JOB `rest` stands,
# else last.
# Lane jobs, in this order, each lane taking the next job when its own is done:
#   1. `specdec warm`: SmolLM2's kernel plan, steps and cost curves, measured once; it holds a lock that every
#      notebook job waits on (shared), so no notebook measures SmolLM2 itself;
#   2. the sampling half of tests/test_lossless.py (tiny models only: it needs nothing warm);
#   3. the JOBs, in the order given (longest first): a process and its imports of torch and transformers cost ~8 s,
#      so notebooks of under a minute share one; the longer ones get a process each (IPython keeps every shell it
#      made alive, so a process that runs notebook after notebook keeps all their models);
# xargs runs the jobs and fails (123) when one does.
set -euo pipefail
venv=$1; shift
mkdir -p .logs
lock=.logs/warm.lock
# the greedy matrix on the default path is 13_checks' registry check (the same tiny models, prompt and tokens)
skip="not test_sampling_distribution and not test_greedy_equals_target"
nb="flock -s $lock env SPECDEC_OV_MEMORY=0.05 OMP_NUM_THREADS=1 $venv/bin/nbdev_test --flags slow --timing"
group() {  # notebooks (names) one after another in one process
  local names
  names=$(printf '%s.ipynb|' "$@"); names=${names%|}
  echo "$nb --n_workers 0 --path nbs --file_re '^(${names//./\\.})\$'"
}
named=" "
for job in "$@"; do named+="${job//+/ } "; done
rest=()
for f in nbs/*.ipynb; do
  name=$(basename "$f" .ipynb)
  [[ $named == *" $name "* ]] || rest+=("$name")
done
{
  echo "flock -x $lock env OMP_NUM_THREADS=1 $venv/bin/specdec warm --threads 1"
  echo "env OMP_NUM_THREADS=1 $venv/bin/python -m pytest -q tests/test_lossless.py -k test_sampling_distribution"
  py="env OMP_NUM_THREADS=1 $venv/bin/python -m pytest -q -p no:xdist"
  for job in "$@"; do
    case $job in
      tests:cli) echo "flock -s $lock $py tests/test_cli.py" ;;
      tests:rest) echo "flock -s $lock $py tests --ignore=tests/test_cli.py -k \"$skip\"" ;;
      tests:linear) echo "env SPECDEC_KERNELS=linear SPECDEC_COMPILE=off $py tests/test_lossless.py -k greedy" ;;
      rest) if ((${#rest[@]})); then group "${rest[@]}"; rest=(); fi ;;
      *+*) IFS=+ read -ra members <<< "$job"; group "${members[@]}" ;;
      *) echo "$nb --path nbs/$job.ipynb" ;;
    esac
  done
  if ((${#rest[@]})); then group "${rest[@]}"; fi
} | xargs -d '\n' -P 2 -I{} bash -c '{}'
