//! Port and shops (contract §7.2, §7.3): making port, selling, mounting, shop prices and the
//! cards a shop hands over.
//!
//! Must not: list legal actions or resolve nodes (modules `legal`, `apply`).

use super::actions::{REEL, ROD, SUPPLY};
use super::{DeepRegrets, DeepRegretsState as S, Task, NONE};

impl DeepRegrets {
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

    /// A shop card goes to seat p.
    pub(super) fn give_card(&self, st: &mut S, p: usize, id: u8) {
        let b = 1u32 << (id & 31);
        match st.shop {
            0 => st.seats[p].rods |= b,
            1 => st.seats[p].reels |= b,
            _ => st.seats[p].supplies |= b,
        }
    }

    /// Shop price for seat p (contract §7.3).
    pub(super) fn price(&self, st: &S, p: usize, k: usize, t: usize) -> i32 {
        self.price_after(k, t, self.price_discount(st, p))
    }

    /// What seat p takes off every shop price: its madness tier's discount and the current one.
    #[inline]
    pub(super) fn price_discount(&self, st: &S, p: usize) -> (i32, i32) {
        (
            i32::from(self.tier(st, p).shop_discount),
            i32::from(st.discount),
        )
    }

    /// [`Self::price`] of offer `t` of shop `k` given [`Self::price_discount`].
    #[inline]
    pub(super) fn price_after(&self, k: usize, t: usize, (tier, current): (i32, i32)) -> i32 {
        let base = i32::from(self.data.shops[k][t].price);
        (base - tier - current).max(0)
    }

    pub(super) fn shop_source(&self, st: &S, k: usize) -> bool {
        match k {
            0 => st.rod_deck | st.rod_discard != 0,
            1 => st.reel_deck | st.reel_discard != 0,
            2 => st.supply_deck | st.supply_discard != 0,
            _ => st.bag.iter().any(|&b| b > 0),
        }
    }

    pub(super) fn sell_end(&self, st: &mut S, p: usize) {
        let foul = st.foul;
        st.count = 0;
        st.foul = 0;
        st.push(Task::AfterMain(p as u8));
        st.push(Task::DrawEvent(p as u8, foul));
        self.run(st);
    }

    pub(super) fn mount_end(&self, st: &mut S, p: usize) {
        st.count = 0;
        // AfterMain(p), run here (as `run` would pop it).
        let asked = self.after_main(st, p as u8);
        self.run_unless(st, asked);
    }
}

/// The first id of a card shop's keep range.
pub(super) fn shop_base(shop: u8) -> u32 {
    match shop {
        0 => ROD,
        1 => REEL,
        _ => SUPPLY,
    }
}
