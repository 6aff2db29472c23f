"The `pip install` path users take: build the wheel, install it into a fresh virtual environment, use it."
import os, subprocess, sys, textwrap, venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

def test_wheel_installs_and_runs(tmp_path):
    wheels = tmp_path / 'wheels'
    b = subprocess.run([sys.executable, '-m', 'pip', 'wheel', '--no-deps', '--no-build-isolation', '-v', '-w', wheels, ROOT],
                       capture_output=True, text=True)
    assert b.returncode == 0, b.stdout[-3000:] + b.stderr[-3000:]
    signs = ('BuildBackendWarning', 'SetuptoolsDeprecationWarning', 'is absent from the `packages`')
    noise = [l for l in (b.stdout + b.stderr).splitlines() if any(s in l for s in signs)]
    assert not noise, noise                                                    # packaging says nothing a user must read
    whl = next(wheels.glob('specdec_nb-*.whl'))
    env_dir = tmp_path / 'env'
    venv.EnvBuilder(with_pip=False).create(env_dir)   # no pip of its own (ensurepip: ~15 s): this pip installs into it
    py = env_dir / 'bin' / 'python'
    # reuse this environment's torch/transformers/...: expose its site-packages behind the fresh env's own
    import site, sysconfig
    (Path(subprocess.check_output([py, '-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'], text=True).strip()) / 'outer.pth').write_text(sysconfig.get_paths()['purelib'] + '\n')
    subprocess.run([sys.executable, '-m', 'pip', '--python', py, 'install', '-q', '--no-deps', '--no-index', whl], check=True)
    script = textwrap.dedent('''
        import torch, specdec_nb, os, sys
        from specdec_nb.models import tiny_llama, load_prompts
        from specdec_nb.engine import generate
        from specdec_nb.draft import DraftModelProposer
        assert os.environ["ENV_DIR"] in specdec_nb.__file__, specdec_nb.__file__
        m = tiny_llama(vocab_size=64, layers=4); ids = torch.tensor([[1, 2, 3, 1, 2]])
        ref = generate(m, ids, max_new_tokens=20).sequences
        o = generate(m, ids, DraftModelProposer(m, k=3, adaptive=False), max_new_tokens=20)
        assert torch.equal(o.sequences, ref) and o.stats.tau == 4.0
        assert len(load_prompts()) == 240
        from specdec_nb.selfspec import smollm2_adapter_path, smollm2_skip_path
        assert smollm2_adapter_path().stat().st_size > 1e6 and smollm2_skip_path().exists()   # the trained artifacts ship in the wheel
        print("ok", specdec_nb.__version__)
    ''')
    r = subprocess.run([py, '-c', script], capture_output=True, text=True, cwd=tmp_path, env=dict(os.environ, ENV_DIR=str(env_dir)))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith('ok')
    r = subprocess.run([env_dir / 'bin' / 'specdec', '--help'], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0 and 'bench' in r.stdout
