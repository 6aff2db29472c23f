"""Memory: what building OpenVINO's step and generating add to a process's peak resident memory, on a model with
random weights of over 200 MB (Linux; a process of its own, so nothing else's pages count)."""
import json, os, subprocess, sys
import pytest

CHILD = r"""
import json, re, sys, torch
from pathlib import Path
def status(k): return int(re.search(rf'{k}:\s+(\d+)', Path('/proc/self/status').read_text())[1]) * 1024
torch.set_num_threads(1)
from specdec_nb.models import tiny_llama
from specdec_nb.engine import generate
m = tiny_llama(vocab_size=16384, hidden=768, layers=6, seed=0)
ids = torch.randint(0, 16384, (1, 24), generator=torch.Generator().manual_seed(0))
generate(m, ids, None, max_new_tokens=4, compile='off', kernels='linear')   # libraries loaded, transformers' path
base = status('VmRSS')
generate(m, ids, None, max_new_tokens=16, compile='openvino', kernels='linear')
print(json.dumps(dict(weights=sum(p.numel() * 4 for p in m.parameters()), peak=status('VmHWM') - base,
                      after=status('VmRSS') - base)))
"""
MB = 1 << 20
RUNTIME = 160 * MB   # OpenVINO's libraries and its plugin's buffers, beside the weights (measured: ~40-110 MB)


@pytest.mark.skipif(not sys.platform.startswith('linux'), reason='reads /proc/self/status')
def test_step_holds_one_copy(tmp_path):
    """Once its graph is compiled, OpenVINO's step holds one copy of the weights (its own, repacked), not two:
    the file it was compiled from goes back (`drop_file_pages`). While a graph compiles the file is resident
    too, so the peak may reach two copies; the KV cache of 40 tokens is a few MB."""
    pytest.importorskip('openvino')
    env = dict(os.environ, SPECDEC_CACHE=str(tmp_path), OMP_NUM_THREADS='1')
    r = subprocess.run([sys.executable, '-c', CHILD], capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, (r.returncode, r.stderr[-3000:])
    got = json.loads(r.stdout.strip().splitlines()[-1])
    w = got['weights']
    assert w > 200 * MB, got
    assert got['after'] <= w + RUNTIME, got           # one copy: the compiled graph's
    assert got['peak'] <= 2 * w + RUNTIME, got        # and, while it compiled, the file it read
