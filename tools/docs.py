"""Build the documentation site with Sphinx + myst-nb + furo, offline, without Quarto.

    python tools/docs.py            # = make docs: nbs/ -> _proc/ -> docs/_src/ -> docs/_build/html

1. nbdev's own processing, `nbdev.serve.proc_nbs()`, writes `_proc/` (show_doc output, doc links, front matter),
   except that cells flagged with settings.ini's `tst_flags` (slow, cuda, ...) and cells mixing imports with other
   code are not executed for the docs: their stored outputs are shown as they are.
2. `convert_nb` turns each processed notebook into one myst-nb can read: front matter -> title, Quarto cell options
   (`#| echo/output/include: false`) -> cell tags, Quarto callouts -> admonitions, absolute doc links -> relative.
3. Sphinx builds it with `docs/conf.py`, warnings as errors, MathJax served from a local copy (`npm install mathjax@3`).
"""
import ast, json, re, shutil, subprocess, sys, warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'tools'))
SRC, OUT = ROOT / 'docs' / '_src', ROOT / 'docs' / '_build' / 'html'
MATHJAX = ROOT / 'docs' / '_node' / 'node_modules' / 'mathjax' / 'es5'
TAGS = {'echo': 'remove-input', 'output': 'remove-output', 'include': 'remove-cell'}
CALLOUTS = {'note': 'note', 'tip': 'tip', 'warning': 'warning', 'important': 'important', 'caution': 'caution'}

def _cfg():
    from nbdev.config import get_config
    return get_config(path=ROOT)

def doc_url() -> str:
    "The absolute URL prefix of the site (settings.ini's doc_host + doc_baseurl), as nbdev writes it in links."
    c = _cfg(); return c.doc_host.rstrip('/') + '/' + c.doc_baseurl.strip('/') + '/'

def _patch_eval(flags):
    "Skip flagged cells, and cells that mix imports with other code, when nbdev executes cells for show_doc."
    import nbdev.processors as P
    orig = P._do_eval
    def _do_eval(cell):
        if cell.cell_type == 'code' and cell.directives_.keys() & flags: return None
        with warnings.catch_warnings():
            warnings.simplefilter('ignore'); r = orig(cell)
        if r and not cell.directives_.keys() & {'export', 'exports', 'exporti', 'exec_doc'}:
            trees = cell.parsed_()
            if not P._show_docs(trees) and not all(isinstance(t, (ast.Import, ast.ImportFrom)) for t in trees): return None
        return r
    P._do_eval = _do_eval

def proc() -> Path:
    "nbdev's processing of every notebook into `_proc/` (in this process: one import of torch for all)."
    from nbdev.serve import proc_nbs
    _patch_eval(set(_cfg().get('tst_flags', '').split()))
    return proc_nbs(n_workers=0, force=True)

_re_dir = re.compile(r'^#\|\s*([\w-]+)\s*:?\s*(.*?)\s*$')
def cell_options(source: str) -> tuple[dict, str]:
    "Split a code cell into its `#|` options and the remaining code."
    lines, opts = source.splitlines(), {}
    while lines and _re_dir.match(lines[0]):
        k, v = _re_dir.match(lines.pop(0)).groups(); opts[k] = v
    return opts, '\n'.join(lines)

def cell_tags(opts: dict) -> list[str]:
    "myst-nb tags for Quarto's `echo/output/include: false`."
    return [t for k, t in TAGS.items() if opts.get(k, '').lower() == 'false']

_re_callout = re.compile(r'^(\s*:::+)\s*\{\.callout-(\w+)[^}]*\}\s*$', re.M)
_re_attrs = re.compile(r'(\]\([^)\s]*\))\{[^}]*\}')
def fix_markdown(md: str, url: str) -> str:
    "Callouts -> admonitions, absolute doc links -> relative (anchors as Sphinx writes ids), drop Quarto link attributes."
    from docutils.nodes import make_id
    md = _re_callout.sub(lambda m: f'{m[1]}{{{CALLOUTS.get(m[2], "note")}}}', md)
    md = re.sub(re.escape(url) + r'([\w./-]*\.html)(#[^)\s"\']*)?', lambda m: m[1] + ('#' + make_id(m[2][1:]) if m[2] else ''), md)
    return _re_attrs.sub(r'\1', md).replace('../bench_results/', 'bench_results/')

def front_matter(cell: dict) -> dict:
    import yaml
    s = ''.join(cell['source']).strip()
    return yaml.safe_load(s.strip('-')) if s.startswith('---') else {}

def _text(x): return ''.join(x) if isinstance(x, list) else x

def _fix_output(o: dict, url: str) -> dict:
    d = o.get('data')
    if d:
        d.pop('application/vnd.jupyter.widget-view+json', None)
        for k in ('text/markdown', 'text/html'):
            if k in d: d[k] = fix_markdown(_text(d[k]), url)
        if 'text/markdown' in d: d['text/markdown'] = re.sub(r'^---$', '<hr>', d['text/markdown'], flags=re.M)  # rules in outputs: docutils refuses them
    return o

def convert_nb(nb: dict, url: str) -> tuple[str, dict]:
    "A processed notebook -> (page name, a notebook myst-nb renders as nbdev meant it)."
    cells, page, fm = [], None, {}
    for c in nb['cells']:
        if 'source' not in c: continue                                   # cells nbdev removed (exports, hide)
        src = _text(c['source'])
        if c['cell_type'] == 'raw' and src.lstrip().startswith('---') and not fm:
            fm = front_matter(c); head = f"# {fm.get('title', '')}"
            if fm.get('description'): head += f"\n\n> {fm['description']}"
            cells.append(dict(cell_type='markdown', metadata={}, source=head)); continue
        if c['cell_type'] == 'markdown': c['source'] = fix_markdown(src, url)
        if c['cell_type'] == 'code':
            opts, code = cell_options(src)
            tags = cell_tags(opts) + (['remove-input'] if not code.strip() else [])
            if not code.strip() and not c.get('outputs'): continue
            c['source'], c['metadata'] = code, {**({'tags': tags} if tags else {})}
            c['outputs'] = [_fix_output(o, url) for o in c.get('outputs', [])]
        cells.append(c)
    keep = ('cell_type', 'metadata', 'source', 'outputs', 'execution_count', 'attachments')
    cells = [{'id': f'c{i}', **{k: v for k, v in c.items() if k in keep}} for i, c in enumerate(cells)]   # valid nbformat 4.5
    page = Path(fm.get('output-file', 'page.html')).stem
    meta = {k: v for k, v in nb.get('metadata', {}).items() if k in ('kernelspec', 'language_info')}
    return page, dict(nb, cells=cells, metadata=meta, nbformat=4, nbformat_minor=5)

def api_page() -> str:
    "The API reference: every exported name, by module, linked to its show_doc entry in the notebook pages."
    from docutils.nodes import make_id
    from specdec_nb._modidx import d
    out = ['# API reference', '',
           "Every name the package exports, by module; each links to its documentation (nbdev's `show_doc`) in its notebook's page."]
    for mod, syms in d['syms'].items():
        names = [(k[len(mod) + 1:], v[0]) for k, v in syms.items() if '._' not in k and '.__' not in k]
        if not names: continue
        page = names[0][1].split('#')[0]
        out += ['', f'## [`{mod}`]({page})', '']
        out += [f"- [`{n}`]({link.split('#')[0]}#{make_id(link.split('#')[1])})" for n, link in names]
    return '\n'.join(out) + '\n'

def results_page() -> str:
    "The benchmark results: the summary the README shows, one row per method from the stored runs (`tools/make_readme.py`)."
    import make_readme
    return ('# Benchmark results\n\nEvery method measured with `specdec bench` on a 2-core CPU: the embedded SmolLM2-135M-Instruct, fp32, '
            'greedy, 128 new tokens, Spec-Bench dev prompts in six groups; how it is measured, and each run in full, is in the bench page.\n\n'
            + make_readme.summary_markdown(figure=False) + '\n')

def write_sources(proc_dir: Path, dst: Path = SRC) -> list[str]:
    "Converted notebooks, the extra pages, figures and MathJax into `dst`; returns the page names in order."
    if dst.exists(): shutil.rmtree(dst)
    dst.mkdir(parents=True); url, pages, home = doc_url(), [], None
    for f in sorted(proc_dir.glob('*.ipynb')):
        page, nb = convert_nb(json.loads(f.read_text()), url)
        if page == 'index': home = nb
        else: pages.append(page); (dst / f'{page}.ipynb').write_text(json.dumps(nb, indent=1))
    (dst / 'api.md').write_text(api_page()); (dst / 'results.md').write_text(results_page())
    pages += ['results', 'api']
    toc = '```{toctree}\n:hidden:\n:maxdepth: 1\n\n' + '\n'.join(pages) + '\n```'
    home['cells'].append(dict(cell_type='markdown', id='toc', metadata={}, source=toc))
    (dst / 'index.ipynb').write_text(json.dumps(home, indent=1))
    shutil.copytree(ROOT / 'bench_results', dst / 'bench_results', ignore=shutil.ignore_patterns('*.json'))
    if not (MATHJAX / 'tex-chtml.js').exists(): raise FileNotFoundError(f'{MATHJAX}: run `make docs` (it installs MathJax with npm)')
    mj = dst / '_static' / 'mathjax'
    shutil.copytree(MATHJAX / 'output' / 'chtml' / 'fonts' / 'woff-v2', mj / 'output' / 'chtml' / 'fonts' / 'woff-v2')
    shutil.copy(MATHJAX / 'tex-chtml.js', mj / 'tex-chtml.js')
    return ['index'] + pages

def sphinx(src: Path = SRC, out: Path = OUT) -> Path:
    "Sphinx, warnings as errors."
    if out.exists(): shutil.rmtree(out)
    subprocess.run([sys.executable, '-m', 'sphinx', '-W', '--keep-going', '-q', '-b', 'html', '-c', str(ROOT / 'docs'),
                    str(src), str(out)], check=True)
    return out

def build() -> Path:
    "nbs/ -> _proc/ -> docs/_src/ -> docs/_build/html; returns the html folder."
    write_sources(proc()); return sphinx()

if __name__ == '__main__': print(build() / 'index.html')
