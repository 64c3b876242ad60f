//! The card abilities (contract §16): effect lists of fish abilities, the cast with its reveal,
//! catch and not-caught hooks, eating, standing rules and the items that need them; the tasks,
//! nodes, legal actions and labels of those abilities' own nodes.
//!
//! Must not: decide for a seat (the bots do) or read hidden state on behalf of a seat; the step-1
//! flow (day, turn, shops) lives in `flow`, `apply` and `port`.

use super::actions::{
    CAST, CATCH_BY_DISCARDING, CATCH_BY_SHOWING, COLUMN, DIE, DONE, FIRST_EFFECT, FISH, FLIP_WORMS,
    GIVE_AWAY, GIVE_TO, HADAL, HADAL_LAST, NO, REEL, REEL_LAST, REGRET, ROD, ROD_LAST, ROW,
    ROW_LAST, SECOND_EFFECT, SUPPLY, SUPPLY_LAST, USE_COFFIN, USE_SKULL, YES,
};
use super::data::{Fish, GiveTo, PeekTarget, Prim, RevealTarget, Rules, Show, Who};
use super::flow::below_top;
use super::legal::{push_lines, Sink, COL_MASK, ROW_MASK};
use super::{
    DeepRegrets, DeepRegretsState as S, Node, Task, CLASSES, CLASS_FACE, CLASS_KIND, CLOCHE_SLOT,
    KINDS, MAX_SEATS, NONE,
};

/// `ctx.ability` triggers.
pub(super) const TRIGGER_REVEAL: u8 = 0;
/// Catch trigger.
pub(super) const TRIGGER_CATCH: u8 = 1;
/// Eat trigger.
pub(super) const TRIGGER_EAT: u8 = 2;
/// Not-caught trigger.
pub(super) const TRIGGER_NOT_CAUGHT: u8 = 3;
/// Trigger names.
pub(super) const TRIGGER_NAMES: [&str; 4] = ["reveal", "catch", "eat", "not_caught"];

impl S {
    /// Every field of the cast back to its default (a new cast sets `cast_on` and the shoal).
    pub(super) fn clear_cast(&mut self) {
        self.cast_reduction = 0;
        self.cast_zero = false;
        self.payment = [0; CLASSES];
        self.cast_base = None;
        self.cast_beneath = NONE;
        self.cast_ignored = false;
        self.cast_revealed = false;
        self.cast_end = 0;
        self.cast_fish = NONE;
    }

    /// Shoals that are non-empty with a face-down top (bits).
    #[inline]
    pub(super) fn facedown(&self) -> u16 {
        self.nonempty() & !self.face_up
    }

    /// Puts `f` on top of shoal `s`, face down.
    pub(super) fn put_top(&mut self, s: usize, f: u8) {
        let len = usize::from(self.shoal_len[s]);
        if len < super::SHOAL_CAP {
            self.shoals[s][len] = f;
            self.shoal_len[s] += 1;
        }
        self.face_up &= !(1u16 << s);
        self.forget(s);
    }
}

impl DeepRegrets {
    fn fish_data(&self, f: u8) -> Option<&'static Fish> {
        self.data.fish.get(usize::from(f))
    }

    /// The fish data of the top of the cast's shoal.
    pub(super) fn cast_fish_data(&self, st: &S) -> Option<&'static Fish> {
        if !st.cast_on {
            return None;
        }
        st.top_fish(usize::from(st.cast_shoal))
            .and_then(|f| self.fish_data(f))
    }

    /// The top of shoal `s` goes to its depth's discard pile.
    pub(super) fn discard_top(&self, st: &mut S, s: usize) {
        if st.shoal_len[s] > 0 {
            let f = st.take_top(s);
            st.discard_fish(f);
        }
    }

    /// A fish of the hand goes to its depth's discard pile.
    fn discard_hand_fish(&self, st: &mut S, p: usize, f: u8) {
        st.seats[p].hand.remove(f);
        st.discard_fish(f);
    }

    /// Whether p's hand holds a fish of `size` (3 = any).
    fn hand_has_size(&self, st: &S, p: usize, size: u8) -> bool {
        let mut any = false;
        st.seats[p].hand.each(|f| {
            if size == 3 || self.fish_data(f).is_some_and(|x| x.size == size) {
                any = true;
            }
        });
        any
    }

    /// Whether p holds a small mountable fish.
    pub(super) fn has_small_mountable(&self, st: &S, p: usize) -> bool {
        let mut any = false;
        st.seats[p].hand.and(&self.sellable).each(|f| {
            if self.fish_data(f).is_some_and(|x| x.size == 0) {
                any = true;
            }
        });
        any
    }

    /// The sum of a rule over p's front fish.
    pub(super) fn front_sum(&self, st: &S, p: usize, rule: impl Fn(&Rules) -> u8) -> u8 {
        let mut t = 0u8;
        st.seats[p].front.each(|f| {
            if let Some(x) = self.fish_data(f) {
                t = t.saturating_add(rule(&x.rules));
            }
        });
        t
    }

    /// A reveal outside a cast (§16.11): the top turns face up; a special card is discarded,
    /// and if that empties the sea the game ends at once (Decision 83). True when it ended.
    #[must_use]
    fn reveal_outside(&self, st: &mut S, s: usize) -> bool {
        if st.shoal_len[s] == 0 || st.face_up >> s & 1 == 1 {
            return false;
        }
        st.face_up |= 1 << s;
        st.forget(s);
        let special = st
            .top_fish(s)
            .and_then(|f| self.fish_data(f))
            .is_some_and(|x| x.special);
        if special {
            self.discard_top(st, s);
            if st.sea_empty() {
                self.finish(st);
                return true;
            }
        }
        false
    }

    /// Starts an effect list of fish `f` for user `u`: the tasks `Ability(f, trigger)`, then
    /// `Effects(u, list, 0)`, run here (as the loop would pop them), then `Ability` back to the
    /// current one (pushed). True when it asked a node or ended the game.
    fn start_list(&self, st: &mut S, u: usize, f: u8, trigger: u8, list: u16) -> bool {
        if list == 0 {
            return false;
        }
        st.push(Task::Ability(st.ability_fish, st.ability_trigger));
        st.ability_fish = f;
        st.ability_trigger = trigger;
        self.task_effects(st, u as u8, list, 0)
    }

    /// Whether the payment can still be completed with p's Fresh dice (§16.6 must_catch), `d`
    /// being the effective difficulty.
    pub(super) fn can_complete(&self, st: &S, p: usize, d: i32) -> bool {
        let exact = self.cast_exact(st);
        let seat = &st.seats[p];
        let mut paid_n = 0u32;
        let mut paid_sum = 0u32;
        for c in 0..CLASSES {
            paid_n += u32::from(st.payment[c]);
            paid_sum += u32::from(st.payment[c]) * u32::from(CLASS_FACE[c]);
        }
        if exact == 0 {
            return (paid_sum + seat.fresh_total()) as i32 >= d;
        }
        if paid_n > exact || paid_n + seat.fresh_count() < exact {
            return false;
        }
        let mut need = exact - paid_n;
        let mut sum = paid_sum;
        let mut faces: [(u8, u8); CLASSES] = [(0, 0); CLASSES];
        for c in 0..CLASSES {
            faces[c] = (CLASS_FACE[c], seat.fresh[c]);
        }
        faces.sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
        for (face, count) in faces {
            let take = u32::from(count).min(need);
            sum += take * u32::from(face);
            need -= take;
        }
        sum as i32 >= d
    }

    /// The extra `pay` actions of the cast fish's rules (18, 19, 20).
    #[inline(always)]
    pub(super) fn pay_rules(&self, st: &S, p: usize, rules: &Rules, out: &mut impl Sink) {
        // Most fish have none of these rules: the test is made here, the list in a call.
        if rules.show.is_some() || rules.discard_size.is_some() || rules.worms_difficulty.is_some()
        {
            self.pay_rule_actions(st, p, rules, out);
        }
    }

    /// [`Self::pay_rules`] of a fish with one of those rules.
    fn pay_rule_actions(&self, st: &S, p: usize, rules: &Rules, out: &mut impl Sink) {
        let seat = &st.seats[p];
        if let Some(show) = rules.show {
            let ok = match show {
                Show::Size(sz) => self.hand_has_size(st, p, sz),
                Show::Shark => {
                    let mut any = false;
                    seat.hand.each(|f| {
                        if self.fish_data(f).is_some_and(|x| x.shark) {
                            any = true;
                        }
                    });
                    any
                }
                Show::Fish(f) => seat.hand.contains(usize::from(f)),
            };
            if ok {
                out.put(CATCH_BY_SHOWING);
            }
        }
        if let Some(sz) = rules.discard_size {
            if self.hand_has_size(st, p, sz) {
                out.put(CATCH_BY_DISCARDING);
            }
        }
        if let Some(d) = rules.worms_difficulty {
            if seat.worms && st.cast_base != Some(d) {
                out.put(FLIP_WORMS);
            }
        }
    }

    /// The standing-rule actions at the `turn` node (21 with `main`, 22, 23).
    #[inline(always)]
    pub(super) fn turn_rules(&self, st: &S, p: usize, out: &mut impl Sink, main: bool) {
        let seat = &st.seats[p];
        // The same tests as `dumbo`, `front_sum(front_peek) > 0` and `coffin`, on the
        // precomputed sets of fish with those rules.
        if main && !seat.hand.and(&self.give_away_set).is_empty() {
            out.put(GIVE_AWAY);
        }
        // Both rules need a fish in front, which a seat mostly has not: one test then.
        if seat.front.is_empty() {
            return;
        }
        if !seat.skull_used
            && !seat.front.and(&self.front_peek_set).is_empty()
            && st.peekable(p) != 0
        {
            out.put(USE_SKULL);
        }
        if !seat.coffin_used
            && seat.has_regret()
            && !seat.front.and(&self.front_offer_set).is_empty()
        {
            out.put(USE_COFFIN);
        }
    }

    /// The first hand fish of p with a give-away action, and its discard count.
    fn dumbo(&self, st: &S, p: usize) -> Option<(u8, u8)> {
        let mut r = None;
        st.seats[p].hand.each(|f| {
            if r.is_none() {
                if let Some(k) = self.fish_data(f).and_then(|x| x.rules.give_away) {
                    r = Some((f, k));
                }
            }
        });
        r
    }

    /// The first `front_offer` rule in front of p.
    fn coffin(&self, st: &S, p: usize) -> Option<(u8, u8)> {
        let mut r = None;
        st.seats[p].front.each(|f| {
            if r.is_none() {
                r = self.fish_data(f).and_then(|x| x.rules.front_offer);
            }
        });
        r
    }

    /// Turn actions 21–23 (§16.8).
    pub(super) fn turn_standing(&self, st: &mut S, p: usize, a: u32) {
        let pp = p as u8;
        match a {
            GIVE_AWAY => {
                if let Some((f, k)) = self.dumbo(st, p) {
                    st.give_fish = f;
                    st.give_from_hand = true;
                    st.give_discard = k;
                    self.ask(st, Node::GiveFish, pp);
                }
            }
            USE_SKULL => {
                st.seats[p].skull_used = true;
                let k = self.front_sum(st, p, |r| r.front_peek);
                st.push(Task::ReturnTo(st.free_return(), pp));
                st.push(Task::PeekLoop(pp, PeekTarget::Shoal, k));
                self.run(st);
            }
            USE_COFFIN => {
                st.seats[p].coffin_used = true;
                let (max, refresh) = self.coffin(st, p).unwrap_or((1, 0));
                st.offer_max = max;
                st.offer_refresh = refresh;
                self.ask(st, Node::OfferTarget, pp);
            }
            _ => {}
        }
    }

    /// Eats fish `f` (§16.4; only a fish with an Eat ability), then asks `ret` again.
    pub(super) fn eat(&self, st: &mut S, p: usize, f: u8, ret: Node) {
        if !st.seats[p].hand.contains(usize::from(f)) || !self.eat_set.contains(usize::from(f)) {
            return;
        }
        self.discard_hand_fish(st, p, f);
        st.push(Task::ReturnTo(ret, p as u8));
        let list = self.fish_data(f).map_or(0, |x| x.eat);
        let asked = self.start_list(st, p, f, TRIGGER_EAT, list);
        self.run_unless(st, asked);
    }

    /// Bone Wheel (§16.10, `items.csv`: "passive: retain unspent points on dice"): on a catch
    /// paid with more than the effective difficulty, the payment die with the highest face (ties:
    /// the highest class) stays Fresh showing the leftover L = Σ faces − D, capped at its face (or
    /// the highest face of its kind below that); with no leftover or no such face it is spent like
    /// the others.
    pub(super) fn retain_leftover(&self, st: &mut S, p: usize) {
        let reel = st.seats[p].reel;
        let on = reel != NONE
            && self
                .data
                .reels
                .get(usize::from(reel))
                .is_some_and(|r| r.retain_leftover);
        if !on {
            return;
        }
        let d = self.effective_difficulty(st, p);
        let mut total = 0i32;
        let mut best: Option<usize> = None;
        for c in 0..CLASSES {
            if st.payment[c] > 0 {
                total += i32::from(st.payment[c]) * i32::from(CLASS_FACE[c]);
                if best.is_none_or(|b| (CLASS_FACE[c], c) > (CLASS_FACE[b], b)) {
                    best = Some(c);
                }
            }
        }
        let Some(c) = best else {
            return;
        };
        let leftover = total - d;
        if leftover < 1 {
            return;
        }
        let target = leftover.min(i32::from(CLASS_FACE[c]));
        let kind = CLASS_KIND[c];
        let keep = (0..CLASSES)
            .filter(|&k| CLASS_KIND[k] == kind && i32::from(CLASS_FACE[k]) <= target)
            .max_by_key(|&k| CLASS_FACE[k]);
        if let Some(k) = keep {
            st.payment[c] -= 1;
            st.seats[p].fresh[k] += 1;
        }
    }

    /// Lists the top `amount` fish of the cast's shoal in `ctx.order` (they stay in the shoal
    /// until the new order is complete) and asks `reorder`.
    fn start_reorder(&self, st: &mut S, p: usize, amount: u8) -> bool {
        let s = usize::from(st.cast_shoal);
        let len = usize::from(st.shoal_len[s]);
        let k = usize::from(amount).min(len).min(3);
        st.order_len = 0;
        st.chosen_len = 0;
        for i in 0..k {
            st.order[i] = st.shoals[s][len - 1 - i];
            st.order_len += 1;
        }
        if st.order_len >= 2 {
            self.ask(st, Node::Reorder, p as u8)
        } else {
            self.finish_reorder(st);
            false
        }
    }

    /// Rewrites the top of the cast's shoal in the chosen order, face down.
    fn finish_reorder(&self, st: &mut S) {
        let s = usize::from(st.cast_shoal);
        for i in 0..usize::from(st.order_len) {
            if usize::from(st.chosen_len) < 3 {
                st.chosen[usize::from(st.chosen_len)] = st.order[i];
                st.chosen_len += 1;
            }
        }
        st.order_len = 0;
        let len = usize::from(st.shoal_len[s]);
        for i in 0..usize::from(st.chosen_len).min(len) {
            st.shoals[s][len - 1 - i] = st.chosen[i];
        }
        st.chosen_len = 0;
        st.face_up &= !(1u16 << s);
        st.forget(s);
    }

    /// Executes a task of the card abilities; true when it asked a node or ended the game.
    /// The task `Effects(u, list, idx)`: the `idx`-th primitive of effect list `list` for user
    /// `u` (the rest of the list pushed first); true when it asked a node.
    #[inline(always)]
    pub(super) fn task_effects(&self, st: &mut S, u: u8, list: u16, idx: u8) -> bool {
        let Some(prims) = self.data.lists.get(usize::from(list)) else {
            return false;
        };
        let Some(&prim) = prims.get(usize::from(idx)) else {
            return false;
        };
        if usize::from(idx) + 1 < prims.len() {
            st.push(Task::Effects(u, list, idx + 1));
        }
        self.apply_effect(st, usize::from(u), prim)
    }

    // The steps of a cast as functions: a task that would push the next one for the loop to
    // pop at once calls it instead (the same steps in the same order, and the same stack at
    // every node, without the push and the pop).

    /// The cast's first step (§16.5 step 3: rods that reorder; the cast action calls it), then
    /// `CastReveal(p)`; true when it asked a node or ended the game.
    #[inline(always)]
    pub(super) fn cast_rod(&self, st: &mut S, p: u8) -> bool {
        let pu = usize::from(p);
        let s = usize::from(st.cast_shoal);
        let rod = st.seats[pu].rod;
        let reorder = self.data.rods.get(usize::from(rod)).and_then(|r| r.reorder);
        match reorder {
            Some(amount) if st.face_up >> s & 1 == 0 && st.shoal_len[s] >= 2 => {
                st.push(Task::CastReveal(p));
                self.start_reorder(st, pu, amount)
            }
            _ => self.cast_reveal(st, p),
        }
    }

    /// The task `CastReveal(p)` (cast §16.5 steps 4–5), then `CastAbility(p)`; true when it
    /// asked a node or ended the game.
    #[inline(always)]
    fn cast_reveal(&self, st: &mut S, p: u8) -> bool {
        let s = usize::from(st.cast_shoal);
        st.cast_fish = st.top_fish(s).unwrap_or(NONE);
        st.cast_revealed = false;
        if st.shoal_len[s] > 0 && st.face_up >> s & 1 == 0 {
            st.face_up |= 1 << s;
            st.forget(s);
            st.cast_revealed = true;
        }
        if let Some(fish) = self.fish_data(st.cast_fish) {
            let dead = self
                .data
                .rods
                .get(usize::from(st.seats[usize::from(p)].rod))
                .is_some_and(|r| r.ignore_reveal);
            // The not-caught clause is part of the Reveal ability (Decision 37): the rod also
            // asks for a fish whose only reveal text is a not-caught clause (Scrat).
            let ability = fish.reveal != 0 || fish.not_caught != 0;
            if st.cast_revealed && !fish.special && ability && dead {
                st.push(Task::CastAbility(p));
                return self.ask(st, Node::IgnoreReveal, p);
            }
        }
        self.cast_ability(st, p)
    }

    /// The task `CastAbility(p)` (cast §16.5 step 6: the reveal list), then
    /// `CastAfterReveal(p)`.
    #[inline(always)]
    fn cast_ability(&self, st: &mut S, p: u8) -> bool {
        let list = if st.cast_revealed && !st.cast_ignored {
            self.fish_data(st.cast_fish).map_or(0, |x| x.reveal)
        } else {
            0
        };
        if list == 0 {
            return self.cast_after_reveal(st, p);
        }
        st.push(Task::CastAfterReveal(p));
        self.start_list(st, usize::from(p), st.cast_fish, TRIGGER_REVEAL, list)
    }

    /// The task `CastAfterReveal(p)` (cast §16.5 step 7): the `pay` node, or the cast end.
    #[inline(always)]
    fn cast_after_reveal(&self, st: &mut S, p: u8) -> bool {
        if st.cast_end != 0 || st.shoal_len[usize::from(st.cast_shoal)] == 0 {
            st.push(Task::CastEnd(p));
            false
        } else {
            self.ask(st, Node::Pay, p)
        }
    }

    /// The tasks of a cast and of a regret draw event, executed in [`Self::run`]'s loop; any
    /// other task by [`Self::exec`]. True when it asked a node or ended the game.
    #[inline(always)]
    pub(super) fn exec_cast(&self, st: &mut S, t: Task) -> bool {
        match t {
            Task::DrawEvent(u, k) => self.draw_event(st, u, k),
            Task::CastReveal(p) => self.cast_reveal(st, p),
            Task::CastAbility(p) => self.cast_ability(st, p),
            Task::CastAfterReveal(p) => self.cast_after_reveal(st, p),
            Task::NotCaught(p) => {
                // §16.6 Decline: only for a fish this cast revealed, its reveal not ignored by the
                // Rod of the Dead (Decision 37: the clause is part of the Reveal ability).
                let list = if st.cast_revealed && !st.cast_ignored {
                    self.fish_data(st.cast_fish).map_or(0, |x| x.not_caught)
                } else {
                    0
                };
                self.start_list(st, usize::from(p), st.cast_fish, TRIGGER_NOT_CAUGHT, list)
            }
            Task::CastEnd(p) => {
                let free = st.cast_end == 2;
                st.cast_on = false;
                st.clear_cast();
                if st.sea_empty() {
                    self.finish(st);
                    return true;
                }
                if free {
                    st.main_done = false;
                    self.ask(st, Node::Turn, p)
                } else {
                    self.after_main(st, p)
                }
            }
            Task::EachSeat(u, list, mask, i) => {
                let n = self.n();
                for j in usize::from(i)..n {
                    let q = (usize::from(u) + j) % n;
                    if mask >> q & 1 == 1 {
                        st.push(Task::EachSeat(u, list, mask, j as u8 + 1));
                        st.push(Task::Effects(q as u8, list, 0));
                        return false;
                    }
                }
                false
            }
            t => self.exec(st, t),
        }
    }

    pub(super) fn exec_ability(&self, st: &mut S, t: Task) -> bool {
        let n = self.n();
        match t {
            Task::Effects(u, list, idx) => self.task_effects(st, u, list, idx),
            Task::Ability(f, trigger) => {
                st.ability_fish = f;
                st.ability_trigger = trigger;
                false
            }
            Task::IncrementLoop(u, k) if k > 0 && below_top(&st.seats[usize::from(u)].fresh) => {
                st.push(Task::IncrementLoop(u, k - 1));
                st.left = k;
                self.ask(st, Node::Increment, u)
            }
            Task::TakeSupply(u, k) => {
                if k == 0 {
                    return false;
                }
                if st.supply_deck == 0 {
                    st.supply_deck = st.supply_discard;
                    st.supply_discard = 0;
                }
                if st.supply_deck == 0 {
                    return false;
                }
                st.push(Task::TakeSupply(u, k - 1));
                self.ask(st, Node::DrawSupply, u)
            }
            Task::Catch(p) => {
                let pu = usize::from(p);
                let s = usize::from(st.cast_shoal);
                if st.shoal_len[s] == 0 {
                    return false;
                }
                let f = st.take_top(s);
                let Some(fish) = self.fish_data(f) else {
                    return false;
                };
                if fish.front {
                    st.seats[pu].front.insert(f);
                    if fish.rules.column_lock {
                        st.seats[pu].locks |= 1 << (s % 3);
                    }
                } else {
                    st.seats[pu].hand.insert(f);
                    st.unseen_hand.remove(f);
                }
                st.seats[pu].caught_today = true;
                if st.shoal_len[s] == 0 {
                    st.push(Task::Overfish(p));
                }
                let dead = self
                    .data
                    .rods
                    .get(usize::from(st.seats[pu].rod))
                    .is_some_and(|r| r.ignore_catch);
                if dead && fish.catch != 0 {
                    st.catch_fish = f;
                    return self.ask(st, Node::IgnoreCatch, p);
                }
                self.start_list(st, pu, f, TRIGGER_CATCH, fish.catch)
            }
            Task::CatchList(p, f) => {
                let list = self.fish_data(f).map_or(0, |x| x.catch);
                self.start_list(st, usize::from(p), f, TRIGGER_CATCH, list)
            }
            Task::Overfish(p) => {
                st.push(Task::DrawEvent(p, self.data.overfishing_regrets));
                false
            }
            Task::DealPool(u, i) => {
                let j = usize::from(i).max(1);
                if st.pool.iter().any(|&c| c > 0) && j < n {
                    st.target = ((usize::from(u) + j) % n) as u8;
                    st.push(Task::DealPool(u, j as u8 + 1));
                    return self.ask(st, Node::GiveRegret, u);
                }
                let pu = usize::from(u);
                for v in 0..4 {
                    st.seats[pu].regrets[v] += st.pool[v];
                }
                st.pool = [0; 4];
                st.pool_on = false;
                st.target = NONE;
                false
            }
            Task::GiveRegretsLoop(u, i) => {
                let pu = usize::from(u);
                let j = usize::from(i).max(1);
                if st.seats[pu].has_regret() && j < n {
                    st.target = ((pu + j) % n) as u8;
                    st.push(Task::GiveRegretsLoop(u, j as u8 + 1));
                    return self.ask(st, Node::GiveRegret, u);
                }
                st.target = NONE;
                false
            }
            Task::ReceiveRegretsLoop(u, i) => {
                let pu = usize::from(u);
                for j in usize::from(i).max(1)..n {
                    let q = (pu + j) % n;
                    if st.seats[q].has_regret() {
                        st.target = u;
                        st.push(Task::ReceiveRegretsLoop(u, j as u8 + 1));
                        return self.ask(st, Node::GiveRegret, q as u8);
                    }
                }
                st.target = NONE;
                false
            }
            Task::SetDepth(u, d) => {
                st.seats[usize::from(u)].depth = d;
                false
            }
            Task::HadalSwap(u, q, k) => {
                let (pu, qu, ku) = (usize::from(u), usize::from(q), usize::from(k).min(2));
                let f = st.ability_fish;
                if st.seats[pu].hand.contains(usize::from(f)) && qu < MAX_SEATS {
                    let g = st.seats[qu].mounted[ku];
                    if g != NONE {
                        st.seats[pu].hand.remove(f);
                        st.seats[qu].mounted[ku] = f;
                        st.seats[pu].hand.insert(g);
                        st.unseen_hand.remove(g);
                    }
                }
                false
            }
            Task::RevealAny(u) if st.facedown() != 0 => self.ask(st, Node::RevealShoal, u),
            _ => false,
        }
    }

    /// Applies a primitive of the card abilities (contract §16.7); true when it asked a node.
    pub(super) fn ability_effect(&self, st: &mut S, u: usize, prim: Prim) -> bool {
        let uu = u as u8;
        let n = self.n();
        match prim {
            Prim::DrawRegretFoul => {
                let k = st.seats[u].hand.and(&self.foul_set).count();
                st.push(Task::DrawEvent(uu, k.min(255) as u8));
            }
            Prim::Increment(k) => st.push(Task::IncrementLoop(uu, k)),
            Prim::Choice(a, b) => {
                st.branch = (a, b);
                return self.ask(st, Node::ChooseEffect, uu);
            }
            Prim::Coin(a, b) => {
                st.branch = (a, b);
                return self.ask(st, Node::Coin, uu);
            }
            Prim::Each(who, list) => {
                let mut mask = 0u8;
                for q in 0..n {
                    let inside = match who {
                        Who::Everyone => true,
                        Who::Others => q != u,
                        Who::AtSea => st.seats[q].depth >= 1,
                    };
                    if inside {
                        mask |= 1 << q;
                    }
                }
                st.push(Task::EachSeat(uu, list, mask, 0));
            }
            Prim::GainMoney(a) => self.gain(st, u, i32::from(a)),
            Prim::TakeSupply(k) => st.push(Task::TakeSupply(uu, k)),
            Prim::DrawDink(k) => {
                // the Centerpin Reel: only a reveal / catch / not-caught ability of the cast
                // running for the caster is part of the caster's own fishing action
                let own_cast = st.cast_on
                    && st.ability_fish != NONE
                    && st.ability_trigger != TRIGGER_EAT
                    && u == usize::from(st.turn);
                let per = self.dinks_per_draw(st, u, own_cast);
                st.push(Task::DrawDinks(uu, k.saturating_mul(per)));
            }
            Prim::FlipWorms => st.seats[u].worms = !st.seats[u].worms,
            Prim::DiscardFish(size) if self.hand_has_size(st, u, size) => {
                st.fish_size = size;
                return self.ask(st, Node::DiscardFish, uu);
            }
            Prim::DiscardItem => {
                let seat = &st.seats[u];
                if seat.rods | seat.reels | seat.supplies != 0 {
                    return self.ask(st, Node::DiscardItem, uu);
                }
            }
            Prim::DiscardThis => {
                let f = st.ability_fish;
                if st.cast_on && st.top_fish(usize::from(st.cast_shoal)) == Some(f) {
                    self.discard_top(st, usize::from(st.cast_shoal));
                } else if st.seats[u].hand.contains(usize::from(f)) {
                    self.discard_hand_fish(st, u, f);
                }
            }
            Prim::GiveThis(to) => {
                let f = st.ability_fish;
                let s = usize::from(st.cast_shoal);
                if !st.cast_on || st.top_fish(s) != Some(f) {
                    return false;
                }
                let q = match to {
                    GiveTo::Choice => {
                        st.give_fish = f;
                        st.give_from_hand = false;
                        return self.ask(st, Node::GiveFish, uu);
                    }
                    GiveTo::Left => Some((u + 1) % n),
                    GiveTo::Right => Some((u + n - 1) % n),
                    GiveTo::MostRegrets => {
                        let best = (0..n).map(|q| st.seats[q].regret_count()).max();
                        let top: Vec<usize> = (0..n)
                            .filter(|&q| Some(st.seats[q].regret_count()) == best)
                            .collect();
                        if top.len() == 1 {
                            top.first().copied()
                        } else {
                            None
                        }
                    }
                };
                match q {
                    Some(q) => {
                        let g = st.take_top(s);
                        st.seats[q].hand.insert(g);
                        st.unseen_hand.remove(g);
                    }
                    None => self.discard_top(st, s),
                }
            }
            Prim::EndCast if st.cast_end == 0 => st.cast_end = 1,
            Prim::FreeCast => st.cast_end = 2,
            Prim::AutoCatch => {
                if st.cast_end == 0 {
                    st.cast_end = 1;
                }
                st.push(Task::Catch(uu));
            }
            Prim::SetDifficulty(a) => st.cast_base = Some(a),
            Prim::RerollAll => {
                let mut any = false;
                for c in 0..CLASSES {
                    let m = st.seats[u].fresh[c];
                    if m > 0 {
                        st.seats[u].fresh[c] = 0;
                        st.to_roll[usize::from(CLASS_KIND[c])] += m;
                        any = true;
                    }
                }
                if any {
                    st.roll_to_rolled = false;
                    return self.ask(st, Node::Roll, uu);
                }
            }
            Prim::PeekBeneath => {
                let s = usize::from(st.cast_shoal);
                let len = usize::from(st.shoal_len[s]);
                st.cast_beneath = if st.cast_on && len >= 2 {
                    st.shoals[s][len - 2]
                } else {
                    NONE
                };
            }
            Prim::PeekDepth(d) if st.cast_on && (1..=3).contains(&d) => {
                let s = usize::from(d - 1) * 3 + usize::from(st.cast_shoal) % 3;
                if st.peekable(u) >> s & 1 == 1 {
                    st.known[u] |= 1 << s;
                }
            }
            Prim::PeekLine if st.peekable(u) != 0 => {
                st.left = 1;
                return self.ask(st, Node::PeekLine, uu);
            }
            Prim::Reveal(t) => match t {
                RevealTarget::CastColumn => {
                    if st.cast_on {
                        let c = usize::from(st.cast_shoal) % 3;
                        for s in [c, c + 3, c + 6] {
                            if self.reveal_outside(st, s) {
                                return true;
                            }
                        }
                    }
                }
                RevealTarget::All => {
                    for s in 0..9 {
                        if self.reveal_outside(st, s) {
                            return true;
                        }
                    }
                }
                RevealTarget::Column => {
                    if st.facedown() != 0 {
                        return self.ask(st, Node::RevealColumn, uu);
                    }
                }
                RevealTarget::Any => st.push(Task::RevealAny(uu)),
            },
            Prim::RevealBeneath => {
                let s = usize::from(st.cast_shoal);
                if st.cast_on && st.shoal_len[s] > 0 && st.face_up >> s & 1 == 0 {
                    st.peek = st.top_fish(s).unwrap_or(NONE);
                    return self.ask(st, Node::RevealBeneath, uu);
                }
            }
            Prim::DiscardTops(k) => {
                for s in 0..9 {
                    for _ in 0..k {
                        self.discard_top(st, s);
                    }
                }
            }
            Prim::MoveBoats(d) => {
                for q in 0..n {
                    if st.seats[q].depth >= 1 {
                        st.seats[q].depth = d;
                    }
                }
            }
            Prim::MoveOffer(d, r) => {
                let depth = st.seats[u].depth;
                if depth >= 1 && depth != d {
                    st.move_depth = d;
                    st.move_regrets = r;
                    return self.ask(st, Node::MoveOffer, uu);
                }
            }
            Prim::OmenDie => st.seats[u].spent[KINDS - 1] += 1,
            Prim::DealRegrets => {
                st.pool_on = true;
                st.pool = [0; 4];
                st.push(Task::DealPool(uu, 1));
                st.push(Task::DrawRegrets(uu, n as u8));
            }
            Prim::GiveRegrets => st.push(Task::GiveRegretsLoop(uu, 1)),
            Prim::ReceiveRegrets => st.push(Task::ReceiveRegretsLoop(uu, 1)),
            Prim::SwapBeneath => {
                let s = usize::from(st.cast_shoal);
                if st.cast_on
                    && st.shoal_len[s] > 0
                    && st.seats[u].hand.contains(usize::from(st.ability_fish))
                {
                    return self.ask(st, Node::SwapBeneath, uu);
                }
            }
            Prim::Mimic => {
                let s = usize::from(st.cast_shoal);
                if !st.cast_on || st.top_fish(s) != Some(st.ability_fish) {
                    return false;
                }
                if self.hand_has_size(st, u, 0) {
                    return self.ask(st, Node::Mimic, uu);
                }
                self.discard_top(st, s);
            }
            Prim::HadalShade(r) => {
                let any = (0..n)
                    .filter(|&q| q != u)
                    .any(|q| st.seats[q].mounted.iter().any(|&f| f != NONE));
                if any && st.seats[u].hand.contains(usize::from(st.ability_fish)) {
                    st.hadal_regrets = r;
                    return self.ask(st, Node::HadalShade, uu);
                }
            }
            Prim::ShuffleBack => {
                let s = usize::from(st.cast_shoal);
                if st.cast_on && st.top_fish(s) == Some(st.ability_fish) {
                    st.shuffle_fish = st.take_top(s);
                    return self.ask(st, Node::ShuffleBack, uu);
                }
            }
            Prim::Plug => {
                let s = usize::from(st.cast_shoal);
                if st.cast_on && st.top_fish(s) == Some(st.ability_fish) {
                    st.take_top(s);
                    st.plug = true;
                }
            }
            Prim::ClawHammer => {
                for k in 0..3 {
                    let f = st.seats[u].mounted[k];
                    if f != NONE {
                        st.seats[u].mounted[k] = NONE;
                        st.seats[u].hand.insert(f);
                        st.unseen_hand.remove(f);
                    }
                }
                let c = st.seats[u].cloche;
                if c != NONE {
                    st.seats[u].cloche = NONE;
                    st.seats[u].hand.insert(c);
                    st.unseen_hand.remove(c);
                    if self.cloche_supply != NONE {
                        st.supply_discard |= 1 << self.cloche_supply;
                    }
                }
            }
            Prim::Cloche if st.seats[u].cloche == NONE && self.has_small_mountable(st, u) => {
                st.slot = CLOCHE_SLOT;
                return self.ask(st, Node::MountFish, uu);
            }
            _ => {}
        }
        false
    }

    /// Resolves a decision or chance node of the card abilities.
    pub(super) fn apply_ability(&self, st: &mut S, p: usize, a: u32) {
        let pp = p as u8;
        let n = self.n();
        match st.node {
            Node::Coin | Node::ChooseEffect => {
                let first = if st.node == Node::Coin {
                    a == 0 // heads
                } else {
                    a == FIRST_EFFECT
                };
                let list = if first { st.branch.0 } else { st.branch.1 };
                st.branch = (0, 0);
                if list != 0 {
                    st.push(Task::Effects(pp, list, 0));
                }
                self.run(st);
            }
            Node::ShuffleBack => {
                let s = usize::from(st.cast_shoal);
                let len = usize::from(st.shoal_len[s]);
                let k = (a as usize).min(len);
                let f = st.shuffle_fish;
                if len < super::SHOAL_CAP && f != NONE {
                    let i = len - k;
                    st.shoals[s].copy_within(i..len, i + 1);
                    st.shoals[s][i] = f;
                    st.shoal_len[s] += 1;
                }
                st.shuffle_fish = NONE;
                st.face_up &= !(1u16 << s);
                st.forget(s);
                self.run(st);
            }
            Node::Increment => {
                let c = (a.wrapping_sub(DIE) as usize).min(CLASSES - 1);
                if st.seats[p].fresh[c] > 0 && c + 1 < CLASSES && CLASS_KIND[c + 1] == CLASS_KIND[c]
                {
                    st.seats[p].fresh[c] -= 1;
                    st.seats[p].fresh[c + 1] += 1;
                }
                st.left = 0;
                self.run(st);
            }
            Node::DiscardFish => {
                let f = a.wrapping_sub(FISH) as u8;
                if st.seats[p].hand.contains(usize::from(f)) {
                    self.discard_hand_fish(st, p, f);
                }
                st.fish_size = 3;
                self.run(st);
            }
            Node::DiscardItem => {
                let seat = &mut st.seats[p];
                match a {
                    SUPPLY..=SUPPLY_LAST => {
                        let b = 1u32 << (a - SUPPLY);
                        seat.supplies &= !b;
                        st.supply_discard |= b;
                    }
                    ROD..=ROD_LAST => {
                        let r = (a - ROD) as u8;
                        discard_gear(&mut seat.rods, &mut seat.rod, &mut st.rod_discard, r);
                    }
                    REEL..=REEL_LAST => {
                        let r = (a - REEL) as u8;
                        discard_gear(&mut seat.reels, &mut seat.reel, &mut st.reel_discard, r);
                    }
                    _ => {}
                }
                self.run(st);
            }
            Node::GiveFish => {
                let q = (a.wrapping_sub(GIVE_TO) as usize).min(MAX_SEATS - 1);
                let f = st.give_fish;
                st.give_fish = NONE;
                if st.give_from_hand {
                    st.give_from_hand = false;
                    st.seats[p].hand.remove(f);
                    st.seats[q].hand.insert(f);
                    st.unseen_hand.remove(f);
                    st.push(Task::AfterMain(pp));
                    st.push(Task::DiscardRegretLoop(q as u8, st.give_discard));
                } else {
                    let s = usize::from(st.cast_shoal);
                    if st.top_fish(s) == Some(f) {
                        let g = st.take_top(s);
                        st.seats[q].hand.insert(g);
                        st.unseen_hand.remove(g);
                    }
                }
                self.run(st);
            }
            Node::GiveRegret => {
                let v = (a.wrapping_sub(REGRET) as usize).min(3);
                let q = usize::from(st.target).min(MAX_SEATS - 1);
                if st.pool_on {
                    st.pool[v] = st.pool[v].saturating_sub(1);
                } else {
                    st.seats[p].regrets[v] = st.seats[p].regrets[v].saturating_sub(1);
                }
                st.seats[q].regrets[v] += 1;
                self.run(st);
            }
            Node::SwapBeneath => {
                if a == YES {
                    let s = usize::from(st.cast_shoal);
                    let f = st.ability_fish;
                    let g = st.take_top(s);
                    st.seats[p].hand.insert(g);
                    // The shoal's face-down top: the other seats do not see which fish it is.
                    st.unseen_hand.insert(g);
                    st.seats[p].hand.remove(f);
                    st.put_top(s, f);
                }
                self.run(st);
            }
            Node::MoveOffer => {
                if a == YES {
                    st.push(Task::SetDepth(pp, st.move_depth));
                    st.push(Task::DrawEvent(pp, st.move_regrets));
                }
                self.run(st);
            }
            Node::IgnoreReveal => {
                if a == NO {
                    st.cast_ignored = true;
                }
                self.run(st);
            }
            Node::RevealBeneath => {
                st.peek = NONE;
                let s = usize::from(st.cast_shoal).min(8);
                if a == YES {
                    if self.reveal_outside(st, s) {
                        return;
                    }
                } else {
                    // Left face down, the top p has just seen stays known to p (Decision 24).
                    st.known[p] |= 1 << s;
                }
                self.run(st);
            }
            Node::IgnoreCatch => {
                let f = st.catch_fish;
                st.catch_fish = NONE;
                if a == YES {
                    st.push(Task::CatchList(pp, f));
                }
                self.run(st);
            }
            Node::Reorder => {
                let f = a.wrapping_sub(FISH) as u8;
                let len = usize::from(st.order_len);
                if let Some(i) = st.order[..len].iter().position(|&x| x == f) {
                    st.order.copy_within(i + 1..len, i);
                    st.order_len -= 1;
                    if usize::from(st.chosen_len) < 3 {
                        st.chosen[usize::from(st.chosen_len)] = f;
                        st.chosen_len += 1;
                    }
                }
                if st.order_len <= 1 {
                    self.finish_reorder(st);
                    self.run(st);
                }
            }
            Node::RevealShoal => {
                if a == DONE {
                    return self.run(st);
                }
                if self.reveal_outside(st, (a.wrapping_sub(CAST) as usize).min(8)) {
                    return;
                }
                if st.facedown() == 0 {
                    self.run(st);
                }
            }
            Node::RevealColumn => {
                let c = (a.wrapping_sub(COLUMN) as usize).min(2);
                for s in [c, c + 3, c + 6] {
                    if self.reveal_outside(st, s) {
                        return;
                    }
                }
                self.run(st);
            }
            Node::PeekLine => {
                let m = st.peekable(p);
                let mask = if (ROW..=ROW_LAST).contains(&a) {
                    ROW_MASK[(a - ROW) as usize]
                } else {
                    COL_MASK[(a.wrapping_sub(COLUMN) as usize).min(2)]
                };
                st.known[p] |= m & mask;
                st.left = 0;
                self.run(st);
            }
            Node::Mimic => {
                let f = a.wrapping_sub(FISH) as u8;
                let s = usize::from(st.cast_shoal);
                if st.seats[p].hand.contains(usize::from(f)) {
                    st.seats[p].hand.remove(f);
                    let m = st.take_top(s);
                    st.seats[p].hand.insert(m);
                    st.unseen_hand.remove(m);
                    st.put_top(s, f);
                    st.face_up |= 1 << s;
                }
                self.run(st);
            }
            Node::HadalShade => {
                if (HADAL..=HADAL_LAST).contains(&a) {
                    let q = ((a - HADAL) / 3) as u8;
                    let k = ((a - HADAL) % 3) as u8;
                    st.push(Task::HadalSwap(pp, q, k));
                    st.push(Task::DrawEvent(pp, st.hadal_regrets));
                }
                self.run(st);
            }
            Node::OfferTarget => {
                st.target = (a.wrapping_sub(GIVE_TO) as usize).min(n - 1) as u8;
                st.offer = [0; 4];
                self.ask(st, Node::OfferRegret, pp);
            }
            Node::OfferRegret => {
                if a != DONE {
                    let v = (a.wrapping_sub(REGRET) as usize).min(3);
                    st.seats[p].regrets[v] = st.seats[p].regrets[v].saturating_sub(1);
                    st.offer[v] += 1;
                }
                let offered: u8 = st.offer.iter().sum();
                if a == DONE || offered >= st.offer_max || st.seats[p].regret_count() == 0 {
                    let q = st.target;
                    self.ask(st, Node::AcceptOffer, q);
                }
            }
            Node::AcceptOffer => {
                let turn = st.turn;
                let giver = usize::from(turn).min(MAX_SEATS - 1);
                let to = if a == YES { p } else { giver };
                for v in 0..4 {
                    st.seats[to].regrets[v] += st.offer[v];
                }
                st.offer = [0; 4];
                st.target = NONE;
                st.push(Task::ReturnTo(st.free_return(), turn));
                if a == YES {
                    st.push(Task::RefreshLoop(pp, st.offer_refresh));
                }
                self.run(st);
            }
            _ => {}
        }
    }

    /// Legal actions at the decision nodes of the card abilities.
    pub(super) fn legal_ability(&self, st: &S, p: usize, out: &mut Vec<u32>) {
        let seat = &st.seats[p];
        let n = self.n();
        match st.node {
            Node::ChooseEffect => out.extend_from_slice(&[FIRST_EFFECT, SECOND_EFFECT]),
            Node::Increment => {
                for c in 0..CLASSES {
                    if seat.fresh[c] > 0 && c + 1 < CLASSES && CLASS_KIND[c + 1] == CLASS_KIND[c] {
                        out.push(DIE + c as u32);
                    }
                }
            }
            Node::DiscardFish | Node::Mimic => {
                let size = if st.node == Node::Mimic {
                    0
                } else {
                    st.fish_size
                };
                seat.hand.each(|f| {
                    if size == 3 || self.fish_data(f).is_some_and(|x| x.size == size) {
                        out.push(FISH + u32::from(f));
                    }
                });
            }
            Node::DiscardItem => {
                super::each_bit(seat.supplies, |i| out.push(SUPPLY + i));
                super::each_bit(seat.rods, |r| out.push(ROD + r));
                super::each_bit(seat.reels, |r| out.push(REEL + r));
            }
            Node::GiveFish | Node::OfferTarget => {
                for q in 0..n {
                    if q != p {
                        out.push(GIVE_TO + q as u32);
                    }
                }
            }
            Node::GiveRegret => {
                let src = if st.pool_on { &st.pool } else { &seat.regrets };
                for v in 0..4 {
                    if src[v] > 0 {
                        out.push(REGRET + v as u32);
                    }
                }
            }
            Node::SwapBeneath
            | Node::MoveOffer
            | Node::IgnoreReveal
            | Node::IgnoreCatch
            | Node::RevealBeneath
            | Node::AcceptOffer => out.extend_from_slice(&[YES, NO]),
            Node::Reorder => {
                super::legal::push_sorted(out, FISH, &st.order, st.order_len);
            }
            Node::RevealShoal => {
                out.push(DONE);
                let m = st.facedown();
                for s in 0..9u32 {
                    if m >> s & 1 == 1 {
                        out.push(CAST + s);
                    }
                }
            }
            Node::RevealColumn => push_lines(out, st.facedown(), &COL_MASK, COLUMN),
            Node::PeekLine => {
                let m = st.peekable(p);
                push_lines(out, m, &ROW_MASK, ROW);
                push_lines(out, m, &COL_MASK, COLUMN);
            }
            Node::HadalShade => {
                out.push(NO);
                for q in 0..n {
                    if q == p {
                        continue;
                    }
                    for k in 0..3 {
                        if st.seats[q].mounted[k] != NONE {
                            out.push(HADAL + 3 * q as u32 + k as u32);
                        }
                    }
                }
            }
            Node::OfferRegret => {
                if st.offer.iter().any(|&c| c > 0) {
                    out.push(DONE);
                }
                for v in 0..4 {
                    if seat.regrets[v] > 0 {
                        out.push(REGRET + v as u32);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Discards a seat's rod or reel `r`: out of its `owned` set, unequipped if it was `equipped`, and
/// onto the discard `pile`.
fn discard_gear(owned: &mut u32, equipped: &mut u8, pile: &mut u32, r: u8) {
    *owned &= !(1 << r);
    if *equipped == r {
        *equipped = NONE;
    }
    *pile |= 1 << r;
}
