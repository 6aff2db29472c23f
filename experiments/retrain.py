"""Step 5 of the EAGLE issue: the other learned drafters retrained on the EAGLE head's data (a measurement script).

The data is the EAGLE head's (`09d_eagle_training`): the target's own greedy answers to 640 ShareGPT requests (the shipped
suffix corpus; the last 48 held out) and the dataset's own answers to 320 other ShareGPT requests. One teacher-forced pass
stores every layer any drafter reads (fp16): the exit layer of the adapter, EAGLE-3's low and mid layers, the top.
Each drafter is then trained with the recipe of its shipped checkpoint (same loop, steps, batch, learning rate) and
saved under the cache; `specdec bench` compares it with the shipped one in one run (`--param draft_path=...`).

    OMP_NUM_THREADS=1 python experiments/retrain.py features
    OMP_NUM_THREADS=1 python experiments/retrain.py medusa draft      # one process
    OMP_NUM_THREADS=1 python experiments/retrain.py adapter           # another, beside it
"""
import argparse, json, time
from specdec_nb.models import load_smollm2, load_prompts, cache_dir
from specdec_nb.suffix import sharegpt_requests
from specdec_nb.distill import target_features, frequent_tokens, distill_draft, save_draft
from specdec_nb.eagle_training import own_answers, sharegpt_pairs
from specdec_nb.medusa import save_medusa, medusa_choices
from specdec_nb.medusa_training import train_medusa, head_accuracy
from specdec_nb.selfspec import save_adapter
from specdec_nb.selfspec_training import train_adapter

ROOT = cache_dir() / 'retrain'
LAYERS = (2, 4, 15, -1)          # EAGLE-3's low (2) and mid (15) of 30, the adapter's exit (4), the top
N_OWN, HELD = 640, 48

def records(tok):
    "Training records (own answers but the held-out ones, then ShareGPT's answers) and the held-out ones."
    own = own_answers(tok)[:N_OWN]
    seen = {p['text'] for p in load_prompts()} | {r['text'] for r in sharegpt_requests(len(own))}
    sg = sharegpt_pairs(tok, 1400, exclude=seen)[:320]
    return own[:N_OWN - HELD] + sg, own[N_OWN - HELD:]

def part(f: dict, a: int, b: int) -> dict:
    "Records a..b-1 of a feature dict."
    off = f['offsets']
    s, e = int(off[a]), int(off[b])
    return dict(ids=f['ids'][s:e], offsets=off[a:b + 1] - s, **{k: v[s:e] for k, v in f.items() if k.startswith('h')})

def load(model, tok):
    train, held = records(tok)
    path = ROOT / ('features_L' + '_'.join(map(str, LAYERS)) + '.safetensors')
    f = target_features(model, train + held, path, LAYERS)
    return train, held, part(f, 0, len(train)), part(f, len(train), len(train) + len(held))

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('what', nargs='+', choices=['features', 'medusa', 'draft', 'adapter'])
    a = ap.parse_args()
    model, tok = load_smollm2()
    model.requires_grad_(False)
    train, held, ft, fh = load(model, tok)
    vocab = frequent_tokens(train, 8192)
    print(f'{len(train)} training records, {len(ft["ids"])} positions; {len(held)} held out', flush=True)
    log = ROOT / 'log.jsonl'
    for w in a.what:
        t0 = time.time()
        if w == 'medusa':
            heads, losses = train_medusa(model, ft, n_heads=4, steps=2400, batch_size=256, lr=1e-3, vocab=vocab,
                                         ckpt=ROOT / 'medusa.ckpt')
            acc = head_accuracy(heads, fh, max_rank=8, n=3000)
            save_medusa(heads, model, ROOT / 'medusa.safetensors', choices=medusa_choices(acc, 4), acc=acc)
            info = dict(top1=[round(float(x), 3) for x in acc[:, 0]])
        elif w == 'draft':
            d, losses = distill_draft(model, ft, n_layers=2, steps=400, batch_size=4, max_len=256, lr=5e-4,
                                      ckpt=ROOT / 'draft.ckpt')
            save_draft(d, model, ROOT / 'draft.safetensors', vocab=vocab)
            info = {}
        elif w == 'adapter':
            ad, losses = train_adapter(model, ft, 4, steps=800, batch_size=16, lr=1e-3, vocab=vocab,
                                       ckpt=ROOT / 'adapter.ckpt')
            save_adapter(ad, model, ROOT / 'adapter.safetensors')
            info = {}
        else:
            continue
        first, last = sum(losses[:20]) / 20, sum(losses[-20:]) / 20
        row = dict(what=w, minutes=round((time.time() - t0) / 60, 1), loss_first=round(first, 3),
                   loss_last=round(last, 3), **info)
        print(row, flush=True)
        with log.open('a') as g:
            g.write(json.dumps(row) + '\n')

if __name__ == '__main__':
    main()
