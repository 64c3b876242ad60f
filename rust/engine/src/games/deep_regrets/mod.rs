//! Deep Regrets, 2–5 players: the whole game flow with every number, every item, and every fish
//! ability run from the effect lists of the card data (contract §16). This file owns the state,
//! the game's tables and `impl Game`; it must not hold rule steps, views or bots, which live in the
//! modules below.
//!
//! Rules: `rules/deep_regrets/README.md` (binding defaults, scope, engine model) with `sources.md`;
//! engine contract (chance order and weights, decision steps, action ids, labels, observation,
//! canonical state): `docs/games/deep_regrets.md`. Card data:
//! `python/cardtable/data/deep_regrets.json`, embedded and parsed once into static tables (module
//! `data`).
//!
//! Layout: the state is one `Copy` struct of fixed arrays. Fish sets are three `u64` words (one per
//! depth block of 45 ids), dinks / supplies / rods / reels are bit masks, dice pools are counts per
//! die class (Fresh, rolled, payment) or per kind (Spent, to-roll), regrets are counts per value,
//! shoals are fixed stacks of at most 15 fish (bottom first). The continuation of the procedure in
//! progress is a small fixed-capacity stack of tasks (module `flow`); `apply` resolves the node's
//! action, then runs tasks until the next node is reached. Nothing allocates per step.
//!
//! Modules: `actions` (the action ids), `node` (the nodes a state rests at), `flow` (tasks and
//! the day), `legal` (legal actions), `chance` (chance outcomes and the seeded pick), `playout`
//! (the `random` bot's whole game), `apply` (resolving an action), `items` (item readiness and
//! use), `fishing` (the cast's difficulty and payment), `port` (port and shops),
//! `scoring` (the end of the game), `abilities` (the card abilities of §16), `data` (the card
//! data), `view` (canonical state, observation, labels, tensor), [`bots`], and the rule scenarios
//! in `tests`.
//!
//! Readings of the contract where it leaves room (the simplest one, reported to the lead):
//! - `ctx.left` is non-default only while the state rests at one of the nodes that list it
//!   (`muster_select`: null; `reroll_select`: int or null; `muster_keep`, `shop_keep`,
//!   `discard_regret`, `refresh_die`, `set_max`, `peek_*`: the picks still to make); at every
//!   other node (including the `roll` chance nodes that follow a selection) it is 0.
//! - Labels at decision nodes follow the id ranges of §9 whether or not the id is legal now (e.g.
//!   `give the Life Preserver to seat 4` in a 3-player game); `draw_bag` labels substitute the
//!   colour literally: `draw a blue tackle die`, `draw a green tackle die`, `draw a orange tackle
//!   die`.
//! - A `peek` primitive with a row or column target loops `amount` times like a shoal peek (the
//!   data only has amount 1, so `ctx.left` is 1 as the contract says).
//! - `reroll_low` moves only dice whose kind has a face above `at_most` (with the data's
//!   `at_most` = 1 that is every die showing ≤ 1).
//! - At the end of the game everything not named by §8 stays as it was, including `last_turns`,
//!   `passed` and the other day flags.
//! - The victim of a `steal_regret` node is internal (no `ctx` key); only its label names it.
//! - `observation.ctx.cast.difficulty` is the effective difficulty for the casting seat (the
//!   `turn` seat: its rod, front fish and hand), shown to every seat, also while another seat
//!   decides inside an ability.
//!
//! Card abilities (contract §16, module `abilities`): effect lists are interpreted from the data (module
//! `data` parses every list into one table of primitives; `choice`, `coin` and `each` refer to
//! sub-lists by index). Readings where §16 leaves room:
//! - `ctx.cast` stays live from the cast action to the cast end (§16.6 "Cast end" is the only
//!   place that clears it): also at `decline_die`, during the decline's dink draws, the catch
//!   and not-caught lists and the overfishing draw.
//! - Reorder (Rod of the Deep / Infinite): the listed fish stay in the shoal while `reorder` is
//!   asked (the state shows the old order); `ctx.order` lists the fish not yet placed, top first;
//!   when one is left the top of the shoal is rewritten in the chosen order, all face down, and
//!   the shoal leaves every `known` set.
//! - Primitives that move "the ability's fish" (`give_this`, `discard_this`, `mimic`,
//!   `shuffle_back`, `plug`, `swap_beneath`, `hadal_shade`) act only while that fish is where
//!   they expect it (top of the cast's shoal, or the user's hand); otherwise they do nothing.
//! - A cast whose shoal is empty after the reveal list ends there (no `pay` node), like
//!   `end_cast`.
//! - Dumbo Octopus (action 21): `ctx.ability` stays null; the `give_fish` label names the fish
//!   being given.
//! - `move_offer` 16 and `hadal_shade`: the draw event comes first, then the move / the swap.
//! - `draw_dink` with `amount` k is one DrawDinks event of k × (3 with the Centerpin Reel, during
//!   the user's own cast: a reveal / catch / not-caught ability of the cast run for the caster)
//!   dinks.
//! - Free actions taken after the main action come back to `after_main` through its test (the
//!   node again, or EndTurn when no free action is left); the overfishing regret, a sale's foul
//!   regrets, the Dumbo receiver's discards and the empty-sea check all come before that test.
//! - Abandon ship sets `last_turns` (when set) to 4 at `turn` and to 5 at `after_main`, so that
//!   four port actions follow either way ("FOUR actions at Port", contract Decision 22); every
//!   EndTurn then counts down as usual (abandon ship is a free action, so no turn is exempt).
//! - The Can of Worms (41+s) reaches every shoal within the seat's depth, whatever its column
//!   locks; the `worms` node keeps the shoal internally (`ctx.cast` stays null).
//! - Rod of the Dead at a catch: `ignore_catch` is asked after the fish moved to the catcher and
//!   after the overfishing draw was queued (that draw follows either answer); `ctx.ability` is
//!   null while it is asked.
//! - `port_mount` applies to each such fish in hand, in id order, while a slot is empty.
//! - Whispering Skull peeks the sum of the `front_peek` amounts in front; the Iron Coffin uses the
//!   first `front_offer` rule in front.
//! - The Cloche card is in no pile while it holds a fish, and stays out of the piles when its fish
//!   is discarded at the end.
//! - Label of action 20: `{d}` = the cast fish's `worms_difficulty` (outside a cast: the first
//!   such rule of the data).
//!
//! Bot: `greedy` ([`bots`]), a rule-of-thumb player reading only its seat's observation.

// Index loops over the parallel fixed arrays (die classes, kinds, seats) read best as they are.
#![allow(clippy::needless_range_loop)]

mod abilities;
mod actions;
mod apply;
mod chance;
mod data;
mod determinize;
mod events;
mod fishing;
mod flow;
mod items;
mod legal;
mod node;
mod playout;
mod port;
mod scoring;
mod view;

pub mod bots;
#[cfg(test)]
mod tests;

use crate::error::{EngineError, Result};
use crate::game::Game;
use crate::options::OptionValues;
use crate::rng::SplitMix64;
use data::{Data, Item, Tier};
pub use node::Node;

/// Most seats a game can have: its most players.
pub const MAX_SEATS: usize = DeepRegrets::PLAYERS.1;
/// "None" marker for small ids (seat, fish, slot, item, …).
const NONE: u8 = u8::MAX;
/// Die classes `P1 P2 P3 B0 B1 B2 G1 G2 G3 O2 O3 M1 M2 M3 M4`.
const CLASSES: usize = 15;
/// Die kinds P B G O M.
const KINDS: usize = 5;
/// Kind of each class.
const CLASS_KIND: [u8; CLASSES] = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 4, 4];
/// Face of each class.
const CLASS_FACE: [u8; CLASSES] = [1, 2, 3, 0, 1, 2, 1, 2, 3, 2, 3, 1, 2, 3, 4];
/// Die strings of the classes.
const CLASS_NAME: [&str; CLASSES] = [
    "P1", "P2", "P3", "B0", "B1", "B2", "G1", "G2", "G3", "O2", "O3", "M1", "M2", "M3", "M4",
];
/// Kind letters.
const KIND_LETTER: [&str; KINDS] = ["P", "B", "G", "O", "M"];
/// The top face class of each kind.
const TOP_CLASS: [u8; KINDS] = [2, 5, 8, 10, 14];
/// `ctx.slot` of the Cloche (§16.10).
const CLOCHE_SLOT: u8 = 3;
/// Stack capacity of a shoal.
const SHOAL_CAP: usize = 15;
/// Fish ids per depth block.
const BLOCK: usize = 45;
/// Capacity of the task stack.
const STACK_CAP: usize = 48;
/// Shop names in shop order.
const SHOP_NAMES: [&str; 4] = ["rod", "reel", "supply", "tackle"];

/// The classes showing each face 0..=4 (bit c for class c).
const FACE_CLASSES: [u16; 5] = {
    let mut m = [0u16; 5];
    let mut c = 0;
    while c < CLASSES {
        m[CLASS_FACE[c] as usize] |= 1 << c;
        c += 1;
    }
    m
};
/// The top face class of every kind (bit c for class c).
const TOP_CLASSES: u16 = {
    let mut m = 0u16;
    let mut k = 0;
    while k < KINDS {
        m |= 1 << TOP_CLASS[k];
        k += 1;
    }
    m
};

/// Bit i set for every byte i of `w` that is not zero (bit 7 of every such byte, then those
/// bits gathered into the top byte).
#[inline]
fn nonzero_bytes(w: u64) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let high = ((w & LOW7) + LOW7) | w;
    ((high >> 7) & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// The classes with a positive count (bit c for class c), counted a word at a time.
#[inline]
fn class_mask(c: &[u8; CLASSES]) -> u16 {
    let lo = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
    // Bytes 7..15 in one load, byte 7 shifted out.
    let hi = u64::from_le_bytes([c[7], c[8], c[9], c[10], c[11], c[12], c[13], c[14]]) >> 8;
    (nonzero_bytes(lo) | nonzero_bytes(hi) << 8) as u16
}

/// The class of a die of `kind` showing `face`, if any.
fn class_of(kind: usize, face: u32) -> Option<usize> {
    (0..CLASSES).find(|&c| CLASS_KIND[c] as usize == kind && u32::from(CLASS_FACE[c]) == face)
}

/// A set of fish ids: one word per depth block, bit `id mod 45`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FishSet([u64; 3]);

impl FishSet {
    #[inline]
    fn insert(&mut self, f: u8) {
        let f = usize::from(f);
        if f < 3 * BLOCK {
            self.0[f / BLOCK] |= 1u64 << (f % BLOCK);
        }
    }
    #[inline]
    fn remove(&mut self, f: u8) {
        let f = usize::from(f);
        if f < 3 * BLOCK {
            self.0[f / BLOCK] &= !(1u64 << (f % BLOCK));
        }
    }
    #[inline]
    fn contains(&self, f: usize) -> bool {
        f < 3 * BLOCK && self.0[f / BLOCK] >> (f % BLOCK) & 1 == 1
    }
    #[inline]
    fn is_empty(&self) -> bool {
        self.0 == [0; 3]
    }
    #[inline]
    fn count(&self) -> u32 {
        self.0.iter().map(|&w| crate::bits::count(w)).sum()
    }
    #[inline]
    fn and(&self, o: &FishSet) -> FishSet {
        FishSet([self.0[0] & o.0[0], self.0[1] & o.0[1], self.0[2] & o.0[2]])
    }
    /// Calls `f` with every id in increasing order.
    #[inline]
    fn each(&self, mut f: impl FnMut(u8)) {
        for (w, &word) in self.0.iter().enumerate() {
            let mut m = word;
            while m != 0 {
                let b = m.trailing_zeros() as usize;
                m &= m - 1;
                f((w * BLOCK + b) as u8);
            }
        }
    }
}

/// Calls `f` with every set bit of `mask` in increasing order.
#[inline]
fn each_bit(mask: u32, mut f: impl FnMut(u32)) {
    let mut m = mask;
    while m != 0 {
        let b = m.trailing_zeros();
        m &= m - 1;
        f(b);
    }
}

/// The number of dice or cards counted per class in `counts`.
#[inline]
fn total(counts: &[u8]) -> u32 {
    counts.iter().map(|&c| u32::from(c)).sum()
}

crate::game::phases! {
    /// The phase of the day (`setup` before the first Refresh).
    pub enum Phase {
        /// Dealing the shoals.
        Setup,
        /// Refresh phase.
        Refresh,
        /// Declaration phase.
        Declaration,
        /// Actions phase.
        Actions,
        /// The game is over.
        Over,
    }
}

/// Where a used item comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemSrc {
    /// A dink card.
    Dink(u8),
    /// A supply card.
    Supply(u8),
    /// The equipped reel.
    Reel(u8),
    /// The Life Preserver.
    LifePreserver,
}

/// One step of the continuation (what follows the current node); see [`flow`].
// Eight bytes aligned: a task is pushed and popped with one load or store each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(align(8))]
pub(crate) enum Task {
    /// The Start phase of the next day.
    StartDay,
    /// Muster of the i-th seat in turn order (Refresh phase).
    RefreshSeat(u8),
    /// The Life Preserver gift.
    GiveLifePreserver,
    /// The Declaration phase begins.
    Declaration,
    /// Declaration of the i-th seat in turn order.
    DeclareSeat(u8),
    /// Rod choice of a seat.
    EquipRod(u8),
    /// Reel choice of a seat.
    EquipReel(u8),
    /// The Actions phase begins.
    Actions,
    /// The `turn` seat arrives.
    Arrive,
    /// The turn passes on.
    Advance,
    /// The day ends.
    DayEnd,
    /// After the main action: the `after_main` node if a free action is possible, else EndTurn.
    AfterMain(u8),
    /// Muster step 1.
    MusterStart(u8),
    /// Muster steps 2–3.
    MusterRoll(u8),
    /// Muster step 4.
    MusterKeep(u8),
    /// MakePort after its muster.
    MakePortAfter(u8),
    /// Draw regrets (seat, count).
    DrawRegrets(u8, u8),
    /// Draw dinks (seat, count).
    DrawDinks(u8, u8),
    /// Card shop draws (seat, count left).
    ShopDraw(u8, u8),
    /// Card shop keep step (seat, tier keep).
    ShopKeep(u8, u8),
    /// Tackle dice draws (seat, count left).
    TackleDraw(u8, u8),
    /// The empty-sea check.
    SeaCheck,
    /// An effect list from its `idx`-th primitive (user, list id, idx).
    Effects(u8, u16, u8),
    /// `each`: the i-th seat in turn order from the user (user, list, group mask, i).
    EachSeat(u8, u16, u8, u8),
    /// Sets `ctx.ability` (fish or NONE, trigger).
    Ability(u8, u8),
    /// One regret draw event (seat, k).
    DrawEvent(u8, u8),
    /// `increment` loop.
    IncrementLoop(u8, u8),
    /// `take_supply` loop.
    TakeSupply(u8, u8),
    /// Cast §16.5 steps 4–5.
    CastReveal(u8),
    /// Cast §16.5 step 6.
    CastAbility(u8),
    /// Cast §16.5 step 7 (or the cast end).
    CastAfterReveal(u8),
    /// The catch of the cast fish (§16.6).
    Catch(u8),
    /// The overfishing draw after a catch that emptied the shoal.
    Overfish(u8),
    /// The not-caught list after a decline (§16.6), for a fish this cast revealed whose reveal
    /// ability the Rod of the Dead did not ignore (Decision 37); else nothing.
    NotCaught(u8),
    /// The cast ends.
    CastEnd(u8),
    /// `deal_regrets`: the i-th other seat gets a card of the pool.
    DealPool(u8, u8),
    /// `give_regrets`: the i-th other seat gets one of the user's regrets.
    GiveRegretsLoop(u8, u8),
    /// `receive_regrets`: the i-th other seat gives the user one regret.
    ReceiveRegretsLoop(u8, u8),
    /// A seat moves to a depth.
    SetDepth(u8, u8),
    /// The Hadal Shade swap (user, seat, slot).
    HadalSwap(u8, u8, u8),
    /// `reveal` `any`: the `reveal_shoal` node while a shoal can be revealed.
    RevealAny(u8),

    /// `discard_regret` loop.
    DiscardRegretLoop(u8, u8),
    /// `discard_random_regret` loop.
    DiscardRandomLoop(u8, u8),
    /// `refresh` loop.
    RefreshLoop(u8, u8),
    /// `set_max` loop.
    SetMaxLoop(u8, u8),
    /// `peek` loop (seat, target, count).
    PeekLoop(u8, data::PeekTarget, u8),
    /// Back to the `turn` or `pay` node after an item use (`after_main`: its test again).
    ReturnTo(Node, u8),
    /// Resolves the catch list of a caught fish (the `ignore_catch` node was answered 16).
    CatchList(u8, u8),
}

/// One seat's private and public holdings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seat {
    /// Money in dollars, 0..=10 (every gain is capped at the data's `money_cap`).
    money: u8,
    /// 0 = in port, 1..=3 = the depth of the boat at sea.
    depth: u8,
    /// Regret cards held: copies of each value 0..3.
    regrets: [u8; 4],
    /// Fresh dice: count per die class (`P1 P2 P3 B0 … M4`, see `CLASSES`).
    fresh: [u8; CLASSES],
    /// Spent dice (no face): count per kind P B G O M.
    spent: [u8; KINDS],
    /// Fish in hand (not the ones in front, mounted or on the Cloche).
    hand: FishSet,
    /// The fish mounted in slots 0..2 (NONE = empty slot).
    mounted: [u8; 3],
    /// Dinks held: bit d for dink id d.
    dinks: u32,
    /// Supplies held: bit i for supply id i (the Cloche while it holds a fish is not here).
    supplies: u32,
    /// Rods owned: bit r for rod id r.
    rods: u32,
    /// Reels owned: bit r for reel id r.
    reels: u32,
    /// The equipped rod's id (NONE = none); changes only at the Declaration phase.
    rod: u8,
    /// The equipped reel's id (NONE = none); changes only at the Declaration phase.
    reel: u8,
    /// The Can of Worms is face up (usable: action 41+s).
    worms: bool,
    /// The seat has abandoned ship (once a game; adds `lifeboat_regret_value` to its Regret Value).
    lifeboat_used: bool,
    /// The seat has passed this day (reset in the Start phase).
    passed: bool,
    /// The equipped reel has been used this day.
    reel_used: bool,
    /// The seat has caught a fish this day (a rod's `first_catch` difficulty applies until then).
    caught_today: bool,
    /// Shops used this day, in shop order rod, reel, supply, tackle.
    shops_used: [bool; 4],
    /// Fish in front of the seat (§16.2): public, applying their `front_*` rules.
    front: FishSet,
    /// Column locks: bit c for column c; casts only at a column in every lock (two: nowhere).
    locks: u8,
    /// The fish on the seat's Cloche (NONE = the Cloche holds no fish).
    cloche: u8,
    /// The Whispering Skull (action 22) has been used this turn.
    skull_used: bool,
    /// The Iron Coffin (action 23) has been used this turn.
    coffin_used: bool,
}

impl Seat {
    fn new() -> Self {
        Seat {
            money: 0,
            depth: 1,
            regrets: [0; 4],
            fresh: [0; CLASSES],
            spent: [3, 0, 0, 0, 0],
            hand: FishSet::default(),
            mounted: [NONE; 3],
            dinks: 0,
            supplies: 0,
            rods: 0,
            reels: 0,
            rod: NONE,
            reel: NONE,
            worms: true,
            lifeboat_used: false,
            passed: false,
            reel_used: false,
            caught_today: false,
            shops_used: [false; 4],
            front: FishSet::default(),
            locks: 0,
            cloche: NONE,
            skull_used: false,
            coffin_used: false,
        }
    }
    #[inline]
    fn regret_count(&self) -> u32 {
        total(&self.regrets)
    }
    /// The classes with a Fresh die (bit c for class c).
    #[inline]
    fn fresh_mask(&self) -> u16 {
        class_mask(&self.fresh)
    }
    #[inline]
    fn fresh_count(&self) -> u32 {
        total(&self.fresh)
    }
    /// Whether the seat has a Fresh die (`fresh_count() > 0`, without the sum).
    #[inline]
    fn has_fresh(&self) -> bool {
        self.fresh != [0; CLASSES]
    }
    /// Whether the seat holds a regret (`regret_count() > 0`, without the sum).
    #[inline]
    fn has_regret(&self) -> bool {
        self.regrets != [0; 4]
    }
    /// Whether the seat has a Spent die (`spent_count() > 0`, without the sum).
    #[inline]
    fn has_spent(&self) -> bool {
        self.spent != [0; KINDS]
    }
    #[inline]
    fn fresh_total(&self) -> u32 {
        self.fresh
            .iter()
            .zip(CLASS_FACE)
            .map(|(&c, f)| u32::from(c) * u32::from(f))
            .sum()
    }
    #[inline]
    fn regret_value(&self) -> u32 {
        self.regrets
            .iter()
            .enumerate()
            .map(|(v, &c)| v as u32 * u32::from(c))
            .sum()
    }
}

/// The full state of a game of Deep Regrets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeepRegretsState {
    /// The weekday, 1 = Monday .. 6 = Saturday (the first day is 1, or 2 with `days = 5`).
    day: u8,
    /// The phase of the day (`Setup` while dealing, `Over` once the game has ended).
    phase: Phase,
    /// The kind of the node the state rests at.
    node: Node,
    /// The node's seat (decider, or owner / drawer at a chance node); NONE at `deal` and `over`.
    actor: u8,
    /// Actions phase: the seat whose turn (or skip) it is; NONE outside it.
    turn: u8,
    /// The day's first seat in turn order (0 on the first day, +1 mod n each Start phase).
    first_player: u8,
    /// Turns left to the last seat not passed (2 when the second-last passes, 4 after abandon
    /// ship); each EndTurn counts it down and the day ends at 0. NONE = null.
    last_turns: u8,
    /// The seat holding the Life Preserver this day (NONE = in the supply).
    life_preserver: u8,
    /// The nine shoals s = 0..8 (depth s div 3 + 1, column s mod 3): fish ids bottom first, the
    /// top at `shoal_len[s] - 1`.
    shoals: [[u8; SHOAL_CAP]; 9],
    /// The number of fish in each shoal (0 = empty).
    shoal_len: [u8; 9],
    /// Bit s: the top of shoal s is face up.
    face_up: u16,
    /// Per seat, bit s: the seat has peeked at the face-down top of shoal s (cleared when that
    /// top changes or turns face up).
    known: [u16; MAX_SEATS],
    /// Fish that entered a hand unseen by the other seats (the shoal's face-down top taken by
    /// `swap_beneath`), until they enter a hand in view again; only the determinizer reads it
    /// (a fish of another seat's hand in this set is re-dealt for an observer). Derived from
    /// the history, so it is not part of the canonical state.
    unseen_hand: FishSet,
    /// The fish discard pile of each depth I..III (by fish id div 45), in discard order.
    fish_discard: [[u8; BLOCK]; 3],
    /// The number of fish in each depth's discard pile (`fish_discard[d][..discard_len[d]]`).
    discard_len: [u8; 3],
    /// In-play fish not yet dealt to a shoal: the outcomes of the setup `deal` node.
    deal_left: FishSet,
    /// The regret deck: copies of each value 0..3.
    regret_deck: [u8; 4],
    /// The regret discard pile: copies of each value 0..3 (moved into an empty deck at a draw).
    regret_discard: [u8; 4],
    /// Tackle dice in the bag: counts of B, G, O.
    bag: [u8; 3],
    /// The dink deck: bit d for dink id d (decks are unordered).
    dink_deck: u32,
    /// The dink discard pile: bit d for dink id d.
    dink_discard: u32,
    /// The supply deck: bit i for supply id i.
    supply_deck: u32,
    /// The supply discard pile: bit i for supply id i.
    supply_discard: u32,
    /// The rod deck: bit r for rod id r.
    rod_deck: u32,
    /// The rod discard pile: bit r for rod id r.
    rod_discard: u32,
    /// The reel deck: bit r for reel id r.
    reel_deck: u32,
    /// The reel discard pile: bit r for reel id r.
    reel_discard: u32,
    /// Every seat's holdings, index = seat (entries n.. unused).
    seats: [Seat; MAX_SEATS],
    /// `ctx` (§11.1, §16.12) from here to `cast_revealed` except `plug`. `ctx.to_roll`: dice
    /// waiting to be rolled by `actor`, count per kind; the first kind rolls next.
    to_roll: [u8; KINDS],
    /// `ctx.rolled`: Muster dice rolled and waiting for the keep step, count per die class.
    rolled: [u8; CLASSES],
    /// `ctx.left`: picks still to make at the current node, this one included (NONE at
    /// `reroll_select` = no limit); read only at the nodes that list it (§11.1, §16.12).
    left: u8,
    /// `ctx.cast` is live: from the cast action until the cast end.
    cast_on: bool,
    /// `ctx.cast.shoal`: the shoal 0..8 cast at (read only while `cast_on`).
    cast_shoal: u8,
    /// `ctx.cast.reduction`: the sum of the `difficulty` amounts used in this cast (≤ 0).
    cast_reduction: i8,
    /// `ctx.cast.zero`: a `difficulty_zero` was used, so the effective difficulty is 0.
    cast_zero: bool,
    /// `ctx.cast.payment`: dice put into the payment (they left Fresh), count per die class.
    payment: [u8; CLASSES],
    /// `ctx.peek`: the fish shown at the `worms` or `reveal_beneath` node (NONE = null).
    peek: u8,
    /// `ctx.shop.shop`: the card shop drawing or keeping, 0 rod, 1 reel, 2 supply (NONE = null).
    shop: u8,
    /// `ctx.shop.drawn`: the card shop's unkept card ids in draw order (`drawn_len` of them).
    drawn: [u8; 5],
    /// The number of live entries of `drawn`.
    drawn_len: u8,
    /// `ctx.count`: fish sold so far in this sell action, or mounted so far in this mount action.
    count: u8,
    /// `ctx.foul`: foul fish sold so far in this sell action (one regret each after the sale).
    foul: u8,
    /// `ctx.slot`: the slot 0..2 the `mount_fish` node fills, 3 = the Cloche (NONE = null).
    slot: u8,
    /// `ctx.discount`: pending shop discount in dollars, from its use until a shop, pass or
    /// the turn's end.
    discount: u8,
    /// `ctx.item`: the item whose use is running (None = null).
    item: Option<ItemSrc>,
    /// The Plug lies on the table (state key `plug`, not `ctx`): every turn then discards the
    /// top of the first non-empty shoal. Never cleared.
    plug: bool,
    /// `ctx.ability.fish`: the fish whose effect list runs (NONE = null; an outer one waits on
    /// the stack as `Task::Ability`).
    ability_fish: u8,
    /// `ctx.ability.trigger`: 0 reveal, 1 catch, 2 eat, 3 not_caught (read only while
    /// `ability_fish` is not NONE).
    ability_trigger: u8,
    /// `ctx.pool` is live (`deal_regrets`): regret draws go into `pool` instead of the hand.
    pool_on: bool,
    /// `ctx.pool`: the regrets drawn by `deal_regrets` not yet given, copies of each value 0..3.
    pool: [u8; 4],
    /// `ctx.target`: the seat that receives at `give_regret` (`receive_regrets`: the user), or
    /// the Iron Coffin's chosen seat (NONE = null).
    target: u8,
    /// `ctx.offer`: regrets offered by the Iron Coffin so far, copies of each value 0..3.
    offer: [u8; 4],
    /// `ctx.order`: the reordered fish not yet placed, top first (`order_len` of them).
    order: [u8; 3],
    /// The number of live entries of `order` (0 = no reorder).
    order_len: u8,
    /// `ctx.cast.base`: the difficulty set by `set_difficulty` or the Can of Worms flip
    /// (None = the printed difficulty).
    cast_base: Option<i8>,
    /// `ctx.cast.beneath`: the second fish of the cast's shoal seen by `peek_beneath`, shown to
    /// the caster only (NONE = null).
    cast_beneath: u8,
    /// `ctx.cast.ignored`: the Rod of the Dead ignored this cast's reveal ability (its
    /// `reveal` list and, on decline, its `not_caught` list: Decision 37).
    cast_ignored: bool,
    /// `ctx.cast.revealed`: this cast turned the top of its shoal face up (it was face down,
    /// §16.5 step 4), so its reveal list and, on decline, its not-caught list may run.
    cast_revealed: bool,
    /// Internal continuation (no `ctx` key) from here to `stack_len`. The `turn` seat has taken
    /// this turn's main action (free actions return to `after_main`).
    main_done: bool,
    /// The shoal of a Can of Worms use (the `worms` node).
    worms_shoal: u8,
    /// The caught fish while `ignore_catch` is asked.
    catch_fish: u8,
    /// The fish at the top of the cast's shoal after the reveal step.
    cast_fish: u8,
    /// 0 = the cast goes on, 1 = it ends, 2 = it ends as a free cast.
    cast_end: u8,
    /// Fish already put back by a reorder, top first.
    chosen: [u8; 3],
    /// The number of live entries of `chosen`.
    chosen_len: u8,
    /// The two lists of a pending `choice` or `coin`.
    branch: (u16, u16),
    /// The size filter of a `discard_fish` node (3 = any).
    fish_size: u8,
    /// The fish of a `give_fish` node.
    give_fish: u8,
    /// The `give_fish` fish comes from the giver's hand (Dumbo Octopus, action 21), not from the
    /// top of the cast's shoal (`give_this`).
    give_from_hand: bool,
    /// Regrets the Dumbo receiver discards.
    give_discard: u8,
    /// The depth a `move_offer` node moves to.
    move_depth: u8,
    /// The regrets drawn on accepting a `move_offer` node (one draw event).
    move_regrets: u8,
    /// The fish outside the sea during `shuffle_back`.
    shuffle_fish: u8,
    /// The regret count of a `hadal_shade` node.
    hadal_regrets: u8,
    /// Iron Coffin: most regrets to offer.
    offer_max: u8,
    /// Iron Coffin: dice the target refreshes on accepting.
    offer_refresh: u8,
    /// A `roll` outcome joins `rolled` (Muster step 3) rather than the actor's Fresh pool.
    roll_to_rolled: bool,
    /// At `roll_high`: only faces above this (`reroll_low`'s `at_most`) are outcomes.
    roll_above: u8,
    /// The seat a `steal_regret` node takes a regret from (NONE otherwise); only its label
    /// names it.
    victim: u8,
    /// The continuation: tasks still to run after the node, bottom first (the next one last).
    stack: [Task; STACK_CAP],
    /// The number of live tasks on `stack`.
    stack_len: u8,
    /// The game is over; the fields below (`end` in the state) hold its results.
    ended: bool,
    /// Per seat, the Regret Value: the sum of its regret values (+ the lifeboat's value if used).
    regret_values: [u8; MAX_SEATS],
    /// Per seat, the mounted fish lost for having the highest Regret Value (NONE = none).
    discarded: [u8; MAX_SEATS],
    /// Per seat, the Cloche fish lost for having the highest Regret Value (NONE = none).
    cloche_discarded: [u8; MAX_SEATS],
    /// Per seat, the final score (0 until the game is over).
    final_scores: [i16; MAX_SEATS],
}

impl DeepRegretsState {
    #[inline]
    fn push(&mut self, t: Task) {
        let i = usize::from(self.stack_len);
        debug_assert!(i < STACK_CAP, "task stack overflow");
        if i < STACK_CAP {
            self.stack[i] = t;
            self.stack_len += 1;
        }
    }
    /// The task [`Self::pop`] would pop, left on the stack.
    #[inline]
    fn top(&self) -> Option<Task> {
        let len = usize::from(self.stack_len);
        len.checked_sub(1).and_then(|i| self.stack.get(i)).copied()
    }
    #[inline]
    fn pop(&mut self) -> Option<Task> {
        if self.stack_len == 0 {
            return None;
        }
        self.stack_len -= 1;
        Some(self.stack[usize::from(self.stack_len)])
    }
    #[inline]
    fn top_fish(&self, s: usize) -> Option<u8> {
        let len = usize::from(self.shoal_len[s]);
        if len == 0 {
            None
        } else {
            Some(self.shoals[s][len - 1])
        }
    }
    #[inline]
    fn sea_empty(&self) -> bool {
        self.shoal_len.iter().all(|&l| l == 0)
    }
    /// Removes shoal `s` from every seat's known set (its top changed or turned face up).
    #[inline]
    fn forget(&mut self, s: usize) {
        let m = !(1u16 << s);
        for k in self.known.iter_mut() {
            *k &= m;
        }
    }
    /// Removes the top of shoal `s` (the next top is face down).
    fn take_top(&mut self, s: usize) -> u8 {
        let len = usize::from(self.shoal_len[s]);
        let f = if len > 0 {
            self.shoals[s][len - 1]
        } else {
            NONE
        };
        if len > 0 {
            self.shoal_len[s] -= 1;
        }
        self.face_up &= !(1u16 << s);
        self.forget(s);
        f
    }
    /// Puts `f` under the cards of shoal `s`.
    fn put_bottom(&mut self, s: usize, f: u8) {
        let len = usize::from(self.shoal_len[s]);
        if len < SHOAL_CAP {
            self.shoals[s].copy_within(0..len, 1);
            self.shoals[s][0] = f;
            self.shoal_len[s] += 1;
        }
    }
    /// Fish `f` goes to the discard pile of its own depth (id div 45), wherever it lay: the
    /// Mimic Octopus can put a fish of another depth on a shoal.
    fn discard_fish(&mut self, f: u8) {
        let d = (usize::from(f) / BLOCK).min(2);
        let i = usize::from(self.discard_len[d]);
        if i < BLOCK {
            self.fish_discard[d][i] = f;
            self.discard_len[d] += 1;
        }
    }
    /// Spends one Fresh die of class `c` (P/M to Spent, tackle to the bag).
    fn spend(&mut self, p: usize, c: usize) {
        if self.seats[p].fresh[c] == 0 {
            return;
        }
        self.seats[p].fresh[c] -= 1;
        self.release(p, c);
    }
    /// A die of class `c` that left Fresh (or the payment) is spent.
    fn release(&mut self, p: usize, c: usize) {
        let k = usize::from(CLASS_KIND[c]);
        if k == 0 || k == 4 {
            self.seats[p].spent[k] += 1;
        } else {
            self.bag[k - 1] += 1;
        }
    }
    /// The non-empty shoals (bit s for shoal s).
    #[inline]
    fn nonempty(&self) -> u16 {
        let mut m = 0u16;
        for s in 0..9 {
            m |= u16::from(self.shoal_len[s] > 0) << s;
        }
        m
    }
    #[inline]
    fn peekable(&self, p: usize) -> u16 {
        self.nonempty() & !self.face_up & !self.known[p]
    }
    /// The node a free action comes back to: `after_main` once the turn's main action is taken,
    /// else `turn`.
    #[inline]
    fn free_return(&self) -> Node {
        if self.main_done {
            Node::AfterMain
        } else {
            Node::Turn
        }
    }
    fn reset_ctx(&mut self) {
        self.to_roll = [0; KINDS];
        self.rolled = [0; CLASSES];
        self.left = 0;
        self.cast_on = false;
        self.cast_shoal = 0;
        self.cast_reduction = 0;
        self.cast_zero = false;
        self.payment = [0; CLASSES];
        self.peek = NONE;
        self.shop = NONE;
        self.drawn_len = 0;
        self.count = 0;
        self.foul = 0;
        self.slot = NONE;
        self.discount = 0;
        self.item = None;
        self.ability_fish = NONE;
        self.ability_trigger = 0;
        self.pool_on = false;
        self.pool = [0; 4];
        self.target = NONE;
        self.offer = [0; 4];
        self.order_len = 0;
        self.cast_base = None;
        self.cast_beneath = NONE;
        self.cast_ignored = false;
        self.cast_revealed = false;
    }
}

/// Deep Regrets with fixed player count and options.
#[derive(Clone, Debug)]
pub struct DeepRegrets {
    players: usize,
    days: u8,
    data: &'static Data,
    /// Fish in play.
    in_play: FishSet,
    /// In-play fish that can be sold or mounted.
    sellable: FishSet,
    /// Foul fish.
    foul_set: FishSet,
    /// Fish per shoal.
    per_shoal: u8,
    /// Madness tier index by regret count (capped at 13).
    tier_of: [u8; 14],
    /// Roll outcomes per kind: (face, weight) pairs, `roll_len` of them.
    roll_faces: [[(u8, u8); 4]; KINDS],
    roll_len: [u8; KINDS],
    /// The four faces of each kind, ascending (a seeded roll picks `sorted_faces[k][below(4)]`).
    sorted_faces: [[u8; 4]; KINDS],
    /// The `regret_split` copies of values 0..3.
    regret_copies: [u8; 4],
    /// Readiness requirement masks of every item's uses (see `items::use_req`).
    req_dink: [[u32; 2]; data::DINK_COUNT],
    req_supply: [[u32; 2]; data::SUPPLY_COUNT],
    req_reel: [[u32; 2]; data::REEL_COUNT],
    req_lp: [u32; 2],
    /// The flags the dinks and the supplies can need, and the ones ready on a set of flags
    /// (`req_dink` and `req_supply` in tables by byte).
    dink_ready: items::ReadyTable,
    supply_ready: items::ReadyTable,
    /// Fish with a `give_away_action` rule.
    give_away_set: FishSet,
    /// Fish with an Eat ability (a non-empty `eat` list): only these can be eaten.
    eat_set: FishSet,
    /// Fish with a `front_peek` amount above 0.
    front_peek_set: FishSet,
    /// Fish with a `front_offer` rule.
    front_offer_set: FishSet,
    /// Fish with a `front_difficulty` rule.
    front_difficulty_set: FishSet,
    /// The supply id of the Cloche (NONE if missing).
    cloche_supply: u8,
    /// The effective options.
    option_values: OptionValues,
}

crate::options::game_options! {
    /// The options of Deep Regrets, as read for [`Game::with_options`].
    #[players(2..=5)]
    pub struct DeepRegretsOptions {
        /// 6 = Monday..Saturday; 5 = the short game starting on Tuesday
        days: int(6, 5, 6),
        /// copies of regret values 0/1/2/3 in the 60-card regret deck
        regret_split: choice(SPLITS[0], &SPLITS),
        /// add the 18 Lamentable Tentacles fish (6 per depth) to the sea
        expansion_tentacles: bool(false),
    }
}

/// The accepted `regret_split` strings.
const SPLITS: [&str; 2] = ["6/24/20/10", "10/20/20/10"];

impl DeepRegrets {
    /// The first day (1 = Monday, or 2 with `days = 5`).
    fn first_day(&self) -> u8 {
        7 - self.days
    }
    #[inline]
    fn n(&self) -> usize {
        self.players
    }
    #[inline]
    fn tier(&self, st: &DeepRegretsState, p: usize) -> &Tier {
        let c = st.seats[p].regret_count().min(13) as usize;
        &self.data.madness[usize::from(self.tier_of[c])]
    }
    #[inline]
    fn max_fresh(&self, st: &DeepRegretsState, p: usize) -> u32 {
        u32::from(self.tier(st, p).max_fresh)
    }
    /// Whether seat `p` has fewer Fresh dice than its max (§2.1 `refresh`, §7.6), counting the
    /// dice `p` has put into its cast's payment (Decision 87: "It is enforced when dice are added
    /// (muster, shop, refresh effects)"; a payment die is spent only when the fish is paid for).
    #[inline]
    fn fresh_below_max(&self, st: &DeepRegretsState, p: usize) -> bool {
        let paying = if st.cast_on && usize::from(st.turn) == p {
            total(&st.payment)
        } else {
            0
        };
        st.seats[p].fresh_count() + paying < self.max_fresh(st, p)
    }
    /// value(f, p) of the contract.
    #[inline]
    fn value(&self, st: &DeepRegretsState, f: usize, p: usize) -> i32 {
        let Some(fish) = self.data.fish.get(f) else {
            return 0;
        };
        match fish.value {
            None => 0,
            Some(_) if fish.fixed3 => 3,
            Some(v) => {
                let t = self.tier(st, p);
                let m = if fish.foul { t.foul } else { t.fair };
                (i32::from(v) + i32::from(m)).max(0)
            }
        }
    }
    fn gain(&self, st: &mut DeepRegretsState, p: usize, amount: i32) {
        let m = (i32::from(st.seats[p].money) + amount).clamp(0, i32::from(self.data.money_cap));
        st.seats[p].money = m as u8;
    }
    /// The item behind `src`.
    fn item(&self, src: ItemSrc) -> &'static Item {
        let d = self.data;
        let get = |v: &'static Vec<Item>, i: u8| v.get(usize::from(i)).unwrap_or(&d.life_preserver);
        match src {
            ItemSrc::Dink(i) => get(&d.dinks, i),
            ItemSrc::Supply(i) => get(&d.supplies, i),
            ItemSrc::Reel(i) => get(&d.reels, i),
            ItemSrc::LifePreserver => &d.life_preserver,
        }
    }
    /// Dinks drawn per "draw a dink" event of seat `p`; `own_cast`: the draw is part of p's own
    /// cast (the Centerpin Reel counts only then).
    fn dinks_per_draw(&self, st: &DeepRegretsState, p: usize, own_cast: bool) -> u8 {
        let r = st.seats[p].reel;
        if r == NONE {
            return 1;
        }
        self.data
            .reels
            .get(usize::from(r))
            .filter(|i| own_cast || !i.dink_draw_own_cast)
            .and_then(|i| i.dink_draw)
            .unwrap_or(1)
    }
    fn fish_name(&self, f: usize) -> &'static str {
        self.data.fish.get(f).map_or("?", |x| x.name.as_str())
    }
    /// The size (0 s, 1 m, 2 l) of shoal `s`'s top card, face up or face down ("the card back
    /// shows the size silhouette", Decision 86); `None` when the shoal is empty.
    fn top_size(&self, st: &DeepRegretsState, s: usize) -> Option<u8> {
        st.top_fish(s)
            .and_then(|f| self.data.fish.get(usize::from(f)))
            .map(|x| x.size)
    }
}

impl Game for DeepRegrets {
    type State = DeepRegretsState;
    const ID: &'static str = "deep_regrets";
    /// Greedy playouts and opponents: random playouts win 1 of 12 games against `greedy`, greedy
    /// ones 8 (`docs/search.md`).
    const SEARCH_DEFAULTS: &'static str = "rollout=greedy,opponents=rollout";
    type Options = DeepRegretsOptions;

    fn with_options(players: usize, options: Self::Options, values: OptionValues) -> Result<Self> {
        let data = data::data().map_err(|e| {
            EngineError::InvalidState(format!("{}: the card data is broken: {e}", Self::ID))
        })?;
        let mut in_play = FishSet::default();
        let mut sellable = FishSet::default();
        let mut foul_set = FishSet::default();
        let mut give_away_set = FishSet::default();
        let mut eat_set = FishSet::default();
        let mut front_peek_set = FishSet::default();
        let mut front_offer_set = FishSet::default();
        let mut front_difficulty_set = FishSet::default();
        for (i, f) in data.fish.iter().enumerate() {
            let id = i as u8;
            if f.rules.give_away.is_some() {
                give_away_set.insert(id);
            }
            if f.eat != 0 {
                eat_set.insert(id);
            }
            if f.rules.front_peek > 0 {
                front_peek_set.insert(id);
            }
            if f.rules.front_offer.is_some() {
                front_offer_set.insert(id);
            }
            if f.rules.front_difficulty.is_some() {
                front_difficulty_set.insert(id);
            }
            if f.base || options.expansion_tentacles {
                in_play.insert(id);
                if f.sellable() {
                    sellable.insert(id);
                }
            }
            if f.foul {
                foul_set.insert(id);
            }
        }
        let mut tier_of = [0u8; 14];
        for (c, t) in tier_of.iter_mut().enumerate() {
            *t = data
                .madness
                .iter()
                .rposition(|m| usize::from(m.min_regrets) <= c)
                .unwrap_or(0) as u8;
        }
        let mut sorted_faces = data.faces;
        for f in sorted_faces.iter_mut() {
            f.sort_unstable();
        }
        let mut roll_faces = [[(0u8, 0u8); 4]; KINDS];
        let mut roll_len = [0u8; KINDS];
        for k in 0..KINDS {
            let mut faces = data.faces[k];
            faces.sort_unstable();
            for f in faces {
                let l = usize::from(roll_len[k]);
                if l > 0 && roll_faces[k][l - 1].0 == f {
                    roll_faces[k][l - 1].1 += 1;
                } else {
                    roll_faces[k][l] = (f, 1);
                    roll_len[k] += 1;
                }
            }
        }
        let regret_copies = data
            .regret_decks
            .iter()
            .find(|(k, _)| k == SPLITS[options.regret_split])
            .map(|(_, c)| *c)
            .ok_or_else(|| EngineError::InvalidState("regret split missing in the data".into()))?;
        let bad = || EngineError::InvalidState("the item uses do not fit the tables".into());
        let mut req_dink = [[0u32; 2]; data::DINK_COUNT];
        for (r, i) in req_dink.iter_mut().zip(&data.dinks) {
            *r = items::item_reqs(i).ok_or_else(bad)?;
        }
        let mut req_supply = [[0u32; 2]; data::SUPPLY_COUNT];
        for (r, i) in req_supply.iter_mut().zip(&data.supplies) {
            *r = items::item_reqs(i).ok_or_else(bad)?;
        }
        let mut req_reel = [[0u32; 2]; data::REEL_COUNT];
        for (r, i) in req_reel.iter_mut().zip(&data.reels) {
            *r = items::item_reqs(i).ok_or_else(bad)?;
        }
        let req_lp = items::item_reqs(&data.life_preserver).ok_or_else(bad)?;
        let cloche_supply = data
            .supplies
            .iter()
            .position(|i| i.uses.iter().any(|u| u.contains(&data::Prim::Cloche)))
            .map_or(NONE, |i| i as u8);
        Ok(Self {
            cloche_supply,
            req_dink,
            req_supply,
            req_reel,
            req_lp,
            dink_ready: items::ReadyTable::new(&req_dink).ok_or_else(bad)?,
            supply_ready: items::ReadyTable::new(&req_supply).ok_or_else(bad)?,
            give_away_set,
            eat_set,
            front_peek_set,
            front_offer_set,
            front_difficulty_set,
            players,
            days: options.days as u8,
            data,
            in_play,
            sellable,
            foul_set,
            per_shoal: if options.expansion_tentacles { 15 } else { 13 },
            tier_of,
            roll_faces,
            roll_len,
            sorted_faces,
            regret_copies,
            option_values: values,
        })
    }

    fn initial_state(&self) -> DeepRegretsState {
        let d = self.data;
        let full = |n: usize| ((1u64 << n) - 1) as u32;
        DeepRegretsState {
            day: self.first_day(),
            phase: Phase::Setup,
            node: Node::Deal,
            actor: NONE,
            turn: NONE,
            first_player: 0,
            last_turns: NONE,
            life_preserver: NONE,
            shoals: [[0; SHOAL_CAP]; 9],
            shoal_len: [0; 9],
            face_up: 0,
            known: [0; MAX_SEATS],
            unseen_hand: FishSet::default(),
            fish_discard: [[0; BLOCK]; 3],
            discard_len: [0; 3],
            deal_left: self.in_play,
            regret_deck: self.regret_copies,
            regret_discard: [0; 4],
            bag: [d.dice_count[1], d.dice_count[2], d.dice_count[3]],
            dink_deck: full(d.dinks.len()),
            dink_discard: 0,
            supply_deck: full(d.supplies.len()),
            supply_discard: 0,
            rod_deck: full(d.rods.len()),
            rod_discard: 0,
            reel_deck: full(d.reels.len()),
            reel_discard: 0,
            seats: [Seat::new(); MAX_SEATS],
            to_roll: [0; KINDS],
            rolled: [0; CLASSES],
            left: 0,
            cast_on: false,
            cast_shoal: 0,
            cast_reduction: 0,
            cast_zero: false,
            payment: [0; CLASSES],
            peek: NONE,
            shop: NONE,
            drawn: [0; 5],
            drawn_len: 0,
            count: 0,
            foul: 0,
            slot: NONE,
            discount: 0,
            item: None,
            plug: false,
            ability_fish: NONE,
            ability_trigger: 0,
            pool_on: false,
            pool: [0; 4],
            target: NONE,
            offer: [0; 4],
            order: [0; 3],
            order_len: 0,
            cast_base: None,
            cast_beneath: NONE,
            cast_ignored: false,
            cast_revealed: false,
            main_done: false,
            worms_shoal: NONE,
            catch_fish: NONE,
            cast_fish: NONE,
            cast_end: 0,
            chosen: [0; 3],
            chosen_len: 0,
            branch: (0, 0),
            fish_size: 3,
            give_fish: NONE,
            give_from_hand: false,
            give_discard: 0,
            move_depth: 0,
            move_regrets: 0,
            shuffle_fish: NONE,
            hadal_regrets: 0,
            offer_max: 0,
            offer_refresh: 0,
            roll_to_rolled: false,
            roll_above: 0,
            victim: NONE,
            stack: [Task::SeaCheck; STACK_CAP],
            stack_len: 0,
            ended: false,
            regret_values: [0; MAX_SEATS],
            discarded: [NONE; MAX_SEATS],
            cloche_discarded: [NONE; MAX_SEATS],
            final_scores: [0; MAX_SEATS],
        }
    }

    fn current_player(&self, st: &DeepRegretsState) -> i32 {
        if st.node == Node::Over {
            crate::game::TERMINAL
        } else if st.node.is_chance() {
            crate::game::CHANCE
        } else {
            i32::from(st.actor)
        }
    }

    fn legal_actions(&self, st: &DeepRegretsState, out: &mut Vec<u32>) {
        out.clear();
        if st.node.is_chance() {
            self.chance_each(st, |o, _| out.push(o));
        } else {
            self.legal(st, out);
        }
    }

    fn chance_outcomes(&self, st: &DeepRegretsState, out: &mut Vec<(u32, u64)>) {
        out.clear();
        if st.node.is_chance() {
            self.chance_each(st, |o, w| out.push((o, w)));
        }
    }

    fn sample_chance(
        &self,
        st: &DeepRegretsState,
        rng: &mut SplitMix64,
        _buf: &mut Vec<(u32, u64)>,
    ) -> u32 {
        self.sample(st, rng)
    }

    /// The element of rank `rng.below(len)` of the legal list, as the default draws it; the
    /// nodes whose list is a few fixed ids and a bit set draw without building it.
    // Inlined into the batch runner's loop, which runs with the CPU's bit instructions.
    #[inline(always)]
    fn random_action(
        &self,
        st: &DeepRegretsState,
        rng: &mut SplitMix64,
        buf: &mut Vec<u32>,
    ) -> Option<u32> {
        if st.node.is_chance() {
            self.legal_actions(st, buf);
            if buf.is_empty() {
                return None;
            }
            return buf.get(rng.below(buf.len() as u64) as usize).copied();
        }
        self.random_decision(st, rng, buf)
    }

    fn apply(&self, st: &mut DeepRegretsState, action: u32) {
        self.apply_action(st, action);
    }

    #[inline(always)]
    fn play_randomly(
        &self,
        st: &mut DeepRegretsState,
        table: &mut crate::step::RandomTable<'_>,
    ) -> crate::step::StepResult<()> {
        self.playout(st, table)
    }

    fn scores(&self, st: &DeepRegretsState, out: &mut [i64]) {
        for (p, o) in out.iter_mut().enumerate() {
            *o = if st.ended && p < MAX_SEATS {
                i64::from(st.final_scores[p])
            } else {
                0
            };
        }
    }

    fn winner_mask(&self, st: &DeepRegretsState) -> u64 {
        if !st.ended {
            return 0;
        }
        let key = |p: usize| {
            (
                i64::from(st.final_scores[p]),
                -i64::from(st.regret_values[p]),
                -i64::from(st.seats[p].regret_count()),
            )
        };
        let best = (0..self.n()).map(key).max();
        (0..self.n())
            .filter(|&p| Some(key(p)) == best)
            .fold(0, |m, p| m | 1 << p)
    }

    crate::game::common_game_methods!(num_actions: actions::NUM_ACTIONS, determinize: sample_determinization);

    crate::game::builtin_bots!("greedy" => bots::GreedyBot::default());
}
