"""Reading gettext catalogues with the standard library only (no GNU gettext, no polib):
a .po file's entries (`read_po`), a compiled .mo file's messages (`read_mo`), and what
`compilemessages` would write from a .po (`expected_mo`). Used by check_translations.py."""

from __future__ import annotations

import ast
import gettext
import re
from dataclasses import dataclass
from pathlib import Path

PLACEHOLDER = re.compile(r"%\([^)]+\)[-#0 +]*\d*(?:\.\d+)?[sdifrxXeEgGc]|%[sdifr]|\{\w*\}")


@dataclass
class Entry:
    line: int
    msgctxt: str | None = None
    msgid: str = ""
    msgid_plural: str | None = None
    fuzzy: bool = False
    obsolete: bool = False

    def __post_init__(self) -> None:
        self.msgstr: dict[int, str] = {}

    @property
    def key(self):
        msgid = self.msgid if self.msgctxt is None else f"{self.msgctxt}\x04{self.msgid}"
        return msgid


def _unquote(text: str) -> str:
    return ast.literal_eval(text.strip()) if text.strip() else ""


def read_po(path: Path) -> list[Entry]:
    """The entries of a .po file (enough of the format for the checks: context, plurals,
    flags, continuation lines; obsolete `#~` entries are marked and ignored)."""
    entries: list[Entry] = []
    entry: Entry | None = None
    field: tuple[str, int] | None = None
    flags_pending = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("#~"):
            continue
        if stripped.startswith("#,"):
            flags_pending = flags_pending or "fuzzy" in stripped
            continue
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith('"'):
            if entry is not None and field is not None:
                name, index = field
                if name == "msgstr":
                    entry.msgstr[index] += _unquote(stripped)
                else:
                    setattr(entry, name, (getattr(entry, name) or "") + _unquote(stripped))
            continue
        keyword, _, rest = stripped.partition(" ")
        if keyword == "msgctxt" or (keyword == "msgid" and (field or ("",))[0] != "msgctxt"):
            entry = Entry(line=number, fuzzy=flags_pending)
            entries.append(entry)
            flags_pending = False
        if entry is None:
            continue
        if keyword.startswith("msgstr"):
            index = int(keyword[7:-1]) if keyword.startswith("msgstr[") else 0
            entry.msgstr[index] = _unquote(rest)
            field = ("msgstr", index)
        elif keyword in ("msgctxt", "msgid", "msgid_plural"):
            setattr(entry, keyword, _unquote(rest))
            field = (keyword, 0)
    return entries


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def read_mo(path: Path) -> dict:
    with path.open("rb") as handle:
        return dict(gettext.GNUTranslations(handle)._catalog)


def expected_mo(entries: list[Entry]) -> dict:
    """What compilemessages writes from `entries`: translated, not fuzzy."""
    expected = {}
    for entry in entries:
        if not entry.msgid or entry.fuzzy or not all(entry.msgstr.values()):
            continue
        if entry.msgid_plural is None:
            expected[entry.key] = entry.msgstr.get(0, "")
        else:
            for index, text in entry.msgstr.items():
                expected[(entry.key, index)] = text
    return expected
