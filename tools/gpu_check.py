"""The GPU check, prepared so that a few minutes on a GPU machine are enough (issue 20).

1. Every registered method of ours, greedy, on a tiny Llama, Qwen2 and GPT-2, in bf16 and fp32: exact against
   transformers' `generate` in the same dtype (bf16 up to near-ties: see nbs/39_method_checks.ipynb).
2. On a model of SmolLM2-135M's shape with random weights (speed does not depend on the weights), in bf16:
   T(n) for n = 1..64, and `vanilla`, `oracle` and every method needing no trained artifact against `generate`.

Writes one JSON and prints a table:

    python tools/gpu_check.py                        # cuda, bf16 -> bench_out/gpu_check.json  (make gpu-check)
    python tools/gpu_check.py --device cpu --tiny    # the dry run `make test` does: tiny sizes, seconds

Exit status 1 when a method failed the check (the JSON and the table say which), 2 when the request cannot run.
"""
import argparse, sys

def parse(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument('--device', default='cuda', help='cuda (default), cuda:N or cpu')
    p.add_argument('--dtype', default='bf16', choices=['bf16', 'fp16', 'fp32'], help='the timing model (bf16)')
    p.add_argument('--check-dtypes', default='bf16,fp32', help='dtypes of the exactness check (bf16,fp32)')
    p.add_argument('--archs', default=None, help='tiny architectures of the exactness check (default: all of checks.ARCHS)')
    p.add_argument('--tiny', action='store_true', help='dry run: a 2-layer model of SmolLM2 shape, 8 tokens, T(1..8)')
    p.add_argument('--json', default='bench_out/gpu_check.json', help='where the JSON goes')
    p.add_argument('--limit', type=int, default=1, help='Spec-Bench prompts per group in the benchmark (1)')
    p.add_argument('--max-new-tokens', type=int, default=None, help='tokens per generation (128; 8 with --tiny)')
    p.add_argument('--max-n', type=int, default=None, help='T(n) for n = 1..MAX_N (64; 8 with --tiny)')
    return p.parse_args(argv)

def main(argv=None) -> int:
    a = parse(argv)
    import torch
    if a.device.startswith('cuda') and not torch.cuda.is_available():
        print(f'gpu_check: --device {a.device}, but torch {torch.__version__} sees no CUDA device '
              '(use --device cpu --tiny for the dry run)', file=sys.stderr)
        return 2
    from specdec_nb.method_checks import gpu_check, gpu_report
    new_tokens, max_n = a.max_new_tokens or (8 if a.tiny else 128), a.max_n or (8 if a.tiny else 64)
    from specdec_nb.method_checks import ARCHS
    archs = tuple(a.archs.split(',')) if a.archs else tuple(ARCHS)
    res = gpu_check(a.device, a.dtype, tiny=a.tiny, json_path=a.json, check_dtypes=tuple(a.check_dtypes.split(',')),
                    archs=archs, limit=a.limit, max_new_tokens=new_tokens, max_n=max_n)
    print(gpu_report(res))
    print(f'\nwrote {a.json} ({res["config"]["total_s"]:.0f} s)')
    return 1 if any(r['status'] == 'FAIL' for r in res['check']) else 0

if __name__ == '__main__': sys.exit(main())
