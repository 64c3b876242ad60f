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
    use super::super::Goofspiel;
    use crate::game::Game;
    use crate::rng::SplitMix64;
    use crate::testing::{
        check_determinizer, every_nth, game_with, play_search_against_random, play_to_end,
        replays_to,
    };
    use serde_json::{json, Value};
    use std::sync::Arc;

    fn game(n: u32) -> Arc<Goofspiel> {
        game_with(2, json!({ "num_cards": n }))
    }

    /// Over random games of several sizes, at every node and for both observers, besides the
    /// kit's checks: the sample's history (the real one with seat 0's pending bid replaced)
    /// replays through the session to it, it plays on to empty hands, and it does not depend on
    /// the real pending bid.
    #[test]
    fn samples_replay_and_do_not_peek() {
        let mut checked = 0;
        for n in [1u32, 2, 5, 13] {
            let g = game(n);
            checked += check_determinizer(&g, 12, n.into(), every_nth(1), |c| {
                let (st, d) = (c.real, &c.sample);
                let mut h = c.history.to_vec();
                if d.pending != st.pending {
                    *h.last_mut().unwrap() = u32::from(d.pending) - 1;
                }
                assert!(replays_to(&g, &h, d));
                assert_eq!(play_to_end(&*g, *d, c.seed, |_| {}).hands, [0, 0]);
                // No peeking: for seat 1 any other pending bid gives the same sample.
                if c.observer == 1 && st.pending != 0 {
                    for other in crate::bits::ones(st.hands[0]) {
                        let mut alt = *st;
                        alt.pending = other as u8 + 1;
                        let mut rng = SplitMix64::new(c.seed);
                        assert_eq!(g.determinize(&alt, 1, &mut rng), Some(*d));
                    }
                }
            });
        }
        assert!(checked > 500);
    }

    /// The hidden bid varies over samples; seat 0 (who knows it) always gets the real state.
    #[test]
    fn hidden_bid_varies_and_known_state_is_kept() {
        let g = game(13);
        let sample = |st, p, seed| g.determinize(st, p, &mut SplitMix64::new(seed)).unwrap();
        let mut st = g.initial_state();
        g.apply(&mut st, 6);
        g.apply(&mut st, 3);
        assert_eq!(g.current_player(&st), 1);
        let bids: std::collections::BTreeSet<u8> =
            (0..200).map(|s| sample(&st, 1, s).pending).collect();
        assert_eq!(bids.len(), 13);
        assert_eq!(sample(&st, 0, 7), st);
        let v: Value = g.observation(&st, 1);
        assert_eq!(v["own_bid"], Value::Null);
    }

    /// Seeded smoke test: the search player built on the sampler plays whole games.
    #[test]
    fn mcts_plays_against_random() {
        let g = game(6);
        for seed in 0..4u64 {
            let end =
                play_search_against_random(&*g, "mcts:iterations=200", seed as usize % 2, seed);
            assert_eq!(end.hands, [0, 0]);
        }
    }
}
