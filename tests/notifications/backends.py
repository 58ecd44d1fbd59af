"""E-mail backends for tests: locmem ones that fail like a mail server would."""

import smtplib

from django.core.mail.backends.locmem import EmailBackend as LocmemBackend


class FlakyBackend(LocmemBackend):
    """Raises `SMTPServerDisconnected` on the next `FlakyBackend.failures` sends, then
    delivers to `mail.outbox`. Set `failures` to a large number for a server that is down."""

    failures = 0
    attempts = 0

    def send_messages(self, messages):
        FlakyBackend.attempts += 1
        if FlakyBackend.failures > 0:
            FlakyBackend.failures -= 1
            raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")
        return super().send_messages(messages)


class RejectingBackend(LocmemBackend):
    """Refuses, for good (550), every message to an address in `RejectingBackend.refused`."""

    refused: set[str] = set()

    def send_messages(self, messages):
        for message in messages:
            bad = [address for address in message.to if address in self.refused]
            if bad:
                raise smtplib.SMTPRecipientsRefused(
                    {address: (550, b"5.1.1 No such user") for address in bad}
                )
        return super().send_messages(messages)
