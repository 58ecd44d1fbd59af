"""Factories of the webhooks app: an endpoint of a league (the tests' receivers run on
127.0.0.1, which `WEBHOOK_ALLOW_PRIVATE_TARGETS` lets through)."""

from __future__ import annotations

import factory

from webhooks import events
from webhooks.models import WebhookEndpoint

from .league import LeagueFactory


class WebhookEndpointFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = WebhookEndpoint

    league = factory.SubFactory(LeagueFactory)
    url = "https://hooks.example.org/endpoint"
    events = factory.LazyFunction(lambda: [name for name, _ in events.EVENTS])
