//! The `greedy` bot of Turn the Tide: a one-hand lookahead over the public table. It reads only
//! what its seat's observation holds and never changes the state. It plays rules steps 4–7 out
//! on its own plain arrays (the steps of `lose_lifebuoys` in the rules module, in the same
//! order, so every result is the rules' result) because it evaluates a dozen results per
//! decision.

use super::{
    seats, showing_bit, Phase, TurnTheTide, TurnTheTideState, ALL_CARDS, HAND_SIZE, MAX_SEATS,
    SEAT_COLUMN, SEAT_ROW, TAKE_TIDE_A, TIDE_VALUES,
};
use crate::bits;
use crate::game::{Bot, Game};
use crate::rng::SplitMix64;

/// The seats still in the round (seat bitset `in_round`) other than `me` (`me` < 8): how many
/// (`.1`) and the first of them, lowest first (`.0`).
fn opponents_of(me: usize, in_round: u8) -> ([usize; MAX_SEATS], usize) {
    let mut rest = in_round & !(1u8 << (me & 7));
    let k = rest.count_ones() as usize;
    let out = std::array::from_fn(|_| {
        let s = rest.trailing_zeros() as usize;
        rest &= rest.wrapping_sub(1);
        s
    });
    (out, k)
}

/// Cost of losing one lifebuoy (one point at the end of the round).
const LIFEBUOY_COST: f64 = 1.0;
/// Cost of being eliminated: −1 instead of 0, and no bonus.
const ELIMINATION_COST: f64 = 1.5;
/// [`LIFEBUOY_COST`] in half points. Losses are added up as integers of half points, which
/// gives the same sums as adding up the `f64` costs (small multiples of one half, all exact).
const HALVES_PER_LIFEBUOY: u32 = (2.0 * LIFEBUOY_COST) as u32;
/// [`ELIMINATION_COST`] in half points.
const ELIMINATION_HALVES: u32 = (2.0 * ELIMINATION_COST) as u32;
const _: () = assert!(
    HALVES_PER_LIFEBUOY as f64 == 2.0 * LIFEBUOY_COST
        && ELIMINATION_HALVES as f64 == 2.0 * ELIMINATION_COST
);
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

/// How far below the best cost a card's floor must stay for the card to be evaluated: the floor
/// and the costs are sums of a few products of numbers below 10 in magnitude, whose rounding
/// errors stay below 1e-13, so a card whose floor (less this margin) reaches the best cost
/// costs at least as much as it once rounded.
const PRUNE_MARGIN: f64 = 1e-9;

/// A lower bound of a card's `s(q)` (without the card cost) for every card at least as high as
/// one whose probability of the highest card is `p_high`: the outcome costs are `low` (taking
/// the low tide) and the least of the two others `others`. Taking the low tide is at least as
/// likely with a higher card, so if it is the dearer outcome, `s` is at least the mean with
/// `p_high` on it; if it is the cheaper one, `s` is at least `low`. `low_dearer` is whether
/// `low >= others`.
#[inline(always)]
fn s_floor(low: f64, others: f64, p_high: f64, low_dearer: bool) -> f64 {
    if low_dearer {
        p_high * low + (1.0 - p_high) * others
    } else {
        low
    }
}

/// The `greedy` bot: a one-hand lookahead over the public table.
///
/// It reads only what its seat's observation holds: its own hand, the public lifebuoys, showing
/// tides, eliminations, revealed tide values and the cards played this round (never other hands
/// or pending commitments of other seats).
///
/// Playing a card: with `L` ≤ `H` the two revealed tides, it values the three possible results of
/// the hand for itself — taking `L` (highest card), taking `H` (second-highest) or taking nothing —
/// by simulating rules steps 4–7 on the public table for each way the other tide card(s) may go to
/// the other seats still in (averaged). A result costs 1 per lifebuoy it loses, or 1.5 in all for
/// being eliminated, minus a quarter of the opponents' average loss; if the round goes on, a showing
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

/// What every evaluation of one decision shares: the public table at the start of the hand,
/// the number of opponents still in and the cost terms that depend only on those.
///
/// It evaluates a result with its own copy of rules steps 4–7 on plain arrays (the same steps
/// as `lose_lifebuoys` in the rules module, in the same order) and adds up the cost terms; every
/// `f64` operation of the cost is the one [`GreedyBot`] documents, in the same order (some done
/// once for all in [`BASE_COSTS`] and [`DANGER_COSTS`]), so the costs are the same to the last
/// bit.
#[derive(Clone, Copy)]
struct Eval {
    /// The bot's seat.
    me: usize,
    /// The game's `recheck_after_elimination` option.
    recheck: bool,
    /// Whether the hand is the round's last one (the round ends after it whatever happens).
    last_hand: bool,
    /// Whether the round ends after the hand if nobody is eliminated.
    ends: bool,
    /// The showing tides per seat (`SLOTS` entries, the ones past the last seat 0, so that a seat
    /// masked to three bits indexes them without a check).
    tide: [u8; SLOTS],
    /// The lifebuoys per seat (likewise).
    lifebuoys: [u8; SLOTS],
    /// The seats still in the round (a seat bitset).
    in_round: u8,
    /// The showing tides of the seats still in as a board (see the rules module's
    /// `showing_bit`: a row of seat bits per tide value), and whether it holds them all: every
    /// seat still in is one of the first `MAX_SEATS` and shows at most the highest tide value
    /// (the board means nothing otherwise).
    board: u64,
    board_ok: bool,
    /// The seats still in showing no tide.
    no_tide: u8,
    /// The seats still in without a lifebuoy.
    broke: u8,
    /// Whether the bot is still in, and its showing tide.
    me_in: bool,
    my_tide: u8,
    /// Opponents still in.
    k: usize,
    /// `min(hands left, DANGER_HORIZON)`.
    horizon: usize,
    /// [`DANGER_COSTS`] of `horizon`.
    danger: &'static [[f64; 2]; TIDE_VALUES + 1],
    /// [`USUAL_BASE_COSTS`] of the opponent count and the bot's seat.
    usual_base: &'static [f64; SEAT_SETS],
}

/// Entries of the per-seat arrays of [`Eval`]: a power of two of at least `MAX_SEATS`.
const SLOTS: usize = 8;
const _: () = assert!(SLOTS.is_power_of_two() && SLOTS >= MAX_SEATS);

/// `a` followed by zeros up to [`SLOTS`] entries.
#[inline(always)]
fn padded(a: &[u8; MAX_SEATS]) -> [u8; SLOTS] {
    let mut out = [0; SLOTS];
    out[..MAX_SEATS].copy_from_slice(a);
    out
}

/// Whether bit `s` of the seat bitset `mask` is set (`s` < 8).
#[inline(always)]
fn has(mask: u8, s: usize) -> bool {
    mask >> s & 1 != 0
}

/// The seat bitset of the zero bytes of `bytes` (bit `s` = byte `s`).
#[inline(always)]
fn zero_bytes(bytes: [u8; SLOTS]) -> u8 {
    let x = u64::from_le_bytes(bytes);
    // The top bit of every byte: set for a nonzero byte (no carry crosses a byte).
    let nonzero = (((x & LOW7) + LOW7) | x) & !LOW7;
    // One bit per zero byte, gathered into the top byte.
    ((((nonzero ^ !LOW7) >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56) as u8
}

/// Every byte 1.
const BYTE_ONES: u64 = 0x0101_0101_0101_0101;
/// The low seven bits of every byte.
const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;

/// `TIDE_ROWS[t]`: the bit of seat 0 showing tide `t` on a board of showing tides (`showing_bit(0,
/// t)`) for the tide values, 0 for no tide (0) and the numbers above the tide values.
static TIDE_ROWS: [u64; 16] = {
    let mut table = [0; 16];
    let mut t = 1;
    while t <= TIDE_VALUES {
        table[t] = 1 << (MAX_SEATS * (t - 1));
        t += 1;
    }
    table
};

/// `SEAT_BYTES[mask]`: the bytes of the seats of the seat bitset `mask` all ones, the others 0.
static SEAT_BYTES: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut s = 0;
        while s < SLOTS {
            if mask >> s & 1 != 0 {
                table[mask] |= 0xFF << (8 * s);
            }
            s += 1;
        }
        mask += 1;
    }
    table
};

/// Opponents at most.
const MAX_OPPONENTS: usize = MAX_SEATS - 1;
/// Entries per opponent count of [`BASE_COSTS`] for the bot's loss (half points).
const MINE_ENTRIES: usize = ELIMINATION_HALVES as usize + 1;
/// Entries per loss of the bot of [`BASE_COSTS`] for the opponents' loss: every one eliminated.
const THEIRS_ENTRIES: usize = ELIMINATION_HALVES as usize * MAX_OPPONENTS + 1;

/// The cost of a result before the terms of the bot's tide: it loses `mine` half points and its
/// `k` opponents `theirs` in all.
const fn base_cost(k: usize, mine: u32, theirs: u32) -> f64 {
    let mut cost = mine as f64 * 0.5;
    if k > 0 {
        cost -= OPPONENT_WEIGHT * (theirs as f64 * 0.5) / k as f64;
    }
    cost
}

/// [`base_cost`]`(k, mine, theirs)` at `[k][mine][theirs]`.
static BASE_COSTS: [[[f64; THEIRS_ENTRIES]; MINE_ENTRIES]; MAX_OPPONENTS + 1] = {
    let mut table = [[[0.0; THEIRS_ENTRIES]; MINE_ENTRIES]; MAX_OPPONENTS + 1];
    let mut k = 0;
    while k <= MAX_OPPONENTS {
        let mut mine = 0;
        while mine < MINE_ENTRIES {
            let mut theirs = 0;
            while theirs < THEIRS_ENTRIES {
                table[k][mine][theirs] = base_cost(k, mine as u32, theirs as u32);
                theirs += 1;
            }
            mine += 1;
        }
        k += 1;
    }
    table
};

/// Seat bitsets of the first `MAX_SEATS` seats.
const SEAT_SETS: usize = 1 << MAX_SEATS;

/// [`BASE_COSTS`] of the usual results, where nobody is eliminated, by the seats that lose a
/// lifebuoy: with `k` opponents, the bot in seat `me` (`MAX_SEATS`: in none of them) and
/// `at_top` (a seat bitset of the first `MAX_SEATS` seats) each losing one, at `[k][me][at_top]`.
static USUAL_BASE_COSTS: [[[f64; SEAT_SETS]; MAX_SEATS + 1]; MAX_OPPONENTS + 1] = {
    let mut table = [[[0.0; SEAT_SETS]; MAX_SEATS + 1]; MAX_OPPONENTS + 1];
    let mut k = 0;
    while k <= MAX_OPPONENTS {
        let mut me = 0;
        while me <= MAX_SEATS {
            let mut at_top = 0;
            while at_top < SEAT_SETS {
                let lost = (at_top >> me & 1) as u32;
                let losers = (at_top as u32).count_ones();
                table[k][me][at_top] = base_cost(
                    k,
                    HALVES_PER_LIFEBUOY * lost,
                    HALVES_PER_LIFEBUOY * (losers - lost),
                );
                at_top += 1;
            }
            me += 1;
        }
        k += 1;
    }
    table
};

/// The risk of showing tide `x` (> 0) with `horizon` hands of danger left, `higher` when another
/// seat shows a higher tide.
const fn danger_cost(horizon: usize, x: u8, higher: bool) -> f64 {
    let danger = DANGER_WEIGHT * horizon as f64;
    let share = if higher { 0.35 } else { 1.0 };
    let f = x as f64 / 12.0;
    danger * f * f * share
}

/// [`danger_cost`]`(horizon, x, higher)` at `[horizon][x][higher]`, for the tides 1..=12 (and 0).
static DANGER_COSTS: [[[f64; 2]; TIDE_VALUES + 1]; DANGER_HORIZON as usize + 1] = {
    let mut table = [[[0.0; 2]; TIDE_VALUES + 1]; DANGER_HORIZON as usize + 1];
    let mut h = 0;
    while h <= DANGER_HORIZON as usize {
        let mut x = 0;
        while x <= TIDE_VALUES {
            table[h][x] = [
                danger_cost(h, x as u8, false),
                danger_cost(h, x as u8, true),
            ];
            x += 1;
        }
        h += 1;
    }
    table
};

/// The board of the showing tides `tide` of the seats in the seat bitset `in_round` (see
/// [`Eval`]'s `board`), and whether it holds them all (`board_ok`).
#[inline(always)]
fn showing_board(tide: [u8; SLOTS], in_round: u8) -> (u64, bool) {
    // The tides of the seats still in (the others' bytes 0): all tide values or none if no
    // byte has its top bit or reaches `TIDE_VALUES + 1` (no carry crosses a byte).
    let tides_in = u64::from_le_bytes(tide) & SEAT_BYTES[usize::from(in_round & SEAT_ROW)];
    let beyond = (tides_in & LOW7) + BYTE_ONES * (0x80 - (TIDE_VALUES as u64 + 1));
    let board_ok = in_round & !SEAT_ROW == 0 && (beyond | tides_in) & !LOW7 == 0;
    // Seat `s` showing `t` is `showing_bit(s, t)`; seats showing no tide are not on it.
    let mut board = 0u64;
    for s in 0..MAX_SEATS {
        board |= TIDE_ROWS[(tides_in >> (8 * s)) as usize & (TIDE_ROWS.len() - 1)] << s;
    }
    (board, board_ok)
}

/// What rules steps 4–7 leave for the cost (see [`Eval::array_steps`]).
type StepsResult = ([u8; SLOTS], u8, bool, u8, u8, u8);

/// The row of the highest tide on a board of showing tides (not empty) and the seats showing it.
#[inline(always)]
fn top_row(board: u64) -> (usize, u8) {
    let row = (63 - board.leading_zeros() as usize) / MAX_SEATS;
    (row, (board >> (row * MAX_SEATS)) as u8 & SEAT_ROW)
}

/// Whether a board of showing tides shows a tide above `x`: [`top_value`]`(board) > x`. Tide
/// `v` is row `v − 1`, so a tide above `x` is a bit in row `x` or above.
#[inline(always)]
fn shows_above(board: u64, x: u8) -> bool {
    board
        .checked_shr(MAX_SEATS as u32 * u32::from(x))
        .is_some_and(|above| above != 0)
}

/// The highest tide on a board of showing tides (0 if it is empty).
#[inline(always)]
fn top_value(board: u64) -> u8 {
    if board == 0 {
        0
    } else {
        top_row(board).0 as u8 + 1
    }
}

/// The lowest tide on a board of showing tides (not empty).
#[inline(always)]
fn bottom_value(board: u64) -> u8 {
    (board.trailing_zeros() as usize / MAX_SEATS) as u8 + 1
}

impl Eval {
    #[inline(always)]
    fn new(game: &TurnTheTide, st: &TurnTheTideState, me: usize, k: usize) -> Self {
        let hands_left = (HAND_SIZE as u32).saturating_sub(u32::from(st.hand_index) + 1);
        let tide = padded(&st.tide);
        let lifebuoys = padded(&st.lifebuoys);
        let last_hand = hands_left == 0;
        let in_seats = st.in_round & SEAT_ROW;
        let no_tide = zero_bytes(tide) & in_seats;
        let broke = zero_bytes(lifebuoys) & in_seats;
        let (board, board_ok) = showing_board(tide, st.in_round);
        Self {
            me,
            recheck: game.recheck_after_elimination,
            last_hand,
            ends: st.in_round.count_ones() <= 2 || last_hand,
            tide,
            lifebuoys,
            in_round: st.in_round,
            board,
            board_ok,
            no_tide,
            broke,
            me_in: has(st.in_round, me),
            my_tide: tide[me & (SLOTS - 1)],
            k: k.min(MAX_OPPONENTS),
            horizon: hands_left.min(DANGER_HORIZON) as usize,
            danger: &DANGER_COSTS[hands_left.min(DANGER_HORIZON) as usize],
            usual_base: &USUAL_BASE_COSTS[k.min(MAX_OPPONENTS)][me.min(MAX_SEATS)],
        }
    }

    /// Whether [`Eval::pair`] may evaluate seats `s1` and `s2` getting the tides: two different
    /// seats still in (among the first `MAX_SEATS`), on a board that holds every seat still
    /// in.
    #[inline(always)]
    fn usual(&self, s1: usize, s2: usize) -> bool {
        self.board_ok
            && s1 != s2
            && s1 < MAX_SEATS
            && s2 < MAX_SEATS
            && has(self.in_round, s1)
            && has(self.in_round, s2)
    }

    /// The cost for the bot of the hand's result with seat `s1` showing `v1` and seat `s2`
    /// showing `v2`; see [`GreedyBot`] for the terms.
    #[inline(always)]
    fn with(&self, s1: usize, v1: u8, s2: usize, v2: u8) -> f64 {
        if !self.usual(s1, s2) {
            return self.slow(s1, v1, s2, v2);
        }
        self.pair(s1, v1, s2, v2)
            .unwrap_or_else(|| self.slow(s1, v1, s2, v2))
    }

    /// The board with seat `s1` showing `v1` and seat `s2` showing `v2` (tide values, seats that
    /// pass [`Eval::usual`]).
    #[inline(always)]
    fn board_with(&self, s1: usize, v1: u8, s2: usize, v2: u8) -> u64 {
        self.board & !(SEAT_COLUMN << s1 | SEAT_COLUMN << s2)
            | showing_bit(s1, v1)
            | showing_bit(s2, v2)
    }

    /// The bot's tide with seat `s1` showing `v1` and seat `s2` showing `v2`.
    #[inline(always)]
    fn my_tide_with(&self, s1: usize, v1: u8, s2: usize, v2: u8) -> u8 {
        if self.me == s1 {
            v1
        } else if self.me == s2 {
            v2
        } else {
            self.my_tide
        }
    }

    /// [`Eval::with`] for seats that pass [`Eval::usual`], in the usual case: the tides are
    /// tide values and the highest tide's seats all have a lifebuoy to lose, so rules steps 4–7
    /// stop after one pass and nobody is eliminated. `None` otherwise.
    #[inline(always)]
    fn pair(&self, s1: usize, v1: u8, s2: usize, v2: u8) -> Option<f64> {
        if !(1..=TIDE_VALUES as u8).contains(&v1) || !(1..=TIDE_VALUES as u8).contains(&v2) {
            return None;
        }
        self.pair_of_tides(s1, v1, s2, v2)
    }

    /// [`Eval::pair`] for tide values `v1` and `v2` (1..=`TIDE_VALUES`).
    #[inline(always)]
    fn pair_of_tides(&self, s1: usize, v1: u8, s2: usize, v2: u8) -> Option<f64> {
        let me = self.me;
        let board = self.board_with(s1, v1, s2, v2);
        let (_, at_top) = top_row(board);
        if at_top & self.broke != 0 {
            return None;
        }
        // A seat still in without a tide shows the lowest one. The cost reads the lowest tide
        // only if the round ends.
        let lowest = if !self.ends || self.no_tide & !(1 << s1 | 1 << s2) != 0 {
            0
        } else {
            bottom_value(board)
        };
        let x = self.my_tide_with(s1, v1, s2, v2);
        // [`Eval::base`] of the seats at the top losing a lifebuoy each.
        let base = self.usual_base[usize::from(at_top) & (SEAT_SETS - 1)];
        let others = board & !(SEAT_COLUMN << me);
        Some(self.tide_terms(base, self.me_in, self.ends, x, lowest, || {
            shows_above(others, x)
        }))
    }

    /// [`Eval::with`] for any seats: rules steps 4–7 in full (the rules module's
    /// `lose_lifebuoys`), then the cost. It takes a copy of the evaluation, made only where
    /// this rare path is taken, so that the usual paths need not keep one in memory.
    #[cold]
    #[inline(never)]
    fn slow(self, s1: usize, v1: u8, s2: usize, v2: u8) -> f64 {
        crate::cpu::with_bit_instructions(
            #[inline(always)]
            || self.slow_steps(s1, v1, s2, v2),
        )
    }

    /// The body of [`Eval::slow`].
    #[inline(always)]
    fn slow_steps(&self, s1: usize, v1: u8, s2: usize, v2: u8) -> f64 {
        let tides = 1..=TIDE_VALUES as u8;
        let steps = if self.usual(s1, s2) && tides.contains(&v1) && tides.contains(&v2) {
            self.board_steps(s1, v1, s2, v2)
        } else {
            self.array_steps(s1, v1, s2, v2)
        };
        self.steps_cost(steps)
    }

    /// [`Eval::with`] for seats that pass [`Eval::usual`] getting tide values (any result).
    #[inline(always)]
    fn usual_with(&self, s1: usize, v1: u8, s2: usize, v2: u8) -> f64 {
        self.pair_of_tides(s1, v1, s2, v2)
            .unwrap_or_else(|| self.steps_cost(self.board_steps(s1, v1, s2, v2)))
    }

    /// The cost of what rules steps 4–7 left (see [`Eval::array_steps`]).
    #[inline(always)]
    fn steps_cost(&self, steps: StepsResult) -> f64 {
        let me = self.me;
        let (lb, mask, ended, x, lowest, others_top) = steps;
        let ended = ended || self.last_hand;
        // Every seat's loss in half points: a lifebuoy lost by a seat still in costs
        // `HALVES_PER_LIFEBUOY`, an elimination `ELIMINATION_HALVES` (whatever it lost before).
        // Lifebuoys only go down, so the bytes of the difference do not borrow from each other.
        let lost = u64::from_le_bytes(self.lifebuoys) - u64::from_le_bytes(lb);
        let lost_in = lost & SEAT_BYTES[usize::from(mask)];
        let out = self.in_round & !mask;
        let all = HALVES_PER_LIFEBUOY * (lost_in.wrapping_mul(BYTE_ONES) >> 56) as u32
            + ELIMINATION_HALVES * out.count_ones();
        let mine = if has(out, me) {
            ELIMINATION_HALVES
        } else {
            HALVES_PER_LIFEBUOY * u32::from((lost_in >> (8 * me)) as u8)
        };
        let base = self.base(mine, all - mine);
        self.tide_terms(base, has(mask, me), ended, x, lowest, || others_top > x)
    }

    /// Rules steps 4–7 (the rules module's `lose_lifebuoys`) with seat `s1` showing `v1` and
    /// seat `s2` showing `v2`: the lifebuoys and the seats still in after them, whether they
    /// end the round, then the bot's tide, the lowest tide of the seats still in (`u8::MAX` if
    /// none) and the highest of the others' (0 if none).
    #[inline(always)]
    fn array_steps(&self, s1: usize, v1: u8, s2: usize, v2: u8) -> StepsResult {
        let me = self.me;
        let mut tide = self.tide;
        tide[s1 & (SLOTS - 1)] = v1;
        tide[s2 & (SLOTS - 1)] = v2;
        let mut lb = self.lifebuoys;
        let mut mask = self.in_round;
        let ended = super::lose_lifebuoys(&mut tide, &mut lb, &mut mask, self.recheck);
        // The lowest tide and the others' highest tide.
        let (mut lowest, mut others_top) = (u8::MAX, 0u8);
        for s in seats(mask) {
            let t = tide[s & (SLOTS - 1)];
            lowest = lowest.min(t);
            if s != me {
                others_top = others_top.max(t);
            }
        }
        (lb, mask, ended, tide[me & (SLOTS - 1)], lowest, others_top)
    }

    /// [`Eval::array_steps`] for seats that pass [`Eval::usual`] getting tide values, on the
    /// board of showing tides: the highest tide and its seats are one bit scan away, and an
    /// eliminated seat's tide leaves the board (as in the rules module's random playout).
    #[inline(always)]
    fn board_steps(&self, s1: usize, v1: u8, s2: usize, v2: u8) -> StepsResult {
        let me = self.me;
        let mut board = self.board_with(s1, v1, s2, v2);
        let mut lb = self.lifebuoys;
        let mut mask = self.in_round;
        let ended = loop {
            if board == 0 {
                break false;
            }
            let (row, at_top) = top_row(board);
            // Each seat there loses a lifebuoy, or is eliminated without one.
            let mut out = 0u8;
            for s in seats(at_top) {
                match lb[s].checked_sub(1) {
                    Some(left) => lb[s] = left,
                    None => out |= 1 << s,
                }
            }
            mask &= !out;
            board &= !(u64::from(out) << (row * MAX_SEATS));
            if mask.count_ones() <= 2 {
                break true;
            }
            if !(self.recheck && out != 0) {
                break false;
            }
        };
        // The seats still in without a tide show none; the others are on the board. The cost
        // reads the lowest tide only if the round ends.
        let lowest =
            if !(ended || self.last_hand) || self.no_tide & mask & !(1 << s1 | 1 << s2) != 0 {
                0
            } else if board == 0 {
                u8::MAX
            } else {
                bottom_value(board)
            };
        let x = self.my_tide_with(s1, v1, s2, v2);
        let others_top = top_value(board & !(SEAT_COLUMN << me));
        (lb, mask, ended, x, lowest, others_top)
    }

    /// The cost of a result before the terms of the bot's tide: the bot loses `mine` half
    /// points and its opponents `theirs` in all.
    #[inline(always)]
    fn base(&self, mine: u32, theirs: u32) -> f64 {
        BASE_COSTS[self.k]
            .get(mine as usize)
            .and_then(|row| row.get(theirs as usize))
            .copied()
            .unwrap_or_else(|| base_cost(self.k, mine, theirs))
    }

    /// The cost of a result from its cost before the terms of the bot's tide ([`Eval::base`]):
    /// `still_in` whether the bot is still in, `ended` whether the round ends, `x` its tide,
    /// `lowest` the lowest tide of the seats still in and `higher` whether another seat shows
    /// a higher tide (asked only if the cost reads it).
    #[inline(always)]
    fn tide_terms(
        &self,
        cost: f64,
        still_in: bool,
        ended: bool,
        x: u8,
        lowest: u8,
        higher: impl FnOnce() -> bool,
    ) -> f64 {
        if !still_in {
            return cost;
        }
        if ended {
            if x == lowest {
                return cost - BONUS_VALUE;
            }
            return cost;
        }
        if x > 0 {
            let higher = higher();
            let danger = self.danger.get(usize::from(x)).map_or_else(
                || danger_cost(self.horizon, x, higher),
                |costs| costs[usize::from(higher)],
            );
            return cost + danger;
        }
        cost
    }
}

/// `x` to the power `n` by the same multiplications, in the same order, as `f64::powi` (square
/// and multiply from the lowest bit, then one division for a negative `n`), so the result is
/// the same to the last bit.
#[inline]
const fn powi(x: f64, n: i32) -> f64 {
    let mut pow = n.unsigned_abs();
    let mut a = x;
    let mut mul = if pow & 1 != 0 { a } else { 1.0 };
    pow >>= 1;
    while pow != 0 {
        a *= a;
        if pow & 1 != 0 {
            mul *= a;
        }
        pow >>= 1;
    }
    if n < 0 {
        1.0 / mul
    } else {
        mul
    }
}

/// `(powi(y, n), powi(y, n - 1))`, with the usual opponent counts worked out directly by the
/// multiplications [`powi`] makes for them (`1.0 · z` is `z`), so the results are the same to
/// the last bit.
#[inline(always)]
const fn powers(y: f64, n: i32) -> (f64, f64) {
    match n {
        2 => (y * y, y),
        3 => {
            let y2 = y * y;
            (y * y2, y2)
        }
        4 => {
            let y2 = y * y;
            (y2 * y2, y * y2)
        }
        _ => (powi(y, n), powi(y, n - 1)),
    }
}

/// The cost of playing card `c` with `above` of the `m` cards the bot cannot see above it and
/// `k` opponents (`kf` as a float), given the outcome `costs` (see [`GreedyBot`]), and the
/// probability of taking the low tide (`P(highest)`) it was worked out with.
#[inline(always)]
fn card_cost(costs: [f64; 3], c: u32, above: u32, m: f64, k: usize, kf: f64) -> (f64, f64) {
    let q = f64::from(above) / m;
    // `(1 − q)^k` and `(1 − q)^(k − 1)`.
    let (p_high, below) = powers(1.0 - q, k as i32);
    let p_second = kf * q * below;
    let p_none = (1.0 - p_high - p_second).max(0.0);
    let cost =
        p_high * costs[0] + p_second * costs[1] + p_none * costs[2] + CARD_COST * f64::from(c);
    (cost, p_high)
}

/// Entries per count of [`PROBABILITIES`]: the most cards the bot may not see (the 60 weather
/// cards), plus one.
const PROB_COUNTS: usize = 61;
/// `[p_high, p_second, p_none]` of [`card_cost`] at `[k][m][above]` (`m` the unseen cards, taken
/// as 1 when there are none): worked out once by the same operations, so the same to the last
/// bit.
type ProbTable = [[[[f64; 3]; PROB_COUNTS]; PROB_COUNTS]; MAX_OPPONENTS + 1];

/// See [`ProbTable`]: worked out when compiling, by the operations of [`card_cost`].
static PROBABILITIES: ProbTable = {
    let mut table = [[[[0.0; 3]; PROB_COUNTS]; PROB_COUNTS]; MAX_OPPONENTS + 1];
    let mut k = 0;
    while k <= MAX_OPPONENTS {
        let kf = k as i32 as f64;
        let mut count = 0;
        while count < PROB_COUNTS {
            let m = (if count == 0 { 1 } else { count }) as u32 as f64;
            let mut above = 0;
            while above < PROB_COUNTS {
                let q = above as u32 as f64 / m;
                let (p_high, below) = powers(1.0 - q, k as i32);
                let p_second = kf * q * below;
                let p_none = (1.0 - p_high - p_second).max(0.0);
                table[k][count][above] = [p_high, p_second, p_none];
                above += 1;
            }
            count += 1;
        }
        k += 1;
    }
    table
};

/// The card to play among `legal` (bit `c` = card `c`): the first of least [`card_cost`] with
/// the outcome `costs`, the cards the bot cannot see `unseen` and `k` opponents (the first
/// legal card if there is none).
#[inline(always)]
fn best_card(costs: [f64; 3], unseen: u64, legal: u64, k: usize) -> u32 {
    // A copy of the scan for each usual opponent count and each order of the outcome costs
    // that [`s_floor`] reads, so that those are constants inside it.
    let low_dearer = costs[0] >= costs[1].min(costs[2]);
    match (k, low_dearer) {
        (2, true) => scan_cards(costs, unseen, legal, 2, true),
        (2, false) => scan_cards(costs, unseen, legal, 2, false),
        (3, true) => scan_cards(costs, unseen, legal, 3, true),
        (3, false) => scan_cards(costs, unseen, legal, 3, false),
        _ => scan_cards(costs, unseen, legal, k, low_dearer),
    }
}

/// The body of [`best_card`], with `low_dearer` whether `costs[0]` is at least the least of
/// the two other costs.
#[inline(always)]
fn scan_cards(costs: [f64; 3], unseen: u64, legal: u64, k: usize, low_dearer: bool) -> u32 {
    let m = f64::from(unseen.count_ones().max(1));
    let kf = f64::from(k as i32);
    // The probabilities of each count of unseen cards above a card, for these `k` and `m`.
    let row = PROBABILITIES
        .get(k)
        .and_then(|rows| rows.get(unseen.count_ones() as usize));
    // A card's cost is `s(q) + CARD_COST · c`, and `q` depends only on how many unseen cards lie
    // above it: a higher card (the cards come in increasing order) with as many above it costs
    // at least as much, so it can never be the first cheapest one and is not evaluated.
    let mut last_above = u32::MAX;
    let (mut best, mut best_cost) = (None, f64::INFINITY);
    // `s(q)` is a mean of the three outcome costs, so it is at least the least of them; and
    // `p_high` only grows with the card, so once a card has been evaluated, `s` of every higher
    // card is at least [`s_floor`] of its `p_high`. A card whose floor plus its card cost reaches
    // the best cost (with a margin far above the rounding errors) cannot be the first cheapest
    // one, nor can any higher card: the rest is not evaluated.
    let others = costs[1].min(costs[2]);
    let mut floor = costs[0].min(others);
    for c in bits::ones(legal) {
        if best_cost <= floor + CARD_COST * f64::from(c) - PRUNE_MARGIN {
            break;
        }
        // The unseen cards above `c` (none above a card out of range, as none are).
        let above = if c == 0 {
            0
        } else {
            (unseen >> c >> 1).count_ones()
        };
        if above == last_above {
            continue;
        }
        last_above = above;
        let (cost, p_high) = match row.and_then(|row| row.get(above as usize)) {
            Some(&[p_high, p_second, p_none]) => (
                p_high * costs[0]
                    + p_second * costs[1]
                    + p_none * costs[2]
                    + CARD_COST * f64::from(c),
                p_high,
            ),
            None => card_cost(costs, c, above, m, k, kf),
        };
        if cost < best_cost {
            (best, best_cost) = (Some(c), cost);
        }
        floor = s_floor(costs[0], others, p_high, low_dearer);
    }
    best.unwrap_or_else(|| bits::ones(legal).next().unwrap_or(0))
}

/// Bit `c & 63` for every card `c` of the first `played_len[s]` (at most [`HAND_SIZE`]) entries
/// of `played[s]`, for the first `n` seats (at most [`MAX_SEATS`]).
#[inline(always)]
fn played_set(
    played: &[[u8; HAND_SIZE]; MAX_SEATS],
    played_len: &[u8; MAX_SEATS],
    n: usize,
) -> u64 {
    let (played, played_len) = (&played[..n.min(MAX_SEATS)], &played_len[..n.min(MAX_SEATS)]);
    let mut set = 0;
    // Usually every seat has played as many cards: then one pass over the entries reads every
    // seat's entry of each.
    if let Some(&len) = played_len.first() {
        if played_len.iter().all(|&l| l == len) {
            for i in 0..usize::from(len).min(HAND_SIZE) {
                for row in played {
                    set |= 1u64 << (row[i] & 63);
                }
            }
            return set;
        }
    }
    for (row, &len) in played.iter().zip(played_len) {
        for &c in &row[..usize::from(len).min(HAND_SIZE)] {
            set |= 1u64 << (c & 63);
        }
    }
    set
}

/// `f(i)` for `i` in `0..K`, in order, written out one call after the other for the usual
/// opponent counts (so that the evaluations and their results stay in registers).
#[inline(always)]
fn each<const K: usize>(mut f: impl FnMut(usize)) {
    match K {
        0 => {}
        1 => f(0),
        2 => {
            f(0);
            f(1);
        }
        3 => {
            f(0);
            f(1);
            f(2);
        }
        _ => (0..K).for_each(f),
    }
}

/// `f(i, j)` for every `i` < `j` < `K`, in increasing order of `i`, then of `j`, written out
/// like [`each`].
#[inline(always)]
fn each_pair<const K: usize>(mut f: impl FnMut(usize, usize)) {
    match K {
        0 | 1 => {}
        2 => f(0, 1),
        3 => {
            f(0, 1);
            f(0, 2);
            f(1, 2);
        }
        _ => {
            for i in 0..K {
                for j in i + 1..K {
                    f(i, j);
                }
            }
        }
    }
}

/// The bot's costs as the highest and as the second-highest card, from its costs of taking the
/// low and the high tide with each opponent taking the other one, averaged over the `n`
/// opponents: as second-highest it gets the high tide (a choosing highest seat is assumed to
/// keep the low one); as highest with `highest_chooses_tide` it picks the better one.
#[inline(always)]
fn first_and_second<const K: usize>(
    game: &TurnTheTide,
    take_low: &[f64; K],
    take_high: &[f64; K],
    n: usize,
) -> (f64, f64) {
    let div = n.max(1) as f64;
    let take_low = take_low.iter().sum::<f64>() / div;
    let take_high = take_high.iter().sum::<f64>() / div;
    let first = if game.highest_chooses_tide {
        take_low.min(take_high)
    } else {
        take_low
    };
    (first, take_high)
}

/// The mean of the cells of `cases` off its diagonal (the costs of the bot taking nothing, one
/// per ordered pair of opponents taking the two tides), added row by row; 0 without any.
#[inline(always)]
fn mean_off_diagonal<const K: usize>(cases: &[[f64; K]; K]) -> f64 {
    let mut sum = 0.0;
    let mut pairs = 0u32;
    for (i, row) in cases.iter().enumerate() {
        for (j, &cost) in row.iter().enumerate() {
            if i != j {
                sum += cost;
                pairs += 1;
            }
        }
    }
    if pairs == 0 {
        0.0
    } else {
        sum / f64::from(pairs)
    }
}

/// The cost of one usual result (nobody eliminated) for [`GreedyBot::quick_outcome_costs`]:
/// the bot shows `xm`, an opponent `a`, another one `b` if any, and the rest of the opponents
/// `rest` (their highest tide, how many show it, their lowest tide).
#[inline(always)]
fn quick_cost(
    xm: u8,
    a: u8,
    b: Option<u8>,
    rest: (u8, usize, u8),
    ends: bool,
    danger: &[[f64; 2]; TIDE_VALUES + 1],
    bases: &[[f64; THEIRS_ENTRIES]; MINE_ENTRIES],
) -> f64 {
    let (r_top, r_count, r_low) = rest;
    let b_top = b.unwrap_or(0);
    let top = xm.max(a).max(b_top).max(r_top);
    let n_top = usize::from(a == top)
        + usize::from(b.is_some() && b_top == top)
        + if r_top == top { r_count } else { 0 };
    let me_top = usize::from(xm == top);
    let base = bases[HALVES_PER_LIFEBUOY as usize * me_top][HALVES_PER_LIFEBUOY as usize * n_top];
    if ends {
        let lowest = xm.min(a).min(b.unwrap_or(u8::MAX)).min(r_low);
        if xm == lowest {
            return base - BONUS_VALUE;
        }
        return base;
    }
    if xm > 0 {
        let higher = a > xm || b_top > xm || r_top > xm;
        return base + danger[usize::from(xm)][usize::from(higher)];
    }
    base
}

impl GreedyBot {
    /// [`GreedyBot::outcome_costs`] in the usual case where no seat still in can be eliminated
    /// (every one has a lifebuoy), worked out on the tide values directly: rules steps 4–7 are
    /// then one pass in which the seats at the highest tide lose a lifebuoy each. Every result
    /// is the same sum of the same table entries as the board evaluation's (`BASE_COSTS` holds
    /// what `USUAL_BASE_COSTS` holds for the same losses), and the per-opponent results are
    /// added up in the same order, so the costs are the same to the last bit. `None` outside
    /// that case.
    #[inline(always)]
    fn quick_outcome_costs<const K: usize>(
        &self,
        game: &TurnTheTide,
        st: &TurnTheTideState,
        opponents: &[usize; K],
        n: usize,
        low: u8,
        high: u8,
    ) -> Option<[f64; 3]> {
        let me = self.seat;
        let top_tide = TIDE_VALUES as u8;
        if K < 2
            || K != n
            || me >= MAX_SEATS
            || st.in_round & !SEAT_ROW != 0
            || !has(st.in_round, me)
            || low == 0
            || high > top_tide
        {
            return None;
        }
        let x0 = st.tide[me];
        let t: [u8; K] = std::array::from_fn(|i| st.tide[opponents[i] % MAX_SEATS]);
        let mut ok = x0 <= top_tide && st.lifebuoys[me] > 0;
        for (i, &o) in opponents.iter().enumerate() {
            ok &= t[i] <= top_tide && st.lifebuoys[o % MAX_SEATS] > 0;
        }
        if !ok {
            return None;
        }
        let hands_left = (HAND_SIZE as u32).saturating_sub(u32::from(st.hand_index) + 1);
        let ends = st.in_round.count_ones() <= 2 || hands_left == 0;
        let danger = &DANGER_COSTS[hands_left.min(DANGER_HORIZON) as usize];
        let bases = &BASE_COSTS[n.min(MAX_OPPONENTS)];
        // The opponents other than those of the seat bitset `skip` (bits over opponent indices):
        // their highest tide, how many show it and their lowest tide (`u8::MAX` if none).
        let rest = |skip: u32| -> (u8, usize, u8) {
            let (mut top, mut low_t) = (0u8, u8::MAX);
            for (i, &y) in t.iter().enumerate() {
                if skip >> i & 1 == 0 {
                    top = top.max(y);
                    low_t = low_t.min(y);
                }
            }
            let mut count = 0usize;
            for (i, &y) in t.iter().enumerate() {
                count += usize::from(skip >> i & 1 == 0 && y == top);
            }
            (top, count, low_t)
        };
        let (mut take_low, mut take_high) = ([0.0; K], [0.0; K]);
        for i in 0..K {
            let r = rest(1 << i);
            take_low[i] = quick_cost(low, high, None, r, ends, danger, bases);
            take_high[i] = quick_cost(high, low, None, r, ends, danger, bases);
        }
        let (first, take_high) = first_and_second(game, &take_low, &take_high, n);
        // Nobody can be eliminated, so which of two opponents takes which tide does not change
        // the result (the board evaluation shares it too).
        let mut cases = [[0.0; K]; K];
        // Each pair once, written to both of its cells.
        #[allow(clippy::needless_range_loop)]
        for i in 0..K {
            for j in i + 1..K {
                let cost = quick_cost(
                    x0,
                    low,
                    Some(high),
                    rest(1 << i | 1 << j),
                    ends,
                    danger,
                    bases,
                );
                cases[i][j] = cost;
                cases[j][i] = cost;
            }
        }
        Some([first, take_high, mean_off_diagonal(&cases)])
    }

    /// The costs of the bot taking the low tide, the high tide, or nothing in this hand, with
    /// the first `K` (at most [`MAX_OPPONENTS`]) of the `n` opponents still in `opponents`: a
    /// copy per opponent count, so that the loops over the opponents are unrolled and their
    /// costs stay in registers.
    #[inline(always)]
    fn outcome_costs<const K: usize>(
        &self,
        game: &TurnTheTide,
        st: &TurnTheTideState,
        opponents: &[usize; MAX_SEATS],
        n: usize,
    ) -> [f64; 3] {
        const { assert!(K <= MAX_OPPONENTS) };
        let opponents: [usize; K] = std::array::from_fn(|i| opponents[i]);
        let me = self.seat;
        let (a, b) = (st.revealed[0], st.revealed[1]);
        let (low, high) = (a.min(b), a.max(b));
        if let Some(costs) = self.quick_outcome_costs::<K>(game, st, &opponents, n, low, high) {
            return costs;
        }
        let e = Eval::new(game, st, me, n);
        // With an opponent taking the other tide: the bot's cost of taking the low tide and of
        // taking the high one.
        let (mut take_low, mut take_high) = ([0.0; K], [0.0; K]);
        // The opponents are distinct seats still in other than the bot, so on a board that
        // holds every seat still in they pass [`Eval::usual`] with the bot if it is still in,
        // and with each other.
        let tides = 1..=TIDE_VALUES as u8;
        let usual = e.board_ok && tides.contains(&low) && tides.contains(&high);
        let usual_take = usual && me < MAX_SEATS && e.me_in;
        if usual_take {
            each::<K>(
                #[inline(always)]
                |i| {
                    let o = opponents[i];
                    take_low[i] = e.usual_with(me, low, o, high);
                    take_high[i] = e.usual_with(me, high, o, low);
                },
            );
        } else {
            for (i, &o) in opponents.iter().enumerate() {
                take_low[i] = e.slow(me, low, o, high);
                take_high[i] = e.slow(me, high, o, low);
            }
        }
        let (first, take_high) = first_and_second(game, &take_low, &take_high, n);
        // Two opponents taking the tides, `cases[i][j]` with opponent `i` taking the low one. The
        // usual result does not depend on which of the two takes which when neither can be
        // eliminated, so it is worked out once for both.
        let mut cases = [[0.0; K]; K];
        if usual {
            each_pair::<K>(
                #[inline(always)]
                |i, j| {
                    let (o1, o2) = (opponents[i], opponents[j]);
                    let first = e.pair_of_tides(o1, low, o2, high);
                    cases[i][j] =
                        first.unwrap_or_else(|| e.steps_cost(e.board_steps(o1, low, o2, high)));
                    cases[j][i] = match first {
                        Some(cost) if e.broke & (1 << o1 | 1 << o2) == 0 => cost,
                        _ => e.usual_with(o2, low, o1, high),
                    };
                },
            );
        } else {
            for i in 0..K {
                for j in i + 1..K {
                    let (o1, o2) = (opponents[i], opponents[j]);
                    cases[i][j] = e.slow(o1, low, o2, high);
                    cases[j][i] = e.slow(o2, low, o1, high);
                }
            }
        }
        [first, take_high, mean_off_diagonal(&cases)]
    }

    /// [`GreedyBot::outcome_costs`] with the opponents still in, and how many they are.
    #[inline(always)]
    fn outcome_costs_of(&self, game: &TurnTheTide, st: &TurnTheTideState) -> ([f64; 3], usize) {
        let (opponents, n) = opponents_of(self.seat, st.in_round);
        let o = &opponents;
        let costs = match n {
            0 => self.outcome_costs::<0>(game, st, o, n),
            1 => self.outcome_costs::<1>(game, st, o, n),
            2 => self.outcome_costs::<2>(game, st, o, n),
            3 => self.outcome_costs::<3>(game, st, o, n),
            _ => self.outcome_costs::<MAX_OPPONENTS>(game, st, o, n),
        };
        (costs, n)
    }

    /// The card to play: `legal` is the set of the legal cards (bit `c` = card `c`).
    #[inline(always)]
    fn choose_card(&self, game: &TurnTheTide, st: &TurnTheTideState, legal: u64) -> u32 {
        let me = self.seat;
        // The usual seat counts as constants, so that the passes over the seats are written out.
        let (played, played_len) = (&st.played, &st.played_len);
        let played = match game.players {
            3 => played_set(played, played_len, 3),
            4 => played_set(played, played_len, 4),
            players => played_set(played, played_len, players),
        };
        let seen = st.hands.get(me).copied().unwrap_or(0) | played;
        let unseen = ALL_CARDS & !seen;
        let (costs, k) = self.outcome_costs_of(game, st);
        best_card(costs, unseen, legal, k)
    }

    /// The tide card to take: `legal` is the set of the legal actions.
    #[inline(always)]
    fn choose_tide(&self, game: &TurnTheTide, st: &TurnTheTideState, legal: u64) -> u32 {
        // At this node every card of the hand has been revealed (the last entries of `played`).
        let (first, second) = game.top_two(st);
        let k = opponents_of(self.seat, st.in_round).1;
        let e = Eval::new(game, st, self.seat, k);
        let (a, b) = (st.revealed[0], st.revealed[1]);
        let (mut best, mut best_cost) = (None, f64::INFINITY);
        for choice in bits::ones(legal) {
            let (mine, other) = if choice == TAKE_TIDE_A {
                (a, b)
            } else {
                (b, a)
            };
            let cost = e.with(first, mine, second, other);
            if cost < best_cost {
                (best, best_cost) = (Some(choice), cost);
            }
        }
        best.unwrap_or_else(|| bits::ones(legal).next().unwrap_or(0))
    }

    /// The bot's action with the legal actions `legal` (bit `a` = action `a`), run with the
    /// CPU's bit instructions.
    fn decide(&self, game: &TurnTheTide, st: &TurnTheTideState, legal: u64) -> u32 {
        crate::cpu::with_bit_instructions(
            #[inline(always)]
            || {
                // A single legal action is what every evaluation below would pick.
                if legal.is_power_of_two() {
                    return legal.trailing_zeros();
                }
                match st.phase {
                    Phase::Play => self.choose_card(game, st, legal),
                    Phase::ChooseTide => self.choose_tide(game, st, legal),
                    _ => bits::ones(legal).next().unwrap_or(0),
                }
            },
        )
    }
}

impl Bot<TurnTheTide> for GreedyBot {
    /// The bot keeps no memory: runners need not tell it every step.
    fn observes(&self) -> bool {
        false
    }

    fn reset(&mut self, _game: &TurnTheTide, seat: usize, _rng: SplitMix64) {
        self.seat = seat.min(MAX_SEATS - 1);
    }

    fn act(&mut self, game: &TurnTheTide, st: &TurnTheTideState, legal: &[u32]) -> u32 {
        let set = legal
            .iter()
            .fold(0u64, |set, &a| set | 1u64.checked_shl(a).unwrap_or(0));
        self.decide(game, st, set)
    }

    /// The legal actions are the seat's hand (or the two tide cards), which the state tells
    /// directly.
    fn act_unlisted(&mut self, game: &TurnTheTide, st: &TurnTheTideState) -> Option<u32> {
        let legal = game.legal_set(st).unwrap_or(0);
        match st.phase {
            Phase::Play | Phase::ChooseTide if legal != 0 => Some(self.decide(game, st, legal)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{powers, powi};
    use crate::rng::SplitMix64;

    /// [`powi`] gives `f64::powi`'s result to the last bit, and so does [`powers`].
    #[test]
    fn powi_matches_the_standard_one() {
        let mut rng = SplitMix64::new(7);
        for i in 0..20_000u64 {
            let x = if i < 100 {
                i as f64 / 99.0
            } else {
                rng.below(1 << 53) as f64 / (1u64 << 53) as f64
            };
            for n in -2..=6 {
                let standard = x.powi(std::hint::black_box(n));
                assert_eq!(powi(x, n).to_bits(), standard.to_bits(), "{x} ^ {n}");
                let (p, below) = powers(x, n);
                let below_standard = x.powi(std::hint::black_box(n - 1));
                assert_eq!(p.to_bits(), standard.to_bits(), "{x} ^ {n}");
                assert_eq!(below.to_bits(), below_standard.to_bits(), "{x} ^ {n} - 1");
            }
        }
    }

    /// [`best_card`], which skips the cards that cannot be the first cheapest one, picks what
    /// evaluating every legal card picks, over random outcome costs (ties and equal costs
    /// included), hands and unseen cards.
    #[test]
    fn best_card_matches_evaluating_every_card() {
        use super::{best_card, card_cost, ALL_CARDS};
        use crate::bits;
        let mut rng = SplitMix64::new(11);
        let mut choices = 0;
        for i in 0..200_000u64 {
            // A few distinct cost levels make ties and equal outcome costs common.
            let mut cost = || match rng.below(4) {
                0 => [-1.0, -0.25, 0.0, 0.5, 1.0, 1.5][rng.below(6) as usize],
                _ => (rng.below(1 << 20) as f64 / (1 << 18) as f64) - 2.0,
            };
            let costs = [cost(), cost(), cost()];
            let cards = ALL_CARDS & rng.next() & rng.next();
            let legal = cards & (rng.next() | rng.next()) & !(u64::MAX << (1 + i % 61));
            let unseen = cards & !legal;
            let k = 1 + rng.below(4) as usize;
            let m = f64::from(bits::count(unseen).max(1));
            let (mut best, mut best_cost) = (None, f64::INFINITY);
            for c in bits::ones(legal) {
                let above = bits::count(unseen & !((bits::bit_in(c, 1, 60) << 1).wrapping_sub(1)));
                let (cost, _) = card_cost(costs, c, above, m, k, k as f64);
                if cost < best_cost {
                    (best, best_cost) = (Some(c), cost);
                }
            }
            let want = best.unwrap_or_else(|| bits::ones(legal).next().unwrap_or(0));
            assert_eq!(
                best_card(costs, unseen, legal, k),
                want,
                "{costs:?} {unseen:#x} {legal:#x} {k}"
            );
            choices += usize::from(legal.count_ones() > 1);
        }
        assert!(choices > 100_000, "{choices}");
    }

    /// [`zero_bytes`] finds the zero bytes of any bytes.
    #[test]
    fn zero_bytes_finds_the_zero_bytes() {
        let mut rng = SplitMix64::new(5);
        for _ in 0..100_000 {
            let mut bytes = rng.next().to_le_bytes();
            for b in &mut bytes {
                // Zeros, small counts and any byte at all.
                *b = match rng.below(3) {
                    0 => 0,
                    1 => *b % 4,
                    _ => *b,
                };
            }
            let want = (0..8).fold(0u8, |m, i| m | u8::from(bytes[i] == 0) << i);
            assert_eq!(super::zero_bytes(bytes), want, "{bytes:?}");
        }
    }

    /// [`shows_above`] tells whether the highest tide on a board is above `x`, for any `x`.
    #[test]
    fn shows_above_compares_with_the_top_tide() {
        let mut rng = SplitMix64::new(3);
        for i in 0..20_000u64 {
            // Boards of 60 bits (12 rows of 5 seats), sparse ones and the empty one included.
            let board = match i % 3 {
                0 => rng.next() & rng.next() & rng.next() & ((1 << 60) - 1),
                1 => 1 << rng.below(60),
                _ => rng.next() & ((1 << 60) - 1),
            } * u64::from(i != 0);
            for x in 0..=u8::MAX {
                let want = super::top_value(board) > x;
                assert_eq!(super::shows_above(board, x), want, "{board:#x} {x}");
            }
        }
    }

    /// [`showing_board`] puts every seat still in showing a tide value on the board (at
    /// `showing_bit`), and tells when a seat still in is past the first five or shows more
    /// than the highest tide value.
    #[test]
    fn showing_board_holds_the_seats_still_in() {
        use super::super::{seats, showing_bit, SEAT_ROW};
        let mut rng = SplitMix64::new(9);
        for _ in 0..100_000 {
            let mut tide = [0u8; 8];
            for t in &mut tide {
                *t = match rng.below(4) {
                    0 => 0,
                    1 | 2 => rng.below(13) as u8,
                    _ => rng.below(256) as u8,
                };
            }
            let in_round = match rng.below(3) {
                0 => rng.below(256) as u8,
                _ => rng.below(32) as u8,
            };
            let (mut board, mut ok) = (0u64, in_round & !SEAT_ROW == 0);
            for s in seats(in_round & SEAT_ROW) {
                ok &= tide[s] <= 12;
                if (1..=12).contains(&tide[s]) {
                    board |= showing_bit(s, tide[s]);
                }
            }
            let (got, got_ok) = super::showing_board(tide, in_round);
            assert_eq!(got_ok, ok, "{tide:?} {in_round:#b}");
            if ok {
                assert_eq!(got, board, "{tide:?} {in_round:#b}");
            }
        }
    }

    /// [`played_set`] holds the cards of the first `played_len` entries of each seat's list,
    /// with equal and different lengths, lengths past the lists and any bytes.
    #[test]
    fn played_set_holds_the_cards_played() {
        use super::{played_set, HAND_SIZE, MAX_SEATS};
        let mut rng = SplitMix64::new(13);
        for _ in 0..50_000 {
            let mut played = [[0u8; HAND_SIZE]; MAX_SEATS];
            for c in played.iter_mut().flatten() {
                *c = if rng.below(8) == 0 {
                    rng.below(256) as u8
                } else {
                    1 + rng.below(60) as u8
                };
            }
            let len = rng.below(14) as u8;
            let played_len: [u8; MAX_SEATS] = std::array::from_fn(|_| match rng.below(4) {
                0 => rng.below(256) as u8,
                1 => rng.below(13) as u8,
                _ => len,
            });
            let want = |n: usize| {
                let mut set = 0u64;
                for (row, &len) in played.iter().zip(&played_len).take(n) {
                    for &c in &row[..usize::from(len).min(HAND_SIZE)] {
                        set |= 1 << (c & 63);
                    }
                }
                set
            };
            for n in 0..=6 {
                let got = played_set(&played, &played_len, n);
                assert_eq!(got, want(n), "{n} {played:?} {played_len:?}");
            }
        }
    }

    /// [`opponents_of`] lists the seats still in other than the bot, lowest first.
    #[test]
    fn opponents_are_the_other_seats_still_in() {
        for in_round in 0..32u8 {
            for me in 0..5 {
                let (seats, k) = super::opponents_of(me, in_round);
                let want: Vec<usize> = (0..5)
                    .filter(|&s| s != me && in_round >> s & 1 != 0)
                    .collect();
                assert_eq!(&seats[..k], &want[..], "{in_round:#b} {me}");
            }
        }
    }

    /// The cost tables hold what their functions compute when the program runs.
    #[test]
    fn cost_tables_match_their_functions() {
        use super::{base_cost, danger_cost, BASE_COSTS, DANGER_COSTS};
        for (k, rows) in BASE_COSTS.iter().enumerate() {
            for (mine, row) in rows.iter().enumerate() {
                for (theirs, &cost) in row.iter().enumerate() {
                    let run = base_cost(
                        std::hint::black_box(k),
                        mine as u32,
                        std::hint::black_box(theirs as u32),
                    );
                    assert_eq!(cost.to_bits(), run.to_bits());
                }
            }
        }
        for (k, rows) in super::USUAL_BASE_COSTS.iter().enumerate() {
            for (me, row) in rows.iter().enumerate() {
                for (at_top, &cost) in row.iter().enumerate() {
                    let lost = u32::from(me < 5 && at_top >> me & 1 != 0);
                    let losers = at_top.count_ones();
                    let (mine, theirs) = (2 * lost, 2 * (losers - lost));
                    let run = base_cost(std::hint::black_box(k), mine, theirs);
                    assert_eq!(cost.to_bits(), run.to_bits());
                }
            }
        }
        for (h, rows) in DANGER_COSTS.iter().enumerate() {
            for (x, row) in rows.iter().enumerate() {
                for (higher, &cost) in row.iter().enumerate() {
                    let run = danger_cost(std::hint::black_box(h), x as u8, higher == 1);
                    assert_eq!(cost.to_bits(), run.to_bits());
                }
            }
        }
    }
}
