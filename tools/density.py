"""Count the density offences in the exported code (the house rules: lines <= 110 characters, no ';' chains,
no one-line compound statement that hides logic).

    python tools/density.py              # a table per module of specdec_nb/
    python tools/density.py -v           # ... and every offending line
    python tools/density.py --check a b  # exit 1 when modules a.py, b.py have any offence

A one-line compound statement is allowed only as a plain guard: `if cond: return/raise/continue/break/pass`
with no `else`, or `def f(...): return x`, on a line of at most 110 characters. The module docstring and the
`__all__` block, which nbdev writes, are not counted.
"""
import ast, io, sys, tokenize
from pathlib import Path

WIDTH = 110
JUMPS = (ast.Return, ast.Raise, ast.Continue, ast.Break, ast.Pass)

def blocks(tree):
    "Every statement block: `(owner node, field, statements)`."
    for node in ast.walk(tree):
        for field in ('body', 'orelse', 'finalbody'):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield node, field, block
        for handler in getattr(node, 'handlers', []):
            yield handler, 'body', handler.body

def is_guard(node, field, block, line: str) -> bool:
    if len(block) != 1 or not isinstance(block[0], JUMPS) or len(line) > WIDTH or field != 'body':
        return False
    if isinstance(node, ast.If):
        return line.lstrip().startswith('if ') and not node.orelse
    return isinstance(node, ast.FunctionDef) and isinstance(block[0], ast.Return)

def offences(path) -> dict:
    "Line numbers of `path`'s long lines, ';' chains and one-line compound statements (all / not a guard)."
    src = Path(path).read_text()
    lines, tree = src.splitlines(), ast.parse(src)
    written = set()                                   # what nbdev writes: the module docstring, `__all__`
    for i, node in enumerate(tree.body):
        is_all = isinstance(node, ast.Assign) and any(getattr(t, 'id', '') == '__all__' for t in node.targets)
        if (i == 0 and isinstance(node, ast.Expr)) or is_all:
            written |= set(range(node.lineno, node.end_lineno + 1))
    toks = tokenize.generate_tokens(io.StringIO(src).readline)
    found = dict(long=[n for n, l in enumerate(lines, 1) if len(l) > WIDTH and n not in written],
                 semicolon=[t.start[0] for t in toks if t.type == tokenize.OP and t.string == ';'],
                 one_line=[], hiding=[])
    for node, field, block in blocks(tree):
        first = block[0]
        line = lines[first.lineno - 1]
        head = line.encode()[:first.col_offset].decode(errors='ignore')
        if not head.strip() or not head.rstrip().endswith(':'):
            continue
        found['one_line'].append(first.lineno)
        if not is_guard(node, field, block, line):
            found['hiding'].append(first.lineno)
    return found

def main(args):
    verbose, check = '-v' in args, '--check' in args
    names = [a for a in args if not a.startswith('-')]
    root = Path(__file__).resolve().parents[1] / 'specdec_nb'
    files = [root / n for n in names] or sorted(p for p in root.glob('*.py') if p.name != '_modidx.py')
    total = dict(long=0, semicolon=0, one_line=0, hiding=0)
    print(f"{'module':22} {'>110':>5} {';':>5} {'1-line':>6} {'hiding':>6}")
    for f in files:
        found, lines = offences(f), f.read_text().splitlines()
        for kind, at in found.items():
            total[kind] += len(at)
        print(f"{f.name:22} {len(found['long']):5} {len(found['semicolon']):5} {len(found['one_line']):6} "
              f"{len(found['hiding']):6}")
        if verbose:
            for kind in ('long', 'semicolon', 'hiding'):
                for n in found[kind]:
                    print(f'  {kind:9} {f.name}:{n}: {lines[n - 1].strip()[:120]}')
    print(f"{'total':22} {total['long']:5} {total['semicolon']:5} {total['one_line']:6} {total['hiding']:6}")
    return 1 if check and (total['long'] or total['semicolon'] or total['hiding']) else 0

if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
