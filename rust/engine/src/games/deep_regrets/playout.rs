//! The whole-game random playout of Deep Regrets: [`Game::random_playout`] with the `random` bot
//! in every seat, with the runs of chance nodes that need no list played in a loop of their own
//! and every other node taken one at a time as the definition takes it.
//!
//! [`Game::random_playout`]: crate::game::Game::random_playout
//!
//! It makes exactly the draws of [`crate::step::random_playout`] (the definition), in the same
//! order and with the same bounds, and reaches the same state; the shared test kit checks this
//! (`check_fast_paths`), and so does a scenario test from every node of a few games. What it saves
//! is the per-node dispatch (the node's player, the sample, the apply) of the deal, where every
//! fish goes under its shoal, and of the rolls of a muster or an item, where every die shows one
//! of its kind's four faces; a dink or regret draw and every decision are taken one at a time as
//! [`crate::step::random_step`] takes them (the same draw, the same errors), without its
//! generic dispatch.
//!
//! Must not: decide anything the definition would decide otherwise; any other node (the other
//! chance nodes, the end) is [`crate::step::random_step`].

use super::actions::{DIE, DIE_LAST};
use super::apply::pay_die;
use super::flow::first_kind;
use super::{
    DeepRegrets, DeepRegretsState as S, Node, BLOCK, CLASSES, CLASS_FACE, CLASS_KIND, KINDS,
};
use crate::bits;
use crate::rng::SplitMix64;
use crate::step::{self, RandomTable, StepError, StepResult};

/// The class of a die of kind `k` showing face `f` (`CLASSES` if none), as `class_of` finds it.
const CLASS_OF_FACE: [[u8; 5]; KINDS] = {
    let mut t = [[CLASSES as u8; 5]; KINDS];
    // Counting down, so that the first class of a kind and face is the one kept.
    let mut c = CLASSES;
    while c > 0 {
        c -= 1;
        t[CLASS_KIND[c] as usize][CLASS_FACE[c] as usize] = c as u8;
    }
    t
};

impl DeepRegrets {
    /// [`Game::play_randomly`](crate::game::Game::play_randomly): plays `st` to its end with the
    /// `random` bots of `t`, counting in `t.counts` (see the module doc).
    #[inline(always)]
    pub(super) fn playout(&self, st: &mut S, t: &mut RandomTable<'_>) -> StepResult<()> {
        loop {
            let looped = match st.node {
                Node::Deal => self.deal_randomly(st, t.chance, &mut t.counts.1),
                Node::Roll => self.roll_randomly(st, t.chance, &mut t.counts.1),
                Node::Pay => self.pay_randomly(st, t),
                Node::DrawDink => self.draw_dink_randomly(st, t.chance, &mut t.counts.1),
                // The regret drawn as `sample` draws it from a deck that is not empty.
                Node::DrawRegret if st.regret_deck != [0; 4] => {
                    let v = super::chance::pick_count(&st.regret_deck, t.chance);
                    // `apply_action` without its dispatch (nothing for a seat out of range).
                    let p = usize::from(st.actor);
                    if p < super::MAX_SEATS {
                        self.apply_draw_regret(st, p, v);
                    }
                    t.counts.1 += 1;
                    true
                }
                // The regret discarded as `sample` draws it from a seat that holds one.
                Node::DiscardRandomRegret
                    if st
                        .seats
                        .get(usize::from(st.actor))
                        .is_some_and(super::Seat::has_regret) =>
                {
                    let p = usize::from(st.actor);
                    let v = super::chance::pick_count(&st.seats[p].regrets, t.chance);
                    t.counts.1 += 1;
                    self.apply_discard_random_regret(st, p, v);
                    true
                }
                Node::DrawSupply | Node::DrawRod | Node::DrawReel => {
                    self.draw_card_randomly(st, t.chance, &mut t.counts.1)
                }
                // The tackle die drawn as `sample` draws it from a bag that is not empty.
                Node::DrawBag if st.bag != [0; 3] && usize::from(st.actor) < super::MAX_SEATS => {
                    let a = super::chance::pick_count(&st.bag, t.chance);
                    t.counts.1 += 1;
                    self.apply_draw_bag(st, usize::from(st.actor), a);
                    true
                }
                // A decision as the definition takes it (the `random` bot's `random_action`,
                // which is `random_at` here, then `apply`), without its dispatch: the kinds of
                // the `turn` node family with their handlers as `apply_action` resolves them
                // (the seat is one: it has a bot), each kind a constant of its own arm.
                Node::Turn => self.decide(st, t, Node::Turn, Self::apply_turn)?,
                Node::AfterMain => self.decide(st, t, Node::AfterMain, Self::apply_after_main)?,
                Node::MusterSelect => {
                    self.decide(st, t, Node::MusterSelect, Self::apply_muster_select)?
                }
                Node::Reward => self.decide(st, t, Node::Reward, Self::apply_reward)?,
                Node::DeclineDie => {
                    self.decide(st, t, Node::DeclineDie, Self::apply_decline_die)?
                }
                Node::Declare => self.decide(st, t, Node::Declare, Self::apply_declare)?,
                Node::Worms => self.decide(st, t, Node::Worms, Self::apply_worms)?,
                node @ (Node::PortDiscard | Node::DiscardRegret) => {
                    self.decide(st, t, node, Self::apply_discard_regret)?
                }
                node if node != Node::Over && !node.is_chance() => {
                    self.decide(st, t, node, |g, st, _, a| g.apply_action(st, a))?
                }
                _ => false,
            };
            if !looped && !step::random_step(self, st, t)? {
                return Ok(());
            }
        }
    }

    /// A decision at the state's node, of kind `node`, as the definition takes it: the `random`
    /// bot's pick ([`DeepRegrets::random_at`], what its `random_action` picks) with the seat's
    /// stream, counted, then `apply` (the node's handler: `apply_action` without its dispatch).
    /// Always true (a decision was made), or the definition's error.
    #[inline(always)]
    fn decide(
        &self,
        st: &mut S,
        t: &mut RandomTable<'_>,
        node: Node,
        apply: impl FnOnce(&Self, &mut S, usize, u32),
    ) -> StepResult<bool> {
        let seat = st.actor;
        let rng = t.seats.get_mut(usize::from(seat));
        let rng = rng.ok_or(StepError::NoBot(seat.into()))?;
        let a = self.random_at(node, st, rng, t.legal);
        let a = a.ok_or(StepError::NoLegalAction(seat.into()))?;
        t.counts.0 += 1;
        apply(self, st, usize::from(seat), a);
        Ok(true)
    }

    /// The rest of the shoal being dealt, as the `deal` nodes deal it one fish at a time (a
    /// uniform draw from the fish of its depth not yet dealt, put under the shoal), then what
    /// follows the last fish of the sea. False, with nothing drawn, when that depth has no fish
    /// left (the definition takes that node).
    #[inline(always)]
    fn deal_randomly(&self, st: &mut S, chance: &mut SplitMix64, chance_steps: &mut u32) -> bool {
        let s = self.dealing_shoal(st);
        let w = s / 3;
        let len = usize::from(st.shoal_len[s]);
        let want = usize::from(self.per_shoal).min(super::SHOAL_CAP);
        if len >= want {
            return false;
        }
        // The fish already there end up above the new ones, the first new one on top of those.
        let add = want - len;
        let mut drawn = [0u8; super::SHOAL_CAP];
        for k in 0..add {
            let Some(b) = bits::pick(st.deal_left.0[w], chance) else {
                // Nothing left to draw from: the fish drawn so far go under as the nodes put them.
                for &f in &drawn[..k] {
                    st.put_bottom(s, f);
                }
                return k > 0;
            };
            *chance_steps += 1;
            // `deal_left.remove(f)`, with the word and bit already known.
            st.deal_left.0[w] &= !(1u64 << b);
            drawn[k] = (w * BLOCK) as u8 + b as u8;
        }
        let shoal = &mut st.shoals[s];
        shoal.copy_within(0..len, add);
        for (k, &f) in drawn[..add].iter().enumerate() {
            shoal[add - 1 - k] = f;
        }
        st.shoal_len[s] = want as u8;
        if s == 8 {
            self.begin_day_phases(st, true);
            self.run(st);
        }
        true
    }

    /// The dice waiting at a `roll` node, each showing `sorted_faces[k][below(4)]` of its kind as
    /// the node rolls it, then what follows the last one. False, with nothing drawn, when no die
    /// waits (the definition takes that node).
    #[inline(always)]
    fn roll_randomly(&self, st: &mut S, chance: &mut SplitMix64, chance_steps: &mut u32) -> bool {
        let p = usize::from(st.actor);
        if first_kind(&st.to_roll).is_none() || p >= super::MAX_SEATS {
            return false;
        }
        for k in 0..KINDS {
            while st.to_roll[k] > 0 {
                *chance_steps += 1;
                let face = self.sorted_faces[k][chance.below(4) as usize];
                st.to_roll[k] -= 1;
                let c = CLASS_OF_FACE[k]
                    .get(usize::from(face))
                    .map_or(CLASSES, |&c| usize::from(c));
                if c < CLASSES {
                    if st.roll_to_rolled {
                        st.rolled[c] += 1;
                    } else {
                        st.seats[p].fresh[c] += 1;
                    }
                }
            }
        }
        self.run(st);
        true
    }

    /// The `draw_dink` node as the definition takes it (a uniform draw from the dink deck, as
    /// `sample` draws it, then `apply`) without its dispatch. False, with nothing drawn, when the
    /// deck is empty (the definition takes that node).
    #[inline(always)]
    fn draw_dink_randomly(
        &self,
        st: &mut S,
        chance: &mut SplitMix64,
        chance_steps: &mut u32,
    ) -> bool {
        let Some(b) = bits::pick(u64::from(st.dink_deck), chance) else {
            return false;
        };
        *chance_steps += 1;
        // `apply_action` without its dispatch (which does nothing for a seat out of range).
        let p = usize::from(st.actor);
        if p < super::MAX_SEATS {
            self.apply_draw_dink(st, p, b);
        }
        true
    }

    /// The `draw_supply`, `draw_rod` and `draw_reel` nodes as the definition takes them (a
    /// uniform draw from the node's deck, as `sample` draws it, then `apply`) without their
    /// dispatch. False, with nothing drawn, when the deck is empty or the seat out of range (the
    /// definition takes that node).
    #[inline(always)]
    fn draw_card_randomly(
        &self,
        st: &mut S,
        chance: &mut SplitMix64,
        chance_steps: &mut u32,
    ) -> bool {
        let p = usize::from(st.actor);
        if p >= super::MAX_SEATS {
            return false;
        }
        let deck = match st.node {
            Node::DrawRod => st.rod_deck,
            Node::DrawReel => st.reel_deck,
            _ => st.supply_deck,
        };
        let Some(b) = bits::pick(u64::from(deck), chance) else {
            return false;
        };
        *chance_steps += 1;
        self.apply_draw_card(st, p, b);
        true
    }

    /// The `pay` node's decisions while the `random` bot pays with dice, each picked from the
    /// node's list as the definition picks it, with the cast's numbers found once (a die paid
    /// changes only the payment; D and the fish stay), then the first other action applied as
    /// the node applies it (`apply_pay`, without the dispatch over node kinds). False, with
    /// nothing drawn, when the first list is empty or too long for the stack (the definition
    /// takes that node).
    #[inline(always)]
    fn pay_randomly(&self, st: &mut S, t: &mut RandomTable<'_>) -> bool {
        let p = usize::from(st.actor);
        if p >= super::MAX_SEATS {
            return false;
        }
        let Some(rng) = t.seats.get_mut(p) else {
            return false;
        };
        let mut pay = self.pay_numbers(st, p);
        let mut played = false;
        while let Some(a) = self.random_pay(st, p, &pay, rng) {
            t.counts.0 += 1;
            played = true;
            if !(DIE..=DIE_LAST).contains(&a) {
                self.apply_pay(st, p, a);
                break;
            }
            let c = (a - DIE) as usize;
            if pay_die(st, p, c) {
                pay.paid_die(c);
            }
        }
        played
    }
}
