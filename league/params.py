"""One parser for the ids and numbers that arrive as text in query strings, form fields and
paths, for every page and API view (issue 27).

`str.isdigit()` is not the test: it is true of "²" and "٣", which `int()` then refuses or
reads as a number the user never typed. A number here is 1 to `MAX_DIGITS` ASCII digits
within `lo`..`hi`; anything else is None, which each caller turns into its own answer
(a 404, a 400 with a code, or "not given"). NUL characters never get this far: the
middleware `config.limits.RefuseNulMiddleware` answers 400 for one in a path or query.
"""

from __future__ import annotations

MAX_DIGITS = 10
#: The largest id or number the database's integer columns hold.
INT_MAX = 2**31 - 1


def parse_number(text: str | None, *, lo: int = 0, hi: int = INT_MAX) -> int | None:
    """`text` as a whole number in `lo`..`hi`, or None when it is anything else (empty,
    signs, spaces, non-ASCII digits such as "²", too long, out of range)."""
    if not text or len(text) > MAX_DIGITS or not (text.isascii() and text.isdigit()):
        return None
    value = int(text)
    return value if lo <= value <= hi else None


def parse_id(text: str | None) -> int | None:
    """A row's id (1 or more), or None."""
    return parse_number(text, lo=1)
