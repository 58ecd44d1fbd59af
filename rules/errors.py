"""Errors with a stable code.

`DomainError` is a mistake the user can fix (a deck submitted after the deadline, a result
reported twice): it carries a stable `code` that pages show as a message and the API
returns with the same code. `RulesError` is the same thing raised by the rules engine for
bad input. Anything else raised from the services or `rules/` is a bug.
"""


class DomainError(Exception):
    #: HTTP status the API answers with; 409 for a conflict with the current state.
    status = 400

    def __init__(self, code: str, message: str, *, status: int | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        if status is not None:
            self.status = status

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class RulesError(DomainError, ValueError):
    """Bad input to the rules engine (unknown player, duplicate id, malformed request)."""
