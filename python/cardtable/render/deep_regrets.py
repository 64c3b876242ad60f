"""Deep Regrets: the 3×3 shoals of the sea, dice, and each fisher's boat, hand, mounts and money."""

from __future__ import annotations

import json
import re
from functools import cache
from html import escape as _escape
from typing import Any

from cardtable._words import plural
from cardtable.protocols import StateProtocol
from cardtable.render._common import (
    View,
    data_file,
    game_view,
    observe,
    outcome,
    pick,
    seat_names,
)
from cardtable.render._svg import ACCENT, BACK, INK, MUTED, PAPER, Svg, text_width, titled

__all__ = ["chapter", "draw", "score_trace", "secret", "terminal", "view"]

SCORE_TRACE = (
    "scores are hidden until the end: the fish each seat holds or has mounted (public "
    "counts), then the final scores"
)
"""What the score trace is (the contract's "Score trace"), in the studies' reports."""


def score_trace(state: StateProtocol) -> list[float]:
    """The public score of every seat: the fish it holds or has mounted, then the final scores.

    The scores stay hidden (0) until the end; ``hand_count`` and ``mounted`` are public.
    """
    if state.is_terminal:
        return [float(s) for s in state.scores]
    obs = state.observation(0)
    return [
        float(held + sum(fish is not None for fish in mounted))
        for held, mounted in zip(obs["hand_count"], obs["mounted"], strict=True)
    ]


DIE_COLOURS = {"P": "#f4efe1", "B": "#8fb8e8", "G": "#9fd59f", "O": "#f3b36b", "M": "#c7a3e8"}
DEPTHS = ["port", "depth I", "depth II", "depth III"]
FISH_W, FISH_H = 104, 58
PRIVATE = ("hand", "regrets", "dinks", "supplies")
SCORES_HIDDEN = True
"""Scores are 0 for every seat until the game is over (contract §8: hands and regrets are hidden,
so no public running score exists): pictures and replays say "hidden" until then."""


@cache
def _fish() -> dict[str, dict[str, Any]]:
    return {f["name"]: f for f in data_file("deep_regrets.json")["fish"]}


@cache
def _all_names() -> tuple[str, ...]:
    data = data_file("deep_regrets.json")
    names = [c["name"] for key in ("fish", "dinks", "supplies", "rods", "reels") for c in data[key]]
    return tuple(sorted(set(names), key=len, reverse=True))


@cache
def _fish_by_id() -> dict[int, str]:
    return {f["id"]: f["name"] for f in data_file("deep_regrets.json")["fish"]}


def view(state: StateProtocol, seat: int | None) -> View:
    """Seat ``seat``'s view (its observation) or the full view.

    The full view is the public observation with every seat's private parts (hand, regrets,
    dinks, supplies) taken from that seat's own observation, and every shoal's top card read from
    ``to_dict()`` (face-down tops marked so).
    """
    o = observe(state, 0 if seat is None else seat)
    n = len(o["money"])
    private: dict[str, list[Any]] = {key: [None] * n for key in PRIVATE}
    shoals = [dict(s, down=None) for s in o["shoals"]]
    if seat is None:
        for q in range(n):
            own = o if q == 0 else observe(state, q)
            for key in PRIVATE:
                private[key][q] = own[key]
        canonical = state.to_dict()["state"]
        names = _fish_by_id()
        for s, cards in enumerate(canonical["shoals"]):
            if cards and not canonical["face_up"][s]:
                shoals[s]["down"] = names[cards[0]]
    else:
        for key in PRIVATE:
            private[key][seat] = o[key]
    return game_view(
        state,
        "deep_regrets",
        seat,
        n,
        **pick(o, "day", "phase", "node", "turn", "actor", "first_player", "life_preserver"),
        shoals=shoals,
        **pick(o, "bag", "decks", "fish_discard"),
        cast=o["ctx"]["cast"],
        # The fish the deciding seat is looking at (Can of Worms, reveal beneath), in its own view
        # and the full one; other seats do not see it.
        peek=_peek(state, seat),
        seats=[
            {
                "money": o["money"][q],
                "depth": o["depth"][q],
                "regret_count": o["regret_count"][q],
                "hand_count": o["hand_count"][q],
                "dink_count": o["dink_count"][q],
                "supply_count": o["supply_count"][q],
                "fresh": o["fresh"][q],
                "spent": o["spent"][q],
                "mounted": o["mounted"][q],
                "cloche": o["cloche"][q],
                "front": o["front"][q],
                "rod": o["rod"][q],
                "reel": o["reel"][q],
                "rods": o["rods"][q],
                "reels": o["reels"][q],
                "worms": o["worms"][q],
                "passed": o["passed"][q],
                "locks": o["locks"][q],
                **{key: private[key][q] for key in PRIVATE},
            }
            for q in range(n)
        ],
        end=o["end"],
    )


def _peek(state: StateProtocol, seat: int | None) -> str | None:
    """The fish the seat deciding looks at, for its own view and the full view (else None)."""
    actor = state.current_player
    if actor < 0 or (seat is not None and seat != actor):
        return None
    peeked: str | None = observe(state, actor)["ctx"]["peek"]
    return peeked


def day_name(day: int) -> str:
    """``Monday`` for day 1, ...; ``day 7`` beyond the data file's week."""
    days: list[str] = data_file("deep_regrets.json")["days"]
    return days[day - 1] if 1 <= day <= len(days) else f"day {day}"


def chapter(v: View) -> str:
    """``day 2 (Tuesday)``."""
    return f"day {v['day']} ({day_name(v['day'])})"


NAME_ROOM = FISH_W - 8
"""How wide a line of a fish's name may be: the card less 4 px each side."""


def _wrap(text: str, size: float) -> list[str]:
    """``text`` in lines of whole words, each at most :data:`NAME_ROOM` wide in bold ``size`` px.

    A word wider than that goes alone on its line.
    """
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(f"{lines[-1]} {word}", size, bold=True) <= NAME_ROOM:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


@cache
def _name_lines(name: str) -> tuple[tuple[str, ...], float]:
    """The lines of a fish's name on its card and their font size.

    10 px where the name fits the card in at most 3 lines, else the largest of 9 and 8 px where
    it does (8 px if none does).
    """
    for size in (10, 9):
        lines = _wrap(name, size)
        if len(lines) <= 3 and all(text_width(x, size, bold=True) <= NAME_ROOM for x in lines):
            return tuple(lines), size
    return tuple(_wrap(name, 8)), 8


def _fish_card(
    svg: Svg,
    x: float,
    y: float,
    name: str,
    *,
    note: str = "",
    fill: str = PAPER,
    highlight: bool = False,
) -> None:
    info = _fish().get(name)
    svg.open(class_="card", data_card=name)
    if info is not None:
        svg.raw(f"<title>{_escape(name + ': ' + info['ability'])}</title>")
    svg.rect(
        x,
        y,
        FISH_W,
        FISH_H,
        rx=5,
        fill=fill,
        stroke=ACCENT if highlight else INK,
        stroke_width=3 if highlight else 1,
    )
    lines, size = _name_lines(name)
    for i, line in enumerate(lines):
        svg.centered(x + FISH_W / 2, y + 17 + i * (size + 2), line, size=size, weight="bold")
    if info is not None:
        corner = f"{'I' * info['depth']} · {info['alignment']} · {info['size']}"
        svg.text(x + 4, y + FISH_H - 5, corner, size=7, fill=MUTED)
        svg.text(x + FISH_W - 4, y + FISH_H - 5, _cost(info), size=8, anchor="end")
    if note:
        svg.centered(x + FISH_W / 2, y + FISH_H + 10, note, size=8, fill=MUTED)
    svg.close()


def _cost(info: dict[str, Any]) -> str:
    value = "?" if info["value"] is None else info["value"]
    difficulty = "-" if info["difficulty"] is None else info["difficulty"]
    return f"${value} d{difficulty}"


def _dice(svg: Svg, x: float, y: float, dice: list[str]) -> float:
    for i, die in enumerate(dice):
        svg.die(x + i * 24, y, die[0], die[1:], DIE_COLOURS.get(die[0], "#dddddd"), size=20)
    return x + len(dice) * 24


def _status(v: View, names: list[str] | None) -> str:
    """``day 3 (Wednesday) · actions · turn · seat 1 to decide``, or who won at the end.

    The winners are the state's (contract §8: the highest score; ties: the lower Regret Value,
    then fewer regret cards, then shared).
    """
    if v["end"] is not None:
        return f"{chapter(v)} · game over · {outcome(v['winners'], names)}"
    status = f"{chapter(v)} · {v['phase']} · {v['node'].replace('_', ' ')}"
    if v["current"] >= 0:
        status += f" · seat {v['current']} to decide"
    return status


def _end_line(v: View, q: int) -> str:
    """Seat ``q``'s end scoring: its Regret Value and any fish lost for the highest one."""
    end = v["end"]
    lost = [
        f"{end[key][q]} ({where})"
        for key, where in (("discarded", "mounted"), ("cloche_discarded", "Cloche"))
        if end[key][q] is not None
    ]
    line = f"Regret Value {end['regret_value'][q]}"
    if lost:  # both fit on the line: "lost X (mounted), Y (Cloche) for the highest ..."
        line += f" · lost {', '.join(lost)} for the highest Regret Value"
    return line


def draw(v: View, names: list[str] | None = None) -> str:
    """The picture of a view."""
    svg, y = titled(v, "Deep Regrets", 940, _status(v, names))
    cast = v["cast"]
    for s, shoal in enumerate(v["shoals"]):
        row, col = divmod(s, 3)
        x = 80 + col * (FISH_W + 24)
        top = y + row * (FISH_H + 30)
        if col == 0:
            svg.text(12, top + 30, DEPTHS[row + 1], size=11, weight="bold", fill="#2f5d8a")
        svg.rect(x - 6, top - 6, FISH_W + 12, FISH_H + 24, rx=6, fill="#cfe0ee")
        lit = cast is not None and cast["shoal"] == s
        if shoal["size"] == 0:
            svg.slot(x, top, w=FISH_W, h=FISH_H, label="empty")
        elif shoal["top"] is not None:
            _fish_card(svg, x, top, shoal["top"], highlight=lit)
        elif shoal["known"] is not None:
            _fish_card(svg, x, top, shoal["known"], fill="#dfe7ef", highlight=lit)
            svg.text(x + 4, top + 8, "face down, known", size=7, fill=MUTED)
        elif shoal["down"] is not None:
            _fish_card(svg, x, top, shoal["down"], fill="#b9c9d9", highlight=lit)
            svg.text(x + 4, top + 8, "face down", size=7, fill=BACK)
        else:
            svg.back(x, top, w=FISH_W, h=FISH_H, highlight=lit)
        svg.centered(
            x + FISH_W / 2,
            top + FISH_H + 13,
            f"shoal {s} · {shoal['size']} left",
            size=8,
            fill=MUTED,
        )
    locked = [f"seat {q}: column {c}" for q, st in enumerate(v["seats"]) for c in st["locks"]]
    side = 80 + 3 * (FISH_W + 24) + 10
    sy = y
    svg.text(side, sy + 10, "dice in the bag", size=11, weight="bold")
    for i, (letter, count) in enumerate(zip("BGO", v["bag"], strict=True)):
        svg.die(side + i * 60, sy + 18, letter, str(count), DIE_COLOURS[letter], size=22)
        svg.text(side + i * 60 + 26, sy + 34, "left", size=9, fill=MUTED)
    sy += 60
    if cast is not None:
        text = f"casting at shoal {cast['shoal']}"
        if cast.get("difficulty") is not None:
            text += f": difficulty {cast['difficulty']}"
        svg.text(side, sy, text, size=11, weight="bold", fill="#b3261e")
        sy += 18
        if cast["payment"]:
            _dice(svg, side, sy - 4, cast["payment"])
            sy += 24
    if v["peek"] is not None:
        svg.text(side, sy, f"looking at: {v['peek']}", size=11, weight="bold", fill="#2f5d8a")
        sy += 18
    decks = v["decks"]
    for label, key in (
        ("regrets", "regret"),
        ("dinks", "dink"),
        ("supplies", "supply"),
        ("rods", "rod"),
        ("reels", "reel"),
    ):
        svg.text(
            side,
            sy + 10,
            f"{label}: {decks[key]} in deck, {decks[key + '_discard']} discarded",
            size=10,
        )
        sy += 15
    svg.text(
        side,
        sy + 10,
        "fish discarded: " + " / ".join(str(len(d)) for d in v["fish_discard"]),
        size=10,
    )
    sy += 15
    holder = v["life_preserver"]
    svg.text(
        side,
        sy + 10,
        "life preserver: " + ("in the supply" if holder is None else f"seat {holder}"),
        size=10,
    )
    sy += 15
    svg.text(side, sy + 10, f"first player: seat {v['first_player']}", size=10)
    sy += 15
    for line in locked:
        svg.text(side, sy + 10, f"locked by {line}", size=10)
        sy += 15
    y = max(y + 3 * (FISH_H + 30), sy) + 8
    for q, st in enumerate(v["seats"]):
        y = _seat(svg, y, q, st, v, names)
    svg.grow(y)
    return svg.render()


def _seat(
    svg: Svg, y: float, q: int, st: dict[str, Any], v: View, names: list[str] | None
) -> float:
    top = y
    svg.seat_heading(top, q, names, v["seat"])
    x = 220.0
    for tag, on in (
        ("winner", q in v["winners"]),
        ("to decide", v["current"] == q),
        ("turn", v["turn"] == q),
        ("passed", st["passed"]),
        ("worms", st["worms"]),
    ):
        if on:
            fill = {"passed": "#c9cfc9", "winner": "#9fd59f"}.get(tag, ACCENT)
            x += svg.badge(x, top + 4, tag, fill=fill) + 6
    where = DEPTHS[st["depth"]] if 0 <= st["depth"] < len(DEPTHS) else f"depth {st['depth']}"
    info = f"{where} · ${st['money']} · {plural(st['regret_count'], 'regret')}"
    if st["regrets"] is not None:
        info += " (values " + (", ".join(str(r) for r in st["regrets"]) or "none") + ")"
    info += " · score " + ("hidden" if v["end"] is None else str(v["scores"][q]))
    if v["end"] is not None:
        svg.text(x + 4, top + 16, _end_line(v, q), size=11, weight="bold")
    svg.text(12, top + 34, info, size=11)
    dx = _dice(svg, 460, top + 20, st["fresh"])
    if st["spent"]:
        svg.text(dx + 6, top + 34, "spent " + " ".join(st["spent"]), size=9, fill=MUTED)
    gear = []
    if st["rod"]:
        gear.append(f"rod: {st['rod']}")
    if st["reel"]:
        gear.append(f"reel: {st['reel']}")
    spare = [r for r in st["rods"] if r != st["rod"]] + [r for r in st["reels"] if r != st["reel"]]
    if spare:
        gear.append("also " + ", ".join(spare))
    if st["dinks"] is not None:
        gear.append("dinks: " + (", ".join(st["dinks"]) or "none"))
    else:
        gear.append(plural(st["dink_count"], "dink"))
    if st["supplies"] is not None:
        gear.append("supplies: " + (", ".join(st["supplies"]) or "none"))
    else:
        gear.append(plural(st["supply_count"], "supply", "supplies"))
    svg.text(12, top + 50, " · ".join(gear), size=9, fill=MUTED)
    y = top + 58
    x = 12.0
    svg.text(x, y + 8, "mounted", size=8, fill=MUTED)
    for k, fish in enumerate(st["mounted"]):
        if fish is None:
            svg.slot(
                x + k * (FISH_W + 4), y + 12, w=FISH_W, h=FISH_H, label=f"mount x{(2, 3, 2)[k]}"
            )
        else:
            _fish_card(svg, x + k * (FISH_W + 4), y + 12, fish, fill="#e6f2e1")
    x += 3 * (FISH_W + 4) + 10
    if st["cloche"] is not None:
        svg.text(x, y + 8, "cloche", size=8, fill=MUTED)
        _fish_card(svg, x, y + 12, st["cloche"], fill="#e6f2e1")
        x += FISH_W + 14
    if st["front"]:
        svg.text(x, y + 8, "in front", size=8, fill=MUTED)
        for fish in st["front"]:
            _fish_card(svg, x, y + 12, fish, fill="#f3e6d6")
            x += FISH_W + 4
        x += 10
    hand = st["hand"]
    svg.text(x, y + 8, f"hand ({st['hand_count']})", size=8, fill=MUTED)
    if hand is not None:
        for i, fish in enumerate(hand):
            hx = x + (i % 4) * (FISH_W + 4)
            hy = y + 12 + (i // 4) * (FISH_H + 6)
            _fish_card(svg, hx, hy, fish)
        rows = max(1, (len(hand) + 3) // 4)
    else:
        for i in range(st["hand_count"]):
            svg.back(x + i * 14, y + 12, w=40, h=FISH_H)
        rows = 1
    y = y + 12 + rows * (FISH_H + 6) + 4
    svg.seat_divider(top, y, v["current"] == q)
    return y + 8


def terminal(v: View, names: list[str] | None = None) -> list[str]:
    """The view for the terminal."""
    if v["end"] is not None:
        lines = [f"[bold]{chapter(v)}[/bold] · game over · {outcome(v['winners'], names)}"]
    else:
        lines = [f"[bold]{chapter(v)}[/bold] · {v['phase']} · {v['node'].replace('_', ' ')}"]
    for row in range(3):
        cells = []
        for s in range(3 * row, 3 * row + 3):
            shoal = v["shoals"][s]
            if shoal["size"] == 0:
                face = "[dim]empty[/dim]"
            elif shoal["top"] is not None:
                info = _fish().get(shoal["top"], {})
                face = f"[bold]{shoal['top']}[/bold]" + (f" ({_cost(info)})" if info else "")
            elif shoal["known"] is not None:
                face = f"[cyan]{shoal['known']}[/cyan] (face down, known)"
            else:
                face = "[dim]face down[/dim]"
            cells.append(f"{s}: {face} [{shoal['size']}]")
        lines.append(f"{DEPTHS[row + 1]:>9}  " + " | ".join(cells))
    lines.append(f"bag: {v['bag'][0]} blue, {v['bag'][1]} green, {v['bag'][2]} orange")
    if v["cast"] is not None:
        lines.append(f"[red]casting at shoal {v['cast']['shoal']}[/red]")
    if v["peek"] is not None:
        lines.append(f"[cyan]looking at: {v['peek']}[/cyan]")
    for q, st in enumerate(v["seats"]):
        where = DEPTHS[st["depth"]] if 0 <= st["depth"] < len(DEPTHS) else str(st["depth"])
        parts = [
            seat_names(names, q, v["seat"]),
            where,
            f"${st['money']}",
            plural(st["regret_count"], "regret"),
            "dice " + (" ".join(st["fresh"]) or "none"),
        ]
        if st["passed"]:
            parts.append("passed")
        if v["end"] is not None:
            parts.append(_end_line(v, q))
        lines.append(" · ".join(parts))
        mounted = [m for m in st["mounted"] if m]
        if mounted:
            lines.append("   mounted: " + ", ".join(mounted))
        if st["hand"] is not None:
            lines.append("   hand: " + (", ".join(st["hand"]) or "empty"))
            lines.append("   regrets: " + (", ".join(str(r) for r in st["regrets"]) or "none"))
        else:
            lines.append(f"   {st['hand_count']} fish in hand")
    return lines


def secret(after: View, actor: int, label: str) -> bool:
    """Whether ``actor``'s move (``label``) is hidden from the seat of the view ``after`` it.

    Regret values are private, and so is any card the move names that the seat cannot see
    afterwards (a fish from a hand, a dink or supply kept or used).
    """
    if "regret" in label and after["seat"] != actor:
        return True
    shown = json.dumps(after, ensure_ascii=False)
    return any(json.dumps(name, ensure_ascii=False) not in shown for name in _names_in(label))


def _names_in(label: str) -> list[str]:
    """The card names a label names, each as a whole.

    ``eat Stye Eel`` names the Stye Eel, not also the Eel: a name inside a longer one, or inside
    a longer word (the Ear in Hollow Earth Worm), is not named.
    """
    return [m.group(0) for m in _name_pattern().finditer(label)]


@cache
def _name_pattern() -> re.Pattern[str]:
    # Longest first, so that at each place the longest name that stands there is the one found.
    names = "|".join(re.escape(name) for name in _all_names())
    return re.compile(rf"(?<!\w)(?:{names})(?!\w)")
