"""Every error code in one list, one spelling.

A code is what a page shows a message for and what the API returns as `{"code", "detail"}`,
so clients match on it: it is kebab-case. The list below is read from the source (every
`DomainError(...)` / `RulesError(...)` with a literal code, and the codes of `DomainError`
subclasses), so a new or renamed code fails here until it is added. No database needed.
"""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = (
    "config",
    "rules",
    "notifications",
    "decks",
    "league",
    "matches",
    "floor",
    "tom",
    "insights",
    "webhooks",
    "gamenights",
)

CODES = {
    "webhook-endpoint-paused", "webhook-events-invalid", "webhook-target-refused",
    "webhook-url-invalid",
    "webhook-delivery-sending",
    "already-registered", "archetype-rule-invalid", "archetype-too-long", "table-invalid",
    "bad-attendance", "bad-attendance-table", "bad-input", "bad-json",
    "bad-player-id", "bad-result", "bad-ruleset", "bad-top-cut", "bad-unsubscribe-link",
    "bracket-played", "call-closed", "call-taken", "card-data", "deck-locked", "duplicate-match", "duplicate-player",
    "duplicate-player-id", "empty-decklist", "event-finished", "event-started",
    "idempotency-key-in-use", "idempotency-key-invalid", "idempotency-key-reused",
    "invalid-call", "invalid-deck-check", "invalid-event", "invalid-extension", "invalid-penalty",
    "invalid-result", "prize-count", "json-too-deep", "match-after-drop", "no-season",
    "no-decklists", "not-a-board-game", "not-a-tournament",
    "not-active", "not-allowed", "not-enough-players", "not-found", "not-registered",
    "not-your-match", "nul-character", "registration-closed", "result-final",
    "result-incomplete", "results-missing", "round-closed", "round-has-results",
    "round-not-public", "round-open", "round-stage", "tables-open", "tdf-contradicts", "tdf-differs", "tdf-invalid",
    "too-few-players", "too-many-players", "too-many-tokens", "top-cut-undecided",
    "unknown-format", "unknown-kind", "unknown-player", "unsubscribe-link-expired",
    "bad-edition", "no-tardiness-rule", "not-late-yet",
    "already-staff", "invalid-staff-role", "last-organiser", "unknown-user",
    "invalid-edit", "needs-confirmation", "not-checked-in", "not-dropped", "not-last-round",
    "not-seated", "player-dropped", "reason-required", "seated-twice", "table-taken",
}  # fmt: skip

#: Codes the site's middleware answers with directly (`{"code": ..., "detail"}`), before or
#: outside any service: a body over the limit, a throttled login.
RESPONSE_CODES = {"login-throttled", "request-too-large"}

KEBAB = re.compile(r"[a-z]+(-[a-z]+)*")


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
    assert set(codes_in_source()) == CODES


def test_codes_are_kebab_case():
    assert [code for code in sorted(CODES) if not KEBAB.fullmatch(code)] == []


def test_response_codes_are_kebab_case_and_answered_by_the_site():
    source = "".join(p.read_text() for p in (ROOT / "config").glob("*.py"))
    assert [code for code in sorted(RESPONSE_CODES) if not KEBAB.fullmatch(code)] == []
    assert [code for code in sorted(RESPONSE_CODES) if f'"code": "{code}"' not in source] == []
