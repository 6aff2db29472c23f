"The docs site: the conversion of nbdev's processed notebooks, then `make docs` (warnings as errors) checked in headless Chromium."
import json, os, re, shutil, subprocess, sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit, unquote
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'tools'))
import docs

URL = 'https://specdec-nb.github.io/specdec_nb/'

# --- the conversion, on hand-made cells --------------------------------------------------------------------------

def test_cell_options_and_tags():
    opts, code = docs.cell_options('#| echo: false\n#| output: asis\n#| slow\nshow_doc(f)\n#| not a directive here')
    assert opts == {'echo': 'false', 'output': 'asis', 'slow': ''} and code == 'show_doc(f)\n#| not a directive here'
    assert docs.cell_tags({'echo': 'false', 'output': 'False', 'include': 'true'}) == ['remove-input', 'remove-output']
    assert docs.cell_tags({'include': 'false'}) == ['remove-cell']

def test_fix_markdown():
    md = ('[`Stats.plot_acceptance`](https://specdec-nb.github.io/specdec_nb/engine.html#stats.plot_acceptance) '
          '[source](https://github.com/x/y.py#L3){target="_blank" style="float:right"} ![f](../bench_results/a.png)\n'
          '::: {.callout-warning collapse="true"}\nmind this\n:::\n::: {.callout-odd}\nx\n:::')
    out = docs.fix_markdown(md, URL)
    assert '(engine.html#stats-plot-acceptance)' in out and '(https://github.com/x/y.py#L3) ' in out and '{target' not in out
    assert ':::{warning}\nmind this\n:::' in out and ':::{note}\nx\n:::' in out and '(bench_results/a.png)' in out

def test_convert_nb():
    nb = {'metadata': {'widgets': {}, 'kernelspec': {'name': 'python3'}}, 'nbformat': 4, 'nbformat_minor': 4, 'cells': [
        {'cell_type': 'raw', 'metadata': {}, 'source': "---\ntitle: 'Engine: the loop'\ndescription: One loop.\noutput-file: engine.html\n---\n"},
        {'cell_type': 'code', 'metadata': {}, 'outputs': [], 'execution_count': None},          # an export cell nbdev emptied
        {'cell_type': 'code', 'metadata': {}, 'has_sd': True, 'execution_count': 1, 'source': '#| echo: false\n#| output: asis\nshow_doc(g)',
         'outputs': [{'output_type': 'display_data', 'metadata': {}, 'data': {'text/markdown': '---\n\n### g\n\nsee [h](https://specdec-nb.github.io/specdec_nb/core.html#h)',
                                                          'application/vnd.jupyter.widget-view+json': {}}}]},
        {'cell_type': 'markdown', 'metadata': {}, 'source': '$\\tau$ per [`f`](https://specdec-nb.github.io/specdec_nb/core.html#f)'}]}
    page, out = docs.convert_nb(nb, URL)
    assert page == 'engine' and out['metadata'] == {'kernelspec': {'name': 'python3'}} and out['nbformat_minor'] == 5
    c = out['cells']
    assert len(c) == 3 and c[0]['source'] == '# Engine: the loop\n\n> One loop.'
    assert c[1]['metadata'] == {'tags': ['remove-input']} and c[1]['source'] == 'show_doc(g)' and 'has_sd' not in c[1]
    assert c[1]['outputs'][0]['data'] == {'text/markdown': '<hr>\n\n### g\n\nsee [h](core.html#h)'}
    assert c[2]['source'] == '$\\tau$ per [`f`](core.html#f)' and [x['id'] for x in c] == ['c0', 'c1', 'c2']

# --- the built site ------------------------------------------------------------------------------------------------

class _Refs(HTMLParser):
    def __init__(self): super().__init__(); self.refs = []
    def handle_starttag(self, tag, attrs):
        self.refs += [(tag, k, v) for k, v in attrs if k in ('href', 'src') and v]

def _refs(f: Path): p = _Refs(); p.feed(f.read_text(encoding='utf-8')); return p.refs

def _chromium_exe() -> str:
    exe = shutil.which('chromium') or shutil.which('chromium-browser')
    assert exe, 'headless Chromium is missing: `make chromium` (apt-get install -y chromium)'
    return exe

_TYPESET = "() => window.MathJax?.startup?.promise ? MathJax.startup.promise.then(() => true) : true"

def render(pages, shots: dict = {}) -> dict:
    """Each page as Chromium shows it once MathJax has typeset it: {name: DOM}. One browser for every page (a
    Chromium launch per page cost ~2 s each); `shots` maps a page's name to a PNG path to screenshot it to."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=_chromium_exe(), args=['--no-sandbox', '--disable-gpu'])
        try:
            page, doms = browser.new_page(viewport=dict(width=1200, height=900)), {}
            for f in pages:
                page.goto(f.as_uri(), wait_until='load', timeout=60_000)
                page.evaluate(_TYPESET)
                doms[f.name] = page.content()
                if f.name in shots: page.screenshot(path=str(shots[f.name]))
        finally: browser.close()
    return doms

def _make_docs() -> str:
    "`make docs`; returns '' on success, else the end of its output."
    r = subprocess.run(['make', 'docs'], cwd=ROOT, capture_output=True, text=True, timeout=600)
    return '' if r.returncode == 0 else r.stdout[-3000:] + r.stderr[-3000:] or f'exit {r.returncode}'

@pytest.fixture(scope='session')
def site(tmp_path_factory):
    """`make docs`, once per test run: it must succeed with Sphinx's warnings as errors (docs/conf.py runs sphinx -W).
    Under pytest-xdist every worker may ask for the site (its `loadgroup` does not reliably keep a module on one
    worker), and two builds at once delete each other's output: the first worker builds under a file lock, the
    others wait and read its result."""
    from filelock import FileLock
    if not os.environ.get('PYTEST_XDIST_WORKER'): err = _make_docs()
    else:
        run_dir = tmp_path_factory.getbasetemp().parent                         # shared by this run's workers only
        with FileLock(str(run_dir / 'docs.lock')):
            done = run_dir / 'docs.result'
            if not done.exists(): done.write_text(_make_docs())
            err = done.read_text()
    assert not err, err
    return docs.OUT

def test_pages(site):
    pages = {p.stem for p in site.glob('*.html')}
    assert {'index', 'core', 'engine', 'widgets', 'bench', 'cli', 'api', 'results'} <= pages
    assert 'show_doc' not in (site / 'engine.html').read_text() and 'id="generate"' in (site / 'engine.html').read_text()
    assert 'sd-tok' in (site / 'widgets.html').read_text()                        # the stored static rendering of a run

def test_no_broken_internal_links_and_nothing_remote(site):
    bad, remote = [], []
    for f in site.rglob('*.html'):
        if '_static' in f.parts: continue
        for tag, k, v in _refs(f):
            u = urlsplit(v)
            if u.scheme in ('http', 'https'):
                if tag in ('script', 'link', 'img'): remote.append((f.name, v))
                continue
            if u.scheme in ('data', 'mailto', 'javascript') or not u.path: continue
            if not (f.parent / unquote(u.path)).exists(): bad.append((f.name, v))
    assert not bad, bad[:20]
    assert not remote, remote[:20]                                             # no CDN: MathJax and all assets are local

def test_benchmark_figure(site):
    imgs = [v for tag, k, v in _refs(site / 'results.html') if tag == 'img' and v.endswith('summary.png')]
    assert imgs and (site / imgs[0]).read_bytes()[:4] == b'\x89PNG'

@pytest.fixture(scope='session')
def shown(site, tmp_path_factory):
    "Every page as Chromium shows it, rendered once for the tests below: ({name: DOM}, a screenshot of the home page)."
    shot = tmp_path_factory.mktemp('shots') / 'home.png'
    return render([f for f in sorted(site.glob('*.html')) if f.stem not in ('genindex', 'search')], {'index.html': shot}), shot

def test_renders_in_chromium(shown):
    from PIL import Image, ImageStat
    doms, shot = shown
    im = Image.open(shot).convert('L')
    assert im.size == (1200, 900) and ImageStat.Stat(im).stddev[0] > 10, 'blank screenshot'
    assert doms['core.html'].count('<mjx-container') >= 5, 'MathJax did not render the math'
    assert '<mjx-merror' not in doms['core.html']                              # no TeX errors

# --- what a reader sees: the rendered pages, checked for the class of problem, not the instance ----------------

_SKIP = {'code', 'pre', 'script', 'style', 'mjx-container', 'textarea', 'kbd', 'samp', 'mjx-assistive-mml'}
_VOID = {'br', 'hr', 'img', 'input', 'meta', 'link', 'area', 'base', 'col', 'embed', 'source', 'track', 'wbr', 'path', 'rect'}
_HEADER = re.compile(r'\s*(method|group)\s')      # the header rows of the benchmark's text tables

class _Page(HTMLParser):
    "A rendered page: its text outside code and math, its `<pre>` blocks and `<th>` cells, MathJax's error nodes, its API entries."
    def __init__(self):
        super().__init__(); self.stack, self.prose, self.body, self.pres, self.ths, self.errors, self.entries = [], [], [], [], [], 0, []
    def _in(self, cls): return any(cls in c.split() for _, c in self.stack)
    def handle_starttag(self, tag, attrs):
        cls = dict(attrs).get('class') or ''
        if tag == 'mjx-merror': self.errors += 1
        if tag in _VOID: return
        self.stack.append((tag, cls))
        if tag == 'pre': self.pres.append('')
        if tag == 'th': self.ths.append('')
        if tag == 'p' and 'rubric' in cls and self._in('cell_output'): self.entries.append(dict(name='', doc=''))   # a show_doc entry
    def handle_endtag(self, tag):
        while tag not in _VOID and self.stack:
            if self.stack.pop()[0] == tag: break
    def handle_data(self, data):
        tags = {t for t, _ in self.stack}
        if 'pre' in tags: self.pres[-1] += data
        if 'th' in tags: self.ths[-1] += data
        if self.entries and self._in('cell_output'):
            e = self.entries[-1]
            if any(t == 'p' and 'rubric' in c for t, c in self.stack): e['name'] += data
            elif not {'pre', 'code', 'a'} & tags and not self._in('highlight'): e['doc'] += data
        if not tags & _SKIP: self.prose.append(data)
        if not tags & (_SKIP | {'th'}): self.body.append(data)
    @property
    def text(self): return ' '.join(self.prose)
    def words(self) -> set:
        "The page's words outside table headers."
        return set(re.findall(r'[\w-]+', ' '.join(self.body) + ' '.join(l for p in self.pres for l in p.splitlines() if not _HEADER.match(l))))

def page_problems(dom: str, vocab: set = frozenset()) -> list[str]:
    """What is wrong with one rendered page (its DOM after MathJax ran): math MathJax did not typeset (a literal `$$`, a
    stray `$`, a leftover `\\(`), MathJax error nodes, API entries without a real docstring, table headers cut short
    (a header word that is, elsewhere on the site (`vocab`), only ever the start of a longer word)."""
    p = _Page(); p.feed(dom); out = []
    for pat, what in ((r'\$\$', 'literal $$: display math not typeset'), (r'\$', 'a stray $: math not typeset'),
                      (r'\\\(|\\\[', 'math MathJax did not typeset')):
        hits = list(re.finditer(pat, p.text))
        out += [f'{what}: ...{p.text[max(0, m.start() - 60):m.end() + 60]!r}...' for m in hits[:3]]
        if hits: break
    if p.errors: out.append(f'{p.errors} MathJax error node(s) (mjx-merror)')
    for e in p.entries:
        doc = ' '.join(e['doc'].split())
        if not doc or doc.startswith('Call self as a function'): out.append(f"API entry {e['name'].strip()!r} has no docstring: {doc!r}")
    body = set(vocab) | p.words()
    heads = p.ths + [l for pre in p.pres for l in pre.splitlines() if _HEADER.match(l)]
    for w in dict.fromkeys(w for h in heads for w in re.findall(r'[\w-]{4,}', h)):
        longer = sorted(x for x in body if x.startswith(w) and x != w)
        if w not in body and longer: out.append(f'table header {w!r} cut short (of {longer[0]!r}?)')
    return out

def test_page_problems_catch_the_class():
    "The checker on hand-made pages: each kind of problem is found, a clean page passes."
    entry = lambda doc: (f'<div class="cell_output"><hr><p><a href="x">source</a></p><p class="rubric">f</p>'
                         f'<div class="highlight"><pre>def f(x)</pre></div>{doc}</div>')
    ok = ('<p>a <mjx-container>x</mjx-container> b</p><pre>method  tok/s  summarization\nvanilla 1.0 1.0</pre>'
          '<p><code>$HOME</code></p>' + entry('<p><em>Does f.</em></p>'))
    assert page_problems(ok) == []
    assert 'literal $$' in page_problems('<p>text\n$$x = 1$$</p>')[0]
    assert 'stray $' in page_problems('<p>at rate $\\alpha$ and</p>')[0]
    assert 'did not typeset' in page_problems('<p><span class="math">\\(x\\)</span></p>')[0]
    assert 'mjx-merror' in page_problems('<p><mjx-container><mjx-merror>x</mjx-merror></mjx-container></p>')[0]
    assert 'no docstring' in page_problems(entry('<p><em>Call self as a function.</em></p>'))[0]
    assert 'no docstring' in page_problems(entry(''))[0]
    assert 'cut short' in page_problems('<pre>method   summarizati\nx 1</pre>', {'summarization'})[0]
    assert 'cut short' in page_problems('<table><tr><th>math_reaso</th></tr></table><p>math_reasoning</p>')[0]

def test_every_page_clean_in_chromium(shown):
    "Every page as Chromium shows it, after MathJax: no untypeset or broken math, no API entry without a docstring, no cut-off header."
    doms = shown[0]
    vocab = set()
    for d in doms.values(): page = _Page(); page.feed(d); vocab |= page.words()
    bad = {name: pr for name, d in doms.items() if (pr := page_problems(d, vocab))}
    assert not bad, '\n'.join(f'{n}: {x}' for n, pr in bad.items() for x in pr[:5])
    assert sum(d.count('<mjx-container') for d in doms.values()) >= 50, 'MathJax did not render the math'

def test_every_export_has_a_docstring():
    "Every function and class the package exports says what it does (not 'Call self as a function.', not a dataclass's generated signature)."
    import importlib, inspect, pkgutil, specdec_nb
    missing = []
    for m in pkgutil.iter_modules(specdec_nb.__path__):
        if m.name.startswith('_'): continue
        mod = importlib.import_module(f'specdec_nb.{m.name}')
        for n in getattr(mod, '__all__', []):
            o = getattr(mod, n)
            if not (inspect.isfunction(o) or inspect.isclass(o)): continue
            doc = o.__doc__ or ''
            if not doc.strip() or doc.startswith(f'{n}(') or doc.startswith('Call self as'): missing.append(f'{m.name}.{n}')
    assert not missing, missing

def test_readme_is_generated(tmp_path):
    "README.md is what `tools/make_readme.py` writes from nbs/index.ipynb, with the stored runs' table (edit, then `make readme`)."
    import make_readme
    out = tmp_path / 'README.md'; make_readme.readme(ROOT / 'nbs' / 'index.ipynb', out)
    assert out.read_text() == (ROOT / 'README.md').read_text(), 'README.md is stale: run `make readme`'
    assert make_readme.summary_markdown(figure=False) in out.read_text(), 'the results table is stale: run `make readme`'
