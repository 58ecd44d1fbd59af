"""`import_cards`: idempotent, fast bulk writes, clear errors that leave the database alone."""

import json
import shutil
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from decks.models import Card, CardDataVersion, CardSet, PreconDeck
from tests.conftest import SHARED_DATA
from tests.factories import SAMPLE_DATA

pytestmark = pytest.mark.django_db


def run_import(path) -> str:
    out = StringIO()
    call_command("import_cards", str(path), stdout=out)
    return out.getvalue()


def test_sample_data_imports_and_a_second_run_changes_nothing():
    first = run_import(SAMPLE_DATA)
    assert "21 cards (21 added, 0 changed, 0 unchanged)" in first
    stamp = CardDataVersion.objects.get().stamp
    second = run_import(SAMPLE_DATA)
    assert "21 cards (0 added, 0 changed, 21 unchanged)" in second
    assert CardDataVersion.objects.get().stamp == stamp
    pikachu = Card.objects.get(id="demo1-1")
    assert pikachu.is_basic_pokemon and pikachu.set_code == "DM1" and "standard" in pikachu.legal
    assert Card.objects.get(id="demo2-1").is_basic_energy
    assert Card.objects.get(id="demo1-15").is_ace_spec
    assert PreconDeck.objects.count() == 3


def test_a_changed_card_is_updated(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(SAMPLE_DATA, data)
    run_import(data)
    path = data / "cards" / "en" / "demo1.json"
    cards = json.loads(path.read_text())
    cards[0]["hp"] = "70"
    path.write_text(json.dumps(cards))
    assert "(0 added, 1 changed, 20 unchanged)" in run_import(data)
    assert Card.objects.get(id="demo1-1").data["hp"] == "70"


@pytest.mark.parametrize(
    ("breakage", "expected"),
    [
        (lambda cards: cards[3].pop("name"), "demo1.json, record demo1-4"),
        (lambda cards: cards[5].update(subtypes="Stage 1"), "demo1.json, record demo1-6"),
        (lambda cards: cards.append("not a card"), "demo1.json, record #17"),
    ],
)
def test_a_malformed_record_names_file_and_record_and_writes_nothing(tmp_path, breakage, expected):
    data = tmp_path / "data"
    shutil.copytree(SAMPLE_DATA, data)
    path = data / "cards" / "en" / "demo1.json"
    cards = json.loads(path.read_text())
    breakage(cards)
    path.write_text(json.dumps(cards))
    with pytest.raises(CommandError) as err:
        run_import(data)
    assert expected in str(err.value)
    assert "\n" not in str(err.value)
    assert not Card.objects.exists() and not CardSet.objects.exists()


def test_invalid_json_and_missing_folder(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(SAMPLE_DATA, data)
    (data / "cards" / "en" / "demo2.json").write_text("[{")
    with pytest.raises(CommandError, match=r"demo2.json: not valid JSON"):
        run_import(data)
    with pytest.raises(CommandError, match=r"sets/en\.json: file not found"):
        run_import(tmp_path / "nowhere")


@pytest.mark.skipif(not (SHARED_DATA / "pokemon-tcg").is_dir(), reason="shared card data not present")
def test_the_full_card_data_loads_every_card_and_is_idempotent():
    first = run_import(SHARED_DATA / "pokemon-tcg")
    assert "20106 cards (20106 added" in first
    assert Card.objects.count() == 20106 and CardSet.objects.count() == 172
    assert "20106 cards (0 added, 0 changed, 20106 unchanged)" in run_import(SHARED_DATA / "pokemon-tcg")
    gengar_x = Card.objects.get(id="pl4-97")
    assert gengar_x.norm_name == Card.objects.filter(name="Gengar").first().norm_name
