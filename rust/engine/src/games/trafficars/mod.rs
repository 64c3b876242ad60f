//! Trafficars – Ruuhkaara, game 1: the traffic jam, 2–5 players.
//!
//! Rules: `rules/trafficars.md` of the shared rules (game 1); engine contract (options, chance and
//! decision order, lane model, action ids, labels, observation, canonical state):
//! `docs/games/trafficars.md`. The deck table is `python/cardtable/data/trafficars_cards.json`,
//! embedded and parsed once.
//!
//! Data layout: hands and the undealt deck are `u64` bitsets of card ids (bit `i` = card `i`).
//! A lane is a fixed array of one-byte tokens, front to end and bottom to top inside a place: the
//! low six bits hold a card id (0 for the free place), bit 6 marks the first token of a place and
//! bit 7 marks a place that counts as two cars (an unfilled tow truck). At most 62 cards and one
//! free place can ever be in a lane, so 64 tokens always suffice. Each lane also keeps a summary
//! (its last place, its free place, its car count) that its own methods update, so the options of
//! a card are found without scanning the lanes; the options of the card being resolved are kept
//! in the state while a player chooses. The whole state is `Copy` and `apply` / `legal_actions`
//! never allocate.
//!
//! Points the rules doc and the contract leave open (the simplest reading, as implemented):
//! - During the deal `turn` is 0, `decision`, `revealed` and `resolving` are null and `queue` is [];
//!   a lane whose starter has not been dealt yet is [] (contract) with `cars` 0.
//! - At the end of the game (`phase` "over") the lanes stay as after the last turn, `turn` =
//!   `hand_size`, `revealed` is null and `queue` is [].
//! - "Revealed this turn" (ambulance and police stacking) means: the card id is one of this turn's
//!   revealed cards (ids are unique, so a card of an earlier turn never qualifies).
//! - A lane is never left without places after the deal: every rule that empties a lane puts the
//!   played card back into it at once.
//! - The option `max_cars` bounds only what the contract says it bounds (rule 3 for cars, the
//!   ambulance overflow, police legality and the tow truck's 5th-car case); `too_low = "insert"`
//!   may make a lane longer than `max_cars`, and later cars into such a lane take it (rule 3:
//!   "cars(L) ≥ max_cars"). Likewise a tow truck always leaves its place and the free place (or
//!   a place counting 2), so with `max_cars = 1` such a lane holds 2 cars (the 5th-car case
//!   excepted: there the tow truck with its load is the lane's only place and no free place opens).
//! - Resolution order (contract, "Decisions"): the booklet says both "Kortit pelataan
//!   järjestyksessä ambulanssi, poliisi, autokortit numerojärjestyksessä ja viimeisenä
//!   hinausautokortti" (tow truck last) and "Hinausautokortti pelataan aina vuoron viimeisenä
//!   erikoiskorttina, kuitenkin ennen tavallisia kortteja" (the last special, before the ordinary
//!   cards). The specific second sentence wins, because only then can this turn's numbered cards
//!   fill the tow truck's free place: ambulances, police cars, tow trucks, then numbered cards.
//! - Ambulances: all of the turn's ambulances are placed first; the overflow check runs once,
//!   right after the last one, and the owner of the topmost ambulance of an overflowing front
//!   stack pays ("päällimmäisenä olevan ambulanssikortin pelannut pelaaja").
//! - The free place is a permission ("Ensimmäisenä ehtivä saa asettaa"): a numbered card's options
//!   come from rules 1–4 on the lane ends alone, and `110 + k` is added for every free place that
//!   accepts the card under the increasing rule; it stays open to every numbered card of the turn
//!   until one fills it.
//! - `too_low = "insert"` never puts a card between a free place and the tow truck that opened it:
//!   when the card's place in increasing order is just behind a free place, it goes in front of
//!   the free place (the free place and its tow truck stay one spot of the lane).

use crate::bits;
use crate::error::{EngineError, Result};
use crate::game::{Bot, Game, CHANCE, TERMINAL};
use crate::options::{OptionReader, OptionSpec, OptionValues};
use crate::rng::SplitMix64;
use crate::tensor::{scaled, TensorWriter};
use serde_json::{json, Map, Value};
use std::sync::OnceLock;

/// Most seats a game can have.
const MAX_SEATS: usize = 5;
/// Most lanes a game can have.
const MAX_LANES: usize = 5;
/// Card ids are 1..=62.
const CARD_IDS: usize = 62;
/// Size of per-id lookup tables (ids 0..=63, so any six-bit token indexes safely).
const ID_SLOTS: usize = 64;
/// Tokens a lane can hold (62 cards and one free place at most).
const LANE_CAP: usize = 64;
/// Token flag: the first token of a place.
const START: u8 = 0x40;
/// Token flag (on a place's first token): the place counts as two cars.
const DOUBLE: u8 = 0x80;
/// Token mask of the card id (0 = the free place).
const ID_BITS: u8 = 0x3F;
/// The token of a free place.
const FREE: u8 = START;
/// Action id of "lane k" (plus k).
const LANE_ACTION: u32 = 100;
/// Action id of "the free place of lane k" (plus k).
const FREE_ACTION: u32 = 110;
/// Size of the action space.
const NUM_ACTIONS: u32 = 115;
/// Most options of one resolution decision (every lane end and every free place).
const MAX_OPTIONS: usize = 2 * MAX_LANES;
/// "No seat" marker.
const NO_SEAT: usize = usize::MAX;

/// The deck table shared with the reference implementation.
const CARDS_JSON: &str = crate::data::TRAFFICARS_CARDS_JSON;

/// The bit of card `id` in a card bitset (0 for anything that is not a card id).
#[inline]
fn bit(id: u32) -> u64 {
    if (1..=CARD_IDS as u32).contains(&id) {
        1u64 << id
    } else {
        0
    }
}

/// The card ids of a bitset, in increasing order.
fn ids_of(mut mask: u64) -> Vec<u32> {
    let mut out = Vec::with_capacity(mask.count_ones() as usize);
    while mask != 0 {
        out.push(mask.trailing_zeros());
        mask &= mask - 1;
    }
    out
}

/// The card id held by a lane token.
#[inline]
fn tok_id(t: u8) -> u8 {
    t & ID_BITS
}

/// What a card is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    /// A numbered car.
    Car,
    /// A numbered trailer (not a car).
    Trailer,
    /// An ambulance (no number).
    Ambulance,
    /// A police car (no number).
    Police,
    /// A tow truck (no number).
    TowTruck,
}

impl Kind {
    fn parse(s: &str) -> Option<Self> {
        match s {
            "car" => Some(Self::Car),
            "trailer" => Some(Self::Trailer),
            "ambulance" => Some(Self::Ambulance),
            "police" => Some(Self::Police),
            "tow_truck" => Some(Self::TowTruck),
            _ => None,
        }
    }

    /// The resolution class of the reveal order: ambulances, police, tow trucks, numbered cards.
    fn class(self) -> u8 {
        match self {
            Self::Ambulance => 0,
            Self::Police => 1,
            Self::TowTruck => 2,
            Self::Car | Self::Trailer => 3,
        }
    }
}

/// The deck table: kind and number (0 for the numberless specials) per card id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CardTable {
    kind: [Kind; ID_SLOTS],
    number: [u8; ID_SLOTS],
    /// The value of a stack with this card on top: its number for a car or trailer, 0 (open)
    /// for a special card or the free place (id 0).
    top_value: [u8; ID_SLOTS],
}

/// Parses the JSON deck table: 62 objects `{"id", "kind", "number"}` in id order.
fn parse_cards(text: &str) -> std::result::Result<CardTable, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("bad card table: {e}"))?;
    let list = v.as_array().ok_or("the card table must be a list")?;
    if list.len() != CARD_IDS {
        return Err(format!(
            "the card table must list {CARD_IDS} cards, got {}",
            list.len()
        ));
    }
    let mut t = CardTable {
        kind: [Kind::Car; ID_SLOTS],
        number: [0; ID_SLOTS],
        top_value: [0; ID_SLOTS],
    };
    for (i, e) in list.iter().enumerate() {
        let id = i + 1;
        if e["id"].as_u64() != Some(id as u64) {
            return Err(format!("card table entry {i} must have id {id}"));
        }
        let kind = e["kind"]
            .as_str()
            .and_then(Kind::parse)
            .ok_or(format!("card {id}: bad kind"))?;
        let number = match (kind, &e["number"]) {
            (Kind::Car | Kind::Trailer, n) => match n.as_u64() {
                Some(n @ 1..=50) => n as u8,
                _ => {
                    return Err(format!(
                        "card {id}: a numbered card needs a number in 1..=50"
                    ))
                }
            },
            (_, Value::Null) => 0,
            _ => return Err(format!("card {id}: a special card has no number")),
        };
        t.kind[id] = kind;
        t.number[id] = number;
        if matches!(kind, Kind::Car | Kind::Trailer) {
            t.top_value[id] = number;
        }
    }
    Ok(t)
}

/// The embedded deck table, parsed once.
fn card_table() -> Result<&'static CardTable> {
    static TABLE: OnceLock<std::result::Result<CardTable, String>> = OnceLock::new();
    TABLE
        .get_or_init(|| parse_cards(CARDS_JSON))
        .as_ref()
        .map_err(|e| EngineError::InvalidOption(format!("trafficars: {e}")))
}

/// One lane: places front to end as tokens (see the module doc), with a summary of them
/// (`last_start`, `free`, `free_first`, `cars`) that every method changing the tokens keeps up
/// to date; the tokens are changed nowhere else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Lane {
    tok: [u8; LANE_CAP],
    len: u8,
    /// Token index of the first token of the last place, or [`Lane::NONE`].
    last_start: u8,
    /// Token index of the (first) free place, or [`Lane::NONE`].
    free: u8,
    /// Whether that free place is the lane's first place.
    free_first: bool,
    /// cars(L): the sum of the place counts.
    cars: u8,
}

impl Lane {
    /// "No such token" in the summary.
    const NONE: u8 = u8::MAX;

    const EMPTY: Lane = Lane {
        tok: [0; LANE_CAP],
        len: 0,
        last_start: Lane::NONE,
        free: Lane::NONE,
        free_first: false,
        cars: 0,
    };

    #[inline]
    fn toks(&self) -> &[u8] {
        &self.tok[..usize::from(self.len).min(LANE_CAP)]
    }

    /// Adds token `i` (the last one) to the summary.
    #[inline]
    fn note(&mut self, i: usize) {
        let t = self.tok[i];
        if t & START != 0 {
            if tok_id(t) == 0 && self.free == Lane::NONE {
                self.free = i as u8;
                self.free_first = self.last_start == Lane::NONE;
            }
            self.last_start = i as u8;
            self.cars += 1 + u8::from(t & DOUBLE != 0);
        }
    }

    /// Rebuilds the summary from the tokens.
    fn summarize(&mut self) {
        let len = usize::from(self.len).min(LANE_CAP);
        self.len = 0;
        self.clear();
        for i in 0..len {
            self.len += 1;
            self.note(i);
        }
    }

    fn clear(&mut self) {
        self.len = 0;
        self.last_start = Lane::NONE;
        self.free = Lane::NONE;
        self.free_first = false;
        self.cars = 0;
    }

    #[inline]
    fn push(&mut self, t: u8) {
        let l = usize::from(self.len);
        if l < LANE_CAP {
            self.tok[l] = t;
            self.len += 1;
            self.note(l);
        }
    }

    fn insert(&mut self, pos: usize, t: u8) {
        let l = usize::from(self.len);
        if l >= LANE_CAP || pos > l {
            return;
        }
        self.tok.copy_within(pos..l, pos + 1);
        self.tok[pos] = t;
        self.len += 1;
        self.summarize();
    }

    fn remove(&mut self, pos: usize) {
        let l = usize::from(self.len);
        if pos >= l {
            return;
        }
        self.tok.copy_within(pos + 1..l, pos);
        self.len -= 1;
        self.summarize();
    }

    /// Replaces token `pos` (if there is one) with `t`.
    fn set(&mut self, pos: usize, t: u8) {
        if pos < usize::from(self.len) {
            self.tok[pos] = t;
            self.summarize();
        }
    }

    fn truncate(&mut self, pos: usize) {
        if pos < usize::from(self.len) {
            self.len = pos as u8;
            self.summarize();
        }
    }

    /// Token index of the first token of the last place.
    #[inline]
    fn last_start(&self) -> Option<usize> {
        (self.last_start != Lane::NONE).then_some(usize::from(self.last_start))
    }

    /// Token index just past the place starting at `start`.
    fn place_end(&self, start: usize) -> usize {
        let t = self.toks();
        t.iter()
            .skip(start + 1)
            .position(|&x| x & START != 0)
            .map_or(t.len(), |p| start + 1 + p)
    }

    /// Token index of the (first) free place.
    #[inline]
    fn free_place(&self) -> Option<usize> {
        (self.free != Lane::NONE).then_some(usize::from(self.free))
    }

    /// cars(L): the sum of the place counts.
    #[inline]
    fn cars(&self) -> u32 {
        u32::from(self.cars)
    }

    /// Number of card ids in the lane.
    fn card_count(&self) -> u32 {
        self.toks().iter().filter(|&&t| tok_id(t) != 0).count() as u32
    }

    /// Bitset of the card ids in the lane.
    fn cards_mask(&self) -> u64 {
        self.toks()
            .iter()
            .fold(0, |m, &t| m | bit(u32::from(tok_id(t))))
    }
}

/// What choosing a target needs to know of a lane (see [`Trafficars::view`]).
#[derive(Clone, Copy, Debug)]
struct LaneView {
    /// Whether the lane has a place at all.
    has_place: bool,
    /// The card id at the bottom of the last place (0 for the free place or no place).
    last_bottom: u8,
    /// The stack value of the last place (0 = open, or no place).
    last_value: u8,
    /// Whether the lane has a free place.
    has_free: bool,
    /// The stack value of the place before the free place (0 if it is first, or no free place).
    free_after: u8,
    /// cars(L).
    cars: u32,
}

impl LaneView {
    /// The view of a lane without places.
    const EMPTY: LaneView = LaneView {
        has_place: false,
        last_bottom: 0,
        last_value: 0,
        has_free: false,
        free_after: 0,
        cars: 0,
    };
}

/// The table: lanes, penalties and this turn's reveal and resolution queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Board {
    lanes: [Lane; MAX_LANES],
    penalties: [u16; MAX_SEATS],
    /// This turn's revealed card per seat (0 = none: before the reveal).
    revealed: [u8; MAX_SEATS],
    /// Bitset of `revealed` (0 exactly when `revealed` is null).
    revealed_mask: u64,
    /// Seats in resolution order; `queue[qhead..qlen]` are still to be resolved.
    queue: [u8; MAX_SEATS],
    qhead: u8,
    qlen: u8,
}

impl Board {
    const EMPTY: Board = Board {
        lanes: [Lane::EMPTY; MAX_LANES],
        penalties: [0; MAX_SEATS],
        revealed: [0; MAX_SEATS],
        revealed_mask: 0,
        queue: [0; MAX_SEATS],
        qhead: 0,
        qlen: 0,
    };

    /// The seat whose card is resolved now.
    fn head(&self) -> Option<usize> {
        if self.qhead < self.qlen {
            self.queue
                .get(usize::from(self.qhead))
                .map(|&s| usize::from(s))
        } else {
            None
        }
    }

    fn pending(&self) -> &[u8] {
        let hi = usize::from(self.qlen).min(MAX_SEATS);
        &self.queue[usize::from(self.qhead).min(hi)..hi]
    }

    fn penalize(&mut self, seat: usize, cards: u32) {
        if let Some(p) = self.penalties.get_mut(seat) {
            *p += cards as u16;
        }
    }
}

/// The kind of a node that waits for a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Decision {
    Commit,
    Ambulance,
    Police,
    PoliceTake,
    TowTruck,
    Target,
    Take,
    Insert,
}

impl Decision {
    fn name(self) -> &'static str {
        match self {
            Self::Commit => "commit",
            Self::Ambulance => "ambulance",
            Self::Police => "police",
            Self::PoliceTake => "police_take",
            Self::TowTruck => "tow_truck",
            Self::Target => "target",
            Self::Take => "take",
            Self::Insert => "insert",
        }
    }
}

/// The options of the card being resolved, in increasing action order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Choice {
    kind: Decision,
    acts: [u8; MAX_OPTIONS],
    n: u8,
}

impl Choice {
    /// No pending choice (outside phase `Resolve`).
    const NONE: Choice = Choice {
        kind: Decision::Commit,
        acts: [0; MAX_OPTIONS],
        n: 0,
    };

    fn new(kind: Decision) -> Self {
        Self {
            kind,
            acts: [0; MAX_OPTIONS],
            n: 0,
        }
    }

    fn push(&mut self, a: u32) {
        if let Some(slot) = self.acts.get_mut(usize::from(self.n)) {
            *slot = a as u8;
            self.n += 1;
        }
    }

    fn acts(&self) -> &[u8] {
        &self.acts[..usize::from(self.n).min(MAX_OPTIONS)]
    }

    fn contains(&self, a: u32) -> bool {
        self.acts().iter().any(|&x| u32::from(x) == a)
    }
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Phase {
    /// Chance: lane starters, then the hands.
    Deal,
    /// The lowest seat without a commitment commits a card.
    Commit,
    /// The owner of the card being resolved chooses among two or more options.
    Resolve,
    /// The game is over.
    Over,
}

impl Phase {
    fn name(self) -> &'static str {
        match self {
            Self::Deal => "deal",
            Self::Commit => "commit",
            Self::Resolve => "resolve",
            Self::Over => "over",
        }
    }
}

/// Trafficars (the traffic jam) with a fixed player count and options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trafficars {
    players: usize,
    max_number: u8,
    hand_size: u8,
    lanes: usize,
    special_cards: bool,
    max_cars: Option<u32>,
    insert: bool,
    cards: CardTable,
    /// Every card of the game's deck.
    deck: u64,
    /// The car cards of the deck (possible lane starters).
    cars: u64,
    option_values: OptionValues,
}

/// The full state of one game of Trafficars (small and `Copy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TrafficarsState {
    phase: Phase,
    /// Cards still in the deck (undealt).
    deck: u64,
    /// Chance outcomes applied so far (lane starters, then hand cards).
    dealt: u8,
    turn: u8,
    hands: [u64; MAX_SEATS],
    /// Pending commitment per seat, 0 = none.
    commitments: [u8; MAX_SEATS],
    board: Board,
    /// In phase `Resolve`: the options of the card being resolved (what `card_choice` gives
    /// for it, kept from the moment resolution stopped there); [`Choice::NONE`] otherwise.
    choice: Choice,
}

impl Trafficars {
    #[inline]
    fn kind(&self, id: u8) -> Kind {
        self.cards
            .kind
            .get(usize::from(id))
            .copied()
            .unwrap_or(Kind::Car)
    }

    #[inline]
    fn number(&self, id: u8) -> u8 {
        self.cards.number.get(usize::from(id)).copied().unwrap_or(0)
    }

    /// The value of a stack whose top token is `top`: the top card's number, or 0 = open.
    #[inline]
    fn top_value(&self, top: u8) -> u8 {
        self.cards
            .top_value
            .get(usize::from(tok_id(top)))
            .copied()
            .unwrap_or(0)
    }

    /// Value of the stack starting at token `start`: its top card's number, or 0 = open.
    fn stack_value(&self, lane: &Lane, start: usize) -> u8 {
        let end = lane.place_end(start);
        self.top_value(lane.toks().get(end.wrapping_sub(1)).copied().unwrap_or(0))
    }

    /// What choosing a target needs to know of `lane` (from its summary).
    #[inline]
    fn view(&self, lane: &Lane) -> LaneView {
        let t = lane.toks();
        let token = |i: usize| t.get(i).copied().unwrap_or(0);
        let mut v = LaneView::EMPTY;
        if let Some(s) = lane.last_start() {
            v.has_place = true;
            v.last_bottom = tok_id(token(s));
            v.last_value = self.top_value(token(t.len().wrapping_sub(1)));
        }
        if let Some(i) = lane.free_place() {
            v.has_free = true;
            // The value of the place before the free place: its top token is the one just before.
            v.free_after = if lane.free_first {
                0
            } else {
                self.top_value(token(i.wrapping_sub(1)))
            };
        }
        v.cars = lane.cars();
        v
    }

    /// Whether lane `k` is "full" for a car: `max_cars` is set and cars(L) ≥ max_cars.
    fn full(&self, lane: &Lane) -> bool {
        self.max_cars.is_some_and(|m| lane.cars() >= m)
    }

    /// Whether the first place of `lane` is a stack whose bottom card is an ambulance revealed
    /// this turn (a new ambulance stacks on it).
    fn ambulance_stacks(&self, revealed_mask: u64, lane: &Lane) -> bool {
        lane.toks().first().is_some_and(|&t| {
            let id = tok_id(t);
            self.kind(id) == Kind::Ambulance && revealed_mask & bit(u32::from(id)) != 0
        })
    }

    /// Whether the last place of `lane` is a stack whose bottom card is a police car revealed
    /// this turn (a new police car stacks on it).
    fn police_stacks(&self, revealed_mask: u64, lane: &Lane) -> bool {
        lane.last_start()
            .and_then(|s| lane.toks().get(s))
            .is_some_and(|&t| {
                let id = tok_id(t);
                self.kind(id) == Kind::Police && revealed_mask & bit(u32::from(id)) != 0
            })
    }

    /// The resolution options of `card` on board `b`.
    fn card_choice(&self, b: &Board, card: u8) -> Choice {
        let lanes = &b.lanes[..self.lanes];
        let revealed =
            |id: u8, kind: Kind| self.kind(id) == kind && b.revealed_mask & bit(u32::from(id)) != 0;
        let full = |v: &LaneView| self.max_cars.is_some_and(|m| v.cars >= m);
        match self.kind(card) {
            Kind::Ambulance => self.every_lane(Decision::Ambulance),
            Kind::TowTruck => self.every_lane(Decision::TowTruck),
            Kind::Police => {
                let mut c = Choice::new(Decision::Police);
                for (k, lane) in lanes.iter().enumerate() {
                    let v = self.view(lane);
                    // A police car stacks on a police car revealed this turn at the lane end.
                    let stacks = v.has_place && revealed(v.last_bottom, Kind::Police);
                    if stacks || !full(&v) {
                        c.push(LANE_ACTION + k as u32);
                    }
                }
                if c.n == 0 {
                    c = self.every_lane(Decision::PoliceTake);
                }
                c
            }
            Kind::Car | Kind::Trailer => {
                let x = self.number(card);
                let mut views = [LaneView::EMPTY; MAX_LANES];
                // Rules 1–2 on the lane ends only: the closest numbered end value below X
                // (0 = none) ...
                let mut best = 0;
                for (v, lane) in views.iter_mut().zip(lanes) {
                    *v = self.view(lane);
                    if v.has_place && v.last_value != 0 && v.last_value < x {
                        best = best.max(v.last_value);
                    }
                }
                // ... and every open lane end (rule 4 when there is none) ...
                let fits = |value: u8| value == 0 || value == best;
                let mut c = Choice::new(Decision::Target);
                for (k, v) in views[..lanes.len()].iter().enumerate() {
                    if v.has_place && fits(v.last_value) {
                        c.push(LANE_ACTION + k as u32);
                    }
                }
                if c.n == 0 {
                    c = self.every_lane(if self.insert {
                        Decision::Insert
                    } else {
                        Decision::Take
                    });
                }
                // ... plus, as a permission beside them, every free place that accepts X under
                // the increasing rule alone (a free place at the front, or after an open stack,
                // accepts every number).
                for (k, v) in views[..lanes.len()].iter().enumerate() {
                    if v.has_free && v.free_after < x {
                        c.push(FREE_ACTION + k as u32);
                    }
                }
                c
            }
        }
    }

    fn every_lane(&self, kind: Decision) -> Choice {
        let mut c = Choice::new(kind);
        for k in 0..self.lanes {
            c.push(LANE_ACTION + k as u32);
        }
        c
    }

    /// The lane index of a resolution action (`100 + k` or `110 + k`).
    fn lane_of(&self, act: u32) -> Option<usize> {
        let k = if act >= FREE_ACTION {
            act - FREE_ACTION
        } else {
            act.wrapping_sub(LANE_ACTION)
        };
        let k = k as usize;
        (k < self.lanes).then_some(k)
    }

    /// The penalty cards the owner of `card` takes by choosing `act` (of decision `kind`) now.
    fn penalty_of(&self, b: &Board, card: u8, kind: Decision, act: u32) -> u32 {
        let Some(lane) = self.lane_of(act).and_then(|k| b.lanes.get(k)) else {
            return 0;
        };
        if act >= FREE_ACTION {
            // Filling a free place never costs anything (the free place already counted).
            return 0;
        }
        match kind {
            Decision::Ambulance => {
                // The overflow check runs after the turn's last ambulance; this is what the
                // owner takes if no later ambulance of the turn goes on top of theirs.
                if self.ambulance_stacks(b.revealed_mask, lane) {
                    if self.max_cars.is_some_and(|m| lane.cars() > m) {
                        let front = lane.place_end(0);
                        lane.card_count()
                            - lane.toks()[..front]
                                .iter()
                                .filter(|&&t| tok_id(t) != 0)
                                .count() as u32
                    } else {
                        0
                    }
                } else if self.max_cars.is_some_and(|m| lane.cars() + 1 > m) {
                    lane.card_count()
                } else {
                    0
                }
            }
            Decision::PoliceTake | Decision::Take => lane.card_count(),
            Decision::TowTruck => {
                if self.full(lane) {
                    let s = lane.last_start().unwrap_or(0);
                    lane.card_count()
                        - lane.toks()[s..].iter().filter(|&&t| tok_id(t) != 0).count() as u32
                } else {
                    0
                }
            }
            Decision::Target => {
                if self.kind(card) == Kind::Car && self.full(lane) {
                    lane.card_count()
                } else {
                    0
                }
            }
            Decision::Commit | Decision::Police | Decision::Insert => 0,
        }
    }

    /// Carries out option `act` of decision `kind` for `card` of `seat`.
    fn carry_out(&self, b: &mut Board, seat: usize, card: u8, kind: Decision, act: u32) {
        let Some(k) = self.lane_of(act) else {
            return;
        };
        let revealed_mask = b.revealed_mask;
        let Some(lane) = b.lanes.get_mut(k) else {
            return;
        };
        // Cards the seat takes as penalty (added once the lane is done).
        let mut taken = 0;
        if act >= FREE_ACTION {
            // Rule 3's permission: the numbered card fills the free place (any node kind).
            if let Some(i) = lane.free_place() {
                lane.set(i, START | card);
            }
            return;
        }
        match kind {
            Decision::Ambulance => {
                // No overflow check here: it runs once after the turn's last ambulance
                // (`ambulance_overflow`).
                if self.ambulance_stacks(revealed_mask, lane) {
                    let end = lane.place_end(0);
                    lane.insert(end, card);
                } else {
                    lane.insert(0, START | card);
                }
            }
            Decision::Police => {
                if self.police_stacks(revealed_mask, lane) {
                    lane.push(card);
                } else {
                    lane.push(START | card);
                }
            }
            Decision::PoliceTake | Decision::Take => {
                taken = lane.card_count();
                lane.clear();
                lane.push(START | card);
            }
            Decision::TowTruck => {
                let before = lane.cars();
                let s = lane.last_start().unwrap_or(0);
                let mut load = [0u8; LANE_CAP];
                let mut nl = 0;
                for &t in &lane.toks()[s..] {
                    load[nl] = tok_id(t);
                    nl += 1;
                }
                lane.truncate(s);
                if lane.toks().last() == Some(&FREE) {
                    lane.truncate(usize::from(lane.len) - 1);
                }
                if self.max_cars.is_some_and(|m| before >= m) {
                    // The 5th car: the tow truck with its load becomes the lane's only place
                    // and no free place opens.
                    taken = lane.card_count();
                    lane.clear();
                } else {
                    lane.push(FREE);
                }
                lane.push(START | card);
                for &id in &load[..nl] {
                    lane.push(id);
                }
            }
            Decision::Target => {
                if self.kind(card) == Kind::Trailer {
                    lane.push(card);
                } else if self.full(lane) {
                    taken = lane.card_count();
                    lane.clear();
                    lane.push(START | card);
                } else {
                    lane.push(START | card);
                }
            }
            Decision::Insert => {
                let x = self.number(card);
                let mut pos = usize::from(lane.len);
                for (i, &t) in lane.toks().iter().enumerate() {
                    if t & START != 0 && tok_id(t) != 0 {
                        let v = self.stack_value(lane, i);
                        if v != 0 && v >= x {
                            pos = i;
                            break;
                        }
                    }
                }
                // Never between a free place and the tow truck that opened it: X goes in front
                // of the free place then (see the module doc).
                if pos > 0 && lane.toks().get(pos - 1) == Some(&FREE) {
                    pos -= 1;
                }
                lane.insert(pos, START | card);
            }
            Decision::Commit => {}
        }
        if taken > 0 {
            b.penalize(seat, taken);
        }
    }

    /// Moves on from the card `card` just carried out to the next queued card; after the turn's
    /// last ambulance this runs the ambulance overflow check.
    #[inline]
    fn next_card(&self, b: &mut Board, card: u8) {
        b.qhead += 1;
        if self.kind(card) == Kind::Ambulance {
            let next = b
                .head()
                .and_then(|s| b.revealed.get(s).copied())
                .unwrap_or(0);
            if next == 0 || self.kind(next) != Kind::Ambulance {
                self.ambulance_overflow(b);
            }
        }
    }

    /// The overflow check after the turn's last ambulance: every lane (in increasing order)
    /// whose front place is a stack of ambulances revealed this turn and that holds more than
    /// `max_cars` cars goes to the owner of the topmost ambulance of that stack, who takes every
    /// other card of the lane; the stack stays as the lane's single place (count 1).
    fn ambulance_overflow(&self, b: &mut Board) {
        let Some(m) = self.max_cars else {
            return;
        };
        for k in 0..self.lanes {
            let lane = &mut b.lanes[k];
            if !self.ambulance_stacks(b.revealed_mask, lane) || lane.cars() <= m {
                continue;
            }
            let front = lane.place_end(0);
            let top = lane.toks().get(front.wrapping_sub(1)).copied().unwrap_or(0);
            let owner = b.revealed[..self.players]
                .iter()
                .position(|&c| c == tok_id(top));
            let stack = lane.toks()[..front]
                .iter()
                .filter(|&&t| tok_id(t) != 0)
                .count() as u32;
            let taken = lane.card_count() - stack;
            lane.truncate(front);
            if let Some(seat) = owner {
                b.penalize(seat, taken);
            }
        }
    }

    /// The choice of the card being resolved, if any.
    fn head_choice(&self, b: &Board) -> Option<(usize, u8, Choice)> {
        let seat = b.head()?;
        let card = b.revealed.get(seat).copied().unwrap_or(0);
        Some((seat, card, self.card_choice(b, card)))
    }

    /// Flow step 4: reveals `cards` (0 = no card for that seat) and orders the queue by
    /// (class, number, seat).
    fn reveal(&self, b: &mut Board, cards: &[u8; MAX_SEATS]) {
        b.revealed = *cards;
        b.revealed_mask = 0;
        b.qhead = 0;
        b.qlen = 0;
        let key = |s: usize| {
            let c = cards[s];
            (self.kind(c).class(), self.number(c), s)
        };
        for (s, &card) in cards.iter().enumerate().take(self.players) {
            if card == 0 {
                continue;
            }
            b.revealed_mask |= bit(u32::from(card));
            // Insertion sort: at most five seats.
            let mut i = usize::from(b.qlen);
            while i > 0 && key(usize::from(b.queue[i - 1])) > key(s) {
                b.queue[i] = b.queue[i - 1];
                i -= 1;
            }
            b.queue[i] = s as u8;
            b.qlen += 1;
        }
    }

    /// Resolves queued cards while each has a single option; returns the options of the first
    /// card with two or more, or `None` when the queue is empty.
    fn resolve_forced(&self, b: &mut Board) -> Option<Choice> {
        while let Some((seat, card, c)) = self.head_choice(b) {
            if c.n >= 2 {
                return Some(c);
            }
            if let Some(&a) = c.acts().first() {
                self.carry_out(b, seat, card, c.kind, u32::from(a));
            }
            self.next_card(b, card);
        }
        None
    }

    /// Flow step 6 on the board: free places disappear, their tow trucks count 2; the reveal
    /// and the queue are cleared.
    fn end_turn_board(&self, b: &mut Board) {
        for lane in &mut b.lanes[..self.lanes] {
            if let Some(i) = lane.free_place() {
                lane.remove(i);
                if let Some(&t) = lane.toks().get(i) {
                    lane.set(i, t | DOUBLE);
                }
            }
        }
        b.revealed = [0; MAX_SEATS];
        b.revealed_mask = 0;
        b.queue = [0; MAX_SEATS];
        b.qhead = 0;
        b.qlen = 0;
    }

    /// Runs resolution until a decision with two or more options, or the end of the turn.
    fn advance(&self, st: &mut TrafficarsState) {
        if let Some(c) = self.resolve_forced(&mut st.board) {
            st.choice = c;
            st.phase = Phase::Resolve;
            return;
        }
        st.choice = Choice::NONE;
        self.end_turn_board(&mut st.board);
        st.turn += 1;
        st.phase = if st.turn >= self.hand_size {
            Phase::Over
        } else {
            Phase::Commit
        };
    }

    /// The cards a deal or commit node offers, as a bitset: the undealt deck (only its cars while
    /// the lane starters are dealt) or the committing seat's hand; 0 at other nodes.
    #[inline]
    fn card_actions(&self, st: &TrafficarsState) -> u64 {
        match st.phase {
            Phase::Deal if usize::from(st.dealt) < self.lanes => st.deck & self.cars,
            Phase::Deal => st.deck,
            Phase::Commit => st.hands.get(self.committer(st)).copied().unwrap_or(0),
            Phase::Resolve | Phase::Over => 0,
        }
    }

    /// Flow steps 4–5 once every seat has committed: the reveal and the resolution up to the
    /// first real choice (or the end of the turn).
    #[inline(never)]
    fn reveal_and_resolve(&self, st: &mut TrafficarsState) {
        let cards = st.commitments;
        st.commitments = [0; MAX_SEATS];
        self.reveal(&mut st.board, &cards);
        self.advance(st);
    }

    /// The lowest seat without a commitment (`NO_SEAT` if all have one).
    fn committer(&self, st: &TrafficarsState) -> usize {
        (0..self.players)
            .find(|&s| st.commitments[s] == 0)
            .unwrap_or(NO_SEAT)
    }

    fn deal_total(&self) -> usize {
        self.lanes + self.players * usize::from(self.hand_size)
    }

    /// The pending decision kind, if the state waits for a player.
    fn decision(&self, st: &TrafficarsState) -> Option<Decision> {
        match st.phase {
            Phase::Commit => Some(Decision::Commit),
            Phase::Resolve => Some(st.choice.kind),
            Phase::Deal | Phase::Over => None,
        }
    }

    /// `lanes`, `place_cars` and `cars` as JSON.
    fn lanes_json(&self, b: &Board) -> (Value, Value, Value) {
        let mut lanes = Vec::with_capacity(self.lanes);
        let mut counts = Vec::with_capacity(self.lanes);
        let mut cars = Vec::with_capacity(self.lanes);
        for lane in &b.lanes[..self.lanes] {
            let mut places: Vec<Value> = Vec::new();
            let mut pc: Vec<Value> = Vec::new();
            let t = lane.toks();
            let mut i = 0;
            while i < t.len() {
                let end = lane.place_end(i);
                if tok_id(t[i]) == 0 {
                    places.push(Value::Null);
                } else {
                    places.push(json!(t[i..end]
                        .iter()
                        .map(|&x| tok_id(x))
                        .collect::<Vec<_>>()));
                }
                pc.push(json!(1 + u8::from(t[i] & DOUBLE != 0)));
                i = end;
            }
            lanes.push(Value::Array(places));
            counts.push(Value::Array(pc));
            cars.push(json!(lane.cars()));
        }
        (
            Value::Array(lanes),
            Value::Array(counts),
            Value::Array(cars),
        )
    }

    fn revealed_json(&self, b: &Board) -> Value {
        if b.revealed_mask == 0 {
            Value::Null
        } else {
            json!(&b.revealed[..self.players])
        }
    }

    fn queue_json(b: &Board) -> Value {
        json!(b.pending())
    }

    fn seat_cards(&self, xs: &[u8; MAX_SEATS]) -> Value {
        Value::Array(
            xs[..self.players]
                .iter()
                .map(|&c| if c == 0 { Value::Null } else { json!(c) })
                .collect(),
        )
    }
}

impl Game for Trafficars {
    type State = TrafficarsState;

    const ID: &'static str = "trafficars";

    fn option_specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec::int(
                "max_number",
                50,
                5,
                50,
                "car cards 1..max_number are used (5..=50)",
            ),
            OptionSpec::int(
                "hand_size",
                10,
                1,
                30,
                "cards dealt to each seat = number of turns (1..=30)",
            ),
            OptionSpec::int("lanes", 3, 1, MAX_LANES as i64, "number of lanes (1..=5)"),
            OptionSpec::bool(
                "special_cards",
                true,
                "use the special cards (trailers, ambulances, police cars, tow trucks)",
            ),
            OptionSpec::optional_int(
                "max_cars",
                Some(4),
                1,
                50,
                "cars a lane may hold before the next car takes it (1..=50); null = no limit",
            ),
            OptionSpec::choice(
                "too_low",
                "take",
                &["take", "insert"],
                "a card that fits no lane takes a lane (take) or is inserted in order (insert)",
            ),
        ]
    }

    fn player_range() -> (usize, usize) {
        (2, 5)
    }

    fn from_options(players: usize, options: &Map<String, Value>) -> Result<Self> {
        let mut r = OptionReader::new(Self::ID, Self::option_specs(), options);
        let max_number = r.int("max_number")? as u8;
        let hand_size = r.int("hand_size")? as u8;
        let lanes = r.int("lanes")? as usize;
        let special_cards = r.bool("special_cards")?;
        let max_cars = r.optional_int("max_cars")?.map(|m| m as u32);
        let too_low = r.choice("too_low")?;
        let option_values = r.finish()?;
        let (lo, hi) = Self::player_range();
        if !(lo..=hi).contains(&players) {
            return Err(EngineError::InvalidOption(format!(
                "{}: players must be in {lo}..={hi}, got {players}",
                Self::ID
            )));
        }
        let cards = *card_table()?;
        let (mut deck, mut cars) = (0u64, 0u64);
        for id in 1..=CARD_IDS {
            let (kind, number) = (cards.kind[id], cards.number[id]);
            let used = match kind {
                Kind::Car => number <= max_number,
                Kind::Trailer => special_cards && number <= max_number,
                Kind::Ambulance | Kind::Police | Kind::TowTruck => special_cards,
            };
            if used {
                deck |= 1u64 << id;
                if kind == Kind::Car {
                    cars |= 1u64 << id;
                }
            }
        }
        let g = Self {
            players,
            max_number,
            hand_size,
            lanes,
            special_cards,
            max_cars,
            insert: too_low == 1,
            cards,
            deck,
            cars,
            option_values,
        };
        let size = deck.count_ones() as usize;
        if size < g.deal_total() || (cars.count_ones() as usize) < lanes {
            return Err(EngineError::InvalidOption(format!(
                "{}: the deck has {size} cards, fewer than lanes + players · hand_size = {}",
                Self::ID,
                g.deal_total()
            )));
        }
        Ok(g)
    }

    fn option_values(&self) -> &OptionValues {
        &self.option_values
    }

    fn players(&self) -> usize {
        self.players
    }

    fn num_actions(&self) -> u32 {
        NUM_ACTIONS
    }

    fn initial_state(&self) -> TrafficarsState {
        TrafficarsState {
            phase: Phase::Deal,
            deck: self.deck,
            dealt: 0,
            turn: 0,
            hands: [0; MAX_SEATS],
            commitments: [0; MAX_SEATS],
            board: Board::EMPTY,
            choice: Choice::NONE,
        }
    }

    #[inline]
    fn current_player(&self, st: &TrafficarsState) -> i32 {
        match st.phase {
            Phase::Deal => CHANCE,
            Phase::Commit => self.committer(st).min(MAX_SEATS) as i32,
            Phase::Resolve => st.board.head().map_or(TERMINAL, |s| s as i32),
            Phase::Over => TERMINAL,
        }
    }

    fn legal_actions(&self, st: &TrafficarsState, out: &mut Vec<u32>) {
        out.clear();
        if st.phase == Phase::Resolve {
            out.extend(st.choice.acts().iter().map(|&a| u32::from(a)));
            return;
        }
        let mut mask = self.card_actions(st);
        while mask != 0 {
            out.push(mask.trailing_zeros());
            mask &= mask - 1;
        }
    }

    #[inline]
    fn random_action(
        &self,
        st: &TrafficarsState,
        rng: &mut SplitMix64,
        _buf: &mut Vec<u32>,
    ) -> Option<u32> {
        if st.phase == Phase::Resolve {
            let acts = st.choice.acts();
            if acts.is_empty() {
                return None;
            }
            let i = rng.below(acts.len() as u64) as usize;
            return acts.get(i).map(|&a| u32::from(a));
        }
        bits::pick(self.card_actions(st), rng)
    }

    fn chance_outcomes(&self, st: &TrafficarsState, out: &mut Vec<(u32, u64)>) {
        out.clear();
        if st.phase != Phase::Deal {
            return;
        }
        let mut mask = self.card_actions(st);
        while mask != 0 {
            out.push((mask.trailing_zeros(), 1));
            mask &= mask - 1;
        }
    }

    #[inline]
    fn sample_chance(
        &self,
        st: &TrafficarsState,
        rng: &mut SplitMix64,
        _buf: &mut Vec<(u32, u64)>,
    ) -> u32 {
        if st.phase != Phase::Deal {
            return 0;
        }
        bits::pick(self.card_actions(st), rng).unwrap_or(0)
    }

    #[inline]
    fn apply(&self, st: &mut TrafficarsState, action: u32) {
        match st.phase {
            Phase::Deal => {
                let b = bit(action);
                let dealt = usize::from(st.dealt);
                if b & st.deck == 0 {
                    return;
                }
                if dealt < self.lanes {
                    if b & self.cars == 0 {
                        return;
                    }
                    st.board.lanes[dealt].push(START | action as u8);
                } else {
                    let seat = (dealt - self.lanes) / usize::from(self.hand_size);
                    let Some(h) = st.hands.get_mut(seat) else {
                        return;
                    };
                    *h |= b;
                }
                st.deck &= !b;
                st.dealt += 1;
                if usize::from(st.dealt) >= self.deal_total() {
                    st.phase = Phase::Commit;
                }
            }
            Phase::Commit => {
                let seat = self.committer(st);
                let b = bit(action);
                let Some(h) = st.hands.get_mut(seat) else {
                    return;
                };
                if *h & b == 0 {
                    return;
                }
                *h &= !b;
                st.commitments[seat] = action as u8;
                if seat + 1 == self.players {
                    self.reveal_and_resolve(st);
                }
            }
            Phase::Resolve => {
                let Some(seat) = st.board.head() else {
                    return;
                };
                let c = st.choice;
                if !c.contains(action) {
                    return;
                }
                let card = st.board.revealed.get(seat).copied().unwrap_or(0);
                self.carry_out(&mut st.board, seat, card, c.kind, action);
                self.next_card(&mut st.board, card);
                self.advance(st);
            }
            Phase::Over => {}
        }
    }

    fn action_label(&self, st: &TrafficarsState, action: u32) -> String {
        let a = action;
        let card = (1..=CARD_IDS as u32).contains(&a);
        match st.phase {
            Phase::Deal if card => {
                let dealt = usize::from(st.dealt);
                if dealt < self.lanes {
                    format!("lane {dealt} starts with {a}")
                } else {
                    let seat = (dealt - self.lanes) / usize::from(self.hand_size).max(1);
                    format!("deal {a} to seat {seat}")
                }
            }
            Phase::Commit if card => format!("play {a}"),
            Phase::Resolve => {
                let kind = self.decision(st);
                let lane = a.wrapping_sub(LANE_ACTION);
                let free = a.wrapping_sub(FREE_ACTION);
                let lanes = self.lanes as u32;
                match kind {
                    Some(k) if lane < lanes => match k {
                        Decision::Ambulance => format!("ambulance to lane {lane}"),
                        Decision::Police => format!("police to lane {lane}"),
                        Decision::PoliceTake | Decision::Take => format!("take lane {lane}"),
                        Decision::TowTruck => format!("tow truck to lane {lane}"),
                        Decision::Target => format!("to lane {lane}"),
                        Decision::Insert => format!("insert into lane {lane}"),
                        Decision::Commit => format!("action {a}"),
                    },
                    Some(Decision::Target | Decision::Take | Decision::Insert) if free < lanes => {
                        format!("fill the free place in lane {free}")
                    }
                    _ => format!("action {a}"),
                }
            }
            _ => format!("action {a}"),
        }
    }

    fn scores(&self, st: &TrafficarsState, out: &mut [i64]) {
        for (o, &p) in out
            .iter_mut()
            .zip(st.board.penalties[..self.players].iter())
        {
            *o = i64::from(p);
        }
    }

    fn winners(&self, st: &TrafficarsState) -> Vec<usize> {
        let pens = &st.board.penalties[..self.players];
        let best = pens.iter().copied().min().unwrap_or(0);
        (0..self.players).filter(|&s| pens[s] == best).collect()
    }

    fn winner_mask(&self, st: &TrafficarsState) -> u64 {
        let pens = &st.board.penalties[..self.players];
        let best = pens.iter().copied().min().unwrap_or(0);
        (0..self.players)
            .filter(|&s| pens[s] == best)
            .fold(0, |m, s| m | 1 << s)
    }

    fn observation(&self, st: &TrafficarsState, player: usize) -> Value {
        let b = &st.board;
        let (lanes, place_cars, cars) = self.lanes_json(b);
        let own = st.commitments.get(player).copied().unwrap_or(0);
        let resolving = match (st.phase, b.head()) {
            (Phase::Resolve, Some(s)) => json!(b.revealed[s]),
            _ => Value::Null,
        };
        json!({
            "seat": player,
            "phase": st.phase.name(),
            "decision": self.decision(st).map(Decision::name),
            "turn": st.turn,
            "hand": ids_of(st.hands.get(player).copied().unwrap_or(0)),
            "lanes": lanes,
            "place_cars": place_cars,
            "cars": cars,
            "penalties": json!(&b.penalties[..self.players]),
            "committed": Value::Array(
                st.commitments[..self.players].iter().map(|&c| Value::Bool(c != 0)).collect()
            ),
            "own_commitment": if own == 0 { Value::Null } else { json!(own) },
            "revealed": self.revealed_json(b),
            "resolving": resolving,
            "queue": Self::queue_json(b),
        })
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![385 + 64 * self.lanes + 66 * self.players]
    }

    fn observation_tensor(&self, st: &TrafficarsState, player: usize, out: &mut [f32]) {
        let (n, l) = (self.players, self.lanes);
        let b = &st.board;
        let mut w = TensorWriter::new(out);
        w.one_hot(Some(player), n);
        let phase = match st.phase {
            Phase::Deal => 0,
            Phase::Commit => 1,
            Phase::Resolve => 2,
            Phase::Over => 3,
        };
        w.one_hot(Some(phase), 4);
        let decision = self.decision(st).map(|d| match d {
            Decision::Commit => 0,
            Decision::Ambulance => 1,
            Decision::Police => 2,
            Decision::PoliceTake => 3,
            Decision::TowTruck => 4,
            Decision::Target => 5,
            Decision::Take => 6,
            Decision::Insert => 7,
        });
        w.one_hot(decision, 8);
        w.push_scaled(f64::from(st.turn), f64::from(self.hand_size));
        w.multi_hot(st.hands.get(player).copied().unwrap_or(0), 1, CARD_IDS);
        let block = l + 3;
        for (k, lane) in b.lanes[..l].iter().enumerate() {
            let (mut places, mut level, mut double) = (0usize, 0usize, false);
            for &t in lane.toks() {
                if t & START != 0 {
                    places += 1;
                    level = 0;
                    double = t & DOUBLE != 0;
                } else {
                    level += 1;
                }
                if let Some(i) = usize::from(tok_id(t)).checked_sub(1) {
                    let base = i * block;
                    w.set(base + k, 1.0);
                    w.set(base + l, scaled(places as f64, 8.0));
                    w.set(base + l + 1, scaled((level + 1) as f64, 4.0));
                    if double {
                        w.set(base + l + 2, 1.0);
                    }
                }
            }
        }
        w.skip(CARD_IDS * block);
        for lane in &b.lanes[..l] {
            // The free place's place index: the places that start before its token.
            let place = lane
                .free_place()
                .map(|i| lane.toks()[..i].iter().filter(|&&t| t & START != 0).count());
            w.push(place.map_or(0.0, |j| scaled((j + 1) as f64, 8.0)));
        }
        for lane in &b.lanes[..l] {
            w.push_scaled(f64::from(lane.cars()), 8.0);
        }
        for s in 0..n {
            w.push_scaled(f64::from(b.penalties[s]), 20.0);
        }
        for s in 0..n {
            w.push_bool(st.commitments[s] != 0);
        }
        let own = st.commitments.get(player).copied().unwrap_or(0);
        w.one_hot(usize::from(own).checked_sub(1), CARD_IDS);
        for s in 0..n {
            let card = if b.revealed_mask == 0 {
                0
            } else {
                b.revealed[s]
            };
            w.one_hot(usize::from(card).checked_sub(1), CARD_IDS);
        }
        let resolving = match (st.phase, b.head()) {
            (Phase::Resolve, Some(s)) => usize::from(b.revealed[s]).checked_sub(1),
            _ => None,
        };
        w.one_hot(resolving, CARD_IDS);
        for (k, &s) in b.pending().iter().enumerate() {
            w.set(usize::from(s), scaled((k + 1) as f64, n as f64));
        }
        w.skip(n);
        debug_assert_eq!(w.position(), 385 + 64 * l + 66 * n);
    }

    fn higher_score_is_better(&self) -> bool {
        false
    }

    fn state_json(&self, st: &TrafficarsState) -> Value {
        let b = &st.board;
        let (lanes, place_cars, _) = self.lanes_json(b);
        let hands: Vec<Value> = (0..self.players)
            .map(|s| json!(ids_of(st.hands[s])))
            .collect();
        json!({
            "phase": st.phase.name(),
            "turn": st.turn,
            "lanes": lanes,
            "place_cars": place_cars,
            "penalties": json!(&b.penalties[..self.players]),
            "revealed": self.revealed_json(b),
            "queue": Self::queue_json(b),
            "hands": hands,
            "commitments": self.seat_cards(&st.commitments),
        })
    }

    fn bot_names() -> &'static [&'static str] {
        &["greedy"]
    }

    fn make_bot(&self, name: &str, param: Option<&str>) -> Option<Result<Box<dyn Bot<Self>>>> {
        match (name, param) {
            ("greedy", None) => Some(Ok(Box::new(GreedyBot::default()))),
            ("greedy", Some(p)) => Some(Err(EngineError::InvalidOption(format!(
                "{}: bot greedy takes no parameter, got {p:?}",
                Self::ID
            )))),
            _ => None,
        }
    }
}

/// Opponent deals sampled per candidate card when choosing a card to commit.
const SAMPLES: usize = 8;
/// Cost of spending a special card (ambulance, police car, tow truck): specials are kept for
/// turns where they save at least this many penalty cards.
const SPECIAL_COST: f64 = 1.0;
/// Weight of the other seats' average penalty cards (taken this turn) as a gain for the bot.
const OPPONENT_WEIGHT: f64 = 0.3;

/// The `greedy` bot: a one-turn lookahead that minimises its own penalty cards.
///
/// It reads only what its seat's observation holds: its hand, the lanes, the penalty counts,
/// this turn's revealed cards and the resolution queue, plus its memory of every card it has seen
/// on the table (never other hands, other seats' pending commitments or the undealt deck).
///
/// The cost of a turn's outcome is the bot's own penalty cards taken in it minus
/// [`OPPONENT_WEIGHT`] times the other seats' average.
///
/// Committing a card: for each card of its hand it plays out this turn's resolution
/// [`SAMPLES`] times, the other seats' cards drawn uniformly (without replacement) from the cards
/// it has not seen, every resolution choice in the simulation taking the option with the fewest
/// immediate penalty cards (the first such option on a tie); the same sampled deals are used for
/// every candidate. A card's cost is its average outcome cost, plus [`SPECIAL_COST`] for an
/// ambulance, police car or tow truck; it commits the cheapest card (the lowest id on a tie). In
/// effect it plays cards that fit closely above a lane end, avoids being the car after a full
/// lane or a card too low for every lane, and saves its specials to dodge such penalties.
///
/// Resolution choices: every revealed card is public then, so it plays out the rest of the turn
/// exactly for each option (the other seats choosing as above) and takes the cheapest option
/// (the lowest action id on a tie); a take therefore goes to the lane with the fewest cards.
#[derive(Clone, Debug, Default)]
pub struct GreedyBot {
    seat: usize,
    rng: SplitMix64,
    /// Every card id the bot has seen on the table or revealed (so no longer in any hand).
    seen: u64,
}

impl GreedyBot {
    /// Resolves the rest of the queue with the fewest-immediate-penalty policy and ends the turn.
    fn finish_turn(g: &Trafficars, b: &mut Board) {
        while let Some((seat, card, c)) = g.head_choice(b) {
            let mut best = c.acts().first().map_or(0, |&a| u32::from(a));
            let mut best_pen = u32::MAX;
            for &a in c.acts() {
                let p = g.penalty_of(b, card, c.kind, u32::from(a));
                if p < best_pen {
                    best_pen = p;
                    best = u32::from(a);
                }
            }
            g.carry_out(b, seat, card, c.kind, best);
            g.next_card(b, card);
        }
        g.end_turn_board(b);
    }

    /// Own penalty cards taken since `before` minus [`OPPONENT_WEIGHT`] times the other seats'
    /// average.
    fn cost_after(&self, g: &Trafficars, b: &Board, before: &[u16; MAX_SEATS]) -> f64 {
        let (mut mine, mut others) = (0.0, 0.0);
        for (p, (&now, &then)) in b.penalties.iter().zip(before).enumerate().take(g.players) {
            let taken = f64::from(now.saturating_sub(then));
            if p == self.seat {
                mine = taken;
            } else {
                others += taken;
            }
        }
        mine - OPPONENT_WEIGHT * others / (g.players.max(2) - 1) as f64
    }

    fn choose_card(&mut self, g: &Trafficars, st: &TrafficarsState, legal: &[u32]) -> u32 {
        let me = self.seat;
        let hand = st.hands.get(me).copied().unwrap_or(0);
        let mut on_table = 0u64;
        for lane in &st.board.lanes[..g.lanes] {
            on_table |= lane.cards_mask();
        }
        let pool = g.deck & !(hand | self.seen | on_table);
        let before = st.board.penalties;
        let mut costs = [0f64; ID_SLOTS];
        for _ in 0..SAMPLES {
            let mut cards = [0u8; MAX_SEATS];
            let mut left = pool;
            for (s, slot) in cards.iter_mut().enumerate().take(g.players) {
                if s == me || left == 0 {
                    continue;
                }
                let pick = bits::select(left, self.rng.below(u64::from(left.count_ones())) as u32);
                *slot = pick as u8;
                left &= !bit(pick);
            }
            for (cost, &c) in costs.iter_mut().zip(legal) {
                let mut b = st.board;
                cards[me] = c as u8;
                g.reveal(&mut b, &cards);
                Self::finish_turn(g, &mut b);
                *cost += self.cost_after(g, &b, &before);
                if !matches!(g.kind(c as u8), Kind::Car | Kind::Trailer) {
                    *cost += SPECIAL_COST;
                }
            }
        }
        let mut best = 0;
        for (i, &cost) in costs.iter().enumerate().take(legal.len()) {
            if cost < costs[best] {
                best = i;
            }
        }
        legal.get(best).copied().unwrap_or(0)
    }

    fn choose_option(&self, g: &Trafficars, st: &TrafficarsState, legal: &[u32]) -> u32 {
        let before = st.board.penalties;
        let Some((seat, card, c)) = g.head_choice(&st.board) else {
            return legal.first().copied().unwrap_or(0);
        };
        let mut best = legal.first().copied().unwrap_or(0);
        let mut best_cost = f64::INFINITY;
        for &a in legal {
            let mut b = st.board;
            g.carry_out(&mut b, seat, card, c.kind, a);
            g.next_card(&mut b, card);
            Self::finish_turn(g, &mut b);
            let cost = self.cost_after(g, &b, &before);
            if cost < best_cost {
                best_cost = cost;
                best = a;
            }
        }
        best
    }
}

impl Bot<Trafficars> for GreedyBot {
    fn reset(&mut self, _game: &Trafficars, seat: usize, rng: SplitMix64) {
        self.seat = seat.min(MAX_SEATS - 1);
        self.rng = rng;
        self.seen = 0;
    }

    fn act(&mut self, game: &Trafficars, st: &TrafficarsState, legal: &[u32]) -> u32 {
        if let [only] = legal {
            return *only;
        }
        match st.phase {
            Phase::Commit => self.choose_card(game, st, legal),
            Phase::Resolve => self.choose_option(game, st, legal),
            _ => legal.first().copied().unwrap_or(0),
        }
    }

    fn observe(&mut self, game: &Trafficars, st: &TrafficarsState) {
        for lane in &st.board.lanes[..game.lanes] {
            self.seen |= lane.cards_mask();
        }
        self.seen |= st.board.revealed_mask;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::RandomBot;
    use crate::rng::derive_seed;
    use crate::session::Session;
    use std::sync::Arc;

    type S = Session<Trafficars>;

    fn game(players: usize, opts: Value) -> Arc<Trafficars> {
        let map = opts.as_object().cloned().unwrap_or_default();
        Arc::new(Trafficars::from_options(players, &map).unwrap())
    }

    /// Deals explicitly through a session: the lane starters, then each seat's hand (seat 0 first).
    fn deal(g: &Arc<Trafficars>, starters: &[u32], hands: &[&[u32]]) -> S {
        let mut s = Session::new(Arc::clone(g), None);
        assert_eq!(starters.len(), g.lanes);
        assert_eq!(hands.len(), g.players());
        for &c in starters.iter().chain(hands.iter().flat_map(|h| h.iter())) {
            assert_eq!(g.current_player(s.state()), CHANCE);
            s.apply(i64::from(c), Some(-1)).unwrap();
        }
        assert_eq!(s.state().phase, Phase::Commit);
        s
    }

    /// Commits one card per seat, in seat order.
    fn commit(s: &mut S, cards: &[u32]) {
        for (seat, &c) in cards.iter().enumerate() {
            s.apply(i64::from(c), Some(seat as i64)).unwrap();
        }
    }

    /// Seat `seat` takes resolution option `a`.
    fn choose(s: &mut S, seat: i64, a: u32) {
        s.apply(i64::from(a), Some(seat)).unwrap();
    }

    fn legal(g: &Trafficars, st: &TrafficarsState) -> Vec<u32> {
        let mut v = Vec::new();
        g.legal_actions(st, &mut v);
        v
    }

    fn sj(g: &Trafficars, st: &TrafficarsState) -> Value {
        g.state_json(st)
    }

    fn label(g: &Trafficars, st: &TrafficarsState, a: u32) -> String {
        g.action_label(st, a)
    }

    /// A commit-phase position built directly: lanes (places bottom to top, `[]` = free place)
    /// and hands; the turn is set so that the game ends when the hands are empty.
    fn position(g: &Trafficars, lanes: &[&[&[u32]]], hands: &[&[u32]]) -> TrafficarsState {
        let mut st = g.initial_state();
        assert_eq!(lanes.len(), g.lanes);
        for (k, places) in lanes.iter().enumerate() {
            for place in places.iter() {
                match place.split_first() {
                    None => st.board.lanes[k].push(FREE),
                    Some((&first, rest)) => {
                        st.board.lanes[k].push(START | first as u8);
                        for &c in rest {
                            st.board.lanes[k].push(c as u8);
                        }
                    }
                }
                for &c in place.iter() {
                    assert!(
                        st.deck & bit(c) != 0,
                        "card {c} used twice or not in the deck"
                    );
                    st.deck &= !bit(c);
                }
            }
        }
        let mut most = 0;
        for (p, h) in hands.iter().enumerate() {
            for &c in h.iter() {
                assert!(
                    st.deck & bit(c) != 0,
                    "card {c} used twice or not in the deck"
                );
                st.deck &= !bit(c);
                st.hands[p] |= bit(c);
            }
            most = most.max(h.len());
        }
        assert_eq!(hands.len(), g.players());
        st.dealt = g.deal_total() as u8;
        st.turn = g.hand_size - most as u8;
        st.phase = Phase::Commit;
        st
    }

    /// Marks place `place` of lane `lane` as counting two cars.
    fn double(st: &mut TrafficarsState, lane: usize, place: usize) {
        let l = &mut st.board.lanes[lane];
        let starts: Vec<usize> = (0..usize::from(l.len))
            .filter(|&i| l.tok[i] & START != 0)
            .collect();
        let i = starts[place];
        l.set(i, l.tok[i] | DOUBLE);
    }

    /// Applies `a`, checking that seat `seat` (or chance, -1) is to move and that `a` is legal.
    fn step(g: &Trafficars, st: &mut TrafficarsState, seat: i32, a: u32) {
        assert_eq!(g.current_player(st), seat, "{}", sj(g, st));
        let l = legal(g, st);
        assert!(l.contains(&a), "{a} not legal in {l:?}: {}", sj(g, st));
        g.apply(st, a);
    }

    /// Commits one card per seat, in seat order (direct state).
    fn play(g: &Trafficars, st: &mut TrafficarsState, cards: &[u32]) {
        for (seat, &c) in cards.iter().enumerate() {
            step(g, st, seat as i32, c);
        }
    }

    fn pens(st: &TrafficarsState, n: usize) -> Vec<u16> {
        st.board.penalties[..n].to_vec()
    }

    #[test]
    fn card_table_matches_json() {
        let t = parse_cards(CARDS_JSON).unwrap();
        assert_eq!(&t, card_table().unwrap());
        for id in 1..=50 {
            assert_eq!((t.kind[id], t.number[id]), (Kind::Car, id as u8));
        }
        assert_eq!((t.kind[51], t.number[51]), (Kind::Trailer, 10));
        assert_eq!((t.kind[52], t.number[52]), (Kind::Trailer, 20));
        assert_eq!((t.kind[53], t.number[53]), (Kind::Trailer, 30));
        for id in 54..=56 {
            assert_eq!((t.kind[id], t.number[id]), (Kind::Ambulance, 0));
        }
        for id in 57..=59 {
            assert_eq!((t.kind[id], t.number[id]), (Kind::Police, 0));
        }
        for id in 60..=62 {
            assert_eq!((t.kind[id], t.number[id]), (Kind::TowTruck, 0));
        }
        assert!(parse_cards("[]").is_err());
        assert!(parse_cards("{").is_err());
        let g = game(3, json!({}));
        assert_eq!(g.cards, t);
    }

    #[test]
    fn options_defaults_and_validation() {
        let g = game(3, json!({}));
        assert_eq!(
            Value::Object(g.options()),
            json!({"max_number": 50, "hand_size": 10, "lanes": 3, "special_cards": true,
                   "max_cars": 4, "too_low": "take"})
        );
        assert_eq!(g.deck.count_ones(), 62);
        let names: Vec<&str> = Trafficars::option_specs().iter().map(|o| o.name).collect();
        assert_eq!(
            names,
            [
                "max_number",
                "hand_size",
                "lanes",
                "special_cards",
                "max_cars",
                "too_low"
            ]
        );
        let g = game(
            2,
            json!({"max_cars": null, "too_low": "insert", "lanes": 2}),
        );
        assert_eq!(g.options()["max_cars"], Value::Null);
        assert_eq!(g.options()["too_low"], json!("insert"));
        // max_number = 10: cars 1..10, trailer 51, the nine numberless specials.
        let g = game(2, json!({"max_number": 10, "hand_size": 5}));
        assert_eq!(
            ids_of(g.deck),
            cat(&[
                &(1..=10).collect::<Vec<_>>(),
                &[51],
                &(54..=62).collect::<Vec<_>>()
            ])
        );
        let g = game(2, json!({"max_number": 30, "special_cards": false}));
        assert_eq!(ids_of(g.deck), (1..=30).collect::<Vec<_>>());
        for (n, bad) in [
            (
                2,
                json!({"max_number": 10, "special_cards": false, "hand_size": 5, "lanes": 2}),
            ),
            (2, json!({"hand_size": 30})),
            (5, json!({"hand_size": 12})),
            (3, json!({"max_number": 4})),
            (3, json!({"max_number": 51})),
            (3, json!({"hand_size": 0})),
            (3, json!({"lanes": 0})),
            (3, json!({"lanes": 6})),
            (3, json!({"max_cars": 0})),
            (3, json!({"max_cars": 51})),
            (3, json!({"max_cars": "4"})),
            (3, json!({"too_low": "skip"})),
            (3, json!({"special_cards": 1})),
            (3, json!({"speed": 3})),
            (1, json!({})),
            (6, json!({})),
        ] {
            let map = bad.as_object().cloned().unwrap_or_default();
            assert!(Trafficars::from_options(n, &map).is_err(), "{n} {bad}");
        }
        // Exactly enough cards is fine: 2 + 2·5 = 12 with cars 1..12 only.
        let ok = json!({"max_number": 12, "special_cards": false, "hand_size": 5, "lanes": 2});
        assert!(Trafficars::from_options(2, ok.as_object().unwrap()).is_ok());
        assert!(Trafficars::from_options(2, json!({"hand_size": 29}).as_object().unwrap()).is_ok());
        assert!(crate::registry::make("trafficars", 1, &Map::new()).is_err());
        let h = crate::registry::make("trafficars", 5, &Map::new()).unwrap();
        assert_eq!(h.num_actions(), 115);
        assert_eq!(Trafficars::player_range(), (2, 5));
        assert!(crate::registry::games().iter().any(|i| i.id == "trafficars"
            && i.bots == ["random", "greedy"]
            && i.players == (2, 5)));
        let g = game(3, json!({}));
        assert!(g.make_bot("greedy", None).is_some_and(|b| b.is_ok()));
        assert!(g.make_bot("greedy", Some("1")).is_some_and(|b| b.is_err()));
        assert!(g.make_bot("clever", None).is_none());
    }

    fn cat(parts: &[&[u32]]) -> Vec<u32> {
        parts.iter().flat_map(|p| p.iter().copied()).collect()
    }

    #[test]
    fn deal_order_outcomes_labels_and_observation() {
        let g = game(2, json!({"hand_size": 2}));
        let mut s = Session::new(Arc::clone(&g), None);
        let x = *s.state();
        assert_eq!(legal(&g, &x), (1..=50).collect::<Vec<_>>());
        let mut outs = Vec::new();
        g.chance_outcomes(&x, &mut outs);
        assert!(outs.iter().all(|&(_, w)| w == 1) && outs.len() == 50);
        assert_eq!(label(&g, &x, 7), "lane 0 starts with 7");
        assert_eq!(label(&g, &x, 0), "action 0");
        assert_eq!(label(&g, &x, 100), "action 100");
        assert!(s.apply(54, None).is_err()); // specials never start a lane
        assert!(s.apply(51, None).is_err()); // nor trailers
        let o = g.observation(s.state(), 1);
        assert_eq!(o["phase"], "deal");
        assert_eq!(o["decision"], Value::Null);
        assert_eq!(o["lanes"], json!([[], [], []]));
        assert_eq!(o["cars"], json!([0, 0, 0]));
        s.apply(7, None).unwrap();
        s.apply(20, None).unwrap();
        assert_eq!(label(&g, s.state(), 33), "lane 2 starts with 33");
        s.apply(33, None).unwrap();
        let x = *s.state();
        let l = legal(&g, &x);
        assert_eq!(l.len(), 59);
        assert!(!l.contains(&7) && l.contains(&51) && l.contains(&62));
        assert_eq!(label(&g, &x, 54), "deal 54 to seat 0");
        s.apply(54, None).unwrap();
        s.apply(3, None).unwrap();
        assert_eq!(label(&g, s.state(), 10), "deal 10 to seat 1");
        let o = g.observation(s.state(), 0);
        assert_eq!(o["lanes"], json!([[[7]], [[20]], [[33]]]));
        assert_eq!(o["place_cars"], json!([[1], [1], [1]]));
        assert_eq!(o["hand"], json!([3, 54]));
        assert_eq!(o["turn"], 0);
        assert_eq!(g.observation(s.state(), 1)["hand"], json!([]));
        s.apply(10, None).unwrap();
        s.apply(62, None).unwrap();
        assert_eq!(g.current_player(s.state()), 0);
        let o = g.observation(s.state(), 1);
        assert_eq!(o["phase"], "commit");
        assert_eq!(o["decision"], "commit");
        assert_eq!(o["hand"], json!([10, 62]));
        assert_eq!(o["revealed"], Value::Null);
        assert_eq!(o["queue"], json!([]));
        // The small deck: cars 1..10, trailer 51 (10), specials 54..62.
        let g = game(2, json!({"max_number": 10, "hand_size": 3}));
        let mut s = Session::new(Arc::clone(&g), None);
        assert_eq!(legal(&g, s.state()), (1..=10).collect::<Vec<_>>());
        for c in [1, 2, 3] {
            s.apply(c, None).unwrap();
        }
        assert_eq!(
            legal(&g, s.state()),
            cat(&[
                &(4..=10).collect::<Vec<_>>(),
                &[51],
                &(54..=62).collect::<Vec<_>>()
            ])
        );
        let g = game(2, json!({"special_cards": false, "hand_size": 3}));
        let mut s = Session::new(Arc::clone(&g), None);
        for c in [1, 2, 3] {
            s.apply(c, None).unwrap();
        }
        assert_eq!(legal(&g, s.state()), (4..=50).collect::<Vec<_>>());
    }

    #[test]
    fn increasing_and_smallest_difference_rules() {
        let g = game(2, json!({"hand_size": 2}));
        let mut s = deal(&g, &[12, 30, 41], &[&[35, 42], &[13, 31]]);
        let before = s.to_json()["history"].as_array().unwrap().len();
        // Seat 0 commits 35: hidden from seat 1.
        s.apply(35, Some(0)).unwrap();
        let o1 = g.observation(s.state(), 1);
        assert_eq!(o1["committed"], json!([true, false]));
        assert_eq!(o1["own_commitment"], Value::Null);
        assert_eq!(o1["hand"], json!([13, 31]));
        let o0 = g.observation(s.state(), 0);
        assert_eq!(o0["own_commitment"], json!(35));
        assert_eq!(o0["hand"], json!([42]));
        assert_eq!(sj(&g, s.state())["commitments"], json!([35, null]));
        assert_eq!(sj(&g, s.state())["hands"], json!([[42], [13, 31]]));
        s.apply(13, Some(1)).unwrap();
        // 13 is resolved first (lane 0: 12 < 13), then 35 goes to lane 1 (30 is closest below).
        let st = sj(&g, s.state());
        assert_eq!(st["lanes"], json!([[[12], [13]], [[30], [35]], [[41]]]));
        assert_eq!(st["turn"], 1);
        assert_eq!(st["revealed"], Value::Null);
        assert_eq!(st["commitments"], json!([null, null]));
        // Single options are applied automatically and never recorded.
        assert_eq!(s.to_json()["history"].as_array().unwrap().len(), before + 2);
        commit(&mut s, &[42, 31]);
        // 31: ends 13, 35, 41 → only 13 is below. 42: ends 31, 35, 41 → 41 is closest below.
        let st = sj(&g, s.state());
        assert_eq!(
            st["lanes"],
            json!([[[12], [13], [31]], [[30], [35]], [[41], [42]]])
        );
        assert_eq!(st["place_cars"], json!([[1, 1, 1], [1, 1], [1, 1]]));
        assert_eq!(st["phase"], "over");
        assert_eq!(st["turn"], 2);
        assert_eq!(g.current_player(s.state()), TERMINAL);
        assert_eq!(g.winners(s.state()), vec![0, 1]);
        assert_eq!(label(&g, s.state(), 100), "action 100");
        assert_eq!(label(&g, s.state(), 13), "action 13");
        let o = g.observation(s.state(), 0);
        assert_eq!(o["phase"], "over");
        assert_eq!(o["decision"], Value::Null);
        assert_eq!(o["cars"], json!([3, 2, 2]));
    }

    #[test]
    fn police_opens_a_lane_and_the_owner_chooses() {
        let g = game(2, json!({"hand_size": 2}));
        let mut s = deal(&g, &[12, 30, 41], &[&[57, 1], &[45, 2]]);
        commit(&mut s, &[57, 45]);
        let x = *s.state();
        assert_eq!(g.current_player(&x), 0);
        let o = g.observation(&x, 1);
        assert_eq!(o["phase"], "resolve");
        assert_eq!(o["decision"], "police");
        assert_eq!(o["revealed"], json!([57, 45]));
        assert_eq!(o["resolving"], json!(57));
        assert_eq!(o["queue"], json!([0, 1]));
        assert_eq!(o["committed"], json!([false, false]));
        assert_eq!(legal(&g, &x), [100, 101, 102]);
        assert_eq!(label(&g, &x, 101), "police to lane 1");
        assert_eq!(label(&g, &x, 103), "action 103");
        assert_eq!(label(&g, &x, 110), "action 110");
        choose(&mut s, 0, 100);
        // 45: 41 is closest below, lane 0 ends in a police car (open): two options.
        let x = *s.state();
        assert_eq!(g.current_player(&x), 1);
        assert_eq!(g.observation(&x, 0)["decision"], "target");
        assert_eq!(g.observation(&x, 0)["queue"], json!([1]));
        assert_eq!(legal(&g, &x), [100, 102]);
        assert_eq!(label(&g, &x, 100), "to lane 0");
        assert_eq!(label(&g, &x, 102), "to lane 2");
        choose(&mut s, 1, 100);
        assert_eq!(
            sj(&g, s.state())["lanes"],
            json!([[[12], [57], [45]], [[30]], [[41]]])
        );
        // Lane 0 is no longer open: 1 is too low everywhere; then 2 follows 1.
        commit(&mut s, &[1, 2]);
        let x = *s.state();
        assert_eq!(g.observation(&x, 0)["decision"], "take");
        assert_eq!(legal(&g, &x), [100, 101, 102]);
        assert_eq!(label(&g, &x, 101), "take lane 1");
        choose(&mut s, 0, 101);
        let st = sj(&g, s.state());
        assert_eq!(st["lanes"], json!([[[12], [57], [45]], [[1], [2]], [[41]]]));
        assert_eq!(st["penalties"], json!([1, 0]));
        let mut sc = [0i64; 2];
        g.scores(s.state(), &mut sc);
        assert_eq!(sc, [1, 0]);
        assert_eq!(g.winners(s.state()), vec![1]);
    }

    #[test]
    fn a_full_lane_is_taken_by_the_next_car() {
        let g = game(2, json!({"hand_size": 3}));
        let mut s = deal(&g, &[12, 30, 41], &[&[13, 15, 31], &[14, 16, 50]]);
        commit(&mut s, &[13, 14]);
        commit(&mut s, &[15, 16]);
        // 15 makes four cars; 16 (closest below: 15) finds the lane full and takes it.
        let st = sj(&g, s.state());
        assert_eq!(st["lanes"], json!([[[16]], [[30]], [[41]]]));
        assert_eq!(st["penalties"], json!([0, 4]));
        commit(&mut s, &[31, 50]);
        assert_eq!(
            sj(&g, s.state())["lanes"],
            json!([[[16]], [[30], [31]], [[41], [50]]])
        );
        // max_cars = 2: the third car takes the lane.
        let g = game(2, json!({"hand_size": 2, "max_cars": 2}));
        let mut s = deal(&g, &[12, 30, 41], &[&[13, 1], &[14, 2]]);
        commit(&mut s, &[13, 14]);
        assert_eq!(sj(&g, s.state())["lanes"], json!([[[14]], [[30]], [[41]]]));
        assert_eq!(sj(&g, s.state())["penalties"], json!([0, 2]));
        // max_cars = null: lanes grow without limit.
        let g = game(2, json!({"hand_size": 3, "max_cars": null}));
        let mut s = deal(&g, &[12, 30, 41], &[&[13, 15, 17], &[14, 16, 18]]);
        for cards in [[13, 14], [15, 16], [17, 18]] {
            commit(&mut s, &cards);
        }
        let o = g.observation(s.state(), 0);
        assert_eq!(o["cars"], json!([7, 1, 1]));
        assert_eq!(o["penalties"], json!([0, 0]));
    }

    #[test]
    fn too_low_takes_a_lane_of_choice() {
        let g = game(3, json!({"hand_size": 1}));
        let mut s = deal(&g, &[12, 30, 41], &[&[5], &[51], &[3]]);
        commit(&mut s, &[5, 51, 3]);
        // Order: 3 (seat 2), 5 (seat 0), trailer 51 = 10 (seat 1).
        let x = *s.state();
        assert_eq!(g.observation(&x, 0)["queue"], json!([2, 0, 1]));
        assert_eq!(g.current_player(&x), 2);
        choose(&mut s, 2, 101);
        // 5: 3 is below it now (lane 1), so it follows 3.
        // 10 (trailer): 5 is the closest below → stacked on 5.
        let st = sj(&g, s.state());
        assert_eq!(st["lanes"], json!([[[12]], [[3], [5, 51]], [[41]]]));
        assert_eq!(st["penalties"], json!([0, 0, 1]));
        // A too-low trailer starts a lane like a car.
        let g = game(2, json!({"hand_size": 1}));
        let mut s = deal(&g, &[12, 30, 41], &[&[51], &[50]]);
        commit(&mut s, &[51, 50]);
        choose(&mut s, 0, 102);
        let st = sj(&g, s.state());
        assert_eq!(st["lanes"], json!([[[12]], [[30], [50]], [[51]]]));
        assert_eq!(st["penalties"], json!([1, 0]));
    }

    #[test]
    fn too_low_insert() {
        let g = game(3, json!({"too_low": "insert"}));
        let mut x = position(
            &g,
            &[&[&[31], &[40]], &[&[25], &[27]], &[&[54], &[36]]],
            &[&[12], &[44], &[45]],
        );
        play(&g, &mut x, &[12, 44, 45]);
        assert_eq!(g.observation(&x, 0)["decision"], "insert");
        assert_eq!(legal(&g, &x), [100, 101, 102]);
        assert_eq!(label(&g, &x, 102), "insert into lane 2");
        step(&g, &mut x, 0, 102);
        // 44: 40 closest below; 45: 44 closest below.
        assert_eq!(
            sj(&g, &x)["lanes"],
            json!([[[31], [40], [44], [45]], [[25], [27]], [[54], [12], [36]]])
        );
        assert_eq!(pens(&x, 3), [0, 0, 0]);
        // Insertion never takes a lane, even past max_cars; equal numbers: X goes in front.
        let g = game(2, json!({"too_low": "insert", "lanes": 2}));
        let mut x = position(
            &g,
            &[&[&[20], &[52, 53], &[33], &[36]], &[&[40]]],
            &[&[30, 1], &[2, 37]],
        );
        // 30 → lane 0 before the stack of value 30 (the trailer 30 on top of trailer 20);
        // 2 → insert into lane 0 before 20.
        play(&g, &mut x, &[30, 2]);
        step(&g, &mut x, 1, 100);
        assert_eq!(x.phase, Phase::Resolve);
        step(&g, &mut x, 0, 100);
        assert_eq!(
            sj(&g, &x)["lanes"],
            json!([[[2], [20], [30], [52, 53], [33], [36]], [[40]]])
        );
        assert_eq!(g.observation(&x, 0)["cars"], json!([6, 1]));
        assert_eq!(pens(&x, 2), [0, 0]);
        // A car into a lane with more than max_cars cars takes it (7 cards).
        play(&g, &mut x, &[1, 37]);
        step(&g, &mut x, 0, 101);
        assert_eq!(sj(&g, &x)["lanes"], json!([[[37]], [[1], [40]]]));
        assert_eq!(pens(&x, 2), [0, 7]);
        // A trailer is inserted as its own place.
        let g = game(2, json!({"too_low": "insert", "lanes": 1, "hand_size": 1}));
        let mut x = position(&g, &[&[&[12], &[41]]], &[&[51], &[60]]);
        play(&g, &mut x, &[51, 60]);
        // Tow truck lifts 41: [12, free, [60, 41]]; trailer 10 fits nowhere (free place value 12)
        // and is inserted before 12.
        assert_eq!(sj(&g, &x)["lanes"], json!([[[51], [12], [60, 41]]]));
        assert_eq!(sj(&g, &x)["place_cars"], json!([[1, 1, 2]]));
    }

    #[test]
    fn trailers() {
        let g = game(2, json!({}));
        // A trailer on a full lane: stacked on the last place, no penalty, number becomes the end.
        let mut x = position(
            &g,
            &[&[&[12], &[13], &[14], &[15]], &[&[30]], &[&[41]]],
            &[&[52, 1], &[2, 21]],
        );
        play(&g, &mut x, &[52, 2]);
        step(&g, &mut x, 1, 101);
        let st = sj(&g, &x);
        assert_eq!(
            st["lanes"],
            json!([[[12], [13], [14], [15, 52]], [[2]], [[41]]])
        );
        assert_eq!(g.observation(&x, 0)["cars"], json!([4, 1, 1]));
        assert_eq!(pens(&x, 2), [0, 1]);
        // 21: closest below is the trailer 20 (lane 0) → full → takes 5 cards.
        play(&g, &mut x, &[1, 21]);
        assert_eq!(g.current_player(&x), 0);
        step(&g, &mut x, 0, 101);
        assert_eq!(sj(&g, &x)["lanes"], json!([[[21]], [[1]], [[41]]]));
        assert_eq!(pens(&x, 2), [1, 6]);

        // A trailer on a police car cancels it: the lane is no longer open.
        let mut x = position(
            &g,
            &[&[&[12], &[57]], &[&[30]], &[&[41]]],
            &[&[51, 11], &[47, 5]],
        );
        play(&g, &mut x, &[51, 47]);
        assert_eq!(
            sj(&g, &x)["lanes"],
            json!([[[12], [57, 51]], [[30]], [[41], [47]]])
        );
        play(&g, &mut x, &[11, 5]);
        assert_eq!(g.observation(&x, 0)["decision"], "take");
        assert_eq!(g.current_player(&x), 1);
        step(&g, &mut x, 1, 101);
        assert_eq!(
            sj(&g, &x)["lanes"],
            json!([[[12], [57, 51], [11]], [[5]], [[41], [47]]])
        );

        // Equal values through a trailer: the owner chooses.
        let mut x = position(&g, &[&[&[20]], &[&[15, 52]], &[&[41]]], &[&[25], &[44]]);
        play(&g, &mut x, &[25, 44]);
        assert_eq!(legal(&g, &x), [100, 101]);
        step(&g, &mut x, 0, 101);
        assert_eq!(
            sj(&g, &x)["lanes"],
            json!([[[20]], [[15, 52], [25]], [[41], [44]]])
        );
    }

    #[test]
    fn trailer_and_car_of_equal_number_go_in_seat_order() {
        let g = game(3, json!({}));
        let mut x = position(&g, &[&[&[12]], &[&[30]], &[&[41]]], &[&[52], &[20], &[53]]);
        play(&g, &mut x, &[52, 20, 53]);
        // Trailer 20 (seat 0) goes on 12, then car 20 (seat 1) is too low (the end of lane 0 is
        // now 20, not below 20) and takes a lane; trailer 30 (seat 2) comes last.
        assert_eq!(g.observation(&x, 0)["queue"], json!([1, 2]));
        assert_eq!(g.observation(&x, 0)["resolving"], json!(20));
        assert_eq!(g.observation(&x, 0)["decision"], "take");
        assert_eq!(sj(&g, &x)["lanes"][0], json!([[12, 52]]));
        step(&g, &mut x, 1, 100);
        assert_eq!(sj(&g, &x)["lanes"], json!([[[20, 53]], [[30]], [[41]]]));
        assert_eq!(pens(&x, 3), [0, 2, 0]);
        // Seat order the other way round: car 20 first, then trailer 20 is too low.
        let mut x = position(&g, &[&[&[12]], &[&[30]], &[&[41]]], &[&[20], &[52], &[50]]);
        play(&g, &mut x, &[20, 52, 50]);
        assert_eq!(g.observation(&x, 0)["resolving"], json!(52));
        step(&g, &mut x, 1, 102);
        // 50: ends 20, 30 and the trailer's 20 → 30 is closest below.
        assert_eq!(
            sj(&g, &x)["lanes"],
            json!([[[12], [20]], [[30], [50]], [[52]]])
        );
        assert_eq!(pens(&x, 3), [0, 1, 0]);
    }

    #[test]
    fn resolution_order_specials_then_numbers() {
        let g = game(5, json!({}));
        let mut x = position(
            &g,
            &[&[&[12]], &[&[30]], &[&[41]]],
            &[&[20], &[52], &[60], &[57], &[54]],
        );
        play(&g, &mut x, &[20, 52, 60, 57, 54]);
        let o = g.observation(&x, 0);
        assert_eq!(o["revealed"], json!([20, 52, 60, 57, 54]));
        assert_eq!(o["queue"], json!([4, 3, 2, 0, 1]));
        assert_eq!(o["decision"], "ambulance");
        assert_eq!(label(&g, &x, 102), "ambulance to lane 2");
        step(&g, &mut x, 4, 102);
        assert_eq!(g.observation(&x, 0)["decision"], "police");
        step(&g, &mut x, 3, 101);
        assert_eq!(g.observation(&x, 0)["decision"], "tow_truck");
        assert_eq!(label(&g, &x, 100), "tow truck to lane 0");
        assert_eq!(label(&g, &x, 111), "action 111");
        step(&g, &mut x, 2, 100);
        assert_eq!(
            sj(&g, &x)["lanes"],
            json!([[null, [60, 12]], [[30], [57]], [[54], [41]]])
        );
        // 20 (seat 0): free place of lane 0 (front: open), lane 1 (open); 12 is closest below.
        assert_eq!(g.observation(&x, 0)["queue"], json!([0, 1]));
        assert_eq!(legal(&g, &x), [100, 101, 110]);
        assert_eq!(label(&g, &x, 110), "fill the free place in lane 0");
        // Labels depend on the node and the id only, not on legality.
        assert_eq!(label(&g, &x, 112), "fill the free place in lane 2");
        assert_eq!(label(&g, &x, 113), "action 113");
        step(&g, &mut x, 0, 110);
        // Trailer 20 (seat 1): lane 0 now ends in 12 (the tow truck's load), lane 1 is open.
        assert_eq!(legal(&g, &x), [100, 101]);
        step(&g, &mut x, 1, 100);
        let st = sj(&g, &x);
        assert_eq!(
            st["lanes"],
            json!([[[20], [60, 12, 52]], [[30], [57]], [[54], [41]]])
        );
        assert_eq!(st["place_cars"], json!([[1, 1], [1, 1], [1, 1]]));
        // Same specials: seat order, whatever the ids.
        let g = game(3, json!({}));
        let mut x = position(&g, &[&[&[12]], &[&[30]], &[&[41]]], &[&[56], &[55], &[54]]);
        play(&g, &mut x, &[56, 55, 54]);
        assert_eq!(g.observation(&x, 0)["queue"], json!([0, 1, 2]));
    }

    #[test]
    fn ambulances() {
        // Contract example: overflow, then a second ambulance stacks.
        let g = game(3, json!({}));
        let mut x = position(
            &g,
            &[&[&[20]], &[&[30], &[33], &[35], &[38]], &[&[41]]],
            &[&[45], &[54], &[55]],
        );
        play(&g, &mut x, &[45, 54, 55]);
        step(&g, &mut x, 1, 101);
        // No check yet: the turn's second ambulance is still to come.
        assert_eq!(
            sj(&g, &x)["lanes"][1],
            json!([[54], [30], [33], [35], [38]])
        );
        assert_eq!(pens(&x, 3), [0, 0, 0]);
        step(&g, &mut x, 2, 101);
        // After the last ambulance: the topmost one's owner (seat 2) takes the other cards.
        assert_eq!(sj(&g, &x)["lanes"], json!([[[20]], [[54, 55]], [[41]]]));
        assert_eq!(pens(&x, 3), [0, 0, 4]);
        // 45: 41 closest below, lane 1 is open (ends in ambulances).
        assert_eq!(legal(&g, &x), [101, 102]);
        step(&g, &mut x, 0, 101);
        assert_eq!(
            sj(&g, &x)["lanes"],
            json!([[[20]], [[54, 55], [45]], [[41]]])
        );
        assert_eq!(pens(&x, 3), [0, 0, 4]);

        // No overflow: the ambulance goes to the front; the lane is not open (end is a car).
        let g = game(2, json!({}));
        let mut x = position(
            &g,
            &[&[&[12], &[15]], &[&[30]], &[&[41]]],
            &[&[54, 13], &[1, 2]],
        );
        play(&g, &mut x, &[54, 1]);
        step(&g, &mut x, 0, 100);
        step(&g, &mut x, 1, 100);
        assert_eq!(sj(&g, &x)["lanes"], json!([[[1]], [[30]], [[41]]]));
        assert_eq!(pens(&x, 2), [0, 3]);
        // An ambulance of an earlier turn is not stacked on.
        let mut x = position(&g, &[&[&[54], &[20]], &[&[30]], &[&[41]]], &[&[55], &[44]]);
        play(&g, &mut x, &[55, 44]);
        step(&g, &mut x, 0, 100);
        assert_eq!(
            sj(&g, &x)["lanes"],
            json!([[[55], [54], [20]], [[30]], [[41], [44]]])
        );
        assert_eq!(g.observation(&x, 0)["cars"], json!([3, 1, 2]));
        // Stacking does not check overflow: lane with 4 cars, first ambulance overflows, the
        // second stacks; and with max_cars = null nothing ever overflows.
        let g = game(2, json!({"max_cars": null}));
        let mut x = position(
            &g,
            &[&[&[12], &[13], &[14], &[15]], &[&[30]], &[&[41]]],
            &[&[54], &[55]],
        );
        play(&g, &mut x, &[54, 55]);
        step(&g, &mut x, 0, 100);
        step(&g, &mut x, 1, 100);
        assert_eq!(
            sj(&g, &x)["lanes"],
            json!([[[54, 55], [12], [13], [14], [15]], [[30]], [[41]]])
        );
        assert_eq!(pens(&x, 2), [0, 0]);
        // One lane: the only option is applied automatically.
        let g = game(2, json!({"lanes": 1, "hand_size": 1}));
        let mut x = position(&g, &[&[&[12], &[13], &[14], &[15]]], &[&[54], &[20]]);
        play(&g, &mut x, &[54, 20]);
        assert_eq!(sj(&g, &x)["lanes"], json!([[[54], [20]]]));
        assert_eq!(pens(&x, 2), [4, 0]);
        assert_eq!(x.phase, Phase::Over);
    }

    /// "Jos kaksi pelaajaa pelaa ambulanssikortin, ja he haluavat korttinsa samaan paikkaan,
    /// kortit pistetään päällekkäin. Jos ambulanssikortti on jonon viides kortti,
    /// päällimmäisenä olevan ambulanssikortin pelannut pelaaja joutuu ottamaan jonon muut kortit
    /// sakkona." (Two ambulances into the same place are stacked; if the ambulance is the lane's
    /// 5th card, the player of the topmost ambulance takes the lane's other cards.)
    #[test]
    fn two_ambulances_the_topmost_owner_takes_the_lane() {
        let g = game(2, json!({"hand_size": 3}));
        let mut s = deal(&g, &[2, 30, 40], &[&[3, 5, 54], &[4, 31, 55]]);
        commit(&mut s, &[3, 4]);
        commit(&mut s, &[5, 31]);
        assert_eq!(
            sj(&g, s.state())["lanes"],
            json!([[[2], [3], [4], [5]], [[30], [31]], [[40]]])
        );
        commit(&mut s, &[54, 55]);
        choose(&mut s, 0, 100);
        choose(&mut s, 1, 100);
        let st = sj(&g, s.state());
        assert_eq!(st["lanes"], json!([[[54, 55]], [[30], [31]], [[40]]]));
        assert_eq!(st["penalties"], json!([0, 4]));
        assert_eq!(st["phase"], "over");
    }

    /// The overflow check runs once after the turn's last ambulance, lane by lane, before any
    /// police car: a lane emptied by it is no longer full for the police car.
    #[test]
    fn ambulance_overflow_is_checked_after_the_last_ambulance() {
        let g = game(3, json!({}));
        let mut x = position(
            &g,
            &[
                &[&[12], &[13], &[14], &[15]],
                &[&[30], &[31], &[33], &[35]],
                &[&[41]],
            ],
            &[&[54], &[55], &[57]],
        );
        play(&g, &mut x, &[54, 55, 57]);
        step(&g, &mut x, 0, 100);
        step(&g, &mut x, 1, 101);
        assert_eq!(sj(&g, &x)["lanes"], json!([[[54]], [[55]], [[41]]]));
        assert_eq!(pens(&x, 3), [4, 4, 0]);
        // The police car sees the emptied lanes.
        assert_eq!(g.observation(&x, 2)["decision"], "police");
        assert_eq!(legal(&g, &x), [100, 101, 102]);
        // The bot's estimate of an ambulance's penalty: the owner pays if no ambulance follows.
        let mut y = position(
            &g,
            &[&[&[12], &[13], &[14], &[15]], &[&[30]], &[&[41]]],
            &[&[54], &[55], &[50]],
        );
        play(&g, &mut y, &[54, 55, 50]);
        assert_eq!(g.penalty_of(&y.board, 54, Decision::Ambulance, 100), 4);
        step(&g, &mut y, 0, 100);
        assert_eq!(g.penalty_of(&y.board, 55, Decision::Ambulance, 100), 4);
        assert_eq!(g.penalty_of(&y.board, 55, Decision::Ambulance, 101), 0);
    }

    /// "Jos pelaaja asettaa hinausauton jonon viidenneksi, hän lastaa auton ensin edeltävällä
    /// autolla, ja kerää sitten jonon kolme ensimmäistä korttia sakoksi. Hinausauto ja sen päällä
    /// oleva kortti jätetään uuden jonon ensimmäiseksi kortiksi." (A tow truck as the 5th car
    /// loads the car before it, its player takes the first three cards, and the tow truck with its
    /// load is left as the new lane's first card: no free place opens.)
    #[test]
    fn tow_truck_as_the_fifth_car_leaves_no_free_place() {
        let g = game(2, json!({"hand_size": 3}));
        let mut s = deal(&g, &[2, 30, 40], &[&[3, 5, 60], &[4, 31, 1]]);
        commit(&mut s, &[3, 4]);
        commit(&mut s, &[5, 31]);
        commit(&mut s, &[60, 1]);
        choose(&mut s, 0, 100);
        let st = sj(&g, s.state());
        assert_eq!(st["lanes"][0], json!([[60, 5]]));
        assert_eq!(st["place_cars"][0], json!([1]));
        assert_eq!(st["penalties"], json!([3, 0]));
        // 1 is too low for every lane (5, 31, 40): seat 1 takes a lane.
        assert_eq!(g.observation(s.state(), 1)["decision"], "take");
        assert_eq!(legal(&g, s.state()), [100, 101, 102]);
        choose(&mut s, 1, 101);
        let st = sj(&g, s.state());
        assert_eq!(st["lanes"], json!([[[60, 5]], [[1]], [[40]]]));
        assert_eq!(st["penalties"], json!([3, 2]));
        assert_eq!(st["phase"], "over");
    }

    /// "Ensimmäisenä ehtivä saa asettaa korttinsa hinattavan auton vapauttamalle paikalle
    /// noudattaen Pienimmästä isoimpaan -sääntöä." (The first to get there may put their card
    /// into the place the towed car left, following the smallest-to-largest rule.)
    #[test]
    fn free_place_is_a_permission_under_the_increasing_rule() {
        let g = game(3, json!({}));
        let lanes: &[&[&[u32]]] = &[&[&[12], &[15], &[20]], &[&[30]], &[&[41]]];
        // 16 fits the free place (15 < 16) but no lane end: take a lane or fill it.
        let mut x = position(&g, lanes, &[&[60], &[16], &[17]]);
        play(&g, &mut x, &[60, 16, 17]);
        step(&g, &mut x, 0, 100);
        assert_eq!(g.observation(&x, 1)["resolving"], json!(16));
        assert_eq!(legal(&g, &x), [100, 101, 102, 110]);
        // Seat 1 declines (takes lane 2); the free place stays open for 17, the next card.
        step(&g, &mut x, 1, 102);
        assert_eq!(pens(&x, 3), [0, 1, 0]);
        assert_eq!(legal(&g, &x), [102, 110]);
        step(&g, &mut x, 2, 110);
        assert_eq!(
            sj(&g, &x)["lanes"],
            json!([[[12], [15], [17], [60, 20]], [[30]], [[16]]])
        );
        // A card that fits a lane end is not pulled into the free place by the smallest
        // difference: 21 (20 closest below) may still choose the free place (15 < 21).
        let mut x = position(&g, lanes, &[&[60], &[21], &[50]]);
        play(&g, &mut x, &[60, 21, 50]);
        step(&g, &mut x, 0, 100);
        assert_eq!(g.observation(&x, 1)["decision"], "target");
        assert_eq!(legal(&g, &x), [100, 110]);
        // The free place never accepts a card not larger than the number before it.
        let mut x = position(&g, lanes, &[&[60], &[14], &[50]]);
        play(&g, &mut x, &[60, 14, 50]);
        step(&g, &mut x, 0, 100);
        assert_eq!(legal(&g, &x), [100, 101, 102]);
        // Labels of 110 + k at take and insert nodes.
        let mut x = position(&g, lanes, &[&[60], &[16], &[50]]);
        play(&g, &mut x, &[60, 16, 50]);
        step(&g, &mut x, 0, 100);
        assert_eq!(label(&g, &x, 110), "fill the free place in lane 0");
        assert_eq!(label(&g, &x, 112), "fill the free place in lane 2");
        assert_eq!(label(&g, &x, 113), "action 113");
        assert_eq!(g.penalty_of(&x.board, 16, Decision::Take, 110), 0);
        let gi = game(3, json!({"too_low": "insert"}));
        let mut x = position(&gi, lanes, &[&[60], &[16], &[50]]);
        play(&gi, &mut x, &[60, 16, 50]);
        step(&gi, &mut x, 0, 100);
        assert_eq!(gi.observation(&x, 1)["decision"], "insert");
        assert_eq!(legal(&gi, &x), [100, 101, 102, 110]);
        assert_eq!(label(&gi, &x, 110), "fill the free place in lane 0");
        assert_eq!(label(&gi, &x, 100), "insert into lane 0");
        // Inserting into lane 0 instead: 16 goes in front of the free place, never between
        // the free place and its tow truck (which then counts 2 at the end of the turn).
        step(&gi, &mut x, 1, 100);
        assert_eq!(
            sj(&gi, &x)["lanes"][0],
            json!([[12], [15], [16], null, [60, 20]])
        );
        step(&gi, &mut x, 2, 102);
        let st = sj(&gi, &x);
        assert_eq!(st["lanes"][0], json!([[12], [15], [16], [60, 20]]));
        assert_eq!(st["place_cars"][0], json!([1, 1, 1, 2]));
    }

    #[test]
    fn police_cars() {
        let g = game(3, json!({}));
        // Full lanes are not legal; a second police car stacks even on a (now) full lane.
        let mut x = position(
            &g,
            &[
                &[&[12], &[13], &[14], &[15]],
                &[&[30], &[31], &[33]],
                &[&[41]],
            ],
            &[&[57], &[58], &[50]],
        );
        play(&g, &mut x, &[57, 58, 50]);
        assert_eq!(legal(&g, &x), [101, 102]);
        step(&g, &mut x, 0, 101);
        assert_eq!(g.observation(&x, 0)["cars"], json!([4, 4, 1]));
        assert_eq!(legal(&g, &x), [101, 102]);
        step(&g, &mut x, 1, 101);
        assert_eq!(
            sj(&g, &x)["lanes"],
            json!([
                [[12], [13], [14], [15]],
                [[30], [31], [33], [57, 58]],
                [[41]]
            ])
        );
        // 50: 41 closest below; lane 1 open but full: the owner chooses.
        assert_eq!(legal(&g, &x), [101, 102]);
        step(&g, &mut x, 2, 101);
        assert_eq!(
            sj(&g, &x)["lanes"],
            json!([[[12], [13], [14], [15]], [[50]], [[41]]])
        );
        assert_eq!(pens(&x, 3), [0, 0, 5]);

        // Every lane full: the police car takes a lane of the owner's choice.
        let g = game(2, json!({"lanes": 2}));
        let mut x = position(
            &g,
            &[
                &[&[12], &[13], &[14], &[15]],
                &[&[30], &[31], &[33], &[35, 53]],
            ],
            &[&[59], &[58]],
        );
        play(&g, &mut x, &[59, 58]);
        // Police cars in seat order: seat 0's 59 first.
        assert_eq!(g.current_player(&x), 0);
        assert_eq!(g.observation(&x, 0)["decision"], "police_take");
        assert_eq!(label(&g, &x, 100), "take lane 0");
        assert_eq!(label(&g, &x, 102), "action 102");
        step(&g, &mut x, 0, 101);
        assert_eq!(pens(&x, 2), [5, 0]);
        // Seat 1: lane 1 stacks on the police car revealed this turn (its only legal lane, lane 0
        // is full), applied automatically.
        assert_eq!(g.current_player(&x), TERMINAL);
        assert_eq!(
            sj(&g, &x)["lanes"],
            json!([[[12], [13], [14], [15]], [[59, 58]]])
        );
        // max_cars = null: every lane is always legal.
        let g = game(2, json!({"lanes": 2, "max_cars": null}));
        let mut x = position(
            &g,
            &[&[&[12], &[13], &[14], &[15]], &[&[30]]],
            &[&[59], &[5]],
        );
        play(&g, &mut x, &[59, 5]);
        assert_eq!(legal(&g, &x), [100, 101]);
        step(&g, &mut x, 0, 100);
        assert_eq!(
            sj(&g, &x)["lanes"],
            json!([[[12], [13], [14], [15], [59], [5]], [[30]]])
        );
    }

    #[test]
    fn police_stacking_needs_a_police_car_of_this_turn() {
        let g = game(2, json!({"lanes": 2}));
        let mut x = position(
            &g,
            &[&[&[12], &[13], &[14], &[57]], &[&[30], &[31], &[33], &[35]]],
            &[&[58], &[20]],
        );
        play(&g, &mut x, &[58, 20]);
        assert_eq!(g.observation(&x, 0)["decision"], "police_take");
        step(&g, &mut x, 0, 100);
        // 20 → open lane 0 ([58]) only (35 is not below 20).
        assert_eq!(
            sj(&g, &x)["lanes"],
            json!([[[58], [20]], [[30], [31], [33], [35]]])
        );
        assert_eq!(pens(&x, 2), [4, 0]);
    }

    #[test]
    fn tow_truck_worked_example() {
        let g = game(3, json!({}));
        let lanes: &[&[&[u32]]] = &[&[&[12], &[15], &[20]], &[&[30]], &[&[41]]];
        let mut x = position(&g, lanes, &[&[60], &[18], &[25]]);
        play(&g, &mut x, &[60, 18, 25]);
        assert_eq!(g.observation(&x, 1)["decision"], "tow_truck");
        assert_eq!(legal(&g, &x), [100, 101, 102]);
        assert_eq!(label(&g, &x, 100), "tow truck to lane 0");
        step(&g, &mut x, 0, 100);
        // 18 is too low for every lane end; besides taking a lane it may fill the free place
        // (15 < 18), its owner's choice.
        assert_eq!(g.observation(&x, 1)["decision"], "take");
        assert_eq!(legal(&g, &x), [100, 101, 102, 110]);
        assert_eq!(label(&g, &x, 110), "fill the free place in lane 0");
        step(&g, &mut x, 1, 110);
        // 25 then takes the full lane; the turn is over.
        let st = sj(&g, &x);
        assert_eq!(st["lanes"], json!([[[25]], [[30]], [[41]]]));
        assert_eq!(pens(&x, 3), [0, 0, 5]);
        assert_eq!(st["phase"], "over");

        // Checking the intermediate lane: stop before 18 with a second option for it.
        let lanes2: &[&[&[u32]]] = &[&[&[12], &[15], &[20]], &[&[30], &[57]], &[&[41]]];
        let mut x = position(&g, lanes2, &[&[60], &[18], &[25]]);
        play(&g, &mut x, &[60, 18, 25]);
        step(&g, &mut x, 0, 100);
        let o = g.observation(&x, 2);
        assert_eq!(
            o["lanes"],
            json!([[[12], [15], null, [60, 20]], [[30], [57]], [[41]]])
        );
        assert_eq!(o["place_cars"], json!([[1, 1, 1, 1], [1, 1], [1]]));
        assert_eq!(o["cars"], json!([4, 2, 1]));
        assert_eq!(legal(&g, &x), [101, 110]);
        step(&g, &mut x, 1, 110);
        assert_eq!(sj(&g, &x)["lanes"][0], json!([[12], [15], [18], [60, 20]]));
        assert_eq!(sj(&g, &x)["place_cars"][0], json!([1, 1, 1, 1]));
        // 25: 20 closest below (lane 0, 4 cars) or the open lane 1.
        assert_eq!(legal(&g, &x), [100, 101]);
        step(&g, &mut x, 2, 100);
        assert_eq!(sj(&g, &x)["lanes"][0], json!([[25]]));
        assert_eq!(pens(&x, 3), [0, 0, 5]);

        // Seat 1 plays 33 instead: 25 first, lane 0 has 4 cars (the free place counts); 25 may
        // take that lane's end (20 is closest below) or fill the free place instead.
        let mut x = position(&g, lanes, &[&[60], &[33], &[25]]);
        play(&g, &mut x, &[60, 33, 25]);
        step(&g, &mut x, 0, 100);
        assert_eq!(legal(&g, &x), [100, 110]);
        let mut y = x;
        step(&g, &mut y, 2, 100);
        assert_eq!(sj(&g, &y)["lanes"], json!([[[25]], [[30], [33]], [[41]]]));
        assert_eq!(pens(&y, 3), [0, 0, 4]);
        step(&g, &mut x, 2, 110);
        assert_eq!(
            sj(&g, &x)["lanes"],
            json!([[[12], [15], [25], [60, 20]], [[30], [33]], [[41]]])
        );
        assert_eq!(pens(&x, 3), [0, 0, 0]);
    }

    #[test]
    fn tow_truck_unfilled_free_place_counts_two() {
        let g = game(3, json!({}));
        let lanes: &[&[&[u32]]] = &[&[&[12], &[15], &[20]], &[&[30]], &[&[41]]];
        let mut x = position(&g, lanes, &[&[60, 5], &[45, 21], &[42, 1]]);
        play(&g, &mut x, &[60, 45, 42]);
        step(&g, &mut x, 0, 100);
        // 42 and 45 may each fill the free place (15 below them) and both decline.
        assert_eq!(legal(&g, &x), [102, 110]);
        step(&g, &mut x, 2, 102);
        assert_eq!(legal(&g, &x), [102, 110]);
        step(&g, &mut x, 1, 102);
        let st = sj(&g, &x);
        assert_eq!(
            st["lanes"],
            json!([[[12], [15], [60, 20]], [[30]], [[41], [42], [45]]])
        );
        assert_eq!(st["place_cars"], json!([[1, 1, 2], [1], [1, 1, 1]]));
        assert_eq!(g.observation(&x, 0)["cars"], json!([4, 1, 3]));
        // Next turn: 21 (closest below: 20 on the tow truck) finds lane 0 full: takes 4 cards.
        play(&g, &mut x, &[5, 21, 1]);
        // 1 (seat 2) is too low; then 5 (seat 0) follows it.
        step(&g, &mut x, 2, 101);
        let st = sj(&g, &x);
        assert_eq!(st["lanes"], json!([[[21]], [[1], [5]], [[41], [42], [45]]]));
        assert_eq!(pens(&x, 3), [0, 4, 1]);
    }

    #[test]
    fn tow_truck_fifth_car_and_lifting_a_double_place() {
        let g = game(2, json!({}));
        let lanes: &[&[&[u32]]] = &[&[&[12]], &[&[5], &[9], &[14], &[22]], &[&[41]]];
        let mut x = position(&g, lanes, &[&[61], &[3]]);
        play(&g, &mut x, &[61, 3]);
        step(&g, &mut x, 0, 101);
        // No free place opens: 3 is too low for every lane and takes one.
        assert_eq!(pens(&x, 2), [3, 0]);
        assert_eq!(sj(&g, &x)["lanes"][1], json!([[61, 22]]));
        assert_eq!(legal(&g, &x), [100, 101, 102]);
        step(&g, &mut x, 1, 100);
        assert_eq!(sj(&g, &x)["lanes"], json!([[[3]], [[61, 22]], [[41]]]));
        assert_eq!(sj(&g, &x)["place_cars"], json!([[1], [1], [1]]));
        assert_eq!(pens(&x, 2), [3, 1]);
        // The tow truck place counts 1 after the turn (no free place was left unfilled).
        let mut x = position(&g, lanes, &[&[61], &[45]]);
        play(&g, &mut x, &[61, 45]);
        step(&g, &mut x, 0, 101);
        assert_eq!(
            sj(&g, &x)["lanes"],
            json!([[[12]], [[61, 22]], [[41], [45]]])
        );
        assert_eq!(sj(&g, &x)["place_cars"], json!([[1], [1], [1, 1]]));
        // Lifting a place that counts 2: its count is forgotten.
        let mut x = position(
            &g,
            &[&[&[12], &[61, 22]], &[&[30]], &[&[41]]],
            &[&[62], &[50]],
        );
        double(&mut x, 0, 1);
        assert_eq!(g.observation(&x, 0)["cars"], json!([3, 1, 1]));
        play(&g, &mut x, &[62, 50]);
        step(&g, &mut x, 0, 100);
        assert_eq!(legal(&g, &x), [102, 110]);
        step(&g, &mut x, 1, 102);
        let st = sj(&g, &x);
        assert_eq!(
            st["lanes"],
            json!([[[12], [62, 61, 22]], [[30]], [[41], [50]]])
        );
        assert_eq!(st["place_cars"], json!([[1, 2], [1], [1, 1]]));
        // 5th car with a double place: before = 4 (12 + 2 + 1).
        let mut x = position(
            &g,
            &[&[&[12], &[61, 22], &[25]], &[&[30]], &[&[41]]],
            &[&[62], &[50]],
        );
        double(&mut x, 0, 1);
        play(&g, &mut x, &[62, 50]);
        step(&g, &mut x, 0, 100);
        // 50 went after 41 at once (no free place, a single option).
        assert_eq!(
            sj(&g, &x)["lanes"],
            json!([[[62, 25]], [[30]], [[41], [50]]])
        );
        assert_eq!(pens(&x, 2), [3, 0]);
        assert_eq!(sj(&g, &x)["place_cars"][0], json!([1]));
        // max_cars = null: no 5th-car case.
        let g = game(2, json!({"max_cars": null}));
        let mut x = position(&g, lanes, &[&[61], &[45]]);
        play(&g, &mut x, &[61, 45]);
        step(&g, &mut x, 0, 101);
        assert_eq!(legal(&g, &x), [102, 111]);
        step(&g, &mut x, 1, 102);
        assert_eq!(sj(&g, &x)["lanes"][1], json!([[5], [9], [14], [61, 22]]));
        assert_eq!(sj(&g, &x)["place_cars"][1], json!([1, 1, 1, 2]));
        assert_eq!(pens(&x, 2), [0, 0]);
    }

    #[test]
    fn second_tow_truck_in_the_same_lane() {
        let g = game(3, json!({}));
        let mut x = position(
            &g,
            &[&[&[20]], &[&[30], &[57]], &[&[7], &[13]]],
            &[&[60, 1], &[45, 2], &[62, 3]],
        );
        play(&g, &mut x, &[60, 45, 62]);
        step(&g, &mut x, 0, 102);
        assert_eq!(sj(&g, &x)["lanes"][2], json!([[7], null, [60, 13]]));
        step(&g, &mut x, 2, 102);
        let o = g.observation(&x, 1);
        assert_eq!(o["lanes"][2], json!([[7], null, [62, 60, 13]]));
        assert_eq!(o["place_cars"][2], json!([1, 1, 1]));
        assert_eq!(o["cars"][2], json!(3));
        // 45: 20 is the closest lane end below, lane 1 is open; the free place (7 before it)
        // accepts 45 too.
        assert_eq!(legal(&g, &x), [100, 101, 112]);
        step(&g, &mut x, 1, 100);
        let st = sj(&g, &x);
        assert_eq!(
            st["lanes"],
            json!([[[20], [45]], [[30], [57]], [[7], [62, 60, 13]]])
        );
        assert_eq!(st["place_cars"], json!([[1, 1], [1, 1], [1, 2]]));
        // 10 fills the free place (7 < 10 < 13); 14 follows the tow truck (13 < 14).
        let mut x = position(
            &g,
            &[&[&[20]], &[&[30]], &[&[7], &[13]]],
            &[&[60], &[10], &[14]],
        );
        play(&g, &mut x, &[60, 10, 14]);
        step(&g, &mut x, 0, 102);
        // 10 is too low for every lane end: take a lane or fill the free place.
        assert_eq!(legal(&g, &x), [100, 101, 102, 112]);
        step(&g, &mut x, 1, 112);
        assert_eq!(sj(&g, &x)["lanes"][2], json!([[7], [10], [60, 13], [14]]));
        // A trailer may fill a free place too (7 < 10).
        let mut x = position(
            &g,
            &[&[&[20]], &[&[30]], &[&[7], &[13]]],
            &[&[60], &[51], &[2]],
        );
        play(&g, &mut x, &[60, 51, 2]);
        step(&g, &mut x, 0, 102);
        // 2: too low everywhere (the free place's value is 7) → take.
        step(&g, &mut x, 2, 100);
        // Trailer 51 (10): after the end of lane 0 (now 2) or, its owner's choice, the free place.
        assert_eq!(legal(&g, &x), [100, 112]);
        step(&g, &mut x, 1, 112);
        assert_eq!(
            sj(&g, &x)["lanes"],
            json!([[[2]], [[30]], [[7], [51], [60, 13]]])
        );
        assert_eq!(pens(&x, 3), [0, 0, 1]);
        // Taking a lane with a free place removes the free place too.
        let mut x = position(
            &g,
            &[&[&[20]], &[&[30]], &[&[7], &[13]]],
            &[&[60], &[1], &[2]],
        );
        play(&g, &mut x, &[60, 1, 2]);
        step(&g, &mut x, 0, 102);
        step(&g, &mut x, 1, 102);
        assert_eq!(sj(&g, &x)["lanes"], json!([[[20]], [[30]], [[1], [2]]]));
        assert_eq!(sj(&g, &x)["place_cars"], json!([[1], [1], [1, 1]]));
        assert_eq!(pens(&x, 3), [0, 3, 0]);
    }

    #[test]
    fn two_lanes_and_small_decks() {
        let g = game(
            2,
            json!({"lanes": 2, "hand_size": 5, "max_number": 20, "special_cards": false}),
        );
        let mut s = deal(&g, &[10, 15], &[&[11, 12, 13, 14, 16], &[1, 2, 3, 4, 5]]);
        let o = g.observation(s.state(), 0);
        assert_eq!(o["lanes"], json!([[[10]], [[15]]]));
        assert_eq!(o["penalties"], json!([0, 0]));
        commit(&mut s, &[11, 1]);
        assert_eq!(legal(&g, s.state()), [100, 101]);
        assert_eq!(label(&g, s.state(), 101), "take lane 1");
        assert_eq!(label(&g, s.state(), 102), "action 102");
        choose(&mut s, 1, 100);
        assert_eq!(sj(&g, s.state())["lanes"], json!([[[1], [11]], [[15]]]));
        let mut rng = SplitMix64::new(5);
        while g.current_player(s.state()) != TERMINAL {
            let l = legal(&g, s.state());
            let a = l[rng.below(l.len() as u64) as usize];
            s.apply(i64::from(a), None).unwrap();
        }
        assert_eq!(sj(&g, s.state())["turn"], 5);
        let o = g.observation(s.state(), 0);
        assert_eq!(o["lanes"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn labels_never_panic_and_follow_the_table() {
        let g = game(3, json!({}));
        let mut x = position(&g, &[&[&[12]], &[&[30]], &[&[41]]], &[&[5], &[20], &[54]]);
        for a in 0..NUM_ACTIONS {
            let want = if (1..=62).contains(&a) {
                format!("play {a}")
            } else {
                format!("action {a}")
            };
            assert_eq!(label(&g, &x, a), want);
        }
        play(&g, &mut x, &[5, 20, 54]);
        for a in 0..NUM_ACTIONS {
            let want = match a {
                100..=102 => format!("ambulance to lane {}", a - 100),
                _ => format!("action {a}"),
            };
            assert_eq!(label(&g, &x, a), want);
        }
        let terminal = {
            let mut y = x;
            y.phase = Phase::Over;
            y
        };
        for a in 0..NUM_ACTIONS {
            assert_eq!(label(&g, &terminal, a), format!("action {a}"));
        }
    }

    #[test]
    fn observation_and_state_keys_are_exact() {
        let g = game(4, json!({}));
        let s = Session::new(Arc::clone(&g), Some(5));
        let keys = |v: &Value| {
            let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
            k.sort();
            k
        };
        let mut want = vec![
            "seat",
            "phase",
            "decision",
            "turn",
            "hand",
            "lanes",
            "place_cars",
            "cars",
            "penalties",
            "committed",
            "own_commitment",
            "revealed",
            "resolving",
            "queue",
        ];
        want.sort();
        assert_eq!(keys(&g.observation(s.state(), 2)), want);
        let mut want = vec![
            "phase",
            "turn",
            "lanes",
            "place_cars",
            "penalties",
            "revealed",
            "queue",
            "hands",
            "commitments",
        ];
        want.sort();
        assert_eq!(keys(&sj(&g, s.state())), want);
        let d = s.to_json();
        let back = Session::from_json(Arc::clone(&g), &d).unwrap();
        assert_eq!(back.state(), s.state());
    }

    /// Structural invariants of a state between steps.
    fn check_invariants(g: &Trafficars, x: &TrafficarsState) {
        let n = g.players();
        let mut seen = x.deck;
        let mut count = x.deck.count_ones();
        let mut add = |m: u64| {
            assert_eq!(seen & m, 0, "a card is in two places");
            seen |= m;
            count += m.count_ones();
        };
        for p in 0..n {
            add(x.hands[p]);
            add(bit(u32::from(x.commitments[p])));
        }
        for (k, lane) in x.board.lanes[..g.lanes].iter().enumerate() {
            add(lane.cards_mask());
            assert_eq!(lane.cards_mask().count_ones(), lane.card_count());
            let mut fresh = *lane;
            fresh.summarize();
            assert_eq!(&fresh, lane, "the lane summary is stale");
            if x.phase != Phase::Deal || usize::from(x.dealt) > k {
                assert!(lane.len > 0);
            }
            // At most one free place, never the last place, only during resolution.
            let frees = lane.toks().iter().filter(|&&t| t == FREE).count();
            assert!(frees <= 1);
            if frees == 1 {
                assert_eq!(x.phase, Phase::Resolve);
                let i = lane.free_place().unwrap();
                let next = lane.toks()[i + 1];
                assert!(next & START != 0 && g.kind(tok_id(next)) == Kind::TowTruck);
            }
            if let Some(&first) = lane.toks().first() {
                assert!(first & START != 0);
            }
            for (i, &t) in lane.toks().iter().enumerate() {
                if t & DOUBLE != 0 {
                    assert!(t & START != 0 && g.kind(tok_id(t)) == Kind::TowTruck, "{i}");
                }
                if t & START != 0 && tok_id(t) != 0 {
                    // Never a bare tow truck on top.
                    let end = lane.place_end(i);
                    assert_ne!(g.kind(tok_id(lane.toks()[end - 1])), Kind::TowTruck);
                }
            }
            // Between two ambulances of a turn a lane may overflow: the check runs after the last.
            let ambulance_next = x
                .board
                .head()
                .is_some_and(|s| g.kind(x.board.revealed[s]) == Kind::Ambulance);
            if !g.insert && x.phase != Phase::Deal && !ambulance_next {
                if let Some(m) = g.max_cars {
                    // (A tow truck always leaves two cars: its place and the free place.)
                    assert!(lane.cars() <= m.max(2), "{}", sj(g, x));
                }
            }
        }
        let pen: u32 = x.board.penalties[..n].iter().map(|&p| u32::from(p)).sum();
        // Revealed cards are on the table (or taken) already or still waiting in the queue.
        let mut waiting = 0u64;
        for &s in x.board.pending() {
            waiting |= bit(u32::from(x.board.revealed[usize::from(s)]));
        }
        add(waiting);
        assert_eq!(
            count + pen,
            g.deck.count_ones(),
            "cards not conserved: {}",
            sj(g, x)
        );
        assert_eq!(seen | g.deck, g.deck);
        if x.phase == Phase::Commit {
            let hand_cards: u32 = x.hands[..n].iter().map(|h| h.count_ones()).sum();
            let committed = x.commitments[..n].iter().filter(|&&c| c != 0).count() as u32;
            let left = u32::from(g.hand_size - x.turn);
            assert_eq!(hand_cards + committed, left * n as u32);
        }
    }

    fn random_options(gi: u64) -> (usize, Value) {
        let n = 2 + (gi % 4) as usize;
        let lanes = 1 + (gi / 4) % 5;
        let max_cars = match (gi / 20) % 4 {
            0 => json!(4),
            1 => Value::Null,
            2 => json!(1 + (gi / 80) % 6),
            _ => json!(4),
        };
        let too_low = if (gi / 3) % 2 == 0 { "take" } else { "insert" };
        let special = gi % 7 != 3;
        let max_number = if gi % 5 == 0 { 20 + (gi / 5) % 31 } else { 50 };
        let deck = max_number as usize
            + if special {
                9 + [10u64, 20, 30].iter().filter(|&&t| t <= max_number).count()
            } else {
                0
            };
        let room = (deck - lanes as usize) / n;
        let hand = 1 + (gi as usize / 11) % room.min(12);
        (
            n,
            json!({"lanes": lanes, "max_cars": max_cars, "too_low": too_low,
                   "special_cards": special, "max_number": max_number, "hand_size": hand}),
        )
    }

    #[test]
    fn random_games_keep_invariants() {
        let mut legal_v = Vec::new();
        let mut outs = Vec::new();
        let mut resolution_decisions = 0;
        for gi in 0..3000u64 {
            let (n, opts) = random_options(gi);
            let g = game(n, opts.clone());
            let mut s = Session::new(Arc::clone(&g), Some(derive_seed(99, gi)));
            let mut bot = RandomBot::default();
            Bot::<Trafficars>::reset(&mut bot, &*g, 0, SplitMix64::new(derive_seed(100, gi)));
            let detailed = gi % 25 == 0;
            let mut steps = 0;
            while g.current_player(s.state()) != TERMINAL {
                let x = *s.state();
                check_invariants(&g, &x);
                let cp = g.current_player(&x);
                assert!(cp >= 0 && (cp as usize) < n);
                g.legal_actions(&x, &mut legal_v);
                assert!(!legal_v.is_empty());
                assert!(legal_v.windows(2).all(|w| w[0] < w[1]));
                if x.phase == Phase::Resolve {
                    assert!(legal_v.len() >= 2);
                    resolution_decisions += 1;
                }
                if detailed {
                    for a in 0..NUM_ACTIONS {
                        let _ = g.action_label(&x, a);
                    }
                    for p in 0..n {
                        let o = g.observation(&x, p);
                        assert_eq!(o["hand"], json!(ids_of(x.hands[p])));
                        for q in 0..n {
                            if q != p && x.commitments[q] != 0 {
                                assert!(o["committed"][q] == json!(true));
                            }
                        }
                    }
                    g.chance_outcomes(&x, &mut outs);
                    assert!(outs.is_empty());
                }
                let a = Bot::<Trafficars>::act(&mut bot, &*g, &x, &legal_v);
                s.apply(i64::from(a), Some(i64::from(cp))).unwrap();
                steps += 1;
                assert!(steps < 2000);
            }
            let x = *s.state();
            check_invariants(&g, &x);
            assert_eq!(x.turn, g.hand_size);
            assert_eq!(x.hands[..n].iter().fold(0, |a, h| a | h), 0);
            let w = g.winners(&x);
            let mut sc = vec![0i64; n];
            g.scores(&x, &mut sc);
            let best = *sc.iter().min().unwrap();
            assert!(!w.is_empty() && w.iter().all(|&p| sc[p] == best));
            assert_eq!(w.len(), sc.iter().filter(|&&v| v == best).count());
            if detailed {
                let back = Session::from_json(Arc::clone(&g), &s.to_json()).unwrap();
                assert_eq!(back.state(), s.state());
            }
        }
        assert!(resolution_decisions > 1000);
    }

    #[test]
    fn fast_sample_chance_equals_default() {
        let mut buf = Vec::new();
        let mut legal_v = Vec::new();
        let mut chance_nodes = 0u64;
        for gi in 0..300u64 {
            let (n, opts) = random_options(gi);
            let g = game(n, opts);
            let mut x = g.initial_state();
            let mut walk = SplitMix64::new(derive_seed(7, gi));
            while g.current_player(&x) != TERMINAL {
                if g.current_player(&x) == CHANCE {
                    chance_nodes += 1;
                    for k in 0..4 {
                        let mut fast = SplitMix64::new(derive_seed(gi, chance_nodes * 4 + k));
                        let mut slow = fast;
                        let a = g.sample_chance(&x, &mut fast, &mut buf);
                        g.chance_outcomes(&x, &mut buf);
                        assert_eq!(Some(a), slow.pick_weighted(&buf));
                        assert_eq!(fast, slow);
                    }
                }
                g.legal_actions(&x, &mut legal_v);
                let a = legal_v[walk.below(legal_v.len() as u64) as usize];
                g.apply(&mut x, a);
            }
        }
        assert!(chance_nodes > 5_000);
        let g = game(2, json!({}));
        let x = position(&g, &[&[&[12]], &[&[30]], &[&[41]]], &[&[5], &[20]]);
        let mut r = SplitMix64::new(1);
        assert_eq!(g.sample_chance(&x, &mut r, &mut buf), 0);
        assert_eq!(r, SplitMix64::new(1));
    }

    #[test]
    fn fast_paths_equal_definitions() {
        for gi in 0..60u64 {
            let (n, opts) = random_options(gi);
            crate::sim::fast_paths::assert_match(&*game(n, opts), 20, gi);
        }
    }

    #[test]
    fn kept_choice_equals_a_fresh_one() {
        let mut legal_v = Vec::new();
        let mut resolve_nodes = 0;
        for gi in 0..300u64 {
            let (n, opts) = random_options(gi);
            let g = game(n, opts);
            let mut x = g.initial_state();
            let mut walk = SplitMix64::new(derive_seed(11, gi));
            while g.current_player(&x) != TERMINAL {
                if x.phase == Phase::Resolve {
                    resolve_nodes += 1;
                    let (_, _, fresh) = g.head_choice(&x.board).unwrap();
                    assert_eq!(x.choice, fresh);
                } else {
                    assert_eq!(x.choice, Choice::NONE);
                }
                g.legal_actions(&x, &mut legal_v);
                let a = legal_v[walk.below(legal_v.len() as u64) as usize];
                g.apply(&mut x, a);
            }
        }
        assert!(resolve_nodes > 1000);
    }

    #[test]
    fn greedy_ignores_hidden_information() {
        let g = game(4, json!({}));
        let mut bots: Vec<GreedyBot> = vec![GreedyBot::default(); 4];
        let mut legal_v = Vec::new();
        for gi in 0..40u64 {
            let mut s = Session::new(Arc::clone(&g), Some(derive_seed(3, gi)));
            for (i, b) in bots.iter_mut().enumerate() {
                b.reset(&g, i, SplitMix64::new(derive_seed(gi, i as u64)));
            }
            while g.current_player(s.state()) != TERMINAL {
                let cp = g.current_player(s.state()) as usize;
                g.legal_actions(s.state(), &mut legal_v);
                let mut twin = bots[cp].clone();
                let a = bots[cp].act(&g, s.state(), &legal_v);
                let mut hidden = *s.state();
                for p in (0..4).filter(|&p| p != cp) {
                    hidden.hands[p] = 0;
                    if hidden.commitments[p] != 0 {
                        hidden.commitments[p] = 62;
                    }
                }
                hidden.deck = 0;
                assert_eq!(twin.act(&g, &hidden, &legal_v), a);
                s.apply(i64::from(a), None).unwrap();
                for b in bots.iter_mut() {
                    b.observe(&g, s.state());
                }
            }
        }
    }

    /// Plays `games` seeded games of one greedy bot (rotating its seat) against random bots;
    /// returns its win share (a shared win counts 1 / number of winners) and mean penalties of
    /// the greedy seat and of the random seats.
    fn greedy_vs_random(g: &Arc<Trafficars>, games: u64, seed: u64) -> (f64, f64, f64) {
        let n = g.players();
        let mut legal_v = Vec::new();
        let mut chance = Vec::new();
        let (mut wins, mut mine, mut theirs) = (0.0, 0.0, 0.0);
        let mut x = g.initial_state();
        for gi in 0..games {
            let greedy_seat = (gi % n as u64) as usize;
            let mut bots: Vec<Box<dyn Bot<Trafficars>>> = (0..n)
                .map(|p| -> Box<dyn Bot<Trafficars>> {
                    if p == greedy_seat {
                        Box::new(GreedyBot::default())
                    } else {
                        Box::new(RandomBot::default())
                    }
                })
                .collect();
            crate::sim::play_game(
                &**g,
                &mut bots,
                derive_seed(seed, gi),
                &mut x,
                &mut legal_v,
                &mut chance,
            )
            .unwrap();
            let w = g.winners(&x);
            if w.contains(&greedy_seat) {
                wins += 1.0 / w.len() as f64;
            }
            for p in 0..n {
                let v = f64::from(x.board.penalties[p]);
                if p == greedy_seat {
                    mine += v;
                } else {
                    theirs += v / (n - 1) as f64;
                }
            }
        }
        let k = games as f64;
        (wins / k, mine / k, theirs / k)
    }

    #[test]
    fn greedy_beats_random() {
        let g = game(4, json!({}));
        let (rate, mine, theirs) = greedy_vs_random(&g, 20_000, 2024);
        println!(
            "greedy vs 3 random, 4 players: win share {rate:.4}, penalties {mine:.2} vs {theirs:.2}"
        );
        assert!(rate > 0.5, "greedy win share {rate}");
        let g = game(
            2,
            json!({"lanes": 2, "max_number": 20, "hand_size": 5, "too_low": "insert"}),
        );
        let (rate, ..) = greedy_vs_random(&g, 2_000, 7);
        println!("greedy vs random, 2 players, easy game: win share {rate:.4}");
        assert!(rate > 0.55, "greedy win share {rate}");
    }
}
