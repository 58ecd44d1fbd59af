"""Demo data for the quick start, built through the real services."""

from datetime import date, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from decks.models import Format, PreconDeck
from decks.services import ensure_default_formats
from league import services as league_services
from league.models import Event, League, Player, Season, StaffRole
from matches.simulation import create_players, legal_sample_decks, simulate_event

DEMO_PASSWORD = "pokemon-demo"


class Command(BaseCommand):
    help = "Create a demo league with a finished, a running and an upcoming event (idempotent)."

    def handle(self, *args, **options):
        if settings.PRODUCTION:
            # Its accounts have the README's password (issue 17): never on a real site.
            raise CommandError("load_demo refuses to run with DJANGO_ENV=production.")
        if League.objects.filter(slug="pallet-town").exists():
            self.stdout.write("Demo data is already loaded.")
            return
        if not PreconDeck.objects.exists():
            self.stderr.write("Load cards first: python manage.py import_cards decks/sample_data")
            return
        ensure_default_formats()
        User = get_user_model()
        admin, _ = User.objects.get_or_create(
            username="admin", defaults={"is_staff": True, "is_superuser": True}
        )
        admin.set_password(DEMO_PASSWORD)
        admin.save()
        league = League.objects.create(
            name="Pallet Town League",
            slug="pallet-town",
            description="A friendly weekly league: League Challenges, Cups and league nights.",
        )
        league.organisers.add(admin)
        # Floor staff for the whole league (issue 20): a judge and a scorekeeper.
        for username, role in (
            ("jenny", StaffRole.Role.JUDGE),
            ("tracey", StaffRole.Role.SCOREKEEPER),
        ):
            member = User.objects.create_user(username, "", DEMO_PASSWORD)
            StaffRole.objects.create(league=league, user=member, role=role, added_by=admin)
        today = date.today()
        season = Season.objects.create(
            league=league,
            name=f"{today.year} season",
            starts_on=today.replace(month=1, day=1),
            ends_on=today.replace(month=12, day=31),
            junior_from_year=today.year - 11,
            senior_from_year=today.year - 15,
            best_finishes=4,
        )
        import random

        rng = random.Random(7)
        with transaction.atomic():
            named = []
            for username, name in [
                ("ash", "Ash K."),
                ("misty", "Misty W."),
                ("brock", "Brock H."),
                ("may", "May B."),
            ]:
                # No e-mail addresses: the demo fills inboxes but sends no mail.
                user = User.objects.create_user(username, "", DEMO_PASSWORD)
                named.append(
                    Player.objects.create(
                        name=name,
                        player_id=f"DEMO-{username.upper()}",
                        birth_date=date(1995, 5, 5),
                        user=user,
                    )
                )
            others = create_players(12, prefix="demo", rng=rng, emails=False)
        regulars = named + others
        finished = simulate_event(
            players=regulars, seed=11, season=season, staff=admin, name="League Cup", best_of=3
        )
        # The finished cup's lists are public, so its metagame page has something to show.
        league_services.publish_decklists(event=finished.event, by_user=admin)
        running = simulate_event(
            players=regulars[:8],
            seed=12,
            season=season,
            staff=admin,
            name="Friday League Night",
            best_of=1,
            stop_after_round=1,
            report_share=0.5,
        )
        upcoming = Event.objects.create(
            season=season,
            name="League Challenge",
            slug="league-challenge",
            format=Format.objects.get(key="standard"),
            best_of=1,
            starts_at=timezone.now() + timedelta(days=3),
            deck_deadline=timezone.now() + timedelta(days=2),
            capacity=32,
        )
        decks = legal_sample_decks(upcoming.format)
        for player in regulars[:6]:
            reg = league_services.register(event=upcoming, player=player, by_user=admin)
            if player.user and decks:
                league_services.submit_deck(
                    registration=reg, text=rng.choice(decks), by_user=player.user
                )
        self.stdout.write(
            f"Demo league loaded: {finished.event.name} (finished), {running.event.name} (running), "
            f"{upcoming.name} (registration open).\n"
            f"Log in as admin / {DEMO_PASSWORD} (organiser), jenny (judge), tracey (scorekeeper) "
            f"or ash, misty, brock, may / {DEMO_PASSWORD}."
        )
