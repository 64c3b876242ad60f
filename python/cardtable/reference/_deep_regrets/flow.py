"""The game (§5, §6, §8): the deal, the days and their phases, the turn.

One layer of the Deep Regrets reference (:mod:`cardtable.reference.deep_regrets`, whose docstring
tells how the rules are built); the section numbers (§) are those of ``docs/games/deep_regrets.md``.
"""

from __future__ import annotations

from typing import Literal

from cardtable.observations.deep_regrets import DeepRegretsNodeKind as NodeKind
from cardtable.reference._deep_regrets.cards import (
    CARDS,
    DIE_CLASSES,
    TACKLE_KINDS,
    die_face,
    shoal_column,
    shoal_depth,
)
from cardtable.reference._deep_regrets.port import Port
from cardtable.reference._deep_regrets.table import (
    ABANDON_SHIP,
    CAST,
    DEEPEST,
    DIE,
    DISCARD_RANDOM_REGRET,
    DRAW_A_DINK,
    END_TURN,
    FISH,
    GIVE_AWAY,
    GIVE_TO,
    ITEM_BASE,
    LAST_DAY,
    MAKE_PORT,
    MOUNT,
    PASS,
    SELL,
    SHOALS,
    SHOP,
    STAY_AT_SEA,
    TAKE_NOTHING,
    USE_COFFIN,
    USE_SKULL,
    USE_WORMS,
    Flow,
    SeaIsEmpty,
    TurnFlow,
    chance,
    decision,
)


class Days(Port):
    """The game (§5, §6, §8): the deal, the days and their phases, the turn."""

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
            yield from self._free_action(p, action, main_taken=True)

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
            # non-empty, depth(s) ≤ p's depth (and §16.2 column locks), and the top of s face
            # down (no Fresh die needed; Decision 66)": "a shoal you could cast at".
            if seat.worms:
                legal += [
                    USE_WORMS + s
                    for s in SHOALS
                    if self._within_reach(p, s) and not self._face_up[s]
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

    def _within_reach(self, p: int, s: int) -> bool:
        """Whether p's boat reaches shoal s: "a shoal you could cast at", without the Fresh die.

        Shoal s is non-empty, depth(s) ≤ p's depth, and (§16.2) "A seat may cast only at shoals
        whose column is in every lock".
        """
        seat = self._seats[p]
        return (
            bool(self._shoals[s])
            and shoal_depth(s) <= seat.depth
            and all(shoal_column(s) == lock for lock in seat.locks)
        )

    def _free_action(self, p: int, action: int, *, main_taken: bool = False) -> Flow:
        """One free action of p (§7.3, §16.4, §16.8); the caller asks its node again.

        ``main_taken``: the turn's main action is behind (the ``after_main`` node).
        """
        if action == ABANDON_SHIP:
            yield from self._abandon_ship(p, main_taken=main_taken)
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
                legal += [CAST + s for s in SHOALS if self._within_reach(p, s)]
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
        discard_random_regret) if possible, and 0 = take nothing if discarding is possible and
        drawing a dink is not." Decision 22: the original's "saa poistaa katumuskortin" (may
        remove a regret) is a permission.
        """
        can_draw = bool(self._deck["dink"] or self._discard["dink"])
        can_discard = self._seats[p].regret_count > 0
        if not can_draw and not can_discard:
            return
        legal = []
        if can_discard and not can_draw:
            legal.append(TAKE_NOTHING)
        if can_draw:
            legal.append(DRAW_A_DINK)
        if can_discard:
            legal.append(DISCARD_RANDOM_REGRET)
        action = yield decision("reward", p, legal)
        if action == DRAW_A_DINK:
            yield from self._draw_dinks(p)
        elif action == DISCARD_RANDOM_REGRET:
            yield from self._discard_random_regret(p)
