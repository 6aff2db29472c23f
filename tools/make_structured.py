"""Build `specdec_nb/assets/structured_dev.jsonl`, the structured-output prompt set, from the shipped dev prompts:
the first four prompts of each group, each asking for JSON of a schema of its group (bounded strings). The math group's
reasoning is at most 200 characters and its number at most 9 digits and 4 decimals, so that even an answer of one
character per token ends within 256 tokens: with 400 characters and an unbounded JSON number, one greedy SmolLM2
answer was still writing at 256 tokens. Run: python tools/make_structured.py"""
import json
from pathlib import Path
from specdec_nb.models import load_prompts, spec_bench_path

def _obj(props: dict, required=None) -> dict:
    return {'type': 'object', 'properties': props, 'required': required or list(props),
            'additionalProperties': False, 'x-guidance': {'whitespace_flexible': False}}

def _s(n: int) -> dict: return {'type': 'string', 'maxLength': n}

NUMBER = {'type': 'string', 'pattern': r'^-?[0-9]{1,9}(\.[0-9]{1,4})?$'}   # a number, in at most 15 characters

SCHEMAS = {      # group -> (what the prompt adds, the schema)
    'mt-bench': ('a short title and your response', _obj({'title': _s(60), 'response': _s(400)})),
    'translation': ('the language you translated from and the translation',
                    _obj({'source_language': _s(20), 'translation': _s(400)})),
    'summarization': ('a title, a summary and up to three keywords',
                      _obj({'title': _s(80), 'summary': _s(300),
                            'keywords': {'type': 'array', 'items': _s(24), 'maxItems': 3}})),
    'qa': ('your answer and how confident you are',
           _obj({'answer': _s(300), 'confidence': {'enum': ['low', 'medium', 'high']}})),
    'math_reasoning': ('your reasoning and the final number',
                       _obj({'reasoning': _s(200), 'answer': NUMBER})),
    'rag': ('your answer and the passage it comes from', _obj({'answer': _s(300), 'source': _s(120)})),
}

def build(per_group: int = 4) -> list[dict]:
    rows, raw = [], {json.loads(l)['question_id']: json.loads(l) for l in spec_bench_path().read_text().splitlines() if l.strip()}
    for r in load_prompts(n_per_group=per_group):
        what, schema = SCHEMAS[r['group']]
        fields = ', '.join(f'"{k}"' for k in schema['properties'])
        text = f"{r['text']}\n\nAnswer in JSON only, an object with the fields {fields}: {what}."
        rows.append(dict(question_id=r['question_id'], category=raw[r['question_id']]['category'],
                         turns=[text], json_schema=schema))
    return rows

if __name__ == '__main__':
    out = Path(__file__).resolve().parents[1] / 'specdec_nb' / 'assets' / 'structured_dev.jsonl'
    rows = build()
    out.write_text(''.join(json.dumps(r) + '\n' for r in rows), encoding='utf-8')
    print(f'{out}: {len(rows)} prompts')
