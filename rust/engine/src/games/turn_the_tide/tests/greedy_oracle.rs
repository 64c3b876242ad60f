//! A frozen copy of the `greedy` bot's evaluation as it was before its speed-ups, kept as the
//! oracle the optimised bot must agree with at every decision (same choice in every state).

use super::super::{
    seats, Phase, Table, TurnTheTide, TurnTheTideState, ALL_CARDS, HAND_SIZE, HIGHEST_CARD,
    LOWEST_CARD, MAX_SEATS, TAKE_TIDE_A,
};
use super::super::GreedyBot;
use crate::bits;
use crate::game::{Bot, Game};
use crate::rng::SplitMix64;
use serde_json::{json, Map, Value};
use std::sync::Arc;

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

/// The reference evaluation (the `greedy` bot as first written).
#[derive(Clone, Debug, Default)]
pub(super) struct OracleBot {
    seat: usize,
}

impl OracleBot {
    /// The cost for the bot of the public table `after` (tides already handed out) when
    /// `before` was the table at the start of the hand and `hands_left` hands follow this one.
    fn result_cost(
        &self,
        game: &TurnTheTide,
        before: &Table,
        opponents: &[usize],
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
        let k = opponents.len();
        if k > 0 {
            let total: f64 = opponents.iter().map(|&s| loss(s)).sum();
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
            self.result_cost(game, &before, opponents, t, hands_left)
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
                seen |= bits::bit_in(u32::from(c), LOWEST_CARD, HIGHEST_CARD);
            }
        }
        let unseen = ALL_CARDS & !seen;
        let m = f64::from(unseen.count_ones().max(1));
        let k = opponents_of(me, &Table::of(st)).1 as i32;
        let mut best = legal.first().copied().unwrap_or(0);
        let mut best_cost = f64::INFINITY;
        for &c in legal {
            let above =
                unseen & !((bits::bit_in(c, LOWEST_CARD, HIGHEST_CARD) << 1).wrapping_sub(1));
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
        let (opponents, k) = opponents_of(self.seat, &before);
        let opponents = &opponents[..k];
        let (a, b) = (st.revealed[0], st.revealed[1]);
        let mut best = legal.first().copied().unwrap_or(0);
        let mut best_cost = f64::INFINITY;
        for &choice in legal {
            let (mine, other) = if choice == TAKE_TIDE_A {
                (a, b)
            } else {
                (b, a)
            };
            let mut t = before;
            t.tide[first] = mine;
            t.tide[second] = other;
            let cost = self.result_cost(game, &before, opponents, t, hands_left);
            if cost < best_cost {
                best_cost = cost;
                best = choice;
            }
        }
        best
    }
}

impl Bot<TurnTheTide> for OracleBot {
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
