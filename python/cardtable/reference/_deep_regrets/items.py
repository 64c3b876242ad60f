"""Items (§2.1, §7.3 item use, §7.6 effect nodes) and the effect primitives of §16.7.

Every fish ability and item effect is a list of these primitives.

One layer of the Deep Regrets reference (:mod:`cardtable.reference.deep_regrets`, whose docstring
tells how the rules are built); the section numbers (§) are those of ``docs/games/deep_regrets.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from cardtable.observations.deep_regrets import DeepRegretsNodeKind as NodeKind
from cardtable.observations.deep_regrets import DeepRegretsTrigger as Trigger
from cardtable.reference._deep_regrets.cards import (
    CARDS,
    OMEN,
    Effect,
    Item,
    ItemKind,
    Use,
    die_class,
    die_face,
    die_kind,
    face_weights,
    shoal_column,
    shoal_row,
)
from cardtable.reference._deep_regrets.draws import Draws
from cardtable.reference._deep_regrets.table import (
    CAST,
    CLOCHE_ID,
    CLOCHE_SLOT,
    COLUMN,
    DEEPEST,
    DIE,
    DIE_KIND,
    DINK,
    DONE,
    FIRST_EFFECT,
    FISH,
    GIVE_TO,
    HADAL,
    ITEM_BASE,
    NO,
    REEL,
    REGRET,
    ROD,
    ROLL_NOW,
    ROW,
    SHOALS,
    SLOTS,
    SUPPLY,
    USE_LIFE_PRESERVER,
    USE_REEL,
    YES,
    CastEnd,
    Flow,
    UsedItem,
    chance,
    decision,
)


class Items(Draws):
    """Items (§2.1, §7.3 item use, §7.6 effect nodes) and the effect primitives of §16.7.

    Every fish ability and item effect is a list of these primitives.
    """

    def _catch(self, p: int, how: Literal["dice", "show", "discard", "auto"]) -> Flow:
        """§16.6 Catch, which ``auto_catch`` runs: the rule is :meth:`Fishing._catch`."""
        raise NotImplementedError

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
                # "p has a Spent die and fewer Fresh dice than max" (a payment's too: Decision 87)
                return bool(seat.spent) and self._fresh_below_max(p)
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
        yield from self._raise_dice(u, amount, "increment", lambda c: die_face(c) + 1)

    def _raise_dice(self, p: int, amount: int, node: NodeKind, face: Callable[[int], int]) -> Flow:
        """The loop of §16.7 increment and §7.6 set_max: the chosen die comes back at ``face(c)``.

        "amount times, while p has a Fresh die below its top face: node increment / set_max (legal
        50+c for such classes; ctx.left)".
        """
        seat = self._seats[p]
        for i in range(1, amount + 1):
            below = [c for c in seat.fresh if self._below_top(c)]
            if not below:
                break
            self._ctx.left = amount - i + 1
            action = yield decision(node, p, {DIE + c for c in below})
            self._ctx.left = 0
            c = action - DIE
            seat.fresh.remove(c)
            self._add_fresh(p, die_class(die_kind(c), face(c)))

    def _take_supplies(self, u: int, amount: int) -> Flow:
        """§16.7 take_supply.

        "amount times: reshuffle if empty (§7.3), if still empty stop; chance draw_supply (actor
        u) → u's supplies".
        """
        for _ in range(amount):
            i = yield from self._draw_item(u, "supply")
            if i is None:
                return
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
        next top stays face down)." Decision 83: "If the Sea is ever empty, the game ends
        immediately", also when such a discard empties it.
        """
        if not self._shoals[s] or self._face_up[s]:
            return
        self._face_up[s] = True
        self._forget(s)
        if "special" in CARDS.fish[self._shoals[s][0]].flags:
            self._remove_top(s)
            self._check_the_sea()

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
        reveal_beneath (16 = reveal it, 17 = leave it face down: s joins known[u], Decision 24);
        ctx.peek = null".
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
        else:
            self._known[u].add(s)

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
            yield from self._give_regret(u, q)
        self._ctx.target = None

    def _receive_regrets(self, u: int) -> Flow:
        """§16.7 receive_regrets from others.

        "for each other seat q (from u+1) holding a regret: ctx.target = u, node give_regret
        (actor q, 70+v from q's regrets): the card moves to u".
        """
        for q in self._group(u, "others"):
            if self._seats[q].regret_count:
                yield from self._give_regret(q, u)
        self._ctx.target = None

    def _give_regret(self, giver: int, receiver: int) -> Flow:
        """One give_regret of §16.7, from ``giver`` to ``receiver``.

        "ctx.target = receiver, node give_regret (actor giver, 70+v from giver's regrets): the card
        moves to receiver".
        """
        self._ctx.target = receiver
        action = yield decision("give_regret", giver, self._regret_actions(giver))
        self._seats[giver].regrets[action - REGRET] -= 1
        self._seats[receiver].regrets[action - REGRET] += 1

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

        "for i = 1..amount, while p has a Spent die and |Fresh| < max_fresh(p) (p's payment dice
        count in |Fresh|, Decision 87): node refresh_die (legal 65+k for kinds k in Spent;
        ctx.left as above): that die moves to ctx.to_roll, chance roll, → Fresh."
        """
        seat = self._seats[p]
        for i in range(1, amount + 1):
            if not seat.spent or not self._fresh_below_max(p):
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
        yield from self._select_fresh_to_roll(p, "reroll_select", most)
        yield from self._roll_into_fresh(p)

    def _select_fresh_to_roll(self, p: int, node: NodeKind, most: int | None) -> Flow:
        """The select node of §7.1 Muster (muster_select) and §7.6 reroll (reroll_select).

        "legal: 0 = roll now; 50+c for each class c in p's Fresh pool; ctx.left = most - selected
        so far, or null when there is no most": a chosen die moves from Fresh to ctx.to_roll; the
        node repeats until 0 is chosen, ``most`` dice are chosen or Fresh is empty.
        """
        seat = self._seats[p]
        ctx = self._ctx
        selected = 0
        while seat.fresh and (most is None or selected < most):
            ctx.left = None if most is None else most - selected
            action = yield decision(node, p, [ROLL_NOW, *self._fresh_actions(p)])
            ctx.left = 0
            if action == ROLL_NOW:
                break
            seat.fresh.remove(action - DIE)
            ctx.to_roll = sorted([*ctx.to_roll, die_kind(action - DIE)])
            selected += 1

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
        yield from self._raise_dice(p, amount, "set_max", lambda c: CARDS.dice[die_kind(c)].top)

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
