"""The card data of Deep Regrets: the records of ``data/deep_regrets.json`` and the dice tables.

Loaded once by :mod:`cardtable.reference.deep_regrets`; see the contract
``docs/games/deep_regrets.md`` §2 (the data file) and §3 (dice and shoals).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any, Literal

from cardtable.observations.deep_regrets import DeepRegretsNodeKind as NodeKind

__all__ = [
    "CARDS",
    "DIE_CLASSES",
    "ITEM_KINDS",
    "KIND_LETTERS",
    "OMEN",
    "PLAYER_DIE",
    "TACKLE_KINDS",
    "CardData",
    "DieKind",
    "Effect",
    "Fish",
    "Item",
    "ItemKind",
    "MadnessTier",
    "NodeKind",
    "ShopTier",
    "Use",
    "card_data",
    "die_class",
    "die_face",
    "die_kind",
    "die_string",
    "face_weights",
    "fish_name",
    "shoal_column",
    "shoal_depth",
    "shoal_row",
]

ItemKind = Literal["dink", "supply", "rod", "reel"]
"""The four item decks."""
ITEM_KINDS: tuple[ItemKind, ...] = ("dink", "supply", "rod", "reel")


@dataclass(frozen=True)
class Fish:
    """One fish card (§2 fish record)."""

    id: int
    name: str
    depth: int
    size: str
    alignment: str
    value: int | None
    difficulty: int | None
    exact_dice: int | None
    expansion: str
    flags: frozenset[str]
    reveal: tuple[Effect, ...] = ()
    """§16.1: run when the fish is revealed by a cast."""
    catch: tuple[Effect, ...] = ()
    """§16.1: run when the fish is caught."""
    eat: tuple[Effect, ...] = ()
    """§16.1: run when the fish is eaten."""
    not_caught: tuple[Effect, ...] = ()
    """§16.1: run when the caster declines it."""
    rules: tuple[Effect, ...] = ()
    """§16.3: the standing rules of the fish."""
    front: bool = False
    """§16.2: when caught, the fish goes in front of the catcher instead of into the hand."""

    @property
    def is_shark(self) -> bool:
        """§16.1: "A Shark is a fish whose name ends with " Shark"."""
        return self.name.endswith(" Shark")

    def rules_of(self, kind: str) -> tuple[Effect, ...]:
        """The standing rules of this fish of one kind."""
        return tuple(rule for rule in self.rules if rule.kind == kind)

    @property
    def sellable(self) -> bool:
        """§3: "Sellable / mountable fish: `value` not null and no `nosell` flag"."""
        return self.value is not None and "nosell" not in self.flags


@dataclass(frozen=True)
class Effect:
    """One primitive of an effect list, an item use or passive, or one standing rule.

    §2.1 (step-1 items), §16.3 (standing rules ``rules``) and §16.7 (primitives of abilities) share
    one vocabulary: ``kind`` names the primitive; every other field holds the value of the data
    key of the same name (its default when the key is absent). ``when_*`` are the keys of a rod's
    ``when``; ``effects``, ``options``, ``heads`` and ``tails`` are nested effect lists.
    """

    kind: str
    amount: int = 0
    max: int | None = None
    at_most: int = 0
    depth: int = 0
    target: str = ""
    when_alignment: str | None = None
    when_size: str | None = None
    when_first_catch: bool = False
    when_own_cast: bool = False
    """A ``dink_draw`` passive with ``when: "own_cast"`` (§16.10 Centerpin Reel)."""
    per: str | None = None
    who: str = ""
    to: str = ""
    source: str = ""
    size: str | None = None
    shark: bool = False
    name: str | None = None
    regrets: int = 0
    cost: str | None = None
    difficulty: int = 0
    alignment: str | None = None
    refresh: int = 0
    discard_regrets: int = 0
    effects: tuple[Effect, ...] = ()
    options: tuple[tuple[Effect, ...], ...] = ()
    heads: tuple[Effect, ...] = ()
    tails: tuple[Effect, ...] = ()
    triggers: tuple[str, ...] = ()
    """The triggers an ``ignore_abilities`` passive covers (§16.10 Rod of the Dead)."""


Use = tuple[Effect, ...]
"""A use: its primitives, applied in order."""


@dataclass(frozen=True)
class Item:
    """A dink, supply, rod or reel, or the Life Preserver (§2 item record).

    ``uses`` is empty for an item without a use (§16.1: never null in format 2).
    """

    id: int | None
    name: str
    uses: tuple[Use, ...] | None
    passive: tuple[Effect, ...]


@dataclass(frozen=True)
class MadnessTier:
    """One row of the Ocean Madness track."""

    min_regrets: int
    fair: int
    foul: int
    max_fresh: int
    shop_discount: int


@dataclass(frozen=True)
class ShopTier:
    """One price tier of a shop: card shops draw ``draw`` and keep ``keep``; tackle sells dice."""

    price: int
    draw: int = 0
    keep: int = 0
    dice: int = 0


@dataclass(frozen=True)
class DieKind:
    """A kind of die: its letter and faces."""

    letter: str
    faces: tuple[int, ...]
    count: int

    @property
    def top(self) -> int:
        """§3: "The top face of a kind: P 3, B 2, G 3, O 3, M 4"."""
        return max(self.faces)


@dataclass(frozen=True)
class CardData:
    """Everything in ``data/deep_regrets.json``."""

    fish: tuple[Fish, ...]
    items: dict[ItemKind, tuple[Item, ...]]
    life_preserver: Item
    regret_decks: dict[str, tuple[int, ...]]
    dice: tuple[DieKind, ...]
    madness: tuple[MadnessTier, ...]
    shops: tuple[tuple[ShopTier, ...], ...]
    mount_multipliers: tuple[int, ...]
    money_cap: int
    money_per_point: int
    starting_money: int
    payday: int
    lifeboat_regret_value: int
    overfishing_regrets: int


def _effects(raw: Any) -> tuple[Effect, ...]:
    """An effect list of the data file (null = empty)."""
    return tuple(_effect(e) for e in raw or ())


def _effect(raw: Mapping[str, Any]) -> Effect:
    # ``when`` is an object on the rods' difficulty passives and the string ``"own_cast"`` on
    # the Centerpin Reel's ``dink_draw``.
    when = raw.get("when") or {}
    own_cast = when == "own_cast"
    if not isinstance(when, Mapping):
        when = {}
    return Effect(
        kind=raw["kind"],
        amount=raw.get("amount", 0),
        max=raw.get("max"),
        at_most=raw.get("at_most", 0),
        depth=raw.get("depth", 0),
        target=raw.get("target", ""),
        when_alignment=when.get("alignment"),
        when_size=when.get("size"),
        when_first_catch=bool(when.get("first_catch", False)),
        when_own_cast=own_cast,
        per=raw.get("per"),
        who=raw.get("who", ""),
        to=raw.get("to", ""),
        source=raw.get("source", ""),
        size=raw.get("size"),
        shark=bool(raw.get("shark", False)),
        name=raw.get("name"),
        regrets=raw.get("regrets", 0),
        cost=raw.get("cost"),
        difficulty=raw.get("difficulty", 0),
        alignment=raw.get("alignment"),
        refresh=raw.get("refresh", 0),
        discard_regrets=raw.get("discard_regrets", 0),
        effects=_effects(raw.get("effects")),
        options=tuple(_effects(option) for option in raw.get("options") or ()),
        heads=_effects(raw.get("heads")),
        tails=_effects(raw.get("tails")),
        triggers=tuple(raw.get("triggers") or ()),
    )


def _item(raw: Mapping[str, Any]) -> Item:
    uses = raw["uses"]
    return Item(
        id=raw.get("id"),
        name=raw["name"],
        uses=None if uses is None else tuple(tuple(_effect(e) for e in use) for use in uses),
        passive=_effects(raw.get("passive")),
    )


_FISH_VALUES = (
    "id",
    "name",
    "depth",
    "size",
    "alignment",
    "value",
    "difficulty",
    "exact_dice",
    "expansion",
)
"""Fish fields read from the data file as they are."""
_FISH_EFFECTS = ("reveal", "catch", "eat", "not_caught", "rules")
"""Fish fields that are effect lists."""
_RULE_NUMBERS = (
    "money_cap",
    "money_per_point",
    "starting_money",
    "payday",
    "lifeboat_regret_value",
    "overfishing_regrets",
)
"""The single numbers of the rules, read as they are."""


def _fish(raw: Mapping[str, Any]) -> Fish:
    fields: dict[str, Any] = {key: raw[key] for key in _FISH_VALUES}
    fields.update((key, _effects(raw[key])) for key in _FISH_EFFECTS)
    return Fish(**fields, flags=frozenset(raw["flags"]), front=bool(raw["front"]))


@cache
def card_data() -> CardData:
    """Loads ``data/deep_regrets.json`` once."""
    text = (files("cardtable") / "data" / "deep_regrets.json").read_text(encoding="utf-8")
    raw = json.loads(text)
    plural: dict[ItemKind, str] = {
        "dink": "dinks",
        "supply": "supplies",
        "rod": "rods",
        "reel": "reels",
    }
    return CardData(
        fish=tuple(_fish(f) for f in raw["fish"]),
        items={kind: tuple(_item(r) for r in raw[plural[kind]]) for kind in ITEM_KINDS},
        life_preserver=_item({"id": None, **raw["life_preserver"]}),
        regret_decks={k: tuple(v) for k, v in raw["regret_decks"].items()},
        dice=tuple(DieKind(d["letter"], tuple(d["faces"]), d["count"]) for d in raw["dice"]),
        madness=tuple(
            MadnessTier(t["min_regrets"], t["fair"], t["foul"], t["max_fresh"], t["shop_discount"])
            for t in raw["madness"]
        ),
        shops=tuple(
            tuple(
                ShopTier(t["price"], t.get("draw", 0), t.get("keep", 0), t.get("dice", 0))
                for t in shop["tiers"]
            )
            for shop in raw["shops"]
        ),
        mount_multipliers=tuple(raw["mount_multipliers"]),
        **{key: raw[key] for key in _RULE_NUMBERS},
    )


CARDS = card_data()

# ----- dice (§3) -----

PLAYER_DIE, BLUE, GREEN, ORANGE, OMEN = range(5)
"""Die kinds in kind order: player, blue, green, orange, omen."""
KIND_LETTERS = "".join(kind.letter for kind in CARDS.dice)
"""``PBGOM``."""
TACKLE_KINDS = (BLUE, GREEN, ORANGE)
"""Tackle dice live in the bag (bag colour i is kind ``TACKLE_KINDS[i]``)."""
DIE_CLASSES: tuple[tuple[int, int], ...] = tuple(
    (kind, face) for kind, die in enumerate(CARDS.dice) for face in sorted(set(die.faces))
)
"""§3: die classes ``P1 P2 P3 B0 B1 B2 G1 G2 G3 O2 O3 M1 M2 M3 M4`` as (kind, face)."""


def die_class(kind: int, face: int) -> int:
    """The class of a die of ``kind`` showing ``face``."""
    return DIE_CLASSES.index((kind, face))


def die_kind(c: int) -> int:
    """The kind of die class ``c``."""
    return DIE_CLASSES[c][0]


def die_face(c: int) -> int:
    """The face of die class ``c``."""
    return DIE_CLASSES[c][1]


def die_string(c: int) -> str:
    """§3: "die string = kind letter + face", e.g. ``P3``."""
    kind, face = DIE_CLASSES[c]
    return f"{KIND_LETTERS[kind]}{face}"


def face_weights(kind: int, above: int | None = None) -> list[tuple[int, int]]:
    """A die roll's outcomes: each face value with the number of faces showing it.

    With ``above``, only the faces greater than it (chance ``roll_high``).
    """
    counts = Counter(f for f in CARDS.dice[kind].faces if above is None or f > above)
    return sorted(counts.items())


# ----- fish and shoals -----


def shoal_depth(s: int) -> int:
    """§3: depth(s) = s div 3 + 1."""
    return s // 3 + 1


def shoal_row(s: int) -> int:
    """The row of shoal s (its depth - 1)."""
    return s // 3


def shoal_column(s: int) -> int:
    """§3: column(s) = s mod 3."""
    return s % 3


def fish_name(f: int) -> str:
    """The name of fish ``f``."""
    return CARDS.fish[f].name
