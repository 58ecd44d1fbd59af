"""Check decklists in bulk: JSON lines in, JSON lines out.

Input, one object a line: `{"id": ..., "format": "standard", "decklist_text": "..."}`.
Output, one line per input line, in order:
`{"id": ..., "legal": bool, "errors": [{"code", "lines", "message"}], "warnings": [...]}`.
A line that is not such an object gets `legal: false` with an `invalid-input` error.
"""

import json
import sys

from django.core.management.base import BaseCommand

from decks.models import Format
from decks.services import card_index, check_decklist


def _failure(ident, code: str, message: str) -> dict:
    return {
        "id": ident,
        "legal": False,
        "errors": [{"code": code, "lines": [], "message": message}],
        "warnings": [],
    }


class Command(BaseCommand):
    help = __doc__.strip().splitlines()[0]

    def handle(self, *args, **options):
        index = card_index()
        specs = {f.key: f.to_spec() for f in Format.objects.prefetch_related("allowed_sets")}
        out = sys.stdout
        for number, line in enumerate(sys.stdin, start=1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as exc:
                out.write(
                    json.dumps(
                        _failure(None, "invalid-input", f"Input line {number} is not JSON: {exc}")
                    )
                    + "\n"
                )
                continue
            ident = item.get("id") if isinstance(item, dict) else None
            if not isinstance(item, dict) or not isinstance(item.get("decklist_text"), str):
                result = _failure(
                    ident, "invalid-input", f"Input line {number} needs a string 'decklist_text'."
                )
            elif (spec := specs.get(item.get("format", "standard"))) is None:
                result = _failure(
                    ident,
                    "unknown-format",
                    f"Unknown format {item.get('format')!r}; known: {', '.join(sorted(specs))}.",
                )
            else:
                verdict = check_decklist(text=item["decklist_text"], fmt=spec, index=index)
                result = {"id": ident, **verdict.to_dict()}
            out.write(json.dumps(result, ensure_ascii=False) + "\n")
