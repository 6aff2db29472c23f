"""The playground (`36_widgets`) in a real front end: Voila serves a notebook holding it on localhost, headless Chromium
(driven by Playwright) types a prompt, clicks Run, and watches the coloured tokens and the live tau arrive."""
import json, os, shutil, socket, subprocess, sys, time, urllib.error, urllib.request
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
PROMPT = 'Rewrite this list as a sentence: apples, pears, plums, cherries, apricots.\nThen repeat it: apples, pears, plums, cherries, apricots.'
APP = """import torch
from specdec_nb.models import load_smollm2
from specdec_nb.widgets import Playground
model, tok = load_smollm2()
app = Playground(model, tok, method='pld')
app.max_new.value = 48
app"""

STATS = '.widget-html-content:has-text("target forwards")'   # the stats line: tokens, target forwards, tau, tok/s

def _free_port() -> int:
    with socket.socket() as s: s.bind(('127.0.0.1', 0)); return s.getsockname()[1]

def _notebook(path: Path) -> Path:
    cell = dict(cell_type='code', id='app', metadata={}, execution_count=None, outputs=[], source=APP)
    path.write_text(json.dumps(dict(cells=[cell], nbformat=4, nbformat_minor=5,
                                    metadata=dict(kernelspec=dict(name='python3', display_name='Python 3', language='python')))))
    return path

@pytest.fixture
def voila(tmp_path):
    "Voila serving the playground notebook on a free localhost port; yields its URL."
    pytest.importorskip('voila'); pytest.importorskip('playwright')
    try: from specdec_nb.models import smollm2_gguf_path; smollm2_gguf_path()
    except (ModuleNotFoundError, FileNotFoundError) as e: pytest.skip(str(e))
    nb, port = _notebook(tmp_path / 'playground.ipynb'), _free_port()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get('PYTHONPATH', '')]).rstrip(os.pathsep))
    log = open(tmp_path / 'voila.log', 'w')
    proc = subprocess.Popen([sys.executable, '-m', 'voila', str(nb), '--no-browser', f'--port={port}', '--Voila.ip=127.0.0.1',
                             '--show_tracebacks=True'], cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f'http://127.0.0.1:{port}/'
    try:
        for _ in range(120):
            try: urllib.request.urlopen(url + 'static/', timeout=2); break
            except urllib.error.HTTPError: break                            # any answer: the server is up
            except OSError: time.sleep(0.5)
        else: pytest.fail('Voila did not start: ' + (tmp_path / 'voila.log').read_text()[-2000:])
        yield url
    finally:
        proc.terminate()
        try: proc.wait(20)
        except subprocess.TimeoutExpired: proc.kill()
        log.close()

def test_playground_in_a_browser(voila, tmp_path):
    "Type a prompt, click Run: coloured tokens stream in, the stats line updates as they do, and tau ends above 1."
    from playwright.sync_api import sync_playwright
    exe = shutil.which('chromium') or shutil.which('chromium-browser')
    assert exe, 'headless Chromium is missing: `make chromium`'
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=exe, args=['--no-sandbox', '--disable-gpu'])
        try:
            page = browser.new_page(viewport=dict(width=1200, height=900))
            page.goto(voila, timeout=180_000)
            page.wait_for_selector('textarea', timeout=180_000)             # the notebook ran: the model is loaded
            page.fill('textarea', PROMPT)
            page.click('button:has-text("Run")')
            seen, t0 = [], time.time()
            while time.time() - t0 < 120:                                     # the stats line, as it changes during the run
                line = page.inner_text(STATS) if page.query_selector(STATS) else ''
                if 'tokens ·' in line and (not seen or seen[-1] != line): seen.append(line)
                if page.query_selector('img[alt="acceptance histogram"]'): break   # drawn when the run ends
                time.sleep(0.1)
            shot = tmp_path / 'playground.png'; page.screenshot(path=str(shot), full_page=True)
            if os.environ.get('SPECDEC_SCREENSHOTS'): shutil.copy(shot, Path(os.environ['SPECDEC_SCREENSHOTS']) / 'playground.png')
            tokens = page.query_selector_all('.sd-text .sd-tok')
            drafts = page.query_selector_all('.sd-text .sd-draft')
            final = page.inner_text(STATS)
        finally: browser.close()
    assert len(tokens) >= 10 and drafts, f'{len(tokens)} coloured tokens, {len(drafts)} accepted drafts'
    assert len(seen) >= 2, f'the stats line never changed during the run: {seen}'
    tau = float(final.split('tau ')[1].split()[0])
    assert tau > 1, final
