"""What the generic tests need of each game, declared once per game in its scenario file.

Every registered game has a scenario file ``tests/games/<game_id>.py`` whose module-level ``GAME``
(a :class:`GameTestInfo`) lists its option sets, golden playthroughs, perft case and tensor size,
and what the shared tests ask of the game besides: the rules broken on purpose of the mutation
check (:class:`Mutation`), what a seat must not see in a picture, the players of its drawn games
and what its search bots are expected to achieve. ``tests/configs.py``, ``tests/golden.py``,
``tests/test_tensors.py``, ``tests/mutants.py``, ``tests/test_render.py``, ``tests/drawn_games.py``
and ``tests/test_search.py`` read them from here, so adding a game touches its own files only;
``tests/test_registration.py`` names what a game lacks.

This module imports no scenario file at import (:func:`all_games` loads them on first call), nor
``tests.mutants`` or ``tests.drawn_games`` (which import it): the types of those it names are
imported for the type checker only.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardtable.protocols import StateProtocol
    from tests.drawn_games import Player

SCENARIO_DIR = Path(__file__).parent / "games"


def every_player_count(low: int, high: int) -> list[dict[str, Any]]:
    """The default options at every player count from ``low`` to ``high``."""
    return [{"players": n} for n in range(low, high + 1)]


@dataclass(frozen=True)
class Mutation:
    """One rule broken on purpose (``python -m tests.mutants``).

    Attributes:
        name: A short unique name.
        rule: The rule the mutation breaks, in words.
        find: A snippet found exactly once in the reference tree.
        replace: What replaces it (the snippet changes within one line).
        game: The game id whose tests run (``-k``): that of the scenario file whose
            ``GAME.mutations`` holds it, which ``tests.mutants`` fills in (a scenario file leaves
            it out).
    """

    name: str
    rule: str
    find: str
    replace: str
    game: str = ""


@dataclass(frozen=True)
class Run:
    """A seeded simulation of the shared tests.

    Attributes:
        players: The player count.
        bots: One bot spec per seat, or ``None`` for ``simulate``'s default bots.
        options: The game's options besides ``players``.
    """

    players: int
    bots: list[str] | None = None
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GameTestInfo:
    """The per-game data of the generic tests.

    Attributes:
        configs: Keyword arguments for ``cardtable.make`` (players included) that every generic
            test runs the game with.
        golden: (name, make keyword arguments, seed) of each stored playthrough
            ``tests/golden/<game_id>-<name>.txt``.
        perft: (make keyword arguments, deal seed, reference depth, Rust depth) of the perft case
            in ``tests/data/perft.json``.
        tensor_size: The documented observation tensor size for (players, options), when it
            depends on those alone (``docs/games/<game_id>.md``, "Observation tensor").
        hidden_information: Whether a seat can miss something of the state (hands, face-down
            cards, a deck's order): then its search determinizations must vary. ``False`` for a
            game of perfect information, whose determinizer returns the state itself.
        small: ``make`` keyword arguments of a short whole game, for the picture, replay and
            ``play`` tests (default: the first option set).
        pictures: (name, make keyword arguments, seed, decisions played or ``None`` for the
            whole game) of each golden picture ``tests/golden_svg/<game_id>-<name>-*.svg``
            (default: ``mid`` after 7 decisions and ``end``, of the small game with seed 11);
            ``python -m tests.render_golden --accept`` draws them.
        hidden_cards: What seat ``p`` must not see in a picture of ``state``: (the card ids as
            drawn in ``data-card``, the names never to be written), for the leak test of
            ``tests/test_render.py``. Required when ``hidden_information`` is true (``None``: a
            game of perfect information, which hides nothing).
        drawn_players: The players a drawn game of the differential test may use
            (``tests/drawn_games.py``; ``uniform`` first, so that it shrinks to it), or ``None``
            for ``DEFAULT_PLAYERS`` there (any legal action, or an extreme one).
        strength_games: Games per seat-rotated match of the slow strength test
            ``tests/test_search.py::test_mcts_beats_greedy`` (``mcts`` against the game's
            heuristic bot), where 60 cannot show the gap.
        search_loses_to: Why ``mcts`` is expected to lose to (or tie) the game's heuristic bot,
            say a bot that plays perfectly: the strength test is then a strict xfail with this
            reason, so that the day the search wins the test says so. ``None``: it must win.
        more_iterations_tie: Why 4,000 ``mcts`` iterations are not expected to beat 250 in this
            game (one so small that 250 already play it about as well as it can be played): the
            slow test ``test_more_iterations_beat_fewer`` is then a strict xfail with this reason.
            ``None``: more iterations must win.
        sweep_grid: The option values that the smoke test of every study sweeps
            (``tests/test_analysis.py``), needed only when the game has options but none of them
            is a bool or choice option (default: the first of those, its default and another
            value; no sweep for a game without options).
        readme_image: The README's picture of the game, ``docs/images/<game_id>.png``: (make
            keyword arguments, seed, decisions played by the game's heuristic bots, seat of the
            view); ``python -m tests.render_golden --images`` draws it. ``None``: no picture.
        mutations: The rules of the game broken on purpose for ``python -m tests.mutants``
            (at least one per important rule; ``tests/mutants.py`` gathers them into
            ``MUTATIONS``, each with ``game`` set to this game's id).
        replay_run: The run whose games ``tests/test_analysis.py`` replays decision by decision
            and compares with the simulated ones (default: the small game, the game's heuristic
            bot and random bots in turn).
        saved_run: The run ``tests/test_simulate.py`` saves to Arrow and Parquet and loads back
            (default: the small game with the default bots).
    """

    configs: list[dict[str, Any]]
    golden: list[tuple[str, dict[str, Any], int]]
    perft: tuple[dict[str, Any], int, int, int]
    tensor_size: Callable[[int, dict[str, Any]], int] | None = field(default=None)
    hidden_information: bool = True
    small: dict[str, Any] | None = None
    pictures: list[tuple[str, dict[str, Any], int, int | None]] | None = None
    hidden_cards: Callable[[StateProtocol, int], tuple[set[str], set[str]]] | None = None
    drawn_players: tuple[Player, ...] | None = None
    strength_games: int = 60
    search_loses_to: str | None = None
    more_iterations_tie: str | None = None
    sweep_grid: dict[str, list[Any]] | None = None
    readme_image: tuple[dict[str, Any], int, int, int | None] | None = None
    mutations: tuple[Mutation, ...] = ()
    replay_run: Run | None = None
    saved_run: Run | None = None

    def small_game(self) -> dict[str, Any]:
        """The ``make`` keyword arguments of the short whole game (``small``)."""
        return self.configs[0] if self.small is None else self.small

    def _small_run(self, bots: list[str] | None) -> Run:
        options = dict(self.small_game())
        return Run(options.pop("players"), bots, options)

    def replay_case(self, game_id: str) -> Run:
        """The run of the exact-replay test (``replay_run``, or its default)."""
        if self.replay_run is not None:
            return self.replay_run
        from cardtable.bots import default_bot

        players = self._small_run(None).players
        return self._small_run([(default_bot(game_id), "random")[s % 2] for s in range(players)])

    def saved_case(self) -> Run:
        """The run of the save-and-load test (``saved_run``, or its default)."""
        return self._small_run(None) if self.saved_run is None else self.saved_run

    def picture_cases(self) -> list[tuple[str, dict[str, Any], int, int | None]]:
        """The golden pictures (``pictures``, or the defaults)."""
        if self.pictures is not None:
            return self.pictures
        return [("mid", self.small_game(), 11, 7), ("end", self.small_game(), 11, None)]


def scenario_ids() -> list[str]:
    """The game ids that have a scenario file, sorted."""
    return sorted(p.stem for p in SCENARIO_DIR.glob("*.py") if not p.stem.startswith("_"))


def load(game_id: str) -> GameTestInfo:
    """The ``GAME`` block of ``tests/games/<game_id>.py``."""
    module = importlib.import_module(f"tests.games.{game_id}")
    info = getattr(module, "GAME", None)
    if not isinstance(info, GameTestInfo):
        raise TypeError(f"tests/games/{game_id}.py must define GAME = GameTestInfo(...)")
    return info


@cache
def all_games() -> dict[str, GameTestInfo]:
    """Every game with a scenario file, by game id.

    Loaded on first call, not at import: a scenario file imports this module before its own
    ``GAME`` exists.
    """
    return {game_id: load(game_id) for game_id in scenario_ids()}
