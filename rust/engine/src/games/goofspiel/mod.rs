//! Goofspiel, 2 players: OpenSpiel's goofspiel with its default parameters (random point order,
//! public bids, win/loss result).
//!
//! Engine contract (rules, action ids, labels, observation, canonical state):
//! `docs/games/goofspiel.md`.
//!
//! Data layout, built for speed: both hands and the unrevealed point cards are `u64` bitsets in
//! which bit `v − 1` stands for card `v` — the same number as the action id (bid) or chance outcome
//! (point card) of that card, so `legal_actions` just lists set bits. The player to move is stored,
//! the turn history lives in a fixed array, and the whole state is a small `Copy` struct, so
//! `apply`, `legal_actions`, `current_player` and `sample_chance` never allocate.
//!
//! Readings decided beyond OpenSpiel's rules (labels, the pending bid, the forced last turn, the
//! end state) are listed once in the contract's "Decisions" section (`docs/games/goofspiel.md`);
//! this module follows them.
//!
//! This file owns the state and the rules (`impl Game`); the canonical state, the observation,
//! its tensor and the action labels are written by `view`, the `greedy` bot lives in `bots`, the
//! rule scenarios in `tests`. Nothing outside this file changes a state.

mod determinize;
mod events;
mod view;

pub mod bots;
#[cfg(test)]
mod tests;

pub use bots::GreedyBot;

use crate::bits;
use crate::error::Result;
use crate::game::{Game, CHANCE, TERMINAL};
use crate::options::OptionValues;

/// The largest `num_cards`.
const MAX_CARDS: usize = 60;
/// The default `num_cards`.
const DEFAULT_CARDS: i64 = 13;

/// The lowest card value. Bid `v` and point card `v` are both action id `v − LOWEST_CARD`, which
/// is also the card's bit in a card bitset.
const LOWEST_CARD: u32 = 1;
/// The action id of card 1.
const FIRST_ID: u32 = 0;
/// The action id of card 60, the highest possible card.
const LAST_ID: u32 = MAX_CARDS as u32 - 1;

/// The card value of action id (and bitset bit) `id`.
#[inline]
fn value_of(id: u32) -> u32 {
    id + LOWEST_CARD
}

/// The card values of a card bitset, in increasing order.
fn values_of(mask: u64) -> Vec<u32> {
    bits::ones(mask).map(value_of).collect()
}

/// Reveals both bids of the current turn, gives the point card to the higher bid (nobody on equal
/// bids), records the turn and clears it.
fn score_turn(st: &mut GoofspielState, bid0: u8, bid1: u8) {
    st.hands[0] &= !bits::bit_in(u32::from(bid0) - LOWEST_CARD, FIRST_ID, LAST_ID);
    st.hands[1] &= !bits::bit_in(u32::from(bid1) - LOWEST_CARD, FIRST_ID, LAST_ID);
    let value = u32::from(st.point_card);
    st.points[0] += value * u32::from(bid0 > bid1);
    st.points[1] += value * u32::from(bid1 > bid0);
    if let Some(rec) = st.history.get_mut(usize::from(st.turn)) {
        *rec = TurnRecord {
            point: st.point_card,
            bids: [bid0, bid1],
        };
    }
    st.turn += 1;
    st.point_card = 0;
    st.pending = 0;
}

/// Goofspiel with a fixed number of cards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Goofspiel {
    /// N: bid cards per seat and point cards.
    num_cards: u32,
    /// Bits `0..N`: every card.
    full: u64,
    option_values: OptionValues,
}

crate::options::game_options! {
    /// The options of Goofspiel, as read for [`Game::with_options`].
    #[players(2..=2)]
    pub struct GoofspielOptions {
        /// N: bid cards per seat and point cards, 1..=60
        num_cards: int(DEFAULT_CARDS, 1, MAX_CARDS as i64),
    }
}

/// One completed turn: its point card and both bids (card values).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct TurnRecord {
    point: u8,
    bids: [u8; 2],
}

/// The full state of one game of Goofspiel (small and `Copy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GoofspielState {
    /// Remaining bid cards per seat (bit `v − 1` = card `v`); a pending bid is still in its hand.
    hands: [u64; 2],
    /// Point cards not yet revealed (bit `v − 1` = point card `v`).
    remaining: u64,
    /// Points won per seat.
    points: [u32; 2],
    /// The player to move: seat 0 or 1, [`CHANCE`] or [`TERMINAL`].
    to_move: i32,
    /// Turns completed.
    turn: u8,
    /// The current turn's point card value, 0 = none.
    point_card: u8,
    /// Seat 0's pending bid value, 0 = none.
    pending: u8,
    /// The completed turns, in order (first `turn` entries).
    history: [TurnRecord; MAX_CARDS],
}

impl GoofspielState {
    /// The completed turns.
    fn done(&self) -> &[TurnRecord] {
        &self.history[..usize::from(self.turn).min(MAX_CARDS)]
    }

    /// Pending bid value of `seat` (0 = none).
    fn pending_of(&self, seat: usize) -> u8 {
        if seat == 0 {
            self.pending
        } else {
            0
        }
    }
}

impl Goofspiel {
    /// N, the number of cards per suit.
    pub fn num_cards(&self) -> u32 {
        self.num_cards
    }
}

impl Game for Goofspiel {
    type State = GoofspielState;
    const ID: &'static str = "goofspiel";
    /// Greedy playouts: with random ones, or rollout opponents, `mcts` loses to `greedy` or
    /// 4000 iterations lose to 250 (`docs/search.md`).
    const SEARCH_DEFAULTS: &'static str = "rollout=greedy";
    type Options = GoofspielOptions;

    fn with_options(_players: usize, options: Self::Options, values: OptionValues) -> Result<Self> {
        let num_cards = options.num_cards as u32;
        Ok(Self {
            num_cards,
            full: (1u64 << num_cards) - 1,
            option_values: values,
        })
    }

    fn players(&self) -> usize {
        2
    }

    fn num_actions(&self) -> u32 {
        self.num_cards
    }

    fn initial_state(&self) -> GoofspielState {
        GoofspielState {
            hands: [self.full; 2],
            remaining: self.full,
            points: [0; 2],
            to_move: CHANCE,
            turn: 0,
            point_card: 0,
            pending: 0,
            history: [TurnRecord::default(); MAX_CARDS],
        }
    }

    #[inline(always)]
    fn current_player(&self, st: &GoofspielState) -> i32 {
        st.to_move
    }

    #[inline(always)]
    fn legal_set(&self, st: &GoofspielState) -> Option<u64> {
        Some(match st.to_move {
            CHANCE => st.remaining,
            0 => st.hands[0],
            1 => st.hands[1],
            _ => 0,
        })
    }

    #[inline(always)]
    fn uniform_chance(&self, st: &GoofspielState) -> Option<u64> {
        (st.to_move == CHANCE).then_some(st.remaining)
    }

    #[inline(always)]
    fn apply(&self, st: &mut GoofspielState, action: u32) {
        let b = bits::bit_in(action, FIRST_ID, LAST_ID);
        match st.to_move {
            CHANCE => {
                if st.remaining & b == 0 {
                    return;
                }
                st.remaining &= !b;
                st.point_card = value_of(action) as u8;
                st.to_move = 0;
            }
            0 => {
                if st.hands[0] & b == 0 {
                    return;
                }
                st.pending = value_of(action) as u8;
                st.to_move = 1;
            }
            1 => {
                if st.hands[1] & b == 0 || st.pending == 0 {
                    return;
                }
                score_turn(st, st.pending, value_of(action) as u8);
                if st.remaining != 0 && st.remaining & (st.remaining - 1) == 0 {
                    // As in OpenSpiel, a last turn with nothing to choose is played at once.
                    let last = |cards: u64| value_of(cards.trailing_zeros()) as u8;
                    st.point_card = last(st.remaining);
                    st.remaining = 0;
                    score_turn(st, last(st.hands[0]), last(st.hands[1]));
                }
                st.to_move = if st.remaining == 0 { TERMINAL } else { CHANCE };
            }
            _ => {}
        }
    }

    fn scores(&self, st: &GoofspielState, out: &mut [i64]) {
        crate::game::write_scores(&st.points, out);
    }

    fn winner_mask(&self, st: &GoofspielState) -> u64 {
        let [a, b] = st.points;
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => 0b01,
            std::cmp::Ordering::Less => 0b10,
            std::cmp::Ordering::Equal => 0b11,
        }
    }

    crate::game::common_game_methods!(determinize: sample_pending_bid);

    crate::game::builtin_bots!("greedy" => GreedyBot);
}
