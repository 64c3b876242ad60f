//! Chance outcomes with their weights, and the seeded pick (contract §9, design "Deterministic
//! randomness").
//!
//! Must not: change the state; `sample` must draw from the RNG exactly as
//! `SplitMix64::pick_weighted` over `chance_each` does (seeded games are part of the contract).

use super::flow::first_kind;
use super::{each_bit, DeepRegrets, DeepRegretsState as S, Node, BLOCK};
use crate::rng::SplitMix64;

impl DeepRegrets {
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
                    f((w * BLOCK) as u32 + b, 1);
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
        // Uniform draws over a bit set: the u-th set bit in increasing order (0 and no draw for
        // the empty set).
        let uniform = |mask: u64, base: u32, rng: &mut SplitMix64| {
            crate::bits::pick(mask, rng).map_or(0, |b| base + b)
        };
        match st.node {
            Node::Deal => {
                let w = self.dealing_shoal(st) / 3;
                return uniform(st.deal_left.0[w], (w * BLOCK) as u32, rng);
            }
            Node::DrawDink => return uniform(u64::from(st.dink_deck), 0, rng),
            Node::DrawSupply => return uniform(u64::from(st.supply_deck), 0, rng),
            Node::DrawRod => return uniform(u64::from(st.rod_deck), 0, rng),
            Node::DrawReel => return uniform(u64::from(st.reel_deck), 0, rng),
            Node::DrawRegret => return pick_count(&st.regret_deck, rng),
            Node::DrawBag => return pick_count(&st.bag, rng),
            Node::StealRegret => {
                return st
                    .seats
                    .get(usize::from(st.victim))
                    .map_or(0, |v| pick_count(&v.regrets, rng));
            }
            Node::DiscardRandomRegret => {
                return st
                    .seats
                    .get(usize::from(st.actor))
                    .map_or(0, |s| pick_count(&s.regrets, rng));
            }
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
}

/// The seeded pick over the outcomes `counts` lists (index i with weight `c[i]`, the zero
/// weights left out): exactly `SplitMix64::pick_weighted` over them, 0 and no draw when all are
/// zero. A zero weight never moves the running sum past the draw, so it needs no test.
#[inline]
pub(super) fn pick_count(c: &[u8], rng: &mut SplitMix64) -> u32 {
    let total: u64 = c.iter().map(|&k| u64::from(k)).sum();
    if total == 0 {
        return 0;
    }
    let u = rng.below(total);
    let mut running = 0u64;
    for (i, &k) in c.iter().enumerate() {
        running += u64::from(k);
        if running > u {
            return i as u32;
        }
    }
    0
}

/// Calls `f(index, count)` for every positive count.
#[inline]
pub(super) fn counts(c: &[u8], mut f: impl FnMut(u32, u64)) {
    for (i, &k) in c.iter().enumerate() {
        if k > 0 {
            f(i as u32, u64::from(k));
        }
    }
}
