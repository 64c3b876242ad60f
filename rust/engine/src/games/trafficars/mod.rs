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
//!   `hand_size`, `revealed` is null, `last_revealed` holds the last turn's cards and `queue` is
//!   [] (`last_revealed` is null until a turn has ended: contract Decision 20).
//! - "Revealed this turn" (ambulance and police stacking) means: the card id is one of this turn's
//!   revealed cards (ids are unique, so a card of an earlier turn never qualifies).
//! - A lane is never left without places after the deal: every rule that empties a lane puts the
//!   played card back into it at once.
//! - The option `max_cars` bounds only what the contract says it bounds (rule 3 for cars, the
//!   ambulance overflow, police legality and the tow truck's 5th-car case); `too_low = "insert"`
//!   may make a lane longer than `max_cars`, and later cars into such a lane take it (rule 3:
//!   "cars(L) ≥ max_cars"). A tow truck never does: it opens a free place only in a lane with
//!   fewer than `max_cars` cars, and in a full lane it is the 5th-car case, where the tow truck
//!   with its load is the lane's only place and no free place opens (with `max_cars = 1` every
//!   lane is full, so every tow truck is).
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
//!
//! Layout of this folder: this file owns the rules (card table, lanes, resolution, `impl Game`)
//! and neither renders a state nor chooses a move; `view` renders states (canonical state,
//! observation, tensor, labels) and must never change one; `bots` holds the built-in `greedy` bot,
//! which reads only what its seat may know; `events` names the rule events a step triggers
//! (contract, "Rule events"); `playout` plays whole random games for the batch runner with the
//! same draws as stepping one node at a time; `tests` holds the rule scenarios by topic. Generic
//! checks of every game (legal lists, chance weights, fast paths, bot strength, observation keys)
//! live in the shared test kit, not here. The card table, `Kind` and the card id range are
//! `pub(crate)`: the memory game (`trafficars_memory`) reads the same deck through them.

mod bots;
mod determinize;
mod events;
mod playout;
#[cfg(test)]
mod tests;
mod view;

pub use bots::GreedyBot;

use crate::bits;
use crate::error::{EngineError, Result};
use crate::game::{Game, CHANCE, TERMINAL};
use crate::options::OptionValues;
use crate::rng::SplitMix64;
use crate::step::StepResult;
use serde_json::Value;
use std::ops::RangeInclusive;
use std::sync::OnceLock;

/// Most seats a game can have: its most players.
const MAX_SEATS: usize = Trafficars::PLAYERS.1;
/// Most lanes a game can have.
const MAX_LANES: usize = 5;
/// Card ids are 1..=62.
const CARD_IDS: usize = 62;
/// The lowest card id.
pub(crate) const FIRST_CARD: u32 = 1;
/// The highest card id.
pub(crate) const LAST_CARD: u32 = CARD_IDS as u32;
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
/// Action ids of the deal (lane starters, then the hands) and of the commitments: the card id
/// itself.
const CARD_ACTIONS: RangeInclusive<u32> = FIRST_CARD..=LAST_CARD;
/// Action id of the resolution option "lane k" (ambulance / police / tow truck / car to lane k,
/// take lane k, insert into lane k): `LANE_OPTION + k`.
const LANE_OPTION: u32 = 100;
/// Action id of the resolution option "fill the free place in lane k": `FREE_PLACE_OPTION + k`.
const FREE_PLACE_OPTION: u32 = 110;
/// Size of the action space (the same for every option setting).
const NUM_ACTIONS: u32 = 115;
const _: () = assert!(LANE_OPTION + MAX_LANES as u32 <= FREE_PLACE_OPTION);
const _: () = assert!(FREE_PLACE_OPTION + MAX_LANES as u32 == NUM_ACTIONS);
/// Most options of one resolution decision (every lane end and every free place).
const MAX_OPTIONS: usize = 2 * MAX_LANES;
/// "No seat" marker.
const NO_SEAT: usize = usize::MAX;

/// The deck table shared with the reference implementation.
const CARDS_JSON: &str = crate::data::TRAFFICARS_CARDS_JSON;

/// The card id held by a lane token.
#[inline]
fn tok_id(t: u8) -> u8 {
    t & ID_BITS
}

/// What a card is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
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
pub(crate) struct CardTable {
    /// The kind per card id.
    pub(crate) kind: [Kind; ID_SLOTS],
    /// The number per card id (0 for the numberless specials).
    pub(crate) number: [u8; ID_SLOTS],
    /// The value of a stack with this card on top: its number for a car or trailer, 0 (open)
    /// for a special card or the free place (id 0).
    top_value: [u8; ID_SLOTS],
    /// The card's part of its place in the reveal order (`Trafficars::reveal`): its class and
    /// number as `class << 16 | number << 8`, the seat to be added in the low byte. For the
    /// `greedy` bot's lookahead, which orders many sampled reveals.
    queue_key: [u32; ID_SLOTS],
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
        queue_key: [0; ID_SLOTS],
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
    for (key, (kind, &number)) in t.queue_key.iter_mut().zip(t.kind.iter().zip(&t.number)) {
        *key = u32::from(kind.class()) << 16 | u32::from(number) << 8;
    }
    Ok(t)
}

/// The embedded deck table, parsed once.
pub(crate) fn card_table() -> Result<&'static CardTable> {
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

    /// Token `i` (any index: it wraps around the capacity, so `len - 1` of an empty lane or
    /// `i - 1` of the first token read some token rather than panic; callers check the summary).
    #[inline(always)]
    fn token(&self, i: u8) -> u8 {
        self.tok[usize::from(i) % LANE_CAP]
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

    /// Bitset of the card ids in the lane: a shift per token (ids are six bits), then the bits
    /// outside the card ids (the free place's 0) masked off once.
    #[inline]
    fn cards_mask(&self) -> u64 {
        const CARD_BITS: u64 = (u64::MAX >> (63 - LAST_CARD)) & !((1 << FIRST_CARD) - 1);
        self.toks().iter().fold(0, |m, &t| m | 1u64 << tok_id(t)) & CARD_BITS
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
    /// The last ended turn's revealed card per seat, 0 before any (contract Decision 20).
    last_revealed: [u8; MAX_SEATS],
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
        last_revealed: [0; MAX_SEATS],
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

crate::game::phases! {
    /// Where the game stands.
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

crate::options::game_options! {
    /// The options of the traffic jam, as read for [`Game::with_options`].
    #[players(2..=5)]
    pub struct TrafficarsOptions {
        /// car cards 1..max_number are used (5..=50)
        max_number: int(50, 5, 50),
        /// cards dealt to each seat = number of turns (1..=30)
        hand_size: int(10, 1, 30),
        /// number of lanes (1..=5)
        lanes: int(3, 1, MAX_LANES as i64),
        /// use the special cards (trailers, ambulances, police cars, tow trucks)
        special_cards: bool(true),
        /// cars a lane may hold before the next car takes it (1..=50); null = no limit
        max_cars: optional_int(Some(4), 1, 50),
        /// a card that fits no lane takes a lane (take) or is inserted in order (insert)
        too_low: choice("take", &["take", "insert"]),
    }
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

    /// `CardTable::queue_key` of card `id` (an id past the table wraps around it, so there is
    /// no bounds check).
    #[inline(always)]
    fn queue_key(&self, id: u8) -> u32 {
        self.cards.queue_key[usize::from(id) % ID_SLOTS]
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
            v.last_value = self.end_value(lane).unwrap_or(0);
        }
        if let Some(after) = self.free_after(lane) {
            v.has_free = true;
            v.free_after = after;
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
            self.kind(id) == Kind::Ambulance
                && revealed_mask & bits::bit_in(u32::from(id), FIRST_CARD, LAST_CARD) != 0
        })
    }

    /// Whether the last place of `lane` is a stack whose bottom card is a police car revealed
    /// this turn (a new police car stacks on it).
    fn police_stacks(&self, revealed_mask: u64, lane: &Lane) -> bool {
        lane.last_start()
            .and_then(|s| lane.toks().get(s))
            .is_some_and(|&t| {
                let id = tok_id(t);
                self.kind(id) == Kind::Police
                    && revealed_mask & bits::bit_in(u32::from(id), FIRST_CARD, LAST_CARD) != 0
            })
    }

    /// The resolution options of `card` on board `b`.
    fn card_choice(&self, b: &Board, card: u8) -> Choice {
        let lanes = &b.lanes[..self.lanes];
        let revealed = |id: u8, kind: Kind| {
            self.kind(id) == kind
                && b.revealed_mask & bits::bit_in(u32::from(id), FIRST_CARD, LAST_CARD) != 0
        };
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
                        c.push(LANE_OPTION + k as u32);
                    }
                }
                if c.n == 0 {
                    c = self.every_lane(Decision::PoliceTake);
                }
                c
            }
            Kind::Car | Kind::Trailer => self.number_choice(lanes, self.number(card)),
        }
    }

    /// The stack value of the last place of `lane` (its last token's), or `None` if it has no
    /// place.
    #[inline(always)]
    fn end_value(&self, lane: &Lane) -> Option<u8> {
        (lane.last_start != Lane::NONE)
            .then(|| self.top_value(lane.token(lane.len.wrapping_sub(1))))
    }

    /// The stack value of the place before the free place of `lane` (0 when the free place is
    /// at the front), or `None` if it has no free place: the top token of that place is the one
    /// just before the free place.
    #[inline(always)]
    fn free_after(&self, lane: &Lane) -> Option<u8> {
        (lane.free != Lane::NONE).then(|| {
            if lane.free_first {
                0
            } else {
                self.top_value(lane.token(lane.free.wrapping_sub(1)))
            }
        })
    }

    /// Whether `lane` has a free place that accepts the number `x` under the increasing rule
    /// alone.
    #[inline(always)]
    fn free_accepts(&self, lane: &Lane, x: u8) -> bool {
        self.free_after(lane).is_some_and(|after| after < x)
    }

    /// The resolution options of a numbered card with number `x` on `lanes`.
    #[inline]
    fn number_choice(&self, lanes: &[Lane], x: u8) -> Choice {
        // Rules 1–2 on the lane ends only: the closest numbered end value below X (0 = none) ...
        let mut ends = [None; MAX_LANES];
        let mut best = 0;
        // Bit k: lane k's free place accepts X.
        let mut free = 0u32;
        for (k, (end, lane)) in ends.iter_mut().zip(lanes).enumerate() {
            *end = self.end_value(lane);
            if let Some(v) = *end {
                if v != 0 && v < x {
                    best = best.max(v);
                }
            }
            if self.free_accepts(lane, x) {
                free |= 1 << k;
            }
        }
        // ... and every open lane end (rule 4 when there is none) ...
        let mut c = Choice::new(Decision::Target);
        for (k, end) in ends.iter().enumerate() {
            if end.is_some_and(|v| v == 0 || v == best) {
                c.push(LANE_OPTION + k as u32);
            }
        }
        if c.n == 0 {
            c = self.too_low_choice();
        }
        // ... plus, as a permission beside them, every free place that accepts X under the
        // increasing rule alone (a free place at the front, or after an open stack, accepts
        // every number).
        for k in bits::ones(u64::from(free)) {
            c.push(FREE_PLACE_OPTION + k);
        }
        c
    }

    /// Rule 4: a numbered card that fits no lane end is taken into a lane of the owner's choice,
    /// or inserted into one with `too_low = insert`.
    fn too_low_choice(&self) -> Choice {
        self.every_lane(if self.insert {
            Decision::Insert
        } else {
            Decision::Take
        })
    }

    fn every_lane(&self, kind: Decision) -> Choice {
        let mut c = Choice::new(kind);
        for k in 0..self.lanes {
            c.push(LANE_OPTION + k as u32);
        }
        c
    }

    /// The lane index of a resolution action (`100 + k` or `110 + k`).
    fn lane_of(&self, act: u32) -> Option<usize> {
        let k = if act >= FREE_PLACE_OPTION {
            act - FREE_PLACE_OPTION
        } else {
            act.wrapping_sub(LANE_OPTION)
        };
        let k = k as usize;
        (k < self.lanes).then_some(k)
    }

    /// The penalty cards the owner of `card` takes by choosing `act` (of decision `kind`) now.
    fn penalty_of(&self, b: &Board, card: u8, kind: Decision, act: u32) -> u32 {
        let Some(lane) = self.lane_of(act).and_then(|k| b.lanes.get(k)) else {
            return 0;
        };
        if act >= FREE_PLACE_OPTION {
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
        if act >= FREE_PLACE_OPTION {
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
        // The sort key (class, number, seat) packed into one integer that orders the same way
        // (class < 4, number ≤ 50, seat < 5), computed once per card.
        let mut keys = [0u32; MAX_SEATS];
        for (s, &card) in cards.iter().enumerate().take(self.players) {
            if card == 0 {
                continue;
            }
            b.revealed_mask |= bits::bit_in(u32::from(card), FIRST_CARD, LAST_CARD);
            let key = u32::from(self.kind(card).class()) << 16
                | u32::from(self.number(card)) << 8
                | s as u32;
            // Insertion sort: at most five seats.
            let mut i = usize::from(b.qlen).min(MAX_SEATS - 1);
            while i > 0 && keys[i - 1] > key {
                keys[i] = keys[i - 1];
                i -= 1;
            }
            keys[i] = key;
            b.qlen += 1;
        }
        for (q, &key) in b.queue.iter_mut().zip(&keys).take(usize::from(b.qlen)) {
            *q = key as u8;
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
    /// becomes the last turn's reveal, and the reveal and the queue are cleared.
    fn end_turn_board(&self, b: &mut Board) {
        for lane in &mut b.lanes[..self.lanes] {
            if let Some(i) = lane.free_place() {
                lane.remove(i);
                if let Some(&t) = lane.toks().get(i) {
                    lane.set(i, t | DOUBLE);
                }
            }
        }
        b.last_revealed = b.revealed;
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
        self.end_turn(st);
    }

    /// Flow step 6 once the queue is empty, and on to the next turn (or the end of the game).
    fn end_turn(&self, st: &mut TrafficarsState) {
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
}

impl Game for Trafficars {
    type State = TrafficarsState;
    const ID: &'static str = "trafficars";
    /// Greedy playouts with tree opponents: random playouts do not beat `greedy`, and with
    /// rollout opponents 4000 iterations lose to 250 (`docs/search.md`).
    const SEARCH_DEFAULTS: &'static str = "rollout=greedy";
    type Options = TrafficarsOptions;

    fn with_options(players: usize, options: Self::Options, values: OptionValues) -> Result<Self> {
        let cards = *card_table()?;
        let max_number = options.max_number as u8;
        let hand_size = options.hand_size as u8;
        let lanes = options.lanes as usize;
        let special_cards = options.special_cards;
        let max_cars = options.max_cars.map(|m| m as u32);
        let (mut deck, mut cars) = (0u64, 0u64);
        for id in 1..=CARD_IDS {
            let (kind, number) = (cards.kind[id], cards.number[id]);
            let used = match kind {
                Kind::Car => number <= max_number,
                Kind::Trailer => special_cards && number <= max_number,
                Kind::Ambulance | Kind::Police | Kind::TowTruck => special_cards,
            };
            if used {
                let b = bits::bit_in(id as u32, FIRST_CARD, LAST_CARD);
                deck |= b;
                if kind == Kind::Car {
                    cars |= b;
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
            insert: options.too_low == 1,
            cards,
            deck,
            cars,
            option_values: values,
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
        out.extend(bits::ones(self.card_actions(st)));
    }

    #[inline(always)]
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

    /// The card actions' bitset, or the choices of the resolution one by one.
    #[inline(always)]
    fn legal_bits(&self, st: &TrafficarsState, out: &mut [u64], _buf: &mut Vec<u32>) {
        if st.phase == Phase::Resolve {
            crate::game::legal_bits_of(out, st.choice.acts().iter().map(|&a| u32::from(a)));
        } else {
            crate::game::one_word_legal_bits(out, self.card_actions(st));
        }
    }

    #[inline(always)]
    fn uniform_chance(&self, st: &TrafficarsState) -> Option<u64> {
        (st.phase == Phase::Deal).then(|| self.card_actions(st))
    }

    #[inline]
    fn apply(&self, st: &mut TrafficarsState, action: u32) {
        match st.phase {
            Phase::Deal => {
                let b = bits::bit_in(action, FIRST_CARD, LAST_CARD);
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
                let b = bits::bit_in(action, FIRST_CARD, LAST_CARD);
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

    #[inline(always)]
    fn play_randomly(
        &self,
        st: &mut TrafficarsState,
        table: &mut crate::step::RandomTable<'_>,
    ) -> StepResult<()> {
        self.playout(st, table)
    }

    fn scores(&self, st: &TrafficarsState, out: &mut [i64]) {
        crate::game::write_scores(&st.board.penalties[..self.players], out);
    }

    fn winner_mask(&self, st: &TrafficarsState) -> u64 {
        let pens = &st.board.penalties[..self.players];
        crate::game::seats_with(pens, pens.iter().copied().min().unwrap_or(0))
    }

    fn higher_score_is_better(&self) -> bool {
        false
    }

    crate::game::common_game_methods!(num_actions: NUM_ACTIONS, determinize: sample_unseen);

    crate::game::builtin_bots! {
        "greedy" [N: "a number of sampled deals", 0..=bots::MAX_SAMPLES,
            default bots::DEFAULT_SAMPLES, example 4]
            => GreedyBot::with_samples,
    }
}
