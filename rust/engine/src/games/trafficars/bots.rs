//! The built-in `greedy` bot of Trafficars: a one-turn lookahead over the rules' own resolution
//! (see [`GreedyBot`]). It reads only what its seat's observation holds plus its memory of the
//! cards it saw on the table; it must never read other hands, pending commitments of other seats
//! or the undealt deck, and it changes no rule.

use super::{
    tok_id, Board, Decision, Kind, Lane, Phase, Trafficars, TrafficarsState, DOUBLE, FIRST_CARD,
    FREE_PLACE_OPTION, ID_SLOTS, LANE_OPTION, LAST_CARD, MAX_LANES, MAX_SEATS, START,
};
use crate::bits;
use crate::game::{cheapest, Bot};
use crate::rng::SplitMix64;

/// Opponent deals sampled per candidate card for plain `greedy`: none, its cards are weighed
/// by the formula (`greedy:N` samples `N`).
pub(super) const DEFAULT_SAMPLES: usize = 0;
/// The most deals `greedy:N` may sample: the lookahead's cost grows with the count.
pub(super) const MAX_SAMPLES: usize = 64;
/// The sample count whose deals the lookahead keeps in fixed arrays and loops over unrolled
/// (`greedy:3`, plain `greedy` before the formula); other counts keep them in vectors.
const FIXED_SAMPLES: usize = 3;
/// Cost of spending a special card (ambulance, police car, tow truck): specials are kept for
/// turns where they save at least this many penalty cards.
const SPECIAL_COST: f64 = 1.0;
/// Weight of the other seats' average penalty cards (taken this turn) as a gain for the bot.
const OPPONENT_WEIGHT: f64 = 0.3;

/// The `greedy` bot: a one-turn lookahead that minimises its own penalty cards.
///
/// It reads only what its seat's observation holds: its hand, the lanes, the penalty counts,
/// this turn's and the last turn's revealed cards and the resolution queue, plus its memory of
/// every card it has seen on the table (never other hands, other seats' pending commitments or
/// the undealt deck).
///
/// The cost of a turn's outcome is the bot's own penalty cards taken in it minus
/// `OPPONENT_WEIGHT` (0.3) times the other seats' average.
///
/// Committing a card (plain `greedy`): each card of its hand gets its expected penalty cards
/// this turn by a formula, and it commits the cheapest (the lowest id on a tie). The unseen
/// cards are the deck less its hand and the cards it has seen; each other seat is taken to play
/// one of them, uniformly and independently. A car or trailer goes to the lane whose end is the
/// highest number below it (or to an open lane, which costs nothing unless it is full, the
/// cheaper counting); the other seats' numbered cards between that end and the card resolve
/// before it into the same lane, their count binomial over the other seats with the share of
/// such cards among the unseen ones; a car takes the lane, with its cards and theirs, exactly
/// when the cars before it bring the lane to `max_cars` (a full lane: at once); a trailer that
/// fits never takes one. A card too low for every lane costs the fewest cards of a lane times
/// the chance that no other seat plays a lower numbered card or a police car (either gives it a
/// place). A special card (ambulance, police car, tow truck) costs 0.5 (specials are kept for
/// turns where every numbered card is expected to cost more), plus the fewest cards of a lane
/// if every lane is full. Its memory is read off the table when it commits: the lanes and the
/// last turn's reveal then hold every card that reached the table since its previous commit.
///
/// Committing a card (`greedy:N`, `N` from 1 to 64, built by [`GreedyBot::with_samples`]; plain
/// `greedy` too with `too_low = "insert"`, which the formula does not model, over 3 deals): for
/// each card of its hand it plays out this turn's resolution once per sampled deal, the other
/// seats' cards drawn uniformly (without replacement) from the cards it has not seen, every
/// resolution choice in the simulation taking the option with the fewest immediate penalty
/// cards (the first such option on a tie); the same sampled deals are used for every candidate.
/// A card's cost is its average outcome cost, plus `SPECIAL_COST` (1.0) for a special card; it
/// commits the cheapest card (the lowest id on a tie). More deals cost more and estimate a
/// card's cost more finely: with the default options and 4 players each count measured (2, 3,
/// 4, 6, 8 and 16) plays stronger than every smaller one, against `random` and head to head;
/// the formula plays stronger than `greedy:3` against `random` and head to head, and than
/// `greedy:16` head to head. `greedy:3` and `greedy:8` make the decisions of plain `greedy` in
/// earlier versions.
///
/// Resolution choices: every revealed card is public then, so it plays out the rest of the turn
/// exactly for each option (the other seats choosing as above) and takes the cheapest option
/// (the lowest action id on a tie); a take therefore usually goes to the lane with the fewest
/// cards (the cost counts the other seats' penalties too). Plain `greedy` plays a special card's
/// options out on lane summaries made mid-turn, which give the same penalties as the lanes.
#[derive(Clone, Debug)]
pub struct GreedyBot {
    seat: usize,
    rng: SplitMix64,
    /// Opponent deals sampled per candidate card, in `0..=MAX_SAMPLES` (0: the formula).
    samples: usize,
    /// The deals of a count other than [`FIXED_SAMPLES`], kept from one decision to the next.
    deals: DealBuffers,
    /// Every card id the bot has seen on the table or revealed (so no longer in any hand).
    seen: u64,
    /// The [`lanes_epoch`] of the last state whose lanes went into `seen`, if it has one.
    epoch: Option<u16>,
}

impl Default for GreedyBot {
    /// The `greedy` bot, weighing cards by the formula.
    fn default() -> Self {
        Self::with_samples(DEFAULT_SAMPLES)
    }
}

/// A name for the stretch of a game in which `st` lies and the lanes gain no card but this
/// turn's revealed ones (`Board::revealed_mask` while they are in play), if it is one: a turn
/// from its commits to the end of its resolution (only revealed cards go into a lane, and the
/// reveal is cleared when the turn ends, before the next commit phase), or the deal of the hands
/// once the lane starters are dealt. `None` elsewhere.
#[inline]
fn lanes_epoch(g: &Trafficars, st: &TrafficarsState) -> Option<u16> {
    match st.phase {
        Phase::Commit | Phase::Resolve => Some(u16::from(st.turn)),
        Phase::Deal if usize::from(st.dealt) >= g.lanes => Some(u16::MAX),
        _ => None,
    }
}

/// The bits of the card ids (`FIRST_CARD..=LAST_CARD`).
const CARD_BITS: u64 = (u64::MAX >> (63 - LAST_CARD)) & !((1 << FIRST_CARD) - 1);

/// Bit `n` for the number `n` of card `id` (0 for a card without a number).
#[inline]
fn number_bit(g: &Trafficars, id: u8) -> u64 {
    // Numbers are at most 50: the shift never wraps.
    (1u64 << (g.number(id) & 63)) & !1
}

impl GreedyBot {
    /// The bot sampling `samples` opponent deals per candidate card (`greedy:N`), brought into
    /// `0..=64`; 0 weighs the cards by the formula (plain `greedy`).
    pub fn with_samples(samples: usize) -> Self {
        Self {
            seat: 0,
            rng: SplitMix64::default(),
            samples: samples.min(MAX_SAMPLES),
            deals: DealBuffers::default(),
            seen: 0,
            epoch: None,
        }
    }

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

    /// Own penalty cards taken since `before` (given the penalty counts `now`) minus
    /// [`OPPONENT_WEIGHT`] times the other seats' average.
    #[inline]
    fn cost_after(&self, g: &Trafficars, now: &[u16; MAX_SEATS], before: &[u16; MAX_SEATS]) -> f64 {
        let (mine, others) = taken_since(now, before, self.seat);
        self.cost_of(g, mine, others)
    }

    /// The outcome cost of the bot taking `mine` penalty cards and the other seats `others`.
    #[inline]
    fn cost_of(&self, g: &Trafficars, mine: u32, others: u32) -> f64 {
        Self::cost_among(mine, others, Self::other_seats(g))
    }

    /// The number of other seats, as the divisor of [`GreedyBot::cost_among`].
    #[inline]
    fn other_seats(g: &Trafficars) -> f64 {
        (g.players.max(2) - 1) as f64
    }

    /// [`GreedyBot::cost_of`] with the number of other seats `other_seats` (from
    /// [`GreedyBot::other_seats`]) converted once for many outcomes.
    #[inline(always)]
    fn cost_among(mine: u32, others: u32, other_seats: f64) -> f64 {
        f64::from(mine) - OPPONENT_WEIGHT * f64::from(others) / other_seats
    }

    /// The card to commit. Run with the CPU's bit instructions (see
    /// `crate::cpu::with_bit_instructions`): the deals' draws and counts are then single
    /// instructions instead of calls and portable bit tricks (the same draws either way).
    ///
    /// [`FIXED_SAMPLES`] and the other sample counts are compiled apart (`DEFAULT` = whether
    /// the bot samples [`FIXED_SAMPLES`] deals), so that its lookahead loops over a number of
    /// deals known when compiling and its code is not shared with the other counts'.
    ///
    /// Plain `greedy` (no samples) comes here only with `too_low = "insert"`, which its formula
    /// does not model: it then samples [`FIXED_SAMPLES`] deals.
    fn choose_card(&mut self, g: &Trafficars, st: &TrafficarsState, legal: &[u32]) -> u32 {
        if matches!(self.samples, 0 | FIXED_SAMPLES) {
            crate::cpu::with_bit_instructions(
                #[inline(always)]
                || self.choose_card_steps::<true>(g, st, legal),
            )
        } else {
            crate::cpu::with_bit_instructions(
                #[inline(always)]
                || self.choose_card_steps::<false>(g, st, legal),
            )
        }
    }

    /// The body of [`GreedyBot::choose_card`].
    #[inline(always)]
    fn choose_card_steps<const DEFAULT: bool>(
        &mut self,
        g: &Trafficars,
        st: &TrafficarsState,
        legal: &[u32],
    ) -> u32 {
        // The summary gives the same penalties as the lanes themselves for every rule but the
        // insertion of too-low cards, which needs every place of a lane.
        match TurnBoard::of(g, &st.board) {
            // The default three lanes with the loops over them unrolled.
            Some(start) if !g.insert && g.lanes == 3 => {
                self.choose_card_on::<_, DEFAULT>(g, st, legal, Lanes::<3>(start), [0; MAX_SEATS])
            }
            Some(start) if !g.insert => {
                self.choose_card_on::<_, DEFAULT>(g, st, legal, start, [0; MAX_SEATS])
            }
            _ => self.choose_card_on::<_, DEFAULT>(g, st, legal, st.board, st.board.penalties),
        }
    }

    /// [`GreedyBot::choose_card`] playing its lookahead on `start` (the board at the start of
    /// the turn, or its summary), whose penalty counts are `before`.
    ///
    /// A card's cost is the sum, in sample order, of its outcome cost in every sample (and
    /// `SPECIAL_COST` after each one for a special card); the cheapest card wins, the first one
    /// on a tie. No outcome costs less than `floor`: the bot taking no card while the others
    /// take every card on the table and every revealed one but the last to resolve. So once a
    /// card's sum so far, with `floor` (and its special cost) added for each sample left,
    /// passes the full cost of a card already played out, or reaches it from a later place in
    /// the hand, the card cannot win, and the rest of its samples are not played out: the sums
    /// are added in the same order, and a float sum never decreases when one of its terms
    /// grows. Every card is played out in the first sample, then the cards in full in the order
    /// of their cost in it (the first one on a tie), so that a cheap card is found early: the
    /// order changes no sum and no bound, only how many outcomes are left out.
    #[inline(always)]
    fn choose_card_on<T: KeptDeals, const DEFAULT: bool>(
        &mut self,
        g: &Trafficars,
        st: &TrafficarsState,
        legal: &[u32],
        start: T,
        before: [u16; MAX_SEATS],
    ) -> u32 {
        let me = self.seat;
        let hand = st.hands.get(me).copied().unwrap_or(0);
        let mut on_table = 0u64;
        for lane in &st.board.lanes[..g.lanes] {
            on_table |= lane.cards_mask();
        }
        let pool = g.deck & !(hand | self.seen | on_table);
        // The numbers a rule may compare the bot's number with this turn, but for those of the
        // other seats' cards (bit `n` = number `n`).
        let table_numbers = start.numbers(g, on_table);
        // The same deals for every candidate, drawn first, in sample order: the default's on
        // the stack, any other count in the bot's own vector, taken out while it is used.
        let mut few;
        let mut kept = Vec::new();
        let deals: &mut [Deal<T>] = if DEFAULT {
            few = Deal::samples(start);
            &mut few
        } else {
            kept = std::mem::take(T::kept(&mut self.deals));
            kept.clear();
            kept.resize(self.samples, Deal::new(start));
            &mut kept
        };
        let samples = deals.len();
        // `bits::pick` drawn by hand: the pool is counted once, and every card drawn leaves one
        // fewer (the same draw, `below` of the count, and the same card of that rank).
        let unseen = u64::from(bits::count(pool));
        for deal in deals.iter_mut() {
            let mut cards = [0u8; MAX_SEATS];
            let mut left = pool;
            let mut n = unseen;
            for s in (0..g.players.min(MAX_SEATS)).filter(|&s| s != me) {
                // A uniform unseen card (nothing drawn once none is left).
                if n == 0 {
                    break;
                }
                let pick = bits::select(left, self.rng.below(n) as u32);
                cards[s] = pick as u8;
                // (A rank below the count always selects a card: bit 64, never, would wrap to
                // bit 0, which is no card.)
                left &= !1u64.wrapping_shl(pick);
                n -= 1;
            }
            deal.deal(g, &cards, table_numbers);
        }
        let legal = &legal[..legal.len().min(ID_SLOTS)];
        if legal.is_empty() {
            *T::kept(&mut self.deals) = kept;
            return 0;
        }
        // Every card taken this turn is on the table or revealed, but for the last one to
        // resolve, which nothing can take after it.
        let floor = self.cost_of(g, 0, bits::count(on_table) + g.players as u32 - 1);
        let extra = |c: u32| {
            (!matches!(g.kind(c as u8), Kind::Car | Kind::Trailer)).then_some(SPECIAL_COST)
        };
        let other_seats = Self::other_seats(g);
        let mut sums = [0f64; ID_SLOTS];
        for (sum, &c) in sums.iter_mut().zip(legal) {
            *sum += self.outcome(g, &mut deals[0], c as u8, &before, other_seats);
            if let Some(e) = extra(c) {
                *sum += e;
            }
        }
        // The cards in the order of their cost in the first sample (the first one on a tie).
        let mut order = [0u8; ID_SLOTS];
        for i in 0..legal.len() {
            let mut k = i;
            while k > 0 && sums[usize::from(order[k - 1])] > sums[i] {
                order[k] = order[k - 1];
                k -= 1;
            }
            order[k] = i as u8;
        }
        // The cheapest card played out in full so far: its cost and index.
        let mut best = (f64::INFINITY, usize::MAX);
        'cards: for &i in &order[..legal.len()] {
            let i = usize::from(i);
            let c = legal[i];
            let e = extra(c);
            let mut sum = sums[i];
            // The least a deal left adds to the cost, and a margin far above the rounding
            // errors of the sums: the exact bound is added up only when this estimate comes
            // near the cheapest cost.
            let step = floor + e.unwrap_or(0.0);
            // The deals left, `samples - k`, counted down as a float (exact for so few).
            let mut left = (samples - 1) as f64;
            for (k, deal) in deals.iter_mut().enumerate().skip(1) {
                if sum + step * left >= best.0 - 1e-6 {
                    let mut bound = sum;
                    for _ in k..samples {
                        bound += floor;
                        if let Some(e) = e {
                            bound += e;
                        }
                    }
                    if bound > best.0 || (bound == best.0 && best.1 < i) {
                        continue 'cards;
                    }
                }
                sum += self.outcome(g, deal, c as u8, &before, other_seats);
                if let Some(e) = e {
                    sum += e;
                }
                left -= 1.0;
            }
            if sum < best.0 || (sum == best.0 && i < best.1) {
                best = (sum, i);
            }
        }
        // The vector goes back to the bot (an empty one for the default, which has none).
        *T::kept(&mut self.deals) = kept;
        legal.get(best.1).copied().unwrap_or(0)
    }

    /// The outcome cost of the bot's `card` in `deal`: the turn played out on its board with
    /// the other seats' cards of the deal (`other_seats` is [`GreedyBot::other_seats`]).
    #[inline(always)]
    fn outcome<T: TurnPlay>(
        &self,
        g: &Trafficars,
        deal: &mut Deal<T>,
        card: u8,
        before: &[u16; MAX_SEATS],
        other_seats: f64,
    ) -> f64 {
        let me = self.seat;
        let kind = g.kind(card);
        let numbered = matches!(kind, Kind::Car | Kind::Trailer);
        let x = g.number(card);
        // A numbered card of the same kind as one played out already, with no number of
        // `numbers` between the two (inclusive), gets the same result: it takes the same queue
        // position (every other card's number is in `numbers`, so no other card's (class,
        // number, seat) lies between the two cards'), every comparison a rule makes with either
        // number comes out the same, and no rule reads a numbered card's id beyond its number
        // and kind. Its cost is that one's. Two numbers outside `numbers` have none of it
        // between them exactly when as many of its numbers are below each: the memory is
        // keyed by kind and that count (a number in `numbers` matches no other card's).
        // (Numbers are at most 50: the shift never wraps.)
        let bit = 1u64 << (x & 63);
        let key = (numbered && deal.numbers & bit == 0).then(|| {
            let below = deal.numbers & (bit - 1);
            (below.count_ones() as u16) << 1 | u16::from(kind == Kind::Trailer)
        });
        if let Some(key) = key {
            let keys = &deal.keys[..deal.n_played.min(MEMO)];
            if let Some(i) = keys.iter().position(|&k| k == key) {
                return deal.costs.get(i).copied().unwrap_or(0.0);
            }
        }
        let others = &deal.others;
        // The bot's place in the queue: the others' queue with its card inserted in the (class,
        // number, seat) order of `Trafficars::reveal`.
        let j = others.position(Queue::key(g, me, card));
        // The other seats' cards come before or after the bot's card in the queue, and the ones
        // before resolve the same whatever the bot's card is: its card is in no lane yet, so
        // its being revealed changes no option and no penalty of theirs. They are resolved once
        // per deal (on a queue without the bot's card) and shared by every candidate. An
        // ambulance is the exception: whether the overflow check runs after an earlier
        // ambulance depends on it, so it is played out from the reveal.
        let mut b;
        if kind == Kind::Ambulance {
            b = deal.prefix[0];
            b.reveal_own(me, card);
            for i in 0..j {
                let next = if i + 1 < j { others.card(i + 1) } else { card };
                b.play(g, others.seat(i), others.card(i), next);
            }
        } else {
            while deal.ready <= j {
                let i = deal.ready - 1;
                deal.prefix[i + 1] = deal.prefix[i];
                deal.prefix[i + 1].play(g, others.seat(i), others.card(i), others.card(i + 1));
                deal.ready += 1;
            }
            b = deal.prefix[j];
            b.reveal_own(me, card);
        }
        // The queue's last card is resolved only for its penalty: nothing reads the board
        // after it.
        let last = others.len();
        if j == last {
            b.play_last(g, me, card);
        } else {
            b.play(g, me, card, others.card(j));
            for i in j..last - 1 {
                b.play(g, others.seat(i), others.card(i), others.card(i + 1));
            }
            b.play_last(g, others.seat(last - 1), others.card(last - 1));
        }
        let (mine, others_took) = b.taken(me, before);
        let result = Self::cost_among(mine, others_took, other_seats);
        if let Some(key) = key {
            let i = deal.n_played;
            if let (Some(k), Some(c)) = (deal.keys.get_mut(i), deal.costs.get_mut(i)) {
                (*k, *c) = (key, result);
                deal.n_played += 1;
            }
        }
        result
    }

    /// The resolution option to take (see [`GreedyBot`]). The choice of a numbered card plays
    /// the rest of the turn on the lane summaries when they apply ([`TurnBoard::of_numbered`]),
    /// which give every seat the same penalty cards as the lanes themselves.
    fn choose_option(&self, g: &Trafficars, st: &TrafficarsState, legal: &[u32]) -> u32 {
        let before = st.board.penalties;
        let Some((seat, card, c)) = g.head_choice(&st.board) else {
            return legal.first().copied().unwrap_or(0);
        };
        if let Some(start) = TurnBoard::of_numbered(g, &st.board, c.kind) {
            let other_seats = Self::other_seats(g);
            return cheapest(legal, f64::INFINITY, |a| {
                let mut b = start;
                b.carry_out_numbered(g, seat, card, c.kind, a);
                b.finish_numbered(g, &st.board);
                let (mine, others) = b.taken(self.seat, &before);
                Self::cost_among(mine, others, other_seats)
            })
            .unwrap_or_else(|| legal.first().copied().unwrap_or(0));
        }
        cheapest(legal, f64::INFINITY, |a| {
            let mut b = st.board;
            g.carry_out(&mut b, seat, card, c.kind, a);
            g.next_card(&mut b, card);
            Self::finish_turn(g, &mut b);
            self.cost_after(g, &b.penalties, &before)
        })
        .unwrap_or_else(|| legal.first().copied().unwrap_or(0))
    }
}

/// What the rest of one turn's resolution can read of a lane, in a few bytes (see
/// [`TurnBoard`]). Built from a lane at the start of a turn (nothing revealed yet, so no stack
/// of this turn's ambulances or police cars), then changed the way `Trafficars::carry_out`
/// changes the lane's tokens, as far as any later option, penalty or overflow check of the same
/// turn can tell.
///
/// Within a turn the cards resolve by class: ambulances, police cars, tow trucks, then numbered
/// cards. So the front place matters only while ambulances resolve, a free place exists only
/// once tow trucks did (at most one per lane, just before the tow truck's place until numbered
/// cards come), and the place before the last one matters only to tow trucks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct TurnLane {
    /// Card ids in the lane (what taking it costs).
    cards: u8,
    /// cars(L).
    cars: u8,
    /// The stack value of the last place (0 = open).
    end: u8,
    /// The stack value of the place before the last one (0 when open or when there is none).
    prev: u8,
    /// Card ids in the last place.
    last_cards: u8,
    /// Whether the last place counts as two cars.
    last_double: bool,
    /// Whether the last place's bottom card is a police car revealed this turn.
    police_last: bool,
    /// Card ids in the front place.
    front_cards: u8,
    /// Whether the front place's bottom card is an ambulance revealed this turn.
    ambulance_front: bool,
    /// The seat of the topmost ambulance of that front stack.
    front_owner: u8,
    /// Whether the lane has a free place.
    free: bool,
    /// The stack value of the place before the free place (0 if it is first).
    free_after: u8,
    /// Whether the free place is the place just before the last one.
    free_is_prev: bool,
}

impl TurnLane {
    /// Puts an ambulance of `seat` at the front of the lane: onto the ambulance already there
    /// (the stack counts one car), or as a new car.
    #[inline(always)]
    fn add_ambulance(&mut self, seat: usize) {
        if self.ambulance_front {
            self.front_cards += 1;
        } else {
            self.cars += 1;
            self.front_cards = 1;
            self.ambulance_front = true;
        }
        self.cards += 1;
        self.front_owner = seat as u8;
    }

    /// The summary of `lane` with nothing of it revealed this turn; `None` for a lane without
    /// places (never the case once the starters are dealt).
    #[inline(always)]
    fn of(g: &Trafficars, lane: &Lane) -> Option<Self> {
        let s = lane.last_start()?;
        let t = lane.toks();
        // One pass over the tokens: the card ids of the lane, of its front place (up to the
        // next place's first token) and of its last place.
        let (mut cards, mut front_cards, mut last_cards) = (0u8, 0u8, 0u8);
        let mut in_front = true;
        for (i, &x) in t.iter().enumerate() {
            in_front &= i == 0 || x & START == 0;
            if tok_id(x) != 0 {
                cards += 1;
                front_cards += u8::from(in_front);
                last_cards += u8::from(i >= s);
            }
        }
        let free = lane.free_place();
        Some(Self {
            cards,
            cars: lane.cars,
            end: g.end_value(lane).unwrap_or(0),
            prev: match s.checked_sub(1) {
                Some(i) => g.top_value(t.get(i).copied().unwrap_or(0)),
                None => 0,
            },
            last_cards,
            last_double: t.get(s).is_some_and(|&x| x & DOUBLE != 0),
            police_last: false,
            front_cards,
            ambulance_front: false,
            front_owner: 0,
            free: free.is_some(),
            free_after: g.free_after(lane).unwrap_or(0),
            free_is_prev: free.is_some_and(|i| i + 1 == s),
        })
    }

    /// [`TurnLane::of`] for a lane without a free place, whose tokens are then all cards.
    #[inline(always)]
    fn of_full(g: &Trafficars, lane: &Lane) -> Option<Self> {
        let s = lane.last_start()?;
        let t = lane.toks();
        let len = t.len();
        // The front place runs up to the next place's first token.
        let front = t
            .iter()
            .skip(1)
            .position(|&x| x & START != 0)
            .map_or(len, |p| p + 1);
        Some(Self {
            cards: len as u8,
            cars: lane.cars,
            end: g.end_value(lane).unwrap_or(0),
            prev: match s.checked_sub(1) {
                Some(i) => g.top_value(t.get(i).copied().unwrap_or(0)),
                None => 0,
            },
            last_cards: len.saturating_sub(s) as u8,
            last_double: t.get(s).is_some_and(|&x| x & DOUBLE != 0),
            front_cards: front as u8,
            // No stack of this turn, no free place.
            ..Self::default()
        })
    }

    /// The lane holding only a new place of one card with stack value `end` (after a take, or
    /// a car into a full lane).
    #[inline]
    fn single(end: u8, police: bool) -> Self {
        Self {
            cards: 1,
            cars: 1,
            end,
            last_cards: 1,
            police_last: police,
            front_cards: 1,
            ..Self::default()
        }
    }

    /// A new place of one card with stack value `end` at the end of the lane.
    #[inline]
    fn push_place(&mut self, end: u8, police: bool) {
        self.prev = self.end;
        self.end = end;
        self.cars += 1;
        self.cards += 1;
        self.last_cards = 1;
        self.last_double = false;
        self.police_last = police;
        self.free_is_prev = false;
    }

    /// A card with stack value `end` on top of the last place.
    #[inline]
    fn push_on_last(&mut self, end: u8) {
        self.end = end;
        self.cards += 1;
        self.last_cards += 1;
    }
}

/// The part of a board one turn's resolution reads and changes, with the lanes as
/// [`TurnLane`]s: what the `greedy` bot plays its lookahead on when choosing a card (the exact
/// [`Board`] otherwise). `taken` counts the penalty cards taken since the summary was made,
/// `total` their sum.
#[derive(Clone, Copy, Debug)]
struct TurnBoard {
    lanes: [TurnLane; MAX_LANES],
    taken: [u16; MAX_SEATS],
    total: u16,
}

impl TurnBoard {
    /// The summary of `b` between turns (nothing revealed, no free place); `None` if a lane
    /// has no place or a free place.
    #[inline(never)]
    fn of(g: &Trafficars, b: &Board) -> Option<Self> {
        if b.revealed_mask != 0 {
            return None;
        }
        let mut lanes = [TurnLane::default(); MAX_LANES];
        for (t, lane) in lanes.iter_mut().zip(&b.lanes[..g.lanes]) {
            if lane.free_place().is_some() {
                return None;
            }
            *t = TurnLane::of_full(g, lane)?;
        }
        Some(Self {
            lanes,
            taken: [0; MAX_SEATS],
            total: 0,
        })
    }

    /// The summary of `b` while the queue's head card, of decision `kind`, is a numbered card
    /// (so only numbered cards are left to resolve in the turn): `None` for any other decision,
    /// with `too_low = insert`, or if a lane has no place or more than one free place. What
    /// this turn's ambulances and police cars stacked is left out: no numbered card reads it.
    fn of_numbered(g: &Trafficars, b: &Board, kind: Decision) -> Option<Self> {
        if g.insert || !matches!(kind, Decision::Target | Decision::Take) {
            return None;
        }
        let mut lanes = [TurnLane::default(); MAX_LANES];
        for (t, lane) in lanes.iter_mut().zip(&b.lanes[..g.lanes]) {
            if lane.toks().iter().filter(|&&x| tok_id(x) == 0).count() > 1 {
                return None;
            }
            *t = TurnLane::of(g, lane)?;
        }
        Some(Self {
            lanes,
            taken: [0; MAX_SEATS],
            total: 0,
        })
    }

    /// `Trafficars::carry_out` of option `act` of decision `kind` (a target or a take) for the
    /// numbered `card` of `seat`, on the summary from [`TurnBoard::of_numbered`].
    fn carry_out_numbered(
        &mut self,
        g: &Trafficars,
        seat: usize,
        card: u8,
        kind: Decision,
        act: u32,
    ) {
        let Some(l) = g.lane_of(act).and_then(|k| self.lanes.get_mut(k)) else {
            return;
        };
        let x = g.number(card);
        if act >= FREE_PLACE_OPTION {
            // The card fills the free place (if there is one).
            if l.free {
                l.cards += 1;
                l.free = false;
            }
            return;
        }
        let car = g.kind(card) == Kind::Car;
        let taken = match kind {
            Decision::Target if !car => {
                l.push_on_last(x);
                0
            }
            Decision::Target if !Self::full(g, l) => {
                l.push_place(x, false);
                0
            }
            Decision::Target | Decision::Take => {
                let taken = l.cards;
                *l = TurnLane::single(x, false);
                taken
            }
            _ => 0,
        };
        self.penalize(seat, taken);
    }

    /// Resolves the cards queued after the head of `b` (numbered cards, `b` being the board the
    /// summary was made of) with the bot's policy.
    fn finish_numbered(&mut self, g: &Trafficars, b: &Board) {
        let rest = b.pending().get(1..).unwrap_or(&[]);
        let card = |s: u8| b.revealed.get(usize::from(s)).copied().unwrap_or(0);
        for (i, &s) in rest.iter().enumerate() {
            match rest.get(i + 1) {
                Some(&next) => self.resolve::<0, false>(g, usize::from(s), card(s), card(next)),
                None => self.resolve::<0, true>(g, usize::from(s), card(s), 0),
            }
        }
    }

    #[inline]
    fn penalize(&mut self, seat: usize, cards: u8) {
        if cards > 0 {
            if let Some(p) = self.taken.get_mut(seat) {
                *p += u16::from(cards);
                self.total += u16::from(cards);
            }
        }
    }

    /// Carries out a tow truck of `seat` into lane `k`: on a full lane (the 5th car) the tow
    /// truck with its load becomes the lane's only place and the seat takes the rest of the
    /// lane; otherwise it tows the last place away and leaves a free place where it stood.
    #[inline(always)]
    fn tow_into(&mut self, g: &Trafficars, seat: usize, k: usize) {
        let full = Self::full(g, &self.lanes[k]);
        let l = &mut self.lanes[k];
        let load = l.last_cards;
        if full {
            let p = l.cards - l.last_cards;
            *l = TurnLane::single(l.end, false);
            l.cards = 1 + load;
            l.last_cards = 1 + load;
            self.penalize(seat, p);
        } else {
            let removed = 1 + u8::from(l.last_double) + u8::from(l.free_is_prev);
            l.cars = l.cars - removed + 2;
            l.cards += 1;
            l.last_cards = load + 1;
            l.last_double = false;
            l.police_last = false;
            if !l.free_is_prev {
                l.free_after = l.prev;
            }
            l.prev = 0;
            l.free = true;
            l.free_is_prev = true;
        }
    }

    /// Whether lane `l` is full for a car.
    #[inline(always)]
    fn full(g: &Trafficars, l: &TurnLane) -> bool {
        g.max_cars.is_some_and(|m| u32::from(l.cars) >= m)
    }

    /// The first lane of least `penalty` among the first `n` lanes (with it), `None` if `n` is 0
    /// (or no lane is `ok`).
    #[inline(always)]
    fn least(
        lanes: &[TurnLane],
        ok: impl Fn(&TurnLane) -> bool,
        penalty: impl Fn(&TurnLane) -> u8,
    ) -> Option<(u8, usize)> {
        // Without an early exit at a penalty of 0 (the least there is, and the first lane wins a
        // tie), so that the loop over a known number of lanes unrolls: the least of the keys
        // penalty · 8 + lane (lanes < 8), which orders by penalty, then by lane, with a key
        // past any penalty for lanes that are not `ok`.
        const _: () = assert!(MAX_LANES <= 8);
        let mut best = u16::MAX;
        for (k, l) in lanes.iter().enumerate() {
            let key = if ok(l) {
                u16::from(penalty(l)) << 3 | k as u16
            } else {
                u16::MAX
            };
            best = best.min(key);
        }
        (best != u16::MAX).then_some(((best >> 3) as u8, usize::from(best & 7)))
    }

    /// Resolves `card` of `seat` as [`GreedyBot::resolve_head`] does on a [`Board`], `next`
    /// being the card queued after it (0 for none). `N` is the number of lanes when known at
    /// compile time (so that the loops over the lanes unroll), 0 otherwise. With `LAST` (the
    /// queue's last card, so `next` is 0) only the penalty counts are kept exact: the lanes are
    /// left unchanged where a card but an ambulance would change them, as nothing reads them
    /// after the turn's last card.
    #[inline(always)]
    fn resolve<const N: usize, const LAST: bool>(
        &mut self,
        g: &Trafficars,
        seat: usize,
        card: u8,
        next: u8,
    ) {
        let n = Self::lane_count::<N>(g);
        let kind = g.kind(card);
        match kind {
            Kind::Ambulance => {
                let m = g.max_cars;
                let penalty = |l: &TurnLane| {
                    if l.ambulance_front {
                        if m.is_some_and(|m| u32::from(l.cars) > m) {
                            l.cards - l.front_cards
                        } else {
                            0
                        }
                    } else if m.is_some_and(|m| u32::from(l.cars) + 1 > m) {
                        l.cards
                    } else {
                        0
                    }
                };
                if let Some((_, k)) = Self::least(&self.lanes[..n], |_| true, penalty) {
                    self.lanes[k].add_ambulance(seat);
                }
                // After the turn's last ambulance, the overflow check (only an ambulance can be
                // the last one, so it is made here).
                if last_ambulance(g, card, next) {
                    self.overflow::<N>(g);
                }
            }
            Kind::Police => {
                let lanes = &mut self.lanes[..n];
                if let Some(l) = lanes
                    .iter_mut()
                    .find(|l| l.police_last || !Self::full(g, l))
                {
                    if LAST {
                        return;
                    }
                    if l.police_last {
                        l.push_on_last(0);
                    } else {
                        l.push_place(0, true);
                    }
                } else if let Some((p, k)) = Self::least(lanes, |_| true, |l| l.cards) {
                    self.penalize(seat, p);
                    if !LAST {
                        self.lanes[k] = TurnLane::single(0, true);
                    }
                }
            }
            Kind::TowTruck => {
                let full = |l: &TurnLane| Self::full(g, l);
                let penalty = |l: &TurnLane| if full(l) { l.cards - l.last_cards } else { 0 };
                if let Some((p, k)) = Self::least(&self.lanes[..n], |_| true, penalty) {
                    if LAST {
                        self.penalize(seat, p);
                        return;
                    }
                    self.tow_into(g, seat, k);
                }
            }
            Kind::Car | Kind::Trailer => {
                let x = g.number(card);
                let car = kind == Kind::Car;
                let lanes = &mut self.lanes[..n];
                // The highest closed end below `x` (an open end, 0, changes no maximum).
                let mut best = 0;
                for l in lanes.iter() {
                    if l.end < x {
                        best = best.max(l.end);
                    }
                }
                let fits = |l: &TurnLane| l.end == 0 || l.end == best;
                let target = |l: &TurnLane| {
                    if car && Self::full(g, l) {
                        l.cards
                    } else {
                        0
                    }
                };
                let (take, (p, k)) = match Self::least(lanes, fits, target) {
                    Some(found) => (false, found),
                    None => match Self::least(lanes, |_| true, |l| l.cards) {
                        Some(found) => (true, found),
                        None => return,
                    },
                };
                if p > 0 {
                    // Filling a free place costs nothing.
                    if let Some(l) = lanes.iter_mut().find(|l| l.free && l.free_after < x) {
                        l.cards += 1;
                        l.free = false;
                        return;
                    }
                }
                if LAST {
                    self.penalize(seat, p);
                    return;
                }
                let l = &mut lanes[k];
                // Outside a take, the penalty is the lane's cards exactly when a car goes to a
                // full lane, and a summary's lane always holds a card (its places start with
                // cards: it is made without a free place, and no rule empties a lane).
                if take || p > 0 {
                    *l = TurnLane::single(x, false);
                    self.penalize(seat, p);
                } else if car {
                    l.push_place(x, false);
                } else {
                    l.push_on_last(x);
                }
            }
        }
    }

    /// The number of lanes: `N` when it is not 0 (see [`TurnBoard::resolve`]).
    #[inline(always)]
    fn lane_count<const N: usize>(g: &Trafficars) -> usize {
        if N == 0 {
            g.lanes.min(MAX_LANES)
        } else {
            N.min(MAX_LANES)
        }
    }

    /// `Trafficars::ambulance_overflow` on the summaries.
    fn overflow<const N: usize>(&mut self, g: &Trafficars) {
        let Some(m) = g.max_cars else {
            return;
        };
        for k in 0..Self::lane_count::<N>(g) {
            let l = self.lanes[k];
            if !l.ambulance_front || u32::from(l.cars) <= m {
                continue;
            }
            let mut front = TurnLane::single(0, false);
            front.cards = l.front_cards;
            front.last_cards = l.front_cards;
            front.front_cards = l.front_cards;
            self.lanes[k] = front;
            self.penalize(usize::from(l.front_owner), l.cards - l.front_cards);
        }
    }
}

/// The penalty cards taken since `before` (given the penalty counts `now`) by `seat` and by the
/// other seats together.
#[inline]
fn taken_since(now: &[u16; MAX_SEATS], before: &[u16; MAX_SEATS], seat: usize) -> (u32, u32) {
    // Counted as integers: sums of a few small integers are exact in `f64` as well.
    // Seats past the players never take a card.
    let taken = |p: usize| u32::from(now[p].saturating_sub(before[p]));
    let all = (0..MAX_SEATS).map(taken).sum::<u32>();
    let mine = taken(seat.min(MAX_SEATS - 1));
    (mine, all - mine)
}

/// Whether `card`, followed in the queue by `next` (0 for none), is the turn's last ambulance,
/// after which the ambulance overflow check runs (`Trafficars::next_card`).
#[inline(always)]
fn last_ambulance(g: &Trafficars, card: u8, next: u8) -> bool {
    g.kind(card) == Kind::Ambulance && (next == 0 || g.kind(next) != Kind::Ambulance)
}

/// Numbered candidates whose outcome a [`Deal`] remembers. Candidates past them are played out
/// without being remembered: a remembered outcome is the exact one, so this only trades the
/// work of setting up and copying a larger memory for every deal against the replays it saves.
const MEMO: usize = 8;

/// One sampled deal of [`GreedyBot::choose_card`]'s lookahead: the other seats' cards and what
/// every candidate shares of them.
#[derive(Clone, Copy, Debug)]
struct Deal<T> {
    /// The other seats' cards in queue order.
    others: Queue,
    /// Every number a rule may compare the bot's number with this turn (bit `n` = number `n`).
    numbers: u64,
    /// The boards after the first `i` of the others' cards are resolved (`ready` of them
    /// computed so far).
    prefix: [T; MAX_SEATS],
    ready: usize,
    /// The numbered candidates played out in this deal (`n_played` of them, each with a
    /// number outside `numbers`): their keys (see [`GreedyBot::outcome`]) and outcome costs.
    keys: [u16; MEMO],
    costs: [f64; MEMO],
    n_played: usize,
}

impl<T: TurnPlay> Deal<T> {
    /// A deal on `start` without cards yet.
    fn new(start: T) -> Self {
        Self {
            others: Queue::of_none(),
            numbers: 0,
            prefix: [start; MAX_SEATS],
            ready: 1,
            keys: [0; MEMO],
            costs: [0.0; MEMO],
            n_played: 0,
        }
    }

    /// [`FIXED_SAMPLES`] deals on `start` without cards yet (made apart from the lookahead,
    /// whose other code then compiles the same whatever the layout of a deal).
    #[inline(never)]
    fn samples(start: T) -> [Self; FIXED_SAMPLES] {
        [Self::new(start); FIXED_SAMPLES]
    }

    /// The other seats' `cards` revealed (the bot's own slot 0), `table_numbers` being the
    /// numbers of the board a rule may compare with.
    fn deal(&mut self, g: &Trafficars, cards: &[u8; MAX_SEATS], table_numbers: u64) {
        self.others = Queue::of(g, cards);
        self.prefix[0].reveal(g, cards);
        self.numbers = cards
            .iter()
            .fold(table_numbers, |m, &id| m | number_bit(g, id));
    }
}

/// The deals of [`GreedyBot::choose_card`] for a sample count other than [`FIXED_SAMPLES`],
/// one vector per board the lookahead plays on, kept by the bot so that a decision sets up
/// exactly as many deals as it samples without allocating them anew.
#[derive(Clone, Debug, Default)]
struct DealBuffers {
    board: Vec<Deal<Board>>,
    summary: Vec<Deal<TurnBoard>>,
    three: Vec<Deal<Lanes<3>>>,
}

/// A board the lookahead plays on whose deals the bot keeps in a [`DealBuffers`].
trait KeptDeals: TurnPlay {
    /// The vector of this board's deals in `buffers`.
    fn kept(buffers: &mut DealBuffers) -> &mut Vec<Deal<Self>>;
}

impl KeptDeals for Board {
    fn kept(buffers: &mut DealBuffers) -> &mut Vec<Deal<Self>> {
        &mut buffers.board
    }
}

impl KeptDeals for TurnBoard {
    fn kept(buffers: &mut DealBuffers) -> &mut Vec<Deal<Self>> {
        &mut buffers.summary
    }
}

impl KeptDeals for Lanes<3> {
    fn kept(buffers: &mut DealBuffers) -> &mut Vec<Deal<Self>> {
        &mut buffers.three
    }
}

/// The resolution queue of a reveal in the order of `Trafficars::reveal`: by (class, number,
/// seat).
#[derive(Clone, Copy, Debug)]
struct Queue {
    /// The sort keys (class, number and seat packed in one integer), in queue order, then
    /// `u32::MAX` (above every key).
    keys: [u32; MAX_SEATS],
    /// The card per queue position, then 0: the card after the last is "none".
    cards: [u8; MAX_SEATS + 1],
    len: usize,
}

impl Queue {
    /// The sort key of `card` revealed by `seat`: (class, number, seat) packed into one integer
    /// that orders the same way (class < 4, number ≤ 50, seat < 5).
    #[inline]
    fn key(g: &Trafficars, seat: usize, card: u8) -> u32 {
        g.queue_key(card) | seat as u32
    }

    /// The empty queue.
    fn of_none() -> Self {
        Self {
            keys: [u32::MAX; MAX_SEATS],
            cards: [0; MAX_SEATS + 1],
            len: 0,
        }
    }

    /// The queue of the revealed `cards` (0 = no card for that seat).
    #[inline]
    fn of(g: &Trafficars, cards: &[u8; MAX_SEATS]) -> Self {
        let mut q = Self::of_none();
        for (s, &card) in cards.iter().enumerate().take(g.players) {
            if card == 0 {
                continue;
            }
            let key = Self::key(g, s, card);
            // Insertion sort: at most five seats.
            let mut i = q.len.min(MAX_SEATS - 1);
            while i > 0 && q.keys[i - 1] > key {
                q.keys[i] = q.keys[i - 1];
                q.cards[i] = q.cards[i - 1];
                i -= 1;
            }
            q.keys[i] = key;
            q.cards[i] = card;
            q.len += 1;
        }
        q
    }

    /// The number of queued cards.
    #[inline]
    fn len(&self) -> usize {
        self.len
    }

    /// The position a card of sort key `key` takes in the queue.
    #[inline]
    fn position(&self, key: u32) -> usize {
        // The keys after the queued ones are above every key, so every slot is counted (a loop
        // of known length).
        self.keys.iter().filter(|&&k| k < key).count()
    }

    /// The seat of queue position `i`.
    #[inline]
    fn seat(&self, i: usize) -> usize {
        self.keys.get(i).map_or(0, |&k| (k & 0xFF) as usize)
    }

    /// The card of queue position `i` (0 past the end).
    #[inline]
    fn card(&self, i: usize) -> u8 {
        self.cards.get(i).copied().unwrap_or(0)
    }
}

/// A board the lookahead of [`GreedyBot::choose_card`] plays one turn on: the exact [`Board`]
/// or its [`TurnBoard`] summary, which give every seat the same penalty cards.
trait TurnPlay: Copy {
    /// Flow step 4, as far as the resolution reads it: `cards` are revealed (the bot's own
    /// slot may still be 0). Nothing for a summary, whose resolution reads no reveal.
    #[inline]
    fn reveal(&mut self, _g: &Trafficars, _cards: &[u8; MAX_SEATS]) {}
    /// The bot's own `card`, of seat `seat`, is revealed as well (nothing for a summary).
    #[inline]
    fn reveal_own(&mut self, _seat: usize, _card: u8) {}
    /// Resolves `card` of `seat` with the bot's policy, `next` being the card queued after it
    /// (0 for none).
    fn play(&mut self, g: &Trafficars, seat: usize, card: u8, next: u8);
    /// Resolves `card` of `seat`, the last card of the queue, as far as the penalty counts go:
    /// the rest of the board may be left as it was.
    #[inline(always)]
    fn play_last(&mut self, g: &Trafficars, seat: usize, card: u8) {
        self.play(g, seat, card, 0);
    }
    /// Every number a rule may compare a numbered card with during the turn, but for those of
    /// the cards revealed in it (bit `n` = number `n`); `on_table` holds the cards in the lanes.
    fn numbers(&self, g: &Trafficars, on_table: u64) -> u64;
    /// The penalty cards taken since the counts were `before` by `seat` and by the other seats
    /// together (a summary counts from 0, so it is given `before` = 0 and ignores it).
    fn taken(&self, seat: usize, before: &[u16; MAX_SEATS]) -> (u32, u32);
}

impl TurnPlay for Board {
    #[inline]
    fn reveal(&mut self, g: &Trafficars, cards: &[u8; MAX_SEATS]) {
        g.reveal(self, cards);
    }

    #[inline]
    fn reveal_own(&mut self, seat: usize, card: u8) {
        if let Some(slot) = self.revealed.get_mut(seat) {
            *slot = card;
        }
        self.revealed_mask |= bits::bit_in(u32::from(card), FIRST_CARD, LAST_CARD);
    }

    #[inline]
    fn play(&mut self, g: &Trafficars, seat: usize, card: u8, next: u8) {
        let (kind, act) = GreedyBot::least_penalty_option(g, self, card);
        g.carry_out(self, seat, card, kind, act);
        if last_ambulance(g, card, next) {
            g.ambulance_overflow(self);
        }
    }

    /// The numbers of every card in the lanes: the insertion of a too-low card compares it
    /// with every place.
    #[inline]
    fn numbers(&self, g: &Trafficars, on_table: u64) -> u64 {
        bits::ones(on_table).fold(0u64, |m, id| m | number_bit(g, id as u8))
    }

    #[inline]
    fn taken(&self, seat: usize, before: &[u16; MAX_SEATS]) -> (u32, u32) {
        taken_since(&self.penalties, before, seat)
    }
}

impl TurnPlay for TurnBoard {
    #[inline(always)]
    fn play(&mut self, g: &Trafficars, seat: usize, card: u8, next: u8) {
        self.resolve::<0, false>(g, seat, card, next);
    }

    #[inline(always)]
    fn play_last(&mut self, g: &Trafficars, seat: usize, card: u8) {
        self.resolve::<0, true>(g, seat, card, 0);
    }

    /// The stack values of the lane ends and of the places before them: every other value a
    /// summary holds or comes to hold during the turn is the number of a card revealed in it.
    #[inline]
    fn numbers(&self, g: &Trafficars, _on_table: u64) -> u64 {
        let bit = |v: u8| 1u64.checked_shl(u32::from(v)).unwrap_or(0) & !1;
        self.lanes[..g.lanes.min(MAX_LANES)]
            .iter()
            .fold(0, |m, l| m | bit(l.end) | bit(l.prev) | bit(l.free_after))
    }

    #[inline]
    fn taken(&self, seat: usize, _before: &[u16; MAX_SEATS]) -> (u32, u32) {
        let mine = u32::from(self.taken.get(seat).copied().unwrap_or(0));
        (mine, u32::from(self.total) - mine)
    }
}

/// A [`TurnBoard`] of a game with `N` lanes, whose lookahead loops over the lanes unrolled.
#[derive(Clone, Copy, Debug)]
struct Lanes<const N: usize>(TurnBoard);

impl<const N: usize> TurnPlay for Lanes<N> {
    #[inline(always)]
    fn play(&mut self, g: &Trafficars, seat: usize, card: u8, next: u8) {
        self.0.resolve::<N, false>(g, seat, card, next);
    }

    #[inline(always)]
    fn play_last(&mut self, g: &Trafficars, seat: usize, card: u8) {
        self.0.resolve::<N, true>(g, seat, card, 0);
    }

    #[inline]
    fn numbers(&self, g: &Trafficars, on_table: u64) -> u64 {
        self.0.numbers(g, on_table)
    }

    #[inline(always)]
    fn taken(&self, seat: usize, before: &[u16; MAX_SEATS]) -> (u32, u32) {
        self.0.taken(seat, before)
    }
}

impl Bot<Trafficars> for GreedyBot {
    fn reset(&mut self, _game: &Trafficars, seat: usize, rng: SplitMix64) {
        self.seat = seat.min(MAX_SEATS - 1);
        self.rng = rng;
        self.seen = 0;
        self.epoch = None;
    }

    fn act(&mut self, game: &Trafficars, st: &TrafficarsState, legal: &[u32]) -> u32 {
        // Plain `greedy` first: it remembers the table at every commit, a forced one too.
        if let Some(a) = self.act_unlisted(game, st) {
            return a;
        }
        if let [only] = legal {
            return *only;
        }
        match st.phase {
            Phase::Commit => self.choose_card(game, st, legal),
            Phase::Resolve => self.choose_option(game, st, legal),
            _ => legal.first().copied().unwrap_or(0),
        }
    }

    /// Plain `greedy` decides from the state alone (its memory updated as it commits); `greedy:N`
    /// needs the legal actions (`None`).
    fn act_unlisted(&mut self, game: &Trafficars, st: &TrafficarsState) -> Option<u32> {
        if self.samples != 0 {
            return None;
        }
        match st.phase {
            Phase::Commit => {
                self.remember(game, st);
                Some(self.choose_card_by_formula(game, st))
            }
            Phase::Resolve => {
                let acts = st.choice.acts();
                let mut legal = [0u32; 2 * MAX_LANES];
                for (d, &a) in legal.iter_mut().zip(acts) {
                    *d = u32::from(a);
                }
                let legal = &legal[..acts.len().min(legal.len())];
                if let [only] = legal {
                    return Some(*only);
                }
                let special = !matches!(st.choice.kind, Decision::Target | Decision::Take);
                Some(
                    special
                        .then(|| self.special_option(game, st, legal))
                        .flatten()
                        .unwrap_or_else(|| self.choose_option(game, st, legal)),
                )
            }
            _ => None,
        }
    }

    /// Only `greedy:N` follows every state (its memory of the table); plain `greedy` reads its
    /// memory off the table when it commits.
    fn observes(&self) -> bool {
        self.samples != 0
    }

    fn observe(&mut self, game: &Trafficars, st: &TrafficarsState) {
        // The lanes are read once per stretch in which they gain no card but revealed ones: the
        // bot sees the states of one game (from its reset on), so a later state of the same
        // stretch holds no card of its lanes that is not in `seen` or revealed.
        let epoch = lanes_epoch(game, st);
        if epoch.is_some() && epoch == self.epoch {
            self.seen |= st.board.revealed_mask;
            return;
        }
        self.epoch = epoch;
        // `Lane::cards_mask` of every lane, a shift per token: ids are six bits, and the free
        // place's 0 (like anything outside the card ids) is masked off.
        let mut m = 0u64;
        for lane in &st.board.lanes[..game.lanes] {
            for &t in lane.toks() {
                m |= 1u64 << tok_id(t);
            }
        }
        self.seen |= m & CARD_BITS | st.board.revealed_mask;
    }
}

#[path = "formula.rs"]
mod formula;

#[cfg(test)]
#[path = "tests/lookahead.rs"]
mod tests;
