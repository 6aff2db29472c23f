"""Execute notebooks headless and store their outputs, so that the docs show them without rerunning the models.

    python experiments/store_outputs.py nbs/02_engine.ipynb ...       # skips cells flagged slow / cuda / notest / eval: false
    python experiments/store_outputs.py --flags slow nbs/11_widgets.ipynb   # also runs the `slow` cells

A skipped cell keeps the outputs it already has. The notebook is written back, then `nbdev_clean`ed.
"""
import argparse, os, subprocess, sys, time
from pathlib import Path

def _skip(flags):
    from nbdev.process import extract_directives
    def skip(cell):
        "True for cells not to run: markdown, the nbdev_export cell, `eval: false`, and flagged cells."
        if cell.cell_type != 'code': return True
        if 'nbdev_export' + '(' in cell.source: return True
        d = extract_directives(cell, remove=False) or {}
        if d.get('eval:', [''])[0].lower() == 'false': return True
        return bool(flags & d.keys())
    return skip

def store(path, run_flags=()) -> float:
    "Run `path` in a fresh shell (cwd: its folder), write it back with outputs, clean it; returns the seconds taken."
    from execnb.nbio import read_nb, write_nb
    from execnb.shell import CaptureShell
    from nbdev.config import get_config
    path = Path(path).resolve(); t0 = time.time()
    flags = set(get_config().get('tst_flags', '').split()) - set(run_flags)
    nb, cwd = read_nb(path), os.getcwd()
    os.environ['IN_TEST'] = '1'
    k = CaptureShell(path)
    try:
        os.chdir(path.parent); k.run_all(nb, exc_stop=True, preproc=_skip(flags))
    except Exception:
        sys.stderr.write(k.prettytb(fname=path) + '\n'); raise
    finally: os.chdir(cwd)
    write_nb(nb, path)
    subprocess.run([str(Path(sys.executable).parent / 'nbdev_clean'), '--fname', str(path)], check=True)
    return time.time() - t0

if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('notebooks', nargs='+'); ap.add_argument('--flags', default='', help='flags whose cells run too, e.g. slow')
    a = ap.parse_args()
    for nb in a.notebooks: print(f'{nb}: {store(nb, a.flags.split()):.1f}s')
