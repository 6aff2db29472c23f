#!/usr/bin/env bash
# The middle of `make test`: its jobs in two lanes (two cores), so that neither core waits.
#   usage: tools/test_lanes.sh VENV
# The jobs come from tools/schedule.py, which places them by their measured seconds (tests/durations.json): a
# notebook's name (`05b_quant`: nbs/05b_quant.ipynb, in a process of its own), a group of notebooks
# (`40_longrun+07_lookahead`: one after another in one process), or one of:
#   warm            `specdec warm`: SmolLM2's kernel plan, steps and cost curves, measured once; it holds a lock that
#                   every notebook job waits on (shared), so no notebook measures SmolLM2 itself;
#   tests:sampling  the sampling half of tests/test_lossless.py (tiny models only: it needs nothing warm);
#   tests:cli       tests/test_cli.py;
#   tests:rest      the rest of tests/ (the docs site built once in that process);
#   tests:linear    the greedy matrix on F.linear and transformers' forward, on a Llama and on Gemma 3 (its sliding
#                   windows); the default path's matrix (39_method_checks) covers every architecture.
# Each lane takes the next job when its own is done; xargs fails (123) when one does. Every job's seconds are
# printed (`job NAME: N s`, and nbdev's `NAME.ipynb: N secs`) and the whole output kept in .logs/test.log, from which
# `python tools/schedule.py --update .logs/test.log` refreshes tests/durations.json.
set -euo pipefail
venv=$1
mkdir -p .logs
lock=.logs/warm.lock
# the greedy matrix on the default path is 39_method_checks' registry check (the same tiny models, prompt and tokens)
skip="not test_sampling_distribution and not test_greedy_equals_target"
nb="flock -s $lock env SPECDEC_OV_MEMORY=0.05 OMP_NUM_THREADS=1 $venv/bin/nbdev_test --flags slow --timing"
py="env OMP_NUM_THREADS=1 $venv/bin/python -m pytest -q -p no:xdist --durations=10"
command_of() {  # the command line of one job
  local job=$1 names
  case $job in
    warm) echo "flock -x $lock env OMP_NUM_THREADS=1 $venv/bin/specdec warm --threads 1 --no-quant" ;;
    tests:sampling) echo "env OMP_NUM_THREADS=1 $venv/bin/python -m pytest -q tests/test_lossless.py -k test_sampling_distribution" ;;
    tests:cli) echo "flock -s $lock $py tests/test_cli.py" ;;
    tests:rest) echo "flock -s $lock $py tests --ignore=tests/test_cli.py -k \"$skip\"" ;;
    tests:linear) echo "env SPECDEC_KERNELS=linear SPECDEC_COMPILE=off $py tests/test_lossless.py -k \"greedy and (llama or gemma3)\"" ;;
    *+*) names=$(printf '%s.ipynb|' ${job//+/ }); names=${names%|}
         echo "$nb --n_workers 0 --path nbs --file_re '^(${names//./\\.})\$'" ;;
    *) echo "$nb --path nbs/$job.ipynb" ;;
  esac
}
export -f command_of; export venv lock skip nb py
$venv/bin/python tools/schedule.py \
  | xargs -d '\n' -P 2 -I{} bash -c 'start=$SECONDS; eval "$(command_of "{}")"; rc=$?; printf "\njob %s: %s s\n" "{}" "$((SECONDS - start))"; exit $rc' \
  2>&1 | tee .logs/test.log
exit "${PIPESTATUS[1]}"
