"""Write README.md from nbs/index.ipynb without Quarto (nbdev_readme needs it), after refreshing the tables generated
from the stored runs in `bench_results/`.

1. Generated blocks. The text between `<!-- NAME:start -->` and `<!-- NAME:end -->` in nbs/index.ipynb and
   nbs/performance.ipynb is rewritten from the stored runs (`block(NAME)`), so the README, the docs home and the
   Performance page show the runs as they are. Every table and figure names the machine it was measured on.
   - `results` (index, README, the docs' results page): every method measured in a standard run (48 prompts), plain
     decoding apart from speculation, each speculative method against transformers' `generate` and against our own
     `vanilla` in its run; the figure of every method;
   - `groups`: the same rows with each prompt group's speedup;   `run:NAME`: one run, every method;
   - `phases:NAME`: where each method's time went in one run;   `batch`: the batch runs side by side;
   - `figure:NAME`: a run's figure and its caption;   `runs`: every stored run and its machine.
2. README.md: markdown cells are copied; code cells become ```python blocks with their `#|` directives removed; cells
   marked `#| hide` are skipped; stored text outputs (not stderr) follow their cell.
"""
import copy, json, re, sys, textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / 'bench_results'
NBS = ROOT / 'nbs'
GROUPS = ('translation', 'summarization', 'qa', 'math_reasoning', 'rag', 'mt-bench')
START, END = '<!-- results:start -->', '<!-- results:end -->'
PLAIN = {'hf-vanilla', 'hf-static', 'vanilla', 'ov-vanilla', 'ov-default', 'llama-vanilla', 'llama-q'}    # one token per forward: no draft

# Every method's row: (name, run, its name in that run's JSON, a method of the same run to show beside it). Each
# comes from the latest standard run (8 prompts per group, 48 prompts) that measured the method as it is now; rows
# from older or smaller runs show a method of the same run beside them, whose standard-run row is in the table.
ROWS = [('hf-vanilla', 'grouped_n8'), ('vanilla', 'grouped_n8'), ('oracle', 'fast_learned_n8'),
        ('pld', 'grouped_n8'), ('pld-tree', 'standard', None, 'pld'), ('ngram', 'fast_n8'),
        ('lookahead', 'fast_learned_n8'), ('suffix-recycle', 'grouped_n8'), ('eagle', 'grouped_n8'),
        ('eagle-tree', 'grouped_n8'), ('suffix-eagle', 'grouped_n8'), ('draft', 'grouped_n8'),
        ('tree', 'grouped_n8'), ('medusa', 'grouped_n8'), ('early-exit', 'grouped_n8'),
        ('early-exit-plain', 'selfspec_n2', None, 'early-exit'), ('layer-skip', 'selfspec_n2', None, 'early-exit'),
        ('hf-pld', 'pld_n8'), ('hf-assisted', 'draft_n8'), ('hf-early-exit', 'selfspec_n2', None, 'early-exit'),
        ('llama-vanilla', 'llama_n1', None, 'vanilla'), ('llama-ngram', 'llama_n1', None, 'vanilla'),
        ('llama-q', 'llama_n1', None, 'vanilla')]

def _run(name: str) -> dict: return json.loads((RESULTS / f'{name}.json').read_text())

def is_plain(method: str) -> bool:
    "Plain decoding (one token per forward of the target), not speculation."
    return method.split(':')[0] in PLAIN

def by(method: str) -> str:
    "Whose implementation a benchmark method is."
    if method.startswith('llama-'): return 'llama.cpp'
    return 'transformers' if method.startswith('hf-') else 'OpenVINO GenAI' if method.startswith('ov-') else 'ours'

def _machine(config: dict) -> str:
    from specdec_nb.report import machine_name
    return machine_name(config)

def _vs_vanilla(res: dict, method: str):
    "A speculative method's speedup over our own `vanilla` in the same run (None: plain, or no `vanilla` in the run)."
    v = res['methods'].get('vanilla')
    if is_plain(method) or not v or not v.get('speedup'): return None
    return res['methods'][method]['speedup'] / v['speedup']

def summary_rows(rows=ROWS) -> list[dict]:
    "One dict per method: its metrics overall and per group, and the run they come from."
    out = []
    for name, run, key, beside in [(tuple(r) + (None, None))[:4] for r in rows]:
        res = _run(run); m = res['methods'][key or name]
        out.append(dict(method=name, run=run, prompts=res['config']['n_prompts'], speedup=m['speedup'], tau=m['tau'],
                        exact=m['exact'], groups={g: m['per_category'].get(g, {}).get('speedup') for g in GROUPS},
                        beside=beside and (beside, res['methods'][beside]['speedup']),
                        vs_vanilla=_vs_vanilla(res, key or name), plain=is_plain(name), by=by(name),
                        kernels=res['config'].get('kernels', 'linear')))
    return out

def _x(v, f='{:.2f}×'): return '-' if v is None else f.format(v)

def _run_cell(r: dict) -> str:
    "The run column: the JSON, its prompts, a method beside it for scale, `F.linear` for a run before the packed weights."
    beside = f", beside `{r['beside'][0]}` {_x(r['beside'][1])}" if r['beside'] else ''
    beside += ', `F.linear`' if r['kernels'] == 'linear' and (r['by'] == 'ours' or r['vs_vanilla']) else ''
    return f"`{r['run']}` ({r['prompts']}){beside}"

def summary_table(rows: list[dict]) -> str:
    "The rows as one Markdown table, plain decoding first, each speculative method also against our `vanilla` of its run."
    rows = sorted(rows, key=lambda r: not r['plain'])
    out = ['| method | decoding | by | × transformers | × our `vanilla` | tau | exact | run (prompts) |', '|' + '---|' * 8]
    out += [f"| `{r['method']}` | {'plain' if r['plain'] else 'speculative'} | {r['by']} | **{_x(r['speedup'])}** "
            f"| {_x(r['vs_vanilla'])} | {_x(r['tau'], '{:.2f}')} | {_x(r['exact'], '{:.0%}')} | {_run_cell(r)} |" for r in rows]
    return '\n'.join(out)

def groups_table(rows: list[dict]) -> str:
    "The rows as one Markdown table with each prompt group's speedup over transformers' `generate`."
    head = ['method', 'decoding', 'speedup', 'tau'] + [f'`{g}`' for g in GROUPS] + ['run (prompts)']
    lines = ['| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
    for r in rows:
        cells = [f"`{r['method']}`", 'plain' if r['plain'] else 'speculative', f"**{_x(r['speedup'])}**", _x(r['tau'], '{:.2f}')]
        lines.append('| ' + ' | '.join(cells + [_x(r['groups'][g]) for g in GROUPS] + [_run_cell(r)]) + ' |')
    return '\n'.join(lines)

def summary_figure(rows: list[dict], path=RESULTS / 'summary.png'):
    "Speedup per method (bars), each group's speedup as a dot on its bar; plain decoding hatched, transformers' in grey."
    import matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot as plt
    from matplotlib.patches import Patch
    fig, ax = plt.subplots(figsize=(8, 0.38 * len(rows) + 1.6))
    ys = range(len(rows))[::-1]
    for y, r in zip(ys, rows):
        ax.barh(y, r['speedup'], color='tab:blue' if r['by'] == 'ours' else '0.75', hatch='//' if r['plain'] else None,
                edgecolor='white' if r['plain'] else None, height=0.7)
        ax.plot([v for v in r['groups'].values() if v], [y] * sum(1 for v in r['groups'].values() if v), 'k.', ms=4)
    ax.axvline(1, color='k', lw=0.8)
    ax.set_yticks(list(ys), [r['method'] + (f" ({r['prompts']} prompts)" if r['prompts'] < 48 else '') for r in rows])
    ax.set_xlabel("speedup over transformers' generate (dots: the six groups)")
    ax.legend(handles=[Patch(facecolor='tab:blue', hatch='//', edgecolor='white', label='plain decoding, ours'),
                       Patch(facecolor='tab:blue', label='speculative, ours'), Patch(facecolor='0.75', label="transformers'")],
              loc='lower right', fontsize=8)
    ax.set_title('SmolLM2-135M-Instruct, fp32, greedy, 128 new tokens', fontsize=10)
    fig.suptitle(textwrap.fill('machine: ' + machine_text(rows, code=False).replace('`', ''), 150), fontsize=6.5, color='0.3')
    fig.tight_layout(); fig.savefig(path, dpi=110); plt.close(fig)
    return path

def summary_markdown(figure: bool = True) -> str:
    """The machine, the table of every method measured in a standard run (48 prompts) and the figure of every method,
    as the README and the docs show them (`figure`: draw it afresh)."""
    rows = summary_rows()
    if figure: summary_figure(rows)
    std, small = [r for r in rows if r['prompts'] >= 48], [r for r in rows if r['prompts'] < 48]
    machine = machine_text(std)
    return ('SmolLM2-135M-Instruct, fp32, greedy, 128 new tokens, 48 Spec-Bench dev prompts (8 per group). '
            f'**Machine**: {machine}.\n\n'
            + summary_table(std) + '\n\n× transformers: speedup over transformers\' `generate` (`hf-vanilla`) in the same run. '
            '× our `vanilla`: speedup over our own plain decoding in the same run, which is what the draft adds (-: no `vanilla` '
            'in that run). tau: tokens per target forward. exact: share of prompts whose output is token for token `hf-vanilla`\'s. '
            'The run is a JSON in `bench_results/`; `F.linear` marks one made before the packed weights of `20_kernels` became '
            'the default. `oracle` drafts the true continuation: a ceiling, not a method. Measured only in smaller runs, in '
            'the figure: ' + ', '.join(f"`{r['method']}`" for r in small) + '.'
            '\n\n![speedup per method, plain decoding hatched, each group\'s speedup as a dot](bench_results/summary.png)')

def machine_text(rows: list[dict], code: bool = True) -> str:
    "The machine of the rows' runs in one phrase, and the runs (`code`: as Markdown code) of each recorded config."
    q = '`' if code else ''
    ms = {m: ', '.join(f'{q}{r}{q}' for r in runs) for m, runs in _by_machine(rows).items()}
    if all(m.startswith('not recorded (its config: ') for m in ms):                # runs made before `config.machine`
        return ("the project's 2-core development CPU, its model not recorded (the runs predate `config.machine`); their "
                'configs: ' + '; '.join(f"{m.removeprefix('not recorded (its config: ')[:-1]} ({runs})" for m, runs in ms.items()))
    return '; '.join(f'{m} ({runs})' for m, runs in ms.items())

def _by_machine(rows: list[dict]) -> dict:
    "{machine: [runs]} of the rows' runs."
    out = {}
    for run in dict.fromkeys(r['run'] for r in rows): out.setdefault(_machine(_run(run)['config']), []).append(run)
    return out

# --- the Performance page's blocks ---------------------------------------------------------------------------------

def describe(name: str) -> str:
    "A run in one line: its JSON, workload and machine."
    c = _run(name)['config']
    sampling = 'greedy' if not c.get('temperature') else f"temperature {c['temperature']:g}" + (
        f", top-p {c['top_p']:g}" if c.get('top_p', 1.0) < 1 else '')
    model = Path(c.get('model', '?')).name
    extra = [f"batch size {c['batch_size']}"] if c.get('batch_size') else []
    extra += [f"`--param {k}={v}`" for k, v in (c.get('params') or {}).items()]
    return (f"`{name}.json`: {model}, {c['n_prompts']} prompts, {c['max_new_tokens']} new tokens, {sampling}, "
            f"{c.get('threads')} thread{'s' * (c.get('threads') != 1)}" + ''.join(', ' + e for e in extra) + f". Machine: {_machine(c)}.")

def _exact_count(m: dict) -> str:
    if m.get('exact') is None: return '-'
    out = f"{round(m['exact'] * m['n'])}/{m['n']}"
    return out + (f" ({len(m['errors'])} failed)" if m.get('errors') else '')

def run_table(name: str) -> str:
    "One run: every method, plain decoding first, each speculative method also against our `vanilla` of the run."
    res = _run(name); ms = res['methods']
    order = [k for k in ms if is_plain(k)] + [k for k in ms if not is_plain(k)]
    lines = [describe(name), '', '| method | decoding | by | tok/s | × transformers | × our `vanilla` | tau | accepted | exact |',
             '|---|---|---|---|---|---|---|---|---|']
    for k in order:
        m = ms[k]
        lines.append(f"| `{k}` | {'plain' if is_plain(k) else 'speculative'} | {by(k)} | {_x(m['tokens_per_s'], '{:.1f}')} "
                     f"| **{_x(m['speedup'])}** | {_x(_vs_vanilla(res, k))} | {_x(m['tau'], '{:.2f}')} "
                     f"| {_x(m.get('acceptance'), '{:.2f}')} | {_exact_count(m)} |")
    return '\n'.join(lines)

PHASES = {'target forward': ('target_forward',), 'draft model forward': ('draft_forward',), 'drafting, other': ('draft_other',),
          'grammar, processors': ('constrain',), 'masks, verify, bookkeeping': ('mask', 'verify', 'commit', 'update', 'loop')}

def phases_table(name: str) -> str:
    "Where each of our methods' time went in one run: the share of each phase of the loop (`Stats` phases)."
    res = _run(name)
    used = {c: ps for c, ps in PHASES.items()                  # the grammar's column only for a run that had one
            if c != 'grammar, processors' or any((m.get('phases') or {}).get('constrain') for m in res['methods'].values())}
    lines = [describe(name), '', '| method | × transformers | ' + ' | '.join(used) + ' |', '|---|---|' + '---|' * len(used)]
    for k, m in res['methods'].items():
        ph = m.get('phases')
        if not ph: continue
        total = sum(ph.values())
        shares = [sum(ph.get(p, 0) for p in ps) / total for ps in used.values()]
        lines.append(f"| `{k}` | {_x(m['speedup'])} | " + ' | '.join(f'{s:.1%}' for s in shares) + ' |')
    return '\n'.join(lines)

def structured_table(name: str) -> str:
    """A run under JSON schemas: each method against transformers' constrained `generate`, each `:jump=true` variant
    against the same method without it, the share of its tokens the grammar forced, and the answers valid JSON."""
    res = _run(name); ms = res['methods']
    lines = [describe(name), '', '| method | by | tok/s | × transformers | × without jump | tau | forced | exact | valid JSON |',
             '|---|---|---|---|---|---|---|---|---|']
    for k, m in ms.items():
        base = 'vanilla' if k == 'jump-forward' else k.replace(':jump=true', '')
        alone = ms.get(base) if base != k else None
        vs = m['speedup'] / alone['speedup'] if alone and m.get('speedup') and alone.get('speedup') else None
        valid = '-' if m.get('json_valid') is None else f"{m['json_valid']:.0%} ({m['ended']:.0%} ended)"
        lines.append(f"| `{k}` | {by(k)} | {_x(m['tokens_per_s'], '{:.1f}')} | **{_x(m['speedup'])}** | {_x(vs)} "
                     f"| {_x(m['tau'], '{:.2f}')} | {_x(m.get('forced_share'), '{:.0%}')} | {_exact_count(m)} | {valid} |")
    return '\n'.join(lines)

def exactness_table(name: str) -> str:
    """A run kept for what it checks, not its speed (one thread, beside other work): per method, its answers equal to
    transformers' and, under a schema, the answers that ended as valid JSON."""
    res = _run(name); ms = res['methods']
    lines = [describe(name), '', '| method | by | exact | valid JSON |', '|---|---|---|---|']
    for k, m in ms.items():
        valid = '-' if m.get('json_valid') is None else f"{m['json_valid']:.0%} ({m['ended']:.0%} ended)"
        lines.append(f"| `{k}` | {by(k)} | {_exact_count(m)} | {valid} |")
    return '\n'.join(lines)

BATCH = ('batch_b1_n8', 'batch_b4_n8', 'batch_b8_n8')

def batch_table(runs=BATCH) -> str:
    "The batch runs side by side: new tokens per second over all rows (× transformers' batched `generate`), a column per run."
    res = {n: _run(n) for n in runs}
    methods = list(dict.fromkeys(k for r in res.values() for k in r['methods']))
    machines = dict.fromkeys(_machine(r['config']) for r in res.values())
    exact = all(m.get('exact') == 1 for r in res.values() for m in r['methods'].values())
    lines = ['Machine: ' + '; '.join(machines) + '. Runs: ' + ', '.join(f"`{n}.json` ({r['config']['n_prompts']} prompts)"
                                                                      for n, r in res.items())
             + ('; every row of every run exact.' if exact else '; not every row exact.'), '',
             '| method | decoding | by | ' + ' | '.join(f"batch size {r['config']['batch_size']}" for r in res.values()) + ' |',
             '|---|---|---|' + '---|' * len(res)]
    for m in methods:
        cells = [f"{r['methods'][m]['tokens_per_s']:.1f} ({r['methods'][m]['speedup']:.2f}×)" if m in r['methods'] else 'not run'
                 for r in res.values()]
        lines.append(f"| `{m}` | {'plain' if is_plain(m) else 'speculative'} | {by(m)} | " + ' | '.join(cells) + ' |')
    return '\n'.join(lines)

def figure_block(name: str) -> str:
    "A run's stored figure, with the run and its machine as the caption."
    return f"![{name}: speedup per group and tau per method](../bench_results/{name}.png)\n\n*{describe(name)}*"

def runs_table() -> str:
    "Every stored benchmark run: what it ran, and the machine."
    lines = ['| run | model | prompts | new tokens | sampling | methods | machine |', '|---|---|---|---|---|---|---|']
    other = []
    for f in sorted(RESULTS.glob('*.json')):
        res = json.loads(f.read_text())
        if not (isinstance(res, dict) and 'config' in res and 'methods' in res): other.append(f.stem); continue
        c = res['config']
        sampling = 'greedy' if not c.get('temperature') else f"T={c['temperature']:g}"
        lines.append(f"| `{f.stem}` | {Path(c.get('model', '?')).name} | {c['n_prompts']} | {c['max_new_tokens']} | {sampling} "
                     f"| {len(res['methods'])} | {_machine(c)} |")
    return '\n'.join(lines) + '\n\nOther records in `bench_results/`, not benchmark runs (training curves, long generations): ' + \
        ', '.join(f'`{o}.json`' for o in other) + '.'

def block(name: str, figure: bool = False) -> str:
    "The generated text of one marker block, by its name."
    kind, _, arg = name.partition(':')
    if kind == 'results': return summary_markdown(figure)
    if kind == 'groups':
        rows = summary_rows()
        return ('**Machine**: ' + machine_text(rows) + '.\n\n' + groups_table(rows)
                + "\n\n![speedup per method, plain decoding hatched, each group's speedup as a dot](../bench_results/summary.png)"
                '\n\n*The rows above, drawn; the machine as above. A row from a smaller run names a method of the same run '
                'beside it, for scale; `F.linear` marks a run made before the packed weights of `20_kernels` became the default.*')
    if kind == 'run': return run_table(arg)
    if kind == 'structured': return structured_table(arg)
    if kind == 'exactness': return exactness_table(arg)
    if kind == 'phases': return phases_table(arg)
    if kind == 'batch': return batch_table()
    if kind == 'figure': return figure_block(arg)
    if kind == 'runs': return runs_table()
    raise KeyError(f'no generator for the block {name!r}')

_re_block = re.compile(r'<!-- ([\w:.-]+):start -->\n?.*?<!-- \1:end -->', re.S)

def fill(nb: dict, figure: bool = False) -> dict:
    "Every marker block of the notebook `nb` rewritten from the stored runs (in place; returns `nb`)."
    for cell in nb['cells']:
        src = ''.join(cell['source'])
        if '-->' not in src: continue
        new = _re_block.sub(lambda m: f'<!-- {m[1]}:start -->\n{block(m[1], figure)}\n<!-- {m[1]}:end -->', src)
        if new != src: lines = new.split('\n'); cell['source'] = [l + '\n' for l in lines[:-1]] + [lines[-1]]
    return nb

def refresh(nb_path, figure: bool = False):
    "Rewrite a notebook's marker blocks in place (the file is left as it is when they are unchanged)."
    old = json.loads(Path(nb_path).read_text())
    nb = fill(copy.deepcopy(old), figure)
    if nb != old: Path(nb_path).write_text(json.dumps(nb, indent=1, ensure_ascii=False) + '\n')

def refresh_index(nb_path=NBS / 'index.ipynb'):
    "The summary (and its figure, drawn afresh) between its markers in the index notebook."
    refresh(nb_path, figure=True)

def readme_text(nb_path=NBS / 'index.ipynb') -> str:
    "The README as `readme` writes it."
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
    return '<!-- generated from nbs/index.ipynb by tools/make_readme.py: edit the notebook -->\n\n' + '\n\n'.join(parts) + '\n'

def readme(nb_path=NBS / 'index.ipynb', out=ROOT / 'README.md'):
    Path(out).write_text(readme_text(nb_path))

def paragraphs(md: str) -> list[str]:
    "The paragraphs of a Markdown text: runs of lines between blank lines, outside code fences, tables and HTML comments."
    out, cur, fence = [], [], False
    md = re.sub(r'<!--.*?-->', '', md, flags=re.S)
    for line in md.split('\n') + ['']:
        s = line.strip()
        if s.startswith('```'): fence = not fence
        if fence or s.startswith(('```', '|')) or not s:                     # a fence, a table row or a blank line ends one
            if cur: out.append('\n'.join(cur))
            cur = []
        else: cur.append(line)
    return out

if __name__ == '__main__':
    refresh_index(*sys.argv[1:2]); refresh(NBS / 'performance.ipynb'); readme(*sys.argv[1:])
