//! Trafficars – Ruuhkaara, game 2: the memory game (`trafficars_memory`), 2–5 players.
//!
//! Rules: `rules/trafficars.md` ("Game 2"); engine contract (options, layout, run and end rules,
//! action ids, labels, observation, canonical state): `docs/games/trafficars_memory.md`.
//!
//! Data layout: the grid is a fixed array of card ids by position; every set of positions (on the
//! table, ever seen, flipped this turn) is a `u64` bitset over positions 0..62, and the cards
//! flipped this turn are kept as a `u64` bitset of car numbers plus a joker count, so `apply` and
//! `legal_actions` never allocate and the state is `Copy`.
//!
//! Everything the contract fixes is implemented as written. Points it leaves open, decided here
//! (the simplest reading):
//! - During the layout `current` is null, `faces` and `seen` are all null and `on_table` is true
//!   exactly for the positions laid so far; `flipped` is [] and `taken` all 0.
//! - The game can only be over at once after the layout if the deck holds no collectable set; with
//!   at least two consecutive cars (required by the options) that never happens, but the end test
//!   is still applied as the contract says.
//! - Scores are the running `taken` counts; winners are the seats with the most cards taken.
//!
//! Bots: `memory` (perfect memory, reads the observation's `seen`) and `forgetful:P` (its own
//! memory, each remembered card forgotten with probability P at the start of each of its turns,
//! P = 0.2 without a parameter); see [`MemoryBot`]. The card that breaks a run is never face up
//! in an observation (it is turned back within the same step), so `forgetful` learns it from the
//! position that newly appears in `seen` (or from its own flip); a breaker that was already seen
//! and that `forgetful` has forgotten is not learnt again when another seat flips it.

use crate::error::{EngineError, Result};
use crate::game::{Bot, Game, CHANCE, TERMINAL};
use crate::options::{OptionReader, OptionSpec, OptionValues};
use crate::rng::SplitMix64;
use crate::tensor::{scaled, TensorWriter};
use serde_json::{json, Map, Value};

/// Most seats a game can have.
const MAX_SEATS: usize = 5;
/// Most positions in the grid (50 cars and 12 jokers).
const MAX_GRID: usize = 62;
/// Card id of the first joker (special cards are 51..=62).
const FIRST_JOKER: u32 = 51;
/// Highest card id.
const LAST_CARD: u32 = 62;
/// Action id of "stop and take the run" (never a position: the grid has at most 62).
const STOP: u32 = 63;
/// Size of the action space (positions 0..61 for flips, [`STOP`]; card ids 1..62 at the layout).
const NUM_ACTIONS: u32 = 64;
/// "No seat" marker.
const NO_SEAT: u8 = u8::MAX;

/// Whether card `card` is a joker (a special card).
#[inline]
fn is_joker(card: u32) -> bool {
    card >= FIRST_JOKER
}

/// The set bits of a mask, in increasing order (an allocation-free iterator).
#[derive(Clone, Copy, Debug)]
struct Bits(u64);

impl Iterator for Bits {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            let b = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(b)
        }
    }
}

/// The set bit of rank `u` (0-based, increasing) of `mask`; `u` must be below the bit count.
#[inline]
fn select_bit(mut mask: u64, mut u: u32) -> u32 {
    let mut base = 0u32;
    while base < 48 {
        let c = (mask & 0xFFFF).count_ones();
        if u < c {
            break;
        }
        u -= c;
        mask >>= 16;
        base += 16;
    }
    for _ in 0..u {
        mask &= mask.wrapping_sub(1);
    }
    base + mask.trailing_zeros()
}

/// `gaps(C)`: the missing numbers inside the span of the car set `cars` (non-empty).
#[inline]
fn gaps(cars: u64) -> u32 {
    let hi = 63 - cars.leading_zeros();
    let lo = cars.trailing_zeros();
    hi - lo + 1 - cars.count_ones()
}

/// The contract's "may continue": `|C| ≤ 1` or `gaps(C) ≤ j`.
#[inline]
fn may_continue(cars: u64, jokers: u32) -> bool {
    cars.count_ones() <= 1 || gaps(cars) <= jokers
}

/// The contract's "collectable": `|C| ≥ 2` and `gaps(C) ≤ j`.
#[inline]
fn collectable(cars: u64, jokers: u32) -> bool {
    cars.count_ones() >= 2 && gaps(cars) <= jokers
}

/// The contract's end test on the cards of the table (a bitset of card ids): whether some two
/// cars adjacent among the table's cars have a gap the table's jokers can fill.
fn contains_collectable(table_cards: u64) -> bool {
    let jokers = (table_cards >> FIRST_JOKER).count_ones();
    let cars = table_cards & car_bits();
    let mut prev: Option<u32> = None;
    for c in Bits(cars) {
        if let Some(p) = prev {
            if c - p - 1 <= jokers {
                return true;
            }
        }
        prev = Some(c);
    }
    false
}

/// Bits 1..=50: every car number.
#[inline]
const fn car_bits() -> u64 {
    ((1u64 << 51) - 1) ^ 1
}

/// The bit of card `card` in a card bitset (0 for anything outside 1..=62).
#[inline]
fn card_bit(card: u32) -> u64 {
    if (1..=LAST_CARD).contains(&card) {
        1u64 << card
    } else {
        0
    }
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Phase {
    /// Chance: the card of the next grid position.
    Layout,
    /// Seat `current` flips a face-down position.
    Flip,
    /// The game is over.
    Over,
}

impl Phase {
    fn name(self) -> &'static str {
        match self {
            Self::Layout => "layout",
            Self::Flip => "flip",
            Self::Over => "over",
        }
    }
}

/// The Trafficars memory game with a fixed player count and options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrafficarsMemory {
    players: usize,
    min_number: u32,
    max_number: u32,
    jokers: bool,
    /// Grid size `N` = cars used + jokers used.
    grid: usize,
    /// Bitset of the card ids of the deck.
    deck: u64,
    option_values: OptionValues,
}

/// The full state of one game (small and `Copy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TrafficarsMemoryState {
    phase: Phase,
    /// The seat to flip, `NO_SEAT` during the layout and at the end.
    current: u8,
    /// Card id per position (the first `laid` entries are meaningful).
    layout: [u8; MAX_GRID],
    /// Positions laid so far.
    laid: u8,
    /// Bitset of the card ids laid so far.
    laid_cards: u64,
    /// Bitset of the card ids still on the table.
    table_cards: u64,
    /// Positions whose card is on the table.
    on_table: u64,
    /// Positions on the table whose card has been face up at some time.
    seen: u64,
    /// This turn's face-up positions in flip order (first `flipped_len` entries).
    flipped: [u8; MAX_GRID],
    flipped_len: u8,
    /// Bitset of the positions in `flipped`.
    flipped_mask: u64,
    /// Car numbers among the flipped cards.
    k_cars: u64,
    /// Jokers among the flipped cards.
    k_jokers: u8,
    /// Cards taken per seat.
    taken: [u8; MAX_SEATS],
}

impl TrafficarsMemoryState {
    /// The card at position `pos` (0 if out of range or not laid).
    #[inline]
    fn card_at(&self, pos: u32) -> u32 {
        self.layout.get(pos as usize).map_or(0, |&c| u32::from(c))
    }

    /// Face-down positions still on the table: the legal flips.
    #[inline]
    fn face_down(&self) -> u64 {
        self.on_table & !self.flipped_mask
    }
}

impl TrafficarsMemory {
    /// The grid size `N` (cars used plus jokers used).
    pub fn grid_size(&self) -> usize {
        self.grid
    }

    /// Contract flow step 3: the turn ends with the flipped cards (the breaker already removed).
    fn end_turn(&self, st: &mut TrafficarsMemoryState) {
        if collectable(st.k_cars, u32::from(st.k_jokers)) {
            let mut count = 0u8;
            for p in Bits(st.flipped_mask) {
                st.table_cards &= !card_bit(st.card_at(p));
                count += 1;
            }
            st.on_table &= !st.flipped_mask;
            st.seen &= !st.flipped_mask;
            if let Some(t) = st.taken.get_mut(usize::from(st.current)) {
                *t += count;
            }
        }
        st.flipped_len = 0;
        st.flipped_mask = 0;
        st.k_cars = 0;
        st.k_jokers = 0;
        if contains_collectable(st.table_cards) {
            st.current = ((usize::from(st.current) + 1) % self.players) as u8;
        } else {
            st.phase = Phase::Over;
            st.current = NO_SEAT;
        }
    }

    /// Contract flow step 2: seat `current` flips position `pos`.
    fn flip(&self, st: &mut TrafficarsMemoryState, pos: u32) {
        let bit = 1u64 << pos;
        if pos as usize >= MAX_GRID || st.face_down() & bit == 0 {
            return;
        }
        let card = st.card_at(pos);
        let len = usize::from(st.flipped_len).min(MAX_GRID - 1);
        st.flipped[len] = pos as u8;
        st.flipped_len = len as u8 + 1;
        st.flipped_mask |= bit;
        st.seen |= bit;
        let (cars, jokers) = if is_joker(card) {
            (st.k_cars, u32::from(st.k_jokers) + 1)
        } else {
            (st.k_cars | card_bit(card), u32::from(st.k_jokers))
        };
        if !may_continue(cars, jokers) {
            // The breaker turns face down again (it stays seen); the turn ends without it.
            st.flipped_len -= 1;
            st.flipped_mask &= !bit;
            self.end_turn(st);
            return;
        }
        st.k_cars = cars;
        st.k_jokers = jokers as u8;
        // With nothing left to flip the turn ends at once; otherwise the same seat is asked
        // again (to flip on, or, once the run is collectable, to stop: [`STOP`]).
        if st.face_down() == 0 {
            self.end_turn(st);
        }
    }

    /// Whether seat `current` may stop and take the run: the cards flipped this turn are
    /// collectable and some card is still face down.
    #[inline]
    fn can_stop(st: &TrafficarsMemoryState) -> bool {
        st.phase == Phase::Flip
            && collectable(st.k_cars, u32::from(st.k_jokers))
            && st.face_down() != 0
    }

    fn per_position<F: Fn(usize) -> Value>(&self, f: F) -> Value {
        Value::Array((0..self.grid).map(f).collect())
    }

    fn faces_json(&self, st: &TrafficarsMemoryState) -> Value {
        self.per_position(|p| {
            if st.flipped_mask >> p & 1 == 1 {
                json!(st.layout[p])
            } else {
                Value::Null
            }
        })
    }

    fn seen_json(&self, st: &TrafficarsMemoryState) -> Value {
        self.per_position(|p| {
            if st.seen >> p & 1 == 1 {
                json!(st.layout[p])
            } else {
                Value::Null
            }
        })
    }

    fn on_table_json(&self, st: &TrafficarsMemoryState) -> Value {
        self.per_position(|p| Value::Bool(st.on_table >> p & 1 == 1))
    }

    fn current_json(st: &TrafficarsMemoryState) -> Value {
        if st.current == NO_SEAT {
            Value::Null
        } else {
            json!(st.current)
        }
    }

    fn flipped_json(st: &TrafficarsMemoryState) -> Value {
        json!(&st.flipped[..usize::from(st.flipped_len).min(MAX_GRID)])
    }

    fn taken_json(&self, st: &TrafficarsMemoryState) -> Value {
        json!(&st.taken[..self.players])
    }
}

impl Game for TrafficarsMemory {
    type State = TrafficarsMemoryState;

    const ID: &'static str = "trafficars_memory";

    fn option_specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec::int(
                "min_number",
                1,
                1,
                50,
                "lowest car number used, 1..50 (below max_number)",
            ),
            OptionSpec::int(
                "max_number",
                50,
                1,
                50,
                "highest car number used, 1..50 (above min_number)",
            ),
            OptionSpec::bool(
                "jokers",
                false,
                "add floor(12 * cars used / 50) special cards as jokers",
            ),
        ]
    }

    fn player_range() -> (usize, usize) {
        (2, 5)
    }

    fn from_options(players: usize, options: &Map<String, Value>) -> Result<Self> {
        let mut r = OptionReader::new(Self::ID, Self::option_specs(), options);
        let min_number = r.int("min_number")? as u32;
        let max_number = r.int("max_number")? as u32;
        let jokers = r.bool("jokers")?;
        let option_values = r.finish()?;
        let (lo, hi) = Self::player_range();
        if !(lo..=hi).contains(&players) {
            return Err(EngineError::InvalidOption(format!(
                "{}: players must be in {lo}..={hi}, got {players}",
                Self::ID
            )));
        }
        if min_number >= max_number {
            return Err(EngineError::InvalidOption(format!(
                "{}: min_number must be below max_number (at least two cars), got \
                 min_number={min_number}, max_number={max_number}",
                Self::ID
            )));
        }
        let cars = max_number - min_number + 1;
        let joker_count = if jokers { 12 * cars / 50 } else { 0 };
        let mut deck = 0u64;
        for c in min_number..=max_number {
            deck |= card_bit(c);
        }
        for k in 0..joker_count {
            deck |= card_bit(FIRST_JOKER + k);
        }
        Ok(Self {
            players,
            min_number,
            max_number,
            jokers,
            grid: (cars + joker_count) as usize,
            deck,
            option_values,
        })
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

    fn initial_state(&self) -> TrafficarsMemoryState {
        TrafficarsMemoryState {
            phase: Phase::Layout,
            current: NO_SEAT,
            layout: [0; MAX_GRID],
            laid: 0,
            laid_cards: 0,
            table_cards: 0,
            on_table: 0,
            seen: 0,
            flipped: [0; MAX_GRID],
            flipped_len: 0,
            flipped_mask: 0,
            k_cars: 0,
            k_jokers: 0,
            taken: [0; MAX_SEATS],
        }
    }

    fn current_player(&self, st: &TrafficarsMemoryState) -> i32 {
        match st.phase {
            Phase::Layout => CHANCE,
            Phase::Flip => i32::from(st.current),
            Phase::Over => TERMINAL,
        }
    }

    fn legal_actions(&self, st: &TrafficarsMemoryState, out: &mut Vec<u32>) {
        out.clear();
        let mask = match st.phase {
            Phase::Layout => self.deck & !st.laid_cards,
            Phase::Flip => st.face_down(),
            Phase::Over => 0,
        };
        out.extend(Bits(mask));
        if Self::can_stop(st) {
            out.push(STOP);
        }
    }

    fn chance_outcomes(&self, st: &TrafficarsMemoryState, out: &mut Vec<(u32, u64)>) {
        out.clear();
        if st.phase == Phase::Layout {
            out.extend(Bits(self.deck & !st.laid_cards).map(|c| (c, 1)));
        }
    }

    fn sample_chance(
        &self,
        st: &TrafficarsMemoryState,
        rng: &mut SplitMix64,
        _buf: &mut Vec<(u32, u64)>,
    ) -> u32 {
        if st.phase != Phase::Layout {
            return 0;
        }
        let remaining = self.deck & !st.laid_cards;
        let total = remaining.count_ones();
        if total == 0 {
            return 0;
        }
        select_bit(remaining, rng.below(u64::from(total)) as u32)
    }

    fn apply(&self, st: &mut TrafficarsMemoryState, action: u32) {
        match st.phase {
            Phase::Layout => {
                let b = card_bit(action);
                let pos = usize::from(st.laid);
                if b & self.deck & !st.laid_cards == 0 || pos >= self.grid {
                    return;
                }
                st.layout[pos] = action as u8;
                st.laid += 1;
                st.laid_cards |= b;
                st.table_cards |= b;
                st.on_table |= 1u64 << pos;
                if usize::from(st.laid) == self.grid {
                    if contains_collectable(st.table_cards) {
                        st.phase = Phase::Flip;
                        st.current = 0;
                    } else {
                        st.phase = Phase::Over;
                    }
                }
            }
            Phase::Flip if action == STOP => {
                if Self::can_stop(st) {
                    self.end_turn(st);
                }
            }
            Phase::Flip => self.flip(st, action),
            Phase::Over => {}
        }
    }

    fn action_label(&self, st: &TrafficarsMemoryState, action: u32) -> String {
        match st.phase {
            Phase::Layout if (1..=LAST_CARD).contains(&action) => {
                format!("lay {action} at position {}", st.laid)
            }
            Phase::Flip if (action as usize) < self.grid => format!("flip position {action}"),
            Phase::Flip if action == STOP => "stop and take the run".to_string(),
            _ => format!("action {action}"),
        }
    }

    fn scores(&self, st: &TrafficarsMemoryState, out: &mut [i64]) {
        for (o, &t) in out.iter_mut().zip(st.taken[..self.players].iter()) {
            *o = i64::from(t);
        }
    }

    fn winners(&self, st: &TrafficarsMemoryState) -> Vec<usize> {
        let taken = &st.taken[..self.players];
        let best = taken.iter().copied().max().unwrap_or(0);
        (0..self.players).filter(|&s| taken[s] == best).collect()
    }

    fn observation(&self, st: &TrafficarsMemoryState, player: usize) -> Value {
        json!({
            "seat": player,
            "phase": st.phase.name(),
            "current": Self::current_json(st),
            "faces": self.faces_json(st),
            "seen": self.seen_json(st),
            "on_table": self.on_table_json(st),
            "taken": self.taken_json(st),
            "flipped": Self::flipped_json(st),
        })
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![3 + 3 * self.players + 6 * self.grid]
    }

    fn observation_tensor(&self, st: &TrafficarsMemoryState, player: usize, out: &mut [f32]) {
        let (n, grid) = (self.players, self.grid);
        let mut w = TensorWriter::new(out);
        w.one_hot(Some(player), n);
        let phase = match st.phase {
            Phase::Layout => 0,
            Phase::Flip => 1,
            Phase::Over => 2,
        };
        w.one_hot(Some(phase), 3);
        w.one_hot(
            Some(usize::from(st.current)).filter(|_| st.current != NO_SEAT),
            n,
        );
        // Flip order per position (0 = not flipped this turn).
        let mut order = [0u8; MAX_GRID];
        let flips = &st.flipped[..usize::from(st.flipped_len).min(MAX_GRID)];
        for (k, &pos) in flips.iter().enumerate() {
            if let Some(o) = order.get_mut(usize::from(pos)) {
                *o = k as u8 + 1;
            }
        }
        for (i, (&o, &laid)) in order.iter().zip(&st.layout).enumerate().take(grid) {
            let face_up = st.flipped_mask >> i & 1 == 1;
            let known = face_up || st.seen >> i & 1 == 1;
            let card = if known { laid } else { 0 };
            w.set(0, f32::from(u8::from(st.on_table >> i & 1 == 1)));
            w.set(1, f32::from(u8::from(face_up)));
            w.set(2, f32::from(u8::from(known)));
            w.set(3, scaled(f64::from(card), 50.0));
            w.set(4, f32::from(u8::from(known && is_joker(u32::from(card)))));
            w.set(5, scaled(f64::from(o), grid as f64));
            w.skip(6);
        }
        for s in 0..n {
            w.push_scaled(f64::from(st.taken[s]), grid as f64);
        }
        debug_assert_eq!(w.position(), 3 + 3 * n + 6 * grid);
    }

    fn state_json(&self, st: &TrafficarsMemoryState) -> Value {
        json!({
            "phase": st.phase.name(),
            "current": Self::current_json(st),
            "seen": self.seen_json(st),
            "on_table": self.on_table_json(st),
            "taken": self.taken_json(st),
            "flipped": Self::flipped_json(st),
            "layout": &st.layout[..usize::from(st.laid).min(MAX_GRID)],
        })
    }

    fn bot_names() -> &'static [&'static str] {
        &["memory", "forgetful"]
    }

    fn make_bot(&self, name: &str, param: Option<&str>) -> Option<Result<Box<dyn Bot<Self>>>> {
        match (name, param) {
            ("memory", None) => Some(Ok(Box::new(MemoryBot::perfect()))),
            ("memory", Some(p)) => Some(Err(EngineError::InvalidOption(format!(
                "{}: bot memory takes no parameter, got {p:?}",
                Self::ID
            )))),
            ("forgetful", None) => Some(Ok(Box::new(MemoryBot::forgetful(DEFAULT_FORGET)))),
            ("forgetful", Some(p)) => Some(match p.trim().parse::<f64>() {
                Ok(x) if (0.0..=1.0).contains(&x) => Ok(Box::new(MemoryBot::forgetful(x))),
                _ => Err(EngineError::InvalidOption(format!(
                    "{}: bot forgetful takes a forgetting probability in 0..1 (e.g. \
                     \"forgetful:0.2\"), got {p:?}",
                    Self::ID
                ))),
            }),
            _ => None,
        }
    }
}

/// Forgetting probability of `forgetful` without a parameter.
const DEFAULT_FORGET: f64 = 0.2;

/// The `memory` and `forgetful:P` bots.
///
/// Both read only what their seat's observation holds: the cards face up now (`faces`), `seen`,
/// `on_table` and `flipped`.
///
/// Memory: `memory` uses the observation's `seen` (perfect memory). `forgetful:P` keeps its own
/// memory of position → card: after every step it remembers the cards face up now and the card
/// that was just flipped and turned straight back (the breaker, which the observation shows only
/// through `seen`: a position that newly appears in `seen`, or the position the bot flipped
/// itself); it drops positions that left the table; and at the start of each of its own turns it
/// forgets each remembered card with probability P (one draw from its own stream per remembered
/// card, in increasing position order).
///
/// Play, on what it remembers (flipped cards of this turn excluded):
/// 1. a remembered joker, if any (a joker never breaks a run and only widens what may follow);
/// 2. with no car flipped yet: the lower card of the remembered pair of cars with the smallest
///    gap that the jokers flipped this turn can fill; with a car flipped: the remembered car that
///    keeps the flipped set a possible run with the fewest gaps;
/// 3. otherwise, when stopping is legal (the run flipped so far is collectable), it stops and
///    takes the run: its memory offers no safe neighbour, so a further flip could extend the run
///    only by luck and would show the others one more card's place;
/// 4. otherwise a random position it does not remember (never a known useless card first);
/// 5. otherwise (everything left is known and useless) a random face-down position.
#[derive(Clone, Debug)]
pub struct MemoryBot {
    rng: SplitMix64,
    /// `None`: perfect memory; `Some(p)`: own memory, forgetting with probability p.
    forget: Option<f64>,
    /// Own memory: card per position (0 = not remembered).
    memory: [u8; MAX_GRID],
    /// Positions present in `seen` at the previous step.
    prev_seen: u64,
    /// The position this bot flipped last, until the next observation.
    pending: Option<u32>,
}

impl MemoryBot {
    /// The `memory` bot (perfect memory).
    pub fn perfect() -> Self {
        Self {
            rng: SplitMix64::default(),
            forget: None,
            memory: [0; MAX_GRID],
            prev_seen: 0,
            pending: None,
        }
    }

    /// The `forgetful:p` bot.
    pub fn forgetful(p: f64) -> Self {
        Self {
            forget: Some(p),
            ..Self::perfect()
        }
    }

    /// A uniform draw in [0, 1) from the bot's stream.
    fn unit(&mut self) -> f64 {
        (self.rng.next() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniformly random set bit of a non-empty mask.
    fn random_bit(&mut self, mask: u64) -> u32 {
        select_bit(mask, self.rng.below(u64::from(mask.count_ones())) as u32)
    }

    /// Chooses a position to flip (or [`STOP`] when `may_stop`) from the remembered cards
    /// `known` (0 = unknown).
    fn choose(
        &mut self,
        st: &TrafficarsMemoryState,
        known: &[u8; MAX_GRID],
        may_stop: bool,
    ) -> u32 {
        let avail = st.face_down();
        let jokers = u32::from(st.k_jokers);
        let mut known_pos = 0u64;
        let mut known_cars = 0u64;
        let mut car_pos = [0u8; 51];
        for p in Bits(avail) {
            let c = u32::from(known[p as usize]);
            if c == 0 {
                continue;
            }
            known_pos |= 1u64 << p;
            if is_joker(c) {
                // 1. A remembered joker.
                return p;
            }
            if let Some(slot) = car_pos.get_mut(c as usize) {
                *slot = p as u8;
                known_cars |= card_bit(c);
            }
        }
        // 2. A remembered run continuation.
        let mut best: Option<(u32, u32)> = None;
        if st.k_cars == 0 {
            let mut prev: Option<u32> = None;
            for c in Bits(known_cars) {
                if let Some(pc) = prev {
                    let gap = c - pc - 1;
                    if gap <= jokers && best.is_none_or(|(g, _)| gap < g) {
                        best = Some((gap, pc));
                    }
                }
                prev = Some(c);
            }
        } else {
            for c in Bits(known_cars) {
                let cars = st.k_cars | card_bit(c);
                if may_continue(cars, jokers) {
                    let g = gaps(cars);
                    if best.is_none_or(|(bg, _)| g < bg) {
                        best = Some((g, c));
                    }
                }
            }
        }
        if let Some((_, c)) = best {
            return u32::from(car_pos[c as usize]);
        }
        // 3. No safe neighbour remembered: stop with the run.
        if may_stop {
            return STOP;
        }
        // 4. A position it does not remember; 5. anything.
        let unknown = avail & !known_pos;
        if unknown != 0 {
            self.random_bit(unknown)
        } else if avail != 0 {
            self.random_bit(avail)
        } else {
            0
        }
    }

    /// Updates the own memory from the observation (see the type's documentation).
    fn learn(&mut self, st: &TrafficarsMemoryState) {
        if st.phase == Phase::Layout {
            self.memory = [0; MAX_GRID];
            self.prev_seen = 0;
            self.pending = None;
            return;
        }
        let mut shown = st.flipped_mask | (st.seen & !self.prev_seen);
        if let Some(p) = self.pending.take() {
            shown |= st.seen & (1u64 << p);
        }
        for p in Bits(shown & st.on_table) {
            self.memory[p as usize] = st.layout[p as usize];
        }
        for p in Bits(!st.on_table & ((1u64 << MAX_GRID) - 1)) {
            self.memory[p as usize] = 0;
        }
        self.prev_seen = st.seen;
    }
}

impl Bot<TrafficarsMemory> for MemoryBot {
    fn reset(&mut self, _game: &TrafficarsMemory, _seat: usize, rng: SplitMix64) {
        self.rng = rng;
        self.memory = [0; MAX_GRID];
        self.prev_seen = 0;
        self.pending = None;
    }

    fn act(&mut self, _game: &TrafficarsMemory, st: &TrafficarsMemoryState, legal: &[u32]) -> u32 {
        if st.phase != Phase::Flip {
            return legal.first().copied().unwrap_or(0);
        }
        let may_stop = legal.contains(&STOP);
        let choice = match self.forget {
            None => {
                let mut known = [0u8; MAX_GRID];
                for p in Bits(st.seen & st.face_down()) {
                    known[p as usize] = st.layout[p as usize];
                }
                self.choose(st, &known, may_stop)
            }
            Some(prob) => {
                if st.flipped_len == 0 && prob > 0.0 {
                    for p in 0..MAX_GRID {
                        if self.memory[p] != 0 && self.unit() < prob {
                            self.memory[p] = 0;
                        }
                    }
                }
                let known = self.memory;
                self.choose(st, &known, may_stop)
            }
        };
        self.pending = (choice != STOP).then_some(choice);
        choice
    }

    fn observe(&mut self, _game: &TrafficarsMemory, st: &TrafficarsMemoryState) {
        if self.forget.is_some() {
            self.learn(st);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::derive_seed;
    use crate::session::Session;
    use crate::sim::{make_bot, play_game};
    use std::sync::Arc;

    type S = Session<TrafficarsMemory>;

    fn game(players: usize, opts: Value) -> Arc<TrafficarsMemory> {
        let map = opts.as_object().cloned().unwrap_or_default();
        Arc::new(TrafficarsMemory::from_options(players, &map).unwrap())
    }

    /// Lays out `cards` (position 0 first) as explicit chance outcomes.
    fn laid(g: &Arc<TrafficarsMemory>, cards: &[u32]) -> S {
        let mut s = Session::new(Arc::clone(g), None);
        assert_eq!(cards.len(), g.grid_size());
        for &c in cards {
            assert_eq!(g.current_player(s.state()), CHANCE);
            s.apply(i64::from(c), None).unwrap();
        }
        s
    }

    /// The position of card `card` in the layout.
    fn pos(s: &S, card: u32) -> i64 {
        i64::from(
            s.state()
                .layout
                .iter()
                .position(|&c| u32::from(c) == card)
                .unwrap() as u32,
        )
    }

    /// Flips the positions of `cards` in order for `seat`.
    fn flip(s: &mut S, seat: i64, cards: &[u32]) {
        for &c in cards {
            let p = pos(s, c);
            s.apply(p, Some(seat)).unwrap();
        }
    }

    fn st(g: &TrafficarsMemory, s: &S) -> Value {
        g.state_json(s.state())
    }

    fn obs(g: &TrafficarsMemory, s: &S, p: usize) -> Value {
        g.observation(s.state(), p)
    }

    fn range(a: u32, b: u32) -> Vec<u32> {
        (a..=b).collect()
    }

    /// Cards 1..=12 laid in a scrambled but fixed order, with jokers 51, 52.
    fn twelve_with_jokers() -> Vec<u32> {
        vec![5, 51, 7, 9, 3, 4, 52, 1, 2, 6, 8, 10, 11, 12]
    }

    #[test]
    fn deck_table_matches_the_card_ids() {
        let text = crate::data::TRAFFICARS_CARDS_JSON;
        let v: Value = serde_json::from_str(text).unwrap();
        let cards = v.as_array().unwrap();
        assert_eq!(cards.len(), 62);
        for (i, c) in cards.iter().enumerate() {
            let id = i as u64 + 1;
            assert_eq!(c["id"], json!(id));
            if id <= 50 {
                assert_eq!(c["kind"], "car");
                assert_eq!(c["number"], json!(id));
            } else {
                assert!(is_joker(id as u32));
                assert_ne!(c["kind"], "car");
            }
        }
    }

    #[test]
    fn options_deck_and_grid() {
        let g = game(2, json!({}));
        assert_eq!(
            Value::Object(g.options()),
            json!({"min_number": 1, "max_number": 50, "jokers": false})
        );
        assert_eq!(g.grid_size(), 50);
        assert_eq!(game(2, json!({"jokers": true})).grid_size(), 62);
        let g = game(
            3,
            json!({"min_number": 1, "max_number": 12, "jokers": true}),
        );
        assert_eq!(g.grid_size(), 14);
        assert_eq!(
            g.deck,
            range(1, 12)
                .iter()
                .chain(&[51, 52])
                .fold(0, |m, &c| m | card_bit(c))
        );
        assert_eq!(
            game(2, json!({"max_number": 30, "jokers": true})).grid_size(),
            37
        );
        assert_eq!(
            game(2, json!({"min_number": 26, "jokers": true})).grid_size(),
            31
        );
        assert_eq!(game(2, json!({"min_number": 49})).grid_size(), 2);
        for bad in [
            json!({"min_number": 0}),
            json!({"max_number": 51}),
            json!({"min_number": 5, "max_number": 5}),
            json!({"min_number": 6, "max_number": 5}),
            json!({"jokers": 1}),
            json!({"players": 3}),
            json!({"lanes": 2}),
        ] {
            let map = bad.as_object().cloned().unwrap_or_default();
            assert!(TrafficarsMemory::from_options(2, &map).is_err(), "{bad}");
        }
        assert!(TrafficarsMemory::from_options(1, &Map::new()).is_err());
        assert!(TrafficarsMemory::from_options(6, &Map::new()).is_err());
        assert!(crate::registry::make("trafficars_memory", 6, &Map::new()).is_err());
        let h = crate::registry::make("trafficars_memory", 5, &Map::new()).unwrap();
        assert_eq!(h.num_actions(), 64);
    }

    #[test]
    fn layout_chance_labels_and_observation() {
        let g = game(
            2,
            json!({"min_number": 1, "max_number": 12, "jokers": true}),
        );
        let mut s = Session::new(Arc::clone(&g), None);
        let mut outs = Vec::new();
        g.chance_outcomes(s.state(), &mut outs);
        let want: Vec<(u32, u64)> = range(1, 12)
            .into_iter()
            .chain([51, 52])
            .map(|c| (c, 1))
            .collect();
        assert_eq!(outs, want);
        assert_eq!(g.action_label(s.state(), 7), "lay 7 at position 0");
        assert_eq!(g.action_label(s.state(), 62), "lay 62 at position 0");
        assert_eq!(g.action_label(s.state(), 0), "action 0");
        s.apply(7, None).unwrap();
        s.apply(51, None).unwrap();
        assert!(s.apply(7, None).is_err());
        assert!(s.apply(13, None).is_err());
        assert!(s.apply(53, None).is_err());
        assert_eq!(g.action_label(s.state(), 3), "lay 3 at position 2");
        let o = obs(&g, &s, 1);
        assert_eq!(o["phase"], "layout");
        assert_eq!(o["current"], Value::Null);
        assert_eq!(o["faces"], json!(vec![Value::Null; 14]));
        assert_eq!(o["seen"], json!(vec![Value::Null; 14]));
        let mut on = vec![false; 14];
        on[0] = true;
        on[1] = true;
        assert_eq!(o["on_table"], json!(on));
        assert_eq!(o["taken"], json!([0, 0]));
        assert_eq!(o["flipped"], json!([]));
        assert_eq!(o["seat"], json!(1));
        assert_eq!(st(&g, &s)["layout"], json!([7, 51]));
        assert_eq!(g.current_player(s.state()), CHANCE);
    }

    #[test]
    fn runs_of_neighbour_numbers_and_the_breaker() {
        let g = game(2, json!({"min_number": 1, "max_number": 12}));
        let cards = vec![10, 9, 11, 3, 12, 8, 1, 2, 4, 5, 6, 7];
        let mut s = laid(&g, &cards);
        assert_eq!(g.current_player(s.state()), 0);
        let mut legal = Vec::new();
        g.legal_actions(s.state(), &mut legal);
        assert_eq!(legal, (0..12).collect::<Vec<u32>>());
        assert_eq!(g.action_label(s.state(), 11), "flip position 11");
        assert_eq!(g.action_label(s.state(), 12), "action 12");
        assert_eq!(g.action_label(s.state(), 62), "action 62");
        // 10, 9 are neighbours; 11 and 8 extend the run at either end; 3 breaks.
        flip(&mut s, 0, &[10, 9]);
        assert_eq!(g.current_player(s.state()), 0);
        flip(&mut s, 0, &[11]);
        let o = obs(&g, &s, 1);
        assert_eq!(o["flipped"], json!([0, 1, 2]));
        let mut faces = vec![Value::Null; 12];
        faces[0] = json!(10);
        faces[1] = json!(9);
        faces[2] = json!(11);
        assert_eq!(o["faces"], json!(faces));
        assert_eq!(o["current"], json!(0));
        g.legal_actions(s.state(), &mut legal);
        let mut want: Vec<u32> = (3..12).collect();
        want.push(STOP);
        assert_eq!(legal, want);
        flip(&mut s, 0, &[8, 3]);
        // 3 broke the run: it turns face down again and stays seen; 8..11 are taken.
        let o = obs(&g, &s, 0);
        assert_eq!(o["taken"], json!([4, 0]));
        assert_eq!(o["current"], json!(1));
        assert_eq!(o["flipped"], json!([]));
        assert_eq!(o["faces"], json!(vec![Value::Null; 12]));
        let mut on = vec![true; 12];
        for p in [0, 1, 2, 5] {
            on[p] = false;
        }
        assert_eq!(o["on_table"], json!(on));
        let mut seen = vec![Value::Null; 12];
        seen[3] = json!(3);
        assert_eq!(o["seen"], json!(seen));
        // Seat 1: 1 then 3 are not neighbours: both go back, nothing taken, both stay seen.
        flip(&mut s, 1, &[1]);
        assert_eq!(g.current_player(s.state()), 1);
        flip(&mut s, 1, &[3]);
        let x = st(&g, &s);
        assert_eq!(x["taken"], json!([4, 0]));
        assert_eq!(x["current"], json!(0));
        seen[6] = json!(1);
        assert_eq!(x["seen"], json!(seen));
        assert_eq!(x["on_table"], json!(on));
        assert_eq!(x["layout"], json!(cards));
        // A run that is not a neighbour of the lowest or highest breaks: 5, 6, 4, then 7 fine.
        flip(&mut s, 0, &[5, 6, 4, 7, 12]);
        assert_eq!(st(&g, &s)["taken"], json!([8, 0]));
        let mut sc = [0i64; 2];
        g.scores(s.state(), &mut sc);
        assert_eq!(sc, [8, 0]);
        // Left: 12 (seen), 3 (seen), 1 (seen), 2. Seat 1 flips 1, 2, 3 and then only 12 is left:
        // 12 breaks, the run is kept; 12 alone can form no set: the game is over.
        flip(&mut s, 1, &[1, 2, 3]);
        assert_eq!(g.current_player(s.state()), 1);
        flip(&mut s, 1, &[12]);
        assert_eq!(g.current_player(s.state()), TERMINAL);
        let x = st(&g, &s);
        assert_eq!(x["taken"], json!([8, 3]));
        assert_eq!(x["phase"], "over");
        assert_eq!(x["current"], Value::Null);
        assert_eq!(g.winners(s.state()), vec![0]);
        assert_eq!(g.action_label(s.state(), 0), "action 0");
        g.legal_actions(s.state(), &mut legal);
        assert!(legal.is_empty());
    }

    /// "Jos pelaajan kääntämien korttien luvut ovat naapuriluvut (esim. 10 ja 9) pelaaja saa
    /// kääntää kolmannen kortin." (If the numbers of the cards the player flipped are neighbours,
    /// e.g. 10 and 9, the player MAY flip a third card.)
    #[test]
    fn flipping_on_is_a_choice_stop_takes_the_run() {
        let g = game(2, json!({"min_number": 1, "max_number": 12}));
        let cards = vec![10, 9, 11, 3, 12, 8, 1, 2, 4, 5, 6, 7];
        let mut s = laid(&g, &cards);
        let mut legal = Vec::new();
        // One card flipped: not yet collectable, stopping is not legal.
        flip(&mut s, 0, &[10]);
        g.legal_actions(s.state(), &mut legal);
        assert!(!legal.contains(&STOP));
        assert!(s.apply(i64::from(STOP), Some(0)).is_err());
        // 10 and 9: the same seat is asked again, to flip on or to stop.
        flip(&mut s, 0, &[9]);
        assert_eq!(g.current_player(s.state()), 0);
        g.legal_actions(s.state(), &mut legal);
        assert_eq!(legal.last(), Some(&STOP));
        assert_eq!(g.action_label(s.state(), STOP), "stop and take the run");
        s.apply(i64::from(STOP), Some(0)).unwrap();
        let x = st(&g, &s);
        assert_eq!(x["taken"], json!([2, 0]));
        assert_eq!(x["current"], json!(1));
        assert_eq!(x["flipped"], json!([]));
        // Seat 1 flips 11 and 12 and stops at once: nothing is shown beyond the run.
        flip(&mut s, 1, &[11, 12]);
        s.apply(i64::from(STOP), Some(1)).unwrap();
        assert_eq!(st(&g, &s)["taken"], json!([2, 2]));
        let o = obs(&g, &s, 0);
        // Only the positions flipped before stopping were ever shown (and they left the table).
        assert_eq!(o["seen"], json!(vec![Value::Null; 12]));
        // A joker and one car are not collectable: stop not legal; with two cars it is.
        let g = game(
            2,
            json!({"min_number": 1, "max_number": 12, "jokers": true}),
        );
        let mut s = laid(&g, &twelve_with_jokers());
        flip(&mut s, 0, &[51, 5]);
        g.legal_actions(s.state(), &mut legal);
        assert!(!legal.contains(&STOP));
        flip(&mut s, 0, &[7]);
        g.legal_actions(s.state(), &mut legal);
        assert!(legal.contains(&STOP));
        s.apply(i64::from(STOP), Some(0)).unwrap();
        assert_eq!(st(&g, &s)["taken"], json!([3, 0]));
        // Labels at flip nodes: 63 is the stop even where it is not legal; elsewhere "action 63".
        assert_eq!(g.action_label(s.state(), STOP), "stop and take the run");
        let fresh = g.initial_state();
        assert_eq!(g.action_label(&fresh, STOP), "action 63");
    }

    /// The memory bot stops when its memory offers no safe neighbour, and flips on when it does.
    #[test]
    fn memory_bot_stops_without_a_safe_neighbour() {
        let g = game(2, json!({"min_number": 1, "max_number": 12}));
        let cards = vec![10, 9, 11, 3, 12, 8, 1, 2, 4, 5, 6, 7];
        let mut s = laid(&g, &cards);
        // Seat 0 sees 3 and 12 (not neighbours); seat 1 flips 10 and 9.
        flip(&mut s, 0, &[3, 12]);
        flip(&mut s, 1, &[10, 9]);
        let mut bot = MemoryBot::perfect();
        bot.reset(&g, 1, SplitMix64::new(4));
        let mut legal = Vec::new();
        g.legal_actions(s.state(), &mut legal);
        // Nothing remembered fits 9..10 (3 and 12 do not): stop.
        assert_eq!(bot.act(&g, s.state(), &legal), STOP);
        // With 11 remembered (seen by seat 0), the bot flips it; then only 3 is remembered,
        // which does not fit 9..11: it stops.
        let mut s = laid(&g, &cards);
        flip(&mut s, 0, &[11, 3]);
        flip(&mut s, 1, &[10, 9]);
        g.legal_actions(s.state(), &mut legal);
        let a = bot.act(&g, s.state(), &legal);
        assert_eq!(a, 2, "the remembered 11 continues 9, 10");
        s.apply(i64::from(a), Some(1)).unwrap();
        g.legal_actions(s.state(), &mut legal);
        assert_eq!(bot.act(&g, s.state(), &legal), STOP);
        // The forgetful bot stops the same way from its own memory.
        let mut s = laid(&g, &cards);
        let mut fb = MemoryBot::forgetful(0.0);
        fb.reset(&g, 1, SplitMix64::new(5));
        fb.observe(&g, s.state());
        for c in [3, 12] {
            flip(&mut s, 0, &[c]);
            fb.observe(&g, s.state());
        }
        for c in [10, 9] {
            flip(&mut s, 1, &[c]);
            fb.observe(&g, s.state());
        }
        g.legal_actions(s.state(), &mut legal);
        assert_eq!(fb.act(&g, s.state(), &legal), STOP);
        assert_eq!(fb.pending, None);
    }

    #[test]
    fn the_turn_ends_when_no_face_down_card_is_left() {
        let g = game(3, json!({"min_number": 20, "max_number": 23}));
        let mut s = laid(&g, &[22, 20, 23, 21]);
        flip(&mut s, 0, &[22, 21, 23]);
        assert_eq!(g.current_player(s.state()), 0);
        // The last face-down card continues the run: the turn ends keeping all four.
        flip(&mut s, 0, &[20]);
        assert_eq!(g.current_player(s.state()), TERMINAL);
        assert_eq!(st(&g, &s)["taken"], json!([4, 0, 0]));
        assert_eq!(g.winners(s.state()), vec![0]);
        // 20, 21 taken (23 breaks); seat 1 flips the last two, 22 and 23: kept, game over.
        let mut s = laid(&g, &[22, 20, 23, 21]);
        flip(&mut s, 0, &[20, 21, 23]);
        assert_eq!(g.current_player(s.state()), 1);
        flip(&mut s, 1, &[22, 23]);
        assert_eq!(g.current_player(s.state()), TERMINAL);
        assert_eq!(st(&g, &s)["taken"], json!([2, 2, 0]));
        assert_eq!(g.winners(s.state()), vec![0, 1]);
    }

    #[test]
    fn the_game_ends_when_no_collectable_set_is_left() {
        let g = game(2, json!({"min_number": 1, "max_number": 6}));
        let mut s = laid(&g, &[1, 2, 3, 4, 5, 6]);
        flip(&mut s, 0, &[4, 5, 1]);
        // Left: 1, 2, 3, 6: the game goes on.
        assert_eq!(g.current_player(s.state()), 1);
        assert_eq!(st(&g, &s)["taken"], json!([2, 0]));
        // Seat 1 takes 1, 2 (6 breaks); left: 3, 6 with no joker → no collectable set.
        flip(&mut s, 1, &[1, 2, 6]);
        assert_eq!(g.current_player(s.state()), TERMINAL);
        assert_eq!(st(&g, &s)["taken"], json!([2, 2]));
        assert_eq!(g.winners(s.state()), vec![0, 1]);
        let o = obs(&g, &s, 0);
        assert_eq!(o["phase"], "over");
        assert_eq!(o["current"], Value::Null);
        assert_eq!(o["flipped"], json!([]));
        let mut seen = vec![Value::Null; 6];
        seen[5] = json!(6);
        assert_eq!(o["seen"], json!(seen));
        assert_eq!(
            o["on_table"],
            json!([false, false, true, false, false, true])
        );
        let mut legal = Vec::new();
        g.legal_actions(s.state(), &mut legal);
        assert!(legal.is_empty());
    }

    #[test]
    fn end_test_counts_jokers() {
        let t = |cards: &[u32]| contains_collectable(cards.iter().fold(0, |m, &c| m | card_bit(c)));
        assert!(!t(&[]));
        assert!(!t(&[5]));
        assert!(!t(&[5, 51, 52]));
        assert!(t(&[8, 9, 10, 11, 12]));
        assert!(!t(&[2, 6, 10, 51]));
        assert!(t(&[2, 5, 10, 51, 52]));
        assert!(!t(&[2, 5, 10, 51]));
        assert!(t(&[3, 5, 62]));
        assert!(!t(&[1, 3, 5, 7]));
    }

    #[test]
    fn jokers_worked_example() {
        let g = game(
            2,
            json!({"min_number": 1, "max_number": 12, "jokers": true}),
        );
        let cards = twelve_with_jokers();
        let mut s = laid(&g, &cards);
        // Seat 0: 5, 51, 7 continue; 9 breaks. {5, 51, 7} is taken.
        flip(&mut s, 0, &[5, 51, 7]);
        assert_eq!(g.current_player(s.state()), 0);
        flip(&mut s, 0, &[9]);
        let x = st(&g, &s);
        assert_eq!(x["taken"], json!([3, 0]));
        assert_eq!(x["current"], json!(1));
        let mut seen = vec![Value::Null; 14];
        seen[3] = json!(9);
        assert_eq!(x["seen"], json!(seen));
        // Seat 1: 3, 4, 52, 1, 2, 6 continue; 8 breaks: 6 cards taken.
        let mut snapshot = s.clone();
        flip(&mut s, 1, &[3, 4, 52, 1, 2, 6]);
        assert_eq!(g.current_player(s.state()), 1);
        assert_eq!(obs(&g, &s, 0)["flipped"], json!([4, 5, 6, 7, 8, 9]));
        flip(&mut s, 1, &[8]);
        let x = st(&g, &s);
        assert_eq!(x["taken"], json!([3, 6]));
        assert_eq!(x["current"], json!(0));
        // The table: 8, 9, 10, 11, 12, no joker: the game goes on.
        assert_eq!(g.current_player(s.state()), 0);
        // Alternative: 52, 8 continue (one car), 11 breaks; {52, 8} has one car: nothing taken.
        flip(&mut snapshot, 1, &[52, 8]);
        assert_eq!(g.current_player(snapshot.state()), 1);
        flip(&mut snapshot, 1, &[11]);
        let x = st(&g, &snapshot);
        assert_eq!(x["taken"], json!([3, 0]));
        assert_eq!(x["current"], json!(0));
        assert_eq!(x["flipped"], json!([]));
        seen[6] = json!(52);
        seen[10] = json!(8);
        seen[12] = json!(11);
        assert_eq!(x["seen"], json!(seen));
    }

    #[test]
    fn jokers_need_two_cars() {
        let g = game(
            2,
            json!({"min_number": 1, "max_number": 12, "jokers": true}),
        );
        let cards = twelve_with_jokers();
        // Joker first, joker second: continue; any car continues; the second car must fit.
        let mut s = laid(&g, &cards);
        flip(&mut s, 0, &[51, 52, 9, 12]);
        assert_eq!(g.current_player(s.state()), 0);
        flip(&mut s, 0, &[5]);
        // 9, 12 with two jokers (10, 11) is collectable; 5 broke it.
        assert_eq!(st(&g, &s)["taken"], json!([4, 0]));
        // A joker with a single car is not collectable: both turn back.
        let mut s = laid(&g, &cards);
        flip(&mut s, 0, &[1, 51]);
        assert_eq!(g.current_player(s.state()), 0);
        flip(&mut s, 0, &[4]);
        let x = st(&g, &s);
        assert_eq!(x["taken"], json!([0, 0]));
        assert_eq!(x["current"], json!(1));
        assert_eq!(x["on_table"], json!(vec![true; 14]));
        // "21 and a joker may continue; 23 completes 21-22-23" (here 1, joker, 3; 7 breaks).
        let mut s = laid(&g, &cards);
        flip(&mut s, 0, &[1, 51, 3]);
        assert_eq!(g.current_player(s.state()), 0);
        flip(&mut s, 0, &[7]);
        assert_eq!(st(&g, &s)["taken"], json!([3, 0]));
        // "21, joker, 25": 25 breaks (here 1, joker, 5), nothing is taken.
        let mut s = laid(&g, &cards);
        flip(&mut s, 0, &[1, 51, 5]);
        assert_eq!(g.current_player(s.state()), 1);
        assert_eq!(st(&g, &s)["taken"], json!([0, 0]));
        // "after 3 and 4 a joker is 2 or 5": both 2 and 5 may follow.
        for next in [2, 5] {
            let mut s = laid(&g, &cards);
            flip(&mut s, 0, &[3, 4, 51, next]);
            assert_eq!(g.current_player(s.state()), 0);
            assert_eq!(s.state().flipped_len, 4);
        }
        // 3, 4, joker, 5, 6, 1 (the joker is now 2), then 8 breaks: six cards taken.
        let mut s = laid(&g, &cards);
        flip(&mut s, 0, &[3, 4, 51, 5, 6, 1]);
        assert_eq!(g.current_player(s.state()), 0);
        flip(&mut s, 0, &[8]);
        assert_eq!(st(&g, &s)["taken"], json!([6, 0]));
        // Joker, 8, then 11: {joker, 8} has one car: nothing taken.
        let mut s = laid(&g, &cards);
        flip(&mut s, 0, &[52, 8, 11]);
        assert_eq!(st(&g, &s)["taken"], json!([0, 0]));
        assert_eq!(g.current_player(s.state()), 1);
    }

    #[test]
    fn joker_gap_rules() {
        assert!(may_continue(card_bit(21), 0));
        assert!(may_continue(card_bit(21), 1));
        assert!(may_continue(card_bit(21) | card_bit(23), 1));
        assert!(collectable(card_bit(21) | card_bit(23), 1));
        assert!(!may_continue(card_bit(21) | card_bit(25), 1));
        assert!(collectable(card_bit(3) | card_bit(4), 1));
        assert!(!collectable(card_bit(3), 2));
        assert!(!collectable(0, 2));
        assert!(may_continue(0, 0));
        assert!(may_continue(card_bit(1) | card_bit(3) | card_bit(4), 1));
        assert!(!may_continue(card_bit(1) | card_bit(3) | card_bit(5), 1));
    }

    /// Checks the structural invariants of a state between steps.
    fn check_invariants(g: &TrafficarsMemory, x: &TrafficarsMemoryState) {
        let n = g.players();
        let grid = g.grid_size();
        let all = if grid == 64 {
            u64::MAX
        } else {
            (1u64 << grid) - 1
        };
        if x.phase == Phase::Layout {
            assert_eq!(x.on_table, (1u64 << x.laid) - 1);
            assert_eq!(x.seen, 0);
            return;
        }
        assert_eq!(usize::from(x.laid), grid);
        assert_eq!(x.laid_cards, g.deck);
        assert_eq!(x.on_table & !all, 0);
        assert_eq!(x.seen & !x.on_table, 0);
        let mut table = 0u64;
        for p in Bits(x.on_table) {
            table |= card_bit(x.card_at(p));
        }
        assert_eq!(table, x.table_cards);
        let taken: u32 = x.taken[..n].iter().map(|&t| u32::from(t)).sum();
        // Cards conserved: on the table or taken.
        assert_eq!(taken + x.on_table.count_ones(), grid as u32);
        let mut fm = 0u64;
        for &p in &x.flipped[..usize::from(x.flipped_len)] {
            fm |= 1u64 << p;
        }
        assert_eq!(fm, x.flipped_mask);
        assert_eq!(x.flipped_mask & !x.seen, 0);
        if x.phase == Phase::Flip {
            assert!(usize::from(x.current) < n);
            assert!(x.face_down() != 0);
            if x.flipped_len == 0 {
                assert!(contains_collectable(x.table_cards));
            }
        } else {
            assert!(!contains_collectable(x.table_cards));
            assert_eq!(x.flipped_len, 0);
        }
    }

    #[test]
    fn random_games_keep_invariants() {
        let mut legal = Vec::new();
        for gi in 0..2000u64 {
            let n = 2 + (gi % 4) as usize;
            let opts = match gi % 5 {
                0 => json!({}),
                1 => json!({"jokers": true}),
                2 => json!({"min_number": 1, "max_number": 12, "jokers": true}),
                3 => json!({"min_number": 26, "max_number": 50, "jokers": gi % 2 == 0}),
                _ => json!({"min_number": 1 + gi % 20, "max_number": 30, "jokers": true}),
            };
            let g = game(n, opts);
            let mut s = Session::new(Arc::clone(&g), Some(derive_seed(99, gi)));
            let mut bots: Vec<Box<dyn Bot<TrafficarsMemory>>> = (0..n)
                .map(|p| match p % 3 {
                    0 => make_bot(&*g, "random").unwrap(),
                    1 => make_bot(&*g, "memory").unwrap(),
                    _ => make_bot(&*g, "forgetful:0.3").unwrap(),
                })
                .collect();
            for (p, b) in bots.iter_mut().enumerate() {
                b.reset(&g, p, SplitMix64::new(derive_seed(gi, p as u64)));
            }
            let detailed = gi % 50 == 0;
            let mut steps = 0u64;
            while g.current_player(s.state()) != TERMINAL {
                let x = *s.state();
                check_invariants(&g, &x);
                let cp = g.current_player(&x);
                g.legal_actions(&x, &mut legal);
                assert!(!legal.is_empty());
                if detailed {
                    for a in 0..NUM_ACTIONS {
                        let _ = g.action_label(&x, a);
                    }
                    for p in 0..n {
                        let o = g.observation(&x, p);
                        assert_eq!(o["faces"].as_array().unwrap().len(), g.grid_size());
                    }
                }
                let a = bots[cp as usize].act(&g, &x, &legal);
                s.apply(i64::from(a), Some(i64::from(cp))).unwrap();
                for b in bots.iter_mut() {
                    b.observe(&g, s.state());
                }
                steps += 1;
                assert!(steps < 1_000_000);
            }
            let x = *s.state();
            check_invariants(&g, &x);
            let w = g.winners(&x);
            let best = x.taken[..n].iter().max().copied().unwrap();
            assert!(!w.is_empty() && w.iter().all(|&p| x.taken[p] == best));
            for a in 0..NUM_ACTIONS {
                assert_eq!(g.action_label(&x, a), format!("action {a}"));
            }
            if detailed {
                let back = Session::from_json(Arc::clone(&g), &s.to_json()).unwrap();
                assert_eq!(back.state(), s.state());
            }
        }
    }

    #[test]
    fn fast_sample_chance_equals_default() {
        let mut buf = Vec::new();
        let mut chance_nodes = 0u64;
        for gi in 0..300u64 {
            let g = game(
                2,
                if gi % 2 == 0 {
                    json!({"jokers": true})
                } else {
                    json!({})
                },
            );
            let mut x = g.initial_state();
            while g.current_player(&x) == CHANCE {
                chance_nodes += 1;
                for k in 0..4 {
                    let mut fast = SplitMix64::new(derive_seed(gi, chance_nodes * 4 + k));
                    let mut slow = fast;
                    let a = g.sample_chance(&x, &mut fast, &mut buf);
                    g.chance_outcomes(&x, &mut buf);
                    assert_eq!(Some(a), slow.pick_weighted(&buf));
                    assert_eq!(fast, slow);
                }
                let mut r = SplitMix64::new(gi ^ chance_nodes);
                let a = g.sample_chance(&x, &mut r, &mut buf);
                g.apply(&mut x, a);
            }
        }
        assert!(chance_nodes > 10_000);
    }

    #[test]
    fn seen_tracks_every_flipped_card_still_on_the_table() {
        let g = game(2, json!({"min_number": 1, "max_number": 8}));
        let mut s = laid(&g, &[8, 1, 6, 3, 4, 2, 7, 5]);
        flip(&mut s, 0, &[8, 1]);
        let mut seen = vec![Value::Null; 8];
        seen[0] = json!(8);
        seen[1] = json!(1);
        assert_eq!(obs(&g, &s, 1)["seen"], json!(seen));
        // Re-flipping a seen card keeps it seen; taking cards clears their entries.
        flip(&mut s, 1, &[8, 7, 6, 1]);
        seen[0] = Value::Null;
        seen[2] = Value::Null;
        assert_eq!(obs(&g, &s, 0)["seen"], json!(seen));
        assert_eq!(obs(&g, &s, 0)["taken"], json!([0, 3]));
        // Observations are identical for every seat (nothing is private).
        let a = obs(&g, &s, 0);
        let b = obs(&g, &s, 1);
        assert_eq!(a["seen"], b["seen"]);
        assert_eq!(a["faces"], b["faces"]);
        assert_eq!(b["seat"], json!(1));
        let keys = |v: &Value| {
            let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
            k.sort();
            k
        };
        let mut want = vec![
            "seat", "phase", "current", "faces", "seen", "on_table", "taken", "flipped",
        ];
        want.sort();
        assert_eq!(keys(&a), want);
        let mut want = vec![
            "phase", "current", "seen", "on_table", "taken", "flipped", "layout",
        ];
        want.sort();
        assert_eq!(keys(&st(&g, &s)), want);
    }

    #[test]
    fn bots_are_built_from_specs() {
        let g = game(2, json!({}));
        assert!(g.make_bot("memory", None).is_some_and(|b| b.is_ok()));
        assert!(g.make_bot("memory", Some("1")).is_some_and(|b| b.is_err()));
        assert!(g.make_bot("forgetful", None).is_some_and(|b| b.is_ok()));
        for ok in ["0", "0.5", "1", "1.0", "0.25"] {
            assert!(
                g.make_bot("forgetful", Some(ok)).is_some_and(|b| b.is_ok()),
                "{ok}"
            );
        }
        for bad in ["", "x", "-0.1", "1.5", "nan", "inf"] {
            let r = g.make_bot("forgetful", Some(bad));
            match r {
                Some(Err(EngineError::InvalidOption(m))) => assert!(m.contains("forgetful"), "{m}"),
                _ => panic!("forgetful:{bad} must be an InvalidOption error"),
            }
        }
        assert!(g.make_bot("greedy", None).is_none());
        assert!(make_bot(&*g, "forgetful:0.4").is_ok());
        assert!(make_bot(&*g, "forgetful:2").is_err());
        assert_eq!(TrafficarsMemory::bot_names(), &["memory", "forgetful"]);
    }

    #[test]
    fn memory_bot_takes_known_pairs_and_runs() {
        let g = game(
            2,
            json!({"min_number": 1, "max_number": 10, "jokers": true}),
        );
        // Positions: 0:4 1:9 2:51 3:6 4:1 5:5 6:10 7:2 8:3 9:7 10:8 11:52.
        let cards = vec![4, 9, 51, 6, 1, 5, 10, 2, 3, 7, 8, 52];
        let mut s = laid(&g, &cards);
        // Seat 0 flips 4 and 9 (not neighbours), seat 1 flips 6 and 1.
        flip(&mut s, 0, &[4, 9]);
        flip(&mut s, 1, &[6, 1]);
        let mut bot = MemoryBot::perfect();
        bot.reset(&g, 0, SplitMix64::new(1));
        let mut legal = Vec::new();
        // Known on the table: 4, 9, 6, 1 → no pair; the bot flips an unknown position.
        for _ in 0..20 {
            g.legal_actions(s.state(), &mut legal);
            let a = bot.act(&g, s.state(), &legal);
            assert!(
                ![0, 1, 3, 4].contains(&a),
                "flipped a known useless card {a}"
            );
        }
        // Seat 0 has flipped 5 (position 5): the known 4 and 6 continue the run.
        let mut s2 = s.clone();
        flip(&mut s2, 0, &[5]);
        g.legal_actions(s2.state(), &mut legal);
        let a = bot.act(&g, s2.state(), &legal);
        assert_eq!(a, 0);
        s2.apply(i64::from(a), Some(0)).unwrap();
        g.legal_actions(s2.state(), &mut legal);
        assert_eq!(bot.act(&g, s2.state(), &legal), 3);
        // Seat 0 flips 51 and 10, then 4 breaks: nothing taken, all three seen.
        let mut s3 = s.clone();
        flip(&mut s3, 0, &[51, 10, 4]);
        assert_eq!(g.current_player(s3.state()), 1);
        // Seat 1 knows 4, 9, 51, 6, 1, 10: the joker first, then the closest pair 9, 10.
        let mut bot1 = MemoryBot::perfect();
        bot1.reset(&g, 1, SplitMix64::new(2));
        g.legal_actions(s3.state(), &mut legal);
        let a = bot1.act(&g, s3.state(), &legal);
        assert_eq!(a, 2);
        s3.apply(i64::from(a), Some(1)).unwrap();
        g.legal_actions(s3.state(), &mut legal);
        let a = bot1.act(&g, s3.state(), &legal);
        assert_eq!(
            a, 1,
            "the lower card of the closest known pair (9 of 9, 10)"
        );
        s3.apply(i64::from(a), Some(1)).unwrap();
        g.legal_actions(s3.state(), &mut legal);
        assert_eq!(bot1.act(&g, s3.state(), &legal), 6);
    }

    #[test]
    fn forgetful_bot_learns_and_forgets() {
        let g = game(2, json!({"min_number": 1, "max_number": 10}));
        let cards = vec![4, 9, 6, 1, 5, 10, 2, 3, 7, 8];
        let mut s = laid(&g, &cards);
        let mut bot = MemoryBot::forgetful(0.0);
        bot.reset(&g, 1, SplitMix64::new(3));
        bot.observe(&g, s.state());
        flip(&mut s, 0, &[4]);
        bot.observe(&g, s.state());
        assert_eq!(bot.memory[0], 4);
        flip(&mut s, 0, &[9]);
        bot.observe(&g, s.state());
        // The breaker 9 was shown only through `seen`: still learnt.
        assert_eq!(bot.memory[1], 9);
        // Seat 1 flips 5: its memory says 4 is at position 0 → continues there.
        flip(&mut s, 1, &[5]);
        bot.observe(&g, s.state());
        let mut legal = Vec::new();
        g.legal_actions(s.state(), &mut legal);
        assert_eq!(bot.act(&g, s.state(), &legal), 0);
        // Forgetting everything (P = 1) at the start of its turn.
        let mut s = laid(&g, &cards);
        let mut bot = MemoryBot::forgetful(1.0);
        bot.reset(&g, 1, SplitMix64::new(3));
        flip(&mut s, 0, &[4]);
        bot.observe(&g, s.state());
        flip(&mut s, 0, &[9]);
        bot.observe(&g, s.state());
        assert_eq!((bot.memory[0], bot.memory[1]), (4, 9));
        g.legal_actions(s.state(), &mut legal);
        let _ = bot.act(&g, s.state(), &legal);
        assert_eq!((bot.memory[0], bot.memory[1]), (0, 0));
    }

    /// Win share of the bot `spec` in seat rotation against `others` over `games` seeded games.
    fn win_shares(g: &TrafficarsMemory, specs: &[&str], games: u64, seed: u64) -> Vec<f64> {
        let n = g.players();
        assert_eq!(specs.len(), n);
        let mut shares = vec![0.0; n];
        let mut state = g.initial_state();
        let (mut legal, mut chance) = (Vec::new(), Vec::new());
        for gi in 0..games {
            let rot = (gi % n as u64) as usize;
            // Seat p plays spec (p + rot) % n.
            let mut bots: Vec<Box<dyn Bot<TrafficarsMemory>>> = (0..n)
                .map(|p| make_bot(g, specs[(p + rot) % n]).unwrap())
                .collect();
            play_game(
                g,
                &mut bots,
                derive_seed(seed, gi),
                &mut state,
                &mut legal,
                &mut chance,
            )
            .unwrap();
            let w = g.winners(&state);
            for &p in &w {
                shares[(p + rot) % n] += 1.0 / w.len() as f64;
            }
        }
        shares.iter().map(|s| s / games as f64).collect()
    }

    #[test]
    fn memory_beats_forgetful_beats_random() {
        let games = if cfg!(debug_assertions) {
            2_000
        } else {
            20_000
        };
        // All three at one table (the booklet's 1–12 game; with 1–50 `memory` wins ~always).
        let g = game(3, json!({"min_number": 1, "max_number": 12}));
        let r = win_shares(&g, &["memory", "forgetful:0.5", "random"], games, 11);
        println!(
            "3 players, 1..12: memory {:.4}, forgetful:0.5 {:.4}, random {:.4}",
            r[0], r[1], r[2]
        );
        assert!(r[0] > r[1] + 0.1 && r[1] > r[2] + 0.05, "{r:?}");
        // Head to head, the full deck.
        let g = game(2, json!({}));
        for (a, b) in [
            ("memory", "forgetful:0.5"),
            ("forgetful:0.5", "random"),
            ("memory", "random"),
        ] {
            let r = win_shares(&g, &[a, b], games, 12);
            println!("2 players, 1..50: {a} {:.4} vs {b} {:.4}", r[0], r[1]);
            assert!(r[0] > 0.8, "{a} vs {b}: {r:?}");
        }
        let g = game(2, json!({"jokers": true}));
        let r = win_shares(&g, &["memory", "random"], games, 13);
        println!(
            "2 players, 1..50 with jokers: memory {:.4} vs random {:.4}",
            r[0], r[1]
        );
        assert!(r[0] > 0.8, "{r:?}");
    }
}
