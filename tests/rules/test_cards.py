"""Card records, formats and the card index (rules/cards.py)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rules.cards import (
    EXPANDED,
    STANDARD,
    UNLIMITED,
    CardIndex,
    CardRecord,
    FormatSpec,
    compute_text_key,
    load_index,
    load_upstream,
    number_key,
    record_from_upstream,
)

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "pokemon-tcg"

ITEM = "You may play any number of Item cards during your turn."
OLD_ITEM = "You may play as many Item cards as you like during your turn (before your attack)."


def card_set(set_id: str, code: str | None = None) -> dict:
    data = {"id": set_id, "name": set_id.upper()}
    if code:
        data["ptcgoCode"] = code
    return data


def upstream(card_id: str, name: str, supertype: str = "Pokémon", **fields) -> dict:
    data = {"id": card_id, "name": name, "supertype": supertype}
    data["number"] = fields.pop("number", card_id.split("-", 1)[1])
    data.update(fields)
    return data


def rec(card_id, name, supertype="Pokémon", code=None, **fields) -> CardRecord:
    set_id = card_id.split("-", 1)[0]
    return record_from_upstream(
        upstream(card_id, name, supertype, **fields), card_set(set_id, code)
    )


# --------------------------------------------------------------------------- records


def test_record_from_upstream_fields():
    r = rec(
        "sv1-86",
        "Gardevoir ex",
        code="SVI",
        subtypes=["Stage 2", "ex"],
        hp="310",
        types=["Psychic"],
        evolvesFrom="Kirlia",
        legalities={"unlimited": "Legal", "standard": "Legal", "expanded": "Legal"},
        regulationMark="G",
        attacks=[{"name": "Miracle Force", "cost": ["Psychic"], "damage": "190"}],
    )
    assert r.id == "sv1-86"
    assert r.name == "Gardevoir ex"
    assert r.norm_name == "gardevoir ex"
    assert r.supertype == "Pokémon"
    assert r.subtypes == ("Stage 2", "ex")
    assert (r.set_id, r.set_code, r.number) == ("sv1", "SVI", "86")
    assert r.regulation_mark == "G"
    assert r.evolves_from == "Kirlia"
    assert r.legal == frozenset({"standard", "expanded", "unlimited"})
    assert r.banned == frozenset()
    assert len(r.text_key) == 16 and int(r.text_key, 16) >= 0
    assert not r.is_basic_pokemon and not r.is_basic_energy
    assert r.printing == "SVI 86"
    # simple types only: the Django importer stores and rebuilds these
    rebuilt = CardRecord(**{f.name: getattr(r, f.name) for f in dataclasses.fields(r)})
    assert rebuilt == r and hash(rebuilt) == hash(r)


def test_record_flags():
    assert rec("a-1", "Pikachu", subtypes=["Basic"]).is_basic_pokemon
    assert rec("a-2", "Pichu", subtypes=["Baby"]).is_basic_pokemon  # Baby counts as Basic
    fossil = rec("a-3", "Mysterious Fossil", "Trainer", hp="10")
    assert not fossil.is_basic_pokemon
    assert rec("a-4", "Darkness Energy", "Energy", subtypes=["Basic"]).is_basic_energy
    special = rec("a-5", "Darkness Energy", "Energy", subtypes=["Special"])
    assert not special.is_basic_energy
    assert special.norm_name == rec("a-4", "Darkness Energy", "Energy").norm_name
    assert rec("a-6", "Prime Catcher", "Trainer", subtypes=["Item", "ACE SPEC"]).is_ace_spec
    assert rec("a-7", "Radiant Greninja", subtypes=["Basic", "Radiant"]).is_radiant
    assert rec("a-8", "Giratina ◇", subtypes=["Basic", "Prism Star"]).is_prism_star
    assert rec("a-9", "Lysandre ◇", "Trainer", subtypes=["Supporter", "Prism Star"]).is_prism_star
    assert rec("a-10", "Pikachu ★", subtypes=["Basic", "Star"]).is_star
    assert rec("a-11", "Aerodactyl δ", subtypes=["Stage 1"]).norm_name == "aerodactyl"


def test_record_without_code_and_missing_optional_fields():
    r = record_from_upstream(
        {"id": "pop1-1", "name": "Mysterious Fossil", "supertype": "Trainer", "number": "1"},
        {"id": "pop1"},
    )
    assert r.set_code == "" and r.regulation_mark == "" and r.evolves_from == ""
    assert r.subtypes == () and r.legal == frozenset() and r.printing == "pop1 1"


@pytest.mark.parametrize(
    ("card", "message"),
    [
        ({"name": "X", "supertype": "Pokémon", "number": "1"}, "'id'"),
        ({"id": "a-1", "supertype": "Pokémon", "number": "1"}, "'name'"),
        ({"id": "a-1", "name": "X", "number": "1"}, "'supertype'"),
        ({"id": "a-1", "name": "X", "supertype": "Item", "number": "1"}, "supertype"),
        ({"id": "a-1", "name": 5, "supertype": "Pokémon", "number": "1"}, "'name'"),
        ({"id": "a-1", "name": "  ", "supertype": "Pokémon", "number": "1"}, "empty"),
        ({"id": "a-1", "name": "X", "supertype": "Pokémon", "subtypes": "Basic"}, "subtypes"),
        ({"id": "a-1", "name": "X", "supertype": "Pokémon", "subtypes": [1]}, "subtypes"),
        ({"id": "a-1", "name": "X", "supertype": "Trainer", "rules": "text"}, "rules"),
        ({"id": "a-1", "name": "X", "supertype": "Pokémon", "attacks": ["x"]}, "attacks"),
        ({"id": "a-1", "name": "X", "supertype": "Pokémon", "legalities": []}, "legalities"),
        ({"id": "b-1", "name": "X", "supertype": "Pokémon"}, "'number'"),
    ],
)
def test_malformed_records_raise_value_error(card, message):
    with pytest.raises(ValueError, match=message):
        record_from_upstream(card, {"id": "a"})


def test_not_a_dict_raises_value_error():
    with pytest.raises(ValueError, match="object"):
        record_from_upstream(["not", "a", "card"], {"id": "a"})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="set"):
        record_from_upstream({"id": "a-1", "name": "X", "supertype": "Trainer"}, None)  # type: ignore[arg-type]


def test_number_from_id_and_int_number():
    r = record_from_upstream({"id": "a-7", "name": "X", "supertype": "Trainer"}, {"id": "a"})
    assert r.number == "7"
    r = record_from_upstream(
        {"id": "a-8", "name": "X", "supertype": "Trainer", "number": 8}, {"id": "a"}
    )
    assert r.number == "8"


# --------------------------------------------------------------------------- text keys


def test_text_key_ignores_reminder_lines_and_whitespace():
    nest_new = {"supertype": "Trainer", "subtypes": ["Item"], "rules": ["Search your deck.", ITEM]}
    nest_old = {
        "supertype": "Trainer",
        "subtypes": ["Item"],
        "rules": ["Search  your deck.", OLD_ITEM],
    }
    split = {"supertype": "Trainer", "rules": ["Search", "your deck."]}
    other = {"supertype": "Trainer", "rules": ["Draw 3 cards.", ITEM]}
    assert compute_text_key(nest_new) == compute_text_key(nest_old) == compute_text_key(split)
    assert compute_text_key(nest_new) != compute_text_key(other)


def test_text_key_of_pokemon():
    base = {
        "supertype": "Pokémon",
        "subtypes": ["Basic"],
        "hp": "60",
        "types": ["Lightning"],
        "attacks": [{"name": "Gnaw", "cost": ["Colorless"], "damage": "10"}],
    }
    assert compute_text_key(base) == compute_text_key(dict(base, number="99", regulationMark="H"))
    assert compute_text_key(base) != compute_text_key(dict(base, hp="70"))
    more = dict(base, attacks=[{"name": "Gnaw", "cost": ["Colorless"], "damage": "20"}])
    assert compute_text_key(base) != compute_text_key(more)
    ability = dict(base, abilities=[{"name": "Static", "type": "Ability"}])
    assert compute_text_key(base) != compute_text_key(ability)


def test_text_key_energy_basic_vs_special():
    basic = {"supertype": "Energy", "subtypes": ["Basic"]}
    special = {"supertype": "Energy", "subtypes": ["Special"]}
    assert compute_text_key(basic) != compute_text_key(special)


# --------------------------------------------------------------------------- index


@pytest.fixture(scope="module")
def index() -> CardIndex:
    legal_all = {"unlimited": "Legal", "expanded": "Legal", "standard": "Legal"}
    nest = {"subtypes": ["Item"], "rules": ["Search your deck for a Basic Pokémon.", ITEM]}
    nest_old = dict(nest, rules=["Search your deck for a Basic Pokémon.", OLD_ITEM])
    return CardIndex(
        [
            rec("cel25-2", "Reshiram", code="CEL", subtypes=["Basic"]),
            rec("cel25c-2_A", "Blastoise", code="CEL", number="2", subtypes=["Stage 2"]),
            rec("swsh12pt5gg-GG39", "Pikachu", code="CRZ", subtypes=["Basic"]),
            rec("swsh9tg-TG08", "Pikachu V", code="BRS", subtypes=["Basic", "V"]),
            rec("svp-27", "Pikachu", code="PR-SV", subtypes=["Basic"]),
            rec("sv1-181", "Nest Ball", "Trainer", code="SVI", legalities=legal_all,
                regulationMark="G", **nest),
            rec("sm1-123", "Nest Ball", "Trainer", code="SUM",
                legalities={"unlimited": "Legal", "expanded": "Legal"}, **nest_old),
            rec("sm1-124", "Nest Ball", "Trainer", code="SUM",
                legalities={"unlimited": "Legal"}, rules=["A different old text."]),
            rec("pop1-1", "Porygon-Z", subtypes=["Stage 2"]),
            rec("ex11-3", "Aerodactyl δ", subtypes=["Stage 1"], evolvesFrom="Mysterious Fossil"),
            rec("xy4-99", "Lysandre's Trump Card", "Trainer", code="PHF",
                legalities={"unlimited": "Legal", "expanded": "Banned"}),
            rec("xy4-100", "Lysandre's Trump Card", "Trainer", code="PHF",
                legalities={"unlimited": "Legal", "expanded": "Legal"}),
        ]
    )  # fmt: skip


def test_by_code_number(index):
    assert index.by_code_number("SVI", "181").id == "sv1-181"
    assert index.by_code_number("svi", "181").id == "sv1-181"  # codes ignore case
    assert index.by_code_number("sv1", "181").id == "sv1-181"  # set id instead of code
    assert index.by_code_number("SVI", "999") is None
    assert index.by_code_number("XXX", "1") is None


def test_by_code_number_collision_uses_name(index):
    assert index.by_code_number("CEL", "2", "Reshiram").id == "cel25-2"
    assert index.by_code_number("CEL", "2", "Blastoise").id == "cel25c-2_A"
    assert index.by_code_number("CEL", "2_A", "Blastoise").id == "cel25c-2_A"


def test_by_code_number_subset_codes_and_numbers(index):
    assert index.by_code_number("CRZ-GG", "GG39").id == "swsh12pt5gg-GG39"
    assert index.by_code_number("CRZ", "GG39").id == "swsh12pt5gg-GG39"
    assert index.by_code_number("BRS", "TG8").id == "swsh9tg-TG08"
    assert index.by_code_number("BRS", "tg08").id == "swsh9tg-TG08"
    assert index.by_code_number("SVP", "27").id == "svp-27"
    assert index.by_code_number("PR-SV", "027").id == "svp-27"


def test_number_key():
    assert number_key("TG08") == number_key("TG8") == "TG8"
    assert number_key("057") == "57"
    assert number_key("SWSH135") == "SWSH135"
    assert number_key("0") == "0"


def test_by_name(index):
    assert {r.id for r in index.by_name("Nest Ball")} == {"sv1-181", "sm1-123", "sm1-124"}
    assert {r.id for r in index.by_name("nest ball")} == {"sv1-181", "sm1-123", "sm1-124"}
    assert [r.id for r in index.by_name("Aerodactyl δ")] == ["ex11-3"]
    assert [r.id for r in index.by_name("Aerodactyl")] == ["ex11-3"]
    assert [r.id for r in index.by_name("Porygon Z")] == ["pop1-1"]  # loose fallback
    assert index.by_name("Nothing Like This") == []


def test_reprint_equivalence(index):
    new, old, other = (index.get(i) for i in ("sv1-181", "sm1-123", "sm1-124"))
    assert old.text_key == new.text_key != other.text_key
    assert index.is_legal(new, STANDARD)
    assert index.is_legal(old, STANDARD)  # same card as a Standard-legal printing
    assert not index.is_legal(other, STANDARD)  # same name, different text
    assert index.is_legal(other, UNLIMITED)
    assert index.is_name_legal("Nest Ball", STANDARD)


def test_banned_beats_legal_across_reprints(index):
    banned, reprint = index.get("xy4-99"), index.get("xy4-100")
    assert banned.text_key == reprint.text_key
    assert not index.is_legal(banned, EXPANDED)
    assert not index.is_legal(reprint, EXPANDED)
    assert index.is_banned(reprint, EXPANDED)
    assert index.is_legal(reprint, UNLIMITED)


def test_custom_formats(index):
    marks = FormatSpec("marks", "G only", allowed_marks=frozenset({"G"}))
    assert index.is_legal(index.get("sv1-181"), marks)
    assert index.is_legal(index.get("sm1-123"), marks)  # reprint of a G card
    assert not index.is_legal(index.get("sm1-124"), marks)
    sets = FormatSpec.custom("sets", "SUM only", sets=["sm1"])
    assert index.is_legal(index.get("sv1-181"), sets)  # reprint of sm1-123
    assert not index.is_legal(index.get("cel25-2"), sets)
    anything = FormatSpec("free", "Anything goes")
    assert index.is_legal(index.get("cel25-2"), anything)
    by_name = FormatSpec.custom("ban-name", "No Nest Ball", base="unlimited",
                                banned_names=["NEST BALL"])  # fmt: skip
    assert not index.is_legal(index.get("sm1-124"), by_name)
    assert index.is_banned(index.get("sm1-124"), by_name)
    by_print = FormatSpec("ban-print", "No sm1-123", base="unlimited",
                          banned_prints=frozenset({"sm1-123"}))  # fmt: skip
    assert not index.is_legal(index.get("sm1-123"), by_print)
    assert not index.is_legal(index.get("sv1-181"), by_print)  # the same card
    assert index.is_legal(index.get("sm1-124"), by_print)  # another card, same name


def test_format_cache_resets_when_spec_changes(index):
    card = index.get("sm1-124")
    assert index.is_legal(card, FormatSpec("x", "X", base="unlimited"))
    assert not index.is_legal(card, FormatSpec("x", "X", base="standard"))


def test_format_spec_validation():
    with pytest.raises(ValueError, match="base"):
        FormatSpec("bad", "Bad", base="modified")
    spec = FormatSpec("s", "S", allowed_sets={"sv1"})  # type: ignore[arg-type]
    assert spec.allowed_sets == frozenset({"sv1"})
    assert FormatSpec.custom("c", "C", banned_names=["Nest Ball"]).banned_names == {"nest ball"}


def test_suggestions(index):
    assert index.suggestions("Nest Bal")[0] == "Nest Ball"
    assert "Pikachu" in index.suggestions("Pikachuu")
    assert index.suggestions("Reshiram", limit=1) == ["Reshiram"]
    assert index.suggestions("", limit=3) == []


def test_evolves_from(index):
    assert index.evolves_from(index.get("ex11-3")) == "mysterious fossil"
    assert index.evolves_from(index.get("cel25-2")) == ""
    assert "buried fossil" in index.basis_alternatives("mysterious fossil")


# --------------------------------------------------------------------------- real data


@pytest.fixture(scope="module")
def real() -> CardIndex:
    if not (DATA / "sets" / "en.json").exists():
        pytest.skip(f"card data not found at {DATA}")
    return load_index(DATA)


def test_load_upstream_reads_everything(real):
    assert len(real) == 20106
    assert len({r.id for r in real}) == 20106
    assert next(iter(load_upstream(DATA))).id == "base1-1"  # release order, lazily


def test_real_readme_facts(real):
    assert real.get("sv1-86").norm_name == real.get("ex2-96").norm_name == "gardevoir ex"
    assert real.get("pl4-97").norm_name == "gengar"  # Gengar LV.X
    assert real.get("hgss1-121").is_basic_energy
    assert not real.get("ex9-86").is_basic_energy
    assert real.get("hgss1-121").norm_name == real.get("ex9-86").norm_name
    assert real.get("sve-2").norm_name == "fire energy"
    assert real.get("ecard3-47").is_basic_pokemon  # Buried Fossil is stored as a Pokémon
    assert not real.get("base3-62").is_basic_pokemon  # Mysterious Fossil is a Trainer
    assert real.get("neo1-12").is_basic_pokemon  # Pichu, a Baby
    assert real.get("ex13-104").is_star and real.get("sm5-58").is_prism_star
    assert sum(r.is_ace_spec for r in real) == 46
    assert sum(r.is_star for r in real) == 29
    assert sum(r.is_prism_star for r in real) == 27
    assert sum(r.is_radiant for r in real) == 16
    assert sum(bool(r.banned) for r in real) == 48


def test_real_collisions(real):
    assert real.by_code_number("BLK", "60", "Escavalier").id == "zsv10pt5-60"
    assert real.by_code_number("BLK", "60", "Antique Cover Fossil").id == "zsv10pt5-80"
    assert real.by_code_number("CEL", "2", "Reshiram").id == "cel25-2"
    assert real.by_code_number("CEL", "2", "Blastoise").id == "cel25c-2_A"
    names = {"Venusaur", "Here Comes Team Rocket!", "Rocket's Zapdos", "Claydol"}
    for name in names:
        assert real.by_code_number("CEL", "15", name).name == name
    assert real.by_code_number("SWSH", "SWSH135") is None
    assert real.by_code_number("PR-SW", "SWSH135").id == "swshp-SWSH135"
    assert real.by_code_number("BRS", "TG08").set_id == "swsh9tg"
    assert real.by_code_number("CRZ-GG", "GG39").set_id == "swsh12pt5gg"


def test_real_code_number_pairs_are_unique_except_documented(real):
    seen: dict[tuple[str, str], list[str]] = {}
    for r in real:
        if r.set_code:
            seen.setdefault((r.set_code, number_key(r.number)), []).append(r.id)
    clashes = {k: v for k, v in seen.items() if len(v) > 1}
    assert {code for code, _ in clashes} == {"CEL", "BLK"}
    assert len(clashes) == 9
    for ids in clashes.values():
        assert len({real.get(i).norm_name for i in ids}) == len(ids)


def test_real_reprint_legality(real):
    # Nest Ball SUM 123 is not marked Standard upstream, but it is the same card as SVI 181
    assert STANDARD.base not in real.get("sm1-123").legal
    assert real.is_legal(real.get("sm1-123"), STANDARD)
    assert not real.is_legal(real.get("base1-96"), STANDARD)  # Double Colorless Energy
    assert real.is_legal(real.get("base1-96"), EXPANDED)
    assert not real.is_legal(real.get("xy4-99"), EXPANDED)  # Lysandre's Trump Card
    assert real.is_legal(real.get("xy4-99"), UNLIMITED)
    assert not real.is_legal(real.get("sm8-90"), EXPANDED)  # this Unown is banned ...
    unown = [
        r for r in real.by_name("Unown") if r.set_id == "sm8" and r.id not in ("sm8-90", "sm8-91")
    ]
    assert all(real.is_legal(r, EXPANDED) for r in unown)  # ... other Unown are not


def test_real_evolves_from_fixes(real):
    plume = [r for r in real if r.evolves_from == "Antiuqe Plume Fossil"]
    assert plume
    assert all(real.evolves_from(r) == "antique plume fossil" for r in plume)
    assert real.by_name("Antique Plume Fossil")
    me = [r for r in real if r.set_id == "me2pt5" and r.is_pokemon and "Stage 1" in r.subtypes]
    assert any(real.evolves_from(r) for r in me)  # borrowed from other printings
