"The `specdec` command end to end on a tiny model: the JSON contract, exit codes, error messages."
import json, os, subprocess, sys, time
from types import SimpleNamespace
from pathlib import Path
import pytest

SPECDEC = [str(Path(sys.executable).parent / 'specdec')]  # the console script, as users run it

def run(*args, timeout=300):
    env = dict(os.environ, HF_HUB_OFFLINE='1', TOKENIZERS_PARALLELISM='false')
    return subprocess.run(SPECDEC + [str(a) for a in args], capture_output=True, text=True, timeout=timeout, env=env)

def in_process(args, capsys, monkeypatch) -> int:
    """`specdec ARGS` in this process (as `run` sets the environment; no ~7 s of imports for each case): its exit
    code. The console script itself is run by the tests that need a process of their own (the JSON contract, no hub,
    `warm`)."""
    monkeypatch.setenv('HF_HUB_OFFLINE', '1'); monkeypatch.setenv('TOKENIZERS_PARALLELISM', 'false')
    from specdec_nb.cli import main
    capsys.readouterr()
    try: code = main([str(a) for a in args])
    except SystemExit as e: code = e.code
    return code or 0                                     # as the console script's exit: None is 0

@pytest.fixture
def specdec(capsys, monkeypatch):
    "`run` in this process: `specdec(*args)` gives what `subprocess.run` would (returncode, stdout, stderr)."
    def go(*args):
        code = in_process(args, capsys, monkeypatch); out = capsys.readouterr()
        return SimpleNamespace(returncode=code, stdout=out.out, stderr=out.err)
    return go

def test_bench_contract(tiny_model_dir, two_prompts, tmp_path):
    out, fig = tmp_path / 'r.json', tmp_path / 'r.png'
    r = run('bench', '--model', tiny_model_dir, '--methods', 'hf-vanilla,vanilla,oracle,draft', '--prompts', two_prompts,
            '--limit', 1, '--max-new-tokens', 16, '--k', 3, '--draft-layers', 1, '--json', out, '--plot', fig, '--no-progress')
    assert r.returncode == 0, r.stderr
    res = json.loads(out.read_text())
    assert set(res) >= {'config', 'methods'}
    assert set(res['methods']) == {'hf-vanilla', 'vanilla', 'oracle', 'draft'}
    for m, v in res['methods'].items():
        assert set(v) >= {'tokens_per_s', 'speedup', 'tau', 'exact', 'per_category'}, m
        assert set(v['per_category']) == {'summarization', 'qa'}
        assert v['tokens_per_s'] > 0 and v['speedup'] > 0
    for m in ('vanilla', 'oracle', 'draft'): assert res['methods'][m]['exact'] == 1.0
    assert res['methods']['hf-vanilla']['speedup'] == pytest.approx(1.0)
    assert res['config']['oracle_ceiling']['ceiling'] > 0
    assert fig.stat().st_size > 1000
    assert 'speedup' in r.stdout and 'oracle' in r.stdout

@pytest.mark.parametrize('args,msg', [
    (['bench', '--methods', 'vanilla,nope'], 'unknown method(s) nope; valid:'),
    (['bench', '--methods', 'vanilla', '--limit', '0'], '--limit must be positive'),
    (['bench', '--methods', 'vanilla', '--prompts', '/no/such/file.jsonl'], 'prompt file not found'),
])
def test_bench_errors(args, msg, capsys, monkeypatch):
    assert in_process(args, capsys, monkeypatch) == 2 and msg in capsys.readouterr().err

@pytest.mark.parametrize('args,msg', [
    (['generate', 'hi', '--device', 'cuda:99'], '--device cuda:99'),                # no CUDA, or not that many devices
    (['generate', 'hi', '--model', 'specdec-nb/no-such-model'], 'HF_HUB_OFFLINE is set'),     # run() sets it: no network here
    (['generate', 'hi', '--method', 'nope'], 'unknown method(s) nope; valid:'),
    (['generate', 'hi', '--temperature', '-0.5'], '--temperature must be >= 0'),
    (['generate', 'hi', '--top-p', '1.5'], '--top-p must be in (0, 1]'),
    (['generate', 'hi', '--repetition-penalty', '0'], '--repetition-penalty must be > 0'),
    (['generate', 'hi', '--no-repeat-ngram-size', '0'], '--no-repeat-ngram-size must be positive'),
    (['generate', 'hi', '--json-schema', '{"type": '], '--json-schema is neither a JSON file nor JSON'),
    (['generate', 'hi', '--regex', 'a', '--grammar', 'start: "a"'], 'give one of --json-schema, --regex, --grammar'),
    (['bench', '--methods', 'vanilla', '--max-new-tokens', '0'], '--max-new-tokens must be positive'),
    (['generate', 'hi', '--method', 'pld:jump=true'], 'pld:jump=true drafts what a grammar forces'),
    (['demo', '--method', 'hf-pld'], "transformers' own method"),
])
def test_usage_errors_before_loading(args, msg, capsys, monkeypatch):
    "Bad input of every kind: one line, exit code 2, and no model loaded first (well under a model load)."
    t = time.perf_counter(); code = in_process(args, capsys, monkeypatch); err = capsys.readouterr().err
    assert code == 2 and msg in err, err
    assert len(err.strip().splitlines()) == 1 and 'loading' not in err and time.perf_counter() - t < 30

def test_no_hub_fails_fast():
    "A hub model name with no network at all (not just HF_HUB_OFFLINE): one line within seconds, not a minute of retries."
    env = {k: v for k, v in os.environ.items() if k not in ('HF_HUB_OFFLINE', 'TRANSFORMERS_OFFLINE')}
    env['HF_ENDPOINT'] = 'http://127.0.0.1:9'                     # nothing listens there: what an offline machine sees
    t = time.perf_counter()
    r = subprocess.run(SPECDEC + ['generate', 'hi', '--model', 'specdec-nb/no-such-model'], capture_output=True, text=True,
                       timeout=120, env=env)
    assert r.returncode == 2 and 'cannot reach the Hugging Face Hub' in r.stderr and 'Traceback' not in r.stderr, r.stderr
    assert time.perf_counter() - t < 30

def test_help_is_self_contained(specdec):
    "The help points at what ships (the docs' bench page), not at files a clone does not have."
    r = specdec('bench', '--help')
    assert r.returncode == 0 and 'BENCH.md' not in r.stdout and 'bench page' in r.stdout

def test_malformed_prompts(tiny_model_dir, tmp_path, specdec):
    bad = tmp_path / 'bad.jsonl'; bad.write_text('{"question_id": 1, "category": "qa"}\n')
    r = specdec('bench', '--model', tiny_model_dir, '--methods', 'vanilla', '--prompts', bad, '--no-progress')
    assert r.returncode == 2 and 'not a Spec-Bench prompt' in r.stderr and 'Traceback' not in r.stderr

def test_generate_streams(tiny_model_dir, specdec):
    r = specdec('generate', 'Hello there', '--model', tiny_model_dir, '--method', 'draft', '--k', 2, '--draft-layers', 1, '--max-new-tokens', 12)
    assert r.returncode == 0, r.stderr
    assert '[draft]' in r.stdout and 'tau' in r.stdout
    r = specdec('generate', '--model', tiny_model_dir, '--method', 'hf-pld')
    assert r.returncode == 2 and 'specdec: error' in r.stderr

def test_generate_with_processors(tiny_model_dir, specdec, monkeypatch):
    "`--repetition-penalty` and `--no-repeat-ngram-size` reach `generate` as transformers' processors."
    import specdec_nb.engine as engine
    seen, real = [], engine.generate
    monkeypatch.setattr(engine, 'generate', lambda *a, **kw: seen.append(kw['logits_processor']) or real(*a, **kw))
    r = specdec('generate', 'Hello there', '--model', tiny_model_dir, '--method', 'pld', '--max-new-tokens', 12,
                '--repetition-penalty', 1.3, '--no-repeat-ngram-size', 3)
    assert r.returncode == 0, r.stderr
    assert [type(p).__name__ for p in seen[0]] == ['RepetitionPenaltyLogitsProcessor', 'NoRepeatNGramLogitsProcessor']

def test_generate_json(tiny_model_dir, specdec, tmp_path):
    "`--json-schema FILE` (with the forced tokens drafted): the answer parses as JSON of that schema, whatever the model."
    schema = tmp_path / 'schema.json'
    schema.write_text(json.dumps({'type': 'object', 'properties': {'n': {'type': 'integer', 'maximum': 99, 'minimum': 0}},
                                  'required': ['n'],
                                  'additionalProperties': False, 'x-guidance': {'whitespace_flexible': False}}))
    r = specdec('generate', 'Give me a number', '--model', tiny_model_dir, '--method', 'pld:jump=true',
                '--max-new-tokens', 24, '--json-schema', schema)
    assert r.returncode == 0, r.stderr
    answer = r.stdout.split('\n[pld:jump=true]')[0].strip()
    assert isinstance(json.loads(answer)['n'], int), answer

def test_missing_prerequisite(tiny_model_dir, two_prompts, specdec):
    "A method whose trained artifact does not fit the model: one clear line, exit code 2."
    r = specdec('bench', '--model', tiny_model_dir, '--methods', 'medusa', '--prompts', two_prompts, '--no-progress')
    assert r.returncode == 2 and 'needs a medusa model' in r.stderr and 'Traceback' not in r.stderr
    r = specdec('generate', 'Hello', '--model', tiny_model_dir, '--method', 'medusa')
    assert r.returncode == 2 and 'needs a medusa model' in r.stderr and 'Traceback' not in r.stderr

def test_self_speculation(tiny_model_dir, two_prompts, tmp_path, specdec):
    "Self-speculative methods from the command line: a skip set given as a parameter runs exact; no adapter or skip set: exit code 2."
    out = tmp_path / 's.json'
    r = specdec('bench', '--model', tiny_model_dir, '--methods', 'hf-vanilla,layer-skip,early-exit-plain', '--prompts', two_prompts, '--limit', 1,
            '--max-new-tokens', 12, '--param', 'skip=1,2', '--param', 'exit_layer=2', '--json', out, '--no-progress')
    assert r.returncode == 0, r.stderr
    res = json.loads(out.read_text())['methods']
    assert res['layer-skip']['exact'] == 1.0 and res['early-exit-plain']['exact'] == 1.0
    r = specdec('bench', '--model', tiny_model_dir, '--methods', 'layer-skip', '--prompts', two_prompts, '--no-progress')
    assert r.returncode == 2 and 'needs a skip set' in r.stderr and 'calibrate_skip' in r.stderr and 'Traceback' not in r.stderr
    r = specdec('generate', 'Hello', '--model', tiny_model_dir, '--method', 'early-exit')
    assert r.returncode == 2 and 'needs an early-exit adapter' in r.stderr and 'Traceback' not in r.stderr
    r = specdec('generate', 'Hello', '--model', tiny_model_dir, '--method', 'early-exit-plain', '--param', 'exit_layer=9')
    assert r.returncode == 2 and 'exit layer must be' in r.stderr and 'Traceback' not in r.stderr

def test_method_variants(tiny_model_dir, two_prompts, tmp_path, specdec):
    "Settings of one method side by side in one run (`NAME:KEY=VALUE:...`), the same names in `generate`; a malformed variant: exit code 2."
    out = tmp_path / 'v.json'
    r = specdec('bench', '--model', tiny_model_dir, '--methods', 'hf-vanilla,layer-skip:skip=1,layer-skip:skip=1,2', '--prompts', two_prompts,
            '--limit', 1, '--max-new-tokens', 12, '--json', out, '--no-progress')
    assert r.returncode == 0, r.stderr
    res = json.loads(out.read_text())['methods']
    assert set(res) == {'hf-vanilla', 'layer-skip:skip=1', 'layer-skip:skip=1,2'}
    assert all(res[m]['exact'] == 1.0 for m in res)
    r = specdec('generate', 'Hello', '--model', tiny_model_dir, '--method', 'lookahead:W=2:N=4:G=1', '--max-new-tokens', 8)
    assert r.returncode == 0 and '[lookahead:W=2:N=4:G=1]' in r.stdout, r.stderr
    r = specdec('bench', '--methods', 'vanilla,pld:k', '--no-progress')
    assert r.returncode == 2 and 'KEY=VALUE' in r.stderr and 'Traceback' not in r.stderr

def test_warm(tiny_model_dir, tmp_path, specdec, monkeypatch):
    """`specdec warm` measures the plan and the curves once, with a line each; a second run reads them back; after it,
    `specdec generate` measures nothing (`generate_measures_nothing`)."""
    env = dict(os.environ, SPECDEC_CACHE=str(tmp_path))
    runs = [subprocess.run(SPECDEC + ['warm', '--model', str(tiny_model_dir), '--threads', '1'], capture_output=True,
                           text=True, env=env) for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), runs[0].stderr[-2000:]
    first, again = (r.stderr for r in runs)
    assert 'kernel plan ready' in first and 'cost curves ready' in first and 'measuring' in first, first
    assert 'forward step ready' in first, first
    assert 'choosing' not in again, again                                   # kept: nothing measured again
    assert 'measuring' not in again or 'too busy' in first, (first, again)  # (a busy machine's curve is not kept)
    assert (tmp_path / 'cost_curves.json').exists()
    planned = os.environ.get('SPECDEC_KERNELS', 'fast') != 'linear'          # F.linear everywhere: no plan to keep
    assert (tmp_path / 'kernel_plans.json').exists() == planned
    assert "quantized draft's precision ready" in first, first
    assert "OpenVINO's saved graphs take" in first and 'compiled blobs' in first, first   # their size on disk
    generate_measures_nothing(tiny_model_dir, tmp_path, specdec, monkeypatch)

def generate_measures_nothing(tiny_model_dir, tmp_path, specdec, monkeypatch):
    "After `specdec warm` (in the cache `tmp_path`), `specdec generate` prints no measuring or timing line, whatever the method."
    from specdec_nb.registry import METHODS
    monkeypatch.setenv('SPECDEC_CACHE', str(tmp_path))
    ran, said = [], {}
    from specdec_nb.setup import needs_grammar
    for name in [n for n, m in METHODS.items() if not m.peer and n != 'oracle']:
        shape = ['--regex', '[a-z ]+'] if needs_grammar(name) else []       # jump-forward drafts a grammar's text
        r = specdec('generate', 'Summarize: the cat sat on the mat. The cat sat on the mat.', '--model', tiny_model_dir,
                    '--method', name, '--max-new-tokens', 6, '--threads', 1, '--draft-layers', 1, *shape)
        if r.returncode == 2 and ('needs' in r.stderr or 'exact under greedy' in r.stderr):
            continue                         # a method whose artifact (a head, an adapter) is not for this model
        assert r.returncode == 0, (name, r.stderr[-2000:])
        ran.append(name)
        said[name] = [l for l in r.stderr.splitlines() if any(w in l for w in ('measuring', 'timing', 'choosing'))]
    assert len(ran) >= 10 and {'vanilla', 'pld', 'suffix-recycle', 'quant', 'suffix-quant'} <= set(ran), ran
    assert not any(said.values()), said

def test_peers_export_error(tiny_model_dir, tmp_path, specdec, monkeypatch):
    "`specdec peers` with an exporter that fails: one error line and exit code 2, no traceback, no IR."
    monkeypatch.setenv('SPECDEC_CACHE', str(tmp_path))
    r = specdec('peers', '--model', tiny_model_dir, '--threads', '1', '--optimum-cli', 'false')
    assert r.returncode == 2 and 'the export failed' in r.stderr and 'Traceback' not in r.stderr, r.stderr[-2000:]
    assert not list(tmp_path.glob('openvino/*/openvino_model.xml'))

@pytest.fixture(scope='session')
def char_model_dir(tmp_path_factory):
    "A tiny random Llama with a one-token-per-character tokenizer: a draft whose vocabulary is not SmolLM2's."
    from specdec_nb.models import tiny_llama
    from specdec_nb.xdraft import char_tokenizer
    d, tok = tmp_path_factory.mktemp('chars'), char_tokenizer()
    tiny_llama(vocab_size=len(tok), hidden=32, layers=2).save_pretrained(d)
    tok.save_pretrained(d)
    return d

def test_xdraft(tiny_model_dir, char_model_dir, two_prompts, tmp_path, specdec):
    "A --draft-model with another tokenizer drafts for xdraft and transformers' hf-assisted-x; both exact."
    out = tmp_path / 'x.json'
    r = specdec('bench', '--model', tiny_model_dir, '--draft-model', char_model_dir, '--methods', 'hf-vanilla,xdraft,hf-assisted-x',
            '--prompts', two_prompts, '--limit', 1, '--max-new-tokens', 12, '--json', out, '--no-progress', '--threads', 1)
    assert r.returncode == 0, r.stderr
    res = json.loads(out.read_text())['methods']
    assert res['xdraft']['exact'] == 1.0 and res['hf-assisted-x']['exact'] == 1.0
    r = specdec('generate', 'Hello', '--model', tiny_model_dir, '--method', 'xdraft', '--draft-model', char_model_dir,
            '--temperature', 1, '--threads', 1)
    assert r.returncode == 2 and 'greedy' in r.stderr and 'Traceback' not in r.stderr
    r = specdec('generate', 'Hello', '--model', tiny_model_dir, '--method', 'xdraft', '--threads', 1)   # SmolLM2's vocabulary
    assert r.returncode == 2 and "the target has SmolLM2's vocabulary" in r.stderr

def test_train_export_use(tiny_model_dir, tmp_path, specdec):
    "specdec train writes a head that --param head=DIR loads; specdec export writes it for vLLM; clear errors."
    data, out = tmp_path / 'd.jsonl', tmp_path / 'head'
    data.write_text('\n'.join(json.dumps(dict(prompt=f'Question {i}?', answer=f'Answer {i}, with some words.'))
                              for i in range(6)))
    r = specdec('train', 'eagle', '--model', tiny_model_dir, '--data', data, '--out', out, '--n', 4, '--held', 2,
            '--steps', 5, '--no-progress', '--threads', 1)
    assert r.returncode == 0, r.stderr
    assert (out / 'eagle.safetensors').is_file() and 'held-out top-1 accuracy' in r.stdout and 'use it:' in r.stdout
    r = specdec('generate', 'Hello', '--model', tiny_model_dir, '--method', 'eagle', '--param', f'head={out}',
            '--max-new-tokens', 8, '--threads', 1)
    assert r.returncode == 0, r.stderr
    r = specdec('export', out, '--to', 'vllm', '--model', tiny_model_dir, '--threads', 1)
    assert r.returncode == 0, r.stderr
    assert (out / 'vllm' / 'config.json').is_file()
    r = specdec('generate', 'Hello', '--model', tiny_model_dir, '--method', 'medusa', '--param', f'head={out}')
    assert r.returncode == 2 and 'specdec train medusa' in r.stderr and 'Traceback' not in r.stderr
    r = specdec('train', 'eagle', '--model', tiny_model_dir, '--data', tmp_path / 'none.jsonl', '--out', out)
    assert r.returncode == 2 and 'no file' in r.stderr

def test_bench_batch(tiny_model_dir, two_prompts, tmp_path, specdec):
    "`--batch-size 2`: transformers' batched generate against ours (one proposer per row), throughput and latency, our rows exact; a peer that cannot batch: one line."
    out = tmp_path / 'b.json'
    methods = 'hf-vanilla,vanilla,pld,pld:compile=lean,hf-pld'       # a variant through the lean compiled step
    r = specdec('bench', '--model', tiny_model_dir, '--methods', methods, '--prompts', two_prompts, '--limit', 1,
            '--max-new-tokens', 12, '--batch-size', 2, '--threads', 1, '--json', out, '--no-progress')
    assert r.returncode == 0, r.stderr
    res = json.loads(out.read_text())
    assert res['config']['batch_size'] == 2 and set(res['methods']) == {'hf-vanilla', 'vanilla', 'pld', 'pld:compile=lean'}
    for m, v in res['methods'].items():
        assert v['tokens_per_s'] > 0 and v['latency_s'] > 0 and v['n'] == 2, m
    assert all(res['methods'][m]['exact'] == 1.0 for m in ('vanilla', 'pld', 'pld:compile=lean'))
    assert res['methods']['hf-vanilla']['speedup'] == pytest.approx(1.0)
    assert "skipping hf-pld in a batch" in r.stderr and 'batches of 2' in r.stdout and 'latency' in r.stdout
