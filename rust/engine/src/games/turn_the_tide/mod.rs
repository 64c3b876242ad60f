//! Turn the Tide (Land unter), 3–5 players.
//!
//! Rules: `rules/turn_the_tide.md`; engine contract (action ids, labels, observation, canonical
//! state): `docs/games/turn_the_tide.md`.
//!
//! Data layout: hands are `u64` bitsets of card numbers (bit `c` = weather card `c`), the tide deck
//! is a bitset of the copies left (see `TideDeck`), everything else lives in fixed arrays sized
//! for five seats, so the state is `Copy` and `apply` / `legal_actions` never allocate. Chance
//! nodes and the random bot pick the element of a given rank of such a bitset in constant time.
//!
//! Readings decided beyond the rulebook (the re-check after a tie, the lowest-tide bonus for seats
//! without a tide card, when commitments are cleared, the deal and the end state) are listed once,
//! with the original sentences, in the contract's "Decisions" section
//! (`docs/games/turn_the_tide.md`); this module follows them.
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
use crate::rng::SplitMix64;
use crate::step::StepResult;
use serde_json::json;

/// Most seats a game can have: its most players.
const MAX_SEATS: usize = TurnTheTide::PLAYERS.1;
/// Weather cards in one hand (and hands in one round).
const HAND_SIZE: usize = 12;
/// Distinct tide values (1..=12).
const TIDE_VALUES: usize = 12;
/// The lowest weather card. Deal outcome `c` and play action `c` are weather card `c` (ids
/// `LOWEST_CARD..=HIGHEST_CARD`), which is also its bit in a hand bitset.
const LOWEST_CARD: u32 = 1;
/// The highest weather card.
const HIGHEST_CARD: u32 = 60;
/// Tide chance outcome `v` is tide value `v` (ids `LOWEST_TIDE..=TIDE_VALUES`).
const LOWEST_TIDE: u32 = 1;
/// At a `choose_tide` node: the choosing seat takes tide A (the other seat gets tide B).
const TAKE_TIDE_A: u32 = 0;
/// At a `choose_tide` node: the choosing seat takes tide B (the other seat gets tide A).
const TAKE_TIDE_B: u32 = 1;
/// Size of the action space: ids 0..=60.
const NUM_ACTIONS: u32 = HIGHEST_CARD + 1;
/// Bits 1..=60: every weather card.
const ALL_CARDS: u64 = ((1u64 << 61) - 1) ^ 1;
/// Weather cards 13..=48: one half-lifebuoy each.
const ONE_HALF: u64 = ((1u64 << 49) - 1) & !((1u64 << 13) - 1);
/// Weather cards 25..=36: a second half-lifebuoy each.
const TWO_HALVES: u64 = ((1u64 << 37) - 1) & !((1u64 << 25) - 1);
/// "No seat" marker.
const NO_SEAT: u8 = u8::MAX;

/// Half-lifebuoys printed on weather card `card` (1..=60).
pub fn halves(card: u32) -> u32 {
    u32::from((13..=48).contains(&card)) + u32::from((25..=36).contains(&card))
}

/// Half-lifebuoys printed on the cards of a hand bitset (the sum of [`halves`]).
#[inline(always)]
fn halves_of(hand: u64) -> u32 {
    bits::count(hand & ONE_HALF) + bits::count(hand & TWO_HALVES)
}

/// The tide deck: the copies (two at the start) of each value 1..=12 still in it.
///
/// Value `v` owns bits `2(v − 1)` and `2(v − 1) + 1`; its copies left are the low bits of that
/// pair (`0b11`, `0b01` or `0b00`). So the set bits, lowest first, list the copies in increasing
/// value order, which is the running-weight order of the tide chance node: the outcome for
/// `u = below(total)` is the value owning the set bit of rank `u`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct TideDeck {
    copies: u64,
}

impl TideDeck {
    /// Two copies of every value.
    const FULL: Self = Self {
        copies: (1 << (2 * TIDE_VALUES)) - 1,
    };

    /// Copies left of value `v` (0 for anything out of 1..=12).
    #[inline(always)]
    fn count(self, v: usize) -> u8 {
        if (1..=TIDE_VALUES).contains(&v) {
            let pair = self.copies >> (2 * (v - 1));
            ((pair & 1) + (pair >> 1 & 1)) as u8
        } else {
            0
        }
    }

    /// Copies left per value 1..=12.
    fn counts(self) -> [u8; TIDE_VALUES] {
        std::array::from_fn(|i| self.count(i + 1))
    }

    /// Copies left in all.
    #[cfg(test)]
    fn total(self) -> u32 {
        bits::count(self.copies)
    }

    /// The tide chance node: the value of the copy of rank `rng.below(total)` in increasing
    /// value order (`None`, drawing nothing, for an empty deck).
    #[inline(always)]
    fn draw(self, rng: &mut SplitMix64) -> Option<u32> {
        bits::pick(self.copies, rng).map(|b| b / 2 + LOWEST_TIDE)
    }

    /// Takes one copy of value `v` out; false (and nothing changes) if there is none.
    #[inline(always)]
    fn take(&mut self, v: usize) -> bool {
        let k = self.count(v);
        if k == 0 {
            return false;
        }
        self.copies &= !(1 << (2 * (v - 1) + usize::from(k) - 1));
        true
    }
}

crate::game::phases! {
    /// Where the game stands, i.e. what kind of node comes next.
    enum Phase {
        /// Chance: the next weather card of the deal.
        Deal,
        /// Chance: tide A or tide B of the current hand.
        Tide,
        /// Seat `to_move` commits a weather card.
        Play,
        /// With `highest_chooses_tide`: the highest card's seat takes tide A or B.
        ChooseTide,
        /// The game is over.
        Over,
    }
}

/// Turn the Tide with a fixed player count and options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnTheTide {
    players: usize,
    recheck_after_elimination: bool,
    highest_chooses_tide: bool,
    rounds: usize,
    option_values: OptionValues,
}

crate::options::game_options! {
    /// The options of Turn the Tide, as read for [`Game::with_options`].
    #[players(3..=5)]
    pub struct TurnTheTideOptions {
        /// after an elimination the highest tide loses a lifebuoy again (rules step 7; no effect with
        /// 3 players, whose round ends when two remain)
        recheck_after_elimination: bool(true),
        /// the highest weather card chooses either tide card
        highest_chooses_tide: bool(false),
        /// number of rounds, 1..players (null: as many as players)
        rounds: optional_int_up_to_players(None, 1, MAX_SEATS as i64),
    }
}

/// The full state of one game of Turn the Tide (small and `Copy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TurnTheTideState {
    phase: Phase,
    /// Cards dealt per seat, in deal order; seat `s` has `dealt_count - 12 s` of them (clamped).
    dealt: [[u8; HAND_SIZE]; MAX_SEATS],
    /// Cards dealt so far (all seats).
    dealt_count: u8,
    /// Bitset of the cards dealt so far.
    dealt_mask: u64,
    /// Bitset of the cards dealt per seat (the sets of `dealt`).
    dealt_hands: [u64; MAX_SEATS],
    /// The round being played, from 0.
    round: u8,
    /// The hand of the round being played, from 0 (`HAND_SIZE` hands a round).
    hand_index: u8,
    /// Cards of the round's hand not yet revealed, per seat.
    hands: [u64; MAX_SEATS],
    /// Lifebuoys left per seat in this round.
    lifebuoys: [u8; MAX_SEATS],
    /// Showing tide value per seat, 0 = none.
    tide: [u8; MAX_SEATS],
    /// Seats still in the round (not eliminated): bit `s` = seat `s`.
    in_round: u8,
    /// Weather cards revealed so far in the round per seat, in play order (first `played_len`).
    played: [[u8; HAND_SIZE]; MAX_SEATS],
    /// How many cards of `played` each seat has revealed this round.
    played_len: [u8; MAX_SEATS],
    /// Tide values drawn in this hand: A then B.
    revealed: [u8; 2],
    revealed_len: u8,
    /// Copies of tide values 1..=12 left in the deck.
    tide_deck: TideDeck,
    /// Pending commitment per seat, 0 = none.
    commitments: [u8; MAX_SEATS],
    /// The seat to commit next (phase `Play`).
    to_move: u8,
    /// The seat choosing a tide card (phase `ChooseTide`), else `NO_SEAT`.
    chooser: u8,
    /// Points per seat from the rounds scored so far.
    scores: [i32; MAX_SEATS],
}

/// The seats of a seat bitset, lowest first.
fn seats(mut mask: u8) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let s = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        Some(s)
    })
}

/// Whether seat `s` is missing from the seat bitset `mask`.
fn out_of(mask: u8, s: usize) -> bool {
    s >= 8 || mask >> s & 1 == 0
}

impl TurnTheTideState {
    /// Whether seat `s` is eliminated from the round.
    fn eliminated(&self, s: usize) -> bool {
        out_of(self.in_round, s)
    }
}

/// The public table the lifebuoy rules act on: showing tides, lifebuoys and eliminations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Table {
    tide: [u8; MAX_SEATS],
    lifebuoys: [u8; MAX_SEATS],
    /// Seats still in the round: bit `s` = seat `s`.
    in_round: u8,
}

impl Table {
    fn of(st: &TurnTheTideState) -> Self {
        Self {
            tide: st.tide,
            lifebuoys: st.lifebuoys,
            in_round: st.in_round,
        }
    }

    fn eliminated(&self, s: usize) -> bool {
        out_of(self.in_round, s)
    }

    /// The lowest showing tide among seats still in (0 if one of them has none), or `u8::MAX`
    /// if no seat is left.
    fn lowest_tide(&self) -> u8 {
        seats(self.in_round)
            .map(|s| self.tide[s])
            .min()
            .unwrap_or(u8::MAX)
    }
}

/// Rules steps 4–7 on the parts of a [`Table`]: the highest showing tide loses a lifebuoy (or is
/// eliminated), repeated after eliminations when `recheck` is set. Returns true if the round ends
/// (at most two seats left).
#[inline(always)]
fn lose_lifebuoys<const N: usize>(
    tide: &mut [u8; N],
    lifebuoys: &mut [u8; N],
    in_round: &mut u8,
    recheck: bool,
) -> bool {
    loop {
        // The highest showing tide and the seats showing it, in one pass.
        let (mut top, mut at_top) = (0u8, 0u8);
        for s in seats(*in_round) {
            let t = tide[s];
            if t > top {
                (top, at_top) = (t, 1 << s);
            } else if t == top {
                at_top |= 1 << s;
            }
        }
        if top == 0 {
            return false;
        }
        let mut any_eliminated = false;
        for s in seats(at_top) {
            if lifebuoys[s] > 0 {
                lifebuoys[s] -= 1;
            } else {
                *in_round &= !(1 << s);
                tide[s] = 0;
                any_eliminated = true;
            }
        }
        if in_round.count_ones() <= 2 {
            return true;
        }
        if !(recheck && any_eliminated) {
            return false;
        }
    }
}

impl TurnTheTide {
    /// The number of rounds played (the resolved `rounds` option).
    pub fn rounds(&self) -> usize {
        self.rounds
    }

    /// The first seat still in the round at or after `from`, or `NO_SEAT`.
    #[inline]
    fn next_active(&self, st: &TurnTheTideState, from: usize) -> u8 {
        let later = u32::from(st.in_round) & u32::MAX.checked_shl(from as u32).unwrap_or(0);
        if later == 0 {
            NO_SEAT
        } else {
            later.trailing_zeros() as u8
        }
    }

    /// Contract flow step 2: round `r` starts (kept out of the steps that call it).
    #[inline(never)]
    fn start_round(&self, st: &mut TurnTheTideState, r: usize) {
        self.start_round_here(st, r);
    }

    /// [`Self::start_round`] inlined where it is called: the random deal, which runs with the
    /// CPU's bit instructions, counts the lifebuoys of the hands with them.
    #[inline(always)]
    fn start_round_here(&self, st: &mut TurnTheTideState, r: usize) {
        let n = self.players;
        for p in 0..n {
            let src = (p + n - r % n) % n;
            let hand = st.dealt_hands[src];
            st.hands[p] = hand;
            st.lifebuoys[p] = (halves_of(hand) / 2) as u8;
        }
        st.round = r as u8;
        st.hand_index = 0;
        st.tide = [0; MAX_SEATS];
        st.in_round = ((1u16 << n) - 1) as u8;
        st.played = [[0; HAND_SIZE]; MAX_SEATS];
        st.played_len = [0; MAX_SEATS];
        st.revealed = [0; 2];
        st.revealed_len = 0;
        st.tide_deck = TideDeck::FULL;
        st.commitments = [0; MAX_SEATS];
        st.to_move = NO_SEAT;
        st.chooser = NO_SEAT;
        st.phase = Phase::Tide;
    }

    /// The seats with the highest and second-highest commitment among seats still in.
    #[inline(always)]
    fn top_two(&self, st: &TurnTheTideState) -> (usize, usize) {
        let (mut first, mut second) = (0usize, 0usize);
        let (mut c1, mut c2) = (0u8, 0u8);
        for s in seats(st.in_round) {
            let c = st.commitments[s];
            if c > c1 {
                (second, c2) = (first, c1);
                (first, c1) = (s, c);
            } else if c > c2 {
                (second, c2) = (s, c);
            }
        }
        (first, second)
    }

    /// Rules step 2–3: all commitments are revealed; the tide cards go out (or the highest seat
    /// is asked to choose).
    #[inline(always)]
    fn reveal(&self, st: &mut TurnTheTideState) {
        // The seats with the highest and second-highest commitment (as `top_two`), found in the
        // same pass.
        let (mut first, mut second) = (0usize, 0usize);
        let (mut c1, mut c2) = (0u8, 0u8);
        for s in seats(st.in_round) {
            let c = st.commitments[s];
            st.hands[s] &= !bits::bit_in(u32::from(c), LOWEST_CARD, HIGHEST_CARD);
            let len = usize::from(st.played_len[s]).min(HAND_SIZE - 1);
            st.played[s][len] = c;
            st.played_len[s] = (len + 1) as u8;
            if c > c1 {
                (second, c2) = (first, c1);
                (first, c1) = (s, c);
            } else if c > c2 {
                (second, c2) = (s, c);
            }
        }
        st.to_move = NO_SEAT;
        let (a, b) = (st.revealed[0], st.revealed[1]);
        if self.highest_chooses_tide {
            st.chooser = first as u8;
            st.phase = Phase::ChooseTide;
        } else {
            st.tide[first] = a.min(b);
            st.tide[second] = a.max(b);
            self.finish_hand(st);
        }
    }

    /// Rules steps 4–8 and the end of the hand: lifebuoys, round end, scoring, next round.
    #[inline(always)]
    fn finish_hand(&self, st: &mut TurnTheTideState) {
        let ended = lose_lifebuoys(
            &mut st.tide,
            &mut st.lifebuoys,
            &mut st.in_round,
            self.recheck_after_elimination,
        );
        st.hand_index += 1;
        st.revealed = [0; 2];
        st.revealed_len = 0;
        st.commitments = [0; MAX_SEATS];
        st.chooser = NO_SEAT;
        st.to_move = NO_SEAT;
        if ended || usize::from(st.hand_index) >= HAND_SIZE {
            self.score_round(st);
            let next = usize::from(st.round) + 1;
            if next < self.rounds {
                self.start_round(st, next);
            } else {
                st.phase = Phase::Over;
            }
        } else {
            st.phase = Phase::Tide;
        }
    }

    /// Round scoring: lifebuoys for seats still in, −1 for eliminated seats, +1 for the lowest
    /// showing tide (no tide card counts as lowest) among seats still in.
    fn score_round(&self, st: &mut TurnTheTideState) {
        let table = Table::of(st);
        let lowest = table.lowest_tide();
        for s in 0..self.players {
            if table.eliminated(s) {
                st.scores[s] -= 1;
            } else {
                st.scores[s] += i32::from(table.lifebuoys[s]) + i32::from(table.tide[s] == lowest);
            }
        }
    }

    /// Deals weather card `card` (a card not dealt yet, whose hand bit is `b`) to the seat next in
    /// line; true when that ends the deal.
    #[inline(always)]
    fn deal(&self, st: &mut TurnTheTideState, card: u32, b: u64) -> bool {
        let seat = Self::deal_seat(st);
        let idx = usize::from(st.dealt_count) % HAND_SIZE;
        st.dealt[seat][idx] = card as u8;
        st.dealt_hands[seat] |= b;
        st.dealt_mask |= b;
        st.dealt_count += 1;
        if usize::from(st.dealt_count) >= HAND_SIZE * self.players {
            self.start_round(st, 0);
            return true;
        }
        false
    }

    /// Reveals tide value `value` of the hand (nothing if no copy is left); true when that
    /// starts the plays.
    #[inline(always)]
    fn reveal_tide(&self, st: &mut TurnTheTideState, value: u32) -> bool {
        if !st.tide_deck.take(value as usize) {
            return false;
        }
        let len = usize::from(st.revealed_len).min(1);
        st.revealed[len] = value as u8;
        st.revealed_len = len as u8 + 1;
        if st.revealed_len == 2 {
            st.phase = Phase::Play;
            st.to_move = self.next_active(st, 0);
            return true;
        }
        false
    }

    /// Seat `seat` (to move) commits weather card `card` of its hand; true when that was the
    /// last commitment (the hand is revealed).
    #[inline(always)]
    fn commit(&self, st: &mut TurnTheTideState, seat: usize, card: u32) -> bool {
        if let Some(c) = st.commitments.get_mut(seat) {
            *c = card as u8;
        }
        st.to_move = self.next_active(st, seat + 1);
        if st.to_move == NO_SEAT {
            self.reveal(st);
            return true;
        }
        false
    }

    /// The choosing seat takes tide A or B (`action`); anything else changes nothing.
    #[inline(always)]
    fn choose_tide(&self, st: &mut TurnTheTideState, action: u32) {
        let (a, b) = (st.revealed[0], st.revealed[1]);
        let (mine, other) = match action {
            TAKE_TIDE_A => (a, b),
            TAKE_TIDE_B => (b, a),
            _ => return,
        };
        let (first, second) = self.top_two(st);
        st.tide[first] = mine;
        st.tide[second] = other;
        self.finish_hand(st);
    }

    /// Seat to which the next deal card goes.
    fn deal_seat(st: &TurnTheTideState) -> usize {
        (usize::from(st.dealt_count) / HAND_SIZE).min(MAX_SEATS - 1)
    }
}

/// Column of seat 0 on a board of showing tides ([`showing_bit`]): one bit per tide value.
const SEAT_COLUMN: u64 = {
    let mut column = 0;
    let mut v = 0;
    while v < TIDE_VALUES {
        column |= 1 << (MAX_SEATS * v);
        v += 1;
    }
    column
};

/// Every seat's bit in one row of a board of showing tides.
const SEAT_ROW: u8 = (1 << MAX_SEATS) - 1;

/// The lower bit of every pair of bits.
const PAIR_LOW_BITS: u64 = 0x5555_5555_5555_5555;

/// Seat `s` showing tide value `v` (1..=12) on a board of showing tides: bit `5 (v − 1) + s`.
///
/// The board has one row of seat bits per tide value, lowest value first, so the highest set
/// bit lies in the row of the highest showing tide and that row lists the seats showing it.
#[inline(always)]
fn showing_bit(s: usize, v: u8) -> u64 {
    1 << (MAX_SEATS * usize::from(v - 1) + s)
}

/// Draws a tide card from a deck of copies kept as in [`TideDeck`] but with a value's single copy
/// on either bit of its pair (the random playout takes out exactly the copy it drew): the set
/// bits still list the copies in increasing value order, so this draws what
/// [`TideDeck::draw`] draws. The deck must not be empty.
#[inline(always)]
fn draw_tide_copy(deck: &mut u64, rng: &mut SplitMix64) -> u8 {
    let b = bits::pick(*deck, rng).unwrap_or(0);
    *deck &= !(1 << b);
    (b / 2 + LOWEST_TIDE) as u8
}

/// The [`TideDeck`] of a deck drawn by [`draw_tide_copy`]: every single copy moved to the low bit
/// of its pair.
#[inline(always)]
fn packed_copies(deck: u64) -> u64 {
    let (low, high) = (deck & PAIR_LOW_BITS, deck >> 1 & PAIR_LOW_BITS);
    low | high | (low & high) << 1
}

/// The random playout of whole rounds and of the deal: the same draws and the same states as
/// stepping `apply` after `sample_chance` / `random_action`, with the state of a round in locals.
impl TurnTheTide {
    /// Whether [`Self::random_deal`] can deal the rest of the cards of `st`: a deal with cards
    /// still to go and enough cards left for them (every state reached by play).
    fn random_deal_ready(&self, st: &TurnTheTideState) -> bool {
        let (dealt, total) = (usize::from(st.dealt_count), HAND_SIZE * self.players);
        st.phase == Phase::Deal
            && dealt < total
            && bits::count(ALL_CARDS & !st.dealt_mask) as usize >= total - dealt
    }

    /// Deals the rest of the cards (`st` passes [`Self::random_deal_ready`]), seat by seat, and
    /// starts round 0; returns the chance steps.
    #[inline(always)]
    fn random_deal(&self, st: &mut TurnTheTideState, chance: &mut SplitMix64) -> u32 {
        let n = self.players;
        let dealt = usize::from(st.dealt_count);
        let mut left = ALL_CARDS & !st.dealt_mask;
        for seat in dealt / HAND_SIZE..n {
            let mut hand = st.dealt_hands[seat];
            let first = if seat == dealt / HAND_SIZE {
                dealt % HAND_SIZE
            } else {
                0
            };
            for slot in &mut st.dealt[seat][first..] {
                // Never the empty set: enough cards are left (`random_deal_ready`).
                let card = bits::pick(left, chance).unwrap_or(0);
                left &= !(1 << card);
                hand |= 1 << card;
                *slot = card as u8;
            }
            st.dealt_hands[seat] = hand;
        }
        st.dealt_mask |= ALL_CARDS & !left;
        st.dealt_count = (HAND_SIZE * n) as u8;
        self.start_round_here(st, 0);
        (HAND_SIZE * n - dealt) as u32
    }

    /// Whether [`Self::random_rounds`] can play the rest of the game of `st` with `seat_rngs`:
    /// at the start of a hand (no tide card revealed), with a generator for every seat, at least
    /// three seats in, each holding cards of its own for every hand left and having played every
    /// hand of the round so far, tide copies for every hand left, no tide showing for an
    /// eliminated seat, and dealt hands of twelve cards of their own for the rounds to come. Every
    /// state reached by play at the start of a hand passes; anything else is played step by step.
    #[inline(always)]
    fn random_rounds_ready(&self, st: &TurnTheTideState, seat_rngs: &[SplitMix64]) -> bool {
        let n = self.players;
        let all = ((1u16 << n) - 1) as u8;
        let hand_index = usize::from(st.hand_index);
        let hands_left = HAND_SIZE.saturating_sub(hand_index);
        let (mut held, mut held_cards, mut dealt, mut dealt_cards) = (0u64, 0u32, 0u64, 0u32);
        let mut seats_fit = true;
        for s in 0..n {
            let hand = st.dealt_hands[s];
            (dealt, dealt_cards) = (dealt | hand, dealt_cards + bits::count(hand));
            seats_fit &= hand & !ALL_CARDS == 0 && bits::count(hand) as usize >= HAND_SIZE;
            if st.eliminated(s) {
                seats_fit &= st.tide[s] == 0;
            } else {
                let hand = st.hands[s];
                (held, held_cards) = (held | hand, held_cards + bits::count(hand));
                seats_fit &= hand & !ALL_CARDS == 0
                    && bits::count(hand) as usize >= hands_left
                    && usize::from(st.tide[s]) <= TIDE_VALUES
                    && usize::from(st.played_len[s]) == hand_index;
            }
        }
        st.phase == Phase::Tide
            && st.revealed_len == 0
            && seat_rngs.len() >= n
            && hands_left > 0
            && st.in_round & !all == 0
            && st.in_round.count_ones() >= 3
            && st.tide_deck.copies >> (2 * TIDE_VALUES) == 0
            && bits::count(st.tide_deck.copies) as usize >= 2 * hands_left
            && seats_fit
            && bits::count(held) == held_cards
            && bits::count(dealt) == dealt_cards
    }

    /// Plays the rest of the game of `st` (which passes [`Self::random_rounds_ready`]) with the
    /// `random` bot in every seat, round after round with the round's state in locals, and
    /// returns the decisions and chance steps.
    ///
    /// Per hand: the two tide draws, every seat's pick (the card leaves the hand at once: no seat
    /// looks at another's hand before the reveal), the two highest cards found from the set of
    /// cards played, and the lifebuoy steps on a board of showing tides ([`showing_bit`]), where
    /// the highest tide and the seats showing it are one bit scan away. Eliminated seats show no
    /// tide, so the board only holds seats still in. Seats still in have played every hand of
    /// the round, so their played count is the hand index; an eliminated seat's is set when it
    /// leaves.
    #[inline(always)]
    fn random_rounds(
        &self,
        st: &mut TurnTheTideState,
        chance: &mut SplitMix64,
        seat_rngs: &mut [SplitMix64],
    ) -> (u32, u32) {
        let n = self.players;
        let all = ((1u16 << n) - 1) as u8;
        let mut rngs = [SplitMix64::default(); MAX_SEATS];
        rngs[..n].copy_from_slice(&seat_rngs[..n]);
        let (mut hands, mut lifebuoys, mut tide) = (st.hands, st.lifebuoys, st.tide);
        let (mut in_round, mut played_len) = (st.in_round, st.played_len);
        let mut deck = st.tide_deck.copies;
        let (mut round, mut hand_index) = (usize::from(st.round), usize::from(st.hand_index));
        let mut board = 0u64;
        for s in seats(in_round) {
            if tide[s] > 0 {
                board |= showing_bit(s, tide[s]);
            }
        }
        // The seat that played each card of the current hand.
        let mut owner = [0u8; 64];
        let (mut decisions, mut chance_steps) = (0u32, 0u32);
        loop {
            // Rules step 1: tide A, then tide B.
            let a = draw_tide_copy(&mut deck, chance);
            let b = draw_tide_copy(&mut deck, chance);
            chance_steps += 2;
            // Step 2: the commitments in seat order, then revealed.
            let slot = hand_index.min(HAND_SIZE - 1);
            let mut played = 0u64;
            for s in seats(in_round) {
                // Never the empty set: the seat holds a card for every hand left.
                let card = bits::pick(hands[s], &mut rngs[s]).unwrap_or(0) & 63;
                hands[s] &= !(1 << card);
                st.played[s][slot] = card as u8;
                played |= 1 << card;
                owner[card as usize] = s as u8;
            }
            decisions += in_round.count_ones();
            // Step 3: the highest card takes the lower tide (or chooses), the second the other.
            let highest = 63 - played.leading_zeros();
            let second_highest = 63 - (played & !(1 << highest)).leading_zeros();
            let first = usize::from(owner[highest as usize]);
            let second = usize::from(owner[second_highest as usize]);
            let (mine, other) = if self.highest_chooses_tide {
                decisions += 1;
                match bits::pick(1 << TAKE_TIDE_A | 1 << TAKE_TIDE_B, &mut rngs[first]) {
                    Some(TAKE_TIDE_B) => (b, a),
                    _ => (a, b),
                }
            } else {
                (a.min(b), a.max(b))
            };
            tide[first] = mine;
            tide[second] = other;
            board &= !(SEAT_COLUMN << first | SEAT_COLUMN << second);
            board |= showing_bit(first, mine) | showing_bit(second, other);
            // Steps 4–7: the seats showing the highest tide lose a lifebuoy or are eliminated.
            let mut ended = false;
            while board != 0 {
                let row = (63 - board.leading_zeros()) as usize / MAX_SEATS * MAX_SEATS;
                let at_top = (board >> row) as u8 & SEAT_ROW;
                let mut out = 0u8;
                for s in seats(at_top) {
                    if lifebuoys[s] > 0 {
                        lifebuoys[s] -= 1;
                    } else {
                        out |= 1 << s;
                        tide[s] = 0;
                        played_len[s] = (hand_index + 1) as u8;
                    }
                }
                if out == 0 {
                    break;
                }
                in_round &= !out;
                board &= !(u64::from(out) << row);
                ended = in_round.count_ones() <= 2;
                if ended || !self.recheck_after_elimination {
                    break;
                }
            }
            hand_index += 1;
            if !ended && hand_index < HAND_SIZE {
                continue;
            }
            // The round is over: scoring (a seat without a tide card counts as lowest).
            let lowest = seats(in_round).map(|s| tide[s]).min().unwrap_or(u8::MAX);
            for (s, score) in st.scores[..n].iter_mut().enumerate() {
                if out_of(in_round, s) {
                    *score -= 1;
                } else {
                    *score += i32::from(lifebuoys[s]) + i32::from(tide[s] == lowest);
                }
            }
            if round + 1 >= self.rounds {
                break;
            }
            // The next round: the dealt hands move on by one seat, all as in `start_round`.
            round += 1;
            for p in 0..n {
                let hand = st.dealt_hands[(p + n - round % n) % n];
                hands[p] = hand;
                lifebuoys[p] = (halves_of(hand) / 2) as u8;
            }
            (tide, in_round, board) = ([0; MAX_SEATS], all, 0);
            (played_len, hand_index) = ([0; MAX_SEATS], 0);
            st.played = [[0; HAND_SIZE]; MAX_SEATS];
            deck = TideDeck::FULL.copies;
        }
        for s in seats(in_round) {
            played_len[s] = hand_index as u8;
        }
        st.hands = hands;
        st.lifebuoys = lifebuoys;
        st.tide = tide;
        st.in_round = in_round;
        st.played_len = played_len;
        st.tide_deck = TideDeck {
            copies: packed_copies(deck),
        };
        st.round = round as u8;
        st.hand_index = hand_index as u8;
        st.revealed = [0; 2];
        st.revealed_len = 0;
        st.commitments = [0; MAX_SEATS];
        st.chooser = NO_SEAT;
        st.to_move = NO_SEAT;
        st.phase = Phase::Over;
        seat_rngs[..n].copy_from_slice(&rngs[..n]);
        (decisions, chance_steps)
    }
}

impl Game for TurnTheTide {
    type State = TurnTheTideState;
    const ID: &'static str = "turn_the_tide";
    type Options = TurnTheTideOptions;

    fn with_options(
        players: usize,
        options: Self::Options,
        mut values: OptionValues,
    ) -> Result<Self> {
        let rounds = options.rounds.map_or(players, |r| r as usize);
        values.set("rounds", json!(rounds));
        Ok(Self {
            players,
            recheck_after_elimination: options.recheck_after_elimination,
            highest_chooses_tide: options.highest_chooses_tide,
            rounds,
            option_values: values,
        })
    }

    fn initial_state(&self) -> TurnTheTideState {
        TurnTheTideState {
            phase: Phase::Deal,
            dealt: [[0; HAND_SIZE]; MAX_SEATS],
            dealt_count: 0,
            dealt_mask: 0,
            dealt_hands: [0; MAX_SEATS],
            round: 0,
            hand_index: 0,
            hands: [0; MAX_SEATS],
            lifebuoys: [0; MAX_SEATS],
            tide: [0; MAX_SEATS],
            in_round: ((1u16 << self.players) - 1) as u8,
            played: [[0; HAND_SIZE]; MAX_SEATS],
            played_len: [0; MAX_SEATS],
            revealed: [0; 2],
            revealed_len: 0,
            tide_deck: TideDeck::FULL,
            commitments: [0; MAX_SEATS],
            to_move: NO_SEAT,
            chooser: NO_SEAT,
            scores: [0; MAX_SEATS],
        }
    }

    #[inline(always)]
    fn current_player(&self, st: &TurnTheTideState) -> i32 {
        match st.phase {
            Phase::Deal | Phase::Tide => CHANCE,
            Phase::Play => i32::from(st.to_move),
            Phase::ChooseTide => i32::from(st.chooser),
            Phase::Over => TERMINAL,
        }
    }

    /// The legal actions (or chance outcomes) as a bitset: bit `a` = action `a`.
    #[inline(always)]
    fn legal_set(&self, st: &TurnTheTideState) -> Option<u64> {
        Some(match st.phase {
            Phase::Deal => ALL_CARDS & !st.dealt_mask,
            Phase::Tide => (LOWEST_TIDE as usize..=TIDE_VALUES)
                .filter(|&v| st.tide_deck.count(v) > 0)
                .fold(0, |m, v| m | 1 << v),
            Phase::Play => st.hands.get(usize::from(st.to_move)).copied().unwrap_or(0),
            Phase::ChooseTide => 1 << TAKE_TIDE_A | 1 << TAKE_TIDE_B,
            Phase::Over => 0,
        })
    }

    fn chance_outcomes(&self, st: &TurnTheTideState, out: &mut Vec<(u32, u64)>) {
        out.clear();
        match st.phase {
            Phase::Deal => out.extend(bits::ones(ALL_CARDS & !st.dealt_mask).map(|c| (c, 1))),
            Phase::Tide => {
                for (v, k) in (LOWEST_TIDE..).zip(st.tide_deck.counts()) {
                    if k > 0 {
                        out.push((v, u64::from(k)));
                    }
                }
            }
            _ => {}
        }
    }

    #[inline(always)]
    fn sample_chance(
        &self,
        st: &TurnTheTideState,
        rng: &mut SplitMix64,
        _buf: &mut Vec<(u32, u64)>,
    ) -> u32 {
        let outcome = match st.phase {
            Phase::Deal => bits::pick(ALL_CARDS & !st.dealt_mask, rng),
            Phase::Tide => st.tide_deck.draw(rng),
            _ => None,
        };
        outcome.unwrap_or(0)
    }

    /// The deal in one go where the random playout's deal can take it (every state reached by
    /// play), then the tide draws (and anything else) one node at a time, as the definition takes
    /// them.
    #[inline(always)]
    fn resolve_chance(
        &self,
        st: &mut TurnTheTideState,
        rng: &mut SplitMix64,
        buf: &mut Vec<(u32, u64)>,
    ) -> u32 {
        let dealt = if self.random_deal_ready(st) {
            self.random_deal(st, rng)
        } else {
            0
        };
        dealt + crate::step::resolve_chance(self, st, rng, buf)
    }

    #[inline(always)]
    fn apply(&self, st: &mut TurnTheTideState, action: u32) {
        match st.phase {
            Phase::Deal => {
                let b = bits::bit_in(action, LOWEST_CARD, HIGHEST_CARD);
                if b != 0 && st.dealt_mask & b == 0 {
                    self.deal(st, action, b);
                }
            }
            Phase::Tide => {
                self.reveal_tide(st, action);
            }
            Phase::Play => {
                let seat = usize::from(st.to_move);
                let Some(&hand) = st.hands.get(seat) else {
                    return;
                };
                if hand & bits::bit_in(action, LOWEST_CARD, HIGHEST_CARD) != 0 {
                    self.commit(st, seat, action);
                }
            }
            Phase::ChooseTide => self.choose_tide(st, action),
            Phase::Over => {}
        }
    }

    #[inline(always)]
    fn play_randomly(
        &self,
        st: &mut TurnTheTideState,
        table: &mut crate::step::RandomTable<'_>,
    ) -> StepResult<()> {
        loop {
            match st.phase {
                // The deal and then the whole game in one go where they can (every state reached
                // by play, at the start of the deal or of a hand).
                Phase::Deal if self.random_deal_ready(st) => {
                    table.counts.1 += self.random_deal(st, table.chance);
                    // A finished deal starts round 0 at its first hand, a state that passes
                    // `random_rounds_ready` (test `a_random_deal_is_ready_for_the_rounds`): only
                    // the count of streams is left to check. (This repeats the arm below: reaching
                    // it through a flag instead cost 2% more instructions per random game.)
                    if st.phase == Phase::Tide && table.seats.len() >= self.players {
                        let (d, c) = self.random_rounds(st, table.chance, table.seats);
                        table.counts.0 += d;
                        table.counts.1 += c;
                        return Ok(());
                    }
                }
                Phase::Tide if self.random_rounds_ready(st, table.seats) => {
                    let (d, c) = self.random_rounds(st, table.chance, table.seats);
                    table.counts.0 += d;
                    table.counts.1 += c;
                    return Ok(());
                }
                Phase::Over => return Ok(()),
                // Otherwise (a hand under way) one step as the definition takes it.
                _ => {
                    if !crate::step::random_step(self, st, table)? {
                        return Ok(());
                    }
                }
            }
        }
    }

    fn scores(&self, st: &TurnTheTideState, out: &mut [i64]) {
        crate::game::write_scores(&st.scores[..self.players], out);
    }

    fn winner_mask(&self, st: &TurnTheTideState) -> u64 {
        let scores = &st.scores[..self.players];
        crate::game::seats_with(scores, scores.iter().copied().max().unwrap_or(0))
    }

    crate::game::common_game_methods!(num_actions: NUM_ACTIONS, determinize: sample_hidden_cards);

    crate::game::builtin_bots!("greedy" => GreedyBot::default());
}
