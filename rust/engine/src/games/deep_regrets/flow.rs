//! The game flow: tasks (the continuation of the procedure in progress), node resolution, legal
//! actions and chance outcomes (contract §5–§8).
//!
//! A node handler resolves the action, pushes the steps that follow it onto the task stack and
//! calls [`DeepRegrets::run`], which pops and executes tasks until one of them asks a node (or the
//! game ends). A handler whose node repeats simply returns without running.

use super::data::{PeekTarget, Prim};
use super::{
    class_of, each_bit, DeepRegrets, DeepRegretsState as S, ItemSrc, Node, Phase, Task, CLASSES,
    CLASS_FACE, CLASS_KIND, KINDS, MAX_SEATS, NONE, TOP_CLASS,
};
use crate::rng::SplitMix64;

/// Shoals of row r (bits).
pub(super) const ROW_MASK: [u16; 3] = [0b111, 0b111 << 3, 0b111 << 6];
/// Shoals of column c (bits).
pub(super) const COL_MASK: [u16; 3] = [0b001_001_001, 0b010_010_010, 0b100_100_100];

/// Where legal action ids are put: a list, or a flag that only records whether there is one.
pub(super) trait Sink {
    /// Puts one action id.
    fn put(&mut self, a: u32);
}

impl Sink for Vec<u32> {
    #[inline]
    fn put(&mut self, a: u32) {
        self.push(a);
    }
}

/// Records whether some action was put.
#[derive(Default)]
struct AnyAction(bool);

impl Sink for AnyAction {
    #[inline]
    fn put(&mut self, _a: u32) {
        self.0 = true;
    }
}

/// Which actions of the `turn` node family to list.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TurnList {
    /// The `turn` node: main and free actions.
    Turn,
    /// The `after_main` node: the free actions and 24 = end turn.
    AfterMain,
    /// The free actions only (is one possible?).
    FreeOnly,
}

/// Pushes `first + i` for every row (or column) i whose `lines[i]` mask meets the shoal set `m`.
pub(super) fn push_lines(out: &mut Vec<u32>, m: u16, lines: &[u16; 3], first: u32) {
    for (i, &line) in lines.iter().enumerate() {
        if m & line != 0 {
            out.push(first + i as u32);
        }
    }
}

impl DeepRegrets {
    #[inline]
    pub(super) fn ask(&self, st: &mut S, node: Node, actor: u8) -> bool {
        st.node = node;
        st.actor = actor;
        true
    }

    /// Executes tasks until a node is asked or the game ends.
    pub(super) fn run(&self, st: &mut S) {
        while let Some(t) = st.pop() {
            if self.exec(st, t) {
                return;
            }
        }
        debug_assert!(false, "the task stack ran empty without a node");
        self.finish(st);
    }

    /// The shoal being dealt (the first one not yet full).
    pub(super) fn dealing_shoal(&self, st: &S) -> usize {
        (0..9)
            .find(|&s| st.shoal_len[s] < self.per_shoal)
            .unwrap_or(8)
    }

    /// Starts the Refresh phase of a day (then Declaration unless it is the first day, then
    /// Actions).
    fn begin_day_phases(&self, st: &mut S, first: bool) {
        st.phase = Phase::Refresh;
        st.push(Task::Actions);
        if !first {
            st.push(Task::Declaration);
        }
        st.push(Task::GiveLifePreserver);
        st.push(Task::RefreshSeat(0));
    }

    /// MakePort(p) (contract §7.2): the caller runs the pushed steps.
    pub(super) fn make_port(&self, st: &mut S, p: usize) {
        st.seats[p].depth = 0;
        let hand = st.seats[p].hand;
        hand.each(|f| {
            let mount = self
                .data
                .fish
                .get(usize::from(f))
                .is_some_and(|x| x.rules.port_mount);
            if mount {
                if let Some(k) = st.seats[p].mounted.iter().position(|&m| m == NONE) {
                    st.seats[p].hand.remove(f);
                    st.seats[p].mounted[k] = f;
                }
            }
        });
        st.push(Task::MakePortAfter(p as u8));
        st.push(Task::MusterStart(p as u8));
    }

    fn start_day(&self, st: &mut S) -> bool {
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

    /// Executes one task; true when it asked a node or ended the game.
    fn exec(&self, st: &mut S, t: Task) -> bool {
        let n = self.n();
        match t {
            Task::StartDay => self.start_day(st),
            Task::RefreshSeat(i) => {
                if usize::from(i) < n {
                    let p = (usize::from(st.first_player) + usize::from(i)) % n;
                    st.push(Task::RefreshSeat(i + 1));
                    st.push(Task::MusterStart(p as u8));
                }
                false
            }
            Task::MusterStart(p) => {
                st.push(Task::MusterKeep(p));
                st.push(Task::MusterRoll(p));
                if st.seats[usize::from(p)].fresh_count() > 0 {
                    self.ask(st, Node::MusterSelect, p)
                } else {
                    false
                }
            }
            Task::MusterRoll(p) => {
                let seat = &mut st.seats[usize::from(p)];
                for k in 0..KINDS {
                    st.to_roll[k] += seat.spent[k];
                    seat.spent[k] = 0;
                }
                if st.to_roll.iter().any(|&c| c > 0) {
                    st.roll_to_rolled = true;
                    self.ask(st, Node::Roll, p)
                } else {
                    false
                }
            }
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
            Task::DeclareSeat(i) => {
                if usize::from(i) >= n {
                    return false;
                }
                let p = (usize::from(st.first_player) + usize::from(i)) % n;
                st.push(Task::DeclareSeat(i + 1));
                st.push(Task::EquipReel(p as u8));
                st.push(Task::EquipRod(p as u8));
                if st.seats[p].depth == 0 {
                    st.seats[p].depth = 1;
                    false
                } else {
                    self.ask(st, Node::Declare, p as u8)
                }
            }
            Task::EquipRod(p) => {
                let seat = &mut st.seats[usize::from(p)];
                match seat.rods.count_ones() {
                    0 => false,
                    1 => {
                        seat.rod = seat.rods.trailing_zeros() as u8;
                        false
                    }
                    _ => self.ask(st, Node::EquipRod, p),
                }
            }
            Task::EquipReel(p) => {
                let seat = &mut st.seats[usize::from(p)];
                match seat.reels.count_ones() {
                    0 => false,
                    1 => {
                        seat.reel = seat.reels.trailing_zeros() as u8;
                        false
                    }
                    _ => self.ask(st, Node::EquipReel, p),
                }
            }
            Task::Actions => {
                st.phase = Phase::Actions;
                st.turn = st.first_player;
                st.push(Task::Arrive);
                false
            }
            Task::Arrive => {
                let p = st.turn;
                if st.seats[usize::from(p)].passed {
                    st.push(Task::Advance);
                    st.push(Task::Reward(p));
                    false
                } else {
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
            }
            Task::Advance => {
                if st.seats[..n].iter().all(|s| s.passed) {
                    st.push(Task::DayEnd);
                } else {
                    st.turn = ((usize::from(st.turn) + 1) % n) as u8;
                    st.push(Task::Arrive);
                }
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
            Task::Reward(p) => {
                let can_dink = st.dink_deck | st.dink_discard != 0;
                let can_discard = st.seats[usize::from(p)].regret_count() > 0;
                if can_dink || can_discard {
                    self.ask(st, Node::Reward, p)
                } else {
                    false
                }
            }
            Task::EndTurn(_) => {
                st.discount = 0;
                st.main_done = false;
                if st.last_turns != NONE {
                    st.last_turns = st.last_turns.saturating_sub(1);
                    if st.last_turns == 0 {
                        st.push(Task::DayEnd);
                        return false;
                    }
                }
                st.push(Task::Advance);
                false
            }
            Task::AfterMain(p) => {
                if self.has_free_action(st, usize::from(p)) {
                    self.ask(st, Node::AfterMain, p)
                } else {
                    st.push(Task::EndTurn(p));
                    false
                }
            }
            Task::MakePortAfter(p) => {
                let seat = &mut st.seats[usize::from(p)];
                seat.worms = true;
                if seat.regret_count() > 0 {
                    self.ask(st, Node::PortDiscard, p)
                } else {
                    false
                }
            }
            Task::DrawRegrets(p, k) => {
                if k == 0 {
                    return false;
                }
                st.push(Task::DrawRegrets(p, k - 1));
                self.draw_regret(st, usize::from(p))
            }
            Task::DrawDinks(p, k) => {
                if k == 0 {
                    return false;
                }
                st.push(Task::DrawDinks(p, k - 1));
                if st.dink_deck == 0 {
                    st.dink_deck = st.dink_discard;
                    st.dink_discard = 0;
                }
                if st.dink_deck != 0 {
                    self.ask(st, Node::DrawDink, p)
                } else {
                    false
                }
            }
            Task::ShopDraw(p, k) => {
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
                if *deck == 0 {
                    *deck = *discard;
                    *discard = 0;
                }
                if *deck == 0 {
                    return false;
                }
                st.push(Task::ShopDraw(p, k - 1));
                self.ask(st, node, p)
            }
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
            Task::TackleDraw(p, k) => {
                if k == 0 {
                    return false;
                }
                st.push(Task::TackleDraw(p, k - 1));
                self.ask(st, Node::DrawBag, p)
            }
            Task::SeaCheck => {
                if st.sea_empty() {
                    self.finish(st);
                    true
                } else {
                    false
                }
            }
            Task::DiscardRegretLoop(p, k) => {
                if k > 0 && st.seats[usize::from(p)].regret_count() > 0 {
                    st.push(Task::DiscardRegretLoop(p, k - 1));
                    st.left = k;
                    self.ask(st, Node::DiscardRegret, p)
                } else {
                    false
                }
            }
            Task::DiscardRandomLoop(p, k) => {
                if k > 0 && st.seats[usize::from(p)].regret_count() > 0 {
                    st.push(Task::DiscardRandomLoop(p, k - 1));
                    self.ask(st, Node::DiscardRandomRegret, p)
                } else {
                    false
                }
            }
            Task::RefreshLoop(p, k) => {
                let pu = usize::from(p);
                if k > 0
                    && st.seats[pu].spent_count() > 0
                    && st.seats[pu].fresh_count() < self.max_fresh(st, pu)
                {
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
            Task::ReturnTo(node, p) => {
                st.item = None;
                if node == Node::AfterMain {
                    st.push(Task::AfterMain(p));
                    false
                } else {
                    self.ask(st, node, p)
                }
            }
            t => self.exec_ability(st, t),
        }
    }

    /// Rolled dice not kept go to Spent (as kinds).
    fn rolled_to_spent(&self, st: &mut S, p: usize) {
        for c in 0..CLASSES {
            st.seats[p].spent[usize::from(CLASS_KIND[c])] += st.rolled[c];
        }
        st.rolled = [0; CLASSES];
    }

    /// A shop card goes to seat p.
    fn give_card(&self, st: &mut S, p: usize, id: u8) {
        let b = 1u32 << (id & 31);
        match st.shop {
            0 => st.seats[p].rods |= b,
            1 => st.seats[p].reels |= b,
            _ => st.seats[p].supplies |= b,
        }
    }

    /// One DrawRegret(p) (contract §7.5); true when it asked a chance node.
    fn draw_regret(&self, st: &mut S, p: usize) -> bool {
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

    /// Applies one primitive; true when it asked a node.
    pub(super) fn prim(&self, st: &mut S, p: usize, prim: Prim) -> bool {
        let pp = p as u8;
        match prim {
            Prim::Difficulty(a) => st.cast_reduction = st.cast_reduction.saturating_add(a),
            Prim::DifficultyZero => st.cast_zero = true,
            Prim::ShopDiscount(a) => st.discount = st.discount.saturating_add(a),
            Prim::DrawRegret(k) => st.push(Task::DrawEvent(pp, k)),
            Prim::DiscardRegret(k) => st.push(Task::DiscardRegretLoop(pp, k)),
            Prim::DiscardRandomRegret(k) => st.push(Task::DiscardRandomLoop(pp, k)),
            Prim::Refresh(k) => st.push(Task::RefreshLoop(pp, k)),
            Prim::SetMax(k) => st.push(Task::SetMaxLoop(pp, k)),
            Prim::Peek(t, k) => st.push(Task::PeekLoop(pp, t, k)),
            Prim::DepthDown(k) => st.seats[p].depth = (st.seats[p].depth + k).min(3),
            Prim::DepthTo(d) => st.seats[p].depth = d,
            Prim::Reroll(max) => {
                if st.seats[p].fresh_count() > 0 {
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
            other => return self.prim2(st, p, other),
        }
        false
    }

    /// The game ends (contract §8).
    pub(super) fn finish(&self, st: &mut S) {
        let n = self.n();
        let d = self.data;
        for p in 0..n {
            let seat = &st.seats[p];
            let lb = if seat.lifeboat_used {
                u32::from(d.lifeboat_regret_value)
            } else {
                0
            };
            st.regret_values[p] = (seat.regret_value() + lb).min(255) as u8;
        }
        let max_rv = st.regret_values[..n].iter().copied().max().unwrap_or(0);
        for p in 0..n {
            st.discarded[p] = NONE;
            st.cloche_discarded[p] = NONE;
            if st.regret_values[p] != max_rv {
                continue;
            }
            let mut pick: Option<(usize, i32)> = None;
            for k in 0..3 {
                let f = st.seats[p].mounted[k];
                if f == NONE {
                    continue;
                }
                let v = self.value(st, usize::from(f), p) * i32::from(d.mount_multipliers[k]);
                let better = match pick {
                    None => true,
                    Some((_, b)) => {
                        if n == 2 {
                            v < b
                        } else {
                            v > b
                        }
                    }
                };
                if better {
                    pick = Some((k, v));
                }
            }
            if let Some((k, _)) = pick {
                let f = st.seats[p].mounted[k];
                st.seats[p].mounted[k] = NONE;
                st.discard_fish(f);
                st.discarded[p] = f;
            }
            // Contract, Decisions 80: the Cloche fish goes right after the same seat's
            // mounted-fish discard, seat by seat (the order of the discard pile shows it).
            let f = st.seats[p].cloche;
            if f != NONE {
                st.seats[p].cloche = NONE;
                st.discard_fish(f);
                st.cloche_discarded[p] = f;
            }
        }
        for p in 0..n {
            let mut score = 0i32;
            st.seats[p]
                .hand
                .each(|f| score += self.value(st, usize::from(f), p));
            st.seats[p]
                .front
                .each(|f| score += self.value(st, usize::from(f), p));
            let c = st.seats[p].cloche;
            if c != NONE {
                score += self.value(st, usize::from(c), p) * 2;
            }
            for k in 0..3 {
                let f = st.seats[p].mounted[k];
                if f != NONE {
                    score += self.value(st, usize::from(f), p) * i32::from(d.mount_multipliers[k]);
                }
            }
            score += i32::from(st.seats[p].money) / i32::from(d.money_per_point.max(1));
            st.final_scores[p] = score as i16;
        }
        st.ended = true;
        st.phase = Phase::Over;
        st.node = Node::Over;
        st.actor = NONE;
        st.turn = NONE;
        st.reset_ctx();
        st.stack_len = 0;
    }

    // ----- item readiness -----------------------------------------------------------------

    /// The effective difficulty D of the current cast.
    pub(super) fn effective_difficulty(&self, st: &S, p: usize) -> i32 {
        if !st.cast_on || st.cast_zero {
            return 0;
        }
        let Some(f) = st.top_fish(usize::from(st.cast_shoal)) else {
            return 0;
        };
        let Some(fish) = self.data.fish.get(usize::from(f)) else {
            return 0;
        };
        let seat = &st.seats[p];
        let mut rod = 0i32;
        if seat.rod != NONE {
            if let Some((amount, when)) = self
                .data
                .rods
                .get(usize::from(seat.rod))
                .and_then(|r| r.rod_passive)
            {
                let applies = match when {
                    super::data::When::All => true,
                    super::data::When::Foul(foul) => fish.foul == foul,
                    super::data::When::Size(s) => fish.size == s,
                    super::data::When::FirstCatch => !seat.caught_today,
                };
                if applies {
                    rod = i32::from(amount);
                }
            }
        }
        let base = st.cast_base.map_or(i32::from(fish.difficulty), i32::from);
        let mut front = 0i32;
        seat.front.and(&self.front_difficulty_set).each(|g| {
            if let Some((foul, amount)) = self
                .data
                .fish
                .get(usize::from(g))
                .and_then(|x| x.rules.front_difficulty)
            {
                if foul == fish.foul {
                    front += i32::from(amount);
                }
            }
        });
        let per = match fish.rules.per {
            None => 0,
            Some((super::data::Per::HandFish, a)) => i32::from(a) * seat.hand.count() as i32,
            Some((super::data::Per::SeatsAtDepth2, a)) => {
                let c = st.seats[..self.n()].iter().filter(|x| x.depth == 2).count();
                i32::from(a) * c as i32
            }
        };
        (base + rod + front + per + i32::from(st.cast_reduction)).max(0)
    }

    /// (payment count, payment sum).
    fn payment(&self, st: &S) -> (u32, u32) {
        let mut n = 0;
        let mut sum = 0;
        for c in 0..CLASSES {
            n += u32::from(st.payment[c]);
            sum += u32::from(st.payment[c]) * u32::from(CLASS_FACE[c]);
        }
        (n, sum)
    }

    /// The exact-dice count of the cast fish (0 = any).
    pub(super) fn cast_exact(&self, st: &S) -> u32 {
        st.top_fish(usize::from(st.cast_shoal))
            .and_then(|f| self.data.fish.get(usize::from(f)))
            .map_or(0, |f| u32::from(f.exact))
    }

    /// Whether the payment is complete, `d` being the effective difficulty.
    pub(super) fn payment_complete(&self, st: &S, d: i32) -> bool {
        let (n, sum) = self.payment(st);
        let exact = self.cast_exact(st);
        (exact == 0 || n == exact) && sum as i32 >= d
    }

    /// The readiness flags (`REQ_*`) that hold for seat p at `node`, among `needed` (the
    /// others may be missing); `pay_d` is the effective difficulty if already known.
    fn ready_flags_needed(
        &self,
        st: &S,
        p: usize,
        node: Node,
        needed: u32,
        pay_d: Option<i32>,
    ) -> u32 {
        const LOWS: u32 = REQ_LOW0 * 0b1111;
        let seat = &st.seats[p];
        let mut m = 0u32;
        if node == Node::Pay
            && needed & REQ_PAY_D != 0
            && pay_d.unwrap_or_else(|| self.effective_difficulty(st, p)) > 0
        {
            m |= REQ_PAY_D;
        }
        let turn = node == Node::Turn || node == Node::AfterMain;
        if turn {
            if seat.depth == 0 {
                m |= REQ_TURN_PORT;
            } else {
                if seat.depth < 3 {
                    m |= REQ_TURN_SEA_LT3;
                }
                m |= (REQ_TURN_SEA_NE0 * 0b1111) & !(REQ_TURN_SEA_NE0 << seat.depth.min(3));
            }
        }
        if seat.regret_count() > 0 {
            m |= REQ_REGRET;
        }
        let fresh = seat.fresh_count();
        if fresh > 0 && needed & (REQ_FRESH | LOWS | REQ_BELOW_TOP) != 0 {
            m |= REQ_FRESH;
            let mut low = 4u8;
            for c in 0..CLASSES {
                if seat.fresh[c] > 0 {
                    low = low.min(CLASS_FACE[c]);
                }
            }
            for a in u32::from(low)..4 {
                m |= REQ_LOW0 << a;
            }
            if below_top(&seat.fresh) {
                m |= REQ_BELOW_TOP;
            }
        }
        if needed & REQ_REFRESH != 0 && seat.spent_count() > 0 && fresh < self.max_fresh(st, p) {
            m |= REQ_REFRESH;
        }
        if needed & REQ_PEEKABLE != 0 && st.peekable(p) != 0 {
            m |= REQ_PEEKABLE;
        }
        if needed & REQ_FACEDOWN != 0 && st.facedown() != 0 {
            m |= REQ_FACEDOWN;
        }
        if turn && seat.depth == 0 {
            if needed & REQ_HAMMER != 0
                && (seat.cloche != NONE || seat.mounted.iter().any(|&f| f != NONE))
            {
                m |= REQ_HAMMER;
            }
            if needed & REQ_CLOCHE != 0 && seat.cloche == NONE && self.has_small_mountable(st, p) {
                m |= REQ_CLOCHE;
            }
        }
        m
    }

    /// [`Self::ready_flags_needed`] restricted to the flags that p's items can need (the others
    /// do not matter for them; a shortcut for speed).
    #[inline]
    fn item_flags(&self, st: &S, p: usize, node: Node, pay_d: Option<i32>) -> u32 {
        let seat = &st.seats[p];
        // The flags that some use of a held dink or supply needs.
        let mut needed = 0u32;
        each_bit(seat.dinks, |d| {
            needed |= self.need_dink.get(d as usize).copied().unwrap_or(0);
        });
        each_bit(seat.supplies, |i| {
            needed |= self.need_supply.get(i as usize).copied().unwrap_or(0);
        });
        let mut any = seat.dinks | seat.supplies != 0;
        let mut add = |r: &[u32; 2]| {
            any = true;
            needed |= (r[0] | r[1]) & !REQ_NEVER;
        };
        if usize::from(st.life_preserver) == p {
            add(&self.req_lp);
        }
        if seat.reel != NONE && !seat.reel_used {
            add(self.reqs(ItemSrc::Reel(seat.reel)));
        }
        if any {
            self.ready_flags_needed(st, p, node, needed, pay_d)
        } else {
            0
        }
    }

    /// The requirement masks of the uses of `src` (`REQ_NEVER` for a missing use).
    #[inline]
    fn reqs(&self, src: ItemSrc) -> &[u32; 2] {
        const NEVER: [u32; 2] = [REQ_NEVER; 2];
        match src {
            ItemSrc::Dink(i) => self.req_dink.get(usize::from(i)).unwrap_or(&NEVER),
            ItemSrc::Supply(i) => self.req_supply.get(usize::from(i)).unwrap_or(&NEVER),
            ItemSrc::Reel(i) => self.req_reel.get(usize::from(i)).unwrap_or(&NEVER),
            ItemSrc::LifePreserver => &self.req_lp,
        }
    }

    /// The first use of `src` whose requirements all hold in `flags`.
    #[inline]
    pub(super) fn ready_in(&self, src: ItemSrc, flags: u32) -> Option<usize> {
        self.reqs(src).iter().position(|&r| r & !flags == 0)
    }

    /// The first ready use of `src` for seat p at `node`.
    pub(super) fn ready_use(&self, st: &S, p: usize, src: ItemSrc, node: Node) -> Option<usize> {
        let r = self.reqs(src);
        let needed = (r[0] | r[1]) & !REQ_NEVER;
        self.ready_in(src, self.ready_flags_needed(st, p, node, needed, None))
    }

    /// Shop price for seat p (contract §7.3).
    pub(super) fn price(&self, st: &S, p: usize, k: usize, t: usize) -> i32 {
        let base = i32::from(self.data.shops[k][t].price);
        (base - i32::from(self.tier(st, p).shop_discount) - i32::from(st.discount)).max(0)
    }

    fn shop_source(&self, st: &S, k: usize) -> bool {
        match k {
            0 => st.rod_deck | st.rod_discard != 0,
            1 => st.reel_deck | st.reel_discard != 0,
            2 => st.supply_deck | st.supply_discard != 0,
            _ => st.bag.iter().any(|&b| b > 0),
        }
    }

    // ----- legal actions ---------------------------------------------------------------------

    /// Pushes the ready item uses at a `turn` or `pay` node (ids 12, 13 come first; dinks and
    /// supplies are pushed by `items_tail`).
    fn items_head(&self, st: &S, p: usize, flags: u32, out: &mut impl Sink) {
        let seat = &st.seats[p];
        if usize::from(st.life_preserver) == p
            && self.ready_in(ItemSrc::LifePreserver, flags).is_some()
        {
            out.put(12);
        }
        if seat.reel != NONE
            && !seat.reel_used
            && self.ready_in(ItemSrc::Reel(seat.reel), flags).is_some()
        {
            out.put(13);
        }
    }

    fn items_tail(&self, st: &S, p: usize, flags: u32, out: &mut impl Sink) {
        let seat = &st.seats[p];
        // `ready_in(..).is_some()` of every dink and supply, unrolled (a missing use is
        // `REQ_NEVER`, which `flags` never holds).
        let missing = !flags;
        let ready =
            |r: Option<&[u32; 2]>| r.is_some_and(|r| r[0] & missing == 0 || r[1] & missing == 0);
        each_bit(seat.dinks, |d| {
            if ready(self.req_dink.get(d as usize)) {
                out.put(100 + d);
            }
        });
        each_bit(seat.supplies, |i| {
            if ready(self.req_supply.get(i as usize)) {
                out.put(125 + i);
            }
        });
    }

    /// Legal actions at a decision node.
    pub(super) fn legal(&self, st: &S, out: &mut Vec<u32>) {
        let p = usize::from(st.actor);
        if p >= MAX_SEATS {
            return;
        }
        let seat = &st.seats[p];
        let fresh_classes = |out: &mut Vec<u32>, pool: &[u8; CLASSES]| {
            for (c, &k) in pool.iter().enumerate() {
                if k > 0 {
                    out.push(50 + c as u32);
                }
            }
        };
        let regret_values = |out: &mut Vec<u32>| {
            for v in 0..4 {
                if seat.regrets[v] > 0 {
                    out.push(70 + v as u32);
                }
            }
        };
        match st.node {
            Node::MusterSelect | Node::RerollSelect => {
                out.push(0);
                fresh_classes(out, &seat.fresh);
            }
            Node::MusterKeep => fresh_classes(out, &st.rolled),
            Node::LifePreserver => {
                for s in 0..self.n() {
                    if s != p {
                        out.push(74 + s as u32);
                    }
                }
            }
            Node::Declare => out.extend_from_slice(&[1, 2]),
            Node::PortDiscard => {
                out.push(0);
                regret_values(out);
            }
            Node::EquipRod => each_bit(seat.rods, |r| out.push(145 + r)),
            Node::EquipReel => each_bit(seat.reels, |r| out.push(155 + r)),
            Node::Turn => self.turn_actions(st, p, out, TurnList::Turn),
            Node::AfterMain => self.turn_actions(st, p, out, TurnList::AfterMain),
            Node::Worms => out.extend_from_slice(&[4, 5]),
            Node::Pay => {
                let d = self.effective_difficulty(st, p);
                let complete = self.payment_complete(st, d);
                let flags = self.item_flags(st, p, Node::Pay, Some(d));
                if complete {
                    out.push(6);
                }
                let rules = self.cast_fish_data(st).map(|f| f.rules).unwrap_or_default();
                if !rules.must_catch || !self.can_complete(st, p, d) {
                    out.push(7);
                }
                self.items_head(st, p, flags, out);
                self.pay_rules(st, p, &rules, out);
                if !complete {
                    let exact = self.cast_exact(st);
                    if exact == 0 || self.payment(st).0 < exact {
                        fresh_classes(out, &seat.fresh);
                    }
                }
                self.items_tail(st, p, flags, out);
                seat.hand
                    .and(&self.eat_set)
                    .each(|f| out.push(165 + u32::from(f)));
            }
            Node::DeclineDie => fresh_classes(out, &seat.fresh),
            Node::Reward => {
                if st.dink_deck | st.dink_discard != 0 {
                    out.push(8);
                }
                if seat.regret_count() > 0 {
                    out.push(9);
                }
            }
            Node::Sell => {
                if st.count >= 1 {
                    out.push(0);
                }
                seat.hand
                    .and(&self.sellable)
                    .each(|f| out.push(165 + u32::from(f)));
            }
            Node::MountSlot => {
                if st.count >= 1 {
                    out.push(0);
                }
                for k in 0..3 {
                    if seat.mounted[k] == NONE {
                        out.push(79 + k as u32);
                    }
                }
            }
            Node::MountFish => {
                let small = st.slot == 3;
                seat.hand.and(&self.sellable).each(|f| {
                    if !small
                        || self
                            .data
                            .fish
                            .get(usize::from(f))
                            .is_some_and(|x| x.size == 0)
                    {
                        out.push(165 + u32::from(f))
                    }
                });
            }
            Node::ShopKeep => {
                let base = shop_base(st.shop);
                let mut ids = [0u8; 5];
                let len = usize::from(st.drawn_len).min(5);
                ids[..len].copy_from_slice(&st.drawn[..len]);
                ids[..len].sort_unstable();
                for &id in &ids[..len] {
                    out.push(base + u32::from(id));
                }
            }
            Node::DiscardRegret => regret_values(out),
            Node::RefreshDie => {
                for k in 0..KINDS {
                    if seat.spent[k] > 0 {
                        out.push(65 + k as u32);
                    }
                }
            }
            Node::SetMax => {
                for c in 0..CLASSES {
                    let top = TOP_CLASS[usize::from(CLASS_KIND[c])] as usize;
                    if seat.fresh[c] > 0 && c != top {
                        out.push(50 + c as u32);
                    }
                }
            }
            Node::PeekShoal => {
                let m = st.peekable(p);
                for s in 0..9u32 {
                    if m >> s & 1 == 1 {
                        out.push(32 + s);
                    }
                }
            }
            Node::PeekRow => push_lines(out, st.peekable(p), &ROW_MASK, 94),
            Node::PeekColumn => push_lines(out, st.peekable(p), &COL_MASK, 97),
            _ => self.legal_ability(st, p, out),
        }
    }

    /// Whether seat p has a legal free action (the same conditions as at the `turn` node).
    pub(super) fn has_free_action(&self, st: &S, p: usize) -> bool {
        let mut any = AnyAction::default();
        self.turn_actions(st, p, &mut any, TurnList::FreeOnly);
        any.0
    }

    /// The legal actions of the `turn` node family, in increasing order: main actions (0, 10,
    /// 11, 21, 32+s, 82+3k+t) only at `turn`, 24 = end turn only at `after_main`, the free
    /// actions (3, 12, 13, 22, 23, 41+s, 50+c, 100+d, 125+i, 165+f) at both.
    fn turn_actions(&self, st: &S, p: usize, out: &mut impl Sink, list: TurnList) {
        let main = list == TurnList::Turn;
        let seat = &st.seats[p];
        let at_sea = seat.depth > 0;
        if main {
            out.put(0);
        }
        if at_sea && !seat.lifeboat_used {
            out.put(3);
        }
        let has_sellable = !seat.hand.and(&self.sellable).is_empty();
        if main && !at_sea && has_sellable {
            out.put(10);
        }
        if main && !at_sea && has_sellable && seat.mounted.contains(&NONE) {
            out.put(11);
        }
        let flags = self.item_flags(st, p, Node::Turn, None);
        self.items_head(st, p, flags, out);
        self.turn_rules(st, p, out, main);
        if list == TurnList::AfterMain {
            out.put(24);
        }
        let reach = if at_sea {
            (usize::from(seat.depth) * 3).min(9)
        } else {
            0
        };
        if main && seat.fresh_count() > 0 {
            let cols = match seat.locks.count_ones() {
                0 => 0b111u8,
                1 => seat.locks,
                _ => 0,
            };
            for s in 0..reach {
                if st.shoal_len[s] > 0 && cols >> (s % 3) & 1 == 1 {
                    out.put(32 + s as u32);
                }
            }
        }
        if seat.worms {
            for s in 0..reach {
                if st.shoal_len[s] > 0 && st.face_up >> s & 1 == 0 {
                    out.put(41 + s as u32);
                }
            }
        }
        if at_sea && seat.depth < 3 {
            for c in 0..CLASSES {
                if seat.fresh[c] > 0 {
                    out.put(50 + c as u32);
                }
            }
        }
        if main && !at_sea {
            for k in 0..4 {
                if seat.shops_used[k] || !self.shop_source(st, k) {
                    continue;
                }
                for t in 0..3 {
                    if self.price(st, p, k, t) <= i32::from(seat.money) {
                        out.put(82 + 3 * k as u32 + t as u32);
                    }
                }
            }
        }
        self.items_tail(st, p, flags, out);
        seat.hand
            .and(&self.eat_set)
            .each(|f| out.put(165 + u32::from(f)));
    }

    // ----- chance ---------------------------------------------------------------------------

    /// Calls `f(outcome, weight)` for every outcome of the chance node, in increasing order.
    pub(super) fn chance_each(&self, st: &S, mut f: impl FnMut(u32, u64)) {
        let actor = usize::from(st.actor);
        match st.node {
            Node::Deal => {
                let s = self.dealing_shoal(st);
                let w = s / 3;
                let mut m = st.deal_left.0[w];
                while m != 0 {
                    let b = m.trailing_zeros();
                    m &= m - 1;
                    f((w * 45) as u32 + b, 1);
                }
            }
            Node::Roll | Node::RollHigh => {
                let Some(k) = first_kind(&st.to_roll) else {
                    return;
                };
                let above = if st.node == Node::RollHigh {
                    Some(st.roll_above)
                } else {
                    None
                };
                for &(face, w) in &self.roll_faces[k][..usize::from(self.roll_len[k])] {
                    if above.is_none_or(|a| face > a) {
                        f(u32::from(face), u64::from(w));
                    }
                }
            }
            Node::DrawRegret => counts(&st.regret_deck, f),
            Node::StealRegret => {
                if let Some(v) = st.seats.get(usize::from(st.victim)) {
                    counts(&v.regrets, f);
                }
            }
            Node::DiscardRandomRegret => {
                if let Some(s) = st.seats.get(actor) {
                    counts(&s.regrets, f);
                }
            }
            Node::DrawDink => each_bit(st.dink_deck, |b| f(b, 1)),
            Node::DrawSupply => each_bit(st.supply_deck, |b| f(b, 1)),
            Node::DrawRod => each_bit(st.rod_deck, |b| f(b, 1)),
            Node::DrawReel => each_bit(st.reel_deck, |b| f(b, 1)),
            Node::DrawBag => counts(&st.bag, f),
            Node::Coin => {
                f(0, 1);
                f(1, 1);
            }
            Node::ShuffleBack => {
                let m = st
                    .shoal_len
                    .get(usize::from(st.cast_shoal))
                    .copied()
                    .unwrap_or(0);
                for k in 0..=u32::from(m) {
                    f(k, 1);
                }
            }
            _ => {}
        }
    }

    /// The seeded pick: exactly `SplitMix64::pick_weighted` over `chance_each`.
    pub(super) fn sample(&self, st: &S, rng: &mut SplitMix64) -> u32 {
        // Uniform draws over a bit set: the u-th set bit in increasing order.
        let uniform = |mask: u64, base: u32, rng: &mut SplitMix64| {
            let total = u64::from(mask.count_ones());
            if total == 0 {
                return 0;
            }
            let mut m = mask;
            for _ in 0..rng.below(total) {
                m &= m - 1;
            }
            base + m.trailing_zeros()
        };
        match st.node {
            Node::Deal => {
                let w = self.dealing_shoal(st) / 3;
                return uniform(st.deal_left.0[w], (w * 45) as u32, rng);
            }
            Node::DrawDink => return uniform(u64::from(st.dink_deck), 0, rng),
            Node::DrawSupply => return uniform(u64::from(st.supply_deck), 0, rng),
            Node::DrawRod => return uniform(u64::from(st.rod_deck), 0, rng),
            Node::DrawReel => return uniform(u64::from(st.reel_deck), 0, rng),
            Node::Roll => {
                // weights are face multiplicities summing to 4 over ascending faces, so the
                // running-sum pick of `u` is the u-th face of the sorted faces
                if let Some(k) = first_kind(&st.to_roll) {
                    return u32::from(self.sorted_faces[k][rng.below(4) as usize]);
                }
            }
            _ => {}
        }
        let mut total = 0u64;
        self.chance_each(st, |_, w| total += w);
        if total == 0 {
            return 0;
        }
        let u = rng.below(total);
        let mut running = 0u64;
        let mut pick = None;
        self.chance_each(st, |o, w| {
            if pick.is_none() {
                running += w;
                if running > u {
                    pick = Some(o);
                }
            }
        });
        pick.unwrap_or(0)
    }

    // ----- apply ----------------------------------------------------------------------------

    /// Resolves the node with `a` (legal by contract of the caller) and runs on to the next node.
    pub(super) fn apply_action(&self, st: &mut S, a: u32) {
        let p = usize::from(st.actor);
        let pp = st.actor;
        if st.node != Node::Deal && st.node != Node::Over && p >= MAX_SEATS {
            return;
        }
        match st.node {
            Node::Over => {}
            Node::Deal => {
                let s = self.dealing_shoal(st);
                st.put_bottom(s, a as u8);
                st.deal_left.remove(a as u8);
                if s == 8 && st.shoal_len[8] >= self.per_shoal {
                    self.begin_day_phases(st, true);
                    self.run(st);
                }
            }
            Node::Roll | Node::RollHigh => {
                let Some(k) = first_kind(&st.to_roll) else {
                    return self.run(st);
                };
                st.to_roll[k] -= 1;
                if let Some(c) = class_of(k, a) {
                    if st.roll_to_rolled {
                        st.rolled[c] += 1;
                    } else {
                        st.seats[p].fresh[c] += 1;
                    }
                }
                if first_kind(&st.to_roll).is_none() {
                    self.run(st);
                }
            }
            Node::DrawRegret => {
                let v = (a as usize).min(3);
                st.regret_deck[v] = st.regret_deck[v].saturating_sub(1);
                if st.pool_on {
                    st.pool[v] += 1;
                } else {
                    st.seats[p].regrets[v] += 1;
                }
                self.run(st);
            }
            Node::StealRegret => {
                let v = (a as usize).min(3);
                let q = usize::from(st.victim).min(MAX_SEATS - 1);
                st.seats[q].regrets[v] = st.seats[q].regrets[v].saturating_sub(1);
                if st.pool_on {
                    st.pool[v] += 1;
                } else {
                    st.seats[p].regrets[v] += 1;
                }
                st.victim = NONE;
                self.run(st);
            }
            Node::DiscardRandomRegret => {
                let v = (a as usize).min(3);
                st.seats[p].regrets[v] = st.seats[p].regrets[v].saturating_sub(1);
                st.regret_discard[v] += 1;
                self.run(st);
            }
            Node::DrawDink => {
                let b = 1u32 << (a & 31);
                st.dink_deck &= !b;
                st.seats[p].dinks |= b;
                self.run(st);
            }
            Node::DrawSupply if st.shop == NONE => {
                let b = 1u32 << (a & 31);
                st.supply_deck &= !b;
                st.seats[p].supplies |= b;
                self.run(st);
            }
            Node::DrawSupply | Node::DrawRod | Node::DrawReel => {
                let b = 1u32 << (a & 31);
                match st.node {
                    Node::DrawRod => st.rod_deck &= !b,
                    Node::DrawReel => st.reel_deck &= !b,
                    _ => st.supply_deck &= !b,
                }
                let i = usize::from(st.drawn_len);
                if i < st.drawn.len() {
                    st.drawn[i] = a as u8;
                    st.drawn_len += 1;
                }
                self.run(st);
            }
            Node::DrawBag => {
                let c = (a as usize).min(2);
                st.bag[c] = st.bag[c].saturating_sub(1);
                if st.seats[p].fresh_count() < self.max_fresh(st, p) {
                    st.to_roll[c + 1] += 1;
                    st.roll_to_rolled = false;
                    self.ask(st, Node::Roll, pp);
                } else {
                    st.seats[p].spent[c + 1] += 1;
                    self.run(st);
                }
            }
            Node::MusterSelect => {
                if a == 0 {
                    return self.run(st);
                }
                self.fresh_to_roll(st, p, a);
                if st.seats[p].fresh_count() == 0 {
                    self.run(st);
                }
            }
            Node::RerollSelect => {
                if a != 0 {
                    self.fresh_to_roll(st, p, a);
                    if st.left != NONE {
                        st.left = st.left.saturating_sub(1);
                    }
                    if st.left != 0 && st.seats[p].fresh_count() > 0 {
                        return;
                    }
                }
                st.left = 0;
                if first_kind(&st.to_roll).is_some() {
                    st.roll_to_rolled = false;
                    self.ask(st, Node::Roll, pp);
                } else {
                    self.run(st);
                }
            }
            Node::MusterKeep => {
                let c = (a as usize).wrapping_sub(50).min(CLASSES - 1);
                st.rolled[c] = st.rolled[c].saturating_sub(1);
                st.seats[p].fresh[c] += 1;
                st.left = st.left.saturating_sub(1);
                if st.left == 0 {
                    self.rolled_to_spent(st, p);
                    self.run(st);
                }
            }
            Node::LifePreserver => {
                st.life_preserver = a.wrapping_sub(74) as u8;
                self.run(st);
            }
            Node::Declare => {
                if a == 2 {
                    self.make_port(st, p);
                }
                self.run(st);
            }
            Node::PortDiscard | Node::DiscardRegret => {
                if a >= 70 {
                    let v = (a as usize - 70).min(3);
                    st.seats[p].regrets[v] = st.seats[p].regrets[v].saturating_sub(1);
                    st.regret_discard[v] += 1;
                }
                self.run(st);
            }
            Node::EquipRod => {
                st.seats[p].rod = a.wrapping_sub(145) as u8;
                self.run(st);
            }
            Node::EquipReel => {
                st.seats[p].reel = a.wrapping_sub(155) as u8;
                self.run(st);
            }
            Node::Turn => self.apply_turn(st, p, a),
            Node::AfterMain => {
                if a == 24 {
                    st.push(Task::EndTurn(pp));
                    self.run(st);
                } else {
                    self.apply_free(st, p, a, Node::AfterMain);
                }
            }
            Node::Worms => {
                let s = usize::from(st.worms_shoal).min(8);
                if a == 5 {
                    let f = st.take_top(s);
                    st.put_bottom(s, f);
                } else {
                    st.known[p] |= 1 << s;
                }
                st.peek = NONE;
                st.worms_shoal = NONE;
                st.push(Task::ReturnTo(st.free_return(), pp));
                self.run(st);
            }
            Node::Pay => self.apply_pay(st, p, a),
            Node::DeclineDie => {
                st.spend(p, (a as usize).wrapping_sub(50).min(CLASSES - 1));
                st.push(Task::DrawDinks(pp, self.dinks_per_draw(st, p, true)));
                self.run(st);
            }
            Node::Reward => {
                if a == 8 {
                    st.push(Task::DrawDinks(pp, self.dinks_per_draw(st, p, false)));
                    self.run(st);
                } else {
                    self.ask(st, Node::DiscardRandomRegret, pp);
                }
            }
            Node::Sell => {
                if a == 0 {
                    return self.sell_end(st, p);
                }
                let f = (a - 165) as u8;
                let value = self.value(st, usize::from(f), p);
                st.seats[p].hand.remove(f);
                self.gain(st, p, value);
                st.discard_fish(f);
                st.count += 1;
                if self.foul_set.contains(usize::from(f)) {
                    st.foul += 1;
                }
                if st.seats[p].hand.and(&self.sellable).is_empty() {
                    self.sell_end(st, p);
                }
            }
            Node::MountSlot => {
                if a == 0 {
                    return self.mount_end(st, p);
                }
                st.slot = a.wrapping_sub(79).min(2) as u8;
                self.ask(st, Node::MountFish, pp);
            }
            Node::MountFish if st.slot == 3 => {
                let f = a.wrapping_sub(165) as u8;
                st.seats[p].hand.remove(f);
                st.seats[p].cloche = f;
                st.slot = NONE;
                self.run(st);
            }
            Node::MountFish => {
                let f = (a - 165) as u8;
                st.seats[p].hand.remove(f);
                st.seats[p].mounted[usize::from(st.slot).min(2)] = f;
                st.count += 1;
                st.slot = NONE;
                let seat = &st.seats[p];
                if !seat.mounted.contains(&NONE) || seat.hand.and(&self.sellable).is_empty() {
                    self.mount_end(st, p);
                } else {
                    self.ask(st, Node::MountSlot, pp);
                }
            }
            Node::ShopKeep => {
                let id = (a - shop_base(st.shop)) as u8;
                let len = usize::from(st.drawn_len);
                if let Some(i) = st.drawn[..len].iter().position(|&x| x == id) {
                    st.drawn.copy_within(i + 1..len, i);
                    st.drawn_len -= 1;
                }
                self.give_card(st, p, id);
                st.left = st.left.saturating_sub(1);
                if st.left == 0 {
                    for i in 0..usize::from(st.drawn_len) {
                        let b = 1u32 << (st.drawn[i] & 31);
                        match st.shop {
                            0 => st.rod_deck |= b,
                            1 => st.reel_deck |= b,
                            _ => st.supply_deck |= b,
                        }
                    }
                    st.drawn_len = 0;
                    st.shop = NONE;
                    self.run(st);
                }
            }
            Node::RefreshDie => {
                let k = (a as usize).wrapping_sub(65).min(KINDS - 1);
                st.seats[p].spent[k] = st.seats[p].spent[k].saturating_sub(1);
                st.to_roll[k] += 1;
                st.roll_to_rolled = false;
                self.ask(st, Node::Roll, pp);
            }
            Node::SetMax => {
                let c = (a as usize).wrapping_sub(50).min(CLASSES - 1);
                st.seats[p].fresh[c] = st.seats[p].fresh[c].saturating_sub(1);
                st.seats[p].fresh[usize::from(TOP_CLASS[usize::from(CLASS_KIND[c])])] += 1;
                self.run(st);
            }
            Node::PeekShoal => {
                st.known[p] |= 1 << (a.wrapping_sub(32) & 15);
                self.run(st);
            }
            Node::PeekRow | Node::PeekColumn => {
                let m = st.peekable(p);
                let i = if st.node == Node::PeekRow {
                    a.wrapping_sub(94)
                } else {
                    a.wrapping_sub(97)
                };
                let mask = if st.node == Node::PeekRow {
                    ROW_MASK
                } else {
                    COL_MASK
                };
                st.known[p] |= m & mask[(i as usize).min(2)];
                self.run(st);
            }
            _ => self.apply_ability(st, p, a),
        }
    }

    fn fresh_to_roll(&self, st: &mut S, p: usize, a: u32) {
        let c = (a as usize).wrapping_sub(50).min(CLASSES - 1);
        if st.seats[p].fresh[c] > 0 {
            st.seats[p].fresh[c] -= 1;
            st.to_roll[usize::from(CLASS_KIND[c])] += 1;
        }
    }

    fn sell_end(&self, st: &mut S, p: usize) {
        let foul = st.foul;
        st.count = 0;
        st.foul = 0;
        st.push(Task::AfterMain(p as u8));
        st.push(Task::DrawEvent(p as u8, foul));
        self.run(st);
    }

    fn mount_end(&self, st: &mut S, p: usize) {
        st.count = 0;
        st.push(Task::AfterMain(p as u8));
        self.run(st);
    }

    fn use_item(&self, st: &mut S, p: usize, src: ItemSrc, ret: Node) {
        let Some(u) = self.ready_use(st, p, src, ret) else {
            return;
        };
        match src {
            ItemSrc::Dink(d) => {
                let b = 1u32 << (d & 31);
                st.seats[p].dinks &= !b;
                st.dink_discard |= b;
            }
            ItemSrc::Supply(i) => {
                let b = 1u32 << (i & 31);
                st.seats[p].supplies &= !b;
                let cloche = self
                    .item(src)
                    .uses
                    .get(u)
                    .is_some_and(|x| x.contains(&Prim::Cloche));
                if !cloche {
                    st.supply_discard |= b;
                }
            }
            ItemSrc::Reel(_) => st.seats[p].reel_used = true,
            ItemSrc::LifePreserver => st.life_preserver = NONE,
        }
        st.item = Some(src);
        st.push(Task::ReturnTo(ret, p as u8));
        let list = self.item(src).use_lists.get(u).copied().unwrap_or(0);
        st.push(Task::Effects(p as u8, list, 0));
        self.run(st);
    }

    /// Resolves an action at the `turn` node: a main action, or a free action (which comes
    /// back to `turn`).
    fn apply_turn(&self, st: &mut S, p: usize, a: u32) {
        let pp = p as u8;
        match a {
            0 => {
                st.seats[p].passed = true;
                if st.seats[..self.n()].iter().filter(|s| !s.passed).count() == 1 {
                    st.last_turns = 2;
                }
                st.discount = 0;
                st.push(Task::Advance);
                st.push(Task::Reward(pp));
                self.run(st);
            }
            10 => {
                st.main_done = true;
                st.count = 0;
                st.foul = 0;
                self.ask(st, Node::Sell, pp);
            }
            11 => {
                st.main_done = true;
                st.count = 0;
                self.ask(st, Node::MountSlot, pp);
            }
            21 => {
                st.main_done = true;
                self.turn_standing(st, p, a);
            }
            32..=40 => {
                st.main_done = true;
                st.cast_on = true;
                st.cast_shoal = (a - 32) as u8;
                st.clear_cast();
                st.push(Task::CastRod(pp));
                self.run(st);
            }
            82..=93 => {
                st.main_done = true;
                let k = (a as usize - 82) / 3;
                let t = (a as usize - 82) % 3;
                let price = self.price(st, p, k, t);
                self.gain(st, p, -price);
                st.discount = 0;
                st.seats[p].shops_used[k] = true;
                st.push(Task::AfterMain(pp));
                let tier = self.data.shops[k][t];
                if k < 3 {
                    st.shop = k as u8;
                    st.drawn_len = 0;
                    st.push(Task::ShopKeep(pp, tier.keep));
                    st.push(Task::ShopDraw(pp, tier.draw));
                } else {
                    let in_bag: u8 = st.bag.iter().sum();
                    st.push(Task::TackleDraw(pp, tier.draw.min(in_bag)));
                }
                self.run(st);
            }
            _ => self.apply_free(st, p, a, Node::Turn),
        }
    }

    /// Resolves a free action taken at `ret` (`turn` or `after_main`), then comes back to it
    /// (`after_main`: its test is made again).
    fn apply_free(&self, st: &mut S, p: usize, a: u32, ret: Node) {
        let pp = p as u8;
        match a {
            3 => {
                st.seats[p].lifeboat_used = true;
                if st.last_turns != NONE {
                    st.last_turns = 4;
                }
                st.push(Task::ReturnTo(ret, pp));
                self.make_port(st, p);
                self.run(st);
            }
            12 => self.use_item(st, p, ItemSrc::LifePreserver, ret),
            13 => self.use_item(st, p, ItemSrc::Reel(st.seats[p].reel), ret),
            22 | 23 => self.turn_standing(st, p, a),
            41..=49 => {
                let s = (a - 41) as u8;
                st.seats[p].worms = false;
                st.worms_shoal = s;
                st.peek = st.top_fish(usize::from(s)).unwrap_or(NONE);
                self.ask(st, Node::Worms, pp);
            }
            50..=64 => {
                st.spend(p, a as usize - 50);
                st.seats[p].depth = (st.seats[p].depth + 1).min(3);
                if ret == Node::AfterMain {
                    st.push(Task::AfterMain(pp));
                    self.run(st);
                }
            }
            100..=124 => self.use_item(st, p, ItemSrc::Dink((a - 100) as u8), ret),
            125..=144 => self.use_item(st, p, ItemSrc::Supply((a - 125) as u8), ret),
            165..=299 => self.eat(st, p, (a - 165) as u8, ret),
            _ => {}
        }
    }

    fn apply_pay(&self, st: &mut S, p: usize, a: u32) {
        let pp = p as u8;
        match a {
            6 => {
                self.retain_leftover(st, p);
                for c in 0..CLASSES {
                    for _ in 0..st.payment[c] {
                        st.release(p, c);
                    }
                }
                st.payment = [0; CLASSES];
                st.push(Task::CastEnd(pp));
                st.push(Task::Catch(pp));
                self.run(st);
            }
            18 | 19 => {
                self.payment_back(st, p);
                st.push(Task::CastEnd(pp));
                st.push(Task::Catch(pp));
                if a == 19 {
                    st.fish_size = self
                        .cast_fish_data(st)
                        .and_then(|f| f.rules.discard_size)
                        .unwrap_or(3);
                    self.ask(st, Node::DiscardFish, pp);
                } else {
                    self.run(st);
                }
            }
            20 => {
                if let Some(d) = self
                    .cast_fish_data(st)
                    .and_then(|f| f.rules.worms_difficulty)
                {
                    st.seats[p].worms = false;
                    st.cast_base = Some(d);
                }
            }
            7 => {
                self.payment_back(st, p);
                st.push(Task::CastEnd(pp));
                st.push(Task::NotCaught(pp));
                if st.seats[p].fresh_count() > 0 {
                    self.ask(st, Node::DeclineDie, pp);
                } else {
                    self.run(st);
                }
            }
            12 => self.use_item(st, p, ItemSrc::LifePreserver, Node::Pay),
            13 => self.use_item(st, p, ItemSrc::Reel(st.seats[p].reel), Node::Pay),
            50..=64 => {
                let c = a as usize - 50;
                if st.seats[p].fresh[c] > 0 {
                    st.seats[p].fresh[c] -= 1;
                    st.payment[c] += 1;
                }
            }
            100..=124 => self.use_item(st, p, ItemSrc::Dink((a - 100) as u8), Node::Pay),
            125..=144 => self.use_item(st, p, ItemSrc::Supply((a - 125) as u8), Node::Pay),
            165..=299 => self.eat(st, p, (a - 165) as u8, Node::Pay),
            _ => {}
        }
    }

    /// The payment dice return to Fresh.
    fn payment_back(&self, st: &mut S, p: usize) {
        for c in 0..CLASSES {
            st.seats[p].fresh[c] += st.payment[c];
        }
        st.payment = [0; CLASSES];
    }
}

/// Readiness flag: at a `pay` node with effective difficulty > 0.
pub(super) const REQ_PAY_D: u32 = 1;
/// Readiness flag: at the `turn` node in port.
pub(super) const REQ_TURN_PORT: u32 = 1 << 1;
/// Readiness flag: holds a regret.
pub(super) const REQ_REGRET: u32 = 1 << 2;
/// Readiness flag: a Spent die and room in Fresh.
pub(super) const REQ_REFRESH: u32 = 1 << 3;
/// Readiness flag: a Fresh die.
pub(super) const REQ_FRESH: u32 = 1 << 4;
/// Readiness flag (shifted by a = 0..3): a Fresh die shows at most a.
pub(super) const REQ_LOW0: u32 = 1 << 5;
/// Readiness flag: a Fresh die below its top face.
pub(super) const REQ_BELOW_TOP: u32 = 1 << 9;
/// Readiness flag: at the `turn` node at sea above depth 3.
pub(super) const REQ_TURN_SEA_LT3: u32 = 1 << 10;
/// Readiness flag (shifted by d = 0..3): at the `turn` node at sea, depth ≠ d.
pub(super) const REQ_TURN_SEA_NE0: u32 = 1 << 11;
/// Readiness flag: a peekable shoal.
pub(super) const REQ_PEEKABLE: u32 = 1 << 15;
/// Readiness flag: a non-empty shoal has a face-down top.
pub(super) const REQ_FACEDOWN: u32 = 1 << 16;
/// Readiness flag: at the `turn` node in port with a mounted fish (slots or Cloche).
pub(super) const REQ_HAMMER: u32 = 1 << 17;
/// Readiness flag: at the `turn` node in port with a small mountable fish and no Cloche fish.
pub(super) const REQ_CLOCHE: u32 = 1 << 18;
/// A requirement that never holds (missing or empty use).
pub(super) const REQ_NEVER: u32 = 1 << 31;

/// The requirement mask of one use (contract §2.1 "ready when").
pub(super) fn use_req(prims: &[Prim]) -> u32 {
    if prims.is_empty() {
        return REQ_NEVER;
    }
    prims.iter().fold(0, |m, p| {
        m | match *p {
            Prim::Difficulty(_) | Prim::DifficultyZero => REQ_PAY_D,
            Prim::ShopDiscount(_) => REQ_TURN_PORT,
            Prim::DrawRegret(_) => 0,
            Prim::DiscardRegret(_) | Prim::DiscardRandomRegret(_) => REQ_REGRET,
            Prim::Refresh(_) => REQ_REFRESH,
            Prim::Reroll(_) => REQ_FRESH,
            Prim::RerollLow(a) => REQ_LOW0 << a.min(3),
            Prim::SetMax(_) => REQ_BELOW_TOP,
            Prim::DepthDown(_) => REQ_TURN_SEA_LT3,
            Prim::DepthTo(d) => REQ_TURN_SEA_NE0 << d.min(3),
            Prim::Peek(_, _) => REQ_PEEKABLE,
            Prim::Reveal(_) => REQ_FACEDOWN,
            Prim::ClawHammer => REQ_HAMMER,
            Prim::Cloche => REQ_CLOCHE,
            _ => 0,
        }
    })
}

/// The requirement masks of an item's (at most two) uses.
pub(super) fn item_reqs(item: &super::data::Item) -> Option<[u32; 2]> {
    if item.uses.len() > 2 {
        return None;
    }
    let mut r = [REQ_NEVER; 2];
    for (i, u) in item.uses.iter().enumerate() {
        r[i] = use_req(u);
    }
    Some(r)
}

/// The first id of a card shop's keep range.
pub(super) fn shop_base(shop: u8) -> u32 {
    match shop {
        0 => 145,
        1 => 155,
        _ => 125,
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
    (0..CLASSES).any(|c| fresh[c] > 0 && c != usize::from(TOP_CLASS[usize::from(CLASS_KIND[c])]))
}

/// Calls `f(index, count)` for every positive count.
#[inline]
fn counts(c: &[u8], mut f: impl FnMut(u32, u64)) {
    for (i, &k) in c.iter().enumerate() {
        if k > 0 {
            f(i as u32, u64::from(k));
        }
    }
}
