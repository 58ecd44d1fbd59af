"""Small wording helpers every app's messages share."""


def full_stop(text: str) -> str:
    """`text` ending a sentence: one full stop, never two. A name often ends with one
    already ("Brock H."), so "against Brock H.." becomes "against Brock H."."""
    text = text.rstrip()
    return text if text.endswith((".", "!", "?", "…")) else text + "."
