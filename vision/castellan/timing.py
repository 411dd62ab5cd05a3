"""The time each stage of a reading takes, added up per stage name."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def timed(timings: dict[str, float], stage: str) -> Iterator[None]:
    """Adds the milliseconds the `with` block takes to `timings[stage]`."""
    start = time.perf_counter()
    yield
    timings[stage] = timings.get(stage, 0.0) + (time.perf_counter() - start) * 1000
