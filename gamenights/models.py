"""Board-game nights: an `Event` of kind `board_game` (Hasbro's Pokémon Master Trainer and
the like), played at tables of 2 to 6 players with one winner each.

A `Sitting` is one game of the night: everyone present is seated at random
(`rules.gamenights.seat`) at `GameTable`s; a `Seat` is one player at one table. A table's
result is its winner (`Seat.finish == 1`) or, when the event keeps the full finishing
order (a house rule), every seat's `finish`. The night's places go to
`league.EventPlacement` when staff finish it, and from there to the season leaderboard.
Nothing here touches rounds, matches, standings or the top cut.
"""

from django.conf import settings
from django.db import models

from league.models import Event, Registration


class Sitting(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="sittings")
    number = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=80)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="one_sitting_number")
        ]

    def __str__(self) -> str:
        return f"{self.event} game {self.number}"


class GameTable(models.Model):
    sitting = models.ForeignKey(Sitting, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reported_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["sitting_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["sitting", "number"], name="one_table_number")
        ]

    def __str__(self) -> str:
        return f"{self.sitting} table {self.number}"

    @property
    def reported(self) -> bool:
        return self.reported_at is not None


class Seat(models.Model):
    table = models.ForeignKey(GameTable, on_delete=models.CASCADE, related_name="seats")
    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="board_game_seats"
    )
    seat = models.PositiveSmallIntegerField()
    finish = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="1: the winner; 2 and on: the house rule's full order"
    )

    class Meta:
        ordering = ["table_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="one_player_a_seat"),
            models.UniqueConstraint(fields=["table", "registration"], name="one_seat_a_table"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.seat}"
