"""The metagame from plain records, and archetype suggestions: no Django."""

import pytest

from rules.archetypes import (
    DEFAULT_RULES,
    UNKNOWN,
    ArchetypeRule,
    format_rules,
    parse_rules,
    suggest_archetype,
)
from rules.decklist import DeckLine
from rules.errors import DomainError
from rules.metagame import metagame, player_record, shares


def line(count, name, section="Pokémon"):
    return DeckLine(line_no=1, count=count, name=name, set_code=None, number=None, raw="", section=section)  # fmt: skip


ARCH = {"ash": "Pikachu", "misty": "Starmie", "brock": "Onix", "may": "Pikachu", "gary": "Onix"}


def test_shares_count_players_largest_first_then_by_name():
    rows = shares(ARCH)
    assert [(s.archetype, s.players) for s in rows] == [("Onix", 2), ("Pikachu", 2), ("Starmie", 1)]
    assert sum(s.share for s in rows) == pytest.approx(1)
    assert rows[0].share == pytest.approx(0.4)


def test_records_and_matchups_leave_byes_out_and_mirrors_on_the_diagonal():
    results = [
        ("ash", "misty", "a"),  # Pikachu beats Starmie
        ("brock", "may", "b"),  # Pikachu beats Onix
        ("gary", "misty", "tie"),  # Onix ties Starmie
        ("ash", "may", "a"),  # mirror
        ("brock", None, "a"),  # a bye: nothing
        ("gary", "ash", "double_loss"),  # a loss for each
        ("nobody", "ash", "a"),  # no list: left out
    ]
    meta = metagame(ARCH, results)
    assert str(meta.records["Pikachu"]) == "2-1-0"
    assert str(meta.records["Onix"]) == "0-2-1"
    assert str(meta.records["Starmie"]) == "0-1-1"
    assert str(meta.matchups["Pikachu"]["Onix"]) == "1-1-0"
    assert str(meta.matchups["Onix"]["Pikachu"]) == "0-2-0"
    assert str(meta.matchups["Pikachu"]["Pikachu"]) == "1-1-0"
    assert str(meta.matchups["Starmie"]["Onix"]) == "0-0-1"
    assert meta.matchups["Starmie"]["Starmie"].played == 0
    assert meta.records["Pikachu"].win_rate == pytest.approx(2 / 3)


def test_a_players_record_counts_a_bye_as_a_win():
    results = [("ash", None, "a"), ("misty", "ash", "a"), ("ash", "brock", "tie")]
    assert str(player_record("ash", results)) == "1-1-1"


def test_the_first_rule_whose_card_is_in_the_list_names_it():
    deck = [line(4, "Comfey"), line(2, "Charizard ex"), line(4, "Colress's Experiment", "Trainer")]
    assert suggest_archetype(deck) == "Lost Box"  # Comfey's rule comes first
    rules = (ArchetypeRule("charizard EX", "Zard"),)  # compared loosely
    assert suggest_archetype(deck, rules) == "Zard"


def test_without_a_rule_the_main_pokemon_names_it_and_no_pokemon_is_other():
    deck = [line(2, "Raichu"), line(3, "Pikachu"), line(1, "Pikachu"), line(10, "Lightning Energy", "Energy")]  # fmt: skip
    assert suggest_archetype(deck, ()) == "Pikachu"
    assert suggest_archetype([line(60, "Lightning Energy", "Energy")], ()) == UNKNOWN
    unsectioned = [line(4, "Pikachu", None), line(4, "Potion", None)]
    assert suggest_archetype(unsectioned, (), is_pokemon=lambda ln: ln.name == "Potion") == "Potion"


def test_rules_are_written_one_a_line_and_read_back():
    rules = parse_rules("# comment\nComfey -> Lost Box\n\nPikachu → Electric\n")
    assert rules == (ArchetypeRule("Comfey", "Lost Box"), ArchetypeRule("Pikachu", "Electric"))
    assert parse_rules(format_rules(DEFAULT_RULES)) == DEFAULT_RULES
    with pytest.raises(DomainError) as exc:
        parse_rules("Comfey -> Lost Box\nPikachu")
    assert exc.value.code == "archetype-rule-invalid" and "Line 2" in exc.value.message
