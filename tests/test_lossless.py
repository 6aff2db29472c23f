"""The losslessness matrix: every registered proposer of ours, on three architectures.

Greedy: token-for-token equality with transformers' own `generate`. Sampling: the first two tokens' joint
distribution equals the target's exact one (chi-square), and the wrong acceptance rule is caught (negative control).
"""
import pytest, torch
from specdec_nb.bench import BenchSetup
from specdec_nb.registry import METHODS
from specdec_nb.models import tiny_llama, tiny_qwen2, tiny_gpt2
from specdec_nb.engine import generate
from specdec_nb.core import Sampling, chi2_stat, chi2_pvalue
from specdec_nb.testing import exact_two_token_dist, two_token_counts, wrong_rule
from specdec_nb.medusa import MedusaHeads
from specdec_nb.selfspec import ExitAdapter

ARCHS = {'llama': tiny_llama, 'qwen2': tiny_qwen2, 'gpt2': tiny_gpt2}
NAMES = sorted(n for n, m in METHODS.items() if not m.peer)

def random_heads(model, n_heads=3, seed=0):
    "Medusa heads with random (not identity) blocks: a real, if poor, drafter for the tiny models."
    torch.manual_seed(seed); h = MedusaHeads(model.get_output_embeddings(), n_heads)
    with torch.no_grad():
        for b in h.blocks: b.linear.weight.normal_(0, 0.5)
    h.choices = [[0], [1], [0, 0], [0, 1], [1, 0], [0, 0, 0]]
    return h

SELF_SPEC = {'early-exit', 'early-exit-plain', 'layer-skip'}   # Llama-style decoders only
FLAT = ','.join(['1'] + ['1.01'] * 16)   # a fixed cost curve T(n)/T(1) for the drafters that take one: no timing in a test

def proposer(name, model, future):
    setup = BenchSetup(model, k=3, draft_layers=2, max_new_tokens=len(future), medusa_heads=random_heads(model), skip=[1, 2],
                       adapter=ExitAdapter(model, 2, init_layer=1) if name in SELF_SPEC else None, params=dict(ee_stop=0.1, cost=FLAT))
    return METHODS[name].build(setup, future)

@pytest.mark.parametrize('arch', ARCHS)
@pytest.mark.parametrize('name', NAMES)
def test_greedy_equals_target(name, arch):
    m = ARCHS[arch](vocab_size=64, layers=4, seed=3)
    if arch == 'gpt2' and name in SELF_SPEC:   # no Llama-style decoder to exit from: a clear error, not garbage
        with pytest.raises(TypeError, match='Llama-style'): proposer(name, m, [0])
        return
    for seed in range(2):
        g = torch.Generator().manual_seed(seed)
        ids = torch.cat([torch.randint(0, 64, (1, 6), generator=g)] * 3, 1)  # repetitive, so lookup drafters fire
        ref = m.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=40, do_sample=False, pad_token_id=0)
        out = generate(m, ids, proposer(name, m, ref[0, ids.shape[1]:].tolist()), max_new_tokens=40)
        assert torch.equal(out.sequences, ref), name

@pytest.mark.parametrize('name', [n for n in NAMES if n != 'vanilla' and METHODS[n].verify is None])   # lossy methods are not lossless
def test_sampling_distribution(name):
    m = tiny_llama(vocab_size=16, layers=4, seed=1)
    ids = torch.tensor([[3, 1, 4, 3, 1, 4, 3, 1]])
    exact = exact_two_token_dist(m, ids, Sampling(do_sample=True))
    future = [int(exact.sum(1).argmax()), 5]
    counts = lambda: two_token_counts(m, ids, lambda: proposer(name, m, future), 2500, seed=7)
    results = {'right': chi2_pvalue(*chi2_stat(counts(), exact))}
    with wrong_rule('q/p'):   # the negative control: accept with min(1, q/p), swapped into core from here
        results['wrong'] = chi2_pvalue(*chi2_stat(counts(), exact))
    assert results['right'] > 1e-4, results
    assert results['wrong'] < 1e-4, f'the negative control was not caught for {name}: {results}'
