"""The card database and formats.

A `Card` row stores the fields of `rules.cards.CardRecord` (so the legality engine can be
rebuilt from rows without re-reading JSON) plus the raw upstream record for display.
`Format` is organiser-editable data; `Format.to_spec()` hands the engine a plain
`FormatSpec`. Nothing here knows about events: registrations live in `league`.
"""

from django.core.exceptions import ValidationError
from django.db import models

from rules.cards import CardRecord, FormatSpec
from rules.formats import FormatRules, notes_apart_from_sudden_death
from rules.names import normalise_name


class CardSet(models.Model):
    id = models.CharField(primary_key=True, max_length=40, help_text="Upstream set id, e.g. sv1")
    name = models.CharField(max_length=120)
    series = models.CharField(max_length=120, blank=True)
    ptcgo_code = models.CharField(
        "TCG Live code", max_length=20, blank=True, db_index=True, help_text="e.g. SVI, PR-SV"
    )
    printed_total = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    release_date = models.DateField(null=True, blank=True)
    legalities = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["release_date", "id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.ptcgo_code or self.id})"


class Card(models.Model):
    id = models.CharField(
        primary_key=True, max_length=40, help_text="Upstream card id, e.g. sv1-86"
    )
    card_set = models.ForeignKey(CardSet, on_delete=models.CASCADE, related_name="cards")
    name = models.CharField(max_length=120)
    norm_name = models.CharField(
        "normalised name",
        max_length=120,
        db_index=True,
        help_text="The name the deck rules compare",
    )
    supertype = models.CharField(max_length=20)
    subtypes = models.JSONField(default=list, blank=True)
    set_code = models.CharField(max_length=20, blank=True)
    number = models.CharField(max_length=20)
    regulation_mark = models.CharField(max_length=2, blank=True)
    evolves_from = models.CharField(max_length=120, blank=True)
    legal = models.JSONField(
        default=list, blank=True, help_text="Formats where this printing is Legal"
    )
    banned = models.JSONField(
        default=list, blank=True, help_text="Formats where this printing is Banned"
    )
    text_key = models.CharField(max_length=40, help_text="Hash of the game text, for reprints")
    is_basic_pokemon = models.BooleanField(default=False)
    is_basic_energy = models.BooleanField(default=False)
    is_ace_spec = models.BooleanField("ACE SPEC", default=False)
    is_radiant = models.BooleanField(default=False)
    is_prism_star = models.BooleanField(default=False)
    is_star = models.BooleanField(default=False)
    data = models.JSONField(default=dict, blank=True, help_text="The upstream record as imported")

    class Meta:
        ordering = ["card_set_id", "number"]
        indexes = [models.Index(fields=["set_code", "number"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.set_code or self.card_set_id} {self.number})"

    #: Columns that mirror `CardRecord`; the importer compares and writes exactly these.
    RECORD_FIELDS = (
        "name", "norm_name", "supertype", "subtypes", "set_code", "number", "regulation_mark",
        "evolves_from", "legal", "banned", "text_key", "is_basic_pokemon", "is_basic_energy",
        "is_ace_spec", "is_radiant", "is_prism_star", "is_star",
    )  # fmt: skip

    def to_record(self) -> CardRecord:
        return CardRecord(
            id=self.id,
            set_id=self.card_set_id,
            subtypes=tuple(self.subtypes),
            legal=frozenset(self.legal),
            banned=frozenset(self.banned),
            **{
                f: getattr(self, f)
                for f in self.RECORD_FIELDS
                if f not in {"subtypes", "legal", "banned"}
            },
        )


class PreconDeck(models.Model):
    """A theme or precon deck from the card data: handy sample decks for demos and tests."""

    id = models.CharField(primary_key=True, max_length=40)
    name = models.CharField(max_length=120)
    card_set = models.ForeignKey(CardSet, on_delete=models.CASCADE, related_name="precons")
    cards = models.JSONField(default=list, help_text="[{id, name, count}] as in the data")

    def __str__(self) -> str:
        return self.name

    def as_decklist_text(self) -> str:
        """The deck as `COUNT NAME SETCODE NUMBER` lines, summing duplicate ids."""
        counts: dict[str, int] = {}
        for entry in self.cards:
            counts[entry["id"]] = counts.get(entry["id"], 0) + int(entry["count"])
        cards = Card.objects.in_bulk(list(counts))
        lines = []
        for card_id, count in counts.items():
            card = cards.get(card_id)
            if card is None:
                continue
            lines.append(f"{count} {card.name} {card.set_code or card.card_set_id} {card.number}")
        return "\n".join(lines)


class CardDataVersion(models.Model):
    """One row, given a new random `stamp` by every import that changed something: caches of
    the card index compare against it to know when to rebuild. (A random stamp, not a
    counter, so that two databases, or a rolled-back import, never show the same value for
    different data.)"""

    stamp = models.CharField(max_length=32, default="")
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"card data {self.stamp}"


class Format(models.Model):
    """A deck format organisers can edit in the admin.

    `base` takes a legality column of the card data (Standard, Expanded, Unlimited);
    allowed sets and regulation marks narrow it (a custom format may set only those), and the
    ban lists remove cards by name or by printing. See `rules.cards.FormatSpec`.
    `sets_released_by` adds every set released on or before that date to the allowed sets
    (the card pool of a year, whatever sets were imported). The rules of building a deck and
    of a game (deck size, Prize cards, Basic Pokémon, copy limit, won both ways, play notes)
    are `rules()`, a `rules.formats.FormatRules`; their defaults are today's rules.
    """

    COPY_EXEMPT_CHOICES = [
        ("basic_energy", "Basic Energy cards"),
        ("energy", "Every Energy card, except the limited Energy below (1996)"),
    ]

    BASES = [("standard", "Standard"), ("expanded", "Expanded"), ("unlimited", "Unlimited")]

    key = models.SlugField(unique=True)
    name = models.CharField(max_length=80)
    updated_at = models.DateTimeField(
        auto_now=True, help_text="Cached rule specs compare against it"
    )
    base = models.CharField(max_length=20, choices=BASES, blank=True)
    allowed_sets = models.ManyToManyField(CardSet, blank=True, related_name="+")
    allowed_marks = models.CharField(
        max_length=40, blank=True, help_text="Regulation marks, comma separated, e.g. G,H,I"
    )
    banned_names = models.TextField(blank=True, help_text="One card name a line")
    banned_prints = models.TextField(
        blank=True, help_text="One printing a line: a card id (sv1-86) or code and number (SVI 86)"
    )
    sets_released_by = models.DateField(
        null=True, blank=True, help_text="Also allow every set released on or before this date"
    )
    basic_energy_types = models.CharField(
        max_length=120,
        blank=True,
        help_text="Comma separated, e.g. Grass,Fire,Water,Lightning,Psychic,Fighting "
        "(empty: every type there was by the newest allowed set)",
    )
    deck_size = models.PositiveSmallIntegerField(default=60)
    prizes = models.PositiveSmallIntegerField(
        "Prize cards", default=6, help_text="Prize cards each player sets out in a game"
    )
    require_basic_pokemon = models.BooleanField(
        default=True, help_text="A deck must hold at least one Basic Pokémon"
    )
    copy_limit = models.PositiveSmallIntegerField(
        default=4, help_text="Cards with the same name a deck may hold"
    )
    copy_exempt = models.CharField(
        "exempt from the copy limit",
        max_length=20,
        choices=COPY_EXEMPT_CHOICES,
        default="basic_energy",
    )
    limited_energy = models.TextField(
        blank=True,
        help_text="One Energy card name a line that keeps the copy limit although Energy is "
        "exempt (1996: Double Colorless Energy)",
    )
    win_both_ways = models.BooleanField(
        "won both ways",
        default=True,
        help_text="If you win in both ways and your opponent wins in only one way, you win "
        "(1999 and 2011 rulebooks)",
    )
    play_notes = models.TextField(
        blank=True,
        help_text="One note a line, shown to players: mulligans, setup, the first turn",
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        try:
            self.rules()
        except ValueError as exc:
            raise ValidationError(str(exc)) from exc

    def rules(self) -> FormatRules:
        """The deck-building and game rules of this format."""
        return FormatRules(
            deck_size=self.deck_size,
            prizes=self.prizes,
            require_basic_pokemon=self.require_basic_pokemon,
            copy_limit=self.copy_limit,
            copy_exempt=self.copy_exempt,
            limited_energy=frozenset(
                normalise_name(n.strip()) for n in self.limited_energy.splitlines() if n.strip()
            ),
            win_both_ways=self.win_both_ways,
            play_notes=tuple(n.strip() for n in self.play_notes.splitlines() if n.strip()),
        )

    @property
    def play_note_list(self) -> list[str]:
        return list(self.rules().play_notes)

    @property
    def play_notes_for_an_event(self) -> list[str]:
        """The notes beside an event's own sudden-death sentence (`rules.formats`)."""
        return notes_apart_from_sudden_death(self.rules().play_notes)

    def to_spec(self) -> FormatSpec:
        prints = set()
        for line in self.banned_prints.splitlines():
            line = line.strip()
            if not line:
                continue
            if " " in line:
                code, number = line.rsplit(None, 1)
                prints.update(
                    Card.objects.filter(set_code__iexact=code, number__iexact=number).values_list(
                        "id", flat=True
                    )
                )
            else:
                prints.add(line)
        sets = set(self.allowed_sets.values_list("id", flat=True))
        if self.sets_released_by is not None:
            released = CardSet.objects.filter(release_date__lte=self.sets_released_by)
            # A placeholder keeps the pool closed while no set of those years is imported.
            sets.update(released.values_list("id", flat=True) or ["(none released)"])
        return FormatSpec(
            key=self.key,
            name=self.name,
            base=self.base or None,
            allowed_sets=frozenset(sets),
            allowed_marks=frozenset(
                m.strip().upper() for m in self.allowed_marks.split(",") if m.strip()
            ),
            banned_names=frozenset(
                normalise_name(n.strip()) for n in self.banned_names.splitlines() if n.strip()
            ),
            banned_prints=frozenset(prints),
            basic_energy_types=frozenset(
                t.strip().capitalize() for t in self.basic_energy_types.split(",") if t.strip()
            ),
            rules=self.rules(),
        )
