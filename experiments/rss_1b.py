"""Resident memory during `generate` on a Llama of about a billion parameters with random weights (fp32), against
transformers' own `generate`: each in a fresh process that samples its RSS every few milliseconds.

    python experiments/rss_1b.py [--dir /tmp/llama-1b] [--tokens 8]

The model is saved once with `save_pretrained` (4.2 GB) and loaded as users load theirs (safetensors, mapped).
"""
import argparse, json, subprocess, sys, textwrap
from pathlib import Path

PROBE = textwrap.dedent("""
    import sys, threading, time, torch
    from transformers import AutoModelForCausalLM
    from specdec_nb.engine import generate
    def rss(): return int(open('/proc/self/statm').read().split()[1]) * 4096 / 2 ** 20
    m = AutoModelForCausalLM.from_pretrained(sys.argv[2], dtype=torch.float32); peak, on = [rss()], [True]
    def watch():
        while on[0]: peak.append(rss()); time.sleep(0.005)
    th = threading.Thread(target=watch); th.start()
    ids = torch.randint(0, 32000, (1, 24), generator=torch.Generator().manual_seed(0))
    with torch.inference_mode():
        if sys.argv[1] == 'transformers': m.generate(ids, max_new_tokens=int(sys.argv[3]), do_sample=False)
        else: generate(m, ids, max_new_tokens=int(sys.argv[3]), kernels=sys.argv[1])
    on[0] = False; th.join(); print(max(peak))""")

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--dir', default='/tmp/llama-1b')
    ap.add_argument('--tokens', type=int, default=8)
    a = ap.parse_args()
    if not (Path(a.dir) / 'config.json').exists():
        import torch
        from transformers import LlamaConfig, LlamaForCausalLM
        torch.manual_seed(0)
        cfg = LlamaConfig(vocab_size=32000, hidden_size=2048, intermediate_size=8192, num_hidden_layers=16,
                          num_attention_heads=32, num_key_value_heads=8, tie_word_embeddings=True)
        m = LlamaForCausalLM(cfg)
        print(f'{sum(p.numel() for p in m.parameters()) / 1e9:.2f} B parameters', file=sys.stderr)
        m.save_pretrained(a.dir)
        del m
    rss = {}
    for k in ('transformers', 'linear', 'fast'):
        out = subprocess.run([sys.executable, '-c', PROBE, k, a.dir, str(a.tokens)], capture_output=True, text=True)
        if out.returncode: sys.exit(out.stderr[-2000:])
        rss[k] = float(out.stdout.split()[-1])
        print(f'{k}: {rss[k]:.0f} MB ({rss[k] / rss["transformers"]:.2f}x)', flush=True)
    print(json.dumps(rss))

if __name__ == '__main__':
    main()
