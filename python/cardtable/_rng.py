"""The deterministic RNG shared bit-for-bit with the Rust engine.

SplitMix64 for the stream, Lemire's multiply-and-reject method for :meth:`SplitMix64.below`, and the
weighted pick used by every seeded chance node (see ``docs/rng.md``).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import SupportsIndex

from cardtable._inputs import shown
from cardtable.errors import InvalidOptionError

__all__ = ["SplitMix64", "derive_seed"]

_MASK = (1 << 64) - 1


class SplitMix64:
    """SplitMix64 generator; ``state`` is the whole internal state."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        """Starts the stream at internal state ``seed`` (taken modulo 2**64)."""
        self.state = seed & _MASK

    def next(self) -> int:
        """Returns the next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: SupportsIndex) -> int:
        """Returns a uniform integer in ``0..n-1`` (Lemire's method).

        Raises:
            InvalidOptionError: Unless ``n`` is a whole number from 1 to 2**64 (the draw takes
                one 64-bit output, or more on a rejection).
        """
        try:
            whole = None if isinstance(n, bool) else operator.index(n)
        except TypeError:
            whole = None
        if whole is None or not 0 < whole <= 1 << 64:
            raise InvalidOptionError(
                f"below(n) needs a whole number n in 1..=2**64, got {shown(n)}"
            )
        n = whole
        m = self.next() * n
        low = m & _MASK
        if low < n:
            threshold = ((1 << 64) - n) % n
            while low < threshold:
                m = self.next() * n
                low = m & _MASK
        return m >> 64

    def pick_weighted(self, outcomes: Sequence[tuple[int, int]]) -> int:
        """Picks from ``(outcome, weight)`` pairs in increasing outcome order.

        Draws ``u = below(sum of weights)`` and returns the first outcome whose running sum of
        weights exceeds ``u``.

        Raises:
            InvalidOptionError: If a weight is not a whole number ≥ 0, or their sum is not in
                ``1..=2**64``.
        """
        if any(isinstance(w, bool) or not isinstance(w, int) or w < 0 for _, w in outcomes):
            raise InvalidOptionError(f"weights must be whole numbers >= 0, got {list(outcomes)!r}")
        total = sum(w for _, w in outcomes)
        u = self.below(total)
        running = 0
        for outcome, weight in outcomes:
            running += weight
            if running > u:
                return outcome
        raise AssertionError("unreachable: u < total")


def derive_seed(seed: int, index: int) -> int:
    """Seed of sub-stream ``index`` of ``seed`` (per-game and per-bot seeds of batch runs)."""
    base = SplitMix64(seed).next()
    return SplitMix64(base ^ ((index * 0xD1B54A32D192ED03) & _MASK)).next()
