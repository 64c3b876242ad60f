"""Pictures of states, replay files and the terminal view of ``cardtable play``.

Everything here is drawn from what the public API shows (``observation(seat)``, or ``to_dict()`` for
the full view), so a state of either backend gives the same picture::

    import cardtable
    from cardtable import render
    state = cardtable.make("turn_the_tide", players=3).new_state(seed=1)
    picture = render.svg(state, seat=0)         # what seat 0 sees, as an SVG document
    cardtable.replay(state).save("game.html")   # a self-contained replay viewer

This layer owns drawing only: one module per game turns a state into a view (plain data) and draws
it, with the shared helpers in ``_common`` and ``_svg``. It must not read private state of either
backend, hold rules, or import the simulation layer (``replay`` names a simulation result by its
shape).
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.protocols import StateProtocol
from cardtable.render._common import View, check_names, check_seat, drawing
from cardtable.render.replay import Replay, replay

__all__ = ["Replay", "drawing", "replay", "svg", "view"]


def view(state: StateProtocol, seat: int | None = None) -> View:
    """The drawing model of a state: seat ``seat``'s view, or the full view for ``None``.

    ``seat`` is an int (NumPy integers too) or ``None``.

    Raises:
        IllegalActionError: On a seat that is not a seat of the game (or not an int).
        InvalidOptionError: On something that is not a state, or a game without a drawing.
    """
    checked = check_seat(state, seat)
    return drawing(str(state.to_dict()["game"])).view(state, checked)


def svg(state: StateProtocol, seat: int | None = None, names: Sequence[str] | None = None) -> str:
    """The picture of a state as an SVG document.

    Args:
        state: A state of either backend.
        seat: Draw only what this seat may see (an int, NumPy integers too); ``None`` draws
            everything (the full view).
        names: Optional names of the seats' players (e.g. bot names), shown beside the seats: a
            list of one str per seat (``""`` for no name), without control characters or lone
            surrogates.

    Returns:
        A standalone SVG document.

    Raises:
        IllegalActionError: On a seat that is not a seat of the game (or not an int).
        InvalidOptionError: On something that is not a state, a game without a drawing, or
            ``names`` that are not one str per seat or hold a control character or a lone
            surrogate.
    """
    checked = check_seat(state, seat)
    labels = check_names(names, len(state.scores))
    module = drawing(str(state.to_dict()["game"]))
    return module.draw(module.view(state, checked), labels)
