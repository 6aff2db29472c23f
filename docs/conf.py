# Sphinx settings of the docs site; `make docs` (tools/docs.py) writes the sources into docs/_src.
from configparser import ConfigParser
from pathlib import Path
_c = ConfigParser(); _c.read(Path(__file__).resolve().parents[1] / 'settings.ini'); _c = _c['DEFAULT']

project, author, copyright = _c['title'], _c['author'], _c['copyright']
release = _c['version']
extensions = ['myst_nb']
html_theme = 'furo'
html_title = f"{project} {release}"
exclude_patterns = ['_build', '**.ipynb_checkpoints']

nb_execution_mode = 'off'                 # the notebooks' stored outputs are shown; nothing runs
nb_render_markdown_format = 'myst'        # math inside show_doc's Markdown output
nb_ipywidgets_js = {}
nb_output_stderr = 'remove'               # progress bars and warnings of the run that stored the outputs                     # no widget scripts from a CDN
myst_enable_extensions = ['dollarmath', 'amsmath', 'colon_fence']
myst_all_links_external = True            # nbdev's links are plain relative hrefs (tools/docs.py makes them so)
myst_heading_anchors = 3
mathjax_path = 'mathjax/tex-chtml.js'     # local copy (npm's mathjax@3), copied into _src/_static by tools/docs.py
html_static_path = [str(Path(__file__).resolve().parent / '_src' / '_static')]
suppress_warnings = ['myst.header']       # show_doc writes ### headings under ## ones, and notebooks may skip levels
