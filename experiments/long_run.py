"""2,000 new tokens on the embedded SmolLM2 after a long Spec-Bench prompt, for every method of ours (issue 20).

Each method's greedy output is compared with transformers' `generate`; tokens/s, tau and the process's resident
memory are recorded every 100 tokens, and each proposer's state at the end against a fresh one's
(`specdec_nb.longrun.long_bench`, nbs/13a_longrun.ipynb). Writes a JSON and a figure:

    python experiments/long_run.py                                   # -> bench_results/long_2000.json, .png
    python experiments/long_run.py --methods vanilla,pld --max-new-tokens 300 --out /tmp/long

The prompt: the longest summarization request of the shipped prompts, with the next longest ones appended until
it holds at least --min-prompt tokens (a summarization or RAG prompt of >= 1,500 tokens, as the issue asks).
"""
import argparse, json, sys


def long_prompt(tok, min_tokens: int) -> str:
    "The longest summarization articles, joined until the chat prompt holds `min_tokens` tokens."
    from specdec_nb.models import load_prompts, chat_ids
    rows = sorted((r for r in load_prompts() if r['group'] == 'summarization'), key=lambda r: -len(r['text']))
    text = rows[0]['text']
    for r in rows[1:]:
        if chat_ids(tok, text).shape[1] >= min_tokens:
            break
        text += '\n\nAnd this one too:\n\n' + r['text']
    return text


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--max-new-tokens', type=int, default=2000)
    p.add_argument('--min-prompt', type=int, default=1500)
    p.add_argument('--methods', default=None, help='comma-separated (default: every method of ours)')
    p.add_argument('--out', default='bench_results/long_2000', help='path without extension: .json and .png')
    a = p.parse_args(argv)
    from specdec_nb.models import load_smollm2, chat_ids
    from specdec_nb.machine import fit_threads
    from specdec_nb.bench import BenchSetup
    from specdec_nb.longrun import long_bench, plot_long
    fit_threads()
    model, tok = load_smollm2()
    ids = chat_ids(tok, long_prompt(tok, a.min_prompt))
    print(f'prompt: {ids.shape[1]} tokens; {a.max_new_tokens} new tokens', file=sys.stderr)
    setup = BenchSetup(model, tok, max_new_tokens=a.max_new_tokens)
    methods = a.methods.split(',') if a.methods else None
    res = long_bench(setup, ids, a.max_new_tokens, methods, json_path=a.out + '.json')
    plot_long(res, a.out + '.png')
    for r in res['runs']:
        print(f"{r['method']:22} exact {r['exact']!s:5} {r['seconds']:7.1f} s  tau {r['tau']:.2f}  "
              f"state {r.get('state_kb', 0):8.0f} KB (fresh {r.get('fresh_kb', 0):8.0f})")
    return 0 if all(r['exact'] for r in res['runs']) else 1


if __name__ == '__main__':
    sys.exit(main())
