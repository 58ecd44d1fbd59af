"""Words for people without Django: marked message templates and their parameters.

`rules/` never imports Django, yet the site shows what the engine says in six languages.
So the engine says it as a `Text`: a message template (the English msgid) with named
parameters, and for a sentence whose English changes with a number its plural form and
the count. `Text.render()` gives the English; the site renders the same `Text` with
Django's `gettext`/`ngettext` (`decks.findings_text.word`).

Every msgid is a literal inside one of the two markers below, so that `makemessages`
(xgettext: `gettext_noop` is one of Django's keywords, `ngettext:1,2` one of Python's)
puts it in the catalogues:

* `gettext_noop("...")` returns its argument;
* `ngettext("... %(count)s card ...", "... %(count)s cards ...", n)` returns the English
  form for `n` (a `str`), which remembers both forms and `n` so that `say()` keeps the pair.

`say(msgid, **params)` makes the `Text`; a parameter may itself be a `Text` (rendered in
the same language first), and `sentences(*texts)` is several sentences one after another.
A `Text` goes to JSON and back (`to_dict`, `Text.from_dict`) so that a stored verdict can
be worded later in its reader's language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

__all__ = ["Text", "gettext_noop", "ngettext", "say", "sentences", "verbatim"]

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


def gettext_noop(message: str) -> str:
    """Mark a msgid for the catalogues; the English is the msgid itself."""
    return message


class PluralMessage(str):
    """The English form of a plural pair for `n`, remembering the pair (see `ngettext`)."""

    singular: str
    plural: str
    n: int

    def __new__(cls, singular: str, plural: str, n: int) -> PluralMessage:
        obj = super().__new__(cls, singular if n == 1 else plural)
        obj.singular, obj.plural, obj.n = singular, plural, n
        return obj


def ngettext(singular: str, plural: str, n: int) -> str:
    """Mark a plural pair for the catalogues; returns the English form for `n`."""
    return PluralMessage(singular, plural, n)


def _english(message: str) -> str:
    return message


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


@dataclass(frozen=True, slots=True)
class Text:
    """A message template and its parameters (see the module docstring).

    `parts` set: the parts rendered one after another, joined by `joiner` (a space: several
    whole sentences; "; " a list of items); `is_verbatim`: `msgid` is already words (a finding made from a plain
    string, e.g. in a test) and is shown as it is, untranslated.
    """

    msgid: str
    params: tuple[tuple[str, object], ...] = ()
    plural: str = ""
    count: int | None = None
    parts: tuple[Text, ...] = ()
    is_verbatim: bool = False
    joiner: str = " "

    def render(
        self, translate: Gettext = _english, translate_plural: Ngettext = _english_plural
    ) -> str:
        """The words, with `translate` (a gettext) and `translate_plural` (an ngettext);
        English without them."""
        if self.parts:
            return self.joiner.join(part.render(translate, translate_plural) for part in self.parts)
        if self.is_verbatim:
            return self.msgid
        if self.plural:
            template = translate_plural(self.msgid, self.plural, self.count or 0)
        else:
            template = translate(self.msgid)
        if not self.params:
            return template
        values = {
            key: value.render(translate, translate_plural) if isinstance(value, Text) else value
            for key, value in self.params
        }
        return template % values

    def __str__(self) -> str:
        return self.render()

    def msgids(self) -> list[tuple[str, str]]:
        """Every (msgid, plural) in this text and its parameters (verbatim ones left out)."""
        found: list[tuple[str, str]] = []
        if self.parts:
            for part in self.parts:
                found += part.msgids()
            return found
        if not self.is_verbatim:
            found.append((self.msgid, self.plural))
        for _key, value in self.params:
            if isinstance(value, Text):
                found += value.msgids()
        return found

    def to_dict(self) -> dict[str, object]:
        if self.parts:
            out = {"parts": [part.to_dict() for part in self.parts]}
            return out | ({"joiner": self.joiner} if self.joiner != " " else {})
        if self.is_verbatim:
            return {"verbatim": self.msgid}
        out: dict[str, object] = {"msgid": self.msgid}
        if self.params:
            out["params"] = {
                key: {"text": value.to_dict()} if isinstance(value, Text) else value
                for key, value in self.params
            }
        if self.plural:
            out["plural"], out["count"] = self.plural, self.count
        return out

    @classmethod
    def from_dict(cls, data: Mapping) -> Text:
        if "parts" in data:
            parts = tuple(cls.from_dict(part) for part in data["parts"])
            return cls("", parts=parts, joiner=str(data.get("joiner", " ")))
        if "verbatim" in data:
            return verbatim(str(data["verbatim"]))
        params = tuple(
            (key, cls.from_dict(value["text"]) if isinstance(value, Mapping) else value)
            for key, value in (data.get("params") or {}).items()
        )
        return cls(
            str(data["msgid"]),
            params,
            plural=str(data.get("plural") or ""),
            count=data.get("count"),
        )


def say(msgid: str, **params: object) -> Text:
    """The `Text` of a marked msgid (`gettext_noop(...)` or `ngettext(...)`) and its params."""
    if isinstance(msgid, PluralMessage):
        return Text(msgid.singular, tuple(params.items()), plural=msgid.plural, count=msgid.n)
    return Text(str(msgid), tuple(params.items()))


def sentences(*texts: Text) -> Text:
    """Several sentences one after another (each its own msgid), joined by a space."""
    return Text("", parts=tuple(texts))


def verbatim(words: str) -> Text:
    """Words already written (not a msgid): shown as they are in every language."""
    return Text(words, is_verbatim=True)
