"""Counted nouns in text (``1 regret``, ``3 regrets``), for the summaries and the renderers.

A leaf: it imports nothing of the package, so the renderers use it without the studies' extras.
"""

from __future__ import annotations

__all__ = ["plural"]


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 seat assignment``, ``4 seat assignments``; ``nouns`` is an irregular plural.

    Args:
        count: How many.
        noun: The noun for one.
        nouns: The noun for any other count (default: ``noun`` + ``s``), e.g. ``supplies``.

    Returns:
        The count (with thousands separators) and the noun.
    """
    return f"{count:,} " + (noun if count == 1 else nouns or noun + "s")
