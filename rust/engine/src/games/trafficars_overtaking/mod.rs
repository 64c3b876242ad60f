//! Trafficars – Ruuhkaara, game 3: the overtaking lane (`trafficars_overtaking`), 2–5 players.
//!
//! Rules: `rules/trafficars.md` ("Game 3"); engine contract (deal, order of every automatic step
//! and decision, action ids, labels, observation, canonical state):
//! `docs/games/trafficars_overtaking.md`.
//!
//! Data layout: hands and the row are `u64` bitsets of card numbers (the row is always strictly
//! increasing, so a bitset holds it exactly: its lowest bit is the left end, its highest bit the
//! right end); piles are fixed arrays with a top index; everything else lives in fixed arrays sized
//! for five seats, so the state is `Copy` and `apply` / `legal_actions` never allocate.
//!
//! Everything the contract fixes is implemented as written. Points it leaves open, decided here
//! (the simplest reading):
//! - During the deal `piles` shows the cards dealt so far (top first), `hands` and `row` are
//!   empty, `active` = 0, `overtaker` = 1, `passes` = 0, and the scores are minus the cards dealt
//!   to each seat so far (the contract's formula applied as is).
//! - At the end everything stays as at the moment of the win (the contract's win check stops the
//!   step): `active`, `overtaker`, `passes`, the row and the other seats' cards are unchanged.
//!
//! - Overtaking is compulsory ("… ohituskaistalle pyrkivän pelaajan pitää … sanoa Ohitus!, jos
//!   hänellä on ohituskaistalle sopiva kortti"): with `optional_overtake = false` (the default) an
//!   overtaker who holds a fitting card overtakes within the same `apply`, and the `overtake`
//!   node never appears; `optional_overtake = true` keeps the node with its choice (overtake /
//!   let go) for the variant where a player may wait.
//!
//! Bot: `greedy`, see [`GreedyBot`].
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

/// Most seats a game can have: its most players.
const MAX_SEATS: usize = TrafficarsOvertaking::PLAYERS.1;
/// Hand size the refill restores.
const HAND_LIMIT: u32 = 6;
/// Car cards 1..=50.
const CARDS: u32 = 50;
/// Most cards in one pile: the cards dealt out to the fewest players (two: 25 each).
const MAX_PILE: usize = CARDS as usize / TrafficarsOvertaking::PLAYERS.0;
/// The lowest car card. Deal outcome `c` and the actions that play or start with card `c` are
/// action id `c` (ids `LOWEST_CARD..=HIGHEST_CARD`), which is also the card's bit in a bitset.
const LOWEST_CARD: u32 = 1;
/// The highest car card.
const HIGHEST_CARD: u32 = CARDS;
/// Bits 1..=50: every car card.
const ALL_CARDS: u64 = ((1u64 << 51) - 1) ^ 1;
/// Action id of "overtake".
pub const OVERTAKE: u32 = HIGHEST_CARD + 1;
/// Action id of "let go".
pub const LET_GO: u32 = HIGHEST_CARD + 2;
/// Action id of "pass".
pub const PASS: u32 = HIGHEST_CARD + 3;
/// Size of the action space: ids 0..=53.
const NUM_ACTIONS: u32 = PASS + 1;
/// "No seat" marker.
const NO_SEAT: u8 = u8::MAX;

/// The cards strictly between `a` and `b` (in either order), as a bitset.
#[inline]
fn between(a: u32, b: u32) -> u64 {
    let (lo, hi) = (a.min(b).min(63), a.max(b).min(63));
    if hi <= lo + 1 {
        return 0;
    }
    ((1u64 << hi) - 1) & !((1u64 << (lo + 1)) - 1)
}

/// The lowest card of a non-empty bitset.
#[inline]
fn lowest(mask: u64) -> u32 {
    mask.trailing_zeros()
}

/// The highest card of a non-empty bitset.
#[inline]
fn highest(mask: u64) -> u32 {
    63 - mask.leading_zeros()
}

/// The cards that fit a non-empty row: below its left end or above its right end.
#[inline]
fn fitting(row: u64) -> u64 {
    if row == 0 {
        return ALL_CARDS;
    }
    let below = (1u64 << lowest(row)) - 1;
    let above = !((1u64 << highest(row)) | ((1u64 << highest(row)) - 1));
    (below | above) & ALL_CARDS
}

crate::game::phases! {
    /// Where the game stands, i.e. what kind of node comes next.
    enum Phase {
        /// Chance: a removed card, then the piles.
        Deal,
        /// The active seat plays a fitting card or passes.
        Play,
        /// The overtaker overtakes or lets go.
        Overtake,
        /// The active seat chooses a start card from its hand (its pile is empty).
        Start,
        /// Someone has won.
        Over,
    }
}

/// The Trafficars overtaking-lane game with a fixed player count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrafficarsOvertaking {
    players: usize,
    /// Option `optional_overtake`: the overtaker chooses (true) or must overtake (false).
    optional_overtake: bool,
    /// `r` = 50 mod players: cards removed at the deal.
    removed_count: usize,
    /// `k` = 50 div players: cards per pile.
    pile_size: usize,
    option_values: OptionValues,
}

crate::options::game_options! {
    /// The options of the overtaking lane, as read for [`Game::with_options`].
    #[players(2..=5)]
    pub struct TrafficarsOvertakingOptions {
        /// the overtaker may let a card go (true) instead of having to overtake (false)
        optional_overtake: bool(false),
    }
}

/// The full state of one game (small and `Copy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TrafficarsOvertakingState {
    phase: Phase,
    /// Removed cards in draw order (first `removed_len`).
    removed: [u8; 4],
    /// How many cards `removed` holds.
    removed_len: u8,
    /// Cards removed or dealt so far.
    used: u64,
    /// Pile deal outcomes so far.
    dealt: u8,
    /// Piles, top first: seat `s` holds `piles[s][pile_top[s]..pile_len[s]]`.
    piles: [[u8; MAX_PILE]; MAX_SEATS],
    /// Per seat, the index in `piles` of the pile's top card (cards before it are drawn).
    pile_top: [u8; MAX_SEATS],
    /// Per seat, the number of cards dealt to the pile (drawn ones included).
    pile_len: [u8; MAX_SEATS],
    /// Per seat, the cards in hand (a bitset of card ids).
    hands: [u64; MAX_SEATS],
    /// The middle row (strictly increasing, so a bitset).
    row: u64,
    /// The seat whose turn it is to put a card into the row (or pass).
    active: u8,
    /// The seat after the active one, who may overtake when a card is put in.
    overtaker: u8,
    /// Passes in a row since a card last went into the row; every seat passing clears the row.
    passes: u8,
    /// X of a pending overtake decision, 0 = none.
    overtake_card: u8,
    /// The winning seat, `NO_SEAT` = none.
    winner: u8,
}

impl TrafficarsOvertakingState {
    /// Cards left in seat `s`'s pile.
    #[inline]
    fn pile_count(&self, s: usize) -> u32 {
        u32::from(self.pile_len[s].saturating_sub(self.pile_top[s]))
    }

    /// Seat `s`'s pile, top first.
    fn pile(&self, s: usize) -> &[u8] {
        let len = usize::from(self.pile_len[s]).min(MAX_PILE);
        let top = usize::from(self.pile_top[s]).min(len);
        &self.piles[s][top..len]
    }

    /// Takes the top card of seat `s`'s pile (0 if empty).
    #[inline]
    fn draw(&mut self, s: usize) -> u32 {
        if self.pile_count(s) == 0 {
            return 0;
        }
        let c = self.piles[s][usize::from(self.pile_top[s])];
        self.pile_top[s] += 1;
        u32::from(c)
    }

    /// The hand of seat `s` (empty for an out-of-range seat).
    #[inline]
    fn hand(&self, s: usize) -> u64 {
        self.hands.get(s).copied().unwrap_or(0)
    }
}

impl TrafficarsOvertaking {
    /// Seat that receives the next pile deal outcome.
    fn deal_seat(&self, st: &TrafficarsOvertakingState) -> usize {
        (usize::from(st.dealt) / self.pile_size).min(self.players - 1)
    }

    /// Contract procedure "refill".
    #[inline]
    fn refill(&self, st: &mut TrafficarsOvertakingState) {
        for s in 0..self.players {
            while bits::count(st.hands[s]) < HAND_LIMIT && st.pile_count(s) > 0 {
                let c = st.draw(s);
                st.hands[s] |= bits::bit_in(c, LOWEST_CARD, HIGHEST_CARD);
            }
        }
    }

    /// Contract procedure "change active to s".
    fn change_active(&self, st: &mut TrafficarsOvertakingState, s: usize) {
        st.active = s as u8;
        st.overtaker = ((s + 1) % self.players) as u8;
        self.refill(st);
    }

    /// Contract procedure "win check for seat s"; true if s has won.
    fn win_check(st: &mut TrafficarsOvertakingState, s: usize) -> bool {
        if st.hands[s] == 0 && st.pile_count(s) == 0 {
            st.winner = s as u8;
            st.phase = Phase::Over;
            true
        } else {
            false
        }
    }

    /// Contract procedure "start a row" (the row is empty).
    fn start_row(&self, st: &mut TrafficarsOvertakingState) {
        let a = usize::from(st.active);
        if st.pile_count(a) > 0 {
            let c = st.draw(a);
            st.row = bits::bit_in(c, LOWEST_CARD, HIGHEST_CARD);
            if !Self::win_check(st, a) {
                st.phase = Phase::Play;
            }
        } else {
            st.phase = Phase::Start;
        }
    }

    /// Contract procedure "continue" after a played card was not overtaken.
    fn continue_play(&self, st: &mut TrafficarsOvertakingState) {
        let a = usize::from(st.active);
        if st.hands[a] == 0 {
            self.change_active(st, (a + 1) % self.players);
        }
        st.phase = Phase::Play;
    }

    /// The card the just-played card `x` was placed next to (its neighbour in the row).
    fn neighbour(row: u64, x: u32) -> u32 {
        let rest = row & !bits::bit_in(x, LOWEST_CARD, HIGHEST_CARD);
        if rest == 0 {
            return x;
        }
        if x < lowest(rest) {
            lowest(rest)
        } else {
            highest(rest)
        }
    }

    /// Phase `play`: seat `active` plays card `x`.
    fn play(&self, st: &mut TrafficarsOvertakingState, x: u32) {
        let a = usize::from(st.active);
        let b = bits::bit_in(x, LOWEST_CARD, HIGHEST_CARD);
        if st.hands[a] & b & fitting(st.row) == 0 || st.row == 0 {
            return;
        }
        let y = if x < lowest(st.row) {
            lowest(st.row)
        } else {
            highest(st.row)
        };
        st.hands[a] &= !b;
        st.row |= b;
        st.passes = 0;
        if Self::win_check(st, a) {
            return;
        }
        if st.hand(usize::from(st.overtaker)) & between(x, y) != 0 {
            st.overtake_card = x as u8;
            if self.optional_overtake {
                st.phase = Phase::Overtake;
            } else {
                // Compulsory: the overtaker overtakes at once, no decision.
                self.overtake(st);
            }
        } else {
            self.continue_play(st);
        }
    }

    /// Phase `play`: seat `active` passes.
    fn pass(&self, st: &mut TrafficarsOvertakingState) {
        let a = usize::from(st.active);
        st.passes += 1;
        self.change_active(st, (a + 1) % self.players);
        if usize::from(st.passes) >= self.players {
            st.row = 0;
            st.passes = 0;
            self.start_row(st);
        } else {
            st.phase = Phase::Play;
        }
    }

    /// Phase `overtake`: the overtaker puts all its cards between X and Y into the row.
    fn overtake(&self, st: &mut TrafficarsOvertakingState) {
        let o = usize::from(st.overtaker);
        let x = u32::from(st.overtake_card);
        let cards = st.hands[o] & between(x, Self::neighbour(st.row, x));
        st.hands[o] &= !cards;
        st.row |= cards;
        st.overtake_card = 0;
        st.passes = 0;
        if Self::win_check(st, o) {
            return;
        }
        self.change_active(st, o);
        st.phase = Phase::Play;
    }

    /// Phase `start`: seat `active` starts the row with hand card `x`.
    fn start_with(&self, st: &mut TrafficarsOvertakingState, x: u32) {
        let a = usize::from(st.active);
        let b = bits::bit_in(x, LOWEST_CARD, HIGHEST_CARD);
        if st.hands[a] & b == 0 {
            return;
        }
        st.hands[a] &= !b;
        st.row = b;
        if !Self::win_check(st, a) {
            st.phase = Phase::Play;
        }
    }
}

impl Game for TrafficarsOvertaking {
    type State = TrafficarsOvertakingState;
    const ID: &'static str = "trafficars_overtaking";
    /// Margins rather than win shares (one overtake rarely changes the winner) and `c = 0.5`
    /// (`docs/search.md`).
    const SEARCH_DEFAULTS: &'static str = "rollout=greedy,opponents=rollout,reward=margin,c=0.5";
    type Options = TrafficarsOvertakingOptions;

    fn with_options(players: usize, options: Self::Options, values: OptionValues) -> Result<Self> {
        let n = players as u32;
        Ok(Self {
            players,
            optional_overtake: options.optional_overtake,
            removed_count: (CARDS % n) as usize,
            pile_size: (CARDS / n) as usize,
            option_values: values,
        })
    }

    fn initial_state(&self) -> TrafficarsOvertakingState {
        TrafficarsOvertakingState {
            phase: Phase::Deal,
            removed: [0; 4],
            removed_len: 0,
            used: 0,
            dealt: 0,
            piles: [[0; MAX_PILE]; MAX_SEATS],
            pile_top: [0; MAX_SEATS],
            pile_len: [0; MAX_SEATS],
            hands: [0; MAX_SEATS],
            row: 0,
            active: 0,
            overtaker: 1,
            passes: 0,
            overtake_card: 0,
            winner: NO_SEAT,
        }
    }

    fn current_player(&self, st: &TrafficarsOvertakingState) -> i32 {
        match st.phase {
            Phase::Deal => CHANCE,
            Phase::Play | Phase::Start => i32::from(st.active),
            Phase::Overtake => i32::from(st.overtaker),
            Phase::Over => TERMINAL,
        }
    }

    fn legal_actions(&self, st: &TrafficarsOvertakingState, out: &mut Vec<u32>) {
        out.clear();
        let mask = match st.phase {
            Phase::Deal => ALL_CARDS & !st.used,
            Phase::Play => {
                let fits = st.hand(usize::from(st.active)) & fitting(st.row);
                if fits == 0 {
                    out.push(PASS);
                }
                fits
            }
            Phase::Start => st.hand(usize::from(st.active)),
            Phase::Overtake => {
                out.extend_from_slice(&[OVERTAKE, LET_GO]);
                0
            }
            Phase::Over => 0,
        };
        out.extend(bits::ones(mask));
    }

    #[inline(always)]
    fn uniform_chance(&self, st: &TrafficarsOvertakingState) -> Option<u64> {
        (st.phase == Phase::Deal).then_some(ALL_CARDS & !st.used)
    }

    #[inline]
    fn apply(&self, st: &mut TrafficarsOvertakingState, action: u32) {
        match st.phase {
            Phase::Deal => {
                let b = bits::bit_in(action, LOWEST_CARD, HIGHEST_CARD);
                if b == 0 || st.used & b != 0 {
                    return;
                }
                st.used |= b;
                if usize::from(st.removed_len) < self.removed_count {
                    let i = usize::from(st.removed_len).min(st.removed.len() - 1);
                    st.removed[i] = action as u8;
                    st.removed_len = i as u8 + 1;
                    return;
                }
                let s = self.deal_seat(st);
                let i = usize::from(st.pile_len[s]).min(MAX_PILE - 1);
                st.piles[s][i] = action as u8;
                st.pile_len[s] = i as u8 + 1;
                st.dealt += 1;
                if usize::from(st.dealt) == self.pile_size * self.players {
                    self.refill(st);
                    st.active = 0;
                    st.overtaker = 1;
                    self.start_row(st);
                }
            }
            Phase::Play => {
                if action == PASS {
                    if st.hand(usize::from(st.active)) & fitting(st.row) == 0 {
                        self.pass(st);
                    }
                } else {
                    self.play(st, action);
                }
            }
            Phase::Overtake => match action {
                OVERTAKE => self.overtake(st),
                LET_GO => {
                    st.overtake_card = 0;
                    self.continue_play(st);
                }
                _ => {}
            },
            Phase::Start => self.start_with(st, action),
            Phase::Over => {}
        }
    }

    fn scores(&self, st: &TrafficarsOvertakingState, out: &mut [i64]) {
        for (s, o) in out.iter_mut().enumerate().take(self.players) {
            *o = -i64::from(bits::count(st.hands[s]) + st.pile_count(s));
        }
    }

    fn winner_mask(&self, st: &TrafficarsOvertakingState) -> u64 {
        if st.winner == NO_SEAT {
            0
        } else {
            1u64.checked_shl(u32::from(st.winner)).unwrap_or(0)
        }
    }

    crate::game::common_game_methods!(num_actions: NUM_ACTIONS, determinize: sample_hidden_cards);

    crate::game::builtin_bots!("greedy" => GreedyBot::default());
}
