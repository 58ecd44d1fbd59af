"""Every error code in one list, one spelling.

A code is what a page shows a message for and what the API returns as `{"code", "detail"}`,
so clients match on it: it is kebab-case. The list below is read from the source (every
`DomainError(...)` / `RulesError(...)` with a literal code, and the codes of `DomainError`
subclasses), so a new or renamed code fails here until it is added. No database needed.

The rules engines' input-checking codes (`ENGINE_CODES`) are still snake_case: they are
raised by `rules/standings.py` and `rules/topcut.py` too, which are being changed elsewhere
right now; renaming them all at once (engines, their tests, and this list) is a follow-up of
issue 11. Until then they keep one spelling among themselves.
"""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("config", "rules", "notifications", "decks", "league", "matches")

SITE_CODES = {
    "already-registered", "card-data", "deck-locked", "duplicate-player-id", "empty-decklist",
    "event-finished", "event-started", "invalid-event", "invalid-result", "json-too-deep",
    "not-active", "not-allowed", "nul-character", "not-enough-players", "not-found", "not-registered", "not-your-match",
    "registration-closed", "result-final", "result-incomplete", "results-missing",
    "round-closed", "round-not-public", "round-open", "unknown-kind",
}  # fmt: skip
ENGINE_CODES = {
    "bad_attendance", "bad_attendance_table", "bad_input", "bad_json", "bad_player_id",
    "bad_result", "bad_ruleset", "bad_top_cut", "duplicate_match", "duplicate_player",
    "match_after_drop", "too_few_players", "too_many_players", "unknown_player",
}  # fmt: skip

#: Codes the site's middleware answers with directly (`{"code": ..., "detail"}`), before or
#: outside any service: a body over the limit, a throttled login.
RESPONSE_CODES = {"login-throttled", "request-too-large"}

KEBAB = re.compile(r"[a-z]+(-[a-z]+)*")
SNAKE = re.compile(r"[a-z]+(_[a-z]+)*")


def _error_classes(trees) -> set[str]:
    """`DomainError`, `RulesError` and every class deriving from them (by name)."""
    names = {"DomainError", "RulesError"}
    grew = True
    while grew:
        grew = False
        for tree in trees:
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name not in names:
                    bases = {
                        b.id if isinstance(b, ast.Name) else getattr(b, "attr", "")
                        for b in node.bases
                    }
                    if bases & names:
                        names.add(node.name)
                        grew = True
    return names


def codes_in_source() -> dict[str, set[str]]:
    files = [
        p
        for package in PACKAGES
        for p in (ROOT / package).rglob("*.py")
        if "migrations" not in p.parts
    ]
    trees = {p: ast.parse(p.read_text(encoding="utf-8")) for p in files}
    classes = _error_classes(trees.values())
    found: dict[str, set[str]] = {}
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in classes or name == "__init__":
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    found.setdefault(first.value, set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_code_is_listed():
    assert set(codes_in_source()) == SITE_CODES | ENGINE_CODES


def test_site_codes_are_kebab_case():
    assert [code for code in sorted(SITE_CODES) if not KEBAB.fullmatch(code)] == []


def test_engine_codes_share_one_spelling():
    assert [code for code in sorted(ENGINE_CODES) if not SNAKE.fullmatch(code)] == []
    assert not {c.replace("_", "-") for c in ENGINE_CODES} & SITE_CODES


def test_response_codes_are_kebab_case_and_answered_by_the_site():
    source = "".join(p.read_text() for p in (ROOT / "config").glob("*.py"))
    assert [code for code in sorted(RESPONSE_CODES) if not KEBAB.fullmatch(code)] == []
    assert [code for code in sorted(RESPONSE_CODES) if f'"code": "{code}"' not in source] == []
