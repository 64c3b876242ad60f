//! Items (contract §2.1, §7.6, §16.10): when each use of a dink, supply, reel or the Life
//! Preserver is ready, the ready uses at the `turn`, `after_main` and `pay` nodes, and using one.
//!
//! Must not: interpret the effects themselves (modules `flow` and `abilities` do) or decide
//! anything a seat may not know.

use super::actions::{DINK, SUPPLY, USE_LIFE_PRESERVER, USE_REEL};
use super::data::Prim;
use super::legal::Sink;
use super::{
    DeepRegrets, DeepRegretsState as S, ItemSrc, Node, Task, FACE_CLASSES, NONE, TOP_CLASSES,
};

impl DeepRegrets {
    /// The readiness flags (`REQ_*`) that hold for seat p at `node`, among `needed` (the
    /// others may be missing); `pay_d` is the effective difficulty if already known.
    // Inlined: its callers pass the node kind as a constant, which leaves out the other kinds'
    // tests.
    #[inline(always)]
    pub(super) fn ready_flags_needed(
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
        if seat.regrets != [0; 4] {
            m |= REQ_REGRET;
        }
        let mask = seat.fresh_mask();
        if mask != 0 && needed & (REQ_FRESH | LOWS | REQ_BELOW_TOP) != 0 {
            m |= REQ_FRESH;
            // The lowest face showing (4 if none).
            let low = FACE_CLASSES
                .iter()
                .position(|&f| mask & f != 0)
                .unwrap_or(4)
                .min(4) as u32;
            for a in low..4 {
                m |= REQ_LOW0 << a;
            }
            if mask & !TOP_CLASSES != 0 {
                m |= REQ_BELOW_TOP;
            }
        }
        if needed & REQ_REFRESH != 0 && seat.has_spent() && self.fresh_below_max(st, p) {
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
    #[inline(always)]
    pub(super) fn item_flags(&self, st: &S, p: usize, node: Node, pay_d: Option<i32>) -> u32 {
        let seat = &st.seats[p];
        // The flags that some use of a held dink or supply needs.
        let mut needed =
            self.dink_ready.needed(seat.dinks) | self.supply_ready.needed(seat.supplies);
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
    pub(super) fn reqs(&self, src: ItemSrc) -> &[u32; 2] {
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
    #[inline(always)]
    pub(super) fn ready_use(&self, st: &S, p: usize, src: ItemSrc, node: Node) -> Option<usize> {
        let r = self.reqs(src);
        let needed = (r[0] | r[1]) & !REQ_NEVER;
        self.ready_in(src, self.ready_flags_needed(st, p, node, needed, None))
    }

    /// Pushes the ready item uses at a `turn` or `pay` node (ids 12, 13 come first; dinks and
    /// supplies are pushed by `items_tail`).
    pub(super) fn items_head(&self, st: &S, p: usize, flags: u32, out: &mut impl Sink) {
        let seat = &st.seats[p];
        if usize::from(st.life_preserver) == p
            && self.ready_in(ItemSrc::LifePreserver, flags).is_some()
        {
            out.put(USE_LIFE_PRESERVER);
        }
        if seat.reel != NONE
            && !seat.reel_used
            && self.ready_in(ItemSrc::Reel(seat.reel), flags).is_some()
        {
            out.put(USE_REEL);
        }
    }

    /// Pushes the ready dinks and supplies at a `turn` or `pay` node (ids 100+d, then
    /// 125+i; the other ready items are pushed by `items_head`).
    #[inline(always)]
    pub(super) fn items_tail(&self, st: &S, p: usize, flags: u32, out: &mut impl Sink) {
        let seat = &st.seats[p];
        // `ready_in(..).is_some()` of every dink and supply, found by flag.
        out.put_bits(DINK, self.dink_ready.ready(seat.dinks, flags));
        out.put_bits(SUPPLY, self.supply_ready.ready(seat.supplies, flags));
    }

    /// Whether a dink or a supply of seat p is ready on `flags` (what [`Self::items_tail`]
    /// would list one of), found by flag.
    #[inline(always)]
    pub(super) fn any_card_ready(&self, st: &S, p: usize, flags: u32) -> bool {
        let seat = &st.seats[p];
        self.dink_ready.ready(seat.dinks, flags) | self.supply_ready.ready(seat.supplies, flags)
            != 0
    }

    /// Seat p uses `src` (a legal action at the node `ret`, which it comes back to): its first
    /// ready use. An item with one use has no other, so only one with two is tested.
    pub(super) fn use_item(&self, st: &mut S, p: usize, src: ItemSrc, ret: Node) {
        let u = if self.reqs(src)[1] == REQ_NEVER {
            0
        } else {
            match self.ready_use(st, p, src, ret) {
                Some(u) => u,
                None => return,
            }
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
        let list = self.item(src).use_lists.get(u).copied().unwrap_or(0);
        // A use of one primitive that only changes the state: Effects(p, list, 0), then
        // ReturnTo(ret, p), run here (the loop would pop them at once, nothing pushed between).
        if let Some(&[prim]) = self.data.lists.get(usize::from(list)).map(Vec::as_slice) {
            if self.plain_effect(st, p, prim) {
                let asked = self.return_to(st, ret, p as u8);
                self.run_unless(st, asked);
                return;
            }
        }
        st.push(Task::ReturnTo(ret, p as u8));
        // Effects(p, list, 0), run here (as `run` would pop it).
        let asked = self.task_effects(st, p as u8, list, 0);
        self.run_unless(st, asked);
    }
}

/// The items of one kind (dinks or supplies; bit i for item i) in tables by byte: the flags a
/// set of held items can need, and the items ready on a set of flags, each found with one
/// lookup per byte instead of item by item (a seat holds a few dinks, most of them held back by
/// the few flags their uses need).
#[derive(Clone, Debug)]
pub(super) struct ReadyTable(Box<ReadyBytes>);

/// The tables of a [`ReadyTable`].
#[derive(Clone, Debug)]
struct ReadyBytes {
    /// `needs[c][b]`: the flags that some use of the items of byte c of a held set `b` needs
    /// (without `REQ_NEVER`).
    needs: [[u32; 256]; 4],
    /// `open[c][b][u]`: the items whose use u needs no flag of byte c that is missing when byte
    /// c of the flags is `b` (an item without a use u, or past the last item, is in none).
    open: [[[u32; 2]; 256]; 3],
}

impl ReadyTable {
    /// The table of the items whose uses' requirement masks are `reqs` (item i at index i);
    /// `None` when a mask needs a flag past the three bytes of the tables (no `REQ_*` is), or
    /// an item is past 32.
    pub(super) fn new(reqs: &[[u32; 2]]) -> Option<Self> {
        if reqs.len() > 32 {
            return None;
        }
        let mut t = Box::new(ReadyBytes {
            needs: [[0; 256]; 4],
            open: [[[0; 2]; 256]; 3],
        });
        for (i, r) in reqs.iter().enumerate() {
            for (u, &m) in r.iter().enumerate() {
                if m & REQ_NEVER != 0 {
                    continue;
                }
                if m >> 24 != 0 {
                    return None;
                }
                for (c, open) in t.open.iter_mut().enumerate() {
                    let need = (m >> (8 * c)) & 0xFF;
                    for (b, o) in open.iter_mut().enumerate() {
                        if need & !(b as u32) == 0 {
                            o[u] |= 1 << i;
                        }
                    }
                }
                for (b, n) in t.needs[i / 8].iter_mut().enumerate() {
                    if b >> (i % 8) & 1 == 1 {
                        *n |= m;
                    }
                }
            }
        }
        Some(ReadyTable(t))
    }

    /// The flags that some use of an item of `held` needs (without `REQ_NEVER`).
    #[inline(always)]
    pub(super) fn needed(&self, held: u32) -> u32 {
        if held == 0 {
            return 0;
        }
        let n = &self.0.needs;
        let byte = |c: u32| usize::from((held >> (8 * c)) as u8);
        n[0][byte(0)] | n[1][byte(1)] | n[2][byte(2)] | n[3][byte(3)]
    }

    /// The items of `held` with a use whose flags all hold in `flags` (what `ready_in(..)
    /// .is_some()` tells of each).
    #[inline(always)]
    pub(super) fn ready(&self, held: u32, flags: u32) -> u32 {
        if held == 0 {
            return 0;
        }
        let o = &self.0.open;
        let byte = |c: u32| usize::from((flags >> (8 * c)) as u8);
        let (o0, o1, o2) = (&o[0][byte(0)], &o[1][byte(1)], &o[2][byte(2)]);
        held & ((o0[0] & o1[0] & o2[0]) | (o0[1] & o1[1] & o2[1]))
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
