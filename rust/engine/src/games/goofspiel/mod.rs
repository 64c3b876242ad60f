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

use crate::error::{EngineError, Result};
use crate::game::{Bot, Game, CHANCE, TERMINAL};
use crate::options::{OptionReader, OptionSpec, OptionValues};
use crate::rng::SplitMix64;
use crate::tensor::TensorWriter;
use serde_json::{json, Map, Value};

/// The largest `num_cards`.
const MAX_CARDS: usize = 60;
/// The default `num_cards`.
const DEFAULT_CARDS: i64 = 13;

/// The bit of id `a` (card `a + 1`) in a card bitset, or 0 if `a` is out of range.
#[inline]
fn bit(a: u32) -> u64 {
    if (a as usize) < MAX_CARDS {
        1u64 << a
    } else {
        0
    }
}

/// The card values (id + 1) of a bitset, in increasing order.
fn values_of(mut mask: u64) -> Vec<u32> {
    let mut out = Vec::with_capacity(mask.count_ones() as usize);
    while mask != 0 {
        out.push(mask.trailing_zeros() + 1);
        mask &= mask - 1;
    }
    out
}

/// Set bits of every byte value (a table, as the target may lack a popcount instruction).
const BYTE_ONES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// The index of the set bit of rank `u` (0-based, in increasing order) of `mask`; `u` must be
/// below the number of set bits (otherwise the answer is 64 or more, or some set bit).
#[inline]
fn select_bit(mut mask: u64, mut u: u32) -> u32 {
    let mut base = 0u32;
    // A byte holds at most 8 set bits: while u >= 8 the wanted bit lies beyond the lowest byte.
    while u >= 8 && base < 56 {
        u -= u32::from(BYTE_ONES[(mask & 0xFF) as usize]);
        mask >>= 8;
        base += 8;
    }
    for _ in 0..u {
        mask &= mask.wrapping_sub(1);
    }
    base + mask.trailing_zeros()
}

/// Writes the set bits of `mask` (in increasing order) into `out`, cleared first.
#[inline(always)]
fn push_bits(mut mask: u64, out: &mut Vec<u32>) {
    out.clear();
    while mask != 0 {
        out.push(mask.trailing_zeros());
        mask &= mask - 1;
    }
}

/// Reveals both bids of the current turn, gives the point card to the higher bid (nobody on equal
/// bids), records the turn and clears it.
fn score_turn(st: &mut GoofspielState, bid0: u8, bid1: u8) {
    st.hands[0] &= !bit(u32::from(bid0) - 1);
    st.hands[1] &= !bit(u32::from(bid1) - 1);
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

/// `null` for 0, else the number.
fn opt(v: u8) -> Value {
    if v == 0 {
        Value::Null
    } else {
        json!(v)
    }
}

impl Goofspiel {
    /// N, the number of cards per suit.
    pub fn num_cards(&self) -> u32 {
        self.num_cards
    }

    fn hands_json(st: &GoofspielState) -> Value {
        json!([values_of(st.hands[0]), values_of(st.hands[1])])
    }

    fn bids_json(st: &GoofspielState) -> Value {
        Value::Array(st.done().iter().map(|t| json!(t.bids)).collect())
    }

    fn point_history_json(st: &GoofspielState) -> Value {
        Value::Array(st.done().iter().map(|t| json!(t.point)).collect())
    }
}

impl Game for Goofspiel {
    type State = GoofspielState;

    const ID: &'static str = "goofspiel";

    fn option_specs() -> Vec<OptionSpec> {
        vec![OptionSpec::int(
            "num_cards",
            DEFAULT_CARDS,
            1,
            MAX_CARDS as i64,
            "N: bid cards per seat and point cards, 1..=60",
        )]
    }

    fn player_range() -> (usize, usize) {
        (2, 2)
    }

    fn from_options(players: usize, options: &Map<String, Value>) -> Result<Self> {
        let mut r = OptionReader::new(Self::ID, Self::option_specs(), options);
        let n = r.int("num_cards")?;
        let option_values = r.finish()?;
        if players != 2 {
            return Err(EngineError::InvalidOption(format!(
                "{}: players must be in 2..=2, got {players}",
                Self::ID
            )));
        }
        let num_cards = n as u32;
        Ok(Self {
            num_cards,
            full: (1u64 << num_cards) - 1,
            option_values,
        })
    }

    fn option_values(&self) -> &OptionValues {
        &self.option_values
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
    fn legal_actions(&self, st: &GoofspielState, out: &mut Vec<u32>) {
        let mask = match st.to_move {
            CHANCE => st.remaining,
            0 => st.hands[0],
            1 => st.hands[1],
            _ => 0,
        };
        push_bits(mask, out);
    }

    fn chance_outcomes(&self, st: &GoofspielState, out: &mut Vec<(u32, u64)>) {
        out.clear();
        if st.to_move == CHANCE {
            let mut m = st.remaining;
            while m != 0 {
                out.push((m.trailing_zeros(), 1));
                m &= m - 1;
            }
        }
    }

    /// The `u`-th remaining point card for `u = rng.below(cards left)`: exactly the default pick,
    /// as every outcome has weight 1.
    #[inline(always)]
    fn sample_chance(
        &self,
        st: &GoofspielState,
        rng: &mut SplitMix64,
        _buf: &mut Vec<(u32, u64)>,
    ) -> u32 {
        // At a chance node exactly N - turn point cards are left (at least one).
        if st.to_move != CHANCE || st.remaining == 0 {
            return 0;
        }
        let total = self.num_cards - u32::from(st.turn);
        select_bit(st.remaining, rng.below(u64::from(total)) as u32)
    }

    #[inline(always)]
    fn apply(&self, st: &mut GoofspielState, action: u32) {
        let b = bit(action);
        match st.to_move {
            CHANCE => {
                if st.remaining & b == 0 {
                    return;
                }
                st.remaining &= !b;
                st.point_card = action as u8 + 1;
                st.to_move = 0;
            }
            0 => {
                if st.hands[0] & b == 0 {
                    return;
                }
                st.pending = action as u8 + 1;
                st.to_move = 1;
            }
            1 => {
                if st.hands[1] & b == 0 || st.pending == 0 {
                    return;
                }
                score_turn(st, st.pending, action as u8 + 1);
                if st.remaining != 0 && st.remaining & (st.remaining - 1) == 0 {
                    // As in OpenSpiel, a last turn with nothing to choose is played at once.
                    st.point_card = st.remaining.trailing_zeros() as u8 + 1;
                    st.remaining = 0;
                    let last = |hand: u64| hand.trailing_zeros() as u8 + 1;
                    score_turn(st, last(st.hands[0]), last(st.hands[1]));
                }
                st.to_move = if st.remaining == 0 { TERMINAL } else { CHANCE };
            }
            _ => {}
        }
    }

    fn action_label(&self, st: &GoofspielState, action: u32) -> String {
        match st.to_move {
            CHANCE => format!("point card {}", u64::from(action) + 1),
            0 | 1 => format!("bid {}", u64::from(action) + 1),
            _ => format!("action {action}"),
        }
    }

    fn scores(&self, st: &GoofspielState, out: &mut [i64]) {
        for (o, &p) in out.iter_mut().zip(st.points.iter()) {
            *o = i64::from(p);
        }
    }

    fn winners(&self, st: &GoofspielState) -> Vec<usize> {
        let [a, b] = st.points;
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => vec![0],
            std::cmp::Ordering::Less => vec![1],
            std::cmp::Ordering::Equal => vec![0, 1],
        }
    }

    fn observation(&self, st: &GoofspielState, player: usize) -> Value {
        json!({
            "seat": player,
            "turn": st.turn,
            "point_card": opt(st.point_card),
            "remaining_points": values_of(st.remaining),
            "hands": Self::hands_json(st),
            "points": st.points,
            "bids": Self::bids_json(st),
            "point_history": Self::point_history_json(st),
            "committed": [st.pending != 0, false],
            "own_bid": opt(st.pending_of(player)),
        })
    }

    fn observation_shape(&self) -> Vec<usize> {
        let n = self.num_cards as usize;
        vec![7 + 5 * n + 3 * n * n]
    }

    fn observation_tensor(&self, st: &GoofspielState, player: usize, out: &mut [f32]) {
        let n = self.num_cards as usize;
        let total = f64::from(self.num_cards * (self.num_cards + 1) / 2);
        let mut w = TensorWriter::new(out);
        w.one_hot(Some(player), 2);
        w.push_scaled(f64::from(st.turn), n as f64);
        w.one_hot(usize::from(st.point_card).checked_sub(1), n);
        w.multi_hot(st.remaining, 0, n);
        w.multi_hot(st.hands[0], 0, n);
        w.multi_hot(st.hands[1], 0, n);
        w.push_scaled(f64::from(st.points[0]), total);
        w.push_scaled(f64::from(st.points[1]), total);
        let done = st.done();
        for t in 0..n {
            match done.get(t) {
                Some(rec) => {
                    w.one_hot(usize::from(rec.point).checked_sub(1), n);
                    w.one_hot(usize::from(rec.bids[0]).checked_sub(1), n);
                    w.one_hot(usize::from(rec.bids[1]).checked_sub(1), n);
                }
                None => w.skip(3 * n),
            }
        }
        w.push_bool(st.pending_of(0) != 0);
        w.push_bool(st.pending_of(1) != 0);
        w.one_hot(usize::from(st.pending_of(player)).checked_sub(1), n);
        debug_assert_eq!(w.position(), 7 + 5 * n + 3 * n * n);
    }

    fn state_json(&self, st: &GoofspielState) -> Value {
        json!({
            "turn": st.turn,
            "point_card": opt(st.point_card),
            "remaining_points": values_of(st.remaining),
            "hands": Self::hands_json(st),
            "points": st.points,
            "bids": Self::bids_json(st),
            "point_history": Self::point_history_json(st),
            "pending": [opt(st.pending_of(0)), opt(st.pending_of(1))],
        })
    }

    fn bot_names() -> &'static [&'static str] {
        &["greedy"]
    }

    fn make_bot(&self, name: &str, param: Option<&str>) -> Option<Result<Box<dyn Bot<Self>>>> {
        match (name, param) {
            ("greedy", None) => Some(Ok(Box::new(GreedyBot))),
            ("greedy", Some(p)) => Some(Err(EngineError::InvalidOption(format!(
                "{}: bot greedy takes no parameter, got {p:?}",
                Self::ID
            )))),
            _ => None,
        }
    }
}

/// The `greedy` bot: rank matching.
///
/// It bids the card of its hand whose rank (0-based, in increasing order) equals the rank of the
/// revealed point card among the point cards still in play (the revealed one and the unrevealed
/// ones). Both sets always have the same size, and in a game the bot plays from the start its
/// hand is exactly that set of values, so this is "bid the card equal to the point card": it never
/// wastes a high card on a low point card, and it takes each point card unless the opponent bids
/// higher. It reads only the public point card and remaining point cards and its own hand (never
/// the opponent's pending bid).
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedyBot;

impl GreedyBot {
    /// The rank of the current point card among the point cards still in play.
    fn rank(st: &GoofspielState) -> usize {
        let below = bit(u32::from(st.point_card).wrapping_sub(1)).wrapping_sub(1);
        (st.remaining & below).count_ones() as usize
    }
}

impl Bot<Goofspiel> for GreedyBot {
    fn reset(&mut self, _game: &Goofspiel, _seat: usize, _rng: SplitMix64) {}

    fn act(&mut self, _game: &Goofspiel, st: &GoofspielState, legal: &[u32]) -> u32 {
        let k = Self::rank(st);
        legal.get(k).or(legal.last()).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::RandomBot;
    use crate::rng::derive_seed;
    use crate::session::Session;
    use crate::sim::{make_bot, play_game, simulate, SimConfig};
    use std::sync::Arc;

    fn game(opts: Value) -> Arc<Goofspiel> {
        let map = opts.as_object().cloned().unwrap_or_default();
        Arc::new(Goofspiel::from_options(2, &map).unwrap())
    }

    /// A game with explicit chance nodes and its rules.
    struct T {
        g: Arc<Goofspiel>,
        s: Session<Goofspiel>,
    }

    impl T {
        fn new(n: u32) -> Self {
            let g = game(json!({ "num_cards": n }));
            Self {
                s: Session::new(Arc::clone(&g), None),
                g,
            }
        }

        /// Reveals point card `point`, then seat 0 bids `b0` and seat 1 bids `b1`. The last turn
        /// is forced and played by the engine itself: then this checks that it was this one.
        fn turn(&mut self, point: u32, b0: u32, b1: u32) {
            if self.cp() == TERMINAL {
                let last = self.s.state().done().last().copied().unwrap();
                assert_eq!((last.point, last.bids), (point as u8, [b0 as u8, b1 as u8]));
                return;
            }
            self.s.apply(i64::from(point) - 1, Some(-1)).unwrap();
            self.s.apply(i64::from(b0) - 1, Some(0)).unwrap();
            self.s.apply(i64::from(b1) - 1, Some(1)).unwrap();
        }

        fn cp(&self) -> i32 {
            self.g.current_player(self.s.state())
        }

        fn scores(&self) -> Vec<i64> {
            let mut out = vec![0; 2];
            self.g.scores(self.s.state(), &mut out);
            out
        }

        fn legal(&self) -> Vec<u32> {
            let mut out = Vec::new();
            self.g.legal_actions(self.s.state(), &mut out);
            out
        }

        fn obs(&self, p: usize) -> Value {
            self.g.observation(self.s.state(), p)
        }

        fn st(&self) -> Value {
            self.s.to_json()["state"].clone()
        }

        fn label(&self, a: u32) -> String {
            self.g.action_label(self.s.state(), a)
        }
    }

    #[test]
    fn higher_bid_scores_the_point_card() {
        let mut t = T::new(5);
        t.turn(4, 5, 2);
        assert_eq!(t.scores(), vec![4, 0]);
        t.turn(2, 1, 3);
        assert_eq!(t.scores(), vec![4, 2]);
        let o = t.obs(0);
        assert_eq!(o["turn"], json!(2));
        assert_eq!(o["points"], json!([4, 2]));
        assert_eq!(o["bids"], json!([[5, 2], [1, 3]]));
        assert_eq!(o["point_history"], json!([4, 2]));
        assert_eq!(o["hands"], json!([[2, 3, 4], [1, 4, 5]]));
        assert_eq!(o["remaining_points"], json!([1, 3, 5]));
        assert_eq!(o["point_card"], Value::Null);
        assert_eq!(t.cp(), CHANCE);
        assert_eq!(t.legal(), vec![0, 2, 4]);
        assert_eq!(
            t.st(),
            json!({
                "turn": 2,
                "point_card": null,
                "remaining_points": [1, 3, 5],
                "hands": [[2, 3, 4], [1, 4, 5]],
                "points": [4, 2],
                "bids": [[5, 2], [1, 3]],
                "point_history": [4, 2],
                "pending": [null, null],
            })
        );
        t.s.apply(4, None).unwrap();
        assert_eq!(t.obs(1)["point_card"], json!(5));
        assert_eq!(t.obs(1)["remaining_points"], json!([1, 3]));
        assert_eq!(t.cp(), 0);
        assert_eq!(t.legal(), vec![1, 2, 3]);
        t.s.apply(3, None).unwrap();
        assert_eq!(t.cp(), 1);
        assert_eq!(t.legal(), vec![0, 3, 4]);
        t.s.apply(4, None).unwrap();
        assert_eq!(t.scores(), vec![4, 7]);
        t.turn(1, 2, 1);
        t.turn(3, 3, 4);
        assert_eq!(t.cp(), TERMINAL);
        assert_eq!(t.scores(), vec![5, 10]);
        assert_eq!(t.g.winners(t.s.state()), vec![1]);
        assert!(t.legal().is_empty());
        let o = t.obs(1);
        assert_eq!(o["hands"], json!([[], []]));
        assert_eq!(o["remaining_points"], json!([]));
        assert_eq!(o["point_card"], Value::Null);
        assert_eq!(o["bids"], json!([[5, 2], [1, 3], [4, 5], [2, 1], [3, 4]]));
        assert_eq!(o["point_history"], json!([4, 2, 5, 1, 3]));
        assert_eq!(o["turn"], json!(5));
    }

    #[test]
    fn equal_bids_give_the_card_to_nobody() {
        let mut t = T::new(5);
        t.turn(5, 3, 3);
        assert_eq!(t.scores(), vec![0, 0]);
        assert_eq!(t.obs(0)["point_history"], json!([5]));
        assert_eq!(t.obs(1)["bids"], json!([[3, 3]]));
        assert_eq!(t.obs(1)["hands"], json!([[1, 2, 4, 5], [1, 2, 4, 5]]));
        // The point card is gone for good: it is not dealt again.
        assert_eq!(t.legal(), vec![0, 1, 2, 3]);
        t.turn(1, 5, 4);
        assert_eq!(t.scores(), vec![1, 0]);
    }

    #[test]
    fn more_points_wins_and_a_draw_is_won_by_both() {
        let mut t = T::new(3);
        t.turn(1, 3, 1);
        t.turn(2, 1, 2);
        t.turn(3, 2, 3);
        assert_eq!(t.cp(), TERMINAL);
        assert_eq!(t.scores(), vec![1, 5]);
        assert_eq!(t.g.winners(t.s.state()), vec![1]);

        let mut t = T::new(2);
        t.turn(1, 1, 1);
        t.turn(2, 2, 2);
        assert_eq!((t.cp(), t.scores()), (TERMINAL, vec![0, 0]));
        assert_eq!(t.g.winners(t.s.state()), vec![0, 1]);

        let mut t = T::new(3);
        t.turn(3, 3, 1);
        t.turn(1, 1, 2);
        t.turn(2, 2, 3);
        assert_eq!((t.cp(), t.scores()), (TERMINAL, vec![3, 3]));
        assert_eq!(t.g.winners(t.s.state()), vec![0, 1]);

        let mut t = T::new(3);
        t.turn(2, 3, 1);
        t.turn(3, 1, 2);
        t.turn(1, 2, 3);
        assert_eq!(t.scores(), vec![2, 4]);
        assert_eq!(t.g.winners(t.s.state()), vec![1]);
        let mut t = T::new(3);
        t.turn(3, 2, 1);
        t.turn(1, 1, 2);
        t.turn(2, 3, 3);
        assert_eq!(t.scores(), vec![3, 1]);
        assert_eq!(t.g.winners(t.s.state()), vec![0]);
    }

    #[test]
    fn a_pending_bid_is_hidden_from_seat_1() {
        let mut t = T::new(5);
        t.s.apply(0, None).unwrap();
        let before = t.obs(1);
        t.s.apply(4, Some(0)).unwrap();
        let seen = t.obs(1);
        assert_eq!(seen["own_bid"], Value::Null);
        assert_eq!(seen["committed"], json!([true, false]));
        assert_eq!(seen["hands"], json!([[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]]));
        assert_eq!(seen["bids"], json!([]));
        assert_eq!(before["committed"], json!([false, false]));
        let mine = t.obs(0);
        assert_eq!(mine["own_bid"], json!(5));
        assert_eq!(mine["committed"], json!([true, false]));
        assert_eq!(t.st()["pending"], json!([5, null]));
        // Seat 1 sees exactly the same whatever seat 0 bid.
        for b in 0..5 {
            let mut u = T::new(5);
            u.s.apply(0, None).unwrap();
            u.s.apply(b, None).unwrap();
            assert_eq!(u.obs(1), seen);
            assert_eq!(u.obs(0)["own_bid"], json!(b + 1));
        }
        // Both bids are revealed together once seat 1 has bid.
        t.s.apply(1, Some(1)).unwrap();
        assert_eq!(t.obs(1)["bids"], json!([[5, 2]]));
        assert_eq!(t.obs(1)["committed"], json!([false, false]));
        assert_eq!(t.obs(0)["own_bid"], Value::Null);
        assert_eq!(t.st()["pending"], json!([null, null]));
    }

    #[test]
    fn ids_and_labels() {
        let mut t = T::new(4);
        assert_eq!(t.g.num_actions(), 4);
        assert_eq!(t.cp(), CHANCE);
        assert_eq!(t.legal(), vec![0, 1, 2, 3]);
        let mut outs = Vec::new();
        t.g.chance_outcomes(t.s.state(), &mut outs);
        assert_eq!(outs, vec![(0, 1), (1, 1), (2, 1), (3, 1)]);
        assert_eq!(t.label(2), "point card 3");
        assert_eq!(t.label(0), "point card 1");
        t.s.apply(2, None).unwrap();
        assert_eq!(t.obs(0)["point_card"], json!(3));
        assert_eq!(t.cp(), 0);
        assert_eq!(t.label(0), "bid 1");
        assert_eq!(t.label(3), "bid 4");
        t.g.chance_outcomes(t.s.state(), &mut outs);
        assert!(outs.is_empty());
        t.s.apply(3, None).unwrap();
        assert_eq!(t.cp(), 1);
        assert_eq!(t.legal(), vec![0, 1, 2, 3]);
        assert_eq!(t.label(1), "bid 2");
        t.s.apply(0, None).unwrap();
        assert_eq!(t.cp(), CHANCE);
        assert_eq!(t.legal(), vec![0, 1, 3]);
        assert_eq!(t.obs(0)["hands"], json!([[1, 2, 3], [2, 3, 4]]));
        assert_eq!(t.obs(0)["bids"], json!([[4, 1]]));
        assert_eq!(t.scores(), vec![3, 0]);
        // Unavailable cards are refused, the state is unchanged.
        let before = t.s.to_json();
        assert!(t.s.apply(2, None).is_err());
        assert!(t.s.apply(4, None).is_err());
        assert!(t.s.apply(-1, None).is_err());
        t.s.apply(1, None).unwrap();
        assert!(t.s.apply(3, Some(0)).is_err());
        t.s.apply(2, Some(0)).unwrap();
        assert!(t.s.apply(0, Some(1)).is_err());
        assert_ne!(t.s.to_json(), before);
        t.s.apply(2, Some(1)).unwrap();
        t.turn(4, 2, 4);
        t.turn(1, 1, 2);
        assert_eq!(t.scores(), vec![3, 5]);
        assert_eq!(t.cp(), TERMINAL);
        for a in 0..4 {
            assert_eq!(t.label(a), format!("action {a}"));
        }
        assert!(t.s.apply(0, None).is_err());
    }

    #[test]
    fn num_cards_option() {
        let g = game(json!({}));
        assert_eq!(Value::Object(g.options()), json!({"num_cards": 13}));
        assert_eq!((g.num_actions(), g.num_cards()), (13, 13));
        for bad in [
            json!({"num_cards": 0}),
            json!({"num_cards": 61}),
            json!({"num_cards": "13"}),
        ] {
            let map = bad.as_object().cloned().unwrap_or_default();
            assert!(Goofspiel::from_options(2, &map).is_err(), "{bad}");
        }
        let bad = json!({"num_cards": 13.0});
        assert!(Goofspiel::from_options(2, bad.as_object().unwrap()).is_err());
        let bad = json!({"points_order": "random"});
        assert!(Goofspiel::from_options(2, bad.as_object().unwrap()).is_err());
        assert!(Goofspiel::from_options(3, &Map::new()).is_err());
        assert!(crate::registry::make("goofspiel", 1, &Map::new()).is_err());
        assert!(crate::registry::make("goofspiel", 3, &Map::new()).is_err());
        let h = crate::registry::make("goofspiel", 2, &Map::new()).unwrap();
        assert_eq!((h.id(), h.num_actions()), ("goofspiel", 13));
        assert!(crate::registry::games().iter().any(|i| i.id == "goofspiel"
            && i.players == (2, 2)
            && i.bots == vec!["random", "greedy"]));
        assert!(g.make_bot("greedy", None).is_some_and(|b| b.is_ok()));
        assert!(g.make_bot("greedy", Some("1")).is_some_and(|b| b.is_err()));
        assert!(g.make_bot("clever", None).is_none());

        // One card: one turn, always a tie.
        let mut t = T::new(1);
        assert_eq!(t.g.num_actions(), 1);
        assert_eq!(t.legal(), vec![0]);
        assert_eq!(t.label(0), "point card 1");
        t.turn(1, 1, 1);
        assert_eq!((t.cp(), t.scores()), (TERMINAL, vec![0, 0]));
        assert_eq!(t.g.winners(t.s.state()), vec![0, 1]);
        assert_eq!(t.st()["bids"], json!([[1, 1]]));
        assert_eq!(t.label(0), "action 0");

        // Sixty cards: seat 0 bids high to low, seat 1 low to high; never a tie.
        let mut t = T::new(60);
        assert_eq!(t.legal(), (0..60).collect::<Vec<_>>());
        assert_eq!(t.label(59), "point card 60");
        for i in 0..60 {
            t.turn(60 - i, 60 - i, 1 + i);
            // After the 59th turn the forced 60th is played at once.
            let expected = if i + 1 == 59 { 60 } else { i + 1 };
            assert_eq!(t.obs(0)["turn"], json!(expected));
        }
        assert_eq!((t.cp(), t.scores()), (TERMINAL, vec![1830 - 465, 465]));
        assert_eq!(t.g.winners(t.s.state()), vec![0]);
        let back = Session::from_json(Arc::clone(&t.g), &t.s.to_json()).unwrap();
        assert_eq!(back.state(), t.s.state());
    }

    #[test]
    fn observation_and_state_keys_are_exact() {
        let g = game(json!({}));
        let s = Session::new(Arc::clone(&g), Some(5));
        let keys = |v: &Value| {
            let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
            k.sort();
            k
        };
        let mut want = vec![
            "seat",
            "turn",
            "point_card",
            "remaining_points",
            "hands",
            "points",
            "bids",
            "point_history",
            "committed",
            "own_bid",
        ];
        want.sort();
        assert_eq!(keys(&g.observation(s.state(), 1)), want);
        assert_eq!(g.observation(s.state(), 1)["seat"], json!(1));
        let mut want = vec![
            "turn",
            "point_card",
            "remaining_points",
            "hands",
            "points",
            "bids",
            "point_history",
            "pending",
        ];
        want.sort();
        assert_eq!(keys(&s.to_json()["state"]), want);
        // Before anything happens.
        let x = g.initial_state();
        let all: Vec<u32> = (1..=13).collect();
        assert_eq!(
            g.observation(&x, 0),
            json!({
                "seat": 0,
                "turn": 0,
                "point_card": null,
                "remaining_points": all,
                "hands": [all, all],
                "points": [0, 0],
                "bids": [],
                "point_history": [],
                "committed": [false, false],
                "own_bid": null,
            })
        );
    }

    /// Checks the structural invariants of a state between steps.
    fn check_invariants(g: &Goofspiel, x: &GoofspielState) {
        let full = g.full;
        let turns = x.done();
        assert_eq!(turns.len(), usize::from(x.turn));
        let (mut pts, mut used0, mut used1, mut seen) = ([0u32; 2], 0u64, 0u64, 0u64);
        for r in turns {
            let (p, [b0, b1]) = (u32::from(r.point), r.bids);
            assert!((1..=g.num_cards).contains(&p));
            for (used, b) in [(&mut used0, b0), (&mut used1, b1)] {
                let m = bit(u32::from(b) - 1);
                assert_eq!(*used & m, 0, "card {b} bid twice");
                *used |= m;
            }
            assert_eq!(seen & bit(p - 1), 0);
            seen |= bit(p - 1);
            pts[0] += if b0 > b1 { p } else { 0 };
            pts[1] += if b1 > b0 { p } else { 0 };
        }
        assert_eq!(x.points, pts);
        assert_eq!(x.hands[0], full & !used0);
        assert_eq!(x.hands[1], full & !used1);
        let current = if x.point_card == 0 {
            0
        } else {
            bit(u32::from(x.point_card) - 1)
        };
        assert_eq!(x.remaining & (seen | current), 0);
        assert_eq!(x.remaining | seen | current, full);
        assert_eq!(x.remaining & !full, 0);
        let left = g.num_cards - u32::from(x.turn);
        assert_eq!(x.hands[0].count_ones(), left);
        assert_eq!(x.hands[1].count_ones(), left);
        match x.to_move {
            CHANCE => assert!(x.point_card == 0 && x.pending == 0 && left > 0),
            0 => assert!(x.point_card != 0 && x.pending == 0),
            1 => assert!(x.point_card != 0 && x.hands[0] & bit(u32::from(x.pending) - 1) != 0),
            TERMINAL => assert!(left == 0 && x.point_card == 0 && x.pending == 0),
            other => panic!("bad player {other}"),
        }
    }

    #[test]
    fn random_games_keep_invariants() {
        let mut legal = Vec::new();
        let mut outs = Vec::new();
        for gi in 0..10_000u64 {
            let n = if gi % 2 == 0 {
                13
            } else {
                1 + (gi / 2 % 60) as u32
            };
            let g = game(json!({ "num_cards": n }));
            let mut s = Session::new(Arc::clone(&g), Some(derive_seed(99, gi)));
            let mut bot = RandomBot::default();
            Bot::<Goofspiel>::reset(&mut bot, &*g, 0, SplitMix64::new(derive_seed(100, gi)));
            let detailed = gi % 100 == 0;
            let mut steps = 0;
            while g.current_player(s.state()) != TERMINAL {
                let x = *s.state();
                check_invariants(&g, &x);
                let cp = g.current_player(&x);
                assert!(cp == 0 || cp == 1);
                g.legal_actions(&x, &mut legal);
                assert_eq!(legal.len() as u32, x.hands[cp as usize].count_ones());
                if detailed {
                    for a in 0..g.num_actions() + 2 {
                        let _ = g.action_label(&x, a);
                    }
                    for p in 0..2 {
                        let o = g.observation(&x, p);
                        assert_eq!(o["hands"][p], json!(values_of(x.hands[p])));
                        assert_eq!(o["own_bid"], opt(x.pending_of(p)));
                    }
                    g.chance_outcomes(&x, &mut outs);
                    assert!(outs.is_empty());
                }
                let a = Bot::<Goofspiel>::act(&mut bot, &*g, &x, &legal);
                s.apply(i64::from(a), Some(i64::from(cp))).unwrap();
                steps += 1;
            }
            let x = *s.state();
            check_invariants(&g, &x);
            // The forced last turn (for N >= 2) has no nodes.
            let explicit_turns = if n == 1 { 1 } else { n - 1 };
            assert_eq!(steps, 2 * explicit_turns);
            assert_eq!(
                s.to_json()["history"].as_array().unwrap().len() as u32,
                3 * explicit_turns
            );
            let w = g.winners(&x);
            let [a, b] = x.points;
            let total: u32 = x.done().iter().map(|r| u32::from(r.point)).sum();
            assert_eq!(total, n * (n + 1) / 2);
            assert!(a + b <= total);
            assert_eq!(
                w,
                if a > b {
                    vec![0]
                } else if b > a {
                    vec![1]
                } else {
                    vec![0, 1]
                }
            );
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
        let mut chance_nodes = 0u64;
        for gi in 0..400u64 {
            let g = game(json!({ "num_cards": 1 + gi % 60 }));
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
        // Every rank of every bitset shape picks the same bit as a plain scan.
        let mut r = SplitMix64::new(11);
        for _ in 0..20_000 {
            let m = r.next() & ((1u64 << 60) - 1);
            let total = m.count_ones();
            if total > 0 {
                let u = r.below(u64::from(total)) as u32;
                let mut scan = m;
                for _ in 0..u {
                    scan &= scan - 1;
                }
                assert_eq!(select_bit(m, u), scan.trailing_zeros());
            }
        }
        // Not a chance node: the default's answer (0, generator untouched).
        let mut t = T::new(5);
        t.s.apply(3, None).unwrap();
        let mut r = SplitMix64::new(1);
        assert_eq!(t.g.sample_chance(t.s.state(), &mut r, &mut buf), 0);
        assert_eq!(r, SplitMix64::new(1));
    }

    #[test]
    fn greedy_bids_the_matching_card_and_ignores_the_pending_bid() {
        let g = game(json!({"num_cards": 6}));
        let mut t = T::new(6);
        let mut bot = GreedyBot;
        let mut legal = Vec::new();
        t.s.apply(3, None).unwrap();
        g.legal_actions(t.s.state(), &mut legal);
        assert_eq!(bot.act(&g, t.s.state(), &legal), 3);
        t.s.apply(5, None).unwrap();
        g.legal_actions(t.s.state(), &mut legal);
        assert_eq!(bot.act(&g, t.s.state(), &legal), 3);
        let mut hidden = *t.s.state();
        for b in 1..=6 {
            hidden.pending = b;
            assert_eq!(bot.act(&g, &hidden, &legal), 3);
        }
        t.s.apply(0, None).unwrap();
        // Seat 0's hand lacks 6, seat 1's lacks 1: each bids by rank among the points in play.
        t.s.apply(5, None).unwrap();
        g.legal_actions(t.s.state(), &mut legal);
        assert_eq!(bot.act(&g, t.s.state(), &legal), 4);
        t.s.apply(0, None).unwrap();
        g.legal_actions(t.s.state(), &mut legal);
        assert_eq!(bot.act(&g, t.s.state(), &legal), 5);
    }

    /// Plays `games` seeded games of greedy against random (greedy's seat alternating); returns
    /// greedy's (wins, draws, losses).
    fn greedy_vs_random(g: &Goofspiel, games: u64, seed: u64) -> (u64, u64, u64) {
        let mut state = g.initial_state();
        let (mut legal, mut chance) = (Vec::new(), Vec::new());
        let (mut w, mut d, mut l) = (0, 0, 0);
        for gi in 0..games {
            let seat = (gi % 2) as usize;
            let mut bots = vec![
                make_bot(g, "random").unwrap(),
                make_bot(g, "random").unwrap(),
            ];
            bots[seat] = make_bot(g, "greedy").unwrap();
            let game_seed = derive_seed(seed, gi);
            play_game(g, &mut bots, game_seed, &mut state, &mut legal, &mut chance).unwrap();
            let winners = g.winners(&state);
            match (winners.len(), winners.contains(&seat)) {
                (2, _) => d += 1,
                (_, true) => w += 1,
                _ => l += 1,
            }
        }
        (w, d, l)
    }

    #[test]
    fn greedy_beats_random() {
        for n in [13u32, 6] {
            let g = game(json!({ "num_cards": n }));
            let (w, d, l) = greedy_vs_random(&g, 20_000, 2024);
            let share = (w as f64 + d as f64 / 2.0) / 20_000.0;
            println!("greedy vs random, {n} cards: {w} wins, {d} draws, {l} losses ({share:.4})");
            assert!(w > 3 * l, "{w} wins, {d} draws, {l} losses");
        }
    }

    #[test]
    fn batch_simulation_runs() {
        let g = game(json!({}));
        let config = SimConfig {
            games: 3000,
            first_game: 0,
            seed: 5,
            threads: Some(2),
            bots: vec!["greedy".into(), "random".into()],
            keep_games: true,
        };
        let r = simulate(&*g, &config, &|_| true).unwrap();
        assert_eq!(r.games_played, 3000);
        assert_eq!(r.decisions, 3000 * 24);
        assert_eq!(r.chance_steps, 3000 * 12);
        assert!(r.seats[0].wins > 2 * r.seats[1].wins);
        let one = simulate(
            &*g,
            &SimConfig {
                threads: Some(1),
                ..config
            },
            &|_| true,
        )
        .unwrap();
        assert_eq!(one.scores, r.scores);
        assert_eq!(one.winners, r.winners);
        assert!(r.lengths.iter().all(|&l| l == 24));
    }
}
