"""How much do the trained drafters gain from more, or better matched, self-distilled data? (a diagnostic, never shipped)

Trains Medusa heads (`09a_medusa_training`) or an early-exit adapter (`05a_adapter_training`) on some of:
  template  -- the shipped training data: SmolLM2's answers to 448 template prompts (`08_distill.distill_data`)
  rest      -- SmolLM2's answers to the 192 Spec-Bench dev prompts that the standard run (8 per group) does NOT use
  rest-half -- every other one of those (96)
and measures them on SmolLM2's answers to the 48 prompts of the standard run (answer positions only).
`rest` exists only to measure how much matching the benchmark's kinds of request is worth: weights trained on it
are never saved, and the shipped drafters never see a benchmark prompt.

    OMP_NUM_THREADS=2 python experiments/data_scaling.py medusa template rest both --steps 1000
    OMP_NUM_THREADS=2 python experiments/data_scaling.py adapter template rest both --steps 400
"""
import argparse, time
import torch
from safetensors.torch import load_file
from specdec_nb.models import load_smollm2, load_prompts, cache_dir
from specdec_nb.distill import _read_jsonl, frequent_tokens, target_features, self_distill, distill_data
from specdec_nb.medusa import medusa_choices, expected_tau
from specdec_nb.medusa_training import train_medusa, head_accuracy
from specdec_nb.selfspec_training import train_adapter

def cat(fs):
    "Concatenate feature dicts (sequences appended)."
    off = [fs[0]['offsets']] + [f['offsets'][1:] + sum(int(g['offsets'][-1]) for g in fs[:i]) for i, f in enumerate(fs) if i]
    keys = [k for k in fs[0] if k.startswith('h')]
    return dict(ids=torch.cat([f['ids'] for f in fs]), offsets=torch.cat(off), **{k: torch.cat([f[k] for f in fs]) for k in keys})

def every_other(f):
    "Sequences 0, 2, 4, ... of a feature dict (`rest` is ordered by prompt length, so this half has all lengths)."
    off = f['offsets'].tolist(); keep = range(0, len(off) - 1, 2)
    pick = lambda v: torch.cat([v[off[i]:off[i + 1]] for i in keep])
    return dict(ids=pick(f['ids']), offsets=torch.tensor([0] + [off[i + 1] - off[i] for i in keep]).cumsum(0), **{k: pick(v) for k, v in f.items() if k.startswith('h')})

def answers_only(f, recs, key='h-1'):
    "Each sequence cut to its answer (from the last prompt position on): the positions the benchmark decodes."
    ids, hs, off = [], [], [0]
    for i, r in enumerate(recs):
        a, b = int(f['offsets'][i]) + len(r['prompt_ids']) - 1, int(f['offsets'][i + 1])
        ids.append(f['ids'][a:b]); hs.append(f[key][a:b]); off.append(off[-1] + b - a)
    return dict(ids=torch.cat(ids), offsets=torch.tensor(off), **{key: torch.cat(hs)})

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('student', choices=['medusa', 'adapter'])
    ap.add_argument('sets', nargs='+', help='training sets: template, rest, rest-half, both (template + rest)')
    ap.add_argument('--steps', type=int, default=1000); ap.add_argument('--exit-layer', type=int, default=4)
    a = ap.parse_args()
    model, tok = load_smollm2(); model.requires_grad_(False)
    layers = (-1,) if a.student == 'medusa' else (a.exit_layer, -1)
    tag = '_'.join(map(str, layers)); d = cache_dir() / 'scaling'
    ev = load_prompts(n_per_group=8); used = {p['question_id'] for p in ev}
    rest = sorted((p for p in load_prompts() if p['question_id'] not in used), key=lambda p: len(p['text']))
    E = self_distill(model, tok, ev, d / 'eval.jsonl', 128, 16)
    R = self_distill(model, tok, rest, d / 'rest.jsonl', 128, 16)
    T, Ft = distill_data(model, tok, 'SmolLM2-135M-Instruct', n_prompts=448, layers=layers)
    Fe = target_features(model, E, d / f'eval_L{tag}.safetensors', layers)
    Fr = target_features(model, R, d / f'rest_L{tag}.safetensors', layers)
    vocab = frequent_tokens(T + R, 8192)          # every token of both answer sets (fewer than 8192)
    sets = {'template': Ft, 'rest': Fr, 'rest-half': every_other(Fr), 'both': cat([Ft, Fr])}
    print(f'eval: {len(E)} answers; vocabulary {len(vocab)}; tokens: ' + ', '.join(f"{k} {len(v['ids'])}" for k, v in sets.items()), flush=True)
    for name in a.sets:
        t = time.time()
        if a.student == 'medusa':
            heads, losses = train_medusa(model, sets[name], 4, steps=a.steps, vocab=vocab, progress=False)
            acc = head_accuracy(heads, answers_only(Fe, E), n=4000)
            taus = {n: round(expected_tau(acc, medusa_choices(acc, n)), 3) for n in (4, 8, 16, 32)}
            res = f"top-1 {[round(float(x), 3) for x in acc[:, 0]]} top-5 {[round(float(x), 3) for x in acc[:, :5].sum(1)]} expected tau by tree size {taus}"
        else:
            ad, losses = train_adapter(model, sets[name], a.exit_layer, steps=a.steps, batch_size=8, lr=1e-3, vocab=vocab, progress=False)
            res = f'agreement {adapter_agreement(model, ad, Fe, E, vocab, a.exit_layer):.3f}'
        print(f"{name}: {len(sets[name]['ids'])} tokens, {a.steps} steps, {time.time() - t:.0f} s, loss {sum(losses[:20]) / 20:.2f} -> {sum(losses[-30:]) / 30:.2f}; {res}", flush=True)

@torch.no_grad()
def adapter_agreement(model, ad, Fe, E, vocab, L):
    "How often the adapter's argmax (over `vocab`) is the target's own next token, at the answers' positions."
    W, hit, n = model.lm_head.weight[vocab], 0, 0
    for i, r in enumerate(E):
        a, b, P = int(Fe['offsets'][i]), int(Fe['offsets'][i + 1]), len(r['prompt_ids'])
        pred = vocab[(ad(Fe[f'h{L}'][a:b].float()[None])[0] @ W.T).argmax(-1)]
        want = model.lm_head(Fe['h-1'][a:b].float()).argmax(-1)
        hit += (pred[P - 1:] == want[P - 1:]).sum().item(); n += b - a - P + 1
    return hit / n

if __name__ == '__main__': main()
