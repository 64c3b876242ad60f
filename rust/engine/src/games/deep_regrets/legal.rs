//! Legal actions at decision nodes (contract §9, §10, §16.12), in increasing order.
//!
//! Must not: change the state, or draw from an RNG other than the `random` bot's pick
//! ([`DeepRegrets::random_decision`], exactly one `below(len)` over the list [`DeepRegrets::legal`]
//! writes); the step-by-step rules live in `apply` and `flow`, and the card abilities' own nodes
//! in `abilities`.

use super::actions::{
    ABANDON_SHIP, CAST, CATCH, COLUMN, DECLINE, DIE, DIE_KIND, DISCARD_RANDOM_REGRET, DONE,
    DRAW_A_DINK, END_TURN, FISH, GIVE_TO, KEEP_ALL, LEAVE_ON_TOP, MAKE_PORT, MOUNT, PASS,
    PUT_AT_BOTTOM, REEL, REGRET, ROD, ROLL_NOW, ROW, SELL, SHOP, SLOT, STAY_AT_SEA, TAKE_NOTHING,
    USE_WORMS,
};
use super::fishing::PayNumbers;
use super::port::shop_base;
use crate::rng::SplitMix64;

use super::{
    class_mask, each_bit, DeepRegrets, DeepRegretsState as S, Node, CLASSES, CLOCHE_SLOT, KINDS,
    MAX_SEATS, NONE, TOP_CLASSES,
};

/// Shoals of row r (bits).
pub(super) const ROW_MASK: [u16; 3] = [0b111, 0b111 << 3, 0b111 << 6];
/// Shoals of column c (bits).
pub(super) const COL_MASK: [u16; 3] = [0b001_001_001, 0b010_010_010, 0b100_100_100];

/// Where legal action ids are put: a list, or a flag that only records whether there is one.
pub(super) trait Sink {
    /// Puts one action id.
    fn put(&mut self, a: u32);

    /// Puts `base + b` for every set bit b of `mask`, in increasing order.
    #[inline(always)]
    fn put_bits(&mut self, base: u32, mask: u32) {
        each_bit(mask, |b| self.put(base + b));
    }
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

    #[inline(always)]
    fn put_bits(&mut self, _base: u32, mask: u32) {
        self.0 |= mask != 0;
    }
}

/// A list of at most [`Ids::CAP`] ids on the stack (a `turn` or `pay` list for the `random`
/// bot's pick): no capacity test against the heap, and a flag when an id did not fit.
pub(super) struct Ids {
    // Every action id is below 512, so 16 bits hold it; the array is small enough to be
    // cleared with a few stores instead of a call.
    ids: [u16; Ids::CAP],
    len: usize,
    full: bool,
}

impl Ids {
    /// Ids kept; a longer list sets `full` and is made again in a `Vec`.
    const CAP: usize = 32;

    #[inline(always)]
    fn new() -> Self {
        Ids {
            ids: [0; Ids::CAP],
            len: 0,
            full: false,
        }
    }

    /// The `random` bot's pick, `ids[rng.below(len)]`; `None`, drawing nothing, when the list
    /// is empty or did not fit.
    #[inline(always)]
    fn pick(&self, rng: &mut SplitMix64) -> Option<u32> {
        if self.full || self.len == 0 {
            return None;
        }
        let i = rng.below(self.len as u64) as usize;
        self.ids.get(i).map(|&a| u32::from(a))
    }
}

impl Sink for Ids {
    #[inline(always)]
    fn put(&mut self, a: u32) {
        match self.ids.get_mut(self.len) {
            Some(slot) => {
                *slot = a as u16;
                self.len += 1;
            }
            None => self.full = true,
        }
    }

    #[inline(always)]
    fn put_bits(&mut self, base: u32, mask: u32) {
        // The length in a local: the stores into `ids` would otherwise reload it each time.
        let mut len = self.len;
        each_bit(mask, |b| match self.ids.get_mut(len) {
            Some(slot) => {
                *slot = (base + b) as u16;
                len += 1;
            }
            None => self.full = true,
        });
        self.len = len;
    }
}

/// Which actions of the `turn` node family to list.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum TurnList {
    /// The `turn` node: main and free actions.
    Turn,
    /// The `after_main` node: the free actions and `END_TURN`.
    AfterMain,
}

/// The shoals within reach at `depth` (rows 1..=depth; none in port).
#[inline]
pub(super) fn reach_mask(depth: u8) -> u16 {
    ROW_MASK[..usize::from(depth).min(3)]
        .iter()
        .fold(0, |m, &r| m | r)
}

/// The shoals in every column lock of a seat with locks `locks` (a column bitset, §16.2): all
/// shoals with no lock, one column with one, none with two different columns.
#[inline]
pub(super) fn lock_mask(locks: u8) -> u16 {
    LOCK_MASKS[usize::from(locks & 0b111)]
}

/// [`lock_mask`] of every column bitset, read at every turn node.
const LOCK_MASKS: [u16; 8] = {
    let mut masks = [0u16; 8];
    let mut locks = 0;
    while locks < 8 {
        masks[locks] = match locks.count_ones() {
            0 => COL_MASK[0] | COL_MASK[1] | COL_MASK[2],
            1 => COL_MASK[locks.trailing_zeros() as usize],
            _ => 0,
        };
        locks += 1;
    }
    masks
};

/// Pushes `first + id` for the first `len` ids of `ids`, in increasing id order.
pub(super) fn push_sorted<const N: usize>(out: &mut Vec<u32>, first: u32, ids: &[u8; N], len: u8) {
    let mut sorted = *ids;
    let len = usize::from(len).min(N);
    sorted[..len].sort_unstable();
    for &id in &sorted[..len] {
        out.push(first + u32::from(id));
    }
}

/// Pushes `first + i` for every row (or column) i whose `lines[i]` mask meets the shoal set `m`.
pub(super) fn push_lines(out: &mut Vec<u32>, m: u16, lines: &[u16; 3], first: u32) {
    for (i, &line) in lines.iter().enumerate() {
        if m & line != 0 {
            out.push(first + i as u32);
        }
    }
}

/// The `random` bot's pick from the list `head` (increasing ids, all below `base`) followed by
/// `base + b` for every set bit b of `mask`, in increasing order: the element of rank
/// `rng.below(len)` of that list, or `None` (drawing nothing) when it is empty.
#[inline(always)]
fn pick_listed(head: &[u32], base: u32, mask: u64, rng: &mut SplitMix64) -> Option<u32> {
    if head.is_empty() {
        return crate::bits::pick(mask, rng).map(|b| base + b);
    }
    let n = head.len() as u64 + u64::from(crate::bits::count(mask));
    let i = rng.below(n);
    Some(match head.get(i as usize) {
        Some(&a) => a,
        None => base + crate::bits::select(mask, (i - head.len() as u64) as u32),
    })
}

impl DeepRegrets {
    /// The `random` bot's action at a decision node: exactly `legal[rng.below(legal.len())]`
    /// over the list [`Self::legal`] writes into `buf` (`None`, drawing nothing, when it is
    /// empty), without the list at the nodes whose list is a few fixed ids and a bit set.
    #[inline(always)]
    pub(super) fn random_decision(
        &self,
        st: &S,
        rng: &mut SplitMix64,
        buf: &mut Vec<u32>,
    ) -> Option<u32> {
        self.random_at(st.node, st, rng, buf)
    }

    /// [`Self::random_decision`] at the state's node, of kind `node`: the whole-game playout
    /// passes each kind it matched as a constant, so that this match is made once per decision.
    #[inline(always)]
    pub(super) fn random_at(
        &self,
        node: Node,
        st: &S,
        rng: &mut SplitMix64,
        buf: &mut Vec<u32>,
    ) -> Option<u32> {
        let p = usize::from(st.actor);
        let seat = st.seats.get(p)?;
        let fresh = || u64::from(seat.fresh_mask());
        match node {
            Node::MusterSelect | Node::RerollSelect => pick_listed(&[ROLL_NOW], DIE, fresh(), rng),
            Node::MusterKeep => pick_listed(&[], DIE, u64::from(class_mask(&st.rolled)), rng),
            Node::DeclineDie => pick_listed(&[TAKE_NOTHING], DIE, fresh(), rng),
            Node::Declare => pick_listed(&[STAY_AT_SEA, MAKE_PORT], 0, 0, rng),
            Node::Worms => pick_listed(&[LEAVE_ON_TOP, PUT_AT_BOTTOM], 0, 0, rng),
            Node::Reward => {
                let dink = st.dink_deck | st.dink_discard != 0;
                let discard = seat.has_regret();
                match (dink, discard) {
                    (true, true) => pick_listed(&[DRAW_A_DINK, DISCARD_RANDOM_REGRET], 0, 0, rng),
                    (true, false) => pick_listed(&[DRAW_A_DINK], 0, 0, rng),
                    (false, true) => pick_listed(&[TAKE_NOTHING, DISCARD_RANDOM_REGRET], 0, 0, rng),
                    (false, false) => None,
                }
            }
            Node::Turn | Node::AfterMain | Node::Pay => {
                let mut ids = Ids::new();
                match node {
                    Node::Turn => self.turn_actions(st, p, &mut ids, TurnList::Turn),
                    Node::AfterMain => self.turn_actions(st, p, &mut ids, TurnList::AfterMain),
                    _ => self.pay_actions(st, p, &mut ids),
                }
                if !ids.full {
                    return ids.pick(rng);
                }
                // The trait's list: `legal` keeps its one caller, which inlines it.
                crate::game::Game::legal_actions(self, st, buf);
                if buf.is_empty() {
                    return None;
                }
                buf.get(rng.below(buf.len() as u64) as usize).copied()
            }
            _ => {
                // The trait's list: `legal` keeps its one caller, which inlines it.
                crate::game::Game::legal_actions(self, st, buf);
                if buf.is_empty() {
                    return None;
                }
                buf.get(rng.below(buf.len() as u64) as usize).copied()
            }
        }
    }

    /// Legal actions at a decision node.
    pub(super) fn legal(&self, st: &S, out: &mut Vec<u32>) {
        let p = usize::from(st.actor);
        if p >= MAX_SEATS {
            return;
        }
        let seat = &st.seats[p];
        let fresh_classes = |out: &mut Vec<u32>, pool: &[u8; CLASSES]| {
            each_bit(u32::from(class_mask(pool)), |c| out.push(DIE + c));
        };
        let regret_values = |out: &mut Vec<u32>| {
            for v in 0..4 {
                if seat.regrets[v] > 0 {
                    out.push(REGRET + v as u32);
                }
            }
        };
        match st.node {
            Node::MusterSelect | Node::RerollSelect => {
                out.push(ROLL_NOW);
                fresh_classes(out, &seat.fresh);
            }
            Node::MusterKeep => fresh_classes(out, &st.rolled),
            Node::LifePreserver => {
                for s in 0..self.n() {
                    if s != p {
                        out.push(GIVE_TO + s as u32);
                    }
                }
            }
            Node::Declare => out.extend_from_slice(&[STAY_AT_SEA, MAKE_PORT]),
            Node::PortDiscard => {
                out.push(KEEP_ALL);
                regret_values(out);
            }
            Node::EquipRod => each_bit(seat.rods, |r| out.push(ROD + r)),
            Node::EquipReel => each_bit(seat.reels, |r| out.push(REEL + r)),
            Node::Turn => self.turn_actions(st, p, out, TurnList::Turn),
            Node::AfterMain => self.turn_actions(st, p, out, TurnList::AfterMain),
            Node::Worms => out.extend_from_slice(&[LEAVE_ON_TOP, PUT_AT_BOTTOM]),
            Node::Pay => self.pay_actions(st, p, out),
            Node::DeclineDie => {
                // The dink is a permission (Decision 17): the seat may also keep its dice.
                out.push(TAKE_NOTHING);
                fresh_classes(out, &seat.fresh);
            }
            Node::Reward => {
                let dink = st.dink_deck | st.dink_discard != 0;
                let discard = seat.has_regret();
                // Discarding is a permission (Decision 22): without a dink to draw, the seat may
                // also take nothing.
                if discard && !dink {
                    out.push(TAKE_NOTHING);
                }
                if dink {
                    out.push(DRAW_A_DINK);
                }
                if discard {
                    out.push(DISCARD_RANDOM_REGRET);
                }
            }
            Node::Sell => {
                if st.count >= 1 {
                    out.push(DONE);
                }
                seat.hand
                    .and(&self.sellable)
                    .each(|f| out.push(FISH + u32::from(f)));
            }
            Node::MountSlot => {
                if st.count >= 1 {
                    out.push(DONE);
                }
                for k in 0..3 {
                    if seat.mounted[k] == NONE {
                        out.push(SLOT + k as u32);
                    }
                }
            }
            Node::MountFish => {
                let small = st.slot == CLOCHE_SLOT;
                seat.hand.and(&self.sellable).each(|f| {
                    if !small
                        || self
                            .data
                            .fish
                            .get(usize::from(f))
                            .is_some_and(|x| x.size == 0)
                    {
                        out.push(FISH + u32::from(f))
                    }
                });
            }
            Node::ShopKeep => {
                push_sorted(out, shop_base(st.shop), &st.drawn, st.drawn_len);
            }
            Node::DiscardRegret => regret_values(out),
            Node::RefreshDie => {
                for k in 0..KINDS {
                    if seat.spent[k] > 0 {
                        out.push(DIE_KIND + k as u32);
                    }
                }
            }
            Node::SetMax => {
                each_bit(u32::from(seat.fresh_mask() & !TOP_CLASSES), |c| {
                    out.push(DIE + c)
                });
            }
            Node::PeekShoal => {
                let m = st.peekable(p);
                for s in 0..9u32 {
                    if m >> s & 1 == 1 {
                        out.push(CAST + s);
                    }
                }
            }
            Node::PeekRow => push_lines(out, st.peekable(p), &ROW_MASK, ROW),
            Node::PeekColumn => push_lines(out, st.peekable(p), &COL_MASK, COLUMN),
            _ => self.legal_ability(st, p, out),
        }
    }

    /// The `random` bot's action at the `pay` node of seat p whose cast's numbers are `pay`,
    /// as [`Self::random_decision`] picks it; `None`, drawing nothing, when the list is empty or
    /// too long for the stack (the definition takes that node).
    #[inline(always)]
    pub(super) fn random_pay(
        &self,
        st: &S,
        p: usize,
        pay: &PayNumbers,
        rng: &mut SplitMix64,
    ) -> Option<u32> {
        let mut ids = Ids::new();
        self.pay_list(st, p, pay, &mut ids);
        ids.pick(rng)
    }

    /// The legal actions of the `pay` node, in increasing order.
    #[inline]
    fn pay_actions(&self, st: &S, p: usize, out: &mut impl Sink) {
        self.pay_list(st, p, &self.pay_numbers(st, p), out);
    }

    /// [`Self::pay_actions`] given the cast's numbers.
    #[inline(always)]
    fn pay_list(&self, st: &S, p: usize, pay: &PayNumbers, out: &mut impl Sink) {
        let seat = &st.seats[p];
        let flags = self.item_flags(st, p, Node::Pay, Some(pay.d));
        if pay.complete {
            out.put(CATCH);
        }
        let rules = pay.fish.map(|f| &f.rules);
        if !rules.is_some_and(|r| r.must_catch) || !self.can_complete(st, p, pay.d) {
            out.put(DECLINE);
        }
        self.items_head(st, p, flags, out);
        if let Some(rules) = rules {
            self.pay_rules(st, p, rules, out);
        }
        if !pay.complete && (pay.exact == 0 || pay.paid < pay.exact) {
            out.put_bits(DIE, u32::from(seat.fresh_mask()));
        }
        self.items_tail(st, p, flags, out);
        seat.hand
            .and(&self.eat_set)
            .each(|f| out.put(FISH + u32::from(f)));
    }

    /// Whether seat p has a legal free action (the same conditions as at the `turn` node).
    ///
    /// The answer is the disjunction of the tests of [`Self::turn_actions`] for the free
    /// actions, so they are made cheapest first and the first that holds ends the search.
    // Inlined: the first test, which mostly decides, is made without a call.
    #[inline(always)]
    pub(super) fn has_free_action(&self, st: &S, p: usize) -> bool {
        let seat = &st.seats[p];
        // Abandon ship (3), a die to go deeper (50+c), eating a fish (165+f).
        (seat.depth > 0 && (!seat.lifeboat_used || (seat.depth < 3 && seat.has_fresh())))
            || self.has_other_free_action(st, p)
    }

    /// [`Self::has_free_action`] after its first test: a free action other than abandoning
    /// ship or going deeper.
    #[inline(never)]
    fn has_other_free_action(&self, st: &S, p: usize) -> bool {
        let seat = &st.seats[p];
        if !seat.hand.and(&self.eat_set).is_empty() {
            return true;
        }
        // The Can of Worms (41+s), on a shoal the boat could cast at (Decision 66).
        if seat.worms
            && st.nonempty() & !st.face_up & reach_mask(seat.depth) & lock_mask(seat.locks) != 0
        {
            return true;
        }
        let mut any = AnyAction::default();
        // A dink or supply ready on the flags found without a test of the dice or the sea (a
        // use ready on fewer flags is ready on all of them).
        let known = self.ready_flags_needed(st, p, Node::Turn, 0, None);
        if self.any_card_ready(st, p, known) {
            return true;
        }
        self.turn_rules(st, p, &mut any, false);
        if any.0 {
            return true;
        }
        let flags = self.item_flags(st, p, Node::Turn, None);
        self.items_head(st, p, flags, &mut any);
        any.0 || self.any_card_ready(st, p, flags)
    }

    /// The legal actions of the `turn` node family, in increasing order: main actions (0, 10,
    /// 11, 21, 32+s, 82+3k+t) only at `turn`, 24 = end turn only at `after_main`, the free
    /// actions (3, 12, 13, 22, 23, 41+s, 50+c, 100+d, 125+i, 165+f) at both.
    #[inline(always)]
    pub(super) fn turn_actions(&self, st: &S, p: usize, out: &mut impl Sink, list: TurnList) {
        let main = list == TurnList::Turn;
        let seat = &st.seats[p];
        let at_sea = seat.depth > 0;
        if main {
            out.put(PASS);
        }
        if at_sea && !seat.lifeboat_used {
            out.put(ABANDON_SHIP);
        }
        if main && !at_sea && !seat.hand.and(&self.sellable).is_empty() {
            out.put(SELL);
            if seat.mounted.contains(&NONE) {
                out.put(MOUNT);
            }
        }
        let flags = self.item_flags(st, p, Node::Turn, None);
        self.items_head(st, p, flags, out);
        self.turn_rules(st, p, out, main);
        if list == TurnList::AfterMain {
            out.put(END_TURN);
        }
        // The non-empty shoals within reach (none in port).
        let live = if at_sea {
            st.nonempty() & reach_mask(seat.depth)
        } else {
            0
        };
        // The shoals the boat could cast at: within reach and in every column lock (§16.2).
        let castable = live & lock_mask(seat.locks);
        let fresh = seat.fresh_mask();
        if main && fresh != 0 {
            out.put_bits(CAST, u32::from(castable));
        }
        // Decision 66: the Can of Worms on a shoal the boat could cast at (no Fresh die needed,
        // after the main action too), its top face down.
        if seat.worms {
            out.put_bits(USE_WORMS, u32::from(castable & !st.face_up));
        }
        if at_sea && seat.depth < 3 {
            out.put_bits(DIE, u32::from(fresh));
        }
        if main && !at_sea {
            // `price(st, p, k, t)` with the seat's discounts read once for the twelve offers.
            let off = self.price_discount(st, p);
            for k in 0..4 {
                if seat.shops_used[k] || !self.shop_source(st, k) {
                    continue;
                }
                for t in 0..3 {
                    if self.price_after(k, t, off) <= i32::from(seat.money) {
                        out.put(SHOP + 3 * k as u32 + t as u32);
                    }
                }
            }
        }
        self.items_tail(st, p, flags, out);
        seat.hand
            .and(&self.eat_set)
            .each(|f| out.put(FISH + u32::from(f)));
    }
}
