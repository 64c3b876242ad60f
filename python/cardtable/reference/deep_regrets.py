"""Deep Regrets by Judson Cowan: the reference rules (steps 1 and 2), one method per rule step.

The rules are ``rules/deep_regrets/README.md`` (with ``sources.md`` beside it); the node flow, the
action ids, labels, observation and canonical state are fixed by ``docs/games/deep_regrets.md``
(the contract), whose section numbers (§) the docstrings below cite. The card data is
``data/deep_regrets.json``, read by ``_deep_regrets/cards.py``. Step 1 covers the whole game flow
with every number and the items whose effects are plain modifiers; step 2 (§16, which overrides
the earlier sections) gives every fish ability and the remaining items their effect. Every ability
is data: a fish carries effect lists (``reveal``, ``catch``, ``eat``, ``not_caught``), standing
``rules`` and a ``front`` flag, and :meth:`DeepRegretsState._apply_effect` interprets one primitive
of that vocabulary (§16.7) for whichever card it comes from.

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

Every reading decided beyond the rules is listed in the contract's §15 "Decisions" (the readings
below are its items 71-84; the turn with free actions before and after the main action, the Can of
Worms, abandon ship, eating and the four items read from their printed texts are items 10, 14, 19,
22, 38, 45, 46, 51 and 63-70).

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
- A seat that owns exactly one rod (reel) has it equipped at every Declaration, also if it already
  was.
- The options are listed in the contract's table order: ``days``, ``regret_split``,
  ``expansion_tentacles``.

Decisions of step 2 where §16 is silent (the simplest reading each time):

- ``ctx.cast`` stays live from the cast action to the cast end (§16.6 "Cast end: ctx.cast =
  null"): through the catch list, the overfishing draw, ``decline_die``, the dinks and the
  not-caught list. Its ``payment`` becomes ``[]`` as soon as the dice are spent or returned.
- In ``ctx.cast`` of the observation, ``fish``, ``difficulty`` and ``exact`` describe the current
  top of the cast's shoal when it is face up (after a catch: the next top), and "the caster" who
  sees ``beneath`` is the ``turn`` seat.
- Rods that reorder: the fish stay in the shoal while the ``reorder`` nodes are asked
  (``ctx.order`` lists the ones not yet placed); when the last is placed, the top fish of the
  shoal are rewritten in the chosen order.
- ``ctx.ability`` is set while a non-empty list runs. A list run inside another one (the catch
  list of an ``auto_catch`` in a reveal list) sets it for its own run, then the outer value comes
  back (so the overfishing draw of an auto-catch shows the reveal ability).
- The Dumbo Octopus's ``give_fish`` node leaves ``ctx.ability`` null (no trigger names a give-away
  action); its label names the Dumbo Octopus all the same.
- Primitives that act on the cast (``set_difficulty``, ``peek_beneath``, ``peek_depth``,
  ``reveal`` ``cast_column``, ``reveal_beneath``, ``swap_beneath``) do nothing without a cast; the
  ones that move "the fish (top of the cast's shoal)" (``give_this``, ``mimic``, ``shuffle_back``,
  ``plug``, ``auto_catch``, ``discard_this``) do nothing to the shoal when the ability's fish is no
  longer its top. ``give_this``, ``mimic``, ``plug`` and ``auto_catch`` end the cast all the same.
- ``draw_dink`` ``amount`` k runs DrawDinks(u) k times (the data only has k = 1: one event).
- If one list held both ``end_cast`` and ``free_cast``, ``free_cast`` would win (no card does).
- The start of a turn (§16.8, §16.11) first clears ``skull_used`` and ``coffin_used``, then The Plug
  discards a top.
- The die the Bone Wheel retains stays Fresh whatever the Fresh maximum.
- The Cloche: using it takes the card out of ``supplies`` without discarding it. At the end, a seat
  with the highest Regret Value loses its Cloche fish right after its §8 mounted-fish discard (seats
  in order 0..n-1); its ``cloche`` becomes null, and the Cloche card then leaves the game.
- Labels: ``hadal_shade`` 300+3q+k names seat q's fish in slot k, and gives ``action {a}`` when
  that slot is empty or q is not a seat; ``pay`` 20 gives ``action 20`` unless the cast fish has
  a ``worms_difficulty`` rule; the turn labels 21, 22 and 23 take the names of the fish that
  carry those rules; at ``after_main`` every id but 24 has its ``turn`` label.
- ``port_mount`` fish are mounted in fish id order if there were several (there is one).
- Reveals by items or abilities outside the cast's end (§16.11) do not check for an empty sea;
  the checks stay where §8 and §16 put them (cast end, the Start phase, The Plug).
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
    OMEN,
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

Trigger = Literal["reveal", "catch", "eat", "not_caught"]
"""§16.12: what runs an effect list of a fish."""
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
    """§16.5 step 5: the reveal ability is ignored (Rod of the Dead)."""


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
    base: int | None
    beneath: str | None
    ignored: bool


class AbilityObservation(TypedDict):
    """``ctx.ability`` as a seat sees it (§16.12)."""

    fish: str
    trigger: Trigger


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
    ability: AbilityObservation | None
    pool: list[int | None] | None
    target: int | None
    offer: list[int | None]
    order: list[str | None]


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
    cloche_discarded: list[str | None]


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
    plug: bool
    front: list[list[str]]
    locks: list[list[int]]
    cloche: list[str | None]
    skull_used: list[bool]
    coffin_used: list[bool]
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
        self._plug = False  # §16.11 The Plug lies on the table
        self._cast_end: CastEnd | None = None  # how the running cast's reveal list ends it
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
            # §16.8: "skull_used and coffin_used are reset ... in the Start phase."
            seat.skull_used = False
            seat.coffin_used = False
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
                self._start_of_turn(p)
                day_ends = yield from self._take_turn(p)
                if day_ends:
                    return
            if all(seat.passed for seat in self._seats):
                return
            self._turn = (p + 1) % self._n

    def _start_of_turn(self, p: int) -> None:
        """§16.8 and §16.11: what happens at Arrive(p) before the ``turn`` node.

        "skull_used and coffin_used are reset to false at the start of each of the seat's turns".
        The Plug: "while plug is true, at the start of every turn ... the top of the first
        non-empty shoal in order 0..8 goes to its depth's discard pile (s leaves known); if the
        sea is now empty the game ends."
        """
        seat = self._seats[p]
        seat.skull_used = False
        seat.coffin_used = False
        if self._plug:
            s = next((s for s in SHOALS if self._shoals[s]), None)
            if s is not None:
                self._remove_top(s)
            self._check_the_sea()

    def _take_turn(self, p: int) -> TurnFlow:
        """§7.3 The turn: free actions, one main action, free actions; tells if the day ends.

        "Free actions (3, 12, 13, 22, 23, 41+s, 50+c, 100+d, 125+i, 165+f) return to the node
        they were taken at. Every other action is the turn's main action." Pass ends the turn at
        once; a cast that ends with ``free_cast`` returns to the turn node; after any other main
        action, free actions may still be taken at the ``after_main`` node (:meth:`_after_main`).
        """
        while True:
            action = yield decision("turn", p, self._turn_actions(p))
            if action in self._free_actions(p):
                yield from self._free_action(p, action)
            elif CAST <= action < CAST + 9:
                free = yield from self._cast(p, action - CAST)
                if not free:
                    break
            else:
                break
        if action == PASS:
            yield from self._pass(p)
            return False
        if action == SELL:
            yield from self._sell(p)
        elif action == MOUNT:
            yield from self._mount(p)
        elif SHOP <= action < SHOP + 12:
            yield from self._shop(p, (action - SHOP) // 3, (action - SHOP) % 3)
        elif action == GIVE_AWAY:
            yield from self._give_away(p)
        yield from self._after_main(p)
        return self._end_turn()

    def _after_main(self, p: int) -> Flow:
        """§7.3 After the main action: free actions until the player ends the turn.

        "If p has at least one legal free action, the node after_main for p is asked; its legal
        actions are the legal free actions plus 24 = end turn, which does EndTurn(p). If p has no
        legal free action, EndTurn(p) happens at once (no node). After each free action taken at
        after_main, the same test is made again." The game cannot be over here: an empty sea
        ends it before (:class:`SeaIsEmpty`).
        """
        while free := self._free_actions(p):
            action = yield decision("after_main", p, [END_TURN, *free])
            if action == END_TURN:
                return
            yield from self._free_action(p, action)

    def _free_actions(self, p: int) -> list[int]:
        """§7.3: the legal free actions of p at the ``turn`` or ``after_main`` node.

        "3 abandon ship, 12 Life Preserver, 13 equipped reel, 22 Whispering Skull, 23 Iron
        Coffin, 41+s Can of Worms, 50+c sinker, 100+d dink, 125+i supply (including the Cloche),
        165+f eat", each if its condition holds.
        """
        seat = self._seats[p]
        legal = []
        if seat.at_sea:
            # "3 abandon ship: at sea, lifeboat unused"
            if not seat.lifeboat_used:
                legal.append(ABANDON_SHIP)
            # "41+s use the Can of Worms on shoal s: at sea, Can of Worms face up, shoal s
            # non-empty, depth(s) ≤ p's depth, and the top of s face down"
            if seat.worms:
                legal += [
                    USE_WORMS + s
                    for s in SHOALS
                    if self._shoals[s] and shoal_depth(s) <= seat.depth and not self._face_up[s]
                ]
            # "50+c drop a sinker with die c: at sea, depth < 3, p has class c in Fresh"
            if seat.depth < DEEPEST:
                legal += self._fresh_actions(p)
        legal += self._item_actions(p, "turn")
        legal += self._eat_actions(p)
        # §16.8: 22 and 23 once per turn.
        peekable = any(self._peekable(p, s) for s in SHOALS)
        if self._front_rule(p, "front_peek") and not seat.skull_used and peekable:
            legal.append(USE_SKULL)
        if self._front_rule(p, "front_offer") and not seat.coffin_used and seat.regret_count:
            legal.append(USE_COFFIN)
        return sorted(legal)

    def _free_action(self, p: int, action: int) -> Flow:
        """One free action of p (§7.3, §16.4, §16.8); the caller asks its node again."""
        if action == ABANDON_SHIP:
            yield from self._abandon_ship(p)
        elif USE_WORMS <= action < USE_WORMS + 9:
            yield from self._use_worms(p, action - USE_WORMS)
        elif DIE <= action < DIE + len(DIE_CLASSES):
            self._drop_sinker(p, action - DIE)
        elif self._is_item_action(action):
            yield from self._use_item(p, action)
        elif FISH <= action < FISH + len(CARDS.fish):
            yield from self._eat(p, action - FISH)
        elif action == USE_SKULL:
            yield from self._use_skull(p)
        else:
            yield from self._use_coffin(p)

    def _turn_actions(self, p: int) -> list[int]:
        """§7.3: the legal actions at the turn node, each if its condition holds.

        The main actions, and the free actions of :meth:`_free_actions`.
        """
        seat = self._seats[p]
        legal = [PASS]  # "0 pass: always"
        if seat.at_sea:
            # "32+s cast at shoal s: at sea, p has a Fresh die, shoal s non-empty, depth(s) ≤
            # p's depth"; §16.2: "A seat may cast only at shoals whose column is in every lock".
            if seat.fresh:
                for s in SHOALS:
                    if (
                        self._shoals[s]
                        and shoal_depth(s) <= seat.depth
                        and all(shoal_column(s) == lock for lock in seat.locks)
                    ):
                        legal.append(CAST + s)
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
        # §16.8: 21 (a main action) while a give-away fish is in p's hand.
        if self._give_away_fish(p) is not None:
            legal.append(GIVE_AWAY)
        return sorted(legal + self._free_actions(p))

    def _drop_sinker(self, p: int, c: int) -> None:
        """§7.3 "Sinker: spend die c; depth += 1"."""
        self._spend(p, c)
        self._seats[p].depth += 1

    def _end_turn(self) -> bool:
        """§6.4 EndTurn(p); tells whether the day ends at once.

        "pending shop discount = 0; if last_turns is not null: last_turns -= 1, and if it is now
        0 the day ends at once; then Advance." (Abandon ship is a free action now: the turn it
        is taken in counts like any other.)
        """
        self._ctx.discount = 0
        if self._last_turns is not None:
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
        # §16.3 port_mount: "if the fish is in p's hand and p has an empty slot, it goes to the
        # lowest empty slot (automatically, right after depth = 0, before the Muster)".
        for f in sorted(seat.hand):
            if CARDS.fish[f].rules_of("port_mount") and None in seat.mounted:
                seat.hand.remove(f)
                seat.mounted[seat.mounted.index(None)] = f
        yield from self._muster(p)
        seat.worms = True
        if seat.regret_count:
            action = yield decision("port_discard", p, [KEEP_ALL, *self._regret_actions(p)])
            if action != KEEP_ALL:
                self._discard_regret(p, action - REGRET)

    def _abandon_ship(self, p: int) -> Flow:
        """§7.3 Abandon ship (a free action).

        "lifeboat used; if last_turns is not null it becomes 4; MakePort(p); then back to the
        node it was taken at."
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
        yield from self._draw_event(p, foul)  # §16.9: one draw event of k = foul fish sold

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
    # §16.5 Cast, §16.6 catching, declining, the cast end
    # ==================================================================================

    def _use_worms(self, p: int, s: int) -> Flow:
        """§7.3 41+s: use the Can of Worms on shoal s (a free action at sea).

        "the can turns face down; ctx.peek = the top fish; node worms (4 = leave it on top, 5 =
        put it at the bottom of shoal s); ctx.peek = null. If left on top, s joins known[p] (p
        has seen that face-down top); if put at the bottom, the top changed so s leaves every
        known set."
        """
        self._seats[p].worms = False
        self._ctx.peek = self._shoals[s][0]
        action = yield decision("worms", p, [LEAVE_ON_TOP, PUT_AT_BOTTOM])
        self._ctx.peek = None
        if action == LEAVE_ON_TOP:
            self._known[p].add(s)
        else:
            self._shoals[s].append(self._shoals[s].pop(0))
            self._forget(s)

    def _cast(self, p: int, s: int) -> TurnFlow:
        """§16.5 The cast (steps 1 to 7), then §16.6; tells whether the cast was free.

        "Cast end: ctx.cast = null. If the sea is empty the game ends (§8). Else, if the cast
        ended with free_cast, the turn node of p is asked again (the cast was not p's main
        action); otherwise EndTurn(p)."
        """
        ctx = self._ctx
        # 1. "ctx.cast = {shoal s, reduction 0, zero false, payment [], base null, beneath null,
        # ignored false}."
        cast = Cast(s)
        ctx.cast = cast
        self._cast_end = None
        # 2. The Can of Worms is no part of the cast any more: it is the free action 41+s.
        # 3. Rods that reorder.
        yield from self._reorder_with_rod(p, s)
        # 4. "Reveal: if the top of s is face down it turns face up (s leaves every known set)
        # and it is revealed by the cast; a top that was already face up is not revealed."
        revealed = not self._face_up[s]
        if revealed:
            self._face_up[s] = True
            self._forget(s)
        fish = CARDS.fish[self._shoals[s][0]]
        # 5. Rod of the Dead: "At reveal: node ignore_reveal (16 resolve / 17 ignore), asked if
        # the revealed fish is not special and has a non-empty reveal list; ignoring skips only
        # the reveal list (cast.ignored then only records that the reveal was ignored)."
        if revealed and "special" not in fish.flags and fish.reveal and self._ignores(p, "reveal"):
            action = yield decision("ignore_reveal", p, [YES, NO])
            cast.ignored = action == NO
        # 6. "If revealed and not ignored: its reveal list runs with user p. ... The list may end
        # the cast: then continue at 16.6 Cast end."
        if revealed and not cast.ignored:
            yield from self._run_list(p, fish.id, "reveal", fish.reveal)
        ending = self._cast_end
        self._cast_end = None
        # 7. "Node pay as in step 1, with the effective difficulty of §16.3 and these extra legal
        # actions".
        if ending is None:
            yield from self._pay(p)
        ctx.cast = None
        self._check_the_sea()
        return ending == "free"

    def _reorder_with_rod(self, p: int, s: int) -> Flow:
        """§16.5 step 3: Rod of the Deep (2 fish), Rod of the Infinite (3 fish), always, free.

        "If p's equipped rod has a reorder passive, the top of s is face down and s holds ≥ 2
        fish: ctx.order = the top min(amount, size) fish of s, top first; node reorder (legal:
        165+f for f in ctx.order): f is the next card from the top; it repeats while ≥ 2 fish
        are left in ctx.order; the last one goes last automatically. The reordered fish are put
        back on top of s in the chosen order, all face down; ctx.order = []. s leaves every
        known set." The Rod of the Infinite: "When you cast, peek at the top three Fish of the
        Shoal and place them back in any order, before revealing the top Fish" (no Dink).
        """
        rod = self._rod_passive(p, "reorder")
        shoal = self._shoals[s]
        if rod is None or self._face_up[s] or len(shoal) < 2:
            return
        k = min(rod.amount, len(shoal))
        ctx = self._ctx
        ctx.order = shoal[:k]
        chosen: list[int] = []
        while len(ctx.order) >= 2:
            action = yield decision("reorder", p, [FISH + f for f in ctx.order])
            ctx.order.remove(action - FISH)
            chosen.append(action - FISH)
        chosen += ctx.order
        ctx.order = []
        shoal[:k] = chosen
        self._forget(s)

    def _cast_fish(self) -> Fish:
        """The fish on top of the cast's shoal."""
        cast = self._ctx.cast
        assert cast is not None
        return CARDS.fish[self._shoals[cast.shoal][0]]

    def _pay(self, p: int) -> Flow:
        """§7.4 step 5 and §16.5 step 7: node pay, repeated until the fish is caught or declined.

        "50+c = add a Fresh die of class c to the payment (it leaves Fresh)"; "12, 13, 100+d,
        125+i as at the turn node". "Decision: a die put into the payment cannot be taken back."
        §16: 165+f eats f; 18 and 19 catch by showing or discarding a fish; 20 flips the Can of
        Worms: "the Can of Worms turns face down and cast.base = difficulty".
        """
        cast = self._ctx.cast
        assert cast is not None
        while True:
            action = yield decision("pay", p, self._pay_actions(p))
            if action == CATCH:
                yield from self._catch(p, "dice")
                return
            if action == CATCH_BY_SHOWING:
                yield from self._catch(p, "show")
                return
            if action == CATCH_BY_DISCARDING:
                yield from self._catch(p, "discard")
                return
            if action == DECLINE:
                yield from self._decline(p)
                return
            if action == FLIP_WORMS:
                self._seats[p].worms = False
                cast.base = self._cast_fish().rules_of("worms_difficulty")[0].difficulty
            elif DIE <= action < DIE + len(DIE_CLASSES):
                self._seats[p].fresh.remove(action - DIE)
                cast.payment = sorted([*cast.payment, action - DIE])
            elif FISH <= action < FISH + len(CARDS.fish):
                yield from self._eat(p, action - FISH)
            else:
                yield from self._use_item(p, action)

    def _pay_actions(self, p: int) -> list[int]:
        """§7.4 step 5 and §16.5 step 7: the legal actions at the pay node.

        "6 = catch, if complete; 7 = decline, always; 50+c = add a Fresh die of class c to the
        payment, if not complete and (exact N: |payment| < N; otherwise Σ faces < D)"; "165+f
        (eat, §16.4); 18 if a catch_by_showing rule holds; 19 if a catch_by_discarding rule
        holds; 20 if a worms_difficulty rule holds. With must_catch, 7 is legal only while the
        payment cannot be completed."
        """
        cast = self._ctx.cast
        assert cast is not None
        seat = self._seats[p]
        fish = self._cast_fish()
        legal = []
        if not fish.rules_of("must_catch") or not self._can_complete(p):
            legal.append(DECLINE)
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
        if any(self._shows(p, rule) for rule in fish.rules_of("catch_by_showing")):
            legal.append(CATCH_BY_SHOWING)
        if self._discardable_for_catch(p, fish):
            legal.append(CATCH_BY_DISCARDING)
        worms_rules = fish.rules_of("worms_difficulty")
        if worms_rules and seat.worms and cast.base != worms_rules[0].difficulty:
            legal.append(FLIP_WORMS)
        legal += self._item_actions(p, "pay")
        legal += self._eat_actions(p)
        return sorted(legal)

    def _shows(self, p: int, rule: Effect) -> bool:
        """§16.3 catch_by_showing: p's hand holds a fish of the rule's size / a Shark / name."""
        for f in self._seats[p].hand:
            fish = CARDS.fish[f]
            if rule.size is not None and fish.size == rule.size:
                return True
            if rule.shark and fish.is_shark:
                return True
            if rule.name is not None and fish.name == rule.name:
                return True
        return False

    def _discardable_for_catch(self, p: int, fish: Fish) -> list[int]:
        """§16.3 catch_by_discarding: p's hand fish of a size the rules name."""
        sizes = {rule.size for rule in fish.rules_of("catch_by_discarding")}
        return sorted(f for f in self._seats[p].hand if CARDS.fish[f].size in sizes)

    def _can_complete(self, p: int) -> bool:
        """§16.6 must_catch: whether the payment can still be completed.

        "with the dice now in the payment plus p's Fresh dice: exact N → |payment| + |Fresh| ≥ N,
        |payment| ≤ N and Σ payment + the N - |payment| highest Fresh faces ≥ D; otherwise Σ
        payment + Σ Fresh ≥ D."
        """
        cast = self._ctx.cast
        assert cast is not None
        fresh = sorted((die_face(c) for c in self._seats[p].fresh), reverse=True)
        paid = sum(die_face(c) for c in cast.payment)
        d = self._effective_difficulty(p)
        n = self._cast_fish().exact_dice
        if n is not None:
            need = n - len(cast.payment)
            return 0 <= need <= len(fresh) and paid + sum(fresh[:need]) >= d
        return paid + sum(fresh) >= d

    def _effective_difficulty(self, p: int) -> int:
        """§16.3 Effective difficulty of the cast fish for its caster p.

        "D = 0 if cast.zero; else max(0, B + rod + front + per + reduction) where B = cast.base if
        not null else the printed difficulty (null = 0), rod = the equipped rod's step-1
        difficulty passive if it matches, front = the sum of the caster's matching
        front_difficulty amounts, per = the fish's difficulty_per terms (counted now), reduction =
        cast.reduction."
        """
        cast = self._ctx.cast
        assert cast is not None
        if cast.zero:
            return 0
        fish = self._cast_fish()
        base = cast.base if cast.base is not None else fish.difficulty or 0
        front = sum(
            rule.amount
            for f in sorted(self._seats[p].front)
            for rule in CARDS.fish[f].rules_of("front_difficulty")
            if rule.alignment in (None, fish.alignment)
        )
        per = 0
        for rule in fish.rules_of("difficulty_per"):
            if rule.per == "hand_fish":
                per += rule.amount * len(self._seats[p].hand)
            elif rule.per == "seats_at_depth_2":
                per += rule.amount * sum(seat.depth == 2 for seat in self._seats)
        return max(0, base + self._rod_modifier(p, fish) + front + per + cast.reduction)

    def _rod_passive(self, p: int, kind: str) -> Effect | None:
        """The passive of ``kind`` of p's equipped rod, if any."""
        rod = self._seats[p].rod
        if rod is None:
            return None
        return next((e for e in CARDS.items["rod"][rod].passive if e.kind == kind), None)

    def _ignores(self, p: int, trigger: Trigger) -> bool:
        """§16.10 Rod of the Dead: whether p's equipped rod lets p ignore ``trigger`` abilities.

        "You may choose to ignore reveal and/or catch abilities on the Fish you reveal and/or
        catch."
        """
        rod = self._rod_passive(p, "ignore_abilities")
        return rod is not None and trigger in rod.triggers

    def _reel_passive(self, p: int, kind: str) -> Effect | None:
        """The passive of ``kind`` of p's equipped reel, if any."""
        reel = self._seats[p].reel
        if reel is None:
            return None
        return next((e for e in CARDS.items["reel"][reel].passive if e.kind == kind), None)

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
        fish = self._cast_fish()
        paid = sum(die_face(c) for c in cast.payment)
        enough = paid >= self._effective_difficulty(p)
        if fish.exact_dice is not None:
            return len(cast.payment) == fish.exact_dice and enough
        return enough

    def _catch(self, p: int, how: Literal["dice", "show", "discard", "auto"]) -> Flow:
        """§16.6 Catch (action 6, 18, 19, or auto_catch).

        "with 6 the payment is spent (Bone Wheel: §16.10); with 18/19/auto_catch any payment dice
        return to Fresh and nothing is spent. With 19 first node discard_fish (legal: 165+f for
        p's hand fish of the rule's size): that fish goes to its depth's discard pile. Then the
        fish moves from the top of s to p's hand (or front, §16.2; a lock is added); caught_today
        = true; emptied = (s is now empty); the fish's catch list runs with user p; then if
        emptied, p draws the overfishing regret (one draw event). Then the cast ends."
        """
        cast = self._ctx.cast
        assert cast is not None
        seat = self._seats[p]
        if how == "dice":
            self._spend_payment(p, cast.payment, self._effective_difficulty(p))
        else:
            for c in cast.payment:
                self._add_fresh(p, c)
        cast.payment = []
        s = cast.shoal
        if how == "discard":
            fits = self._discardable_for_catch(p, self._cast_fish())
            action = yield decision("discard_fish", p, [FISH + f for f in fits])
            self._discard_fish_from_hand(p, action - FISH)
        f = self._shoals[s].pop(0)
        self._face_up[s] = False
        self._forget(s)
        fish = CARDS.fish[f]
        if fish.front:
            seat.front.add(f)
            if fish.rules_of("front_column_lock"):
                seat.locks.add(shoal_column(s))
        else:
            seat.hand.add(f)
        seat.caught_today = True
        emptied = not self._shoals[s]
        # Rod of the Dead: "At catch: node ignore_catch (16 resolve / 17 ignore), asked right
        # after the fish moves to p (before its catch list) if p's equipped rod has the
        # rod-of-the-dead passive and the fish has a non-empty catch list; 17 skips the catch
        # list (the overfishing regret still follows)."
        ignored = False
        if fish.catch and self._ignores(p, "catch"):
            ignored = (yield decision("ignore_catch", p, [YES, NO])) == NO
        if not ignored:
            yield from self._run_list(p, f, "catch", fish.catch)
        if emptied:
            yield from self._draw_event(p, CARDS.overfishing_regrets)

    def _spend_payment(self, p: int, payment: list[int], difficulty: int) -> None:
        """§7.4 step 6 and §16.10 Bone Wheel: the payment dice of a catch with action 6.

        Bone Wheel ("Retain unspent points on dice."): "let D = effective difficulty, T = Σ
        payment faces, L = T - D. Take the payment die with the highest face (ties: the highest
        class). If L ≥ 1: the target face is min(L, that die's face); if that die's kind has the
        target face it stays Fresh on that face; else on the highest face of its kind below the
        target; if its kind has no face ≤ target (or L ≤ 0), it is spent as usual. Every other
        payment die is spent as usual."
        """
        spent = list(payment)
        if self._reel_passive(p, "retain_leftover") is not None and payment:
            top = max(payment, key=lambda c: (die_face(c), c))
            kind, face = die_kind(top), die_face(top)
            leftover = sum(die_face(c) for c in payment) - difficulty
            target = min(leftover, face)
            faces = [x for x in CARDS.dice[kind].faces if x <= target]
            if leftover >= 1 and faces:
                spent.remove(top)
                self._add_fresh(p, die_class(kind, max(faces)))
        for c in spent:
            self._return_spent_die(p, c)

    def _decline(self, p: int) -> Flow:
        """§16.6 Decline (7).

        "as in step 1 (payment back, decline_die, dinks); then, if cast.ignored is false, its
        not_caught list runs with user p. Then the cast ends." Step 1: "the payment dice return
        to Fresh. If p has a Fresh die, node decline_die (legal: 50+c for each Fresh class): that
        die is spent and p DrawDinks. (With no Fresh die, nothing is spent or drawn.)"
        """
        cast = self._ctx.cast
        assert cast is not None
        fish = self._cast_fish()
        for c in cast.payment:
            self._add_fresh(p, c)
        cast.payment = []
        if self._seats[p].fresh:
            action = yield decision("decline_die", p, self._fresh_actions(p))
            self._spend(p, action - DIE)
            yield from self._draw_dinks(p, own_cast=True)
        # The Rod of the Dead covers reveal and catch abilities only: this list always runs.
        yield from self._run_list(p, fish.id, "not_caught", fish.not_caught)

    # ==================================================================================
    # §16.4 Eating, §16.8 actions of standing rules
    # ==================================================================================

    def _eat_actions(self, p: int) -> list[int]:
        """§16.4: "action 165+f = eat fish f, legal only if fish f has a non-empty eat list".

        "Syö kala (jos kalassa on syömisikoni)" (eat a fish, if it has the Eat icon).
        """
        return [FISH + f for f in sorted(self._seats[p].hand) if CARDS.fish[f].eat]

    def _eat(self, p: int, f: int) -> Flow:
        """§16.4 Eating.

        "f goes to its depth's discard pile, then its eat list runs with user p (ctx.ability =
        {fish f, trigger eat}), then the same node (turn or pay) is asked again."
        """
        self._discard_fish_from_hand(p, f)
        yield from self._run_list(p, f, "eat", CARDS.fish[f].eat)

    def _give_away_fish(self, p: int) -> int | None:
        """The fish in p's hand with a ``give_away_action`` rule (the lowest id), if any."""
        return next(
            (f for f in sorted(self._seats[p].hand) if CARDS.fish[f].rules_of("give_away_action")),
            None,
        )

    def _give_away(self, p: int) -> Flow:
        """§16.8 21: give the Dumbo Octopus away (main action).

        "node give_fish (74+q, q ≠ p): the fish moves to q's hand; q discards discard_regrets
        regrets of their choice (discard_regret nodes, actor q, as many as q holds)".
        """
        f = self._give_away_fish(p)
        assert f is not None
        rule = CARDS.fish[f].rules_of("give_away_action")[0]
        others = [GIVE_TO + q for q in range(self._n) if q != p]
        action = yield decision("give_fish", p, others, about=f)
        q = action - GIVE_TO
        self._seats[p].hand.remove(f)
        self._seats[q].hand.add(f)
        yield from self._discard_regrets_of_choice(q, rule.discard_regrets)

    def _front_rule(self, p: int, kind: str) -> Effect | None:
        """The first standing rule of ``kind`` among the fish in front of p (by fish id)."""
        for f in sorted(self._seats[p].front):
            for rule in CARDS.fish[f].rules_of(kind):
                return rule
        return None

    def _use_skull(self, p: int) -> Flow:
        """§16.8 22: "skull_used = true; peek shoal x amount"."""
        rule = self._front_rule(p, "front_peek")
        assert rule is not None
        self._seats[p].skull_used = True
        yield from self._peek(p, "shoal", rule.amount)

    def _use_coffin(self, p: int) -> Flow:
        """§16.8 23: the Iron Coffin.

        "coffin_used = true; node offer_target (74+q, q ≠ p): ctx.target = q; node offer_regret
        (70+v from p's regrets; 0 = done, legal once 1 is offered): the card leaves p into
        ctx.offer; it repeats until 0, until max are offered or p holds no regret; then node
        accept_offer (actor q; 16 = accept, 17 = refuse): accept → the offered cards go to q, then
        q refreshes refresh die (step-1 refresh, actor q); refuse → they return to p. Right after
        that decision ctx.offer = [] and ctx.target = null (before q's refresh nodes)".
        """
        rule = self._front_rule(p, "front_offer")
        assert rule is not None
        seat = self._seats[p]
        ctx = self._ctx
        seat.coffin_used = True
        action = yield decision("offer_target", p, [GIVE_TO + q for q in range(self._n) if q != p])
        q = action - GIVE_TO
        ctx.target = q
        while seat.regret_count and len(ctx.offer) < (rule.max or 0):
            legal = self._regret_actions(p) + ([DONE] if ctx.offer else [])
            action = yield decision("offer_regret", p, legal)
            if action == DONE:
                break
            seat.regrets[action - REGRET] -= 1
            ctx.offer = sorted([*ctx.offer, action - REGRET])
        action = yield decision("accept_offer", q, [YES, NO])
        receiver = q if action == YES else p
        for v in ctx.offer:
            self._seats[receiver].regrets[v] += 1
        ctx.offer = []
        ctx.target = None
        if action == YES:
            yield from self._refresh(q, rule.refresh)

    # ==================================================================================
    # §7.5 Draws and discards
    # ==================================================================================

    def _draw_event(self, p: int, k: int) -> Flow:
        """§16.9 A regret draw event: "u draws k regrets" with k ≥ 1.

        "It draws k + x regrets (one DrawRegret each, §7.5) where x = the sum of
        front_extra_regret amounts of the fish in front of u when the event starts."
        """
        if k < 1:
            return
        extra = sum(
            rule.amount
            for f in sorted(self._seats[p].front)
            for rule in CARDS.fish[f].rules_of("front_extra_regret")
        )
        for _ in range(k + extra):
            yield from self._draw_regret(p)

    def _draw_regret(self, p: int, *, into_pool: bool = False) -> Flow:
        """§7.5 DrawRegret(p) (one card); with ``into_pool`` the card goes to ``ctx.pool``.

        "if the regret deck is empty, the regret discard pile moves into it. If the deck is
        non-empty: chance draw_regret (outcome value v, weight = copies of v in the deck). Else
        the victim = the other seat with the most regret cards, ties: first in seat order after p
        (p+1, p+2, …); if the victim has none, nothing happens; else chance steal_regret (outcome
        v, weight = the victim's copies of v): the card moves to p."
        """
        if not sum(self._regret_deck):
            self._regret_deck = self._regret_discard
            self._regret_discard = [0, 0, 0, 0]
        pool = self._ctx.pool
        if sum(self._regret_deck):
            v = yield chance("draw_regret", p, enumerate(self._regret_deck))
            self._regret_deck[v] -= 1
        else:
            others = [(p + i) % self._n for i in range(1, self._n)]
            victim = max(others, key=lambda q: (self._seats[q].regret_count, -others.index(q)))
            if not self._seats[victim].regret_count:
                return
            weights = enumerate(self._seats[victim].regrets)
            v = yield chance("steal_regret", p, weights, about=victim)
            self._seats[victim].regrets[v] -= 1
        if into_pool and pool is not None:
            self._ctx.pool = sorted([*pool, v])
        else:
            self._seats[p].regrets[v] += 1

    def _discard_random_regret(self, p: int) -> Flow:
        """§7.5 Random discard.

        "chance discard_random_regret (outcome v, weight = p's copies of v) → regret discard
        pile."
        """
        v = yield chance("discard_random_regret", p, enumerate(self._seats[p].regrets))
        self._discard_regret(p, v)

    def _draw_dinks(self, p: int, *, own_cast: bool = False) -> Flow:
        """§7.5 DrawDinks(p); ``own_cast``: the draw happens during p's own cast.

        "k times: if the dink deck is empty, the dink discard pile moves into it; if still
        empty, nothing; else chance draw_dink (outcome dink id, weight 1) → p's dinks." k = 3
        "only if p's equipped reel has the dink_draw passive AND the draw happens during p's own
        cast", else 1 (Centerpin Reel: "When you would draw a Dink card as part of a fishing
        action, draw three instead.").
        """
        seat = self._seats[p]
        k = 1
        reel = self._reel_passive(p, "dink_draw")
        if reel is not None and (own_cast or not reel.when_own_cast):
            k = reel.amount
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
        it and one of its uses is ready; the first ready use is applied." Items without a use
        never are.
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
            case "reveal":
                # §16.10: "ready when a non-empty shoal has a face-down top (at turn and pay)"
                return any(self._shoals[s] and not self._face_up[s] for s in SHOALS)
            case "claw_hammer":
                # §16.10: "ready at the turn node in port when p has a mounted fish (slots or
                # Cloche)"
                mounted = seat.cloche is not None or any(f is not None for f in seat.mounted)
                return at == "turn" and not seat.at_sea and mounted
            case "cloche":
                # §16.10: "ready at the turn node in port when p holds a small mountable fish
                # and p's cloche is null"
                return (
                    at == "turn"
                    and not seat.at_sea
                    and seat.cloche is None
                    and bool(self._cloche_fish(p))
                )
        return False

    def _cloche_fish(self, p: int) -> list[int]:
        """§16.10: the small mountable fish in p's hand."""
        return [f for f in self._sellable_fish(p) if CARDS.fish[f].size == "s"]

    def _use_item(self, p: int, action: int) -> Flow:
        """§7.3 Item use (turn or pay node).

        "the item leaves p (a dink or supply goes to its discard pile; the Life Preserver's holder
        becomes null; a reel stays equipped and reel_used = true); ctx.item is set; the first
        ready use is applied primitive by primitive; then ctx.item = null and the same node (turn
        or pay) is asked again."
        """
        at: Literal["turn", "pay"] = "pay" if self._node.kind == "pay" else "turn"
        kind, item = self._item_for_action(p, action)
        use = self._ready_use(p, item, at)
        assert use is not None
        seat = self._seats[p]
        if kind == "dink" or kind == "supply":
            assert item.id is not None
            seat.owned[kind].remove(item.id)
            # §16.10: "The Cloche card itself stays in use (it is not in supplies and not in the
            # discard pile) while it holds the fish."
            if not any(effect.kind == "cloche" for effect in use):
                self._discard[kind].add(item.id)
        elif kind == "life_preserver":
            self._life_preserver = None
        else:
            seat.reel_used = True
        self._ctx.item = (kind, item.id)
        for effect in use:
            yield from self._apply_effect(p, effect)
        self._ctx.item = None

    def _run_list(self, u: int, f: int, trigger: Trigger, effects: tuple[Effect, ...]) -> Flow:
        """§16.7: an effect list of fish f runs for user u, primitive by primitive.

        "ctx.ability stays set for the whole list (including each sub-lists)". "An effect list
        always runs to its end; a list never triggers another fish's ability." A list run inside
        another one (the catch of an ``auto_catch``) restores the outer ``ctx.ability`` when it
        ends.
        """
        if not effects:
            return
        outer = self._ctx.ability
        self._ctx.ability = (f, trigger)
        for effect in effects:
            yield from self._apply_effect(u, effect)
        self._ctx.ability = outer

    def _apply_effect(self, p: int, effect: Effect) -> Flow:
        """§7.6 and §16.7: one primitive, for user p (an item's user or an ability's user u).

        "Abilities run best effort: each primitive does what it can and skips what it cannot, and
        a decision node is created only when it has at least one legal action".
        """
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
                # §16.7: "draw_regret may have per: foul_in_hand (amount = foul fish in u's hand
                # now, may be 0: then no draw event) and every draw_regret is one draw event".
                amount = effect.amount
                if effect.per == "foul_in_hand":
                    amount = sum(CARDS.fish[f].alignment == "foul" for f in seat.hand)
                yield from self._draw_event(p, amount)
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
            case _:
                yield from self._apply_ability(p, effect)

    def _apply_ability(self, u: int, effect: Effect) -> Flow:
        """§16.7: the primitives added in step 2 (and the step-2 items of §16.10)."""
        seat = self._seats[u]
        ctx = self._ctx
        match effect.kind:
            case "increment":
                yield from self._increment(u, effect.amount)
            case "choice":
                # "node choose_effect (14 = A, 15 = B; both always legal), then the chosen list
                # runs"
                action = yield decision("choose_effect", u, [FIRST_EFFECT, FIRST_EFFECT + 1])
                for sub in effect.options[action - FIRST_EFFECT]:
                    yield from self._apply_effect(u, sub)
            case "coin":
                # "chance coin (0 = heads, 1 = tails, weight 1 each; actor u), then that list runs"
                side = yield chance("coin", u, [(0, 1), (1, 1)])
                for sub in effect.heads if side == 0 else effect.tails:
                    yield from self._apply_effect(u, sub)
            case "each":
                for q in self._group(u, effect.who):
                    for sub in effect.effects:
                        yield from self._apply_effect(q, sub)
            case "gain_money":
                self._gain(u, effect.amount)
            case "take_supply":
                yield from self._take_supplies(u, effect.amount)
            case "draw_dink":
                own_cast = self._own_cast_ability(u)
                for _ in range(effect.amount):
                    yield from self._draw_dinks(u, own_cast=own_cast)  # "DrawDinks(u)"
            case "flip_worms":
                seat.worms = not seat.worms
            case "discard_fish":
                # "if u's hand holds a fish of that size: node discard_fish (165+f)"
                fits = [f for f in sorted(seat.hand) if CARDS.fish[f].size == effect.size]
                if fits:
                    action = yield decision("discard_fish", u, [FISH + f for f in fits])
                    self._discard_fish_from_hand(u, action - FISH)
            case "discard_item":
                yield from self._discard_item(u)
            case "discard_this":
                self._discard_this(u)
            case "give_this":
                yield from self._give_this(u, effect.to)
            case "end_cast":
                self._end_the_cast("end")
            case "free_cast":
                self._end_the_cast("free")
            case "auto_catch":
                # "the fish is caught at once (§16.6, no dice); the cast ends"
                if self._ability_fish_on_top():
                    yield from self._catch(u, "auto")
                self._end_the_cast("end")
            case "set_difficulty":
                if ctx.cast is not None:
                    ctx.cast.base = effect.amount  # "cast.base = amount"
            case "reroll_all":
                # "every Fresh die of u moves to ctx.to_roll and is rolled (chance roll, kind
                # order) back into Fresh"
                ctx.to_roll = sorted(die_kind(c) for c in seat.fresh)
                seat.fresh = []
                yield from self._roll_into_fresh(u)
            case "peek_beneath":
                # "cast.beneath = the second fish of the cast's shoal (null if none)"
                if ctx.cast is not None:
                    shoal = self._shoals[ctx.cast.shoal]
                    ctx.cast.beneath = shoal[1] if len(shoal) > 1 else None
            case "peek_depth":
                # "the shoal of that depth in the cast's column joins known[u] if it is
                # peekable"
                if ctx.cast is not None:
                    s = 3 * (effect.depth - 1) + shoal_column(ctx.cast.shoal)
                    if self._peekable(u, s):
                        self._known[u].add(s)
            case "reveal":
                yield from self._reveal(u, effect.target)
            case "reveal_beneath":
                yield from self._reveal_beneath(u)
            case "discard_tops":
                # "for s = 0..8: amount times, if s is non-empty, its top goes to its depth's
                # discard pile (new top face down, s leaves known)"
                for s in SHOALS:
                    for _ in range(effect.amount):
                        if self._shoals[s]:
                            self._remove_top(s)
            case "move_boats":
                for other in self._seats:  # "every seat at sea moves to that depth"
                    if other.at_sea:
                        other.depth = effect.depth
            case "move_offer":
                # "if u is at sea and u's depth ≠ depth: node move_offer (16 = draw regrets
                # regrets (one draw event) and move to depth; 17 = stay)"
                if seat.at_sea and seat.depth != effect.depth:
                    action = yield decision("move_offer", u, [YES, NO], about=effect.depth)
                    if action == YES:
                        yield from self._draw_event(u, effect.regrets)
                        seat.depth = effect.depth
            case "omen_die":
                self._add_spent(u, OMEN)  # "the Omen die (M) goes to u's Spent pool"
            case "deal_regrets":
                yield from self._deal_regrets(u)
            case "give_regrets":
                yield from self._give_regrets(u)
            case "receive_regrets":
                yield from self._receive_regrets(u)
            case "swap_beneath":
                yield from self._swap_beneath(u)
            case "mimic":
                yield from self._mimic(u)
            case "hadal_shade":
                yield from self._hadal_shade(u, effect.regrets)
            case "shuffle_back":
                yield from self._shuffle_back(u)
            case "plug":
                # "the fish leaves the shoal and lies on the table: plug = true"
                if self._ability_fish_on_top():
                    self._take_top()
                    self._plug = True
                self._end_the_cast("end")
            case "claw_hammer":
                self._claw_hammer(u)
            case "cloche":
                yield from self._mount_on_cloche(u)

    # ----- helpers of the primitives -----

    def _own_cast_ability(self, u: int) -> bool:
        """§7.5: whether a list runs as part of u's own fishing action (Centerpin Reel).

        "a draw_dink primitive of the cast fish's own reveal / catch / not-caught ability running
        with user u" during u's cast; not for eat abilities, item uses, other seats' casts or
        ``each`` sub-lists for another user.
        """
        ability = self._ctx.ability
        return (
            self._ctx.cast is not None
            and ability is not None
            and ability[1] in ("reveal", "catch", "not_caught")
            and u == self._turn
        )

    def _end_the_cast(self, how: CastEnd) -> None:
        """§16.7 end_cast / free_cast: the cast ends after this list (``free`` wins)."""
        if self._cast_end != "free":
            self._cast_end = how

    def _ability_fish(self) -> int:
        """The fish of ``ctx.ability``."""
        ability = self._ctx.ability
        assert ability is not None
        return ability[0]

    def _ability_fish_on_top(self) -> bool:
        """Whether the ability's fish is the top of the cast's shoal."""
        cast = self._ctx.cast
        if cast is None or self._ctx.ability is None:
            return False
        shoal = self._shoals[cast.shoal]
        return bool(shoal) and shoal[0] == self._ability_fish()

    def _take_top(self) -> int:
        """The top fish leaves the cast's shoal; the next top is face down."""
        cast = self._ctx.cast
        assert cast is not None
        f = self._shoals[cast.shoal].pop(0)
        self._face_up[cast.shoal] = False
        self._forget(cast.shoal)
        return f

    def _group(self, u: int, who: str) -> list[int]:
        """§16.7 each: the group, fixed when it starts, in turn order from u.

        "everyone = all seats, others = all but u, at_sea = seats with depth ≥ 1; in turn order
        from u (u first when included; others from u+1)".
        """
        order = [(u + i) % self._n for i in range(self._n)]
        if who == "others":
            return order[1:]
        if who == "at_sea":
            return [q for q in order if self._seats[q].at_sea]
        return order

    def _increment(self, u: int, amount: int) -> Flow:
        """§16.7 increment.

        "amount times, while u has a Fresh die below its top face: node increment (legal 50+c for
        such classes; ctx.left): that die's face +1".
        """
        seat = self._seats[u]
        for i in range(1, amount + 1):
            below = [c for c in seat.fresh if self._below_top(c)]
            if not below:
                break
            self._ctx.left = amount - i + 1
            action = yield decision("increment", u, {DIE + c for c in below})
            self._ctx.left = 0
            c = action - DIE
            seat.fresh.remove(c)
            self._add_fresh(u, die_class(die_kind(c), die_face(c) + 1))

    def _take_supplies(self, u: int, amount: int) -> Flow:
        """§16.7 take_supply.

        "amount times: reshuffle if empty (§7.3), if still empty stop; chance draw_supply (actor
        u) → u's supplies".
        """
        for _ in range(amount):
            self._reshuffle_if_empty("supply")
            if not self._deck["supply"]:
                return
            i = yield chance("draw_supply", u, ((i, 1) for i in self._deck["supply"]))
            self._deck["supply"].remove(i)
            self._seats[u].owned["supply"].add(i)

    def _discard_fish_from_hand(self, p: int, f: int) -> None:
        """Fish f leaves p's hand for its depth's discard pile."""
        self._seats[p].hand.remove(f)
        self._fish_discard[CARDS.fish[f].depth - 1].append(f)

    def _discard_item(self, u: int) -> Flow:
        """§16.7 discard_item.

        "if u owns a rod, reel or supply: node discard_item (legal 125+i, 145+r, 155+r for owned
        items): it goes to its discard pile; a discarded equipped rod/reel leaves rod/reel
        (null)".
        """
        seat = self._seats[u]
        kinds: tuple[ItemKind, ...] = ("supply", "rod", "reel")
        legal = [ITEM_BASE[kind] + i for kind in kinds for i in seat.owned[kind]]
        if not legal:
            return
        action = yield decision("discard_item", u, legal)
        kind: ItemKind = "supply" if action < ROD else "rod" if action < REEL else "reel"
        i = action - ITEM_BASE[kind]
        seat.owned[kind].remove(i)
        self._discard[kind].add(i)
        if kind == "rod" and seat.rod == i:
            seat.rod = None
        if kind == "reel" and seat.reel == i:
            seat.reel = None

    def _discard_this(self, u: int) -> None:
        """§16.7 discard_this.

        "the ability's fish goes to its depth's discard pile from wherever it is (top of the
        cast's shoal, u's hand); if it is no longer there (e.g. eaten), nothing".
        """
        f = self._ability_fish()
        if self._ability_fish_on_top():
            self._take_top()
        elif f in self._seats[u].hand:
            self._seats[u].hand.remove(f)
        else:
            return
        self._fish_discard[CARDS.fish[f].depth - 1].append(f)

    def _give_this(self, u: int, to: str) -> Flow:
        """§16.7 give_this.

        "the fish (top of the cast's shoal) moves into a seat's hand: choice → node give_fish
        (legal 74+q, q ≠ u); left / right → that seat; most_regrets → the seat with strictly the
        most regret cards, u included; on a tie for the most it goes to its depth's discard
        pile". It ends the cast.
        """
        self._end_the_cast("end")
        if not self._ability_fish_on_top():
            return
        f = self._ability_fish()
        q: int | None
        if to == "choice":
            others = [GIVE_TO + q for q in range(self._n) if q != u]
            action = yield decision("give_fish", u, others, about=f)
            q = action - GIVE_TO
        elif to == "left":
            q = (u + 1) % self._n
        elif to == "right":
            q = (u - 1) % self._n
        else:
            counts = [seat.regret_count for seat in self._seats]
            most = [s for s in range(self._n) if counts[s] == max(counts)]
            q = most[0] if len(most) == 1 else None
        self._take_top()
        if q is None:
            self._fish_discard[CARDS.fish[f].depth - 1].append(f)
        else:
            self._seats[q].hand.add(f)

    def _turn_face_up(self, s: int) -> None:
        """§16.11 A reveal outside a cast.

        "the top turns face up and leaves every known set; no reveal ability runs". "A special
        card turned face up this way goes at once to its depth's discard pile without effect (the
        next top stays face down)."
        """
        if not self._shoals[s] or self._face_up[s]:
            return
        self._face_up[s] = True
        self._forget(s)
        if "special" in CARDS.fish[self._shoals[s][0]].flags:
            self._remove_top(s)

    def _face_down_tops(self) -> list[int]:
        """The non-empty shoals whose top is face down."""
        return [s for s in SHOALS if self._shoals[s] and not self._face_up[s]]

    def _reveal(self, u: int, target: str) -> Flow:
        """§16.7 reveal.

        "cast_column = every shoal of the cast's column; all = every shoal; column = node
        reveal_column (97+c for columns with a non-empty face-down top); any = node reveal_shoal
        repeated (legal 0 = done, 32+s for non-empty shoals with a face-down top; it ends
        automatically when none is left)".
        """
        cast = self._ctx.cast
        if target == "cast_column":
            if cast is not None:
                for s in SHOALS:
                    if shoal_column(s) == shoal_column(cast.shoal):
                        self._turn_face_up(s)
        elif target == "all":
            for s in SHOALS:
                self._turn_face_up(s)
        elif target == "column":
            columns = {shoal_column(s) for s in self._face_down_tops()}
            if columns:
                action = yield decision("reveal_column", u, [COLUMN + c for c in columns])
                for s in SHOALS:
                    if shoal_column(s) == action - COLUMN:
                        self._turn_face_up(s)
        elif target == "any":
            while shoals := self._face_down_tops():
                action = yield decision("reveal_shoal", u, [DONE, *(CAST + s for s in shoals)])
                if action == DONE:
                    break
                self._turn_face_up(action - CAST)

    def _reveal_beneath(self, u: int) -> Flow:
        """§16.7 reveal_beneath.

        "if the cast's shoal is non-empty and its top face down: ctx.peek = that top; node
        reveal_beneath (16 = reveal it, 17 = leave it face down); ctx.peek = null".
        """
        cast = self._ctx.cast
        if cast is None:
            return
        s = cast.shoal
        if not self._shoals[s] or self._face_up[s]:
            return
        self._ctx.peek = self._shoals[s][0]
        action = yield decision("reveal_beneath", u, [YES, NO])
        self._ctx.peek = None
        if action == YES:
            self._turn_face_up(s)

    def _deal_regrets(self, u: int) -> Flow:
        """§16.7 deal_regrets (Psychic Interloper).

        "ctx.pool = []; n times DrawRegret(u) into the pool instead of u's hand (no extra draws);
        then for each other seat q in turn order from u+1 while the pool is non-empty: ctx.target
        = q, node give_regret (actor u, legal 70+v for v in the pool): that card goes to q; the
        rest of the pool goes to u; ctx.pool = null, ctx.target = null".
        """
        ctx = self._ctx
        ctx.pool = []
        for _ in range(self._n):
            yield from self._draw_regret(u, into_pool=True)
        for q in self._group(u, "others"):
            if not ctx.pool:
                break
            ctx.target = q
            action = yield decision("give_regret", u, {REGRET + v for v in ctx.pool})
            ctx.pool.remove(action - REGRET)
            self._seats[q].regrets[action - REGRET] += 1
        for v in ctx.pool:
            self._seats[u].regrets[v] += 1
        ctx.pool = None
        ctx.target = None

    def _give_regrets(self, u: int) -> Flow:
        """§16.7 give_regrets to others.

        "for each other seat q (from u+1) while u holds a regret: ctx.target = q, node
        give_regret (actor u, 70+v from u's regrets): the card moves to q".
        """
        for q in self._group(u, "others"):
            if not self._seats[u].regret_count:
                break
            self._ctx.target = q
            action = yield decision("give_regret", u, self._regret_actions(u))
            self._seats[u].regrets[action - REGRET] -= 1
            self._seats[q].regrets[action - REGRET] += 1
        self._ctx.target = None

    def _receive_regrets(self, u: int) -> Flow:
        """§16.7 receive_regrets from others.

        "for each other seat q (from u+1) holding a regret: ctx.target = u, node give_regret
        (actor q, 70+v from q's regrets): the card moves to u".
        """
        for q in self._group(u, "others"):
            if not self._seats[q].regret_count:
                continue
            self._ctx.target = u
            action = yield decision("give_regret", q, self._regret_actions(q))
            self._seats[q].regrets[action - REGRET] -= 1
            self._seats[u].regrets[action - REGRET] += 1
        self._ctx.target = None

    def _swap_beneath(self, u: int) -> Flow:
        """§16.7 swap_beneath (Giant Cuttlefish).

        "if the cast's shoal is non-empty: node swap_beneath (16 = swap, 17 = keep): the top of
        the shoal goes (unseen, face down) to u's hand and the ability's fish goes from u's hand
        onto the shoal as its face-down top; the new hand fish triggers nothing".
        """
        cast = self._ctx.cast
        f = self._ability_fish()
        seat = self._seats[u]
        if cast is None or not self._shoals[cast.shoal] or f not in seat.hand:
            return
        action = yield decision("swap_beneath", u, [YES, NO])
        if action == YES:
            s = cast.shoal
            seat.hand.add(self._shoals[s][0])
            seat.hand.remove(f)
            self._shoals[s][0] = f
            self._face_up[s] = False
            self._forget(s)

    def _mimic(self, u: int) -> Flow:
        """§16.7 mimic (Mimic Octopus).

        "if u's hand holds a small fish: node mimic (165+f): f goes onto the cast's shoal as its
        face-up top in place of the Mimic Octopus, which goes to u's hand (not caught: no
        caught_today); else the Mimic Octopus goes to its discard pile". It ends the cast.
        """
        self._end_the_cast("end")
        if not self._ability_fish_on_top():
            return
        cast = self._ctx.cast
        assert cast is not None
        seat = self._seats[u]
        small = [f for f in sorted(seat.hand) if CARDS.fish[f].size == "s"]
        mimic = self._ability_fish()
        if not small:
            self._remove_top(cast.shoal)
            return
        action = yield decision("mimic", u, [FISH + f for f in small])
        f = action - FISH
        seat.hand.remove(f)
        self._shoals[cast.shoal][0] = f
        self._face_up[cast.shoal] = True
        self._forget(cast.shoal)
        seat.hand.add(mimic)

    def _hadal_shade(self, u: int, regrets: int) -> Flow:
        """§16.7 hadal_shade.

        "if another seat has a mounted fish: node hadal_shade (17 = keep; 300+3q+k = swap with
        seat q's slot k): u draws regrets regrets (one draw event), then the Hadal Shade leaves
        u's hand into q's slot k and q's fish goes to u's hand".
        """
        swaps = [
            HADAL + 3 * q + k
            for q in range(self._n)
            if q != u
            for k in SLOTS
            if self._seats[q].mounted[k] is not None
        ]
        if not swaps:
            return
        action = yield decision("hadal_shade", u, [NO, *swaps])
        if action == NO:
            return
        q, k = divmod(action - HADAL, 3)
        yield from self._draw_event(u, regrets)
        f = self._ability_fish()
        seat, other = self._seats[u], self._seats[q]
        if f not in seat.hand:
            return
        theirs = other.mounted[k]
        assert theirs is not None
        seat.hand.remove(f)
        other.mounted[k] = f
        seat.hand.add(theirs)

    def _shuffle_back(self, u: int) -> Flow:
        """§16.7 shuffle_back (Northern Stargazer).

        "the fish leaves the top of the cast's shoal; chance shuffle_back (outcome k = 0..m where
        m = fish left in the shoal, weight 1 each; actor u): it is inserted with k fish above it;
        the top of the shoal is face down; the shoal leaves known".
        """
        if not self._ability_fish_on_top():
            return
        cast = self._ctx.cast
        assert cast is not None
        f = self._take_top()
        shoal = self._shoals[cast.shoal]
        k = yield chance("shuffle_back", u, ((k, 1) for k in range(len(shoal) + 1)), about=f)
        shoal.insert(k, f)
        self._face_up[cast.shoal] = False
        self._forget(cast.shoal)

    def _claw_hammer(self, u: int) -> None:
        """§16.10 Claw Hammer.

        "every mounted fish and the Cloche fish go to p's hand; if the Cloche was in use it goes
        to the supply discard pile and cloche = null".
        """
        seat = self._seats[u]
        for k in SLOTS:
            f = seat.mounted[k]
            if f is not None:
                seat.hand.add(f)
                seat.mounted[k] = None
        if seat.cloche is not None:
            seat.hand.add(seat.cloche)
            seat.cloche = None
            self._discard["supply"].add(CLOCHE_ID)

    def _mount_on_cloche(self, u: int) -> Flow:
        """§16.10 Cloche.

        "node mount_fish with ctx.slot = 3 (legal 165+f for small mountable fish): f goes onto
        the Cloche, cloche = f".
        """
        fits = self._cloche_fish(u)
        if not fits:
            return
        self._ctx.slot = CLOCHE_SLOT
        action = yield decision("mount_fish", u, [FISH + f for f in fits])
        self._ctx.slot = None
        self._seats[u].hand.remove(action - FISH)
        self._seats[u].cloche = action - FISH

    def _peek_line(self, u: int) -> Flow:
        """§16.7 peek target line.

        "node peek_line (legal 94+r and 97+c for rows/columns with a peekable shoal; ctx.left
        1): as step-1 row/column peeks".
        """
        peekable = [s for s in SHOALS if self._peekable(u, s)]
        if not peekable:
            return
        legal = {ROW + shoal_row(s) for s in peekable}
        legal |= {COLUMN + shoal_column(s) for s in peekable}
        self._ctx.left = 1
        action = yield decision("peek_line", u, legal)
        self._ctx.left = 0
        if action < COLUMN:
            chosen = [s for s in peekable if shoal_row(s) == action - ROW]
        else:
            chosen = [s for s in peekable if shoal_column(s) == action - COLUMN]
        self._known[u].update(chosen)

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
        if target == "line":
            yield from self._peek_line(p)
            return
        line = shoal_row if target == "row" else shoal_column
        base = ROW if target == "row" else COLUMN
        node: NodeKind = "peek_row" if target == "row" else "peek_column"
        lines = {line(s) for s in SHOALS if self._peekable(p, s)}
        if not lines:
            return
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
        discarded, cloche_discarded = self._regret_penalty(regret_value)
        scores = [self._final_score(p) for p in range(self._n)]
        self._end = EndResult(regret_value, discarded, cloche_discarded, scores)

    def _regret_value(self, p: int) -> int:
        """§8 step 1: "RV[p] = Σ values of p's regrets + 10 if p's lifeboat is used"."""
        seat = self._seats[p]
        total = sum(v * copies for v, copies in enumerate(seat.regrets))
        return total + (CARDS.lifeboat_regret_value if seat.lifeboat_used else 0)

    def _regret_penalty(self, regret_value: list[int]) -> tuple[list[int | None], list[int | None]]:
        """§8 step 2 and §16.11: the discarded mounted fish and Cloche fish.

        "Every seat with RV = max RV that has a mounted fish loses one: the mounted fish with the
        highest value(f, p) x multiplier (with 2 players: the lowest), ties: the lowest slot
        index. It goes to its depth's discard pile (seats in order 0..n-1)." §16.11: "step 2 also
        discards, for every seat with the highest Regret Value, its Cloche fish (to its depth's
        discard pile)" — right after that seat's mounted fish.
        """
        discarded: list[int | None] = [None] * self._n
        cloche_discarded: list[int | None] = [None] * self._n
        worst = max(regret_value)
        for p in range(self._n):
            seat = self._seats[p]
            if regret_value[p] != worst:
                continue
            slots = [k for k in SLOTS if seat.mounted[k] is not None]
            if slots:
                discarded[p] = self._discard_mounted(p, slots)
            if seat.cloche is not None:
                f = seat.cloche
                seat.cloche = None
                self._fish_discard[CARDS.fish[f].depth - 1].append(f)
                cloche_discarded[p] = f
        return discarded, cloche_discarded

    def _discard_mounted(self, p: int, slots: list[int]) -> int:
        """§8 step 2: p loses the mounted fish the penalty picks among ``slots``."""
        seat = self._seats[p]
        sign = 1 if self._n == 2 else -1  # the lowest with 2 players, else the highest
        k = min(slots, key=lambda k: (sign * self._mounted_points(p, k), k))
        f = seat.mounted[k]
        assert f is not None
        seat.mounted[k] = None
        self._fish_discard[CARDS.fish[f].depth - 1].append(f)
        return f

    def _mounted_points(self, p: int, k: int) -> int:
        """value(f, p) x the multiplier of slot k, for the fish f mounted in it."""
        f = self._seats[p].mounted[k]
        assert f is not None
        return self._value(f, p) * CARDS.mount_multipliers[k]

    def _final_score(self, p: int) -> int:
        """§8 step 3.

        "score[p] = Σ value(f, p) over the hand + Σ value(f, p) x multiplier over mounted fish +
        money div 2. Madness uses p's final regret count." §16.11: "step 3 adds Σ value(f, p)
        over the front fish and value(Cloche fish, p) x 2".
        """
        seat = self._seats[p]
        hand = sum(self._value(f, p) for f in seat.hand | seat.front)
        if seat.cloche is not None:
            hand += self._value(seat.cloche, p) * CLOCHE_MULTIPLIER
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
        if kind == "coin" and a <= 1:
            return ("heads", "tails")[a]
        if kind == "shuffle_back" and a <= 15 and node.about is not None:
            return f"put {fish_name(node.about)} back under {a} fish"
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
        simple["after_main"] = simple["turn"]
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
            case "after_main" if a == END_TURN:
                return "end turn"
            case "turn" | "pay" | "after_main":
                return self._turn_or_pay_label(a, kind == "pay", d)
            case "sell" if FISH <= a < FISH + len(CARDS.fish):
                return f"sell {fish_name(a - FISH)}"
            case "mount_fish" if FISH <= a < FISH + len(CARDS.fish):
                if self._ctx.slot == CLOCHE_SLOT:
                    return f"mount {fish_name(a - FISH)} on the Cloche"
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
        return self._step2_label(a, d)

    def _step2_label(self, a: int, d: str) -> str | None:
        """§16.12 labels of the node kinds added in step 2."""
        node = self._node
        in_fish = FISH <= a < FISH + len(CARDS.fish)
        name = fish_name(a - FISH) if in_fish else ""
        yes_no: dict[NodeKind, tuple[str, str]] = {
            "swap_beneath": ("swap it for the fish beneath", "keep it"),
            "ignore_reveal": ("resolve the reveal ability", "ignore the reveal ability"),
            "ignore_catch": ("resolve the catch ability", "ignore the catch ability"),
            "reveal_beneath": ("reveal it", "leave it face down"),
            "accept_offer": ("accept the regrets", "refuse the regrets"),
            "move_offer": (f"draw a regret and move to depth {node.about}", "stay"),
        }
        if node.kind in yes_no and a in (YES, NO):
            return yes_no[node.kind][a - YES]
        match node.kind:
            case "choose_effect" if a in (FIRST_EFFECT, FIRST_EFFECT + 1):
                return ("choose the first effect", "choose the second effect")[a - FIRST_EFFECT]
            case "increment" if d:
                return f"increment {d}"
            case "discard_fish" if in_fish:
                return f"discard {name}"
            case "discard_item" if SUPPLY <= a < FISH:
                kind: ItemKind = "supply" if a < ROD else "rod" if a < REEL else "reel"
                return f"discard {CARDS.items[kind][a - ITEM_BASE[kind]].name}"
            case "give_fish" if GIVE_TO <= a < GIVE_TO + 5 and node.about is not None:
                return f"give {fish_name(node.about)} to seat {a - GIVE_TO}"
            case "give_regret" if REGRET <= a < REGRET + 4:
                return f"give a regret of value {a - REGRET} to seat {self._ctx.target}"
            case "reorder" if in_fish:
                return f"put {name} next from the top"
            case "reveal_shoal" if a == DONE:
                return "done revealing"
            case "reveal_shoal" if CAST <= a < CAST + 9:
                return f"reveal shoal {a - CAST}"
            case "reveal_column" if COLUMN <= a < COLUMN + 3:
                return f"reveal column {a - COLUMN}"
            case "peek_line" if ROW <= a < ROW + 3:
                return f"peek at depth {a - ROW + 1}"
            case "peek_line" if COLUMN <= a < COLUMN + 3:
                return f"peek at column {a - COLUMN}"
            case "mimic" if in_fish:
                return f"swap it for {name}"
            case "hadal_shade" if a == NO:
                return "keep it"
            case "hadal_shade" if HADAL <= a < HADAL + 15:
                q, k = divmod(a - HADAL, 3)
                f = self._seats[q].mounted[k] if q < self._n else None
                return None if f is None else f"swap it for seat {q}'s {fish_name(f)}"
            case "offer_target" if GIVE_TO <= a < GIVE_TO + 5:
                return f"offer regrets to seat {a - GIVE_TO}"
            case "offer_regret" if a == DONE:
                return "done offering"
            case "offer_regret" if REGRET <= a < REGRET + 4:
                return f"offer a regret of value {a - REGRET}"
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
        if FISH <= a < FISH + len(CARDS.fish):
            return f"eat {fish_name(a - FISH)}"
        if at_pay:
            return self._pay_step2_label(a)
        if a in STANDING_ACTIONS:
            rule, text = STANDING_ACTIONS[a]
            return f"{text.format(RULE_FISH[rule])}"
        if CAST <= a < CAST + 9:
            return f"cast at shoal {a - CAST}"
        if USE_WORMS <= a < USE_WORMS + 9:
            return f"use the Can of Worms on shoal {a - USE_WORMS}"
        if SHOP <= a < SHOP + 12:
            k, t = divmod(a - SHOP, 3)
            return f"{SHOP_NAMES[k]} shop ${CARDS.shops[k][t].price}"
        return None

    def _pay_step2_label(self, a: int) -> str | None:
        """§16.12 ``pay`` labels 18, 19 and 20."""
        if a == CATCH_BY_SHOWING:
            return "catch by showing a fish"
        if a == CATCH_BY_DISCARDING:
            return "catch by discarding a fish"
        cast = self._ctx.cast
        if a == FLIP_WORMS and cast is not None and self._shoals[cast.shoal]:
            rules = self._cast_fish().rules_of("worms_difficulty")
            if rules:
                return f"flip the Can of Worms: difficulty {rules[0].difficulty}"
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
                "cloche_discarded": [
                    None if f is None else fish_name(f) for f in self._end.cloche_discarded
                ],
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
            "plug": self._plug,
            "front": [[fish_name(f) for f in sorted(s.front)] for s in seats],
            "locks": [sorted(s.locks) for s in seats],
            "cloche": [None if s.cloche is None else fish_name(s.cloche) for s in seats],
            "skull_used": [s.skull_used for s in seats],
            "coffin_used": [s.coffin_used for s in seats],
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
            caster = self._turn
            assert caster is not None
            fish = CARDS.fish[self._shoals[s][0]] if face_up else None
            beneath = ctx.cast.beneath
            cast = {
                "shoal": s,
                "fish": None if fish is None else fish.name,
                "difficulty": None if fish is None else self._effective_difficulty(caster),
                "exact": None if fish is None else fish.exact_dice,
                "payment": [die_string(c) for c in ctx.cast.payment],
                "base": ctx.cast.base,
                "beneath": None if beneath is None or player != caster else fish_name(beneath),
                "ignored": ctx.cast.ignored,
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
            "ability": None
            if ctx.ability is None
            else {"fish": fish_name(ctx.ability[0]), "trigger": ctx.ability[1]},
            "pool": None if ctx.pool is None else [v if is_actor else None for v in ctx.pool],
            "target": ctx.target,
            "offer": [v if player in (self._turn, ctx.target) else None for v in ctx.offer],
            "order": [fish_name(f) if is_actor else None for f in ctx.order],
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
                "cloche_discarded": list(self._end.cloche_discarded),
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
            "plug": self._plug,
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
                "base": ctx.cast.base,
                "beneath": ctx.cast.beneath,
                "ignored": ctx.cast.ignored,
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
            "ability": None
            if ctx.ability is None
            else {"fish": ctx.ability[0], "trigger": ctx.ability[1]},
            "pool": None if ctx.pool is None else list(ctx.pool),
            "target": ctx.target,
            "offer": list(ctx.offer),
            "order": list(ctx.order),
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
            "front": sorted(seat.front),
            "locks": sorted(seat.locks),
            "cloche": seat.cloche,
            "skull_used": seat.skull_used,
            "coffin_used": seat.coffin_used,
        }


# ======================================================================================
# The game
# ======================================================================================


class DeepRegretsGame(ReferenceGame[DeepRegretsState]):
    """Deep Regrets (steps 1 and 2) for 2 to 5 players with fixed options."""

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
        """``(2240 + 362 * players,)`` (§16.12)."""
        return (tensor_size(self.players),)

    def _initial_state(self) -> DeepRegretsState:
        return DeepRegretsState(self)
