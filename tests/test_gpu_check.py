"""`tools/gpu_check.py` in its dry mode (`--device cpu --tiny`): every step of the GPU run, in seconds: it cannot rot.
Its exactness check runs in bf16 only and on the tiny Llama only: the fp32 one on the CPU, on every architecture, is
`tests/test_lossless.py`'s greedy matrix (the same tiny models, prompt and tokens), which `make test` runs anyway, and
the check's loop over architectures is the same code for each."""
import importlib.util, json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

def test_gpu_check_dry(tmp_path, capsys, monkeypatch):
    from specdec_nb.method_checks import our_methods, untrained_methods
    from specdec_nb.setup import needs_grammar
    out = tmp_path / 'gpu.json'
    # the machine's own cache and fp32: the kernel plan of SmolLM2's shapes that `make test` measures first
    # (`specdec warm`, fp32) serves the dry run's model of SmolLM2's shape too (a bf16 plan measured afresh took
    # ~50 s of the test's ~90 here); the exactness check still runs in bf16. The script's `main` runs in this
    # process (its ~8 s of imports are paid already), as `python tools/gpu_check.py ARGS` runs it.
    monkeypatch.setenv('HF_HUB_OFFLINE', '1')
    spec = importlib.util.spec_from_file_location('gpu_check_tool', ROOT / 'tools' / 'gpu_check.py')
    tool = importlib.util.module_from_spec(spec); spec.loader.exec_module(tool)
    code = tool.main(['--device', 'cpu', '--tiny', '--dtype', 'fp32', '--check-dtypes', 'bf16', '--archs', 'llama',
                      '--json', str(out)])
    r = capsys.readouterr()
    assert code == 0, r.out[-3000:] + r.err[-3000:]
    res = json.loads(out.read_text())
    assert res['config']['device'] == 'cpu' and res['config']['tiny'] and res['config']['dtype'] == 'fp32'
    runs = {(row['method'], row['arch'], row['dtype']) for row in res['check']}
    assert runs == {(m, a, d) for m in our_methods() for a in ('llama',) for d in ('bf16',)}
    assert {row['status'] for row in res['check']} <= {'exact', 'near-ties', 'refused'}
    ft = res['forward_times']
    assert ft['n'] == list(range(1, 9)) and all(s > 0 for s in ft['seconds']) and ft['relative'][0] == 1.0
    methods = res['bench']['methods']
    assert set(methods) == {'hf-vanilla', *(m for m in untrained_methods() if not needs_grammar(m))}   # no grammar asked
    for name, m in methods.items():
        assert m['tokens_per_s'] > 0 and m['speedup'] > 0 and not m['errors'], name
        assert 0 <= m['exact'] <= 1, name                     # greedy, bf16: exact up to near-ties, reported
    assert methods['oracle']['tau'] > 1
    assert 'check bf16' in r.out and 'T(n)/T1' in r.out and 'speedup per group' in r.out
