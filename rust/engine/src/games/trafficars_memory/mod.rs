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
//! - As many quiet turns in a row (no card taken, no card turned up that nobody had seen) as there
//!   are pairs among the cards laid out end the game (contract, Decision 11): `idle_turns` counts
//!   them, so no game goes on for ever, and play that makes progress never gets that far.
//!
//! Bots: `memory` (perfect memory, reads the observation's `seen`) and `forgetful:P` (its own
//! memory, each remembered card forgotten with probability P at the start of each of its turns,
//! P = 0.2 without a parameter); see [`MemoryBot`]. The card that breaks a run is never face up
//! in an observation (it is turned back within the same step), so `forgetful` learns it from the
//! position that newly appears in `seen` (or from its own flip); a breaker that was already seen
//! and that `forgetful` has forgotten is not learnt again when another seat flips it.
//!
//! Layout of this folder: this file owns the rules (deck, layout, runs, the end test, `impl Game`)
//! and neither renders a state nor chooses a move; `view` renders states (canonical state,
//! observation, tensor, labels) and must never change one; `bots` holds the built-in `memory` and
//! `forgetful` bots, which read only what their seat may know; `tests` holds the rule scenarios.
//! The card ids are those of the Trafficars deck (game 1), taken from that module rather than
//! copied. Generic checks of every game (legal lists, chance weights, fast paths, bot strength,
//! observation keys) live in the shared test kit, not here.

mod bots;
mod determinize;
mod events;
#[cfg(test)]
mod tests;
mod view;

pub use bots::MemoryBot;
use bots::DEFAULT_FORGET;

use crate::bits;
use crate::error::{EngineError, Result};
use crate::game::{Game, CHANCE, TERMINAL};
use crate::games::trafficars::{FIRST_CARD, LAST_CARD};
use crate::options::OptionValues;
use std::ops::RangeInclusive;

/// Most seats a game can have: its most players.
const MAX_SEATS: usize = TrafficarsMemory::PLAYERS.1;
/// Most positions in the grid (50 cars and 12 jokers).
const MAX_GRID: usize = 62;
/// The last position a grid can have.
const LAST_POSITION: u32 = MAX_GRID as u32 - 1;
/// Card id of the first joker (the special cards of the deck, 51..=62, are the jokers).
const FIRST_JOKER: u32 = 51;
/// Action ids of the layout: the card id laid at the next position.
const LAYOUT_ACTIONS: RangeInclusive<u32> = FIRST_CARD..=LAST_CARD;
/// Action id of "stop and take the run" (never a position: the grid has at most 62). The flips
/// are the positions themselves, `0..N`.
const STOP: u32 = 63;
/// Size of the action space (positions 0..61 for flips, [`STOP`]; card ids 1..62 at the layout).
const NUM_ACTIONS: u32 = 64;
const _: () = assert!(MAX_GRID as u32 <= STOP && STOP + 1 == NUM_ACTIONS);
/// "No seat" marker.
const NO_SEAT: u8 = u8::MAX;

/// Whether card `card` is a joker (a special card).
#[inline]
fn is_joker(card: u32) -> bool {
    card >= FIRST_JOKER
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
    for c in bits::ones(cars) {
        if let Some(p) = prev {
            if c - p - 1 <= jokers {
                return true;
            }
        }
        prev = Some(c);
    }
    false
}

/// Bits 1..=50: every car number (the card ids below the first joker).
#[inline]
const fn car_bits() -> u64 {
    ((1u64 << FIRST_JOKER) - 1) ^ 1
}

crate::game::phases! {
    /// Where the game stands.
    enum Phase {
        /// Chance: the card of the next grid position.
        Layout,
        /// Seat `current` flips a face-down position.
        Flip,
        /// The game is over.
        Over,
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
    /// Quiet turns in a row that end the game (contract, Decision 11): `N(N − 1)/2`, the pairs
    /// among the cards laid out.
    stall_turns: u16,
    /// Bitset of the card ids of the deck.
    deck: u64,
    option_values: OptionValues,
}

crate::options::game_options! {
    /// The options of the memory game, as read for [`Game::with_options`].
    #[players(2..=5)]
    pub struct TrafficarsMemoryOptions {
        /// lowest car number used, 1..50 (below max_number)
        min_number: int(1, 1, 50),
        /// highest car number used, 1..50 (above min_number)
        max_number: int(50, 1, 50),
        /// add floor(12 * cars used / 50) special cards as jokers
        jokers: bool(false),
    }
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
    /// Turns in a row, the current one included, that took no card and turned up no card never
    /// seen before (contract, "Flow", step 3: `stall_turns` of them end the game).
    idle_turns: u16,
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
            st.idle_turns = 0;
            let mut count = 0u8;
            for p in bits::ones(st.flipped_mask) {
                st.table_cards &= !bits::bit_in(st.card_at(p), FIRST_CARD, LAST_CARD);
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
        if contains_collectable(st.table_cards) && st.idle_turns < self.stall_turns {
            st.current = ((usize::from(st.current) + 1) % self.players) as u8;
            st.idle_turns += 1;
        } else {
            st.phase = Phase::Over;
            st.current = NO_SEAT;
        }
    }

    /// Contract flow step 2: seat `current` flips position `pos`.
    fn flip(&self, st: &mut TrafficarsMemoryState, pos: u32) {
        let bit = bits::bit_in(pos, 0, LAST_POSITION);
        if st.face_down() & bit == 0 {
            return;
        }
        let card = st.card_at(pos);
        let len = usize::from(st.flipped_len).min(MAX_GRID - 1);
        st.flipped[len] = pos as u8;
        st.flipped_len = len as u8 + 1;
        st.flipped_mask |= bit;
        if st.seen & bit == 0 {
            st.idle_turns = 0;
        }
        st.seen |= bit;
        let (cars, jokers) = if is_joker(card) {
            (st.k_cars, u32::from(st.k_jokers) + 1)
        } else {
            (
                st.k_cars | bits::bit_in(card, FIRST_CARD, LAST_CARD),
                u32::from(st.k_jokers),
            )
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
}

impl Game for TrafficarsMemory {
    type State = TrafficarsMemoryState;
    const ID: &'static str = "trafficars_memory";
    /// One move deep: a bandit over the root's choices (the never-seen flips pooled into one
    /// class) whose iterations play on with the `memory` bot for every seat (a node below the
    /// root would need 10,000 visits for a second edge), on common samples, scored by margins
    /// (`docs/search.md`).
    const SEARCH_DEFAULTS: &'static str =
        "rollout=greedy,opponents=rollout,reward=margin,c=0.3,prior=1,classes=on,widen=0.01,crn=on";
    /// The never-seen positions are interchangeable (`TrafficarsMemoryState::search_class`).
    const HAS_ACTION_CLASSES: bool = true;
    /// The whole table is public: every flip is seen by every seat.
    const DECISIONS_ARE_PUBLIC: bool = true;
    type Options = TrafficarsMemoryOptions;

    #[inline]
    fn search_class(state: &TrafficarsMemoryState, action: u32) -> u32 {
        state.search_class(action)
    }

    fn with_options(players: usize, options: Self::Options, values: OptionValues) -> Result<Self> {
        if options.min_number >= options.max_number {
            return Err(EngineError::InvalidOption(format!(
                "{}: min_number must be below max_number (at least two cars), got \
                 min_number={}, max_number={}",
                Self::ID,
                options.min_number,
                options.max_number
            )));
        }
        let (min_number, max_number) = (options.min_number as u32, options.max_number as u32);
        let jokers = options.jokers;
        let cars = max_number - min_number + 1;
        let joker_count = if jokers { 12 * cars / 50 } else { 0 };
        let mut deck = 0u64;
        for c in min_number..=max_number {
            deck |= bits::bit_in(c, FIRST_CARD, LAST_CARD);
        }
        for k in 0..joker_count {
            deck |= bits::bit_in(FIRST_JOKER + k, FIRST_CARD, LAST_CARD);
        }
        let grid = (cars + joker_count) as usize;
        Ok(Self {
            players,
            min_number,
            max_number,
            jokers,
            grid,
            // At most 62 · 61 / 2 = 1,891.
            stall_turns: u16::try_from(grid * (grid - 1) / 2).unwrap_or(u16::MAX),
            deck,
            option_values: values,
        })
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
            idle_turns: 0,
        }
    }

    fn current_player(&self, st: &TrafficarsMemoryState) -> i32 {
        match st.phase {
            Phase::Layout => CHANCE,
            Phase::Flip => i32::from(st.current),
            Phase::Over => TERMINAL,
        }
    }

    /// The cards still to lay out, or the face-down positions with `STOP` (63, above every
    /// position) when the player may stop.
    #[inline(always)]
    fn legal_set(&self, st: &TrafficarsMemoryState) -> Option<u64> {
        let mask = match st.phase {
            Phase::Layout => self.deck & !st.laid_cards,
            Phase::Flip => st.face_down(),
            Phase::Over => 0,
        };
        Some(mask | u64::from(Self::can_stop(st)) << STOP)
    }

    #[inline(always)]
    fn uniform_chance(&self, st: &TrafficarsMemoryState) -> Option<u64> {
        (st.phase == Phase::Layout).then_some(self.deck & !st.laid_cards)
    }

    fn apply(&self, st: &mut TrafficarsMemoryState, action: u32) {
        match st.phase {
            Phase::Layout => {
                let b = bits::bit_in(action, FIRST_CARD, LAST_CARD);
                let pos = usize::from(st.laid);
                if b & self.deck & !st.laid_cards == 0 || pos >= self.grid {
                    return;
                }
                st.layout[pos] = action as u8;
                st.laid += 1;
                st.laid_cards |= b;
                st.table_cards |= b;
                st.on_table |= bits::bit_in(pos as u32, 0, LAST_POSITION);
                if usize::from(st.laid) == self.grid {
                    if contains_collectable(st.table_cards) {
                        st.phase = Phase::Flip;
                        st.current = 0;
                        st.idle_turns = 1;
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
    fn scores(&self, st: &TrafficarsMemoryState, out: &mut [i64]) {
        crate::game::write_scores(&st.taken[..self.players], out);
    }

    fn winner_mask(&self, st: &TrafficarsMemoryState) -> u64 {
        let taken = &st.taken[..self.players];
        crate::game::seats_with(taken, taken.iter().copied().max().unwrap_or(0))
    }

    crate::game::builtin_bots! {
        "memory" => MemoryBot::perfect(),
        "forgetful" [P: "a forgetting probability", 0.0..=1.0,
            default DEFAULT_FORGET, example 0.2]
            => MemoryBot::forgetful,
    }

    crate::game::common_game_methods!(num_actions: NUM_ACTIONS, determinize: sample_unseen);
}
