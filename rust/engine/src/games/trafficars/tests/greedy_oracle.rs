//! A frozen copy of the `greedy` bot's evaluation as it was before its speed-ups, kept as the
//! oracle the optimised bot must agree with at every decision (same choice in every state).

use super::super::{
    Board, GreedyBot, Kind, Phase, Trafficars, TrafficarsState, FIRST_CARD, ID_SLOTS, LAST_CARD,
    MAX_SEATS,
};
use crate::bits;
use crate::game::{Bot, Game};
use crate::rng::SplitMix64;
use serde_json::json;
use std::sync::Arc;

/// Opponent deals sampled per candidate card when choosing a card to commit.
const SAMPLES: usize = 8;
/// Cost of spending a special card (ambulance, police car, tow truck): specials are kept for
/// turns where they save at least this many penalty cards.
const SPECIAL_COST: f64 = 1.0;
/// Weight of the other seats' average penalty cards (taken this turn) as a gain for the bot.
const OPPONENT_WEIGHT: f64 = 0.3;

/// The reference evaluation (the `greedy` bot as first written).
#[derive(Clone, Debug, Default)]
pub(super) struct OracleBot {
    seat: usize,
    rng: SplitMix64,
    /// Every card id the bot has seen on the table or revealed (so no longer in any hand).
    seen: u64,
}

impl OracleBot {
    /// Resolves the rest of the queue with the fewest-immediate-penalty policy. The end of the
    /// turn (`Trafficars::end_turn_board`) is left out: it changes no penalty count, and the
    /// penalty counts are all the bot reads of the result.
    fn finish_turn(g: &Trafficars, b: &mut Board) {
        while let Some((seat, card, c)) = g.head_choice(b) {
            let acts = c.acts();
            let mut best = acts.first().map_or(0, |&a| u32::from(a));
            if acts.len() > 1 {
                let mut best_pen = u32::MAX;
                for &a in acts {
                    let p = g.penalty_of(b, card, c.kind, u32::from(a));
                    if p < best_pen {
                        best_pen = p;
                        best = u32::from(a);
                    }
                }
            }
            g.carry_out(b, seat, card, c.kind, best);
            g.next_card(b, card);
        }
    }

    /// Own penalty cards taken since `before` minus [`OPPONENT_WEIGHT`] times the other seats'
    /// average.
    fn cost_after(&self, g: &Trafficars, b: &Board, before: &[u16; MAX_SEATS]) -> f64 {
        let (mut mine, mut others) = (0.0, 0.0);
        for (p, (&now, &then)) in b.penalties.iter().zip(before).enumerate().take(g.players) {
            let taken = f64::from(now.saturating_sub(then));
            if p == self.seat {
                mine = taken;
            } else {
                others += taken;
            }
        }
        mine - OPPONENT_WEIGHT * others / (g.players.max(2) - 1) as f64
    }

    fn choose_card(&mut self, g: &Trafficars, st: &TrafficarsState, legal: &[u32]) -> u32 {
        let me = self.seat;
        let hand = st.hands.get(me).copied().unwrap_or(0);
        let mut on_table = 0u64;
        for lane in &st.board.lanes[..g.lanes] {
            on_table |= lane.cards_mask();
        }
        let pool = g.deck & !(hand | self.seen | on_table);
        let before = st.board.penalties;
        let mut costs = [0f64; ID_SLOTS];
        for _ in 0..SAMPLES {
            let mut cards = [0u8; MAX_SEATS];
            let mut left = pool;
            for (s, slot) in cards.iter_mut().enumerate().take(g.players) {
                if s == me {
                    continue;
                }
                // A uniform unseen card (nothing drawn once none is left).
                let Some(pick) = bits::pick(left, &mut self.rng) else {
                    continue;
                };
                *slot = pick as u8;
                left &= !bits::bit_in(pick, FIRST_CARD, LAST_CARD);
            }
            for (cost, &c) in costs.iter_mut().zip(legal) {
                let mut b = st.board;
                cards[me] = c as u8;
                g.reveal(&mut b, &cards);
                Self::finish_turn(g, &mut b);
                *cost += self.cost_after(g, &b, &before);
                if !matches!(g.kind(c as u8), Kind::Car | Kind::Trailer) {
                    *cost += SPECIAL_COST;
                }
            }
        }
        let mut best = 0;
        for (i, &cost) in costs.iter().enumerate().take(legal.len()) {
            if cost < costs[best] {
                best = i;
            }
        }
        legal.get(best).copied().unwrap_or(0)
    }

    fn choose_option(&self, g: &Trafficars, st: &TrafficarsState, legal: &[u32]) -> u32 {
        let before = st.board.penalties;
        let Some((seat, card, c)) = g.head_choice(&st.board) else {
            return legal.first().copied().unwrap_or(0);
        };
        let mut best = legal.first().copied().unwrap_or(0);
        let mut best_cost = f64::INFINITY;
        for &a in legal {
            let mut b = st.board;
            g.carry_out(&mut b, seat, card, c.kind, a);
            g.next_card(&mut b, card);
            Self::finish_turn(g, &mut b);
            let cost = self.cost_after(g, &b, &before);
            if cost < best_cost {
                best_cost = cost;
                best = a;
            }
        }
        best
    }
}

impl Bot<Trafficars> for OracleBot {
    fn reset(&mut self, _game: &Trafficars, seat: usize, rng: SplitMix64) {
        self.seat = seat.min(MAX_SEATS - 1);
        self.rng = rng;
        self.seen = 0;
    }

    fn act(&mut self, game: &Trafficars, st: &TrafficarsState, legal: &[u32]) -> u32 {
        if let [only] = legal {
            return *only;
        }
        match st.phase {
            Phase::Commit => self.choose_card(game, st, legal),
            Phase::Resolve => self.choose_option(game, st, legal),
            _ => legal.first().copied().unwrap_or(0),
        }
    }

    fn observe(&mut self, game: &Trafficars, st: &TrafficarsState) {
        for lane in &st.board.lanes[..game.lanes] {
            self.seen |= lane.cards_mask();
        }
        self.seen |= st.board.revealed_mask;
    }
}
