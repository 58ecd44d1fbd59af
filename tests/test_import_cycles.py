"""No app has an import circle inside it (issue 25): counting imports inside functions too,
which is where the old ones hid (`services` ⇄ `tasks` in notifications and webhooks).
Read from the source with grimp (import-linter's graph); no Django needed."""

import grimp
import pytest

APPS = ["rules", "notifications", "decks", "league", "webhooks", "matches"]
APPS += ["floor", "tom", "insights", "gamenights", "config"]

_graph = None


def graph():
    global _graph
    if _graph is None:
        _graph = grimp.build_graph(*APPS)
    return _graph


def circles(app: str) -> list[list[str]]:
    """The strongly connected groups of more than one module among `app`'s modules."""
    g = graph()
    modules = sorted(m for m in g.modules if m == app or m.startswith(f"{app}."))
    edges = {m: sorted(set(g.find_modules_directly_imported_by(m)) & set(modules)) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's algorithm
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in edges[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                other = stack.pop()
                group.append(other)
                if other == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in modules:
        if module not in index:
            visit(module)
    return found


@pytest.mark.parametrize("app", APPS)
def test_no_import_circle_inside_an_app(app):
    assert circles(app) == []
