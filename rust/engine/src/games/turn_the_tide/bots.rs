//! The `greedy` bot of Turn the Tide: a one-hand lookahead over the public table. It reads only
//! what its seat's observation holds and never changes the state; the rules it simulates are the
//! game's own (`Table::lose_lifebuoys`), never a copy.

use super::{
    seats, Phase, Table, TurnTheTide, TurnTheTideState, ALL_CARDS, HAND_SIZE, HIGHEST_CARD,
    LOWEST_CARD, MAX_SEATS, TAKE_TIDE_A,
};
use crate::bits;
use crate::game::{cheapest, Bot};
use crate::rng::SplitMix64;

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

/// What every evaluation of one decision shares: the table at the start of the hand, the
/// opponents still in, and the parts of each seat's loss that do not depend on the result.
struct Eval<'a> {
    game: &'a TurnTheTide,
    me: usize,
    before: Table,
    opponents: &'a [usize],
    hands_left: u32,
}

impl Eval<'_> {
    /// The cost for the bot of the public table `after` (tides already handed out); see
    /// [`GreedyBot`] for the terms.
    #[inline]
    fn result_cost(&self, after: Table) -> f64 {
        let me = self.me;
        let before = &self.before;
        let mut t = after;
        let ended = t.lose_lifebuoys(self.game.recheck_after_elimination) || self.hands_left == 0;
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
        let k = self.opponents.len();
        if k > 0 {
            let total: f64 = self.opponents.iter().map(|&s| loss(s)).sum();
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
            // The highest tide of the other seats still in (they are the opponents).
            let mut others_top = 0u8;
            let mut any = false;
            for s in 0..MAX_SEATS {
                if s != me && !t.eliminated(s) {
                    others_top = others_top.max(t.tide[s]);
                    any = true;
                }
            }
            let share = if any && others_top > x { 0.35 } else { 1.0 };
            let f = f64::from(x) / 12.0;
            cost += DANGER_WEIGHT * f64::from(self.hands_left.min(DANGER_HORIZON)) * f * f * share;
        }
        cost
    }

    /// The cost of the hand's table with seat `s1` showing `v1` and seat `s2` showing `v2`.
    #[inline]
    fn with(&self, s1: usize, v1: u8, s2: usize, v2: u8) -> f64 {
        let mut t = self.before;
        t.tide[s1] = v1;
        t.tide[s2] = v2;
        self.result_cost(t)
    }
}

impl GreedyBot {
    /// The costs of the bot taking the low tide, the high tide, or nothing in this hand.
    fn outcome_costs(&self, game: &TurnTheTide, st: &TurnTheTideState, before: Table) -> [f64; 3] {
        let me = self.seat;
        let (a, b) = (st.revealed[0], st.revealed[1]);
        let (low, high) = (a.min(b), a.max(b));
        let hands_left = (HAND_SIZE as u32).saturating_sub(u32::from(st.hand_index) + 1);
        let (opponents, k) = opponents_of(me, &before);
        let opponents = &opponents[..k];
        let e = Eval {
            game,
            me,
            before,
            opponents,
            hands_left,
        };
        let div = k.max(1) as f64;
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
        let before = Table::of(st);
        let costs = self.outcome_costs(game, st, before);
        let mut seen = st.hands.get(me).copied().unwrap_or(0);
        for s in 0..game.players {
            for &c in &st.played[s][..usize::from(st.played_len[s]).min(HAND_SIZE)] {
                seen |= bits::bit_in(u32::from(c), LOWEST_CARD, HIGHEST_CARD);
            }
        }
        let unseen = ALL_CARDS & !seen;
        let m = f64::from(unseen.count_ones().max(1));
        let k = opponents_of(me, &before).1 as i32;
        cheapest(legal, f64::INFINITY, |c| {
            let above =
                unseen & !((bits::bit_in(c, LOWEST_CARD, HIGHEST_CARD) << 1).wrapping_sub(1));
            let q = f64::from(above.count_ones()) / m;
            let p_high = (1.0 - q).powi(k);
            let p_second = f64::from(k) * q * (1.0 - q).powi(k - 1);
            let p_none = (1.0 - p_high - p_second).max(0.0);
            p_high * costs[0] + p_second * costs[1] + p_none * costs[2] + CARD_COST * f64::from(c)
        })
        .unwrap_or_else(|| legal.first().copied().unwrap_or(0))
    }

    fn choose_tide(&self, game: &TurnTheTide, st: &TurnTheTideState, legal: &[u32]) -> u32 {
        // At this node every card of the hand has been revealed (the last entries of `played`).
        let (first, second) = game.top_two(st);
        let before = Table::of(st);
        let hands_left = (HAND_SIZE as u32).saturating_sub(u32::from(st.hand_index) + 1);
        let (opponents, k) = opponents_of(self.seat, &before);
        let e = Eval {
            game,
            me: self.seat,
            before,
            opponents: &opponents[..k],
            hands_left,
        };
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
