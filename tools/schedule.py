"""`make test`'s jobs, scheduled from measured seconds (tests/durations.json) instead of a list kept by hand.

    python tools/schedule.py              the jobs, one a line, in the order tools/test_lanes.sh starts them
    python tools/schedule.py --update LOG fold the seconds a `make test` run printed (LOG: its output, which
                                          tools/test_lanes.sh keeps in .logs/test.log) into tests/durations.json

A job is a notebook (`05b_quant`: a process of its own), notebooks joined by `+` (one process, one after another: a
process pays ~8 s of imports, so short notebooks share), or a pytest job (`tests:NAME`, see tools/test_lanes.sh).
A notebook of `ALONE` seconds or more runs alone; the shorter ones are packed, longest first, into processes of
about `GROUP` seconds; a notebook not measured yet counts `DEFAULT`. Jobs start longest first (two lanes take the
next job as they free up), after the two that must come first: `warm` (which the notebooks wait for) and the
sampling matrix (which does not wait)."""
import json, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILE = ROOT / 'tests' / 'durations.json'
ALONE, GROUP, DEFAULT = 60, 120, 15
FIRST = ('warm', 'tests:sampling')
TESTS = ('tests:rest', 'tests:linear', 'tests:cli')


def durations() -> dict:
    return json.loads(FILE.read_text())


def notebooks() -> list[str]:
    return sorted(p.stem for p in (ROOT / 'nbs').glob('*.ipynb'))


def jobs(secs: dict | None = None) -> list[str]:
    "Every notebook once, the pytest jobs, in the order to start them."
    secs = durations() if secs is None else secs
    t = {n: secs.get(n, DEFAULT) for n in notebooks()}
    out = [(t[n], n) for n in t if t[n] >= ALONE]
    groups = []
    for n in sorted((n for n in t if t[n] < ALONE), key=lambda n: (-t[n], n)):   # first fit, longest first
        g = next((g for g in groups if g[0] + t[n] <= GROUP), None)
        if g is None:
            groups.append(g := [0, []])
        g[0] += t[n]
        g[1].append(n)
    out += [(s, '+'.join(ns)) for s, ns in groups] + [(secs.get(j, DEFAULT), j) for j in TESTS]
    return list(FIRST) + [j for _, j in sorted(out, key=lambda x: -x[0])]


def update(log: str) -> dict:
    "The durations with what `log` measured: nbdev_test's `NAME.ipynb: N secs`, test_lanes' `job JOB: N s`."
    secs, text = durations(), Path(log).read_text(errors='replace')
    for name, s in re.findall(r'^(\w+)\.ipynb: (\d+) secs$', text, re.M):
        secs[name] = int(s)
    for job, s in re.findall(r"job (tests:\w+|warm): (\d+) s$", text, re.M):
        secs[job] = int(s)
    FILE.write_text(json.dumps(dict(sorted(secs.items())), indent=1) + '\n')
    return secs


if __name__ == '__main__':
    if sys.argv[1:2] == ['--update']:
        update(sys.argv[2])
    print('\n'.join(jobs()))
