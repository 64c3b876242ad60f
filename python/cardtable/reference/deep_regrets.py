"""Deep Regrets by Judson Cowan: the reference rules (step 1), one method per rule step.

The rules are ``rules/deep_regrets/README.md`` (with ``sources.md`` beside it); the node flow, the
action ids, labels, observation and canonical state are fixed by ``docs/games/deep_regrets.md``
(the contract), whose section numbers (§) the docstrings below cite. The card data is
``data/deep_regrets.json``, read by ``_deep_regrets/cards.py``. Step 1 covers the whole game flow
with every number, fish as plain cards and the items whose effects are plain modifiers; step-2
items are bought and held without effect.

How this module is built: the game is one generator, :meth:`DeepRegretsState._game_flow`, that
reads like the rulebook. Every procedure of the contract (Muster, MakePort, the turn, a cast, a
shop visit, an item effect, ...) is a generator method; each ``yield`` is one node of the contract
(a decision of one seat, or a chance node) and receives the chosen action or outcome. The state of
the table lives in plain attributes, so the canonical state and the observations are read straight
from them; where the flow will continue lives only in the generator. A generator cannot be copied,
so :meth:`DeepRegretsState.clone` replays the history instead.

A game, as the engine sees it:

1. Setup (§5): the sea is dealt shoal by shoal (chance ``deal``), then the first day (Monday, or
   Tuesday with ``days = 5``) starts with its Refresh phase.
2. Each day (§6): Start phase (not on the first day; no nodes), Refresh phase (every seat musters,
   then the Life Preserver is thrown), Declaration phase (not on the first day), Actions phase.
3. The game ends after Saturday's Actions phase, or at once when the sea is empty (§8).

Decisions on points the rules docs and the contract leave open (the simplest reading each time):

- ``ctx.left`` is live only while one of the decision nodes that the contract lists for it is
  asked; at every other node, including the ``roll`` chance nodes that follow a
  ``muster_select``, ``refresh_die`` or ``reroll_select`` node, it holds its default 0.
- Labels use the whole id range of §9 for their node kind, whatever the player count or the
  options: e.g. ``give the Life Preserver to seat 4`` at a 3-player ``life_preserver`` node, and
  ``deal {fish} to shoal {s}`` for every fish id 0..134. The ``draw_bag`` labels substitute the
  colour word literally: ``draw a blue tackle die``, ``draw a green tackle die``,
  ``draw a orange tackle die``.
- Dice that Muster does not keep go to the Spent pool, tackle dice included (only *spending* a
  Fresh die sends a tackle die back to the bag, §3).
- An empty shoal shows ``face_up`` false.
- Leaving the worms' fish on top changes nothing in ``known``; putting it at the bottom counts as
  the top card moving (the reveal that follows clears ``known`` for that shoal anyway).
- A seat that owns exactly one rod (reel) has it equipped at every Declaration, also if it already
  was.
- The options are listed in the contract's table order: ``days``, ``regret_split``,
  ``expansion_tentacles``.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

from cardtable._rng import SplitMix64
from cardtable.reference._base import CHANCE, TERMINAL, ReferenceGame, ReferenceState
from cardtable.reference._deep_regrets.cards import (
    CARDS,
    DIE_CLASSES,
    ITEM_KINDS,
    KIND_LETTERS,
    PLAYER_DIE,
    TACKLE_KINDS,
    Effect,
    Fish,
    Item,
    ItemKind,
    MadnessTier,
    NodeKind,
    ShopTier,
    Use,
    die_class,
    die_face,
    die_kind,
    die_string,
    face_weights,
    fish_name,
    shoal_column,
    shoal_depth,
    shoal_row,
)
from cardtable.reference._deep_regrets.tensor import encode_observation, tensor_size
from cardtable.reference._options import OptionReader, OptionSpec

__all__ = ["DeepRegretsGame", "DeepRegretsObservation", "DeepRegretsState"]

# ======================================================================================
# Numbers and action ids
# ======================================================================================

NUM_ACTIONS = 512
"""§9: ``num_actions`` is 512 (ids 14-31 and 300-511 are reserved for step 2)."""

SHOALS = range(9)
"""§3: shoals 0..8; depth(s) = s div 3 + 1, column(s) = s mod 3."""
ROWS = range(3)
"""Row r holds the three shoals of depth r + 1."""
COLUMNS = range(3)
"""Column c holds the shoals c, c + 3, c + 6."""
DEEPEST = 3
"""Depth III is the deepest; depth 0 is port."""
PORT = 0
"""The ``depth`` of a boat in port."""
LAST_DAY = 6
"""§3: the last day is always Saturday (day 6)."""
SLOTS = range(3)
"""The three mount slots."""

PASS = 0
"""``turn``: pass. Id 0 is also roll now, keep all regrets and done (§9)."""
ROLL_NOW = 0
"""``muster_select`` and ``reroll_select``: roll the chosen dice now."""
KEEP_ALL = 0
"""``port_discard``: keep all regrets."""
DONE = 0
"""``sell`` and ``mount_slot``: done."""
STAY_AT_SEA = 1
"""``declare``: stay at sea."""
MAKE_PORT = 2
"""``declare``: make port."""
ABANDON_SHIP = 3
"""``turn``: abandon ship."""
LEAVE_ON_TOP = 4
"""``worms``: leave the peeked fish on top."""
PUT_AT_BOTTOM = 5
"""``worms``: put the peeked fish at the bottom of the shoal."""
CATCH = 6
"""``pay``: catch (the payment is complete)."""
DECLINE = 7
"""``pay``: decline."""
DRAW_A_DINK = 8
"""``reward``: draw a dink."""
DISCARD_RANDOM_REGRET = 9
"""``reward``: discard a random regret."""
SELL = 10
"""``turn``: sell."""
MOUNT = 11
"""``turn``: mount."""
USE_LIFE_PRESERVER = 12
"""``turn`` and ``pay``: use the Life Preserver."""
USE_REEL = 13
"""``turn`` and ``pay``: use the equipped reel."""
CAST = 32
"""32 + s: ``turn``: cast at shoal s; ``peek_shoal``: peek at shoal s."""
CAST_WITH_WORMS = 41
"""41 + s: ``turn``: cast at shoal s with the Can of Worms."""
DIE = 50
"""50 + c: a die of class c (sinker, payment, select, keep, set, spend)."""
DIE_KIND = 65
"""65 + k: ``refresh_die``: a Spent die of kind k."""
REGRET = 70
"""70 + v: a regret card of value v."""
GIVE_TO = 74
"""74 + s: ``life_preserver``: give it to seat s."""
SLOT = 79
"""79 + k: ``mount_slot``: mount slot k."""
SHOP = 82
"""82 + 3k + t: ``turn``: shop k at tier t."""
ROW = 94
"""94 + r: ``peek_row``: peek at depth r + 1."""
COLUMN = 97
"""97 + c: ``peek_column``: peek at column c."""
DINK = 100
"""100 + d: use dink d."""
SUPPLY = 125
"""125 + i: use (or keep) supply i."""
ROD = 145
"""145 + r: equip (or keep) rod r."""
REEL = 155
"""155 + r: equip (or keep) reel r."""
FISH = 165
"""165 + f: sell or mount fish f."""

UsedItem = Literal["dink", "supply", "reel", "life_preserver"]
"""``ctx.item`` kinds: the items that can be used."""
ITEM_BASE: dict[ItemKind, int] = {"dink": DINK, "supply": SUPPLY, "rod": ROD, "reel": REEL}
"""The first action id of each item range."""
ITEM_DECK_SIZE: dict[ItemKind, int] = {"dink": 25, "supply": 20, "rod": 10, "reel": 10}
"""§2: 25 dinks, 20 supplies, 10 rods, 10 reels."""
SHOP_ITEMS: tuple[ItemKind, ...] = ("rod", "reel", "supply")
"""Shops 0, 1, 2 sell rods, reels and supplies; shop 3 is the tackle shop."""
SHOP_NAMES = ("rod", "reel", "supply", "tackle")
TACKLE_SHOP = 3

Phase = Literal["setup", "refresh", "declaration", "actions", "over"]
"""§11.2: the phase of the day (``setup`` during the deal, ``over`` at the end)."""


# ======================================================================================
# The table
# ======================================================================================


@dataclass
class Seat:
    """One player's board (§5 initial values; §11.2 ``players`` entry)."""

    money: int
    depth: int = 1
    regrets: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    """Copies of regret values 0..3."""
    fresh: list[int] = field(default_factory=list)
    """Fresh dice as die classes, sorted."""
    spent: list[int] = field(default_factory=lambda: [PLAYER_DIE] * 3)
    """Spent dice as kinds, sorted."""
    hand: set[int] = field(default_factory=set)
    mounted: list[int | None] = field(default_factory=lambda: [None, None, None])
    owned: dict[ItemKind, set[int]] = field(
        default_factory=lambda: {kind: set() for kind in ITEM_KINDS}
    )
    rod: int | None = None
    reel: int | None = None
    worms: bool = True
    """The Can of Worms is face up."""
    lifeboat_used: bool = False
    passed: bool = False
    reel_used: bool = False
    caught_today: bool = False
    shops_used: list[bool] = field(default_factory=lambda: [False] * 4)

    @property
    def regret_count(self) -> int:
        """The number of regret cards held."""
        return sum(self.regrets)

    @property
    def at_sea(self) -> bool:
        """The boat is at sea (depth 1..3), not in port."""
        return self.depth != PORT


@dataclass
class Cast:
    """``ctx.cast``: the cast in progress (§7.4)."""

    shoal: int
    reduction: int = 0
    """The sum of the difficulty amounts used on this cast (≤ 0)."""
    zero: bool = False
    """The effective difficulty was set to 0."""
    payment: list[int] = field(default_factory=list)
    """The die classes put into the payment, sorted."""


@dataclass
class ShopVisit:
    """``ctx.shop``: a card shop visit in progress."""

    shop: int
    drawn: list[int] = field(default_factory=list)
    """Item ids drawn and not kept, in draw order."""


@dataclass
class Context:
    """``ctx`` (§11.1): the data of the procedure that is running; defaults otherwise."""

    to_roll: list[int] = field(default_factory=list)
    """Kinds of the dice waiting to be rolled, kind order."""
    rolled: list[int] = field(default_factory=list)
    """Muster: classes of the dice rolled and waiting for the keep step, class order."""
    left: int | None = 0
    cast: Cast | None = None
    peek: int | None = None
    shop: ShopVisit | None = None
    count: int = 0
    foul: int = 0
    slot: int | None = None
    discount: int = 0
    """The pending shop discount of the turn."""
    item: tuple[UsedItem, int | None] | None = None
    """The item being used: (``dink`` | ``supply`` | ``reel`` | ``life_preserver``, id)."""


@dataclass(frozen=True)
class Node:
    """One node of the flow: a decision of ``actor``, or a chance node (``weights`` given).

    ``about`` carries what a label needs beyond the state: the shoal being dealt, or the seat a
    regret is taken from.
    """

    kind: NodeKind
    actor: int | None
    legal: tuple[int, ...]
    weights: tuple[int, ...] | None = None
    about: int | None = None

    @property
    def is_chance(self) -> bool:
        """Whether this is a chance node."""
        return self.weights is not None


OVER = Node("over", None, ())
"""The terminal node."""


def decision(kind: NodeKind, actor: int, legal: Iterable[int]) -> Node:
    """A decision node of ``actor`` with its legal actions."""
    return Node(kind, actor, tuple(sorted(legal)))


def chance(
    kind: NodeKind, actor: int | None, weighted: Iterable[tuple[int, int]], about: int | None = None
) -> Node:
    """A chance node over the outcomes of positive weight, in increasing order."""
    pairs = sorted((o, w) for o, w in weighted if w > 0)
    return Node(kind, actor, tuple(o for o, _ in pairs), tuple(w for _, w in pairs), about)


class SeaIsEmpty(Exception):
    """§8: "The game ends ... at once when the sea is empty"."""


Flow = Generator[Node, int, None]
"""A procedure of the flow: yields nodes, receives the chosen action or outcome."""
TurnFlow = Generator[Node, int, bool]
"""A procedure that tells at its end whether the day ends at once."""


@dataclass
class EndResult:
    """``end`` (§8): regret values, the penalty discards and the final scores."""

    regret_value: list[int]
    discarded: list[int | None]
    scores: list[int]


# ======================================================================================
# Observation types
# ======================================================================================


class ShoalObservation(TypedDict):
    """What a seat sees of one shoal."""

    size: int
    top: str | None
    known: str | None


class CastObservation(TypedDict):
    """``ctx.cast`` as a seat sees it."""

    shoal: int
    fish: str | None
    difficulty: int | None
    exact: int | None
    payment: list[str]


class ShopObservation(TypedDict):
    """``ctx.shop`` as a seat sees it."""

    shop: str
    drawn: list[str | None]


class ContextObservation(TypedDict):
    """``ctx`` as a seat sees it (§11.3)."""

    to_roll: list[str]
    rolled: list[str]
    left: int | None
    cast: CastObservation | None
    peek: str | None
    shop: ShopObservation | None
    count: int
    foul: int
    slot: int | None
    discount: int
    item: str | None


class DecksObservation(TypedDict):
    """Card counts of every deck and discard pile."""

    regret: int
    regret_discard: int
    dink: int
    dink_discard: int
    supply: int
    supply_discard: int
    rod: int
    rod_discard: int
    reel: int
    reel_discard: int


class EndObservation(TypedDict):
    """``end`` as a seat sees it."""

    regret_value: list[int]
    discarded: list[str | None]


class DeepRegretsObservation(TypedDict):
    """What one seat may know (§11.3, exactly these keys)."""

    seat: int
    day: int
    phase: Phase
    node: NodeKind
    actor: int | None
    turn: int | None
    first_player: int
    last_turns: int | None
    life_preserver: int | None
    current_player: int
    money: list[int]
    depth: list[int]
    regret_count: list[int]
    regrets: list[int]
    fresh: list[list[str]]
    spent: list[list[str]]
    hand: list[str]
    hand_count: list[int]
    mounted: list[list[str | None]]
    dinks: list[str]
    supplies: list[str]
    dink_count: list[int]
    supply_count: list[int]
    rods: list[list[str]]
    reels: list[list[str]]
    rod: list[str | None]
    reel: list[str | None]
    worms: list[bool]
    lifeboat_used: list[bool]
    passed: list[bool]
    reel_used: list[bool]
    caught_today: list[bool]
    shops_used: list[list[bool]]
    shoals: list[ShoalObservation]
    fish_discard: list[list[str]]
    bag: list[int]
    decks: DecksObservation
    ctx: ContextObservation
    scores: list[int]
    end: EndObservation | None


# ======================================================================================
# The state
# ======================================================================================


class DeepRegretsState(ReferenceState):
    """A game of Deep Regrets in progress."""

    def __init__(self, game: DeepRegretsGame) -> None:
        """§5 Setup: "Initial state (before any node)"."""
        super().__init__(game)
        self._n = game.players
        self._first_day = 1 if game.days == 6 else 2
        self._fish_per_shoal = 15 if game.expansion_tentacles else 13
        self._in_play = [
            f.id
            for f in CARDS.fish
            if f.expansion == "base" or (game.expansion_tentacles and f.expansion == "tentacles")
        ]
        # "day = first day, phase = setup, first_player = 0 (Decision: seat 0 is the first
        # player on the first day; no chance node)."
        self._day = self._first_day
        self._phase: Phase = "setup"
        self._first_player = 0
        self._turn: int | None = None
        self._last_turns: int | None = None
        self._life_preserver: int | None = None  # "Life Preserver with nobody."
        # "Every seat: money 0, depth 1, no regrets, Fresh empty, Spent = three P dice, ..."
        self._seats = [Seat(money=CARDS.starting_money) for _ in range(self._n)]
        self._shoals: list[list[int]] = [[] for _ in SHOALS]  # top first
        self._face_up = [False for _ in SHOALS]
        self._known: list[set[int]] = [set() for _ in range(self._n)]
        self._fish_discard: list[list[int]] = [[], [], []]
        # "Regret deck = the regret_split counts; dink, supply, rod and reel decks = all their
        # ids; every discard pile empty. Bag: 9 B, 8 G, 7 O."
        self._regret_deck = list(CARDS.regret_decks[game.regret_split])
        self._regret_discard = [0, 0, 0, 0]
        self._bag = [CARDS.dice[kind].count for kind in TACKLE_KINDS]
        self._deck: dict[ItemKind, set[int]] = {
            kind: set(range(ITEM_DECK_SIZE[kind])) for kind in ITEM_KINDS
        }
        self._discard: dict[ItemKind, set[int]] = {kind: set() for kind in ITEM_KINDS}
        self._ctx = Context()
        self._end: EndResult | None = None
        self._flow = self._game_flow()
        self._node = next(self._flow)

    # ==================================================================================
    # The game (§5, §6, §8)
    # ==================================================================================

    def _game_flow(self) -> Flow:
        """The whole game: the deal, the days, then the end scoring.

        "The game ends after the Actions phase of day 6, or at once when the sea is empty."
        """
        try:
            yield from self._deal_the_sea()
            yield from self._days()
        except SeaIsEmpty:
            pass
        self._end_the_game()

    def _deal_the_sea(self) -> Flow:
        """§5 Deal.

        "For s = 0..8, for k = 1..K (K = 13, or 15 with the expansion): outcomes = the in-play
        fish of depth(s) not yet in any shoal, weight 1 each; the fish is put under the cards
        already in shoal s (the first fish dealt to a shoal is its top). All tops start face
        down."
        """
        dealt: set[int] = set()
        for s in SHOALS:
            for _ in range(self._fish_per_shoal):
                left = [
                    f
                    for f in self._in_play
                    if CARDS.fish[f].depth == shoal_depth(s) and f not in dealt
                ]
                f = yield chance("deal", None, ((f, 1) for f in left), about=s)
                dealt.add(f)
                self._shoals[s].append(f)

    def _days(self) -> Flow:
        """§6: the days, each with its phases.

        "The first day skips the Start and Declaration phases." "When the day ends: turn = null;
        if day = 6 the game ends (§8), else the Start phase of the next day."
        """
        while True:
            yield from self._refresh_phase()
            if self._day != self._first_day:
                yield from self._declaration_phase()
            yield from self._actions_phase()
            self._turn = None
            if self._day == LAST_DAY:
                return
            self._start_phase()

    # ----- §6.1 Start phase -----

    def _start_phase(self) -> None:
        """§6.1 Start phase (days after the first; no nodes), steps 1 to 6 in order."""
        # 1. "day += 1; first_player = first_player + 1 mod n."
        self._day += 1
        self._first_player = (self._first_player + 1) % self._n
        # 2. "Every shoal whose top is face up: that fish goes to the discard pile of its depth
        # (shoals in order 0..8); the new top is face down."
        for s in SHOALS:
            if self._face_up[s]:
                self._remove_top(s)
        self._day_effects()
        # 4. "Every boat at sea with depth ≥ 2 moves up one depth (port stays port)."
        for seat in self._seats:
            if seat.depth >= 2:
                seat.depth -= 1
        # 5. "Reset: passed, shops_used, reel_used, caught_today false for everyone;
        # last_turns null; the Life Preserver returns to the supply (holder null)."
        for seat in self._seats:
            seat.passed = False
            seat.shops_used = [False] * 4
            seat.reel_used = False
            seat.caught_today = False
        self._last_turns = None
        self._life_preserver = None
        # 6. "If the sea is empty, the game ends (§8)."
        self._check_the_sea()

    def _day_effects(self) -> None:
        """§6.1 step 3: the weekday's effect.

        "Day 3 and day 5: every Can of Worms face up. Day 4: every seat gains $3. Day 6: colour =
        the first of O, G, B with at least n dice in the bag (none if no colour has n); each seat
        in turn order from the first player moves one die of that colour from the bag to its
        Spent pool (no roll)."
        """
        if self._day in (3, 5):
            for seat in self._seats:
                seat.worms = True
        elif self._day == 4:
            for p in range(self._n):
                self._gain(p, CARDS.payday)
        elif self._day == 6:
            colour = next((c for c in (2, 1, 0) if self._bag[c] >= self._n), None)
            if colour is not None:
                for p in self._turn_order():
                    self._bag[colour] -= 1
                    self._add_spent(p, TACKLE_KINDS[colour])

    # ----- §6.2 Refresh phase -----

    def _refresh_phase(self) -> Flow:
        """§6.2 Refresh phase.

        "For each seat p in turn order from the first player: Muster(p). Then the giver = the seat
        with the highest total of Fresh faces (ties: first in turn order from the first player)
        gets node life_preserver: legal = every other seat; the chosen seat holds the Life
        Preserver."
        """
        self._phase = "refresh"
        for p in self._turn_order():
            yield from self._muster(p)
        giver = max(
            self._turn_order(),
            key=lambda p: (sum(die_face(c) for c in self._seats[p].fresh), -self._order_rank(p)),
        )
        others = [GIVE_TO + s for s in range(self._n) if s != giver]
        action = yield decision("life_preserver", giver, others)
        self._life_preserver = action - GIVE_TO

    # ----- §6.3 Declaration phase -----

    def _declaration_phase(self) -> Flow:
        """§6.3 Declaration phase (not on the first day), seat by seat from the first player."""
        self._phase = "declaration"
        for p in self._turn_order():
            yield from self._declare(p)
            yield from self._equip(p, "rod", "equip_rod")
            yield from self._equip(p, "reel", "equip_reel")

    def _declare(self, p: int) -> Flow:
        """§6.3 step 1.

        "If p is in port (depth 0): depth = 1 automatically. Otherwise node declare: 1 = stay at
        sea, 2 = make port → MakePort(p)."
        """
        seat = self._seats[p]
        if not seat.at_sea:
            seat.depth = 1
            return
        action = yield decision("declare", p, [STAY_AT_SEA, MAKE_PORT])
        if action == MAKE_PORT:
            yield from self._make_port(p)

    def _equip(self, p: int, kind: Literal["rod", "reel"], node: NodeKind) -> Flow:
        """§6.3 steps 2 and 3.

        "Rod: if p owns ≥ 2 rods, node equip_rod (legal: p's rods); if exactly 1, it is equipped
        automatically; with none, nothing. Reel: the same with reels."
        """
        seat = self._seats[p]
        owned = sorted(seat.owned[kind])
        if not owned:
            return
        if len(owned) == 1:
            chosen = owned[0]
        else:
            action = yield decision(node, p, [ITEM_BASE[kind] + i for i in owned])
            chosen = action - ITEM_BASE[kind]
        if kind == "rod":
            seat.rod = chosen
        else:
            seat.reel = chosen

    # ----- §6.4 Actions phase -----

    def _actions_phase(self) -> Flow:
        """§6.4 Actions phase.

        "turn = first player, then Arrive(turn)." "Arrive(p): if p has passed → Reward(p), then
        Advance. Else node turn for p." "Advance: if every seat has passed, the day ends. Else
        turn = turn + 1 mod n; Arrive(turn)."
        """
        self._phase = "actions"
        self._turn = self._first_player
        while True:
            p = self._turn
            if self._seats[p].passed:
                yield from self._reward(p)
            else:
                day_ends = yield from self._take_turn(p)
                if day_ends:
                    return
            if all(seat.passed for seat in self._seats):
                return
            self._turn = (p + 1) % self._n

    def _take_turn(self, p: int) -> TurnFlow:
        """§7.3 The turn node: free actions, then one main action; tells whether the day ends.

        "Free actions (12, 13, 50+c, 100+d, 125+i) return to the turn node. Every other action is
        the turn's main action." "Decision: free actions are taken only before the main action
        (the turn ends with it)."
        """
        while True:
            action = yield decision("turn", p, self._turn_actions(p))
            if DIE <= action < DIE + len(DIE_CLASSES):
                self._drop_sinker(p, action - DIE)
            elif self._is_item_action(action):
                yield from self._use_item(p, action)
            else:
                break
        if action == PASS:
            yield from self._pass(p)
            return False
        if action == ABANDON_SHIP:
            yield from self._abandon_ship(p)
        elif action == SELL:
            yield from self._sell(p)
        elif action == MOUNT:
            yield from self._mount(p)
        elif SHOP <= action < SHOP + 12:
            yield from self._shop(p, (action - SHOP) // 3, (action - SHOP) % 3)
        elif CAST <= action < CAST + 9:
            yield from self._cast(p, action - CAST, with_worms=False)
        else:
            yield from self._cast(p, action - CAST_WITH_WORMS, with_worms=True)
        return self._end_turn(abandoned=action == ABANDON_SHIP)

    def _turn_actions(self, p: int) -> list[int]:
        """§7.3: the legal actions at the turn node, each if its condition holds."""
        seat = self._seats[p]
        legal = [PASS]  # "0 pass: always"
        if seat.at_sea:
            # "3 abandon ship: at sea, lifeboat unused"
            if not seat.lifeboat_used:
                legal.append(ABANDON_SHIP)
            # "32+s cast at shoal s: at sea, p has a Fresh die, shoal s non-empty, depth(s) ≤
            # p's depth"; "41+s: as 32+s, and Can of Worms face up and the top of s face down"
            if seat.fresh:
                for s in SHOALS:
                    if self._shoals[s] and shoal_depth(s) <= seat.depth:
                        legal.append(CAST + s)
                        if seat.worms and not self._face_up[s]:
                            legal.append(CAST_WITH_WORMS + s)
            # "50+c drop a sinker with die c: at sea, depth < 3, p has class c in Fresh"
            if seat.depth < DEEPEST:
                legal += [DIE + c for c in sorted(set(seat.fresh))]
        else:
            # "10 sell: in port, p holds a sellable fish"; "11 mount: in port, p has an empty
            # slot and holds a mountable fish"
            if self._sellable_fish(p):
                legal.append(SELL)
                if None in seat.mounted:
                    legal.append(MOUNT)
            # "82+3k+t shop k at tier t: in port, shops_used[k] false, price ≤ money, and the
            # source is non-empty"
            for k in range(4):
                for t in range(3):
                    if self._shop_open(p, k, t):
                        legal.append(SHOP + 3 * k + t)
        legal += self._item_actions(p, "turn")
        return sorted(legal)

    def _drop_sinker(self, p: int, c: int) -> None:
        """§7.3 "Sinker: spend die c; depth += 1"."""
        self._spend(p, c)
        self._seats[p].depth += 1

    def _end_turn(self, *, abandoned: bool) -> bool:
        """§6.4 EndTurn(p); tells whether the day ends at once.

        "pending shop discount = 0; if last_turns is not null: unless the main action was abandon
        ship, last_turns -= 1, and if it is now 0 the day ends at once; then Advance."
        """
        self._ctx.discount = 0
        if self._last_turns is not None and not abandoned:
            self._last_turns -= 1
            return self._last_turns == 0
        return False

    def _pass(self, p: int) -> Flow:
        """§6.4 Pass.

        "passed[p] = true; if exactly one seat q has not passed, last_turns = 2; pending shop
        discount = 0; Reward(p); Advance."
        """
        self._seats[p].passed = True
        if sum(not seat.passed for seat in self._seats) == 1:
            self._last_turns = 2
        self._ctx.discount = 0
        yield from self._reward(p)

    def _reward(self, p: int) -> Flow:
        """§6.4 Reward(p), for passing and for every skipped turn.

        "draw-a-dink is possible if the dink deck or dink discard pile is non-empty; discarding is
        possible if p holds a regret. If neither, nothing happens. Else node reward, legal: 8 =
        draw a dink (DrawDinks(p)) if possible, 9 = discard a random regret (chance
        discard_random_regret) if possible."
        """
        legal = []
        if self._deck["dink"] or self._discard["dink"]:
            legal.append(DRAW_A_DINK)
        if self._seats[p].regret_count:
            legal.append(DISCARD_RANDOM_REGRET)
        if not legal:
            return
        action = yield decision("reward", p, legal)
        if action == DRAW_A_DINK:
            yield from self._draw_dinks(p)
        else:
            yield from self._discard_random_regret(p)

    # ==================================================================================
    # §7.1 Muster, §7.2 MakePort, abandon ship
    # ==================================================================================

    def _muster(self, p: int) -> Flow:
        """§7.1 Muster(p) (Refresh phase and MakePort), steps 1 to 4."""
        seat = self._seats[p]
        ctx = self._ctx
        # 1. "If p has a Fresh die: node muster_select (legal: 0 = roll now; 50+c for each class
        # c in p's Fresh pool). A chosen die moves from Fresh to ctx.to_roll; the node repeats
        # until 0 is chosen or Fresh is empty."
        while seat.fresh:
            ctx.left = None
            action = yield decision("muster_select", p, [ROLL_NOW, *self._fresh_actions(p)])
            ctx.left = 0
            if action == ROLL_NOW:
                break
            seat.fresh.remove(action - DIE)
            ctx.to_roll = sorted([*ctx.to_roll, die_kind(action - DIE)])
        # 2. "All of p's Spent dice move to ctx.to_roll (Spent becomes empty)."
        ctx.to_roll = sorted(ctx.to_roll + seat.spent)
        seat.spent = []
        # 3. "While ctx.to_roll is non-empty: chance roll of its first die (kind order) ... the die
        # leaves to_roll and joins ctx.rolled."
        while ctx.to_roll:
            kind = ctx.to_roll[0]
            face = yield chance("roll", p, face_weights(kind))
            ctx.to_roll.pop(0)
            ctx.rolled = sorted([*ctx.rolled, die_class(kind, face)])
        yield from self._keep_rolled_dice(p)

    def _keep_rolled_dice(self, p: int) -> Flow:
        """§7.1 step 4: keep rolled dice as Fresh up to the max.

        "room = max(0, max_fresh(p) - |Fresh|). If |rolled| ≤ room, all rolled dice go to Fresh.
        Else if room = 0, all go to Spent. Else node muster_keep (legal: 50+c for classes in
        rolled; ctx.left = room still to fill): the chosen die goes to Fresh; repeated until room
        is filled; the rest go to Spent."
        """
        seat = self._seats[p]
        ctx = self._ctx
        room = max(0, self._max_fresh(p) - len(seat.fresh))
        if len(ctx.rolled) > room:
            while room > 0:
                ctx.left = room
                action = yield decision("muster_keep", p, {DIE + c for c in ctx.rolled})
                ctx.left = 0
                ctx.rolled.remove(action - DIE)
                self._add_fresh(p, action - DIE)
                room -= 1
            for c in ctx.rolled:
                self._add_spent(p, die_kind(c))
        else:
            for c in ctx.rolled:
                self._add_fresh(p, c)
        ctx.rolled = []

    def _make_port(self, p: int) -> Flow:
        """§7.2 MakePort(p) (declaration "make port", or abandon ship).

        "depth = 0; Muster(p); Can of Worms face up; if p holds a regret: node port_discard
        (legal: 0 = keep all; 70+v for each value v p holds): the chosen regret goes to the regret
        discard pile."
        """
        seat = self._seats[p]
        seat.depth = PORT
        yield from self._muster(p)
        seat.worms = True
        if seat.regret_count:
            action = yield decision("port_discard", p, [KEEP_ALL, *self._regret_actions(p)])
            if action != KEEP_ALL:
                self._discard_regret(p, action - REGRET)

    def _abandon_ship(self, p: int) -> Flow:
        """§7.3 Abandon ship.

        "lifeboat used; if last_turns is not null it becomes 4; MakePort(p); EndTurn(p)."
        """
        self._seats[p].lifeboat_used = True
        if self._last_turns is not None:
            self._last_turns = 4
        yield from self._make_port(p)

    # ==================================================================================
    # §7.3 Port actions: sell, mount, shop
    # ==================================================================================

    def _sell(self, p: int) -> Flow:
        """§7.3 Sell (10).

        "node sell (legal: 165+f for each sellable fish in p's hand, and 0 = done once ctx.count ≥
        1). Selling f: p gains value(f, p); f goes to its depth's discard pile; ctx.count += 1; if
        f is foul, ctx.foul += 1. The node repeats until 0, or automatically ends when p holds no
        sellable fish. Then ctx.count and ctx.foul reset to 0, p draws one regret per foul fish
        sold."
        """
        seat = self._seats[p]
        ctx = self._ctx
        while sellable := self._sellable_fish(p):
            legal = [FISH + f for f in sellable] + ([DONE] if ctx.count >= 1 else [])
            action = yield decision("sell", p, legal)
            if action == DONE:
                break
            f = action - FISH
            self._gain(p, self._value(f, p))
            seat.hand.remove(f)
            self._fish_discard[CARDS.fish[f].depth - 1].append(f)
            ctx.count += 1
            if CARDS.fish[f].alignment == "foul":
                ctx.foul += 1
        foul = ctx.foul
        ctx.count = 0
        ctx.foul = 0
        for _ in range(foul):
            yield from self._draw_regret(p)

    def _mount(self, p: int) -> Flow:
        """§7.3 Mount (11).

        "node mount_slot (legal: 79+k for each empty slot k, and 0 = done once ctx.count ≥ 1);
        then node mount_fish with ctx.slot = k (legal: 165+f for each mountable fish in hand): f
        goes to slot k, ctx.count += 1, ctx.slot = null. Back to mount_slot unless p has no empty
        slot or no mountable fish left. Then ctx.count resets."
        """
        seat = self._seats[p]
        ctx = self._ctx
        while None in seat.mounted and self._sellable_fish(p):
            empty = [SLOT + k for k in SLOTS if seat.mounted[k] is None]
            action = yield decision("mount_slot", p, empty + ([DONE] if ctx.count >= 1 else []))
            if action == DONE:
                break
            ctx.slot = action - SLOT
            action = yield decision("mount_fish", p, [FISH + f for f in self._sellable_fish(p)])
            f = action - FISH
            seat.hand.remove(f)
            seat.mounted[ctx.slot] = f
            ctx.count += 1
            ctx.slot = None
        ctx.count = 0

    def _shop_price(self, p: int, k: int, t: int) -> int:
        """§7.3: the price of shop k at tier t for p.

        "price = max(0, tier price - the shop_discount of p's madness tier - pending discount)".
        """
        tier = CARDS.shops[k][t]
        return max(0, tier.price - self._madness(p).shop_discount - self._ctx.discount)

    def _shop_open(self, p: int, k: int, t: int) -> bool:
        """§7.3: whether p may visit shop k at tier t.

        "shops_used[k] false, price ≤ money, and the source is non-empty (card shops: deck or
        discard; tackle: bag)".
        """
        seat = self._seats[p]
        if seat.shops_used[k] or self._shop_price(p, k, t) > seat.money:
            return False
        if k == TACKLE_SHOP:
            return sum(self._bag) > 0
        item_kind = SHOP_ITEMS[k]
        return bool(self._deck[item_kind] or self._discard[item_kind])

    def _shop(self, p: int, k: int, t: int) -> Flow:
        """§7.3 Shop k at tier t.

        "money -= price; pending discount = 0; shops_used[k] = true." Then the card shop or the
        tackle shop.
        """
        seat = self._seats[p]
        seat.money -= self._shop_price(p, k, t)
        self._ctx.discount = 0
        seat.shops_used[k] = True
        if k == TACKLE_SHOP:
            yield from self._buy_tackle(p, CARDS.shops[k][t].dice)
        else:
            yield from self._buy_cards(p, k, CARDS.shops[k][t])

    def _buy_cards(self, p: int, k: int, tier: ShopTier) -> Flow:
        """§7.3 Card shop.

        "ctx.shop = {shop k, drawn []}; draw = tier draw times: if the deck is empty, move the
        discard pile into it; if still empty, stop; else chance draw_rod/draw_reel/draw_supply
        (outcome = item id, weight 1) appends to drawn. keep = min(tier keep, |drawn|). If keep =
        |drawn|, all go to p. Else node shop_keep (legal: the shop's item range + id for each card
        in drawn; ctx.left = cards still to keep): the chosen card goes to p and leaves drawn;
        repeated keep times; the rest go back into the deck. ctx.shop = null."
        """
        item_kind = SHOP_ITEMS[k]
        node: NodeKind = "draw_rod" if k == 0 else "draw_reel" if k == 1 else "draw_supply"
        visit = ShopVisit(k)
        self._ctx.shop = visit
        owned = self._seats[p].owned[item_kind]
        for _ in range(tier.draw):
            self._reshuffle_if_empty(item_kind)
            if not self._deck[item_kind]:
                break
            card = yield chance(node, p, ((i, 1) for i in self._deck[item_kind]))
            self._deck[item_kind].remove(card)
            visit.drawn.append(card)
        keep = min(tier.keep, len(visit.drawn))
        if keep == len(visit.drawn):
            owned.update(visit.drawn)
            visit.drawn = []
        else:
            base = ITEM_BASE[item_kind]
            for still in range(keep, 0, -1):
                self._ctx.left = still
                action = yield decision("shop_keep", p, [base + i for i in visit.drawn])
                self._ctx.left = 0
                visit.drawn.remove(action - base)
                owned.add(action - base)
            self._deck[item_kind].update(visit.drawn)
        self._ctx.shop = None

    def _buy_tackle(self, p: int, dice: int) -> Flow:
        """§7.3 Tackle shop.

        "repeat min(tier dice, dice in bag) times: chance draw_bag (outcome colour 0 = B, 1 = G,
        2 = O, weight = that colour's count in the bag); the die leaves the bag; if |Fresh| <
        max_fresh(p), it goes to ctx.to_roll and is rolled at once (chance roll) into Fresh, else
        it goes to Spent unrolled."
        """
        for _ in range(min(dice, sum(self._bag))):
            colour = yield chance("draw_bag", p, enumerate(self._bag))
            self._bag[colour] -= 1
            kind = TACKLE_KINDS[colour]
            if len(self._seats[p].fresh) < self._max_fresh(p):
                self._ctx.to_roll = [kind]
                yield from self._roll_into_fresh(p)
            else:
                self._add_spent(p, kind)

    # ==================================================================================
    # §7.4 Cast
    # ==================================================================================

    def _cast(self, p: int, s: int, *, with_worms: bool) -> Flow:
        """§7.4 Cast, steps 1 to 7."""
        ctx = self._ctx
        # 1. "ctx.cast = {shoal s, reduction 0, zero false, payment []}."
        ctx.cast = Cast(s)
        # 2. "With the Can of Worms (41+s): Can of Worms face down; ctx.peek = the top fish; node
        # worms (4 = leave it on top, 5 = put it at the bottom of shoal s); ctx.peek = null."
        if with_worms:
            self._seats[p].worms = False
            ctx.peek = self._shoals[s][0]
            action = yield decision("worms", p, [LEAVE_ON_TOP, PUT_AT_BOTTOM])
            ctx.peek = None
            if action == PUT_AT_BOTTOM:
                self._shoals[s].append(self._shoals[s].pop(0))
                self._forget(s)
        # 3. "Reveal: if the top of s is face down, it turns face up."
        if not self._face_up[s]:
            self._face_up[s] = True
            self._forget(s)
        # 4. "Step 1: if the top fish is special, it goes to its depth's discard pile (the next
        # top is face down), ctx.cast = null, and the cast is over: if the sea is empty the game
        # ends, else EndTurn(p)."
        if "special" in CARDS.fish[self._shoals[s][0]].flags:
            self._remove_top(s)
            ctx.cast = None
            self._check_the_sea()
            return
        yield from self._pay(p)

    def _pay(self, p: int) -> Flow:
        """§7.4 step 5: node pay, repeated until catch (6) or decline (7).

        "50+c = add a Fresh die of class c to the payment (it leaves Fresh)"; "12, 13, 100+d,
        125+i as at the turn node". "Decision: a die put into the payment cannot be taken back."
        """
        cast = self._ctx.cast
        assert cast is not None
        while True:
            action = yield decision("pay", p, self._pay_actions(p))
            if action == CATCH:
                yield from self._catch(p)
                return
            if action == DECLINE:
                yield from self._decline(p)
                return
            if DIE <= action < DIE + len(DIE_CLASSES):
                self._seats[p].fresh.remove(action - DIE)
                cast.payment = sorted([*cast.payment, action - DIE])
            else:
                yield from self._use_item(p, action)

    def _pay_actions(self, p: int) -> list[int]:
        """§7.4 step 5: the legal actions at the pay node.

        "6 = catch, if complete; 7 = decline, always; 50+c = add a Fresh die of class c to the
        payment, if not complete and (exact N: |payment| < N; otherwise Σ faces < D)."
        """
        cast = self._ctx.cast
        assert cast is not None
        fish = CARDS.fish[self._shoals[cast.shoal][0]]
        legal = [DECLINE]
        if self._payment_complete(p):
            legal.append(CATCH)
        else:
            paid = sum(die_face(c) for c in cast.payment)
            if fish.exact_dice is not None:
                can_add = len(cast.payment) < fish.exact_dice
            else:
                can_add = paid < self._effective_difficulty(p)
            if can_add:
                legal += self._fresh_actions(p)
        legal += self._item_actions(p, "pay")
        return sorted(legal)

    def _effective_difficulty(self, p: int) -> int:
        """§7.4 step 5: the effective difficulty D of the cast fish for its caster p.

        "D = 0 if zero, else max(0, base + rod + reduction), with base = printed difficulty (null
        = 0), rod = the amount of the equipped rod's passive if its when matches this fish,
        reduction = sum of used difficulty amounts."
        """
        cast = self._ctx.cast
        assert cast is not None
        if cast.zero:
            return 0
        fish = CARDS.fish[self._shoals[cast.shoal][0]]
        base = fish.difficulty or 0
        return max(0, base + self._rod_modifier(p, fish) + cast.reduction)

    def _rod_modifier(self, p: int, fish: Fish) -> int:
        """§2.1: the difficulty change of p's equipped rod for ``fish``.

        The rod passive "applies to every cast while the rod is equipped, if when matches: {} all
        fish, {alignment: a}, {size: s}, {first_catch: true} = p has caught no fish today".
        """
        seat = self._seats[p]
        if seat.rod is None:
            return 0
        total = 0
        for effect in CARDS.items["rod"][seat.rod].passive:
            if effect.kind != "difficulty":
                continue
            if effect.when_alignment is not None and effect.when_alignment != fish.alignment:
                continue
            if effect.when_size is not None and effect.when_size != fish.size:
                continue
            if effect.when_first_catch and seat.caught_today:
                continue
            total += effect.amount
        return total

    def _payment_complete(self, p: int) -> bool:
        """§7.4: "complete iff (exact N: |payment| = N and Σ faces ≥ D; otherwise Σ faces ≥ D)"."""
        cast = self._ctx.cast
        assert cast is not None
        fish = CARDS.fish[self._shoals[cast.shoal][0]]
        paid = sum(die_face(c) for c in cast.payment)
        enough = paid >= self._effective_difficulty(p)
        if fish.exact_dice is not None:
            return len(cast.payment) == fish.exact_dice and enough
        return enough

    def _catch(self, p: int) -> Flow:
        """§7.4 step 6 Catch.

        "the payment dice are spent; the top fish moves to p's hand (the next top is face down);
        caught_today = true; ctx.cast = null. If shoal s is now empty, p draws 1 regret
        (overfishing). Then if the sea is empty the game ends, else EndTurn(p)."
        """
        cast = self._ctx.cast
        assert cast is not None
        seat = self._seats[p]
        for c in cast.payment:
            self._return_spent_die(p, c)
        s = cast.shoal
        seat.hand.add(self._shoals[s].pop(0))
        self._face_up[s] = False
        self._forget(s)
        seat.caught_today = True
        self._ctx.cast = None
        if not self._shoals[s]:
            for _ in range(CARDS.overfishing_regrets):
                yield from self._draw_regret(p)
        self._check_the_sea()

    def _decline(self, p: int) -> Flow:
        """§7.4 step 7 Decline.

        "the payment dice return to Fresh; ctx.cast = null. If p has a Fresh die, node
        decline_die (legal: 50+c for each Fresh class): that die is spent and p DrawDinks. (With
        no Fresh die, nothing is spent or drawn.) The fish stays face up."
        """
        cast = self._ctx.cast
        assert cast is not None
        for c in cast.payment:
            self._add_fresh(p, c)
        self._ctx.cast = None
        if self._seats[p].fresh:
            action = yield decision("decline_die", p, self._fresh_actions(p))
            self._spend(p, action - DIE)
            yield from self._draw_dinks(p)

    # ==================================================================================
    # §7.5 Draws and discards
    # ==================================================================================

    def _draw_regret(self, p: int) -> Flow:
        """§7.5 DrawRegret(p) (one card).

        "if the regret deck is empty, the regret discard pile moves into it. If the deck is
        non-empty: chance draw_regret (outcome value v, weight = copies of v in the deck). Else
        the victim = the other seat with the most regret cards, ties: first in seat order after p
        (p+1, p+2, …); if the victim has none, nothing happens; else chance steal_regret (outcome
        v, weight = the victim's copies of v): the card moves to p."
        """
        if not sum(self._regret_deck):
            self._regret_deck = self._regret_discard
            self._regret_discard = [0, 0, 0, 0]
        if sum(self._regret_deck):
            v = yield chance("draw_regret", p, enumerate(self._regret_deck))
            self._regret_deck[v] -= 1
            self._seats[p].regrets[v] += 1
            return
        others = [(p + i) % self._n for i in range(1, self._n)]
        victim = max(others, key=lambda q: (self._seats[q].regret_count, -others.index(q)))
        if not self._seats[victim].regret_count:
            return
        v = yield chance("steal_regret", p, enumerate(self._seats[victim].regrets), about=victim)
        self._seats[victim].regrets[v] -= 1
        self._seats[p].regrets[v] += 1

    def _discard_random_regret(self, p: int) -> Flow:
        """§7.5 Random discard.

        "chance discard_random_regret (outcome v, weight = p's copies of v) → regret discard
        pile."
        """
        v = yield chance("discard_random_regret", p, enumerate(self._seats[p].regrets))
        self._discard_regret(p, v)

    def _draw_dinks(self, p: int) -> Flow:
        """§7.5 DrawDinks(p).

        "k = 3 if p's equipped reel has the dink_draw passive, else 1; k times: if the dink deck
        is empty, the dink discard pile moves into it; if still empty, nothing; else chance
        draw_dink (outcome dink id, weight 1) → p's dinks."
        """
        seat = self._seats[p]
        k = 1
        if seat.reel is not None:
            for effect in CARDS.items["reel"][seat.reel].passive:
                if effect.kind == "dink_draw":
                    k = effect.amount
        for _ in range(k):
            self._reshuffle_if_empty("dink")
            if not self._deck["dink"]:
                continue
            d = yield chance("draw_dink", p, ((d, 1) for d in self._deck["dink"]))
            self._deck["dink"].remove(d)
            seat.owned["dink"].add(d)

    def _reshuffle_if_empty(self, kind: ItemKind) -> None:
        """§4: reshuffles an empty item deck.

        "reshuffle = move the discard pile into the deck, done automatically right before a draw
        that finds the deck empty".
        """
        if not self._deck[kind]:
            self._deck[kind] = self._discard[kind]
            self._discard[kind] = set()

    def _discard_regret(self, p: int, v: int) -> None:
        """A regret of value v of p goes to the regret discard pile."""
        self._seats[p].regrets[v] -= 1
        self._regret_discard[v] += 1

    # ==================================================================================
    # Items (§2.1, §7.3 item use, §7.6 effect nodes)
    # ==================================================================================

    def _is_item_action(self, action: int) -> bool:
        """Whether ``action`` uses an item at a turn or pay node (12, 13, 100+d, 125+i)."""
        return action in (USE_LIFE_PRESERVER, USE_REEL) or DINK <= action < ROD

    def _item_for_action(self, p: int, action: int) -> tuple[UsedItem, Item]:
        """The item an item action uses, with its ``ctx.item`` kind."""
        if action == USE_LIFE_PRESERVER:
            return "life_preserver", CARDS.life_preserver
        if action == USE_REEL:
            reel = self._seats[p].reel
            assert reel is not None
            return "reel", CARDS.items["reel"][reel]
        if action < SUPPLY:
            return "dink", CARDS.items["dink"][action - DINK]
        return "supply", CARDS.items["supply"][action - SUPPLY]

    def _item_actions(self, p: int, at: Literal["turn", "pay"]) -> list[int]:
        """§7.3: the items p may use at a turn or pay node.

        "12 use the Life Preserver: p holds it and one of its uses is ready"; "13 use the equipped
        reel: a reel is equipped, reel_used false, one of its uses is ready"; "100+d use dink d:
        p holds d and one of its uses is ready"; "125+i use supply i: p holds i and one of its
        uses is ready".
        """
        seat = self._seats[p]
        legal = []
        if self._life_preserver == p and self._ready_use(p, CARDS.life_preserver, at):
            legal.append(USE_LIFE_PRESERVER)
        if (
            seat.reel is not None
            and not seat.reel_used
            and self._ready_use(p, CARDS.items["reel"][seat.reel], at)
        ):
            legal.append(USE_REEL)
        for kind in ("dink", "supply"):
            for i in sorted(seat.owned[kind]):
                if self._ready_use(p, CARDS.items[kind][i], at):
                    legal.append(ITEM_BASE[kind] + i)
        return legal

    def _ready_use(self, p: int, item: Item, at: Literal["turn", "pay"]) -> Use | None:
        """§2.1: the first ready use of ``item`` for p, or None.

        "A use is ready iff every primitive in it is ready. An item may be used iff the player has
        it and one of its uses is ready; the first ready use is applied." Step-2 items (uses null)
        and items without a use never are.
        """
        for use in item.uses or ():
            if all(self._effect_ready(p, effect, at) for effect in use):
                return use
        return None

    def _effect_ready(self, p: int, effect: Effect, at: Literal["turn", "pay"]) -> bool:
        """§2.1 "ready when" of each primitive."""
        seat = self._seats[p]
        match effect.kind:
            case "difficulty" | "difficulty_zero":
                # "at a pay node and the effective difficulty > 0"
                return at == "pay" and self._effective_difficulty(p) > 0
            case "shop_discount":
                # "at the turn node, p in port"
                return at == "turn" and not seat.at_sea
            case "draw_regret":
                return True  # "always"
            case "discard_regret" | "discard_random_regret":
                return seat.regret_count >= 1  # "p holds ≥ 1 regret"
            case "refresh":
                # "p has a Spent die and fewer Fresh dice than max"
                return bool(seat.spent) and len(seat.fresh) < self._max_fresh(p)
            case "reroll":
                return bool(seat.fresh)  # "p has a Fresh die"
            case "reroll_low":
                # "some Fresh die shows ≤ at_most"
                return any(die_face(c) <= effect.at_most for c in seat.fresh)
            case "set_max":
                # "some Fresh die is below its highest face"
                return any(self._below_top(c) for c in seat.fresh)
            case "depth_down":
                # "at the turn node, p at sea, depth < 3"
                return at == "turn" and seat.at_sea and seat.depth < DEEPEST
            case "depth_to":
                # "at the turn node, p at sea, depth ≠ depth"
                return at == "turn" and seat.at_sea and seat.depth != effect.depth
            case "peek":
                # "some shoal is non-empty, its top face down, and not yet known to p"
                return any(self._peekable(p, s) for s in SHOALS)
        return False

    def _use_item(self, p: int, action: int) -> Flow:
        """§7.3 Item use (turn or pay node).

        "the item leaves p (a dink or supply goes to its discard pile; the Life Preserver's holder
        becomes null; a reel stays equipped and reel_used = true); ctx.item is set; the first
        ready use is applied primitive by primitive; then ctx.item = null and the same node (turn
        or pay) is asked again."
        """
        at: Literal["turn", "pay"] = "pay" if self._ctx.cast is not None else "turn"
        kind, item = self._item_for_action(p, action)
        use = self._ready_use(p, item, at)
        assert use is not None
        seat = self._seats[p]
        if kind == "dink" or kind == "supply":
            assert item.id is not None
            seat.owned[kind].remove(item.id)
            self._discard[kind].add(item.id)
        elif kind == "life_preserver":
            self._life_preserver = None
        else:
            seat.reel_used = True
        self._ctx.item = (kind, item.id)
        for effect in use:
            yield from self._apply_effect(p, effect)
        self._ctx.item = None

    def _apply_effect(self, p: int, effect: Effect) -> Flow:
        """§7.6: one primitive of an item use."""
        seat = self._seats[p]
        ctx = self._ctx
        match effect.kind:
            case "difficulty":
                assert ctx.cast is not None
                ctx.cast.reduction += effect.amount  # "cast.reduction += amount"
            case "difficulty_zero":
                assert ctx.cast is not None
                ctx.cast.zero = True  # "cast.zero = true"
            case "shop_discount":
                ctx.discount += effect.amount  # "pending discount += amount"
            case "draw_regret":
                for _ in range(effect.amount):
                    yield from self._draw_regret(p)
            case "discard_regret":
                yield from self._discard_regrets_of_choice(p, effect.amount)
            case "discard_random_regret":
                # "amount times, while p holds a regret, a random discard"
                for _ in range(effect.amount):
                    if not seat.regret_count:
                        break
                    yield from self._discard_random_regret(p)
            case "refresh":
                yield from self._refresh(p, effect.amount)
            case "reroll":
                yield from self._reroll(p, effect.max)
            case "reroll_low":
                yield from self._reroll_low(p, effect.at_most)
            case "set_max":
                yield from self._set_max(p, effect.amount)
            case "depth_down":
                seat.depth = min(DEEPEST, seat.depth + effect.amount)
            case "depth_to":
                seat.depth = effect.depth
            case "peek":
                yield from self._peek(p, effect.target, effect.amount)

    def _discard_regrets_of_choice(self, p: int, amount: int) -> Flow:
        """§7.6 discard_regret.

        "for i = 1..amount, while p holds a regret: node discard_regret (legal 70+v for held
        values; ctx.left = amount - i + 1) → regret discard pile."
        """
        for i in range(1, amount + 1):
            if not self._seats[p].regret_count:
                break
            self._ctx.left = amount - i + 1
            action = yield decision("discard_regret", p, self._regret_actions(p))
            self._ctx.left = 0
            self._discard_regret(p, action - REGRET)

    def _refresh(self, p: int, amount: int) -> Flow:
        """§7.6 refresh.

        "for i = 1..amount, while p has a Spent die and |Fresh| < max_fresh(p): node refresh_die
        (legal 65+k for kinds k in Spent; ctx.left as above): that die moves to ctx.to_roll,
        chance roll, → Fresh."
        """
        seat = self._seats[p]
        for i in range(1, amount + 1):
            if not seat.spent or len(seat.fresh) >= self._max_fresh(p):
                break
            self._ctx.left = amount - i + 1
            action = yield decision("refresh_die", p, {DIE_KIND + k for k in seat.spent})
            self._ctx.left = 0
            seat.spent.remove(action - DIE_KIND)
            self._ctx.to_roll = [action - DIE_KIND]
            yield from self._roll_into_fresh(p)

    def _reroll(self, p: int, most: int | None) -> Flow:
        """§7.6 reroll.

        "node reroll_select (legal: 0 = roll now; 50+c for Fresh classes; ctx.left = max -
        selected so far, or null when max is null): the die moves to ctx.to_roll; repeats until
        0, until left reaches 0 or Fresh is empty; then each to_roll die is rolled (chance roll)
        back into Fresh."
        """
        seat = self._seats[p]
        ctx = self._ctx
        selected = 0
        while seat.fresh and (most is None or selected < most):
            ctx.left = None if most is None else most - selected
            action = yield decision("reroll_select", p, [ROLL_NOW, *self._fresh_actions(p)])
            ctx.left = 0
            if action == ROLL_NOW:
                break
            seat.fresh.remove(action - DIE)
            ctx.to_roll = sorted([*ctx.to_roll, die_kind(action - DIE)])
            selected += 1
        yield from self._roll_into_fresh(p)

    def _reroll_low(self, p: int, at_most: int) -> Flow:
        """§7.6 reroll_low.

        "every Fresh die showing ≤ at_most moves to ctx.to_roll; each is rolled with chance
        roll_high (outcomes = its kind's faces > at_most, weight = number of such faces) back into
        Fresh."
        """
        seat = self._seats[p]
        ctx = self._ctx
        low = [c for c in seat.fresh if die_face(c) <= at_most]
        for c in low:
            seat.fresh.remove(c)
        ctx.to_roll = sorted(die_kind(c) for c in low)
        while ctx.to_roll:
            kind = ctx.to_roll[0]
            face = yield chance("roll_high", p, face_weights(kind, above=at_most))
            ctx.to_roll.pop(0)
            self._add_fresh(p, die_class(kind, face))

    def _set_max(self, p: int, amount: int) -> Flow:
        """§7.6 set_max.

        "for i = 1..amount, while a Fresh die is below its top face: node set_max (legal 50+c for
        such classes; ctx.left): that die shows its top face."
        """
        seat = self._seats[p]
        for i in range(1, amount + 1):
            below = [c for c in seat.fresh if self._below_top(c)]
            if not below:
                break
            self._ctx.left = amount - i + 1
            action = yield decision("set_max", p, {DIE + c for c in below})
            self._ctx.left = 0
            kind = die_kind(action - DIE)
            seat.fresh.remove(action - DIE)
            self._add_fresh(p, die_class(kind, CARDS.dice[kind].top))

    def _peek(self, p: int, target: str, amount: int) -> Flow:
        """§7.6 peek.

        "shoal: for i = 1..amount, while some shoal is peekable (non-empty, top face down, not in
        known[p]): node peek_shoal (legal 32+s for peekable s; ctx.left): s joins known[p]. row /
        column: node peek_row (94+r) / peek_column (97+c), legal for rows/columns holding a
        peekable shoal, ctx.left = 1: all its peekable shoals join known[p]."
        """
        if target == "shoal":
            for i in range(1, amount + 1):
                peekable = [s for s in SHOALS if self._peekable(p, s)]
                if not peekable:
                    break
                self._ctx.left = amount - i + 1
                action = yield decision("peek_shoal", p, [CAST + s for s in peekable])
                self._ctx.left = 0
                self._known[p].add(action - CAST)
            return
        line = shoal_row if target == "row" else shoal_column
        base = ROW if target == "row" else COLUMN
        node: NodeKind = "peek_row" if target == "row" else "peek_column"
        lines = {line(s) for s in SHOALS if self._peekable(p, s)}
        self._ctx.left = 1
        action = yield decision(node, p, [base + x for x in lines])
        self._ctx.left = 0
        self._known[p].update(
            s for s in SHOALS if line(s) == action - base and self._peekable(p, s)
        )

    def _peekable(self, p: int, s: int) -> bool:
        """§7.6: shoal s is "non-empty, top face down, not in known[p]"."""
        return bool(self._shoals[s]) and not self._face_up[s] and s not in self._known[p]

    # ==================================================================================
    # §8 End of the game and scores
    # ==================================================================================

    def _end_the_game(self) -> None:
        """§8: regret values, the penalty, the scores; then the game is over.

        "phase = node = over, actor = turn = null, ctx at its defaults; everything else stays as
        it was."
        """
        self._phase = "over"
        self._turn = None
        self._ctx = Context()
        regret_value = [self._regret_value(p) for p in range(self._n)]
        discarded = self._regret_penalty(regret_value)
        scores = [self._final_score(p) for p in range(self._n)]
        self._end = EndResult(regret_value, discarded, scores)

    def _regret_value(self, p: int) -> int:
        """§8 step 1: "RV[p] = Σ values of p's regrets + 10 if p's lifeboat is used"."""
        seat = self._seats[p]
        total = sum(v * copies for v, copies in enumerate(seat.regrets))
        return total + (CARDS.lifeboat_regret_value if seat.lifeboat_used else 0)

    def _regret_penalty(self, regret_value: list[int]) -> list[int | None]:
        """§8 step 2.

        "Every seat with RV = max RV that has a mounted fish loses one: the mounted fish with the
        highest value(f, p) x multiplier (with 2 players: the lowest), ties: the lowest slot
        index. It goes to its depth's discard pile (seats in order 0..n-1)."
        """
        discarded: list[int | None] = [None] * self._n
        worst = max(regret_value)
        for p in range(self._n):
            seat = self._seats[p]
            slots = [k for k in SLOTS if seat.mounted[k] is not None]
            if regret_value[p] != worst or not slots:
                continue

            sign = 1 if self._n == 2 else -1  # the lowest with 2 players, else the highest
            k = min(slots, key=lambda k: (sign * self._mounted_points(p, k), k))
            f = seat.mounted[k]
            assert f is not None
            seat.mounted[k] = None
            self._fish_discard[CARDS.fish[f].depth - 1].append(f)
            discarded[p] = f
        return discarded

    def _mounted_points(self, p: int, k: int) -> int:
        """value(f, p) x the multiplier of slot k, for the fish f mounted in it."""
        f = self._seats[p].mounted[k]
        assert f is not None
        return self._value(f, p) * CARDS.mount_multipliers[k]

    def _final_score(self, p: int) -> int:
        """§8 step 3.

        "score[p] = Σ value(f, p) over the hand + Σ value(f, p) x multiplier over mounted fish +
        money div 2. Madness uses p's final regret count."
        """
        seat = self._seats[p]
        hand = sum(self._value(f, p) for f in seat.hand)
        mounted = sum(
            self._value(f, p) * CARDS.mount_multipliers[k]
            for k, f in enumerate(seat.mounted)
            if f is not None
        )
        return hand + mounted + seat.money // CARDS.money_per_point

    # ==================================================================================
    # Helpers: madness, values, dice, shoals, turn order
    # ==================================================================================

    def _madness(self, p: int) -> MadnessTier:
        """§3: the madness tier of p.

        "the last madness entry with min_regrets ≤ p's number of regret cards".
        """
        count = self._seats[p].regret_count
        return [tier for tier in CARDS.madness if tier.min_regrets <= count][-1]

    def _max_fresh(self, p: int) -> int:
        """§3: max_fresh(p) is the tier's max_fresh."""
        return self._madness(p).max_fresh

    def _value(self, f: int, p: int) -> int:
        """§3: value(f, p).

        "0 if value is null; 3 if fixed3; else max(0, value + tier's fair/foul modifier of f's
        alignment)".
        """
        fish = CARDS.fish[f]
        if fish.value is None:
            return 0
        if "fixed3" in fish.flags:
            return 3
        tier = self._madness(p)
        modifier = tier.fair if fish.alignment == "fair" else tier.foul
        return max(0, fish.value + modifier)

    def _sellable_fish(self, p: int) -> list[int]:
        """The sellable (= mountable) fish in p's hand, by id."""
        return sorted(f for f in self._seats[p].hand if CARDS.fish[f].sellable)

    def _gain(self, p: int, amount: int) -> None:
        """§3: "Money is capped: every gain sets money = min(10, money + gain)"."""
        seat = self._seats[p]
        seat.money = min(CARDS.money_cap, seat.money + amount)

    def _fresh_actions(self, p: int) -> list[int]:
        """50+c for each class c in p's Fresh pool."""
        return [DIE + c for c in sorted(set(self._seats[p].fresh))]

    def _regret_actions(self, p: int) -> list[int]:
        """70+v for each regret value v p holds."""
        return [REGRET + v for v, copies in enumerate(self._seats[p].regrets) if copies]

    def _add_fresh(self, p: int, c: int) -> None:
        """A die of class c joins p's Fresh pool."""
        self._seats[p].fresh = sorted([*self._seats[p].fresh, c])

    def _add_spent(self, p: int, kind: int) -> None:
        """A die of ``kind`` joins p's Spent pool."""
        self._seats[p].spent = sorted([*self._seats[p].spent, kind])

    def _spend(self, p: int, c: int) -> None:
        """§3 Spending a Fresh die of class c."""
        self._seats[p].fresh.remove(c)
        self._return_spent_die(p, c)

    def _return_spent_die(self, p: int, c: int) -> None:
        """§3: where a spent die of class c goes.

        "a P or M die goes to the owner's Spent pool, a B/G/O (tackle) die goes back to the bag".
        """
        kind = die_kind(c)
        if kind in TACKLE_KINDS:
            self._bag[TACKLE_KINDS.index(kind)] += 1
        else:
            self._add_spent(p, kind)

    def _roll_into_fresh(self, p: int) -> Flow:
        """Rolls every die of ``ctx.to_roll`` in kind order (chance ``roll``) into p's Fresh."""
        while self._ctx.to_roll:
            kind = self._ctx.to_roll[0]
            face = yield chance("roll", p, face_weights(kind))
            self._ctx.to_roll.pop(0)
            self._add_fresh(p, die_class(kind, face))

    def _below_top(self, c: int) -> bool:
        """Whether a die of class c shows less than its kind's top face."""
        return die_face(c) < CARDS.dice[die_kind(c)].top

    def _remove_top(self, s: int) -> None:
        """The top fish of shoal s goes to its depth's discard pile; the next top is face down."""
        f = self._shoals[s].pop(0)
        self._fish_discard[CARDS.fish[f].depth - 1].append(f)
        self._face_up[s] = False
        self._forget(s)

    def _forget(self, s: int) -> None:
        """§7.4: the top of shoal s changed or turned face up; nobody knows it any more.

        "Whenever the top card of shoal s changes (removed or moved) or turns face up, s leaves
        every seat's known set."
        """
        for known in self._known:
            known.discard(s)

    def _check_the_sea(self) -> None:
        """§3: "The sea is empty when all nine shoals are empty"; then the game ends at once."""
        if not any(self._shoals):
            raise SeaIsEmpty

    def _turn_order(self) -> list[int]:
        """§3: "Turn order from seat a: a, a+1, …, n-1, 0, …, a-1" (a = the first player)."""
        return [(self._first_player + i) % self._n for i in range(self._n)]

    def _order_rank(self, p: int) -> int:
        """The place of seat p in the turn order from the first player (0 = the first player)."""
        return (p - self._first_player) % self._n

    # ==================================================================================
    # Rule hooks
    # ==================================================================================

    def _current_player(self) -> int:
        if self._node is OVER:
            return TERMINAL
        if self._node.is_chance:
            return CHANCE
        assert self._node.actor is not None
        return self._node.actor

    def _legal_actions(self) -> list[int]:
        return list(self._node.legal)

    def _chance_outcomes(self) -> list[tuple[int, int]]:
        weights = self._node.weights
        if weights is None:
            return []
        return list(zip(self._node.legal, weights, strict=True))

    def _apply(self, action: int) -> None:
        try:
            self._node = self._flow.send(action)
        except StopIteration:
            self._node = OVER

    def clone(self) -> DeepRegretsState:
        """An independent copy, rebuilt by replaying the history (generators cannot be copied)."""
        twin: DeepRegretsState = self._game._initial_state()
        for action in self._history:
            twin._apply(action)
        twin._history = list(self._history)
        twin._rng = None if self._rng is None else SplitMix64(self._rng.state)
        return twin

    def __deepcopy__(self, memo: dict[int, object]) -> DeepRegretsState:
        return self.clone()

    def _scores(self) -> list[int]:
        """§8: "scores are 0 for every seat until the game is over", then the final scores."""
        if self._end is None:
            return [0] * self._n
        return list(self._end.scores)

    def _winners(self) -> list[int]:
        """§8 step 4: the winners.

        "highest score; ties: lower RV, then fewer regret cards; the rest share the win".
        """
        end = self._end
        assert end is not None

        def rank(p: int) -> tuple[int, int, int]:
            return (end.scores[p], -end.regret_value[p], -self._seats[p].regret_count)

        best = max(rank(p) for p in range(self._n))
        return [p for p in range(self._n) if rank(p) == best]

    # ----- labels (§10) -----

    def _action_label(self, action: int) -> str:
        node = self._node
        label = self._chance_label(action) if node.is_chance else self._decision_label(action)
        if label is not None:
            return label
        return f"outcome {action}" if node.is_chance else f"action {action}"

    def _chance_label(self, a: int) -> str | None:
        """§10 labels of the chance nodes (the whole outcome domain of §9)."""
        node = self._node
        kind = node.kind
        if kind == "deal" and a < len(CARDS.fish):
            return f"deal {fish_name(a)} to shoal {node.about}"
        if kind in ("roll", "roll_high") and a <= 4:
            return f"{KIND_LETTERS[self._ctx.to_roll[0]]} die rolls {a}"
        if kind == "draw_regret" and a <= 3:
            return f"draw a regret of value {a}"
        if kind == "steal_regret" and a <= 3:
            return f"take a regret of value {a} from seat {node.about}"
        if kind == "discard_random_regret" and a <= 3:
            return f"discard a random regret of value {a}"
        for item_kind in ITEM_KINDS:
            if kind == f"draw_{item_kind}" and a < ITEM_DECK_SIZE[item_kind]:
                return f"draw {CARDS.items[item_kind][a].name}"
        if kind == "draw_bag" and a <= 2:
            return f"draw a {('blue', 'green', 'orange')[a]} tackle die"
        return None

    def _decision_label(self, a: int) -> str | None:
        """§10 labels of the decision nodes."""
        kind = self._node.kind
        simple: dict[NodeKind, dict[int, str]] = {
            "muster_select": {ROLL_NOW: "roll"},
            "reroll_select": {ROLL_NOW: "roll"},
            "declare": {STAY_AT_SEA: "stay at sea", MAKE_PORT: "make port"},
            "port_discard": {KEEP_ALL: "keep all regrets"},
            "worms": {LEAVE_ON_TOP: "leave it on top", PUT_AT_BOTTOM: "put it at the bottom"},
            "pay": {CATCH: "catch", DECLINE: "decline"},
            "reward": {
                DRAW_A_DINK: "draw a dink",
                DISCARD_RANDOM_REGRET: "discard a random regret",
            },
            "sell": {DONE: "done selling"},
            "mount_slot": {DONE: "done mounting"},
            "turn": {PASS: "pass", ABANDON_SHIP: "abandon ship", SELL: "sell", MOUNT: "mount"},
        }
        if a in simple.get(kind, {}):
            return simple[kind][a]
        in_die = DIE <= a < DIE + len(DIE_CLASSES)
        d = die_string(a - DIE) if in_die else ""
        match kind:
            case "muster_select" | "reroll_select" if in_die:
                return f"reroll {d}"
            case "muster_keep" if in_die:
                return f"keep {d}"
            case "decline_die" if in_die:
                return f"spend {d} for a dink"
            case "set_max" if in_die:
                return f"set {d} to {CARDS.dice[die_kind(a - DIE)].top}"
            case "life_preserver" if GIVE_TO <= a < GIVE_TO + 5:
                return f"give the Life Preserver to seat {a - GIVE_TO}"
            case "port_discard" | "discard_regret" if REGRET <= a < REGRET + 4:
                return f"discard a regret of value {a - REGRET}"
            case "equip_rod" if ROD <= a < REEL:
                return f"equip {CARDS.items['rod'][a - ROD].name}"
            case "equip_reel" if REEL <= a < FISH:
                return f"equip {CARDS.items['reel'][a - REEL].name}"
            case "turn" | "pay":
                return self._turn_or_pay_label(a, kind == "pay", d)
            case "sell" if FISH <= a < FISH + len(CARDS.fish):
                return f"sell {fish_name(a - FISH)}"
            case "mount_fish" if FISH <= a < FISH + len(CARDS.fish):
                return f"mount {fish_name(a - FISH)}"
            case "mount_slot" if SLOT <= a < SLOT + 3:
                k = a - SLOT
                return f"mount in slot {k} (x{CARDS.mount_multipliers[k]})"
            case "shop_keep":
                return self._shop_keep_label(a)
            case "refresh_die" if DIE_KIND <= a < DIE_KIND + 5:
                return f"refresh a {KIND_LETTERS[a - DIE_KIND]} die"
            case "peek_shoal" if CAST <= a < CAST + 9:
                return f"peek at shoal {a - CAST}"
            case "peek_row" if ROW <= a < ROW + 3:
                return f"peek at depth {a - ROW + 1}"
            case "peek_column" if COLUMN <= a < COLUMN + 3:
                return f"peek at column {a - COLUMN}"
        return None

    def _turn_or_pay_label(self, a: int, at_pay: bool, d: str) -> str | None:
        """§10 ``turn`` and ``pay`` labels."""
        if a == USE_LIFE_PRESERVER:
            return "use the Life Preserver"
        if a == USE_REEL:
            return "use the equipped reel"
        if DINK <= a < SUPPLY:
            return f"use {CARDS.items['dink'][a - DINK].name}"
        if SUPPLY <= a < ROD:
            return f"use {CARDS.items['supply'][a - SUPPLY].name}"
        if d:
            return f"pay with {d}" if at_pay else f"drop a sinker with {d}"
        if at_pay:
            return None
        if CAST <= a < CAST + 9:
            return f"cast at shoal {a - CAST}"
        if CAST_WITH_WORMS <= a < CAST_WITH_WORMS + 9:
            return f"cast at shoal {a - CAST_WITH_WORMS} with the Can of Worms"
        if SHOP <= a < SHOP + 12:
            k, t = divmod(a - SHOP, 3)
            return f"{SHOP_NAMES[k]} shop ${CARDS.shops[k][t].price}"
        return None

    def _shop_keep_label(self, a: int) -> str | None:
        """§10 ``shop_keep``: "the shop's item range: keep {name}"."""
        shop = self._ctx.shop
        assert shop is not None
        item_kind = SHOP_ITEMS[shop.shop]
        i = a - ITEM_BASE[item_kind]
        if 0 <= i < ITEM_DECK_SIZE[item_kind]:
            return f"keep {CARDS.items[item_kind][i].name}"
        return None

    # ----- the observation (§11.3) -----

    def _observation(self, player: int) -> DeepRegretsObservation:
        """§11.3: what seat ``player`` may know.

        "Private: hands, dinks, supplies, regret values, shop draws, peeks. Public: money, dice,
        depth, rods and reels owned and equipped, mounted fish, discard piles, card counts,
        flags."
        """
        seats = self._seats
        me = seats[player]

        def names(kind: ItemKind, ids: Iterable[int]) -> list[str]:
            return [CARDS.items[kind][i].name for i in sorted(ids)]

        def optional_name(kind: ItemKind, i: int | None) -> str | None:
            return None if i is None else CARDS.items[kind][i].name

        end: EndObservation | None = None
        if self._end is not None:
            end = {
                "regret_value": list(self._end.regret_value),
                "discarded": [None if f is None else fish_name(f) for f in self._end.discarded],
            }
        return {
            "seat": player,
            "day": self._day,
            "phase": self._phase,
            "node": self._node.kind,
            "actor": self._node.actor,
            "turn": self._turn,
            "first_player": self._first_player,
            "last_turns": self._last_turns,
            "life_preserver": self._life_preserver,
            "current_player": self._current_player(),
            "money": [s.money for s in seats],
            "depth": [s.depth for s in seats],
            "regret_count": [s.regret_count for s in seats],
            "regrets": [v for v, copies in enumerate(me.regrets) for _ in range(copies)],
            "fresh": [[die_string(c) for c in s.fresh] for s in seats],
            "spent": [[KIND_LETTERS[k] for k in s.spent] for s in seats],
            "hand": [fish_name(f) for f in sorted(me.hand)],
            "hand_count": [len(s.hand) for s in seats],
            "mounted": [[None if f is None else fish_name(f) for f in s.mounted] for s in seats],
            "dinks": names("dink", me.owned["dink"]),
            "supplies": names("supply", me.owned["supply"]),
            "dink_count": [len(s.owned["dink"]) for s in seats],
            "supply_count": [len(s.owned["supply"]) for s in seats],
            "rods": [names("rod", s.owned["rod"]) for s in seats],
            "reels": [names("reel", s.owned["reel"]) for s in seats],
            "rod": [optional_name("rod", s.rod) for s in seats],
            "reel": [optional_name("reel", s.reel) for s in seats],
            "worms": [s.worms for s in seats],
            "lifeboat_used": [s.lifeboat_used for s in seats],
            "passed": [s.passed for s in seats],
            "reel_used": [s.reel_used for s in seats],
            "caught_today": [s.caught_today for s in seats],
            "shops_used": [list(s.shops_used) for s in seats],
            "shoals": [self._shoal_view(player, s) for s in SHOALS],
            "fish_discard": [[fish_name(f) for f in pile] for pile in self._fish_discard],
            "bag": list(self._bag),
            "decks": {
                "regret": sum(self._regret_deck),
                "regret_discard": sum(self._regret_discard),
                "dink": len(self._deck["dink"]),
                "dink_discard": len(self._discard["dink"]),
                "supply": len(self._deck["supply"]),
                "supply_discard": len(self._discard["supply"]),
                "rod": len(self._deck["rod"]),
                "rod_discard": len(self._discard["rod"]),
                "reel": len(self._deck["reel"]),
                "reel_discard": len(self._discard["reel"]),
            },
            "ctx": self._context_view(player),
            "scores": self._scores(),
            "end": end,
        }

    def _shoal_view(self, player: int, s: int) -> ShoalObservation:
        """Shoal s as ``player`` sees it.

        "size: cards left, top: name if the top is face up else null, known: name if the top is
        face down and in known[p] else null".
        """
        shoal = self._shoals[s]
        top = fish_name(shoal[0]) if shoal else None
        return {
            "size": len(shoal),
            "top": top if self._face_up[s] else None,
            "known": top if not self._face_up[s] and s in self._known[player] else None,
        }

    def _context_view(self, player: int) -> ContextObservation:
        """``ctx`` as ``player`` sees it (§11.3)."""
        ctx = self._ctx
        is_actor = self._node.actor == player
        cast: CastObservation | None = None
        if ctx.cast is not None:
            s = ctx.cast.shoal
            face_up = self._face_up[s] and bool(self._shoals[s])
            actor = self._node.actor
            assert actor is not None
            fish = CARDS.fish[self._shoals[s][0]] if face_up else None
            cast = {
                "shoal": s,
                "fish": None if fish is None else fish.name,
                "difficulty": None if fish is None else self._effective_difficulty(actor),
                "exact": None if fish is None else fish.exact_dice,
                "payment": [die_string(c) for c in ctx.cast.payment],
            }
        shop: ShopObservation | None = None
        if ctx.shop is not None:
            item_kind = SHOP_ITEMS[ctx.shop.shop]
            shop = {
                "shop": SHOP_NAMES[ctx.shop.shop],
                "drawn": [
                    CARDS.items[item_kind][i].name if is_actor else None for i in ctx.shop.drawn
                ],
            }
        item: str | None = None
        if ctx.item is not None:
            kind, i = ctx.item
            if kind == "life_preserver":
                item = CARDS.life_preserver.name
            else:
                assert i is not None
                item = CARDS.items[kind][i].name
        return {
            "to_roll": [KIND_LETTERS[k] for k in ctx.to_roll],
            "rolled": [die_string(c) for c in ctx.rolled],
            "left": ctx.left,
            "cast": cast,
            "peek": fish_name(ctx.peek) if ctx.peek is not None and is_actor else None,
            "shop": shop,
            "count": ctx.count,
            "foul": ctx.foul,
            "slot": ctx.slot,
            "discount": ctx.discount,
            "item": item,
        }

    # ----- the canonical state (§11.2) -----

    def _observation_tensor(self, player: int) -> list[float]:
        """§11.4: the observation dict encoded with ids instead of names."""
        return encode_observation(self._observation(player), self._n)

    def _state_dict(self) -> dict[str, Any]:
        ctx = self._ctx
        end = None
        if self._end is not None:
            end = {
                "regret_value": list(self._end.regret_value),
                "discarded": list(self._end.discarded),
                "scores": list(self._end.scores),
            }
        state: dict[str, Any] = {
            "day": self._day,
            "phase": self._phase,
            "node": self._node.kind,
            "actor": self._node.actor,
            "turn": self._turn,
            "first_player": self._first_player,
            "last_turns": self._last_turns,
            "life_preserver": self._life_preserver,
            "shoals": [list(shoal) for shoal in self._shoals],
            "face_up": list(self._face_up),
            "known": [sorted(known) for known in self._known],
            "fish_discard": [list(pile) for pile in self._fish_discard],
            "regret_deck": list(self._regret_deck),
            "regret_discard": list(self._regret_discard),
            "bag": list(self._bag),
        }
        for kind in ITEM_KINDS:
            state[f"{kind}_deck"] = sorted(self._deck[kind])
            state[f"{kind}_discard"] = sorted(self._discard[kind])
        state["players"] = [self._seat_dict(seat) for seat in self._seats]
        state["ctx"] = {
            "to_roll": [KIND_LETTERS[k] for k in ctx.to_roll],
            "rolled": [die_string(c) for c in ctx.rolled],
            "left": ctx.left,
            "cast": None
            if ctx.cast is None
            else {
                "shoal": ctx.cast.shoal,
                "reduction": ctx.cast.reduction,
                "zero": ctx.cast.zero,
                "payment": [die_string(c) for c in ctx.cast.payment],
            },
            "peek": ctx.peek,
            "shop": None
            if ctx.shop is None
            else {"shop": ctx.shop.shop, "drawn": list(ctx.shop.drawn)},
            "count": ctx.count,
            "foul": ctx.foul,
            "slot": ctx.slot,
            "discount": ctx.discount,
            "item": None if ctx.item is None else {"kind": ctx.item[0], "id": ctx.item[1]},
        }
        state["end"] = end
        return state

    @staticmethod
    def _seat_dict(seat: Seat) -> dict[str, Any]:
        """One ``players`` entry of §11.2."""
        return {
            "money": seat.money,
            "depth": seat.depth,
            "regrets": list(seat.regrets),
            "fresh": [die_string(c) for c in seat.fresh],
            "spent": [KIND_LETTERS[k] for k in seat.spent],
            "hand": sorted(seat.hand),
            "mounted": list(seat.mounted),
            "dinks": sorted(seat.owned["dink"]),
            "supplies": sorted(seat.owned["supply"]),
            "rods": sorted(seat.owned["rod"]),
            "reels": sorted(seat.owned["reel"]),
            "rod": seat.rod,
            "reel": seat.reel,
            "worms": seat.worms,
            "lifeboat_used": seat.lifeboat_used,
            "passed": seat.passed,
            "reel_used": seat.reel_used,
            "caught_today": seat.caught_today,
            "shops_used": list(seat.shops_used),
        }


# ======================================================================================
# The game
# ======================================================================================


class DeepRegretsGame(ReferenceGame[DeepRegretsState]):
    """Deep Regrets (step 1) for 2 to 5 players with fixed options."""

    game_id = "deep_regrets"
    min_players = 2
    max_players = 5
    option_specs = (
        OptionSpec("days", "int", 6, "6 = Monday..Saturday; 5 = the short game from Tuesday"),
        OptionSpec(
            "regret_split",
            "str",
            "6/24/20/10",
            "copies of regret values 0/1/2/3 in the 60-card regret deck",
            choices=("6/24/20/10", "10/20/20/10"),
        ),
        OptionSpec(
            "expansion_tentacles",
            "bool",
            False,
            "add the 18 Lamentable Tentacles fish (6 per depth) to the sea",
        ),
    )

    def _configure(self, options: OptionReader) -> None:
        self.days = options.int("days", 6, 5, 6)
        self.regret_split = options.choice(
            "regret_split", "6/24/20/10", ("6/24/20/10", "10/20/20/10")
        )
        self.expansion_tentacles = options.bool("expansion_tentacles", False)

    @property
    def options(self) -> dict[str, object]:
        """Every option with its effective value."""
        return {
            "days": self.days,
            "expansion_tentacles": self.expansion_tentacles,
            "regret_split": self.regret_split,
        }

    @property
    def num_actions(self) -> int:
        """512 (§9)."""
        return NUM_ACTIONS

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """``(1765 + 221 * players,)`` (§11.4)."""
        return (tensor_size(self.players),)

    def _initial_state(self) -> DeepRegretsState:
        return DeepRegretsState(self)
