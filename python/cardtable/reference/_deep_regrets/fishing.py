"""§16.5 Cast; §16.6 catching, declining and the cast end; §16.4 eating; §16.8 standing rules.

One layer of the Deep Regrets reference (:mod:`cardtable.reference.deep_regrets`, whose docstring
tells how the rules are built); the section numbers (§) are those of ``docs/games/deep_regrets.md``.
"""

from __future__ import annotations

from typing import Literal

from cardtable.reference._deep_regrets.cards import (
    CARDS,
    DIE_CLASSES,
    Effect,
    Fish,
    die_class,
    die_face,
    die_kind,
    shoal_column,
)
from cardtable.reference._deep_regrets.items import Items
from cardtable.reference._deep_regrets.table import (
    CATCH,
    CATCH_BY_DISCARDING,
    CATCH_BY_SHOWING,
    DECLINE,
    DIE,
    DONE,
    FISH,
    FLIP_WORMS,
    GIVE_TO,
    LEAVE_ON_TOP,
    NO,
    PUT_AT_BOTTOM,
    REGRET,
    TAKE_NOTHING,
    YES,
    Cast,
    Flow,
    TurnFlow,
    decision,
)


class Fishing(Items):
    """§16.5 Cast; §16.6 catching, declining, the cast end; §16.4 eating; §16.8 standing rules."""

    # ==================================================================================
    # §16.5 Cast, §16.6 catching, declining, the cast end
    # ==================================================================================

    def _use_worms(self, p: int, s: int) -> Flow:
        """§7.3 41+s: use the Can of Worms on shoal s (a free action at sea).

        "the can turns face down; ctx.peek = the top fish; node worms (4 = leave it on top, 5 =
        put it at the bottom of shoal s); ctx.peek = null. If left on top, s joins known[p] (p
        has seen that face-down top); if put at the bottom, the top changed so s leaves every
        known set."
        """
        self._seats[p].worms = False
        self._ctx.peek = self._shoals[s][0]
        action = yield decision("worms", p, [LEAVE_ON_TOP, PUT_AT_BOTTOM])
        self._ctx.peek = None
        if action == LEAVE_ON_TOP:
            self._known[p].add(s)
        else:
            self._shoals[s].append(self._shoals[s].pop(0))
            self._forget(s)

    def _cast(self, p: int, s: int) -> TurnFlow:
        """§16.5 The cast (steps 1 to 7), then §16.6; tells whether the cast was free.

        "Cast end: ctx.cast = null. If the sea is empty the game ends (§8). Else, if the cast
        ended with free_cast, the turn node of p is asked again (the cast was not p's main
        action); otherwise EndTurn(p)."
        """
        ctx = self._ctx
        # 1. "ctx.cast = {shoal s, reduction 0, zero false, payment [], base null, beneath null,
        # ignored false, revealed false}."
        cast = Cast(s)
        ctx.cast = cast
        self._cast_end = None
        # 2. The Can of Worms is no part of the cast any more: it is the free action 41+s.
        # 3. Rods that reorder.
        yield from self._reorder_with_rod(p, s)
        # 4. "Reveal: if the top of s is face down it turns face up (s leaves every known set)
        # and it is revealed by the cast (cast.revealed = true); a top that was already face up
        # is not revealed (cast.revealed stays false: no reveal ability, no not-caught clause)."
        if not self._face_up[s]:
            self._face_up[s] = True
            self._forget(s)
            cast.revealed = True
        fish = CARDS.fish[self._shoals[s][0]]
        # 5. Rod of the Dead ("you may choose to ignore the Reveal and/or Catch abilities of the
        # fish you reveal and/or catch"): "if revealed and the fish is not special, has a
        # non-empty reveal or not_caught list (both are its Reveal ability, Decision 37) and p's
        # equipped rod has the ignore_abilities passive with "reveal" in its triggers: node
        # ignore_reveal (16 = resolve, 17 = ignore). Ignoring sets cast.ignored = true and skips
        # the reveal list now and the not_caught list on decline."
        has_reveal_ability = bool(fish.reveal or fish.not_caught)
        if (
            cast.revealed
            and "special" not in fish.flags
            and has_reveal_ability
            and self._ignores(p, "reveal")
        ):
            action = yield decision("ignore_reveal", p, [YES, NO])
            cast.ignored = action == NO
        # 6. "If revealed and not ignored: its reveal list runs with user p. ... The list may end
        # the cast: then continue at 16.6 Cast end."
        if cast.revealed and not cast.ignored:
            yield from self._run_list(p, fish.id, "reveal", fish.reveal)
        ending = self._cast_end
        self._cast_end = None
        # 7. "Node pay as in step 1, with the effective difficulty of §16.3 and these extra legal
        # actions".
        if ending is None:
            yield from self._pay(p)
        ctx.cast = None
        self._check_the_sea()
        return ending == "free"

    def _reorder_with_rod(self, p: int, s: int) -> Flow:
        """§16.5 step 3: Rod of the Deep (2 fish), Rod of the Infinite (3 fish), always, free.

        "If p's equipped rod has a reorder passive, the top of s is face down and s holds ≥ 2
        fish: ctx.order = the top min(amount, size) fish of s, top first; node reorder (legal:
        165+f for f in ctx.order): f is the next card from the top; it repeats while ≥ 2 fish
        are left in ctx.order; the last one goes last automatically. The reordered fish are put
        back on top of s in the chosen order, all face down; ctx.order = []. s leaves every
        known set." The Rod of the Infinite (``items.csv``: "when you cast: peek at the top 3
        fish of the shoal and put them back in any order, before revealing the top fish"; no
        Dink, Decision 45).
        """
        rod = self._passive(p, "rod", "reorder")
        shoal = self._shoals[s]
        if rod is None or self._face_up[s] or len(shoal) < 2:
            return
        k = min(rod.amount, len(shoal))
        ctx = self._ctx
        ctx.order = shoal[:k]
        chosen: list[int] = []
        while len(ctx.order) >= 2:
            action = yield decision("reorder", p, [FISH + f for f in ctx.order])
            ctx.order.remove(action - FISH)
            chosen.append(action - FISH)
        chosen += ctx.order
        ctx.order = []
        shoal[:k] = chosen
        self._forget(s)

    def _pay(self, p: int) -> Flow:
        """§7.4 step 5 and §16.5 step 7: node pay, repeated until the fish is caught or declined.

        "50+c = add a Fresh die of class c to the payment (it leaves Fresh)"; "12, 13, 100+d,
        125+i as at the turn node". "Decision: a die put into the payment cannot be taken back."
        §16: 165+f eats f; 18 and 19 catch by showing or discarding a fish; 20 flips the Can of
        Worms: "the Can of Worms turns face down and cast.base = difficulty".
        """
        cast = self._ctx.cast
        assert cast is not None
        while True:
            action = yield decision("pay", p, self._pay_actions(p))
            if action == CATCH:
                yield from self._catch(p, "dice")
                return
            if action == CATCH_BY_SHOWING:
                yield from self._catch(p, "show")
                return
            if action == CATCH_BY_DISCARDING:
                yield from self._catch(p, "discard")
                return
            if action == DECLINE:
                yield from self._decline(p)
                return
            if action == FLIP_WORMS:
                self._seats[p].worms = False
                cast.base = self._cast_fish().rules_of("worms_difficulty")[0].difficulty
            elif DIE <= action < DIE + len(DIE_CLASSES):
                self._seats[p].fresh.remove(action - DIE)
                cast.payment = sorted([*cast.payment, action - DIE])
            elif FISH <= action < FISH + len(CARDS.fish):
                yield from self._eat(p, action - FISH)
            else:
                yield from self._use_item(p, action)

    def _pay_actions(self, p: int) -> list[int]:
        """§7.4 step 5 and §16.5 step 7: the legal actions at the pay node.

        "6 = catch, if complete; 7 = decline, always; 50+c = add a Fresh die of class c to the
        payment, if not complete and (exact N: |payment| < N; otherwise Σ faces < D)"; "165+f
        (eat, §16.4); 18 if a catch_by_showing rule holds; 19 if a catch_by_discarding rule
        holds; 20 if a worms_difficulty rule holds. With must_catch, 7 is legal only while the
        payment cannot be completed."
        """
        cast = self._ctx.cast
        assert cast is not None
        seat = self._seats[p]
        fish = self._cast_fish()
        legal = []
        if not fish.rules_of("must_catch") or not self._can_complete(p):
            legal.append(DECLINE)
        if self._payment_complete(p):
            legal.append(CATCH)
        else:
            paid = sum(die_face(c) for c in cast.payment)
            if fish.exact_dice is not None:
                can_add = len(cast.payment) < fish.exact_dice
            else:
                can_add = paid < self._effective_difficulty(p)
            if can_add:
                legal += self._fresh_actions(p)
        if any(self._shows(p, rule) for rule in fish.rules_of("catch_by_showing")):
            legal.append(CATCH_BY_SHOWING)
        if self._discardable_for_catch(p, fish):
            legal.append(CATCH_BY_DISCARDING)
        worms_rules = fish.rules_of("worms_difficulty")
        if worms_rules and seat.worms and cast.base != worms_rules[0].difficulty:
            legal.append(FLIP_WORMS)
        legal += self._item_actions(p, "pay")
        legal += self._eat_actions(p)
        return sorted(legal)

    def _shows(self, p: int, rule: Effect) -> bool:
        """§16.3 catch_by_showing: p's hand holds a fish of the rule's size / a Shark / name."""
        for f in self._seats[p].hand:
            fish = CARDS.fish[f]
            if rule.size is not None and fish.size == rule.size:
                return True
            if rule.shark and fish.is_shark:
                return True
            if rule.name is not None and fish.name == rule.name:
                return True
        return False

    def _discardable_for_catch(self, p: int, fish: Fish) -> list[int]:
        """§16.3 catch_by_discarding: p's hand fish of a size the rules name."""
        sizes = {rule.size for rule in fish.rules_of("catch_by_discarding")}
        return sorted(f for f in self._seats[p].hand if CARDS.fish[f].size in sizes)

    def _can_complete(self, p: int) -> bool:
        """§16.6 must_catch: whether the payment can still be completed.

        "with the dice now in the payment plus p's Fresh dice: exact N → |payment| + |Fresh| ≥ N,
        |payment| ≤ N and Σ payment + the N - |payment| highest Fresh faces ≥ D; otherwise Σ
        payment + Σ Fresh ≥ D."
        """
        cast = self._ctx.cast
        assert cast is not None
        fresh = sorted((die_face(c) for c in self._seats[p].fresh), reverse=True)
        paid = sum(die_face(c) for c in cast.payment)
        d = self._effective_difficulty(p)
        n = self._cast_fish().exact_dice
        if n is not None:
            need = n - len(cast.payment)
            return 0 <= need <= len(fresh) and paid + sum(fresh[:need]) >= d
        return paid + sum(fresh) >= d

    def _payment_complete(self, p: int) -> bool:
        """§7.4: "complete iff (exact N: |payment| = N and Σ faces ≥ D; otherwise Σ faces ≥ D)"."""
        cast = self._ctx.cast
        assert cast is not None
        fish = self._cast_fish()
        paid = sum(die_face(c) for c in cast.payment)
        enough = paid >= self._effective_difficulty(p)
        if fish.exact_dice is not None:
            return len(cast.payment) == fish.exact_dice and enough
        return enough

    def _catch(self, p: int, how: Literal["dice", "show", "discard", "auto"]) -> Flow:
        """§16.6 Catch (action 6, 18, 19, or auto_catch).

        "with 6 the payment is spent (Bone Wheel: §16.10); with 18/19/auto_catch any payment dice
        return to Fresh and nothing is spent. With 19 first node discard_fish (legal: 165+f for
        p's hand fish of the rule's size): that fish goes to its depth's discard pile. Then the
        fish moves from the top of s to p's hand (or front, §16.2; a lock is added); caught_today
        = true; emptied = (s is now empty); the fish's catch list runs with user p; then if
        emptied, p draws the overfishing regret (one draw event). Then the cast ends."
        """
        cast = self._ctx.cast
        assert cast is not None
        seat = self._seats[p]
        if how == "dice":
            self._spend_payment(p, cast.payment, self._effective_difficulty(p))
        else:
            for c in cast.payment:
                self._add_fresh(p, c)
        cast.payment = []
        s = cast.shoal
        if how == "discard":
            fits = self._discardable_for_catch(p, self._cast_fish())
            action = yield decision("discard_fish", p, [FISH + f for f in fits])
            self._discard_fish_from_hand(p, action - FISH)
        f = self._shoals[s].pop(0)
        self._face_up[s] = False
        self._forget(s)
        fish = CARDS.fish[f]
        if fish.front:
            seat.front.add(f)
            if fish.rules_of("front_column_lock"):
                seat.locks.add(shoal_column(s))
        else:
            seat.hand.add(f)
        seat.caught_today = True
        emptied = not self._shoals[s]
        # Rod of the Dead: "At catch: node ignore_catch (16 resolve / 17 ignore), asked right
        # after the fish moves to p (before its catch list) if p's equipped rod has the
        # rod-of-the-dead passive and the fish has a non-empty catch list; 17 skips the catch
        # list (the overfishing regret still follows)."
        ignored = False
        if fish.catch and self._ignores(p, "catch"):
            ignored = (yield decision("ignore_catch", p, [YES, NO])) == NO
        if not ignored:
            yield from self._run_list(p, f, "catch", fish.catch)
        if emptied:
            yield from self._draw_event(p, CARDS.overfishing_regrets)

    def _spend_payment(self, p: int, payment: list[int], difficulty: int) -> None:
        """§7.4 step 6 and §16.10 Bone Wheel: the payment dice of a catch with action 6.

        Bone Wheel (``items.csv``: "passive: retain unspent points on dice"): "let D = effective
        difficulty, T = Σ payment faces, L = T - D. Take the payment die with the highest face
        (ties: the highest class). If L ≥ 1: the target face is min(L, that die's face); if that
        die's kind has the target face it stays Fresh on that face; else on the highest face of
        its kind below the target; if its kind has no face ≤ target (or L ≤ 0), it is spent as
        usual. Every other payment die is spent as usual."
        """
        spent = list(payment)
        if self._passive(p, "reel", "retain_leftover") is not None and payment:
            top = max(payment, key=lambda c: (die_face(c), c))
            kind, face = die_kind(top), die_face(top)
            leftover = sum(die_face(c) for c in payment) - difficulty
            target = min(leftover, face)
            faces = [x for x in CARDS.dice[kind].faces if x <= target]
            if leftover >= 1 and faces:
                spent.remove(top)
                self._add_fresh(p, die_class(kind, max(faces)))
        for c in spent:
            self._return_spent_die(p, c)

    def _decline(self, p: int) -> Flow:
        """§16.6 Decline (7).

        "as in step 1 (payment back, decline_die, dinks); then, if cast.revealed and not
        cast.ignored, its not_caught list runs with user p (ctx.ability = {fish, not_caught}).
        Then the cast ends." Step 1: "the payment dice return to Fresh. If p has a Fresh die,
        node decline_die (legal: 0 take no dink, 50+c for each Fresh class): that die is spent
        and p DrawDinks. (With no Fresh die, nothing is spent or drawn.)" The dink is a
        permission: "Jos et voi tai halua maksaa esiin tulleen kalan maksua, saat kuitenkin
        nostaa sinttikortin." (If you cannot or will not pay the fish's cost, you may still draw
        a dink.)
        """
        cast = self._ctx.cast
        assert cast is not None
        fish = self._cast_fish()
        for c in cast.payment:
            self._add_fresh(p, c)
        cast.payment = []
        if self._seats[p].fresh:
            action = yield decision("decline_die", p, [TAKE_NOTHING, *self._fresh_actions(p)])
            if action != TAKE_NOTHING:
                self._spend(p, action - DIE)
                yield from self._draw_dinks(p, own_cast=True)
        # Decision 37: "the not-caught clause is part of the Reveal ability, so a fish that was
        # already face up before this cast, or whose reveal the Rod of the Dead ignored, does
        # nothing when declined." The card text: Scrat "R: if not caught, it goes to the player
        # on your right"; a reveal ability comes from the cast that turns the card up: "Käännä
        # kortti esiin ja toteuta ilmestymisefekti (silmä), jos kalalla on sellainen." (Turn
        # the card face up and resolve its reveal effect, the eye, if the fish has one.)
        if cast.revealed and not cast.ignored:
            yield from self._run_list(p, fish.id, "not_caught", fish.not_caught)

    # ==================================================================================
    # §16.4 Eating, §16.8 actions of standing rules
    # ==================================================================================

    def _eat_actions(self, p: int) -> list[int]:
        """§16.4: "action 165+f = eat fish f, legal only if fish f has a non-empty eat list".

        "Syö kala (jos kalassa on syömisikoni)" (eat a fish, if it has the Eat icon).
        """
        return [FISH + f for f in sorted(self._seats[p].hand) if CARDS.fish[f].eat]

    def _eat(self, p: int, f: int) -> Flow:
        """§16.4 Eating.

        "f goes to its depth's discard pile, then its eat list runs with user p (ctx.ability =
        {fish f, trigger eat}), then the same node (turn or pay) is asked again."
        """
        self._discard_fish_from_hand(p, f)
        yield from self._run_list(p, f, "eat", CARDS.fish[f].eat)

    def _give_away_fish(self, p: int) -> int | None:
        """The fish in p's hand with a ``give_away_action`` rule (the lowest id), if any."""
        return next(
            (f for f in sorted(self._seats[p].hand) if CARDS.fish[f].rules_of("give_away_action")),
            None,
        )

    def _give_away(self, p: int) -> Flow:
        """§16.8 21: give the Dumbo Octopus away (main action).

        "node give_fish (74+q, q ≠ p): the fish moves to q's hand; q discards discard_regrets
        regrets of their choice (discard_regret nodes, actor q, as many as q holds)".
        """
        f = self._give_away_fish(p)
        assert f is not None
        rule = CARDS.fish[f].rules_of("give_away_action")[0]
        others = [GIVE_TO + q for q in range(self._n) if q != p]
        action = yield decision("give_fish", p, others, about=f)
        q = action - GIVE_TO
        self._seats[p].hand.remove(f)
        self._seats[q].hand.add(f)
        yield from self._discard_regrets_of_choice(q, rule.discard_regrets)

    def _front_rule(self, p: int, kind: str) -> Effect | None:
        """The first standing rule of ``kind`` among the fish in front of p (by fish id)."""
        for f in sorted(self._seats[p].front):
            for rule in CARDS.fish[f].rules_of(kind):
                return rule
        return None

    def _use_skull(self, p: int) -> Flow:
        """§16.8 22: "skull_used = true; peek shoal x amount"."""
        rule = self._front_rule(p, "front_peek")
        assert rule is not None
        self._seats[p].skull_used = True
        yield from self._peek(p, "shoal", rule.amount)

    def _use_coffin(self, p: int) -> Flow:
        """§16.8 23: the Iron Coffin.

        "coffin_used = true; node offer_target (74+q, q ≠ p): ctx.target = q; node offer_regret
        (70+v from p's regrets; 0 = done, legal once 1 is offered): the card leaves p into
        ctx.offer; it repeats until 0, until max are offered or p holds no regret; then node
        accept_offer (actor q; 16 = accept, 17 = refuse): accept → the offered cards go to q, then
        q refreshes refresh die (step-1 refresh, actor q); refuse → they return to p. Right after
        that decision ctx.offer = [] and ctx.target = null (before q's refresh nodes)".
        """
        rule = self._front_rule(p, "front_offer")
        assert rule is not None
        seat = self._seats[p]
        ctx = self._ctx
        seat.coffin_used = True
        action = yield decision("offer_target", p, [GIVE_TO + q for q in range(self._n) if q != p])
        q = action - GIVE_TO
        ctx.target = q
        while seat.regret_count and len(ctx.offer) < (rule.max or 0):
            legal = self._regret_actions(p) + ([DONE] if ctx.offer else [])
            action = yield decision("offer_regret", p, legal)
            if action == DONE:
                break
            seat.regrets[action - REGRET] -= 1
            ctx.offer = sorted([*ctx.offer, action - REGRET])
        action = yield decision("accept_offer", q, [YES, NO])
        receiver = q if action == YES else p
        for v in ctx.offer:
            self._seats[receiver].regrets[v] += 1
        ctx.offer = []
        ctx.target = None
        if action == YES:
            yield from self._refresh(q, rule.refresh)
