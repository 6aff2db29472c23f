"""The README a newcomer reads in five minutes, and the Performance page of the docs that holds the long story.

README.md is generated from nbs/index.ipynb by `tools/make_readme.py`; the tables of both notebooks are generated from the
stored runs in `bench_results/`. Nothing here builds the site or loads a model: `make docs` is checked in test_docs.py.
"""
import copy, json, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'tools'))
import make_readme

README, INDEX, PERF = ROOT / 'README.md', ROOT / 'nbs' / 'index.ipynb', ROOT / 'nbs' / 'performance.ipynb'
MAX_LINES, MAX_PARAGRAPH = 150, 800

def test_paragraphs():
    "A paragraph is a run of lines between blank lines, outside code fences, tables and HTML comments."
    md = ('# t\n\na\nb\n\n```sh\n' + 'x' * 900 + '\n\nmore code\n```\n\n| h |\n|---|\n| ' + 'y' * 900 + ' |\nc\n\n<!-- '
          + 'z' * 900 + ' -->\n\nd')
    assert make_readme.paragraphs(md) == ['# t', 'a\nb', 'c', 'd']

def test_readme_is_short():
    "At most 150 lines, no paragraph over 800 characters."
    text = README.read_text()
    assert len(text.splitlines()) <= MAX_LINES, f'README.md has {len(text.splitlines())} lines: move material to nbs/performance.ipynb'
    long = {len(p): p[:80] for p in make_readme.paragraphs(text) if len(p) > MAX_PARAGRAPH}
    assert not long, f'paragraphs over {MAX_PARAGRAPH} characters: {long}'

def test_readme_is_generated():
    "README.md is what `tools/make_readme.py` makes of nbs/index.ipynb (edit the notebook, then `make readme`)."
    assert make_readme.readme_text(INDEX) == README.read_text(), 'README.md is stale: run `make readme`'

def test_generated_blocks_are_fresh():
    "Every generated block of the index and the Performance page is what the stored runs give now."
    for path in (INDEX, PERF):
        nb = json.loads(path.read_text())
        assert make_readme.fill(copy.deepcopy(nb)) == nb, f'{path.name}: its tables are stale: run `make readme`'

def test_readme_speed_table():
    "One speed table: it names its machine, and separates plain decoding from speculation with a ratio to our `vanilla`."
    text = README.read_text()
    block = text[text.index('<!-- results:start -->'):text.index('<!-- results:end -->')]
    assert '**Machine**' in block
    rows = [l for l in block.splitlines() if l.startswith('|')]
    head = [c.strip() for c in rows[0].strip('|').split('|')]
    assert {'decoding', '× transformers', '× our `vanilla`'} <= set(head)
    kinds = [[c.strip() for c in r.strip('|').split('|')][head.index('decoding')] for r in rows[2:]]
    assert set(kinds) == {'plain', 'speculative'} and kinds == sorted(kinds)                  # plain decoding first
    plain = {r.split('|')[1].strip() for r in rows[2:] if '| plain |' in r}
    assert {'`hf-vanilla`', '`vanilla`'} <= plain
    assert '[Performance](' in text                                                           # where the long story went

def test_performance_page():
    "nbs/performance.ipynb: markdown only (it exports nothing, loads no model), every block naming its machine."
    nb = json.loads(PERF.read_text())
    assert ''.join(nb['cells'][0]['source']).startswith('# Performance\n')
    assert all(c['cell_type'] == 'markdown' for c in nb['cells'])
    text = '\n\n'.join(''.join(c['source']) for c in nb['cells'])
    blocks = re.findall(r'<!-- ([\w:.-]+):start -->(.*?)<!-- \1:end -->', text, flags=re.S)
    assert len(blocks) >= 10
    assert not [name for name, body in blocks if 'achine' not in body], 'a table or figure without its machine'
    figures = re.findall(r'!\[[^\]]*\]\(([^)\s]+)\)', text)
    assert figures and all(f.startswith('../bench_results/') and (PERF.parent / f).exists() for f in figures)

def test_performance_is_a_docs_page():
    "nbdev's processing and tools/docs.py's conversion make it the page `performance`, its figures where the site keeps them, and the home page links to it."
    import docs
    from execnb.nbio import read_nb, nb2str
    from nbdev.doclinks import nbglob
    from nbdev.processors import FilterDefaults
    assert PERF.resolve() in [Path(f).resolve() for f in nbglob(ROOT / 'nbs')]               # a notebook `make docs` processes
    proc = read_nb(PERF); FilterDefaults()(proc)
    page, out = docs.convert_nb(json.loads(nb2str(proc)), docs.doc_url())
    assert page == 'performance' and out['cells'][0]['source'].startswith('# Performance')
    figures = re.findall(r'!\[[^\]]*\]\(([^)\s]+)\)', '\n'.join(c['source'] for c in out['cells'] if c['cell_type'] == 'markdown'))
    assert figures and all(f.startswith('bench_results/') and (ROOT / f).exists() for f in figures)   # docs.write_sources copies bench_results/
    home = '\n'.join(''.join(c['source']) for c in json.loads(INDEX.read_text())['cells'] if c['cell_type'] == 'markdown')
    assert '](performance.html)' in docs.fix_markdown(home, docs.doc_url())
