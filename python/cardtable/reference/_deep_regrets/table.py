"""The Deep Regrets table: numbers, action ids, the seats, the context and the nodes of the flow.

Part of the reference rules of :mod:`cardtable.reference.deep_regrets`; the section numbers (§) are
those of ``docs/games/deep_regrets.md``.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable
from dataclasses import dataclass, field
from typing import Literal

from cardtable.observations.deep_regrets import DeepRegretsNodeKind as NodeKind
from cardtable.observations.deep_regrets import DeepRegretsTrigger as Trigger
from cardtable.reference._deep_regrets.cards import (
    CARDS,
    ITEM_KINDS,
    PLAYER_DIE,
    ItemKind,
)

# ======================================================================================
# Numbers and action ids
# ======================================================================================

NUM_ACTIONS = 512
"""§9 and §16.12: ``num_actions`` is 512."""

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
"""``turn``: pass. Id 0 is also roll now, keep all regrets, take nothing and done (§9)."""
ROLL_NOW = 0
"""``muster_select`` and ``reroll_select``: roll the chosen dice now."""
KEEP_ALL = 0
"""``port_discard``: keep all regrets."""
TAKE_NOTHING = 0
"""``reward``: take nothing (only when no dink can be drawn, Decision 22); ``decline_die``: keep
the dice and draw no dink (Decision 17)."""
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
USE_WORMS = 41
"""41 + s: ``turn`` and ``after_main``: use the Can of Worms on shoal s (a free action)."""
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
"""165 + f: sell or mount fish f; §16.12: eat f, discard f, mimic, reorder, mount on the Cloche."""
FIRST_EFFECT = 14
"""§16.12 ``choose_effect``: the first option (15 = the second)."""
YES = 16
"""§16.12: yes at ``swap_beneath``, ``move_offer``, ``ignore_reveal`` and ``ignore_catch``
(resolve), ``reveal_beneath``, ``accept_offer``."""
NO = 17
"""§16.12: no at those nodes and at ``hadal_shade``."""
CATCH_BY_SHOWING = 18
"""§16.12 ``pay``: catch by showing a fish."""
CATCH_BY_DISCARDING = 19
"""§16.12 ``pay``: catch by discarding a fish."""
FLIP_WORMS = 20
"""§16.12 ``pay``: flip the Can of Worms for its difficulty."""
GIVE_AWAY = 21
"""§16.8 ``turn``: give the Dumbo Octopus away (main action)."""
USE_SKULL = 22
"""§16.8 ``turn``: use the Whispering Skull (free)."""
USE_COFFIN = 23
"""§16.8 ``turn``: use the Iron Coffin (free)."""
END_TURN = 24
"""``after_main``: end the turn (§7.3)."""
HADAL = 300
"""300 + 3q + k: ``hadal_shade``: swap with seat q's slot k."""
CLOCHE_SLOT = 3
"""§16.10: ``ctx.slot`` 3 is the Cloche."""
CLOCHE_MULTIPLIER = 2
"""§16.10: "The Cloche fish scores value x 2"."""

UsedItem = Literal["dink", "supply", "reel", "life_preserver"]
"""``ctx.item`` kinds: the items that can be used."""
ITEM_BASE: dict[ItemKind, int] = {"dink": DINK, "supply": SUPPLY, "rod": ROD, "reel": REEL}
"""The first action id of each item range."""
ITEM_DECK_SIZE: dict[ItemKind, int] = {"dink": 25, "supply": 20, "rod": 10, "reel": 10}
"""§2: 25 dinks, 20 supplies, 10 rods, 10 reels."""
SHOP_ITEMS: tuple[ItemKind, ...] = ("rod", "reel", "supply")
"""Shops 0, 1, 2 sell rods, reels and supplies; shop 3 is the tackle shop."""
SHOP_NAMES = ("rod", "reel", "supply", "tackle")
RULE_FISH = {
    kind: next(fish.name for fish in CARDS.fish if fish.rules_of(kind))
    for kind in ("give_away_action", "front_peek", "front_offer")
}
"""The fish that carries each standing rule with a ``turn`` action (§16.8)."""
STANDING_ACTIONS = {
    GIVE_AWAY: ("give_away_action", "give {} away"),
    USE_SKULL: ("front_peek", "use {}"),
    USE_COFFIN: ("front_offer", "use {}"),
}
"""§16.12 ``turn`` labels 21, 22, 23."""
CLOCHE_ID = next(
    i
    for i, item in enumerate(CARDS.items["supply"])
    if any(effect.kind == "cloche" for use in item.uses or () for effect in use)
)
"""§16.10: the supply whose use is ``cloche``."""
TACKLE_SHOP = 3


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
    front: set[int] = field(default_factory=set)
    """§16.2: the fish in front of the seat."""
    locks: set[int] = field(default_factory=set)
    """§16.2: the locked columns."""
    cloche: int | None = None
    """§16.10: the fish on the Cloche."""
    skull_used: bool = False
    coffin_used: bool = False

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
    base: int | None = None
    """§16.3: the difficulty that replaces the printed one this cast (``set_difficulty``, 20)."""
    beneath: int | None = None
    """§16.7 ``peek_beneath``: the second fish of the shoal, shown to the caster."""
    ignored: bool = False
    """§16.5 step 5: the reveal ability is ignored (Rod of the Dead), its not-caught clause too."""
    revealed: bool = False
    """§16.5 step 4: this cast turned its fish face up (``cast.revealed``)."""


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
    ability: tuple[int, Trigger] | None = None
    """§16.12: the fish whose effect list runs, with its trigger."""
    pool: list[int] | None = None
    """§16.7 ``deal_regrets``: the regret values dealt into the pool, sorted."""
    target: int | None = None
    """§16.7, §16.8: the seat regrets go to (or are offered to)."""
    offer: list[int] = field(default_factory=list)
    """§16.8: the regret values offered with the Iron Coffin, sorted."""
    order: list[int] = field(default_factory=list)
    """§16.5 step 3: the fish still to reorder, top first."""


@dataclass(frozen=True)
class Node:
    """One node of the flow: a decision of ``actor``, or a chance node (``weights`` given).

    ``about`` carries what a label needs beyond the state: the shoal being dealt, the seat a
    regret is taken from, the fish given away or shuffled back, or the depth a boat may move to.
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


def decision(kind: NodeKind, actor: int, legal: Iterable[int], about: int | None = None) -> Node:
    """A decision node of ``actor`` with its legal actions."""
    return Node(kind, actor, tuple(sorted(legal)), about=about)


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
"""A procedure that tells at its end whether the day ends at once (or whether a cast was free)."""
CastEnd = Literal["end", "free"]
"""§16.7: ``end_cast`` (and the other primitives that end the cast) or ``free_cast``."""


@dataclass
class EndResult:
    """``end`` (§8): regret values, the penalty discards and the final scores."""

    regret_value: list[int]
    discarded: list[int | None]
    cloche_discarded: list[int | None]
    scores: list[int]
