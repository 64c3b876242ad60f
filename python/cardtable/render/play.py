"""``cardtable play``: one person plays a seat in the terminal against built-in bots.

The screen shows the seat's view of the table (the same information as its picture), offers the
legal moves in words, describes every other seat's move as it happens (without what the seat may
not see: a card played face down is "a card", named once the hand turns it up), sums up each
hand, round, turn or day as it ends (with a table of the scores when they changed), and closes
with a table of the final scores.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.columns import Columns
from rich.console import Console
from rich.panel import Panel
from rich.table import Table

from cardtable.bots import BuiltinBot
from cardtable.protocols import GameProtocol, StateProtocol
from cardtable.render._common import drawing

__all__ = ["past_tense", "play"]

_PAST = {
    "play": "played",
    "take": "took",
    "bid": "bid",
    "flip": "flipped",
    "pass": "passed",
    "keep": "kept",
    "let": "let",
    "start": "started",
    "draw": "drew",
    "cast": "cast",
    "discard": "discarded",
    "sell": "sold",
    "mount": "mounted",
    "spend": "spent",
    "use": "used",
    "give": "gave",
    "equip": "equipped",
    "roll": "rolled",
    "reroll": "rerolled",
    "stay": "stayed",
    "make": "made",
    "peek": "peeked",
    "refresh": "refreshed",
    "set": "set",
    "drop": "dropped",
    "abandon": "abandoned",
    "catch": "caught",
    "decline": "declined",
    "pay": "paid",
    "eat": "ate",
    "reveal": "revealed",
    "stop": "stopped",
    "overtake": "overtook",
    "accept": "accepted",
    "refuse": "refused",
    "offer": "offered",
    "swap": "swapped",
    "choose": "chose",
    "flip the": "flipped the",
}
_SENT = ("ambulance ", "police ", "tow truck ")


def past_tense(label: str) -> str:
    """``"play 37"`` → ``"played 37"``, ``"ambulance to lane 2"`` → ``"sent the ambulance ..."``."""
    if label.startswith(_SENT):
        return "sent the " + label
    first, _, rest = label.partition(" ")
    if first in _PAST:
        # "stop and take the run": the second verb in the past too.
        rest = rest.replace("and take ", "and took ")
        return f"{_PAST[first]} {rest}".rstrip()
    if first == "done":
        return "is " + label
    return "chose: " + label


def _who(seat: int, names: Sequence[str], you: int) -> str:
    return "you" if seat == you else f"seat {seat} ({names[seat]})"


def _scores_table(
    title: str,
    scores: Sequence[int],
    names: Sequence[str],
    you: int,
    winners: Sequence[int] = (),
    score: str = "score",
) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column("seat", justify="right")
    table.add_column("player")
    table.add_column(score, justify="right")
    if winners:
        table.add_column("")
    for q, points in enumerate(scores):
        row = [str(q), "you" if q == you else names[q], str(points)]  # names[you] is empty
        if winners:
            row.append("[bold green]winner[/bold green]" if q in winners else "")
        table.add_row(*row)
    return table


def play(
    game: GameProtocol,
    state: StateProtocol,
    seat: int,
    bots: dict[int, BuiltinBot],
    console: Console,
    choose: Callable[[list[int]], int],
) -> None:
    """Plays ``state`` to its end: ``seat`` by ``choose(legal actions)``, the others by bots.

    Each move is listed under its action id, the number the person types: it stays the same
    while the list changes (a memory game's position, a card's number), where a place in the
    list would not.

    Args:
        game: The game.
        state: The state to play from (it is advanced in place).
        seat: The person's seat.
        bots: The bot of every other seat.
        console: Where to write.
        choose: Asks the person for one of the legal actions (by its id) and returns it.
    """
    module = drawing(game.game_id)
    score = str(getattr(module, "SCORE", "score"))  # Trafficars: penalty cards, fewest wins
    names = ["" if q == seat else bots[q].name for q in range(game.players)]
    view = module.view(state, seat)
    chapter = module.chapter(view)
    # Moves made face down, named once the game shows them (a hand resolved): only in games whose
    # hidden moves are commitments turned face up, where showing is the same move's card.
    face_down: list[tuple[int, str]] = []
    turned_up = bool(getattr(module, "COMMITMENTS_TURNED_UP", False))
    narrate = getattr(module, "narrate", None)  # what a step did that no move says
    tabled = list(state.scores)  # the scores of the last table shown
    while not state.is_terminal:
        player = state.current_player
        before_scores = list(state.scores)
        if player == seat:
            console.print(
                Panel(
                    "\n".join(module.terminal(view, names)),
                    title=f"your move, seat {seat} · {module.chapter(view)}",
                    title_align="left",
                )
            )
            legal = [int(a) for a in state.legal_actions()]
            console.print(
                Columns(
                    [f"[bold]{a:>3}[/bold] {state.action_label(a)}" for a in legal],
                    padding=(0, 3),
                )
            )
            action = choose(legal)
            label = state.action_label(action)
            state.apply(action)
            line = f"you {past_tense(label)}"
        else:
            action = bots[player].act(state)
            label = state.action_label(action)
            state.apply(action)
            after = module.view(state, seat)
            if module.secret(after, player, label):
                line = f"{_who(player, names, seat)} made a move you cannot see"
                if label.startswith(("play ", "bid ")):
                    line = f"{_who(player, names, seat)} played a card face down"
                if turned_up:
                    face_down.append((player, label))
            else:
                line = f"{_who(player, names, seat)} {past_tense(label)}"
        for b in bots.values():
            b.observe(state)
        before, view = view, module.view(state, seat)
        scores = list(state.scores)
        if scores != before_scores:
            line += " — score " + ", ".join(
                f"{_who(q, names, seat)} {new - old:+d}"
                for q, (new, old) in enumerate(zip(scores, before_scores, strict=True))
                if new != old
            )
        console.print(line)
        shown = [(q, move) for q, move in face_down if not module.secret(view, q, move)]
        for q, move in shown:
            console.print(f"{_who(q, names, seat)} had {past_tense(move)}")
            face_down.remove((q, move))
        if narrate is not None:
            for extra in narrate(before, view, lambda q: _who(q, names, seat)):
                console.print(extra)
        now = module.chapter(view)
        if now != chapter and not state.is_terminal:
            # A table only when it has news: not after every hand of a round scored at its end.
            if scores != tabled:
                console.print(_scores_table(f"{chapter} is over", scores, names, seat, score=score))
                tabled = scores
            else:
                console.print(f"[dim]{chapter} is over[/dim]")
            chapter = now
    console.rule("the game is over")
    console.print(Panel("\n".join(module.terminal(module.view(state, seat), names)), title="table"))
    console.print(
        _scores_table(
            "final scores", list(state.scores), names, seat, list(state.winners), score=score
        )
    )
    winners = list(state.winners)
    if seat in winners:
        console.print(
            "[bold green]You win![/bold green]" if len(winners) == 1 else "You share the win."
        )
    else:
        console.print("Winner: " + ", ".join(_who(q, names, seat) for q in winners))
