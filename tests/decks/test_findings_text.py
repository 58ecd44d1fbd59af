"""Deck findings in the reader's language (issue 33): the engine says every finding as a
marked msgid and its parameters, and the site words it (`decks.findings_text`).

* Every msgid a finding carries, on the real lists and on broken versions of them, is a
  literal inside `gettext_noop(...)` or `ngettext(...)` in the engine's source, which is
  what `makemessages` extracts: no finding escapes the catalogues.
* `word()` gives today's English under "en"; rendered with another catalogue, the template
  is translated and the parameters (nested sentences too) fill it.
* A stored finding keeps its template and parameters and is worded again when read.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from django.utils import translation

from decks import findings_text
from decks.findings_text import word, word_record, worded_verdict
from decks.parser import parse_decklist
from rules.cards import EXPANDED, STANDARD, UNLIMITED, load_index
from rules.findings import Finding
from rules.i18n import Text, gettext_noop, ngettext, say, sentences
from rules.legality import check_deck

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data"
CARDS = SHARED / "pokemon-tcg"
LISTS = SHARED / "real-decklists" / "lists.jsonl"
#: The engine's source: `rules/` and the parser (plain Python in `decks/`).
SOURCES = [*sorted((ROOT / "rules").glob("*.py")), ROOT / "decks" / "parser.py"]


def _marked() -> set[tuple[str, str]]:
    """(msgid, plural) of every marker call in the engine's source; each argument must be
    a literal string (what xgettext can extract)."""
    marked = set()
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id not in ("gettext_noop", "ngettext"):
                continue
            wanted = 1 if node.func.id == "gettext_noop" else 2
            args = node.args[:wanted]
            assert len(args) == wanted and all(
                isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args
            ), f"{path.name}:{node.lineno}: a marker's msgid must be a literal string"
            marked.add((args[0].value, args[1].value if wanted == 2 else ""))
    return marked


def _broken_versions(text: str) -> list[str]:
    """The list with mistakes players make: each gives findings of its own."""
    lines = text.splitlines()
    first = parse_decklist(text).lines[0]
    return [
        text,
        "\n".join([*lines, "4 Pikachuu", "3 Pikachu ex SVI 999", "1 Charizard ZZZ 4"]),
        "\n".join([*lines, f"9 {first.name}"]),
        "\n".join([*lines, "four Pikachu", "-1 Pikachu", "0 Pikachu", "Pikachu x4", "?!"]),
        "\n".join([*lines, "1000000 Pikachu", "4 " + "Pikachu " * 30, "4 OBF 186"]),
        "\n".join(line for line in lines if "Energy" not in line),
    ]


@pytest.fixture(scope="module")
def produced():
    if not (CARDS.is_dir() and LISTS.is_file()):
        pytest.skip("shared card data or real lists not present")
    index = load_index(str(CARDS))
    lists = [json.loads(line) for line in LISTS.read_text(encoding="utf-8").splitlines() if line]
    findings: list[Finding] = []
    for item in lists:
        for text in _broken_versions(item["decklist_text"]):
            parsed = parse_decklist(text)
            for fmt in (UNLIMITED, STANDARD, EXPANDED):
                verdict = check_deck(parsed.lines, index, fmt, parsed.errors)
                findings += [*verdict.errors, *verdict.warnings]
    for text in ("", "x" * 300_000, "\n" * 2_000, "4 Professor's Research\n" * 20):
        parsed = parse_decklist(text)
        verdict = check_deck(parsed.lines, index, STANDARD, parsed.errors)
        findings += [*verdict.errors, *verdict.warnings]
    return findings


def test_every_finding_msgid_is_marked_in_the_engine_source(produced):
    marked = _marked()
    codes = {f.code for f in produced}
    assert len(codes) >= 12, codes  # the broken lists reach most codes
    used = set()
    for finding in produced:
        for msgid in finding.text.msgids():
            assert msgid in marked, (finding.code, msgid)
            used.add(msgid)
        assert not _verbatim_inside(finding.text), finding
    assert len(used) >= 30


def _verbatim_inside(text: Text) -> bool:
    if text.parts:
        return any(_verbatim_inside(part) for part in text.parts)
    return text.is_verbatim and text.msgid != ""


def test_words_in_english_are_todays_messages(produced):
    with translation.override("en"):
        for finding in produced[:2000]:
            assert word(finding) == finding.message


def _catalogue(monkeypatch) -> None:
    """A small catalogue that only knows a few msgids (as a .po file would)."""
    known = {
        "Line %(line)s: %(problem)s": "Ligne %(line)s : %(problem)s",
        "there is no card %(written)s.": "la carte %(written)s n'existe pas.",
        "Fix the name or remove the line.": "Corrigez le nom ou supprimez la ligne.",
    }
    plurals = {
        ("Add %(count)s card.", "Add %(count)s cards."): (
            "Ajoutez %(count)s carte.",
            "Ajoutez %(count)s cartes.",
        ),
    }

    def gettext(message):
        return known.get(message, message)

    def plural_gettext(singular, plural, n):
        forms = plurals.get((singular, plural), (singular, plural))
        return forms[0] if n <= 1 else forms[1]

    monkeypatch.setattr(findings_text, "gettext", gettext)
    monkeypatch.setattr(findings_text, "ngettext", plural_gettext)


def test_a_catalogue_words_template_and_nested_sentences(monkeypatch):
    _catalogue(monkeypatch)
    unknown = Finding(
        "unknown-card",
        (3,),
        sentences(
            say(
                gettext_noop("Line %(line)s: %(problem)s"),
                line=3,
                problem=say(gettext_noop("there is no card %(written)s."), written="Pikachuu"),
            ),
            say(gettext_noop("Fix the name or remove the line.")),
        ),
    )
    assert unknown.message == (
        "Line 3: there is no card Pikachuu. Fix the name or remove the line."
    )
    assert word(unknown) == (
        "Ligne 3 : la carte Pikachuu n'existe pas. Corrigez le nom ou supprimez la ligne."
    )
    add = say(ngettext("Add %(count)s card.", "Add %(count)s cards.", 2), count=2)
    assert (add.render(), word(add)) == ("Add 2 cards.", "Ajoutez 2 cartes.")
    # Stored on a submission and read back: worded again, in the reader's language.
    stored = json.loads(json.dumps(unknown.to_record()))
    assert Finding.from_record(stored) == unknown
    assert word_record(stored) == word(unknown)
    verdict = worded_verdict({"legal": False, "errors": [stored], "warnings": []})
    assert verdict["errors"] == [{"code": "unknown-card", "lines": [3], "message": word(unknown)}]


def test_a_stored_finding_without_its_text_keeps_its_english(monkeypatch):
    _catalogue(monkeypatch)
    old = {"code": "deck-size", "lines": [], "message": "Fix the name or remove the line."}
    assert word_record(old) == "Fix the name or remove the line."  # shown as stored


def test_every_preset_play_note_is_marked_as_the_event_page_shows_it():
    from rules.formats import PRESETS, notes_apart_from_sudden_death

    marked = {msgid for msgid, _plural in _marked()}
    for rules in PRESETS.values():
        for note in (*rules.play_notes, *notes_apart_from_sudden_death(rules.play_notes)):
            assert note in marked, note


@pytest.mark.django_db
def test_the_api_words_findings_in_the_request_language_and_keeps_codes_and_lines(
    monkeypatch, make_event
):
    """The check API and a stored version (`/api/registrations/<id>/decks/`): `code` and
    `lines` as the engine gives them, `message` through the catalogue."""
    from rest_framework.test import APIClient

    from tests.factories import sample_cards, user_of

    sample_cards()
    _, (reg,) = make_event(players=1)
    text = "4 Pikachu DM1 1\nfour Pikachu"
    english = APIClient().post(
        "/api/decks/check/", {"format": "standard", "decklist_text": text}, format="json"
    )
    monkeypatch.setattr(findings_text, "gettext", lambda m: f"[{m}]")
    worded = APIClient().post(
        "/api/decks/check/", {"format": "standard", "decklist_text": text}, format="json"
    )
    first, second = english.json()["errors"], worded.json()["errors"]
    assert [(e["code"], e["lines"]) for e in first] == [(e["code"], e["lines"]) for e in second]
    parse = next(e for e in second if e["code"] == "parse-error")
    assert parse["message"].startswith("[Line 2: 'four Pikachu' has its count in words")
    api = APIClient()
    api.force_authenticate(user_of(reg))
    url = f"/api/registrations/{reg.pk}/decks/"
    assert api.post(url, {"decklist_text": text}, format="json").status_code == 201
    stored = api.get(url).json()
    versions = stored["results"] if isinstance(stored, dict) else stored
    errors = versions[0]["verdict"]["errors"]
    assert set(errors[0]) == {"code", "lines", "message"}  # the template stays inside
    assert any(e["message"].startswith("[Line 2:") for e in errors)
