"""Replay prompt-lookup draft-length rules offline over the target's own greedy outputs (06_ngram's "How much further").

    python experiments/replay_pld.py [--limit 8] [--cost 1,1.7,2.05,1.6,...] [--interpolate]

1. The greedy continuation (128 tokens) of each standard-run prompt, computed once with our engine and cached as JSON
   in $SPECDEC_CACHE/replay_futures_n{limit}.json (about 6 minutes for 48 prompts on the 2-core CPU).
2. Each rule is replayed step by step: the drafter sees prompt + the output so far, drafts, the accepted count is the
   common prefix with the true continuation, and the step costs c(1 + drafted) from the cost curve (measured with
   02_engine's `cost_curve` unless given). The figure printed is tokens per unit of T(1): the speedup over plain
   decoding that the rule would reach if forwards were all that cost. `--interpolate`: the cost-aware rule plans with
   the curve interpolated from sizes 1, 2, 3, 4, 6, 8, 12, 16 (what the first version of `cost_curve` measured) while
   the steps are still charged the full curve.
"""
import argparse, json
import numpy as np

def futures(limit: int) -> list[dict]:
    from specdec_nb.models import cache_dir, load_smollm2
    from specdec_nb.bench import BenchSetup, _prepare, _futures
    p = cache_dir() / f'replay_futures_n{limit}.json'
    if p.exists(): return json.loads(p.read_text())
    m, tok = load_smollm2(); s = BenchSetup(m, tok)
    rows, _ = _prepare(s, ['vanilla'], None, limit)
    out = [dict(group=r['group'], prompt=r['ids'][0].tolist(), out=f) for r, f in zip(rows, _futures(s, rows, ['oracle']))]
    p.parent.mkdir(parents=True, exist_ok=True); p.write_text(json.dumps(out)); return out

def lcp(d, f) -> int:
    j = 0
    while j < len(d) and j < len(f) and d[j] == f[j]: j += 1
    return j

def interpolated(cost, sizes=(1, 2, 3, 4, 6, 8, 12, 16)) -> list[float]:
    ns = [n for n in sizes if n <= len(cost)]
    return list(np.interp(range(1, len(cost) + 1), ns, [cost[n - 1] for n in ns]))

def replay(data, cost, rule: str, k: int = 10, max_ngram: int = 3, min_ngram: int = 2, plan=None) -> float:
    "Tokens per unit of T(1) over all prompts for `rule` in 'cost' (planning with `plan`, default `cost`), 'adaptive', 'fixed' (06_ngram's own `PromptLookupProposer`), 'oracle' (drafts exactly what will be accepted)."
    from types import SimpleNamespace
    from specdec_nb.core import Sampling, Verdict
    from specdec_nb.ngram import PromptLookupProposer
    from specdec_nb.engine import Request, Feedback
    c = lambda n: cost[min(n, len(cost)) - 1]
    toks, spent = 0, 0.0
    for r in data:
        P, out, t = len(r['prompt']), r['out'], 0
        seq = r['prompt'] + out
        pl = PromptLookupProposer(k, max_ngram, min_ngram, length='fixed' if rule == 'oracle' else rule, cost=(plan or cost)[:k + 1])
        pl.reset(Request(SimpleNamespace(device="cpu"), seq[:P], Sampling()))
        while t < len(out):
            ctx = seq[:P + t]; dr = pl.propose(ctx, 10 ** 9)
            d = [] if dr is None else dr.tokens.tolist()
            if rule == 'oracle': d = d[:lcp(d, out[t:])]
            acc = lcp(d, out[t:])
            if d: pl.update(Feedback(ctx, Verdict(list(range(acc)), out[t:t + acc + 1]), dr))
            t += min(acc + 1, len(out) - t); spent += c(len(d) + 1)
        toks += len(out)
    return toks / spent

if __name__ == '__main__':
    ap = argparse.ArgumentParser(); ap.add_argument('--limit', type=int, default=8); ap.add_argument('--cost', default=None); ap.add_argument('--interpolate', action='store_true')
    a = ap.parse_args()
    data = futures(a.limit)
    if a.cost: cost = [float(x) for x in a.cost.split(',')]
    else:
        from specdec_nb.models import load_smollm2
        from specdec_nb.engine import cost_curve
        cost = cost_curve(load_smollm2()[0], 16)
    print('cost curve T(n)/T(1):', ' '.join(f'{x:.2f}' for x in cost))
    for rule in ('fixed', 'adaptive', 'cost', 'oracle'): print(f'{rule:9} {replay(data, cost, rule):.3f}')
    if a.interpolate: print(f"cost, planning with the interpolated curve {replay(data, cost, 'cost', plan=interpolated(cost)):.3f}")
