"""EAGLE-3's fused features against the top feature alone (a measurement script; `09d_eagle_training` shows its rows).

Both heads train on the same stored features (`experiments/retrain.py features`: the EAGLE head's data, layers 2, 4, 15 and
the top), with the same steps, batches, learning rate, noise, seed and 8192-token vocabulary; the fused one also reads
the states of `hidden_states[2]` and `[15]` (EAGLE-3's low and mid layers of 30). Each is measured on the 48 held-out
answers: first-guess accuracy (`eagle_accuracy`), and tau of chains of 4 on 8 held-out requests, every drafted token sent.

    OMP_NUM_THREADS=1 python experiments/eagle_fused.py top --steps 250      # one process
    OMP_NUM_THREADS=1 python experiments/eagle_fused.py fused --steps 250    # another, beside it
    OMP_NUM_THREADS=1 python experiments/eagle_fused.py fused --steps 250 --aux-drop 0   # aux features never dropped
"""
import argparse, json, sys, time
from pathlib import Path
import torch
sys.path.insert(0, str(Path(__file__).parent))
from retrain import ROOT, load
from specdec_nb.distill import frequent_tokens
from specdec_nb.engine import generate
from specdec_nb.eagle import EagleProposer, save_eagle
from specdec_nb.eagle_training import train_eagle, eagle_accuracy

AUX = (2, 15)
FLAT = [1.0] + [1.01] * 12          # every drafted token sent: tau measures the drafts alone

def eagle_feats(f: dict, recs: list[dict]) -> dict:
    "`target_features`' dict as `eagle_features` stores it: answer starts, the top feature, the aux layers'."
    return dict(ids=f['ids'], offsets=f['offsets'], h=f['h-1'], aux=torch.cat([f[f'h{i}'] for i in AUX], -1),
                answer_start=torch.tensor([len(r['prompt_ids']) for r in recs]))

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('kind', choices=['top', 'fused'])
    ap.add_argument('--steps', type=int, default=250)
    ap.add_argument('--aux-drop', type=float, default=0.5, help='share of positions whose aux features are dropped')
    a = ap.parse_args()
    name = a.kind if a.aux_drop == 0.5 or a.kind == 'top' else f'{a.kind}_drop{a.aux_drop:g}'
    from specdec_nb.models import load_smollm2
    model, tok = load_smollm2()
    model.requires_grad_(False)
    train, held, ft, fh = load(model, tok)
    ft, fh = eagle_feats(ft, train), eagle_feats(fh, held)
    t0 = time.time()
    head, losses = train_eagle(model, ft, frequent_tokens(train, 8192), steps=a.steps, lr=1e-3, noise=0.2,
                               ckpt=ROOT / f'eagle_{name}.ckpt', aux_layers=AUX if a.kind == 'fused' else (),
                               aux_drop=a.aux_drop)
    minutes = (time.time() - t0) / 60
    save_eagle(head, model, ROOT / f'eagle_{name}.safetensors')
    acc = eagle_accuracy(head, fh, n=48)
    taus = [generate(model, torch.tensor([r['prompt_ids']]), EagleProposer(head, k=4, adaptive=False, cost=FLAT,
                                                                           floor=0.0), max_new_tokens=64).stats.tau
            for r in held[:8]]
    row = dict(kind=name, aux_layers=list(head.aux_layers), aux_drop=a.aux_drop, steps=a.steps, positions=a.steps * 8 * 256,
               minutes=round(minutes, 1), loss_last=round(sum(losses[-20:]) / 20, 3), acc=round(acc, 3),
               tau_chain4=round(sum(taus) / len(taus), 3))
    print(row, flush=True)
    with (ROOT / 'fused.jsonl').open('a') as g:
        g.write(json.dumps(row) + '\n')

if __name__ == '__main__':
    main()
