"""The observation of every game as a ``TypedDict`` (what ``state.observation(p)`` returns).

Both backends return plain dicts of exactly these shapes; annotate with them to get type checking of
observation handling code::

    from typing import cast
    from cardtable.observations import TurnTheTideObservation

    obs = cast(TurnTheTideObservation, state.observation(0))
    obs["hand"]  # list[int]

The formats are documented per game in ``docs/games/<game_id>.md``.

This module is a leaf: it imports nothing of cardtable, so the reference implementations import
their observation types from here (never the other way round).
"""

from __future__ import annotations

from typing import Literal, TypedDict

__all__ = [
    "OBSERVATION_TYPES",
    "DeepRegretsClock",
    "DeepRegretsObservation",
    "GoofspielObservation",
    "TrafficarsMemoryObservation",
    "TrafficarsObservation",
    "TrafficarsOvertakingObservation",
    "TurnTheTideObservation",
]

# ======================================================================================
# deep_regrets (docs/games/deep_regrets.md)
# ======================================================================================

DeepRegretsNodeKind = Literal[
    "deal",
    "roll",
    "roll_high",
    "draw_regret",
    "steal_regret",
    "discard_random_regret",
    "draw_dink",
    "draw_supply",
    "draw_rod",
    "draw_reel",
    "draw_bag",
    "muster_select",
    "reroll_select",
    "muster_keep",
    "life_preserver",
    "declare",
    "port_discard",
    "equip_rod",
    "equip_reel",
    "turn",
    "worms",
    "pay",
    "decline_die",
    "reward",
    "sell",
    "mount_slot",
    "mount_fish",
    "shop_keep",
    "discard_regret",
    "refresh_die",
    "set_max",
    "peek_shoal",
    "peek_row",
    "peek_column",
    "over",
    "coin",
    "shuffle_back",
    "choose_effect",
    "increment",
    "discard_fish",
    "discard_item",
    "give_fish",
    "give_regret",
    "swap_beneath",
    "move_offer",
    "ignore_reveal",
    "reveal_beneath",
    "ignore_catch",
    "reorder",
    "reveal_shoal",
    "reveal_column",
    "peek_line",
    "mimic",
    "hadal_shade",
    "offer_target",
    "offer_regret",
    "accept_offer",
    "after_main",
]
"""§10 and §16.12: every node kind, in the order of the tensor's ``node`` segment (58)."""


DeepRegretsTrigger = Literal["reveal", "catch", "eat", "not_caught"]
"""§16.12: what runs an effect list of a fish."""

DeepRegretsPhase = Literal["setup", "refresh", "declaration", "actions", "over"]
"""§11.2: the phase of the day (``setup`` during the deal, ``over`` at the end)."""


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
    trigger: DeepRegretsTrigger


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


class DeepRegretsClock(TypedDict):
    """Where a Deep Regrets game stands: public, in the observation and in the canonical state."""

    day: int
    phase: DeepRegretsPhase
    node: DeepRegretsNodeKind
    actor: int | None
    turn: int | None
    first_player: int
    last_turns: int | None


class DeepRegretsObservation(DeepRegretsClock):
    """What one seat may know (§11.3: these keys and those of :class:`DeepRegretsClock`)."""

    seat: int
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
# goofspiel (docs/games/goofspiel.md)
# ======================================================================================


class GoofspielObservation(TypedDict):
    """What one seat knows in goofspiel."""

    seat: int
    turn: int
    point_card: int | None
    remaining_points: list[int]
    hands: list[list[int]]
    points: list[int]
    bids: list[list[int]]
    point_history: list[int]
    committed: list[bool]
    own_bid: int | None


# ======================================================================================
# trafficars (docs/games/trafficars.md)
# ======================================================================================

TrafficarsPhase = Literal["deal", "commit", "resolve", "over"]
"""What the game is waiting for (the observation's ``phase``)."""

TrafficarsDecision = Literal[
    "commit", "ambulance", "police", "police_take", "tow_truck", "target", "take", "insert"
]
"""The kind of a pending decision (the observation's ``decision``)."""


class TrafficarsObservation(TypedDict):
    """What one seat may know (the contract's observation, exactly these keys)."""

    seat: int
    """The observing seat."""
    phase: TrafficarsPhase
    """``"deal"``, ``"commit"``, ``"resolve"`` or ``"over"``."""
    decision: TrafficarsDecision | None
    """The kind of the pending decision; None at chance nodes and at the end."""
    turn: int
    """0-based turn (= turns completed)."""
    hand: list[int]
    """Sorted card ids the seat holds, without its pending commitment."""
    lanes: list[list[list[int] | None]]
    """Per lane, its places front to end: card ids bottom to top, or None for the free place."""
    place_cars: list[list[int]]
    """Per lane, per place, the place's car count."""
    cars: list[int]
    """Per lane, the cars in it."""
    penalties: list[int]
    """Per seat, the number of penalty cards taken."""
    committed: list[bool]
    """Per seat, whether it holds a pending (hidden) commitment."""
    own_commitment: int | None
    """The seat's own pending commitment, or None."""
    revealed: list[int] | None
    """This turn's cards per seat once revealed, else None."""
    last_revealed: list[int] | None
    """The cards per seat revealed in the last turn that has ended; None while none has ended."""
    resolving: int | None
    """The card being resolved, else None."""
    queue: list[int]
    """The seats whose revealed cards are not yet resolved, in resolution order."""


# ======================================================================================
# trafficars_memory (docs/games/trafficars_memory.md)
# ======================================================================================

TrafficarsMemoryPhase = Literal["layout", "flip", "over"]
"""What the game is waiting for (the observation's ``phase``)."""


class TrafficarsMemoryObservation(TypedDict):
    """What one seat may know (the contract's observation, exactly these keys)."""

    seat: int
    """The observing seat."""
    phase: TrafficarsMemoryPhase
    """``"layout"``, ``"flip"`` or ``"over"``."""
    current: int | None
    """The seat to flip; None during the layout and at the end."""
    faces: list[int | None]
    """Per position: the card id if it is face up now (flipped this turn), else None."""
    seen: list[int | None]
    """Per position: the card id if it is still on the table and was ever flipped, else None."""
    on_table: list[bool]
    """Per position: whether a card lies there."""
    taken: list[int]
    """Per seat: the number of cards taken."""
    flipped: list[int]
    """This turn's face-up positions in flip order."""
    idle_turns: int
    """Turns in a row, the current one included while it has shown no new card, that took no
    card and turned up no card unseen before; ``N(N - 1)/2`` of them end the game (N cards laid
    out)."""


# ======================================================================================
# trafficars_overtaking (docs/games/trafficars_overtaking.md)
# ======================================================================================

TrafficarsOvertakingPhase = Literal["deal", "play", "overtake", "start", "over"]
"""What the game is waiting for (the observation's ``phase``)."""


class TrafficarsOvertakingObservation(TypedDict):
    """What one seat may know (the contract's observation, exactly these keys)."""

    seat: int
    """The observing seat."""
    phase: TrafficarsOvertakingPhase
    """``"deal"``, ``"play"``, ``"overtake"``, ``"start"`` or ``"over"``."""
    row: list[int]
    """The middle row, card ids left to right."""
    hand: list[int]
    """The seat's hand, sorted."""
    pile_sizes: list[int]
    """Per seat: cards in the pile."""
    hand_sizes: list[int]
    """Per seat: cards in hand."""
    active: int
    """The active seat."""
    overtaker: int
    """The overtaker seat."""
    passes: int
    """Passes since the last card was placed."""
    overtake_card: int | None
    """The card just played while an overtake decision is pending, else None."""
    winner: int | None
    """The winning seat, or None."""


# ======================================================================================
# turn_the_tide (docs/games/turn_the_tide.md)
# ======================================================================================

TurnTheTidePhase = Literal["deal", "tide", "play", "choose_tide", "over"]
"""What the game is waiting for (the observation's ``phase``)."""


class TurnTheTideObservation(TypedDict):
    """What one seat may know (the contract's observation, exactly these keys)."""

    seat: int
    """The observing seat."""
    phase: TurnTheTidePhase
    """``"deal"``, ``"tide"`` (a tide draw is due), ``"play"``, ``"choose_tide"`` or ``"over"``."""
    round: int
    """0-based round."""
    hand_index: int
    """0-based hand within the round."""
    hand: list[int]
    """Sorted weather cards the seat still holds ([] during the deal)."""
    lifebuoys: list[int]
    """Face-up lifebuoys per seat."""
    tide: list[int | None]
    """Showing tide value per seat; None if none or eliminated."""
    revealed_tide: list[int]
    """Tide values drawn in the current hand, in draw order."""
    eliminated: list[bool]
    """Per seat: eliminated from the current round."""
    played: list[list[int]]
    """Per seat: the weather cards revealed this round, in order."""
    committed: list[bool]
    """Per seat: has committed a card in the current hand."""
    own_commitment: int | None
    """The seat's own pending commitment, or None."""
    scores: list[int]
    """Running totals."""


OBSERVATION_TYPES: dict[str, type] = {
    "deep_regrets": DeepRegretsObservation,
    "goofspiel": GoofspielObservation,
    "trafficars": TrafficarsObservation,
    "trafficars_memory": TrafficarsMemoryObservation,
    "trafficars_overtaking": TrafficarsOvertakingObservation,
    "turn_the_tide": TurnTheTideObservation,
}
"""The observation type of each game id."""
