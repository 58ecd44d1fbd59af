"""TOM saves read and written by `tom/tdf.py` (no database): every real save in
`../shared/data/tom-exports/tdf/` round-trips to the same element tree and the same text,
and each kind of bad file gets one `TdfError` naming the element."""

from pathlib import Path
from xml.etree.ElementTree import fromstring

import pytest

from tom import tdf

TDF_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "tom-exports" / "tdf"
FILES = sorted(TDF_DIR.glob("*.tdf")) if TDF_DIR.is_dir() else []


def shape(element):
    """The element structure: tags, attribute names and nesting, without values."""
    return (element.tag, tuple(element.attrib), tuple(shape(child) for child in element))


def tree(element):
    """Tags, attributes and text, in document order."""
    return (
        element.tag,
        dict(element.attrib),
        (element.text or "").strip(),
        [tree(c) for c in element],
    )


def test_the_shared_saves_are_there():
    assert len(FILES) == 23, f"expected the 23 TOM saves in {TDF_DIR}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_round_trip(path):
    raw = path.read_bytes()
    parsed = tdf.parse(raw)
    newline = "\r\n" if b"\r\n" in raw else "\n"
    written = tdf.write(parsed, newline=newline)
    assert tdf.parse(written) == parsed
    assert shape(fromstring(written.encode())) == shape(fromstring(raw))
    assert tree(fromstring(written.encode())) == tree(fromstring(raw))
    assert written.encode("utf-8") == raw  # TOM's own layout, byte for byte


def test_reads_what_the_readme_describes():
    t = tdf.parse((TDF_DIR / "ciphermaniac__tom-184-challenge.tdf").read_bytes())
    assert (t.type, t.stage, t.version, t.mode) == (2, 5, "1.84", "LEAGUECHALLENGE")
    assert len(t.players) == 24
    late = [
        m for pod in t.pods for r in pod.rounds for m in r.matches if m.outcome == tdf.LATE_LOSS
    ]
    assert len(late) == 1 and late[0].player and late[0].tablenumber == 0
    assert sum(1 for p in t.players if p.dropped) == 6
    assert sum(1 for p in t.players if p.starter is None) == 1  # the late entrant
    cup = tdf.parse((TDF_DIR / "ciphermaniac-harness__cup.tdf").read_bytes())
    assert sorted(p.category for p in cup.pods) == [2, 8]
    assert any(m.outcome == tdf.EARNED_BYE for p in cup.pods for r in p.rounds for m in r.matches)
    assert [r.type for r in cup.pods[0].rounds + cup.pods[1].rounds].count(tdf.TOP_CUT_ROUND) == 3
    vgc = tdf.parse((TDF_DIR / "milanovgc__monkey-cup-vg-2025-03-16.tdf").read_bytes())
    assert vgc.standings is None and vgc.pods[0].additionalrounds is None


SMALL = (TDF_DIR / "ciphermaniac-test__cup-finalized.tdf") if FILES else None


def bad(text: str):
    with pytest.raises(tdf.TdfError) as info:
        tdf.parse(text.encode())
    return info.value


@pytest.mark.skipif(not FILES, reason="no TOM saves")
class TestBadFiles:
    @property
    def text(self):
        return SMALL.read_text()

    def test_not_xml(self):
        assert "not well-formed" in str(bad("Player,Deck\nAsh,Pikachu\n"))

    def test_empty(self):
        assert bad("   ").element == "file"

    def test_other_xml(self):
        err = bad('<?xml version="1.0"?><html><body/></html>')
        assert err.element == "html" and "not a TOM save" in str(err)

    def test_truncated(self):
        err = bad(self.text[: len(self.text) // 2])
        assert err.element.startswith("line ") and "cut short" in str(err)

    def test_truncated_at_an_element_boundary(self):
        # Well-formed but missing what TOM always writes.
        text = self.text
        cut = text[: text.index("\t<pods>")] + "</tournament>\n"
        err = bad(cut)
        assert err.element == "tournament/pods"

    def test_player_twice(self):
        text = self.text
        first = text.index('\t\t<player userid="5000117">')
        end = text.index("</player>", first) + len("</player>\n")
        err = bad(text[:end] + text[first:end] + text[end:])
        assert err.element == "tournament/players/player[2]" and "5000117" in str(err)

    def test_player_twice_in_a_round(self):
        text = self.text.replace('<player2 userid="5000617"/>', '<player2 userid="5000317"/>', 1)
        err = bad(text)
        assert err.element == "tournament/pods/pod[1]/rounds/round[1]/matches/match[2]"

    def test_unknown_player_in_a_match(self):
        err = bad(self.text.replace('<player1 userid="5000417"/>', '<player1 userid="123"/>', 1))
        assert "123" in str(err) and "match[1]" in err.element

    def test_unknown_element(self):
        err = bad(self.text.replace("<timeelapsed>", "<weather>sunny</weather>\n\t<timeelapsed>"))
        assert err.element == "tournament/weather"

    def test_bad_number(self):
        err = bad(self.text.replace('<match outcome="1">', '<match outcome="x">', 1))
        assert err.element.endswith("match[1]@outcome")

    def test_bad_date(self):
        err = bad(
            self.text.replace(
                "<birthdate>02/27/2000</birthdate>", "<birthdate>2000-02-27</birthdate>"
            )
        )
        assert err.element == "tournament/players/player[1]/birthdate"


def test_truncated_save_is_a_mid_event_save():
    t = tdf.parse((TDF_DIR / "ciphermaniac__tom-184-challenge.tdf").read_bytes())
    mid = tdf.truncated(t, rounds=2)
    assert max(r.number for p in mid.pods for r in p.rounds) == 2
    assert mid.standings is None
    assert tdf.parse(tdf.write(mid)) == mid
