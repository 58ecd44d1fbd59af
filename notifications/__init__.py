"""In-site notifications with optional e-mail: the inbox every other app writes into.

Generic on purpose: it knows users, not leagues, decks or matches. Other apps call
`notifications.services.notify` with a kind and one `NotificationItem` per recipient.
"""
