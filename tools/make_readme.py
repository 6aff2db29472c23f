"""Write README.md from nbs/index.ipynb without Quarto (nbdev_readme needs it).

Markdown cells are copied; code cells become ```python blocks with their `#|` directives removed; cells marked
`#| hide` are skipped; stored text outputs follow their cell.
"""
import json, sys
from pathlib import Path

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
            txt = ''.join(o.get('text', '')) or ''.join(o.get('data', {}).get('text/markdown', ''))
            if txt.strip(): parts.append(txt if 'text/markdown' in o.get('data', {}) else f'```\n{txt.rstrip()}\n```')
    Path(out).write_text('<!-- generated from nbs/index.ipynb by tools/make_readme.py: edit the notebook -->\n\n' + '\n\n'.join(parts) + '\n')

if __name__ == '__main__': readme(*sys.argv[1:])
