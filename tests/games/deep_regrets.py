"""Rule scenarios of Deep Regrets, steps 1 and 2 (``rules/deep_regrets/README.md`` and the
contract ``docs/games/deep_regrets.md``, whose §16 overrides §1–§15) on both backends.

Every state starts without a seed, so every chance node is explicit: the tests deal the sea they
want, roll the faces they want and draw the cards they want, then check the exact outcome the rules
prescribe. Only the public API is used; the canonical state (``to_dict()["state"]``) tells where the
game stands.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable import CHANCE, TERMINAL, Backend, GameProtocol, StateProtocol
from cardtable._rng import SplitMix64
from cardtable.errors import IllegalActionError, InvalidOptionError
from tests.drawn_games import Player
from tests.game_info import GameTestInfo, Mutation, Run, every_player_count
from tests.render_checks import strings_in
from tests.scenarios import one_bad_option_each

# ----- what the shared tests need (the GAME block below) -----


def _names(kind: str) -> dict[int, str]:
    """The names of the cards of one kind (``fish``, ``dinks``, ...) of the game data, by id."""
    from cardtable.render._common import data_file

    return {c["id"]: c["name"] for c in data_file("deep_regrets.json")[kind]}


def hidden_cards(state: StateProtocol, p: int) -> tuple[set[str], set[str]]:
    """What seat p must not see in a picture (``tests/test_render.py``): the names of the other
    seats' fish, dinks and supplies and of the face-down fish of the shoals, but those it was shown
    (peeks, offers...), both as ``data-card`` ids and as words never to be written."""
    d = state.to_dict()
    s, n = d["state"], d["players"]
    others = [q for q in range(n) if q != p]
    fish, dinks, supplies = _names("fish"), _names("dinks"), _names("supplies")
    names = {fish[f] for q in others for f in s["players"][q]["hand"]}
    names |= {dinks[i] for q in others for i in s["players"][q]["dinks"]}
    names |= {supplies[i] for q in others for i in s["players"][q]["supplies"]}
    for shoal, cards in enumerate(s["shoals"]):
        hidden = cards if not s["face_up"][shoal] else cards[1:]
        names |= {fish[f] for f in hidden}
    names -= strings_in(state.observation(p))  # what the seat was shown (peeks, offers...)
    return names, names


_DR_SELL, _DR_MOUNT, _DR_CATCH, _DR_MAKE_PORT = 10, 11, 6, 2
_DR_CATCH_BY_SHOWING, _DR_CATCH_BY_DISCARDING = 18, 19
_DR_CAST = range(32, 41)
_DR_SHOPS = range(82, 94)
_DR_FISH = range(165, 300)
_DR_KEEP_ALL, _DR_DRAW_A_DINK = 0, 8
_DR_REGRETS = range(70, 74)
_DR_ABILITY_SEEKING = frozenset({6, 14, 15, 16, 18, 19, 20, 21, 22, 23})


def _dr_hoard_money(state: Any, legal: list[int]) -> list[int]:
    """Catch, go to port and sell everything; never shop or mount: money piles up against its
    cap."""
    fish = [a for a in legal if a in _DR_FISH]
    if fish and all(a == 0 or a in _DR_FISH for a in legal):  # choosing a fish: sell it
        return fish
    if _DR_SELL in legal:
        return [_DR_SELL]
    good = {_DR_CATCH, _DR_CATCH_BY_SHOWING, _DR_CATCH_BY_DISCARDING, _DR_MAKE_PORT}
    preferred = [a for a in legal if a in good or a in _DR_CAST]
    return preferred or [
        a for a in legal if a not in _DR_SHOPS and a != _DR_MOUNT and a not in fish
    ]


def _dr_hoard_regrets(state: Any, legal: list[int]) -> list[int]:
    """Keep every regret (draw a dink as the reward, keep all at port) and dive: madness climbs
    through its tiers and the regret deck runs out."""
    if _DR_DRAW_A_DINK in legal:
        return [_DR_DRAW_A_DINK]
    if any(a in _DR_REGRETS for a in legal) and _DR_KEEP_ALL in legal:
        return [_DR_KEEP_ALL]
    return [a for a in legal if a in _DR_ABILITY_SEEKING or a in _DR_CAST or a in _DR_FISH]


def _dr_seek_abilities(state: Any, legal: list[int]) -> list[int]:
    """Cast, catch, use items and abilities: reveal, catch and item effects fire often."""
    return [
        a
        for a in legal
        if a in _DR_ABILITY_SEEKING or 300 <= a < 315 or 100 <= a < 145 or a in _DR_CAST
    ]


_DR_MOUNT_IDS = frozenset({_DR_MOUNT, 79, 80, 81})
_DR_STAY_AT_SEA, _DR_DECLINE = 1, 7
_DR_DICE = range(50, 65)
_DR_DEEPEST_CASTS = range(38, 41)


def _dr_mount_trophies(state: Any, legal: list[int]) -> list[int]:
    """Catch fish, make port and mount them: all three mount slots fill up."""
    mount = [a for a in legal if a in _DR_MOUNT_IDS]
    if mount:
        return mount
    fish = [a for a in legal if a in _DR_FISH]
    if fish and all(a in _DR_FISH for a in legal):  # choosing the fish to mount
        return fish
    good = {_DR_CATCH, _DR_CATCH_BY_SHOWING, _DR_CATCH_BY_DISCARDING, _DR_MAKE_PORT}
    return [a for a in legal if a in good or a in _DR_CAST or a in _DR_DICE]


def _dr_drain_the_sea(state: Any, legal: list[int]) -> list[int]:
    """Stay at sea and keep every regret (more madness, more Fresh dice). Until The Plug is out,
    dig through the deepest shoals (sink, reveal, pay and catch); then cast wherever a top is
    face down (the next morning discards what is left face up): every turn then costs the sea
    a fish, and the sea runs dry."""
    if _DR_DRAW_A_DINK in legal:
        return [_DR_DRAW_A_DINK]
    if any(a in _DR_REGRETS for a in legal) and _DR_KEEP_ALL in legal:
        return [_DR_KEEP_ALL]
    casts = [a for a in legal if a in _DR_CAST]
    at_pay = _DR_DECLINE in legal
    if not casts and not at_pay:
        return [a for a in legal if a == _DR_STAY_AT_SEA or a in _DR_DICE]
    if at_pay:
        good = {_DR_CATCH, _DR_CATCH_BY_SHOWING, _DR_CATCH_BY_DISCARDING}
        return [a for a in legal if a in good or a in _DR_DICE]
    seen = state.observation(state.current_player)
    hidden = [a for a in casts if seen["shoals"][a - _DR_CAST.start]["top"] is None]
    if seen["plug"]:
        return hidden or casts
    if hidden and hidden[-1] in _DR_DEEPEST_CASTS:
        return [hidden[-1]]
    return [a for a in legal if a in _DR_DICE] or hidden[-1:] or casts[-1:]


GAME = GameTestInfo(
    configs=[
        *every_player_count(2, 5),
        {"players": 3, "days": 5},
        {"players": 4, "regret_split": "10/20/20/10"},
        {"players": 5, "expansion_tentacles": True},
    ],
    golden=[
        ("2p", {"players": 2}, 1),
        ("3p-5days-tentacles", {"players": 3, "days": 5, "expansion_tentacles": True}, 2),
    ],
    perft=({"players": 2}, 5, 4, 9),
    tensor_size=lambda n, o: 2268 + 362 * n,
    small={"players": 2, "days": 5},
    replay_run=Run(2, ["greedy", "random"]),
    saved_run=Run(3),
    pictures=[("mid", {"players": 2, "days": 5}, 16, 40)],
    hidden_cards=hidden_cards,
    drawn_players=(
        Player("uniform"),
        Player("hoard money", _dr_hoard_money),
        Player("hoard regrets", _dr_hoard_regrets),
        Player("seek abilities", _dr_seek_abilities),
        Player("mount trophies", _dr_mount_trophies),
        Player("drain the sea", _dr_drain_the_sea),
    ),
    mutations=(
        Mutation(
            "money-cap",
            "money is capped at $10 (mutant: $11)",
            "seat.money = min(CARDS.money_cap, seat.money + amount)",
            "seat.money = min(CARDS.money_cap + 1, seat.money + amount)",
        ),
        Mutation(
            "money-score-rounding",
            "money scores money div 2 (mutant: rounded up)",
            "return hand + mounted + seat.money // CARDS.money_per_point",
            "return hand + mounted + (seat.money + 1) // CARDS.money_per_point",
        ),
        Mutation(
            "reward-discard-forced",
            "without a dink to draw, a rewarded seat may take nothing (mutant: must discard)",
            "if can_discard and not can_draw:",
            "if can_discard and not can_draw and False:",
        ),
        Mutation(
            "decline-dink-forced",
            "a seat that declines a fish may keep its dice and draw no dink"
            " (mutant: must spend one)",
            'decision("decline_die", p, [TAKE_NOTHING, *self._fresh_actions(p)])',
            'decision("decline_die", p, self._fresh_actions(p))',
        ),
        Mutation(
            "abandon-after-main-turns",
            "abandoning ship after the main action leaves four port turns (mutant: three)",
            "self._last_turns = 5 if main_taken else 4",
            "self._last_turns = 4 if main_taken else 4",
        ),
        Mutation(
            "regret-penalty-two-players",
            "with 2 players the highest Regret Value loses its lowest mounted fish"
            " (mutant: with 3)",
            "sign = 1 if self._n == 2 else -1",
            "sign = 1 if self._n == 3 else -1",
        ),
        Mutation(
            "madness-tier",
            "the madness tier is the last with min_regrets <= regrets (mutant: one regret later)",
            "return [tier for tier in CARDS.madness if tier.min_regrets <= count][-1]",
            "return [tier for tier in CARDS.madness if tier.min_regrets <= max(0, count - 1)][-1]",
        ),
        Mutation(
            "fish-value-floor",
            "a fish is worth at least 0 (mutant: at least 1)",
            "return max(0, fish.value + modifier)",
            "return max(1, fish.value + modifier)",
        ),
        Mutation(
            "shop-price-floor",
            "a discounted shop costs at least $0 (mutant: at least $1)",
            "return max(0, tier.price - self._madness(p).shop_discount - self._ctx.discount)",
            "return max(1, tier.price - self._madness(p).shop_discount - self._ctx.discount)",
        ),
        Mutation(
            "last-turns",
            "the last seat at sea gets 2 more turns (mutant: 3)",
            "self._last_turns = 2",
            "self._last_turns = 3",
        ),
        Mutation(
            "abandon-ship-turns",
            "abandoning ship before the main action sets the turns left to 4 (mutant: 3)",
            "self._last_turns = 5 if main_taken else 4",
            "self._last_turns = 5 if main_taken else 3",
        ),
        Mutation(
            "boats-rise",
            "boats at depth 2 or more rise one depth each day (mutant: 3 only)",
            "if seat.depth >= 2:",
            "if seat.depth >= 3:",
        ),
        Mutation(
            "life-preserver-tie",
            "tied Fresh totals: the first in turn order gives the Life Preserver"
            " (mutant: the last)",
            "key=lambda p: (sum(die_face(c) for c in self._seats[p].fresh), -self._order_rank(p)),",
            "key=lambda p: (sum(die_face(c) for c in self._seats[p].fresh), self._order_rank(p)),",
        ),
        Mutation(
            "muster-room",
            "rolled dice are kept up to the madness tier's max Fresh (mutant: one more)",
            "room = max(0, self._max_fresh(p) - len(seat.fresh))",
            "room = max(0, self._max_fresh(p) + 1 - len(seat.fresh))",
        ),
        Mutation(
            "day-6-tackle",
            "day 6 hands out a colour with at least n dice in the bag (mutant: more than n)",
            "colour = next((c for c in (2, 1, 0) if self._bag[c] >= self._n), None)",
            "colour = next((c for c in (2, 1, 0) if self._bag[c] > self._n), None)",
        ),
    ),
    readme_image=({"players": 3}, 8, 140, 0),
)
"""What the generic and shared tests need of this game (see ``tests/game_info.py``)."""

DATA: dict[str, Any] = json.loads(
    (files("cardtable") / "data" / "deep_regrets.json").read_text(encoding="utf-8")
)
FISH: dict[str, int] = {f["name"]: f["id"] for f in DATA["fish"]}
DINKS: dict[str, int] = {d["name"]: d["id"] for d in DATA["dinks"]}
SUPPLIES: dict[str, int] = {s["name"]: s["id"] for s in DATA["supplies"]}
RODS: dict[str, int] = {r["name"]: r["id"] for r in DATA["rods"]}
REELS: dict[str, int] = {r["name"]: r["id"] for r in DATA["reels"]}

# ----- action ids (contract §9) -----
PASS = ROLL_NOW = KEEP_ALL = DONE = 0
STAY, MAKE_PORT, ABANDON = 1, 2, 3
LEAVE_ON_TOP, PUT_AT_BOTTOM, CATCH, DECLINE = 4, 5, 6, 7
DRAW_A_DINK, DISCARD_RANDOM = 8, 9
TAKE_NOTHING = 0
SELL, MOUNT, USE_LP, USE_REEL = 10, 11, 12, 13
END_TURN = 24
CAST, WORMS, DIE, DIE_KIND, REGRET, GIVE, SLOT, SHOP = 32, 41, 50, 65, 70, 74, 79, 82
ROW, COLUMN, DINK, SUPPLY, ROD, REEL, FISH_ID = 94, 97, 100, 125, 145, 155, 165
CLASSES = ["P1", "P2", "P3", "B0", "B1", "B2", "G1", "G2", "G3", "O2", "O3", "M1", "M2", "M3", "M4"]


def die(name: str) -> int:
    """The action id 50+c of a die string such as ``P3``."""
    return DIE + CLASSES.index(name)


def shop(k: str, price: int) -> int:
    """The action id of a shop visit, e.g. ``shop("supply", 5)``."""
    return SHOP + 3 * ["rod", "reel", "supply", "tackle"].index(k) + [1, 3, 5].index(price)


def sell(name: str) -> int:
    return FISH_ID + FISH[name]


# ----- the table -----


class Table:
    """A game driven step by step, with short-hands for the common moves."""

    def __init__(self, backend: Backend, players: int = 2, **options: Any) -> None:
        self.game: GameProtocol = cardtable.make(
            "deep_regrets", players=players, backend=backend, **options
        )
        self.state: StateProtocol = self.game.new_state()
        self.players = players
        self.options = options
        self.free_after_main = False
        """Whether the steps stop at ``after_main`` nodes (else the turn ends there at once)."""

    # --- reading ---
    @property
    def st(self) -> dict[str, Any]:
        state: dict[str, Any] = self.state.to_dict()["state"]
        return state

    @property
    def node(self) -> str:
        node: str = self.st["node"]
        return node

    def seat(self, p: int) -> dict[str, Any]:
        seat: dict[str, Any] = self.st["players"][p]
        return seat

    def obs(self, p: int) -> Mapping[str, Any]:
        return self.state.observation(p)

    def legal(self) -> list[int]:
        return self.state.legal_actions()

    def at(self, node: str, actor: int | None = None) -> bool:
        st = self.st
        return bool(st["node"] == node and (actor is None or st["actor"] == actor))

    def asks_yes_no(self, node: str, actor: int, yes: str, no: str) -> None:
        """Checks that seat ``actor`` is asked the yes/no question of ``node``: the legal actions
        are YES and NO, labelled ``yes`` and ``no``."""
        st = self.st
        assert (st["node"], st["actor"]) == (node, actor)
        assert self.legal() == [YES, NO]
        assert self.state.action_label(YES) == yes
        assert self.state.action_label(NO) == no

    # --- acting ---
    def act(self, action: int, node: str | None = None, actor: int | None = None) -> None:
        """Applies ``action``, first checking the node kind (and actor) it is meant for.

        Unless ``free_after_main`` is set, the table plays a player who takes no free action
        after the main action: a step meant for another node kind while an ``after_main`` node
        is pending first ends that turn (24 = end turn), and so does a step that reaches an
        ``after_main`` node (§7.3).
        """
        st = self.st
        if node is not None and node != "after_main" and st["node"] == "after_main":
            self.state.apply(END_TURN)
            st = self.st
        if node is not None:
            assert st["node"] == node, f"expected node {node}, at {st['node']} ({st['actor']})"
        if actor is not None:
            assert st["actor"] == actor, f"expected actor {actor} at {node}, got {st['actor']}"
        self.state.apply(action)
        if not self.free_after_main and self.node == "after_main":
            self.state.apply(END_TURN)

    def acts(self, node: str, *actions: int) -> None:
        for action in actions:
            self.act(action, node)

    def rolls(self, *faces: int) -> None:
        for face in faces:
            self.act(face, "roll")

    def default(self) -> None:
        """One default step: the first legal action or outcome, but a dink as the reward and
        for a declined fish (the first die)."""
        legal = self.legal()
        if self.node == "reward" and DRAW_A_DINK in legal:
            self.state.apply(DRAW_A_DINK)
        elif self.node == "decline_die":
            self.state.apply(legal[1])
        elif self.node == "after_main":
            self.state.apply(END_TURN)
        else:
            self.state.apply(legal[0])

    def auto(self, until: Callable[[Table], bool], limit: int = 5000) -> None:
        """Default steps (everybody passes) until ``until`` holds."""
        for _ in range(limit):
            if until(self):
                return
            assert not self.state.is_terminal, "the game ended first"
            self.default()
        raise AssertionError("auto: limit reached")

    def end_turn(self, p: int) -> None:
        """Seat p ends its turn at the ``after_main`` node, if that node is asked."""
        if self.at("after_main", p):
            self.act(END_TURN, "after_main", p)

    def to_turn(self, p: int, day: int | None = None) -> None:
        self.auto(lambda t: t.at("turn", p) and (day is None or t.st["day"] == day))

    def to_end(self) -> None:
        self.auto(lambda t: t.state.is_terminal, limit=20000)

    # --- common moves ---
    def deal(self, tops: Mapping[int, Sequence[int]] | None = None) -> None:
        """Deals the sea: ``tops[s]`` on top of shoal s, top first; then the lowest fish ids."""
        tops = tops or {}
        per_shoal = 15 if self.options.get("expansion_tentacles") else 13
        expansions = {"base", "tentacles"} if self.options.get("expansion_tentacles") else {"base"}
        reserved = {f for fish in tops.values() for f in fish}
        used: set[int] = set()
        for s in range(9):
            depth = s // 3 + 1
            wanted = list(tops.get(s, []))
            filler = [
                f["id"]
                for f in DATA["fish"]
                if f["depth"] == depth and f["expansion"] in expansions and f["id"] not in reserved
            ]
            for k in range(per_shoal):
                f = wanted[k] if k < len(wanted) else next(x for x in filler if x not in used)
                used.add(f)
                self.act(f, "deal")

    def first_muster(self, dice: Mapping[int, Sequence[int]] | None = None) -> None:
        """The first day's Refresh: each seat rolls its three Spent P dice (faces given)."""
        dice = dice or {}
        for p in range(self.players):
            for face in dice.get(p, (1, 2, 3)):
                self.act(face, "roll", p)

    def give_life_preserver(self, to: int | None = None) -> None:
        legal = self.legal()
        self.act(legal[0] if to is None else GIVE + to, "life_preserver")

    def catch(self, p: int, s: int, *dice: str, worms: bool = False) -> None:
        """Seat p casts at shoal s, pays with ``dice`` and catches.

        With ``worms``, seat p first uses the Can of Worms on shoal s and leaves the fish on top.
        """
        if worms:
            self.act(WORMS + s, "turn", p)
            self.act(LEAVE_ON_TOP, "worms")
        self.act(CAST + s, "turn", p)
        for d in dice:
            self.act(die(d), "pay", p)
        self.act(CATCH, "pay", p)

    def decline(self, p: int, s: int, spend: str, dink: int) -> None:
        """Seat p casts at shoal s, declines, spends ``spend`` and draws dink ``dink``."""
        self.act(CAST + s, "turn", p)
        self.act(DECLINE, "pay", p)
        self.act(die(spend), "decline_die", p)
        self.act(dink, "draw_dink", p)

    def pass_turn(self, p: int, reward: int | None = None) -> None:
        """Seat p passes and takes its reward (the dink ``reward``, or none if impossible)."""
        self.act(PASS, "turn", p)
        self.take_reward(p, reward)

    def take_reward(self, p: int, dink: int | None) -> None:
        if self.at("reward", p):
            if dink is None:
                self.act(DRAW_A_DINK, "reward", p)
                self.act(self.legal()[0], "draw_dink", p)
            else:
                self.act(DRAW_A_DINK, "reward", p)
                self.act(dink, "draw_dink", p)


def monday(
    backend: Backend,
    players: int = 2,
    tops: Mapping[int, Sequence[int]] | None = None,
    dice: Mapping[int, Sequence[int]] | None = None,
    give: int | None = None,
    **options: Any,
) -> Table:
    """A game dealt, mustered and with the Life Preserver thrown: the first turn is due."""
    t = Table(backend, players, **options)
    t.deal(tops)
    t.first_muster(dice)
    t.give_life_preserver(give)
    return t


def after_a_catch(backend: Backend, tops: Mapping[int, Sequence[int]], **options: Any) -> Table:
    """Monday, two seats, seat 0 rolled P3 P3 P3: seat 0 has caught the top fish of shoal 0 with a
    P3 (seat 1 to move)."""
    t = monday(backend, 2, tops=tops, dice={0: (3, 3, 3)}, **options)
    t.catch(0, 0, "P3")
    return t


def in_port_after_a_catch(backend: Backend, tops: Mapping[int, Sequence[int]]) -> Table:
    """:func:`after_a_catch`, then seat 1 passes (taking the Toe) and seat 0 abandons ship: seat 0
    is at its Muster."""
    t = after_a_catch(backend, tops)
    t.pass_turn(1, DINKS["Toe"])
    t.act(ABANDON, "turn", 0)
    return t


def selling_after_two_catches(
    backend: Backend, tops: Mapping[int, Sequence[int]], **options: Any
) -> Table:
    """Seat 0 catches the two top fish of shoal 0 with P3s while seat 1 passes, abandons ship,
    rolls its two Spent dice to 3 and has chosen to sell (the ``sell`` node is due)."""
    t = after_a_catch(backend, tops, **options)
    t.pass_turn(1, None)
    t.catch(0, 0, "P3")
    skip(t)
    t.act(ABANDON, "turn", 0)
    t.act(ROLL_NOW, "muster_select")
    t.rolls(3, 3)
    skip(t)
    t.act(SELL, "turn", 0)
    return t


def tackle_after_a_sale(backend: Backend, tops: Mapping[int, Sequence[int]]) -> Table:
    """:func:`in_port_after_a_catch` with the Goliath Grouper caught: seat 0 musters (the Spent P
    rolls 1), sells the Grouper and buys tackle for $5: the orange die drawn first rolls 2 into
    Fresh, the green and blue ones go to Spent. Seat 1 takes a dink each time it is skipped."""
    t = in_port_after_a_catch(backend, tops)
    t.act(ROLL_NOW, "muster_select")
    t.rolls(1)
    t.take_reward(1, DINKS["Eel"])
    t.act(SELL, "turn", 0)
    t.act(sell("Goliath Grouper"), "sell")
    t.take_reward(1, DINKS["Crab"])
    t.act(shop("tackle", 5), "turn", 0)
    t.act(2, "draw_bag")
    t.act(2, "roll")
    t.acts("draw_bag", 1, 0)
    return t


def cast_context(shoal: int, *, zero: bool = False, revealed: bool = True) -> dict[str, Any]:
    """``ctx.cast`` of the canonical state right after a cast at ``shoal`` (nothing paid yet);
    ``revealed``: the cast turned a face-down top face up (§16.5 step 4)."""
    return {
        "shoal": shoal,
        "reduction": 0,
        "zero": zero,
        "payment": [],
        "base": None,
        "beneath": None,
        "ignored": False,
        "revealed": revealed,
    }


def snapshot(t: Table) -> dict[str, Any]:
    return t.state.to_dict()


# ======================================================================================
# Options and setup (contract §1, §5)
# ======================================================================================


def test_options_and_their_defaults(backend: Backend) -> None:
    game = cardtable.make("deep_regrets", players=3, backend=backend)
    assert game.options == {
        "days": 6,
        "expansion_tentacles": False,
        "regret_split": "6/24/20/10",
    }
    assert game.num_actions == 512
    game = cardtable.make(
        "deep_regrets",
        players=5,
        backend=backend,
        days=5,
        regret_split="10/20/20/10",
        expansion_tentacles=True,
    )
    assert game.options == {
        "days": 5,
        "expansion_tentacles": True,
        "regret_split": "10/20/20/10",
    }


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 1},
        {"players": 6},
        *one_bad_option_each(
            3,
            {
                "days": [4, 7, "6", True],
                "regret_split": ["6/24/20/11", 6],
                "expansion_tentacles": [1, "yes"],
                "seas": [2],
            },
        ),
    ],
)
def test_bad_options_are_refused(backend: Backend, kwargs: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptionError):
        cardtable.make("deep_regrets", backend=backend, **kwargs)


def test_setup_before_the_deal(backend: Backend) -> None:
    t = Table(backend, 3)
    st = t.st
    assert (st["node"], st["phase"], st["actor"], st["turn"]) == ("deal", "setup", None, None)
    assert (st["day"], st["first_player"], st["last_turns"], st["life_preserver"]) == (
        1,
        0,
        None,
        None,
    )
    assert st["shoals"] == [[]] * 9
    assert st["face_up"] == [False] * 9
    assert st["known"] == [[], [], []]
    assert st["fish_discard"] == [[], [], []]
    assert st["regret_deck"] == [6, 24, 20, 10]
    assert st["regret_discard"] == [0, 0, 0, 0]
    assert st["bag"] == [9, 8, 7]
    assert st["dink_deck"] == list(range(25))
    assert st["supply_deck"] == list(range(20))
    assert st["rod_deck"] == st["reel_deck"] == list(range(10))
    assert st["dink_discard"] == st["supply_discard"] == [] == st["rod_discard"]
    assert st["end"] is None
    assert st["players"][2] == {
        "money": 0,
        "depth": 1,
        "regrets": [0, 0, 0, 0],
        "fresh": [],
        "spent": ["P", "P", "P"],
        "hand": [],
        "mounted": [None, None, None],
        "dinks": [],
        "supplies": [],
        "rods": [],
        "reels": [],
        "rod": None,
        "reel": None,
        "worms": True,
        "lifeboat_used": False,
        "passed": False,
        "reel_used": False,
        "caught_today": False,
        "shops_used": [False, False, False, False],
        "front": [],
        "locks": [],
        "cloche": None,
        "skull_used": False,
        "coffin_used": False,
    }
    assert st["plug"] is False
    assert st["ctx"] == {
        "to_roll": [],
        "rolled": [],
        "left": 0,
        "cast": None,
        "peek": None,
        "shop": None,
        "count": 0,
        "foul": 0,
        "slot": None,
        "discount": 0,
        "item": None,
        "ability": None,
        "pool": None,
        "target": None,
        "offer": [],
        "order": [],
    }
    assert t.state.current_player == CHANCE
    assert t.state.scores == [0, 0, 0]
    # The first deal: every base fish of depth I, weight 1 each.
    base_depth_1 = [f["id"] for f in DATA["fish"] if f["depth"] == 1 and f["expansion"] == "base"]
    assert len(base_depth_1) == 39
    outcomes = t.state.chance_outcomes()
    assert [o for o, _ in outcomes] == base_depth_1
    assert all(p == pytest.approx(1 / 39) for _, p in outcomes)
    assert t.state.action_label(0) == "deal Hammerhead Shark to shoal 0"
    assert t.state.action_label(134) == "deal Human to shoal 0"


def test_regret_split_option_sets_the_deck(backend: Backend) -> None:
    t = Table(backend, 2, regret_split="10/20/20/10")
    assert t.st["regret_deck"] == [10, 20, 20, 10]


def test_the_deal_puts_the_first_fish_on_top(backend: Backend) -> None:
    t = Table(backend, 2)
    tops = {0: [FISH["Sheepshead"], FISH["Goliath Grouper"]], 4: [FISH["Monkfish"]]}
    t.deal(tops)
    st = t.st
    assert st["shoals"][0][:2] == tops[0]
    assert st["shoals"][4][0] == FISH["Monkfish"]
    assert [len(shoal) for shoal in st["shoals"]] == [13] * 9
    assert all(DATA["fish"][f]["depth"] == s // 3 + 1 for s in range(9) for f in st["shoals"][s])
    assert st["face_up"] == [False] * 9
    # Then the first day's Refresh phase: seat 0 rolls its three Spent dice.
    assert (st["node"], st["phase"], st["actor"], st["day"]) == ("roll", "refresh", 0, 1)
    assert st["ctx"]["to_roll"] == ["P", "P", "P"]
    assert st["players"][0]["spent"] == []


def test_the_expansion_adds_six_fish_per_depth(backend: Backend) -> None:
    t = Table(backend, 2, expansion_tentacles=True)
    assert len(t.state.chance_outcomes()) == 45
    t.deal({})
    st = t.st
    assert [len(shoal) for shoal in st["shoals"]] == [15] * 9
    assert sorted(f for shoal in st["shoals"] for f in shoal) == list(range(135))


def test_days_option_starts_the_short_game_on_tuesday(backend: Backend) -> None:
    t = monday(backend, 2, days=5)
    st = t.st
    assert (st["day"], st["node"], st["phase"], st["actor"]) == (2, "turn", "actions", 0)
    # Tuesday is the first day: no Start and no Declaration phase.
    t.to_turn(1, day=3)
    assert t.st["day"] == 3


# ======================================================================================
# The first day: Refresh and the Life Preserver (§6.2, §7.1)
# ======================================================================================


def test_muster_rolls_the_spent_dice_in_kind_order(backend: Backend) -> None:
    t = Table(backend, 2)
    t.deal()
    assert t.state.chance_outcomes() == [(1, 0.5), (2, 0.25), (3, 0.25)]
    assert t.state.action_label(3) == "P die rolls 3"
    assert t.state.action_label(5) == "outcome 5"
    t.act(3, "roll", 0)
    assert t.st["ctx"]["rolled"] == ["P3"]
    assert t.st["ctx"]["to_roll"] == ["P", "P"]
    t.rolls(1, 2)
    # Three dice fit under the max of 4 (no regrets): all go to Fresh, in class order.
    assert t.seat(0)["fresh"] == ["P1", "P2", "P3"]
    assert t.seat(0)["spent"] == []
    assert t.st["ctx"]["rolled"] == []
    assert t.at("roll", 1)


def test_life_preserver_goes_from_the_highest_fresh_total(backend: Backend) -> None:
    t = Table(backend, 3)
    t.deal()
    t.first_muster({0: (1, 1, 1), 1: (3, 3, 2), 2: (2, 3, 3)})
    # Seats 1 and 2 tie at 8: the first in turn order from the first player (seat 0) throws.
    assert t.at("life_preserver", 1)
    assert t.legal() == [GIVE + 0, GIVE + 2]
    assert t.state.action_label(GIVE + 2) == "give the Life Preserver to seat 2"
    t.act(GIVE + 2, "life_preserver")
    st = t.st
    assert st["life_preserver"] == 2
    # Monday has no Declaration phase: the Actions phase starts with the first player.
    assert (st["node"], st["phase"], st["actor"], st["turn"]) == ("turn", "actions", 0, 0)


# ======================================================================================
# The turn at sea: sinkers, casting, paying, declining (§7.3, §7.4)
# ======================================================================================


def test_turn_actions_at_sea(backend: Backend) -> None:
    t = monday(backend, 2)
    assert t.legal() == [PASS, ABANDON, 32, 33, 34, 41, 42, 43, 50, 51, 52]
    labels = {
        0: "pass",
        3: "abandon ship",
        10: "sell",
        11: "mount",
        12: "use the Life Preserver",
        13: "use the equipped reel",
        32: "cast at shoal 0",
        40: "cast at shoal 8",
        41: "use the Can of Worms on shoal 0",
        24: "action 24",
        50: "drop a sinker with P1",
        64: "drop a sinker with M4",
        82: "rod shop $1",
        90: "supply shop $5",
        93: "tackle shop $5",
        100: "use Moon Jellyfish",
        125: "use Scotch Egg",
        1: "action 1",
        200: "eat Tumorous Fish",
        511: "action 511",
    }
    for action, label in labels.items():
        assert t.state.action_label(action) == label


def test_sinkers_spend_dice_to_go_down(backend: Backend) -> None:
    t = monday(backend, 2)
    t.act(die("P1"), "turn", 0)
    assert (t.seat(0)["depth"], t.seat(0)["fresh"], t.seat(0)["spent"]) == (2, ["P2", "P3"], ["P"])
    # A sinker is a free action: still seat 0's turn, with depth II shoals reachable.
    assert t.legal() == [PASS, ABANDON, *range(32, 38), *range(41, 47), 51, 52]
    t.act(die("P2"), "turn", 0)
    assert t.seat(0)["depth"] == 3
    # At depth III no sinker is left to drop.
    assert t.legal() == [PASS, ABANDON, *range(32, 50)]


def test_cast_reveals_the_top_and_a_catch_spends_the_payment(backend: Backend) -> None:
    t = monday(backend, 2, tops={0: [FISH["Sheepshead"], FISH["Barracuda"]]})
    t.act(CAST + 0, "turn", 0)
    st = t.st
    assert st["face_up"][0] is True
    assert st["ctx"]["cast"] == cast_context(0)
    assert (st["node"], st["actor"]) == ("pay", 0)
    assert t.obs(1)["ctx"]["cast"] == {
        "shoal": 0,
        "fish": "Sheepshead",
        "difficulty": 1,
        "exact": None,
        "payment": [],
        "base": None,
        "beneath": None,
        "ignored": False,
        "revealed": True,
    }
    assert t.obs(1)["shoals"][0] == {"size": 13, "top": "Sheepshead", "known": None, "back": "m"}
    assert t.legal() == [DECLINE, 50, 51, 52]
    assert t.state.action_label(50) == "pay with P1"
    assert t.state.action_label(CATCH) == "catch"
    assert t.state.action_label(DECLINE) == "decline"
    assert t.state.action_label(32) == "action 32"
    t.act(die("P1"), "pay", 0)
    assert t.st["ctx"]["cast"]["payment"] == ["P1"]
    # Complete: no more dice may be added.
    assert t.legal() == [CATCH, DECLINE]
    t.act(CATCH, "pay", 0)
    st = t.st
    assert st["players"][0]["hand"] == [FISH["Sheepshead"]]
    assert st["players"][0]["fresh"] == ["P2", "P3"]
    assert st["players"][0]["spent"] == ["P"]
    assert st["players"][0]["caught_today"] is True
    assert st["shoals"][0][0] == FISH["Barracuda"]
    assert st["face_up"][0] is False
    assert st["ctx"]["cast"] is None
    assert t.obs(0)["hand"] == ["Sheepshead"]
    assert t.obs(1)["hand"] == []
    assert t.obs(1)["hand_count"] == [1, 0]
    # The turn is over.
    assert t.at("turn", 1)


def test_payment_adds_dice_until_the_sum_reaches_the_difficulty(backend: Backend) -> None:
    t = monday(backend, 2, tops={0: [FISH["Hammerhead Shark"]]}, dice={0: (1, 1, 2)})
    # Seat 0 has the lower total, so it holds the Life Preserver (usable while D > 0).
    assert t.st["life_preserver"] == 0
    t.act(CAST + 0, "turn", 0)
    assert t.legal() == [DECLINE, USE_LP, die("P1"), die("P2")]
    t.act(die("P1"), "pay")
    assert t.legal() == [DECLINE, USE_LP, die("P1"), die("P2")]
    t.act(die("P1"), "pay")
    assert t.legal() == [DECLINE, USE_LP, die("P2")]
    t.act(die("P2"), "pay")
    assert t.legal() == [CATCH, DECLINE, USE_LP]
    t.act(CATCH, "pay")
    assert t.seat(0)["fresh"] == []
    assert t.seat(0)["spent"] == ["P", "P", "P"]


def test_exact_dice_fish_needs_exactly_that_many_dice(backend: Backend) -> None:
    # Day Octopus: difficulty 2, pay with exactly 1 die.
    t = monday(backend, 2, tops={0: [FISH["Day Octopus"]]})
    t.act(CAST + 0, "turn", 0)
    assert t.obs(0)["ctx"]["cast"]["exact"] == 1
    t.act(die("P1"), "pay")
    # One die paid, sum 1 < 2: not complete and no die may be added.
    assert t.legal() == [DECLINE]
    t.act(DECLINE, "pay")
    # The payment returns; declining may spend a die of the player's choice for a dink.
    assert t.seat(0)["fresh"] == ["P1", "P2", "P3"]
    t.act(die("P1"), "decline_die")
    t.act(DINKS["Scad"], "draw_dink")
    # Seat 1 casts at the face-up Day Octopus and pays exactly one die of 3.
    t.act(CAST + 0, "turn", 1)
    t.act(die("P3"), "pay", 1)
    assert t.legal() == [CATCH, DECLINE, USE_LP]  # seat 1 holds the Life Preserver


def test_declining_spends_a_die_for_a_dink_and_leaves_the_fish_face_up(backend: Backend) -> None:
    t = monday(backend, 2, tops={0: [FISH["Hammerhead Shark"]]})
    t.act(CAST + 0, "turn", 0)
    t.act(die("P1"), "pay")
    t.act(DECLINE, "pay")
    st = t.st
    assert st["ctx"]["cast"]["payment"] == []
    assert (st["node"], st["actor"]) == ("decline_die", 0)
    assert t.legal() == [TAKE_NOTHING, 50, 51, 52]
    assert t.state.action_label(51) == "spend P2 for a dink"
    t.act(die("P2"), "decline_die")
    assert t.seat(0)["fresh"] == ["P1", "P3"]
    assert t.seat(0)["spent"] == ["P"]
    assert t.at("draw_dink", 0)
    assert t.state.chance_outcomes() == [(d, 1 / 25) for d in range(25)]
    assert t.state.action_label(DINKS["Scad"]) == "draw Scad"
    t.act(DINKS["Scad"], "draw_dink")
    st = t.st
    assert st["players"][0]["dinks"] == [DINKS["Scad"]]
    assert st["dink_deck"] == [d for d in range(25) if d != DINKS["Scad"]]
    assert st["shoals"][0][0] == FISH["Hammerhead Shark"]
    assert st["face_up"][0] is True
    assert t.obs(0)["dinks"] == ["Scad"]
    assert t.obs(1)["dinks"] == []
    assert t.obs(1)["dink_count"] == [1, 0]
    # The next caster meets the face-up fish without a reveal; the worms cannot be used on it.
    assert t.at("turn", 1)
    assert CAST + 0 in t.legal() and WORMS + 0 not in t.legal()


def test_a_seat_that_declines_may_keep_its_dice_and_draw_no_dink(backend: Backend) -> None:
    """ "Jos et voi tai halua maksaa esiin tulleen kalan maksua, saat kuitenkin nostaa
    sinttikortin." (If you cannot or will not pay the fish's cost, you may still draw a dink.)
    The dink is a permission (contract §6 step 7, Decision 17): 0 keeps every die and draws
    nothing, and the fish stays face up."""
    t = monday(backend, 2, tops={0: [FISH["Hammerhead Shark"]]})
    t.act(CAST + 0, "turn", 0)
    t.act(die("P1"), "pay")
    t.act(DECLINE, "pay")
    assert t.legal() == [TAKE_NOTHING, die("P1"), die("P2"), die("P3")]
    assert t.state.action_label(TAKE_NOTHING) == "take no dink"
    t.act(TAKE_NOTHING, "decline_die", 0)
    st = t.st
    assert t.seat(0)["fresh"] == ["P1", "P2", "P3"]
    assert t.seat(0)["spent"] == []
    assert st["players"][0]["dinks"] == []
    assert st["dink_deck"] == list(range(25))
    assert st["face_up"][0] is True
    assert t.at("turn", 1)


def test_can_of_worms_peeks_and_may_put_the_fish_at_the_bottom(backend: Backend) -> None:
    tops = {1: [FISH["Hammerhead Shark"], FISH["Sheepshead"]]}
    t = monday(backend, 2, tops=tops)
    t.act(WORMS + 1, "turn", 0)
    st = t.st
    assert (st["node"], st["actor"]) == ("worms", 0)
    assert st["players"][0]["worms"] is False
    assert st["ctx"]["peek"] == FISH["Hammerhead Shark"]
    assert st["face_up"][1] is False
    assert t.obs(0)["ctx"]["peek"] == "Hammerhead Shark"
    assert t.obs(1)["ctx"]["peek"] is None
    # The Can of Worms is no part of a cast.
    assert st["ctx"]["cast"] is None
    assert t.legal() == [LEAVE_ON_TOP, PUT_AT_BOTTOM]
    assert t.state.action_label(4) == "leave it on top"
    assert t.state.action_label(5) == "put it at the bottom"
    t.act(PUT_AT_BOTTOM, "worms")
    st = t.st
    assert st["shoals"][1][0] == FISH["Sheepshead"]
    assert st["shoals"][1][-1] == FISH["Hammerhead Shark"]
    assert st["face_up"][1] is False
    assert st["ctx"]["peek"] is None
    assert st["known"] == [[], []]
    # Back at the turn node: the can is face down, so no more peeking with it today.
    assert t.at("turn", 0)
    assert not any(WORMS <= a < WORMS + 9 for a in t.legal())
    t.act(CAST + 1, "turn", 0)
    assert t.obs(0)["ctx"]["cast"]["fish"] == "Sheepshead"
    t.act(die("P1"), "pay")
    t.act(CATCH, "pay")
    t.act(PASS, "turn", 1)
    t.take_reward(1, DINKS["Scad"])
    assert t.at("turn", 0)
    assert not any(WORMS <= a < WORMS + 9 for a in t.legal())


def test_can_of_worms_may_leave_the_fish_on_top(backend: Backend) -> None:
    t = monday(backend, 2, tops={2: [FISH["Sheepshead"]]})
    t.act(WORMS + 2, "turn", 0)
    t.act(LEAVE_ON_TOP, "worms")
    st = t.st
    assert st["shoals"][2][0] == FISH["Sheepshead"]
    assert st["face_up"][2] is False
    # Seat 0 has seen the face-down top: the shoal is known to it (and only to it).
    assert st["known"] == [[2], []]
    assert t.obs(0)["shoals"][2]["known"] == "Sheepshead"
    assert t.obs(1)["shoals"][2]["known"] is None
    assert t.at("turn", 0)


# ======================================================================================
# Passing, rewards and the last player's turns (§6.4)
# ======================================================================================


def test_passing_gives_a_reward_and_the_last_player_two_more_turns(backend: Backend) -> None:
    tops = {0: [FISH["Osteofish"], FISH["Geist"], FISH["Foot"]]}
    t = monday(backend, 2, tops=tops)
    t.act(PASS, "turn", 0)
    st = t.st
    assert st["players"][0]["passed"] is True
    assert st["last_turns"] == 2
    assert (st["node"], st["actor"], st["turn"]) == ("reward", 0, 0)
    # No regret to discard: only the dink.
    assert t.legal() == [DRAW_A_DINK]
    assert t.state.action_label(DRAW_A_DINK) == "draw a dink"
    assert t.state.action_label(DISCARD_RANDOM) == "discard a random regret"
    t.act(DRAW_A_DINK, "reward")
    t.act(DINKS["Moon Jellyfish"], "draw_dink", 0)
    # Seat 1 catches a difficulty-0 fish without paying.
    t.act(CAST + 0, "turn", 1)
    assert t.legal() == [CATCH, DECLINE]
    t.act(CATCH, "pay")
    t.act(1, "draw_regret", 1)  # Osteofish: catch ability
    assert t.st["last_turns"] == 1
    # Seat 0 is skipped and rewarded again.
    assert t.at("reward", 0) and t.st["turn"] == 0
    t.act(DRAW_A_DINK, "reward")
    t.act(DINKS["Whitebait"], "draw_dink")
    t.catch(1, 0)
    t.act(1, "draw_regret", 1)  # Geist: catch ability
    # The second extra turn ends the day at once: no more reward, Tuesday begins.
    st = t.st
    assert st["players"][0]["dinks"] == [DINKS["Moon Jellyfish"], DINKS["Whitebait"]]
    assert st["players"][1]["hand"] == [FISH["Osteofish"], FISH["Geist"]]
    assert (st["day"], st["first_player"], st["last_turns"], st["turn"]) == (2, 1, None, None)
    assert (st["phase"], st["node"], st["actor"]) == ("refresh", "muster_select", 1)
    assert [seat["passed"] for seat in st["players"]] == [False, False]


def test_without_a_dink_to_draw_the_reward_discard_may_be_refused(backend: Backend) -> None:
    """The summary: "Kierroksen väliin jättänyt ja pelaaja joka kierroksella jätetään väliin, saa
    aina sinttikortin TAI saa poistaa katumuskortin." (Who passes, and who is skipped in a round,
    always gets a dink OR may remove a regret.) The removal is a permission (Decision 22): once
    the 25 dinks are all held, a rewarded seat holding a regret may discard a random one or take
    nothing (both backends used to force the discard)."""
    t = monday(backend, 5, tops={0: [FISH["Osteofish"]]})
    t.catch(0, 0)
    t.act(1, "draw_regret", 0)  # Osteofish's catch ability: seat 0 draws a regret of value 1.
    # Everybody passes every day, each reward a dink, until the dinks run out.
    t.auto(lambda t: t.at("reward") and DRAW_A_DINK not in t.legal())
    st = t.st
    assert (st["day"], st["actor"], st["dink_deck"], st["dink_discard"]) == (6, 0, [], [])
    assert sum(len(seat["dinks"]) for seat in st["players"]) == len(DINKS)
    assert t.legal() == [TAKE_NOTHING, DISCARD_RANDOM]
    assert t.state.action_label(TAKE_NOTHING) == "take nothing"
    kept = t.state.clone()
    kept.apply(TAKE_NOTHING)
    after = kept.to_dict()["state"]
    assert after["players"][0]["regrets"] == [0, 1, 0, 0]
    assert after["node"] not in ("reward", "discard_random_regret")
    # Discarding is still there for a seat that wants it.
    t.act(DISCARD_RANDOM, "reward", 0)
    assert t.at("discard_random_regret", 0)
    t.state.apply(t.legal()[0])
    assert t.seat(0)["regrets"] == [0, 0, 0, 0]


def test_last_turns_start_when_the_second_last_seat_passes(backend: Backend) -> None:
    tops = {0: [FISH["Osteofish"], FISH["Geist"], FISH["Foot"]]}
    t = monday(backend, 3, tops=tops)
    t.pass_turn(0, DINKS["Toe"])
    assert t.st["last_turns"] is None
    t.pass_turn(1, DINKS["Shrimp"])
    assert t.st["last_turns"] == 2
    t.catch(2, 0)
    t.act(1, "draw_regret", 2)  # Osteofish: catch ability
    assert t.st["last_turns"] == 1
    # Both passed seats are rewarded at their skips, in turn order.
    t.take_reward(0, DINKS["Eel"])
    t.take_reward(1, DINKS["Crab"])
    t.catch(2, 0)
    t.act(1, "draw_regret", 2)  # Geist: catch ability
    st = t.st
    assert st["day"] == 2
    assert st["players"][0]["dinks"] == [DINKS["Toe"], DINKS["Eel"]]
    assert st["players"][1]["dinks"] == [DINKS["Shrimp"], DINKS["Crab"]]
    assert st["players"][2]["dinks"] == []


def test_the_day_ends_when_everybody_has_passed(backend: Backend) -> None:
    t = monday(backend, 2)
    t.pass_turn(0, DINKS["Toe"])
    t.act(PASS, "turn", 1)
    # The last pass still earns its reward, then the day ends.
    t.take_reward(1, DINKS["Eel"])
    st = t.st
    assert (st["day"], st["phase"], st["node"]) == (2, "refresh", "muster_select")
    assert st["players"][1]["dinks"] == [DINKS["Eel"]]


def test_abandon_ship_after_the_main_action_still_leaves_four_port_actions(
    backend: Backend,
) -> None:
    """Rulebook p.10 (quoted in the rules' sources): "If all other players have passed when a
    player uses their lifeboat, they may still take FOUR actions at Port." Abandoned at
    ``after_main``, the turn's main action was a cast at sea, so the four port actions are the
    four turns after it: ``last_turns`` becomes 5, and EndTurn brings it to 4 (contract §6,
    Decision 22)."""
    tops = {0: [FISH["Goliath Grouper"], FISH["Coelacanth"]]}
    t = after_a_catch(backend, tops)
    t.pass_turn(1, DINKS["Toe"])
    t.free_after_main = True
    t.catch(0, 0, "P3")
    assert t.at("after_main", 0) and ABANDON in t.legal()
    t.act(ABANDON, "after_main", 0)
    assert t.st["last_turns"] == 5
    assert t.seat(0)["depth"] == 0
    t.auto(lambda t: t.at("after_main", 0))
    t.act(END_TURN, "after_main", 0)
    assert t.st["last_turns"] == 4
    t.free_after_main = False
    port_actions = []
    while t.st["day"] == 1:
        if t.at("turn", 0):
            legal = t.legal()
            wanted = [SELL, MOUNT, *(shop(k, c) for k in ("rod", "reel") for c in (1, 3, 5))]
            action = next(a for a in wanted if a in legal)
            port_actions.append(t.state.action_label(action))
            t.act(action, "turn", 0)
        else:
            t.default()
    assert len(port_actions) == 4, port_actions


def test_abandon_ship_after_all_others_passed_gives_four_port_actions(backend: Backend) -> None:
    tops = {0: [FISH["Goliath Grouper"], FISH["Coelacanth"]]}
    t = after_a_catch(backend, tops)
    t.pass_turn(1, DINKS["Toe"])
    t.catch(0, 0, "P3")
    assert t.st["last_turns"] == 1
    t.take_reward(1, DINKS["Eel"])
    # Abandon ship (a free action): the lifeboat is used, the boat makes port (muster again),
    # 4 port actions counting this turn's main action.
    t.act(ABANDON, "turn", 0)
    st = t.st
    assert st["last_turns"] == 4
    assert st["players"][0]["lifeboat_used"] is True
    assert st["players"][0]["depth"] == 0
    assert (st["node"], st["actor"]) == ("muster_select", 0)
    assert st["ctx"]["left"] is None
    assert t.legal() == [ROLL_NOW, die("P3")]
    assert t.state.action_label(ROLL_NOW) == "roll"
    assert t.state.action_label(die("P3")) == "reroll P3"
    t.act(ROLL_NOW, "muster_select")
    assert t.st["ctx"]["to_roll"] == ["P", "P"]
    t.rolls(1, 2)
    assert t.seat(0)["fresh"] == ["P1", "P2", "P3"]
    # No regret: no discard node; back at seat 0's turn node, now in port.
    assert t.st["last_turns"] == 4
    # In port: sell, mount (no money for a shop), eat.
    assert t.legal() == [PASS, SELL, MOUNT, eat("Goliath Grouper"), eat("Coelacanth")]
    t.act(SELL, "turn", 0)
    assert t.legal() == [sell("Goliath Grouper"), sell("Coelacanth")]
    assert t.state.action_label(sell("Coelacanth")) == "sell Coelacanth"
    # Labels do not depend on legality: "done" is listed for the sell node.
    assert t.state.action_label(DONE) == "done selling"
    t.act(sell("Goliath Grouper"), "sell")
    st = t.st
    # Fair value 4 + 2 (no regrets) = $6.
    assert st["players"][0]["money"] == 6
    assert (st["ctx"]["count"], st["ctx"]["foul"]) == (1, 0)
    assert st["fish_discard"][0] == [FISH["Goliath Grouper"]]
    assert t.legal() == [DONE, sell("Coelacanth")]
    assert t.state.action_label(DONE) == "done selling"
    t.act(sell("Coelacanth"), "sell")
    # 6 + 6 = 12, capped at $10; the sale ends by itself with no sellable fish left.
    st = t.st
    assert st["players"][0]["money"] == 10
    assert (st["ctx"]["count"], st["last_turns"]) == (0, 3)
    t.take_reward(1, DINKS["Scad"])
    t.act(shop("rod", 1), "turn", 0)
    assert t.at("draw_rod", 0)
    assert t.st["ctx"]["shop"] == {"shop": 0, "drawn": []}
    assert t.state.chance_outcomes() == [(r, 0.1) for r in range(10)]
    assert t.state.action_label(RODS["Narwhal Rod"]) == "draw Narwhal Rod"
    t.act(RODS["Narwhal Rod"], "draw_rod")
    # $1: draw 1, keep 1, automatically; not equipped before the next Declaration.
    st = t.st
    assert st["players"][0]["rods"] == [RODS["Narwhal Rod"]]
    assert st["players"][0]["rod"] is None
    assert st["players"][0]["money"] == 9
    assert st["players"][0]["shops_used"] == [True, False, False, False]
    assert st["ctx"]["shop"] is None
    assert st["last_turns"] == 2
    assert t.obs(1)["rods"] == [["Narwhal Rod"], []]
    t.take_reward(1, DINKS["Pinfish"])
    assert t.legal() == [PASS, *range(85, 94)]
    # Tackle $3: two dice from the bag; the first fits under the max of 4, the second does not.
    t.act(shop("tackle", 3), "turn", 0)
    assert t.at("draw_bag", 0)
    assert t.state.chance_outcomes() == [(0, 9 / 24), (1, 8 / 24), (2, 7 / 24)]
    assert t.state.action_label(0) == "draw a blue tackle die"
    assert t.state.action_label(1) == "draw a green tackle die"
    assert t.state.action_label(2) == "draw a orange tackle die"
    t.act(2, "draw_bag")
    assert t.at("roll", 0)
    assert t.st["ctx"]["to_roll"] == ["O"]
    assert t.state.chance_outcomes() == [(2, 0.5), (3, 0.5)]
    assert t.state.action_label(3) == "O die rolls 3"
    t.act(3, "roll")
    t.act(1, "draw_bag")
    st = t.st
    assert st["players"][0]["fresh"] == ["P1", "P2", "P3", "O3"]
    assert st["players"][0]["spent"] == ["G"]
    assert st["bag"] == [9, 7, 6]
    assert st["players"][0]["money"] == 6
    assert st["last_turns"] == 1
    t.take_reward(1, DINKS["Finger"])
    t.act(shop("supply", 5), "turn", 0)
    t.acts("draw_supply", 0, 9, 12, 4, 19)
    t.acts("shop_keep", SUPPLY + 9, SUPPLY + 0, SUPPLY + 4)
    # The fourth port action ends the day at once (seat 1 was rewarded at 3 skips).
    st = t.st
    assert st["players"][0]["money"] == 1
    assert st["players"][0]["supplies"] == [0, 4, 9]
    assert (st["day"], st["first_player"]) == (2, 1)
    # Tuesday: the boat in port goes to sea at depth I without a choice and equips its rod.
    t.auto(lambda t: t.st["phase"] == "declaration")
    assert t.at("declare", 1)
    t.act(STAY, "declare", 1)
    st = t.st
    assert (st["node"], st["actor"], st["phase"]) == ("turn", 1, "actions")
    assert st["players"][0]["depth"] == 1
    assert st["players"][0]["rod"] == RODS["Narwhal Rod"]


def test_tuesday_muster_keeps_fresh_dice_and_spends_the_overflow(backend: Backend) -> None:
    tops = {0: [FISH["Goliath Grouper"], FISH["Coelacanth"]]}
    t = tackle_after_a_sale(backend, tops)
    st = t.st
    assert st["players"][0]["fresh"] == ["P1", "P3", "P3", "O2"]
    assert st["players"][0]["spent"] == ["B", "G"]
    assert st["bag"] == [8, 7, 6]
    t.take_reward(1, DINKS["Scad"])
    t.act(PASS, "turn", 0)
    t.take_reward(0, DINKS["Pinfish"])
    # Tuesday, seat 1 musters first; then seat 0: rerolling nothing, the two Spent dice find no
    # room (4 Fresh, max 4) and stay Spent.
    t.act(ROLL_NOW, "muster_select", 1)
    assert t.at("muster_select", 0)
    t.act(ROLL_NOW, "muster_select", 0)
    assert t.st["ctx"]["to_roll"] == ["B", "G"]
    t.rolls(2, 3)
    st = t.st
    assert st["players"][0]["fresh"] == ["P1", "P3", "P3", "O2"]
    assert st["players"][0]["spent"] == ["B", "G"]


def test_muster_chooses_which_rolled_dice_to_keep(backend: Backend) -> None:
    tops = {0: [FISH["Goliath Grouper"]]}
    t = tackle_after_a_sale(backend, tops)
    t.take_reward(1, DINKS["Scad"])
    t.act(PASS, "turn", 0)
    t.take_reward(0, DINKS["Pinfish"])
    t.act(ROLL_NOW, "muster_select", 1)
    # Seat 0 rerolls P1 and O2: with the two Spent dice, four dice roll for two free places.
    t.act(die("P1"), "muster_select", 0)
    assert t.st["ctx"]["to_roll"] == ["P"]
    assert t.st["ctx"]["left"] is None
    assert t.legal() == [ROLL_NOW, die("P3"), die("O2")]
    t.act(die("O2"), "muster_select", 0)
    t.act(ROLL_NOW, "muster_select", 0)
    assert t.st["ctx"]["to_roll"] == ["P", "B", "G", "O"]
    assert t.st["players"][0]["spent"] == []
    assert t.st["ctx"]["left"] == 0
    t.rolls(2, 0, 3, 3)
    st = t.st
    assert st["ctx"]["rolled"] == ["P2", "B0", "G3", "O3"]
    assert (st["node"], st["actor"], st["ctx"]["left"]) == ("muster_keep", 0, 2)
    assert t.legal() == [die("P2"), die("B0"), die("G3"), die("O3")]
    assert t.state.action_label(die("G3")) == "keep G3"
    t.act(die("G3"), "muster_keep")
    assert t.st["ctx"]["left"] == 1
    assert t.st["ctx"]["rolled"] == ["P2", "B0", "O3"]
    t.act(die("O3"), "muster_keep")
    st = t.st
    assert st["players"][0]["fresh"] == ["P3", "P3", "G3", "O3"]
    assert st["players"][0]["spent"] == ["P", "B"]
    assert st["ctx"]["rolled"] == []
    assert st["ctx"]["left"] == 0
    assert t.at("life_preserver")


# ======================================================================================
# The Start phase and the weekdays (§6.1)
# ======================================================================================


def test_start_phase_discards_revealed_fish_and_reels_boats_in(backend: Backend) -> None:
    t = monday(backend, 3, tops={1: [FISH["Hammerhead Shark"]]}, give=1)
    t.act(die("P1"), "turn", 0)
    t.act(die("P2"), "turn", 0)
    t.pass_turn(0, DINKS["Toe"])
    t.decline(1, 1, "P1", DINKS["Eel"])
    t.pass_turn(2, DINKS["Crab"])
    t.take_reward(0, DINKS["Scad"])
    t.act(die("P2"), "turn", 1)
    t.pass_turn(1, DINKS["Shrimp"])
    st = t.st
    assert st["day"] == 2
    assert st["first_player"] == 1
    assert st["fish_discard"] == [[FISH["Hammerhead Shark"]], [], []]
    assert len(st["shoals"][1]) == 12
    assert st["face_up"][1] is False
    assert [seat["depth"] for seat in st["players"]] == [2, 1, 1]
    assert [seat["passed"] for seat in st["players"]] == [False, False, False]
    assert (st["last_turns"], st["life_preserver"], st["turn"]) == (None, None, None)
    # The Refresh phase starts with the new first player.
    assert (st["phase"], st["node"], st["actor"]) == ("refresh", "muster_select", 1)


def test_first_player_marker_moves_each_day(backend: Backend) -> None:
    t = monday(backend, 3)
    firsts = []
    for day in range(2, 7):

        def actions_of(t: Table, day: int = day) -> bool:
            return bool(t.st["day"] == day and t.st["phase"] == "actions")

        t.auto(actions_of)
        firsts.append((t.st["first_player"], t.st["turn"]))
    assert firsts == [(1, 1), (2, 2), (0, 0), (1, 1), (2, 2)]


def test_can_of_worms_turns_face_up_on_wednesday_and_friday(backend: Backend) -> None:
    t = monday(backend, 2, tops={0: [FISH["Sheepshead"], FISH["Osteofish"]]})
    t.catch(0, 0, "P1", worms=True)
    t.to_turn(0, day=2)
    assert t.seat(0)["worms"] is False
    assert not any(WORMS <= a < WORMS + 9 for a in t.legal())
    t.catch(0, 0)  # Osteofish, difficulty 0
    t.to_turn(0, day=3)
    assert t.seat(0)["worms"] is True
    t.act(WORMS + 2, "turn", 0)
    t.act(LEAVE_ON_TOP, "worms")
    t.act(CAST + 2, "turn", 0)
    t.act(DECLINE, "pay")
    t.act(die("P1"), "decline_die")
    t.act(DINKS["Toe"], "draw_dink")
    t.to_turn(0, day=4)
    assert t.seat(0)["worms"] is False
    t.to_turn(0, day=5)
    assert t.seat(0)["worms"] is True


def selling_grouper_and_sheepshead(backend: Backend) -> Table:
    """Two seats: seat 0 has caught the Goliath Grouper and the Sheepshead, abandoned ship and
    chosen to sell at port before Thursday; selling both brings seat 0 to exactly $10."""
    tops = {0: [FISH["Goliath Grouper"], FISH["Sheepshead"]]}
    t = after_a_catch(backend, tops)
    t.pass_turn(1, DINKS["Toe"])
    t.catch(0, 0, "P3")
    t.take_reward(1, DINKS["Eel"])
    t.act(ABANDON, "turn", 0)
    t.act(ROLL_NOW, "muster_select")
    t.rolls(1, 1)
    t.take_reward(1, DINKS["Crab"])
    t.act(SELL, "turn", 0)
    return t


def test_thursday_is_payday_capped_at_ten(backend: Backend) -> None:
    t = selling_grouper_and_sheepshead(backend)
    t.acts("sell", sell("Goliath Grouper"), sell("Sheepshead"))
    # Goliath Grouper 4 + 2 and Sheepshead 2 + 2: $10.
    assert t.seat(0)["money"] == 10
    t.auto(lambda t: t.st["day"] == 4)
    assert [t.seat(p)["money"] for p in range(2)] == [10, 3]


def test_saturday_every_seat_takes_an_orange_die(backend: Backend) -> None:
    t = monday(backend, 2)
    t.auto(lambda t: t.st["day"] == 6)
    st = t.st
    assert st["bag"] == [9, 8, 5]
    assert [seat["spent"] for seat in st["players"]] == [["O"], ["O"]]
    assert [seat["fresh"] for seat in st["players"]] == [["P1", "P2", "P3"]] * 2


def five_seats_buying_three_tackle_dice(backend: Backend, third: int) -> Table:
    """Five seats: seat 0 catches the Goliath Grouper, abandons ship, sells it at port and buys
    three tackle dice for $5 (two orange ones, then one of colour ``third``: 0 blue, 1 green, 2
    orange), while the others pass."""
    t = monday(backend, 5, tops={0: [FISH["Goliath Grouper"]]}, dice={0: (3, 3, 3)})
    t.catch(0, 0, "P3")
    for p in range(1, 5):
        t.pass_turn(p, None)
    assert t.st["last_turns"] == 2
    t.act(ABANDON, "turn", 0)
    t.act(ROLL_NOW, "muster_select")
    t.rolls(1)
    for p in range(1, 5):
        t.take_reward(p, None)
    t.act(SELL, "turn", 0)
    t.act(sell("Goliath Grouper"), "sell")
    for p in range(1, 5):
        t.take_reward(p, None)
    t.act(shop("tackle", 5), "turn", 0)
    t.act(2, "draw_bag")
    t.act(2, "roll")
    t.acts("draw_bag", 2, third)
    return t


def test_saturday_falls_back_to_green_without_orange_for_everyone(backend: Backend) -> None:
    t = five_seats_buying_three_tackle_dice(backend, 2)
    assert t.st["bag"] == [9, 8, 4]
    t.auto(lambda t: t.st["day"] == 6)
    st = t.st
    # Only 4 orange dice for 5 seats: everyone takes a green one.
    assert st["bag"] == [9, 3, 4]
    assert st["players"][0]["spent"] == ["G", "O", "O"]
    assert all(st["players"][p]["spent"] == ["G"] for p in range(1, 5))


def test_saturday_hands_out_orange_when_the_bag_holds_exactly_one_per_seat(
    backend: Backend,
) -> None:
    """Sources, day effects: "Saturday: every player takes 1 tackle die from the bag into their
    Spent pool. Use orange if the bag holds enough orange for every player, otherwise green if
    enough, otherwise blue". Five orange dice for five seats is enough: at the boundary orange is
    still handed out (the day-6-tackle mutation of `GAME.mutations`)."""
    t = five_seats_buying_three_tackle_dice(backend, 1)
    assert t.st["bag"] == [9, 7, 5]
    t.auto(lambda t: t.st["day"] == 6)
    st = t.st
    # Exactly 5 orange dice for 5 seats: everyone takes an orange one.
    assert st["bag"] == [9, 7, 0]
    assert all(st["players"][p]["spent"] == ["O"] for p in range(1, 5))
    assert st["players"][0]["spent"].count("O") == 2


# ======================================================================================
# Declaration (§6.3) and making port (§7.2)
# ======================================================================================


def syringe_monday(backend: Backend, players: int = 2, **options: Any) -> Table:
    """Seat 0 passes at once and draws the Syringe (draw 2 regrets) as its reward."""
    t = monday(backend, players, **options)
    t.pass_turn(0, DINKS["Syringe"])
    return t


def test_declaration_lets_a_boat_at_sea_make_port(backend: Backend) -> None:
    t = monday(backend, 2)
    t.pass_turn(0, DINKS["Toe"])
    t.pass_turn(1, DINKS["Eel"])
    t.auto(lambda t: t.st["phase"] == "declaration")
    st = t.st
    assert (st["node"], st["actor"], st["day"]) == ("declare", 1, 2)
    assert t.legal() == [STAY, MAKE_PORT]
    assert t.state.action_label(STAY) == "stay at sea"
    assert t.state.action_label(MAKE_PORT) == "make port"
    t.act(MAKE_PORT, "declare", 1)
    # Making port musters again: the Fresh dice may be rerolled.
    st = t.st
    assert st["players"][1]["depth"] == 0
    assert (st["node"], st["actor"]) == ("muster_select", 1)
    t.act(ROLL_NOW, "muster_select", 1)
    # No regret held: no discard; seat 0 declares next.
    t.act(STAY, "declare", 0)
    st = t.st
    assert (st["phase"], st["node"], st["actor"]) == ("actions", "turn", 1)
    assert [seat["depth"] for seat in st["players"]] == [1, 0]
    assert t.legal() == [PASS]


def test_making_port_turns_the_worms_up_and_may_discard_a_regret(backend: Backend) -> None:
    t = syringe_monday(backend, 2, tops={0: [FISH["Sheepshead"]]})
    t.catch(1, 0, "P1", worms=True)
    assert t.seat(1)["worms"] is False
    t.take_reward(0, DINKS["Toe"])
    t.pass_turn(1, DINKS["Eel"])
    # Tuesday: seat 1 (first player) makes port: it musters and its can turns face up.
    t.auto(lambda t: t.at("declare", 1))
    t.act(MAKE_PORT, "declare", 1)
    t.act(ROLL_NOW, "muster_select", 1)  # its Spent die was rolled at the Refresh already
    assert t.seat(1)["worms"] is True
    assert t.seat(1)["fresh"] == ["P1", "P2", "P3"]
    t.act(STAY, "declare", 0)
    t.to_turn(0, day=2)
    t.act(DINK + DINKS["Syringe"], "turn", 0)
    t.acts("draw_regret", 1, 3)
    t.pass_turn(0, DINKS["Scad"])
    # Wednesday: seat 0 makes port and may discard one regret of its choice.
    t.auto(lambda t: t.at("declare", 0))
    t.act(MAKE_PORT, "declare", 0)
    t.auto(lambda t: not t.at("muster_select") and not t.at("roll"))
    st = t.st
    assert (st["node"], st["actor"], st["day"]) == ("port_discard", 0, 3)
    assert t.legal() == [KEEP_ALL, REGRET + 1, REGRET + 3]
    assert t.state.action_label(KEEP_ALL) == "keep all regrets"
    assert t.state.action_label(REGRET + 3) == "discard a regret of value 3"
    t.act(REGRET + 3, "port_discard")
    st = t.st
    assert st["players"][0]["regrets"] == [0, 1, 0, 0]
    assert st["regret_discard"] == [0, 0, 0, 1]
    # Seat 1 was in port: back to sea at depth I without a node; the Actions phase begins.
    assert st["players"][1]["depth"] == 1
    assert (st["node"], st["actor"], st["phase"]) == ("turn", 0, "actions")


def test_rods_and_reels_are_equipped_at_declaration(backend: Backend) -> None:
    tops = {0: [FISH["Goliath Grouper"], FISH["Coelacanth"]]}
    t = after_a_catch(backend, tops)
    t.pass_turn(1, None)
    t.catch(0, 0, "P3")
    t.take_reward(1, None)
    t.act(ABANDON, "turn", 0)
    t.act(ROLL_NOW, "muster_select")
    t.rolls(1, 1)
    t.take_reward(1, None)
    t.act(SELL, "turn", 0)
    t.acts("sell", sell("Goliath Grouper"), sell("Coelacanth"))
    t.take_reward(1, None)
    t.act(shop("rod", 5), "turn", 0)
    t.acts("draw_rod", 1, 6, 0, 2, 3)
    st = t.st
    assert (st["node"], st["ctx"]["left"]) == ("shop_keep", 2)
    assert st["ctx"]["shop"] == {"shop": 0, "drawn": [1, 6, 0, 2, 3]}
    assert t.obs(0)["ctx"]["shop"] == {
        "shop": "rod",
        "drawn": [
            "Rod of Fortune",
            "Lucky Pole",
            "Narwhal Rod",
            "Rod of Manchineel",
            "Split Bamboo Pole",
        ],
    }
    assert t.obs(1)["ctx"]["shop"] == {"shop": "rod", "drawn": [None] * 5}
    assert t.legal() == [ROD + 0, ROD + 1, ROD + 2, ROD + 3, ROD + 6]
    assert t.state.action_label(ROD + 6) == "keep Lucky Pole"
    assert t.state.action_label(REEL + 6) == "action 161"
    t.act(ROD + 6, "shop_keep")
    assert t.st["ctx"]["left"] == 1
    assert t.st["ctx"]["shop"]["drawn"] == [1, 0, 2, 3]
    t.act(ROD + 1, "shop_keep")
    st = t.st
    assert st["players"][0]["rods"] == [1, 6]
    assert st["rod_deck"] == [0, 2, 3, 4, 5, 7, 8, 9]
    assert st["players"][0]["money"] == 5
    t.take_reward(1, None)
    t.act(shop("reel", 1), "turn", 0)
    t.act(REELS["Stop-Latch"], "draw_reel")
    t.take_reward(1, None)
    t.act(PASS, "turn", 0)
    t.take_reward(0, None)
    t.auto(lambda t: t.st["phase"] == "declaration")
    t.act(STAY, "declare", 1)
    # Seat 0 comes back from port: depth 1 without a choice, then chooses among its two rods.
    st = t.st
    assert (st["node"], st["actor"]) == ("equip_rod", 0)
    assert st["players"][0]["depth"] == 1
    assert t.legal() == [ROD + 1, ROD + 6]
    assert t.state.action_label(ROD + 1) == "equip Rod of Fortune"
    t.act(ROD + 6, "equip_rod")
    # The only reel is equipped automatically.
    st = t.st
    assert (st["players"][0]["rod"], st["players"][0]["reel"]) == (6, REELS["Stop-Latch"])
    assert t.obs(1)["rod"] == ["Lucky Pole", None]
    assert t.obs(1)["reel"] == ["Stop-Latch", None]
    assert st["phase"] == "actions"


# ======================================================================================
# Port actions: selling, mounting (§7.3)
# ======================================================================================


def test_selling_foul_fish_draws_regrets_after_the_sale(backend: Backend) -> None:
    tops = {
        0: [FISH["Goliath Grouper"], FISH["Ghoul Ray"], FISH["Halley's Folly"]],
        1: [FISH["Flounder"]],
    }
    t = monday(backend, 2, tops=tops, dice={0: (3, 3, 3)})
    t.catch(0, 0, "P3")  # Goliath Grouper
    t.decline(1, 1, "P1", 0)
    t.catch(0, 0, "P3")  # Ghoul Ray: its catch ability draws a regret (of value 0)
    t.act(0, "draw_regret", 0)
    t.decline(1, 1, "P2", 1)
    t.act(ABANDON, "turn", 0)
    t.act(ROLL_NOW, "muster_select")
    t.rolls(3, 3)
    t.act(KEEP_ALL, "port_discard", 0)
    # Abandoning ship is a free action: in port, the turn's main action may be a sale.
    t.act(SELL, "turn", 0)
    t.act(sell("Ghoul Ray"), "sell")
    st = t.st
    # Foul 2 - 1 (one regret) = $1; the regret comes after the sale.
    assert (st["players"][0]["money"], st["ctx"]["count"], st["ctx"]["foul"]) == (1, 1, 1)
    assert st["players"][0]["regrets"] == [1, 0, 0, 0]
    assert t.obs(1)["ctx"]["foul"] == 1
    t.act(sell("Goliath Grouper"), "sell")
    st = t.st
    assert st["players"][0]["money"] == 6
    assert st["fish_discard"][0] == [FISH["Ghoul Ray"], FISH["Goliath Grouper"]]
    # The sale ended (no sellable fish left): one regret per foul fish sold.
    assert (st["node"], st["actor"]) == ("draw_regret", 0)
    assert (st["ctx"]["count"], st["ctx"]["foul"]) == (0, 0)
    assert t.state.chance_outcomes() == [(0, 5 / 59), (1, 24 / 59), (2, 20 / 59), (3, 10 / 59)]
    assert t.state.action_label(2) == "draw a regret of value 2"
    t.act(2, "draw_regret")
    st = t.st
    assert st["players"][0]["regrets"] == [1, 0, 1, 0]
    assert st["regret_deck"] == [5, 24, 19, 10]
    assert t.obs(0)["regrets"] == [0, 2]
    assert t.obs(1)["regrets"] == []
    assert t.obs(1)["regret_count"] == [2, 0]
    assert t.obs(1)["decks"]["regret"] == 58
    assert t.at("turn", 1)


def test_one_sale_uses_one_madness_level(backend: Backend) -> None:
    tops = {
        0: [FISH["Ghoul Ray"], FISH["Tumorous Fish"], FISH["Goliath Grouper"]],
        1: [FISH["Flounder"]],
    }
    t = after_a_catch(backend, tops)
    t.act(0, "draw_regret", 0)  # Ghoul Ray's catch ability
    t.decline(1, 1, "P1", 0)
    t.catch(0, 0, "P3")
    t.act(0, "draw_regret", 0)  # Tumorous Fish's catch ability
    t.decline(1, 1, "P2", 1)
    t.catch(0, 0, "P3")
    t.decline(1, 1, "P3", 2)
    t.act(ABANDON, "turn", 0)
    t.rolls(1, 1, 1)  # no Fresh die left: no choice, the three Spent dice roll
    t.act(KEEP_ALL, "port_discard", 0)
    t.act(SELL, "turn", 0)
    t.act(sell("Ghoul Ray"), "sell")
    t.act(sell("Tumorous Fish"), "sell")
    t.act(DONE, "sell")
    # Both sold with 2 regrets (tier 1-3: foul -1): $1 each; the two regrets come after.
    assert t.seat(0)["money"] == 2
    t.acts("draw_regret", 1, 1)
    assert t.seat(0)["regrets"] == [2, 2, 0, 0]
    t.pass_turn(1, 3)
    # With 4 regrets (tier 4-6: fair +1): Goliath Grouper sells for 4 + 1.
    t.act(SELL, "turn", 0)
    t.act(sell("Goliath Grouper"), "sell")
    assert t.seat(0)["money"] == 7


def mounting_three_fish(backend: Backend) -> Table:
    """Seat 0 has caught a Goliath Grouper, a Sheepshead and a Coelacanth, abandoned its turn
    (no Fresh die left: no choice, the three Spent dice roll) and chosen to mount."""
    tops = {
        0: [FISH["Goliath Grouper"], FISH["Sheepshead"], FISH["Coelacanth"]],
        1: [FISH["Flounder"]],
    }
    t = after_a_catch(backend, tops)
    t.decline(1, 1, "P1", 0)
    t.catch(0, 0, "P3")
    t.decline(1, 1, "P2", 1)
    t.catch(0, 0, "P3")
    t.decline(1, 1, "P3", 2)
    t.act(ABANDON, "turn", 0)
    t.rolls(1, 1, 1)
    t.act(MOUNT, "turn", 0)
    return t


def test_mounting_fills_empty_slots_one_by_one(backend: Backend) -> None:
    t = mounting_three_fish(backend)
    st = t.st
    assert (st["node"], st["actor"]) == ("mount_slot", 0)
    assert t.legal() == [SLOT + 0, SLOT + 1, SLOT + 2]
    assert t.state.action_label(SLOT + 1) == "mount in slot 1 (x3)"
    assert t.state.action_label(SLOT + 2) == "mount in slot 2 (x2)"
    assert t.state.action_label(DONE) == "done mounting"
    t.act(SLOT + 1, "mount_slot")
    assert t.st["ctx"]["slot"] == 1
    assert t.legal() == [sell("Sheepshead"), sell("Goliath Grouper"), sell("Coelacanth")][:0] + [
        FISH_ID + f
        for f in sorted([FISH["Goliath Grouper"], FISH["Sheepshead"], FISH["Coelacanth"]])
    ]
    assert t.state.action_label(FISH_ID + FISH["Coelacanth"]) == "mount Coelacanth"
    t.act(FISH_ID + FISH["Coelacanth"], "mount_fish")
    st = t.st
    assert st["players"][0]["mounted"] == [None, FISH["Coelacanth"], None]
    assert (st["ctx"]["slot"], st["ctx"]["count"]) == (None, 1)
    assert t.legal() == [DONE, SLOT + 0, SLOT + 2]
    t.act(SLOT + 2, "mount_slot")
    t.act(FISH_ID + FISH["Sheepshead"], "mount_fish")
    t.act(DONE, "mount_slot")
    st = t.st
    assert st["players"][0]["mounted"] == [None, FISH["Coelacanth"], FISH["Sheepshead"]]
    assert st["players"][0]["hand"] == [FISH["Goliath Grouper"]]
    assert st["ctx"]["count"] == 0
    assert t.obs(1)["mounted"][0] == [None, "Coelacanth", "Sheepshead"]
    t.pass_turn(1, 3)
    # The last empty slot is filled and the action ends by itself.
    t.act(MOUNT, "turn", 0)
    t.act(SLOT + 0, "mount_slot")
    t.act(FISH_ID + FISH["Goliath Grouper"], "mount_fish")
    assert t.seat(0)["mounted"] == [FISH["Goliath Grouper"], FISH["Coelacanth"], FISH["Sheepshead"]]
    # Nothing is left to mount.
    t.take_reward(1, 4)
    assert t.at("turn", 0) and MOUNT not in t.legal()


def test_fish_without_value_cannot_be_sold_or_mounted(backend: Backend) -> None:
    tops = {3: [FISH["Whispering Skull"]], 0: [FISH["Sheepshead"]]}
    t = monday(backend, 2, tops=tops, dice={0: (3, 3, 3)})
    t.act(die("P3"), "turn", 0)
    t.catch(0, 3, "P3")  # Whispering Skull: no value, in front; its catch draws 2 regrets
    t.acts("draw_regret", 0, 0)
    t.pass_turn(1, 0)
    t.act(ABANDON, "turn", 0)
    t.act(ROLL_NOW, "muster_select")
    t.rolls(1, 1)
    t.act(KEEP_ALL, "port_discard", 0)
    assert t.legal() == [PASS, USE_SKULL]  # the skull in front may peek


# ======================================================================================
# Overfishing, regret draws (§7.4, §7.5)
# ======================================================================================


def fish_out_shoal_0(
    backend: Backend, before_catch: Callable[[Table, int], None] | None = None
) -> Table:
    """Three seats catch all 13 fish of shoal 0 on Monday: nine difficulty-1 fish paid with P1
    and four free casts (§16: their abilities run). ``before_catch(t, i)`` runs before the catch of
    the ``i``-th fish whenever the cast reaches the pay node. Stops at the last catch's outcome."""
    shoal = [
        FISH[name]
        for name in [
            "Sheepshead",
            "Sockeye Salmon",
            "Triggerfish",
            "Tidal Trafficker",  # seat 0: a regret and a supply, the cast ends
            "Geist",  # seat 1: difficulty 0, its catch draws a regret
            "Filefish",
            "Osteofish",  # seat 0: difficulty 0, its catch draws a regret
            "Foot",  # seat 1: everyone draws a regret, then a free catch
            "Man O' War",  # seat 2: given to seat 0, the cast ends
            "Mahi-Mahi",
            "Cutthroat Trout",
            "Black Seabass",
            "Flying Gurnard",
        ]
    ]
    t = monday(backend, 3, tops={0: shoal}, dice={p: (1, 1, 1) for p in range(3)})
    for i in range(13):
        p = i % 3
        name = FISH_BY_ID[shoal[i]]["name"]
        t.act(CAST + 0, "turn", p)
        if name == "Tidal Trafficker":
            t.act(1, "draw_regret", p)
            t.act(SUPPLIES["Black Tea"], "draw_supply", p)
        elif name == "Man O' War":
            t.act(GIVE + 0, "give_fish", p)
        else:
            if name == "Foot":
                t.acts("draw_regret", 1, 1, 1)
            if FISH_BY_ID[shoal[i]]["difficulty"]:
                t.act(die("P1"), "pay", p)
            if before_catch is not None:
                before_catch(t, i)
            t.act(CATCH, "pay", p)
            if name in ("Geist", "Osteofish"):
                t.act(1, "draw_regret", p)
        if i < 12:
            assert t.at("turn", (p + 1) % 3)
    return t


def test_catching_the_last_fish_of_a_shoal_draws_a_regret(backend: Backend) -> None:
    t = fish_out_shoal_0(backend)
    st = t.st
    assert st["shoals"][0] == []
    assert (st["node"], st["actor"]) == ("draw_regret", 0)
    t.act(2, "draw_regret")
    st = t.st
    # Tidal Trafficker, Osteofish and Foot drew one each; the overfishing draw a 2.
    assert st["players"][0]["regrets"] == [0, 3, 1, 0]
    assert st["players"][0]["hand"] == sorted(
        FISH[name]
        for name in ["Sheepshead", "Osteofish", "Man O' War", "Mahi-Mahi", "Flying Gurnard"]
    )
    assert st["face_up"][0] is False
    assert t.obs(1)["shoals"][0] == {"size": 0, "top": None, "known": None, "back": None}
    assert t.at("turn", 1)
    assert CAST + 0 not in t.legal()


def test_a_passed_seat_may_discard_a_random_regret(backend: Backend) -> None:
    t = syringe_monday(backend, 2)
    t.pass_turn(1, 0)
    t.to_turn(0, day=2)
    t.act(DINK + DINKS["Syringe"], "turn", 0)
    st = t.st
    assert (st["node"], st["actor"]) == ("draw_regret", 0)
    assert st["ctx"]["item"] == {"kind": "dink", "id": DINKS["Syringe"]}
    assert t.obs(1)["ctx"]["item"] == "Syringe"
    assert st["dink_discard"] == [DINKS["Syringe"]]
    t.acts("draw_regret", 3, 1)
    assert t.st["ctx"]["item"] is None
    t.act(PASS, "turn", 0)
    assert t.legal() == [DRAW_A_DINK, DISCARD_RANDOM]
    t.act(DISCARD_RANDOM, "reward")
    st = t.st
    assert (st["node"], st["actor"]) == ("discard_random_regret", 0)
    assert t.state.chance_outcomes() == [(1, 0.5), (3, 0.5)]
    assert t.state.action_label(3) == "discard a random regret of value 3"
    t.act(3, "discard_random_regret")
    st = t.st
    assert st["players"][0]["regrets"] == [0, 1, 0, 0]
    assert st["regret_discard"] == [0, 0, 0, 1]
    assert t.obs(0)["decks"]["regret_discard"] == 1


# ======================================================================================
# Items (§2.1, §7.3, §7.6)
# ======================================================================================


def rich_monday(
    backend: Backend,
    players: int = 2,
    tops: Mapping[int, Sequence[int]] | None = None,
    port_faces: Sequence[int] = (3, 3),
    give: int | None = None,
) -> Table:
    """Seat 0 catches Goliath Grouper and Coelacanth while the others pass, abandons ship and
    sells both: $10 in port, three port actions left (``last_turns`` 3), its turn."""
    all_tops = {0: [FISH["Goliath Grouper"], FISH["Coelacanth"]], **(tops or {})}
    t = monday(backend, players, tops=all_tops, dice={0: (3, 3, 3)}, give=give)
    t.catch(0, 0, "P3")
    for p in range(1, players):
        t.pass_turn(p, None)
    t.catch(0, 0, "P3")
    skip(t)
    t.act(ABANDON, "turn", 0)
    t.act(ROLL_NOW, "muster_select")
    t.rolls(*port_faces)
    skip(t)
    t.act(SELL, "turn", 0)
    t.acts("sell", sell("Goliath Grouper"), sell("Coelacanth"))
    skip(t)
    assert t.at("turn", 0) and t.seat(0)["money"] == 10 and t.st["last_turns"] == 3
    return t


def skip(t: Table) -> None:
    """The passed seats 1.. take their skip rewards (the first dink in the deck)."""
    for p in range(1, t.players):
        t.take_reward(p, None)


def buy_supplies(t: Table, keep: Sequence[str], others: Sequence[str]) -> None:
    """Seat 0 visits the $5 supply shop: draws ``keep`` + ``others`` and keeps ``keep``."""
    t.act(shop("supply", 5), "turn", 0)
    t.acts("draw_supply", *[SUPPLIES[name] for name in [*keep, *others]])
    t.acts("shop_keep", *[SUPPLY + SUPPLIES[name] for name in keep])
    skip(t)


def buy_reel(t: Table, name: str) -> None:
    t.act(shop("reel", 1), "turn", 0)
    t.act(REELS[name], "draw_reel")
    skip(t)


def buy_rod(t: Table, name: str) -> None:
    t.act(shop("rod", 1), "turn", 0)
    t.act(RODS[name], "draw_rod")
    skip(t)


def tuesday(t: Table) -> None:
    """Seat 0 passes (a dink), and everything runs to seat 0's first turn on Tuesday."""
    if t.st["day"] == 1 and t.at("turn", 0):
        t.pass_turn(0, None)
    t.to_turn(0, day=2)


def reel_on_tuesday(backend: Backend, name: str, port_faces: Sequence[int] = (1, 2)) -> Table:
    """:func:`rich_monday` with the Muster roll showing ``port_faces``; seat 0 buys the reel
    ``name`` and everything runs to its first turn on Tuesday."""
    t = rich_monday(backend, port_faces=port_faces)
    buy_reel(t, name)
    tuesday(t)
    return t


def keep_the_order(t: Table) -> None:
    """At a Rod of the Deep's `reorder` node (§16.5), the fish keep their order."""
    while t.at("reorder"):
        t.act(EAT + t.st["ctx"]["order"][0], "reorder")


@pytest.mark.parametrize(
    ("rod", "hammerhead", "halleys_folly"),
    [
        ("Narwhal Rod", 2, 3),
        ("Rod of Fortune", 2, 4),
        ("Rod of Manchineel", 3, 3),
        ("Split Bamboo Pole", 3, 4),
        ("Wood and Brass Rod", 3, 4),
        ("Trolling Rod", 2, 3),
        ("Lucky Pole", 1, 2),
        ("Rod of the Deep", 3, 4),
    ],
)
def test_the_equipped_rod_lowers_matching_difficulties(
    backend: Backend, rod: str, hammerhead: int, halleys_folly: int
) -> None:
    # Hammerhead Shark: large fair, 3; Halley's Folly: large foul, 4.
    tops = {1: [FISH["Hammerhead Shark"]], 2: [FISH["Halley's Folly"]]}
    t = rich_monday(backend, tops=tops)
    buy_rod(t, rod)
    tuesday(t)
    assert t.seat(0)["rod"] == RODS[rod]
    t.act(CAST + 1, "turn", 0)
    keep_the_order(t)
    assert t.at("pay", 0)
    assert t.obs(1)["ctx"]["cast"]["difficulty"] == hammerhead
    t.act(DECLINE, "pay")
    t.act(die("P3"), "decline_die")
    t.act(t.legal()[0], "draw_dink")
    t.take_reward(1, None)
    t.act(CAST + 2, "turn", 0)
    keep_the_order(t)
    # Halley's Folly's reveal ability: everyone draws a regret (§16.5).
    t.act(1, "draw_regret", 0)
    t.act(1, "draw_regret", 1)
    assert t.at("pay", 0)
    assert t.obs(0)["ctx"]["cast"]["difficulty"] == halleys_folly


def test_lucky_pole_helps_only_the_first_catch_of_the_day(backend: Backend) -> None:
    tops = {1: [FISH["Hammerhead Shark"], FISH["Tiger Shark"]]}
    t = rich_monday(backend, tops=tops)
    buy_rod(t, "Lucky Pole")
    tuesday(t)
    t.act(CAST + 1, "turn", 0)
    assert t.obs(0)["ctx"]["cast"]["difficulty"] == 1
    t.act(die("P3"), "pay")
    t.act(CATCH, "pay")
    t.take_reward(1, None)
    t.act(CAST + 1, "turn", 0)
    assert t.obs(0)["ctx"]["cast"]["difficulty"] == 3


def test_stop_latch_sets_a_die_to_its_top_face_once_a_day(backend: Backend) -> None:
    t = reel_on_tuesday(backend, "Stop-Latch")
    st = t.st
    assert st["players"][0]["fresh"] == ["P1", "P2", "P3"]
    assert USE_REEL in t.legal()
    t.act(USE_REEL, "turn", 0)
    st = t.st
    assert (st["node"], st["actor"], st["ctx"]["left"]) == ("set_max", 0, 1)
    assert st["ctx"]["item"] == {"kind": "reel", "id": REELS["Stop-Latch"]}
    assert t.obs(1)["ctx"]["item"] == "Stop-Latch"
    assert t.legal() == [die("P1"), die("P2")]
    assert t.state.action_label(die("P1")) == "set P1 to 3"
    t.act(die("P1"), "set_max")
    st = t.st
    assert st["players"][0]["fresh"] == ["P2", "P3", "P3"]
    assert st["players"][0]["reel_used"] is True
    assert (st["node"], st["ctx"]["item"], st["ctx"]["left"]) == ("turn", None, 0)
    assert USE_REEL not in t.legal()
    # The reel stays equipped and is ready again the next day.
    t.act(PASS, "turn", 0)
    t.take_reward(0, None)
    t.to_turn(0, day=3)
    assert t.seat(0)["reel"] == REELS["Stop-Latch"]
    assert t.seat(0)["reel_used"] is False
    assert USE_REEL in t.legal()


def test_manifold_reel_sets_two_dice(backend: Backend) -> None:
    t = reel_on_tuesday(backend, "Manifold Reel")
    t.act(USE_REEL, "turn", 0)
    assert t.st["ctx"]["left"] == 2
    t.act(die("P2"), "set_max")
    assert t.st["ctx"]["left"] == 1
    assert t.legal() == [die("P1")]
    t.act(die("P1"), "set_max")
    assert t.seat(0)["fresh"] == ["P3", "P3", "P3"]
    assert t.at("turn", 0)


def test_wood_and_brass_reel_rerolls_up_to_two_dice(backend: Backend) -> None:
    t = reel_on_tuesday(backend, "Wood and Brass Reel")
    t.act(USE_REEL, "turn", 0)
    st = t.st
    assert (st["node"], st["ctx"]["left"]) == ("reroll_select", 2)
    assert t.legal() == [ROLL_NOW, die("P1"), die("P2"), die("P3")]
    assert t.state.action_label(ROLL_NOW) == "roll"
    assert t.state.action_label(die("P2")) == "reroll P2"
    t.act(die("P1"), "reroll_select")
    assert (t.st["ctx"]["left"], t.st["ctx"]["to_roll"]) == (1, ["P"])
    t.act(die("P2"), "reroll_select")
    # Two dice chosen: they roll at once.
    st = t.st
    assert (st["node"], st["ctx"]["to_roll"], st["ctx"]["left"]) == ("roll", ["P", "P"], 0)
    t.rolls(3, 2)
    st = t.st
    assert st["players"][0]["fresh"] == ["P2", "P3", "P3"]
    assert st["ctx"]["item"] is None
    assert t.at("turn", 0)


def test_solid_brass_reel_rerolls_any_number_of_dice(backend: Backend) -> None:
    t = reel_on_tuesday(backend, "Solid Brass Reel")
    t.act(USE_REEL, "turn", 0)
    assert t.st["ctx"]["left"] is None
    t.act(die("P1"), "reroll_select")
    assert t.st["ctx"]["left"] is None
    t.act(ROLL_NOW, "reroll_select")
    t.rolls(2)
    assert t.seat(0)["fresh"] == ["P2", "P2", "P3"]


def test_reel_of_fortune_rerolls_low_dice_on_their_higher_faces(backend: Backend) -> None:
    t = reel_on_tuesday(backend, "Reel of Fortune", port_faces=(1, 1))
    assert t.seat(0)["fresh"] == ["P1", "P1", "P3"]
    t.act(USE_REEL, "turn", 0)
    st = t.st
    assert (st["node"], st["actor"], st["ctx"]["to_roll"]) == ("roll_high", 0, ["P", "P"])
    assert t.state.chance_outcomes() == [(2, 0.5), (3, 0.5)]
    assert t.state.action_label(2) == "P die rolls 2"
    t.act(2, "roll_high")
    t.act(3, "roll_high")
    assert t.seat(0)["fresh"] == ["P2", "P3", "P3"]
    assert t.at("turn", 0)


@pytest.mark.parametrize(("reel", "depth"), [("Reel of the Deep", 2), ("Reel of the Infinite", 2)])
def test_depth_reels_move_the_boat(backend: Backend, reel: str, depth: int) -> None:
    t = rich_monday(backend)
    buy_reel(t, reel)
    # In port the reel is not ready.
    assert USE_REEL not in t.legal()
    tuesday(t)
    t.act(USE_REEL, "turn", 0)
    assert t.seat(0)["depth"] == depth
    assert t.at("turn", 0)


def test_reel_of_the_deep_is_not_ready_at_depth_two(backend: Backend) -> None:
    t = rich_monday(backend)
    buy_reel(t, "Reel of the Deep")
    tuesday(t)
    t.act(die("P3"), "turn", 0)
    assert USE_REEL not in t.legal()
    t.act(die("P3"), "turn", 0)
    t.act(USE_REEL, "turn", 0)
    assert t.seat(0)["depth"] == 2


def test_bone_wheel_cannot_be_used_at_the_turn_node(backend: Backend) -> None:
    t = reel_on_tuesday(backend, "Bone Wheel")
    assert t.seat(0)["reel"] == REELS["Bone Wheel"]
    assert USE_REEL not in t.legal()


def test_supplies_refresh_and_move(backend: Backend) -> None:
    t = rich_monday(backend)
    buy_supplies(t, ["Scotch Egg", "Halley's Diving Bell", "Cloche"], ["Black Tea", "Absinthe"])
    st = t.st
    assert st["players"][0]["supplies"] == [0, 17, 19]
    assert st["supply_deck"] == [i for i in range(20) if i not in (0, 17, 19)]
    # In port: nothing is ready (no Spent die, not at sea, no small fish for the Cloche).
    assert t.legal() == [PASS, 82, 83, 84, 85, 86, 87, 91, 92, 93]
    tuesday(t)
    assert SUPPLY + 0 not in t.legal()  # Fresh 3 dice, none Spent
    assert SUPPLY + 19 not in t.legal()
    t.act(SUPPLY + 17, "turn", 0)  # Halley's Diving Bell: one depth down
    assert t.seat(0)["depth"] == 2
    assert t.st["supply_discard"] == [17]
    t.act(die("P3"), "turn", 0)  # a sinker: depth III, one die Spent
    t.act(SUPPLY + 0, "turn", 0)  # Scotch Egg: refresh one die
    st = t.st
    assert (st["node"], st["actor"], st["ctx"]["left"]) == ("refresh_die", 0, 1)
    assert t.obs(1)["ctx"]["item"] == "Scotch Egg"
    assert t.legal() == [DIE_KIND + 0]
    assert t.state.action_label(DIE_KIND + 0) == "refresh a P die"
    t.act(DIE_KIND + 0, "refresh_die")
    assert (t.st["ctx"]["to_roll"], t.st["ctx"]["left"]) == (["P"], 0)
    t.act(1, "roll")
    st = t.st
    assert st["players"][0]["fresh"] == ["P1", "P3", "P3"]
    assert st["players"][0]["spent"] == []
    assert st["ctx"]["item"] is None
    assert st["supply_discard"] == [0, 17]


def test_payment_dice_count_toward_the_max_fresh_count(backend: Backend) -> None:
    """Decision 87. ``sources.md`` §6: "The max Fresh count comes from madness (§7.1). It is
    enforced when dice are added (muster, shop, refresh effects). Dice beyond the max go to
    Spent." A die put into a payment is spent only when the fish is paid for; until then it is
    one of the caster's Fresh dice, so a refresh at the ``pay`` node fills only the room the
    payment leaves, and a decline (which returns the payment) never leaves the seat above its max.
    Before, Cullen Skink refreshed a second die here and the decline left 5 Fresh dice (max 4).
    """
    t = rich_monday(backend, tops={1: [FISH["Hammerhead Shark"]]})
    buy_supplies(t, ["Cullen Skink", "Black Tea", "Cask Ale"], ["Moonshine", "Absinthe"])
    t.act(shop("tackle", 5), "turn", 0)
    t.acts("draw_bag", 0)
    t.rolls(0)
    t.acts("draw_bag", 0, 0)  # the other two tackle dice go to Spent: Fresh is full
    skip(t)
    tuesday(t)
    assert (t.seat(0)["fresh"], t.seat(0)["spent"], sum(t.seat(0)["regrets"])) == (
        ["P3", "P3", "P3", "B0"],
        ["B", "B"],
        0,
    )
    assert SUPPLY + SUPPLIES["Cullen Skink"] not in t.legal()  # 4 Fresh dice: the max
    t.act(die("B0"), "turn", 0)  # a sinker (a tackle die goes back to the bag)
    t.act(CAST + 1, "turn", 0)  # Hammerhead Shark, difficulty 3
    t.act(die("P3"), "pay", 0)  # Fresh P3 P3 and the payment P3: room for one die
    t.act(SUPPLY + SUPPLIES["Cullen Skink"], "pay", 0)  # "Refresh 2 dice"
    assert (t.node, t.st["ctx"]["left"]) == ("refresh_die", 2)
    t.act(DIE_KIND + 1, "refresh_die", 0)
    t.rolls(1)
    # The payment's die counts: Fresh 3 + payment 1 is the max, so the second refresh is skipped.
    assert t.node == "pay"
    assert (t.seat(0)["fresh"], t.st["ctx"]["cast"]["payment"]) == (["P3", "P3", "B1"], ["P3"])
    t.act(DECLINE, "pay", 0)
    assert (t.seat(0)["fresh"], t.seat(0)["spent"]) == (["P3", "P3", "P3", "B1"], ["B"])


def test_bucket_of_chum_and_regret_discards(backend: Backend) -> None:
    tops = {1: [FISH["Hammerhead Shark"]]}
    t = rich_monday(backend, tops=tops)
    buy_supplies(t, ["Bucket of Chum", "Cask Ale", "Moonshine"], ["Scotch Egg", "Absinthe"])
    tuesday(t)
    # Regret discards are not ready without regrets; Bucket of Chum only while paying.
    assert not any(SUPPLY <= a < ROD for a in t.legal())
    t.act(CAST + 1, "turn", 0)
    assert SUPPLY + SUPPLIES["Bucket of Chum"] in t.legal()
    t.act(SUPPLY + SUPPLIES["Bucket of Chum"], "pay")
    t.acts("draw_regret", 1, 2, 3)
    # Then the difficulty is 0: the catch is free.
    st = t.st
    assert st["ctx"]["cast"] == cast_context(1, zero=True)
    assert t.obs(0)["ctx"]["cast"]["difficulty"] == 0
    # The regret discards are ready now (also while paying).
    assert t.legal() == [
        CATCH,
        DECLINE,
        SUPPLY + SUPPLIES["Cask Ale"],
        SUPPLY + SUPPLIES["Moonshine"],
    ]
    t.act(CATCH, "pay")
    assert t.seat(0)["regrets"] == [0, 1, 1, 1]
    t.take_reward(1, None)
    t.act(SUPPLY + SUPPLIES["Cask Ale"], "turn", 0)
    st = t.st
    assert (st["node"], st["ctx"]["left"]) == ("discard_regret", 2)
    assert t.legal() == [REGRET + 1, REGRET + 2, REGRET + 3]
    assert t.state.action_label(REGRET + 2) == "discard a regret of value 2"
    t.act(REGRET + 3, "discard_regret")
    assert t.st["ctx"]["left"] == 1
    t.act(REGRET + 1, "discard_regret")
    assert t.seat(0)["regrets"] == [0, 0, 1, 0]
    # Moonshine discards 4 random regrets, but stops when none is left.
    t.act(SUPPLY + SUPPLIES["Moonshine"], "turn", 0)
    assert t.at("discard_random_regret", 0)
    t.act(2, "discard_random_regret")
    st = t.st
    assert st["players"][0]["regrets"] == [0, 0, 0, 0]
    assert st["regret_discard"] == [0, 1, 1, 1]
    assert (st["node"], st["ctx"]["item"]) == ("turn", None)


def test_peeks_show_a_top_to_one_seat_until_it_changes(backend: Backend) -> None:
    tops = {0: [FISH["Goliath Grouper"], FISH["Coelacanth"], FISH["Sheepshead"]]}
    t = rich_monday(backend, tops=tops)
    buy_supplies(
        t, ["Mermaid Eyes", "Curious Spyglass", "Book of the Deep"], ["Cloche", "Absinthe"]
    )
    tuesday(t)
    t.act(SUPPLY + SUPPLIES["Mermaid Eyes"], "turn", 0)
    st = t.st
    assert (st["node"], st["ctx"]["left"]) == ("peek_shoal", 2)
    assert t.legal() == list(range(CAST, CAST + 9))
    assert t.state.action_label(CAST + 4) == "peek at shoal 4"
    t.act(CAST + 0, "peek_shoal")
    assert t.st["ctx"]["left"] == 1
    assert t.legal() == list(range(CAST + 1, CAST + 9))
    t.act(CAST + 4, "peek_shoal")
    st = t.st
    assert st["known"] == [[0, 4], []]
    assert t.obs(0)["shoals"][0] == {"size": 11, "top": None, "known": "Sheepshead", "back": "m"}
    assert t.obs(1)["shoals"][0] == {"size": 11, "top": None, "known": None, "back": "m"}
    # A column: the peekable shoals of column 1 (shoal 4 is known already).
    t.act(SUPPLY + SUPPLIES["Curious Spyglass"], "turn", 0)
    assert (t.st["node"], t.st["ctx"]["left"]) == ("peek_column", 1)
    assert t.legal() == [COLUMN + 0, COLUMN + 1, COLUMN + 2]
    assert t.state.action_label(COLUMN + 2) == "peek at column 2"
    t.act(COLUMN + 1, "peek_column")
    assert t.st["known"] == [[0, 1, 4, 7], []]
    # A row, after a regret.
    t.act(SUPPLY + SUPPLIES["Book of the Deep"], "turn", 0)
    t.act(0, "draw_regret")
    assert t.at("peek_row", 0)
    assert t.legal() == [ROW + 0, ROW + 1, ROW + 2]
    assert t.state.action_label(ROW + 1) == "peek at depth 2"
    t.act(ROW + 2, "peek_row")
    assert t.st["known"] == [[0, 1, 4, 6, 7, 8], []]
    # Revealing a known top forgets it.
    t.catch(0, 0, "P3")
    assert t.st["known"] == [[1, 4, 6, 7, 8], []]


def test_card_backs_show_the_size_of_every_top(backend: Backend) -> None:
    """Decision 86: "Card back shows depth and size silhouette (Small / Middling / Large)." Every
    seat sees the size of each shoal's top card, face down too (§11.3 ``back``: "the top card's
    size in the data file ("s", "m", "l"), face up or face down, null when the shoal is empty")."""
    tops = {
        0: [FISH["Sockeye Salmon"], FISH["Barracuda"]],
        1: [FISH["Hammerhead Shark"]],
        2: [FISH["Sheepshead"]],
    }
    t = monday(backend, 2, tops=tops, dice={0: (3, 3, 3)})

    def backs_are_the_real_tops_sizes(t: Table) -> None:
        st = t.st
        for p in range(t.players):
            for s, shoal in enumerate(t.obs(p)["shoals"]):
                cards = st["shoals"][s]
                assert shoal["back"] == (FISH_BY_ID[cards[0]]["size"] if cards else None)

    backs_are_the_real_tops_sizes(t)
    for p in range(2):
        shoals = t.obs(p)["shoals"]
        assert [shoal["back"] for shoal in shoals[:3]] == ["s", "l", "m"]
        assert shoals[1] == {"size": 13, "top": None, "known": None, "back": "l"}
    # The Sockeye Salmon caught: the Barracuda beneath is the face-down top now, its back middling.
    t.catch(0, 0, "P3")
    backs_are_the_real_tops_sizes(t)
    assert t.obs(1)["shoals"][0] == {"size": 12, "top": None, "known": None, "back": "m"}
    # Revealed by a cast, the top shows its name and still its back.
    t.act(CAST + 1, "turn", 1)
    backs_are_the_real_tops_sizes(t)
    assert t.obs(0)["shoals"][1] == {
        "size": 13,
        "top": "Hammerhead Shark",
        "known": None,
        "back": "l",
    }
    # An empty shoal shows no back.
    t = fish_out_shoal_0(backend)
    backs_are_the_real_tops_sizes(t)
    assert all(t.obs(p)["shoals"][0]["back"] is None for p in range(3))


def test_difficulty_dinks_are_used_while_paying(backend: Backend) -> None:
    tops = {0: [FISH["Osteofish"]], 1: [FISH["Hammerhead Shark"]]}
    t = monday(backend, 2, tops=tops, dice={0: (1, 3, 3)})
    t.decline(0, 1, "P3", DINKS["Crab"])
    t.pass_turn(1, None)
    # Not at the turn node.
    assert DINK + DINKS["Crab"] not in t.legal()
    t.act(CAST + 1, "turn", 0)
    assert DINK + DINKS["Crab"] in t.legal()
    assert t.state.action_label(DINK + DINKS["Crab"]) == "use Crab"
    t.act(DINK + DINKS["Crab"], "pay")
    st = t.st
    assert st["ctx"]["cast"]["reduction"] == -2
    assert st["dink_discard"] == [DINKS["Crab"]]
    assert t.obs(1)["ctx"]["cast"]["difficulty"] == 1
    assert t.legal() == [DECLINE, die("P1"), die("P3")]
    t.act(die("P1"), "pay")
    t.act(CATCH, "pay")
    assert t.seat(0)["hand"] == [FISH["Hammerhead Shark"]]


def test_life_preserver_lowers_a_difficulty_by_two(backend: Backend) -> None:
    tops = {1: [FISH["Hammerhead Shark"]], 0: [FISH["Osteofish"]]}
    t = monday(backend, 2, tops=tops, dice={0: (1, 1, 1), 1: (3, 3, 3)})
    assert t.st["life_preserver"] == 0
    # Not ready at sea at the turn node.
    assert USE_LP not in t.legal()
    # Not ready on a difficulty-0 fish.
    t.act(CAST + 0, "turn", 0)
    assert t.legal() == [CATCH, DECLINE]
    t.act(CATCH, "pay")
    t.act(0, "draw_regret", 0)  # Osteofish's catch ability (§16.6)
    t.pass_turn(1, None)
    t.act(CAST + 1, "turn", 0)
    t.act(USE_LP, "pay")
    st = t.st
    assert st["life_preserver"] is None
    assert st["ctx"]["cast"]["reduction"] == -2
    assert t.obs(0)["ctx"]["cast"]["difficulty"] == 1
    assert USE_LP not in t.legal()


def test_shop_discounts_from_the_life_preserver_and_dinks(backend: Backend) -> None:
    t = monday(backend, 2, dice={0: (3, 3, 3), 1: (1, 1, 1)}, give=1)
    t.pass_turn(0, None)
    t.pass_turn(1, DINKS["Pearl"])
    t.auto(lambda t: t.at("life_preserver"))
    t.give_life_preserver(1)
    t.act(MAKE_PORT, "declare", 1)
    t.act(ROLL_NOW, "muster_select", 1)
    t.act(STAY, "declare", 0)
    # Seat 1 in port with $0, the Pearl ($2 off) and the Life Preserver ($2 off).
    assert t.at("turn", 1)
    assert t.legal() == [PASS, USE_LP, DINK + DINKS["Pearl"]]
    t.act(DINK + DINKS["Pearl"], "turn", 1)
    assert t.st["ctx"]["discount"] == 2
    assert t.obs(0)["ctx"]["discount"] == 2
    assert t.legal() == [PASS, USE_LP, 82, 85, 88, 91]
    t.act(USE_LP, "turn", 1)
    assert t.st["ctx"]["discount"] == 4
    assert t.st["life_preserver"] is None
    assert t.legal() == [PASS, 82, 83, 85, 86, 88, 89, 91, 92]
    t.act(shop("supply", 3), "turn", 1)
    st = t.st
    assert (st["players"][1]["money"], st["ctx"]["discount"]) == (0, 0)
    t.acts("draw_supply", 1, 2, 3)
    t.acts("shop_keep", SUPPLY + 3, SUPPLY + 1)
    assert t.seat(1)["supplies"] == [1, 3]
    assert t.st["supply_deck"] == [i for i in range(20) if i not in (1, 3)]


def test_an_unused_shop_discount_lapses_at_the_end_of_the_turn(backend: Backend) -> None:
    t = monday(backend, 2)
    t.pass_turn(0, None)
    t.pass_turn(1, DINKS["Ear"])
    t.auto(lambda t: t.at("declare", 1))
    t.act(MAKE_PORT, "declare", 1)
    t.act(ROLL_NOW, "muster_select", 1)
    t.act(STAY, "declare", 0)
    # The Ear: -1 difficulty or $1 off; in port only the shop use is ready.
    t.act(DINK + DINKS["Ear"], "turn", 1)
    assert t.st["ctx"]["discount"] == 1
    t.act(PASS, "turn", 1)
    assert t.st["ctx"]["discount"] == 0


def test_items_without_use_can_never_be_used(backend: Backend) -> None:
    t = monday(backend, 2, tops={0: [FISH["Hammerhead Shark"]]})
    t.decline(0, 0, "P1", DINKS["Old Boot"])
    t.pass_turn(1, None)
    assert DINK + DINKS["Old Boot"] not in t.legal()
    t.act(CAST + 0, "turn", 0)
    assert DINK + DINKS["Old Boot"] not in t.legal()


def test_rod_and_reel_shop_tiers_draw_and_keep(backend: Backend) -> None:
    t = rich_monday(backend)
    # Rod shop $3: draw 3, keep 1.
    t.act(shop("rod", 3), "turn", 0)
    t.acts("draw_rod", 7, 2, 5)
    assert (t.st["node"], t.st["ctx"]["left"]) == ("shop_keep", 1)
    assert t.legal() == [ROD + 2, ROD + 5, ROD + 7]
    t.act(ROD + 7, "shop_keep")
    st = t.st
    assert st["players"][0]["rods"] == [7]
    assert st["rod_deck"] == [0, 1, 2, 3, 4, 5, 6, 8, 9]
    assert st["players"][0]["money"] == 7
    skip(t)
    # Reel shop $5: draw 5, keep 2.
    t.act(shop("reel", 5), "turn", 0)
    t.acts("draw_reel", 9, 8, 0, 1, 2)
    assert (t.st["node"], t.st["ctx"]["left"]) == ("shop_keep", 2)
    assert t.state.action_label(REEL + 8) == "keep Centerpin Reel"
    assert t.state.action_label(SUPPLY + 8) == "action 133"
    t.acts("shop_keep", REEL + 0, REEL + 9)
    st = t.st
    assert st["players"][0]["reels"] == [0, 9]
    assert st["reel_deck"] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert st["players"][0]["money"] == 2
    assert st["players"][0]["shops_used"] == [True, True, False, False]


def test_observation_has_exactly_the_contract_keys(backend: Backend) -> None:
    t = monday(backend, 3)
    t.act(CAST + 0, "turn", 0)
    obs = t.obs(1)
    assert set(obs) == {
        "seat", "day", "phase", "node", "actor", "turn", "first_player", "last_turns",
        "life_preserver", "current_player", "money", "depth", "regret_count", "regrets", "fresh",
        "spent", "hand", "hand_count", "mounted", "dinks", "supplies", "dink_count",
        "supply_count", "rods", "reels", "rod", "reel", "worms", "lifeboat_used", "passed",
        "reel_used", "caught_today", "shops_used", "shoals", "fish_discard", "bag", "decks",
        "ctx", "scores", "end", "plug", "front", "locks", "cloche", "skull_used", "coffin_used",
    }  # fmt: skip
    assert set(obs["ctx"]) == {
        "to_roll", "rolled", "left", "cast", "peek", "shop", "count", "foul", "slot",
        "discount", "item", "ability", "pool", "target", "offer", "order",
    }  # fmt: skip
    assert set(obs["decks"]) == {
        "regret", "regret_discard", "dink", "dink_discard", "supply", "supply_discard", "rod",
        "rod_discard", "reel", "reel_discard",
    }  # fmt: skip
    assert all(set(shoal) == {"size", "top", "known", "back"} for shoal in obs["shoals"])
    assert (obs["seat"], obs["current_player"], obs["actor"], obs["node"]) == (1, 0, 0, "pay")
    assert obs["decks"]["dink"] == 25 and obs["decks"]["regret"] == 60
    assert obs["fresh"][0] == ["P1", "P2", "P3"]
    assert obs["spent"] == [[], [], []]
    assert set(t.st) == {
        "day", "phase", "node", "actor", "turn", "first_player", "last_turns", "life_preserver",
        "shoals", "face_up", "known", "fish_discard", "regret_deck", "regret_discard", "bag",
        "dink_deck", "dink_discard", "supply_deck", "supply_discard", "rod_deck", "rod_discard",
        "reel_deck", "reel_discard", "players", "ctx", "end", "plug",
    }  # fmt: skip


# ======================================================================================
# The end of the game and the scores (§8)
# ======================================================================================


def test_the_game_ends_after_saturday(backend: Backend) -> None:
    t = monday(backend, 2)
    t.auto(lambda t: t.st["day"] == 6 and t.st["phase"] == "actions")
    assert t.state.scores == [0, 0]
    t.to_end()
    st = t.st
    assert (st["day"], st["phase"], st["node"], st["actor"], st["turn"]) == (
        6,
        "over",
        "over",
        None,
        None,
    )
    assert st["ctx"]["to_roll"] == [] and st["ctx"]["cast"] is None
    # Thursday's $3 is worth one point; nobody has a regret or a fish: a shared win.
    assert st["end"] == {
        "regret_value": [0, 0],
        "discarded": [None, None],
        "cloche_discarded": [None, None],
        "scores": [1, 1],
    }
    assert t.state.current_player == TERMINAL
    assert t.state.legal_actions() == []
    assert t.state.scores == [1, 1]
    assert t.state.winners == [0, 1]
    assert t.obs(0)["end"] == {
        "regret_value": [0, 0],
        "discarded": [None, None],
        "cloche_discarded": [None, None],
    }
    assert t.obs(1)["current_player"] == TERMINAL
    assert t.state.action_label(0) == "action 0"


def test_the_short_game_ends_after_saturday_too(backend: Backend) -> None:
    t = monday(backend, 3, days=5)
    t.to_end()
    assert t.st["day"] == 6
    assert t.state.scores == [1, 1, 1]


def test_end_penalty_takes_the_best_mounted_fish_with_three_players(backend: Backend) -> None:
    tops = {
        0: [FISH["Goliath Grouper"], FISH["Sunfish"]],
        1: [FISH["Coelacanth"]],
        2: [FISH["Sheepshead"], FISH["Mahi-Mahi"]],
    }
    dice = {p: (3, 3, 3) for p in range(3)}
    t = monday(backend, 3, tops=tops, dice=dice, days=5)
    t.catch(0, 0, "P3")
    t.catch(1, 1, "P3")
    t.catch(2, 2, "P3")
    t.catch(0, 0, "P3")
    # Abandoning ship is a free action: each seat mounts in the same turn.
    t.act(ABANDON, "turn", 1)
    t.act(ROLL_NOW, "muster_select")
    t.rolls(3)
    t.act(MOUNT, "turn", 1)
    t.act(SLOT + 1, "mount_slot")
    t.act(FISH_ID + FISH["Coelacanth"], "mount_fish")
    t.catch(2, 2, "P3")
    t.act(ABANDON, "turn", 0)
    t.act(ROLL_NOW, "muster_select")
    t.rolls(3, 3)
    t.act(MOUNT, "turn", 0)
    t.act(SLOT + 0, "mount_slot")
    t.act(FISH_ID + FISH["Goliath Grouper"], "mount_fish")
    t.act(SLOT + 1, "mount_slot")
    t.act(FISH_ID + FISH["Sunfish"], "mount_fish")
    t.to_end()
    st = t.st
    # RV: 10, 10 (lifeboats), 0. Seat 0 loses Sunfish (6 x 3 = 18 > Goliath 6 x 2 = 12).
    assert st["end"] == {
        "regret_value": [10, 10, 0],
        "discarded": [FISH["Sunfish"], FISH["Coelacanth"], None],
        "cloche_discarded": [None] * 3,
        # 12 + $3 // 2; 0 + 1; Sheepshead 4 + Mahi-Mahi 4 + 1.
        "scores": [13, 1, 9],
    }
    assert st["players"][0]["mounted"] == [FISH["Goliath Grouper"], None, None]
    assert st["fish_discard"][0][-2:] == [FISH["Sunfish"], FISH["Coelacanth"]]
    assert t.obs(2)["end"] == {
        "regret_value": [10, 10, 0],
        "discarded": ["Sunfish", "Coelacanth", None],
        "cloche_discarded": [None] * 3,
    }
    assert t.state.winners == [0]


def two_player_mounts(backend: Backend, second: str) -> Table:
    """Short game: seat 0 mounts Goliath Grouper (slot 0) and ``second`` (slot 2 if it is
    Coelacanth, else slot 1); seat 1 mounts Mahi-Mahi (slot 1) and Sheepshead (slot 2)."""
    tops = {0: [FISH["Goliath Grouper"], FISH[second]], 2: [FISH["Sheepshead"], FISH["Mahi-Mahi"]]}
    t = monday(backend, 2, tops=tops, dice={0: (3, 3, 3), 1: (3, 3, 3)}, days=5)
    t.catch(0, 0, "P3")
    t.catch(1, 2, "P3")
    t.catch(0, 0, "P3")
    t.catch(1, 2, "P3")
    t.pass_turn(0, None)
    t.pass_turn(1, None)
    # Wednesday: both make port (seat 1 is the first player) and mount.
    t.auto(lambda t: t.at("declare", 1))
    t.act(MAKE_PORT, "declare", 1)
    t.auto(lambda t: t.at("declare", 0))
    t.act(MAKE_PORT, "declare", 0)
    t.auto(lambda t: t.at("turn", 1))
    t.act(MOUNT, "turn", 1)
    t.act(SLOT + 1, "mount_slot")
    t.act(FISH_ID + FISH["Mahi-Mahi"], "mount_fish")
    t.act(SLOT + 2, "mount_slot")
    t.act(FISH_ID + FISH["Sheepshead"], "mount_fish")
    t.act(MOUNT, "turn", 0)
    t.act(SLOT + 0, "mount_slot")
    t.act(FISH_ID + FISH["Goliath Grouper"], "mount_fish")
    t.act(SLOT + (2 if second == "Coelacanth" else 1), "mount_slot")
    t.act(FISH_ID + FISH[second], "mount_fish")
    t.to_end()
    return t


def test_end_penalty_takes_the_worst_mounted_fish_with_two_players(backend: Backend) -> None:
    t = two_player_mounts(backend, "Sunfish")
    # Both have RV 0, the highest: both lose their lowest mounted fish.
    assert t.st["end"] == {
        "regret_value": [0, 0],
        "discarded": [FISH["Goliath Grouper"], FISH["Sheepshead"]],
        "cloche_discarded": [None] * 2,
        # Sunfish 6 x 3 + $3 // 2; Mahi-Mahi 4 x 3 + 1.
        "scores": [19, 13],
    }
    assert t.state.winners == [0]


def test_end_penalty_ties_lose_the_lowest_slot(backend: Backend) -> None:
    t = two_player_mounts(backend, "Coelacanth")
    # Goliath Grouper (slot 0) and Coelacanth (slot 2) both score 6 x 2: slot 0 goes.
    assert t.st["end"]["discarded"][0] == FISH["Goliath Grouper"]
    assert t.st["players"][0]["mounted"] == [None, None, FISH["Coelacanth"]]


def test_ties_go_to_the_lower_regret_value_then_fewer_regret_cards(backend: Backend) -> None:
    t = monday(backend, 3, days=5)
    t.pass_turn(0, DINKS["Syringe"])
    t.pass_turn(1, DINKS["Odd Ring"])
    t.act(ABANDON, "turn", 2)
    t.act(ROLL_NOW, "muster_select")
    t.take_reward(0, None)
    t.take_reward(1, None)
    t.pass_turn(2, None)
    # Wednesday (seat 1 first): both draw two regrets.
    t.to_turn(1, day=3)
    t.act(DINK + DINKS["Odd Ring"], "turn", 1)
    t.acts("draw_regret", 1, 2)
    t.pass_turn(1, None)
    t.to_turn(0, day=3)
    t.act(DINK + DINKS["Syringe"], "turn", 0)
    t.acts("draw_regret", 1, 3)
    t.pass_turn(0, None)
    # Thursday: seat 0 makes port and discards its 1.
    t.auto(lambda t: t.at("declare", 0))
    t.act(MAKE_PORT, "declare", 0)
    t.auto(lambda t: t.at("port_discard", 0))
    t.act(REGRET + 1, "port_discard")
    t.to_end()
    st = t.st
    # Scores tie at 1; RV 3, 3, 10: seat 0 has one regret card, seat 1 two.
    assert st["end"] == {
        "regret_value": [3, 3, 10],
        "discarded": [None] * 3,
        "cloche_discarded": [None] * 3,
        "scores": [1, 1, 1],
    }
    assert [seat["regrets"] for seat in st["players"]] == [[0, 0, 0, 1], [0, 1, 1, 0], [0] * 4]
    assert t.state.winners == [0]


# ======================================================================================
# The madness table (§3)
# ======================================================================================


class Farm:
    """Seat 0 fills its hand with foul fish while seats 1 and 2 keep the day going."""

    DINKS_FOR_OTHERS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 16, 17, 18, 19, 20, 23, 24)

    def __init__(self, t: Table) -> None:
        self.t = t

    def dink(self) -> int:
        """A dink for seats 1 and 2 (never the Syringe, kept for seat 0) at a draw_dink node."""
        legal = self.t.legal()
        return next((d for d in self.DINKS_FOR_OTHERS if d in legal), legal[0])

    def decline(self, p: int) -> None:
        t = self.t
        t.act(CAST + 1, "turn", p)
        t.act(DECLINE, "pay", p)
        t.act(t.legal()[1], "decline_die", p)  # the first die
        if t.at("draw_dink"):
            t.act(self.dink(), "draw_dink")

    def reward(self, p: int) -> None:
        t = self.t
        if t.at("reward", p) and DRAW_A_DINK in t.legal():
            t.act(DRAW_A_DINK, "reward")
            t.act(self.dink(), "draw_dink")
        elif t.at("reward", p):  # every dink is held: a random regret is discarded
            t.act(DISCARD_RANDOM, "reward")
            t.act(t.legal()[0], "discard_random_regret")


def test_the_madness_table(backend: Backend) -> None:
    # Seat 0 catches foul fish whose abilities leave it without regrets before its first sale
    # (Cax makes the others draw; Tumorous Fish's regret is discarded on making port).
    shoal0 = [
        "Scrat",
        "Cax",
        "Sea Cattle",
        "Tumorous Fish",
        "Ghoul Ray",
        "Osteofish",
        "Geist",
        "Eyefish",
    ]
    tops = {
        0: [FISH[name] for name in shoal0],
        1: [FISH["Hammerhead Shark"], FISH["Goliath Grouper"], FISH["Coelacanth"]],
        2: [FISH["Man O' War"]],
    }
    dice = {0: (3, 3, 2), 1: (3, 3, 3), 2: (3, 3, 3)}
    t = monday(backend, 3, tops=tops, dice=dice, give=0, expansion_tentacles=True)
    assert t.st["life_preserver"] == 0
    farm = Farm(t)

    def decline(p: int, dink: int | None = None) -> None:
        t.act(CAST + 1, "turn", p)
        t.act(DECLINE, "pay", p)
        t.act(t.legal()[1], "decline_die", p)  # the first die
        t.act(farm.dink() if dink is None else dink, "draw_dink", p)

    def abandon(p: int) -> None:
        # A free action: after the muster, seat p's main action is a port action.
        t.act(ABANDON, "turn", p)
        t.auto(lambda t: t.at("turn", p))

    def sale(*names: str, regrets: Sequence[int]) -> None:
        t.act(SELL, "turn", 0)
        for name in names:
            t.act(sell(name), "sell")
        if t.at("sell"):
            t.act(DONE, "sell")
        t.acts("draw_regret", *regrets)

    def free_shop(p: int, dink: str, k: str) -> None:
        t.act(DINK + DINKS[dink], "turn", p)
        t.act(shop(k, 1), "turn", p)
        t.act(t.legal()[0], f"draw_{k}")

    # Monday. Round 1: Scrat; seat 1 gives Man O' War to seat 0; seat 2 declines.
    t.catch(0, 0, "P3")
    t.act(CAST + 2, "turn", 1)
    t.act(GIVE + 0, "give_fish", 1)
    decline(2, DINKS["Locket"])
    # Round 2: Cax (the others draw a regret each).
    t.act(CAST + 0, "turn", 0)
    t.act(0, "draw_regret", 1)
    t.act(0, "draw_regret", 2)
    t.act(die("P3"), "pay", 0)
    t.act(CATCH, "pay", 0)
    decline(1, DINKS["Ear"])
    decline(2, DINKS["Tire"])
    # Round 3: Sea Cattle, free with the Life Preserver.
    t.act(CAST + 0, "turn", 0)
    t.act(USE_LP, "pay", 0)
    t.act(CATCH, "pay", 0)
    decline(1, DINKS["Doll Head"])
    decline(2)
    # Round 4: Tumorous Fish draws a regret; seat 2 abandons ship.
    t.catch(0, 0, "P2")
    t.act(1, "draw_regret", 0)
    decline(1)
    abandon(2)
    free_shop(2, "Locket", "rod")
    # Round 5: seat 0 abandons ship and discards its regret, then sells; the others abandon
    # ship and shop for free.
    t.act(ABANDON, "turn", 0)
    t.rolls(3, 3, 3)
    t.act(REGRET + 1, "port_discard", 0)
    assert t.seat(0)["regrets"] == [0, 0, 0, 0]
    assert t.seat(0)["hand"] == sorted(
        FISH[name] for name in ["Scrat", "Cax", "Sea Cattle", "Tumorous Fish", "Man O' War"]
    )
    # No regret (foul -2): Scrat 3 - 2.
    sale("Scrat", regrets=[1])
    assert t.seat(0)["money"] == 1
    abandon(1)
    free_shop(1, "Ear", "rod")
    free_shop(2, "Tire", "reel")
    # 1-3 regrets (foul -1): Cax 3 - 1.
    sale("Cax", regrets=[1])
    assert t.seat(0)["money"] == 3
    free_shop(1, "Doll Head", "reel")
    t.act(PASS, "turn", 2)
    farm.reward(2)
    # 4-6 regrets (foul 0): eating Tumorous Fish draws two (§16.4), then Sea Cattle 3 + 0.
    t.act(eat("Tumorous Fish"), "turn", 0)
    t.acts("draw_regret", 1, 1)
    assert sum(t.seat(0)["regrets"]) == 4
    sale("Sea Cattle", regrets=[1])
    assert t.seat(0)["money"] == 6
    t.act(PASS, "turn", 1)
    farm.reward(1)
    farm.reward(2)
    # 4-6 regrets (fair +1): Man O' War 1 + 1.
    sale("Man O' War", regrets=[])
    assert t.seat(0)["money"] == 8
    for p in (1, 2):
        farm.reward(p)
    t.act(PASS, "turn", 0)
    farm.reward(0)
    # Tuesday: seat 0 (back at sea) catches four more foul fish, each drawing a regret.
    muster_faces(t, {0: (2, 1, 1), 1: (3, 3, 3), 2: (3, 3, 3)})

    def next_turn_of_seat_0() -> None:
        t.auto(lambda t: t.at("turn"))
        while not t.at("turn", 0):
            p = t.st["actor"]
            if t.seat(p)["fresh"]:
                farm.decline(p)
            else:
                t.act(PASS, "turn", p)
                farm.reward(p)
            t.auto(lambda t: t.at("turn"))

    for name, paid in (("Ghoul Ray", "P2"), ("Osteofish", ""), ("Geist", ""), ("Eyefish", "P1")):
        next_turn_of_seat_0()
        t.catch(0, 0, *([paid] if paid else []))
        t.act(1, "draw_regret", 0)
        if name == "Eyefish":
            t.act(t.legal()[0], "peek_shoal", 0)
    assert sum(t.seat(0)["regrets"]) == 9
    t.auto(lambda t: t.st["day"] == 3 and t.at("declare", 0))
    t.act(MAKE_PORT, "declare", 0)
    t.auto(lambda t: t.at("port_discard", 0))
    t.act(KEEP_ALL, "port_discard")
    # 7-9 regrets (foul +1): Ghoul Ray 2 + 1; $11 is capped at $10.
    next_turn_of_seat_0()
    sale("Ghoul Ray", regrets=[1])
    assert t.seat(0)["money"] == 10
    next_turn_of_seat_0()
    t.act(shop("tackle", 5), "turn", 0)
    t.auto(lambda t: t.st["node"] == "turn" and t.st["actor"] != 0)
    assert t.seat(0)["money"] == 5
    # 10-12 regrets (foul +1): Osteofish 0 + 1, Geist 0 + 1.
    next_turn_of_seat_0()
    sale("Osteofish", "Geist", regrets=[1, 1])
    assert t.seat(0)["money"] == 7
    # 13+ regrets: every shop $1 cheaper.
    next_turn_of_seat_0()
    t.act(eat("Eyefish"), "turn", 0)
    t.auto(lambda t: t.at("turn", 0))
    assert t.obs(1)["regret_count"][0] == 14
    t.act(shop("rod", 3), "turn", 0)
    assert t.seat(0)["money"] == 5


# ======================================================================================
# Bad input
# ======================================================================================


def test_illegal_actions_are_refused_and_change_nothing(backend: Backend) -> None:
    t = monday(backend, 2, tops={0: [FISH["Sheepshead"]]})
    before = snapshot(t)
    for bad in (SELL, MOUNT, 40 + 0 * 1 + 8, die("P1") + 3, shop("rod", 1), 14, 300, 511):
        with pytest.raises(IllegalActionError):
            t.state.apply(bad)
        assert snapshot(t) == before
    for bad_value in (-1, 512, 10**6):
        with pytest.raises(IllegalActionError):
            t.state.apply(bad_value)
    with pytest.raises(IllegalActionError):
        t.state.apply("0")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        t.state.apply(True)
    with pytest.raises(IllegalActionError):
        t.state.apply(PASS, player=1)
    assert snapshot(t) == before
    # At a chance node: an impossible outcome.
    t.act(CAST + 0, "turn", 0)
    t.act(die("P1"), "pay")
    t.act(CATCH, "pay")
    t.act(PASS, "turn", 1)
    assert t.at("reward", 1)
    t.act(DRAW_A_DINK, "reward")
    before = snapshot(t)
    with pytest.raises(IllegalActionError):
        t.state.apply(25)
    with pytest.raises(IllegalActionError):
        t.state.apply(0, player=1)
    assert snapshot(t) == before
    with pytest.raises(IllegalActionError):
        t.state.observation(2)
    with pytest.raises(IllegalActionError):
        t.state.action_label(512)


def test_nothing_can_be_applied_after_the_end(backend: Backend) -> None:
    t = monday(backend, 2, days=5)
    t.to_end()
    before = snapshot(t)
    with pytest.raises(IllegalActionError):
        t.state.apply(0)
    assert snapshot(t) == before


def test_a_deal_outcome_cannot_repeat_a_fish(backend: Backend) -> None:
    t = Table(backend, 2)
    t.act(5, "deal")
    before = snapshot(t)
    for bad in (5, FISH["Monkfish"], FISH["Giant Cuttlefish"]):  # dealt, depth II, expansion
        with pytest.raises(IllegalActionError):
            t.state.apply(bad)
    assert snapshot(t) == before
    assert t.state.action_label(FISH["Monkfish"]) == "deal Monkfish to shoal 0"


# ======================================================================================
# Random play keeps every card and die
# ======================================================================================


def check_invariants(st: dict[str, Any], players: int, options: Mapping[str, Any]) -> None:
    """Cards conserved, dice counted, money and depth in range."""
    expansion = bool(options.get("expansion_tentacles"))
    in_play = sum(1 for f in DATA["fish"] if f["expansion"] == "base" or expansion)
    seats = st["players"]
    fish = (
        [f for shoal in st["shoals"] for f in shoal]
        + [f for pile in st["fish_discard"] for f in pile]
        + [f for seat in seats for f in seat["hand"]]
        + [f for seat in seats for f in seat["mounted"] if f is not None]
        + [f for seat in seats for f in seat["front"]]
        + [seat["cloche"] for seat in seats if seat["cloche"] is not None]
        + ([FISH["The Plug"]] if st["plug"] else [])
    )
    if st["node"] == "shuffle_back":
        fish.append(st["ctx"]["ability"]["fish"])
    if st["phase"] != "setup":
        # During a reorder the fish of ``ctx.order`` may be off the shoal.
        fish += [f for f in st["ctx"]["order"] if f not in fish]
        assert sorted(fish) == sorted(set(fish)) and len(fish) == in_play
    split = [int(x) for x in options.get("regret_split", "6/24/20/10").split("/")]
    for v in range(4):
        held = sum(seat["regrets"][v] for seat in seats)
        held += (st["ctx"]["pool"] or []).count(v) + st["ctx"]["offer"].count(v)
        assert st["regret_deck"][v] + st["regret_discard"][v] + held == split[v]
    for kind, plural, size in (
        ("dink", "dinks", 25),
        ("supply", "supplies", 20),
        ("rod", "rods", 10),
        ("reel", "reels", 10),
    ):
        cards = st[f"{kind}_deck"] + st[f"{kind}_discard"] + [i for s in seats for i in s[plural]]
        if kind == "supply":
            cards += [SUPPLIES["Cloche"] for s in seats if s["cloche"] is not None]
        shop = st["ctx"]["shop"]
        if shop is not None and ["rod", "reel", "supply"][shop["shop"]] == kind:
            cards += shop["drawn"]
        assert sorted(cards) == list(range(size))
    ctx = st["ctx"]
    actor = st["actor"]
    in_ctx = [d[0] for d in ctx["rolled"]] + list(ctx["to_roll"])
    if ctx["cast"] is not None:
        in_ctx += [d[0] for d in ctx["cast"]["payment"]]
    tackle = {"B": st["bag"][0], "G": st["bag"][1], "O": st["bag"][2]}
    for p, seat in enumerate(seats):
        dice = [d[0] for d in seat["fresh"]] + list(seat["spent"])
        if p == actor:
            dice += in_ctx
        assert dice.count("P") == 3
        for k in "BGO":
            tackle[k] += dice.count(k)
        assert 0 <= seat["money"] <= 10
        assert 0 <= seat["depth"] <= 3
        assert seat["fresh"] == sorted(seat["fresh"], key=CLASSES.index)
    if actor is None:
        assert not in_ctx
    assert tackle == {"B": 9, "G": 8, "O": 7}


@pytest.mark.parametrize(
    "config",
    [
        {"players": 2},
        {"players": 3, "days": 5},
        {"players": 4, "regret_split": "10/20/20/10"},
        {"players": 5, "expansion_tentacles": True},
    ],
)
def test_random_games_keep_every_card_and_die(backend: Backend, config: dict[str, Any]) -> None:
    options = {k: v for k, v in config.items() if k != "players"}
    game = cardtable.make("deep_regrets", backend=backend, **config)
    for seed in range(3):
        state = game.new_state()
        rng = SplitMix64(seed)
        for _ in range(20000):
            if state.is_terminal:
                break
            st = state.to_dict()["state"]
            check_invariants(st, config["players"], options)
            if st["phase"] != "over":
                assert state.scores == [0] * config["players"]
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
        assert state.is_terminal, "the game did not end"
        st = state.to_dict()["state"]
        check_invariants(st, config["players"], options)
        assert st["end"]["scores"] == state.scores
        assert state.winners


# ======================================================================================
# Paths no real game reaches in step 1 (reference only, white-box)
#
# Emptying all 117 fish of the sea takes far more dice than six days give, and the regret deck
# holds 60 cards: the rules for an empty sea and an empty regret deck are checked here by editing
# the reference state directly. The Rust engine needs its own unit tests for them. (With the
# abilities of step 2 both happen in real games, seldom: the rule-event tests at the end replay a
# recorded game that reshuffles the regret deck and steals a regret.)
# ======================================================================================


def reference_monday(**kwargs: Any) -> Table:
    return monday("reference", 2, tops={0: [FISH["Sheepshead"]]}, **kwargs)


def empty_all_but(t: Table, keep: int, fish: Sequence[int], face_up: bool = False) -> None:
    """Leaves only shoal ``keep`` with ``fish`` in the sea (white-box edit)."""
    inner: Any = t.state
    for s in range(9):
        inner._shoals[s] = list(fish) if s == keep else []
        inner._face_up[s] = face_up and s == keep
    inner._fish_discard[0] += [
        f for f in range(45) if f not in fish and DATA["fish"][f]["expansion"] == "base"
    ]


@pytest.mark.parametrize("how", ["catch", "special", "start"])
def test_an_empty_sea_ends_the_game_at_once(how: str) -> None:
    t = reference_monday()
    if how == "catch":
        empty_all_but(t, 0, [FISH["Sheepshead"]])
        t.act(CAST + 0, "turn", 0)
        t.act(die("P1"), "pay")
        t.act(CATCH, "pay")
        # Overfishing first, then the empty sea ends the game.
        t.act(1, "draw_regret", 0)
    elif how == "special":
        empty_all_but(t, 0, [FISH["Tidal Trafficker"]])
        t.act(CAST + 0, "turn", 0)
        # Its reveal ability first (§16.11), then the empty sea ends the game.
        t.act(1, "draw_regret", 0)
        t.act(SUPPLIES["Black Tea"], "draw_supply", 0)
    else:
        empty_all_but(t, 0, [FISH["Sheepshead"]], face_up=True)
        t.pass_turn(0, None)
        t.pass_turn(1, None)
    st = t.st
    assert (st["phase"], st["node"], st["actor"], st["turn"]) == ("over", "over", None, None)
    assert st["day"] == (2 if how == "start" else 1)
    assert st["shoals"] == [[]] * 9
    assert st["end"] is not None
    assert t.state.is_terminal


@pytest.mark.parametrize("item", ["Heart of the Fathoms", "Diving Lantern"])
def test_a_reveal_outside_a_cast_that_empties_the_sea_ends_the_game(item: str) -> None:
    """Decision 83: "If the Sea is ever empty, the game ends immediately" (rulebook p.10), also
    when an item's reveal discards the sea's last card, a face-down special card."""
    t = port_with_small_fish("reference")
    buy_supplies(t, [item, "Scotch Egg", "Black Tea"], ["Cloche", "Cask Ale"])
    empty_all_but(t, 0, [FISH["Tidal Trafficker"]])
    t.act(SUPPLY + SUPPLIES[item], "turn", 0)
    if item == "Diving Lantern":
        assert t.legal() == [COLUMN]
        t.act(COLUMN, "reveal_column", 0)
    st = t.st
    assert (st["phase"], st["node"], st["actor"], st["turn"]) == ("over", "over", None, None)
    assert st["shoals"] == [[]] * 9
    assert FISH["Tidal Trafficker"] in st["fish_discard"][0]
    assert st["end"] is not None
    assert t.state.is_terminal


def test_an_empty_regret_deck_reshuffles_then_steals() -> None:
    t = syringe_monday("reference", 2)
    t.pass_turn(1, None)
    t.to_turn(0, day=2)
    inner: Any = t.state
    inner._regret_deck = [0, 0, 0, 0]
    inner._regret_discard = [0, 1, 0, 0]
    inner._seats[1].regrets = [0, 0, 2, 1]
    t.act(DINK + DINKS["Syringe"], "turn", 0)
    # The discard pile becomes the deck.
    assert t.at("draw_regret", 0)
    assert t.state.chance_outcomes() == [(1, 1.0)]
    t.act(1, "draw_regret")
    # Both empty: a random regret of the seat with the most.
    assert t.at("steal_regret", 0)
    assert t.state.chance_outcomes() == [(2, 2 / 3), (3, 1 / 3)]
    assert t.state.action_label(2) == "take a regret of value 2 from seat 1"
    t.act(3, "steal_regret")
    st = t.st
    assert st["players"][0]["regrets"] == [0, 1, 0, 1]
    assert st["players"][1]["regrets"] == [0, 0, 2, 0]
    assert st["regret_deck"] == st["regret_discard"] == [0, 0, 0, 0]


# ======================================================================================
# Step 2: every card ability (contract §16)
#
# The fish abilities are data (`reveal`, `catch`, `eat`, `not_caught`, `rules`, `front`); the
# tests below read the same data. The plain effect lists are run by ``Effects``, which drives the
# game through the list and computes the expected canonical state from the primitives (§16.7)
# beside it; the odd abilities have their own scenarios with concrete numbers.
# ======================================================================================

# ----- action ids of step 2 (§16.12) -----
FIRST_OPTION, SECOND_OPTION, YES, NO = 14, 15, 16, 17
SHOW, DISCARD_TO_CATCH, WORMS_DIFFICULTY = 18, 19, 20
GIVE_AWAY, USE_SKULL, USE_COFFIN = 21, 22, 23
EAT, HADAL = FISH_ID, 300
TOP_FACE = {"P": 3, "B": 2, "G": 3, "O": 3, "M": 4}
KINDS = "PBGOM"
FISH_BY_ID: list[dict[str, Any]] = DATA["fish"]


def eat(name: str) -> int:
    """The action id 165+f of eating fish ``name`` (the same id sells, mounts and discards)."""
    return EAT + FISH[name]


def max_fresh(regrets: int) -> int:
    tiers = [m for m in DATA["madness"] if m["min_regrets"] <= regrets]
    value: int = tiers[-1]["max_fresh"]
    return value


def in_class_order(dice: list[str]) -> list[str]:
    return sorted(dice, key=CLASSES.index)


def in_kind_order(kinds: list[str]) -> list[str]:
    return sorted(kinds, key=KINDS.index)


def kinds_of(effects: Sequence[Mapping[str, Any]]) -> set[str]:
    """Every primitive kind of an effect list, nested lists included."""
    found: set[str] = set()
    for e in effects:
        found.add(e["kind"])
        for key in ("effects", "heads", "tails"):
            if key in e:
                found |= kinds_of(e[key])
        for option in e.get("options", []):
            found |= kinds_of(option)
    return found


def branches(effects: Sequence[Mapping[str, Any]]) -> bool:
    return bool(kinds_of(effects) & {"choice", "coin"})


class Effects:
    """Runs an effect list on the table while computing the expected state from the primitives.

    ``model`` starts as a copy of the canonical state; every primitive is applied to it by the
    rules of §16.7 while the matching nodes are answered on the table (the first legal choice,
    the highest die face and regret value, ``branch`` at every choice and coin).
    """

    def __init__(self, t: Table, fish: int, trigger: str, branch: int = 0) -> None:
        self.t = t
        self.fish = fish
        self.trigger = trigger
        self.branch = branch
        self.model: dict[str, Any] = json.loads(json.dumps(t.st))
        self.ended = ""
        self.base: int | None = None

    # --- the table side ---
    def expect(self, node: str, actor: int) -> None:
        st = self.t.st
        assert (st["node"], st["actor"]) == (node, actor), (st["node"], st["actor"], node)
        assert st["ctx"]["ability"] == {"fish": self.fish, "trigger": self.trigger}

    def decide(self, node: str, actor: int, legal: list[int], action: int, left: Any = ...) -> None:
        self.expect(node, actor)
        assert self.t.legal() == legal
        if left is not ...:
            assert self.t.st["ctx"]["left"] == left
        self.t.state.apply(action)

    def draw(self, node: str, actor: int, outcomes: list[int], outcome: int) -> None:
        self.expect(node, actor)
        assert [o for o, _ in self.t.state.chance_outcomes()] == outcomes
        self.t.state.apply(outcome)

    # --- the model side ---
    def seat(self, u: int) -> dict[str, Any]:
        seat: dict[str, Any] = self.model["players"][u]
        return seat

    def front_extra(self, u: int) -> int:
        return sum(
            rule["amount"]
            for f in self.seat(u)["front"]
            for rule in FISH_BY_ID[f]["rules"]
            if rule["kind"] == "front_extra_regret"
        )

    def draw_regrets(self, u: int, k: int) -> None:
        """One draw event of k regrets (§16.9)."""
        if k < 1:
            return
        for _ in range(k + self.front_extra(u)):
            deck = self.model["regret_deck"]
            held = [v for v in range(4) if deck[v]]
            v = held[-1]
            self.draw("draw_regret", u, held, v)
            deck[v] -= 1
            self.seat(u)["regrets"][v] += 1

    def run(self, effects: Sequence[Mapping[str, Any]], u: int) -> None:
        for e in effects:
            getattr(self, "do_" + e["kind"])(e, u)

    def do_increment(self, e: Mapping[str, Any], u: int) -> None:
        for i in range(e["amount"]):
            fresh = self.seat(u)["fresh"]
            low = sorted({d for d in fresh if int(d[1]) < TOP_FACE[d[0]]}, key=CLASSES.index)
            if not low:
                return
            self.decide("increment", u, [die(d) for d in low], die(low[0]), e["amount"] - i)
            fresh.remove(low[0])
            fresh.append(f"{low[0][0]}{int(low[0][1]) + 1}")
            self.seat(u)["fresh"] = in_class_order(fresh)

    def held_regrets(self, u: int) -> list[int]:
        """The regret values seat ``u`` holds, lowest first."""
        regrets = self.seat(u)["regrets"]
        return [v for v in range(4) if regrets[v]]

    def discard_regret(self, u: int, v: int) -> None:
        """Seat ``u`` discards a regret of value ``v``."""
        self.seat(u)["regrets"][v] -= 1
        self.model["regret_discard"][v] += 1

    def do_discard_random_regret(self, e: Mapping[str, Any], u: int) -> None:
        for _ in range(e["amount"]):
            held = self.held_regrets(u)
            if not held:
                return
            self.draw("discard_random_regret", u, held, held[-1])
            self.discard_regret(u, held[-1])

    def do_discard_regret(self, e: Mapping[str, Any], u: int) -> None:
        for i in range(e["amount"]):
            held = self.held_regrets(u)
            if not held:
                return
            legal = [REGRET + v for v in held]
            self.decide("discard_regret", u, legal, legal[-1], e["amount"] - i)
            self.discard_regret(u, held[-1])

    def do_refresh(self, e: Mapping[str, Any], u: int) -> None:
        for i in range(e["amount"]):
            seat = self.seat(u)
            if not seat["spent"] or len(seat["fresh"]) >= max_fresh(sum(seat["regrets"])):
                return
            kinds = in_kind_order(list(set(seat["spent"])))
            legal = [DIE_KIND + KINDS.index(k) for k in kinds]
            self.decide("refresh_die", u, legal, legal[0], e["amount"] - i)
            seat["spent"].remove(kinds[0])
            faces = sorted({int(c[1]) for c in CLASSES if c[0] == kinds[0]})
            self.draw("roll", u, faces, faces[-1])
            seat["fresh"] = in_class_order([*seat["fresh"], f"{kinds[0]}{faces[-1]}"])

    def do_draw_regret(self, e: Mapping[str, Any], u: int) -> None:
        if e.get("per") == "foul_in_hand":
            k = sum(1 for f in self.seat(u)["hand"] if FISH_BY_ID[f]["alignment"] == "foul")
        else:
            k = e["amount"]
        self.draw_regrets(u, k)

    def do_choice(self, e: Mapping[str, Any], u: int) -> None:
        self.decide("choose_effect", u, [FIRST_OPTION, SECOND_OPTION], FIRST_OPTION + self.branch)
        self.run(e["options"][self.branch], u)

    def do_coin(self, e: Mapping[str, Any], u: int) -> None:
        self.expect("coin", u)
        assert self.t.state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
        self.t.state.apply(self.branch)
        self.run(e["tails" if self.branch else "heads"], u)

    def group(self, who: str, u: int) -> list[int]:
        n = self.t.players
        order = [(u + i) % n for i in range(n)]
        if who == "others":
            return order[1:]
        if who == "at_sea":
            return [q for q in order if self.seat(q)["depth"] >= 1]
        return order

    def do_each(self, e: Mapping[str, Any], u: int) -> None:
        for q in self.group(e["who"], u):
            self.run(e["effects"], q)

    def do_gain_money(self, e: Mapping[str, Any], u: int) -> None:
        self.seat(u)["money"] = min(10, self.seat(u)["money"] + e["amount"])

    def do_take_supply(self, e: Mapping[str, Any], u: int) -> None:
        for _ in range(e["amount"]):
            deck = self.model["supply_deck"]
            self.draw("draw_supply", u, deck, deck[0])
            self.seat(u)["supplies"] = sorted([*self.seat(u)["supplies"], deck.pop(0)])

    def do_draw_dink(self, e: Mapping[str, Any], u: int) -> None:
        for _ in range(e["amount"]):
            deck = self.model["dink_deck"]
            self.draw("draw_dink", u, deck, deck[0])
            self.seat(u)["dinks"] = sorted([*self.seat(u)["dinks"], deck.pop(0)])

    def do_flip_worms(self, e: Mapping[str, Any], u: int) -> None:
        self.seat(u)["worms"] = not self.seat(u)["worms"]

    def do_peek(self, e: Mapping[str, Any], u: int) -> None:
        assert e["target"] == "shoal"
        for i in range(e["amount"]):
            known = self.model["known"][u]
            peekable = [
                s
                for s in range(9)
                if self.model["shoals"][s] and not self.model["face_up"][s] and s not in known
            ]
            if not peekable:
                return
            legal = [CAST + s for s in peekable]
            self.decide("peek_shoal", u, legal, legal[0], e["amount"] - i)
            self.model["known"][u] = sorted([*known, peekable[0]])

    def do_discard_fish(self, e: Mapping[str, Any], u: int) -> None:
        hand = self.seat(u)["hand"]
        fitting = [f for f in hand if FISH_BY_ID[f]["size"] == e["size"]]
        if not fitting:
            return
        self.decide("discard_fish", u, [EAT + f for f in fitting], EAT + fitting[0])
        hand.remove(fitting[0])
        self.model["fish_discard"][FISH_BY_ID[fitting[0]]["depth"] - 1].append(fitting[0])

    def do_discard_item(self, e: Mapping[str, Any], u: int) -> None:
        seat = self.seat(u)
        legal = (
            [SUPPLY + i for i in seat["supplies"]]
            + [ROD + r for r in seat["rods"]]
            + [REEL + r for r in seat["reels"]]
        )
        if not legal:
            return
        self.decide("discard_item", u, legal, legal[0])
        assert legal[0] < ROD, "the scenarios only discard supplies"
        seat["supplies"].remove(legal[0] - SUPPLY)
        self.model["supply_discard"] = sorted([*self.model["supply_discard"], legal[0] - SUPPLY])

    def do_discard_this(self, e: Mapping[str, Any], u: int) -> None:
        f = self.fish
        pile = self.model["fish_discard"][FISH_BY_ID[f]["depth"] - 1]
        if f in self.seat(u)["hand"]:
            self.seat(u)["hand"].remove(f)
            pile.append(f)
            return
        for s in range(9):
            if self.model["shoals"][s][:1] == [f]:
                self.model["shoals"][s].pop(0)
                self.model["face_up"][s] = False
                pile.append(f)

    def do_set_difficulty(self, e: Mapping[str, Any], u: int) -> None:
        self.base = e["amount"]

    def do_reroll(self, e: Mapping[str, Any], u: int) -> None:
        fresh = self.seat(u)["fresh"]
        if not fresh:
            return
        assert e["max"] == 1
        classes = sorted(set(fresh), key=CLASSES.index)
        self.decide("reroll_select", u, [ROLL_NOW, *[die(d) for d in classes]], die(classes[0]))
        fresh.remove(classes[0])
        faces = sorted({int(c[1]) for c in CLASSES if c[0] == classes[0][0]})
        self.draw("roll", u, faces, faces[-1])
        self.seat(u)["fresh"] = in_class_order([*fresh, f"{classes[0][0]}{faces[-1]}"])

    def do_reroll_all(self, e: Mapping[str, Any], u: int) -> None:
        kinds = in_kind_order([d[0] for d in self.seat(u)["fresh"]])
        self.seat(u)["fresh"] = []
        for k in kinds:
            faces = sorted({int(c[1]) for c in CLASSES if c[0] == k})
            self.draw("roll", u, faces, faces[0])
            self.seat(u)["fresh"] = in_class_order([*self.seat(u)["fresh"], f"{k}{faces[0]}"])

    def do_omen_die(self, e: Mapping[str, Any], u: int) -> None:
        self.seat(u)["spent"] = in_kind_order([*self.seat(u)["spent"], "M"])

    def do_move_boats(self, e: Mapping[str, Any], u: int) -> None:
        for seat in self.model["players"]:
            if seat["depth"] >= 1:
                seat["depth"] = e["depth"]

    def do_end_cast(self, e: Mapping[str, Any], u: int) -> None:
        self.ended = "end_cast"

    def do_free_cast(self, e: Mapping[str, Any], u: int) -> None:
        self.ended = "free_cast"

    # --- the check ---
    def check(self) -> None:
        st = self.t.st
        for key in (
            "players",
            "regret_deck",
            "regret_discard",
            "dink_deck",
            "supply_deck",
            "supply_discard",
            "known",
            "fish_discard",
            "shoals",
            "face_up",
        ):
            assert st[key] == self.model[key], key
        assert st["ctx"]["ability"] is None


PLAIN = {
    "increment",
    "discard_random_regret",
    "discard_regret",
    "refresh",
    "draw_regret",
    "choice",
    "coin",
    "each",
    "gain_money",
    "take_supply",
    "draw_dink",
    "flip_worms",
    "peek",
    "discard_fish",
    "discard_item",
    "discard_this",
    "set_difficulty",
    "reroll",
    "reroll_all",
    "omen_die",
    "move_boats",
    "end_cast",
    "free_cast",
}


def plain(trigger: str, reachable: Callable[[dict[str, Any]], bool] = lambda f: True) -> list[Any]:
    """pytest parameters: every fish whose ``trigger`` list is plain, once per branch."""
    params = []
    for f in FISH_BY_ID:
        effects = f[trigger]
        if not effects or not kinds_of(effects) <= PLAIN or not reachable(f):
            continue
        if any(e["kind"] == "peek" and e["target"] != "shoal" for e in effects):
            continue
        for branch in (0, 1) if branches(effects) else (0,):
            params.append(pytest.param(f["name"], branch, id=f"{f['name']}-{branch}"))
    return params


# ----- getting fish into hands -----


def resolve(t: Table, until: Callable[[Table], bool], limit: int = 500) -> None:
    """Default steps (first legal action, a dink as reward) until ``until`` holds."""
    t.auto(until, limit)


def sink_to(t: Table, p: int, depth: int) -> None:
    """Seat p drops sinkers (its lowest Fresh die each time) down to ``depth``."""
    while t.seat(p)["depth"] < depth:
        t.act(die(t.seat(p)["fresh"][0]), "turn", p)


def pay_up(t: Table, p: int) -> None:
    """At seat p's `pay` node: difficulty items first (Life Preserver, dinks), then the highest
    Fresh dice, until the payment is complete."""
    for _ in range(20):
        legal = t.legal()
        if CATCH in legal:
            return
        difficulty = t.obs(p)["ctx"]["cast"]["difficulty"]
        items = [a for a in legal if a == USE_LP or DINK <= a < DINK + 11]
        dice = [a for a in legal if DIE <= a < DIE + 15]
        if difficulty and items:
            t.act(items[0], "pay", p)
            resolve(t, lambda t: t.at("pay", p))
        else:
            assert dice, "the scenario cannot pay for this fish"
            t.act(dice[-1], "pay", p)
    raise AssertionError("pay_up: no catch")


def shoal_of(f: int, column: int = 0) -> int:
    """The shoal in column ``column`` (0..2) of fish f's depth."""
    depth: int = FISH_BY_ID[f]["depth"]
    return 3 * (depth - 1) + column


def sink_and_cast(t: Table, p: int, f: int, s: int | None = None) -> int:
    """Seat p sinks to the fish's depth and casts at shoal s (default: column 0 of that depth),
    with fish f on top, revealing it; returns the shoal."""
    s = shoal_of(f) if s is None else s
    sink_to(t, p, FISH_BY_ID[f]["depth"])
    assert t.st["shoals"][s][0] == f
    t.act(CAST + s, "turn", p)
    return s


def cast_at(t: Table, p: int, f: int, s: int | None = None) -> int:
    """:func:`sink_and_cast`, then any reveal ability is resolved by default steps up to the
    `pay` node."""
    s = sink_and_cast(t, p, f, s)
    resolve(t, lambda t: t.at("pay", p))
    return s


def catch_any(t: Table, p: int, f: int) -> None:
    """Seat p catches fish f from the top of its depth's column-0 shoal; the catch ability is
    resolved by default steps until the next seat's turn or reward."""
    cast_at(t, p, f)
    pay_up(t, p)
    t.act(CATCH, "pay", p)
    resolve(t, lambda t: t.st["node"] in ("turn", "reward") and t.st["actor"] != p)


def muster_faces(t: Table, faces: Mapping[int, Sequence[int]]) -> None:
    """From the Refresh phase to the Actions phase; the seats in ``faces`` reroll every Fresh
    die and roll their dice with those faces (in order)."""
    left = {p: list(f) for p, f in faces.items()}
    assert t.st["phase"] in ("refresh", "declaration")
    for _ in range(2000):
        st = t.st
        if st["phase"] == "actions":
            return
        p = st["actor"]
        if st["node"] == "muster_select" and p in left:
            legal = t.legal()
            t.act(legal[1] if len(legal) > 1 else ROLL_NOW, "muster_select", p)
        elif st["node"] == "roll" and p in left and left[p]:
            t.act(left[p].pop(0), "roll", p)
        else:
            t.default()
    raise AssertionError("muster_faces: no Actions phase")


def regret_tuesday(
    backend: Backend,
    tops: Mapping[int, Sequence[int]] | None = None,
    caught: str | None = None,
    faces: Sequence[int] = (3, 3, 3),
    regrets: Sequence[int] = (1, 2),
    regrets1: Sequence[int] = (0, 3),
    players: int = 2,
    **options: Any,
) -> Table:
    """Seat 0's first turn on Tuesday, with its Fresh dice showing ``faces``.

    On Monday seat 0 catches ``caught`` (if any; the Life Preserver helps it), then everybody
    passes: seat 0 draws the Syringe, seat 1 the Odd Ring. On Tuesday seat 1 (the first player)
    uses the Odd Ring (regrets ``regrets1``) and passes, the other seats pass, and seat 0 uses
    the Syringe (regrets ``regrets``; kept unused when empty). Seat 0 has two turns left.
    """
    all_tops = dict(tops or {})
    if caught is not None:
        all_tops[shoal_of(FISH[caught])] = [FISH[caught]]
    dice = {0: (2, 3, 3), **{p: (3, 3, 3) for p in range(1, players)}}
    t = monday(backend, players, tops=all_tops, dice=dice, **options)
    assert t.st["life_preserver"] == 0
    if caught is not None:
        catch_any(t, 0, FISH[caught])
        for p in range(1, players):
            resolve(t, lambda t: t.st["node"] == "turn")
            if t.at("turn", p):
                t.pass_turn(p, DINKS["Odd Ring"] if p == 1 else None)
        resolve(t, lambda t: t.at("turn", 0))
        t.pass_turn(0, DINKS["Syringe"])
    else:
        t.pass_turn(0, DINKS["Syringe"])
        for p in range(1, players):
            t.pass_turn(p, DINKS["Odd Ring"] if p == 1 else None)
    muster_faces(t, {0: faces, **{p: (3, 3, 3) for p in range(1, players)}})
    order = [(1 + i) % players for i in range(players)]
    for p in order:
        resolve(t, lambda t: t.st["node"] == "turn")
        assert t.at("turn", p)
        if p == 0:
            break
        if p == 1 and regrets1:
            t.act(DINK + DINKS["Odd Ring"], "turn", 1)
            t.acts("draw_regret", *regrets1)
        t.pass_turn(p, None)
    if regrets:
        t.act(DINK + DINKS["Syringe"], "turn", 0)
        t.acts("draw_regret", *regrets)
    assert t.at("turn", 0) and t.st["day"] == 2
    return t


# ----- plain effect lists, generated from the data (§16.4–§16.7) -----


def can_catch_on_tuesday(f: dict[str, Any]) -> bool:
    """Seat 0 of ``regret_tuesday`` reaches difficulty 8 at depth II and 5 at depth III."""
    difficulty = f["difficulty"] or 0
    if f["depth"] == 3:
        return difficulty <= 5 and (f["exact_dice"] or 1) == 1
    return difficulty <= 8


def tentacles(name: str) -> dict[str, Any]:
    """The option that puts fish ``name`` in play."""
    return {"expansion_tentacles": FISH_BY_ID[FISH[name]]["expansion"] == "tentacles"}


def tuesday_with_fish_on_top(backend: Backend, name: str) -> tuple[Table, int, int]:
    """``regret_tuesday`` with fish ``name`` on top of the middle shoal of its depth (the fish's
    expansion in play): the table, the fish's id and the shoal."""
    f = FISH[name]
    s = shoal_of(f, column=1)
    return regret_tuesday(backend, tops={s: [f]}, **tentacles(name)), f, s


@pytest.mark.parametrize(("name", "branch"), plain("eat"))
def test_eating_runs_the_eat_list(backend: Backend, name: str, branch: int) -> None:
    # Tuesday: Fresh P1 P1 after a sinker with P2 (one Spent die), regrets 1 and 2.
    t = regret_tuesday(backend, caught=name, faces=(1, 1, 2), **tentacles(name))
    f = FISH[name]
    t.act(die("P2"), "turn", 0)
    assert f in t.seat(0)["hand"]
    assert t.state.action_label(EAT + f) == f"eat {name}"
    assert EAT + f in t.legal()
    run = Effects(t, f, "eat", branch)
    run.seat(0)["hand"].remove(f)
    run.model["fish_discard"][FISH_BY_ID[f]["depth"] - 1].append(f)
    t.act(EAT + f, "turn", 0)
    run.run(FISH_BY_ID[f]["eat"], 0)
    # A free action: the same turn node again.
    assert t.at("turn", 0)
    run.check()


def test_eating_barracuda_increments_a_die_and_discards_two_random_regrets(
    backend: Backend,
) -> None:
    t = regret_tuesday(backend, caught="Barracuda", faces=(1, 2, 3), regrets=(1, 2))
    t.act(eat("Barracuda"), "turn", 0)
    st = t.st
    assert st["fish_discard"][0][-1] == FISH["Barracuda"]
    assert st["ctx"]["ability"] == {"fish": FISH["Barracuda"], "trigger": "eat"}
    assert t.obs(1)["ctx"]["ability"] == {"fish": "Barracuda", "trigger": "eat"}
    assert (st["node"], st["ctx"]["left"]) == ("increment", 1)
    assert t.legal() == [die("P1"), die("P2")]
    assert t.state.action_label(die("P2")) == "increment P2"
    t.act(die("P2"), "increment", 0)
    assert t.seat(0)["fresh"] == ["P1", "P3", "P3"]
    assert t.state.chance_outcomes() == [(1, 0.5), (2, 0.5)]
    t.act(2, "discard_random_regret", 0)
    t.act(1, "discard_random_regret", 0)
    st = t.st
    assert st["players"][0]["regrets"] == [0, 0, 0, 0]
    assert st["regret_discard"] == [0, 1, 1, 0]
    assert (st["node"], st["ctx"]["ability"]) == ("turn", None)


@pytest.mark.parametrize(("name", "branch"), plain("catch", can_catch_on_tuesday))
def test_catching_runs_the_catch_list(backend: Backend, name: str, branch: int) -> None:
    t, f, s = tuesday_with_fish_on_top(backend, name)
    record = FISH_BY_ID[f]
    cast_at(t, 0, f, s)
    pay_up(t, 0)
    run = Effects(t, f, "catch", branch)
    seat = run.seat(0)
    for d in t.st["ctx"]["cast"]["payment"]:
        assert d[0] == "P"
        seat["spent"].append("P")
    seat["spent"] = in_kind_order(seat["spent"])
    run.model["shoals"][s].pop(0)
    run.model["face_up"][s] = False
    run.model["known"] = [[k for k in known if k != s] for known in run.model["known"]]
    seat["front" if record["front"] else "hand"] = sorted(
        [*seat["front" if record["front"] else "hand"], f]
    )
    seat["caught_today"] = True
    t.act(CATCH, "pay", 0)
    run.run(record["catch"], 0)
    # The cast is over; seat 0 ends its turn and seat 1 (passed) takes its skip reward.
    t.end_turn(0)
    assert t.at("reward", 1)
    run.check()


def plain_reveal(f: dict[str, Any]) -> bool:
    return not f["not_caught"] or f["name"] == "Brittle Lung"


@pytest.mark.parametrize(("name", "branch"), plain("reveal", plain_reveal))
def test_revealing_runs_the_reveal_list(backend: Backend, name: str, branch: int) -> None:
    t, f, s = tuesday_with_fish_on_top(backend, name)
    record = FISH_BY_ID[f]
    sink_to(t, 0, record["depth"])
    run = Effects(t, f, "reveal", branch)
    run.model["face_up"][s] = True
    t.act(CAST + s, "turn", 0)
    run.run(record["reveal"], 0)
    if run.ended == "free_cast":
        assert t.at("turn", 0)
        assert t.st["ctx"]["cast"] is None
    elif run.ended == "end_cast":
        t.end_turn(0)
        assert t.at("reward", 1)
        assert t.st["ctx"]["cast"] is None
    else:
        assert t.at("pay", 0)
        assert t.st["ctx"]["cast"]["base"] == run.base
    run.check()


# ----- visitors, whales and The Plug (special cards, §16.11) -----


def test_tidal_trafficker_draws_a_regret_and_a_supply_then_leaves(backend: Backend) -> None:
    tops = {2: [FISH["Tidal Trafficker"], FISH["Sheepshead"]]}
    t = monday(backend, 2, tops=tops)
    t.act(CAST + 2, "turn", 0)
    assert t.st["ctx"]["ability"] == {"fish": FISH["Tidal Trafficker"], "trigger": "reveal"}
    t.act(2, "draw_regret", 0)
    assert t.at("draw_supply", 0)
    t.act(SUPPLIES["Black Tea"], "draw_supply", 0)
    st = t.st
    assert st["fish_discard"] == [[FISH["Tidal Trafficker"]], [], []]
    assert st["shoals"][2][0] == FISH["Sheepshead"] and len(st["shoals"][2]) == 12
    assert st["face_up"][2] is False
    assert st["ctx"]["cast"] is None and st["ctx"]["ability"] is None
    assert st["players"][0]["regrets"] == [0, 0, 1, 0]
    assert st["players"][0]["supplies"] == [SUPPLIES["Black Tea"]]
    assert st["players"][0]["fresh"] == ["P1", "P2", "P3"]
    # The cast used the main action.
    assert t.at("turn", 1)


@pytest.mark.parametrize(
    ("name", "regrets", "supplies"), [("Deep Dealer", 2, 2), ("Profound Peddler", 3, 3)]
)
def test_deeper_visitors_draw_more(
    backend: Backend, name: str, regrets: int, supplies: int
) -> None:
    f = FISH[name]
    s = shoal_of(f, column=2)
    t = monday(backend, 2, tops={s: [f]}, dice={0: (1, 1, 1)})
    sink_and_cast(t, 0, f, s)
    t.acts("draw_regret", *[3] * regrets)
    t.acts("draw_supply", *range(supplies))
    st = t.st
    assert st["players"][0]["regrets"] == [0, 0, 0, regrets]
    assert st["players"][0]["supplies"] == list(range(supplies))
    assert st["fish_discard"][FISH_BY_ID[f]["depth"] - 1] == [f]
    assert t.at("turn", 1)


def test_humpback_whale_helps_everyone_and_the_cast_is_free(backend: Backend) -> None:
    t = regret_tuesday(backend, tops={4: [FISH["Humpback Whale"]]}, faces=(1, 2, 3))
    t.act(die("P1"), "turn", 0)  # depth II; Fresh P2 P3
    t.act(CAST + 4, "turn", 0)
    # Everyone from the caster: seat 0 discards 2 regrets and increments a die, then seat 1.
    t.acts("discard_regret", REGRET + 2, REGRET + 1)
    t.act(die("P2"), "increment", 0)
    t.acts("discard_regret", REGRET + 3, REGRET + 0)
    # Seat 1's dice all show their top face: nothing to increment.
    st = t.st
    assert st["players"][0]["regrets"] == st["players"][1]["regrets"] == [0, 0, 0, 0]
    assert st["players"][0]["fresh"] == ["P3", "P3"]
    assert st["players"][1]["fresh"] == ["P3", "P3", "P3"]
    assert st["fish_discard"][1] == [FISH["Humpback Whale"]]
    assert st["face_up"][4] is False
    # A free cast: seat 0 is still on its turn and may cast again.
    assert t.at("turn", 0)
    assert CAST + 4 in t.legal()


def test_the_plug_discards_the_first_top_at_every_turn(backend: Backend) -> None:
    t = monday(backend, 2, tops={6: [FISH["The Plug"]]})
    first, second = t.st["shoals"][0][:2]
    sink_to(t, 0, 3)
    t.act(CAST + 6, "turn", 0)
    st = t.st
    assert st["plug"] is True
    assert FISH["The Plug"] not in [f for pile in st["fish_discard"] for f in pile]
    assert FISH["The Plug"] not in st["shoals"][6]
    assert t.obs(1)["plug"] is True
    # Seat 1's turn begins: the top of shoal 0 is discarded first.
    assert t.at("turn", 1)
    st = t.st
    assert st["fish_discard"][0] == [first]
    assert st["shoals"][0][0] == second
    t.pass_turn(1, None)
    # Seat 0's turn: again.
    assert t.at("turn", 0)
    assert t.st["fish_discard"][0] == [first, second]


# ----- giving the fish away (§16.7 give_this) -----


@pytest.mark.parametrize("name", ["Man O' War", "Bathyphysa Conifera", "Abyssal Colony"])
def test_give_this_to_a_chosen_seat_ends_the_turn(backend: Backend, name: str) -> None:
    f = FISH[name]
    s = shoal_of(f)
    t = monday(backend, 3, tops={s: [f]})
    sink_to(t, 0, FISH_BY_ID[f]["depth"])
    fresh = t.seat(0)["fresh"]
    t.act(CAST + s, "turn", 0)
    st = t.st
    assert (st["node"], st["actor"]) == ("give_fish", 0)
    assert t.legal() == [GIVE + 1, GIVE + 2]
    assert t.state.action_label(GIVE + 2) == f"give {name} to seat 2"
    t.act(GIVE + 2, "give_fish", 0)
    st = t.st
    assert st["players"][2]["hand"] == [f]
    assert st["shoals"][s][0] != f and st["face_up"][s] is False
    assert st["players"][0]["fresh"] == fresh
    assert st["ctx"]["cast"] is None
    assert t.at("turn", 1)


@pytest.mark.parametrize("name", ["Misery Stalker", "Grief Lurker", "Trauma Leech"])
@pytest.mark.parametrize(
    ("regrets", "regrets1", "to"), [((1, 2), (0, 3), None), ((), (0, 3), 1), ((1, 2), (), 0)]
)
def test_give_this_to_the_most_regrets(
    backend: Backend,
    name: str,
    regrets: tuple[int, ...],
    regrets1: tuple[int, ...],
    to: int | None,
) -> None:
    f = FISH[name]
    s = shoal_of(f, column=2)
    t = regret_tuesday(backend, tops={s: [f]}, regrets=regrets, regrets1=regrets1)
    sink_and_cast(t, 0, f, s)
    st = t.st
    if to is None:  # a tie for the most: discarded
        assert st["fish_discard"][FISH_BY_ID[f]["depth"] - 1][-1] == f
        assert all(f not in seat["hand"] for seat in st["players"])
    else:
        assert st["players"][to]["hand"] == [f]
    assert st["ctx"]["cast"] is None
    assert t.at("reward", 1)


@pytest.mark.parametrize(
    ("name", "players", "to"), [("Scrat", 3, 2), ("Skitterfin", 3, 1), ("Scrat", 2, 1)]
)
def test_not_caught_gives_the_fish_to_a_neighbour(
    backend: Backend, name: str, players: int, to: int
) -> None:
    f = FISH[name]
    s = shoal_of(f)
    t = monday(backend, players, tops={s: [f]})
    sink_and_cast(t, 0, f, s)
    t.act(DECLINE, "pay", 0)
    # The decline's die and dink come first, then the not-caught ability.
    t.act(die(t.seat(0)["fresh"][-1]), "decline_die", 0)
    t.act(DINKS["Scad"], "draw_dink", 0)
    st = t.st
    assert st["players"][to]["hand"] == [f]
    assert st["players"][0]["dinks"] == [DINKS["Scad"]]
    assert st["shoals"][s][0] != f
    assert t.at("turn", 1)


def test_brittle_lung_is_discarded_when_not_caught(backend: Backend) -> None:
    t = monday(backend, 2, tops={3: [FISH["Brittle Lung"]]})
    sink_to(t, 0, 2)
    t.act(CAST + 3, "turn", 0)
    t.act(3, "draw_regret", 0)  # its reveal ability
    assert t.at("pay", 0)
    t.act(DECLINE, "pay", 0)
    t.act(die("P2"), "decline_die", 0)
    t.act(DINKS["Scad"], "draw_dink", 0)
    st = t.st
    assert st["fish_discard"][1] == [FISH["Brittle Lung"]]
    assert st["face_up"][3] is False
    assert st["players"][0]["regrets"] == [0, 0, 0, 1]


def test_northern_stargazer_goes_back_at_a_random_depth(backend: Backend) -> None:
    t = monday(backend, 2, tops={3: [FISH["Northern Stargazer"]]})
    sink_to(t, 0, 2)
    t.act(CAST + 3, "turn", 0)
    t.act(DECLINE, "pay", 0)
    t.act(die("P2"), "decline_die", 0)
    t.act(DINKS["Scad"], "draw_dink", 0)
    st = t.st
    assert (st["node"], st["actor"]) == ("shuffle_back", 0)
    outcomes = t.state.chance_outcomes()
    assert [k for k, _ in outcomes] == list(range(13))
    assert all(w == pytest.approx(1 / 13) for _, w in outcomes)
    assert t.state.action_label(5) == "put Northern Stargazer back under 5 fish"
    t.act(5, "shuffle_back", 0)
    st = t.st
    assert st["shoals"][3][5] == FISH["Northern Stargazer"]
    assert len(st["shoals"][3]) == 13
    assert st["face_up"][3] is False
    assert t.at("turn", 1)


# ----- fish in front (§16.2, §16.3, §16.8, §16.9) -----


def test_parasitic_larvae_is_caught_at_once_and_adds_a_regret_to_every_draw(
    backend: Backend,
) -> None:
    t = monday(backend, 2, tops={0: [FISH["Parasitic Larvae"], FISH["Eyefish"]]})
    t.act(CAST + 0, "turn", 0)
    st = t.st
    assert st["players"][0]["front"] == [FISH["Parasitic Larvae"]]
    assert st["players"][0]["hand"] == []
    assert st["players"][0]["caught_today"] is True
    assert st["players"][0]["fresh"] == ["P1", "P2", "P3"]
    assert t.obs(1)["front"] == [["Parasitic Larvae"], []]
    assert t.at("turn", 1)
    t.pass_turn(1, None)
    # Eyefish: its catch draws one regret, plus one for the larvae; then a peek.
    t.catch(0, 0, "P1")
    t.acts("draw_regret", 1, 2)
    assert t.seat(0)["regrets"] == [0, 1, 1, 0]
    assert t.at("peek_shoal", 0)
    # Fish in front cannot be eaten.
    t.act(CAST + 1, "peek_shoal", 0)
    t.take_reward(1, None)
    assert EAT + FISH["Parasitic Larvae"] not in t.legal()
    assert EAT + FISH["Eyefish"] in t.legal()


@pytest.mark.parametrize(("name", "column"), [("Colossal Squid", 1), ("Gloom Orphan", 2)])
def test_front_column_locks_restrict_the_casts(backend: Backend, name: str, column: int) -> None:
    # "You may only fish in this column": the column of the shoal it was revealed at.
    f = FISH[name]
    s = shoal_of(f, column)
    t = regret_tuesday(backend, tops={s: [f]}, faces=(3, 3, 3), regrets=())
    t.act(die("P3"), "turn", 0)  # depth II
    sink_and_cast(t, 0, f, s)
    st = t.st
    assert st["players"][0]["front"] == [f]
    assert st["players"][0]["locks"] == [column]
    assert t.obs(1)["locks"] == [[column], []]
    t.take_reward(1, None)
    casts = [a for a in t.legal() if CAST <= a < CAST + 9]
    assert casts and all((a - CAST) % 3 == column for a in casts)
    # Decision 66: the Can of Worms reaches "a shoal you could cast at" (rules README): the locks
    # bound it too (it reached every shoal within the boat's depth).
    worms = [a - WORMS for a in t.legal() if WORMS <= a < WORMS + 9]
    assert worms and worms == [a - CAST for a in casts if not t.st["face_up"][a - CAST]]
    if name == "Gloom Orphan":
        # One more regret at every draw event.
        t.act(DINK + DINKS["Syringe"], "turn", 0)
        t.acts("draw_regret", 1, 1, 1)
        assert t.seat(0)["regrets"] == [0, 3, 0, 0]


def test_the_can_of_worms_alone_keeps_a_locked_seat_at_after_main(backend: Backend) -> None:
    """ "Ilmaiset & rajoittamattomat toiminnot: [...] Käytä matopurkki ja vilkaise päälimmäinen
    kala, laita se sitten pohjalle tai päälimmäiseksi." (Free & unlimited actions: [...] use the
    can of worms and peek at the top fish, then put it at the bottom or on top.) The rules README
    takes free actions "before AND after its main action", the can on "a shoal you could cast
    at" (Decision 66: the column locks bound it; no Fresh die is needed).

    Seat 0 has used its lifeboat (Monday), then on Tuesday drops two sinkers to depth III and
    casts at the Gloom Orphan, which locks it to column 2 and spends no die. After that main action
    no sinker can go deeper, no dink or fish is ready and the lifeboat is gone: only the can
    keeps the turn open at ``after_main``, and only on the shoals of its column. Once the can is
    used, no free action is left and the turn ends at once (no second ``after_main``).
    """
    orphan = FISH["Gloom Orphan"]
    s = shoal_of(orphan, 2)
    t = monday(backend, 2, tops={s: [orphan]}, dice={0: (3, 3, 3)})
    t.act(ABANDON, "turn", 0)
    t.act(ROLL_NOW, "muster_select", 0)
    t.act(PASS, "turn", 0)
    t.take_reward(0, None)
    t.to_turn(0, day=2)
    assert t.seat(0)["lifeboat_used"] is True and t.seat(0)["depth"] == 1
    t.free_after_main = True
    sink_to(t, 0, 3)
    t.act(CAST + s, "turn", 0)
    seat = t.seat(0)
    assert (seat["front"], seat["locks"], seat["worms"]) == ([orphan], [2], True)
    assert seat["fresh"] and seat["depth"] == 3
    assert t.at("after_main", 0)
    # Depth III reaches every shoal, and each has a face-down top: the lock leaves column 2.
    assert not any(t.st["face_up"]) and all(t.st["shoals"])
    assert t.legal() == [END_TURN, WORMS + 2, WORMS + 5, WORMS + 8]
    t.act(WORMS + 5, "after_main", 0)
    t.act(LEAVE_ON_TOP, "worms", 0)
    assert t.st["known"][0] == [5]
    assert t.st["node"] != "after_main" and t.st["actor"] == 1


@pytest.mark.parametrize(
    ("front", "target", "shoal", "difficulty"),
    [("Orca", "Mermaid", 4, 3), ("Orca", "Halibut", 4, 2), ("Eversquid", "Halibut", 4, 1)],
)
def test_front_fish_change_difficulties(
    backend: Backend, front: str, target: str, shoal: int, difficulty: int
) -> None:
    t = regret_tuesday(backend, caught=front, tops={shoal: [FISH[target]]})
    assert t.seat(0)["front"] == [FISH[front]]
    sink_to(t, 0, 2)
    t.act(CAST + shoal, "turn", 0)
    assert t.obs(0)["ctx"]["cast"]["difficulty"] == difficulty


def test_whispering_skull_peeks_once_per_turn(backend: Backend) -> None:
    t = regret_tuesday(backend, caught="Whispering Skull", regrets=())
    st = t.st
    assert st["players"][0]["front"] == [FISH["Whispering Skull"]]
    assert USE_SKULL in t.legal()
    assert t.state.action_label(USE_SKULL) == "use Whispering Skull"
    t.act(USE_SKULL, "turn", 0)
    assert t.at("peek_shoal", 0)
    assert t.st["players"][0]["skull_used"] is True
    t.act(CAST + 5, "peek_shoal", 0)
    st = t.st
    assert st["known"][0] == [5]
    assert (st["node"], st["actor"]) == ("turn", 0)
    assert USE_SKULL not in t.legal()


def test_iron_coffin_offers_regrets_to_another_seat(backend: Backend) -> None:
    t = regret_tuesday(backend, caught="Iron Coffin", regrets=(1, 2))
    st = t.st
    assert st["players"][0]["front"] == [FISH["Iron Coffin"]]
    regrets = st["players"][0]["regrets"]
    assert sum(regrets) == 4  # two from its catch, two from the Syringe
    assert USE_COFFIN in t.legal()
    assert t.state.action_label(USE_COFFIN) == "use Iron Coffin"
    t.act(USE_COFFIN, "turn", 0)
    assert t.legal() == [GIVE + 1]
    assert t.state.action_label(GIVE + 1) == "offer regrets to seat 1"
    t.act(GIVE + 1, "offer_target", 0)
    assert t.st["ctx"]["target"] == 1
    assert DONE not in t.legal()
    assert t.state.action_label(REGRET + 2) == "offer a regret of value 2"
    t.act(REGRET + 2, "offer_regret", 0)
    assert t.st["ctx"]["offer"] == [2]
    assert t.obs(1)["ctx"]["offer"] == [2]
    assert t.state.action_label(DONE) == "done offering"
    t.act(REGRET + 1, "offer_regret", 0)
    # Two offered (the most): the target decides.
    t.asks_yes_no("accept_offer", 1, "accept the regrets", "refuse the regrets")
    assert t.st["ctx"]["offer"] == [1, 2]
    before1 = list(t.seat(1)["regrets"])
    t.act(YES, "accept_offer", 1)
    resolve(t, lambda t: t.at("turn", 0))
    st = t.st
    assert st["ctx"]["offer"] == [] and st["ctx"]["target"] is None
    assert st["players"][1]["regrets"] == [before1[0], before1[1] + 1, before1[2] + 1, before1[3]]
    assert sum(st["players"][0]["regrets"]) == 2
    assert st["players"][0]["coffin_used"] is True
    assert USE_COFFIN not in t.legal()


def test_iron_coffin_offer_may_be_refused(backend: Backend) -> None:
    t = regret_tuesday(backend, caught="Iron Coffin", regrets=(1, 2))
    before = [list(seat["regrets"]) for seat in t.st["players"]]
    t.act(USE_COFFIN, "turn", 0)
    t.act(GIVE + 1, "offer_target", 0)
    t.act(REGRET + 1, "offer_regret", 0)
    assert t.legal()[0] == DONE
    t.act(DONE, "offer_regret", 0)
    t.act(NO, "accept_offer", 1)
    assert t.at("turn", 0)
    assert [seat["regrets"] for seat in t.st["players"]] == before


def test_amulet_of_agartha_brings_the_omen_die(backend: Backend) -> None:
    t = regret_tuesday(backend, caught="Amulet of Agartha", faces=(3, 3, 3, 4), regrets=())
    st = t.st
    assert st["players"][0]["front"] == [FISH["Amulet of Agartha"]]
    assert st["players"][0]["fresh"] == ["P3", "P3", "P3", "M4"]
    assert sum(st["players"][0]["regrets"]) == 3
    t.act(die("M4"), "turn", 0)  # a sinker with the Omen die: it goes to the owner's Spent pool
    st = t.st
    assert st["players"][0]["spent"] == ["M"]
    assert st["players"][0]["depth"] == 2


def test_the_omen_die_rolls_one_to_four(backend: Backend) -> None:
    t = regret_tuesday(backend, caught="Amulet of Agartha", faces=(3, 3, 3, 4), regrets=())
    t.act(die("M4"), "turn", 0)
    t.act(PASS, "turn", 0)
    t.take_reward(0, None)
    resolve(t, lambda t: t.at("roll", 0) and t.st["ctx"]["to_roll"][:1] == ["M"])
    assert t.state.chance_outcomes() == [(1, 0.25), (2, 0.25), (3, 0.25), (4, 0.25)]
    assert t.state.action_label(4) == "M die rolls 4"


# ----- standing rules at the `pay` and `turn` nodes (§16.3, §16.6, §16.8) -----


def test_overmind_must_be_caught_and_mounts_itself_in_port(backend: Backend) -> None:
    t = monday(
        backend, 2, tops={3: [FISH["Overmind"]]}, dice={0: (2, 3, 3)}, expansion_tentacles=True
    )
    sink_to(t, 0, 2)  # Fresh P3 P3: the payment can be completed
    t.act(CAST + 3, "turn", 0)
    assert DECLINE not in t.legal()
    t.act(die("P3"), "pay", 0)
    assert t.legal()[:1] == [CATCH] and DECLINE not in t.legal()
    t.act(CATCH, "pay", 0)
    assert t.seat(0)["hand"] == [FISH["Overmind"]]
    t.pass_turn(1, None)
    t.act(ABANDON, "turn", 0)
    st = t.st
    assert st["players"][0]["mounted"] == [FISH["Overmind"], None, None]
    assert st["players"][0]["hand"] == []
    assert (st["node"], st["actor"]) == ("muster_select", 0)


def test_overmind_may_be_declined_when_it_cannot_be_paid(backend: Backend) -> None:
    t = regret_tuesday(
        backend,
        tops={4: [FISH["Overmind"]]},
        faces=(1, 1, 1),
        regrets=(),
        expansion_tentacles=True,
    )
    sink_to(t, 0, 2)  # Fresh P1 P1: 2 < 3
    t.act(CAST + 4, "turn", 0)
    assert DECLINE in t.legal()
    t.act(USE_LP, "pay", 0)  # difficulty 1 now: it can be paid
    assert DECLINE not in t.legal()


@pytest.mark.parametrize(
    ("shown", "target", "can"),
    [
        ("Goliath Grouper", "Lamprey", True),
        ("Sheepshead", "Lamprey", False),
        ("Hammerhead Shark", "Remora", True),
        ("Tiger Shark", "Giant Squid", True),
        ("Goliath Grouper", "Giant Squid", False),
        ("Two Face", "No Face", True),
        ("No Face", "Two Face", True),
    ],
)
def test_catch_by_showing_a_fish(backend: Backend, shown: str, target: str, can: bool) -> None:
    f = FISH[target]
    s = shoal_of(f, column=1)
    t = regret_tuesday(
        backend,
        caught=shown,
        tops={s: [f]},
        regrets=(),
        expansion_tentacles=target == "Giant Squid",
    )
    cast_at(t, 0, f, s)
    if not can:
        assert SHOW not in t.legal()
        return
    assert SHOW in t.legal()
    assert t.state.action_label(SHOW) == "catch by showing a fish"
    fresh = t.seat(0)["fresh"]
    t.act(die(fresh[-1]), "pay", 0)
    t.act(SHOW, "pay", 0)
    resolve(t, lambda t: t.at("reward", 1))
    st = t.st
    assert st["players"][0]["hand"] == sorted([FISH[shown], f])
    # The payment die came back: nothing was spent.
    assert st["players"][0]["fresh"] == fresh
    assert st["players"][0]["caught_today"] is True


def test_giant_isopod_is_caught_by_discarding_a_large_fish(backend: Backend) -> None:
    t = regret_tuesday(
        backend, caught="Goliath Grouper", tops={7: [FISH["Giant Isopod"]]}, regrets=()
    )
    sink_to(t, 0, 3)
    t.act(CAST + 7, "turn", 0)
    assert DISCARD_TO_CATCH in t.legal()
    assert t.state.action_label(DISCARD_TO_CATCH) == "catch by discarding a fish"
    t.act(DISCARD_TO_CATCH, "pay", 0)
    st = t.st
    assert (st["node"], st["actor"]) == ("discard_fish", 0)
    assert t.legal() == [eat("Goliath Grouper")]
    assert t.state.action_label(eat("Goliath Grouper")) == "discard Goliath Grouper"
    t.act(eat("Goliath Grouper"), "discard_fish", 0)
    st = t.st
    assert st["players"][0]["hand"] == [FISH["Giant Isopod"]]
    assert st["fish_discard"][0][-1] == FISH["Goliath Grouper"]
    assert t.at("reward", 1)


def test_hollow_earth_worm_difficulty_with_the_can_of_worms(backend: Backend) -> None:
    t = regret_tuesday(
        backend, tops={4: [FISH["Hollow Earth Worm"]]}, regrets=(), expansion_tentacles=True
    )
    sink_to(t, 0, 2)
    t.act(CAST + 4, "turn", 0)
    assert t.obs(0)["ctx"]["cast"]["difficulty"] == 5
    assert WORMS_DIFFICULTY in t.legal()
    assert t.state.action_label(WORMS_DIFFICULTY) == "flip the Can of Worms: difficulty 4"
    t.act(WORMS_DIFFICULTY, "pay", 0)
    st = t.st
    assert st["players"][0]["worms"] is False
    assert st["ctx"]["cast"]["base"] == 4
    assert t.obs(0)["ctx"]["cast"]["difficulty"] == 4
    assert WORMS_DIFFICULTY not in t.legal()


def test_dumbo_octopus_is_given_away_and_the_receiver_discards(backend: Backend) -> None:
    t = regret_tuesday(backend, caught="Dumbo Octopus", regrets=(), expansion_tentacles=True)
    assert GIVE_AWAY in t.legal()
    assert t.state.action_label(GIVE_AWAY) == "give Dumbo Octopus away"
    t.act(GIVE_AWAY, "turn", 0)
    assert t.legal() == [GIVE + 1]
    t.act(GIVE + 1, "give_fish", 0)
    # Seat 1 holds 0 and 3: it discards both (of 4) by its own choice.
    assert t.at("discard_regret", 1)
    t.act(REGRET + 3, "discard_regret", 1)
    t.act(REGRET + 0, "discard_regret", 1)
    st = t.st
    assert st["players"][1]["hand"] == [FISH["Dumbo Octopus"]]
    assert st["players"][1]["regrets"] == [0, 0, 0, 0]
    assert st["players"][0]["hand"] == []
    # A main action: the turn is over.
    assert t.at("reward", 1)


def test_sub_matriarch_grows_with_the_hand(backend: Backend) -> None:
    t = regret_tuesday(backend, caught="Sheepshead", tops={4: [FISH["Sub Matriarch"]]})
    sink_to(t, 0, 2)
    t.act(CAST + 4, "turn", 0)
    assert t.obs(0)["ctx"]["cast"]["difficulty"] == 3
    t.act(eat("Sheepshead"), "pay", 0)
    resolve(t, lambda t: t.at("pay", 0))
    assert t.obs(0)["ctx"]["cast"]["difficulty"] == 2


def test_vampire_squid_is_easier_with_boats_at_depth_two(backend: Backend) -> None:
    t = regret_tuesday(backend, tops={4: [FISH["Vampire Squid"]]}, expansion_tentacles=True)
    sink_to(t, 0, 2)
    t.act(CAST + 4, "turn", 0)
    assert t.obs(0)["ctx"]["cast"]["difficulty"] == 3  # 4 - 1 (seat 0 only)


# ----- swaps and odd catches -----


@pytest.mark.parametrize("small", [True, False])
def test_mimic_octopus_swaps_with_a_small_fish(backend: Backend, small: bool) -> None:
    held = "Sockeye Salmon" if small else "Sheepshead"
    tops = {0: [FISH[held]], 1: [FISH["Mimic Octopus"]]}
    t = monday(backend, 2, tops=tops, dice={0: (3, 3, 3)}, expansion_tentacles=True)
    t.catch(0, 0, "P3")
    t.pass_turn(1, None)
    t.act(CAST + 1, "turn", 0)
    st = t.st
    if small:
        assert (st["node"], st["actor"]) == ("mimic", 0)
        assert t.legal() == [eat(held)]
        assert t.state.action_label(eat(held)) == f"swap it for {held}"
        t.act(eat(held), "mimic", 0)
        st = t.st
        assert st["players"][0]["hand"] == [FISH["Mimic Octopus"]]
        assert st["shoals"][1][0] == FISH[held] and st["face_up"][1] is True
    else:
        assert st["players"][0]["hand"] == [FISH[held]]
        assert st["fish_discard"][0] == [FISH["Mimic Octopus"]]
    assert st["players"][0]["fresh"] == ["P3", "P3"]
    assert t.at("reward", 1)


def test_a_fish_the_mimic_put_on_a_shoal_of_another_depth_is_discarded_to_its_own_depth(
    backend: Backend,
) -> None:
    """The Mimic Octopus puts a small Depth II fish on a Depth I shoal; left face up, it is
    discarded at Tuesday's Start phase to the Depth II pile, its own depth's (§6.1, §16.7). Found
    by a differential test: the engine once used the shoal's depth."""
    fringehead, mimic = FISH["Sarcastic Fringehead"], FISH["Mimic Octopus"]
    tops = {1: [mimic], 3: [fringehead]}
    t = monday(backend, 2, tops=tops, dice={0: (3, 3, 3)}, expansion_tentacles=True)
    t.act(die("P3"), "turn", 0)  # a sinker: depth 2
    t.catch(0, 3, "P3")
    t.pass_turn(1, None)
    t.act(CAST + 1, "turn", 0)
    t.act(eat("Sarcastic Fringehead"), "mimic", 0)
    assert t.st["shoals"][1][0] == fringehead and t.st["face_up"][1] is True
    t.to_turn(0, day=2)
    st = t.st
    assert fringehead in st["fish_discard"][1]
    assert fringehead not in st["fish_discard"][0]
    assert st["players"][0]["hand"] == [mimic]


@pytest.mark.parametrize("swap", [True, False])
def test_giant_cuttlefish_may_swap_for_the_fish_beneath(backend: Backend, swap: bool) -> None:
    tops = {0: [FISH["Giant Cuttlefish"], FISH["Sheepshead"]]}
    t = monday(backend, 2, tops=tops, dice={0: (3, 3, 3)}, expansion_tentacles=True)
    t.catch(0, 0, "P3")
    t.asks_yes_no("swap_beneath", 0, "swap it for the fish beneath", "keep it")
    t.act(YES if swap else NO, "swap_beneath", 0)
    st = t.st
    if swap:
        assert st["players"][0]["hand"] == [FISH["Sheepshead"]]
        assert st["shoals"][0][0] == FISH["Giant Cuttlefish"]
    else:
        assert st["players"][0]["hand"] == [FISH["Giant Cuttlefish"]]
        assert st["shoals"][0][0] == FISH["Sheepshead"]
    assert st["face_up"][0] is False
    assert t.at("turn", 1)


def test_psychic_interloper_deals_regrets_from_a_pool(backend: Backend) -> None:
    t = regret_tuesday(backend, caught="Psychic Interloper", regrets=(), expansion_tentacles=True)
    t.act(eat("Psychic Interloper"), "turn", 0)
    t.acts("draw_regret", 3, 1)
    st = t.st
    assert (st["node"], st["actor"]) == ("give_regret", 0)
    assert (st["ctx"]["pool"], st["ctx"]["target"]) == ([1, 3], 1)
    assert t.obs(0)["ctx"]["pool"] == [1, 3]
    assert t.obs(1)["ctx"]["pool"] == [None, None]
    assert t.legal() == [REGRET + 1, REGRET + 3]
    assert t.state.action_label(REGRET + 3) == "give a regret of value 3 to seat 1"
    t.act(REGRET + 3, "give_regret", 0)
    st = t.st
    assert st["players"][0]["regrets"] == [0, 1, 0, 0]
    assert st["players"][1]["regrets"] == [1, 0, 0, 2]
    assert (st["ctx"]["pool"], st["ctx"]["target"]) == (None, None)
    assert t.at("turn", 0)


@pytest.mark.parametrize("heads", [True, False])
def test_sea_monkey_gives_or_receives_regrets(backend: Backend, heads: bool) -> None:
    t = regret_tuesday(backend, tops={4: [FISH["Sea Monkey"]]}, regrets=(1, 2))
    cast_at(t, 0, FISH["Sea Monkey"], 4)
    pay_up(t, 0)
    t.act(CATCH, "pay", 0)
    assert t.at("coin", 0)
    assert t.state.action_label(0) == "heads"
    assert t.state.action_label(1) == "tails"
    t.act(0 if heads else 1, "coin", 0)
    st = t.st
    if heads:
        assert (st["node"], st["actor"], st["ctx"]["target"]) == ("give_regret", 0, 1)
        assert t.legal() == [REGRET + 1, REGRET + 2]
        t.act(REGRET + 2, "give_regret", 0)
        expected = ([0, 1, 0, 0], [1, 0, 1, 1])
    else:
        assert (st["node"], st["actor"], st["ctx"]["target"]) == ("give_regret", 1, 0)
        assert t.legal() == [REGRET + 0, REGRET + 3]
        t.act(REGRET + 0, "give_regret", 1)
        expected = ([1, 1, 1, 0], [0, 0, 0, 1])
    st = t.st
    assert (st["players"][0]["regrets"], st["players"][1]["regrets"]) == expected
    assert t.at("reward", 1)


def test_hadal_shade_swaps_with_a_mounted_fish(backend: Backend) -> None:
    t = monday(
        backend,
        2,
        tops={0: [FISH["Sheepshead"]], 6: [FISH["Hadal Shade"]]},
        expansion_tentacles=True,
    )
    t.pass_turn(0, None)
    t.catch(1, 0, "P1")
    t.take_reward(0, None)
    t.act(ABANDON, "turn", 1)
    t.act(ROLL_NOW, "muster_select", 1)
    t.rolls(1)
    t.take_reward(0, None)
    t.act(MOUNT, "turn", 1)
    t.act(SLOT + 1, "mount_slot", 1)
    t.act(eat("Sheepshead"), "mount_fish", 1)
    t.take_reward(0, None)
    t.pass_turn(1, None)
    muster_faces(t, {0: (3, 3, 3), 1: (3, 3, 3)})
    resolve(t, lambda t: t.at("turn", 1))
    t.pass_turn(1, None)
    assert t.st["life_preserver"] == 0
    cast_at(t, 0, FISH["Hadal Shade"])
    pay_up(t, 0)
    t.act(CATCH, "pay", 0)
    st = t.st
    assert (st["node"], st["actor"]) == ("hadal_shade", 0)
    assert t.legal() == [NO, HADAL + 3 * 1 + 1]
    assert t.state.action_label(NO) == "keep it"
    assert t.state.action_label(HADAL + 4) == "swap it for seat 1's Sheepshead"
    t.act(HADAL + 4, "hadal_shade", 0)
    t.acts("draw_regret", 1, 1, 1)
    st = t.st
    assert st["players"][0]["regrets"] == [0, 3, 0, 0]
    assert st["players"][0]["hand"] == [FISH["Sheepshead"]]
    assert st["players"][1]["mounted"] == [None, FISH["Hadal Shade"], None]


# ----- reveals, peeks and discards of the deep (§16.7, §16.11) -----


def test_bathyal_queen_reveals_any_shoals(backend: Backend) -> None:
    tops = {6: [FISH["Bathyal Queen"]], 2: [FISH["Tidal Trafficker"]]}
    t = monday(backend, 2, tops=tops, dice={0: (2, 3, 3), 1: (3, 3, 3)})
    cast_at(t, 0, FISH["Bathyal Queen"])
    pay_up(t, 0)
    t.act(CATCH, "pay", 0)
    t.acts("draw_regret", 1, 1)
    st = t.st
    assert (st["node"], st["actor"]) == ("reveal_shoal", 0)
    assert t.legal() == [DONE, *range(CAST, CAST + 9)]
    assert t.state.action_label(CAST + 4) == "reveal shoal 4"
    assert t.state.action_label(DONE) == "done revealing"
    t.act(CAST + 4, "reveal_shoal", 0)
    assert t.st["face_up"][4] is True
    # A special card turned up this way is discarded without effect.
    t.act(CAST + 2, "reveal_shoal", 0)
    st = t.st
    assert st["fish_discard"][0] == [FISH["Tidal Trafficker"]]
    assert st["face_up"][2] is False
    assert st["players"][0]["regrets"] == [0, 2, 0, 0]
    assert t.legal() == [DONE, *[CAST + s for s in range(9) if s != 4]]
    t.act(DONE, "reveal_shoal", 0)
    assert t.at("turn", 1)


def test_abyssal_star_peeks_at_a_line(backend: Backend) -> None:
    t = monday(backend, 2, tops={6: [FISH["Abyssal Star"]]}, dice={0: (2, 3, 3), 1: (3, 3, 3)})
    catch_star = FISH["Abyssal Star"]
    cast_at(t, 0, catch_star)
    pay_up(t, 0)
    t.act(CATCH, "pay", 0)
    t.acts("draw_regret", 1, 1)
    assert t.at("peek_line", 0)
    assert t.legal() == [ROW, ROW + 1, ROW + 2, COLUMN, COLUMN + 1, COLUMN + 2]
    assert t.state.action_label(ROW + 2) == "peek at depth 3"
    assert t.state.action_label(COLUMN) == "peek at column 0"
    assert t.st["ctx"]["left"] == 1
    t.act(COLUMN, "peek_line", 0)
    assert t.st["known"][0] == [0, 3, 6]


@pytest.mark.parametrize("reveal", [True, False])
def test_anglerfish_may_reveal_the_fish_beneath(backend: Backend, reveal: bool) -> None:
    """Anglerfish: "C: peek at the fish beneath this one; you may reveal it". Left face down, the
    peeked top stays known to the catcher (Decision 24: "peeks are remembered (`known`) until that
    shoal's top changes or is revealed"), as a Can of Worms top left on top is; before, it was
    forgotten at once."""
    tops = {6: [FISH["Anglerfish"], FISH["Kraken"]]}
    t = monday(backend, 2, tops=tops, dice={0: (2, 3, 3), 1: (3, 3, 3)})
    cast_at(t, 0, FISH["Anglerfish"])
    pay_up(t, 0)
    t.act(CATCH, "pay", 0)
    st = t.st
    assert (st["node"], st["actor"]) == ("reveal_beneath", 0)
    assert st["ctx"]["peek"] == FISH["Kraken"]
    assert t.obs(0)["ctx"]["peek"] == "Kraken"
    assert t.obs(1)["ctx"]["peek"] is None
    assert t.state.action_label(YES) == "reveal it"
    assert t.state.action_label(NO) == "leave it face down"
    t.act(YES if reveal else NO, "reveal_beneath", 0)
    st = t.st
    assert st["face_up"][6] is reveal
    assert st["known"] == ([[], []] if reveal else [[6], []])
    assert t.obs(0)["shoals"][6]["known"] == (None if reveal else "Kraken")
    assert t.obs(1)["shoals"][6]["known"] is None
    # Revealed outside a cast: the Kraken's reveal ability does not run.
    assert st["players"][0]["regrets"] == [0, 0, 0, 0]
    assert st["ctx"]["peek"] is None
    assert t.at("turn", 1)


def test_lanternfish_shows_the_fish_beneath_to_the_caster(backend: Backend) -> None:
    tops = {6: [FISH["Lanternfish"], FISH["Kraken"]]}
    t = monday(backend, 2, tops=tops, dice={0: (2, 3, 3), 1: (3, 3, 3)})
    sink_to(t, 0, 3)
    t.act(CAST + 6, "turn", 0)
    st = t.st
    assert st["ctx"]["cast"]["beneath"] == FISH["Kraken"]
    assert t.obs(0)["ctx"]["cast"]["beneath"] == "Kraken"
    assert t.obs(1)["ctx"]["cast"]["beneath"] is None
    assert t.at("pay", 0)


def test_barreleye_peeks_at_depth_two_of_its_column(backend: Backend) -> None:
    tops = {7: [FISH["Barreleye"]]}
    t = monday(backend, 2, tops=tops, dice={0: (2, 3, 3), 1: (3, 3, 3)})
    sink_to(t, 0, 3)
    t.act(CAST + 7, "turn", 0)
    st = t.st
    assert st["known"] == [[4], []]
    assert t.obs(0)["shoals"][4]["known"] == FISH_BY_ID[st["shoals"][4][0]]["name"]
    assert t.at("pay", 0)


def test_the_mollusk_reveals_its_column(backend: Backend) -> None:
    tops = {4: [FISH["The Mollusk"]], 1: [FISH["Tidal Trafficker"]]}
    t = monday(backend, 2, tops=tops)
    sink_to(t, 0, 2)
    t.act(CAST + 4, "turn", 0)
    st = t.st
    assert st["face_up"] == [False, False, False, False, True, False, False, True, False]
    assert st["fish_discard"][0] == [FISH["Tidal Trafficker"]]
    assert st["players"][0]["regrets"] == [0, 0, 0, 0]
    assert t.at("pay", 0)


@pytest.mark.parametrize(("name", "depth"), [("Siren", 2), ("Great Old One", 3)])
def test_move_offers_to_everyone_at_sea(backend: Backend, name: str, depth: int) -> None:
    f = FISH[name]
    t = monday(backend, 3, tops={shoal_of(f): [f]}, expansion_tentacles=True)
    sink_and_cast(t, 0, f)
    # Seat 0 is at that depth already; seats 1 and 2 are offered the move.
    t.asks_yes_no("move_offer", 1, f"draw a regret and move to depth {depth}", "stay")
    t.act(YES, "move_offer", 1)
    t.act(2, "draw_regret", 1)
    t.act(NO, "move_offer", 2)
    st = t.st
    assert [seat["depth"] for seat in st["players"]] == [depth, depth, 1]
    assert st["players"][1]["regrets"] == [0, 0, 1, 0]
    assert t.at("pay", 0)


def test_dunkleosteus_discards_every_top(backend: Backend) -> None:
    t = monday(backend, 2, tops={3: [FISH["Dunkleosteus"]]}, dice={0: (2, 3, 3), 1: (3, 3, 3)})
    tops_before = [shoal[0] for shoal in t.st["shoals"]]
    second = t.st["shoals"][3][1]
    cast_at(t, 0, FISH["Dunkleosteus"])
    pay_up(t, 0)
    t.act(CATCH, "pay", 0)
    t.act(0, "draw_regret", 0)
    st = t.st
    assert st["fish_discard"] == [
        tops_before[0:3],
        [second, tops_before[4], tops_before[5]],
        tops_before[6:9],
    ]
    assert [len(shoal) for shoal in st["shoals"]] == [12, 12, 12, 11, 12, 12, 12, 12, 12]
    assert st["players"][0]["hand"] == [FISH["Dunkleosteus"]]


def test_stoor_worm_discards_an_item_and_others_draw(backend: Backend) -> None:
    tops = {1: [FISH["Tidal Trafficker"]], 3: [FISH["Stoor Worm"]]}
    t = monday(backend, 2, tops=tops, dice={0: (2, 3, 3), 1: (3, 3, 3)})
    t.act(CAST + 1, "turn", 0)
    t.act(0, "draw_regret", 0)
    t.act(SUPPLIES["Scotch Egg"], "draw_supply", 0)
    t.pass_turn(1, None)
    cast_at(t, 0, FISH["Stoor Worm"])
    pay_up(t, 0)
    t.act(CATCH, "pay", 0)
    assert t.at("discard_item", 0)
    assert t.legal() == [SUPPLY + SUPPLIES["Scotch Egg"]]
    assert t.state.action_label(SUPPLY) == "discard Scotch Egg"
    t.act(SUPPLY, "discard_item", 0)
    t.act(3, "draw_regret", 1)
    st = t.st
    assert st["players"][0]["supplies"] == []
    assert st["supply_discard"] == [SUPPLIES["Scotch Egg"]]
    assert st["players"][1]["regrets"] == [0, 0, 0, 1]


def test_a_shark_catch_discards_a_small_fish(backend: Backend) -> None:
    tops = {0: [FISH["Sockeye Salmon"], FISH["Hammerhead Shark"]]}
    t = after_a_catch(backend, tops)
    t.pass_turn(1, None)
    t.catch(0, 0, "P3")
    assert t.at("discard_fish", 0)
    assert t.legal() == [eat("Sockeye Salmon")]
    assert t.state.action_label(eat("Sockeye Salmon")) == "discard Sockeye Salmon"
    t.act(eat("Sockeye Salmon"), "discard_fish", 0)
    st = t.st
    assert st["players"][0]["hand"] == [FISH["Hammerhead Shark"]]
    assert st["fish_discard"][0] == [FISH["Sockeye Salmon"]]


def test_treasure_chest_pays_out_and_is_discarded(backend: Backend) -> None:
    t = regret_tuesday(backend, tops={7: [FISH["Treasure Chest"]]}, regrets=(1, 2))
    cast_at(t, 0, FISH["Treasure Chest"], 7)
    pay_up(t, 0)
    t.act(CATCH, "pay", 0)
    t.acts("discard_regret", REGRET + 2, REGRET + 1)
    t.acts("draw_supply", 0, 1, 2)
    st = t.st
    assert st["players"][0]["regrets"] == [0, 0, 0, 0]
    assert st["players"][0]["money"] == 8
    assert st["players"][0]["supplies"] == [0, 1, 2]
    assert st["players"][0]["hand"] == []
    assert st["fish_discard"][2] == [FISH["Treasure Chest"]]
    assert t.at("reward", 1)


@pytest.mark.parametrize("heads", [True, False])
def test_selkie_coin_pays_the_catcher_or_the_others(backend: Backend, heads: bool) -> None:
    t = monday(backend, 3, tops={3: [FISH["Selkie"]]}, dice={0: (3, 3, 3)})
    cast_at(t, 0, FISH["Selkie"])
    pay_up(t, 0)
    t.act(CATCH, "pay", 0)
    t.act(0 if heads else 1, "coin", 0)
    money = [seat["money"] for seat in t.st["players"]]
    assert money == ([3, 0, 0] if heads else [0, 1, 1])
    assert t.at("turn", 1)


# ----- the items of step 2 (§16.10) -----


def port_with_small_fish(
    backend: Backend, tops: Mapping[int, Sequence[int]] | None = None
) -> Table:
    """Seat 0 in port on Monday with Sockeye Salmon in hand, $6 and two port actions left."""
    tops = {0: [FISH["Sockeye Salmon"], FISH["Goliath Grouper"]], **(tops or {})}
    t = selling_after_two_catches(backend, tops)
    t.act(sell("Goliath Grouper"), "sell")
    t.act(DONE, "sell")
    skip(t)
    assert t.seat(0)["money"] == 6
    return t


def test_cloche_mounts_a_small_fish_and_the_claw_hammer_takes_it_back(backend: Backend) -> None:
    t = port_with_small_fish(backend)
    keep = ["Claw Hammer", "Cloche"]
    buy_supplies(t, [*keep, "Heart of the Fathoms"], ["Scotch Egg", "Black Tea"])
    assert SUPPLY + SUPPLIES["Cloche"] in t.legal()
    assert SUPPLY + SUPPLIES["Claw Hammer"] not in t.legal()
    t.act(SUPPLY + SUPPLIES["Cloche"], "turn", 0)
    st = t.st
    assert (st["node"], st["ctx"]["slot"]) == ("mount_fish", 3)
    assert t.legal() == [eat("Sockeye Salmon")]
    assert t.state.action_label(eat("Sockeye Salmon")) == "mount Sockeye Salmon on the Cloche"
    t.act(eat("Sockeye Salmon"), "mount_fish", 0)
    st = t.st
    assert st["players"][0]["cloche"] == FISH["Sockeye Salmon"]
    assert st["players"][0]["hand"] == []
    assert SUPPLIES["Cloche"] not in st["players"][0]["supplies"]
    assert SUPPLIES["Cloche"] not in st["supply_discard"]
    assert t.obs(1)["cloche"] == ["Sockeye Salmon", None]
    assert t.at("turn", 0)
    t.act(SUPPLY + SUPPLIES["Claw Hammer"], "turn", 0)
    st = t.st
    assert st["players"][0]["cloche"] is None
    assert st["players"][0]["hand"] == [FISH["Sockeye Salmon"]]
    assert st["supply_discard"] == sorted([SUPPLIES["Claw Hammer"], SUPPLIES["Cloche"]])
    assert t.at("turn", 0)


def test_heart_of_the_fathoms_reveals_every_top(backend: Backend) -> None:
    t = port_with_small_fish(backend)
    buy_supplies(t, ["Heart of the Fathoms", "Scotch Egg", "Black Tea"], ["Cloche", "Cask Ale"])
    tops = [shoal[0] for shoal in t.st["shoals"]]
    t.act(SUPPLY + SUPPLIES["Heart of the Fathoms"], "turn", 0)
    st = t.st
    assert st["face_up"] == [True] * 9
    assert [shoal[0] for shoal in st["shoals"]] == tops
    assert st["players"][0]["regrets"] == [0, 0, 0, 0]
    assert t.at("turn", 0)


def test_diving_lantern_reveals_a_column(backend: Backend) -> None:
    t = port_with_small_fish(backend)
    buy_supplies(t, ["Diving Lantern", "Scotch Egg", "Black Tea"], ["Cloche", "Cask Ale"])
    t.act(SUPPLY + SUPPLIES["Diving Lantern"], "turn", 0)
    st = t.st
    assert (st["node"], st["actor"]) == ("reveal_column", 0)
    assert t.legal() == [COLUMN, COLUMN + 1, COLUMN + 2]
    assert t.state.action_label(COLUMN + 2) == "reveal column 2"
    t.act(COLUMN + 2, "reveal_column", 0)
    assert t.st["face_up"] == [False, False, True] * 3
    assert t.at("turn", 0)


def rod_tuesday(backend: Backend, rod: str, reel: str | None = None) -> Table:
    """Seat 0 buys ``rod`` (and ``reel``) on Monday; Tuesday it has them equipped, Fresh P3 P3 P2,
    and a dink."""
    t = rich_monday(backend, tops={1: [FISH["Barracuda"], FISH["Sheepshead"], FISH["Scrat"]]})
    buy_rod(t, rod)
    if reel is not None:
        buy_reel(t, reel)
    t.pass_turn(0, DINKS["Pearl"])
    muster_faces(t, {0: (3, 3, 2), 1: (1, 1, 1)})
    resolve(t, lambda t: t.at("turn", 0))
    assert t.seat(0)["rod"] == RODS[rod]
    return t


def test_rod_of_the_deep_reorders_the_top_two(backend: Backend) -> None:
    t = rod_tuesday(backend, "Rod of the Deep")
    t.act(CAST + 1, "turn", 0)
    st = t.st
    assert (st["node"], st["actor"]) == ("reorder", 0)
    assert st["ctx"]["order"] == [FISH["Barracuda"], FISH["Sheepshead"]]
    assert t.obs(0)["ctx"]["order"] == ["Barracuda", "Sheepshead"]
    assert t.obs(1)["ctx"]["order"] == [None, None]
    assert t.legal() == [eat("Barracuda"), eat("Sheepshead")]
    assert t.state.action_label(eat("Sheepshead")) == "put Sheepshead next from the top"
    t.act(eat("Sheepshead"), "reorder", 0)
    st = t.st
    assert st["shoals"][1][:3] == [FISH["Sheepshead"], FISH["Barracuda"], FISH["Scrat"]]
    assert st["face_up"][1] is True
    assert st["ctx"]["order"] == []
    assert t.at("pay", 0)


# ----- the end of the game with a Cloche (§16.10, §16.11) -----


def cloche_on_monday(backend: Backend) -> Table:
    """Seat 0 (lifeboat used: Regret Value 10) mounts Sockeye Salmon on the Cloche and passes
    with $1; Osteofish lies on shoal 1."""
    t = port_with_small_fish(backend, tops={1: [FISH["Osteofish"]]})
    buy_supplies(t, ["Cloche", "Scotch Egg", "Black Tea"], ["Claw Hammer", "Cask Ale"])
    t.act(SUPPLY + SUPPLIES["Cloche"], "turn", 0)
    t.act(eat("Sockeye Salmon"), "mount_fish", 0)
    assert t.seat(0)["cloche"] == FISH["Sockeye Salmon"] and t.seat(0)["money"] == 1
    t.pass_turn(0, None)
    return t


def test_the_cloche_fish_is_lost_to_the_highest_regret_value(backend: Backend) -> None:
    t = cloche_on_monday(backend)
    t.to_end()
    st = t.st
    # Regret Values 10 and 0: seat 0 loses its Cloche fish (no fish in its slots).
    assert st["end"] == {
        "regret_value": [10, 0],
        "discarded": [None, None],
        "cloche_discarded": [FISH["Sockeye Salmon"], None],
        # Only money counts: $1 + Thursday's $3 = 2 points; $3 = 1 point.
        "scores": [2, 1],
    }
    assert FISH["Sockeye Salmon"] in st["fish_discard"][0]
    assert st["players"][0]["cloche"] is None
    assert t.obs(1)["end"]["cloche_discarded"] == ["Sockeye Salmon", None]
    assert t.state.winners == [0]


def test_the_cloche_fish_scores_double(backend: Backend) -> None:
    t = cloche_on_monday(backend)
    # Tuesday: seat 1 catches Osteofish (a regret of value 3), then abandons ship.
    t.to_turn(1, day=2)
    t.act(CAST + 1, "turn", 1)
    t.act(CATCH, "pay", 1)
    t.act(3, "draw_regret", 1)
    t.to_turn(1, day=2)
    t.act(ABANDON, "turn", 1)
    t.to_end()
    st = t.st
    # Regret Values 10 and 13: seat 0 keeps Sockeye Salmon, (1 + 2) x 2 = 6, plus $4 // 2.
    # Seat 1: Osteofish max(0, 0 - 1) = 0, plus $3 // 2.
    assert st["end"] == {
        "regret_value": [10, 13],
        "discarded": [None, None],
        "cloche_discarded": [None, None],
        "scores": [8, 1],
    }
    assert st["players"][0]["cloche"] == FISH["Sockeye Salmon"]
    assert t.state.winners == [0]


# ----- a second column lock (§16.2) -----


def test_a_second_lock_of_the_same_column_keeps_one_lock(backend: Backend) -> None:
    # A locked seat casts only in its column, so its next lock is that column again: two
    # different locks (no cast anywhere) cannot arise in play.
    tops = {4: [FISH["Colossal Squid"]], 7: [FISH["Gloom Orphan"]]}
    t = regret_tuesday(backend, tops=tops, faces=(3, 3, 3), regrets=())
    t.act(die("P3"), "turn", 0)
    t.act(CAST + 4, "turn", 0)
    assert t.seat(0)["locks"] == [1]
    t.take_reward(1, None)
    t.act(die("P3"), "turn", 0)
    casts = sorted(a for a in t.legal() if CAST <= a < CAST + 9)
    assert casts == [CAST + 1, CAST + 4, CAST + 7]
    t.act(CAST + 7, "turn", 0)
    st = t.st
    assert st["players"][0]["front"] == [FISH["Colossal Squid"], FISH["Gloom Orphan"]]
    assert st["players"][0]["locks"] == [1]
    assert t.obs(1)["locks"] == [[1], []]


# ----- catches at difficulty 6 and more at depth III -----


def deep_tuesday(backend: Backend, tops: Mapping[int, Sequence[int]], **options: Any) -> Table:
    """Seat 0 buys three orange tackle dice and the Reel of the Infinite in port on Monday; on
    Tuesday it reaches depth III with a sinker and the reel, and has P3 P3 O3 left."""
    all_tops = {0: [FISH["Goliath Grouper"], FISH["Coelacanth"]], **tops}
    t = selling_after_two_catches(backend, all_tops, **options)
    t.acts("sell", sell("Goliath Grouper"), sell("Coelacanth"))
    skip(t)
    # Three orange dice: the first is rolled into Fresh (four is the most), two go to Spent.
    t.act(shop("tackle", 5), "turn", 0)
    t.act(2, "draw_bag", 0)
    t.act(3, "roll", 0)
    t.acts("draw_bag", 2, 2)
    skip(t)
    buy_reel(t, "Reel of the Infinite")
    t.pass_turn(0, None)
    # Tuesday: all six dice roll 3; seat 0 keeps P3 P3 P3 O3.
    muster_faces(t, {0: (3, 3, 3, 3, 3, 3)})
    resolve(t, lambda t: t.at("turn", 0))
    assert t.seat(0)["fresh"] == ["P3", "P3", "P3", "O3"]
    assert t.seat(0)["reel"] == REELS["Reel of the Infinite"]
    t.act(die("P3"), "turn", 0)
    t.act(USE_REEL, "turn", 0)
    assert t.seat(0)["depth"] == 3 and t.seat(0)["fresh"] == ["P3", "P3", "O3"]
    return t


def test_bane_of_the_stars_moves_every_boat_to_depth_two(backend: Backend) -> None:
    f = FISH["Bane of the Stars"]
    t = deep_tuesday(backend, {6: [f]}, expansion_tentacles=True)
    t.act(CAST + 6, "turn", 0)
    assert t.obs(0)["ctx"]["cast"]["difficulty"] == 6
    t.acts("pay", die("P3"), die("P3"))
    t.act(CATCH, "pay", 0)
    assert t.st["ctx"]["ability"] == {"fish": f, "trigger": "catch"}
    t.acts("draw_regret", 1, 2)
    st = t.st
    assert st["players"][0]["hand"] == [f]
    assert st["players"][0]["regrets"] == [0, 1, 1, 0]
    assert st["players"][0]["fresh"] == ["O3"]
    # Every boat at sea, seat 1 (passed, at depth I) included, is now at depth II.
    assert [seat["depth"] for seat in st["players"]] == [2, 2]
    assert st["ctx"]["ability"] is None and st["ctx"]["cast"] is None
    assert t.at("reward", 1)


def test_rocabarraigh_denizen_draws_for_everyone(backend: Backend) -> None:
    f = FISH["Rocabarraigh Denizen"]
    t = deep_tuesday(backend, {6: [f]})
    t.act(CAST + 6, "turn", 0)
    assert t.obs(0)["ctx"]["cast"]["difficulty"] == 6
    t.acts("pay", die("P3"), die("P3"))
    t.act(CATCH, "pay", 0)
    t.act(3, "draw_regret", 0)
    t.act(3, "draw_regret", 0)
    t.act(2, "draw_regret", 1)
    st = t.st
    assert st["players"][0]["hand"] == [f]
    assert st["players"][0]["regrets"] == [0, 0, 0, 2]
    assert st["players"][1]["regrets"] == [0, 0, 1, 0]
    assert st["regret_deck"] == [6, 24, 19, 8]
    assert [seat["depth"] for seat in st["players"]] == [3, 1]
    assert t.at("reward", 1)


def test_capitoctopus_needs_exactly_three_dice(backend: Backend) -> None:
    f = FISH["Capitoctopus"]
    t = deep_tuesday(backend, {7: [f]}, expansion_tentacles=True)
    t.act(CAST + 7, "turn", 0)
    t.act(die("P3"), "pay", 0)
    # The sum (3) reaches the difficulty, but three dice are needed.
    assert CATCH not in t.legal()
    t.act(die("P3"), "pay", 0)
    assert CATCH not in t.legal()
    t.act(die("O3"), "pay", 0)
    assert CATCH in t.legal()
    assert not [a for a in t.legal() if DIE <= a < DIE + 15]
    t.act(CATCH, "pay", 0)
    t.acts("draw_regret", 0, 1)
    st = t.st
    assert st["players"][0]["hand"] == [f]
    assert st["players"][0]["regrets"] == [1, 1, 0, 0]
    assert st["players"][0]["fresh"] == []
    # The sinker's P die and two paid P dice; the O dice were left in Spent by the Muster, and
    # the paid O3 went back to the bag.
    assert st["players"][0]["spent"] == ["P", "P", "P", "O", "O"]
    assert st["bag"] == [9, 8, 5]
    assert t.at("reward", 1)


def test_hollow_earth_infant_discards_three_tops_of_every_shoal(backend: Backend) -> None:
    f = FISH["Hollow Earth Infant"]
    t = deep_tuesday(backend, {6: [f]})
    before = [list(shoal) for shoal in t.st["shoals"]]
    discards = [list(pile) for pile in t.st["fish_discard"]]
    t.act(CAST + 6, "turn", 0)
    # Its reveal ability: three regrets for the caster, one for every other seat.
    assert t.st["ctx"]["ability"] == {"fish": f, "trigger": "reveal"}
    t.acts("draw_regret", 1, 1, 1)
    t.act(1, "draw_regret", 1)
    assert t.at("pay", 0)
    assert t.obs(0)["ctx"]["cast"]["difficulty"] == 8
    t.acts("pay", die("P3"), die("P3"), die("O3"))
    t.act(CATCH, "pay", 0)
    st = t.st
    assert st["players"][0]["hand"] == [f]
    assert st["players"][0]["regrets"] == [0, 3, 0, 0]
    assert st["players"][1]["regrets"] == [0, 1, 0, 0]
    # Shoals 0..8 in order, three tops each, to their depth's discard pile.
    after_catch = [shoal[1:] if s == 6 else shoal for s, shoal in enumerate(before)]
    expected = [
        discards[d] + [g for s in range(3 * d, 3 * d + 3) for g in after_catch[s][:3]]
        for d in range(3)
    ]
    assert st["fish_discard"] == expected
    assert st["shoals"] == [shoal[3:] for shoal in after_catch]
    assert [len(shoal) for shoal in st["shoals"]] == [8, 10, 10, 10, 10, 10, 9, 10, 10]
    assert st["face_up"] == [False] * 9
    assert st["known"] == [[], []]
    assert t.at("reward", 1)


# ----- state, observation, labels and tensor (§16.12) -----


def test_step_two_state_and_observation_keys(backend: Backend) -> None:
    t = monday(backend, 3)
    t.act(CAST + 0, "turn", 0)
    st = t.st
    assert st["plug"] is False
    for seat in st["players"]:
        assert (seat["front"], seat["locks"], seat["cloche"]) == ([], [], None)
        assert (seat["skull_used"], seat["coffin_used"]) == (False, False)
    ctx = st["ctx"]
    assert (ctx["ability"], ctx["pool"], ctx["target"], ctx["offer"], ctx["order"]) == (
        None,
        None,
        None,
        [],
        [],
    )
    assert ctx["cast"] == cast_context(0)
    obs = t.obs(1)
    for key in ("plug", "front", "locks", "cloche", "skull_used", "coffin_used"):
        assert key in obs
    assert obs["front"] == [[], [], []] and obs["locks"] == [[], [], []]
    assert obs["cloche"] == [None, None, None]
    for key in ("ability", "pool", "target", "offer", "order"):
        assert key in obs["ctx"]
    cast = obs["ctx"]["cast"]
    assert (cast["base"], cast["beneath"], cast["ignored"], cast["revealed"]) == (
        None,
        None,
        False,
        True,
    )


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_step_two_tensor_size(backend: Backend, players: int) -> None:
    t = monday(backend, players)
    assert len(t.state.observation_tensor(0)) == 2268 + 362 * players


def test_step_two_labels_at_turn_and_pay(backend: Backend) -> None:
    t = monday(backend, 2)
    assert t.state.action_label(GIVE_AWAY) == "give Dumbo Octopus away"
    assert t.state.action_label(USE_SKULL) == "use Whispering Skull"
    assert t.state.action_label(USE_COFFIN) == "use Iron Coffin"
    assert t.state.action_label(eat("Barracuda")) == "eat Barracuda"
    assert t.state.action_label(300) == "action 300"
    t.act(CAST + 0, "turn", 0)
    assert t.state.action_label(SHOW) == "catch by showing a fish"
    assert t.state.action_label(DISCARD_TO_CATCH) == "catch by discarding a fish"
    assert t.state.action_label(eat("Human")) == "eat Human"


def test_coin_and_choice_labels(backend: Backend) -> None:
    t = regret_tuesday(backend, caught="Sockeye Salmon", faces=(1, 1, 1))
    t.act(eat("Sockeye Salmon"), "turn", 0)
    assert t.at("choose_effect", 0)
    assert t.legal() == [FIRST_OPTION, SECOND_OPTION]
    assert t.state.action_label(FIRST_OPTION) == "choose the first effect"
    assert t.state.action_label(SECOND_OPTION) == "choose the second effect"


# ======================================================================================
# Readings of the original texts: the Finnish summary and the card texts (§7.3, §16)
# ======================================================================================


def test_only_a_fish_with_an_eat_ability_can_be_eaten(backend: Backend) -> None:
    """ "Syö kala (jos kalassa on syömisikoni)." (Eat a fish, if the fish has the Eat icon.)

    Osteofish has no Eat ability: once caught it is never offered as ``eat Osteofish``; a caught
    Sheepshead (with one) is.
    """
    t = monday(backend, 2, tops={0: [FISH["Osteofish"], FISH["Sheepshead"]]})
    t.free_after_main = True
    t.act(CAST + 0, "turn", 0)
    t.act(CATCH, "pay", 0)  # difficulty 0
    t.act(1, "draw_regret", 0)  # Osteofish's catch ability
    assert t.seat(0)["hand"] == [FISH["Osteofish"]]
    assert t.at("after_main", 0)
    assert eat("Osteofish") not in t.legal()
    t.act(END_TURN, "after_main", 0)
    t.act(PASS, "turn", 1)
    t.take_reward(1, DINKS["Scad"])
    assert t.at("turn", 0)
    assert eat("Osteofish") not in t.legal()
    t.act(CAST + 0, "turn", 0)
    assert eat("Osteofish") not in t.legal()  # not at the pay node either
    t.act(die("P1"), "pay", 0)
    t.act(CATCH, "pay", 0)  # Sheepshead, difficulty 1
    assert t.at("after_main", 0)
    assert eat("Sheepshead") in t.legal() and eat("Osteofish") not in t.legal()


def test_free_actions_come_before_and_after_the_main_action(backend: Backend) -> None:
    """ "Ilmaiset & rajoittamattomat toiminnot" (free and unlimited actions).

    After the main action the player may still take free actions at the ``after_main`` node and
    ends the turn explicitly (24 = end turn); with no free action possible the turn passes at
    once.
    """
    t = monday(backend, 2, tops={0: [FISH["Osteofish"]]})
    t.free_after_main = True
    assert t.state.action_label(END_TURN) == "action 24"  # no end turn at the turn node
    t.act(CAST + 0, "turn", 0)
    t.act(CATCH, "pay", 0)
    t.act(1, "draw_regret", 0)
    st = t.st
    assert (st["node"], st["actor"], st["turn"]) == ("after_main", 0, 0)
    # Abandon ship, the Can of Worms on the face-down depth I tops, sinkers with P1 P2 P3.
    assert t.legal() == [ABANDON, END_TURN, WORMS + 0, WORMS + 1, WORMS + 2, 50, 51, 52]
    assert t.state.action_label(END_TURN) == "end turn"
    assert t.state.action_label(WORMS + 1) == "use the Can of Worms on shoal 1"
    assert t.state.action_label(die("P2")) == "drop a sinker with P2"
    assert t.state.action_label(PASS) == "pass"
    # A sinker after the main action: still seat 0's after_main node, one depth lower.
    t.act(die("P2"), "after_main", 0)
    assert t.seat(0)["depth"] == 2 and t.at("after_main", 0)
    assert WORMS + 4 in t.legal()
    t.act(END_TURN, "after_main", 0)
    st = t.st
    assert (st["node"], st["actor"], st["turn"]) == ("turn", 1, 1)
    # With no free action possible after the main action, the turn passes at once.
    t2 = rich_monday(backend)
    t2.free_after_main = True
    t2.act(shop("rod", 1), "turn", 0)
    t2.act(RODS["Narwhal Rod"], "draw_rod")
    assert t2.at("reward", 1)


def test_the_can_of_worms_is_a_free_action_at_sea(backend: Backend) -> None:
    """ "Käytä matopurkki ja vilkaise päälimmäinen kala, laita se sitten pohjalle tai
    päälimmäiseksi." (Use the can of worms and peek at the top fish, then put it at the bottom
    or on top.)

    The peek is no part of a cast: afterwards the player may cast elsewhere, or not at all.
    """
    t = monday(backend, 2, tops={1: [FISH["Hammerhead Shark"]], 2: [FISH["Osteofish"]]})
    assert t.state.action_label(WORMS + 1) == "use the Can of Worms on shoal 1"
    # Only shoals within reach: depth I at depth 1.
    assert [a for a in t.legal() if WORMS <= a < WORMS + 9] == [WORMS + 0, WORMS + 1, WORMS + 2]
    t.act(WORMS + 1, "turn", 0)
    assert t.st["ctx"]["cast"] is None
    t.act(LEAVE_ON_TOP, "worms", 0)
    st = t.st
    assert st["players"][0]["worms"] is False
    assert (st["face_up"][1], st["known"]) == (False, [[1], []])
    assert t.at("turn", 0)
    # Cast elsewhere: the peeked shoal stays face down and known to seat 0.
    t.act(CAST + 2, "turn", 0)
    t.act(CATCH, "pay", 0)
    t.act(1, "draw_regret", 0)
    st = t.st
    assert (st["face_up"][1], st["known"]) == (False, [[1], []])
    assert st["players"][0]["hand"] == [FISH["Osteofish"]]


def test_abandon_ship_is_a_free_action(backend: Backend) -> None:
    """ "Kerran pelissä voit hylätä paatin ja siirtyä loppuvuoroksi satamaan. Siitä seuraa
    kuitenkin vakavaa katumusta." (Once per game you may abandon your boat and move to port
    for the rest of the turn. Grave regret follows.)

    Before the main action, that main action becomes a port action (here a sale); after the main
    action the boat makes port and the turn goes on at ``after_main``.
    """
    tops = {0: [FISH["Goliath Grouper"], FISH["Coelacanth"]]}
    t = in_port_after_a_catch(backend, tops)
    t.act(ROLL_NOW, "muster_select", 0)
    t.rolls(2)
    st = t.st
    assert st["players"][0]["lifeboat_used"] is True and st["players"][0]["depth"] == 0
    # last_turns was 2: now 4, counting this turn's port action.
    assert st["last_turns"] == 4
    assert t.at("turn", 0)
    assert SELL in t.legal() and ABANDON not in t.legal()
    t.act(SELL, "turn", 0)
    t.act(sell("Goliath Grouper"), "sell", 0)
    st = t.st
    assert (st["players"][0]["money"], st["last_turns"]) == (6, 3)
    # After the main action: abandon ship at the after_main node.
    t2 = monday(backend, 2, tops=tops, dice={0: (3, 3, 3)})
    t2.free_after_main = True
    t2.act(CAST + 0, "turn", 0)
    t2.act(die("P3"), "pay", 0)
    t2.act(CATCH, "pay", 0)
    assert ABANDON in t2.legal()
    t2.act(ABANDON, "after_main", 0)
    t2.act(ROLL_NOW, "muster_select", 0)
    t2.rolls(1)
    st = t2.st
    assert st["players"][0]["depth"] == 0 and st["players"][0]["lifeboat_used"] is True
    # In port the only free action left is eating Goliath Grouper.
    assert (st["node"], st["actor"]) == ("after_main", 0)
    assert t2.legal() == [END_TURN, eat("Goliath Grouper")]
    t2.act(END_TURN, "after_main", 0)
    assert t2.at("turn", 1)


@pytest.mark.parametrize(
    ("payment", "fresh", "spent"),
    [
        (["P3"], ["P2", "P3"], ["P"]),  # exactly paid: the die is spent
        (["P2", "P3"], ["P2", "P3"], ["P"]),  # 5 - 3 = 2 left: P3 stays Fresh as P2
    ],
)
def test_bone_wheel_retains_unspent_points(
    backend: Backend, payment: list[str], fresh: list[str], spent: list[str]
) -> None:
    """Bone Wheel (``items.csv``: "passive: retain unspent points on dice"; Decision 46).

    Barracuda has difficulty 3 (the Trolling Rod only helps large fish). Paid exactly with one
    P3, that die is spent; paid 5 with P2 and P3, the largest die stays Fresh showing the
    leftover 2 and only P2 is spent.
    """
    t = rod_tuesday(backend, "Trolling Rod", reel="Bone Wheel")
    assert t.seat(0)["fresh"] == ["P2", "P3", "P3"]
    t.act(CAST + 1, "turn", 0)
    assert t.obs(0)["ctx"]["cast"]["difficulty"] == 3
    for d in payment:
        t.act(die(d), "pay", 0)
    t.act(CATCH, "pay", 0)
    st = t.st
    assert st["players"][0]["hand"] == [FISH["Barracuda"]]
    assert (st["players"][0]["fresh"], st["players"][0]["spent"]) == (fresh, spent)


def test_centerpin_reel_triples_only_the_dinks_of_the_own_fishing_action(backend: Backend) -> None:
    """Centerpin Reel (``items.csv``: "when you would draw a Dink as part of your own fishing
    action … draw 3 instead (keep all)"; Decision 19).

    The Dink for declining is drawn three times; a pass reward stays one Dink.
    """
    t = rich_monday(backend, tops={1: [FISH["Hammerhead Shark"]]})
    buy_reel(t, "Centerpin Reel")
    tuesday(t)
    assert t.seat(0)["reel"] == REELS["Centerpin Reel"]
    assert USE_REEL not in t.legal()
    held = t.seat(0)["dinks"]  # the dink of Monday's pass
    t.act(CAST + 1, "turn", 0)
    t.act(DECLINE, "pay")
    t.act(die("P3"), "decline_die")
    t.acts("draw_dink", 20, 21, 22)
    assert t.seat(0)["dinks"] == [*held, 20, 21, 22]
    t.take_reward(1, None)
    t.act(PASS, "turn", 0)
    t.act(DRAW_A_DINK, "reward")
    t.act(23, "draw_dink")
    assert t.seat(0)["dinks"] == sorted([*held, 20, 21, 22, 23])
    assert t.st["node"] != "draw_dink"


@pytest.mark.parametrize("ignore", [True, False])
def test_rod_of_the_dead_ignores_reveal_and_catch_abilities_separately(
    backend: Backend, ignore: bool
) -> None:
    """Rod of the Dead (``items.csv``: "you may choose to ignore the Reveal and/or Catch
    abilities of the fish you reveal and/or catch (each ability separately)"; Decision 38).

    Foot's Reveal ability (everyone draws a regret) and Osteofish's Catch ability (draw a regret)
    are each a choice of their own.
    """
    t = rich_monday(backend, tops={1: [FISH["Foot"], FISH["Osteofish"]]})
    buy_rod(t, "Rod of the Dead")
    t.pass_turn(0, DINKS["Pearl"])
    muster_faces(t, {0: (3, 3, 2), 1: (1, 1, 1)})
    resolve(t, lambda t: t.at("turn", 0))
    t.free_after_main = True
    t.act(CAST + 1, "turn", 0)
    t.asks_yes_no("ignore_reveal", 0, "resolve the reveal ability", "ignore the reveal ability")
    t.act(NO if ignore else YES, "ignore_reveal", 0)
    if not ignore:
        t.act(1, "draw_regret", 0)
        t.act(1, "draw_regret", 1)
    assert t.at("pay", 0) and t.st["ctx"]["cast"]["ignored"] is ignore
    assert t.seat(0)["regrets"] == ([0, 0, 0, 0] if ignore else [0, 1, 0, 0])
    t.act(CATCH, "pay", 0)  # Foot, difficulty 0, has no Catch ability: no choice
    t.act(END_TURN, "after_main", 0)
    t.take_reward(1, None)
    t.act(CAST + 1, "turn", 0)
    t.act(CATCH, "pay", 0)  # Osteofish, difficulty 0
    t.asks_yes_no("ignore_catch", 0, "resolve the catch ability", "ignore the catch ability")
    assert t.seat(0)["hand"] == sorted([FISH["Foot"], FISH["Osteofish"]])
    t.act(NO if ignore else YES, "ignore_catch", 0)
    if not ignore:
        t.act(2, "draw_regret", 0)
    assert t.at("after_main", 0)
    assert t.seat(0)["regrets"] == ([0, 0, 0, 0] if ignore else [0, 1, 1, 0])


def rod_of_the_dead_tuesday(backend: Backend, tops: Mapping[int, Sequence[int]]) -> Table:
    """Seat 0 buys the Rod of the Dead on Monday; Tuesday it has it equipped and Fresh P2 P3 P3,
    and seat 1 (the first player, Fresh P1 P1 P1) is at its turn node."""
    t = rich_monday(backend, tops=tops)
    buy_rod(t, "Rod of the Dead")
    t.pass_turn(0, DINKS["Pearl"])
    muster_faces(t, {0: (3, 3, 2), 1: (1, 1, 1)})
    assert t.at("turn", 1) and t.seat(0)["rod"] == RODS["Rod of the Dead"]
    assert t.seat(0)["fresh"] == ["P2", "P3", "P3"]
    return t


@pytest.mark.parametrize("ignore", [True, False])
def test_rod_of_the_dead_ignores_a_not_caught_clause_with_the_reveal(
    backend: Backend, ignore: bool
) -> None:
    """Decision 37: "Not caught" clauses are part of the fish's Reveal ability; Scrat's card text
    is "R: if not caught, it goes to the player on your right". Rod of the Dead (``items.csv``:
    "you may choose to ignore the Reveal and/or Catch abilities of the fish you reveal and/or
    catch (each ability separately)"): ``ignore_reveal`` is asked for Scrat, whose only reveal
    text is its not-caught clause (Decision 38).

    Resolved, the declined Scrat goes to the right (seat 1). Ignored, it stays face up on top of
    its shoal; a reveal ability comes from the cast that turns the card up ("Käännä kortti esiin
    ja toteuta ilmestymisefekti (silmä), jos kalalla on sellainen." Turn the card face up and
    resolve its reveal effect, the eye, if the fish has one.), so seat 1 declining it afterwards
    does nothing either, and seat 0 casting at it again is asked nothing.
    """
    t = rod_of_the_dead_tuesday(backend, {1: [FISH["Scrat"]]})
    # Seat 1 declines the Hammerhead Shark of shoal 0 without a dink: seat 0's turn.
    t.act(CAST + 0, "turn", 1)
    t.act(DECLINE, "pay", 1)
    t.act(TAKE_NOTHING, "decline_die", 1)
    t.act(CAST + 1, "turn", 0)
    t.asks_yes_no("ignore_reveal", 0, "resolve the reveal ability", "ignore the reveal ability")
    assert t.st["ctx"]["cast"]["revealed"] is True
    t.act(NO if ignore else YES, "ignore_reveal", 0)
    assert t.at("pay", 0)
    cast = t.st["ctx"]["cast"]
    assert (cast["ignored"], cast["revealed"]) == (ignore, True)
    assert (t.obs(1)["ctx"]["cast"]["ignored"], t.obs(1)["ctx"]["cast"]["revealed"]) == (
        ignore,
        True,
    )
    t.act(DECLINE, "pay", 0)
    t.act(die("P2"), "decline_die", 0)
    t.act(DINKS["Bearer Bond"], "draw_dink", 0)
    st = t.st
    assert st["players"][0]["dinks"] == sorted([DINKS["Pearl"], DINKS["Bearer Bond"]])
    if not ignore:
        assert st["players"][1]["hand"] == [FISH["Scrat"]]
        assert st["shoals"][1][0] != FISH["Scrat"]
        return
    assert (st["shoals"][1][0], st["face_up"][1]) == (FISH["Scrat"], True)
    assert st["players"][1]["hand"] == []
    # Declined earlier by another seat: seat 1 meets it face up, and declining does nothing.
    t.act(CAST + 1, "turn", 1)
    assert t.at("pay", 1) and t.st["ctx"]["cast"]["revealed"] is False
    t.act(DECLINE, "pay", 1)
    t.act(TAKE_NOTHING, "decline_die", 1)
    st = t.st
    assert (st["shoals"][1][0], st["face_up"][1]) == (FISH["Scrat"], True)
    assert all(FISH["Scrat"] not in seat["hand"] for seat in st["players"])
    # Seat 0 casts at the face-up Scrat again: nothing is revealed, so nothing is asked.
    t.act(CAST + 1, "turn", 0)
    assert t.at("pay", 0)
    cast = t.st["ctx"]["cast"]
    assert (cast["ignored"], cast["revealed"]) == (False, False)


@pytest.mark.parametrize("ignore", [True, False])
def test_rod_of_the_dead_ignores_both_halves_of_brittle_lungs_reveal(
    backend: Backend, ignore: bool
) -> None:
    """Decision 37: Brittle Lung's card text is "R: draw 1; if not caught, discard it" — one
    Reveal ability ("Käännä kortti esiin ja toteuta ilmestymisefekti (silmä), jos kalalla on
    sellainen." Turn the card face up and resolve its reveal effect, the eye, if the fish has
    one.). With the Rod of the Dead ("you may choose to ignore the Reveal and/or Catch abilities
    of the fish you reveal and/or catch (each ability separately)"), ignoring it skips both the
    draw and the discard (Decision 38): the declined fish stays face up on top of its shoal.
    """
    t = rod_of_the_dead_tuesday(backend, {3: [FISH["Brittle Lung"]]})
    t.pass_turn(1, None)
    sink_to(t, 0, 2)
    assert t.seat(0)["fresh"] == ["P3", "P3"]
    t.act(CAST + 3, "turn", 0)
    t.asks_yes_no("ignore_reveal", 0, "resolve the reveal ability", "ignore the reveal ability")
    t.act(NO if ignore else YES, "ignore_reveal", 0)
    if not ignore:
        t.act(3, "draw_regret", 0)  # "draw 1"
    assert t.at("pay", 0) and t.st["ctx"]["cast"]["ignored"] is ignore
    t.act(DECLINE, "pay", 0)
    t.act(die("P3"), "decline_die", 0)
    t.act(DINKS["Bearer Bond"], "draw_dink", 0)
    st = t.st
    if ignore:
        assert st["players"][0]["regrets"] == [0, 0, 0, 0]
        assert (st["shoals"][3][0], st["face_up"][3]) == (FISH["Brittle Lung"], True)
        assert st["fish_discard"][1] == []
    else:
        assert st["players"][0]["regrets"] == [0, 0, 0, 1]
        assert st["shoals"][3][0] != FISH["Brittle Lung"] and st["face_up"][3] is False
        assert st["fish_discard"][1] == [FISH["Brittle Lung"]]


@pytest.mark.parametrize("how", ["The Mollusk", "Diving Lantern"])
def test_a_not_caught_clause_needs_the_cast_to_reveal_the_fish(backend: Backend, how: str) -> None:
    """Decision 37: "Not caught" clauses are part of the fish's Reveal ability; Scrat's card text
    is "R: if not caught, it goes to the player on your right". A reveal ability comes from the
    cast that turns the card up: "Käännä kortti esiin ja toteuta ilmestymisefekti (silmä), jos
    kalalla on sellainen." (Turn the card face up and resolve its reveal effect, the eye, if the
    fish has one.)

    Scrat turned face up before the cast, by The Mollusk's Reveal ability (its column) or by the
    Diving Lantern, does nothing when declined: it stays face up on top of its shoal.
    """
    if how == "The Mollusk":
        t = monday(backend, 2, tops={4: [FISH["The Mollusk"]], 1: [FISH["Scrat"]]})
        sink_to(t, 0, 2)
        t.act(CAST + 4, "turn", 0)  # The Mollusk reveals shoals 1, 4 and 7
        t.act(DECLINE, "pay", 0)
        t.act(TAKE_NOTHING, "decline_die", 0)
        p = 1
    else:
        t = rich_monday(backend, tops={1: [FISH["Scrat"]]})
        buy_supplies(t, ["Diving Lantern", "Scotch Egg", "Black Tea"], ["Cloche", "Cask Ale"])
        tuesday(t)
        t.act(SUPPLY + SUPPLIES["Diving Lantern"], "turn", 0)
        t.act(COLUMN + 1, "reveal_column", 0)
        p = 0
    st = t.st
    assert (st["shoals"][1][0], st["face_up"][1]) == (FISH["Scrat"], True)
    assert t.at("turn", p)
    t.act(CAST + 1, "turn", p)
    assert t.at("pay", p)
    assert t.st["ctx"]["cast"]["revealed"] is False
    assert t.obs(p)["ctx"]["cast"]["revealed"] is False
    t.act(DECLINE, "pay", p)
    t.act(die(t.seat(p)["fresh"][-1]), "decline_die", p)
    t.act(DINKS["Bearer Bond"], "draw_dink", p)
    st = t.st
    assert (st["shoals"][1][0], st["face_up"][1]) == (FISH["Scrat"], True)
    assert all(FISH["Scrat"] not in seat["hand"] for seat in st["players"])
    assert DINKS["Bearer Bond"] in st["players"][p]["dinks"]


def test_rod_of_the_infinite_reorders_three_fish_without_a_dink(backend: Backend) -> None:
    """Rod of the Infinite (``items.csv``: "when you cast: peek at the top 3 fish of the shoal and
    put them back in any order, before revealing the top fish"; Decision 45). No Dink is
    discarded."""
    t = rod_tuesday(backend, "Rod of the Infinite")
    dinks = t.seat(0)["dinks"]
    t.act(CAST + 1, "turn", 0)
    st = t.st
    assert (st["node"], st["actor"]) == ("reorder", 0)
    assert st["ctx"]["order"] == [FISH["Barracuda"], FISH["Sheepshead"], FISH["Scrat"]]
    t.act(eat("Scrat"), "reorder", 0)
    t.act(eat("Barracuda"), "reorder", 0)
    st = t.st
    assert st["shoals"][1][:3] == [FISH["Scrat"], FISH["Barracuda"], FISH["Sheepshead"]]
    assert st["players"][0]["dinks"] == dinks and st["dink_discard"] == []
    assert st["face_up"][1] is True
    assert t.at("pay", 0)


# ======================================================================================
# Rule events (contract, "Rule events"): ``rule_events_of`` names the rule a step triggers
# ======================================================================================


def events_of(state: Any, action: int) -> list[str]:
    """The rule events of ``action``, checking that asking leaves the state as it was."""
    before = state.to_dict()
    events: list[str] = state.rule_events_of(action)
    assert state.to_dict() == before
    return events


def default_action(t: Table) -> int:
    """The step :meth:`Table.default` would take."""
    legal = t.legal()
    if t.node == "reward" and DRAW_A_DINK in legal:
        return DRAW_A_DINK
    if t.node == "after_main":
        return END_TURN
    return legal[0]


def test_rule_event_money_cap_hit(backend: Backend) -> None:
    """p.17: "You cannot have more than 10$ at one time. Any additional income is lost." A sale
    up to exactly $10 loses nothing; Thursday's $3 ("Thursday every player gains $3") to a seat
    holding $10 is lost."""
    t = selling_grouper_and_sheepshead(backend)
    t.act(sell("Goliath Grouper"), "sell")
    assert t.seat(0)["money"] == 6
    # Sheepshead 2 + 2 makes exactly $10.
    assert events_of(t.state, sell("Sheepshead")) == []
    t.act(sell("Sheepshead"), "sell")
    assert t.seat(0)["money"] == 10
    while t.st["day"] < 4:
        action = default_action(t)
        events = events_of(t.state, action)
        day = t.st["day"]
        t.state.apply(action)
        assert ("money cap hit" in events) == (t.st["day"] == 4 != day)
    assert [t.seat(p)["money"] for p in range(2)] == [10, 3]


@pytest.mark.parametrize(("kind", "price"), [("rod", 1), ("supply", 3), ("tackle", 5)])
def test_rule_event_shop_tier(backend: Backend, kind: str, price: int) -> None:
    """Rule: "Shops: rods, reels, supplies at $1 (take 1) / $3 (draw 3 keep 1; supplies keep 2) / $5
    (draw 5 keep 2; supplies keep 3) ... tackle dice $1/$3/$5": one event per price tier, for any
    shop."""
    t = rich_monday(backend)
    assert events_of(t.state, shop(kind, price)) == [f"shop tier ${price}"]


def test_rule_event_all_mount_slots_filled(backend: Backend) -> None:
    """Rule: "Mount: move fish from hand to empty slots ×2, ×3, ×2; permanent." The fish that
    fills the last empty slot."""
    t = mounting_three_fish(backend)
    for slot, name in [(1, "Coelacanth"), (0, "Goliath Grouper"), (2, "Sheepshead")]:
        t.act(SLOT + slot, "mount_slot")
        events = events_of(t.state, FISH_ID + FISH[name])
        assert events == (["all mount slots filled"] if slot == 2 else [])
        t.act(FISH_ID + FISH[name], "mount_fish")
    assert None not in t.seat(0)["mounted"]


def test_rule_event_overfishing(backend: Backend) -> None:
    """Rule: "catching the last fish of a shoal draws 1 regret (overfishing)": the catch of the 13th
    fish of shoal 0, and no catch before it."""

    def only_the_last_overfishes(t: Table, i: int) -> None:
        assert ("overfishing" in events_of(t.state, CATCH)) == (i == 12)

    t = fish_out_shoal_0(backend, only_the_last_overfishes)
    assert t.st["shoals"][0] == []


def test_rule_event_abandon_ship(backend: Backend) -> None:
    """Rule: "Kerran pelissä voit hylätä paatin ja siirtyä loppuvuoroksi satamaan" (once per
    game you may abandon ship and go to port for the rest of the turn), while another seat still
    plays."""
    t = after_a_catch(backend, {0: [FISH["Goliath Grouper"]], 1: [FISH["Flounder"]]})
    t.decline(1, 1, "P1", 0)
    assert t.st["last_turns"] is None
    assert events_of(t.state, ABANDON) == ["abandon ship"]


def test_rule_event_abandon_ship_after_all_others_passed(backend: Backend) -> None:
    """p.10: "If all other players have passed when a player uses their lifeboat, they may still
    take FOUR actions at Port.\""""
    tops = {0: [FISH["Goliath Grouper"], FISH["Coelacanth"]]}
    t = after_a_catch(backend, tops)
    t.pass_turn(1, DINKS["Toe"])
    t.catch(0, 0, "P3")
    t.take_reward(1, DINKS["Eel"])
    assert events_of(t.state, ABANDON) == [
        "abandon ship",
        "abandon ship after all others passed",
    ]


def test_rule_event_the_plug(backend: Backend) -> None:
    """The Plug: "from now on, at the start of every player's turn the top-left-most fish of the
    Sea is discarded" — the cast that reveals it."""
    t = monday(backend, 2, tops={6: [FISH["The Plug"]]})
    sink_to(t, 0, 3)
    assert events_of(t.state, CAST + 6) == ["The Plug"]
    t.act(CAST + 6, "turn", 0)
    assert t.st["plug"] is True


RECORDED: dict[str, Any] = json.loads(
    (Path(__file__).parent.parent / "data" / "deep_regrets_rule_events.json").read_text(
        encoding="utf-8"
    )
)
"""A three-seat game whose seats stay at sea, keep their regrets and dig through the deepest
shoals (the drawn games' "drain the sea" player): ``events[name]`` is the index in ``history``
of the first step that triggers ``name``."""


def recorded_before(backend: Backend, event: str) -> tuple[StateProtocol, int]:
    """The recorded game just before the first step that triggers ``event``, and that step."""
    game = cardtable.make("deep_regrets", backend=backend, players=RECORDED["players"])
    state = game.new_state()
    at = RECORDED["events"][event]
    for action in RECORDED["history"][:at]:
        state.apply(action)
    return state, RECORDED["history"][at]


@pytest.mark.parametrize("tier", ["1-3", "4-6", "7-9", "10-12", "13+"])
def test_rule_event_madness_tier(backend: Backend, tier: str) -> None:
    """Rule: "Madness tiers by number of Regret cards held (0 / 1–3 / 4–6 / 7–9 / 10–12 / 13+)": the
    regret that takes a seat into the tier."""
    state, action = recorded_before(backend, f"madness tier {tier}")
    first = int(tier.rstrip("+").split("-")[0])
    counts = [sum(seat["regrets"]) for seat in state.to_dict()["state"]["players"]]
    assert max(counts) < first
    assert f"madness tier {tier}" in events_of(state, action)
    state.apply(action)
    assert max(sum(seat["regrets"]) for seat in state.to_dict()["state"]["players"]) >= first


def test_rule_event_regret_deck_reshuffled(backend: Backend) -> None:
    """Rule: "Empty deck: reshuffle the regret discard pile": here the step draws the deck's last
    card and the next draw of the same event finds the deck empty."""
    state, action = recorded_before(backend, "regret deck reshuffled")
    st = state.to_dict()["state"]
    assert st["node"] == "draw_regret"
    assert sum(st["regret_deck"]) == 1 and sum(st["regret_discard"]) > 0
    assert "regret deck reshuffled" in events_of(state, action)
    state.apply(action)
    assert state.to_dict()["state"]["regret_discard"] == [0, 0, 0, 0]


def test_rule_event_regret_stolen(backend: Backend) -> None:
    """Rule: "if that is empty too, take a random regret card from the player with the most (ties:
    next seats from the drawer)"; p.20: "If the draw pile is empty, you must draw from another
    player"."""
    state, action = recorded_before(backend, "regret stolen")
    st = state.to_dict()["state"]
    assert st["node"] == "steal_regret"
    assert st["regret_deck"] == st["regret_discard"] == [0, 0, 0, 0]
    assert "regret stolen" in events_of(state, action)


def test_rule_event_depth_emptied(backend: Backend) -> None:
    """Rule: "an empty sea ends the game at once": on the way, the three shoals of one depth
    empty."""
    state, action = recorded_before(backend, "depth emptied")
    assert "depth emptied" in events_of(state, action)
    state.apply(action)
    shoals = state.to_dict()["state"]["shoals"]
    assert any(not any(shoals[3 * d : 3 * d + 3]) for d in range(3))
