"""Result forms. They check shape only and build the payload `matches.services` reads:
`{"games": [{"outcome", "reason"}...], "at_time": bool, "intentional_draw": bool}`.

Players speak of "I" and "my opponent"; the payload speaks of sides `a` and `b`, so the
player forms take the reporting player's side.
"""

from __future__ import annotations

from django import forms
from django.utils.choices import BaseChoiceIterator
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .after_the_turns import AfterTheTurns
from .models import Game

MAX_SUDDEN_DEATH = 10


def _other(side: str) -> str:
    return "b" if side == "a" else "a"


#: What "won both ways" means, on every form that asks (the 1999 and 2011 rulebooks).
# Translators: "Prize card", "Benched Pokémon", "Knocked Out", "Active Pokémon" and "sudden
# death" are official TCG terms (see the glossary).
BOTH_WAYS_HELP = _(
    "There are two ways to win at once: taking your last Prize card, and your opponent having "
    "no Benched Pokémon to replace a Knocked Out Active Pokémon. If you win in both ways and "
    "your opponent wins in only one way, you win; otherwise sudden death."
)


def _both_ways(winner: str) -> dict:
    """A game both players won at once, where `winner` won in both ways and the other in one."""
    return {"outcome": "both_won", "reason": "played", "ways": {winner: 2, _other(winner): 1}}


class QuickReportForm(AfterTheTurns):
    """Best of 1 in one tap: "I won", "I lost", "Tie at time", after `sudden_death` games
    both players won at once (each followed by its sudden-death replay); "I won both ways"
    and "my opponent won both ways" for a game both won at once that the rule decides, and a
    draw for the 1996 sudden death (the rules refuse it elsewhere). Where the edition decides
    a game unfinished after the turns by Prizes, "Tie at time" comes with who was `ahead`
    (me, my opponent, level) and, level in the top cut, who took the `next_prize`."""

    OUTCOMES = [
        ("won", _("I won")),
        ("lost", _("I lost")),
        ("tie", pgettext_lazy("result", "Tie at time")),
        ("won_both_ways", _("I won both ways, my opponent one")),
        ("lost_both_ways", _("My opponent won both ways, I one")),
        ("draw", _("Draw (1996 sudden death)")),
    ]

    outcome = forms.ChoiceField(choices=OUTCOMES)
    sudden_death = forms.IntegerField(min_value=0, max_value=MAX_SUDDEN_DEATH, required=False)

    def clean(self):
        data = super().clean()
        if data.get("outcome") == "tie" and data.get("sudden_death"):
            raise forms.ValidationError(_("A sudden-death game ends with a winner: who won it?"))
        if data.get("outcome") == "draw" and not data.get("sudden_death"):
            raise forms.ValidationError(
                _("A game is a draw only in the 1996 sudden death, after you both won at once.")
            )
        return data

    def payload(self, side: str) -> dict:
        outcome = self.cleaned_data["outcome"]
        games = [{"outcome": "both_won", "reason": "played"}] * (
            self.cleaned_data["sudden_death"] or 0
        )
        if outcome in ("won_both_ways", "lost_both_ways"):
            games.append(_both_ways(side if outcome == "won_both_ways" else _other(side)))
        else:
            final = {"won": side, "lost": _other(side), "tie": "tie", "draw": "draw"}[outcome]
            games.append(self.answered({"outcome": final, "reason": "played"}, side))
        return {"games": games, "at_time": outcome == "tie", "intentional_draw": False}


class BestOfThreeQuickForm(AfterTheTurns):
    """Best of 3 in one tap: "I won 2–0 / 2–1", "I lost 1–2 / 0–2"; in Swiss "1–1 at
    time" (a tie); in the top cut, level at time, the sudden-death game that settles it
    ("I won / lost the sudden death", played with the event's Prize count). Games are listed
    in one order whoever taps (a 2–1 as the winner's game, the loser's, the winner's; a
    1–1 as player A's game first), so the two players' reports agree. Where the edition
    decides by Prize cards, "1–1 at time" with game 3 unfinished after the turns comes with
    who was ahead (`AfterTheTurns`). Anything else (a game both won at once, a no-show, a
    penalty) is the game-by-game form."""

    UNFINISHED = "tie_1_1"

    OUTCOMES = [
        ("won_2_0", _("I won 2–0")),
        ("won_2_1", _("I won 2–1")),
        ("lost_1_2", _("I lost 1–2")),
        ("lost_0_2", _("I lost 0–2")),
        ("tie_1_1", _("1–1 at time: a tie")),
        ("won_sudden_death", _("1–1 at time, I won the sudden death")),
        ("lost_sudden_death", _("1–1 at time, I lost the sudden death")),
    ]
    WINS = {"won_2_0": "ww", "won_2_1": "wlw", "lost_1_2": "lwl", "lost_0_2": "ll"}

    outcome = forms.ChoiceField(choices=OUTCOMES)

    def payload(self, side: str, *, sudden_death_prizes: int) -> dict:
        outcome = self.cleaned_data["outcome"]
        other = _other(side)
        if outcome in self.WINS:
            games = [
                {"outcome": side if mark == "w" else other, "reason": "played"}
                for mark in self.WINS[outcome]
            ]
            return {"games": games, "at_time": False, "intentional_draw": False}
        games = [{"outcome": "a", "reason": "played"}, {"outcome": "b", "reason": "played"}]
        if outcome != "tie_1_1":
            winner = side if outcome == "won_sudden_death" else other
            games.append({"outcome": winner, "reason": "played", "prizes": sudden_death_prizes})
        elif self.cleaned_data.get("ahead"):  # game 3, unfinished after the turns
            games.append(self.answered({"outcome": "tie", "reason": "played"}, side))
        return {"games": games, "at_time": True, "intentional_draw": False}


class FlatChoices(BaseChoiceIterator):
    """Flat (value, label) pairs, taken as they are by a field and its widget: a plain list
    is normalized again for each, half the CPU of the result form a report builds."""

    def __init__(self, pairs):
        self.pairs = list(pairs)

    def __iter__(self):
        return iter(self.pairs)

    def __len__(self):
        return len(self.pairs)


class GamesForm(forms.Form):
    """Games in the order they were played, one row each; blank rows are skipped. A game
    both players won at once is followed, in the next row, by its sudden-death replay."""

    at_time = forms.BooleanField(required=False, label=_("Time was called"))
    intentional_draw = forms.BooleanField(
        required=False, label=_("Intentional draw (Swiss only; no games)")
    )

    #: Who was ahead on Prizes, in the form's own words (the player forms say me/opponent).
    AHEAD_CHOICES = [
        ("", "—"),
        ("a", _("Player A")),
        ("b", _("Player B")),
        ("level", pgettext_lazy("level on Prizes", "Level")),
    ]

    def __init__(
        self,
        *args,
        rows: int,
        outcome_choices: list[tuple[str, str]],
        after_time: dict | None = None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.row_count = rows
        self.after_time = after_time
        if after_time:
            self._add_after_time_fields(after_time)
        outcomes = FlatChoices([("", "—"), *outcome_choices])
        reasons = FlatChoices(Game.Reason.choices)
        for i in range(1, rows + 1):
            self.fields[f"game_{i}"] = forms.ChoiceField(
                choices=outcomes,
                required=False,
                label=_("Game played #%(number)s") % {"number": i},
            )
            self.fields[f"reason_{i}"] = forms.ChoiceField(
                choices=reasons,
                required=False,
                initial=Game.Reason.PLAYED,
                label=pgettext_lazy("how a game ended", "How"),
            )

    def _add_after_time_fields(self, after_time: dict) -> None:
        """The questions of the edition's end of round (`rules.editions.EndOfRound`): the
        turns played after time, who was ahead on Prizes in a game still unfinished, and
        in the top cut who took the next Prize when level."""
        turns = after_time["turns"]
        self.fields["extra_turns"] = forms.IntegerField(
            min_value=0,
            max_value=turns,
            required=False,
            label=_("Turns played after time (%(turns)s in this event's rules)") % {"turns": turns},
        )
        if after_time["prizes"]:
            self.fields["ahead"] = forms.ChoiceField(
                choices=self.AHEAD_CHOICES,
                required=False,
                label=_("A game unfinished after the turns: who was ahead on Prizes?"),
            )
        if after_time["prizes"] and after_time["top_cut"]:
            self.fields["next_prize"] = forms.ChoiceField(
                choices=[c for c in self.AHEAD_CHOICES if c[0] != "level"],
                required=False,
                label=_("Level on Prizes: play continues until a Prize is taken. Who took it?"),
            )

    def after_time_fields(self) -> list:
        return [
            self[name] for name in ("extra_turns", "ahead", "next_prize") if name in self.fields
        ]

    def game_rows(self) -> list[dict]:
        return [
            {"number": i, "outcome": self[f"game_{i}"], "reason": self[f"reason_{i}"]}
            for i in range(1, self.row_count + 1)
        ]

    def side_outcome(self, value: str) -> str:
        return value

    def game(self, value: str, reason: str) -> dict:
        """A row's game for the payload; `<side>_both_ways` is a game both players won at
        once, that side in both ways."""
        if value.endswith("_both_ways"):
            return {**_both_ways(self.side_outcome(value[: -len("_both_ways")])), "reason": reason}
        return {"outcome": self.side_outcome(value), "reason": reason}

    def clean(self):
        data = super().clean()
        games = []
        for i in range(1, self.row_count + 1):
            outcome = data.get(f"game_{i}")
            if outcome:
                games.append(self.game(outcome, data.get(f"reason_{i}") or "played"))
        if not games and not data.get("intentional_draw"):
            raise forms.ValidationError(_("Enter the games in the order they were played."))
        unfinished = [g for g in games if g["outcome"] == "tie"]
        if unfinished and data.get("ahead"):
            unfinished[-1]["ahead"] = self.side_outcome(data["ahead"])
            if data.get("next_prize"):
                unfinished[-1]["next_prize"] = self.side_outcome(data["next_prize"])
        data["games"] = games
        return data

    def payload(self) -> dict:
        payload = {
            "games": self.cleaned_data["games"],
            "at_time": self.cleaned_data["at_time"],
            "intentional_draw": self.cleaned_data["intentional_draw"],
        }
        if self.cleaned_data.get("extra_turns") is not None:
            payload["extra_turns"] = self.cleaned_data["extra_turns"]
        return payload


PLAYER_OUTCOMES = [
    ("me", _("I won")),
    ("opponent", _("My opponent won")),
    ("both_won", _("We both won at once → sudden death next")),
    ("tie", _("Unfinished at time")),
    ("double_loss", _("Double game loss")),
]


def _extra_outcomes(both_ways: bool, draws: bool, won_both_ways: list) -> list:
    """The outcomes a format's rules add: won both ways (1999, 2011), a draw (1996)."""
    extra = list(won_both_ways) if both_ways else []
    if draws:
        extra.append(("draw", _("Draw: in sudden death neither had a Pokémon left (1996)")))
    return extra


class PlayerGamesForm(GamesForm):
    """Game by game, as "I" and "my opponent"."""

    same_for_every_match = True  # unbound: rendered once per process (`games_form_body`)

    AHEAD_CHOICES = [
        ("", "—"),
        ("me", _("I was")),
        ("opponent", _("My opponent was")),
        ("level", pgettext_lazy("level on Prizes", "Level")),
    ]

    def __init__(
        self, *args, side: str, rows: int, both_ways: bool = True, draws: bool = False, **kwargs
    ):
        self.side = side
        choices = PLAYER_OUTCOMES + _extra_outcomes(
            both_ways,
            draws,
            [
                ("me_both_ways", _("We both won, but I won in both ways, my opponent in one")),
                (
                    "opponent_both_ways",
                    _("We both won, but my opponent won in both ways, I in one"),
                ),
            ],
        )
        super().__init__(*args, rows=rows, outcome_choices=choices, **kwargs)

    def side_outcome(self, value: str) -> str:
        return {"me": self.side, "opponent": _other(self.side)}.get(value, value)


class StaffResultForm(GamesForm):
    """Staff enter or correct a result with the players' names, and say why."""

    note = forms.CharField(max_length=200, required=False, label=_("Note (kept in the history)"))

    def __init__(
        self,
        *args,
        names: dict[str, str],
        rows: int,
        both_ways: bool = True,
        draws: bool = False,
        **kwargs,
    ):
        choices = [
            ("a", _("%(player)s won") % {"player": names["a"]}),
            ("b", _("%(player)s won") % {"player": names["b"]}),
            ("both_won", _("Both won at once → sudden death next")),
            ("tie", _("Unfinished at time")),
            ("double_loss", _("Double game loss")),
            *_extra_outcomes(
                both_ways,
                draws,
                [
                    (
                        "a_both_ways",
                        _("Both won, but %(winner)s in both ways, %(other)s in one")
                        % {"winner": names["a"], "other": names["b"]},
                    ),
                    (
                        "b_both_ways",
                        _("Both won, but %(winner)s in both ways, %(other)s in one")
                        % {"winner": names["b"], "other": names["a"]},
                    ),
                ],
            ),
        ]
        self.AHEAD_CHOICES = [
            ("", "—"),
            ("a", names["a"]),
            ("b", names["b"]),
            ("level", pgettext_lazy("level on Prizes", "Level")),
        ]
        super().__init__(*args, rows=rows, outcome_choices=choices, **kwargs)

    @staticmethod
    def initial_from(games, match) -> dict:
        initial = {"at_time": match.ended_at_time, "intentional_draw": match.intentional_draw}
        for i, game in enumerate(games, start=1):
            initial[f"game_{i}"] = game.outcome
            initial[f"reason_{i}"] = game.reason
        return initial


class GridResultForm(forms.Form):
    """Staff's compact entry on the results grid: one quick outcome, or the games of a best
    of 1 or 3 in one select each (a penalty game loss is a game the other player won, with
    `reason: "penalty"`). Sudden death and longer chains are entered on the match page.
    Penalties themselves are issued on a table's judge tools (`floor`), which keep the
    infraction and the player's history and enter a deciding game or match loss themselves;
    the grid's penalty game only records, in a best-of-3 result, a game already lost so."""

    QUICK = [
        ("a", _("A wins")),
        ("b", _("B wins")),
        ("tie", pgettext_lazy("result", "Tie at time")),
        ("id", _("Intentional draw")),
        ("double_loss", _("Double game loss")),
    ]
    GAME_CHOICES = [
        ("", "—"),
        ("a", _("A won")),
        ("b", _("B won")),
        ("penalty_a", _("A: game lost to a penalty")),
        ("penalty_b", _("B: game lost to a penalty")),
        ("tie", _("Unfinished at time")),
        ("double_loss", _("Double game loss")),
    ]
    #: A select's value as a game of the payload.
    GAMES = {
        "a": {"outcome": "a", "reason": "played"},
        "b": {"outcome": "b", "reason": "played"},
        "penalty_a": {"outcome": "b", "reason": "penalty"},
        "penalty_b": {"outcome": "a", "reason": "penalty"},
        "tie": {"outcome": "tie", "reason": "played"},
        "double_loss": {"outcome": "double_loss", "reason": "penalty"},
    }

    quick = forms.ChoiceField(choices=QUICK, required=False)
    at_time = forms.BooleanField(required=False, label=pgettext_lazy("result", "at time"))
    note = forms.CharField(
        max_length=200,
        required=False,
        label=pgettext_lazy("form field", "Note"),
        widget=forms.TextInput(attrs={"placeholder": _("Note (kept in the history)")}),
    )

    def __init__(self, *args, best_of: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.best_of = best_of
        for i in range(1, best_of + 1):
            self.fields[f"game_{i}"] = forms.ChoiceField(
                choices=self.GAME_CHOICES,
                required=False,
                label=pgettext_lazy("game of a match", "Game %(number)s") % {"number": i},
            )

    def game_fields(self):
        return [self[f"game_{i}"] for i in range(1, self.best_of + 1)]

    def clean(self):
        data = super().clean()
        games = [data.get(f"game_{i}") for i in range(1, self.best_of + 1)]
        if not data.get("quick") and not any(games):
            raise forms.ValidationError(_("Pick an outcome, or enter the games."))
        return data

    def payload(self) -> dict:
        """The payload for `matches.services.set_result`. A quick win is 1–0 or 2–0, a
        double game loss ends a best of 3 with three of them."""
        quick = self.cleaned_data.get("quick")
        wins_needed = self.best_of // 2 + 1
        if quick in ("a", "b"):
            games = [{"outcome": quick, "reason": "played"}] * wins_needed
            return {"games": games, "at_time": False, "intentional_draw": False}
        if quick == "tie":
            games = [{"outcome": "tie", "reason": "played"}]
            return {"games": games, "at_time": True, "intentional_draw": False}
        if quick == "id":
            return {"games": [], "at_time": False, "intentional_draw": True}
        if quick == "double_loss":
            games = [dict(self.GAMES["double_loss"])] * self.best_of
            return {"games": games, "at_time": False, "intentional_draw": False}
        games = [
            dict(self.GAMES[value])
            for i in range(1, self.best_of + 1)
            if (value := self.cleaned_data.get(f"game_{i}"))
        ]
        at_time = self.cleaned_data["at_time"] or any(g["outcome"] == "tie" for g in games)
        return {"games": games, "at_time": at_time, "intentional_draw": False}
