//! The observation tensor (contract §11.4, §16.12): the observation of §11.3 encoded with ids
//! instead of names, as a flat `f32` vector of `2268 + 362 n` entries.
//!
//! Must not: encode anything the observation does not show to the seat, or change the order or
//! size of the segments (the Python reference writes the same vector).

use super::super::data::{DINK_COUNT, FISH_COUNT, REEL_COUNT, ROD_COUNT, SIZE_NAMES, SUPPLY_COUNT};
use super::super::{DeepRegrets, DeepRegretsState as S, ItemSrc, BLOCK, CLASSES, NONE};
use crate::game::{Game, CHANCE, TERMINAL};
use crate::tensor::{scaled, TensorWriter};

/// Node kinds (§11.4 order = the `Node` enum order).
const NODES: usize = 58;
/// Entries of one seat's block.
const SEAT_BLOCK: usize = 78;

/// `Some(x)` unless `x` is the "none" marker.
fn some(x: u8) -> Option<usize> {
    (x != NONE).then_some(usize::from(x))
}

impl DeepRegrets {
    /// The tensor size for this player count.
    pub(in super::super) fn tensor_size(&self) -> usize {
        2268 + 362 * self.n()
    }

    /// Writes seat `me`'s observation tensor into `out`.
    pub(in super::super) fn write_tensor(&self, st: &S, me: usize, out: &mut [f32]) {
        let n = self.n();
        let me = me.min(super::super::MAX_SEATS - 1);
        let mut w = TensorWriter::new(out);
        w.one_hot(Some(me), n);
        w.one_hot(usize::from(st.day).checked_sub(1), 6);
        w.one_hot(Some(st.phase as usize), super::super::Phase::COUNT);
        w.one_hot(Some(st.node as usize), NODES);
        w.one_hot(some(st.actor), n);
        w.one_hot(some(st.turn), n);
        w.one_hot(some(st.first_player), n);
        w.push_bool(st.last_turns != NONE);
        w.push(if st.last_turns == NONE {
            0.0
        } else {
            scaled(f64::from(st.last_turns), 4.0)
        });
        w.one_hot(some(st.life_preserver), n);
        let current = self.current_player(st);
        let current_index = match current {
            CHANCE => Some(n),
            TERMINAL => Some(n + 1),
            p => usize::try_from(p).ok(),
        };
        w.one_hot(current_index, n + 2);
        for p in 0..n {
            self.write_seat(&mut w, st, p);
        }
        for p in 0..n {
            for (k, &f) in st.seats[p].mounted.iter().enumerate() {
                if let Some(f) = some(f).filter(|&f| f < FISH_COUNT) {
                    w.set(f, scaled((k + 1) as f64, 3.0));
                }
            }
            if let Some(f) = some(st.seats[p].cloche).filter(|&f| f < FISH_COUNT) {
                w.set(f, scaled(4.0, 3.0));
            }
            w.skip(FISH_COUNT);
        }
        let mine = &st.seats[me];
        for &c in &mine.regrets {
            w.push_scaled(f64::from(c), 10.0);
        }
        mine.hand.each(|f| w.set(usize::from(f), 1.0));
        w.skip(FISH_COUNT);
        w.multi_hot(u64::from(mine.dinks), 0, DINK_COUNT);
        w.multi_hot(u64::from(mine.supplies), 0, SUPPLY_COUNT);
        for s in 0..9 {
            let up = st.face_up >> s & 1 == 1;
            let top = st.top_fish(s).map(usize::from);
            w.push_scaled(f64::from(st.shoal_len[s]), 15.0);
            w.one_hot(top.filter(|_| up).map(|f| f % BLOCK), BLOCK);
            let known = !up && st.known[me] >> s & 1 == 1;
            w.one_hot(top.filter(|_| known).map(|f| f % BLOCK), BLOCK);
            // one-hot(back over s, m, l, 3), all 0 for an empty shoal (Decision 86)
            w.one_hot(self.top_size(st, s).map(usize::from), SIZE_NAMES.len());
        }
        for d in 0..3 {
            let len = usize::from(st.discard_len[d]).min(BLOCK);
            for (i, &f) in st.fish_discard[d][..len].iter().enumerate() {
                if usize::from(f) < FISH_COUNT {
                    w.set(usize::from(f), scaled((i + 1) as f64, 15.0));
                }
            }
        }
        w.skip(FISH_COUNT);
        for &c in &st.bag {
            w.push_scaled(f64::from(c), 9.0);
        }
        let sum4 = |x: &[u8; 4]| f64::from(x.iter().map(|&c| u32::from(c)).sum::<u32>());
        let ones = |m: u32| f64::from(m.count_ones());
        w.push_scaled(sum4(&st.regret_deck), 60.0);
        w.push_scaled(sum4(&st.regret_discard), 60.0);
        w.push_scaled(ones(st.dink_deck), 25.0);
        w.push_scaled(ones(st.dink_discard), 25.0);
        w.push_scaled(ones(st.supply_deck), 20.0);
        w.push_scaled(ones(st.supply_discard), 20.0);
        w.push_scaled(ones(st.rod_deck), 10.0);
        w.push_scaled(ones(st.rod_discard), 10.0);
        w.push_scaled(ones(st.reel_deck), 10.0);
        w.push_scaled(ones(st.reel_discard), 10.0);
        self.write_ctx(&mut w, st, me);
        for p in 0..n {
            let score = if st.ended { st.final_scores[p] } else { 0 };
            w.push_scaled(f64::from(score), 50.0);
        }
        w.push_bool(st.ended);
        for p in 0..n {
            let rv = if st.ended { st.regret_values[p] } else { 0 };
            w.push_scaled(f64::from(rv), 20.0);
        }
        if st.ended {
            for p in 0..n {
                if let Some(f) = some(st.discarded[p]).filter(|&f| f < FISH_COUNT) {
                    w.set(f, scaled((p + 1) as f64, n as f64));
                }
            }
        }
        w.skip(FISH_COUNT);
        self.write_ability_segments(&mut w, st, me);
        debug_assert_eq!(w.position(), self.tensor_size());
    }

    fn write_seat(&self, w: &mut TensorWriter<'_>, st: &S, p: usize) {
        let s = &st.seats[p];
        let start = w.position();
        w.push_scaled(f64::from(s.money), 10.0);
        w.one_hot(Some(usize::from(s.depth)), 4);
        w.push_scaled(f64::from(s.regret_count()), 13.0);
        for &c in &s.fresh {
            w.push_scaled(f64::from(c), 4.0);
        }
        for &c in &s.spent {
            w.push_scaled(f64::from(c), 4.0);
        }
        w.push_scaled(f64::from(s.hand.count()), 10.0);
        w.push_scaled(f64::from(s.dinks.count_ones()), 5.0);
        w.push_scaled(f64::from(s.supplies.count_ones()), 5.0);
        w.multi_hot(u64::from(s.rods), 0, ROD_COUNT);
        w.multi_hot(u64::from(s.reels), 0, REEL_COUNT);
        w.one_hot(some(s.rod), ROD_COUNT);
        w.one_hot(some(s.reel), REEL_COUNT);
        for b in [
            s.worms,
            s.lifeboat_used,
            s.passed,
            s.reel_used,
            s.caught_today,
        ] {
            w.push_bool(b);
        }
        for b in s.shops_used {
            w.push_bool(b);
        }
        debug_assert_eq!(w.position() - start, SEAT_BLOCK);
    }

    fn write_ctx(&self, w: &mut TensorWriter<'_>, st: &S, me: usize) {
        for &c in &st.to_roll {
            w.push_scaled(f64::from(c), 4.0);
        }
        for &c in &st.rolled {
            w.push_scaled(f64::from(c), 4.0);
        }
        // `ctx.left` as the observation shows it: null, an int, or 0 at other nodes.
        let left = Self::shown_left(st).map(usize::from);
        w.push_bool(left.is_none());
        w.push(left.map_or(0.0, |l| scaled(l as f64, 5.0)));
        w.push_scaled(f64::from(st.count), 5.0);
        w.push_scaled(f64::from(st.foul), 5.0);
        w.one_hot(some(st.slot), 3);
        w.push_scaled(f64::from(st.discount), 5.0);
        // cast (164)
        if st.cast_on {
            let s = usize::from(st.cast_shoal);
            let up = st.face_up >> s & 1 == 1;
            let top = st.top_fish(s).filter(|_| up);
            let fish = top.and_then(|f| self.data.fish.get(usize::from(f)));
            w.push(1.0);
            w.one_hot(Some(s), 9);
            w.one_hot(top.map(usize::from), FISH_COUNT);
            match fish {
                Some(_) => {
                    let d = self.effective_difficulty(st, usize::from(st.turn).min(4));
                    w.push(1.0);
                    w.push_scaled(f64::from(d), 10.0);
                }
                None => w.skip(2),
            }
            match fish {
                Some(f) if f.exact > 0 => {
                    w.push(1.0);
                    w.push_scaled(f64::from(f.exact), 5.0);
                }
                _ => w.skip(2),
            }
            for &c in &st.payment {
                w.push_scaled(f64::from(c), 4.0);
            }
        } else {
            w.skip(1 + 9 + FISH_COUNT + 4 + CLASSES);
        }
        let is_actor = usize::from(st.actor) == me;
        w.one_hot(some(st.peek).filter(|_| is_actor), FISH_COUNT);
        // shop (45)
        if st.shop == NONE {
            w.skip(45);
        } else {
            w.push(1.0);
            w.one_hot(Some(usize::from(st.shop)), 3);
            let drawn = &st.drawn[..usize::from(st.drawn_len).min(st.drawn.len())];
            w.push_scaled(drawn.len() as f64, 5.0);
            if is_actor {
                let (base, size) = match st.shop {
                    0 => (0, ROD_COUNT),
                    1 => (ROD_COUNT, REEL_COUNT),
                    _ => (ROD_COUNT + REEL_COUNT, SUPPLY_COUNT),
                };
                for (k, &i) in drawn.iter().enumerate() {
                    if usize::from(i) < size {
                        w.set(base + usize::from(i), scaled((k + 1) as f64, 5.0));
                    }
                }
            }
            w.skip(ROD_COUNT + REEL_COUNT + SUPPLY_COUNT);
        }
        // item (56)
        let item = st.item.and_then(|src| match src {
            ItemSrc::Dink(i) => (usize::from(i) < DINK_COUNT).then_some(usize::from(i)),
            ItemSrc::Supply(i) => {
                (usize::from(i) < SUPPLY_COUNT).then_some(DINK_COUNT + usize::from(i))
            }
            ItemSrc::Reel(i) => {
                (usize::from(i) < REEL_COUNT).then_some(DINK_COUNT + SUPPLY_COUNT + usize::from(i))
            }
            ItemSrc::LifePreserver => Some(DINK_COUNT + SUPPLY_COUNT + REEL_COUNT),
        });
        w.one_hot(item, DINK_COUNT + SUPPLY_COUNT + REEL_COUNT + 1);
    }

    /// The segments of the card abilities (contract §16.12), after those of §11.4.
    fn write_ability_segments(&self, w: &mut TensorWriter<'_>, st: &S, me: usize) {
        let n = self.n();
        w.push_bool(st.plug);
        for p in 0..n {
            st.seats[p].front.each(|f| w.set(usize::from(f), 1.0));
            w.skip(FISH_COUNT);
        }
        for p in 0..n {
            w.multi_hot(u64::from(st.seats[p].locks), 0, 3);
        }
        for p in 0..n {
            w.push_bool(st.seats[p].skull_used);
            w.push_bool(st.seats[p].coffin_used);
        }
        if st.ability_fish == NONE {
            w.skip(FISH_COUNT + 4);
        } else {
            w.one_hot(some(st.ability_fish), FISH_COUNT);
            w.one_hot(Some(usize::from(st.ability_trigger)), 4);
        }
        let is_actor = usize::from(st.actor) == me;
        w.push_bool(st.pool_on);
        let pooled: u8 = if st.pool_on { st.pool.iter().sum() } else { 0 };
        w.push_scaled(f64::from(pooled), 5.0);
        for &c in &st.pool {
            w.push(if st.pool_on && is_actor {
                scaled(f64::from(c), 5.0)
            } else {
                0.0
            });
        }
        w.one_hot(some(st.target), n);
        let offered: u8 = st.offer.iter().sum();
        w.push_scaled(f64::from(offered), 2.0);
        let sees = st.turn == me as u8 || st.target == me as u8;
        for &c in &st.offer {
            w.push(if sees { scaled(f64::from(c), 2.0) } else { 0.0 });
        }
        w.push_scaled(f64::from(st.order_len), 3.0);
        if is_actor {
            for (k, &f) in st.order[..usize::from(st.order_len).min(3)]
                .iter()
                .enumerate()
            {
                if usize::from(f) < FISH_COUNT {
                    w.set(usize::from(f), scaled((k + 1) as f64, 3.0));
                }
            }
        }
        w.skip(FISH_COUNT);
        if st.cast_on {
            w.push_bool(st.cast_base.is_some());
            w.push(st.cast_base.map_or(0.0, |b| scaled(f64::from(b), 10.0)));
            let beneath = if st.turn == me as u8 {
                some(st.cast_beneath)
            } else {
                None
            };
            w.one_hot(beneath, FISH_COUNT);
            w.push_bool(st.cast_ignored);
            w.push_bool(st.cast_revealed);
        } else {
            w.skip(4 + FISH_COUNT);
        }
        for s in 0..9 {
            let up = st.face_up >> s & 1 == 1;
            let depth = st
                .top_fish(s)
                .filter(|_| up)
                .and_then(|f| self.data.fish.get(usize::from(f)))
                .map(|f| usize::from(f.depth.clamp(1, 3) - 1));
            w.one_hot(depth, 3);
        }
    }
}
