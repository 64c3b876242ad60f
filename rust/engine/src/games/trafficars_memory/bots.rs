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
    /// Own memory: card per position (0 = not remembered).
    memory: [u8; MAX_GRID],
    /// Positions present in `seen` at the previous step.
    prev_seen: u64,
    /// Every position whose entry of `memory` may be non-zero (a superset of them).
    held: u64,
    /// The position this bot flipped last, until the next observation.
    pending: Option<u32>,
}

impl MemoryBot {
    /// The `memory` bot (perfect memory).
    pub fn perfect() -> Self {
        Self {
            rng: SplitMix64::default(),
            forget: None,
            memory: [0; MAX_GRID],
            prev_seen: 0,
            held: 0,
            pending: None,
        }
    }

    /// The `forgetful:p` bot.
    pub fn forgetful(p: f64) -> Self {
        Self {
            forget: Some(p),
            ..Self::perfect()
        }
    }

    /// A uniform draw in [0, 1) from the bot's stream.
    fn unit(&mut self) -> f64 {
        (self.rng.next() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniformly random set bit of a non-empty mask (0 for the empty one, drawing nothing).
    fn random_bit(&mut self, mask: u64) -> u32 {
        bits::pick(mask, &mut self.rng).unwrap_or(0)
    }

    /// Chooses a position to flip (or [`STOP`] when `may_stop`) from the remembered cards
    /// `known` (0 = unknown) at the positions `held` (the others count as unknown).
    fn choose(
        &mut self,
        st: &TrafficarsMemoryState,
        known: &[u8; MAX_GRID],
        held: u64,
        may_stop: bool,
    ) -> u32 {
        let avail = st.face_down();
        let jokers = u32::from(st.k_jokers);
        let mut known_pos = 0u64;
        let mut known_cars = 0u64;
        let mut car_pos = [0u8; FIRST_JOKER as usize];
        for p in bits::ones(avail & held) {
            let c = u32::from(known[p as usize]);
            if c == 0 {
                continue;
            }
            known_pos |= bits::bit_in(p, 0, LAST_POSITION);
            if is_joker(c) {
                // 1. A remembered joker.
                return p;
            }
            if let Some(slot) = car_pos.get_mut(c as usize) {
                *slot = p as u8;
                known_cars |= bits::bit_in(c, FIRST_CARD, LAST_CARD);
            }
        }
        // 2. A remembered run continuation.
        let mut best: Option<(u32, u32)> = None;
        if st.k_cars == 0 {
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
        } else {
            for c in bits::ones(known_cars) {
                let cars = st.k_cars | bits::bit_in(c, FIRST_CARD, LAST_CARD);
                if may_continue(cars, jokers) {
                    let g = gaps(cars);
                    if best.is_none_or(|(bg, _)| g < bg) {
                        best = Some((g, c));
                    }
                }
            }
        }
        if let Some((_, c)) = best {
            return u32::from(car_pos[c as usize]);
        }
        // 3. No safe neighbour remembered: stop with the run.
        if may_stop {
            return STOP;
        }
        // 4. A position it does not remember; 5. anything.
        let unknown = avail & !known_pos;
        if unknown != 0 {
            self.random_bit(unknown)
        } else if avail != 0 {
            self.random_bit(avail)
        } else {
            0
        }
    }

    /// Updates the own memory from the observation (see the type's documentation).
    fn learn(&mut self, st: &TrafficarsMemoryState) {
        if st.phase == Phase::Layout {
            self.memory = [0; MAX_GRID];
            self.prev_seen = 0;
            self.held = 0;
            self.pending = None;
            return;
        }
        let mut shown = st.flipped_mask | (st.seen & !self.prev_seen);
        if let Some(p) = self.pending.take() {
            shown |= st.seen & bits::bit_in(p, 0, LAST_POSITION);
        }
        for p in bits::ones(shown & st.on_table) {
            self.memory[p as usize] = st.layout[p as usize];
        }
        self.held |= shown & st.on_table;
        // Positions off the table are forgotten; only those held can be non-zero.
        for p in bits::ones(self.held & !st.on_table & ((1u64 << MAX_GRID) - 1)) {
            self.memory[p as usize] = 0;
        }
        self.held &= st.on_table;
        self.prev_seen = st.seen;
    }
}

impl Bot<TrafficarsMemory> for MemoryBot {
    fn reset(&mut self, _game: &TrafficarsMemory, _seat: usize, rng: SplitMix64) {
        self.rng = rng;
        self.memory = [0; MAX_GRID];
        self.prev_seen = 0;
        self.held = 0;
        self.pending = None;
    }

    fn act(&mut self, _game: &TrafficarsMemory, st: &TrafficarsMemoryState, legal: &[u32]) -> u32 {
        if st.phase != Phase::Flip {
            return legal.first().copied().unwrap_or(0);
        }
        // The legal list is sorted and STOP (63) is the largest id: it can only be the last.
        let may_stop = legal.last() == Some(&STOP);
        let choice = match self.forget {
            None => {
                // Every card seen and still face down: `choose` reads the layout only there.
                self.choose(st, &st.layout, st.seen & st.face_down(), may_stop)
            }
            Some(prob) => {
                if st.flipped_len == 0 && prob > 0.0 {
                    // In increasing position order, as every remembered card is among those
                    // held.
                    for p in bits::ones(self.held) {
                        let p = p as usize;
                        if self.memory.get(p).is_some_and(|&c| c != 0) && self.unit() < prob {
                            self.memory[p] = 0;
                        }
                    }
                }
                let known = self.memory;
                self.choose(st, &known, self.held, may_stop)
            }
        };
        self.pending = (choice != STOP).then_some(choice);
        choice
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
    use super::super::tests::{flip, game, laid};
    use super::*;
    use crate::error::EngineError;
    use crate::game::Game;
    use crate::rng::derive_seed;
    use crate::sim::{make_bot, play_game};
    use serde_json::json;

    /// The memory bot stops when its memory offers no safe neighbour, and flips on when it does.
    #[test]
    fn memory_bot_stops_without_a_safe_neighbour() {
        let g = game(2, json!({"min_number": 1, "max_number": 12}));
        let cards = vec![10, 9, 11, 3, 12, 8, 1, 2, 4, 5, 6, 7];
        let mut s = laid(&g, &cards);
        // Seat 0 sees 3 and 12 (not neighbours); seat 1 flips 10 and 9.
        flip(&mut s, 0, &[3, 12]);
        flip(&mut s, 1, &[10, 9]);
        let mut bot = MemoryBot::perfect();
        bot.reset(&g, 1, SplitMix64::new(4));
        let mut legal = Vec::new();
        g.legal_actions(s.state(), &mut legal);
        // Nothing remembered fits 9..10 (3 and 12 do not): stop.
        assert_eq!(bot.act(&g, s.state(), &legal), STOP);
        // With 11 remembered (seen by seat 0), the bot flips it; then only 3 is remembered,
        // which does not fit 9..11: it stops.
        let mut s = laid(&g, &cards);
        flip(&mut s, 0, &[11, 3]);
        flip(&mut s, 1, &[10, 9]);
        g.legal_actions(s.state(), &mut legal);
        let a = bot.act(&g, s.state(), &legal);
        assert_eq!(a, 2, "the remembered 11 continues 9, 10");
        s.apply(i64::from(a), Some(1)).unwrap();
        g.legal_actions(s.state(), &mut legal);
        assert_eq!(bot.act(&g, s.state(), &legal), STOP);
        // The forgetful bot stops the same way from its own memory.
        let mut s = laid(&g, &cards);
        let mut fb = MemoryBot::forgetful(0.0);
        fb.reset(&g, 1, SplitMix64::new(5));
        fb.observe(&g, s.state());
        for c in [3, 12] {
            flip(&mut s, 0, &[c]);
            fb.observe(&g, s.state());
        }
        for c in [10, 9] {
            flip(&mut s, 1, &[c]);
            fb.observe(&g, s.state());
        }
        g.legal_actions(s.state(), &mut legal);
        assert_eq!(fb.act(&g, s.state(), &legal), STOP);
        assert_eq!(fb.pending, None);
    }

    #[test]
    fn memory_bot_takes_known_pairs_and_runs() {
        let g = game(
            2,
            json!({"min_number": 1, "max_number": 10, "jokers": true}),
        );
        // Positions: 0:4 1:9 2:51 3:6 4:1 5:5 6:10 7:2 8:3 9:7 10:8 11:52.
        let cards = vec![4, 9, 51, 6, 1, 5, 10, 2, 3, 7, 8, 52];
        let mut s = laid(&g, &cards);
        // Seat 0 flips 4 and 9 (not neighbours), seat 1 flips 6 and 1.
        flip(&mut s, 0, &[4, 9]);
        flip(&mut s, 1, &[6, 1]);
        let mut bot = MemoryBot::perfect();
        bot.reset(&g, 0, SplitMix64::new(1));
        let mut legal = Vec::new();
        // Known on the table: 4, 9, 6, 1 → no pair; the bot flips an unknown position.
        for _ in 0..20 {
            g.legal_actions(s.state(), &mut legal);
            let a = bot.act(&g, s.state(), &legal);
            assert!(
                ![0, 1, 3, 4].contains(&a),
                "flipped a known useless card {a}"
            );
        }
        // Seat 0 has flipped 5 (position 5): the known 4 and 6 continue the run.
        let mut s2 = s.clone();
        flip(&mut s2, 0, &[5]);
        g.legal_actions(s2.state(), &mut legal);
        let a = bot.act(&g, s2.state(), &legal);
        assert_eq!(a, 0);
        s2.apply(i64::from(a), Some(0)).unwrap();
        g.legal_actions(s2.state(), &mut legal);
        assert_eq!(bot.act(&g, s2.state(), &legal), 3);
        // Seat 0 flips 51 and 10, then 4 breaks: nothing taken, all three seen.
        let mut s3 = s.clone();
        flip(&mut s3, 0, &[51, 10, 4]);
        assert_eq!(g.current_player(s3.state()), 1);
        // Seat 1 knows 4, 9, 51, 6, 1, 10: the joker first, then the closest pair 9, 10.
        let mut bot1 = MemoryBot::perfect();
        bot1.reset(&g, 1, SplitMix64::new(2));
        g.legal_actions(s3.state(), &mut legal);
        let a = bot1.act(&g, s3.state(), &legal);
        assert_eq!(a, 2);
        s3.apply(i64::from(a), Some(1)).unwrap();
        g.legal_actions(s3.state(), &mut legal);
        let a = bot1.act(&g, s3.state(), &legal);
        assert_eq!(
            a, 1,
            "the lower card of the closest known pair (9 of 9, 10)"
        );
        s3.apply(i64::from(a), Some(1)).unwrap();
        g.legal_actions(s3.state(), &mut legal);
        assert_eq!(bot1.act(&g, s3.state(), &legal), 6);
    }

    #[test]
    fn forgetful_bot_learns_and_forgets() {
        let g = game(2, json!({"min_number": 1, "max_number": 10}));
        let cards = vec![4, 9, 6, 1, 5, 10, 2, 3, 7, 8];
        let mut s = laid(&g, &cards);
        let mut bot = MemoryBot::forgetful(0.0);
        bot.reset(&g, 1, SplitMix64::new(3));
        bot.observe(&g, s.state());
        flip(&mut s, 0, &[4]);
        bot.observe(&g, s.state());
        assert_eq!(bot.memory[0], 4);
        flip(&mut s, 0, &[9]);
        bot.observe(&g, s.state());
        // The breaker 9 was shown only through `seen`: still learnt.
        assert_eq!(bot.memory[1], 9);
        // Seat 1 flips 5: its memory says 4 is at position 0 → continues there.
        flip(&mut s, 1, &[5]);
        bot.observe(&g, s.state());
        let mut legal = Vec::new();
        g.legal_actions(s.state(), &mut legal);
        assert_eq!(bot.act(&g, s.state(), &legal), 0);
        // Forgetting everything (P = 1) at the start of its turn.
        let mut s = laid(&g, &cards);
        let mut bot = MemoryBot::forgetful(1.0);
        bot.reset(&g, 1, SplitMix64::new(3));
        flip(&mut s, 0, &[4]);
        bot.observe(&g, s.state());
        flip(&mut s, 0, &[9]);
        bot.observe(&g, s.state());
        assert_eq!((bot.memory[0], bot.memory[1]), (4, 9));
        g.legal_actions(s.state(), &mut legal);
        let _ = bot.act(&g, s.state(), &legal);
        assert_eq!((bot.memory[0], bot.memory[1]), (0, 0));
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
