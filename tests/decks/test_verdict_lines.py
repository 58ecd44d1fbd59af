"""The deck check's verdict, line by line: a finding about several lines (the Energy
count) is said once, under its first line; the others point to it."""

from decks.views import verdict_context

TEXT = "4 Pikachu SVI 1\n20 Lightning Energy\n10 Fire Energy\n6 Water Energy\n"
ENERGY = {
    "code": "energy-count",
    "lines": [2, 3, 4],
    "message": "The deck has 36 Energy cards, more than 25; Check the Energy count.",
}


def test_one_warning_about_three_lines_is_said_once():
    v = verdict_context(TEXT, {"legal": True, "errors": [], "warnings": [ENERGY]})
    messages = [f["message"] for row in v["lines"] for f in row["warnings"]]
    assert sum("36 Energy cards" in m for m in messages) == 1
    assert v["lines"][1]["warnings"][0]["message"].endswith("(lines 2, 3, 4)")
    assert [row["warnings"][0]["message"] for row in v["lines"][2:]] == ["See line 2."] * 2
    assert [row["state"] for row in v["lines"]] == ["", "warn", "warn", "warn"]
    assert v["warning_count"] == 1
