//! Turn the Tide (Land unter), 3–5 players.
//!
//! Rules: `rules/turn_the_tide.md`; engine contract (action ids, labels, observation, canonical
//! state): `docs/games/turn_the_tide.md`.
//!
//! Data layout: hands are `u64` bitsets of card numbers (bit `c` = weather card `c`), the tide deck
//! is a bitset of the copies left (see [`TideDeck`]), everything else lives in fixed arrays sized
//! for five seats, so the state is `Copy` and `apply` / `legal_actions` never allocate. Chance
//! nodes and the random bot pick the element of a given rank of such a bitset in constant time.
//!
//! Readings decided beyond the rulebook (the re-check after a tie, the lowest-tide bonus for seats
//! without a tide card, when commitments are cleared, the deal and the end state) are listed once,
//! with the original sentences, in the contract's "Decisions" section
//! (`docs/games/turn_the_tide.md`); this module follows them.

use crate::bits;
use crate::error::Result;
use crate::game::{Bot, Game, CHANCE, TERMINAL};
use crate::options::{OptionReader, OptionSpec, OptionValues};
use crate::rng::SplitMix64;
use crate::tensor::{scaled, TensorWriter};
use serde_json::{json, Map, Value};

/// Most seats a game can have.
const MAX_SEATS: usize = 5;
/// Weather cards in one hand (and hands in one round).
const HAND_SIZE: usize = 12;
/// Distinct tide values (1..=12).
const TIDE_VALUES: usize = 12;
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
fn halves_of(hand: u64) -> u32 {
    bits::count(hand & ONE_HALF) + bits::count(hand & TWO_HALVES)
}

/// The bit of card `card` in a hand bitset (0 for anything out of range).
#[inline]
fn bit(card: u32) -> u64 {
    if (1..=60).contains(&card) {
        1u64 << card
    } else {
        0
    }
}

/// The cards of a bitset, in increasing order.
fn cards_of(mut mask: u64) -> Vec<u32> {
    let mut out = Vec::with_capacity(mask.count_ones() as usize);
    while mask != 0 {
        out.push(mask.trailing_zeros());
        mask &= mask - 1;
    }
    out
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
    fn draw(self, rng: &mut SplitMix64) -> Option<u32> {
        bits::pick(self.copies, rng).map(|b| b / 2 + 1)
    }

    /// Takes one copy of value `v` out; false (and nothing changes) if there is none.
    fn take(&mut self, v: usize) -> bool {
        let k = self.count(v);
        if k == 0 {
            return false;
        }
        self.copies &= !(1 << (2 * (v - 1) + usize::from(k) - 1));
        true
    }
}

/// Where the game stands, i.e. what kind of node comes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

impl Phase {
    fn name(self) -> &'static str {
        match self {
            Self::Deal => "deal",
            Self::Tide => "tide",
            Self::Play => "play",
            Self::ChooseTide => "choose_tide",
            Self::Over => "over",
        }
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
    round: u8,
    hand_index: u8,
    /// Cards of the round's hand not yet revealed, per seat.
    hands: [u64; MAX_SEATS],
    lifebuoys: [u8; MAX_SEATS],
    /// Showing tide value per seat, 0 = none.
    tide: [u8; MAX_SEATS],
    /// Seats still in the round (not eliminated): bit `s` = seat `s`.
    in_round: u8,
    played: [[u8; HAND_SIZE]; MAX_SEATS],
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

    fn remaining(&self) -> u32 {
        self.in_round.count_ones()
    }

    /// Rules steps 4–7: the highest showing tide loses a lifebuoy (or is eliminated), repeated
    /// after eliminations when `recheck` is set. Returns true if the round ends (at most two
    /// seats left).
    fn lose_lifebuoys(&mut self, recheck: bool) -> bool {
        loop {
            let top = seats(self.in_round)
                .map(|s| self.tide[s])
                .max()
                .unwrap_or(0);
            if top == 0 {
                return false;
            }
            let mut any_eliminated = false;
            for s in seats(self.in_round) {
                if self.tide[s] == top {
                    if self.lifebuoys[s] > 0 {
                        self.lifebuoys[s] -= 1;
                    } else {
                        self.in_round &= !(1 << s);
                        self.tide[s] = 0;
                        any_eliminated = true;
                    }
                }
            }
            if self.remaining() <= 2 {
                return true;
            }
            if !(recheck && any_eliminated) {
                return false;
            }
        }
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

impl TurnTheTide {
    /// The number of rounds played (the resolved `rounds` option).
    pub fn rounds(&self) -> usize {
        self.rounds
    }

    /// The first seat still in the round at or after `from`, or `NO_SEAT`.
    #[inline]
    fn next_active(&self, st: &TurnTheTideState, from: usize) -> u8 {
        let later = st.in_round & u8::MAX.checked_shl(from as u32).unwrap_or(0);
        seats(later).next().map_or(NO_SEAT, |s| s as u8)
    }

    /// Contract flow step 2: round `r` starts.
    #[inline(never)]
    fn start_round(&self, st: &mut TurnTheTideState, r: usize) {
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
    #[inline(never)]
    fn reveal(&self, st: &mut TurnTheTideState) {
        for s in seats(st.in_round) {
            let c = st.commitments[s];
            st.hands[s] &= !bit(u32::from(c));
            let len = usize::from(st.played_len[s]).min(HAND_SIZE - 1);
            st.played[s][len] = c;
            st.played_len[s] = (len + 1) as u8;
        }
        st.to_move = NO_SEAT;
        let (first, second) = self.top_two(st);
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
    fn finish_hand(&self, st: &mut TurnTheTideState) {
        let mut table = Table::of(st);
        let ended = table.lose_lifebuoys(self.recheck_after_elimination);
        st.tide = table.tide;
        st.lifebuoys = table.lifebuoys;
        st.in_round = table.in_round;
        st.hand_index += 1;
        st.revealed = [0; 2];
        st.revealed_len = 0;
        st.commitments = [0; MAX_SEATS];
        st.chooser = NO_SEAT;
        st.to_move = NO_SEAT;
        if ended || usize::from(st.hand_index) >= HAND_SIZE {
            self.score_round(st, &table);
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
    fn score_round(&self, st: &mut TurnTheTideState, table: &Table) {
        let lowest = table.lowest_tide();
        for s in 0..self.players {
            if table.eliminated(s) {
                st.scores[s] -= 1;
            } else {
                st.scores[s] += i32::from(table.lifebuoys[s]) + i32::from(table.tide[s] == lowest);
            }
        }
    }

    /// The legal actions (or chance outcomes) as a bitset: bit `a` = action `a`.
    #[inline]
    fn legal_mask(&self, st: &TurnTheTideState) -> u64 {
        match st.phase {
            Phase::Deal => ALL_CARDS & !st.dealt_mask,
            Phase::Tide => (1..=TIDE_VALUES)
                .filter(|&v| st.tide_deck.count(v) > 0)
                .fold(0, |m, v| m | 1 << v),
            Phase::Play => st.hands.get(usize::from(st.to_move)).copied().unwrap_or(0),
            Phase::ChooseTide => 0b11,
            Phase::Over => 0,
        }
    }

    /// Seat to which the next deal card goes.
    fn deal_seat(st: &TurnTheTideState) -> usize {
        (usize::from(st.dealt_count) / HAND_SIZE).min(MAX_SEATS - 1)
    }

    fn seat_vec<T: Copy + Into<Value>>(&self, xs: &[T; MAX_SEATS]) -> Value {
        Value::Array(xs[..self.players].iter().map(|&x| x.into()).collect())
    }

    fn eliminated_json(&self, st: &TurnTheTideState) -> Value {
        Value::Array(
            (0..self.players)
                .map(|s| Value::Bool(st.eliminated(s)))
                .collect(),
        )
    }

    fn tide_json(&self, st: &TurnTheTideState) -> Value {
        Value::Array(
            (0..self.players)
                .map(|s| {
                    if st.tide[s] == 0 {
                        Value::Null
                    } else {
                        json!(st.tide[s])
                    }
                })
                .collect(),
        )
    }

    fn played_json(&self, st: &TurnTheTideState) -> Value {
        Value::Array(
            (0..self.players)
                .map(|s| json!(&st.played[s][..usize::from(st.played_len[s]).min(HAND_SIZE)]))
                .collect(),
        )
    }

    fn revealed_json(st: &TurnTheTideState) -> Value {
        json!(&st.revealed[..usize::from(st.revealed_len).min(2)])
    }
}

impl Game for TurnTheTide {
    type State = TurnTheTideState;

    const ID: &'static str = "turn_the_tide";

    fn option_specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec::bool(
                "recheck_after_elimination",
                true,
                "after an elimination the highest tide loses a lifebuoy again (rules step 7)",
            ),
            OptionSpec::bool(
                "highest_chooses_tide",
                false,
                "the highest weather card chooses either tide card",
            ),
            OptionSpec::optional_int(
                "rounds",
                None,
                1,
                MAX_SEATS as i64,
                "number of rounds, 1..players (null: as many as players)",
            ),
        ]
    }

    fn player_range() -> (usize, usize) {
        (3, 5)
    }

    fn from_options(players: usize, options: &Map<String, Value>) -> Result<Self> {
        let mut r = OptionReader::new(Self::ID, Self::option_specs(), options);
        let recheck_after_elimination = r.bool("recheck_after_elimination")?;
        let highest_chooses_tide = r.bool("highest_chooses_tide")?;
        let rounds = r.optional_int("rounds")?;
        let mut option_values = r.finish()?;
        let (lo, hi) = Self::player_range();
        if !(lo..=hi).contains(&players) {
            return Err(crate::error::EngineError::InvalidOption(format!(
                "{}: players must be in {lo}..={hi}, got {players}",
                Self::ID
            )));
        }
        if rounds.is_some_and(|r| r > players as i64) {
            return Err(crate::error::EngineError::InvalidOption(format!(
                "{}: option rounds must be an int in 1..={players}, got {}",
                Self::ID,
                rounds.unwrap_or_default()
            )));
        }
        let rounds = rounds.map_or(players, |r| r as usize);
        option_values.set("rounds", json!(rounds));
        Ok(Self {
            players,
            recheck_after_elimination,
            highest_chooses_tide,
            rounds,
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
        61
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

    fn legal_actions(&self, st: &TurnTheTideState, out: &mut Vec<u32>) {
        out.clear();
        let mut m = self.legal_mask(st);
        while m != 0 {
            out.push(m.trailing_zeros());
            m &= m - 1;
        }
    }

    #[inline(always)]
    fn random_action(
        &self,
        st: &TurnTheTideState,
        rng: &mut SplitMix64,
        _buf: &mut Vec<u32>,
    ) -> Option<u32> {
        bits::pick(self.legal_mask(st), rng)
    }

    fn chance_outcomes(&self, st: &TurnTheTideState, out: &mut Vec<(u32, u64)>) {
        out.clear();
        match st.phase {
            Phase::Deal => {
                let mut m = ALL_CARDS & !st.dealt_mask;
                while m != 0 {
                    out.push((m.trailing_zeros(), 1));
                    m &= m - 1;
                }
            }
            Phase::Tide => {
                for (v, k) in (1..).zip(st.tide_deck.counts()) {
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

    #[inline(always)]
    fn apply(&self, st: &mut TurnTheTideState, action: u32) {
        match st.phase {
            Phase::Deal => {
                let b = bit(action);
                if b == 0 || st.dealt_mask & b != 0 {
                    return;
                }
                let seat = Self::deal_seat(st);
                let idx = usize::from(st.dealt_count) % HAND_SIZE;
                st.dealt[seat][idx] = action as u8;
                st.dealt_hands[seat] |= b;
                st.dealt_mask |= b;
                st.dealt_count += 1;
                if usize::from(st.dealt_count) >= HAND_SIZE * self.players {
                    self.start_round(st, 0);
                }
            }
            Phase::Tide => {
                if !st.tide_deck.take(action as usize) {
                    return;
                }
                let len = usize::from(st.revealed_len).min(1);
                st.revealed[len] = action as u8;
                st.revealed_len = len as u8 + 1;
                if st.revealed_len == 2 {
                    st.phase = Phase::Play;
                    st.to_move = self.next_active(st, 0);
                }
            }
            Phase::Play => {
                let seat = usize::from(st.to_move);
                let Some(&hand) = st.hands.get(seat) else {
                    return;
                };
                if hand & bit(action) == 0 {
                    return;
                }
                st.commitments[seat] = action as u8;
                st.to_move = self.next_active(st, seat + 1);
                if st.to_move == NO_SEAT {
                    self.reveal(st);
                }
            }
            Phase::ChooseTide => {
                if action > 1 {
                    return;
                }
                let (first, second) = self.top_two(st);
                let (a, b) = (st.revealed[0], st.revealed[1]);
                let (mine, other) = if action == 0 { (a, b) } else { (b, a) };
                st.tide[first] = mine;
                st.tide[second] = other;
                self.finish_hand(st);
            }
            Phase::Over => {}
        }
    }

    fn action_label(&self, st: &TurnTheTideState, action: u32) -> String {
        match st.phase {
            Phase::Deal => format!("deal {action} to seat {}", Self::deal_seat(st)),
            Phase::Tide => {
                let which = if st.revealed_len == 0 { 'A' } else { 'B' };
                format!("tide {which}: {action}")
            }
            Phase::Play => format!("play {action}"),
            Phase::ChooseTide => match action {
                0 => format!("take tide A ({})", st.revealed[0]),
                1 => format!("take tide B ({})", st.revealed[1]),
                _ => format!("action {action}"),
            },
            Phase::Over => format!("action {action}"),
        }
    }

    fn scores(&self, st: &TurnTheTideState, out: &mut [i64]) {
        for (o, &s) in out.iter_mut().zip(st.scores[..self.players].iter()) {
            *o = i64::from(s);
        }
    }

    fn winners(&self, st: &TurnTheTideState) -> Vec<usize> {
        let scores = &st.scores[..self.players];
        let best = scores.iter().copied().max().unwrap_or(0);
        (0..self.players).filter(|&s| scores[s] == best).collect()
    }

    fn winner_mask(&self, st: &TurnTheTideState) -> u64 {
        let scores = &st.scores[..self.players];
        let best = scores.iter().copied().max().unwrap_or(0);
        (0..self.players)
            .filter(|&s| scores[s] == best)
            .fold(0, |m, s| m | 1 << s)
    }

    fn observation(&self, st: &TurnTheTideState, player: usize) -> Value {
        let own = st.commitments.get(player).copied().unwrap_or(0);
        json!({
            "seat": player,
            "phase": st.phase.name(),
            "round": st.round,
            "hand_index": st.hand_index,
            "hand": cards_of(st.hands.get(player).copied().unwrap_or(0)),
            "lifebuoys": self.seat_vec(&st.lifebuoys),
            "tide": self.tide_json(st),
            "revealed_tide": Self::revealed_json(st),
            "eliminated": self.eliminated_json(st),
            "played": self.played_json(st),
            "committed": Value::Array(
                st.commitments[..self.players].iter().map(|&c| Value::Bool(c != 0)).collect()
            ),
            "own_commitment": if own == 0 { Value::Null } else { json!(own) },
            "scores": self.seat_vec(&st.scores),
        })
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![210 + self.rounds + 77 * self.players]
    }

    fn observation_tensor(&self, st: &TurnTheTideState, player: usize, out: &mut [f32]) {
        let n = self.players;
        let mut w = TensorWriter::new(out);
        w.one_hot(Some(player), n);
        let phase = match st.phase {
            Phase::Deal => 0,
            Phase::Tide => 1,
            Phase::Play => 2,
            Phase::ChooseTide => 3,
            Phase::Over => 4,
        };
        w.one_hot(Some(phase), 5);
        w.one_hot(Some(usize::from(st.round)), self.rounds);
        w.push_scaled(f64::from(st.hand_index), 12.0);
        w.multi_hot(st.hands.get(player).copied().unwrap_or(0), 1, 60);
        for s in 0..n {
            w.push_scaled(f64::from(st.lifebuoys[s]), 12.0);
        }
        for s in 0..n {
            w.one_hot(usize::from(st.tide[s]).checked_sub(1), TIDE_VALUES);
        }
        for i in 0..2 {
            let v = if i < usize::from(st.revealed_len) {
                usize::from(st.revealed[i]).checked_sub(1)
            } else {
                None
            };
            w.one_hot(v, TIDE_VALUES);
        }
        for s in 0..n {
            w.push_bool(st.eliminated(s));
        }
        for s in 0..n {
            let len = usize::from(st.played_len[s]).min(HAND_SIZE);
            for (i, &c) in st.played[s][..len].iter().enumerate() {
                if let Some(c) = usize::from(c).checked_sub(1) {
                    w.set(c * (n + 1) + s, 1.0);
                    w.set(c * (n + 1) + n, scaled((i + 1) as f64, 12.0));
                }
            }
        }
        w.skip(60 * (n + 1));
        for s in 0..n {
            w.push_bool(st.commitments[s] != 0);
        }
        let own = st.commitments.get(player).copied().unwrap_or(0);
        w.one_hot(usize::from(own).checked_sub(1), 60);
        for s in 0..n {
            w.push_scaled(f64::from(st.scores[s]), 12.0);
        }
        debug_assert_eq!(w.position(), 210 + self.rounds + 77 * n);
    }

    fn state_json(&self, st: &TurnTheTideState) -> Value {
        let dealt: Vec<Value> = (0..self.players)
            .map(|s| {
                let len = usize::from(st.dealt_count)
                    .saturating_sub(s * HAND_SIZE)
                    .min(HAND_SIZE);
                json!(&st.dealt[s][..len])
            })
            .collect();
        let hands: Vec<Value> = (0..self.players)
            .map(|s| json!(cards_of(st.hands[s])))
            .collect();
        let commitments: Vec<Value> = st.commitments[..self.players]
            .iter()
            .map(|&c| if c == 0 { Value::Null } else { json!(c) })
            .collect();
        json!({
            "dealt": dealt,
            "round": st.round,
            "hand_index": st.hand_index,
            "hands": hands,
            "lifebuoys": self.seat_vec(&st.lifebuoys),
            "tide": self.tide_json(st),
            "eliminated": self.eliminated_json(st),
            "played": self.played_json(st),
            "scores": self.seat_vec(&st.scores),
            "revealed_tide": Self::revealed_json(st),
            "tide_deck": st.tide_deck.counts(),
            "commitments": commitments,
            "chooser": if st.chooser == NO_SEAT { Value::Null } else { json!(st.chooser) },
        })
    }

    fn bot_names() -> &'static [&'static str] {
        &["greedy"]
    }

    fn make_bot(&self, name: &str, param: Option<&str>) -> Option<Result<Box<dyn Bot<Self>>>> {
        match (name, param) {
            ("greedy", None) => Some(Ok(Box::new(GreedyBot::default()))),
            ("greedy", Some(p)) => Some(Err(crate::error::EngineError::InvalidOption(format!(
                "{}: bot greedy takes no parameter, got {p:?}",
                Self::ID
            )))),
            _ => None,
        }
    }
}

/// The seats still in the table other than `me` (first `.1` entries of `.0`).
fn opponents_of(me: usize, t: &Table) -> ([usize; MAX_SEATS], usize) {
    let mut out = [0usize; MAX_SEATS];
    let mut k = 0;
    for s in seats(t.in_round).filter(|&s| s != me) {
        out[k] = s;
        k += 1;
    }
    (out, k)
}

/// Cost of losing one lifebuoy (one point at the end of the round).
const LIFEBUOY_COST: f64 = 1.0;
/// Cost of being eliminated: −1 instead of 0, and no bonus.
const ELIMINATION_COST: f64 = 1.5;
/// Weight of an opponent's loss (averaged over the opponents) as a gain for the bot.
const OPPONENT_WEIGHT: f64 = 0.25;
/// Value of the lowest-tide bonus.
const BONUS_VALUE: f64 = 1.0;
/// Future risk per remaining hand (up to `DANGER_HORIZON` of them) of showing a high tide.
const DANGER_WEIGHT: f64 = 0.5;
/// Hands ahead over which a showing tide is counted as a risk.
const DANGER_HORIZON: u32 = 3;
/// Cost per card number of spending a card (keeps high cards for covering a bad tide later;
/// measured against `random`, 0.02 beats both smaller and larger values).
const CARD_COST: f64 = 0.02;

/// The `greedy` bot: a one-hand lookahead over the public table.
///
/// It reads only what its seat's observation holds: its own hand, the public lifebuoys, showing
/// tides, eliminations, revealed tide values and the cards played this round (never other hands
/// or pending commitments of other seats).
///
/// Playing a card: with `L` ≤ `H` the two revealed tides, it values the three possible results of
/// the hand for itself — taking `L` (highest card), taking `H` (second-highest) or taking nothing —
/// by simulating rules steps 4–7 on the public table for each way the other tide card(s) may go to
/// the other seats still in (averaged). A result costs 1 per lifebuoy it loses, 1.5 for being
/// eliminated, minus a quarter of the opponents' average loss; if the round goes on, a showing
/// tide `x` adds a risk of `0.5 · min(hands left, 3) · (x/12)²` (only 35% of that when another
/// seat shows a higher tide); if the round ends, the lowest-tide bonus counts −1. The
/// probability of each result for a card `c` comes from a simple model: each opponent's card is
/// uniform over the cards the bot cannot see (not in its hand, not played this round), so with
/// `q` the share of those above `c` and `k` opponents, P(highest) = (1−q)^k and P(second) =
/// k·q·(1−q)^(k−1). It plays the card of least expected cost plus 0.02 per card number (high
/// cards are worth keeping for covering a bad tide later, so it spends a high card only when
/// that clearly pays). In effect it ducks with its lowest card when taking a tide would hurt,
/// grabs the low tide with a high card to cover a dangerous tide, and otherwise sheds low and
/// middle cards.
///
/// Choosing a tide card (`highest_chooses_tide`): everything is revealed by then, so it simulates
/// both choices exactly and takes the cheaper one (tide A on a tie).
#[derive(Clone, Debug, Default)]
pub struct GreedyBot {
    seat: usize,
}

impl GreedyBot {
    /// The cost for the bot of the public table `after` (tides already handed out) when
    /// `before` was the table at the start of the hand and `hands_left` hands follow this one.
    fn result_cost(
        &self,
        game: &TurnTheTide,
        before: &Table,
        after: Table,
        hands_left: u32,
    ) -> f64 {
        let me = self.seat;
        let mut t = after;
        let ended = t.lose_lifebuoys(game.recheck_after_elimination) || hands_left == 0;
        let loss = |s: usize| -> f64 {
            if before.eliminated(s) {
                0.0
            } else if t.eliminated(s) {
                ELIMINATION_COST
            } else {
                f64::from(before.lifebuoys[s].saturating_sub(t.lifebuoys[s])) * LIFEBUOY_COST
            }
        };
        let mut cost = loss(me);
        let (opponents, k) = opponents_of(me, before);
        if k > 0 {
            let total: f64 = opponents[..k].iter().map(|&s| loss(s)).sum();
            cost -= OPPONENT_WEIGHT * total / k as f64;
        }
        if t.eliminated(me) {
            return cost;
        }
        if ended {
            if t.tide[me] == t.lowest_tide() {
                cost -= BONUS_VALUE;
            }
            return cost;
        }
        let x = t.tide[me];
        if x > 0 {
            let others_top = seats(t.in_round)
                .filter(|&s| s != me)
                .map(|s| t.tide[s])
                .max();
            let share = if others_top.is_some_and(|o| o > x) {
                0.35
            } else {
                1.0
            };
            let f = f64::from(x) / 12.0;
            cost += DANGER_WEIGHT * f64::from(hands_left.min(DANGER_HORIZON)) * f * f * share;
        }
        cost
    }

    /// The costs of the bot taking the low tide, the high tide, or nothing in this hand.
    fn outcome_costs(&self, game: &TurnTheTide, st: &TurnTheTideState) -> [f64; 3] {
        let me = self.seat;
        let before = Table::of(st);
        let (a, b) = (st.revealed[0], st.revealed[1]);
        let (low, high) = (a.min(b), a.max(b));
        let hands_left = (HAND_SIZE as u32).saturating_sub(u32::from(st.hand_index) + 1);
        let (opponents, k) = opponents_of(me, &before);
        let opponents = &opponents[..k];
        let with = |assign: &[(usize, u8)]| {
            let mut t = before;
            for &(s, v) in assign {
                t.tide[s] = v;
            }
            self.result_cost(game, &before, t, hands_left)
        };
        let avg = |f: &dyn Fn(usize) -> f64| {
            opponents.iter().map(|&o| f(o)).sum::<f64>() / k.max(1) as f64
        };
        let take_low = avg(&|o| with(&[(me, low), (o, high)]));
        // As second-highest the bot gets the high tide (a choosing highest seat is assumed to
        // keep the low one); as highest with `highest_chooses_tide` it picks the better one.
        let take_high = avg(&|o| with(&[(me, high), (o, low)]));
        let first = if game.highest_chooses_tide {
            take_low.min(take_high)
        } else {
            take_low
        };
        let mut nothing = 0.0;
        let mut pairs = 0u32;
        for &o1 in opponents {
            for &o2 in opponents {
                if o1 != o2 {
                    nothing += with(&[(o1, low), (o2, high)]);
                    pairs += 1;
                }
            }
        }
        let nothing = if pairs == 0 {
            0.0
        } else {
            nothing / f64::from(pairs)
        };
        [first, take_high, nothing]
    }

    fn choose_card(&self, game: &TurnTheTide, st: &TurnTheTideState, legal: &[u32]) -> u32 {
        let me = self.seat;
        let costs = self.outcome_costs(game, st);
        let mut seen = st.hands.get(me).copied().unwrap_or(0);
        for s in 0..game.players {
            for &c in &st.played[s][..usize::from(st.played_len[s]).min(HAND_SIZE)] {
                seen |= bit(u32::from(c));
            }
        }
        let unseen = ALL_CARDS & !seen;
        let m = f64::from(unseen.count_ones().max(1));
        let k = opponents_of(me, &Table::of(st)).1 as i32;
        let mut best = legal.first().copied().unwrap_or(0);
        let mut best_cost = f64::INFINITY;
        for &c in legal {
            let above = unseen & !((bit(c) << 1).wrapping_sub(1));
            let q = f64::from(above.count_ones()) / m;
            let p_high = (1.0 - q).powi(k);
            let p_second = f64::from(k) * q * (1.0 - q).powi(k - 1);
            let p_none = (1.0 - p_high - p_second).max(0.0);
            let cost = p_high * costs[0]
                + p_second * costs[1]
                + p_none * costs[2]
                + CARD_COST * f64::from(c);
            if cost < best_cost {
                best_cost = cost;
                best = c;
            }
        }
        best
    }

    fn choose_tide(&self, game: &TurnTheTide, st: &TurnTheTideState, legal: &[u32]) -> u32 {
        // At this node every card of the hand has been revealed (the last entries of `played`).
        let (first, second) = game.top_two(st);
        let before = Table::of(st);
        let hands_left = (HAND_SIZE as u32).saturating_sub(u32::from(st.hand_index) + 1);
        let (a, b) = (st.revealed[0], st.revealed[1]);
        let mut best = legal.first().copied().unwrap_or(0);
        let mut best_cost = f64::INFINITY;
        for &choice in legal {
            let (mine, other) = if choice == 0 { (a, b) } else { (b, a) };
            let mut t = before;
            t.tide[first] = mine;
            t.tide[second] = other;
            let cost = self.result_cost(game, &before, t, hands_left);
            if cost < best_cost {
                best_cost = cost;
                best = choice;
            }
        }
        best
    }
}

impl Bot<TurnTheTide> for GreedyBot {
    fn reset(&mut self, _game: &TurnTheTide, seat: usize, _rng: SplitMix64) {
        self.seat = seat.min(MAX_SEATS - 1);
    }

    fn act(&mut self, game: &TurnTheTide, st: &TurnTheTideState, legal: &[u32]) -> u32 {
        match st.phase {
            Phase::Play => self.choose_card(game, st, legal),
            Phase::ChooseTide => self.choose_tide(game, st, legal),
            _ => legal.first().copied().unwrap_or(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::RandomBot;
    use crate::rng::derive_seed;
    use crate::session::Session;
    use std::sync::Arc;

    type S = Session<TurnTheTide>;

    fn game(players: usize, opts: Value) -> Arc<TurnTheTide> {
        let map = opts.as_object().cloned().unwrap_or_default();
        Arc::new(TurnTheTide::from_options(players, &map).unwrap())
    }

    fn range(a: u32, b: u32) -> Vec<u32> {
        (a..=b).collect()
    }

    fn cat(parts: &[&[u32]]) -> Vec<u32> {
        parts.iter().flat_map(|p| p.iter().copied()).collect()
    }

    /// Deals the given 12-card hands, seat 0 first, as explicit chance outcomes.
    fn dealt(g: &Arc<TurnTheTide>, hands: &[Vec<u32>]) -> S {
        let mut s = Session::new(Arc::clone(g), None);
        assert_eq!(hands.len(), g.players());
        for h in hands {
            assert_eq!(h.len(), 12);
            for &c in h {
                assert_eq!(g.current_player(s.state()), CHANCE);
                s.apply(i64::from(c), None).unwrap();
            }
        }
        s
    }

    fn tides(s: &mut S, a: u32, b: u32) {
        s.apply(i64::from(a), Some(-1)).unwrap();
        s.apply(i64::from(b), Some(-1)).unwrap();
    }

    /// Plays `(seat, card)` commitments, checking that each seat is the one to move.
    fn play(s: &mut S, moves: &[(i64, u32)]) {
        for &(seat, c) in moves {
            s.apply(i64::from(c), Some(seat)).unwrap();
        }
    }

    fn st(g: &TurnTheTide, s: &S) -> Value {
        g.state_json(s.state())
    }

    fn scores(g: &TurnTheTide, s: &S) -> Vec<i64> {
        let mut out = vec![0; g.players()];
        g.scores(s.state(), &mut out);
        out
    }

    fn three_hands() -> Vec<Vec<u32>> {
        vec![
            cat(&[&[13, 25, 26], &range(49, 57)]),
            range(1, 12),
            cat(&[&range(27, 36), &[14, 15]]),
        ]
    }

    #[test]
    fn halves_cover_24_lifebuoys() {
        assert_eq!((1..=60).map(halves).sum::<u32>(), 48);
        assert_eq!(
            (halves(12), halves(13), halves(24), halves(25), halves(36)),
            (0, 1, 1, 2, 2)
        );
        assert_eq!(
            (halves(37), halves(48), halves(49), halves(60)),
            (1, 1, 0, 0)
        );
    }

    #[test]
    fn deal_labels_and_lifebuoy_counts() {
        let g = game(3, json!({}));
        let mut s = Session::new(Arc::clone(&g), None);
        assert_eq!(g.action_label(s.state(), 5), "deal 5 to seat 0");
        let o = g.observation(s.state(), 1);
        assert_eq!(o["phase"], "deal");
        assert_eq!(o["hand"], json!([]));
        let x = st(&g, &s);
        assert_eq!(x["dealt"], json!([[], [], []]));
        assert_eq!(x["tide_deck"], json!([2u8; 12].to_vec()));
        assert_eq!(x["lifebuoys"], json!([0, 0, 0]));
        for c in range(1, 12) {
            s.apply(i64::from(c), None).unwrap();
        }
        assert_eq!(g.action_label(s.state(), 5), "deal 5 to seat 1");
        assert!(s.apply(3, None).is_err(), "card 3 is dealt already");

        let s = dealt(&g, &three_hands());
        let x = st(&g, &s);
        assert_eq!(x["lifebuoys"], json!([2, 0, 11]));
        assert_eq!(
            x["dealt"][2],
            json!([27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 14, 15])
        );
        assert_eq!(
            x["hands"][2],
            json!([14, 15, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36])
        );
        assert_eq!(x["tide"], json!([null, null, null]));
        assert_eq!(x["round"], json!(0));
        assert_eq!(g.current_player(s.state()), CHANCE);
        assert_eq!(g.action_label(s.state(), 3), "tide A: 3");
        let mut outs = Vec::new();
        g.chance_outcomes(s.state(), &mut outs);
        assert_eq!(outs, (1..=12).map(|v| (v, 2)).collect::<Vec<_>>());
    }

    #[test]
    fn highest_card_takes_the_lower_tide_and_commitments_stay_hidden() {
        let g = game(3, json!({}));
        let mut s = dealt(&g, &three_hands());
        s.apply(9, None).unwrap();
        assert_eq!(g.action_label(s.state(), 4), "tide B: 4");
        s.apply(4, None).unwrap();
        assert_eq!(g.current_player(s.state()), 0);
        assert_eq!(g.action_label(s.state(), 57), "play 57");
        assert!(s.apply(1, Some(0)).is_err(), "seat 0 does not hold card 1");
        play(&mut s, &[(0, 57)]);
        let o1 = g.observation(s.state(), 1);
        assert_eq!(o1["committed"], json!([true, false, false]));
        assert_eq!(o1["own_commitment"], Value::Null);
        assert_eq!(o1["hand"], json!(range(1, 12)));
        assert_eq!(o1["played"], json!([[], [], []]));
        assert_eq!(o1["revealed_tide"], json!([9, 4]));
        assert!(!o1.to_string().contains("57"));
        let o0 = g.observation(s.state(), 0);
        assert_eq!(o0["own_commitment"], json!(57));
        assert_eq!(st(&g, &s)["commitments"], json!([57, null, null]));
        play(&mut s, &[(1, 1), (2, 36)]);
        let x = st(&g, &s);
        assert_eq!(x["tide"], json!([4, null, 9]));
        assert_eq!(x["lifebuoys"], json!([2, 0, 10]));
        assert_eq!(x["played"], json!([[57], [1], [36]]));
        assert_eq!(x["hand_index"], json!(1));
        assert_eq!(x["revealed_tide"], json!([]));
        assert_eq!(x["commitments"], json!([null, null, null]));
        assert_eq!(x["tide_deck"], json!([2, 2, 2, 1, 2, 2, 2, 2, 1, 2, 2, 2]));
        assert_eq!(x["hands"][0], json!(cat(&[&[13, 25, 26], &range(49, 56)])));
        assert_eq!(g.observation(s.state(), 0)["phase"], "tide");
    }

    #[test]
    fn tied_highest_tides_all_lose() {
        let g = game(3, json!({}));
        let mut s = dealt(&g, &three_hands());
        tides(&mut s, 5, 5);
        play(&mut s, &[(0, 57), (1, 1), (2, 36)]);
        let x = st(&g, &s);
        assert_eq!(x["tide"], json!([5, null, 5]));
        assert_eq!(x["lifebuoys"], json!([1, 0, 10]));
    }

    fn four_hands() -> Vec<Vec<u32>> {
        vec![
            range(49, 60),
            cat(&[&range(1, 11), &[48]]),
            range(25, 36),
            range(13, 24),
        ]
    }

    #[test]
    fn recheck_cascade_ends_the_round_at_two_players() {
        let g = game(4, json!({}));
        let mut s = dealt(&g, &four_hands());
        assert_eq!(st(&g, &s)["lifebuoys"], json!([0, 0, 12, 6]));
        tides(&mut s, 3, 7);
        play(&mut s, &[(0, 60), (1, 48), (2, 25), (3, 13)]);
        // Seat 1 shows 7 without a lifebuoy: out. Re-check: seat 0 now shows the highest tide (3)
        // without a lifebuoy: out. Two seats remain, so the round ends at once.
        let x = st(&g, &s);
        assert_eq!(scores(&g, &s), vec![-1, -1, 13, 7]);
        assert_eq!(x["round"], json!(1));
        assert_eq!(x["hand_index"], json!(0));
        // Round 1: seat p holds the hand dealt to seat p - 1.
        assert_eq!(x["lifebuoys"], json!([6, 0, 0, 12]));
        assert_eq!(x["hands"][0], json!(range(13, 24)));
        assert_eq!(x["hands"][1], json!(range(49, 60)));
        assert_eq!(x["tide"], json!([null, null, null, null]));
        assert_eq!(x["eliminated"], json!([false, false, false, false]));
        assert_eq!(x["played"], json!([[], [], [], []]));
        assert_eq!(x["tide_deck"], json!([2u8; 12].to_vec()));
    }

    #[test]
    fn without_recheck_step_4_happens_once() {
        let g = game(4, json!({"recheck_after_elimination": false}));
        let mut s = dealt(&g, &four_hands());
        tides(&mut s, 3, 7);
        play(&mut s, &[(0, 60), (1, 48), (2, 25), (3, 13)]);
        let x = st(&g, &s);
        assert_eq!(x["round"], json!(0));
        assert_eq!(x["hand_index"], json!(1));
        assert_eq!(x["eliminated"], json!([false, true, false, false]));
        assert_eq!(x["tide"], json!([3, null, null, null]));
        assert_eq!(x["lifebuoys"], json!([0, 0, 12, 6]));
        assert_eq!(
            x["hands"][1],
            json!(range(1, 11)),
            "the eliminated hand stays"
        );
        tides(&mut s, 1, 2);
        // The eliminated seat 1 is skipped.
        play(&mut s, &[(0, 59), (2, 26), (3, 14)]);
        let x = st(&g, &s);
        assert_eq!(x["tide"], json!([1, null, 2, null]));
        assert_eq!(x["lifebuoys"], json!([0, 0, 11, 6]));
        assert_eq!(x["played"], json!([[60, 59], [48], [25, 26], [13, 14]]));
    }

    #[test]
    fn recheck_costs_the_next_highest_a_lifebuoy() {
        let hands = vec![
            cat(&[&range(37, 47), &[60]]),
            cat(&[&range(1, 11), &[48]]),
            range(25, 36),
            range(13, 24),
            cat(&[&range(49, 59), &[12]]),
        ];
        for (recheck, seat0) in [(true, 4), (false, 5)] {
            let g = game(5, json!({"recheck_after_elimination": recheck}));
            let mut s = dealt(&g, &hands);
            assert_eq!(st(&g, &s)["lifebuoys"], json!([5, 0, 12, 6, 0]));
            tides(&mut s, 3, 7);
            play(&mut s, &[(0, 60), (1, 48), (2, 25), (3, 13), (4, 12)]);
            let x = st(&g, &s);
            assert_eq!(x["eliminated"], json!([false, true, false, false, false]));
            assert_eq!(x["lifebuoys"], json!([seat0, 0, 12, 6, 0]));
            assert_eq!(x["tide"], json!([3, null, null, null, null]));
            assert_eq!(x["hand_index"], json!(1));
        }
    }

    fn bonus_hands() -> Vec<Vec<u32>> {
        vec![
            cat(&[&range(37, 47), &[1]]),
            cat(&[&range(2, 12), &[49]]),
            range(13, 24),
        ]
    }

    /// Round 0 of `bonus_hands`: seat 1 is eliminated in hand 1 and the round ends with seat 0
    /// (tide 5) and seat 2 (tide 9) left.
    fn bonus_round_0(s: &mut S) {
        tides(s, 5, 8);
        play(s, &[(0, 47), (1, 2), (2, 24)]);
        tides(s, 9, 10);
        play(s, &[(0, 1), (1, 12), (2, 23)]);
    }

    #[test]
    fn lowest_tide_bonus_and_one_round_game() {
        for recheck in [true, false] {
            let g = game(
                3,
                json!({"rounds": 1, "recheck_after_elimination": recheck}),
            );
            let mut s = dealt(&g, &bonus_hands());
            assert_eq!(st(&g, &s)["lifebuoys"], json!([5, 0, 6]));
            bonus_round_0(&mut s);
            assert_eq!(g.current_player(s.state()), TERMINAL);
            assert_eq!(scores(&g, &s), vec![6, -1, 5]);
            assert_eq!(g.winners(s.state()), vec![0]);
            let x = st(&g, &s);
            assert_eq!(x["round"], json!(0));
            assert_eq!(x["hand_index"], json!(2));
            assert_eq!(x["lifebuoys"], json!([5, 0, 5]));
            assert_eq!(x["tide"], json!([5, null, 9]));
            assert_eq!(x["eliminated"], json!([false, true, false]));
            assert_eq!(x["played"], json!([[47, 1], [2, 12], [24, 23]]));
            assert_eq!(x["revealed_tide"], json!([]));
            assert_eq!(x["commitments"], json!([null, null, null]));
            assert_eq!(x["chooser"], Value::Null);
            assert_eq!(x["tide_deck"], json!([2, 2, 2, 2, 1, 2, 2, 1, 1, 1, 2, 2]));
            assert_eq!(g.observation(s.state(), 1)["phase"], "over");
            assert_eq!(g.action_label(s.state(), 3), "action 3");
            let mut legal = vec![7];
            g.legal_actions(s.state(), &mut legal);
            assert!(legal.is_empty());
            assert!(s.apply(1, None).is_err());
        }
    }

    #[test]
    fn scoring_over_rounds_with_rotation_and_shared_win() {
        let g = game(3, json!({}));
        let mut s = dealt(&g, &bonus_hands());
        bonus_round_0(&mut s);
        assert_eq!(scores(&g, &s), vec![6, -1, 5]);
        let x = st(&g, &s);
        assert_eq!(x["round"], json!(1));
        assert_eq!(x["hands"][0], json!(range(13, 24)));
        assert_eq!(x["hands"][1], json!(cat(&[&[1], &range(37, 47)])));
        assert_eq!(x["hands"][2], json!(cat(&[&range(2, 12), &[49]])));
        assert_eq!(x["lifebuoys"], json!([6, 5, 0]));
        // Round 1: seat 2 takes the high tide without a lifebuoy; seat 1 has no tide: bonus.
        tides(&mut s, 1, 2);
        play(&mut s, &[(0, 13), (1, 1), (2, 12)]);
        assert_eq!(scores(&g, &s), vec![12, 5, 4]);
        let x = st(&g, &s);
        assert_eq!(x["round"], json!(2));
        assert_eq!(x["lifebuoys"], json!([0, 6, 5]));
        // Round 2: tide A = 7 goes to the second-highest card, B = 3 to the highest.
        tides(&mut s, 7, 3);
        play(&mut s, &[(0, 12), (1, 13), (2, 1)]);
        assert_eq!(g.current_player(s.state()), TERMINAL);
        assert_eq!(scores(&g, &s), vec![11, 11, 10]);
        assert_eq!(g.winners(s.state()), vec![0, 1]);
        assert_eq!(st(&g, &s)["tide"], json!([null, 3, null]));
    }

    #[test]
    fn full_round_no_tide_card_takes_the_bonus() {
        let g = game(3, json!({"rounds": 1}));
        let mut s = dealt(&g, &[range(37, 48), range(25, 36), range(13, 24)]);
        for h in 0..12u32 {
            let low = 2 * (h / 2) + 1;
            tides(&mut s, low, low + 1);
            play(&mut s, &[(0, 48 - h), (1, 36 - h), (2, 24 - h)]);
        }
        assert_eq!(g.current_player(s.state()), TERMINAL);
        let x = st(&g, &s);
        assert_eq!(x["hand_index"], json!(12));
        assert_eq!(x["lifebuoys"], json!([6, 0, 6]));
        assert_eq!(x["tide"], json!([11, 12, null]));
        assert_eq!(x["eliminated"], json!([false, false, false]));
        assert_eq!(x["tide_deck"], json!([0u8; 12].to_vec()));
        assert_eq!(x["hands"], json!([[], [], []]));
        assert_eq!(scores(&g, &s), vec![6, 0, 7]);
        assert_eq!(g.winners(s.state()), vec![2]);
    }

    #[test]
    fn highest_chooses_tide() {
        let g = game(3, json!({"highest_chooses_tide": true}));
        let mut s = dealt(&g, &[range(37, 48), range(25, 36), range(13, 24)]);
        tides(&mut s, 2, 9);
        play(&mut s, &[(0, 48), (1, 36), (2, 24)]);
        assert_eq!(g.current_player(s.state()), 0);
        let mut legal = Vec::new();
        g.legal_actions(s.state(), &mut legal);
        assert_eq!(legal, vec![0, 1]);
        assert_eq!(g.action_label(s.state(), 0), "take tide A (2)");
        assert_eq!(g.action_label(s.state(), 1), "take tide B (9)");
        assert_eq!(g.action_label(s.state(), 48), "action 48");
        let o = g.observation(s.state(), 0);
        assert_eq!(o["phase"], "choose_tide");
        assert_eq!(o["played"], json!([[48], [36], [24]]));
        assert_eq!(o["revealed_tide"], json!([2, 9]));
        assert_eq!(o["committed"], json!([true, true, true]));
        assert_eq!(o["own_commitment"], json!(48));
        let x = st(&g, &s);
        assert_eq!(x["chooser"], json!(0));
        assert_eq!(x["hands"][0], json!(range(37, 47)));
        assert!(s.apply(1, Some(1)).is_err());
        s.apply(1, Some(0)).unwrap();
        let x = st(&g, &s);
        assert_eq!(x["tide"], json!([9, 2, null]));
        assert_eq!(x["lifebuoys"], json!([5, 12, 6]));
        assert_eq!(x["chooser"], Value::Null);
        // Equal values: the choice is still asked.
        tides(&mut s, 4, 4);
        play(&mut s, &[(0, 47), (1, 35), (2, 23)]);
        assert_eq!(g.current_player(s.state()), 0);
        s.apply(0, Some(0)).unwrap();
        let x = st(&g, &s);
        assert_eq!(x["tide"], json!([4, 4, null]));
        assert_eq!(x["lifebuoys"], json!([4, 11, 6]));
    }

    #[test]
    fn options_are_validated_and_resolved() {
        let g = game(4, json!({}));
        assert_eq!(
            Value::Object(g.options()),
            json!({"recheck_after_elimination": true, "highest_chooses_tide": false, "rounds": 4})
        );
        assert_eq!(g.rounds(), 4);
        let g = game(5, json!({"rounds": null, "highest_chooses_tide": true}));
        assert_eq!(g.options()["rounds"], json!(5));
        assert_eq!(game(5, json!({"rounds": 2})).rounds(), 2);
        for bad in [
            json!({"rounds": 0}),
            json!({"rounds": 4}),
            json!({"rounds": "2"}),
            json!({"recheck_after_elimination": 1}),
            json!({"tides": 3}),
        ] {
            let map = bad.as_object().cloned().unwrap_or_default();
            assert!(TurnTheTide::from_options(3, &map).is_err(), "{bad}");
        }
        assert!(crate::registry::make("turn_the_tide", 2, &Map::new()).is_err());
        assert!(crate::registry::make("turn_the_tide", 6, &Map::new()).is_err());
        let h = crate::registry::make("turn_the_tide", 5, &Map::new()).unwrap();
        assert_eq!(h.num_actions(), 61);
        assert!(g.make_bot("greedy", None).is_some_and(|b| b.is_ok()));
        assert!(g.make_bot("greedy", Some("1")).is_some_and(|b| b.is_err()));
        assert!(g.make_bot("clever", None).is_none());
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
            "round",
            "hand_index",
            "hand",
            "lifebuoys",
            "tide",
            "revealed_tide",
            "eliminated",
            "played",
            "committed",
            "own_commitment",
            "scores",
        ];
        want.sort();
        assert_eq!(keys(&g.observation(s.state(), 2)), want);
        let mut want = vec![
            "dealt",
            "round",
            "hand_index",
            "hands",
            "lifebuoys",
            "tide",
            "eliminated",
            "played",
            "scores",
            "revealed_tide",
            "tide_deck",
            "commitments",
            "chooser",
        ];
        want.sort();
        assert_eq!(keys(&st(&g, &s)), want);
    }

    /// Checks the structural invariants of a state between steps.
    fn check_invariants(g: &TurnTheTide, x: &TurnTheTideState) {
        let n = g.players();
        if x.phase == Phase::Deal {
            return;
        }
        assert_eq!(usize::from(x.dealt_count), 12 * n);
        let mut union = 0u64;
        for p in 0..n {
            let src = (p + n - usize::from(x.round)) % n;
            let mut full = 0u64;
            for &c in &x.dealt[src] {
                full |= bit(u32::from(c));
            }
            let mut played = 0u64;
            for &c in &x.played[p][..usize::from(x.played_len[p])] {
                played |= bit(u32::from(c));
            }
            assert_eq!(x.dealt_hands[src], full);
            assert_eq!(x.hands[p] | played, full);
            assert_eq!(x.hands[p] & played, 0);
            assert_eq!(union & full, 0);
            union |= full;
            if x.eliminated(p) {
                assert_eq!((x.tide[p], x.lifebuoys[p]), (0, 0));
            } else {
                let revealed = usize::from(x.phase == Phase::ChooseTide);
                assert_eq!(
                    usize::from(x.played_len[p]),
                    usize::from(x.hand_index) + revealed
                );
            }
            assert!(x.tide[p] <= 12);
        }
        let deck = x.tide_deck.total();
        assert_eq!(
            deck + 2 * u32::from(x.hand_index) + u32::from(x.revealed_len),
            24
        );
        if x.phase != Phase::Over {
            assert!((0..n).filter(|&p| !x.eliminated(p)).count() >= 3);
            assert_eq!(x.in_round >> n, 0);
            assert!(usize::from(x.hand_index) < 12);
        }
    }

    #[test]
    fn random_games_keep_invariants() {
        let mut legal = Vec::new();
        let mut outs = Vec::new();
        for gi in 0..2000u64 {
            let n = 3 + (gi % 3) as usize;
            let rounds = if gi % 5 == 0 {
                json!(1 + (gi / 5) % n as u64)
            } else {
                Value::Null
            };
            let g = game(
                n,
                json!({
                    "recheck_after_elimination": gi % 2 == 0,
                    "highest_chooses_tide": (gi / 2) % 2 == 1,
                    "rounds": rounds,
                }),
            );
            let mut s = Session::new(Arc::clone(&g), Some(derive_seed(99, gi)));
            let mut bot = RandomBot::default();
            Bot::<TurnTheTide>::reset(&mut bot, &*g, 0, SplitMix64::new(derive_seed(100, gi)));
            let mut steps = 0;
            let detailed = gi % 50 == 0;
            while g.current_player(s.state()) != TERMINAL {
                let x = *s.state();
                check_invariants(&g, &x);
                let cp = g.current_player(&x);
                assert!(cp >= 0 && (cp as usize) < n && !x.eliminated(cp as usize));
                g.legal_actions(&x, &mut legal);
                assert!(!legal.is_empty());
                if detailed {
                    for a in 0..61 {
                        let _ = g.action_label(&x, a);
                    }
                    for p in 0..n {
                        let o = g.observation(&x, p);
                        assert_eq!(o["hand"], json!(cards_of(x.hands[p])));
                    }
                    g.chance_outcomes(&x, &mut outs);
                    assert!(outs.is_empty());
                }
                let a = Bot::<TurnTheTide>::act(&mut bot, &*g, &x, &legal);
                s.apply(i64::from(a), Some(i64::from(cp))).unwrap();
                steps += 1;
                assert!(steps < 400);
            }
            let x = *s.state();
            check_invariants(&g, &x);
            let sc = scores(&g, &s);
            let r = g.rounds() as i64;
            assert!(sc.iter().all(|&v| (-r..=13 * r).contains(&v)), "{sc:?}");
            let w = g.winners(&x);
            let best = *sc.iter().max().unwrap();
            assert!(!w.is_empty() && w.iter().all(|&p| sc[p] == best));
            assert_eq!(w.len(), sc.iter().filter(|&&v| v == best).count());
            assert_eq!(usize::from(x.round) + 1, g.rounds());
            if detailed {
                let back = Session::from_json(Arc::clone(&g), &s.to_json()).unwrap();
                assert_eq!(back.state(), s.state());
            }
        }
    }

    #[test]
    fn fast_sample_chance_equals_default() {
        let mut buf = Vec::new();
        let mut legal = Vec::new();
        let mut chance_nodes = 0;
        for gi in 0..200u64 {
            let g = game(3 + (gi % 3) as usize, json!({}));
            let mut x = g.initial_state();
            let mut walk = SplitMix64::new(derive_seed(7, gi));
            while g.current_player(&x) != TERMINAL {
                if g.current_player(&x) == CHANCE {
                    chance_nodes += 1;
                    for k in 0..8 {
                        let mut fast = SplitMix64::new(derive_seed(gi, chance_nodes * 8 + k));
                        let mut slow = fast;
                        let a = g.sample_chance(&x, &mut fast, &mut buf);
                        g.chance_outcomes(&x, &mut buf);
                        let b = slow.pick_weighted(&buf);
                        assert_eq!(Some(a), b);
                        assert_eq!(fast, slow);
                    }
                }
                g.legal_actions(&x, &mut legal);
                let a = legal[walk.below(legal.len() as u64) as usize];
                g.apply(&mut x, a);
            }
        }
        assert!(chance_nodes > 10_000);
        // Not a chance node: the default's answer (0, generator untouched).
        let g = game(3, json!({}));
        let s = dealt(&g, &three_hands());
        let mut x = *s.state();
        g.apply(&mut x, 1);
        g.apply(&mut x, 2);
        let mut r = SplitMix64::new(1);
        assert_eq!(g.sample_chance(&x, &mut r, &mut buf), 0);
        assert_eq!(r, SplitMix64::new(1));
    }

    #[test]
    fn fast_paths_equal_definitions() {
        for (i, n) in (3..=5).enumerate() {
            for (j, opts) in [
                json!({}),
                json!({"highest_chooses_tide": true}),
                json!({"recheck_after_elimination": false, "rounds": 2}),
            ]
            .into_iter()
            .enumerate()
            {
                let seed = (10 * i + j) as u64;
                crate::sim::fast_paths::assert_match(&*game(n, opts), 100, seed);
            }
        }
    }

    #[test]
    fn greedy_ignores_hidden_information() {
        let g = game(4, json!({}));
        let mut bots: Vec<GreedyBot> = vec![GreedyBot::default(); 4];
        let mut legal = Vec::new();
        for gi in 0..50u64 {
            let mut s = Session::new(Arc::clone(&g), Some(derive_seed(3, gi)));
            for (i, b) in bots.iter_mut().enumerate() {
                b.reset(&g, i, SplitMix64::new(0));
            }
            while g.current_player(s.state()) != TERMINAL {
                let cp = g.current_player(s.state()) as usize;
                g.legal_actions(s.state(), &mut legal);
                let a = bots[cp].act(&g, s.state(), &legal);
                let mut hidden = *s.state();
                for p in (0..4).filter(|&p| p != cp) {
                    hidden.hands[p] = 0;
                    if hidden.phase == Phase::Play && hidden.commitments[p] != 0 {
                        hidden.commitments[p] = 1;
                    }
                }
                hidden.dealt = [[0; HAND_SIZE]; MAX_SEATS];
                assert_eq!(bots[cp].act(&g, &hidden, &legal), a);
                s.apply(i64::from(a), None).unwrap();
            }
        }
    }

    /// Plays `games` seeded games of the greedy bot (rotating its seat) against random bots and
    /// returns its win share (a shared win counts as 1 / number of winners).
    fn greedy_win_rate(g: &Arc<TurnTheTide>, games: u64, seed: u64) -> f64 {
        let n = g.players();
        let mut legal = Vec::new();
        let mut wins = 0.0;
        for gi in 0..games {
            let game_seed = derive_seed(seed, gi);
            let greedy_seat = (gi % n as u64) as usize;
            let mut bots: Vec<Box<dyn Bot<TurnTheTide>>> = (0..n)
                .map(|p| -> Box<dyn Bot<TurnTheTide>> {
                    if p == greedy_seat {
                        Box::new(GreedyBot::default())
                    } else {
                        Box::new(RandomBot::default())
                    }
                })
                .collect();
            for (p, b) in bots.iter_mut().enumerate() {
                b.reset(g, p, SplitMix64::new(derive_seed(game_seed, p as u64 + 1)));
            }
            let mut s = Session::new(Arc::clone(g), Some(derive_seed(game_seed, 0)));
            while g.current_player(s.state()) != TERMINAL {
                let cp = g.current_player(s.state()) as usize;
                g.legal_actions(s.state(), &mut legal);
                let a = bots[cp].act(g, s.state(), &legal);
                s.apply(i64::from(a), None).unwrap();
                for b in bots.iter_mut() {
                    b.observe(g, s.state());
                }
            }
            let w = g.winners(s.state());
            if w.contains(&greedy_seat) {
                wins += 1.0 / w.len() as f64;
            }
        }
        wins / games as f64
    }

    #[test]
    fn greedy_beats_random() {
        let g = game(4, json!({}));
        let rate = greedy_win_rate(&g, 20_000, 2024);
        println!("greedy vs 3 random, 4 players: win share {rate:.4}");
        assert!(rate > 0.35, "greedy win share {rate}");
    }
}
