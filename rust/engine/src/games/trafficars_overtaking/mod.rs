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

use crate::error::{EngineError, Result};
use crate::game::{Bot, Game, CHANCE, TERMINAL};
use crate::options::{OptionReader, OptionSpec, OptionValues};
use crate::rng::SplitMix64;
use crate::tensor::TensorWriter;
use serde_json::{json, Map, Value};

/// Most seats a game can have.
const MAX_SEATS: usize = 5;
/// Most cards in one pile (two players: 25 each).
const MAX_PILE: usize = 25;
/// Hand size the refill restores.
const HAND_LIMIT: u32 = 6;
/// Car cards 1..=50.
const CARDS: u32 = 50;
/// Bits 1..=50: every car card.
const ALL_CARDS: u64 = ((1u64 << 51) - 1) ^ 1;
/// Action id of "overtake".
pub const OVERTAKE: u32 = 51;
/// Action id of "let go".
pub const LET_GO: u32 = 52;
/// Action id of "pass".
pub const PASS: u32 = 53;
/// Size of the action space.
const NUM_ACTIONS: u32 = 54;
/// "No seat" marker.
const NO_SEAT: u8 = u8::MAX;

/// The bit of card `card` in a card bitset (0 for anything outside 1..=50).
#[inline]
fn bit(card: u32) -> u64 {
    if (1..=CARDS).contains(&card) {
        1u64 << card
    } else {
        0
    }
}

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

/// The cards of a bitset, in increasing order.
fn cards_of(mut mask: u64) -> Vec<u32> {
    let mut out = Vec::with_capacity(mask.count_ones() as usize);
    while mask != 0 {
        out.push(mask.trailing_zeros());
        mask &= mask - 1;
    }
    out
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

/// Where the game stands, i.e. what kind of node comes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

impl Phase {
    fn name(self) -> &'static str {
        match self {
            Self::Deal => "deal",
            Self::Play => "play",
            Self::Overtake => "overtake",
            Self::Start => "start",
            Self::Over => "over",
        }
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

/// The full state of one game (small and `Copy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TrafficarsOvertakingState {
    phase: Phase,
    /// Removed cards in draw order (first `removed_len`).
    removed: [u8; 4],
    removed_len: u8,
    /// Cards removed or dealt so far.
    used: u64,
    /// Pile deal outcomes so far.
    dealt: u8,
    /// Piles, top first: seat `s` holds `piles[s][pile_top[s]..pile_len[s]]`.
    piles: [[u8; MAX_PILE]; MAX_SEATS],
    pile_top: [u8; MAX_SEATS],
    pile_len: [u8; MAX_SEATS],
    hands: [u64; MAX_SEATS],
    /// The middle row (strictly increasing, so a bitset).
    row: u64,
    active: u8,
    overtaker: u8,
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
    fn refill(&self, st: &mut TrafficarsOvertakingState) {
        for s in 0..self.players {
            while st.hands[s].count_ones() < HAND_LIMIT && st.pile_count(s) > 0 {
                let c = st.draw(s);
                st.hands[s] |= bit(c);
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
            st.row = bit(c);
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
        let rest = row & !bit(x);
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
        let b = bit(x);
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
        let b = bit(x);
        if st.hands[a] & b == 0 {
            return;
        }
        st.hands[a] &= !b;
        st.row = b;
        if !Self::win_check(st, a) {
            st.phase = Phase::Play;
        }
    }

    fn seat_json(s: u8) -> Value {
        if s == NO_SEAT {
            Value::Null
        } else {
            json!(s)
        }
    }

    fn overtake_card_json(st: &TrafficarsOvertakingState) -> Value {
        if st.overtake_card == 0 {
            Value::Null
        } else {
            json!(st.overtake_card)
        }
    }
}

impl Game for TrafficarsOvertaking {
    type State = TrafficarsOvertakingState;

    const ID: &'static str = "trafficars_overtaking";

    fn option_specs() -> Vec<OptionSpec> {
        vec![OptionSpec::bool(
            "optional_overtake",
            false,
            "the overtaker may let a card go (true) instead of having to overtake (false)",
        )]
    }

    fn player_range() -> (usize, usize) {
        (2, 5)
    }

    fn from_options(players: usize, options: &Map<String, Value>) -> Result<Self> {
        let mut r = OptionReader::new(Self::ID, Self::option_specs(), options);
        let optional_overtake = r.bool("optional_overtake")?;
        let option_values = r.finish()?;
        let (lo, hi) = Self::player_range();
        if !(lo..=hi).contains(&players) {
            return Err(EngineError::InvalidOption(format!(
                "{}: players must be in {lo}..={hi}, got {players}",
                Self::ID
            )));
        }
        let n = players as u32;
        Ok(Self {
            players,
            optional_overtake,
            removed_count: (CARDS % n) as usize,
            pile_size: (CARDS / n) as usize,
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
        let mut mask = match st.phase {
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
        while mask != 0 {
            out.push(mask.trailing_zeros());
            mask &= mask - 1;
        }
    }

    fn chance_outcomes(&self, st: &TrafficarsOvertakingState, out: &mut Vec<(u32, u64)>) {
        out.clear();
        if st.phase == Phase::Deal {
            let mut m = ALL_CARDS & !st.used;
            while m != 0 {
                out.push((m.trailing_zeros(), 1));
                m &= m - 1;
            }
        }
    }

    fn sample_chance(
        &self,
        st: &TrafficarsOvertakingState,
        rng: &mut SplitMix64,
        _buf: &mut Vec<(u32, u64)>,
    ) -> u32 {
        if st.phase != Phase::Deal {
            return 0;
        }
        let remaining = ALL_CARDS & !st.used;
        let total = remaining.count_ones();
        if total == 0 {
            return 0;
        }
        select_bit(remaining, rng.below(u64::from(total)) as u32)
    }

    fn apply(&self, st: &mut TrafficarsOvertakingState, action: u32) {
        match st.phase {
            Phase::Deal => {
                let b = bit(action);
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

    fn action_label(&self, st: &TrafficarsOvertakingState, action: u32) -> String {
        let card = (1..=CARDS).contains(&action);
        match st.phase {
            Phase::Deal if card => {
                if usize::from(st.removed_len) < self.removed_count {
                    format!("remove {action}")
                } else {
                    format!("deal {action} to seat {}", self.deal_seat(st))
                }
            }
            Phase::Play if card => format!("play {action}"),
            Phase::Play if action == PASS => "pass".to_string(),
            Phase::Start if card => format!("start the row with {action}"),
            Phase::Overtake if action == OVERTAKE => "overtake".to_string(),
            Phase::Overtake if action == LET_GO => "let go".to_string(),
            _ => format!("action {action}"),
        }
    }

    fn scores(&self, st: &TrafficarsOvertakingState, out: &mut [i64]) {
        for (s, o) in out.iter_mut().enumerate().take(self.players) {
            *o = -i64::from(st.hands[s].count_ones() + st.pile_count(s));
        }
    }

    fn winners(&self, st: &TrafficarsOvertakingState) -> Vec<usize> {
        if st.winner == NO_SEAT {
            Vec::new()
        } else {
            vec![usize::from(st.winner)]
        }
    }

    fn observation(&self, st: &TrafficarsOvertakingState, player: usize) -> Value {
        let n = self.players;
        json!({
            "seat": player,
            "phase": st.phase.name(),
            "row": cards_of(st.row),
            "hand": cards_of(st.hand(player)),
            "pile_sizes": (0..n).map(|s| st.pile_count(s)).collect::<Vec<_>>(),
            "hand_sizes": (0..n).map(|s| st.hands[s].count_ones()).collect::<Vec<_>>(),
            "active": st.active,
            "overtaker": st.overtaker,
            "passes": st.passes,
            "overtake_card": Self::overtake_card_json(st),
            "winner": Self::seat_json(st.winner),
        })
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![156 + 6 * self.players]
    }

    fn observation_tensor(&self, st: &TrafficarsOvertakingState, player: usize, out: &mut [f32]) {
        let n = self.players;
        let mut w = TensorWriter::new(out);
        w.one_hot(Some(player), n);
        let phase = match st.phase {
            Phase::Deal => 0,
            Phase::Play => 1,
            Phase::Overtake => 2,
            Phase::Start => 3,
            Phase::Over => 4,
        };
        w.one_hot(Some(phase), 5);
        w.multi_hot(st.row, 1, 50);
        w.multi_hot(st.hand(player), 1, 50);
        for s in 0..n {
            w.push_scaled(f64::from(st.pile_count(s)), 25.0);
        }
        for s in 0..n {
            w.push_scaled(f64::from(st.hands[s].count_ones()), 6.0);
        }
        w.one_hot(Some(usize::from(st.active)), n);
        w.one_hot(Some(usize::from(st.overtaker)), n);
        w.push_scaled(f64::from(st.passes), n as f64);
        w.one_hot(usize::from(st.overtake_card).checked_sub(1), 50);
        w.one_hot(
            Some(usize::from(st.winner)).filter(|_| st.winner != NO_SEAT),
            n,
        );
        debug_assert_eq!(w.position(), 156 + 6 * n);
    }

    fn state_json(&self, st: &TrafficarsOvertakingState) -> Value {
        let n = self.players;
        let removed = &st.removed[..usize::from(st.removed_len).min(st.removed.len())];
        json!({
            "phase": st.phase.name(),
            "row": cards_of(st.row),
            "active": st.active,
            "overtaker": st.overtaker,
            "passes": st.passes,
            "overtake_card": Self::overtake_card_json(st),
            "winner": Self::seat_json(st.winner),
            "removed": removed,
            "piles": (0..n).map(|s| json!(st.pile(s))).collect::<Vec<_>>(),
            "hands": (0..n).map(|s| json!(cards_of(st.hands[s]))).collect::<Vec<_>>(),
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

/// The `greedy` bot.
///
/// It reads only what its seat's observation holds (its hand, the row) plus its memory of every
/// row it has seen (cleared rows leave the game, so their cards can be in no hand).
/// - Overtake: always (it sheds cards and takes the turn); with `optional_overtake = false` the
///   engine overtakes for it, with `true` it chooses "overtake" at every `overtake` node.
/// - Play: of the fitting cards, the one that leaves the fewest cards strictly between it and the
///   end it goes to that may still be in the overtaker's hand (not in its own hand, not seen in a
///   row), counting each of its own cards stranded there as half; ties go to the card closest to
///   the end, then the lowest. So it plays outwards from the ends, which also lets it play the
///   most cards in a row.
/// - Start card (its pile is empty): the middle card of its hand (the lower one of the two middle
///   cards), so both ends stay open for its other cards.
/// - Pass: when forced (the only legal action).
#[derive(Clone, Debug, Default)]
pub struct GreedyBot {
    /// Cards seen in the row at any time (out of every hand for good).
    gone: u64,
}

impl GreedyBot {
    fn choose_play(&self, st: &TrafficarsOvertakingState, hand: u64, legal: &[u32]) -> u32 {
        let row = st.row;
        let mut best = legal.first().copied().unwrap_or(PASS);
        let mut best_key = (u32::MAX, u32::MAX);
        for &x in legal {
            if !(1..=CARDS).contains(&x) || row == 0 {
                continue;
            }
            let y = if x < lowest(row) {
                lowest(row)
            } else {
                highest(row)
            };
            let gap = between(x, y);
            let unknown = (gap & !hand & !self.gone & !row).count_ones();
            let own = (gap & hand).count_ones();
            // Cost in half cards: unknown cards weigh 2, own stranded cards 1.
            let key = (2 * unknown + own, x.abs_diff(y));
            if key < best_key {
                best_key = key;
                best = x;
            }
        }
        best
    }
}

impl Bot<TrafficarsOvertaking> for GreedyBot {
    fn reset(&mut self, _game: &TrafficarsOvertaking, _seat: usize, _rng: SplitMix64) {
        self.gone = 0;
    }

    fn act(
        &mut self,
        _game: &TrafficarsOvertaking,
        st: &TrafficarsOvertakingState,
        legal: &[u32],
    ) -> u32 {
        self.gone |= st.row;
        let first = legal.first().copied().unwrap_or(0);
        match st.phase {
            Phase::Overtake => {
                if legal.contains(&OVERTAKE) {
                    OVERTAKE
                } else {
                    first
                }
            }
            Phase::Play => {
                if legal == [PASS] {
                    PASS
                } else {
                    self.choose_play(st, st.hand(usize::from(st.active)), legal)
                }
            }
            Phase::Start => legal
                .get(legal.len().saturating_sub(1) / 2)
                .copied()
                .unwrap_or(first),
            _ => first,
        }
    }

    fn observe(&mut self, _game: &TrafficarsOvertaking, st: &TrafficarsOvertakingState) {
        self.gone |= st.row;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::RandomBot;
    use crate::rng::derive_seed;
    use crate::session::Session;
    use crate::sim::{make_bot, play_game};
    use std::sync::Arc;

    type S = Session<TrafficarsOvertaking>;

    /// The default game: overtaking is compulsory.
    fn game(players: usize) -> Arc<TrafficarsOvertaking> {
        Arc::new(TrafficarsOvertaking::from_options(players, &Map::new()).unwrap())
    }

    /// The variant `optional_overtake = true`: the overtaker chooses.
    fn game_opt(players: usize) -> Arc<TrafficarsOvertaking> {
        let map = json!({"optional_overtake": true})
            .as_object()
            .cloned()
            .unwrap();
        Arc::new(TrafficarsOvertaking::from_options(players, &map).unwrap())
    }

    /// Deals explicitly: `removed` first, then each seat's pile (top first) starting with the
    /// given prefix and filled up with the remaining cards in increasing order, seat 0 first.
    fn dealt(g: &Arc<TrafficarsOvertaking>, removed: &[u32], prefixes: &[&[u32]]) -> S {
        let mut s = Session::new(Arc::clone(g), None);
        let mut used: u64 = removed.iter().fold(0, |m, &c| m | bit(c));
        for p in prefixes {
            used |= p.iter().fold(0, |m, &c| m | bit(c));
        }
        let mut rest = cards_of(ALL_CARDS & !used).into_iter();
        for &c in removed {
            assert_eq!(g.action_label(s.state(), c), format!("remove {c}"));
            s.apply(i64::from(c), None).unwrap();
        }
        for seat in 0..g.players() {
            let prefix = prefixes.get(seat).copied().unwrap_or(&[]);
            for i in 0..g.pile_size {
                let c = prefix
                    .get(i)
                    .copied()
                    .unwrap_or_else(|| rest.next().unwrap());
                assert_eq!(g.current_player(s.state()), CHANCE);
                assert_eq!(
                    g.action_label(s.state(), c),
                    format!("deal {c} to seat {seat}")
                );
                s.apply(i64::from(c), None).unwrap();
            }
        }
        assert_ne!(g.current_player(s.state()), CHANCE);
        s
    }

    fn st(g: &TrafficarsOvertaking, s: &S) -> Value {
        g.state_json(s.state())
    }

    fn legal(g: &TrafficarsOvertaking, s: &S) -> Vec<u32> {
        let mut out = Vec::new();
        g.legal_actions(s.state(), &mut out);
        out
    }

    /// Applies `actions` in order, each by the seat `seat`.
    fn by(s: &mut S, seat: i64, actions: &[u32]) {
        for &a in actions {
            s.apply(i64::from(a), Some(seat)).unwrap();
        }
    }

    #[test]
    fn options_and_sizes() {
        for (n, k, r) in [(2, 25, 0), (3, 16, 2), (4, 12, 2), (5, 10, 0)] {
            let g = game(n);
            assert_eq!((g.pile_size, g.removed_count), (k, r));
        }
        assert!(TrafficarsOvertaking::from_options(1, &Map::new()).is_err());
        assert!(TrafficarsOvertaking::from_options(6, &Map::new()).is_err());
        let map = json!({"jokers": true}).as_object().cloned().unwrap();
        assert!(TrafficarsOvertaking::from_options(3, &map).is_err());
        assert_eq!(
            Value::Object(game(2).options()),
            json!({"optional_overtake": false})
        );
        assert_eq!(
            Value::Object(game_opt(2).options()),
            json!({"optional_overtake": true})
        );
        for bad in [
            json!({"optional_overtake": 1}),
            json!({"optional_overtake": "true"}),
            json!({"optional_overtake": null}),
        ] {
            let map = bad.as_object().cloned().unwrap();
            assert!(
                matches!(
                    TrafficarsOvertaking::from_options(3, &map),
                    Err(EngineError::InvalidOption(_))
                ),
                "{bad}"
            );
        }
        let names: Vec<&str> = TrafficarsOvertaking::option_specs()
            .iter()
            .map(|o| o.name)
            .collect();
        assert_eq!(names, ["optional_overtake"]);
        assert!(crate::registry::games()
            .iter()
            .any(|i| i.id == "trafficars_overtaking"
                && i.options.len() == 1
                && i.options[0].default == json!(false)));
        let h = crate::registry::make("trafficars_overtaking", 4, &Map::new()).unwrap();
        assert_eq!(h.num_actions(), 54);
        let g = game(2);
        assert!(g.make_bot("greedy", None).is_some_and(|b| b.is_ok()));
        assert!(g.make_bot("greedy", Some("1")).is_some_and(|b| b.is_err()));
        assert!(g.make_bot("memory", None).is_none());
    }

    #[test]
    fn deal_removal_chance_and_labels() {
        let g = game(3);
        let mut s = Session::new(Arc::clone(&g), None);
        let x = st(&g, &s);
        assert_eq!(x["phase"], "deal");
        assert_eq!(x["active"], json!(0));
        assert_eq!(x["overtaker"], json!(1));
        assert_eq!(x["piles"], json!([[], [], []]));
        assert_eq!(x["hands"], json!([[], [], []]));
        assert_eq!(x["row"], json!([]));
        assert_eq!(x["winner"], Value::Null);
        assert_eq!(x["overtake_card"], Value::Null);
        let mut outs = Vec::new();
        g.chance_outcomes(s.state(), &mut outs);
        assert_eq!(outs, (1..=50).map(|c| (c, 1)).collect::<Vec<_>>());
        assert_eq!(g.action_label(s.state(), 50), "remove 50");
        assert_eq!(g.action_label(s.state(), 0), "action 0");
        assert_eq!(g.action_label(s.state(), 51), "action 51");
        s.apply(7, None).unwrap();
        s.apply(9, None).unwrap();
        assert!(s.apply(9, None).is_err());
        assert_eq!(g.action_label(s.state(), 1), "deal 1 to seat 0");
        assert_eq!(st(&g, &s)["removed"], json!([7, 9]));
        for c in [1, 2, 3] {
            s.apply(c, None).unwrap();
        }
        assert_eq!(st(&g, &s)["piles"], json!([[1, 2, 3], [], []]));
        let o = g.observation(s.state(), 2);
        assert_eq!(o["pile_sizes"], json!([3, 0, 0]));
        assert_eq!(o["phase"], "deal");
        let mut sc = [0i64; 3];
        g.scores(s.state(), &mut sc);
        assert_eq!(sc, [-3, 0, 0]);
        // The 17th pile card goes to seat 1.
        for c in [4, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20] {
            s.apply(c, None).unwrap();
        }
        assert_eq!(g.action_label(s.state(), 21), "deal 21 to seat 1");
    }

    #[test]
    fn worked_example_overtaking() {
        let g = game_opt(2);
        let mut s = dealt(
            &g,
            &[],
            &[
                &[3, 11, 20, 26, 40, 47, 18, 1],
                &[8, 21, 24, 30, 33, 45, 14, 49],
            ],
        );
        let x = st(&g, &s);
        assert_eq!(
            x["hands"],
            json!([[3, 11, 20, 26, 40, 47], [8, 21, 24, 30, 33, 45]])
        );
        assert_eq!(x["row"], json!([18]));
        assert_eq!(x["phase"], "play");
        assert_eq!(
            (x["active"].clone(), x["overtaker"].clone()),
            (json!(0), json!(1))
        );
        assert_eq!(g.observation(s.state(), 0)["pile_sizes"], json!([18, 19]));
        assert_eq!(legal(&g, &s), vec![3, 11, 20, 26, 40, 47]);
        assert_eq!(g.action_label(s.state(), 26), "play 26");
        assert_eq!(g.action_label(s.state(), 53), "pass");
        assert_eq!(g.action_label(s.state(), 51), "action 51");
        // Seat 0 plays 26: seat 1 holds 21, 24 between 18 and 26.
        by(&mut s, 0, &[26]);
        assert_eq!(g.current_player(s.state()), 1);
        assert_eq!(legal(&g, &s), vec![51, 52]);
        assert_eq!(g.action_label(s.state(), 51), "overtake");
        assert_eq!(g.action_label(s.state(), 52), "let go");
        assert_eq!(g.action_label(s.state(), 53), "action 53");
        let o = g.observation(s.state(), 0);
        assert_eq!(o["phase"], "overtake");
        assert_eq!(o["overtake_card"], json!(26));
        assert_eq!(o["row"], json!([18, 26]));
        by(&mut s, 1, &[OVERTAKE]);
        let x = st(&g, &s);
        assert_eq!(x["row"], json!([18, 21, 24, 26]));
        assert_eq!(
            (x["active"].clone(), x["overtaker"].clone()),
            (json!(1), json!(0))
        );
        assert_eq!(
            x["hands"],
            json!([[1, 3, 11, 20, 40, 47], [8, 14, 30, 33, 45, 49]])
        );
        assert_eq!(x["overtake_card"], Value::Null);
        assert_eq!(x["phase"], "play");
        assert_eq!(legal(&g, &s), vec![8, 14, 30, 33, 45, 49]);
        // 14 next to 18: seat 0 holds nothing in 15..17: no overtake node.
        by(&mut s, 1, &[14]);
        assert_eq!(g.current_player(s.state()), 1);
        assert_eq!(st(&g, &s)["row"], json!([14, 18, 21, 24, 26]));
        // 8 next to 14: seat 0 holds 11; it lets go and seat 1 plays on.
        by(&mut s, 1, &[8]);
        assert_eq!(g.current_player(s.state()), 0);
        assert_eq!(st(&g, &s)["overtake_card"], json!(8));
        by(&mut s, 0, &[LET_GO]);
        assert_eq!(g.current_player(s.state()), 1);
        let x = st(&g, &s);
        assert_eq!(x["phase"], "play");
        assert_eq!(x["overtake_card"], Value::Null);
        assert_eq!(x["row"], json!([8, 14, 18, 21, 24, 26]));
        assert_eq!(x["hands"][1], json!([30, 33, 45, 49]));
        // Nothing is refilled while the active player stays.
        assert_eq!(g.observation(s.state(), 1)["hand_sizes"], json!([6, 4]));
    }

    #[test]
    fn both_ends_overtake_forced_pass_refill_and_cleared_row() {
        let g = game_opt(2);
        let mut s = dealt(
            &g,
            &[],
            &[
                &[1, 50, 10, 11, 12, 13, 25, 2, 3],
                &[30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42],
            ],
        );
        assert_eq!(st(&g, &s)["row"], json!([25]));
        // Everything fits a one-card row.
        assert_eq!(legal(&g, &s), vec![1, 10, 11, 12, 13, 50]);
        // 1 goes to the left end (seat 1 holds nothing in 2..24: no overtake node).
        by(&mut s, 0, &[1]);
        assert_eq!(g.current_player(s.state()), 0);
        assert_eq!(st(&g, &s)["row"], json!([1, 25]));
        assert_eq!(legal(&g, &s), vec![50]);
        // 50 goes to the right end; seat 1 holds 30..35 between 25 and 50 and overtakes with all.
        by(&mut s, 0, &[50]);
        assert_eq!(g.current_player(s.state()), 1);
        by(&mut s, 1, &[OVERTAKE]);
        let x = st(&g, &s);
        assert_eq!(x["row"], json!([1, 25, 30, 31, 32, 33, 34, 35, 50]));
        // The active player changed: both refill to 6 (seat 0 from 4, seat 1 from 0).
        assert_eq!(
            x["hands"],
            json!([[2, 3, 10, 11, 12, 13], [36, 37, 38, 39, 40, 41]])
        );
        assert_eq!(
            (x["active"].clone(), x["overtaker"].clone()),
            (json!(1), json!(0))
        );
        assert_eq!(x["passes"], json!(0));
        // Nothing fits below 1 or above 50: pass is forced, and is the only action.
        assert_eq!(legal(&g, &s), vec![PASS]);
        assert!(s.apply(36, Some(1)).is_err());
        by(&mut s, 1, &[PASS]);
        let x = st(&g, &s);
        assert_eq!(x["passes"], json!(1));
        assert_eq!(
            (x["active"].clone(), x["overtaker"].clone()),
            (json!(0), json!(1))
        );
        assert_eq!(x["row"], json!([1, 25, 30, 31, 32, 33, 34, 35, 50]));
        assert_eq!(legal(&g, &s), vec![PASS]);
        // Everyone has passed: the row leaves the game; seat 1 starts a new one from its pile.
        by(&mut s, 0, &[PASS]);
        let x = st(&g, &s);
        assert_eq!(x["passes"], json!(0));
        assert_eq!(x["row"], json!([42]));
        assert_eq!(
            (x["active"].clone(), x["overtaker"].clone()),
            (json!(1), json!(0))
        );
        assert_eq!(x["phase"], "play");
        assert_eq!(x["piles"][1][0], json!(24));
        let o = g.observation(s.state(), 1);
        assert_eq!(o["pile_sizes"], json!([16, 12]));
        assert_eq!(o["hand_sizes"], json!([6, 6]));
        assert_eq!(o["hand"], json!([36, 37, 38, 39, 40, 41]));
        let mut sc = [0i64; 2];
        g.scores(s.state(), &mut sc);
        assert_eq!(sc, [-22, -18]);
        // A pass in the middle of a cycle is reset by the next card placed.
        assert_eq!(legal(&g, &s), vec![36, 37, 38, 39, 40, 41]);
    }

    #[test]
    fn start_from_the_hand_and_the_win() {
        let g = game_opt(5);
        let mut s = dealt(
            &g,
            &[],
            &[
                &[20, 21, 22, 10, 11, 12, 19, 1, 50, 13],
                &[15, 16, 2, 49, 30, 31, 32, 33, 34, 35],
            ],
        );
        let x = st(&g, &s);
        assert_eq!(x["row"], json!([19]));
        assert_eq!(x["hands"][2], json!([3, 4, 5, 6, 7, 8]));
        assert_eq!(x["hands"][3], json!([23, 24, 25, 26, 27, 28]));
        assert_eq!(x["hands"][4], json!([39, 40, 41, 42, 43, 44]));
        by(&mut s, 0, &[20, 21, 22]);
        assert_eq!(g.current_player(s.state()), 0);
        // 12 next to 19: seat 1 holds 15, 16 and overtakes with both.
        by(&mut s, 0, &[12]);
        by(&mut s, 1, &[OVERTAKE]);
        let x = st(&g, &s);
        assert_eq!(x["row"], json!([12, 15, 16, 19, 20, 21, 22]));
        // Refill: seat 0 (2 cards) draws its last 3, seat 1 (4 cards) draws 2.
        assert_eq!(x["hands"][0], json!([1, 10, 11, 13, 50]));
        assert_eq!(x["piles"][0], json!([]));
        assert_eq!(x["hands"][1], json!([2, 30, 31, 32, 33, 49]));
        // Seat 1: 49 (seat 2 holds nothing in 23..48), then 2 (seat 2 holds 3..8: lets go).
        by(&mut s, 1, &[49]);
        assert_eq!(g.current_player(s.state()), 1);
        by(&mut s, 1, &[2]);
        assert_eq!(g.current_player(s.state()), 2);
        by(&mut s, 2, &[LET_GO]);
        assert_eq!(legal(&g, &s), vec![PASS]);
        by(&mut s, 1, &[PASS]);
        assert_eq!(st(&g, &s)["hands"][1], json!([30, 31, 32, 33, 34, 35]));
        by(&mut s, 2, &[PASS]);
        by(&mut s, 3, &[PASS]);
        by(&mut s, 4, &[PASS]);
        assert_eq!(st(&g, &s)["passes"], json!(4));
        // Seat 0 plays both ends (1 and 50), the passes start again from 0.
        assert_eq!(legal(&g, &s), vec![1, 50]);
        by(&mut s, 0, &[50]);
        assert_eq!(st(&g, &s)["passes"], json!(0));
        by(&mut s, 0, &[1, PASS]);
        for seat in 1..=4 {
            by(&mut s, seat, &[PASS]);
        }
        // All five passed; seat 0 starts the new row, but its pile is empty: it picks a card.
        let x = st(&g, &s);
        assert_eq!(x["phase"], "start");
        assert_eq!(x["row"], json!([]));
        assert_eq!(x["active"], json!(0));
        assert_eq!(g.current_player(s.state()), 0);
        assert_eq!(legal(&g, &s), vec![10, 11, 13]);
        assert_eq!(g.action_label(s.state(), 11), "start the row with 11");
        assert_eq!(g.action_label(s.state(), 53), "action 53");
        by(&mut s, 0, &[11]);
        assert_eq!(st(&g, &s)["row"], json!([11]));
        assert_eq!(legal(&g, &s), vec![10, 13]);
        by(&mut s, 0, &[13]);
        assert!(g.winners(s.state()).is_empty());
        // The last card: seat 0 has no card in hand or pile and wins at once.
        by(&mut s, 0, &[10]);
        assert_eq!(g.current_player(s.state()), TERMINAL);
        assert_eq!(g.winners(s.state()), vec![0]);
        let x = st(&g, &s);
        assert_eq!(x["phase"], "over");
        assert_eq!(x["winner"], json!(0));
        assert_eq!(x["row"], json!([10, 11, 13]));
        assert_eq!(
            (x["active"].clone(), x["overtaker"].clone()),
            (json!(0), json!(1))
        );
        let mut sc = [0i64; 5];
        g.scores(s.state(), &mut sc);
        assert_eq!(sc, [0, -6, -10, -10, -10]);
        assert_eq!(g.observation(s.state(), 3)["winner"], json!(0));
        assert!(legal(&g, &s).is_empty());
        assert_eq!(g.action_label(s.state(), 10), "action 10");
    }

    #[test]
    fn an_emptied_hand_moves_the_turn_on() {
        // 3 players, 2 cards removed: seat 2 plays its whole hand; the turn moves on without a
        // pass and everyone refills.
        let g = game(3);
        let mut s = dealt(
            &g,
            &[5, 6],
            &[
                &[10, 12, 14, 16, 18, 20, 30, 1, 2, 3, 4, 7, 8, 9, 11, 13],
                &[
                    22, 24, 26, 28, 31, 33, 15, 17, 19, 21, 23, 25, 27, 29, 32, 34,
                ],
                &[
                    44, 45, 46, 47, 48, 49, 35, 36, 37, 38, 39, 40, 41, 42, 43, 50,
                ],
            ],
        );
        assert_eq!(st(&g, &s)["removed"], json!([5, 6]));
        assert_eq!(st(&g, &s)["row"], json!([30]));
        // Seat 0 plays 20: seat 1 holds 22, 24, 26, 28 → overtakes (compulsory: no node).
        by(&mut s, 0, &[20]);
        assert_eq!(st(&g, &s)["row"], json!([20, 22, 24, 26, 28, 30]));
        // Seat 1 (hand 31, 33, 15, 17 + drawn 19, 21) plays 31: seat 2 holds nothing in between.
        assert_eq!(st(&g, &s)["hands"][1], json!([15, 17, 19, 21, 31, 33]));
        by(&mut s, 1, &[31]);
        assert_eq!(g.current_player(s.state()), 1);
        // 33 (seat 2 holds no 32), 19 (next to 20), 17 (no 18), 15 (no 16).
        by(&mut s, 1, &[33, 19, 17, 15]);
        // 15 next to 17: seat 2 holds nothing in 16. Seat 1 still holds 21: not fitting.
        assert_eq!(legal(&g, &s), vec![PASS]);
        by(&mut s, 1, &[PASS]);
        // Seat 2: 44..49 fit the right end (above 33).
        assert_eq!(legal(&g, &s), vec![44, 45, 46, 47, 48, 49]);
        by(&mut s, 2, &[44, 45, 46, 47, 48]);
        assert_eq!(st(&g, &s)["passes"], json!(0));
        by(&mut s, 2, &[49]);
        // Seat 2's hand is empty: the turn moves on (not a pass) and everyone refills.
        let x = st(&g, &s);
        assert_eq!(
            (x["active"].clone(), x["overtaker"].clone()),
            (json!(0), json!(1))
        );
        assert_eq!(x["passes"], json!(0));
        assert_eq!(x["hands"][2], json!([35, 36, 37, 38, 39, 40]));
        // Seat 0 holds 1, 10, 12, 14, 16, 18 (1 drawn at the overtake): those below 15 fit.
        assert_eq!(st(&g, &s)["hands"][0], json!([1, 10, 12, 14, 16, 18]));
        assert_eq!(legal(&g, &s), vec![1, 10, 12, 14]);
    }

    /// "… ohituskaistalle pyrkivän pelaajan pitää … sanoa Ohitus!, jos hänellä on
    /// ohituskaistalle sopiva kortti." (The player aiming for the overtaking lane MUST say
    /// "Overtake!" if they hold a card that fits the overtaking lane.)
    #[test]
    fn overtaking_is_compulsory() {
        let g = game(2);
        let mut s = dealt(
            &g,
            &[],
            &[
                &[3, 11, 20, 26, 40, 47, 18, 1],
                &[8, 21, 24, 30, 33, 45, 14, 49],
            ],
        );
        // Seat 0 plays 26: seat 1 holds 21, 24 between 18 and 26 and overtakes at once.
        by(&mut s, 0, &[26]);
        let x = st(&g, &s);
        assert_eq!(x["phase"], "play");
        assert_eq!(x["row"], json!([18, 21, 24, 26]));
        assert_eq!(x["overtake_card"], Value::Null);
        assert_eq!(
            (x["active"].clone(), x["overtaker"].clone()),
            (json!(1), json!(0))
        );
        assert_eq!(
            x["hands"],
            json!([[1, 3, 11, 20, 40, 47], [8, 14, 30, 33, 45, 49]])
        );
        // The overtake is not a recorded action: the history holds only the play.
        let h = s.to_json()["history"].as_array().unwrap().clone();
        assert_eq!(h.last(), Some(&json!(26)));
        assert!(!h.contains(&json!(OVERTAKE)));
        // 14 (no overtake), then 8 next to 14: seat 0 holds 11 and must overtake.
        by(&mut s, 1, &[14, 8]);
        let x = st(&g, &s);
        assert_eq!(x["row"], json!([8, 11, 14, 18, 21, 24, 26]));
        assert_eq!(x["active"], json!(0));
        assert_eq!(g.current_player(s.state()), 0);
        assert!(!legal(&g, &s).contains(&LET_GO));
        assert!(s.apply(i64::from(LET_GO), Some(0)).is_err());
        assert!(s.apply(i64::from(OVERTAKE), Some(0)).is_err());
        // The same deal with optional_overtake = true stops at the overtake node.
        let g = game_opt(2);
        let mut s = dealt(
            &g,
            &[],
            &[
                &[3, 11, 20, 26, 40, 47, 18, 1],
                &[8, 21, 24, 30, 33, 45, 14, 49],
            ],
        );
        by(&mut s, 0, &[26]);
        assert_eq!(st(&g, &s)["phase"], "overtake");
        assert_eq!(legal(&g, &s), [OVERTAKE, LET_GO]);
    }

    /// Checks the structural invariants of a state between steps.
    fn check_invariants(g: &TrafficarsOvertaking, x: &TrafficarsOvertakingState, gone: u64) {
        let n = g.players();
        if x.phase == Phase::Deal {
            return;
        }
        assert_eq!(usize::from(x.removed_len), g.removed_count);
        assert_eq!(usize::from(x.dealt), n * g.pile_size);
        assert_eq!(x.used, ALL_CARDS);
        let mut all = gone | x.row;
        assert_eq!(gone & x.row, 0);
        for &c in &x.removed[..usize::from(x.removed_len)] {
            assert_eq!(all & bit(u32::from(c)), 0);
            all |= bit(u32::from(c));
        }
        for s in 0..n {
            assert!(x.hands[s].count_ones() <= HAND_LIMIT);
            assert_eq!(all & x.hands[s], 0);
            all |= x.hands[s];
            for &c in x.pile(s) {
                assert_eq!(all & bit(u32::from(c)), 0);
                all |= bit(u32::from(c));
            }
        }
        // Cards conserved: every card is removed, in a cleared row, the row, a hand or a pile.
        assert_eq!(all, ALL_CARDS);
        assert_eq!(usize::from(x.overtaker), (usize::from(x.active) + 1) % n);
        match x.phase {
            Phase::Play => {
                assert_ne!(x.row, 0);
                assert_ne!(x.hands[usize::from(x.active)], 0);
                assert!(usize::from(x.passes) < n);
            }
            Phase::Start => {
                assert_eq!(x.row, 0);
                assert_eq!(x.pile_count(usize::from(x.active)), 0);
            }
            Phase::Overtake => {
                assert!(
                    g.optional_overtake,
                    "an overtake node with compulsory overtaking"
                );
                let c = u32::from(x.overtake_card);
                assert!(x.row & bit(c) != 0);
                let y = TrafficarsOvertaking::neighbour(x.row, c);
                assert!(x.hands[usize::from(x.overtaker)] & between(c, y) != 0);
            }
            Phase::Over => {
                let w = usize::from(x.winner);
                assert_eq!(x.hands[w], 0);
                assert_eq!(x.pile_count(w), 0);
            }
            Phase::Deal => {}
        }
        if x.phase != Phase::Overtake {
            assert_eq!(x.overtake_card, 0);
        }
        if x.phase != Phase::Over {
            assert_eq!(x.winner, NO_SEAT);
            for s in 0..n {
                assert!(x.hands[s] != 0 || x.pile_count(s) != 0);
            }
        }
    }

    #[test]
    fn random_games_keep_invariants() {
        let mut legal = Vec::new();
        for gi in 0..2000u64 {
            let n = 2 + (gi % 4) as usize;
            let g = if gi % 3 == 0 { game_opt(n) } else { game(n) };
            let mut s = Session::new(Arc::clone(&g), Some(derive_seed(77, gi)));
            let mut bots: Vec<Box<dyn Bot<TrafficarsOvertaking>>> = (0..n)
                .map(|p| -> Box<dyn Bot<TrafficarsOvertaking>> {
                    if (p + gi as usize) % 2 == 0 {
                        Box::new(RandomBot::default())
                    } else {
                        Box::new(GreedyBot::default())
                    }
                })
                .collect();
            for (p, b) in bots.iter_mut().enumerate() {
                b.reset(&g, p, SplitMix64::new(derive_seed(gi, p as u64)));
            }
            let detailed = gi % 50 == 0;
            let mut gone = 0u64;
            let mut steps = 0u32;
            while g.current_player(s.state()) != TERMINAL {
                let x = *s.state();
                check_invariants(&g, &x, gone);
                let cp = g.current_player(&x);
                g.legal_actions(&x, &mut legal);
                assert!(!legal.is_empty());
                if detailed {
                    for a in 0..NUM_ACTIONS {
                        let _ = g.action_label(&x, a);
                    }
                    for p in 0..n {
                        let o = g.observation(&x, p);
                        assert_eq!(o["hand"], json!(cards_of(x.hands[p])));
                    }
                }
                let a = bots[cp as usize].act(&g, &x, &legal);
                s.apply(i64::from(a), Some(i64::from(cp))).unwrap();
                let y = *s.state();
                if x.row & !y.row != 0 {
                    gone |= x.row;
                }
                for b in bots.iter_mut() {
                    b.observe(&g, &y);
                }
                steps += 1;
                assert!(steps < 5_000);
            }
            let x = *s.state();
            check_invariants(&g, &x, gone);
            let w = g.winners(&x);
            assert_eq!(w.len(), 1);
            let mut sc = vec![0i64; n];
            g.scores(&x, &mut sc);
            assert_eq!(sc[w[0]], 0);
            assert!(sc.iter().enumerate().all(|(p, &v)| p == w[0] || v < 0));
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
            let g = game(2 + (gi % 4) as usize);
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
    fn observation_and_state_keys_are_exact() {
        let g = game(4);
        let s = Session::new(Arc::clone(&g), Some(5));
        let keys = |v: &Value| {
            let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
            k.sort();
            k
        };
        let mut want = vec![
            "seat",
            "phase",
            "row",
            "hand",
            "pile_sizes",
            "hand_sizes",
            "active",
            "overtaker",
            "passes",
            "overtake_card",
            "winner",
        ];
        want.sort();
        assert_eq!(keys(&g.observation(s.state(), 2)), want);
        let mut want = vec![
            "phase",
            "row",
            "active",
            "overtaker",
            "passes",
            "overtake_card",
            "winner",
            "removed",
            "piles",
            "hands",
        ];
        want.sort();
        assert_eq!(keys(&st(&g, &s)), want);
        // Other seats' hands are hidden: only sizes.
        let o = g.observation(s.state(), 2);
        assert_eq!(o["hand"], json!(cards_of(s.state().hands[2])));
        assert_eq!(o["hand_sizes"], json!([6, 6, 6, 6]));
        assert_eq!(o["pile_sizes"], json!([5, 6, 6, 6]));
    }

    #[test]
    fn greedy_ignores_hidden_information() {
        let g = game(4);
        let mut legal = Vec::new();
        for gi in 0..100u64 {
            let mut s = Session::new(Arc::clone(&g), Some(derive_seed(3, gi)));
            let mut bots = vec![GreedyBot::default(); 4];
            while g.current_player(s.state()) != TERMINAL {
                let cp = g.current_player(s.state()) as usize;
                g.legal_actions(s.state(), &mut legal);
                let mut probe = bots[cp].clone();
                let a = bots[cp].act(&g, s.state(), &legal);
                let mut hidden = *s.state();
                for p in (0..4).filter(|&p| p != cp) {
                    hidden.hands[p] = 0;
                    hidden.piles[p] = [0; MAX_PILE];
                }
                hidden.piles[cp] = [0; MAX_PILE];
                hidden.removed = [0; 4];
                assert_eq!(probe.act(&g, &hidden, &legal), a);
                s.apply(i64::from(a), None).unwrap();
                for b in bots.iter_mut() {
                    b.observe(&g, s.state());
                }
            }
        }
    }

    /// Win share of seat-rotated `specs` over `games` seeded games.
    fn win_shares(g: &TrafficarsOvertaking, specs: &[&str], games: u64, seed: u64) -> Vec<f64> {
        let n = g.players();
        let mut shares = vec![0.0; n];
        let mut state = g.initial_state();
        let (mut legal, mut chance) = (Vec::new(), Vec::new());
        for gi in 0..games {
            let rot = (gi % n as u64) as usize;
            let mut bots: Vec<Box<dyn Bot<TrafficarsOvertaking>>> = (0..n)
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
            for &p in &g.winners(&state) {
                shares[(p + rot) % n] += 1.0;
            }
        }
        shares.iter().map(|s| s / games as f64).collect()
    }

    #[test]
    fn greedy_beats_random() {
        let games = if cfg!(debug_assertions) {
            2_000
        } else {
            20_000
        };
        for n in 2..=5 {
            let g = game(n);
            let mut specs = vec!["random"; n];
            specs[0] = "greedy";
            let r = win_shares(&g, &specs, games, 31 + n as u64);
            println!(
                "{n} players: greedy {:.4} vs {} random (fair share {:.4})",
                r[0],
                n - 1,
                1.0 / n as f64
            );
            assert!(r[0] > 1.4 / n as f64, "{n} players: {r:?}");
        }
    }
}
