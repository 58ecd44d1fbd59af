"""The game-by-game forms' choice fields take their choices as built once a form
(`matches.forms.FlatChoices`): the same choices, validated and rendered as a list's."""

from django.http import QueryDict

from matches.forms import PLAYER_OUTCOMES, PlayerGamesForm
from matches.models import Game


def test_the_rows_offer_the_outcomes_and_reasons_and_refuse_others():
    posted = QueryDict("game_1=me&game_2=nobody")
    form = PlayerGamesForm(posted, side="a", rows=3, both_ways=False)
    outcome, reason = form.fields["game_1"], form.fields["reason_1"]
    assert outcome.choices == [("", "—"), *PLAYER_OUTCOMES] and len(outcome.choices) == 6
    assert list(reason.choices) == list(Game.Reason.choices)
    assert not form.is_valid() and list(form.errors) == ["game_2"]
    html = str(form["game_3"])
    assert all(f'value="{value}"' in html for value, _ in PLAYER_OUTCOMES)
    form = PlayerGamesForm(QueryDict("game_1=me&game_2=opponent&game_3=me"), side="b", rows=3)
    assert form.is_valid(), form.errors
    assert [g["outcome"] for g in form.payload()["games"]] == ["b", "a", "b"]
