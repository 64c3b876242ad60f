//! Determinization (contract, "Determinization"): a full state that a seat cannot tell from the
//! real one, for the search players.
//!
//! Nothing is private to a seat: every seat sees the same table. Hidden from all of them are the
//! cards of the face-down positions that were never face up. Every card ever flipped was seen by
//! everyone where it lay: a card still on the table has its position in `seen` (the state keeps
//! that bookkeeping: `seen` is set by every flip and cleared only when the card is taken), and a
//! taken card (laid, no longer on the table) was face up when it was taken. So the sampler keeps
//! every seen and every taken position and deals the cards of the never-seen positions, listed
//! in increasing id order, uniformly at random over those positions. During the layout no card
//! has been seen: the laid cards are dealt over the laid positions, and the cards not laid yet
//! stay for the remaining layout chance nodes.

use super::{TrafficarsMemory, TrafficarsMemoryState, MAX_GRID};
use crate::bits;
use crate::rng::SplitMix64;

/// The search's class of every never-seen position (see
/// [`TrafficarsMemoryState::search_class`]); never an action id.
pub(crate) const UNSEEN_CLASS: u32 = super::NUM_ACTIONS;

impl TrafficarsMemoryState {
    /// The class of `action` for the search players: every flip of a never-seen position is
    /// [`UNSEEN_CLASS`], every other action its own class. The sampler deals the never-seen
    /// cards uniformly over those positions, so in every determinization flipping one of them is
    /// worth exactly what flipping any other is: a search may pool them into one choice (and
    /// play any of them). Reads only what every seat knows (`on_table`, `seen`).
    pub(crate) fn search_class(&self, action: u32) -> u32 {
        let position = bits::bit_in(action, 0, super::LAST_POSITION);
        if action < super::STOP && TrafficarsMemory::unseen_positions(self) & position != 0 {
            UNSEEN_CLASS
        } else {
            action
        }
    }
}

impl TrafficarsMemory {
    /// The positions whose card no seat has seen: on the table and never face up.
    pub(super) fn unseen_positions(st: &TrafficarsMemoryState) -> u64 {
        st.on_table & !st.seen
    }

    /// Samples a state no seat can tell from `st`: the cards of the never-seen positions are
    /// dealt uniformly at random over those positions; everything else is copied.
    pub(super) fn sample_unseen(
        &self,
        st: &TrafficarsMemoryState,
        _observer: usize,
        rng: &mut SplitMix64,
    ) -> TrafficarsMemoryState {
        let positions = Self::unseen_positions(st);
        let mut pool = 0u64;
        for p in bits::ones(positions) {
            pool |= 1u64 << st.card_at(p);
        }
        // The unseen cards in increasing id order, then a Fisher–Yates shuffle with `rng`.
        let mut cards = [0u8; MAX_GRID + 2];
        let mut len = 0usize;
        for c in bits::ones(pool) {
            cards[len] = c as u8;
            len += 1;
        }
        for i in 0..len.saturating_sub(1) {
            let j = i + rng.below((len - i) as u64) as usize;
            cards.swap(i, j);
        }
        let mut out = *st;
        for (p, &c) in bits::ones(positions).zip(&cards[..len]) {
            if let Some(slot) = out.layout.get_mut(p as usize) {
                *slot = c;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::Phase;
    use super::*;
    use crate::game::{Game, CHANCE};
    use crate::testing::*;
    use serde_json::json;
    use std::sync::Arc;

    /// Defaults, then each non-default choice of every option (with several player counts).
    fn games() -> Vec<Arc<TrafficarsMemory>> {
        games_with(&[
            (2, json!({})),
            (3, json!({"jokers": true})),
            (4, json!({"min_number": 26})),
            (5, json!({"max_number": 20, "jokers": true})),
            (
                2,
                json!({"min_number": 1, "max_number": 12, "jokers": true}),
            ),
            (3, json!({"min_number": 40, "max_number": 41})),
        ])
    }

    /// The real history with the layout outcomes replaced by the sample's layout.
    fn rebuilt_history(hist: &[u32], sample: &TrafficarsMemoryState) -> Vec<u32> {
        let laid = usize::from(sample.laid);
        let mut out = hist.to_vec();
        for (a, &c) in out.iter_mut().zip(&sample.layout[..laid]) {
            *a = u32::from(c);
        }
        out
    }

    /// A second real state with the same public information: the never-seen cards reversed.
    fn rearranged(st: &TrafficarsMemoryState) -> TrafficarsMemoryState {
        let pos: Vec<u32> = bits::ones(TrafficarsMemory::unseen_positions(st)).collect();
        let mut out = *st;
        for (i, &p) in pos.iter().enumerate() {
            out.layout[p as usize] = st.layout[pos[pos.len() - 1 - i] as usize];
        }
        out
    }

    /// The card ids of the positions in `mask`.
    fn cards_at(st: &TrafficarsMemoryState, mask: u64) -> u64 {
        bits::ones(mask).fold(0, |m, p| m | 1u64 << st.card_at(p))
    }

    /// Besides the kit's checks, the sample keeps every seen and taken card, replays through a
    /// session from the rebuilt history, is the same for a rearranged real state, varies, and
    /// keeps the table consistent while played on to the end.
    #[test]
    fn samples_are_consistent_reachable_and_do_not_peek() {
        let mut tally = SampleTally::default();
        for (gi, g) in games().iter().enumerate() {
            // About 60 nodes of each game.
            let step = (playout_nodes(&**g, 0).len() / 60).max(1);
            tally.checked += check_determinizer(g, 3, gi as u64, every_nth(step), |c| {
                let (st, d) = (c.real, &c.sample);
                // Seen and taken positions keep their cards; the unseen set is kept.
                let laid = (1u64 << st.laid) - 1;
                let known = laid & !TrafficarsMemory::unseen_positions(st);
                for p in bits::ones(known) {
                    assert_eq!(d.card_at(p), st.card_at(p));
                }
                let hidden = TrafficarsMemory::unseen_positions(st);
                assert_eq!(cards_at(d, hidden), cards_at(st, hidden));
                assert_eq!(cards_at(d, laid), st.laid_cards);
                // No peeking: the same information gives the same sample.
                let alt = rearranged(st);
                tally.rearranged += u64::from(assert_sample_does_not_peek(&**g, c, &alt));
                // Reachability: the rebuilt history replays to the sample.
                let h = rebuilt_history(c.history, d);
                assert!(replays_to(g, &h, d), "the rebuilt history does not replay");
                // Variety: with two or more never-seen positions the samples differ.
                if hidden.count_ones() >= 2 {
                    assert_samples_vary(&**g, c);
                    tally.varied += 1;
                }
                // Playable: random play from the sample keeps the table consistent.
                if c.node % (7 * step) == 0 {
                    play_to_end(&**g, *d, c.seed, |x| {
                        if x.phase != Phase::Layout {
                            let taken: u32 =
                                x.taken[..g.players].iter().map(|&t| u32::from(t)).sum();
                            assert_eq!(taken + x.on_table.count_ones(), g.grid_size() as u32);
                            assert_eq!(cards_at(x, x.on_table), x.table_cards);
                            assert_eq!(x.seen & !x.on_table, 0);
                        }
                    });
                }
            }) as u64;
        }
        tally.assert_more_than(1000, 500);
    }

    /// The layout chance nodes stay chance nodes, with the same cards still to lay.
    #[test]
    fn the_layout_keeps_its_undealt_cards() {
        let g = &games()[4];
        for (_, st) in playout_nodes(&**g, 5)
            .iter()
            .filter(|(_, s)| s.phase == Phase::Layout)
        {
            let d = g.determinize(st, 0, &mut SplitMix64::new(9)).unwrap();
            assert_eq!(d.laid_cards, st.laid_cards);
            assert_eq!(g.current_player(&d), CHANCE);
        }
    }

    /// `mcts` with a small budget plays whole games against `random` without error.
    #[test]
    fn mcts_plays_against_random() {
        let g = &games()[4];
        for game in 0..3u64 {
            play_search_against_random(&**g, "mcts:iterations=200", 0, game);
        }
    }
}
