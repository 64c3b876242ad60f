"""The observation of Deep Regrets as ``TypedDict`` s.

The format is documented in ``docs/games/deep_regrets.md``. A leaf module: it imports nothing of
cardtable.
"""

from __future__ import annotations

from typing import Literal, TypedDict

__all__ = [
    "AbilityObservation",
    "CastObservation",
    "ContextObservation",
    "DecksObservation",
    "DeepRegretsClock",
    "DeepRegretsNodeKind",
    "DeepRegretsObservation",
    "DeepRegretsPhase",
    "DeepRegretsTrigger",
    "EndObservation",
    "ShoalObservation",
    "ShopObservation",
]

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
    back: str | None
    """The top card's size ("s", "m", "l"), on its back even face down; None if empty (§11.3)."""


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


OBSERVATION = DeepRegretsObservation
"""What ``state.observation(p)`` returns in this game."""
