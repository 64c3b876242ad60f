"""The table in attributes (§5 Setup) and its small helpers.

Madness, values, dice, shoals, turn order, the cast fish and the passives of the equipped rod
and reel.

One layer of the Deep Regrets reference (:mod:`cardtable.reference.deep_regrets`, whose docstring
tells how the rules are built); the section numbers (§) are those of ``docs/games/deep_regrets.md``.
"""

from __future__ import annotations

from typing import Any, Literal

from cardtable.observations.deep_regrets import DeepRegretsPhase as Phase
from cardtable.observations.deep_regrets import DeepRegretsTrigger as Trigger
from cardtable.reference._base import ReferenceGame, ReferenceState
from cardtable.reference._deep_regrets.cards import (
    CARDS,
    ITEM_KINDS,
    TACKLE_KINDS,
    Effect,
    Fish,
    ItemKind,
    MadnessTier,
    die_class,
    die_face,
    die_kind,
    face_weights,
)
from cardtable.reference._deep_regrets.table import (
    DIE,
    ITEM_DECK_SIZE,
    REGRET,
    SHOALS,
    CastEnd,
    Context,
    EndResult,
    Flow,
    Node,
    SeaIsEmpty,
    Seat,
    chance,
)


class Board(ReferenceState):
    """The table in attributes (§5 Setup) and its small helpers.

    Madness, values, dice, shoals, turn order, the cast fish and the passives of the equipped rod
    and reel.
    """

    _flow: Flow
    """The game flow, where it will continue (started by the state)."""
    _node: Node
    """The node the flow waits at."""

    def __init__(
        self,
        game: ReferenceGame[Any],
        *,
        days: int,
        regret_split: str,
        expansion_tentacles: bool,
    ) -> None:
        """§5 Setup: "Initial state (before any node)", for the game's options."""
        super().__init__(game)
        self._n = game.players
        self._first_day = 1 if days == 6 else 2
        self._fish_per_shoal = 15 if expansion_tentacles else 13
        self._in_play = [
            f.id
            for f in CARDS.fish
            if f.expansion == "base" or (expansion_tentacles and f.expansion == "tentacles")
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
        self._regret_deck = list(CARDS.regret_decks[regret_split])
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

    def _fresh_below_max(self, p: int) -> bool:
        """§2.1, §7.6 with Decision 87: p has fewer Fresh dice than max_fresh(p), payment too.

        The dice p has put into its cast's payment count among its Fresh dice: "It is enforced
        when dice are added (muster, shop, refresh effects). Dice beyond the max go to Spent." A
        payment die is spent only when the fish is paid for; until then it is one of p's Fresh
        dice.
        """
        cast = self._ctx.cast
        paying = len(cast.payment) if cast is not None and self._turn == p else 0
        return len(self._seats[p].fresh) + paying < self._max_fresh(p)

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

    def _cast_fish(self) -> Fish:
        """The fish on top of the cast's shoal."""
        cast = self._ctx.cast
        assert cast is not None
        return CARDS.fish[self._shoals[cast.shoal][0]]

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

    def _passive(self, p: int, gear: Literal["rod", "reel"], kind: str) -> Effect | None:
        """The passive of ``kind`` of p's equipped rod or reel (``gear``), if any."""
        item = self._seats[p].rod if gear == "rod" else self._seats[p].reel
        if item is None:
            return None
        return next((e for e in CARDS.items[gear][item].passive if e.kind == kind), None)

    def _ignores(self, p: int, trigger: Trigger) -> bool:
        """§16.10 Rod of the Dead: whether p's equipped rod lets p ignore ``trigger`` abilities.

        ``items.csv``: "you may choose to ignore the Reveal and/or Catch abilities of the fish you
        reveal and/or catch (each ability separately)" (Decision 38).
        """
        rod = self._passive(p, "rod", "ignore_abilities")
        return rod is not None and trigger in rod.triggers

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
