"""Every TOM save in `../shared/data/tom-exports/tdf/` imported through the services,
exported again and compared with the original; mid-event saves updated by the finished
save; bad files and saves that contradict the event change nothing."""

import datetime as dt
import io
from pathlib import Path
from xml.etree.ElementTree import fromstring

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from league.models import Event, EventPlacement, Player, Registration
from matches.models import Match, ResultChange, Round
from notifications.models import Notification
from rules.errors import DomainError
from tests.factories import LeagueFactory, PlayerFactory, SeasonFactory, UserFactory
from tom import services, tdf
from tom.models import TomEvent, TomUpload

TDF_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "tom-exports" / "tdf"
FILES = sorted(TDF_DIR.glob("*.tdf")) if TDF_DIR.is_dir() else []
pytestmark = pytest.mark.django_db


def shape(element):
    return (element.tag, tuple(element.attrib), tuple(shape(child) for child in element))


@pytest.fixture
def organiser():
    return UserFactory(username="to")


@pytest.fixture
def season(organiser):
    league = LeagueFactory(organisers=[organiser], slug="tom-league")
    return SeasonFactory(
        league=league, starts_on=dt.date(2020, 1, 1), ends_on=dt.date(2030, 12, 31)
    )


def import_file(raw: bytes, organiser, season, **kwargs):
    return services.import_save(data=raw, by_user=organiser, season=season, **kwargs)


def counts(event):
    return (
        Registration.objects.filter(event=event).count(),
        Round.objects.filter(event=event).count(),
        Match.objects.filter(round__event=event).count(),
        ResultChange.objects.filter(match__round__event=event).count(),
        EventPlacement.objects.filter(event=event).count(),
    )


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_import_then_export_gives_the_save_back(path, organiser, season):
    raw = path.read_bytes()
    original = tdf.parse(raw)
    result = import_file(raw, organiser, season)
    event = result.event
    assert result.created
    # Played here: registrations, rounds, matches, drops, late entries, places.
    regs = {
        r.player.player_id: r
        for r in Registration.objects.filter(event=event).select_related("player")
    }
    assert set(regs) == {p.userid for p in original.players}
    for p in original.players:
        if p.dropped:
            assert regs[p.userid].status == Registration.Status.DROPPED
    played = [
        m
        for pod in original.pods
        for r in pod.rounds
        for m in r.matches
        if m.outcome != tdf.LATE_LOSS
    ]
    assert Match.objects.filter(round__event=event).count() == len(played)
    if original.standings is not None:
        assert event.status == Event.Status.FINISHED
        ranked = sum(len(b.players) for b in original.standings if b.type == "finished")
        assert EventPlacement.objects.filter(event=event).count() == ranked
    exported = services.export_save(event=event)
    # The same players, pods, rounds, matches and outcomes, drops, late entries, top cut,
    # standings and finals options…
    assert exported.players == original.players
    assert exported.pods == original.pods
    assert exported.standings == original.standings
    assert exported == original
    # …and the same element structure.
    text = tdf.write(exported)
    assert shape(fromstring(text.encode())) == shape(fromstring(raw))


def export_after_scratch_import(raw, organiser, season):
    return services.export_save(event=import_file(raw, organiser, season).event)


MID_EVENT = [
    ("ciphermaniac__tom-184-challenge", (1, 3)),  # a late entrant, six drops
    ("litian80__2025-dg-nov-cup", (2, 5, 6)),  # two pods; Jr+Sr top cut while Masters play Swiss
    ("ciphermaniac-harness__cup", (1, 4, 6, 7)),  # earned bye, two pods, top 8
    ("opentourney__round-rock-summer-2026-06-20", (1,)),  # no-shows, players in no pod
]


@pytest.mark.parametrize(("name", "cuts"), MID_EVENT, ids=[n for n, _ in MID_EVENT])
def test_mid_event_saves_then_the_final_save(name, cuts, organiser, season):
    raw = (TDF_DIR / f"{name}.tdf").read_bytes()
    final = tdf.parse(raw)
    first = tdf.write(tdf.truncated(final, rounds=cuts[0])).encode()
    event = import_file(first, organiser, season).event
    assert event.status in (Event.Status.RUNNING, Event.Status.TOP_CUT)
    assert Round.objects.filter(event=event).count() >= 1
    for rounds in cuts[1:]:
        # The round just paired, results still to come; then the same round played.
        paired = tdf.write(tdf.truncated(final, rounds=rounds, last_unplayed=True)).encode()
        result = services.import_save(data=paired, by_user=organiser, event=event)
        assert not result.duplicate and result.summary.get("matches_paired")
        assert Match.objects.filter(
            round__event=event, round__number=rounds, status="pending"
        ).exists()
        later = tdf.write(tdf.truncated(final, rounds=rounds)).encode()
        result = services.import_save(data=later, by_user=organiser, event=event)
        assert result.summary.get("results") and not result.summary.get("matches_paired")
    result = services.import_save(data=raw, by_user=organiser, event=event)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    updated = services.export_save(event=event)
    assert updated == final
    # Nothing duplicated: the same rows as importing the finished save at once.
    scratch = import_file(raw, organiser, season).event
    assert counts(event)[:3] == counts(scratch)[:3]
    assert updated == services.export_save(event=scratch)


def test_a_changed_result_becomes_a_result_change_with_history(organiser, season):
    raw = (TDF_DIR / "ciphermaniac-test__cup-finalized.tdf").read_bytes()
    event = import_file(raw, organiser, season).event
    changes = ResultChange.objects.filter(match__round__event=event).count()
    # The organiser fixes round 2, table 3 in TOM: player 1 lost, not won.
    fixed = raw.replace(
        b'<match outcome="1">\n\t\t\t\t\t\t\t<player1 userid="5000117"/>',
        b'<match outcome="2">\n\t\t\t\t\t\t\t<player1 userid="5000117"/>',
        1,
    )
    assert fixed != raw
    result = services.import_save(data=fixed, by_user=organiser, event=event)
    assert result.summary == {"results_changed": 1}
    assert ResultChange.objects.filter(match__round__event=event).count() == changes + 1
    change = ResultChange.objects.filter(match__round__event=event).latest("id")
    assert change.source == "tom"
    assert change.before["result"] == "a" and change.after["result"] == "b"
    assert change.changed_by == organiser
    assert Match.objects.filter(round__event=event).count() == 9
    assert services.export_save(event=event) == tdf.parse(fixed)


def test_the_same_save_twice_is_applied_once(organiser, season):
    raw = (TDF_DIR / "tanaleague__local-2025-10-25.tdf").read_bytes()
    event = import_file(raw, organiser, season).event
    before = counts(event)
    again = services.import_save(data=raw, by_user=organiser, event=event)
    assert again.duplicate and counts(event) == before
    assert TomUpload.objects.filter(event=event).count() == 1


def test_a_site_correction_is_in_the_export(organiser, season):
    raw = (TDF_DIR / "ciphermaniac-test__cup-finalized.tdf").read_bytes()
    event = import_file(raw, organiser, season).event
    match = Match.objects.filter(round__event=event, round__number=1, table=1).get()
    from matches import services as match_services

    match_services.set_result(
        match=match,
        by_user=organiser,
        payload={"games": [{"outcome": "b"}, {"outcome": "b"}]},
        note="the slip named the wrong winner",
    )
    exported = services.export_save(event=event)
    first = exported.pods[0].rounds[0].matches[0]
    assert first.outcome == tdf.P2_WINS


def test_players_with_accounts_are_told_their_pairings(organiser, season):
    raw = (TDF_DIR / "ciphermaniac__tom-182-masters.tdf").read_bytes()
    t = tdf.parse(raw)
    PlayerFactory(
        player_id=t.players[0].userid, name="Known Player", birth_date=dt.date(1990, 2, 27)
    )
    event = import_file(raw, organiser, season).event
    player = Player.objects.get(player_id=t.players[0].userid)
    assert player.name == "Known Player"  # matched by Play! Pokémon id, not duplicated
    assert Player.objects.filter(player_id__in=[p.userid for p in t.players]).count() == len(
        t.players
    )
    mine = Notification.objects.filter(recipient=player.user, kind="pairings_published")
    assert mine.count() == len(tdf.parse(raw).pods[0].rounds)
    assert event.tom.sanction_id == t.data.id


def test_divisions_come_from_the_save(organiser, season):
    raw = (TDF_DIR / "litian80__2025-dg-nov-cup.tdf").read_bytes()
    t = tdf.parse(raw)
    event = import_file(raw, organiser, season).event
    assert event.division_mode == Event.DivisionMode.SEPARATE
    divisions = dict(
        Registration.objects.filter(event=event).values_list("player__player_id", "division")
    )
    for block in t.standings:
        for place in block.players:
            assert divisions[place.id] == {0: "junior", 1: "senior", 2: "masters"}[block.category]
    # TOM's final places are the event's placements (league points follow them).
    masters = [
        p.id
        for b in t.standings
        if b.category == 2 and b.type == "finished"
        for p in sorted(b.players, key=lambda p: p.place)
    ]
    placed = list(
        EventPlacement.objects.filter(event=event, division="masters")
        .order_by("place")
        .values_list("registration__player__player_id", flat=True)
    )
    assert placed == masters


def test_standings_compared_with_toms(organiser, season):
    raw = (TDF_DIR / "opentourney__round-rock-summer-2026-06-20.tdf").read_bytes()
    event = import_file(raw, organiser, season).event
    tom = TomEvent.objects.get(event=event)
    # Four no-shows tied on everything: TOM drew lots, we cannot reproduce its order.
    assert tom.standings_compared == {"junior": {"players": 23, "agree": False}}
    assert tom.standings_differences and all(
        d["tom_place"] >= 20 for d in tom.standings_differences
    )
    agree = import_file(
        (TDF_DIR / "tanaleague__challenge-2025-09-25.tdf").read_bytes(), organiser, season
    )
    assert agree.event.tom.standings_compared == {"masters": {"players": 11, "agree": True}}
    assert agree.event.tom.standings_differences == []


# --- bad files -------------------------------------------------------------------------


SMALL = TDF_DIR / "ciphermaniac-test__cup-finalized.tdf"


def nothing_written(fn):
    before = (
        Event.objects.count(),
        Player.objects.count(),
        Match.objects.count(),
        TomUpload.objects.count(),
    )
    with pytest.raises(DomainError) as info:
        fn()
    after = (
        Event.objects.count(),
        Player.objects.count(),
        Match.objects.count(),
        TomUpload.objects.count(),
    )
    assert after == before
    return info.value


def test_not_a_tom_save(organiser, season):
    err = nothing_written(
        lambda: import_file(b"<html><body>hello</body></html>", organiser, season)
    )
    assert err.code == "tdf-invalid" and "html" in err.message


def test_a_truncated_save(organiser, season):
    raw = SMALL.read_bytes()
    err = nothing_written(lambda: import_file(raw[: len(raw) * 2 // 3], organiser, season))
    assert err.code == "tdf-invalid" and "line" in err.message


def test_a_player_twice(organiser, season):
    text = SMALL.read_text()
    first = text.index('\t\t<player userid="5000117">')
    end = text.index("</player>", first) + len("</player>\n")
    err = nothing_written(
        lambda: import_file((text[:end] + text[first:end] + text[end:]).encode(), organiser, season)
    )
    assert err.code == "tdf-invalid" and "tournament/players/player[2]" in err.message


def test_a_save_of_another_tournament(organiser, season):
    event = import_file(SMALL.read_bytes(), organiser, season).event
    other = (TDF_DIR / "ciphermaniac__tom-182-masters.tdf").read_bytes()
    before = counts(event)
    err = nothing_written(lambda: services.import_save(data=other, by_user=organiser, event=event))
    assert err.code == "tdf-contradicts" and "tournament/data/id" in err.message
    assert counts(event) == before


def test_toms_re_pairing_of_a_round_without_results_replaces_it(organiser, season):
    final = tdf.parse(SMALL.read_bytes())
    paired = tdf.truncated(final, rounds=2, last_unplayed=True)
    r2 = paired.pods[0].rounds[1]
    r2.matches[0].player2, r2.matches[1].player2 = r2.matches[1].player2, r2.matches[0].player2
    event = import_file(tdf.write(paired).encode(), organiser, season).event
    # The organiser fixes the pairing in TOM before anyone plays.
    again = tdf.truncated(final, rounds=2, last_unplayed=True)
    result = services.import_save(data=tdf.write(again).encode(), by_user=organiser, event=event)
    assert result.summary["rounds_repaired"] == 1
    assert Match.objects.filter(round__event=event, round__number=2).count() == 3
    result = services.import_save(data=SMALL.read_bytes(), by_user=organiser, event=event)
    assert result.summary["rounds_closed"] == 2 and "rounds_repaired" not in result.summary
    assert services.export_save(event=event) == final  # the event as it is now, not as passed


def test_a_save_that_re_pairs_a_round(organiser, season):
    raw = SMALL.read_bytes()
    event = import_file(raw, organiser, season).event
    t = tdf.parse(raw)
    r1 = t.pods[0].rounds[0]
    r1.matches[0].player2, r1.matches[1].player2 = r1.matches[1].player2, r1.matches[0].player2
    before = counts(event)
    err = nothing_written(
        lambda: services.import_save(data=tdf.write(t).encode(), by_user=organiser, event=event)
    )
    assert err.code == "tdf-contradicts" and "tournament/pods/pod[1]/rounds/round[1]" in err.message
    assert counts(event) == before


def test_a_save_missing_a_player_or_a_drop(organiser, season):
    raw = (TDF_DIR / "ciphermaniac__tom-182-masters.tdf").read_bytes()
    event = import_file(raw, organiser, season).event
    t = tdf.parse(raw)
    undropped = next(p for p in t.players if p.dropped)
    undropped.dropped = None
    err = nothing_written(
        lambda: services.import_save(data=tdf.write(t).encode(), by_user=organiser, event=event)
    )
    assert err.code == "tdf-contradicts" and "dropped before" in err.message
    t = tdf.parse(raw)
    t.players = t.players[1:]
    err = nothing_written(
        lambda: services.import_save(data=tdf.write(t).encode(), by_user=organiser, event=event)
    )
    assert "not in <players>" in err.message or "not in this save" in err.message


def test_only_staff_import(season):
    event = import_file(SMALL.read_bytes(), season.league.organisers.first(), season).event
    stranger = UserFactory(username="stranger")
    raw = (
        (TDF_DIR / "ciphermaniac-test__cup-finalized.tdf")
        .read_bytes()
        .replace(b"timeelapsed>62", b"timeelapsed>63")
    )
    err = nothing_written(lambda: services.import_save(data=raw, by_user=stranger, event=event))
    assert err.code == "not-allowed"


# --- commands -----------------------------------------------------------------------------


def test_commands(organiser, season, tmp_path):
    out = io.StringIO()
    call_command(
        "import_tdf",
        str(TDF_DIR / "tanaleague__challenge-2025-09-25.tdf"),
        "--league",
        "tom-league",
        stdout=out,
    )
    lines = out.getvalue().strip().splitlines()
    event = Event.objects.get(pk=int(lines[-1]))
    assert "created" in lines[0] and "agree with TOM's in 1 of 1" in out.getvalue()
    target = tmp_path / "out.tdf"
    call_command("export_tdf", str(event.pk), "-o", str(target), stderr=io.StringIO())
    assert (
        target.read_bytes().replace(b"\n", b"\r\n")
        == (TDF_DIR / "tanaleague__challenge-2025-09-25.tdf").read_bytes()
    )
    out = io.StringIO()
    call_command(
        "import_tdf",
        str(TDF_DIR / "tanaleague__challenge-2025-09-25.tdf"),
        "--event",
        str(event.pk),
        stdout=out,
    )
    assert "unchanged" in out.getvalue() and out.getvalue().strip().splitlines()[-1] == str(
        event.pk
    )
    bad = tmp_path / "bad.tdf"
    bad.write_text("not xml")
    with pytest.raises(CommandError, match="tdf-invalid"):
        call_command("import_tdf", str(bad), "--league", "tom-league", stdout=io.StringIO())


# --- an event run here, handed to TOM ---------------------------------------------------------


def test_an_event_run_here_exports_as_a_tom_save(organiser, season):
    from matches.simulation import simulate_event

    report = simulate_event(players=12, seed=7, season=season, staff=organiser, drop_rate=0.1)
    event = report.event
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    text = services.export_text(event=event)
    t = tdf.parse(text.encode())  # only elements TOM writes, in TOM's order
    assert t.stage == 5 and t.standings is not None
    assert {p.userid for p in t.players} == set(
        Registration.objects.filter(event=event)
        .exclude(status="withdrawn")
        .values_list("player__player_id", flat=True)
    )
    outcomes = {m.outcome for pod in t.pods for r in pod.rounds for m in r.matches}
    assert outcomes <= {1, 2, 3, 5, 10}
    swiss = Round.objects.filter(event=event, stage="swiss").count()
    assert sum(1 for r in t.pods[0].rounds if not r.is_top_cut) == swiss
    # And back: TOM's file of our event imports as the same event.
    again = services.import_save(data=text.encode(), by_user=organiser, season=season).event
    assert services.export_save(event=again).pods == t.pods
