"""Pausing the cyclic garbage collector around a big computation.

Pairing and standings allocate many small sets, lists and tuples and make no reference
cycles; on a 4,096-player event a full collection triggered midway costs more than the whole
computation. The collector is restored afterwards, whatever happens.
"""

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
