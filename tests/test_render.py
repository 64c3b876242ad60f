"""Pictures, replays and ``cardtable play``: golden SVGs, no leaks, a real browser, a real terminal.

Golden pictures are regenerated on purpose only: ``python -m tests.render_golden --accept``.
No picture of a seat may show what the seat must not see, which each game that hides anything
declares in ``GAME.hidden_cards`` of its scenario file ``tests/games/<game_id>.py``.
Browser screenshots are kept in ``tests/artifacts/`` (ignored by git) for a person to look at.
"""

from __future__ import annotations

import html
import io
import json
import os
import random
import re
import signal
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

import cardtable
from cardtable import render
from cardtable.cli import main
from cardtable.errors import IllegalActionError, InvalidOptionError
from cardtable.protocols import StateProtocol
from cardtable.render import deep_regrets as deep_regrets_drawing
from cardtable.render._common import data_file, outcome
from cardtable.render._svg import text_width
from cardtable.render.replay import play_game
from cardtable.testing import play_random
from tests.browser import headless_chromium
from tests.command_line import run_cli
from tests.game_info import all_games
from tests.render_checks import strings_in
from tests.render_golden import CASES, VIEWS, golden_state, path_of

ARTIFACTS = Path(__file__).parent / "artifacts"
SVG = "{http://www.w3.org/2000/svg}"

SMALL: dict[str, dict[str, Any]] = {g: info.small_game() for g, info in all_games().items()}
"""Small settings for whole games (play, replay) and for reachable states (leaks), from each
game's ``GAME.small``."""


def make(game_id: str, backend: cardtable.Backend = "rust") -> cardtable.GameProtocol:
    kw = dict(SMALL[game_id])
    return cardtable.make(game_id, players=kw.pop("players"), backend=backend, **kw)


# ----- golden pictures --------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_pictures_match_the_golden_files_from_both_backends(
    case: tuple[str, str, dict[str, Any], int, int | None], backend: cardtable.Backend
) -> None:
    name, game_id, kwargs, seed, steps = case
    state = golden_state(game_id, kwargs, seed, steps, backend)
    if steps is not None:
        # A picture stopped after some decisions must show a game still going: one that ended
        # first would only repeat the end picture (pick a larger game or fewer decisions).
        assert not state.is_terminal, f"{name}: the game ends within {steps} decisions"
    for seat in VIEWS:
        path = path_of(name, seat)
        assert path.exists(), f"missing {path.name}: run python -m tests.render_golden --accept"
        assert render.svg(state, seat) + "\n" == path.read_text("utf-8"), (
            f"{path.name} changed; if on purpose: python -m tests.render_golden --accept"
        )


def test_every_registered_game_has_a_drawing_and_golden_pictures() -> None:
    ids = {g.id for g in cardtable.games()}
    assert ids == set(SMALL)
    assert ids == {c[1] for c in CASES}
    for game_id in ids:
        assert render.drawing(game_id) is not None


def test_pictures_are_valid_svg_and_mark_the_viewer() -> None:
    state = make("turn_the_tide").new_state(seed=3)
    state.apply(state.legal_actions()[0])
    picture = render.svg(state, seat=1, names=["greedy", "", "random"])
    root = ET.fromstring(picture)
    assert root.tag == f"{SVG}svg"
    texts = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "seat 1's view" in texts and "seat 1 · you" in texts and "seat 0 (greedy)" in texts
    with pytest.raises(IllegalActionError):
        render.svg(state, seat=3)
    with pytest.raises(InvalidOptionError):
        render.drawing("chess")


def test_pictures_take_numpy_seats_and_refuse_bad_seats_and_names() -> None:
    state = make("goofspiel").new_state(seed=2)
    assert render.svg(state, np.int64(1)) == render.svg(state, 1)  # type: ignore[arg-type]
    assert render.view(state, np.int32(0)) == render.view(state, 0)  # type: ignore[arg-type]
    assert render.svg(state, 0, names=("a", "b")) == render.svg(state, 0, names=["a", "b"])
    for seat in (True, 1.0, "1", np.bool_(True), -1, 2):
        with pytest.raises(IllegalActionError):
            render.svg(state, seat)  # type: ignore[arg-type]
        with pytest.raises(IllegalActionError):
            render.view(state, seat)  # type: ignore[arg-type]
    for names in (5, "ab", ["a"], ["a", "b", "c"], ["a", 3], {"a": 0, "b": 1}):
        with pytest.raises(InvalidOptionError, match="names"):
            render.svg(state, 0, names=names)  # type: ignore[arg-type]


def test_names_that_svg_or_utf8_cannot_hold_are_refused() -> None:
    """Control characters made SVG that is not XML, a lone surrogate a str UTF-8 cannot encode."""
    state = make("goofspiel").new_state(seed=2)
    for bad in ("\x00\x01", "a\nb", "\x7f", "\x85", "\ud800", "\uffff"):
        with pytest.raises(InvalidOptionError, match=r"names\[0\]"):
            render.svg(state, names=[bad, "a"])
        with pytest.raises(InvalidOptionError, match=r"names\[1\]"):
            cardtable.replay(state, names=["a", bad])
    picture = render.svg(state, names=["é 🂡 <&>", "a"])
    ET.fromstring(picture.encode("utf-8"))


def test_states_of_both_backends_show_themselves_in_jupyter(backend: cardtable.Backend) -> None:
    state = make("goofspiel", backend).new_state(seed=2)
    picture = state._repr_svg_()  # type: ignore[attr-defined]
    assert picture == render.svg(state) and picture.startswith("<svg")


# ----- long rows --------------------------------------------------------------------------------
CHROMIUM_BOLD_10PX = {
    "Hammerhead Shark": 111.6,
    "Hollow Earth Worm": 108.5,
    "Great White Shark": 104.2,
    "Magnapinna Squid": 104.8,
    "Amulet of Agartha": 103.7,
}
"""Widths Chromium lays these names out at in bold 10 px DejaVu Sans, the pictures' first font."""


def test_the_text_width_estimate_is_chromiums() -> None:
    """``text_width`` (the sum of DejaVu Sans advances) is what the checks below measure text by.

    It is within 0.5 px of Chromium's widths (kerning, which it leaves out, only narrows a line);
    a flat 0.62 em per character would call "Hammerhead Shark" 99.2 px, 12 px short.
    """
    for name, width in CHROMIUM_BOLD_10PX.items():
        assert abs(text_width(name, 10, bold=True) - width) <= 0.5, name
    assert text_width("11", 12) == text_width("88", 12) == 2 * 12 * 1303 / 2048
    assert text_width("é", 10) == 10  # outside ASCII: 1 em


def _spilled(picture: str) -> list[str]:
    """The ``<rect>`` and ``<text>`` elements of a picture that reach out of its width.

    A text's extent is its :func:`text_width` (see the test above) placed by its anchor.
    """
    root = ET.fromstring(picture)
    width = float(root.get("width", "0"))
    out = []
    for element in root.iter():
        x = float(element.get("x", "0"))
        if element.tag == f"{SVG}rect":
            left, right = x, x + float(element.get("width", "0"))
        elif element.tag == f"{SVG}text":
            bold = element.get("font-weight") == "bold"
            w = text_width(element.text or "", float(element.get("font-size", "0")), bold=bold)
            shift = {"start": 0.0, "middle": w / 2, "end": w}[element.get("text-anchor", "start")]
            left = x - shift
            right = left + w
        else:
            continue
        if left < 0 or right > width:
            out.append(ET.tostring(element, encoding="unicode"))
    return out


Box = tuple[str, float, float, float, float]
"""A card's ``data-card`` and outline: left, top, right, bottom."""


def _overlapping_cards(picture: str, *, stacks: bool = False) -> list[tuple[str, str]]:
    """The pairs of face-up cards of a picture whose outlines overlap.

    With ``stacks``, cards at the same height may overlap (Trafficars' stacked cards do).
    """
    root = ET.fromstring(picture)
    boxes: list[Box] = []
    for group in root.iter(f"{SVG}g"):
        rect = group.find(f"{SVG}rect")
        if group.get("class") == "card" and rect is not None:
            x, y = float(rect.get("x", "0")), float(rect.get("y", "0"))
            w, h = float(rect.get("width", "0")), float(rect.get("height", "0"))
            boxes.append((str(group.get("data-card")), x, y, x + w, y + h))

    def overlap(a: Box, b: Box) -> bool:
        if stacks and a[2] == b[2]:
            return False
        return a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]

    return [(a[0], b[0]) for i, a in enumerate(boxes) for b in boxes[i + 1 :] if overlap(a, b)]


def _random_game(
    game_id: str, options: dict[str, Any], seed: int, backend: cardtable.Backend
) -> Iterator[StateProtocol]:
    """The states of a seeded game as it is played (one state, yielded after every action), each
    action drawn by ``random.Random(seed)`` from the legal ones."""
    state = cardtable.make(game_id, backend=backend, **options).new_state(seed=seed)
    rng = random.Random(seed)
    yield state
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
        yield state


def assert_every_card_shows(state: StateProtocol, *, stacks: bool = False) -> None:
    """Every view of ``state`` draws all inside the picture's width, no card over another."""
    for seat in (None, *range(len(state.scores))):
        picture = render.svg(state, seat)
        assert not _spilled(picture), (seat, _spilled(picture)[:3])
        assert not _overlapping_cards(picture, stacks=stacks), (seat, _overlapping_cards(picture))


def test_goofspiel_of_60_cards_shows_every_card(backend: cardtable.Backend) -> None:
    """60 cards a hand drew past the 720 px picture (the 17th card on; the 15th lay on the bid)."""
    longest = 0
    for state in _random_game("goofspiel", {"players": 2, "num_cards": 60}, 1, backend):
        assert_every_card_shows(state)
        longest = max(longest, len(state.to_dict()["state"]["bids"]))
    assert longest == 60


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2, "hand_size": 30, "lanes": 1, "max_cars": None, "too_low": "insert"},
        {"players": 2, "hand_size": 30, "lanes": 2, "max_cars": None},
    ],
    ids=["one-lane-insert", "two-lanes"],
)
def test_trafficars_hands_of_30_and_long_lanes_show_every_card(
    options: dict[str, Any], backend: cardtable.Backend
) -> None:
    """A hand of 19 or more cards, or a lane of 15 places or more, drew past the 820 px picture
    (and a hand of 18 ran under the card committed)."""
    most = 0
    for state in _random_game("trafficars", options, 2, backend):
        assert_every_card_shows(state, stacks=True)
        most = max(most, *state.observation(0)["cars"])
    assert most > (16 if options["lanes"] == 1 else 8)


@pytest.mark.parametrize(
    ("options", "seed", "longest"),
    [({"players": 2}, 8, 18), ({"players": 2, "optional_overtake": True}, 38, 16)],
    ids=["overtaking", "optional-overtake"],
)
def test_a_long_overtaking_row_shows_every_card(
    options: dict[str, Any], seed: int, longest: int, backend: cardtable.Backend
) -> None:
    """A row of 17 cards or more drew past the 820 px picture, and the card the overtaker plays
    lay on the 16th card of the row (both reached in these seeded games)."""
    rows = set()
    for state in _random_game("trafficars_overtaking", options, seed, backend):
        assert_every_card_shows(state)
        observed = state.observation(0)
        rows.add((len(observed["row"]), observed["overtake_card"] is not None))
    assert max(rows)[0] == longest
    if options.get("optional_overtake"):
        assert (longest, True) in rows


def test_every_corner_label_stays_inside_its_card() -> None:
    """The traffic jam's "ambulance" label, 7 px from 3 px inside a 40 px card, ran 2 px past
    its right edge: a corner label is now drawn smaller when it would not fit 3 px inside."""
    checked = 0
    for path in sorted(Path("tests/golden_svg").glob("*.svg")):
        root = ET.fromstring(path.read_text(encoding="utf-8"))
        for card in root.iter(f"{SVG}g"):
            outline = card.find(f"{SVG}rect")
            if card.get("class") != "card" or outline is None:
                continue
            left, width = float(outline.get("x", "0")), float(outline.get("width", "0"))
            for text in card.iter(f"{SVG}text"):
                if text.get("x") != f"{left + 3:g}" or text.get("text-anchor"):
                    continue  # not a corner label: those start 3 px inside, anchored at start
                size = float(text.get("font-size", "0"))
                end = left + 3 + text_width(text.text or "", size)
                assert end <= left + width - 3 + 0.05, (path.name, text.text, end)
                checked += 1
    assert checked > 20


def test_every_fish_name_fits_on_its_card() -> None:
    """Names were cut after 17 characters, so that "Hammerhead Shark" (111.6 px in Chromium)
    ran past the 104 px card: now every line of every name is at most the card's width less
    4 px each side by :func:`text_width`, in at most 3 lines, all of its words."""
    fish = [f["name"] for f in data_file("deep_regrets.json")["fish"]]
    state = golden_state("deep_regrets", SMALL["deep_regrets"], 16, 30, "rust")
    view = deep_regrets_drawing.view(state, None)
    view["seats"][0]["hand"] = fish  # every fish drawn in seat 0's hand
    root = ET.fromstring(deep_regrets_drawing.draw(view))
    cards = {
        g.get("data-card"): g
        for g in root.iter(f"{SVG}g")
        if g.get("class") == "card" and g.get("data-card") in fish
    }
    assert set(cards) == set(fish)
    for name, card in cards.items():
        outline = card.find(f"{SVG}rect")
        assert outline is not None
        room = float(outline.get("width", "0")) - 8
        lines = [t for t in card.iter(f"{SVG}text") if t.get("font-weight") == "bold"]
        assert " ".join(t.text or "" for t in lines) == name and 1 <= len(lines) <= 3
        for line in lines:
            size = float(line.get("font-size", "0"))
            assert text_width(line.text or "", size, bold=True) <= room, (name, line.text)


# ----- no leaks ---------------------------------------------------------------------------------
def hidden_cards(state: StateProtocol, p: int) -> tuple[set[str], set[str]]:
    """What seat p must not see: (card ids as drawn in ``data-card``, names never to be written).

    Each game says it in ``GAME.hidden_cards`` of its scenario file; a game of perfect information
    (``hidden_information=False``) hides nothing.
    """
    game = state.to_dict()["game"]
    info = all_games()[game]
    if info.hidden_cards is not None:
        return info.hidden_cards(state, p)
    assert not info.hidden_information, (
        f"say in GAME.hidden_cards of tests/games/{game}.py what a seat of {game} must not see "
        "(or hidden_information=False there, if it hides nothing)"
    )
    return set(), set()


def assert_no_leak(state: StateProtocol, p: int) -> None:
    picture = render.svg(state, p)
    root = ET.fromstring(picture)
    hidden_ids, hidden_names = hidden_cards(state, p)
    shown_ids = {g.get("data-card") for g in root.iter(f"{SVG}g") if g.get("class") == "card"}
    assert not shown_ids & hidden_ids, f"seat {p} sees {shown_ids & hidden_ids}"
    for group in root.iter(f"{SVG}g"):
        if group.get("class") == "card back":  # a face-down card has no face and no identity
            assert group.get("data-card") is None
            assert not [t for t in group.iter(f"{SVG}text") if t.text]
    if hidden_names:
        visible = strings_in(state.observation(p))
        words = " ".join(
            (t.text or "") for t in root.iter() if t.tag in (f"{SVG}text", f"{SVG}title")
        )
        for name in hidden_names:
            if any(name in other for other in visible):
                continue  # a part of a name the seat may see
            assert name not in words, f"seat {p} sees {name!r}"


def _walk(game_id: str, seed: int, choices: list[int]) -> Iterator[StateProtocol]:
    """Seeded states along a path of legal actions chosen by index."""
    state = make(game_id).new_state(seed=seed)
    yield state
    for i, choice in enumerate(choices):
        if state.is_terminal:
            return
        legal = state.legal_actions()
        state.apply(legal[choice % len(legal)])
        if i % 4 == 3:
            yield state
    yield state


@pytest.mark.parametrize("game_id", sorted(SMALL))
def test_no_picture_of_a_seat_shows_a_card_it_must_not_see(game_id: str) -> None:
    length = 120 if game_id == "deep_regrets" else 40

    @given(seed=st.integers(0, 2**32), choices=st.lists(st.integers(0, 400), max_size=length))
    def check(seed: int, choices: list[int]) -> None:
        for state in _walk(game_id, seed, choices):
            for p in range(len(state.scores)):
                assert_no_leak(state, p)

    check()


def test_the_leak_check_catches_a_leak() -> None:
    state = make("trafficars").new_state(seed=4)
    other = state.to_dict()["state"]["hands"][1][0]
    leaky = render.svg(state, 0).replace('data-card="', f'data-card="{other}" data-x="', 1)
    root = ET.fromstring(leaky)
    shown = {g.get("data-card") for g in root.iter(f"{SVG}g") if g.get("class") == "card"}
    assert str(other) in shown & hidden_cards(state, 0)[0]


# ----- replays ----------------------------------------------------------------------------------
def _finished(game_id: str, seed: int) -> StateProtocol:
    """A whole seeded game of uniformly random play.

    A fixed policy (say, every n-th legal action) can play the memory game forever: it may never
    collect a run, and the game ends only when no run is left on the table.
    """
    return play_random(make(game_id).new_state(seed=seed), seed)


@pytest.mark.parametrize("game_id", sorted(set(SMALL) - {"deep_regrets"}))
def test_replay_of_a_state_and_of_its_history_agree(game_id: str) -> None:
    state = _finished(game_id, 5)
    viewer = cardtable.replay(state)
    again = cardtable.replay(state.history, make(game_id, "reference"))
    assert viewer.frames == again.frames and viewer.pictures == again.pictures
    assert viewer.frames[0].label == "start"
    assert viewer.frames[-1].scores == list(state.scores)
    decisions = [f for f in viewer.frames if f.actor is not None]
    assert all(f.label.startswith(f"seat {f.actor}: ") for f in decisions)
    assert all(len(f.views) == len(state.scores) + 1 for f in viewer.frames)
    if game_id in ("turn_the_tide", "trafficars", "goofspiel"):  # cards played face down
        hidden = [f for f in decisions if any("cannot see" in s for s in f.seen)]
        assert hidden and all(f.seen[f.actor] == f.label for f in hidden if f.actor is not None)
    page = viewer.html
    for fetch in ("http://", "https://", "<link", " src="):
        assert fetch not in page  # works offline: nothing to fetch


def _tides_game() -> tuple[StateProtocol, cardtable.Replay]:
    """A finished 3-player round of Turn the Tide (greedy bots) and its replay."""
    state, names = _greedy_game("turn_the_tide", 3, seed=2, rounds=1)
    return state, cardtable.replay(state, names=names)


def test_a_seat_log_spells_out_the_chance_outcomes_its_seat_sees() -> None:
    """Tide cards and point cards are public; a card dealt is seen by its seat only (they were
    all "chance (2 outcomes)" in every seat's log)."""
    _, viewer = _tides_game()
    tides = [f for f in viewer.frames[2:] if f.actor is None]
    assert tides and all(f.label.startswith("chance, 2 outcomes: tide A: ") for f in tides)
    assert all(seen == f.label for f in tides for seen in f.seen)
    goofspiel = cardtable.replay(_finished("goofspiel", 3))
    points = [f for f in goofspiel.frames if f.actor is None and f.label != "start"]
    assert points and all(f.seen == [f.label] * 2 for f in points)
    assert all(re.fullmatch(r"chance: point card \d+", f.label) for f in points)
    # Trafficars' deal: the lane starters are public, each hand its seat's.
    game = cardtable.make("trafficars", players=3, hand_size=2)
    deal = [29, 38, 49, 60, 5, 61, 6, 30, 7]
    frame = cardtable.replay(deal, game).frames[1]
    assert frame.label == "chance, 9 outcomes: lane 0 starts with 29 … deal 7 to seat 2"
    assert frame.seen == [
        "chance, 9 outcomes (4 that seat 0 cannot see): lane 0 starts with 29 … deal 5 to seat 0",
        "chance, 9 outcomes (4 that seat 1 cannot see): lane 0 starts with 29 … deal 6 to seat 1",
        "chance, 9 outcomes (4 that seat 2 cannot see): lane 0 starts with 29 … deal 7 to seat 2",
    ]


def test_a_card_played_face_down_is_named_from_the_step_that_turns_it_up() -> None:
    _, viewer = _tides_game()
    hidden = [
        (i, f, p)
        for i, f in enumerate(viewer.frames)
        for p, line in enumerate(f.seen)
        if line.endswith(f"a move seat {p} cannot see")
    ]
    assert hidden
    for i, frame, p in hidden:
        turned = frame.shown_from[p]
        assert turned is not None and turned > i
        # The step that turns it up shows every card of the hand in that seat's picture.
        card = int(frame.label.rsplit(" ", 1)[1])
        before, after = (
            viewer.pictures[viewer.frames[j].views[p + 1]] for j in (turned - 1, turned)
        )
        assert f'data-card="{card}"' in after and f'data-card="{card}"' not in before
    # Seen at once by the seat that played it and by all after the last card of the hand.
    assert all(
        f.shown_from[f.actor] is None for f in viewer.frames if f.shown_from and f.actor is not None
    )
    assert any(f.actor is not None and not f.shown_from for f in viewer.frames)
    # Games without cards played face down name every move at once.
    memory = cardtable.replay(_finished("trafficars_memory", 2))
    assert not any(f.shown_from for f in memory.frames)


def test_a_replay_prints_as_one_short_line() -> None:
    """``print(result.replay(5))`` printed the whole frames and pictures (about 1 MB)."""
    run = cardtable.simulate(
        "trafficars", players=3, games=6, bots=["greedy", "random", "random"], seed=4,
        progress=False, hand_size=4,
    )  # fmt: skip
    viewer = run.replay(5)
    text = repr(viewer)
    assert str(viewer) == text and len(text) < 400 and "<svg" not in text
    assert text.startswith("<Replay trafficars: seat 0 (greedy), seat 1 (random), seat 2 (random)")
    assert "options={'hand_size': 4}" in text and "game 5 of seed 4," in text
    assert f"{len(viewer.frames) - 1} steps, game over: " in text and ".save(" in text
    assert viewer.seed == 4 and viewer.game_number == 5
    partial = cardtable.replay(viewer.history[:20], make("trafficars"))
    assert "of seed" not in repr(partial) and "the game is not over" in repr(partial)
    assert viewer._repr_html_().startswith("<iframe srcdoc=")  # a notebook shows the viewer


def _page_data(page: str) -> Any:
    """The frames and pictures a replay page carries (base64 of deflated JSON)."""
    import base64
    import zlib

    found = re.search(r'<script id="data" type="text/plain">([^<]*)</script>', page)
    assert found is not None
    return json.loads(zlib.decompress(base64.b64decode(found.group(1))))


def test_a_replay_says_hidden_for_scores_a_game_keeps_hidden_until_its_end() -> None:
    """Deep Regrets' scores are 0 until the game is over: the table read 0 for every seat."""
    state, names = _greedy_game("deep_regrets", 2, seed=0)
    frames = _page_data(cardtable.replay(state, names=names).html)["frames"]
    assert all(f["scores"] is None for f in frames[:-1])
    assert frames[-1]["scores"] == list(state.scores) != [0, 0]
    unfinished = cardtable.replay(state.history[:200], cardtable.make("deep_regrets", players=2))
    assert all(f["scores"] is None for f in _page_data(unfinished.html)["frames"])
    assert "score hidden" in render.svg(
        golden_state("deep_regrets", SMALL["deep_regrets"], 16, 30, "rust"), 0
    )
    assert "score hidden" not in render.svg(state, 0)
    # The scores of the other games are public: numbers at every step.
    tides = _page_data(_tides_game()[1].html)["frames"]
    assert all(isinstance(f["scores"], list) for f in tides)


def test_replay_rejects_a_history_without_its_game_and_a_wrong_history() -> None:
    with pytest.raises(InvalidOptionError):
        cardtable.replay([1, 2, 3])
    with pytest.raises(IllegalActionError):
        cardtable.replay([1, 1, 1, 1, 1], make("goofspiel"))


def test_replay_reads_exact_ints_and_only_the_states_own_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _finished("goofspiel", 3)
    game, history = make("goofspiel"), list(state.history)
    frames = cardtable.replay(state).frames
    assert cardtable.replay(np.array(history), game).frames == frames  # type: ignore[arg-type]
    assert cardtable.replay(tuple(np.int64(a) for a in history), game).frames == frames  # type: ignore[misc]
    assert cardtable.replay(state, make("goofspiel", "reference")).frames == frames
    # A history holds ints: an item that is not one is not an action.
    for bad in ([float(a) for a in history], [None], [*history[:2], "1"], [True], [1.5]):
        with pytest.raises(IllegalActionError, match="step"):
            cardtable.replay(bad, game)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="after the end"):
        cardtable.replay([*history, history[-1]], game)
    # A history is a sequence: a str, a state dict, a number or a set is no history.
    for bad_history in ("012", state.to_dict(), 5, {0, 1}, np.array(3), b"\x00\x01"):
        with pytest.raises(InvalidOptionError, match="history"):
            cardtable.replay(bad_history, game)  # type: ignore[arg-type]
    # A state replays under its own game only.
    others = [
        cardtable.make("goofspiel", players=2, num_cards=4),
        cardtable.make("turn_the_tide", players=3, rounds=1),
    ]
    for other in others:
        with pytest.raises(InvalidOptionError, match="the state is a game of goofspiel"):
            cardtable.replay(state, other)
    for bad_game in ("goofspiel", 5):
        with pytest.raises(InvalidOptionError, match="game must be a game"):
            cardtable.replay(history, bad_game)  # type: ignore[arg-type]
    for names in (5, ["a"], ["a", None]):
        with pytest.raises(InvalidOptionError, match="names"):
            cardtable.replay(state, names=names)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="title"):
        cardtable.replay(state, title=5)  # type: ignore[arg-type]
    # A lone surrogate cannot be written: it used to fail in save() with UnicodeEncodeError.
    with pytest.raises(InvalidOptionError, match="title"):
        cardtable.replay(state, title="\ud800")
    # A run's replay checks its title too (it used to fail only in .html or save()), before it
    # plays the game again.
    run = cardtable.simulate("goofspiel", players=2, games=2, progress=False, num_cards=4)
    played = cardtable.BuiltinBot.act
    with monkeypatch.context() as patch:
        patch.setattr(cardtable.BuiltinBot, "act", lambda *a: pytest.fail("the game was played"))
        for bad_title in (5, 0, "\ud800"):
            with pytest.raises(InvalidOptionError, match="title"):
                run.replay(0, title=bad_title)  # type: ignore[arg-type]
    assert cardtable.BuiltinBot.act is played
    assert run.replay(0, title="").title == "goofspiel: game 0 of seed 0"
    with pytest.raises(InvalidOptionError, match="path"):
        cardtable.replay(state).save(5)  # type: ignore[arg-type]


class _Page(HTMLParser):
    """The elements of a page, the text of its title and h1, and its JSON script."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.texts: dict[str, str] = {}
        self._open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._open.append(f"{tag}#{dict(attrs).get('id', '')}")

    def handle_endtag(self, tag: str) -> None:
        self._open.pop()

    def handle_data(self, data: str) -> None:
        if self._open and self._open[-1] in ("title#", "h1#", "script#meta", "p#"):
            self.texts[self._open[-1]] = self.texts.get(self._open[-1], "") + data


def test_replay_page_shows_names_and_title_as_text_whatever_they_hold() -> None:
    state = _finished("goofspiel", 4)
    names = ["<b id=injected>X</b>", "</script><script>alert(1)</script>"]
    for title in ("__META__", "__DATA__ & __OPTIONS__ <i>", "__TITLE__"):
        page = cardtable.replay(state, names=names, title=title).html
        parsed = _Page()
        parsed.feed(page)
        assert [tag for tag, _ in parsed.tags].count("script") == 3  # meta, data, the viewer
        assert not [attrs for _, attrs in parsed.tags if attrs.get("id") == "injected"]
        assert "<b id=injected>" not in page and "<script>alert" not in page
        assert parsed.texts["title#"] == title and parsed.texts["h1#"] == title
        assert parsed.texts["p#"] == "options: num_cards=5"
        meta = json.loads(parsed.texts["script#meta"])
        assert meta["seats"] == [f"seat {p} ({name})" for p, name in enumerate(names)]


def test_result_replay_rebuilds_a_game_of_a_simulation_exactly() -> None:
    from cardtable._rng import derive_seed

    bots = ["greedy", "random", "greedy"]
    result = cardtable.simulate(
        "turn_the_tide", games=12, players=3, bots=bots, seed=21, progress=False, rounds=1
    )
    assert result.scores is not None
    games = (0, 3, 7)
    # Bot seeds use all 64 bits: some of these games seat a greedy bot with a seed >= 2**63.
    seeds = [derive_seed(derive_seed(21, g), p + 1) for g in games for p in (0, 2)]
    assert max(seeds) >= 2**63
    for g in games:
        viewer = result.replay(g)
        assert viewer.frames[-1].scores == [int(x) for x in result.scores[g]]
        assert viewer.names == bots
    with pytest.raises(InvalidOptionError):
        result.replay(12)


def _greedy_game(
    game_id: str, players: int, seed: int, **options: Any
) -> tuple[StateProtocol, list[str]]:
    """The finished seeded game of greedy bots that ``cardtable replay`` plays, and their names."""
    game = cardtable.make(game_id, players=players, **options)
    history, names = play_game(game, ["greedy"] * players, seed)
    state = game.new_state()
    for action in history:
        state.apply(action)
    return state, names


def test_the_last_step_of_a_replay_says_who_won() -> None:
    state, names = _greedy_game("trafficars", 3, seed=1)
    viewer = cardtable.replay(state, names=names)
    (winner,) = state.winners
    assert viewer.winners == [winner]
    said = f"game over: seat {winner} (greedy) wins"
    assert viewer.frames[-1].label.endswith(said)
    assert all(line.endswith(said) for line in viewer.frames[-1].seen)
    assert not any("game over" in frame.label for frame in viewer.frames[:-1])
    assert outcome([0, 2], ["a", "", "c"]) == "seat 0 (a) and seat 2 (c) share the win"
    assert outcome([1, 2, 3]) == "seat 1, seat 2 and seat 3 share the win"


def test_a_finished_deep_regrets_picture_shows_the_end_scoring_and_the_winner() -> None:
    # Seed 0, two greedy players: seat 1 has the highest Regret Value and loses its best mounted
    # fish ("Every player tied for the highest Regret Value discards their best mounted fish ...
    # with 2 players their worst"), and seat 0 wins.
    state, names = _greedy_game("deep_regrets", 2, seed=0)
    view = deep_regrets_drawing.view(state, 1)
    assert view["winners"] == list(state.winners) == [0]
    lost = view["end"]["discarded"][1]
    assert lost is not None
    svg = deep_regrets_drawing.draw(view, names)
    assert "game over · seat 0 (greedy) wins" in svg
    assert f"lost {html.escape(lost)} (mounted) for the highest Regret Value" in svg
    assert ">winner<" in svg
    text = "\n".join(deep_regrets_drawing.terminal(view, names))
    assert "game over · seat 0 (greedy) wins" in text
    assert f"Regret Value {view['end']['regret_value'][1]}" in text
    unfinished = deep_regrets_drawing.view(
        cardtable.make("deep_regrets", players=2).new_state(seed=0), None
    )
    assert unfinished["winners"] == [] and unfinished["end"] is None


def test_deep_regrets_counts_one_of_a_kind_in_the_singular() -> None:
    """The terminal view of a Deep Regrets seat holding one regret reads "1 regret"."""
    from cardtable._words import plural

    assert [plural(1, "regret"), plural(2, "regret")] == ["1 regret", "2 regrets"]
    assert [plural(1, "supply", "supplies"), plural(0, "supply", "supplies")] == [
        "1 supply",
        "0 supplies",
    ]
    game = cardtable.make("deep_regrets", players=2)
    history, names = play_game(game, ["greedy", "greedy"], 0)
    state = game.new_state()
    for action in history:
        state.apply(action)
        view = deep_regrets_drawing.view(state, None)
        if any(seat["regret_count"] == 1 for seat in view["seats"]):
            break
    else:
        pytest.fail("no seat ever held exactly one regret")
    text = "\n".join(deep_regrets_drawing.terminal(view, names))
    assert " · 1 regret · " in text and "1 regrets" not in text


def test_result_replay_of_a_stopped_run_takes_the_games_it_completed() -> None:
    """A run stopped by Ctrl-C completes games all over its range (each thread its own chunk):
    the games with a length are replayable wherever they stand, the others are refused."""
    import dataclasses

    full = cardtable.simulate(
        "goofspiel", games=6, players=2, seed=9, progress=False, num_cards=4, threads=1
    )
    assert full.lengths is not None and full.scores is not None
    lengths = full.lengths.copy()
    lengths[:3] = 0  # as if the thread of games 0..2 had not finished one
    stopped = dataclasses.replace(full, games_played=3, interrupted=True, lengths=lengths)
    for g in (3, 5):
        assert stopped.replay(g).frames[-1].scores == [int(x) for x in full.scores[g]]
    with pytest.raises(InvalidOptionError, match="game 1 was not completed"):
        stopped.replay(1)
    with pytest.raises(InvalidOptionError, match=r"game must be an int in 0\.\.=5"):
        stopped.replay(6)


def test_result_replay_takes_numpy_game_indices_and_refuses_others() -> None:
    from cardtable.render.replay import replay_run_game

    bots = ["greedy", "random"]
    result = cardtable.simulate(
        "goofspiel", games=3, players=2, bots=bots, seed=5, progress=False, num_cards=4
    )
    assert result.scores is not None
    assert result.replay(np.int64(1)).frames == result.replay(1).frames  # type: ignore[arg-type]
    assert result.replay(np.uint8(2)).frames[-1].scores == [int(x) for x in result.scores[2]]  # type: ignore[arg-type]
    for game in (True, np.bool_(False), 1.5, "1", None, -1, 3, 2**64, np.int64(-1)):
        with pytest.raises(InvalidOptionError, match=r"game must be an int in 0\.\.=2,"):
            result.replay(game)  # type: ignore[arg-type]

    def rebuild(seed: Any, game: Any, names: Any = bots) -> cardtable.Replay:
        return replay_run_game(
            "goofspiel", 2, names, seed=seed, game=game, options={"num_cards": 4}
        )

    assert rebuild(np.uint64(2**64 - 1), np.int64(2)).frames == rebuild(2**64 - 1, 2).frames
    assert rebuild(5, 1).frames == result.replay(1).frames
    for seed, game in ((5, 2**64), (5, -1), (5, 1.0), (5, True), (-1, 0), (2**64, 0), (1.5, 0)):
        with pytest.raises(InvalidOptionError, match=r"(seed|game) must be an int"):
            rebuild(seed, game)
    for names in ("greedy", ["greedy", 3], ["greedy", "nobody"], 5):
        with pytest.raises(InvalidOptionError, match="bot"):
            rebuild(5, 0, names)


def test_replay_command_writes_the_file(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    args = [
        "replay",
        "goofspiel",
        "--seed",
        "3",
        "-b",
        "greedy,random",
        "--option",
        "num_cards=5",
        "--out",
        str(out),
    ]
    output = run_cli(*args)
    assert out.exists() and "final scores" in output
    game = cardtable.make("goofspiel", players=2, num_cards=5)
    state = game.new_state()
    for action in play_game(game, ["greedy", "random"], 3)[0]:
        state.apply(action)
    assert output.rstrip().endswith(outcome(list(state.winners), ["greedy", "random"]))
    run_cli(*args[:-2], "--game", "4", "--out", str(tmp_path / "g4.html"))
    bad = CliRunner().invoke(
        main, ["replay", "goofspiel", "-p", "2", "-b", "greedy", "--out", str(out)]
    )
    assert bad.exit_code != 0 and "2 bots" in bad.output


def test_replay_command_rebuilds_a_game_of_simulate_with_simulates_default_bots(
    tmp_path: Path,
) -> None:
    """``replay --game G`` without ``--bots`` is game G of ``simulate`` without ``--bots``
    (random in every seat), not a game of the heuristic bots a plain replay seats."""
    output = run_cli(
        "replay", "turn_the_tide", "-p", "4", "--seed", "3", "--game", "4",
        "--out", str(tmp_path / "g4.html"),
    )  # fmt: skip
    run = cardtable.simulate("turn_the_tide", players=4, games=5, seed=3, progress=False)
    assert run.scores is not None
    scores = ", ".join(f"seat {p} (random) {int(run.scores[4][p])}" for p in range(4))
    assert f"final scores {scores};" in output
    assert run.lengths is not None
    assert f" ({run.lengths[4]} decisions, the rest chance)" in output  # simulate's length


def test_replay_command_refuses_bad_numbers_and_paths_before_playing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "c.html"
    for bad in (
        ["--game", "-1"],
        ["--game", "99999999999999999999999"],
        ["--seed", "-1"],
        ["--seed", str(2**64)],
        ["-p", "3"],
        # A huge count used to overflow building the default lineup (a traceback).
        ["-p", "99999999999999999999999"],
        ["-p", str(2**63 - 1)],
        # No bot named: used to play the default lineup instead.
        ["-b", ","],
        ["-b", ""],
        ["-b", "greedy,nobody", "--game", "2"],
    ):
        output = run_cli("replay", "goofspiel", *bad, "--out", str(out), exit_code=2)
        assert "Usage:" in output and not out.exists()

    def no_play(*args: Any) -> None:
        raise AssertionError("the game was played before the output was checked")

    monkeypatch.setattr(sys.modules["cardtable.render.replay"], "play_game", no_play)
    missing = tmp_path / "no" / "such" / "c.html"
    output = run_cli("replay", "goofspiel", "--out", str(missing), exit_code=2)
    assert "does not exist" in output and "--out" in output
    monkeypatch.undo()

    def full(self: cardtable.Replay, path: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cardtable.Replay, "save", full)
    result = CliRunner().invoke(main, ["replay", "goofspiel", "--out", str(out)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "No space left on device" in result.output and "Traceback" not in result.output


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from headless_chromium("1300,1000")


@pytest.mark.parametrize("game_id", ["turn_the_tide", "deep_regrets"])
def test_replay_steps_forward_and_back_in_a_browser(
    browser: Any, tmp_path: Path, game_id: str
) -> None:
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait

    game = make(game_id)
    if game_id == "deep_regrets":
        state = golden_state("deep_regrets", SMALL[game_id], 16, 30, "rust")
    else:
        state = _finished(game_id, 8)
    path = cardtable.replay(state, names=[f"bot{q}" for q in range(game.players)]).save(
        tmp_path / "replay.html"
    )
    browser.get(path.as_uri())
    WebDriverWait(browser, 20).until(
        lambda b: b.execute_script("return document.body.dataset.ready") == "true"
    )

    def step() -> str:
        text: str = browser.find_element("id", "step").text
        return text.split("/")[0].replace("step", "").strip()

    def label() -> str:
        text: str = browser.find_element("id", "label").text
        return text

    assert step() == "0" and label() == "start"
    for _ in range(3):
        browser.find_element("id", "next").click()
    assert step() == "3"
    browser.find_element("id", "prev").click()
    assert step() == "2"
    assert browser.find_element("css selector", "#log li.current").text.startswith("2. ")
    browser.find_element("id", "last").click()
    total = int(browser.find_element("id", "slider").get_attribute("max"))
    assert step() == str(total) and total > 5
    ARTIFACTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / f"replay-{game_id}-full.png"))
    Select(browser.find_element("id", "view")).select_by_index(2)  # seat 1's view
    title = browser.execute_script("return document.querySelector('#frame svg title').textContent")
    assert "seat 1's view" in title
    log = browser.find_element("id", "log").text
    if game_id == "turn_the_tide":  # every card played face down has been turned up by the end
        assert "a move seat 1 cannot see" not in log and "seat 0 (bot0): play " in log
    scores = browser.execute_script(
        "return Array.from(document.querySelectorAll('#scores td.num')).map((c) => c.textContent)"
    )
    if game_id == "deep_regrets":  # scores are hidden until the end: no 0 for everyone
        assert scores == ["hidden"] * game.players
    else:
        assert scores == [str(s) for s in state.scores]
    browser.save_screenshot(str(ARTIFACTS / f"replay-{game_id}-seat1.png"))
    browser.find_element("id", "first").click()
    assert step() == "0"
    browser.find_element("id", "speed").send_keys("fast")
    browser.find_element("id", "play").click()
    time.sleep(0.8)
    browser.find_element("id", "play").click()  # pause
    moved = int(step())
    assert moved > 0
    time.sleep(0.4)
    assert int(step()) == moved  # paused
    scores = browser.execute_script(
        "return Array.from(document.querySelectorAll('#scores tbody tr')).length"
    )
    assert scores == game.players
    # The address keeps the place, and a link to a place opens there.
    browser.find_element("id", "first").click()
    for _ in range(2):
        browser.find_element("id", "next").click()
    WebDriverWait(browser, 5).until(
        lambda b: b.execute_script("return location.hash") == "#step=2&view=2"
    )
    # Dragging the slider through every step leaves the address at the last one (written once
    # the steps settle: a browser throttles one written at every step).
    browser.execute_script(
        "const s = document.getElementById('slider');"
        "for (let i = 0; i <= Number(s.max); i++) {"
        "  s.value = String(i); s.dispatchEvent(new Event('input'));"
        "}"
    )
    WebDriverWait(browser, 5).until(
        lambda b: b.execute_script("return location.hash") == f"#step={total}&view=2"
    )
    browser.get(path.as_uri() + "#step=4&view=1")
    WebDriverWait(browser, 20).until(
        lambda b: b.execute_script("return document.body.dataset.ready") == "true"
    )
    assert step() == "4"
    assert (
        Select(browser.find_element("id", "view")).first_selected_option.get_attribute("value")
        == "1"
    )
    assert "seat 0's view" in browser.execute_script(
        "return document.querySelector('#frame svg title').textContent"
    )
    browser.execute_script("location.hash = '#step=1'")
    WebDriverWait(browser, 5).until(lambda b: step() == "1")
    # An arrow key on the focused slider moved two steps: the page's and the slider's own.
    slider = browser.find_element("id", "slider")
    browser.execute_script("arguments[0].focus()", slider)
    slider.send_keys(Keys.ARROW_RIGHT)
    assert step() == "2"
    # A link to the last step scrolled the whole page down to the log's line (in a window too
    # low for the log to show whole).
    browser.get("about:blank")
    browser.set_window_size(1300, 400)
    try:
        browser.get(path.as_uri() + f"#step={total}")
        WebDriverWait(browser, 20).until(
            lambda b: b.execute_script("return document.body.dataset.ready") == "true"
        )
        assert step() == str(total)
        scrolled = browser.execute_script("return [window.scrollY, el('log').scrollTop > 0]")
    finally:
        browser.set_window_size(1300, 1000)
    assert scrolled == [0, True]
    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert errors == []


def test_a_seat_log_in_the_browser_names_a_face_down_card_once_it_is_turned_up(
    browser: Any, tmp_path: Path
) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    _, viewer = _tides_game()
    i, p = next(
        (i, p)
        for i, f in enumerate(viewer.frames)
        for p, line in enumerate(f.seen)
        if line.endswith(f"a move seat {p} cannot see")
    )
    turned = viewer.frames[i].shown_from[p]
    assert turned is not None
    path = viewer.save(tmp_path / "tides.html")
    browser.get(path.as_uri() + f"#step={i}&view={p + 1}")
    WebDriverWait(browser, 20).until(
        lambda b: b.execute_script("return document.body.dataset.ready") == "true"
    )

    def row_at(step: int) -> str:
        text: str = browser.execute_script(
            "show(arguments[0]); return document.getElementById('log').children[arguments[1]]"
            ".textContent",
            step,
            i,
        )
        return text

    hidden, shown = f"{i}. {viewer.frames[i].seen[p]}", f"{i}. {viewer.frames[i].label}"
    assert row_at(i) == hidden and browser.find_element("id", "label").text.endswith("see")
    assert row_at(turned - 1) == hidden  # not yet turned up
    assert row_at(turned) == shown and row_at(len(viewer.frames) - 1) == shown
    assert row_at(turned - 1) == hidden  # back before the reveal: hidden again
    browser.execute_script("setView(0); show(arguments[0])", i)  # the full view knows it
    assert browser.find_element("id", "log").find_elements("tag name", "li")[i].text == shown
    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert errors == []


# ----- play in a terminal -----------------------------------------------------------------------
def play_args(game_id: str) -> list[str]:
    """``cardtable play``'s players and options for the game's small game (``GAME.small``)."""
    options = {k: v for k, v in SMALL[game_id].items() if k != "players"}
    pairs = [arg for k, v in options.items() for arg in ("-o", f"{k}={v}")]
    return ["-p", str(SMALL[game_id]["players"]), *pairs]


@pytest.mark.parametrize("game_id", sorted(SMALL))
def test_play_a_whole_game_in_a_pseudo_terminal(game_id: str) -> None:
    pexpect = pytest.importorskip("pexpect")
    args = ["-m", "cardtable", "play", game_id, *play_args(game_id), "--seed", "5"]
    child = pexpect.spawn(
        sys.executable,
        args,
        encoding="utf-8",
        timeout=120,
        dimensions=(60, 120),
        env={**os.environ, "COLUMNS": "120", "TERM": "xterm"},
    )
    transcript = []
    moves = 0
    ansi = re.compile(r"\x1b\[[0-9;]*m")
    ids = re.compile(r"(?:^|\s{2})\s*(\d+) (?=[A-Za-z])", re.M)
    while True:
        found = child.expect([r"choose: ", pexpect.EOF])
        transcript.append(child.before)
        if found == 1:
            break
        moves += 1
        # The moves are listed under their action ids: the last menu's numbers.
        menu = ansi.sub("", child.before).rsplit("╯", 1)[-1].replace("\r", "")
        listed = [int(a) for a in ids.findall(menu)]
        assert listed, menu
        if moves == 1:  # an empty line, text and a number not listed are refused: ask again
            for wrong in ("", "abc", str(max(listed) + 1000)):
                child.sendline(wrong)
                child.expect(r"choose: ")
                assert wrong == "" or "type the number shown before a move" in child.before
        child.sendline(str(listed[moves % len(listed)]))
        if moves > 400:
            child.terminate(force=True)
            pytest.fail("the game did not end")
    child.close()
    text = "".join(transcript)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"play-{game_id}.txt").write_text(text, encoding="utf-8")
    assert child.exitstatus == 0, text[-2000:]
    assert moves > 0
    assert "final scores" in text and ("You win" in text or "Winner" in text or "share" in text)
    assert "your move" in text
    assert "acted" not in text  # other seats' moves are described in words


def test_ctrl_c_leaves_play_with_the_status_of_a_stopped_run() -> None:
    """Ctrl-C at the prompt ended with click's "Aborted!" and status 1, as the end of the input
    did: it now says the game is left unfinished and exits with 130, as ``simulate`` does."""
    pexpect = pytest.importorskip("pexpect")
    args = ["-m", "cardtable", "play", "goofspiel", "--seed", "1"]
    # SIGINT as a terminal delivers it, even where the test runner ignores it (pytest-xdist's
    # workers do, and a child inherits that).
    child = pexpect.spawn(
        sys.executable,
        args,
        encoding="utf-8",
        timeout=120,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    child.expect(r"choose: ")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130 and "interrupted: the game is left unfinished" in child.before


def test_a_deep_regrets_seat_sees_the_fish_it_peeks_at_while_it_decides() -> None:
    """With the Can of Worms the fish showed only after the choice (leave it on top or put it at
    the bottom): the deciding seat's view now shows it, and no other seat's does."""
    from cardtable.render import deep_regrets as drawing

    game = cardtable.make("deep_regrets", players=2, days=5)
    state = game.new_state(seed=0)
    rng = random.Random(0)
    while not any("Can of Worms" in state.action_label(a) for a in state.legal_actions()):
        legal = state.legal_actions()
        state.apply(state.chance_outcomes()[0][0] if state.is_chance_node else rng.choice(legal))
    worms = next(a for a in state.legal_actions() if "Can of Worms" in state.action_label(a))
    state.apply(worms)
    me = state.current_player
    fish = state.observation(me)["ctx"]["peek"]
    assert fish is not None
    assert drawing.view(state, me)["peek"] == drawing.view(state, None)["peek"] == fish
    assert drawing.view(state, 1 - me)["peek"] is None
    assert f"looking at: {fish}" in "\n".join(drawing.terminal(drawing.view(state, me)))
    assert f"looking at: {html.escape(fish)}" in drawing.draw(drawing.view(state, me))


def test_a_finished_turn_the_tide_picture_names_the_last_hand_played() -> None:
    """It said "round 3, hand 10 · over" after 9 hands, and "hand 13" after a whole round."""
    for seed, hands in ((1, 9), (25, 12)):
        state = cardtable.make("turn_the_tide", players=3).new_state(seed=seed)
        while not state.is_terminal:
            state.apply(state.legal_actions()[0])
        assert state.observation(0)["hand_index"] == hands
        for seat in (None, 0):
            assert f"round 3, hand {hands} · over" in render.svg(state, seat)
    playing = cardtable.make("turn_the_tide", players=3).new_state(seed=1)
    assert "round 1, hand 1 · play" in render.svg(playing, 0)


def test_trafficars_stacks_show_every_card_and_explain_the_x2_badge() -> None:
    """Stacked cards read "to to po" (their corner names cut off by the next card), the cards
    under the top one showed nothing else, and nothing said what the "x2" badge means."""
    game = cardtable.make("trafficars", players=3, hand_size=2)
    state = game.new_state()
    # Tow trucks 60 and 61 both go to lane 0, car 30 goes behind them, the free place stays.
    for action in [29, 38, 49, 60, 5, 61, 6, 30, 7, 60, 61, 30, 100, 100, 100]:
        state.apply(action)
    assert state.observation(0)["lanes"][0] == [[61, 60, 29], [30]]
    assert state.observation(0)["place_cars"][0] == [2, 1]
    for seat in (None, 0):
        root = ET.fromstring(render.svg(state, seat))
        cards = {g.get("data-card"): g for g in root.iter(f"{SVG}g") if g.get("class") == "card"}
        for card, short, title in (("61", "T", "tow truck (61)"), ("60", "T", "tow truck (60)")):
            texts = [t.text for t in cards[card].iter(f"{SVG}text")]
            assert texts == [short]  # the card under another: its short face, whole
            assert cards[card].findtext(f"{SVG}title") == title
        assert [t.text for t in cards["29"].iter(f"{SVG}text")] == ["29"]
        assert cards["29"].findtext(f"{SVG}title") == "car 29"
        badge = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "badge")
        assert "count as 2 cars" in str(badge.findtext(f"{SVG}title"))
        words = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
        assert "x2 = a tow truck and its load that count as 2 cars" in words
    fresh = render.svg(game.new_state(seed=3), None)
    assert "x2 =" not in fresh and 'class="badge"' not in fresh


def test_trafficars_score_tables_say_the_fewest_penalty_cards_win() -> None:
    from cardtable.render.play import play

    game = cardtable.make("trafficars", players=3)
    bots = {q: cardtable.bot(game, "greedy", q, seed=q) for q in (1, 2)}
    console = Console(file=io.StringIO(), width=100, color_system=None, record=True)
    play(game, game.new_state(seed=1), 0, bots, console, lambda legal: legal[0])
    assert "penalty cards (fewest wins)" in console.export_text()


def test_the_terminal_words_read_right() -> None:
    """From a player's round: "stopped and take the run", "lane 0 (1 cars)", and a memory grid
    whose card values read like position numbers without colour."""
    from cardtable.render import trafficars_memory
    from cardtable.render.play import past_tense

    assert past_tense("stop and take the run") == "stopped and took the run"
    assert past_tense("take lane 2") == "took lane 2"
    state = cardtable.make("trafficars_memory", players=3).new_state(seed=5)
    state.apply(24)
    lines = trafficars_memory.terminal(trafficars_memory.view(state, 0))
    console = Console(width=120, color_system=None, record=True, file=io.StringIO())
    for line in lines:
        console.print(line)
    grid = console.export_text()
    value = state.observation(0)["faces"][24]
    assert f"[{value:>2}]" in grid or f"[{value}]" in grid
    assert " 23 " in grid and " 25 " in grid and " 24 " not in grid


@pytest.mark.parametrize("game_id", ["deep_regrets", "trafficars", "turn_the_tide"])
def test_both_backends_write_the_same_replay_page(game_id: str) -> None:
    """The reference listed its options in declaration order and the engine by name, so the
    pages of the same game differed in the order of their options."""
    pages = [
        cardtable.replay(cardtable.make(game_id, players=3, backend=b).new_state(seed=1)).html
        for b in ("rust", "reference")
    ]
    assert pages[0] == pages[1]


def test_a_seat_log_names_its_own_dealt_cards_and_no_card_it_cannot_see() -> None:
    """A seat's log judged each dealt card by the observation right after it: Turn the Tide
    shows a hand once the deal is done, so no seat saw its own cards; a deck's last card, the
    only outcome left, counted as public, so every seat saw it (another seat's card, a face-down
    card of the memory layout). A card is now judged by the observation at the end of the deal,
    against the deals that put another card in its place."""
    five = cardtable.make("turn_the_tide", players=5).new_state(seed=3)
    hands = five.to_dict()["state"]["hands"]
    tide = cardtable.replay(five)
    for p in range(5):
        line = tide.frames[1].seen[p]
        assert line.startswith("chance, 62 outcomes (48 that seat") and f"seat {p} cannot" in line
        assert re.search(rf": deal (\d+) to seat {p} … tide B: \d+$", line), line
        first = int(line.split(": deal ")[1].split(" ")[0])
        assert first in hands[p]
    memory = cardtable.replay(cardtable.make("trafficars_memory", players=2).new_state(seed=3))
    assert memory.frames[1].seen[0] == "chance: 50 outcomes seat 0 cannot see"


def test_a_card_drawn_alone_from_a_one_card_deck_is_seen_by_its_drawer_only() -> None:
    """The last dink of the deck (the only outcome left) was named in every seat's log, though it
    goes to one seat's private dinks."""
    from cardtable.render.replay import _seen_in_run

    game = cardtable.make("deep_regrets", players=5)
    history, _ = play_game(game, ["greedy"] * 5, 2)
    state = game.new_state()
    for action in history[:745]:
        state.apply(action)
    assert state.chance_outcomes() == [(history[745], 1.0)]
    assert _seen_in_run(state, [history[745]], 5) == [
        ("draw Wallet", [False, True, False, False, False])
    ]
    # The reference backend has no determinizers: its replay judges on a Rust twin, and agrees.
    reference = cardtable.make("deep_regrets", players=5, backend="reference")
    ours, theirs = (cardtable.replay(history[:746], g) for g in (game, reference))
    assert ours.frames[-1].seen == theirs.frames[-1].seen
    assert theirs.frames[-1].seen[1] == "chance: draw Wallet"


def test_the_full_view_of_a_finished_turn_the_tide_game_holds_no_old_hand() -> None:
    """After a round of all twelve hands every hand is empty, and the full view showed the
    round-0 deal (kept for the deal's pictures) as the seats' hands: every card twice."""
    for seed in range(40):
        state = play_random(cardtable.make("turn_the_tide", players=3).new_state(seed=seed), seed)
        if not any(state.to_dict()["state"]["hands"]):
            break
    else:
        pytest.fail("no game ended with every hand played")
    full = render.view(state, None)
    assert full["hands"] == [[], [], []]
    assert re.search(r" · over · seat \d wins<", render.svg(state))


def test_a_deep_regrets_card_inside_a_longer_name_is_not_named() -> None:
    """``eat Stye Eel`` was a move other seats could not see, as the Eel (a name inside the Stye
    Eel) was not on the table; the Stye Eel, in the public discard, was."""
    after = {"seat": 0, "discarded": ["Stye Eel"], "hand": ["Eel"]}
    assert not deep_regrets_drawing.secret(after, 1, "eat Stye Eel")
    assert deep_regrets_drawing.secret({"seat": 0, "discarded": []}, 1, "eat Stye Eel")
    assert not deep_regrets_drawing.secret(
        {"seat": 0, "x": ["Hollow Earth Worm"]}, 1, "eat Hollow Earth Worm"
    )


def test_a_long_seat_name_is_cut_before_the_badges() -> None:
    """A bot's spec as a name (``mcts:iterations=5000,c=0.7``) ran under the "to move" badge;
    it is cut short with an ellipsis, the whole label its tooltip."""
    state = cardtable.make("turn_the_tide", players=3).new_state(seed=1)
    while state.is_chance_node:
        state.apply(state.chance_outcomes()[0][0])
    names = ["mcts:iterations=5000,c=0.7", "greedy", "flatmc:samples=16,rollout=greedy"]
    svg = render.svg(state, 0, names)
    assert "<title>seat 0 (mcts:iterations=5000,c=0.7) · you</title>" in svg
    headings = re.findall(r'font-size="13" font-weight="bold" fill="#1d2731">([^<]*)<', svg)
    assert headings[1] == "seat 1 (greedy)"
    assert all(text_width(html.unescape(h), 13, bold=True) <= 180 for h in headings)
    assert headings[0].endswith("…) · you") and headings[2].endswith("…)")


def test_small_render_api_mistakes() -> None:
    with pytest.raises(InvalidOptionError, match="a game id is a str, got 5"):
        render.drawing(5)  # type: ignore[arg-type]
    state = cardtable.make("goofspiel").new_state(seed=1)  # its first point card turned up
    assert "; 1 step, the game is not over" in repr(cardtable.replay(state))
