"""`make lint`'s house budgets, which ruff and import-linter do not check:

- no module of application code over `MAX_MODULE_LINES` lines (rules/, migrations and tests
  aside): a module that grows past it holds more than one concern and is split;
- at most `FMT_SKIP_BUDGET` of ruff's skip markers (`MARK`) in application code (tests and migrations
  aside): the formatter decides the layout, and a hand-kept table is the rare exception.

Prints what is over and exits 1; prints one line and exits 0 otherwise.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_MODULE_LINES = 450
FMT_SKIP_BUDGET = 40
#: The marker counted, spelled in two halves so that this file does not count itself.
MARK = "# fmt" + ": skip"
SKIPPED_DIRS = {".venv", "var", "node_modules", ".git", "tests", "migrations", "__pycache__"}


def application_modules(root: Path = ROOT) -> list[Path]:
    """Every .py file of the project except tests, migrations and the virtualenv."""
    found = []
    for path in root.rglob("*.py"):
        parts = set(path.relative_to(root).parts[:-1])
        if parts & SKIPPED_DIRS:
            continue
        found.append(path)
    return sorted(found)


def main() -> int:
    problems = []
    skips = 0
    for path in application_modules():
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(ROOT)
        skips += text.count(MARK)
        lines = text.count("\n")
        if rel.parts[0] != "rules" and lines > MAX_MODULE_LINES:
            problems.append(
                f"{rel}: {lines} lines (at most {MAX_MODULE_LINES}: split it by concern)"
            )
    if skips > FMT_SKIP_BUDGET:
        problems.append(
            f"{skips} `{MARK}` in application code (at most {FMT_SKIP_BUDGET}): "
            "let ruff format lay the code out"
        )
    for line in problems:
        print(line)
    if problems:
        return 1
    print(
        f"budgets: modules within {MAX_MODULE_LINES} lines, {skips} `{MARK}` of {FMT_SKIP_BUDGET}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
