//! The built-in `greedy` bot of Trafficars: a one-turn lookahead over the rules' own resolution
//! (see [`GreedyBot`]). It reads only what its seat's observation holds plus its memory of the
//! cards it saw on the table; it must never read other hands, pending commitments of other seats
//! or the undealt deck, and it changes no rule.

use super::{
    Board, Decision, Kind, Phase, Trafficars, TrafficarsState, FIRST_CARD, FREE_PLACE_OPTION,
    ID_SLOTS, LANE_OPTION, LAST_CARD, MAX_LANES, MAX_SEATS,
};
use crate::bits;
use crate::game::{cheapest, Bot};
use crate::rng::SplitMix64;

/// Opponent deals sampled per candidate card when choosing a card to commit.
const SAMPLES: usize = 8;
/// Cost of spending a special card (ambulance, police car, tow truck): specials are kept for
/// turns where they save at least this many penalty cards.
const SPECIAL_COST: f64 = 1.0;
/// Weight of the other seats' average penalty cards (taken this turn) as a gain for the bot.
const OPPONENT_WEIGHT: f64 = 0.3;

/// The `greedy` bot: a one-turn lookahead that minimises its own penalty cards.
///
/// It reads only what its seat's observation holds: its hand, the lanes, the penalty counts,
/// this turn's revealed cards and the resolution queue, plus its memory of every card it has seen
/// on the table (never other hands, other seats' pending commitments or the undealt deck).
///
/// The cost of a turn's outcome is the bot's own penalty cards taken in it minus
/// `OPPONENT_WEIGHT` times the other seats' average.
///
/// Committing a card: for each card of its hand it plays out this turn's resolution
/// `SAMPLES` times, the other seats' cards drawn uniformly (without replacement) from the cards
/// it has not seen, every resolution choice in the simulation taking the option with the fewest
/// immediate penalty cards (the first such option on a tie); the same sampled deals are used for
/// every candidate. A card's cost is its average outcome cost, plus `SPECIAL_COST` for an
/// ambulance, police car or tow truck; it commits the cheapest card (the lowest id on a tie). In
/// effect it plays cards that fit closely above a lane end, avoids being the car after a full
/// lane or a card too low for every lane, and saves its specials to dodge such penalties.
///
/// Resolution choices: every revealed card is public then, so it plays out the rest of the turn
/// exactly for each option (the other seats choosing as above) and takes the cheapest option
/// (the lowest action id on a tie); a take therefore goes to the lane with the fewest cards.
#[derive(Clone, Debug, Default)]
pub struct GreedyBot {
    seat: usize,
    rng: SplitMix64,
    /// Every card id the bot has seen on the table or revealed (so no longer in any hand).
    seen: u64,
}

/// Bit `n` for the number `n` of card `id` (0 for a card without a number).
#[inline]
fn number_bit(g: &Trafficars, id: u8) -> u64 {
    1u64.checked_shl(u32::from(g.number(id))).unwrap_or(0) & !1
}

/// The bits of the numbers from the smaller of `a` and `b` to the larger, both included.
#[inline]
fn number_range(a: u8, b: u8) -> u64 {
    let (lo, hi) = (u32::from(a.min(b)), u32::from(a.max(b)));
    let upto = |n: u32| 1u64.checked_shl(n + 1).map_or(u64::MAX, |b| b - 1);
    upto(hi) & !(upto(lo) >> 1)
}

impl GreedyBot {
    /// Resolves the queue's head card with the fewest-immediate-penalty policy (the first such
    /// option on a tie); false when the queue is empty.
    #[inline]
    fn resolve_head(g: &Trafficars, b: &mut Board) -> bool {
        let Some(seat) = b.head() else {
            return false;
        };
        let card = b.revealed.get(seat).copied().unwrap_or(0);
        let (kind, act) = Self::least_penalty_option(g, b, card);
        g.carry_out(b, seat, card, kind, act);
        g.next_card(b, card);
        true
    }

    /// The option of `card` on `b` with the fewest immediate penalty cards, the first one in
    /// action order on a tie, and its decision kind: the option that the policy would pick from
    /// `Trafficars::card_choice`'s list by `Trafficars::penalty_of`, found without building the
    /// list. Penalties are never negative, so the first option without one is taken at once.
    /// (Options the list cannot hold, an empty list, end as action 0, which changes nothing.)
    #[inline]
    fn least_penalty_option(g: &Trafficars, b: &Board, card: u8) -> (Decision, u32) {
        let lanes = &b.lanes[..g.lanes];
        match g.kind(card) {
            Kind::Ambulance => (
                Decision::Ambulance,
                Self::least_lane(g, b, card, Decision::Ambulance, |_| true).map_or(0, |(_, a)| a),
            ),
            Kind::TowTruck => (
                Decision::TowTruck,
                Self::least_lane(g, b, card, Decision::TowTruck, |_| true).map_or(0, |(_, a)| a),
            ),
            Kind::Police => {
                // Placing a police car costs nothing: the first lane it may go to, if any.
                for (k, lane) in lanes.iter().enumerate() {
                    if g.police_stacks(b.revealed_mask, lane) || !g.full(lane) {
                        return (Decision::Police, LANE_OPTION + k as u32);
                    }
                }
                (
                    Decision::PoliceTake,
                    Self::least_lane(g, b, card, Decision::PoliceTake, |_| true)
                        .map_or(0, |(_, a)| a),
                )
            }
            Kind::Car | Kind::Trailer => {
                let x = g.number(card);
                // Per lane: whether it has a place, and the stack value of its last place (what
                // `Trafficars::view` gives as `has_place` and `last_value`).
                let mut ends = [None; MAX_LANES];
                let mut best = 0;
                for (end, lane) in ends.iter_mut().zip(lanes) {
                    if lane.last_start().is_some() {
                        let value = g.top_value(lane.toks().last().copied().unwrap_or(0));
                        if value != 0 && value < x {
                            best = best.max(value);
                        }
                        *end = Some(value);
                    }
                }
                let ends = &ends[..lanes.len()];
                let fits = |k: usize| ends[k].is_some_and(|value| value == 0 || value == best);
                let (kind, found) = match Self::least_lane(g, b, card, Decision::Target, fits) {
                    Some(found) => (Decision::Target, found),
                    None => {
                        let kind = if g.insert {
                            Decision::Insert
                        } else {
                            Decision::Take
                        };
                        (
                            kind,
                            Self::least_lane(g, b, card, kind, |_| true).unwrap_or((0, 0)),
                        )
                    }
                };
                if found.0 > 0 {
                    // Filling a free place costs nothing; its options come after the lanes'.
                    for (k, lane) in lanes.iter().enumerate() {
                        let v = g.view(lane);
                        if v.has_free && v.free_after < x {
                            return (kind, FREE_PLACE_OPTION + k as u32);
                        }
                    }
                }
                (kind, found.1)
            }
        }
    }

    /// The first lane option (action `LANE_OPTION + k`) of least penalty among the lanes `k`
    /// for which `lane_ok(k)`, for decision `kind`, with its penalty; `None` for no such lane.
    #[inline(always)]
    fn least_lane(
        g: &Trafficars,
        b: &Board,
        card: u8,
        kind: Decision,
        lane_ok: impl Fn(usize) -> bool,
    ) -> Option<(u32, u32)> {
        let mut best: Option<(u32, u32)> = None;
        for k in 0..g.lanes.min(MAX_LANES) {
            if !lane_ok(k) {
                continue;
            }
            let act = LANE_OPTION + k as u32;
            let p = g.penalty_of(b, card, kind, act);
            if best.is_none_or(|(bp, _)| p < bp) {
                best = Some((p, act));
                if p == 0 {
                    break;
                }
            }
        }
        best
    }

    /// Resolves the rest of the queue with the fewest-immediate-penalty policy. The end of the
    /// turn (`Trafficars::end_turn_board`) is left out: it changes no penalty count, and the
    /// penalty counts are all the bot reads of the result.
    fn finish_turn(g: &Trafficars, b: &mut Board) {
        while Self::resolve_head(g, b) {}
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
        // The numbers of the cards in the lanes (bit `n` = number `n`).
        let table_numbers = bits::ones(on_table).fold(0u64, |m, id| m | number_bit(g, id as u8));
        let before = st.board.penalties;
        let mut costs = [0f64; ID_SLOTS];
        // Boards after the first `i` of the other seats' cards are resolved (`ready` of them
        // computed so far in this sample).
        let mut prefix = [st.board; MAX_SEATS];
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
            // The other seats' cards come before or after the bot's card in the queue, and
            // the ones before resolve the same whatever the bot's card is: its card is in no
            // lane yet, so its being revealed changes no option and no penalty of theirs. They
            // are resolved once per sample (on a queue without the bot's card) and shared by
            // every candidate. An ambulance is the exception: whether the overflow check runs
            // after an earlier ambulance depends on it, so it is played out from the start.
            prefix[0] = st.board;
            g.reveal(&mut prefix[0], &cards);
            let mut ready = 1;
            // Every number a rule may compare the bot's number with this turn: the numbers in
            // the lanes and those of the other seats' cards.
            let numbers = cards
                .iter()
                .fold(table_numbers, |m, &id| m | number_bit(g, id));
            // The numbered candidates played out in this sample: kind, queue position, number
            // and cost.
            let mut played = [(Kind::Car, 0usize, 0u8, 0f64); ID_SLOTS];
            let mut n_played = 0;
            for (cost, &c) in costs.iter_mut().zip(legal) {
                cards[me] = c as u8;
                let kind = g.kind(c as u8);
                let numbered = matches!(kind, Kind::Car | Kind::Trailer);
                let x = g.number(c as u8);
                let mut b;
                let mut j = 0;
                if kind == Kind::Ambulance {
                    b = st.board;
                    g.reveal(&mut b, &cards);
                } else {
                    // The queue with the bot's card: the others' queue with it inserted at its
                    // place in the (class, number, seat) order, as `Trafficars::reveal` sorts.
                    let key = |s: usize| {
                        let c = cards[s];
                        (g.kind(c).class(), g.number(c), s)
                    };
                    let mine = key(me);
                    let others = &prefix[0].queue[..usize::from(prefix[0].qlen).min(MAX_SEATS - 1)];
                    j = others
                        .iter()
                        .take_while(|&&s| key(usize::from(s)) < mine)
                        .count();
                    let mut queue = [0; MAX_SEATS];
                    queue[..j].copy_from_slice(&others[..j]);
                    queue[j] = me as u8;
                    queue[j + 1..=others.len()].copy_from_slice(&others[j..]);
                    let qlen = others.len() as u8 + 1;
                    // A numbered card of the same kind and queue position as one played out
                    // already, with no number of `numbers` between the two (inclusive), gets
                    // the same result: every comparison a rule makes with either number comes
                    // out the same, and no rule reads a numbered card's id beyond its number
                    // and kind. Its cost is that one's.
                    if numbered {
                        let same = played[..n_played].iter().find(|&&(k, pj, px, _)| {
                            k == kind && pj == j && numbers & number_range(px, x) == 0
                        });
                        if let Some(&(_, _, _, known)) = same {
                            *cost += known;
                            continue;
                        }
                    }
                    while ready <= j {
                        prefix[ready] = prefix[ready - 1];
                        Self::resolve_head(g, &mut prefix[ready]);
                        ready += 1;
                    }
                    b = prefix[j];
                    b.revealed = cards;
                    b.revealed_mask =
                        prefix[0].revealed_mask | bits::bit_in(c, FIRST_CARD, LAST_CARD);
                    b.queue = queue;
                    b.qlen = qlen;
                    b.qhead = j as u8;
                }
                Self::finish_turn(g, &mut b);
                let result = self.cost_after(g, &b, &before);
                *cost += result;
                if numbered {
                    if let Some(slot) = played.get_mut(n_played) {
                        *slot = (kind, j, x, result);
                        n_played += 1;
                    }
                } else {
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
        cheapest(legal, f64::INFINITY, |a| {
            let mut b = st.board;
            g.carry_out(&mut b, seat, card, c.kind, a);
            g.next_card(&mut b, card);
            Self::finish_turn(g, &mut b);
            self.cost_after(g, &b, &before)
        })
        .unwrap_or_else(|| legal.first().copied().unwrap_or(0))
    }
}

impl Bot<Trafficars> for GreedyBot {
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

#[cfg(test)]
mod tests {
    use super::super::tests::game;
    use super::*;
    use crate::game::{Game, TERMINAL};
    use crate::rng::derive_seed;
    use crate::session::Session;
    use serde_json::json;
    use std::sync::Arc;

    /// The bot's choice is the same when every hidden part of the state is blanked out.
    #[test]
    fn greedy_ignores_hidden_information() {
        let g = game(4, json!({}));
        let mut bots: Vec<GreedyBot> = vec![GreedyBot::default(); 4];
        let mut legal_v = Vec::new();
        for gi in 0..40u64 {
            let mut s = Session::new(Arc::clone(&g), Some(derive_seed(3, gi)));
            for (i, b) in bots.iter_mut().enumerate() {
                b.reset(&g, i, SplitMix64::new(derive_seed(gi, i as u64)));
            }
            while g.current_player(s.state()) != TERMINAL {
                let cp = g.current_player(s.state()) as usize;
                g.legal_actions(s.state(), &mut legal_v);
                let mut twin = bots[cp].clone();
                let a = bots[cp].act(&g, s.state(), &legal_v);
                let mut hidden = *s.state();
                for p in (0..4).filter(|&p| p != cp) {
                    hidden.hands[p] = 0;
                    if hidden.commitments[p] != 0 {
                        hidden.commitments[p] = 62;
                    }
                }
                hidden.deck = 0;
                assert_eq!(twin.act(&g, &hidden, &legal_v), a);
                s.apply(i64::from(a), None).unwrap();
                for b in bots.iter_mut() {
                    b.observe(&g, s.state());
                }
            }
        }
    }
}
