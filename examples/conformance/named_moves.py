r"""The map hook for ``main.js --named-moves``: goofspiel moves named "point 7" and "bid 5".

cardtable conformance goofspiel --players 2 \\
        --cmd "node examples/conformance/main.js --named-moves" \\
        --map examples/conformance/named_moves.py:GoofspielNames
"""

from __future__ import annotations

from typing import Any

from cardtable.conformance import Node


class GoofspielNames:
    """Our goofspiel ids are card value - 1; this implementation names the cards instead."""

    def to_impl(self, action: int, node: Node) -> Any:
        """Id -> name: a point card at a chance node, a bid otherwise."""
        return f"{'point' if node.is_chance else 'bid'} {action + 1}"

    def from_impl(self, move: Any, node: Node) -> int:
        """Name -> id.

        Raises:
            ValueError: For a name that is not ``point V`` at a chance node or ``bid V`` elsewhere.
        """
        kind, _, value = str(move).partition(" ")
        if kind != ("point" if node.is_chance else "bid"):
            raise ValueError(f"expected a {'point card' if node.is_chance else 'bid'}")
        return int(value) - 1
