//! Goofspiel's determinizer (`docs/games/goofspiel.md`, section "Determinization"): the only
//! hidden information in a state is seat 0's pending bid, hidden from seat 1 until seat 1 bids.
//! Point cards are drawn by chance when their turn starts, so no hidden order of them exists.

use super::{value_of, Goofspiel, GoofspielState};
use crate::bits;
use crate::rng::SplitMix64;

impl Goofspiel {
    /// A state seat `observer` cannot tell from `st`: the same state with seat 0's pending bid
    /// (when there is one and `observer` is seat 1) replaced by a uniform card of seat 0's hand,
    /// which is public. Every other part of the state is public and kept.
    pub(super) fn sample_pending_bid(
        &self,
        st: &GoofspielState,
        observer: usize,
        rng: &mut SplitMix64,
    ) -> GoofspielState {
        let mut out = *st;
        if observer != 0 && st.pending != 0 {
            if let Some(id) = bits::pick(st.hands[0], rng) {
                out.pending = value_of(id) as u8;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Goofspiel, GoofspielState};
    use crate::game::{Bot, Game, RandomBot, CHANCE, TERMINAL};
    use crate::rng::{derive_seed, SplitMix64};
    use crate::session::Session;
    use serde_json::{json, Value};
    use std::sync::Arc;

    fn game(n: u32) -> Arc<Goofspiel> {
        let opts = json!({ "num_cards": n });
        let map = opts.as_object().cloned().unwrap_or_default();
        Arc::new(Goofspiel::from_options(2, &map).unwrap())
    }

    /// Every node of a seeded random game with the history that leads to it.
    fn playout(g: &Goofspiel, seed: u64) -> Vec<(Vec<u32>, GoofspielState)> {
        let mut rng = SplitMix64::new(seed);
        let (mut st, mut hist, mut out) = (g.initial_state(), Vec::new(), Vec::new());
        let (mut buf, mut cbuf) = (Vec::new(), Vec::new());
        loop {
            out.push((hist.clone(), st));
            let a = match g.current_player(&st) {
                TERMINAL => return out,
                CHANCE => g.sample_chance(&st, &mut rng, &mut cbuf),
                _ => g.random_action(&st, &mut rng, &mut buf).unwrap(),
            };
            g.apply(&mut st, a);
            hist.push(a);
        }
    }

    fn tensor(g: &Goofspiel, st: &GoofspielState, p: usize) -> Vec<f32> {
        let mut out = vec![0.0; g.observation_shape().iter().product()];
        g.observation_tensor(st, p, &mut out);
        out
    }

    fn sample(g: &Goofspiel, st: &GoofspielState, p: usize, seed: u64) -> GoofspielState {
        g.determinize(st, p, &mut SplitMix64::new(seed)).unwrap()
    }

    /// Random play from `st` to the end; every decision has a legal action.
    fn finish(g: &Goofspiel, mut st: GoofspielState, seed: u64) -> GoofspielState {
        let mut rng = SplitMix64::new(seed);
        let (mut buf, mut cbuf) = (Vec::new(), Vec::new());
        for _ in 0..1000 {
            let a = match g.current_player(&st) {
                TERMINAL => return st,
                CHANCE => g.sample_chance(&st, &mut rng, &mut cbuf),
                _ => g.random_action(&st, &mut rng, &mut buf).unwrap(),
            };
            g.apply(&mut st, a);
        }
        panic!("game did not end");
    }

    /// Over random games of several sizes, at every node and for both observers: the sample
    /// shows the observer exactly what the real state shows, its history (the real one with seat
    /// 0's pending bid replaced) replays through the session to the sample, it plays on to the
    /// end, and it does not depend on the real pending bid.
    #[test]
    fn samples_match_the_view_replay_and_do_not_peek() {
        let mut checked = 0;
        for n in [1u32, 2, 5, 13] {
            let g = game(n);
            for gi in 0..12u64 {
                for (k, (hist, st)) in playout(&g, derive_seed(n.into(), gi))
                    .into_iter()
                    .enumerate()
                {
                    for p in 0..2 {
                        let seed = derive_seed(gi, (k * 2 + p) as u64);
                        let d = sample(&g, &st, p, seed);
                        assert_eq!(g.observation(&d, p), g.observation(&st, p));
                        assert_eq!(tensor(&g, &d, p), tensor(&g, &st, p));
                        let mut h = hist.clone();
                        if d.pending != st.pending {
                            *h.last_mut().unwrap() = u32::from(d.pending) - 1;
                        }
                        let mut s = Session::new(Arc::clone(&g), None);
                        for &a in &h {
                            s.apply(i64::from(a), None).unwrap();
                        }
                        assert_eq!(*s.state(), d);
                        let end = finish(&g, d, seed);
                        assert_eq!(g.current_player(&end), TERMINAL);
                        assert_eq!(end.hands, [0, 0]);
                        // No peeking: for seat 1 any other pending bid gives the same sample.
                        if p == 1 && st.pending != 0 {
                            for other in crate::bits::ones(st.hands[0]) {
                                let mut alt = st;
                                alt.pending = other as u8 + 1;
                                assert_eq!(sample(&g, &alt, p, seed), d);
                            }
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 500);
    }

    /// The hidden bid varies over samples; seat 0 (who knows it) always gets the real state.
    #[test]
    fn hidden_bid_varies_and_known_state_is_kept() {
        let g = game(13);
        let mut st = g.initial_state();
        g.apply(&mut st, 6);
        g.apply(&mut st, 3);
        assert_eq!(g.current_player(&st), 1);
        let bids: std::collections::BTreeSet<u8> =
            (0..200).map(|s| sample(&g, &st, 1, s).pending).collect();
        assert_eq!(bids.len(), 13);
        assert_eq!(sample(&g, &st, 0, 7), st);
        let v: Value = g.observation(&st, 1);
        assert_eq!(v["own_bid"], Value::Null);
    }

    /// Seeded smoke test: the search player built on the sampler plays whole games.
    #[test]
    fn mcts_plays_against_random() {
        let g = game(6);
        for seed in 0..4u64 {
            let mut bots: Vec<Box<dyn Bot<Goofspiel>>> = vec![
                crate::search::make_search_bot(&*g, "mcts", Some("iterations=200"))
                    .unwrap()
                    .unwrap(),
                Box::new(RandomBot::default()),
            ];
            if seed % 2 == 1 {
                bots.swap(0, 1);
            }
            for (seat, b) in bots.iter_mut().enumerate() {
                b.reset(&*g, seat, SplitMix64::new(derive_seed(seed, seat as u64)));
            }
            let mut rng = SplitMix64::new(seed);
            let (mut st, mut legal, mut cbuf) = (g.initial_state(), Vec::new(), Vec::new());
            while g.current_player(&st) != TERMINAL {
                let a = match g.current_player(&st) {
                    CHANCE => g.sample_chance(&st, &mut rng, &mut cbuf),
                    p => {
                        g.legal_actions(&st, &mut legal);
                        let a = bots[p as usize].act(&*g, &st, &legal);
                        assert!(legal.contains(&a));
                        a
                    }
                };
                g.apply(&mut st, a);
                for b in &mut bots {
                    b.observe(&*g, &st);
                }
            }
        }
    }
}
