"""Store the outputs of 10_bench's `eval: false` result cells (tables and figures read from bench_results/), so the docs show them."""
import base64, json
from pathlib import Path
from specdec_nb.report import format_table

def _png(name): return {'data': {'image/png': base64.b64encode(Path(f'bench_results/{name}.png').read_bytes()).decode(),
                                 'text/plain': ['<IPython.core.display.Image object>']}, 'metadata': {}, 'output_type': 'execute_result', 'execution_count': 1}
def _text(names): return {'name': 'stdout', 'output_type': 'stream',
                          'text': [l + '\n' for n in names for l in (format_table(json.loads(Path(f'bench_results/{n}.json').read_text())) + '\n').splitlines()]}

nbp = Path('nbs/10_bench.ipynb'); nb = json.loads(nbp.read_text())
for key, names, fig in (("standard_n8.json", ['standard_n8'], 'standard_n8'), ("draft_n8.json", ['draft_n8'], 'draft_n8'), ("draftfree_n8.json", ['draftfree_n8'], 'draftfree_n8'), ("pld_n8.json", ['pld_n8'], 'pld_n8'), ("lookahead_n8.json", ['lookahead_n8'], 'lookahead_n8'), ("'trained_n3', 'medusa_n3'", ['trained_n3', 'medusa_n3', 'tree_n8'], 'trained_n3'), ("selfspec_n2.json", ['selfspec_n2'], 'selfspec_n2'), ("trained_n8.json", ['trained_n8'], 'trained_n8')):
    cell = next(c for c in nb['cells'] if c['cell_type'] == 'code' and key in ''.join(c['source']))
    cell['outputs'], cell['execution_count'] = [_text(names), _png(fig)], 1
nbp.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + '\n')
