"The shape of the house: what stands on what (imports walked from the source), the proposer contract, the textbook's order."
import ast, json, re
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / 'specdec_nb'
NBS = ROOT / 'nbs'
WING = 'specdec_nb.backends'
# the loop, what it stands on, the drafters and what they share: none of them may use the backend wing
HOUSE = ('core', 'models', 'machine', 'checkpoints', 'target', 'lean', 'engine', 'grammar', 'lossless', 'sizing',
         'batch', 'registry', 'draft', 'xdraft', 'tree', 'selfspec', 'quant', 'ngram', 'suffix', 'recycle', 'combine', 'lookahead',
         'medusa', 'eagle', 'distill', 'selfspec_training', 'medusa_training', 'eagle_training')
# the one way down: the factory's entry, called inside these functions only
ENTRY = {('engine', 'generate'), ('batch', 'generate_batch')}


def _module(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix('')
    return '.'.join(p for p in rel.parts if p != '__init__')


def imports(path: Path):
    "(imported module, imported names, enclosing top-level function or None) for each import in `path`."
    tree, here = ast.parse(path.read_text()), _module(path)
    pkg = here if path.name == '__init__.py' else here.rsplit('.', 1)[0]
    def walk(node, fn):
        for child in ast.iter_child_nodes(node):
            f = child.name if fn is None and isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else fn
            if isinstance(child, ast.ImportFrom):
                base = pkg.split('.')[:len(pkg.split('.')) - child.level + 1] if child.level else []
                mod = '.'.join(base + ([child.module] if child.module else []))
                yield mod, [a.name for a in child.names], fn
            elif isinstance(child, ast.Import):
                for a in child.names: yield a.name, [], fn
            yield from walk(child, f)
    yield from walk(tree, None)


def modules():
    return {_module(p): p for p in PKG.rglob('*.py') if p.name != '_modidx.py'}


def test_the_house_does_not_stand_on_the_wing():
    found = modules()
    assert {f'specdec_nb.{m}' for m in HOUSE} <= set(found), 'a module of the house is missing: update HOUSE'
    bad = []
    for m in HOUSE:
        for mod, names, fn in imports(found[f'specdec_nb.{m}']):
            wing = mod.startswith(WING) or mod.startswith('openvino') or (mod == 'specdec_nb' and 'backends' in names)
            if wing and not ((m, fn) in ENTRY and mod == WING and names == ['prepare']):
                bad.append(f'{m} imports {mod} {names} (in {fn or "the module"})')
    assert not bad, '\n'.join(bad)


def test_the_entry_is_used_where_it_is_meant():
    found, seen = modules(), set()
    for m, fn in ENTRY:
        seen |= {(m, fn) for mod, names, f in imports(found[f'specdec_nb.{m}']) if mod == WING and f == fn}
    assert seen == ENTRY


def test_the_wing_stands_on_no_drafter():
    found = modules()
    drafters = {f'specdec_nb.{m}' for m in HOUSE} - {f'specdec_nb.{m}' for m in ('core', 'models', 'machine', 'target', 'lean')}
    for name, path in found.items():
        if name.startswith(WING):
            ups = [mod for mod, _, _ in imports(path) if mod in drafters]
            assert not ups, f'{name} imports {ups}'


def test_no_module_state_carries_the_step():
    for name, path in modules().items():
        text = path.read_text()
        assert not re.search(r'\b_ACTIVE\b', text), name
        assert not re.search(r'def (make_target|draft_plan)\b', text), name


def test_the_proposer_contract():
    from specdec_nb.engine import Proposer, Request
    members = {k for k in vars(Proposer) if not k.startswith('_')}
    assert members == {'needs', 'reset', 'propose', 'update', 'draft_modules'}
    assert {'target', 'cost', 'compile'} <= set(Request.__dataclass_fields__)


# --- the textbook in reading order ---------------------------------------------------------------------------------

WING_NBS = ('kernels', 'openvino', 'measure', 'backends')
TOOLS = ('registry', 'setup', 'ovpeers', 'llamapeers', 'bench', 'report', 'throughput', 'widgets', 'cli', 'train', 'method_checks',
         'longrun')
NB = re.compile(r'^(\d\d)([a-z]?)_(\w+)$')


def notebooks() -> dict:
    "name -> (number, letter, rest) for every numbered notebook."
    return {p.stem: NB.match(p.stem).groups() for p in NBS.glob('*.ipynb') if NB.match(p.stem)}


def test_textbook_before_wing_and_tools():
    nbs = notebooks()
    order = lambda n: (int(nbs[n][0]), nbs[n][1])
    book = [n for n in nbs if nbs[n][2] not in WING_NBS + TOOLS]
    rest = [n for n in nbs if nbs[n][2] in WING_NBS + TOOLS]
    assert book and rest
    assert max(map(order, book)) < min(map(order, rest)), (sorted(book, key=order)[-1], sorted(rest, key=order)[0])


def _texts():
    for p in list(NBS.glob('*.ipynb')):
        nb = json.loads(p.read_text())
        yield p.name, '\n'.join(''.join(c['source']) for c in nb['cells'])
    for p in [*PKG.rglob('*.py'), *(ROOT / 'tests').glob('*.py'), *(ROOT / 'tools').glob('*'), ROOT / 'Makefile',
              ROOT / 'README.md']:
        if p.is_file() and p.name not in ('_modidx.py', 'test_house.py'):
            yield str(p.relative_to(ROOT)), p.read_text(errors='replace')


def test_every_notebook_reference_resolves():
    names = set(notebooks())
    ref = re.compile(r'(?<![\w/.-])(\d\d[a-z]?_[a-z][a-z0-9_]*[a-z0-9])(?![\w-])')
    bad = sorted({(f, r) for f, text in _texts() for r in ref.findall(text)
                  if r not in names and not (NBS / f'{r}.ipynb').exists()
                  and not (ROOT / 'bench_results' / f'{r}.json').exists()})
    assert not bad, bad


def test_make_test_schedules_every_notebook_once():
    "make test's jobs come from measured seconds (tools/schedule.py): every notebook once, no stale name."
    import sys; sys.path.insert(0, str(ROOT / 'tools'))
    import schedule
    names = {p.stem for p in NBS.glob('*.ipynb')}
    measured = {k for k in schedule.durations() if not k.startswith('tests:') and k != 'warm'}
    assert measured <= names, f'tests/durations.json names no notebook: {sorted(measured - names)}'
    jobs = schedule.jobs()
    run = [n for j in jobs if j not in schedule.FIRST + schedule.TESTS for n in j.split('+')]
    assert sorted(run) == sorted(names)
    assert jobs[:2] == list(schedule.FIRST) and set(schedule.TESTS) <= set(jobs)
    big = max((n for n in names if n not in ('index', 'performance')), key=lambda n: schedule.durations().get(n, 0))
    assert big in jobs                                       # the longest notebook runs alone
