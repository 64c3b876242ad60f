//! The task machine and the day (contract §5–§7.1, §7.5): the continuation of the procedure in
//! progress as a stack of tasks, the phases of the day, musters, turn order, regret and dink
//! draws, and the effect primitives of items.
//!
//! A node handler (module `apply`) resolves the action, pushes the steps that follow it onto the
//! task stack and calls [`DeepRegrets::run`], which pops and executes tasks until one of them
//! asks a node (or the game ends). A handler whose node repeats simply returns without running.
//!
//! Must not: list legal actions (module `legal`), pick chance outcomes (module `chance`) or know
//! about JSON; a task never allocates.

use super::data::{PeekTarget, Prim};
use super::{
    class_mask, DeepRegrets, DeepRegretsState as S, Node, Phase, Task, CLASSES, CLASS_FACE,
    CLASS_KIND, KINDS, NONE, TOP_CLASS, TOP_CLASSES,
};

impl DeepRegrets {
    #[inline]
    pub(super) fn ask(&self, st: &mut S, node: Node, actor: u8) -> bool {
        st.node = node;
        st.actor = actor;
        true
    }

    /// The pass reward of seat `p`: its node if it has a choice; whether it was asked.
    #[inline]
    pub(super) fn reward(&self, st: &mut S, p: u8) -> bool {
        let can_dink = st.dink_deck | st.dink_discard != 0;
        let can_discard = st.seats[usize::from(p)].has_regret();
        if can_dink || can_discard {
            self.ask(st, Node::Reward, p)
        } else {
            false
        }
    }

    /// Seat `p` equips a rod (`node` is [`Node::EquipRod`]) or a reel ([`Node::EquipReel`]):
    /// nothing without one, its only one outright, or it is asked which; whether it was asked.
    fn equip(&self, st: &mut S, p: u8, node: Node) -> bool {
        let seat = &mut st.seats[usize::from(p)];
        let (owned, equipped) = if node == Node::EquipRod {
            (seat.rods, &mut seat.rod)
        } else {
            (seat.reels, &mut seat.reel)
        };
        match crate::bits::count(u64::from(owned)) {
            0 => false,
            1 => {
                *equipped = owned.trailing_zeros() as u8;
                false
            }
            _ => self.ask(st, node, p),
        }
    }

    /// The end of an action that ran its first task itself: the task loop goes on unless that
    /// task asked a node or ended the game (`asked`).
    #[inline(always)]
    pub(super) fn run_unless(&self, st: &mut S, asked: bool) {
        if !asked {
            self.run(st);
        }
    }

    /// [`Self::run`] after a draw that a pass reward may have asked for: the `Advance` that the
    /// pass left on top of the stack is executed here, as the loop would pop it, and the loop is
    /// entered only if that asked no node (its entry costs more than the task).
    #[inline(always)]
    pub(super) fn run_after_reward(&self, st: &mut S) {
        if matches!(st.top(), Some(Task::Advance)) {
            st.pop();
            let asked = self.advance(st);
            self.run_unless(st, asked);
        } else {
            self.run(st);
        }
    }

    /// Executes tasks until a node is asked or the game ends.
    ///
    /// The tasks of every turn, muster, draw and cast, and the small ones of the day's phases,
    /// are executed here in the loop; the others by [`Self::exec`], a call each (its frame is
    /// large, and these tasks are most of the work).
    #[inline(never)]
    pub(super) fn run(&self, st: &mut S) {
        let n = self.n();
        while let Some(t) = st.pop() {
            let asked = match t {
                Task::MusterStart(p) => self.muster_start(st, p),
                Task::MusterRoll(p) => self.muster_roll(st, p),
                Task::MusterKeep(p) => {
                    let pu = usize::from(p);
                    let room = self
                        .max_fresh(st, pu)
                        .saturating_sub(st.seats[pu].fresh_count());
                    let rolled: u32 = st.rolled.iter().map(|&c| u32::from(c)).sum();
                    if rolled <= room {
                        for c in 0..CLASSES {
                            st.seats[pu].fresh[c] += st.rolled[c];
                        }
                        st.rolled = [0; CLASSES];
                        false
                    } else if room == 0 {
                        self.rolled_to_spent(st, pu);
                        false
                    } else {
                        st.left = room as u8;
                        self.ask(st, Node::MusterKeep, p)
                    }
                }
                Task::Arrive => self.arrive(st),
                Task::Advance => self.advance(st),
                Task::AfterMain(p) => self.after_main(st, p),
                Task::DrawRegrets(p, k) => self.draw_regrets(st, p, k),
                Task::DrawDinks(p, k) => self.draw_dinks(st, p, k),
                Task::ReturnTo(node, p) => self.return_to(st, node, p),
                Task::RefreshSeat(i) => {
                    if usize::from(i) < n {
                        let p = (usize::from(st.first_player) + usize::from(i)) % n;
                        st.push(Task::RefreshSeat(i + 1));
                        self.muster_start(st, p as u8)
                    } else {
                        false
                    }
                }
                Task::DeclareSeat(i) if usize::from(i) >= n => false,
                Task::DeclareSeat(i) => {
                    let p = (usize::from(st.first_player) + usize::from(i)) % n;
                    let pp = p as u8;
                    st.push(Task::DeclareSeat(i + 1));
                    if st.seats[p].depth == 0 {
                        st.seats[p].depth = 1;
                        // EquipRod, then EquipReel, run here (as the loop would pop them).
                        if self.equip(st, pp, Node::EquipRod) {
                            st.push(Task::EquipReel(pp));
                            true
                        } else {
                            self.equip(st, pp, Node::EquipReel)
                        }
                    } else {
                        st.push(Task::EquipReel(pp));
                        st.push(Task::EquipRod(pp));
                        self.ask(st, Node::Declare, pp)
                    }
                }
                Task::EquipRod(p) => self.equip(st, p, Node::EquipRod),
                Task::EquipReel(p) => self.equip(st, p, Node::EquipReel),
                Task::DiscardRegretLoop(p, k) => self.discard_regret_loop(st, p, k),
                Task::ShopDraw(p, k) => self.shop_draw(st, p, k),
                Task::Effects(u, list, idx) => self.task_effects(st, u, list, idx),
                Task::Ability(f, trigger) => {
                    st.ability_fish = f;
                    st.ability_trigger = trigger;
                    false
                }
                Task::GiveLifePreserver => {
                    let fp = usize::from(st.first_player);
                    let mut giver = fp;
                    let mut best = st.seats[fp].fresh_total();
                    for i in 1..n {
                        let p = (fp + i) % n;
                        let t = st.seats[p].fresh_total();
                        if t > best {
                            best = t;
                            giver = p;
                        }
                    }
                    self.ask(st, Node::LifePreserver, giver as u8)
                }
                Task::Declaration => {
                    st.phase = Phase::Declaration;
                    st.push(Task::DeclareSeat(0));
                    false
                }
                Task::Actions => {
                    st.phase = Phase::Actions;
                    st.turn = st.first_player;
                    st.push(Task::Arrive);
                    false
                }
                Task::DayEnd => {
                    st.turn = NONE;
                    if st.day >= 6 {
                        self.finish(st);
                        true
                    } else {
                        st.push(Task::StartDay);
                        false
                    }
                }
                Task::MakePortAfter(p) => {
                    let seat = &mut st.seats[usize::from(p)];
                    seat.worms = true;
                    if seat.has_regret() {
                        self.ask(st, Node::PortDiscard, p)
                    } else {
                        false
                    }
                }
                Task::SeaCheck => {
                    if st.sea_empty() {
                        self.finish(st);
                        true
                    } else {
                        false
                    }
                }
                t => self.exec_cast(st, t),
            };
            if asked {
                return;
            }
        }
        debug_assert!(false, "the task stack ran empty without a node");
        self.finish(st);
    }

    // The tasks of the turn cycle, as functions: a task that would push the next one for the
    // loop to pop at once calls it instead (the same steps in the same order, and the same stack
    // at every node, without the push and the pop).

    /// The task `Arrive`: the `turn` seat's turn begins (a passed seat's reward, then
    /// `Advance`); true when it asked a node or ended the game.
    #[inline(always)]
    fn arrive(&self, st: &mut S) -> bool {
        let p = st.turn;
        if st.seats[usize::from(p)].passed {
            // The pass reward, then Advance.
            st.push(Task::Advance);
            return self.reward(st, p);
        }
        let seat = &mut st.seats[usize::from(p)];
        seat.skull_used = false;
        seat.coffin_used = false;
        st.main_done = false;
        if st.plug {
            if let Some(s) = (0..9).find(|&s| st.shoal_len[s] > 0) {
                self.discard_top(st, s);
            }
            if st.sea_empty() {
                self.finish(st);
                return true;
            }
        }
        self.ask(st, Node::Turn, p)
    }

    /// The task `Advance`: the day ends when every seat passed, else the next seat arrives.
    #[inline(always)]
    fn advance(&self, st: &mut S) -> bool {
        let n = self.n();
        if st.seats[..n].iter().all(|s| s.passed) {
            st.push(Task::DayEnd);
            false
        } else {
            st.turn = ((usize::from(st.turn) + 1) % n) as u8;
            self.arrive(st)
        }
    }

    /// The turn ends (the `after_main` node's end turn, or no free action left): the last turns
    /// count down, then the day ends or the turn passes on.
    #[inline(always)]
    pub(super) fn end_turn(&self, st: &mut S) -> bool {
        st.discount = 0;
        st.main_done = false;
        if st.last_turns != NONE {
            st.last_turns = st.last_turns.saturating_sub(1);
        }
        if st.last_turns == 0 {
            st.push(Task::DayEnd);
            false
        } else {
            self.advance(st)
        }
    }

    /// The task `ReturnTo(node, p)`: an item's effects are over; back to `node`.
    #[inline(always)]
    pub(super) fn return_to(&self, st: &mut S, node: Node, p: u8) -> bool {
        st.item = None;
        if node == Node::AfterMain {
            self.after_main(st, p)
        } else {
            self.ask(st, node, p)
        }
    }

    /// The task `AfterMain(p)`: the `after_main` node if p has a free action, else the turn
    /// ends.
    #[inline(always)]
    pub(super) fn after_main(&self, st: &mut S, p: u8) -> bool {
        if self.has_free_action(st, usize::from(p)) {
            self.ask(st, Node::AfterMain, p)
        } else {
            self.end_turn(st)
        }
    }

    /// The task `ShopDraw(p, k)`: k cards drawn from the shop's deck, one at a time.
    #[inline(always)]
    pub(super) fn shop_draw(&self, st: &mut S, p: u8, k: u8) -> bool {
        if k == 0 {
            return false;
        }
        let (deck, discard, node) = match st.shop {
            0 => (&mut st.rod_deck, &mut st.rod_discard, Node::DrawRod),
            1 => (&mut st.reel_deck, &mut st.reel_discard, Node::DrawReel),
            _ => (
                &mut st.supply_deck,
                &mut st.supply_discard,
                Node::DrawSupply,
            ),
        };
        if refill(deck, discard) {
            st.push(Task::ShopDraw(p, k - 1));
            self.ask(st, node, p)
        } else {
            false
        }
    }

    /// The task `TackleDraw(p, k)`: k tackle dice drawn from the bag, one at a time.
    #[inline(always)]
    pub(super) fn tackle_draw(&self, st: &mut S, p: u8, k: u8) -> bool {
        if k == 0 {
            return false;
        }
        st.push(Task::TackleDraw(p, k - 1));
        self.ask(st, Node::DrawBag, p)
    }

    /// The task `DiscardRegretLoop(p, k)`: at most k regrets of p's choice discarded.
    #[inline(always)]
    fn discard_regret_loop(&self, st: &mut S, p: u8, k: u8) -> bool {
        if k > 0 && st.seats[usize::from(p)].has_regret() {
            st.push(Task::DiscardRegretLoop(p, k - 1));
            st.left = k;
            self.ask(st, Node::DiscardRegret, p)
        } else {
            false
        }
    }

    /// The task `DrawEvent(u, k)`: one regret draw event of k regrets (and the front's extra
    /// ones) for u.
    #[inline(always)]
    pub(super) fn draw_event(&self, st: &mut S, u: u8, k: u8) -> bool {
        if k > 0 {
            let x = self.front_sum(st, usize::from(u), |r| r.front_extra);
            self.draw_regrets(st, u, k.saturating_add(x))
        } else {
            false
        }
    }

    /// The task `DrawRegrets(p, k)`: k regret draws, one at a time.
    #[inline(always)]
    pub(super) fn draw_regrets(&self, st: &mut S, p: u8, k: u8) -> bool {
        // The last draw pushes no draw of none.
        if k > 1 {
            st.push(Task::DrawRegrets(p, k - 1));
        }
        k > 0 && self.draw_regret(st, usize::from(p))
    }

    /// The task `DrawDinks(p, k)`: k dink draws, one at a time.
    #[inline(always)]
    pub(super) fn draw_dinks(&self, st: &mut S, p: u8, k: u8) -> bool {
        if k > 1 {
            st.push(Task::DrawDinks(p, k - 1));
        }
        k > 0 && refill(&mut st.dink_deck, &mut st.dink_discard) && self.ask(st, Node::DrawDink, p)
    }

    /// The task `MusterStart(p)` (muster step 1), then `MusterRoll(p)` and `MusterKeep(p)`.
    #[inline(always)]
    fn muster_start(&self, st: &mut S, p: u8) -> bool {
        st.push(Task::MusterKeep(p));
        if st.seats[usize::from(p)].has_fresh() {
            st.push(Task::MusterRoll(p));
            self.ask(st, Node::MusterSelect, p)
        } else {
            self.muster_roll(st, p)
        }
    }

    /// The task `MusterRoll(p)` (muster steps 2–3): Spent dice to be rolled.
    #[inline(always)]
    pub(super) fn muster_roll(&self, st: &mut S, p: u8) -> bool {
        let seat = &mut st.seats[usize::from(p)];
        for k in 0..KINDS {
            st.to_roll[k] += seat.spent[k];
            seat.spent[k] = 0;
        }
        if st.to_roll != [0; KINDS] {
            st.roll_to_rolled = true;
            self.ask(st, Node::Roll, p)
        } else {
            false
        }
    }

    /// The shoal being dealt (the first one not yet full).
    pub(super) fn dealing_shoal(&self, st: &S) -> usize {
        (0..9)
            .find(|&s| st.shoal_len[s] < self.per_shoal)
            .unwrap_or(8)
    }

    /// Starts the Refresh phase of a day (then Declaration unless it is the first day, then
    /// Actions).
    pub(super) fn begin_day_phases(&self, st: &mut S, first: bool) {
        st.phase = Phase::Refresh;
        st.push(Task::Actions);
        if !first {
            st.push(Task::Declaration);
        }
        st.push(Task::GiveLifePreserver);
        st.push(Task::RefreshSeat(0));
    }

    pub(super) fn start_day(&self, st: &mut S) -> bool {
        let n = self.n();
        st.day += 1;
        st.first_player = ((usize::from(st.first_player) + 1) % n) as u8;
        for s in 0..9 {
            if st.face_up >> s & 1 == 1 && st.shoal_len[s] > 0 {
                let f = st.take_top(s);
                st.discard_fish(f);
            }
        }
        if st.day == 3 || st.day == 5 {
            for p in 0..n {
                st.seats[p].worms = true;
            }
        }
        if st.day == 4 {
            for p in 0..n {
                self.gain(st, p, i32::from(self.data.payday));
            }
        }
        if st.day == 6 {
            if let Some(c) = [2usize, 1, 0]
                .into_iter()
                .find(|&c| usize::from(st.bag[c]) >= n)
            {
                for i in 0..n {
                    let p = (usize::from(st.first_player) + i) % n;
                    st.bag[c] -= 1;
                    st.seats[p].spent[c + 1] += 1;
                }
            }
        }
        for p in 0..n {
            let seat = &mut st.seats[p];
            if seat.depth >= 2 {
                seat.depth -= 1;
            }
            seat.passed = false;
            seat.shops_used = [false; 4];
            seat.reel_used = false;
            seat.caught_today = false;
            seat.skull_used = false;
            seat.coffin_used = false;
        }
        st.last_turns = NONE;
        st.life_preserver = NONE;
        if st.sea_empty() {
            self.finish(st);
            return true;
        }
        self.begin_day_phases(st, false);
        false
    }

    /// Executes one task that [`Self::run`] does not execute itself; true when it asked a node
    /// or ended the game.
    #[inline(never)]
    pub(super) fn exec(&self, st: &mut S, t: Task) -> bool {
        match t {
            Task::StartDay => self.start_day(st),
            Task::ShopKeep(p, keep) => {
                let keep = keep.min(st.drawn_len);
                if keep == st.drawn_len {
                    for i in 0..usize::from(st.drawn_len) {
                        let id = st.drawn[i];
                        self.give_card(st, usize::from(p), id);
                    }
                    st.drawn_len = 0;
                    st.shop = NONE;
                    false
                } else {
                    st.left = keep;
                    self.ask(st, Node::ShopKeep, p)
                }
            }
            Task::TackleDraw(p, k) => self.tackle_draw(st, p, k),
            Task::DiscardRandomLoop(p, k) => {
                if k > 0 && st.seats[usize::from(p)].has_regret() {
                    st.push(Task::DiscardRandomLoop(p, k - 1));
                    self.ask(st, Node::DiscardRandomRegret, p)
                } else {
                    false
                }
            }
            Task::RefreshLoop(p, k) => {
                let pu = usize::from(p);
                if k > 0 && st.seats[pu].has_spent() && self.fresh_below_max(st, pu) {
                    st.push(Task::RefreshLoop(p, k - 1));
                    st.left = k;
                    self.ask(st, Node::RefreshDie, p)
                } else {
                    false
                }
            }
            Task::SetMaxLoop(p, k) => {
                if k > 0 && below_top(&st.seats[usize::from(p)].fresh) {
                    st.push(Task::SetMaxLoop(p, k - 1));
                    st.left = k;
                    self.ask(st, Node::SetMax, p)
                } else {
                    false
                }
            }
            Task::PeekLoop(p, target, k) => {
                if k > 0 && st.peekable(usize::from(p)) != 0 {
                    st.push(Task::PeekLoop(p, target, k - 1));
                    st.left = k;
                    let node = match target {
                        PeekTarget::Shoal => Node::PeekShoal,
                        PeekTarget::Row => Node::PeekRow,
                        PeekTarget::Column => Node::PeekColumn,
                    };
                    self.ask(st, node, p)
                } else {
                    false
                }
            }
            t => self.exec_ability(st, t),
        }
    }

    /// Rolled dice not kept go to Spent (as kinds).
    pub(super) fn rolled_to_spent(&self, st: &mut S, p: usize) {
        for c in 0..CLASSES {
            st.seats[p].spent[usize::from(CLASS_KIND[c])] += st.rolled[c];
        }
        st.rolled = [0; CLASSES];
    }

    /// One DrawRegret(p) (contract §7.5); true when it asked a chance node.
    pub(super) fn draw_regret(&self, st: &mut S, p: usize) -> bool {
        if st.regret_deck == [0; 4] {
            st.regret_deck = st.regret_discard;
            st.regret_discard = [0; 4];
        }
        if st.regret_deck != [0; 4] {
            return self.ask(st, Node::DrawRegret, p as u8);
        }
        let n = self.n();
        let mut victim = NONE;
        let mut most = 0;
        for i in 1..n {
            let q = (p + i) % n;
            let c = st.seats[q].regret_count();
            if c > most {
                most = c;
                victim = q as u8;
            }
        }
        if victim == NONE {
            return false;
        }
        st.victim = victim;
        self.ask(st, Node::StealRegret, p as u8)
    }

    /// Applies `prim` of seat p if it only changes the state (pushes no task, asks no node);
    /// whether it did.
    #[inline(always)]
    pub(super) fn plain_effect(&self, st: &mut S, p: usize, prim: Prim) -> bool {
        match prim {
            Prim::Difficulty(a) => st.cast_reduction = st.cast_reduction.saturating_add(a),
            Prim::DifficultyZero => st.cast_zero = true,
            Prim::ShopDiscount(a) => st.discount = st.discount.saturating_add(a),
            Prim::DepthDown(k) => st.seats[p].depth = (st.seats[p].depth + k).min(3),
            Prim::DepthTo(d) => st.seats[p].depth = d,
            _ => return false,
        }
        true
    }

    /// Applies one effect primitive of the item vocabulary (contract §2.1), handing the card
    /// abilities' primitives to [`DeepRegrets::ability_effect`]; true when it asked a node.
    /// Its callers run the task loop next, so a primitive's first task may run here instead of
    /// being pushed for the loop to pop at once.
    pub(super) fn apply_effect(&self, st: &mut S, p: usize, prim: Prim) -> bool {
        let pp = p as u8;
        if self.plain_effect(st, p, prim) {
            return false;
        }
        match prim {
            Prim::DrawRegret(k) => return self.draw_event(st, pp, k),
            Prim::DiscardRegret(k) => return self.discard_regret_loop(st, pp, k),
            Prim::DiscardRandomRegret(k) => st.push(Task::DiscardRandomLoop(pp, k)),
            Prim::Refresh(k) => st.push(Task::RefreshLoop(pp, k)),
            Prim::SetMax(k) => st.push(Task::SetMaxLoop(pp, k)),
            Prim::Peek(t, k) => st.push(Task::PeekLoop(pp, t, k)),
            Prim::Reroll(max) => {
                if st.seats[p].has_fresh() {
                    st.left = max.unwrap_or(NONE);
                    return self.ask(st, Node::RerollSelect, pp);
                }
            }
            Prim::RerollLow(at) => {
                let mut any = false;
                for c in 0..CLASSES {
                    let k = usize::from(CLASS_KIND[c]);
                    if CLASS_FACE[c] <= at && CLASS_FACE[usize::from(TOP_CLASS[k])] > at {
                        let m = st.seats[p].fresh[c];
                        if m > 0 {
                            st.seats[p].fresh[c] = 0;
                            st.to_roll[k] += m;
                            any = true;
                        }
                    }
                }
                if any {
                    st.roll_above = at;
                    st.roll_to_rolled = false;
                    return self.ask(st, Node::RollHigh, pp);
                }
            }
            other => return self.ability_effect(st, p, other),
        }
        false
    }
}

/// The first kind with a die waiting to be rolled.
#[inline]
pub(super) fn first_kind(to_roll: &[u8; KINDS]) -> Option<usize> {
    to_roll.iter().position(|&c| c > 0)
}

/// Whether some die in `fresh` is below its kind's top face.
#[inline]
pub(super) fn below_top(fresh: &[u8; CLASSES]) -> bool {
    class_mask(fresh) & !TOP_CLASSES != 0
}

/// Turns the discard pile into the deck when the deck is empty (both are sets of card ids, drawn
/// from by choice of id, so nothing is shuffled); whether the deck then has a card to draw.
fn refill(deck: &mut u32, discard: &mut u32) -> bool {
    if *deck == 0 {
        *deck = *discard;
        *discard = 0;
    }
    *deck != 0
}
