import os, sys
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]

@pytest.fixture(scope='session')
def tiny_model_dir(tmp_path_factory):
    "A tiny random Llama with SmolLM2's real tokenizer and chat template, saved like any HF model."
    import torch
    from specdec_nb.models import tiny_llama
    from specdec_nb.method_checks import smollm2_tokenizer
    tok = smollm2_tokenizer()   # the converted copy when `specdec warm` made one (~1 s), else from the GGUF (~15 s)
    d = tmp_path_factory.mktemp('tiny')
    m = tiny_llama(vocab_size=len(tok), hidden=32, layers=4, max_pos=2048)
    m.generation_config.eos_token_id = tok.eos_token_id
    m.save_pretrained(d); tok.save_pretrained(d)
    return d

@pytest.fixture(scope='session')
def two_prompts(tmp_path_factory):
    import json
    p = tmp_path_factory.mktemp('prompts') / 'two.jsonl'
    p.write_text('\n'.join(json.dumps(dict(question_id=i, category=c, turns=[t])) for i, (c, t) in
                           enumerate([('summarization', 'Summarize: the cat sat on the mat. The cat sat on the mat.'), ('qa', 'Who wrote Hamlet?')])))
    return p
