//! The commit rule of plain `greedy` in Trafficars: each card of the hand weighed by a formula
//! for this turn's expected penalty cards (see [`GreedyBot`]), in place of the sampled deals of
//! `greedy:N`; and its resolution choices of special cards played out on lane summaries.

use super::super::{
    tok_id, Decision, Kind, Trafficars, TrafficarsState, FIRST_CARD, LANE_OPTION, LAST_CARD,
    MAX_LANES, MAX_SEATS,
};
use super::{last_ambulance, GreedyBot, TurnBoard, TurnLane, CARD_BITS};
use crate::bits;
use crate::game::cheapest;
use std::sync::OnceLock;

/// Cost of committing a special card (ambulance, police car, tow truck) in the formula, in
/// penalty cards: specials are kept for turns where every numbered card of the hand is expected
/// to cost more. Measured with 4 players against `random` and head to head: 0.4 to 0.6 play
/// alike and best, 0.25 and 1.0 a little weaker, 0 and 2 clearly weaker.
const FORMULA_SPECIAL_COST: f64 = 0.5;

impl GreedyBot {
    /// Adds to the bot's memory every card on the table now and every card revealed in the last
    /// turn: at each of its commits, that is every card that reached the table since its
    /// previous commit (a turn reveals one card per seat, and a lane taken in it was filled by
    /// cards of that turn's reveal or of the lanes the bot saw before).
    pub(super) fn remember(&mut self, g: &Trafficars, st: &TrafficarsState) {
        let mut m = st.board.revealed_mask;
        for lane in &st.board.lanes[..g.lanes] {
            m |= lane.cards_mask();
        }
        for &c in &st.board.last_revealed[..g.players] {
            m |= 1u64 << (c & 63);
        }
        self.seen |= m & CARD_BITS;
    }

    /// The card to commit by the formula (see [`GreedyBot`]); with `too_low = "insert"`, which
    /// the formula does not model, over 3 sampled deals as `greedy:3` weighs them (with the
    /// memory the formula keeps).
    pub(super) fn choose_card_by_formula(&mut self, g: &Trafficars, st: &TrafficarsState) -> u32 {
        let hand = st.hands.get(self.seat).copied().unwrap_or(0);
        if hand.count_ones() <= 1 {
            return bits::ones(hand).next().unwrap_or(0);
        }
        if g.insert {
            let legal: Vec<u32> = bits::ones(hand).collect();
            return self.choose_card(g, st, &legal);
        }
        let seen = self.seen;
        crate::cpu::with_bit_instructions(
            #[inline(always)]
            || {
                if g.lanes == 3 {
                    formula_card::<3>(g, st, hand, seen)
                } else {
                    formula_card::<0>(g, st, hand, seen)
                }
            },
        )
    }
}

/// The card of `hand` with the least expected cost by the formula of [`GreedyBot`] (the lowest id
/// on a tie), the bot having seen the cards `seen`; `N` is the number of lanes when known at
/// compile time, else 0.
#[inline(always)]
fn formula_card<const N: usize>(g: &Trafficars, st: &TrafficarsState, hand: u64, seen: u64) -> u32 {
    let t = tables(g);
    let pool = g.deck & !(hand | seen);
    let u = bits::count(pool).max(1) as f64;
    let inv_u = 1.0 / u;
    let opp = (g.players - 1).min(MAX_SEATS - 1);
    let police = bits::count(pool & t.police);
    let numbered = pool & t.below[51];
    // Lane summaries (no free place between turns: every token is a card).
    let n = if N == 0 { g.lanes.min(MAX_LANES) } else { N };
    let mut ends = [0u8; MAX_LANES];
    let mut cars = [0u32; MAX_LANES];
    let mut cards = [0u32; MAX_LANES];
    for k in 0..n {
        let lane = &st.board.lanes[k];
        ends[k] = g.end_value(lane).unwrap_or(0);
        cars[k] = lane.cars();
        cards[k] = u32::from(lane.len);
    }
    let max_cars = g.max_cars.unwrap_or(u32::MAX);
    // Whether a special card of the bot has a lane that costs nothing (cars < max_cars).
    let any_not_full = cars[..n].iter().any(|&c| c < max_cars);
    let min_cards = cards[..n].iter().copied().min().unwrap_or(0) as f64;
    // Expected penalty of a car arriving at a lane with `c0` cars and `k0` cards after `m` of
    // the other seats' cards went there: `m` is binomial over `opp` draws, each of the `a`
    // unseen numbered cards between the lane's end and the car (of the `u` unseen ones).
    let arrive = |c0: u32, k0: u32, a: u32| -> f64 {
        if a == 0 {
            return if c0 >= max_cars { k0 as f64 } else { 0.0 };
        }
        let p = (a as f64 * inv_u).min(1.0);
        let q = 1.0 - p;
        // The bot's car takes the lane when the other seats' cards before it bring the lane to
        // `max_cars` cars: `m = max_cars - c0` of them (none for a full lane). Later multiples
        // of `max_cars` are left out (with 4 cars a lane and at most 4 other seats, only a full
        // lane and 4 other seats have one).
        let (m, k) = if c0 >= max_cars {
            (0usize, k0)
        } else {
            let m = (max_cars - c0) as usize;
            (m, k0 + m as u32)
        };
        if m > opp {
            return 0.0;
        }
        let mut pr = BINOM[opp][m];
        for _ in 0..m {
            pr *= p;
        }
        for _ in m..opp {
            pr *= q;
        }
        pr * k as f64
    };
    let mut best = (f64::INFINITY, 0u32);
    for id in bits::ones(hand) {
        let card = id as u8;
        let kind = g.kind(card);
        let cost = match kind {
            Kind::Car | Kind::Trailer => {
                let x = g.number(card);
                let car = kind == Kind::Car;
                let mut bestend = 0u8;
                for &e in &ends[..n] {
                    if e < x {
                        bestend = bestend.max(e);
                    }
                }
                let mut e = f64::INFINITY;
                for k in 0..n {
                    if ends[k] == 0 {
                        // An open lane.
                        let pen = if car && cars[k] >= max_cars {
                            cards[k] as f64
                        } else {
                            0.0
                        };
                        e = e.min(pen);
                    } else if ends[k] == bestend {
                        let pen = if car {
                            let between =
                                t.below[usize::from(x)] & !t.below[usize::from(bestend) + 1];
                            let a = bits::count(numbered & between);
                            arrive(cars[k], cards[k], a)
                        } else {
                            0.0
                        };
                        e = e.min(pen);
                    }
                }
                if e.is_infinite() {
                    // Too low for every lane: a take, unless an earlier too-low card of an
                    // opponent (or a police car) opens a way.
                    let below = bits::count(numbered & t.below[usize::from(x)]) + police;
                    let q = 1.0 - (below as f64 * inv_u).min(1.0);
                    let mut p_none = 1.0;
                    for _ in 0..opp {
                        p_none *= q;
                    }
                    e = p_none * min_cards;
                }
                e
            }
            Kind::Ambulance | Kind::Police | Kind::TowTruck => {
                FORMULA_SPECIAL_COST + if any_not_full { 0.0 } else { min_cards }
            }
        };
        if cost < best.0 {
            best = (cost, id);
        }
    }
    best.1
}

/// Binomial coefficients C(n, k), n, k < 5.
const BINOM: [[f64; MAX_SEATS]; MAX_SEATS] = [
    [1.0, 0.0, 0.0, 0.0, 0.0],
    [1.0, 1.0, 0.0, 0.0, 0.0],
    [1.0, 2.0, 1.0, 0.0, 0.0],
    [1.0, 3.0, 3.0, 1.0, 0.0],
    [1.0, 4.0, 6.0, 4.0, 1.0],
];

/// Card masks of the deck: `below[n]` holds the numbered cards (cars and trailers) with a number
/// below `n` (`n` in 0..=51), `police` the police cars.
struct Tables {
    below: [u64; 52],
    police: u64,
}

fn tables(g: &Trafficars) -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = Tables {
            below: [0; 52],
            police: 0,
        };
        for id in FIRST_CARD..=LAST_CARD {
            let c = id as u8;
            let b = 1u64 << id;
            match g.kind(c) {
                Kind::Car | Kind::Trailer => {
                    for n in usize::from(g.number(c)) + 1..52 {
                        t.below[n] |= b;
                    }
                }
                Kind::Ambulance => {}
                Kind::Police => t.police |= b,
                Kind::TowTruck => {}
            }
        }
        t
    })
}

impl GreedyBot {
    /// The resolution option of a special card (ambulance, police car, tow truck): the rest of
    /// the turn played out exactly for each option, as [`GreedyBot::choose_option`] does on the
    /// lanes, here on lane summaries made mid-turn (which give the same penalties); `None`
    /// where a summary cannot hold a lane (then `choose_option` decides).
    pub(super) fn special_option(
        &self,
        g: &Trafficars,
        st: &TrafficarsState,
        legal: &[u32],
    ) -> Option<u32> {
        if g.insert {
            return None;
        }
        let b = &st.board;
        let (seat, card, c) = g.head_choice(b)?;
        let mut start = TurnBoard {
            lanes: [TurnLane::default(); MAX_LANES],
            taken: [0; MAX_SEATS],
            total: 0,
        };
        for (t, lane) in start.lanes.iter_mut().zip(&b.lanes[..g.lanes]) {
            if lane.toks().iter().filter(|&&x| tok_id(x) == 0).count() > 1 {
                return None;
            }
            *t = TurnLane::of(g, lane)?;
            t.police_last = g.police_stacks(b.revealed_mask, lane);
            if g.ambulance_stacks(b.revealed_mask, lane) {
                t.ambulance_front = true;
                let front = lane.place_end(0);
                let top = tok_id(lane.toks().get(front.wrapping_sub(1)).copied().unwrap_or(0));
                t.front_owner = b.revealed[..g.players].iter().position(|&x| x == top)? as u8;
            }
        }
        let rest = b.pending().get(1..).unwrap_or(&[]);
        let card_of = |s: u8| b.revealed.get(usize::from(s)).copied().unwrap_or(0);
        let next = rest.first().map_or(0, |&s| card_of(s));
        let me = self.seat;
        let other_seats = (g.players.max(2) - 1) as f64;
        cheapest(legal, f64::INFINITY, |a| {
            let mut t = start;
            let k = (a - LANE_OPTION) as usize;
            if k >= g.lanes {
                return f64::INFINITY;
            }
            t.apply_special(g, seat, card, c.kind, k, next);
            for (i, &s) in rest.iter().enumerate() {
                match rest.get(i + 1) {
                    Some(&n) => t.resolve::<0, false>(g, usize::from(s), card_of(s), card_of(n)),
                    None => t.resolve::<0, true>(g, usize::from(s), card_of(s), 0),
                }
            }
            let mine = u32::from(t.taken[me]);
            let others = u32::from(t.total) - mine;
            GreedyBot::cost_among(mine, others, other_seats)
        })
    }
}

impl TurnBoard {
    /// Carries out the special `card` of `seat` (decision `kind`) into lane `k`, as
    /// `Trafficars::carry_out` does, on the summary; `next` is the card queued after it.
    fn apply_special(
        &mut self,
        g: &Trafficars,
        seat: usize,
        card: u8,
        kind: Decision,
        k: usize,
        next: u8,
    ) {
        match kind {
            Decision::Ambulance => {
                self.lanes[k].add_ambulance(seat);
                if last_ambulance(g, card, next) {
                    self.overflow::<0>(g);
                }
            }
            Decision::Police => {
                let l = &mut self.lanes[k];
                if l.police_last {
                    l.push_on_last(0);
                } else {
                    l.push_place(0, true);
                }
            }
            Decision::PoliceTake => {
                let p = self.lanes[k].cards;
                self.penalize(seat, p);
                self.lanes[k] = TurnLane::single(0, true);
            }
            Decision::TowTruck => self.tow_into(g, seat, k),
            _ => {}
        }
    }
}
