"""Errors raised by the rules engine.

`RulesError` is a mistake in the caller's input (a bad pairing request, an unknown player):
it carries a stable `code` that the site shows to people and the API returns. Anything else
raised from `rules/` is a bug.
"""


class RulesError(ValueError):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"
