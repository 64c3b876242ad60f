"""§11.3 the observation of a seat and §11.2 the canonical state.

One layer of the Deep Regrets reference (:mod:`cardtable.reference.deep_regrets`, whose docstring
tells how the rules are built); the section numbers (§) are those of ``docs/games/deep_regrets.md``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from cardtable.observations.deep_regrets import (
    CastObservation,
    ContextObservation,
    DecksObservation,
    DeepRegretsClock,
    DeepRegretsObservation,
    EndObservation,
    ShoalObservation,
    ShopObservation,
)
from cardtable.reference._deep_regrets.cards import (
    CARDS,
    ITEM_KINDS,
    KIND_LETTERS,
    ItemKind,
    die_string,
    fish_name,
)
from cardtable.reference._deep_regrets.labels import Labels
from cardtable.reference._deep_regrets.table import (
    SHOALS,
    SHOP_ITEMS,
    SHOP_NAMES,
    Seat,
)
from cardtable.reference._deep_regrets.tensor import encode_observation


class Views(Labels):
    """§11.3 the observation of a seat and §11.2 the canonical state."""

    # ----- the observation (§11.3) -----

    def _clock(self) -> DeepRegretsClock:
        """Where the game stands (day, phase, node, actor, turn order): public, in both views."""
        return {
            "day": self._day,
            "phase": self._phase,
            "node": self._node.kind,
            "actor": self._node.actor,
            "turn": self._turn,
            "first_player": self._first_player,
            "last_turns": self._last_turns,
        }

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
            **self._clock(),
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
            "decks": self._deck_counts(),
            "ctx": self._context_view(player),
            "scores": self._scores(),
            "end": end,
        }

    def _deck_counts(self) -> DecksObservation:
        """The cards in every deck and discard pile: regrets, then each item kind."""
        counts = {"regret": sum(self._regret_deck), "regret_discard": sum(self._regret_discard)}
        for kind in ITEM_KINDS:
            counts[kind] = len(self._deck[kind])
            counts[f"{kind}_discard"] = len(self._discard[kind])
        return cast("DecksObservation", counts)

    def _shoal_view(self, player: int, s: int) -> ShoalObservation:
        """Shoal s as ``player`` sees it.

        "size: cards left, top: name if the top is face up else null, known: name if the top is
        face down and in known[p] else null, back: the top card's size in the data file ("s",
        "m", "l"), face up or face down, null when the shoal is empty": "the card back shows the
        size silhouette" (Decision 86: "Card back shows depth and size silhouette (Small /
        Middling / Large).").
        """
        shoal = self._shoals[s]
        top = fish_name(shoal[0]) if shoal else None
        return {
            "size": len(shoal),
            "top": top if self._face_up[s] else None,
            "known": top if not self._face_up[s] and s in self._known[player] else None,
            "back": CARDS.fish[shoal[0]].size if shoal else None,
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
                "revealed": ctx.cast.revealed,
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
            **self._clock(),
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
                "revealed": ctx.cast.revealed,
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
