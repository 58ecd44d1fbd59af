"""scripts/check_translations.py on small project trees: it fails on words people read that
are not marked, on a catalogue entry missing, fuzzy or with other placeholders, and on a
stale compiled catalogue; it passes on marked words and complete catalogues."""

from __future__ import annotations

import importlib.util
import struct
import sys
import textwrap
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "check_translations.py"
spec = importlib.util.spec_from_file_location("check_translations", SCRIPT)
check = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = check  # its dataclasses look their module up
spec.loader.exec_module(check)


def write(root: Path, path: str, text: str) -> Path:
    target = root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return target


def findings(root: Path, only: str) -> list[str]:
    return [str(f) for f in check.run(root, only)]


# --- Templates ----------------------------------------------------------------------------


def test_an_unmarked_template_string_fails(tmp_path, capsys):
    write(
        tmp_path,
        "templates/page.html",
        """
        {% load i18n %}
        <h1>{% translate "Pairings" %}</h1>
        <p>Table {{ table }} is free.</p>
        <input type="search" placeholder="Your name">
        <input type="submit" value="Send">
        <img alt="{% translate 'Logo' %}" src="x.png">
        """,
    )
    assert findings(tmp_path, "templates") == [
        "templates/page.html:3: not marked: Table … is free.",
        'templates/page.html:4: not marked: input placeholder="Your name"',
        'templates/page.html:5: not marked: input value="Send"',
    ]
    assert check.main(["--root", str(tmp_path), "--only", "templates"]) == 1
    out = capsys.readouterr()
    assert "templates/page.html:3: not marked" in out.out
    assert "3 finding(s)" in out.err


def test_marked_template_strings_and_what_people_do_not_read_pass(tmp_path):
    write(
        tmp_path,
        "league/templates/league/page.html",
        """
        {% extends "base.html" %}{% load i18n %}
        {% block title %}{% translate "Roster" %}{% endblock %}
        {% block extra_style %} .a { content: "Not words" } {% endblock %}
        {% block content %}
        {% comment %}A note for developers{% endcomment %}
        {# and another #}
        <p title="{% translate 'Seat' %}">{% blocktranslate trimmed with n=count %}
          {{ n }} players
        {% endblocktranslate %}</p>
        <p>{{ player.name }} · 3–1 · #{{ rank }} – 45%</p>
        {% if x %}<a href="{% url 'home' %}" class="button">{% translate "Home" %}</a>{% endif %}
        <script>var notWords = "ignored";</script>
        <style>.b { font-family: Arial }</style>
        <input type="hidden" name="next" value="somewhere">
        <p>Pokémon TCG</p>
        {% endblock %}
        """,
    )
    write(
        tmp_path, "scripts/translations_allow.txt", "Pokémon TCG :: the brand, never translated\n"
    )
    assert findings(tmp_path, "templates") == []
    assert check.main(["--root", str(tmp_path), "--only", "templates"]) == 0


def test_an_allowed_word_needs_its_reason(tmp_path):
    write(tmp_path, "scripts/translations_allow.txt", "OWP\n")
    assert findings(tmp_path, "templates") == [
        "scripts/translations_allow.txt:1: an entry needs a reason"
    ]


def test_an_email_text_template_is_checked(tmp_path):
    write(
        tmp_path,
        "templates/notifications/email/x.txt",
        """
        {% load i18n %}{% autoescape off %}{% blocktranslate %}Hello {{ name }},{% endblocktranslate %}
        See you at the table.
        {% endautoescape %}
        """,
    )
    assert findings(tmp_path, "templates") == [
        "templates/notifications/email/x.txt:2: not marked: … See you at the table."
    ]


# --- Python -------------------------------------------------------------------------------

UNMARKED = """
from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import models
from django.http import Http404
from rules.errors import DomainError


class Kind(models.TextChoices):
    CUP = "cup", "League Cup"


class Form(forms.Form):
    name = forms.CharField(label="Your name", help_text=f"At most {MAX} letters")


class EventForm(forms.ModelForm):
    class Meta:
        labels = {"kind": "Kind of event"}


def view(request, table):
    messages.success(request, "Saved.")
    raise DomainError("table-taken", f"Table {table} is taken.")


def other(table):
    if table:
        raise PermissionDenied("This is not your deck.")
    raise Http404("No such round." % ())


def wrong(table):
    return _(f"Table {table}"), _("Table {}".format(table)), _("Table " + table)
"""

MARKED = """
from django import forms
from django.contrib import messages
from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import ngettext
from rules.errors import DomainError


class Kind(models.TextChoices):
    CUP = "cup", gettext_lazy("League Cup")


class Player(models.Model):
    name = models.CharField("Name", max_length=9, help_text="Left alone: a model's words.")


class Form(forms.Form):
    name = forms.CharField(label=gettext_lazy("Your name"), help_text=HELP)


class EventForm(forms.ModelForm):
    class Meta:
        labels = {"kind": gettext_lazy("Kind of event")}


def view(request, table, count, message):
    messages.success(request, _("Saved."))
    messages.info(request, message)
    raise DomainError("table-taken", _("Table %(table)s is taken.") % {"table": table})


def plural(count):
    raise DomainError("x", ngettext("%(n)s card", "%(n)s cards", count) % {"n": count})


def quiet():
    raise DomainError("no-words", "")
"""


def test_an_unmarked_python_message_fails(tmp_path):
    write(tmp_path, "league/__init__.py", "")
    write(tmp_path, "league/views.py", UNMARKED)
    assert findings(tmp_path, "python") == [
        "league/views.py:10: a bare string as a choice's label: mark it with _()",
        "league/views.py:14: a bare string as a field's label: mark it with _()",
        "league/views.py:14: an f-string as a field's help_text: mark it with _()",
        "league/views.py:19: a bare string as Meta.labels: mark it with _()",
        "league/views.py:23: a bare string as messages.success(): mark it with _()",
        "league/views.py:24: an f-string as a DomainError message: mark it with _()",
        "league/views.py:29: a bare string as PermissionDenied(): mark it with _()",
        "league/views.py:30: a bare string as Http404(): mark it with _()",
        "league/views.py:34: _() of an f-string, .format() or +: use %(name)s",
        "league/views.py:34: _() of an f-string, .format() or +: use %(name)s",
        "league/views.py:34: _() of an f-string, .format() or +: use %(name)s",
    ]


def test_marked_python_messages_pass_and_tests_migrations_rules_are_not_read(tmp_path):
    write(tmp_path, "league/__init__.py", "")
    write(tmp_path, "league/views.py", MARKED)
    for path in (
        "league/migrations/0001_x.py",
        "league/management/commands/x.py",
        "rules/errors.py",
        "tests/test_x.py",
    ):
        write(tmp_path, path, UNMARKED)
    write(tmp_path, "rules/__init__.py", "")
    write(tmp_path, "tests/__init__.py", "")
    assert findings(tmp_path, "python") == []


# --- Catalogues ---------------------------------------------------------------------------

HEADER = """
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"

"""


def write_mo(path: Path, messages: dict[str, str]) -> None:
    """A compiled catalogue, as msgfmt writes it (enough for gettext to read it)."""
    messages = {"": "Content-Type: text/plain; charset=UTF-8\n", **messages}
    keys = sorted(messages)
    ids = [k.encode() for k in keys]
    strs = [messages[k].encode() for k in keys]
    start = 7 * 4 + 16 * len(keys)
    offsets, blob = [], b""
    for data in ids + strs:
        offsets.append((len(data), start + len(blob)))
        blob += data + b"\0"
    header = struct.pack("<7I", 0x950412DE, 0, len(keys), 28, 28 + 8 * len(keys), 0, 0)
    table = b"".join(struct.pack("<2I", n, o) for n, o in offsets)
    path.write_bytes(header + table + blob)


def catalogues(root: Path, body: str, compiled: dict[str, str], locales=check.LOCALES) -> None:
    for locale in locales:
        po = write(root, f"locale/{locale}/LC_MESSAGES/django.po", HEADER + textwrap.dedent(body))
        write_mo(po.with_suffix(".mo"), compiled)


GOOD = """
#: league/views.py:3
#, python-format
msgid "Table %(table)s is taken."
msgstr "La table %(table)s est prise."

msgctxt "match result"
msgid "Draw"
msgstr "Égalité"

msgid "%(count)s card"
msgid_plural "%(count)s cards"
msgstr[0] "%(count)s carte"
msgstr[1] "%(count)s cartes"

msgid ""
"A long "
"sentence."
msgstr ""
"Une longue "
"phrase."

#~ msgid "Gone"
#~ msgstr ""
"""
GOOD_MO = {
    "Table %(table)s is taken.": "La table %(table)s est prise.",
    "match result\x04Draw": "Égalité",
    "%(count)s card\x00%(count)s cards": "%(count)s carte\x00%(count)s cartes",
    "A long sentence.": "Une longue phrase.",
}


def test_complete_catalogues_pass(tmp_path):
    catalogues(tmp_path, GOOD, GOOD_MO)
    assert findings(tmp_path, "catalogues") == []


def test_a_missing_translation_fails(tmp_path):
    catalogues(tmp_path, GOOD + '\nmsgid "Pairings"\nmsgstr ""\n', GOOD_MO)
    found = findings(tmp_path, "catalogues")
    assert 'locale/fr/LC_MESSAGES/django.po:31: untranslated: "Pairings"' in found
    assert len(found) == len(check.LOCALES)


def test_a_fuzzy_translation_fails_and_is_not_compiled(tmp_path):
    fuzzy = '\n#, fuzzy\nmsgid "Pairings"\nmsgstr "Appariements"\n'
    catalogues(tmp_path, GOOD + fuzzy, GOOD_MO)
    found = findings(tmp_path, "catalogues")
    assert 'locale/de/LC_MESSAGES/django.po:32: fuzzy: "Pairings"' in found
    assert len(found) == len(check.LOCALES)  # the .mo rightly leaves it out


def test_a_placeholder_mismatch_fails(tmp_path):
    bad = '\nmsgid "Table %(table)s of %(round)s"\nmsgstr "Table %(tabel)s de %(round)s"\n'
    catalogues(tmp_path, GOOD + bad, {**GOOD_MO, "Table %(table)s of %(round)s": "x"})
    found = [f for f in findings(tmp_path, "catalogues") if "placeholders differ" in f]
    assert len(found) == len(check.LOCALES)
    assert found[0].startswith("locale/fr/LC_MESSAGES/django.po:31: placeholders differ:")


def test_a_stale_or_missing_compiled_catalogue_and_a_missing_language_fail(tmp_path):
    catalogues(tmp_path, GOOD, {**GOOD_MO, "A long sentence.": "Une phrase."})
    (tmp_path / "locale/es/LC_MESSAGES/django.mo").unlink()
    for path in (tmp_path / "locale/pt_BR").rglob("*"):
        if path.is_file():
            path.unlink()
    found = findings(tmp_path, "catalogues")
    assert "locale/fr/LC_MESSAGES/django.mo:1: stale: differs from its .po (make messages)" in found
    assert "locale/es/LC_MESSAGES/django.mo:1: not compiled: run make messages" in found
    assert (
        "locale/pt_BR/LC_MESSAGES/django.po:1: no catalogue for pt_BR: run make messages" in found
    )


@pytest.mark.parametrize("only", ["templates", "python", "catalogues"])
def test_only_one_check(tmp_path, only):
    write(tmp_path, "templates/x.html", "<p>Unmarked</p>\n")
    write(tmp_path, "league/__init__.py", "")
    write(tmp_path, "league/views.py", UNMARKED)
    kinds = {f.kind for f in check.run(tmp_path, only)}
    assert kinds == {only}


def test_a_plural_with_a_form_missing_fails(tmp_path):
    half = '\nmsgid "%(count)s round"\nmsgid_plural "%(count)s rounds"\nmsgstr[0] "%(count)s ronde"\nmsgstr[1] ""\n'
    catalogues(tmp_path, GOOD + half, GOOD_MO)
    found = findings(tmp_path, "catalogues")
    assert 'locale/it/LC_MESSAGES/django.po:31: untranslated: "%(count)s round"' in found
    assert len(found) == len(check.LOCALES)


def test_the_exit_status_fails_on_an_unmarked_string_and_on_a_missing_translation(tmp_path, capsys):
    write(tmp_path, "league/__init__.py", "")
    write(tmp_path, "league/views.py", UNMARKED)
    catalogues(tmp_path, GOOD + '\nmsgid "Pairings"\nmsgstr ""\n', GOOD_MO)
    assert check.main(["--root", str(tmp_path), "--only", "python"]) == 1
    assert check.main(["--root", str(tmp_path), "--only", "catalogues"]) == 1
    out = capsys.readouterr().out
    assert "league/views.py:23: a bare string as messages.success()" in out
    assert 'locale/es/LC_MESSAGES/django.po:31: untranslated: "Pairings"' in out
    catalogues(tmp_path, GOOD, GOOD_MO)
    write(tmp_path, "league/views.py", MARKED)
    assert check.main(["--root", str(tmp_path)]) == 0


# --- This project -------------------------------------------------------------------------

ROOT = SCRIPT.parents[1]


@pytest.mark.parametrize("only", ["templates", "python"])
def test_every_word_people_read_in_this_project_is_marked(only):
    assert findings(ROOT, only) == []


def test_this_projects_catalogues_are_complete():
    """Every entry of the five catalogues translated, none fuzzy, placeholders kept, the .mo
    compiled from the .po. Fails while the translators are still at work."""
    found = findings(ROOT, "catalogues")
    assert not found, f"{len(found)} finding(s), the first: {found[:5]}"


def test_every_marked_string_is_in_the_catalogues(tmp_path):
    """What `make messages` would extract from this tree (Django's makemessages, into a copy)
    is in every catalogue: a string marked since the catalogues were made fails until the
    lead runs `make messages` (it would be shown in English)."""
    import shutil
    import subprocess

    tree = tmp_path / "tree"
    skipped = (".*", "__pycache__", ".venv", "var", "tests", "locale", "benchmarks", "node_modules")
    shutil.copytree(ROOT, tree, ignore=shutil.ignore_patterns(*skipped), symlinks=True)
    (tree / "locale" / "es" / "LC_MESSAGES").mkdir(parents=True)
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "--no-obsolete", "-l", "es"],
        cwd=tree,
        check=True,
        capture_output=True,
    )
    wanted = {e.key for e in check.read_po(tree / "locale/es/LC_MESSAGES/django.po") if e.msgid}
    for locale in check.LOCALES:
        po = ROOT / "locale" / locale / "LC_MESSAGES" / "django.po"
        have = {e.key for e in check.read_po(po) if e.msgid}
        missing = sorted(wanted - have)
        assert not missing, f"{locale}: {len(missing)} msgid(s) not in {po.name}: {missing[:5]}"
