from django.core.management.base import BaseCommand

from matches.simulation import simulate_event


class Command(BaseCommand):
    help = (
        "Create an event and play it out through the site's services (registrations with "
        "legal sample decks, every round, random results, drops, sudden death, top cut). "
        "Prints timings per round and, as the last line, the new event's id."
    )

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=32)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--best-of", type=int, choices=[1, 3], default=3)
        parser.add_argument("--drop-rate", type=float, default=0.03)
        parser.add_argument("--emails", action="store_true", help="Give players e-mail addresses")

    def handle(self, *args, players, seed, best_of, drop_rate, emails, **options):
        def progress(round_, report):
            self.stderr.write(
                f"round {round_.number} ({round_.stage}): paired in {report.pairing_ms[-1]:.0f} ms, "
                f"results in {report.results_ms[-1]:.0f} ms, closed (standings) in "
                f"{report.round_close_ms[-1]:.0f} ms, rematches {round_.rematches}, "
                f"pair-downs {round_.pair_downs}"
            )

        report = simulate_event(
            players=players,
            seed=seed,
            best_of=best_of,
            drop_rate=drop_rate,
            emails=emails,
            progress=progress,
        )
        swiss = report.pairing_ms
        self.stderr.write(
            f"{report.rounds} rounds; pairing ms: max {max(swiss):.0f}, mean {sum(swiss) / len(swiss):.0f}; "
            f"close+standings ms: max {max(report.round_close_ms):.0f}; rematches {report.rematches}"
        )
        self.stdout.write(str(report.event.pk))
