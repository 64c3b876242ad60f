"""Golden SVG pictures: the states they show and the command that regenerates them.

``python -m tests.render_golden --accept`` rewrites ``tests/golden_svg/*.svg`` from the Rust engine
after checking that the reference draws the same; ``tests/test_render.py`` checks both backends
against the stored files, so a change to a picture shows up as a reviewable diff. Without
``--accept`` the command only reports which pictures differ.

``python -m tests.render_golden --images`` redraws the README's pictures (``docs/images/*.png``)
with headless Chromium.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import cardtable
from cardtable import render
from cardtable.protocols import StateProtocol
from tests.game_info import all_games

GOLDEN_SVG_DIR = Path(__file__).parent / "golden_svg"

CASES: list[tuple[str, str, dict[str, Any], int, int | None]] = [
    (f"{game_id}-{name}", game_id, kwargs, seed, steps)
    for game_id, info in all_games().items()
    for name, kwargs, seed, steps in info.picture_cases()
]
"""(case name, game id, make() keywords, seed, decisions to play; None = to the end), from each
game's ``GAME.pictures`` (``tests/games/<game_id>.py``)."""
VIEWS: list[int | None] = [None, 0]


def golden_state(
    game_id: str, kwargs: dict[str, Any], seed: int, steps: int | None, backend: cardtable.Backend
) -> StateProtocol:
    """The seeded state after ``steps`` decisions of a fixed, simple policy (every few legal)."""
    kw = dict(kwargs)
    players = kw.pop("players")
    state = cardtable.make(game_id, players=players, backend=backend, **kw).new_state(seed=seed)
    done = 0
    while not state.is_terminal and (steps is None or done < steps):
        legal = state.legal_actions()
        state.apply(legal[(done * 7 + 3) % len(legal)])
        done += 1
    return state


def path_of(case: str, seat: int | None) -> Path:
    """The file of a case's picture from one view."""
    view = "full" if seat is None else f"seat{seat}"
    return GOLDEN_SVG_DIR / f"{case}-{view}.svg"


def pictures(backend: cardtable.Backend) -> dict[Path, str]:
    """Every golden picture drawn from ``backend``."""
    out = {}
    for case, game_id, kwargs, seed, steps in CASES:
        state = golden_state(game_id, kwargs, seed, steps, backend)
        for seat in VIEWS:
            out[path_of(case, seat)] = render.svg(state, seat) + "\n"
    return out


IMAGES: list[tuple[str, dict[str, Any], int, int, int | None]] = [
    (game_id, *info.readme_image)
    for game_id, info in all_games().items()
    if info.readme_image is not None
]
"""(game id, make() keywords, seed, decisions to play, seat of the view) of the README's pictures:
every game's ``GAME.readme_image``."""
IMAGES_DIR = Path(__file__).parent.parent / "docs" / "images"


def images() -> int:
    """Writes ``docs/images/<game>.png``: a seat's view of a game played by greedy bots."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("headless Chromium is needed (apt-get install chromium)")
        return 1
    IMAGES_DIR.mkdir(parents=True, exist_ok=True)
    for game_id, kwargs, seed, steps, seat in IMAGES:
        kw = dict(kwargs)
        game = cardtable.make(game_id, players=kw.pop("players"), **kw)
        state = game.new_state(seed=seed)
        info = next(g for g in cardtable.games() if g.id == game_id)
        bots = [cardtable.bot(game, info.bots[-1], p, seed=p + 1) for p in range(game.players)]
        for _ in range(steps):
            if state.is_terminal:
                break
            state.apply(bots[state.current_player].act(state))
            for b in bots:
                b.observe(state)
        picture = render.svg(state, seat, names=[b.name for b in bots])
        width = int(picture.split('width="', 1)[1].split('"', 1)[0])
        height = int(picture.split('height="', 1)[1].split('"', 1)[0])
        with tempfile.TemporaryDirectory() as tmp:
            page = Path(tmp) / "picture.html"
            page.write_text(
                "<html><head><meta charset='utf-8'></head>"
                f"<body style='margin:0'>{picture}</body></html>",
                encoding="utf-8",
            )
            out = IMAGES_DIR / f"{game_id}.png"
            subprocess.run(
                [
                    chromium,
                    "--headless=new",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--hide-scrollbars",
                    f"--window-size={width},{height}",
                    f"--screenshot={out}",
                    page.as_uri(),
                ],
                check=True,
                capture_output=True,
            )
        print(f"wrote {out}")
    return 0


def main(argv: list[str]) -> int:
    """Reports differing pictures; with ``--accept`` rewrites them (both backends must agree)."""
    if "--images" in argv:
        return images()
    rust, reference = pictures("rust"), pictures("reference")
    disagree = [p.name for p in rust if rust[p] != reference[p]]
    if disagree:
        print("the backends draw differently:", ", ".join(disagree))
        return 1
    changed = [p for p, text in rust.items() if not p.exists() or p.read_text("utf-8") != text]
    if "--accept" not in argv:
        for p in changed:
            print(f"differs: {p.name}")
        print(f"{len(changed)} of {len(rust)} pictures differ; rerun with --accept to rewrite them")
        return 1 if changed else 0
    GOLDEN_SVG_DIR.mkdir(exist_ok=True)
    for p in changed:
        p.write_text(rust[p], encoding="utf-8")
        print(f"wrote {p.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
