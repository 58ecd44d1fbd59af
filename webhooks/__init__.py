"""Outgoing webhooks: an organiser's URLs that are told, signed, what happens in a league."""
