"""The losslessness matrix: every registered proposer of ours, on three architectures.

Greedy: token-for-token equality with transformers' own `generate`. Sampling, at temperature 1 and at
temperature 0.7 with top-p 0.9: the first two tokens' joint distribution equals the target's exact one
(chi-square), and the wrong acceptance rule is caught (negative control). Each method is built for the tiny
models by `specdec_nb.method_checks.tiny_setup` (random or cut-out artifacts, never trained ones), as the CUDA check does.
"""
import functools, pytest, torch
from specdec_nb.registry import METHODS
from specdec_nb.models import tiny_llama
from specdec_nb.core import Sampling
from specdec_nb.engine import generate
from specdec_nb.lossless import exact_two_token_dist, sampling_check, greedy_reference
from specdec_nb.core import verify
from specdec_nb.method_checks import ARCHS, our_methods, tiny_setup, check_method
from specdec_nb.setup import needs_grammar

NAMES = our_methods()
SELF_SPEC = {'early-exit', 'early-exit-plain', 'layer-skip', 'eagle', 'eagle-tree', 'suffix-eagle',
             'quant', 'quant-tree', 'suffix-quant'}   # Llama-style decoders only (Gemma 3's sliding windows included)
LOSSLESS = [n for n in NAMES if n != 'vanilla' and METHODS[n].verify is None   # not the lossy ones
            and not METHODS[n].greedy_only                                   # nor the greedy-only
            and not needs_grammar(n)]          # nor jump-forward: plain decoding here (`02c_grammar` samples it)
GREEDY_ONLY = [n for n in NAMES if METHODS[n].greedy_only]
SETTINGS = {'t1.0': dict(temperature=1.0), 't0.7-p0.9': dict(temperature=0.7, top_p=0.9)}

@pytest.mark.parametrize('arch', ARCHS)
@pytest.mark.parametrize('name', NAMES)
def test_greedy_equals_target(name, arch):
    m = ARCHS[arch](vocab_size=64, layers=4, seed=3)
    for seed in range(2):
        g = torch.Generator().manual_seed(seed)
        ids = torch.cat([torch.randint(0, 64, (1, 6), generator=g)] * 3, 1)  # repetitive: lookups fire
        row = check_method(name, m, ids, max_new_tokens=40)
        if arch == 'gpt2' and name in SELF_SPEC:   # no Llama-style decoder to exit from: a clear error
            assert row['status'] == 'refused' and 'Llama-style' in row['why'], row
            return
        assert row['status'] == 'exact', row      # fp32 on the CPU: not even a near-tie

ONE_HOT = {'oracle', 'ngram', 'lookahead', 'suffix', 'recycle', 'suffix-recycle'}   # drafts with no q of their own
# top-p changes a draft only where the drafter samples it from a q of its own; for drafts without one it changes the
# target's p alone, the same code for each: prompt lookup's chains and trees test it for all of them
SAMPLED = [(n, s) for n in LOSSLESS for s in SETTINGS if s == 't1.0' or n not in ONE_HOT]

@pytest.mark.parametrize('name,setting', SAMPLED)
def test_sampling_distribution(name, setting):
    m, kw = tiny_llama(vocab_size=16, layers=4, seed=1), SETTINGS[setting]
    ids = torch.tensor([[3, 1, 4, 3, 1, 4, 3, 1]])
    future = [int(exact_two_token_dist(m, ids, Sampling(do_sample=True, **kw)).sum(1).argmax()), 5]
    make = lambda: METHODS[name].build(tiny_setup(name, m, len(future)), future)   # a fresh setup a draw (a corpus grows)
    # 200 draws of the right rule a setting, up to 300 of the q/p control (looking every 100): the control scores chi2
    # >= ~1200 at 1250 draws, so >= ~190 at 200 (df <= 54; p = 1e-4 needs ~100); each method's own notebook tests it
    # with more draws (make test's 20 minutes set the count). The quantized target's chain drafts a q close to p (its
    # point): its control may need 900 draws.
    sampling_check(m, ids, make, n=200, seed=7, label=f'{name} {setting}', control_n=900 if name == 'quant' else 300,
                   **kw)   # right passes, q/p caught

@pytest.mark.parametrize('name', GREEDY_ONLY)
def test_greedy_only_refuses_sampling(name):
    "A method exact only under greedy decoding refuses sampling with a clear error, never samples wrongly."
    m = tiny_llama(vocab_size=16, layers=4, seed=1)
    proposer = METHODS[name].build(tiny_setup(name, m, 4), [1, 2])
    with pytest.raises(ValueError, match='greedy'):
        generate(m, torch.tensor([[3, 1, 4, 3]]), proposer, max_new_tokens=4, do_sample=True)


def _processors():
    from transformers import LogitsProcessorList, RepetitionPenaltyLogitsProcessor, NoRepeatNGramLogitsProcessor
    return LogitsProcessorList([RepetitionPenaltyLogitsProcessor(1.3), NoRepeatNGramLogitsProcessor(3)])

@pytest.mark.parametrize('name', NAMES)
def test_exact_under_processors(name):
    "transformers' logits processors (a repetition penalty, no repeated 3-grams): every method still exact, greedy."
    m = ARCHS['llama'](vocab_size=64, layers=4, seed=3)
    ids = torch.cat([torch.randint(0, 64, (1, 6), generator=torch.Generator().manual_seed(0))] * 3, 1)
    if METHODS[name].verify is not None:           # a lossy rule of its own: refused with one line
        with pytest.raises(ValueError, match='lossless verify'):
            check_method(name, m, ids, max_new_tokens=40, logits_processor=_processors())
        return
    row = check_method(name, m, ids, max_new_tokens=40, logits_processor=_processors())
    assert row['status'] == 'exact', row

@pytest.mark.parametrize('name', ['pld', 'eagle-tree', 'draft'])
def test_sampling_under_processors(name):
    "A lookup chain, a tree and a draft model's sampled chain: under a repetition penalty, as the target's."
    from transformers import LogitsProcessorList, RepetitionPenaltyLogitsProcessor
    m, lp = tiny_llama(vocab_size=16, layers=4, seed=1), LogitsProcessorList([RepetitionPenaltyLogitsProcessor(2.0)])
    ids = torch.tensor([[3, 1, 4, 3, 1, 4, 3, 1]])
    exact = exact_two_token_dist(m, ids, Sampling(do_sample=True), lp)
    future = [int(exact.sum(1).argmax()), 5]
    make = lambda: METHODS[name].build(tiny_setup(name, m, len(future)), future)
    sampling_check(m, ids, make, n=200, seed=7, label=f'{name} under a penalty', control_n=300,
                   temperature=1.0, logits_processor=lp)


@functools.lru_cache(maxsize=1)
def _json_task():
    "A tiny Llama over a small byte-level tokenizer, a prompt, and a JSON schema to answer in."
    from specdec_nb.grammar import Grammar, byte_bpe_tokenizer
    corpus = ['{"name": "Bo", "age": 3}', '{"name": "Alice", "age": 42}', 'the cat sat on the mat', 'age name 0123456789']
    tok = byte_bpe_tokenizer(corpus * 5)
    m = tiny_llama(vocab_size=len(tok), hidden=32, layers=4, seed=3)
    schema = {'type': 'object', 'properties': {'name': {'type': 'string', 'maxLength': 6}, 'age': {'type': 'integer'}},
              'required': ['name', 'age'], 'additionalProperties': False, 'x-guidance': {'whitespace_flexible': False}}
    ids = torch.tensor([tok.encode('the cat sat on the mat; the cat sat:')])
    return m, ids, Grammar(tok, json_schema=schema, vocab_size=len(tok), eos=[tok.eos_token_id]), tok

@pytest.mark.parametrize('jump', [False, True], ids=['alone', 'jump'])
@pytest.mark.parametrize('name', NAMES)
def test_exact_under_grammar(name, jump):
    """Every method under a JSON schema, alone and after the grammar's forced tokens (`jump-forward`): transformers'
    greedy output with the same grammar as a processor, exactly."""
    from transformers import LogitsProcessorList
    from specdec_nb.grammar import GrammarProcessor, JumpForward
    m, ids, g, _ = _json_task()
    ref = greedy_reference(m, ids, 40, logits_processor=LogitsProcessorList([GrammarProcessor(g, ids.shape[1])]))
    setup, method = tiny_setup(name, m, 40), METHODS[name]
    proposer = method.build(setup, ref[0, ids.shape[1]:].tolist())
    proposer = JumpForward(proposer) if jump else proposer
    run = lambda: generate(m, ids, proposer, max_new_tokens=40, grammar=g,
                           verify_fn=method.verify(setup) if method.verify else verify)
    if method.verify is not None:                  # a lossy rule of its own: refused with one line
        with pytest.raises(ValueError, match='lossless verify'):
            run()
        return
    assert torch.equal(run().sequences, ref)
    if jump:                                       # the schema's keys and punctuation were drafted, and accepted
        assert proposer.forced_accepted > 0, (proposer.forced_accepted, proposer.forced_drafted)

@pytest.mark.parametrize('name', ['eagle-tree', 'draft'])
def test_sampling_under_grammar(name):
    """A tree and a draft model's sampled chain under a regex: distributed as the target's masked distribution. The
    control (min(1, q/p)) is caught either way: by the chi-square, or by accepting a token the grammar forbids."""
    from specdec_nb.grammar import Grammar, GrammarProcessor
    from specdec_nb.lossless import two_token_counts, wrong_rule
    from specdec_nb.core import chi2_stat, chi2_pvalue
    m, ids, _, tok = _json_task()
    # a mild grammar (no digits, no JSON punctuation): most drafts stay inside it
    rg = Grammar(tok, regex=r'[^0-9{}":,]+', vocab_size=len(tok), eos=[tok.eos_token_id])
    exact = exact_two_token_dist(m, ids, Sampling(do_sample=True), [GrammarProcessor(rg, ids.shape[1])])
    future = [int(exact.sum(1).argmax()), int(exact[exact.sum(1).argmax()].argmax())]
    make = lambda: METHODS[name].build(tiny_setup(name, m, len(future)), future)
    right = chi2_pvalue(*chi2_stat(two_token_counts(m, ids, make, 300, seed=7, grammar=rg), exact))
    assert right > 1e-4, right
    with wrong_rule('q/p'):
        try:
            caught = chi2_pvalue(*chi2_stat(two_token_counts(m, ids, make, 300, seed=7, grammar=rg), exact)) < 1e-4
        except RuntimeError as e:                  # it accepted a token the grammar forbids
            caught = 'left the grammar' in str(e)
    assert caught
