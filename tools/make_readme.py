"""Write README.md from nbs/index.ipynb without Quarto (nbdev_readme needs it), after refreshing the results summary.

1. The results summary — the machine of its runs, one table (every benchmarked method: speedup, tau, exact, speedup per group, the run it comes
   from) and one figure (`bench_results/summary.png`) — is built from the stored runs in `bench_results/` and written
   into index.ipynb between the markers `<!-- results:start -->` and `<!-- results:end -->`, so the README and the docs
   home show the same thing. Each run's own table and story stay in the notebook that made it (`10_bench`).
2. README.md: markdown cells are copied; code cells become ```python blocks with their `#|` directives removed; cells
   marked `#| hide` are skipped; stored text outputs (not stderr) follow their cell.
"""
import json, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / 'bench_results'
GROUPS = ('translation', 'summarization', 'qa', 'math_reasoning', 'rag', 'mt-bench')
START, END = '<!-- results:start -->', '<!-- results:end -->'

# Every method's row: (name, run, its name in that run's JSON, a method of the same run to show beside it). Each
# comes from the latest standard run (8 prompts per group, 48 prompts) that measured the method as it is now; rows
# from older or smaller runs show a method of the same run beside them, whose standard-run row is in the table.
ROWS = [('vanilla', 'grouped_n8'), ('oracle', 'fast_learned_n8'),
        ('pld', 'grouped_n8'), ('pld-tree', 'standard', None, 'pld'), ('ngram', 'fast_n8'),
        ('lookahead', 'fast_learned_n8'), ('suffix-recycle', 'grouped_n8'), ('eagle', 'grouped_n8'),
        ('eagle-tree', 'grouped_n8'), ('suffix-eagle', 'grouped_n8'), ('draft', 'grouped_n8'),
        ('tree', 'grouped_n8'), ('medusa', 'grouped_n8'), ('early-exit', 'grouped_n8'),
        ('early-exit-plain', 'selfspec_n2', None, 'early-exit'), ('layer-skip', 'selfspec_n2', None, 'early-exit'),
        ('hf-pld', 'pld_n8'), ('hf-assisted', 'draft_n8'), ('hf-early-exit', 'selfspec_n2', None, 'early-exit')]

def _run(name: str) -> dict: return json.loads((RESULTS / f'{name}.json').read_text())

def summary_rows(rows=ROWS) -> list[dict]:
    "One dict per method: its metrics overall and per group, and the run they come from."
    out = []
    for name, run, key, beside in [(tuple(r) + (None, None))[:4] for r in rows]:
        res = _run(run); m = res['methods'][key or name]
        out.append(dict(method=name, run=run, prompts=res['config']['n_prompts'], speedup=m['speedup'], tau=m['tau'],
                        exact=m['exact'], groups={g: m['per_category'].get(g, {}).get('speedup') for g in GROUPS},
                        beside=beside and (beside, res['methods'][beside]['speedup']),
                        kernels=res['config'].get('kernels', 'linear')))
    return out

def _x(v, f='{:.2f}×'): return '-' if v is None else f.format(v)

def summary_table(rows: list[dict]) -> str:
    "The rows as a Markdown table."
    head = ['method', 'speedup', 'tau', 'exact'] + [f'`{g}`' for g in GROUPS] + ['run (prompts)']
    lines = ['| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
    for r in rows:
        cells = [f"`{r['method']}`", f"**{_x(r['speedup'])}**", _x(r['tau'], '{:.2f}'), _x(r['exact'], '{:.0%}')]
        beside = f", beside `{r['beside'][0]}` {_x(r['beside'][1])}" if r['beside'] else ''
        beside += ', `F.linear`' if r['kernels'] == 'linear' and not r['method'].startswith('hf-') else ''
        cells += [_x(r['groups'][g]) for g in GROUPS] + [f"`{r['run']}` ({r['prompts']}){beside}"]
        lines.append('| ' + ' | '.join(cells) + ' |')
    return '\n'.join(lines)

def summary_figure(rows: list[dict], path=RESULTS / 'summary.png'):
    "Speedup per method (bars), each group's speedup as a dot on its bar; transformers' own methods in grey."
    import matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 0.38 * len(rows) + 1.2))
    ys = range(len(rows))[::-1]
    for y, r in zip(ys, rows):
        ax.barh(y, r['speedup'], color='0.75' if r['method'].startswith('hf-') else 'tab:blue', height=0.7)
        ax.plot([v for v in r['groups'].values() if v], [y] * sum(1 for v in r['groups'].values() if v), 'k.', ms=4)
    ax.axvline(1, color='k', lw=0.8)
    ax.set_yticks(list(ys), [r['method'] + (f" ({r['prompts']} prompts)" if r['prompts'] < 48 else '') for r in rows])
    ax.set_xlabel("speedup over transformers' generate (dots: the six groups)")
    ax.set_title('SmolLM2-135M, fp32, greedy, 2-core CPU'); fig.tight_layout(); fig.savefig(path, dpi=110); plt.close(fig)
    return path

def machines(rows: list[dict]) -> str:
    "The machine the rows' runs were measured on (`specdec_nb.report.machine_name` of each run's config), a line per machine."
    from specdec_nb.report import machine_name
    by = {}
    for run in dict.fromkeys(r['run'] for r in rows): by.setdefault(machine_name(_run(run)['config']), []).append(run)
    if len(by) == 1: return f'**Machine** of every run below: {next(iter(by))}.'
    return '\n'.join(f"- **Machine** of {', '.join(f'`{r}`' for r in runs)}: {m}." for m, runs in by.items())

def summary_markdown(figure: bool = True) -> str:
    "The machine, the table and the figure, as the README and the docs show them (`figure`: draw it afresh)."
    rows = summary_rows()
    if figure: summary_figure(rows)
    return (machines(rows) + '\n\n' + summary_table(rows) + '\n\nSpeedup is against `hf-vanilla` (transformers\' `generate`) in the same run; tau is tokens per target '
            'forward; exact is the share of prompts whose output is token-for-token `hf-vanilla`\'s. The run column names the JSON in '
            '`bench_results/` and its number of prompts; a row from an older or smaller run shows a method measured beside it, '
            'for scale; `F.linear` marks a run of ours made before the packed weights of `01c_kernels` became the default, '
            'whose speedup the default would raise (in `fast_n8` our `vanilla` alone is 1.53×). `10_bench` tells each run\'s story.\n\n![speedup per method, with each group\'s as a dot](bench_results/summary.png)')

def _fill(nb, start: str, end: str, text: str):
    "Put `text` between the markers `start` and `end` of the notebook cell that holds them."
    cell = next(c for c in nb['cells'] if start in ''.join(c['source']))
    src = re.sub(re.escape(start) + '.*?' + re.escape(end), lambda m: f'{start}\n{text}\n{end}', ''.join(cell['source']), flags=re.S)
    lines = src.split('\n'); cell['source'] = [l + '\n' for l in lines[:-1]] + [lines[-1]]

def refresh_index(nb_path=ROOT / 'nbs' / 'index.ipynb'):
    "Write the summary, and the methods table of the registry, between their markers in the index notebook."
    from specdec_nb.registry import methods_markdown
    nb = json.loads(Path(nb_path).read_text())
    _fill(nb, START, END, summary_markdown())
    _fill(nb, '<!-- methods:start -->', '<!-- methods:end -->', methods_markdown())
    Path(nb_path).write_text(json.dumps(nb, indent=1, ensure_ascii=False) + '\n')

def readme(nb_path='nbs/index.ipynb', out='README.md'):
    nb, parts = json.loads(Path(nb_path).read_text()), []
    for c in nb['cells']:
        src = ''.join(c['source'])
        if c['cell_type'] == 'markdown': parts.append(src); continue
        lines = src.splitlines()
        if any(l.strip() in ('#| hide', '#| include: false') for l in lines): continue
        code = '\n'.join(l for l in lines if not l.startswith('#|')).strip()
        if code: parts.append(f'```python\n{code}\n```')
        for o in c.get('outputs', []):
            if o.get('name') == 'stderr': continue                            # warnings and notes stay in the notebook
            txt = ''.join(o.get('text', '')) or ''.join(o.get('data', {}).get('text/markdown', ''))
            if txt.strip(): parts.append(txt if 'text/markdown' in o.get('data', {}) else f'```\n{txt.rstrip()}\n```')
    Path(out).write_text('<!-- generated from nbs/index.ipynb by tools/make_readme.py: edit the notebook -->\n\n' + '\n\n'.join(parts) + '\n')

if __name__ == '__main__':
    refresh_index(*sys.argv[1:2]); readme(*sys.argv[1:])
