"""manage.py venue_address [--port 8000]: the laptop's addresses on the venue network, each
with a QR code in the terminal, for the phones to reach the site (docs/venue.md)."""

import io
import socket

import segno
from django.core.management.base import BaseCommand


def lan_addresses() -> list[str]:
    """The laptop's IPv4 addresses other than loopback (the route a packet to a public
    address would take first; no packet is sent)."""
    found = []
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed, never sent
        found.append(probe.getsockname()[0])
    except OSError:
        pass
    finally:
        probe.close()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = info[4][0]
            if not address.startswith("127.") and address not in found:
                found.append(address)
    except OSError:
        pass
    return found


class Command(BaseCommand):
    help = "Print the laptop's addresses on the venue network, with a QR code each."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--no-qr", action="store_true")

    def handle(self, *args, **options):
        addresses = lan_addresses()
        if not addresses:
            self.stdout.write("No network address found: is the laptop on the venue's network?")
            return
        for address in addresses:
            url = f"http://{address}:{options['port']}/"
            self.stdout.write(f"Players and staff: {url}")
            if not options["no_qr"]:
                drawn = io.StringIO()
                segno.make(url, error="m").terminal(out=drawn, compact=True)
                self.stdout.write(drawn.getvalue(), ending="")
        self.stdout.write(
            "Print the event's poster from that address (/events/<id>/poster/): its QR code "
            "then opens the laptop's site."
        )
