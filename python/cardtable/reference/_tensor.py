"""Building observation tensors from observation dicts (conventions: ``docs/learning.md``).

Every reference game encodes its observation dict segment by segment, in the order its contract's
section "Observation tensor" lists them, with a :class:`TensorBuilder`.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["TensorBuilder"]


class TensorBuilder:
    """Appends the segments of one observation tensor, in order."""

    def __init__(self) -> None:
        """Starts an empty tensor."""
        self.values: list[float] = []

    def one_hot(self, index: int | None, size: int) -> None:
        """``size`` entries, entry ``index`` is 1 (all 0 when ``index`` is None)."""
        segment = [0.0] * size
        if index is not None:
            segment[index] = 1.0
        self.values.extend(segment)

    def multi_hot(self, indices: Iterable[int], size: int) -> None:
        """``size`` entries, 1 at every index in ``indices``."""
        segment = [0.0] * size
        for i in indices:
            segment[i] = 1.0
        self.values.extend(segment)

    def flag(self, value: bool) -> None:
        """One entry, 1 or 0."""
        self.values.append(1.0 if value else 0.0)

    def scaled(self, x: int, d: float) -> None:
        """One entry, ``x / d`` (computed in 64-bit floating point, rounded to float32 later)."""
        self.values.append(x / d)

    def extend(self, segment: Iterable[float]) -> None:
        """A segment built by the caller."""
        self.values.extend(segment)
