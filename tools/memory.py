"""Peak resident memory of one generation, one process each: transformers' `generate`, then `specdec generate` with
each method, on one short prompt; a Markdown table with each peak against transformers'. Run `specdec warm` first
(a process that traces or measures holds more than one that reads them back).

    python tools/memory.py [--model smollm2|gemma3] [--methods vanilla,pld,...] [--max-new-tokens 64] [--threads 1]
"""
import argparse, subprocess, sys

PROMPT = 'Write a short poem about the sea.'
PEAK = "import resource, sys; print(f'peak_kb={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}', file=sys.stderr)"
HF = """from specdec_nb import models
from specdec_nb.models import chat_ids
import torch; torch.set_num_threads({threads})
model, tok = getattr(models, {loader!r})()
model.generate(chat_ids(tok, {prompt!r}), max_new_tokens={n}, do_sample=False)
"""
OURS = "import sys; from specdec_nb.cli import main; main({argv!r})\n"
LOADERS = {'smollm2': 'load_smollm2', 'gemma3': 'load_gemma3'}


def peak_mb(code: str) -> float:
    "The peak RSS, in MB, of a Python process running `code`."
    r = subprocess.run([sys.executable, '-c', code + PEAK], capture_output=True, text=True)
    line = [l for l in r.stderr.splitlines() if l.startswith('peak_kb=')]
    if r.returncode or not line:
        raise RuntimeError(r.stderr[-2000:])
    return int(line[-1].split('=')[1]) / 1024


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--model', default='smollm2', choices=list(LOADERS))
    p.add_argument('--methods', default='vanilla,pld,suffix-recycle,quant,suffix-quant')
    p.add_argument('--max-new-tokens', type=int, default=64)
    p.add_argument('--threads', type=int, default=1)
    a = p.parse_args(argv)
    hf = peak_mb(HF.format(threads=a.threads, loader=LOADERS[a.model], prompt=PROMPT, n=a.max_new_tokens))
    rows = [('transformers `generate`', hf)]
    for m in a.methods.split(','):
        argv = ['generate', '--model', a.model, '--method', m, '--max-new-tokens', str(a.max_new_tokens),
                '--threads', str(a.threads), PROMPT]
        rows.append((f'`{m}`', peak_mb(OURS.format(argv=argv))))
    print(f'peak RSS, {a.model}, {a.max_new_tokens} new tokens, {a.threads} thread(s)\n')
    print('| process | peak RSS | × transformers |\n|---|---|---|')
    for name, mb in rows:
        print(f'| {name} | {mb / 1024:.2f} GB | {mb / hf:.1f}× |')


if __name__ == '__main__':
    main()
