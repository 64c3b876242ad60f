//! Resolving the action taken at the current node and running on to the next node (contract
//! §6–§7, §16): the dispatch over node kinds, the `turn`, free and `pay` actions.
//!
//! Must not: check legality (the caller does; an illegal id must still not panic), list actions,
//! or allocate.

use super::actions::{
    ABANDON_SHIP, CAST, CAST_LAST, CATCH, CATCH_BY_DISCARDING, CATCH_BY_SHOWING, COLUMN, DECLINE,
    DIE, DIE_KIND, DIE_LAST, DINK, DINK_LAST, DISCARD_RANDOM_REGRET, DONE, DRAW_A_DINK, END_TURN,
    FISH, FISH_LAST, FLIP_WORMS, GIVE_AWAY, GIVE_TO, MAKE_PORT, MOUNT, PASS, PUT_AT_BOTTOM, REEL,
    REGRET, ROD, ROLL_NOW, ROW, SELL, SHOP, SHOP_LAST, SLOT, SUPPLY, SUPPLY_LAST, TAKE_NOTHING,
    USE_COFFIN, USE_LIFE_PRESERVER, USE_REEL, USE_SKULL, USE_WORMS, USE_WORMS_LAST,
};
use super::flow::first_kind;
use super::legal::{COL_MASK, ROW_MASK};
use super::port::shop_base;
use super::{
    class_of, DeepRegrets, DeepRegretsState as S, ItemSrc, Node, Task, CLASSES, CLASS_KIND,
    CLOCHE_SLOT, KINDS, MAX_SEATS, NONE, TOP_CLASS,
};

impl DeepRegrets {
    /// Resolves the node with `a` (legal by contract of the caller) and runs on to the next node.
    pub(super) fn apply_action(&self, st: &mut S, a: u32) {
        let p = usize::from(st.actor);
        let pp = st.actor;
        // The seat test first: it is almost always false, which ends the test.
        if p >= MAX_SEATS && st.node != Node::Deal && st.node != Node::Over {
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
            Node::DrawRegret => self.apply_draw_regret(st, p, a),
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
            Node::DiscardRandomRegret => self.apply_discard_random_regret(st, p, a),
            Node::DrawDink => self.apply_draw_dink(st, p, a),
            Node::DrawSupply | Node::DrawRod | Node::DrawReel => self.apply_draw_card(st, p, a),
            Node::DrawBag => self.apply_draw_bag(st, p, a),
            Node::MusterSelect => self.apply_muster_select(st, p, a),
            Node::RerollSelect => {
                if a != ROLL_NOW {
                    self.fresh_to_roll(st, p, a);
                    if st.left != NONE {
                        st.left = st.left.saturating_sub(1);
                    }
                    if st.left != 0 && st.seats[p].has_fresh() {
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
                let c = (a.wrapping_sub(DIE) as usize).min(CLASSES - 1);
                st.rolled[c] = st.rolled[c].saturating_sub(1);
                st.seats[p].fresh[c] += 1;
                st.left = st.left.saturating_sub(1);
                if st.left == 0 {
                    self.rolled_to_spent(st, p);
                    self.run(st);
                }
            }
            Node::LifePreserver => {
                st.life_preserver = a.wrapping_sub(GIVE_TO) as u8;
                self.run(st);
            }
            Node::Declare => self.apply_declare(st, p, a),
            Node::PortDiscard | Node::DiscardRegret => self.apply_discard_regret(st, p, a),
            Node::EquipRod => {
                st.seats[p].rod = a.wrapping_sub(ROD) as u8;
                self.run(st);
            }
            Node::EquipReel => {
                st.seats[p].reel = a.wrapping_sub(REEL) as u8;
                self.run(st);
            }
            Node::Turn => self.apply_turn(st, p, a),
            Node::AfterMain => self.apply_after_main(st, p, a),
            Node::Worms => self.apply_worms(st, p, a),
            Node::Pay => self.apply_pay(st, p, a),
            Node::DeclineDie => self.apply_decline_die(st, p, a),
            Node::Reward => self.apply_reward(st, p, a),
            Node::Sell => {
                if a == DONE {
                    return self.sell_end(st, p);
                }
                let f = (a - FISH) as u8;
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
                if a == DONE {
                    return self.mount_end(st, p);
                }
                st.slot = a.wrapping_sub(SLOT).min(2) as u8;
                self.ask(st, Node::MountFish, pp);
            }
            Node::MountFish if st.slot == CLOCHE_SLOT => {
                let f = a.wrapping_sub(FISH) as u8;
                st.seats[p].hand.remove(f);
                st.seats[p].cloche = f;
                st.slot = NONE;
                self.run(st);
            }
            Node::MountFish => {
                let f = (a - FISH) as u8;
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
                let k = (a.wrapping_sub(DIE_KIND) as usize).min(KINDS - 1);
                st.seats[p].spent[k] = st.seats[p].spent[k].saturating_sub(1);
                st.to_roll[k] += 1;
                st.roll_to_rolled = false;
                self.ask(st, Node::Roll, pp);
            }
            Node::SetMax => {
                let c = (a.wrapping_sub(DIE) as usize).min(CLASSES - 1);
                st.seats[p].fresh[c] = st.seats[p].fresh[c].saturating_sub(1);
                st.seats[p].fresh[usize::from(TOP_CLASS[usize::from(CLASS_KIND[c])])] += 1;
                self.run(st);
            }
            Node::PeekShoal => {
                st.known[p] |= 1 << (a.wrapping_sub(CAST) & 15);
                self.run(st);
            }
            Node::PeekRow | Node::PeekColumn => {
                let m = st.peekable(p);
                let i = if st.node == Node::PeekRow {
                    a.wrapping_sub(ROW)
                } else {
                    a.wrapping_sub(COLUMN)
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

    pub(super) fn fresh_to_roll(&self, st: &mut S, p: usize, a: u32) {
        let c = (a.wrapping_sub(DIE) as usize).min(CLASSES - 1);
        if st.seats[p].fresh[c] > 0 {
            st.seats[p].fresh[c] -= 1;
            st.to_roll[usize::from(CLASS_KIND[c])] += 1;
        }
    }

    /// Resolves an action at the `turn` node: a main action, or a free action (which comes
    /// back to `turn`).
    pub(super) fn apply_turn(&self, st: &mut S, p: usize, a: u32) {
        let pp = p as u8;
        match a {
            PASS => {
                st.seats[p].passed = true;
                if st.seats[..self.n()].iter().filter(|s| !s.passed).count() == 1 {
                    st.last_turns = 2;
                }
                st.discount = 0;
                st.push(Task::Advance);
                // The pass reward, then Advance.
                let asked = self.reward(st, pp);
                self.run_unless(st, asked);
            }
            SELL => {
                st.main_done = true;
                st.count = 0;
                st.foul = 0;
                self.ask(st, Node::Sell, pp);
            }
            MOUNT => {
                st.main_done = true;
                st.count = 0;
                self.ask(st, Node::MountSlot, pp);
            }
            GIVE_AWAY => {
                st.main_done = true;
                self.turn_standing(st, p, a);
            }
            CAST..=CAST_LAST => {
                st.main_done = true;
                st.cast_on = true;
                st.cast_shoal = (a - CAST) as u8;
                st.clear_cast();
                let asked = self.cast_rod(st, pp);
                self.run_unless(st, asked);
            }
            SHOP..=SHOP_LAST => {
                st.main_done = true;
                let k = ((a - SHOP) as usize) / 3;
                let t = ((a - SHOP) as usize) % 3;
                let price = self.price(st, p, k, t);
                self.gain(st, p, -price);
                st.discount = 0;
                st.seats[p].shops_used[k] = true;
                st.push(Task::AfterMain(pp));
                let tier = self.data.shops[k][t];
                // ShopDraw(p, draw) or TackleDraw(p, draw), run here (as `run` would pop it).
                let asked = if k < 3 {
                    st.shop = k as u8;
                    st.drawn_len = 0;
                    st.push(Task::ShopKeep(pp, tier.keep));
                    self.shop_draw(st, pp, tier.draw)
                } else {
                    let in_bag: u8 = st.bag.iter().sum();
                    self.tackle_draw(st, pp, tier.draw.min(in_bag))
                };
                self.run_unless(st, asked);
            }
            _ => self.apply_free(st, p, a, Node::Turn),
        }
    }

    /// Resolves an action at the `muster_select` node: roll now, or one more Fresh die to reroll.
    pub(super) fn apply_muster_select(&self, st: &mut S, p: usize, a: u32) {
        if a != ROLL_NOW {
            self.fresh_to_roll(st, p, a);
            if st.seats[p].has_fresh() {
                return;
            }
        }
        // The MusterRoll that the muster pushed under this node, run here (as `run` would pop
        // it).
        if let Some(Task::MusterRoll(q)) = st.top() {
            st.pop();
            let asked = self.muster_roll(st, q);
            self.run_unless(st, asked);
        } else {
            self.run(st);
        }
    }

    /// Resolves an action at the `reward` node: dinks drawn, a random regret discarded, or
    /// nothing taken.
    pub(super) fn apply_reward(&self, st: &mut S, p: usize, a: u32) {
        let pp = p as u8;
        match a {
            DRAW_A_DINK => {
                let asked = self.draw_dinks(st, pp, self.dinks_per_draw(st, p, false));
                self.run_unless(st, asked);
            }
            DISCARD_RANDOM_REGRET => {
                self.ask(st, Node::DiscardRandomRegret, pp);
            }
            _ => self.run(st),
        }
    }

    /// Resolves an action at the `decline_die` node: the die is spent, then the dinks drawn; or
    /// neither (`take nothing`, Decision 17).
    pub(super) fn apply_decline_die(&self, st: &mut S, p: usize, a: u32) {
        if a == TAKE_NOTHING {
            self.run(st);
            return;
        }
        st.spend(p, (a.wrapping_sub(DIE) as usize).min(CLASSES - 1));
        let asked = self.draw_dinks(st, p as u8, self.dinks_per_draw(st, p, true));
        self.run_unless(st, asked);
    }

    /// Resolves the `draw_regret` chance node with a regret of value `a`.
    pub(super) fn apply_draw_regret(&self, st: &mut S, p: usize, a: u32) {
        let v = (a as usize).min(3);
        st.regret_deck[v] = st.regret_deck[v].saturating_sub(1);
        if st.pool_on {
            st.pool[v] += 1;
        } else {
            st.seats[p].regrets[v] += 1;
        }
        self.run(st);
    }

    /// Resolves an action at the `declare` node: stay at sea, or make port.
    pub(super) fn apply_declare(&self, st: &mut S, p: usize, a: u32) {
        if a == MAKE_PORT {
            self.make_port(st, p);
        }
        self.run(st);
    }

    /// Resolves an action at the `worms` node: the shoal's top stays (and p knows it) or goes to
    /// the bottom; back to the node the Can of Worms was used at.
    pub(super) fn apply_worms(&self, st: &mut S, p: usize, a: u32) {
        let s = usize::from(st.worms_shoal).min(8);
        if a == PUT_AT_BOTTOM {
            let f = st.take_top(s);
            st.put_bottom(s, f);
        } else {
            st.known[p] |= 1 << s;
        }
        st.peek = NONE;
        st.worms_shoal = NONE;
        // ReturnTo(free_return, p), run here (as `run` would pop it).
        let asked = self.return_to(st, st.free_return(), p as u8);
        self.run_unless(st, asked);
    }

    /// Resolves an action at the `port_discard` or `discard_regret` node: a regret of value
    /// `a - REGRET` discarded (`KEEP_ALL`: none).
    pub(super) fn apply_discard_regret(&self, st: &mut S, p: usize, a: u32) {
        if a >= REGRET {
            let v = ((a - REGRET) as usize).min(3);
            st.seats[p].regrets[v] = st.seats[p].regrets[v].saturating_sub(1);
            st.regret_discard[v] += 1;
        }
        self.run(st);
    }

    /// Resolves the `discard_random_regret` chance node with a regret of value `a`.
    pub(super) fn apply_discard_random_regret(&self, st: &mut S, p: usize, a: u32) {
        let v = (a as usize).min(3);
        st.seats[p].regrets[v] = st.seats[p].regrets[v].saturating_sub(1);
        st.regret_discard[v] += 1;
        self.run_after_reward(st);
    }

    /// Resolves the `draw_supply`, `draw_rod` or `draw_reel` chance node (the current one) with
    /// card `a`: a supply outside a shop goes to the seat, a shop's card to the drawn ones.
    pub(super) fn apply_draw_card(&self, st: &mut S, p: usize, a: u32) {
        let b = 1u32 << (a & 31);
        if st.node == Node::DrawSupply && st.shop == NONE {
            st.supply_deck &= !b;
            st.seats[p].supplies |= b;
            return self.run(st);
        }
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

    /// Resolves the `draw_bag` chance node with a tackle die of kind `a + 1`: rolled into
    /// Fresh if there is room, else Spent.
    pub(super) fn apply_draw_bag(&self, st: &mut S, p: usize, a: u32) {
        let c = (a as usize).min(2);
        st.bag[c] = st.bag[c].saturating_sub(1);
        if st.seats[p].fresh_count() < self.max_fresh(st, p) {
            st.to_roll[c + 1] += 1;
            st.roll_to_rolled = false;
            self.ask(st, Node::Roll, p as u8);
        } else {
            st.seats[p].spent[c + 1] += 1;
            self.run(st);
        }
    }

    /// Resolves the `draw_dink` chance node with dink `a`.
    pub(super) fn apply_draw_dink(&self, st: &mut S, p: usize, a: u32) {
        let b = 1u32 << (a & 31);
        st.dink_deck &= !b;
        st.seats[p].dinks |= b;
        self.run_after_reward(st);
    }

    /// Resolves an action at the `after_main` node: the end of the turn, or a free action.
    pub(super) fn apply_after_main(&self, st: &mut S, p: usize, a: u32) {
        if a == END_TURN {
            let asked = self.end_turn(st);
            self.run_unless(st, asked);
        } else {
            self.apply_free(st, p, a, Node::AfterMain);
        }
    }

    /// Resolves a free action taken at `ret` (`turn` or `after_main`), then comes back to it
    /// (`after_main`: its test is made again).
    pub(super) fn apply_free(&self, st: &mut S, p: usize, a: u32, ret: Node) {
        let pp = p as u8;
        match a {
            ABANDON_SHIP => {
                st.seats[p].lifeboat_used = true;
                // "they may still take FOUR actions at Port": counting the turn it is taken in
                // when its main action is still to come, else the four turns after it (Decision
                // 22).
                if st.last_turns != NONE {
                    st.last_turns = if ret == Node::AfterMain { 5 } else { 4 };
                }
                st.push(Task::ReturnTo(ret, pp));
                self.make_port(st, p);
                self.run(st);
            }
            USE_LIFE_PRESERVER => self.use_item(st, p, ItemSrc::LifePreserver, ret),
            USE_REEL => self.use_item(st, p, ItemSrc::Reel(st.seats[p].reel), ret),
            USE_SKULL | USE_COFFIN => self.turn_standing(st, p, a),
            USE_WORMS..=USE_WORMS_LAST => {
                let s = (a - USE_WORMS) as u8;
                st.seats[p].worms = false;
                st.worms_shoal = s;
                st.peek = st.top_fish(usize::from(s)).unwrap_or(NONE);
                self.ask(st, Node::Worms, pp);
            }
            DIE..=DIE_LAST => {
                st.spend(p, (a - DIE) as usize);
                st.seats[p].depth = (st.seats[p].depth + 1).min(3);
                if ret == Node::AfterMain {
                    // AfterMain(p), run here (as `run` would pop it).
                    let asked = self.after_main(st, pp);
                    self.run_unless(st, asked);
                }
            }
            DINK..=DINK_LAST => self.use_item(st, p, ItemSrc::Dink((a - DINK) as u8), ret),
            SUPPLY..=SUPPLY_LAST => self.use_item(st, p, ItemSrc::Supply((a - SUPPLY) as u8), ret),
            FISH..=FISH_LAST => self.eat(st, p, (a - FISH) as u8, ret),
            _ => {}
        }
    }

    pub(super) fn apply_pay(&self, st: &mut S, p: usize, a: u32) {
        let pp = p as u8;
        match a {
            CATCH => {
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
            CATCH_BY_SHOWING | CATCH_BY_DISCARDING => {
                self.payment_back(st, p);
                st.push(Task::CastEnd(pp));
                st.push(Task::Catch(pp));
                if a == CATCH_BY_DISCARDING {
                    st.fish_size = self
                        .cast_fish_data(st)
                        .and_then(|f| f.rules.discard_size)
                        .unwrap_or(3);
                    self.ask(st, Node::DiscardFish, pp);
                } else {
                    self.run(st);
                }
            }
            FLIP_WORMS => {
                if let Some(d) = self
                    .cast_fish_data(st)
                    .and_then(|f| f.rules.worms_difficulty)
                {
                    st.seats[p].worms = false;
                    st.cast_base = Some(d);
                }
            }
            DECLINE => {
                self.payment_back(st, p);
                st.push(Task::CastEnd(pp));
                st.push(Task::NotCaught(pp));
                if st.seats[p].has_fresh() {
                    self.ask(st, Node::DeclineDie, pp);
                } else {
                    self.run(st);
                }
            }
            USE_LIFE_PRESERVER => self.use_item(st, p, ItemSrc::LifePreserver, Node::Pay),
            USE_REEL => self.use_item(st, p, ItemSrc::Reel(st.seats[p].reel), Node::Pay),
            DIE..=DIE_LAST => {
                pay_die(st, p, (a - DIE) as usize);
            }
            DINK..=DINK_LAST => self.use_item(st, p, ItemSrc::Dink((a - DINK) as u8), Node::Pay),
            SUPPLY..=SUPPLY_LAST => {
                self.use_item(st, p, ItemSrc::Supply((a - SUPPLY) as u8), Node::Pay)
            }
            FISH..=FISH_LAST => self.eat(st, p, (a - FISH) as u8, Node::Pay),
            _ => {}
        }
    }

    /// The payment dice return to Fresh.
    pub(super) fn payment_back(&self, st: &mut S, p: usize) {
        for c in 0..CLASSES {
            st.seats[p].fresh[c] += st.payment[c];
        }
        st.payment = [0; CLASSES];
    }
}

/// Seat p adds a Fresh die of class `c` to the payment (the `pay` node's die action); whether
/// it had one.
#[inline]
pub(super) fn pay_die(st: &mut S, p: usize, c: usize) -> bool {
    let seat = &mut st.seats[p];
    match (seat.fresh.get_mut(c), st.payment.get_mut(c)) {
        (Some(fresh), Some(paid)) if *fresh > 0 => {
            *fresh -= 1;
            *paid += 1;
            true
        }
        _ => false,
    }
}
