"""The observation tensor of Deep Regrets (§11.4, §16.12): the observation dict, ids for names.

§16.12: "the node segment has 58 entries (35 + 23 in the order above); the mounted segment encodes
the Cloche fish as slot 3 (entry (3+1)/3); and these segments are appended at the end": ``plug``,
``front``, ``locks``, ``used``, ``ctx.ability``, ``ctx.pool``, ``ctx.target``, ``ctx.offer``,
``ctx.order``, ``ctx.cast2``, ``shoal_top_depth``. "Total size: 2268 + 362·n."
"""

from __future__ import annotations

from typing import get_args

from cardtable.observations.deep_regrets import DeepRegretsObservation
from cardtable.reference._deep_regrets.cards import (
    CARDS,
    DIE_CLASSES,
    KIND_LETTERS,
    NodeKind,
    die_string,
)
from cardtable.reference._tensor import TensorBuilder

__all__ = ["TENSOR_NODES", "encode_observation", "tensor_size"]

TENSOR_PHASES = ("setup", "refresh", "declaration", "actions", "over")
"""The phases in the order of the ``phase`` segment."""
TENSOR_NODES: tuple[str, ...] = get_args(NodeKind)
"""§11.4: the node kinds in the order of the ``node`` segment."""
FISH = len(CARDS.fish)
"""135 fish ids."""
BLOCK = 45
"""Fish ids per depth."""
DINKS, SUPPLIES, RODS, REELS = (len(CARDS.items[k]) for k in ("dink", "supply", "rod", "reel"))
"""25 dinks, 20 supplies, 10 rods, 10 reels."""

FISH_ID = {fish.name: fish.id for fish in CARDS.fish}
"""Fish names are unique: each name stands for one id."""
DINK_ID = {item.name: i for i, item in enumerate(CARDS.items["dink"])}
SUPPLY_ID = {item.name: i for i, item in enumerate(CARDS.items["supply"])}
ROD_ID = {item.name: i for i, item in enumerate(CARDS.items["rod"])}
REEL_ID = {item.name: i for i, item in enumerate(CARDS.items["reel"])}
USED_ITEM_INDEX = {
    **DINK_ID,
    **{name: DINKS + i for name, i in SUPPLY_ID.items()},
    **{name: DINKS + SUPPLIES + i for name, i in REEL_ID.items()},
    CARDS.life_preserver.name: DINKS + SUPPLIES + REELS,
}
"""``ctx.item``: dinks, then supplies, reels and the Life Preserver."""
SHOP_DRAWN_BASE = {"rod": (0, ROD_ID), "reel": (RODS, REEL_ID), "supply": (RODS + REELS, SUPPLY_ID)}
"""Where the cards drawn in each shop go in the ``ctx.shop`` segment."""
DIE_CLASS = {die_string(c): c for c in range(len(DIE_CLASSES))}
"""Die string → die class."""


TRIGGERS = ("reveal", "catch", "eat", "not_caught")
"""The triggers in the order of the ``ctx.ability`` segment."""
BACKS = ("s", "m", "l")
"""§11.4: the sizes in the order of the ``shoals`` segment's one-hot of ``back``."""


def tensor_size(players: int) -> int:
    """The number of entries: ``2268 + 362 * players``."""
    return 2268 + 362 * players


def _in_block(name: str | None) -> int | None:
    """The index of a shoal's fish within its depth's block of 45 ids (``id mod 45``), or None.

    A fish of another depth (the Mimic Octopus, §16.7 ``mimic``, can put any small fish of the hand
    on a shoal) uses its own depth's index; the appended ``shoal_top_depth`` segment tells its
    depth (§16.12).
    """
    return None if name is None else FISH_ID[name] % BLOCK


def _dice(t: TensorBuilder, dice: list[str]) -> None:
    """Dice per class / 4."""
    counts = [0] * len(DIE_CLASSES)
    for die in dice:
        counts[DIE_CLASS[die]] += 1
    for count in counts:
        t.scaled(count, 4)


def _kinds(t: TensorBuilder, letters: list[str]) -> None:
    """Dice per kind / 4."""
    for letter in KIND_LETTERS:
        t.scaled(letters.count(letter), 4)


def _seat_block(t: TensorBuilder, obs: DeepRegretsObservation, s: int) -> None:
    """The 78 entries of seat ``s``."""
    t.scaled(obs["money"][s], 10)
    t.one_hot(obs["depth"][s], 4)
    t.scaled(obs["regret_count"][s], 13)
    _dice(t, obs["fresh"][s])
    _kinds(t, obs["spent"][s])
    t.scaled(obs["hand_count"][s], 10)
    t.scaled(obs["dink_count"][s], 5)
    t.scaled(obs["supply_count"][s], 5)
    t.multi_hot((ROD_ID[name] for name in obs["rods"][s]), RODS)
    t.multi_hot((REEL_ID[name] for name in obs["reels"][s]), REELS)
    rod, reel = obs["rod"][s], obs["reel"][s]
    t.one_hot(None if rod is None else ROD_ID[rod], RODS)
    t.one_hot(None if reel is None else REEL_ID[reel], REELS)
    for flags in ("worms", "lifeboat_used", "passed", "reel_used", "caught_today"):
        t.flag(obs[flags][s])
    for used in obs["shops_used"][s]:
        t.flag(used)


def _context(t: TensorBuilder, obs: DeepRegretsObservation) -> None:
    """The ``ctx`` segments (428 entries)."""
    ctx = obs["ctx"]
    _kinds(t, ctx["to_roll"])
    _dice(t, ctx["rolled"])
    left = ctx["left"]
    t.flag(left is None)
    t.scaled(left or 0, 5)
    t.scaled(ctx["count"], 5)
    t.scaled(ctx["foul"], 5)
    slot = ctx["slot"]
    t.one_hot(slot if slot is not None and slot < 3 else None, 3)  # §16.12: the Cloche (3) is all 0
    t.scaled(ctx["discount"], 5)
    cast = ctx["cast"]
    if cast is None:
        t.extend([0.0] * (1 + 9 + FISH + 4 + len(DIE_CLASSES)))
    else:
        t.flag(True)
        t.one_hot(cast["shoal"], 9)
        fish = cast["fish"]
        t.one_hot(None if fish is None else FISH_ID[fish], FISH)
        difficulty, exact = cast["difficulty"], cast["exact"]
        t.flag(difficulty is not None)
        t.scaled(difficulty or 0, 10)
        t.flag(exact is not None)
        t.scaled(exact or 0, 5)
        _dice(t, cast["payment"])
    peek = ctx["peek"]
    t.one_hot(None if peek is None else FISH_ID[peek], FISH)
    shop = ctx["shop"]
    if shop is None:
        t.extend([0.0] * 45)
    else:
        t.flag(True)
        t.one_hot(("rod", "reel", "supply").index(shop["shop"]), 3)
        t.scaled(len(shop["drawn"]), 5)
        drawn = [0.0] * (RODS + REELS + SUPPLIES)
        base, ids = SHOP_DRAWN_BASE[shop["shop"]]
        for k, name in enumerate(shop["drawn"]):
            if name is not None:
                drawn[base + ids[name]] = (k + 1) / 5
        t.extend(drawn)
    item = ctx["item"]
    t.one_hot(None if item is None else USED_ITEM_INDEX[item], DINKS + SUPPLIES + REELS + 1)


def encode_observation(obs: DeepRegretsObservation, players: int) -> list[float]:
    """Encodes a §11.3 observation dict in the §11.4 layout."""
    n = players
    t = TensorBuilder()
    t.one_hot(obs["seat"], n)
    t.one_hot(obs["day"] - 1, 6)
    t.one_hot(TENSOR_PHASES.index(obs["phase"]), len(TENSOR_PHASES))
    t.one_hot(TENSOR_NODES.index(obs["node"]), len(TENSOR_NODES))
    t.one_hot(obs["actor"], n)
    t.one_hot(obs["turn"], n)
    t.one_hot(obs["first_player"], n)
    last_turns = obs["last_turns"]
    t.flag(last_turns is not None)
    t.scaled(last_turns or 0, 4)
    t.one_hot(obs["life_preserver"], n)
    current = obs["current_player"]
    t.one_hot({-1: n, -2: n + 1}.get(current, current), n + 2)
    for s in range(n):
        _seat_block(t, obs, s)
    for slots, cloche in zip(obs["mounted"], obs["cloche"], strict=True):
        mounted = [0.0] * FISH
        for k, name in enumerate([*slots, cloche]):
            if name is not None:
                mounted[FISH_ID[name]] = (k + 1) / 3
        t.extend(mounted)
    for value in range(4):
        t.scaled(obs["regrets"].count(value), 10)
    t.multi_hot((FISH_ID[name] for name in obs["hand"]), FISH)
    t.multi_hot((DINK_ID[name] for name in obs["dinks"]), DINKS)
    t.multi_hot((SUPPLY_ID[name] for name in obs["supplies"]), SUPPLIES)
    for shoal in obs["shoals"]:
        # "[size / 15, one-hot(top − 45·(d − 1), 45), one-hot(known − 45·(d − 1), 45),
        # one-hot(back over s, m, l, 3) (all 0 when null: an empty shoal)]"
        top, known, back = shoal["top"], shoal["known"], shoal["back"]
        t.scaled(shoal["size"], 15)
        t.one_hot(_in_block(top), BLOCK)
        t.one_hot(_in_block(known), BLOCK)
        t.one_hot(None if back is None else BACKS.index(back), len(BACKS))
    discard = [0.0] * FISH
    for pile in obs["fish_discard"]:
        for i, name in enumerate(pile):
            discard[FISH_ID[name]] = (i + 1) / 15
    t.extend(discard)
    for count in obs["bag"]:
        t.scaled(count, 9)
    decks = obs["decks"]
    for key, scale in (
        ("regret", 60),
        ("regret_discard", 60),
        ("dink", 25),
        ("dink_discard", 25),
        ("supply", 20),
        ("supply_discard", 20),
        ("rod", 10),
        ("rod_discard", 10),
        ("reel", 10),
        ("reel_discard", 10),
    ):
        t.scaled(decks[key], scale)  # type: ignore[literal-required]
    _context(t, obs)
    for score in obs["scores"]:
        t.scaled(score, 50)
    end = obs["end"]
    t.flag(end is not None)
    for s in range(n):
        t.scaled(0 if end is None else end["regret_value"][s], 20)
    discarded = [0.0] * FISH
    if end is not None:
        for s, name in enumerate(end["discarded"]):
            if name is not None:
                discarded[FISH_ID[name]] = (s + 1) / n
    t.extend(discarded)
    _ability_segments(t, obs, n)
    return t.values


def _ability_segments(t: TensorBuilder, obs: DeepRegretsObservation, n: int) -> None:
    """§16.12: the segments of the abilities and item effects, appended at the end."""
    seat = obs["seat"]
    ctx = obs["ctx"]
    t.flag(obs["plug"])
    for names in obs["front"]:
        t.multi_hot((FISH_ID[name] for name in names), FISH)
    for locks in obs["locks"]:
        t.multi_hot(locks, 3)
    for s in range(n):
        t.flag(obs["skull_used"][s])
        t.flag(obs["coffin_used"][s])
    ability = ctx["ability"]
    t.one_hot(None if ability is None else FISH_ID[ability["fish"]], FISH)
    t.one_hot(None if ability is None else TRIGGERS.index(ability["trigger"]), len(TRIGGERS))
    pool = ctx["pool"]
    t.flag(pool is not None)
    t.scaled(0 if pool is None else len(pool), 5)
    is_actor = obs["actor"] == seat
    for value in range(4):
        t.scaled(pool.count(value) if pool is not None and is_actor else 0, 5)
    t.one_hot(ctx["target"], n)
    offer = ctx["offer"]
    t.scaled(len(offer), 2)
    sees_offer = seat in (obs["turn"], ctx["target"])
    for value in range(4):
        t.scaled(offer.count(value) if sees_offer else 0, 2)
    t.scaled(len(ctx["order"]), 3)
    order = [0.0] * FISH
    if is_actor:
        for k, name in enumerate(ctx["order"]):
            if name is not None:
                order[FISH_ID[name]] = (k + 1) / 3
    t.extend(order)
    # ctx.cast2 (139): "[1 if base not null, base / 10, one-hot(beneath, 135) if p is the caster,
    # ignored, revealed]; 0 when no cast".
    cast = ctx["cast"]
    if cast is None:
        t.extend([0.0] * (2 + FISH + 2))
    else:
        base, beneath = cast["base"], cast["beneath"]
        t.flag(base is not None)
        t.scaled(base or 0, 10)
        caster = obs["turn"] == seat
        t.one_hot(None if beneath is None or not caster else FISH_ID[beneath], FISH)
        t.flag(cast["ignored"])
        t.flag(cast["revealed"])
    for shoal in obs["shoals"]:
        top = shoal["top"]
        t.one_hot(None if top is None else FISH_ID[top] // BLOCK, 3)
