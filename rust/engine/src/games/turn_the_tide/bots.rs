//! The `greedy` bot of Turn the Tide: a one-hand lookahead over the public table. It reads only
//! what its seat's observation holds and never changes the state. It plays rules steps 4–7 out
//! on its own plain arrays (the steps of `lose_lifebuoys` in the rules module, in the same
//! order, so every result is the rules' result) because it evaluates a dozen results per
//! decision.

use super::{
    seats, Phase, TurnTheTide, TurnTheTideState, ALL_CARDS, HAND_SIZE, HIGHEST_CARD, LOWEST_CARD,
    MAX_SEATS, TAKE_TIDE_A,
};
use crate::bits;
use crate::game::{cheapest, Bot};
use crate::rng::SplitMix64;

/// The seats still in the round (seat bitset `in_round`) other than `me` (first `.1` entries
/// of `.0`).
fn opponents_of(me: usize, in_round: u8) -> ([usize; MAX_SEATS], usize) {
    let mut out = [0usize; MAX_SEATS];
    let mut k = 0;
    for s in seats(in_round).filter(|&s| s != me) {
        out[k] = s;
        k += 1;
    }
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

/// What every evaluation of one decision shares: the public table at the start of the hand,
/// the number of opponents still in and the first factor of the danger term.
///
/// It evaluates a result with its own copy of rules steps 4–7 on plain arrays (the same steps
/// as `lose_lifebuoys` in the rules module, in the same order) and adds up the cost terms in
/// one pass over the seats; every `f64` operation of the cost is the one [`GreedyBot`] documents, in the
/// same order, so the costs are the same to the last bit.
struct Eval {
    me: usize,
    recheck: bool,
    /// Whether the hand is the round's last one (the round ends after it whatever happens).
    last_hand: bool,
    /// The showing tides per seat (`SLOTS` entries, the ones past the last seat 0, so that a seat
    /// masked to three bits indexes them without a check).
    tide: [u8; SLOTS],
    /// The lifebuoys per seat (likewise).
    lifebuoys: [u8; SLOTS],
    in_round: u8,
    /// Seats still in.
    n_active: usize,
    /// Opponents still in, as an `f64` (0 for none).
    k: f64,
    /// `DANGER_WEIGHT · min(hands left, DANGER_HORIZON)`.
    danger: f64,
}

/// The tides of a set of seats still in, as the lifebuoy rules read them.
#[derive(Clone, Copy)]
struct Rest {
    /// The highest tide (0 for none).
    top: u8,
    /// Seats with the highest tide.
    at_top: u32,
    /// Whether one of them has no lifebuoy left.
    broke: bool,
    /// The lowest tide (`u8::MAX` for no seat).
    lowest: u8,
}

impl Rest {
    /// No seat.
    const NONE: Rest = Rest {
        top: 0,
        at_top: 0,
        broke: false,
        lowest: u8::MAX,
    };
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

impl Eval {
    fn new(game: &TurnTheTide, st: &TurnTheTideState, me: usize, k: usize) -> Self {
        let hands_left = (HAND_SIZE as u32).saturating_sub(u32::from(st.hand_index) + 1);
        Self {
            me,
            n_active: st.in_round.count_ones() as usize,
            recheck: game.recheck_after_elimination,
            last_hand: hands_left == 0,
            tide: padded(&st.tide),
            lifebuoys: padded(&st.lifebuoys),
            in_round: st.in_round,
            k: k as f64,
            danger: DANGER_WEIGHT * f64::from(hands_left.min(DANGER_HORIZON)),
        }
    }

    /// The tides of the seats of `mask` that are still in (a dozen evaluations read a few
    /// sets each, so they are summed up when asked rather than tabled for every set).
    #[inline(always)]
    fn rest(&self, mask: u8) -> Rest {
        let mut r = Rest::NONE;
        let mut m = mask & self.in_round;
        while m != 0 {
            let s = m.trailing_zeros() as usize;
            m &= m - 1;
            let (t, broke) = (
                self.tide[s & (SLOTS - 1)],
                self.lifebuoys[s & (SLOTS - 1)] == 0,
            );
            if t > r.top {
                (r.top, r.at_top, r.broke) = (t, 1, broke);
            } else if t == r.top {
                r.at_top += 1;
                r.broke |= broke;
            }
            r.lowest = r.lowest.min(t);
        }
        r
    }

    /// The cost for the bot of the hand's result with seat `s1` showing `v1` and seat `s2`
    /// showing `v2`; see [`GreedyBot`] for the terms.
    #[inline(always)]
    fn with(&self, s1: usize, v1: u8, s2: usize, v2: u8) -> f64 {
        let me = self.me;
        let mut tide = self.tide;
        tide[s1 & (SLOTS - 1)] = v1;
        tide[s2 & (SLOTS - 1)] = v2;
        // The usual case first: two different seats still in get the tides and the highest
        // tide's seats all have a lifebuoy to lose, so rules steps 4–7 stop after one pass and
        // nobody is eliminated. The other seats still in keep their tides, whose highest and
        // lowest come from the table of `rest`.
        let (b1, b2) = (1u8 << (s1 & (SLOTS - 1)), 1u8 << (s2 & (SLOTS - 1)));
        if s1 == s2 || self.in_round & b1 == 0 || self.in_round & b2 == 0 {
            return self.slow(tide);
        }
        let others = self.in_round & !(b1 | b2);
        let r = self.rest(others);
        let top = v1.max(v2).max(r.top);
        let (lost1, lost2, lost_r) = (v1 == top, v2 == top, r.top == top);
        if top == 0
            || (lost1 && self.lifebuoys[s1 & (SLOTS - 1)] == 0)
            || (lost2 && self.lifebuoys[s2 & (SLOTS - 1)] == 0)
            || (lost_r && r.broke)
        {
            return self.slow(tide);
        }
        let losers = u32::from(lost1) + u32::from(lost2) + if lost_r { r.at_top } else { 0 };
        let lowest = v1.min(v2).min(r.lowest);
        let me_in = self.in_round >> me & 1 != 0;
        let (x, others_top) = if me == s1 {
            (v1, v2.max(r.top))
        } else if me == s2 {
            (v2, v1.max(r.top))
        } else {
            let without_me = others & !(1u8 << (me & (SLOTS - 1)));
            (
                self.tide[me & (SLOTS - 1)],
                v1.max(v2).max(self.rest(without_me).top),
            )
        };
        let me_lost = u32::from(me_in && x == top);
        self.cost(
            HALVES_PER_LIFEBUOY * me_lost,
            HALVES_PER_LIFEBUOY * (losers - me_lost),
            me_in,
            self.n_active <= 2 || self.last_hand,
            x,
            lowest,
            others_top,
        )
    }

    /// [`Eval::with`] for any table `tide` (the hand's tides handed out): rules steps 4–7 in
    /// full (the rules module's `lose_lifebuoys`), then the cost.
    #[cold]
    fn slow(&self, mut tide: [u8; SLOTS]) -> f64 {
        let me = self.me;
        let mut lb = self.lifebuoys;
        let mut mask = self.in_round;
        let ended =
            super::lose_lifebuoys(&mut tide, &mut lb, &mut mask, self.recheck) || self.last_hand;
        // Every seat's loss (in half points), the lowest tide and the others' highest tide.
        let (mut mine, mut theirs) = (0u32, 0u32);
        let (mut lowest, mut others_top) = (u8::MAX, 0u8);
        for s in 0..MAX_SEATS {
            let now_in = has(mask, s);
            if has(self.in_round, s) {
                let loss = if now_in {
                    HALVES_PER_LIFEBUOY * u32::from(self.lifebuoys[s].saturating_sub(lb[s]))
                } else {
                    ELIMINATION_HALVES
                };
                if s == me {
                    mine = loss;
                } else {
                    theirs += loss;
                }
            }
            if now_in {
                lowest = lowest.min(tide[s]);
                if s != me {
                    others_top = others_top.max(tide[s]);
                }
            }
        }
        let x = tide[me & (SLOTS - 1)];
        self.cost(mine, theirs, has(mask, me), ended, x, lowest, others_top)
    }

    /// The cost of a result: the bot loses `mine` half points and its opponents `theirs` in
    /// all; `still_in` whether the bot is still in, `ended` whether the round ends, `x` its tide,
    /// `lowest` the lowest tide of the seats still in and `others_top` the highest of the
    /// others'.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn cost(
        &self,
        mine: u32,
        theirs: u32,
        still_in: bool,
        ended: bool,
        x: u8,
        lowest: u8,
        others_top: u8,
    ) -> f64 {
        let mut cost = f64::from(mine) * 0.5;
        if self.k > 0.0 {
            cost -= OPPONENT_WEIGHT * (f64::from(theirs) * 0.5) / self.k;
        }
        if !still_in {
            return cost;
        }
        if ended {
            if x == lowest {
                cost -= BONUS_VALUE;
            }
            return cost;
        }
        if x > 0 {
            let share = if others_top > x { 0.35 } else { 1.0 };
            let f = f64::from(x) / 12.0;
            cost += self.danger * f * f * share;
        }
        cost
    }
}

/// `x` to the power `n` by the same multiplications, in the same order, as `f64::powi` (square
/// and multiply from the lowest bit, then one division for a negative `n`), so the result is
/// the same to the last bit.
#[inline]
fn powi(x: f64, n: i32) -> f64 {
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

impl GreedyBot {
    /// The costs of the bot taking the low tide, the high tide, or nothing in this hand.
    fn outcome_costs(
        &self,
        game: &TurnTheTide,
        st: &TurnTheTideState,
        opponents: &[usize],
    ) -> [f64; 3] {
        let me = self.seat;
        let (a, b) = (st.revealed[0], st.revealed[1]);
        let (low, high) = (a.min(b), a.max(b));
        let e = Eval::new(game, st, me, opponents.len());
        let div = opponents.len().max(1) as f64;
        let take_low = opponents
            .iter()
            .map(|&o| e.with(me, low, o, high))
            .sum::<f64>()
            / div;
        // As second-highest the bot gets the high tide (a choosing highest seat is assumed to
        // keep the low one); as highest with `highest_chooses_tide` it picks the better one.
        let take_high = opponents
            .iter()
            .map(|&o| e.with(me, high, o, low))
            .sum::<f64>()
            / div;
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
                    nothing += e.with(o1, low, o2, high);
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
        let (opponents, k) = opponents_of(me, st.in_round);
        let costs = self.outcome_costs(game, st, &opponents[..k]);
        let mut seen = st.hands.get(me).copied().unwrap_or(0);
        for (played, &len) in st.played.iter().zip(&st.played_len).take(game.players) {
            for &c in &played[..usize::from(len).min(HAND_SIZE)] {
                seen |= 1u64 << (c & 63);
            }
        }
        let unseen = ALL_CARDS & !seen;
        let m = f64::from(bits::count(unseen).max(1));
        let k = k as i32;
        // A card's cost is `s(q) + CARD_COST · c`, and `q` depends only on how many unseen
        // cards lie above it: a higher card with as many above it costs at least as much, so
        // it can never be the first cheapest one and is not evaluated.
        let mut last: Option<(u32, u32)> = None;
        cheapest(legal, f64::INFINITY, |c| {
            let above = bits::count(
                unseen & !((bits::bit_in(c, LOWEST_CARD, HIGHEST_CARD) << 1).wrapping_sub(1)),
            );
            if last.is_some_and(|(n, prev)| n == above && prev < c) {
                return f64::INFINITY;
            }
            last = Some((above, c));
            let q = f64::from(above) / m;
            let p_high = powi(1.0 - q, k);
            let p_second = f64::from(k) * q * powi(1.0 - q, k - 1);
            let p_none = (1.0 - p_high - p_second).max(0.0);
            p_high * costs[0] + p_second * costs[1] + p_none * costs[2] + CARD_COST * f64::from(c)
        })
        .unwrap_or_else(|| legal.first().copied().unwrap_or(0))
    }

    fn choose_tide(&self, game: &TurnTheTide, st: &TurnTheTideState, legal: &[u32]) -> u32 {
        // At this node every card of the hand has been revealed (the last entries of `played`).
        let (first, second) = game.top_two(st);
        let k = opponents_of(self.seat, st.in_round).1;
        let e = Eval::new(game, st, self.seat, k);
        let (a, b) = (st.revealed[0], st.revealed[1]);
        cheapest(legal, f64::INFINITY, |choice| {
            let (mine, other) = if choice == TAKE_TIDE_A {
                (a, b)
            } else {
                (b, a)
            };
            e.with(first, mine, second, other)
        })
        .unwrap_or_else(|| legal.first().copied().unwrap_or(0))
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
        // A single legal action is what every evaluation below would pick.
        if let [only] = legal {
            return *only;
        }
        match st.phase {
            Phase::Play => self.choose_card(game, st, legal),
            Phase::ChooseTide => self.choose_tide(game, st, legal),
            _ => legal.first().copied().unwrap_or(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::powi;
    use crate::rng::SplitMix64;

    /// [`powi`] gives `f64::powi`'s result to the last bit.
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
            }
        }
    }
}
