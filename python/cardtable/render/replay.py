"""Replay viewers: one self-contained HTML file that steps through a whole game.

The file holds every step's picture for the full view and for each seat's view (SVG, compressed
together and inflated by the browser), the log of actions in words and the scores after every
step. It needs no network: open it from disk. Controls: a step slider, first/previous/next/last,
play/pause with a speed, a view selector, and the log (click a line to jump there); the arrow keys
step and the space bar plays. The address keeps the place: ``replay.html#step=12&view=2`` opens at
step 12 in the third view (seat 1's), so a link can point at a moment of the game.
"""

from __future__ import annotations

import base64
import dataclasses
import html
import json
import os
import re
import zlib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardtable._inputs import MAX_SEED, as_int, as_items, check_int, shown, write_whole
from cardtable.errors import (
    CardtableError,
    IllegalActionError,
    InvalidOptionError,
    InvalidStateError,
)
from cardtable.protocols import GameProtocol, StateProtocol
from cardtable.render._common import check_names, drawing, outcome

__all__ = [
    "Frame",
    "Replay",
    "play_game",
    "replay",
    "replay_run_game",
]


@dataclass(frozen=True)
class Frame:
    """One step of a replay.

    Attributes:
        label: What happened to reach this step, in words (``"seat 1 (greedy): play 37"``).
        seen: The same as each seat saw it then, seat 0 first: a move the seat could not see (a
            card played face down) is "a move seat p cannot see", and a chance outcome is
            spelled out only if the seat knows it once the run of chance steps is over (a tide
            card, a point card, a card dealt to that seat; not a card dealt to another seat, even
            the last of the deck), else counted.
        actor: The seat that acted, or ``None`` for the start and for chance.
        scores: The scores after the step.
        views: Index into :attr:`Replay.pictures` per view (full view, then seat 0, 1, ...).
        shown_from: Per seat, the step from which the seat sees this step's move after all (a
            card played face down, from the step that turns it up), or ``None`` (seen at once,
            or never); empty when no seat sees it later.
    """

    label: str
    seen: list[str]
    actor: int | None
    scores: list[int]
    views: list[int]
    shown_from: list[int | None] = field(default_factory=list)


@dataclass(repr=False)
class Replay:
    """A replayed game: its frames, pictures and the HTML viewer.

    Its ``repr`` is one line (the game, its players, steps and how to look at it); a notebook
    shows the viewer itself.

    Attributes:
        game_id: The game.
        players: Number of players.
        options: The game's options.
        names: The name of each seat's player (bot names, or empty).
        history: The game's history (chance outcomes and actions).
        frames: The steps: the start, then one per decision and one per run of chance outcomes.
        pictures: The distinct SVG pictures the frames refer to.
        title: The page title.
        winners: The winning seats, once the history reaches the end of the game (else empty).
        seed: The seed of the run the game was rebuilt from (``SimulationResult.replay``,
            ``cardtable replay``), else ``None``.
        game_number: The game's number in that run, else ``None``.
    """

    game_id: str
    players: int
    options: dict[str, Any]
    names: list[str]
    history: list[int]
    frames: list[Frame] = field(default_factory=list)
    pictures: list[str] = field(default_factory=list)
    title: str = ""
    winners: list[int] = field(default_factory=list)
    seed: int | None = None
    game_number: int | None = None

    def __repr__(self) -> str:
        """One line: game, players, options changed, the run's game, steps, outcome, how to see it.

        Not the pictures: they are the viewer's (``.html``, ``.save(path)``, a notebook cell).
        """
        from cardtable._option_text import changed_options

        players = ", ".join(_who(p, self.names) for p in range(self.players))
        options = changed_options(self.game_id, self.players, self.options)
        source = "" if self.seed is None else f" game {self.game_number} of seed {self.seed},"
        steps = len(self.frames) - 1
        end = (
            f"game over: {outcome(self.winners, self.names)}"
            if self.winners
            else "the game is not over"
        )
        return (
            f"<Replay {self.game_id}: {players}"
            + (f" options={shown(options)}" if options else "")
            + f";{source} {steps} step{'' if steps == 1 else 's'}, {end};"
            " .save('replay.html') writes the viewer, a notebook cell shows it>"
        )

    @property
    def html(self) -> str:
        """The self-contained HTML viewer."""
        return _page(self)

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Writes the HTML viewer to ``path`` and returns the path.

        Raises:
            InvalidOptionError: If ``path`` is not a str or a path.
            OSError: If the file cannot be written (no part of it is left).
        """
        page = self.html.encode("utf-8")
        return Path(write_whole(path, lambda f: f.write(page)))

    def _repr_html_(self) -> str:
        """The viewer inside a notebook cell (an isolated frame)."""
        return (
            f'<iframe srcdoc="{html.escape(self.html, quote=True)}" '
            'style="width:100%;height:760px;border:1px solid #ccc"></iframe>'
        )


def _who(seat: int, names: Sequence[str]) -> str:
    if seat < len(names) and names[seat]:
        return f"seat {seat} ({names[seat]})"
    return f"seat {seat}"


def _check_title(title: object) -> str | None:
    """``title`` if it is None or a str that can be written as UTF-8 (no lone surrogate).

    Raises:
        InvalidOptionError: Otherwise.
    """
    if title is None:
        return None
    if isinstance(title, str):
        try:
            title.encode("utf-8")
        except UnicodeEncodeError:
            pass
        else:
            return title
    raise InvalidOptionError(f"title must be a str (valid UTF-8) or None, got {shown(title)}")


def _build(
    game: GameProtocol, history: Sequence[int], names: Sequence[str], title: str | None
) -> Replay:
    """Replays ``history`` from the start of ``game``, drawing every view after every step.

    ``title`` has passed :func:`_check_title`; an empty one is the game's default.
    """
    module = drawing(game.game_id)
    names = list(names) if names else [""] * game.players
    state = game.new_state()
    twin = _rust_twin(game)
    index: dict[str, int] = {}
    result = Replay(
        game_id=game.game_id,
        players=game.players,
        options=dict(game.options),
        names=names,
        history=list(history),
        title=title or f"{game.game_id}, {game.players} players",
    )

    views: dict[int | None, Any] = {}
    drawn: dict[str, int] = {}  # a view seen before is not drawn again
    # Moves a seat could not see that the game turns up later (cards played face down): (frame,
    # actor, move, seat), until the seat's view no longer hides them.
    turned_up = bool(getattr(module, "COMMITMENTS_TURNED_UP", False))
    face_down: list[tuple[int, int, str, int]] = []

    def picture(seat: int | None) -> int:
        views[seat] = module.view(state, seat)
        key = json.dumps(views[seat], sort_keys=True)
        if key in drawn:
            return drawn[key]
        svg = module.draw(views[seat], names)
        if svg not in index:
            index[svg] = len(result.pictures)
            result.pictures.append(svg)
        drawn[key] = index[svg]
        return index[svg]

    def snap(
        label: str,
        actor: int | None,
        move: str | None = None,
        chances: Sequence[tuple[str, list[bool]]] = (),
    ) -> None:
        shown = [picture(None), *(picture(p) for p in range(game.players))]
        step = len(result.frames)
        seen = []
        for p in range(game.players):
            if chances:
                seen.append(
                    _chance_text([text for text, who in chances if who[p]], len(chances), p)
                )
            elif move is not None and actor is not None and actor != p:
                if module.secret(views[p], actor, move):
                    seen.append(f"{_who(actor, names)}: a move seat {p} cannot see")
                    if turned_up:
                        face_down.append((step, actor, move, p))
                else:
                    seen.append(label)
            else:
                seen.append(label)
        scores = [int(x) for x in state.scores]
        result.frames.append(Frame(label, seen, actor, scores, shown))
        for pending in [f for f in face_down if not module.secret(views[f[3]], f[1], f[2])]:
            # Turned up by this step: the seat sees the move from here on.
            face_down.remove(pending)
            before, _, _, p = pending
            frame = result.frames[before]
            show_from = list(frame.shown_from) or [None] * game.players
            show_from[p] = step
            result.frames[before] = dataclasses.replace(frame, shown_from=show_from)

    snap("start", None)
    i = 0
    while i < len(history):
        if state.is_terminal:
            raise IllegalActionError(f"history goes on after the end of the game at step {i}")
        if state.is_chance_node:
            start, run = (state if twin is None else twin).clone(), []
            while i < len(history) and state.is_chance_node:
                run.append(history[i])
                state.apply(history[i])
                twin = _step_twin(twin, history[i])
                i += 1
            chances = _seen_in_run(start, run, game.players)
            text = _chance_text([text for text, _ in chances], len(chances), None)
            snap(text, None, chances=chances)
        else:
            seat = state.current_player
            label = state.action_label(history[i])
            state.apply(history[i])
            twin = _step_twin(twin, history[i])
            i += 1
            snap(f"{_who(seat, names)}: {label}", seat, label)
    if state.is_terminal and len(result.frames) > 1:
        # The last step ends the game: its log line also says who won.
        result.winners = list(state.winners)
        last = result.frames[-1]
        over = f" · game over: {outcome(result.winners, names)}"
        seen = [line + over for line in last.seen]
        result.frames[-1] = dataclasses.replace(last, label=last.label + over, seen=seen)
    return result


def _rust_twin(game: GameProtocol) -> StateProtocol | None:
    """A Rust state of ``game``'s configuration, for :func:`_seen_in_run` to resample.

    The reference backend has no determinizers: its replays judge what a seat saw on this twin,
    so that both backends' replays agree. ``None`` for a game that is not one of ours (a
    variant, a subclass of our reference game defined elsewhere): its own state is used.
    """
    import cardtable

    if not type(game).__module__.startswith("cardtable."):
        return None
    try:
        return cardtable.make(game.game_id, players=game.players, **dict(game.options)).new_state()
    except CardtableError:
        return None


def _step_twin(twin: StateProtocol | None, action: int) -> StateProtocol | None:
    """The twin after ``action``; ``None`` from the first step its rules refuse (a variant)."""
    if twin is None:
        return None
    try:
        twin.apply(action)
    except CardtableError:
        return None
    return twin


def _seen_in_run(
    start: StateProtocol, run: Sequence[int], players: int
) -> list[tuple[str, list[bool]]]:
    """Each outcome of a run of chance outcomes from ``start``: its label, and who sees it.

    A seat sees an outcome unless some other run it cannot tell from this one, by its
    observation at the run's end, lacks the outcome's label. The other runs tried are the ones
    that put another outcome of the same chance node in its place: a card still in the deck (the
    card's later place, if it is dealt later in the run, taking this one), a face of a die. So
    ``deal 9 to seat 4`` is seen by seat 4, whose hand holds the 9 once the deal is done, and by
    nobody else while another seat's hand could hold the 9 instead; a deck's last card, the only
    outcome left, is hidden like the others; a tide card turned up is seen by all.
    """
    labels, nodes = [], [start.clone()]
    for action in run:
        labels.append(nodes[-1].action_label(action))
        after = nodes[-1].clone()
        after.apply(action)
        nodes.append(after)
    final = [nodes[-1].observation(p) for p in range(players)]
    hidden: list[set[str]] = [set() for _ in range(players)]
    varied: set[str] = set()  # the labels some other run tried lacks
    for k, node in enumerate(nodes[:-1]):
        for other, _ in node.chance_outcomes():
            if other == run[k]:
                continue
            variant = [other, *run[k + 1 :]]
            if other in variant[1:]:  # dealt later in the run: the two outcomes trade places
                variant[variant.index(other, 1)] = run[k]
            replayed = _replay_run(node, variant)
            if replayed is None:
                continue
            end, their_labels = replayed
            missing = Counter(labels[k:]) - Counter(their_labels)
            varied.update(missing)
            for p in range(players):
                if not missing.keys() <= hidden[p] and end.observation(p) == final[p]:
                    hidden[p].update(missing)
    for k, node in enumerate(nodes[:-1]):
        if labels[k] not in varied:  # the only outcome there could be: see _forced_seen_by
            for p in range(players):
                if not _forced_seen_by(node, labels[k], nodes[k + 1].observation(p), p):
                    hidden[p].add(labels[k])
    return [(label, [label not in hidden[p] for p in range(players)]) for label in labels]


FORCED_SAMPLES = 8
"""How many states seat ``p`` cannot tell from a chance node :func:`_forced_seen_by` tries."""


def _forced_seen_by(node: StateProtocol, label: str, seen: object, seat: int) -> bool:
    """Whether ``seat`` sees the outcome ``label`` of a chance node with nothing else in sight.

    That is a node where, as far as the run shows, nothing else could happen (a deck's last
    card, drawn alone). It could have been another card for all the seat knows: the node is
    resampled for the seat (``state.resample``: states the seat cannot tell from it, seeded 0,
    1, ...). The seat sees the outcome unless in one of them another outcome leaves it the same
    observation ``seen`` as this one did (a card drawn into another seat's hand; one drawn into
    its own it sees).
    """
    for seed in range(FORCED_SAMPLES):
        try:
            other = node.resample(seat, seed)
            outcomes = [a for a, _ in other.chance_outcomes()]
        except CardtableError:
            return True  # a game that cannot resample here: as the run shows
        tried = {label}
        for action in outcomes:
            if (text := other.action_label(action)) in tried:
                continue  # one outcome of each label is enough
            tried.add(text)
            after = other.clone()
            after.apply(action)
            if after.observation(seat) == seen:
                return False
    return True


def _replay_run(node: StateProtocol, run: Sequence[int]) -> tuple[StateProtocol, list[str]] | None:
    """``node`` after the chance outcomes ``run``, and their labels.

    ``None`` if one of them is not an outcome where it comes (a card dealt twice).
    """
    state, labels = node.clone(), []
    for action in run:
        if not state.is_chance_node:
            return None
        try:
            labels.append(state.action_label(action))
            state.apply(action)
        except IllegalActionError:
            return None
    return state, labels


def _chance_text(labels: Sequence[str], count: int, seat: int | None) -> str:
    """A run of ``count`` chance outcomes in words, of which seat ``seat`` sees ``labels``.

    ``seat`` None: the full view, which sees them all.

    Examples: ``chance: deal 7 to seat 0``, ``chance, 12 outcomes: deal 1 to seat 0 … deal 60
    to seat 2``, and for a seat that does not see them all, ``chance, 12 outcomes (8 that seat 1
    cannot see): deal 3 to seat 1 … deal 40 to seat 1`` or ``chance: 2 outcomes seat 1 cannot
    see``.
    """
    hidden = count - len(labels)
    if not hidden:
        if count == 1:
            return f"chance: {labels[0]}"
        return f"chance, {count} outcomes: {labels[0]} … {labels[-1]}"
    if not labels:
        return f"chance: {hidden} outcome{'' if hidden == 1 else 's'} seat {seat} cannot see"
    seen = labels[0] if len(labels) == 1 else f"{labels[0]} … {labels[-1]}"
    return f"chance, {count} outcomes ({hidden} that seat {seat} cannot see): {seen}"


def replay(
    source: StateProtocol | Sequence[int],
    game: GameProtocol | None = None,
    *,
    names: Sequence[str] | None = None,
    title: str | None = None,
) -> Replay:
    """A replay viewer of a game, from a state or from a history.

    Args:
        source: A state of either backend (its whole history is replayed), or a history: every
            chance outcome and action from the start, as ``state.history`` gives it: a list, a
            tuple, a 1-d NumPy array or any other iterable of ints in order (a generator too;
            not a str, bytes, a mapping or a set). NumPy integers are ints; bools, floats and
            strings are not.
        game: The game the history belongs to; needed for a history. With a state it is optional
            and must be the state's game (the same game id, players and options; either backend).
        names: The name of each seat's player, shown in the log and the pictures: one str per
            seat.
        title: The page title.

    Returns:
        The replay; ``.save(path)`` writes the HTML file, ``.html`` is its text.

    Raises:
        InvalidOptionError: If a history comes without its game, ``source`` is neither a state
            nor a history (e.g. a str or a state dict), ``game`` is not a game or not the
            state's game, on bad ``names`` or ``title``, or on a game without drawing.
        IllegalActionError: If an item of the history is not an int, or the history is not a
            game of ``game`` (an illegal action or outcome, or steps after the end).
        InvalidStateError: If the state was drawn by ``state.resample`` (or played on from
            one): a sample has no past to replay.

    Examples:
        >>> import cardtable
        >>> state = cardtable.make("goofspiel", players=2, num_cards=3).new_state(seed=1)
        >>> while not state.is_terminal:
        ...     state.apply(state.legal_actions()[0])
        >>> viewer = cardtable.replay(state)
        >>> len(viewer.frames) > 3
        True
    """
    import cardtable

    if game is not None and not isinstance(game, GameProtocol):
        raise InvalidOptionError(f"game must be a game (cardtable.make), got {shown(game)}")
    if hasattr(source, "to_dict") and hasattr(source, "history"):
        state: StateProtocol = source  # type: ignore[assignment]
        d = state.to_dict()
        if game is None:
            game = cardtable.make(d["game"], players=d["players"], **d["options"])
        elif (d["game"], d["players"], d["options"]) != _identity(game):
            raise InvalidOptionError(
                f"the state is a game of {_describe(d['game'], d['players'], d['options'])}, "
                f"not of the given {_describe(*_identity(game))}"
            )
        history = [int(a) for a in state.history]
        _check_leads_to(game, history, d["state"])
    else:
        if game is None:
            raise InvalidOptionError("replay(history) needs the game: replay(history, game)")
        history = _history(source)
    return _build(game, history, check_names(names, game.players) or [], _check_title(title))


def _check_leads_to(game: GameProtocol, history: Sequence[int], state: object) -> None:
    """Checks that ``history`` leads to ``state`` (a state's ``to_dict()["state"]``).

    Raises:
        InvalidStateError: If it does not: the state was drawn by ``resample``, which has no
            past (its history holds only the steps played on from it).
    """
    end = game.new_state()
    try:
        for action in history:
            end.apply(action)
    except CardtableError:  # the steps played on from a sample need not be legal from the start
        pass
    else:
        if end.to_dict()["state"] == state:
            return
    raise InvalidStateError(
        "a state sampled by resample() has no past to replay (its history holds only the "
        "steps played on from it): replay the real state"
    )


def _identity(game: GameProtocol) -> tuple[str, int, dict[str, Any]]:
    return game.game_id, game.players, dict(game.options)


def _describe(game_id: str, players: int, options: Mapping[str, Any]) -> str:
    settings = ", ".join(f"{k}={shown(v)}" for k, v in options.items())
    return f"{game_id} with {players} players ({settings or 'no options'})"


def _history(source: object) -> list[int]:
    """A history as plain ints.

    Raises:
        InvalidOptionError: If ``source`` is not a sequence (a str, a mapping, a set, ...).
        IllegalActionError: If an item is not an int (NumPy integers are).
    """
    items = as_items(source)
    if items is None:
        raise InvalidOptionError(
            "a history is a sequence of ints (actions and chance outcomes), got "
            f"{shown(source):.80}"
        )
    history = []
    for i, item in enumerate(items):
        action = as_int(item)
        if action is None:
            raise IllegalActionError(f"history step {i}: {shown(item)} is not an action (an int)")
        history.append(action)
    return history


def _bot_seed(seed: int, seat: int) -> int:
    from cardtable._rng import derive_seed

    return derive_seed(seed, seat + 1)


def play_game(game: GameProtocol, bots: Sequence[str], seed: int) -> tuple[list[int], list[str]]:
    """Plays one seeded game of built-in bots; returns its history and the bots' names.

    The deal is ``game.new_state(seed=seed)`` and the bot in seat ``p`` is seeded with
    ``derive_seed(seed, p + 1)``: the way a batch run seats the bots of a game with that seed.

    Raises:
        InvalidOptionError: On a wrong number of bots or an unknown bot.
    """
    import cardtable

    if len(bots) != game.players:
        raise InvalidOptionError(f"give {game.players} bots, one per seat, got {len(bots)}")
    state = game.new_state(seed=seed)
    seated = [cardtable.bot(game, name, p, seed=_bot_seed(seed, p)) for p, name in enumerate(bots)]
    while not state.is_terminal:
        state.apply(seated[state.current_player].act(state))
        for b in seated:
            b.observe(state)
    return list(state.history), [b.name for b in seated]


def replay_run_game(
    game_id: str,
    players: int,
    bots: Sequence[str],
    *,
    seed: int,
    game: int,
    options: dict[str, Any] | None = None,
    expected_scores: list[int] | None = None,
    title: str | None = None,
) -> Replay:
    """Rebuilds game ``game`` of ``simulate(game_id, bots=bots, seed=seed, ...)`` as a replay.

    Game ``g`` of a run is ``new_state(seed=derive_seed(seed, g))`` and the bot in seat ``p``
    draws from ``SplitMix64(derive_seed(derive_seed(seed, g), p + 1))`` (docs/rng.md). ``seed``
    and ``game`` are ints in ``0..2**64 - 1`` (NumPy integers too), as for
    :func:`cardtable.simulate`.

    Raises:
        InvalidOptionError: On a bad ``seed``, ``game`` or ``bots``, Python policies, a game the
            per-step bots cannot rebuild, or a rebuilt game that does not end with
            ``expected_scores``.
    """
    import cardtable
    from cardtable._rng import derive_seed

    seed = check_int("seed", seed, 0, MAX_SEED)
    game = check_int("game", game, 0, MAX_SEED)
    title = _check_title(title)  # before the game is played
    if (
        not isinstance(bots, Sequence)
        or isinstance(bots, str)
        or not all(isinstance(name, str) for name in bots)
    ):
        raise InvalidOptionError(
            f"bots must be a list of bot names, one per seat, got {shown(bots)}"
        )
    builtin = {
        b for info in cardtable.games() if info.id == game_id for b in info.bots + info.search_bots
    }
    for name in bots:
        if name.split(":")[0] not in builtin:
            raise InvalidOptionError(
                f"{shown(name)} is not a built-in bot of {shown(game_id)}: only games of built-in "
                "bots can be rebuilt (not Python policies)"
            )
    g = cardtable.make(game_id, players=players, **dict(options or {}))
    if len(bots) != g.players:
        raise InvalidOptionError(f"give {g.players} bots, one per seat, got {len(bots)}")
    game_seed = derive_seed(seed, game)
    state = g.new_state(seed=game_seed)
    seated = [
        cardtable.bot(g, name, p, seed=derive_seed(game_seed, p + 1)) for p, name in enumerate(bots)
    ]
    while not state.is_terminal:
        state.apply(seated[state.current_player].act(state))
        for b in seated:
            b.observe(state)
    if expected_scores is not None and list(state.scores) != expected_scores:
        raise InvalidOptionError(f"game {game} did not replay to the scores of the run")
    default = f"{game_id}: game {game} of seed {seed}"
    rebuilt = _build(g, state.history, list(bots), title or default)
    rebuilt.seed, rebuilt.game_number = seed, game
    return rebuilt


def _payload(r: Replay) -> str:
    # A game whose scores stay hidden until it is over (0 until then) shows no number before.
    hidden = bool(getattr(drawing(r.game_id), "SCORES_HIDDEN", False))
    last = len(r.frames) - 1 if r.winners else len(r.frames)
    data = {
        "pictures": r.pictures,
        "frames": [
            {
                "labels": [f.label, *f.seen],
                "actor": f.actor,
                "scores": None if hidden and i < last else f.scores,
                "views": f.views,
                **({"shownFrom": f.shown_from} if f.shown_from else {}),
            }
            for i, f in enumerate(r.frames)
        ],
    }
    raw = json.dumps(data, separators=(",", ":")).encode("utf-8")
    return base64.b64encode(zlib.compress(raw, 9)).decode("ascii")


_PLACEHOLDER = re.compile(r"__(TITLE|OPTIONS|META|DATA)__")
"""The template's placeholders, all substituted in one pass: a value is never read again, so a
placeholder's text inside one value (a title ``"__META__"``) stays text."""


def _script_json(value: Any) -> str:
    """JSON for the inside of a ``<script>`` element: ``<``, ``>`` and ``&`` as JSON escapes.

    No ``</script>`` or ``<!--`` can then end or change the element, whatever the strings hold.
    """
    text = json.dumps(value)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _page(r: Replay) -> str:
    views = ["full view"] + [f"{_who(p, r.names)}'s view" for p in range(r.players)]
    seats = [_who(p, r.names) for p in range(r.players)]
    options = ", ".join(f"{k}={v}" for k, v in r.options.items()) or "defaults"
    values = {
        "TITLE": html.escape(r.title, quote=True),  # text of <title> and <h1>
        "OPTIONS": html.escape(options, quote=True),  # text of a <p>
        "META": _script_json({"views": views, "seats": seats}),  # a JSON <script>
        "DATA": _payload(r),  # base64
    }
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], _TEMPLATE)


_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>
body { font-family: system-ui, sans-serif; margin: 0; color: #1d2731; background: #f6f7f4; }
header { background: #1d2731; color: #fff; padding: 10px 16px; }
header h1 { font-size: 18px; margin: 0; }
header p { margin: 2px 0 0; font-size: 12px; color: #d8dde2; }
#controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; padding: 10px 16px;
  background: #e6e9e3; position: sticky; top: 0; z-index: 1; }
#controls button { font-size: 14px; min-width: 38px; padding: 4px 8px; cursor: pointer; }
#slider { flex: 1; min-width: 200px; }
#main { display: flex; gap: 16px; padding: 12px 16px; align-items: flex-start; }
#frame { flex: 1; overflow: auto; background: #fff; border: 1px solid #cdd3cc; min-height: 300px; }
#frame svg { display: block; max-width: 100%; height: auto; }
aside { width: 340px; flex-shrink: 0; }
#label { font-weight: bold; margin: 0 0 8px; min-height: 1.3em; }
table { border-collapse: collapse; width: 100%; font-size: 13px; margin-bottom: 10px; }
td, th { border-bottom: 1px solid #d8dcd6; padding: 3px 6px; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
#log { list-style: none; margin: 0; padding: 0; max-height: 520px; overflow-y: auto;
  font-size: 12px; border: 1px solid #cdd3cc; background: #fff; }
#log li { padding: 2px 6px; cursor: pointer; border-bottom: 1px solid #f0f0f0; }
#log li.chance { color: #66707a; }
#log li.current { background: #f3d9a4; }
#status { color: #b3261e; }
</style>
</head>
<body>
<header><h1>__TITLE__</h1><p>options: __OPTIONS__</p></header>
<div id="controls">
  <button id="first" title="first step">|&lt;</button>
  <button id="prev" title="previous step (left arrow)">&lt;</button>
  <button id="play" title="play / pause (space)">play</button>
  <button id="next" title="next step (right arrow)">&gt;</button>
  <button id="last" title="last step">&gt;|</button>
  <input id="slider" type="range" min="0" max="0" value="0" aria-label="step">
  <span id="step">loading…</span>
  <label>speed <select id="speed">
    <option value="1200">slow</option><option value="500" selected>normal</option>
    <option value="150">fast</option></select></label>
  <label>view <select id="view"></select></label>
  <span id="status"></span>
</div>
<div id="main">
  <div id="frame"></div>
  <aside>
    <p id="label"></p>
    <table id="scores"><thead><tr><th>seat</th><th>score</th></tr></thead><tbody></tbody></table>
    <ol id="log"></ol>
  </aside>
</div>
<script id="meta" type="application/json">__META__</script>
<script id="data" type="text/plain">__DATA__</script>
<script>
"use strict";
const meta = JSON.parse(document.getElementById("meta").textContent);
const el = (id) => document.getElementById(id);
let data = null, step = 0, view = 0, timer = null, addressTimer = null, turnedUp = [];

async function inflate(text) {
  const bytes = Uint8Array.from(atob(text.trim()), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return JSON.parse(await new Response(stream).text());
}

function show(n) {
  step = Math.max(0, Math.min(data.frames.length - 1, n));
  const frame = data.frames[step];
  // The place in the address, for a link to it: written once the steps settle (a browser
  // throttles an address changed at every step of a dragged slider), and not where the page
  // cannot change it (shown from a string, as in a notebook).
  clearTimeout(addressTimer);
  addressTimer = setTimeout(() => {
    try {
      history.replaceState(null, "", "#step=" + step + (view ? "&view=" + view : ""));
    } catch (error) { /* no address to write */ }
  }, 150);
  el("frame").innerHTML = data.pictures[frame.views[view]];
  el("slider").value = String(step);
  el("step").textContent = "step " + step + " / " + (data.frames.length - 1);
  el("label").textContent = frame.labels[view];
  const body = el("scores").tBodies[0];
  body.innerHTML = "";
  meta.seats.forEach((name, seat) => {
    const row = body.insertRow();
    row.insertCell().textContent = name;
    const cell = row.insertCell();
    if (frame.scores === null) {  // the game keeps its scores hidden until it is over
      cell.textContent = "hidden";
      cell.title = "the scores are hidden until the end of the game";
    } else {
      cell.textContent = String(frame.scores[seat]);
    }
    cell.className = "num";
  });
  if (view > 0) turnedUp.forEach((i) => { el("log").children[i].textContent = logText(i); });
  const old = el("log").querySelector("li.current");
  if (old) old.classList.remove("current");
  const item = el("log").children[step];
  item.classList.add("current");
  // The log scrolls to the step by itself (scrollIntoView would scroll the page as well).
  const log = el("log"), box = log.getBoundingClientRect(), at = item.getBoundingClientRect();
  if (at.top < box.top) log.scrollTop -= box.top - at.top;
  else if (at.bottom > box.bottom) log.scrollTop += at.bottom - box.bottom;
}

function stop() {
  if (timer !== null) { clearInterval(timer); timer = null; }
  el("play").textContent = "play";
}

function play() {
  if (timer !== null) { stop(); return; }
  if (step >= data.frames.length - 1) show(0);
  el("play").textContent = "pause";
  timer = setInterval(() => {
    if (step >= data.frames.length - 1) { stop(); return; }
    show(step + 1);
  }, Number(el("speed").value));
}

function start() {
  meta.views.forEach((name, i) => {
    const option = document.createElement("option");
    option.value = String(i);
    option.textContent = name;
    el("view").appendChild(option);
  });
  data.frames.forEach((frame, i) => {
    const item = document.createElement("li");
    item.textContent = i + ". " + frame.labels[0];
    if (frame.actor === null) item.className = "chance";
    item.addEventListener("click", () => { stop(); show(i); });
    el("log").appendChild(item);
  });
  el("slider").max = String(data.frames.length - 1);
  el("slider").addEventListener("input", () => { stop(); show(Number(el("slider").value)); });
  el("first").addEventListener("click", () => { stop(); show(0); });
  el("prev").addEventListener("click", () => { stop(); show(step - 1); });
  el("next").addEventListener("click", () => { stop(); show(step + 1); });
  el("last").addEventListener("click", () => { stop(); show(data.frames.length - 1); });
  el("play").addEventListener("click", play);
  el("speed").addEventListener("change", () => { if (timer !== null) { stop(); play(); } });
  el("view").addEventListener("change", () => { setView(Number(el("view").value)); show(step); });
  window.addEventListener("hashchange", () => { stop(); fromAddress(); });
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLSelectElement) return;
    // preventDefault: on the focused slider the key would move it a step more.
    if (event.key === "ArrowRight") { event.preventDefault(); stop(); show(step + 1); }
    else if (event.key === "ArrowLeft") { event.preventDefault(); stop(); show(step - 1); }
    else if (event.key === " ") { event.preventDefault(); play(); }
  });
  fromAddress();
  document.body.dataset.ready = "true";
}

// A log line as the view's seat knows it at the current step: a move it could not see (a card
// played face down) is named from the step that turns it up.
function logText(i) {
  const frame = data.frames[i];
  const from = view > 0 && frame.shownFrom ? frame.shownFrom[view - 1] : null;
  return i + ". " + (from !== null && from <= step ? frame.labels[0] : frame.labels[view]);
}

function setView(v) {
  view = v;
  el("view").value = String(v);
  data.frames.forEach((frame, i) => { el("log").children[i].textContent = logText(i); });
}

function fromAddress() {  // #step=N&view=V (each optional): the place a link points at
  const number = (key) => {
    const found = new RegExp("(?:^#|&)" + key + "=([0-9]+)").exec(location.hash);
    return found ? Number(found[1]) : 0;
  };
  const v = number("view");
  setView(v < meta.views.length ? v : 0);
  show(number("step"));
}

inflate(document.getElementById("data").textContent).then((loaded) => {
  data = loaded;
  turnedUp = data.frames.flatMap((frame, i) => (frame.shownFrom ? [i] : []));
  start();
}).catch((error) => {
  el("status").textContent = "this browser cannot open the replay: " + error;
  throw error;
});
</script>
</body>
</html>
"""
