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
    """§16.5 step 5: the Rod of the Dead ignored the fish's Reveal ability."""
    revealed: bool
    """§16.5 step 4: this cast turned its fish face up."""


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

_C = "Deep Regrets contract §"
_TERMS = f"{_C} 3. Terms"
_SETUP = f"{_C} 5. Setup"
_DAY = f"{_C} 6. The day"
_START = f"{_DAY}, 6.1 Start phase"
_REFRESH = f"{_DAY}, 6.2 Refresh phase"
_DECLARATION = f"{_DAY}, 6.3 Declaration phase"
_ACTIONS = f"{_DAY}, 6.4 Actions phase"
_MUSTER = f"{_C} 7. Procedures, 7.1 Muster(p)"
_MAKE_PORT = f"{_C} 7. Procedures, 7.2 MakePort(p)"
_TURN = f"{_C} 7.3 The turn node"
_CAST = f"{_C} 7.4 Cast"
_DRAWS = f"{_C} 7.5 Draws and discards"
_EFFECTS = f"{_C} 7. Procedures, 7.6 Effect nodes"
_END = f"{_C} 8. End of the game and scores"
_OBSERVATION = f"{_C} 11.3 Observation of seat p"
_FRONT = f"{_C} 16.2 Fish in front"
_STANDING = f"{_C} 16. Step 2: every card ability, 16.3 Standing rules"
_CAST_2 = f"{_C} 16. Step 2: every card ability, 16.5 The cast"
_CATCH = f"{_C} 16. Step 2: every card ability, 16.6 Catching, declining, the cast end"
_PRIMITIVES = f"{_C} 16.7 Primitives"
_STANDING_ACTIONS = f"{_C} 16. Step 2: every card ability, 16.8 Free and main actions"
_DRAW_EVENTS = f"{_C} 16.9 Regret draw events and extra draws"
_ITEMS_2 = f"{_C} 16.10 Items of step 2"
_OTHER = f"{_C} 16.11 Other rules"
_RESET = f"{_START}, step 5 (reset)"

KEY_SECTIONS: dict[str, str] = {
    "seat": _OBSERVATION,
    "day": f"{_START}, step 1 (day += 1); {_TERMS} (days)",
    "first_player": f"{_SETUP} (first_player = 0); {_START}, step 1 (first_player + 1 mod n)",
    "turn": f"{_ACTIONS} (Arrive, Advance, null when the day ends)",
    "last_turns": f"{_ACTIONS} (Pass, EndTurn: last_turns); {_TURN} (Abandon ship: 4 or 5)",
    "life_preserver": f"{_REFRESH} (the giver); {_TURN} (Item use: the holder becomes null); "
    f"{_START}, step 5 (it returns to the supply)",
    "money": f"{_TURN} (Sell, Shop); {_TERMS} (money is capped at 10); "
    f"{_START}, step 3 (day 4: $3)",
    "depth": f"{_TURN} (Sinker, Abandon ship); {_DECLARATION}, step 1 (declare); "
    f"{_START}, step 4 (boats move up one depth)",
    "regret_count": f"{_DRAWS} (DrawRegret, Random discard); {_DRAW_EVENTS}",
    "regrets": f"{_DRAWS} (DrawRegret, Random discard); {_DRAW_EVENTS}",
    "fresh": f"{_MUSTER}; {_TERMS} (dice: Fresh, Spent, spending)",
    "spent": f"{_MUSTER}; {_TERMS} (dice: Fresh, Spent, spending)",
    "hand": f"{_CATCH} (Catch: the fish moves to the hand); {_TURN} (Sell, Mount)",
    "hand_count": f"{_CATCH} (Catch: the fish moves to the hand); {_TURN} (Sell, Mount)",
    "mounted": f"{_TURN} (Mount); {_END}, step 2 (the highest RV loses a mounted fish)",
    "dinks": f"{_DRAWS} (DrawDinks); {_ACTIONS} (Reward)",
    "dink_count": f"{_DRAWS} (DrawDinks); {_ACTIONS} (Reward)",
    "supplies": f"{_TURN} (Shop: card shop); {_PRIMITIVES} (take_supply)",
    "supply_count": f"{_TURN} (Shop: card shop); {_PRIMITIVES} (take_supply)",
    "rods": f"{_TURN} (Shop: card shop)",
    "reels": f"{_TURN} (Shop: card shop)",
    "rod": f"{_DECLARATION}, steps 2-3 (equip_rod, equip_reel)",
    "reel": f"{_DECLARATION}, steps 2-3 (equip_rod, equip_reel)",
    "worms": f"{_TURN} (Can of Worms); {_START}, step 3 (days 3 and 5: face up); "
    f"{_MAKE_PORT} (face up)",
    "lifeboat_used": f"{_TURN} (Abandon ship)",
    "passed": f"{_ACTIONS} (Pass); {_RESET}",
    "reel_used": f"{_TURN} (Item use: reel_used); {_RESET}",
    "caught_today": f"{_CATCH} (Catch: caught_today); {_RESET}",
    "shops_used": f"{_TURN} (Shop: shops_used); {_RESET}",
    "plug": f"{_OTHER} (The Plug); {_PRIMITIVES} (plug)",
    "front": _FRONT,
    "locks": f"{_FRONT} (Column locks)",
    "cloche": f"{_ITEMS_2} (Cloche, Claw Hammer)",
    "skull_used": f"{_STANDING_ACTIONS} (22: the Whispering Skull, reset each turn)",
    "coffin_used": f"{_STANDING_ACTIONS} (23: the Iron Coffin, reset each turn)",
    "shoals": f"{_CAST} (Known tops); {_CAST_2}, step 4 (reveal); {_OBSERVATION} (shoals)",
    "fish_discard": f"{_START}, step 2 (face-up tops discarded); {_TURN} (Sell)",
    "bag": f"{_TURN} (Shop: tackle); {_TERMS} (spending a tackle die returns it to the bag)",
    "decks": f"{_DRAWS}; {_C} 4. Node model (decks are unordered, reshuffle)",
    "ctx": f"{_C} 11. Observation and canonical state, 11.1 `ctx`; {_OBSERVATION} (ctx)",
    "scores": f"{_END}, step 3 (0 until the game is over); {_OTHER} (End of the game)",
    "end": f"{_END}, steps 1-2 (Regret Value, discarded fish); {_OTHER} (End of the game)",
    "winners": f"{_END}, step 4 (the highest score, ties: lower RV, then fewer regrets)",
    "is_terminal": f"{_END} (after day 6, or at once when the sea is empty); "
    f"{_ACTIONS} (when the day ends)",
}

_NODES: dict[str, str] = {  # for keys with no entry (legal_actions, actor, ...): by the node
    "deal": f"{_SETUP} (Deal: the in-play fish of the shoal's depth)",
    "roll": f"{_MUSTER}, step 3 (roll); {_EFFECTS} (refresh, reroll); {_TURN} (Shop: tackle)",
    "roll_high": f"{_EFFECTS} (reroll_low)",
    "draw_regret": f"{_DRAWS} (DrawRegret); {_DRAW_EVENTS}",
    "steal_regret": f"{_DRAWS} (DrawRegret: the victim)",
    "discard_random_regret": f"{_DRAWS} (Random discard); {_ACTIONS} (Reward)",
    "draw_dink": f"{_DRAWS} (DrawDinks)",
    "draw_supply": f"{_TURN} (Shop: card shop); {_PRIMITIVES} (take_supply)",
    "draw_rod": f"{_TURN} (Shop: card shop)",
    "draw_reel": f"{_TURN} (Shop: card shop)",
    "draw_bag": f"{_TURN} (Shop: tackle)",
    "muster_select": f"{_MUSTER}, step 1 (muster_select)",
    "reroll_select": f"{_EFFECTS} (reroll); {_PRIMITIVES} (reroll max 1)",
    "muster_keep": f"{_MUSTER}, step 4 (muster_keep)",
    "life_preserver": f"{_REFRESH} (the giver)",
    "declare": f"{_DECLARATION}, step 1 (declare)",
    "port_discard": f"{_MAKE_PORT} (port_discard)",
    "equip_rod": f"{_DECLARATION}, step 2 (equip_rod)",
    "equip_reel": f"{_DECLARATION}, step 3 (equip_reel)",
    "turn": f"{_TURN}; {_ACTIONS} (Arrive, Advance); {_STANDING_ACTIONS} (21-23)",
    "worms": f"{_TURN} (Can of Worms)",
    "pay": f"{_CAST}, step 5 (pay); {_CAST_2}, step 7 (pay); {_STANDING} (Effective difficulty)",
    "decline_die": f"{_CAST}, step 7 (Decline: decline_die); {_CATCH} (Decline)",
    "reward": f"{_ACTIONS} (Reward)",
    "sell": f"{_TURN} (Sell)",
    "mount_slot": f"{_TURN} (Mount)",
    "mount_fish": f"{_TURN} (Mount); {_ITEMS_2} (Cloche)",
    "shop_keep": f"{_TURN} (Shop: card shop, shop_keep)",
    "discard_regret": f"{_EFFECTS} (discard_regret); {_STANDING_ACTIONS} (21: the Dumbo Octopus)",
    "refresh_die": f"{_EFFECTS} (refresh); {_STANDING_ACTIONS} (23: the Iron Coffin)",
    "set_max": f"{_EFFECTS} (set_max)",
    "peek_shoal": f"{_EFFECTS} (peek: shoal); {_STANDING_ACTIONS} (22: the Whispering Skull)",
    "peek_row": f"{_EFFECTS} (peek: row)",
    "peek_column": f"{_EFFECTS} (peek: column)",
    "over": _END,
    "coin": f"{_PRIMITIVES} (coin)",
    "shuffle_back": f"{_PRIMITIVES} (shuffle_back)",
    "choose_effect": f"{_PRIMITIVES} (choice)",
    "increment": f"{_PRIMITIVES} (increment)",
    "discard_fish": f"{_PRIMITIVES} (discard_fish); {_CATCH} (Catch with 19)",
    "discard_item": f"{_PRIMITIVES} (discard_item)",
    "give_fish": f"{_PRIMITIVES} (give_this); {_STANDING_ACTIONS} (21: the Dumbo Octopus)",
    "give_regret": f"{_PRIMITIVES} (deal_regrets, give_regrets, receive_regrets)",
    "swap_beneath": f"{_PRIMITIVES} (swap_beneath)",
    "move_offer": f"{_PRIMITIVES} (move_offer)",
    "ignore_reveal": f"{_CAST_2}, step 5 (ignore_reveal); {_ITEMS_2} (Rod of the Dead)",
    "reveal_beneath": f"{_PRIMITIVES} (reveal_beneath)",
    "ignore_catch": f"{_CATCH} (Catch: ignore_catch); {_ITEMS_2} (Rod of the Dead)",
    "reorder": f"{_CAST_2}, step 3 (Rods that reorder)",
    "reveal_shoal": f"{_PRIMITIVES} (reveal: any)",
    "reveal_column": f"{_PRIMITIVES} (reveal: column)",
    "peek_line": f"{_PRIMITIVES} (peek: line)",
    "mimic": f"{_PRIMITIVES} (mimic)",
    "hadal_shade": f"{_PRIMITIVES} (hadal_shade)",
    "offer_target": f"{_STANDING_ACTIONS} (23: the Iron Coffin, offer_target)",
    "offer_regret": f"{_STANDING_ACTIONS} (23: the Iron Coffin, offer_regret)",
    "accept_offer": f"{_STANDING_ACTIONS} (23: the Iron Coffin, accept_offer)",
    "after_main": f"{_TURN} (After the main action); {_STANDING_ACTIONS} (22, 23)",
}

_PHASES: dict[str, str] = {  # without a known node: by the phase
    "setup": _SETUP,
    "refresh": f"{_REFRESH}; {_MUSTER}",
    "declaration": _DECLARATION,
    "actions": f"{_ACTIONS}; {_TURN}",
    "over": _END,
}

_ACTION_IDS = f"{_C} 9. Action ids; {_C} 10. Node kinds and labels"

STATE_SECTIONS: tuple[tuple[str, dict[str, str]], ...] = (("node", _NODES), ("phase", _PHASES))
OTHER_SECTION: str | None = _ACTION_IDS
