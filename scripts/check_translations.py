"""Words people read, marked for translation, and catalogues that translate them (issue 33).

Prints each finding as `path:line: what` and exits 1 when there is one; exits 0 otherwise.
Three checks (`--only` runs one):

- templates: text people see in `templates/` and each app's `templates/` (HTML and the
  e-mails' .txt) outside `{% translate %}` / `{% blocktranslate %}`: text with letters, and
  the attributes title, alt, placeholder, aria-label and the value of a submit/button/reset
  input. `{% comment %}`, `<script>`/`<style>`, template tags' own arguments, variables and
  text without letters are not people's words. `scripts/translations_allow.txt` lists the
  deliberate exceptions (a brand, an abbreviation), each with its reason.
- python: the app packages (not tests, migrations, management commands, rules/): a bare
  string or f-string where people read it (a `DomainError` message, `messages.*`,
  `ValidationError`, `PermissionDenied`, `Http404`, `form.add_error`, a form field's
  `label`/`help_text`/`empty_label`, `Meta.labels`/`help_texts`, a `TextChoices` label),
  and an f-string, `.format()` or `+`/`%` inside `_()`.
- catalogues: `locale/<ll>/LC_MESSAGES/django.po` for each language: missing, an entry
  untranslated or fuzzy, placeholders (`%(name)s`, `%s`, `{name}`) that differ from the
  msgid's, and a compiled `.mo` missing or older than its `.po` in content.

Pure standard library plus Django's template lexer: no GNU gettext needed.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # po_files beside this script
from po_files import expected_mo, placeholders, read_mo, read_po

ROOT = Path(__file__).resolve().parents[1]
ALLOW_FILE = "scripts/translations_allow.txt"
#: The catalogues every language needs (Django's locale directory names); "en" is the
#: source language and is checked only when present.
LOCALES = ("fr", "de", "it", "es", "pt_BR")
SKIPPED_DIRS = {".venv", "var", "node_modules", ".git", "tests", "migrations", "management"}
SKIPPED_PACKAGES = {"rules", "tests", "scripts", "benchmarks", "deploy", "docs", "locale"}

LETTERS = re.compile(r"[^\W\d_]")
WORD = re.compile(r"[^\W\d_]{2,}")
SEEN_ATTRIBUTES = {"title", "alt", "placeholder", "aria-label"}
VALUE_INPUTS = {"submit", "button", "reset"}


@dataclass(frozen=True)
class Finding:
    kind: str
    path: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


# --- Templates ----------------------------------------------------------------------------

#: Stands for a variable or a marked string in the text given to the HTML parser: no letter.
HOLE = "\x00"
TRANSLATE_TAGS = {"translate", "trans"}
BLOCK_TRANSLATE = {"blocktranslate": "endblocktranslate", "blocktrans": "endblocktrans"}


def load_allowed(root: Path) -> tuple[set[str], list[Finding]]:
    """The allow-list: one `text :: reason` a line (`#` starts a comment)."""
    path = root / ALLOW_FILE
    allowed: set[str] = set()
    problems: list[Finding] = []
    if not path.exists():
        return allowed, problems
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        text, _, reason = line.partition("::")
        if not reason.strip():
            problems.append(Finding("templates", ALLOW_FILE, number, "an entry needs a reason"))
        allowed.add(" ".join(text.split()))
    return allowed, problems


def template_text(source: str) -> str:
    """The template as the HTML parser should see it: variables and marked strings become
    `HOLE`; other tags, comments, translate blocks and blocks named for a style or a script
    vanish; newlines are kept (line numbers)."""
    from django.template.base import DebugLexer, TokenType

    out: list[str] = []
    skip_until = ""
    for token in DebugLexer(source).tokenize():
        start, end = token.position
        raw = source[start:end]
        keep_lines = "\n" * raw.count("\n")
        words = token.contents.split()
        name = words[0] if words and token.token_type == TokenType.BLOCK else ""
        if skip_until:
            out.append(keep_lines)
            if name == skip_until:
                skip_until = ""
                out.append(HOLE)
            continue
        if token.token_type == TokenType.TEXT:
            out.append(raw)
        elif token.token_type == TokenType.VAR or name in TRANSLATE_TAGS:
            out.append(HOLE + keep_lines)
        elif name in BLOCK_TRANSLATE:
            skip_until = BLOCK_TRANSLATE[name]
            out.append(keep_lines)
        elif name == "comment":
            skip_until = "endcomment"
            out.append(keep_lines)
        elif name == "block" and len(words) > 1 and ("style" in words[1] or "script" in words[1]):
            skip_until = "endblock"  # CSS or a script filled into base.html's <style>
            out.append(keep_lines)
        else:
            out.append(keep_lines)
    return "".join(out)


class _TextFinder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._hidden = 0  # inside <script> or <style>

    def handle_starttag(self, tag, attrs):
        line = self.getpos()[0]
        if tag in ("script", "style"):
            self._hidden += 1
        values = dict(attrs)
        for name, value in attrs:
            shown = name in SEEN_ATTRIBUTES or (
                name == "value"
                and tag == "input"
                and (values.get("type") or "").lower() in VALUE_INPUTS
            )
            if shown and value and WORD.search(value.replace(HOLE, " ")):
                self.found.append((line, f'{tag} {name}="{value.replace(HOLE, "…")}"'))

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data):
        if self._hidden or not WORD.search(data.replace(HOLE, " ")):
            return
        line = self.getpos()[0] + data[: LETTERS.search(data).start()].count("\n")
        self.found.append((line, " ".join(data.replace(HOLE, "…").split())))


def template_files(root: Path) -> list[Path]:
    found = []
    for path in sorted(root.rglob("templates/**/*")):
        rel = path.relative_to(root).parts
        if path.suffix in (".html", ".txt") and not set(rel[:-1]) & SKIPPED_DIRS:
            found.append(path)
    return found


def check_templates(root: Path) -> list[Finding]:
    allowed, findings = load_allowed(root)
    for path in template_files(root):
        rel = str(path.relative_to(root))
        parser = _TextFinder()
        parser.feed(template_text(path.read_text(encoding="utf-8")))
        parser.close()
        for line, text in parser.found:
            bare = text.split('="', 1)[-1].rstrip('"') if '="' in text else text
            if " ".join(bare.replace("…", " ").split()) in allowed or text in allowed:
                continue
            findings.append(Finding("templates", rel, line, f"not marked: {text[:80]}"))
    return findings


# --- Python -------------------------------------------------------------------------------

GETTEXT_NAMES = {
    "_",
    "gettext",
    "gettext_lazy",
    "ngettext",
    "ngettext_lazy",
    "pgettext",
    "pgettext_lazy",
    "npgettext",
    "npgettext_lazy",
    "gettext_noop",
    "_lazy",
}
MESSAGE_LEVELS = {"debug", "info", "success", "warning", "error", "add_message"}
#: Exceptions whose first argument people read.
MESSAGE_EXCEPTIONS = {
    "ValidationError",
    "PermissionDenied",
    "Http404",
    "AuthenticationFailed",
    "NotFound",
}
FIELD_KEYWORDS = {"label", "help_text", "empty_label"}
META_DICTS = {"labels", "help_texts"}


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _owner(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return func.value.id
    return ""


def _bare(node: ast.expr | None) -> str:
    """What is wrong with `node` as words people read: a bare string, an f-string, a
    formatted bare string; "" when it is marked or not a string at all."""
    if node is None:
        return ""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return "a bare string" if WORD.search(node.value) else ""
    if isinstance(node, ast.JoinedStr):
        words = "".join(
            v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)
        )
        return "an f-string" if WORD.search(words) else ""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod | ast.Add):
        return _bare(node.left) or (_bare(node.right) if isinstance(node.op, ast.Add) else "")
    if isinstance(node, ast.Call) and _name(node.func) == "format":
        return _bare(node.func.value) if isinstance(node.func, ast.Attribute) else ""
    if isinstance(node, ast.IfExp):
        return _bare(node.body) or _bare(node.orelse)
    if isinstance(node, ast.Dict):
        return next((b for b in map(_bare, node.values) if b), "")
    if isinstance(node, ast.List | ast.Tuple):
        return next((b for b in map(_bare, node.elts) if b), "")
    return ""


def _argument(call: ast.Call, index: int, *keywords: str) -> ast.expr | None:
    if len(call.args) > index and not isinstance(call.args[index], ast.Starred):
        return call.args[index]
    return next((k.value for k in call.keywords if k.arg in keywords), None)


class _PythonFinder(ast.NodeVisitor):
    def __init__(self) -> None:
        self.found: list[tuple[int, str]] = []

    def _flag(self, node: ast.expr | None, where: str) -> None:
        problem = _bare(node)
        if problem:
            self.found.append((node.lineno, f"{problem} as {where}: mark it with _()"))

    def visit_Call(self, node: ast.Call) -> None:
        name, owner = _name(node.func), _owner(node.func)
        if name == "DomainError":
            self._flag(_argument(node, 1, "message"), "a DomainError message")
        elif owner == "messages" and name in MESSAGE_LEVELS:
            index = 2 if name == "add_message" else 1
            self._flag(_argument(node, index, "message"), f"messages.{name}()")
        elif name in MESSAGE_EXCEPTIONS:
            self._flag(_argument(node, 0, "message", "detail"), f"{name}()")
        elif name == "add_error":
            self._flag(_argument(node, 1, "error"), "a form error")
        elif name in GETTEXT_NAMES:
            for arg in node.args:
                if isinstance(arg, ast.JoinedStr | ast.BinOp) or (
                    isinstance(arg, ast.Call) and _name(arg.func) == "format"
                ):
                    self.found.append(
                        (node.lineno, f"{name}() of an f-string, .format() or +: use %(name)s")
                    )
        if owner != "models":  # a model field's texts are its verbose_name: left alone
            for keyword in node.keywords:
                if keyword.arg in FIELD_KEYWORDS:
                    self._flag(keyword.value, f"a field's {keyword.arg}")
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        bases = {_name(b) for b in node.bases}
        for statement in node.body:
            if not isinstance(statement, ast.Assign):
                continue
            targets = {_name(t) for t in statement.targets}
            if node.name == "Meta" and targets & META_DICTS:
                self._flag(statement.value, f"Meta.{sorted(targets & META_DICTS)[0]}")
            if bases & {"TextChoices", "IntegerChoices", "Choices"}:
                value = statement.value
                if isinstance(value, ast.Tuple) and len(value.elts) >= 2:
                    self._flag(value.elts[-1], "a choice's label")
        self.generic_visit(node)


def python_files(root: Path) -> list[Path]:
    found = []
    for package in sorted(p.parent for p in root.glob("*/__init__.py")):
        if package.name in SKIPPED_PACKAGES:
            continue
        for path in sorted(package.rglob("*.py")):
            if not set(path.relative_to(root).parts[:-1]) & SKIPPED_DIRS:
                found.append(path)
    return found


def check_python(root: Path) -> list[Finding]:
    findings = []
    for path in python_files(root):
        rel = str(path.relative_to(root))
        finder = _PythonFinder()
        finder.visit(ast.parse(path.read_text(encoding="utf-8"), filename=rel))
        findings += [Finding("python", rel, line, what) for line, what in sorted(finder.found)]
    return findings


# --- Catalogues ---------------------------------------------------------------------------


def check_catalogue(root: Path, locale: str) -> list[Finding]:
    po = root / "locale" / locale / "LC_MESSAGES" / "django.po"
    rel = str(po.relative_to(root))
    if not po.exists():
        return [Finding("catalogues", rel, 1, f"no catalogue for {locale}: run make messages")]
    findings = []
    entries = read_po(po)
    for entry in entries:
        if not entry.msgid:
            continue  # the header
        shown = entry.msgid[:60].replace("\n", " ")
        if entry.fuzzy:
            findings.append(Finding("catalogues", rel, entry.line, f'fuzzy: "{shown}"'))
        if not entry.msgstr or not all(entry.msgstr.values()):
            findings.append(Finding("catalogues", rel, entry.line, f'untranslated: "{shown}"'))
            continue
        wanted = [placeholders(entry.msgid)]
        if entry.msgid_plural is not None:
            wanted.append(placeholders(entry.msgid_plural))
        for text in entry.msgstr.values():
            if placeholders(text) not in wanted:
                findings.append(
                    Finding(
                        "catalogues",
                        rel,
                        entry.line,
                        f'placeholders differ: "{shown}" has {wanted[0]}, '
                        f"the translation {placeholders(text)}",
                    )
                )
                break
    mo = po.with_suffix(".mo")
    mo_rel = str(mo.relative_to(root))
    if not mo.exists():
        findings.append(Finding("catalogues", mo_rel, 1, "not compiled: run make messages"))
    else:
        compiled = {k: v for k, v in read_mo(mo).items() if k != ""}
        if compiled != expected_mo(entries):
            findings.append(
                Finding("catalogues", mo_rel, 1, "stale: differs from its .po (make messages)")
            )
    return findings


def check_catalogues(root: Path) -> list[Finding]:
    locales = list(LOCALES)
    if (root / "locale" / "en" / "LC_MESSAGES" / "django.po").exists():
        locales.insert(0, "en")
    return [finding for locale in locales for finding in check_catalogue(root, locale)]


# --- Main ---------------------------------------------------------------------------------

CHECKS = {"templates": check_templates, "python": check_python, "catalogues": check_catalogues}


def run(root: Path = ROOT, only: str | None = None) -> list[Finding]:
    kinds = [only] if only else list(CHECKS)
    return [finding for kind in kinds for finding in CHECKS[kind](root)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(CHECKS))
    parser.add_argument("--root", type=Path, default=ROOT, help="the project (default: this one)")
    args = parser.parse_args(argv)
    findings = run(args.root.resolve(), args.only)
    for finding in findings:
        print(finding)
    counts = {kind: sum(f.kind == kind for f in findings) for kind in CHECKS}
    summary = ", ".join(
        f"{kind} {n}" for kind, n in counts.items() if not args.only or kind == args.only
    )
    print(f"translations: {len(findings)} finding(s) ({summary})", file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
