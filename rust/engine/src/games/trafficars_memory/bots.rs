//! The built-in bots of the memory game, `memory` and `forgetful:P` (see [`MemoryBot`]). They read
//! only what their seat's observation holds (faces, `seen`, `on_table`, `flipped`) and their own
//! memory; they must never read a face-down card that was never shown, and they change no rule.

use super::{
    gaps, is_joker, may_continue, Phase, TrafficarsMemory, TrafficarsMemoryState, FIRST_JOKER,
    LAST_POSITION, MAX_GRID, STOP,
};
use crate::bits;
use crate::game::Bot;
use crate::games::trafficars::{FIRST_CARD, LAST_CARD};
use crate::rng::SplitMix64;

/// Forgetting probability of `forgetful` without a parameter.
pub(super) const DEFAULT_FORGET: f64 = 0.2;

/// The bits `lo..=hi` of a mask (those past 63 left out).
#[inline]
fn span(lo: u32, hi: u32) -> u64 {
    let hi = hi.min(63);
    if lo > hi {
        0
    } else {
        (u64::MAX >> (63 - hi)) & (u64::MAX << lo)
    }
}

/// The cards a bot remembers, as sets: where they lie, which cars they are and where each car
/// lies, and where the jokers among them lie.
#[derive(Clone, Copy, Debug)]
struct Known {
    /// Positions whose card is remembered.
    positions: u64,
    /// The remembered cars (bits by car number).
    cars: u64,
    /// The positions of the remembered jokers.
    jokers: u64,
    /// The position of each remembered car, by car number (meaningless for the others).
    car_pos: [u8; FIRST_JOKER as usize],
}

impl Known {
    /// Nothing remembered.
    const NOTHING: Self = Self {
        positions: 0,
        cars: 0,
        jokers: 0,
        car_pos: [0; FIRST_JOKER as usize],
    };

    /// The cards of `layout` at the positions `mask`.
    fn of_layout(layout: &[u8; MAX_GRID], mask: u64) -> Self {
        let mut known = Self::NOTHING;
        for p in bits::ones(mask) {
            if let Some(&card) = layout.get(p as usize) {
                known.remember(p, u32::from(card));
            }
        }
        known
    }

    /// Remembers `card` at position `p`.
    #[inline]
    fn remember(&mut self, p: u32, card: u32) {
        // `p` is a position and `card` a card id, both below 64.
        let at = 1u64 << (p & 63);
        self.positions |= at;
        if is_joker(card) {
            self.jokers |= at;
        } else if let Some(slot) = self.car_pos.get_mut(card as usize) {
            *slot = p as u8;
            self.cars |= 1u64 << (card & 63);
        }
    }

    /// Forgets the card `card` at position `p`.
    #[inline]
    fn forget(&mut self, p: u32, card: u32) {
        let at = 1u64 << (p & 63);
        self.positions &= !at;
        self.jokers &= !at;
        if !is_joker(card) {
            self.cars &= !(1u64 << (card & 63));
        }
    }

    /// The card remembered at position `p` of `st`'s layout (0: none).
    #[cfg(test)]
    fn card_at(&self, st: &TrafficarsMemoryState, p: u32) -> u32 {
        if self.positions >> p & 1 == 1 {
            st.card_at(p)
        } else {
            0
        }
    }
}

/// The `memory` and `forgetful:P` bots.
///
/// Both read only what their seat's observation holds: the cards face up now (`faces`), `seen`,
/// `on_table` and `flipped`.
///
/// Memory: `memory` uses the observation's `seen` (perfect memory). `forgetful:P` keeps its own
/// memory of position → card: after every step it remembers the cards face up now and the card
/// that was just flipped and turned straight back (the breaker, which the observation shows only
/// through `seen`: a position that newly appears in `seen`, or the position the bot flipped
/// itself); it drops positions that left the table; and at the start of each of its own turns it
/// forgets each remembered card with probability P (one draw from its own stream per remembered
/// card, in increasing position order).
///
/// Play, on what it remembers (flipped cards of this turn excluded):
/// 1. a remembered joker, if any (a joker never breaks a run and only widens what may follow);
/// 2. with no car flipped yet: the lower card of the remembered pair of cars with the smallest
///    gap that the jokers flipped this turn can fill; with a car flipped: the remembered car that
///    keeps the flipped set a possible run with the fewest gaps;
/// 3. otherwise, when stopping is legal (the run flipped so far is collectable), it stops and
///    takes the run: its memory offers no safe neighbour, so a further flip could extend the run
///    only by luck and would show the others one more card's place;
/// 4. otherwise a random position it does not remember (never a known useless card first);
/// 5. otherwise (everything left is known and useless) a random face-down position.
#[derive(Clone, Debug)]
pub struct MemoryBot {
    rng: SplitMix64,
    /// `None`: perfect memory; `Some(p)`: own memory, forgetting with probability p.
    forget: Option<f64>,
    /// `forgetful`: a remembered card is forgotten when a draw's top 53 bits are below this,
    /// `ceil(p · 2^53)` (exactly the test `draw · 2^-53 < p`).
    forget_below: u64,
    /// Own memory (`forgetful`): the positions it remembers, whose cards it saw there.
    memory: Known,
    /// Positions present in `seen` at the previous step.
    prev_seen: u64,
    /// The position this bot flipped last, until the next observation.
    pending: Option<u32>,
}

impl MemoryBot {
    /// The `memory` bot (perfect memory).
    pub fn perfect() -> Self {
        Self {
            rng: SplitMix64::default(),
            forget: None,
            forget_below: 0,
            memory: Known::NOTHING,
            prev_seen: 0,
            pending: None,
        }
    }

    /// The `forgetful:p` bot.
    pub fn forgetful(p: f64) -> Self {
        Self {
            forget: Some(p),
            forget_below: (p * (1u64 << 53) as f64).ceil() as u64,
            ..Self::perfect()
        }
    }

    /// Chooses a position to flip (or [`STOP`] when `may_stop`) from the remembered cards
    /// `known` (positions flipped this turn among them are not offered again), drawing from
    /// `rng` only for a position it does not remember.
    fn choose(
        rng: &mut SplitMix64,
        st: &TrafficarsMemoryState,
        known: &Known,
        may_stop: bool,
    ) -> u32 {
        let avail = st.face_down();
        let jokers = u32::from(st.k_jokers);
        // 1. A remembered joker (the first by position).
        let known_jokers = known.jokers & avail;
        if known_jokers != 0 {
            return known_jokers.trailing_zeros();
        }
        // A card lies at one position, so the remembered cars flipped this turn are exactly
        // those among the flipped cars.
        let known_cars = known.cars & !st.k_cars;
        let car_pos = &known.car_pos;
        // 2. A remembered run continuation.
        let mut best: Option<(u32, u32)> = None;
        // The first pair of neighbours (gap 0) is the best there can be.
        let neighbours = known_cars & (known_cars >> 1);
        if st.k_cars == 0 && neighbours != 0 {
            best = Some((0, neighbours.trailing_zeros()));
        } else if st.k_cars == 0 && jokers > 0 {
            let mut prev: Option<u32> = None;
            for c in bits::ones(known_cars) {
                if let Some(pc) = prev {
                    let gap = c - pc - 1;
                    if gap <= jokers && best.is_none_or(|(g, _)| gap < g) {
                        best = Some((gap, pc));
                    }
                }
                prev = Some(c);
            }
        } else if st.k_cars != 0 {
            // Only cars within `slack` places of the flipped span can keep it a possible run:
            // one below `lo` by `d` places adds `d` gaps.
            let (lo, hi) = (st.k_cars.trailing_zeros(), 63 - st.k_cars.leading_zeros());
            let slack = jokers.saturating_sub(gaps(st.k_cars));
            let near = span(lo.saturating_sub(slack + 1), hi + slack + 1);
            for c in bits::ones(known_cars & near) {
                let cars = st.k_cars | bits::bit_in(c, FIRST_CARD, LAST_CARD);
                if may_continue(cars, jokers) {
                    let g = gaps(cars);
                    if best.is_none_or(|(bg, _)| g < bg) {
                        best = Some((g, c));
                    }
                }
            }
        }
        // The remembered position, if it is face down: it always is while the memory holds only
        // what this game showed (a card lies at one position), but a memory of another game must
        // never lead to an illegal flip.
        let remembered = best
            .and_then(|(_, c)| car_pos.get(c as usize))
            .map(|&p| u32::from(p))
            .filter(|&p| avail & bits::bit_in(p, 0, LAST_POSITION) != 0);
        if let Some(p) = remembered {
            return p;
        }
        // 3. No safe neighbour remembered: stop with the run.
        if may_stop {
            return STOP;
        }
        // 4. A position it does not remember; 5. anything.
        let unknown = avail & !known.positions;
        // A uniformly random one of them (nothing drawn when none is left).
        let from = if unknown != 0 { unknown } else { avail };
        bits::pick(from, rng).unwrap_or(0)
    }

    /// The bot's flip (or [`STOP`], which `may_stop` says is legal) in the flip phase: first it
    /// forgets (`forgetful`, at the start of its turn), then it [`chooses`](Self::choose).
    fn flip(&mut self, st: &TrafficarsMemoryState, may_stop: bool) -> u32 {
        let choice = match self.forget {
            None => {
                // Every card seen and still face down.
                let known = Known::of_layout(&st.layout, st.seen & st.face_down());
                Self::choose(&mut self.rng, st, &known, may_stop)
            }
            Some(prob) => {
                if st.flipped_len == 0 && prob > 0.0 {
                    // One draw per remembered card, in increasing position order.
                    for p in bits::ones(self.memory.positions) {
                        // A uniform draw in [0, 1), `(next >> 11) · 2^-53`, below `prob`.
                        if self.rng.next() >> 11 < self.forget_below {
                            self.memory.forget(p, st.card_at(p));
                        }
                    }
                }
                Self::choose(&mut self.rng, st, &self.memory, may_stop)
            }
        };
        self.pending = (choice != STOP).then_some(choice);
        choice
    }

    /// Updates the own memory from the observation (see the type's documentation).
    fn learn(&mut self, st: &TrafficarsMemoryState) {
        if st.phase == Phase::Layout {
            // Nothing is face up yet: forget any earlier game (a bot reset for this game has
            // nothing to forget, and is spared rewriting its memory at every card laid).
            if self.memory.positions != 0 || self.prev_seen != 0 || self.pending.is_some() {
                self.memory = Known::NOTHING;
                self.prev_seen = 0;
                self.pending = None;
            }
            return;
        }
        let mut shown = st.flipped_mask | (st.seen & !self.prev_seen);
        if let Some(p) = self.pending.take() {
            shown |= st.seen & bits::bit_in(p, 0, LAST_POSITION);
        }
        // Usually nothing is new and nothing left the table.
        let new = shown & st.on_table & !self.memory.positions;
        if new != 0 {
            for p in bits::ones(new) {
                self.memory.remember(p, st.card_at(p));
            }
        }
        // Positions off the table are forgotten.
        let gone = self.memory.positions & !st.on_table;
        if gone != 0 {
            for p in bits::ones(gone) {
                self.memory.forget(p, st.card_at(p));
            }
        }
        self.prev_seen = st.seen;
    }
}

impl Bot<TrafficarsMemory> for MemoryBot {
    fn reset(&mut self, _game: &TrafficarsMemory, _seat: usize, rng: SplitMix64) {
        self.rng = rng;
        self.memory = Known::NOTHING;
        self.prev_seen = 0;
        self.pending = None;
    }

    fn act(&mut self, _game: &TrafficarsMemory, st: &TrafficarsMemoryState, legal: &[u32]) -> u32 {
        if st.phase != Phase::Flip {
            return legal.first().copied().unwrap_or(0);
        }
        // The legal list is sorted and STOP (63) is the largest id: it can only be the last.
        self.flip(st, legal.last() == Some(&STOP))
    }

    /// At a flip the bot needs only whether stopping is legal, which the state tells directly.
    fn act_unlisted(
        &mut self,
        _game: &TrafficarsMemory,
        st: &TrafficarsMemoryState,
    ) -> Option<u32> {
        (st.phase == Phase::Flip).then(|| self.flip(st, TrafficarsMemory::can_stop(st)))
    }

    /// Only `forgetful` keeps a memory of its own.
    fn observes(&self) -> bool {
        self.forget.is_some()
    }

    fn observe(&mut self, _game: &TrafficarsMemory, st: &TrafficarsMemoryState) {
        if self.forget.is_some() {
            self.learn(st);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{flip, game, laid, S};
    use super::*;
    use crate::error::EngineError;
    use crate::game::Game;
    use crate::rng::derive_seed;
    use crate::sim::{make_bot, play_game};
    use serde_json::json;
    use std::sync::Arc;

    /// The layout of `cards` after seat 0 flips `seat0` and seat 1 flips `seat1`.
    fn flipped(g: &Arc<TrafficarsMemory>, cards: &[u32], seat0: &[u32], seat1: &[u32]) -> S {
        let mut s = laid(g, cards);
        flip(&mut s, 0, seat0);
        flip(&mut s, 1, seat1);
        s
    }

    /// `bot` reset for seat `seat` of `g` with a generator seeded by `seed`.
    fn seated(mut bot: MemoryBot, g: &TrafficarsMemory, seat: usize, seed: u64) -> MemoryBot {
        bot.reset(g, seat, SplitMix64::new(seed));
        bot
    }

    /// The action `bot` chooses among the legal actions of the session's state.
    fn choice(g: &TrafficarsMemory, bot: &mut MemoryBot, s: &S) -> u32 {
        let mut legal = Vec::new();
        g.legal_actions(s.state(), &mut legal);
        bot.act(g, s.state(), &legal)
    }

    /// The memory bot stops when its memory offers no safe neighbour, and flips on when it does.
    #[test]
    fn memory_bot_stops_without_a_safe_neighbour() {
        let g = game(2, json!({"min_number": 1, "max_number": 12}));
        let cards = vec![10, 9, 11, 3, 12, 8, 1, 2, 4, 5, 6, 7];
        // Seat 0 sees 3 and 12 (not neighbours); seat 1 flips 10 and 9.
        let s = flipped(&g, &cards, &[3, 12], &[10, 9]);
        let mut bot = seated(MemoryBot::perfect(), &g, 1, 4);
        // Nothing remembered fits 9..10 (3 and 12 do not): stop.
        assert_eq!(choice(&g, &mut bot, &s), STOP);
        // With 11 remembered (seen by seat 0), the bot flips it; then only 3 is remembered,
        // which does not fit 9..11: it stops.
        let mut s = flipped(&g, &cards, &[11, 3], &[10, 9]);
        let a = choice(&g, &mut bot, &s);
        assert_eq!(a, 2, "the remembered 11 continues 9, 10");
        s.apply(i64::from(a), Some(1)).unwrap();
        assert_eq!(choice(&g, &mut bot, &s), STOP);
        // The forgetful bot stops the same way from its own memory.
        let mut s = laid(&g, &cards);
        let mut fb = seated(MemoryBot::forgetful(0.0), &g, 1, 5);
        fb.observe(&g, s.state());
        for c in [3, 12] {
            flip(&mut s, 0, &[c]);
            fb.observe(&g, s.state());
        }
        for c in [10, 9] {
            flip(&mut s, 1, &[c]);
            fb.observe(&g, s.state());
        }
        assert_eq!(choice(&g, &mut fb, &s), STOP);
        assert_eq!(fb.pending, None);
    }

    /// A memory of another game (the bot was not shown this one's layout) never leads to an
    /// illegal flip: the remembered place of the best car is flipped already, so it is not used.
    #[test]
    fn a_memory_of_another_game_never_leads_to_an_illegal_flip() {
        let g = game(2, json!({"min_number": 1, "max_number": 12}));
        let mut bot = seated(MemoryBot::forgetful(0.0), &g, 1, 3);
        // Game A: 4 lies at position 0; seat 0 shows it (with 12).
        let mut a = laid(&g, &[4, 12, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11]);
        bot.observe(&g, a.state());
        flip(&mut a, 0, &[4, 12]);
        bot.observe(&g, a.state());
        // Game B, whose layout the bot does not see: 3 lies at position 0, and seat 1 flips it.
        let mut b = laid(&g, &[3, 12, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11]);
        flip(&mut b, 0, &[12, 1]);
        flip(&mut b, 1, &[3]);
        bot.observe(&g, b.state());
        // The bot remembers 4 at position 0, next to the flipped 3, but position 0 is face up.
        let mut legal = Vec::new();
        g.legal_actions(b.state(), &mut legal);
        for _ in 0..10 {
            let choice = bot.act(&g, b.state(), &legal);
            assert!(
                legal.contains(&choice),
                "flip {choice} is not legal: {legal:?}"
            );
        }
    }

    #[test]
    fn memory_bot_takes_known_pairs_and_runs() {
        let g = game(
            2,
            json!({"min_number": 1, "max_number": 10, "jokers": true}),
        );
        // Positions: 0:4 1:9 2:51 3:6 4:1 5:5 6:10 7:2 8:3 9:7 10:8 11:52.
        let cards = vec![4, 9, 51, 6, 1, 5, 10, 2, 3, 7, 8, 52];
        // Seat 0 flips 4 and 9 (not neighbours), seat 1 flips 6 and 1.
        let s = flipped(&g, &cards, &[4, 9], &[6, 1]);
        let mut bot = seated(MemoryBot::perfect(), &g, 0, 1);
        // Known on the table: 4, 9, 6, 1 → no pair; the bot flips an unknown position.
        for _ in 0..20 {
            let a = choice(&g, &mut bot, &s);
            assert!(
                ![0, 1, 3, 4].contains(&a),
                "flipped a known useless card {a}"
            );
        }
        // Seat 0 has flipped 5 (position 5): the known 4 and 6 continue the run.
        let mut s2 = s.clone();
        flip(&mut s2, 0, &[5]);
        let a = choice(&g, &mut bot, &s2);
        assert_eq!(a, 0);
        s2.apply(i64::from(a), Some(0)).unwrap();
        assert_eq!(choice(&g, &mut bot, &s2), 3);
        // Seat 0 flips 51 and 10, then 4 breaks: nothing taken, all three seen.
        let mut s3 = s.clone();
        flip(&mut s3, 0, &[51, 10, 4]);
        assert_eq!(g.current_player(s3.state()), 1);
        // Seat 1 knows 4, 9, 51, 6, 1, 10: the joker first, then the closest pair 9, 10.
        let mut bot1 = seated(MemoryBot::perfect(), &g, 1, 2);
        let a = choice(&g, &mut bot1, &s3);
        assert_eq!(a, 2);
        s3.apply(i64::from(a), Some(1)).unwrap();
        let a = choice(&g, &mut bot1, &s3);
        assert_eq!(
            a, 1,
            "the lower card of the closest known pair (9 of 9, 10)"
        );
        s3.apply(i64::from(a), Some(1)).unwrap();
        assert_eq!(choice(&g, &mut bot1, &s3), 6);
    }

    #[test]
    fn forgetful_bot_learns_and_forgets() {
        let g = game(2, json!({"min_number": 1, "max_number": 10}));
        let cards = vec![4, 9, 6, 1, 5, 10, 2, 3, 7, 8];
        let mut s = laid(&g, &cards);
        let mut bot = seated(MemoryBot::forgetful(0.0), &g, 1, 3);
        bot.observe(&g, s.state());
        flip(&mut s, 0, &[4]);
        bot.observe(&g, s.state());
        assert_eq!(bot.memory.card_at(s.state(), 0), 4);
        flip(&mut s, 0, &[9]);
        bot.observe(&g, s.state());
        // The breaker 9 was shown only through `seen`: still learnt.
        assert_eq!(bot.memory.card_at(s.state(), 1), 9);
        // Seat 1 flips 5: its memory says 4 is at position 0 → continues there.
        flip(&mut s, 1, &[5]);
        bot.observe(&g, s.state());
        assert_eq!(choice(&g, &mut bot, &s), 0);
        // Forgetting everything (P = 1) at the start of its turn.
        let mut s = laid(&g, &cards);
        let mut bot = seated(MemoryBot::forgetful(1.0), &g, 1, 3);
        flip(&mut s, 0, &[4]);
        bot.observe(&g, s.state());
        flip(&mut s, 0, &[9]);
        bot.observe(&g, s.state());
        assert_eq!(
            (
                bot.memory.card_at(s.state(), 0),
                bot.memory.card_at(s.state(), 1)
            ),
            (4, 9)
        );
        let _ = choice(&g, &mut bot, &s);
        assert_eq!(bot.memory.positions, 0);
    }

    /// Both bots choose every flip without the legal list, as they would with it (the kit's
    /// check), here over every option set, with jokers and with stopping legal.
    #[test]
    fn memory_bots_choose_without_the_legal_list() {
        for opts in [
            json!({}),
            json!({"jokers": true}),
            json!({"min_number": 1, "max_number": 12, "jokers": true}),
        ] {
            for players in [2, 5] {
                let g = game(players, opts.clone());
                for (i, spec) in ["memory", "forgetful", "forgetful:0.7"].iter().enumerate() {
                    crate::testing::check_unlisted_decisions(&*g, spec, 20, i as u64);
                }
            }
        }
        let g = game(2, json!({"min_number": 1, "max_number": 12}));
        let s = laid(&g, &[10, 9, 11, 3, 12, 8, 1, 2, 4, 5, 6, 7]);
        let mut bot = seated(MemoryBot::perfect(), &g, 0, 1);
        assert!(bot.act_unlisted(&*g, s.state()).is_some());
    }

    /// `forgetful:P` takes a forgetting probability P in 0..=1 and nothing else.
    #[test]
    fn forgetful_takes_a_probability_from_0_to_1() {
        let g = game(2, json!({}));
        assert!(g.make_bot("forgetful", None).is_some_and(|b| b.is_ok()));
        for ok in ["0", "0.5", "1", "1.0", "0.25"] {
            assert!(
                g.make_bot("forgetful", Some(ok)).is_some_and(|b| b.is_ok()),
                "{ok}"
            );
        }
        for bad in ["", "x", "-0.1", "1.5", "nan", "inf"] {
            let r = g.make_bot("forgetful", Some(bad));
            match r {
                Some(Err(EngineError::InvalidOption(m))) => assert!(m.contains("forgetful"), "{m}"),
                _ => panic!("forgetful:{bad} must be an InvalidOption error"),
            }
        }
        assert!(make_bot(&*g, "forgetful:0.4").is_ok());
        assert!(make_bot(&*g, "forgetful:2").is_err());
    }

    /// Win share of each bot of `specs` in seat rotation over `games` seeded games.
    fn win_shares(g: &TrafficarsMemory, specs: &[&str], games: u64, seed: u64) -> Vec<f64> {
        let n = g.players();
        assert_eq!(specs.len(), n);
        let mut shares = vec![0.0; n];
        let mut state = g.initial_state();
        let (mut legal, mut chance) = (Vec::new(), Vec::new());
        for gi in 0..games {
            let rot = (gi % n as u64) as usize;
            // Seat p plays spec (p + rot) % n.
            let mut bots: Vec<Box<dyn Bot<TrafficarsMemory>>> = (0..n)
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
            let w = g.winners(&state);
            for &p in &w {
                shares[(p + rot) % n] += 1.0 / w.len() as f64;
            }
        }
        shares.iter().map(|s| s / games as f64).collect()
    }

    /// The levels of the built-in bots are ordered: perfect memory, then forgetful, then random.
    #[test]
    fn memory_beats_forgetful_beats_random() {
        let games = if cfg!(debug_assertions) {
            2_000
        } else {
            20_000
        };
        // All three at one table (the booklet's 1–12 game; with 1–50 `memory` wins ~always).
        let g = game(3, json!({"min_number": 1, "max_number": 12}));
        let r = win_shares(&g, &["memory", "forgetful:0.5", "random"], games, 11);
        println!(
            "3 players, 1..12: memory {:.4}, forgetful:0.5 {:.4}, random {:.4}",
            r[0], r[1], r[2]
        );
        assert!(r[0] > r[1] + 0.1 && r[1] > r[2] + 0.05, "{r:?}");
        // Head to head, the full deck: perfect memory beats forgetting half of it.
        let g = game(2, json!({}));
        let r = win_shares(&g, &["memory", "forgetful:0.5"], games, 12);
        println!(
            "2 players, 1..50: memory {:.4} vs forgetful:0.5 {:.4}",
            r[0], r[1]
        );
        assert!(r[0] > 0.8, "memory vs forgetful:0.5: {r:?}");
    }
}
