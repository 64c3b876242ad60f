"""§7.1 Muster, §7.2 MakePort, abandoning ship and the §7.3 port actions: sell, mount, shop.

One layer of the Deep Regrets reference (:mod:`cardtable.reference.deep_regrets`, whose docstring
tells how the rules are built); the section numbers (§) are those of ``docs/games/deep_regrets.md``.
"""

from __future__ import annotations

from cardtable.reference._deep_regrets.cards import (
    CARDS,
    TACKLE_KINDS,
    ShopTier,
    die_class,
    die_kind,
    face_weights,
)
from cardtable.reference._deep_regrets.fishing import Fishing
from cardtable.reference._deep_regrets.table import (
    DIE,
    DONE,
    FISH,
    ITEM_BASE,
    KEEP_ALL,
    PORT,
    REGRET,
    SHOP_ITEMS,
    SLOT,
    SLOTS,
    TACKLE_SHOP,
    Flow,
    ShopVisit,
    chance,
    decision,
)


class Port(Fishing):
    """§7.1 Muster, §7.2 MakePort, abandoning ship and the §7.3 port actions: sell, mount, shop."""

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
        yield from self._select_fresh_to_roll(p, "muster_select", None)
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

    def _abandon_ship(self, p: int, *, main_taken: bool) -> Flow:
        """§7.3 Abandon ship (a free action).

        "lifeboat used; if last_turns is not null it becomes 4, or 5 at after_main; MakePort(p);
        then back to the node it was taken at." The rulebook (p.10): "If all other players have
        passed when a player uses their lifeboat, they may still take FOUR actions at Port."
        Before the turn's main action, that action is the first of the four; after it
        (``main_taken``), the four are the next four turns.
        """
        self._seats[p].lifeboat_used = True
        if self._last_turns is not None:
            self._last_turns = 5 if main_taken else 4
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
        visit = ShopVisit(k)
        self._ctx.shop = visit
        owned = self._seats[p].owned[item_kind]
        for _ in range(tier.draw):
            card = yield from self._draw_item(p, item_kind)
            if card is None:
                break
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
