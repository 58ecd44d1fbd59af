"""The game and tournament rules as plain Python.

Nothing in this package imports Django, Celery or DRF (an import-linter contract in
pyproject.toml keeps it so). Frozen dataclasses go in, results come out; randomness is
always seeded by the caller. The Django apps (`decks`, `league`, `matches`) call in here.
"""
