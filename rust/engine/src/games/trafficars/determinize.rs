//! Determinization (contract, "Determinization"): a full state that a seat cannot tell from the
//! real one, for the search players.
//!
//! Hidden from seat `o`: the hands of the other seats, their pending commitments (only *that* they
//! committed is public) and the undealt deck. Everything else is public: the lanes, the reveal,
//! the queue, the penalty counts, how many cards every hand holds (`hand_size − turn`, minus one
//! after a commitment; during the deal, what the deal order has given each seat so far) and every
//! card ever revealed (played cards stay where they went or were taken as penalty in public).
//! So the cards `o` has not seen are exactly the undealt deck plus the other seats' hands and
//! pending commitments; the sampler deals this set, listed in increasing id order, uniformly at
//! random into the same slots: first one card per other seat that has committed (in seat order),
//! then each other seat's hand with its public size (in seat order), the rest to the deck.

use super::{Trafficars, TrafficarsState, FIRST_CARD, LAST_CARD, MAX_SEATS};
use crate::bits;
use crate::rng::SplitMix64;

impl Trafficars {
    /// The cards `observer` has not seen: the undealt deck and the other seats' hands and
    /// pending commitments (a function of what `observer` knows, whatever their arrangement).
    pub(super) fn unseen_cards(&self, st: &TrafficarsState, observer: usize) -> u64 {
        let mut pool = st.deck;
        for s in (0..self.players.min(MAX_SEATS)).filter(|&s| s != observer) {
            pool |= st.hands[s];
            pool |= bits::bit_in(u32::from(st.commitments[s]), FIRST_CARD, LAST_CARD);
        }
        pool
    }

    /// Samples a state `observer` cannot tell from `st`: the unseen cards (see the module doc)
    /// are dealt uniformly at random into the other seats' commitments and hands, with their
    /// public sizes, and the deck; everything `observer` sees is copied.
    pub(super) fn sample_unseen(
        &self,
        st: &TrafficarsState,
        observer: usize,
        rng: &mut SplitMix64,
    ) -> TrafficarsState {
        let pool = self.unseen_cards(st, observer);
        let mut cards = [0u8; 64];
        let mut len = 0usize;
        for c in bits::ones(pool) {
            cards[len] = c as u8;
            len += 1;
        }
        let mut next = 0usize;
        // Partial Fisher–Yates: the card for the next slot is drawn from those not yet dealt.
        let mut draw = |rng: &mut SplitMix64| -> u8 {
            if next >= len {
                return 0;
            }
            let j = next + rng.below((len - next) as u64) as usize;
            cards.swap(next, j);
            next += 1;
            cards[next - 1]
        };
        let mut out = *st;
        let others = (0..self.players.min(MAX_SEATS)).filter(|&s| s != observer);
        for s in others.clone() {
            if st.commitments[s] != 0 {
                out.commitments[s] = draw(rng);
            }
        }
        let mut dealt = 0u64;
        for s in others {
            let mut hand = 0u64;
            for _ in 0..st.hands[s].count_ones() {
                hand |= bits::bit_in(u32::from(draw(rng)), FIRST_CARD, LAST_CARD);
            }
            out.hands[s] = hand;
            dealt |= hand;
        }
        for s in 0..self.players.min(MAX_SEATS) {
            if s != observer {
                dealt |= bits::bit_in(u32::from(out.commitments[s]), FIRST_CARD, LAST_CARD);
            }
        }
        out.deck = pool & !dealt;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::Phase;
    use super::*;
    use crate::game::{Game, CHANCE};
    use crate::search::win_shares;
    use crate::testing::{
        assert_sample_does_not_peek, assert_samples_vary, check_determinizer, every_nth,
        games_with, play_search_against_random, play_to_end, playout_nodes, replays_to,
        SampleTally,
    };
    use serde_json::{json, Map};
    use std::sync::Arc;

    /// Defaults, then each non-default choice of every option (with several player counts).
    fn games() -> Vec<Arc<Trafficars>> {
        games_with(&[
            (2, json!({})),
            (3, json!({})),
            (5, json!({})),
            (2, json!({"max_number": 20})),
            (3, json!({"hand_size": 4})),
            (2, json!({"lanes": 1})),
            (4, json!({"lanes": 5})),
            (3, json!({"special_cards": false})),
            (3, json!({"max_cars": null})),
            (2, json!({"max_cars": 2})),
            (3, json!({"too_low": "insert"})),
            // Every card dealt: nothing but the other hands is hidden.
            (
                2,
                json!({"max_number": 10, "special_cards": false, "hand_size": 4, "lanes": 2}),
            ),
        ])
    }

    /// The real history with the hidden outcomes replaced by those `sample` implies: each seat's
    /// deal becomes the cards it was seen to play, its pending commitment and its sampled hand;
    /// its pending commitment becomes the sampled one.
    fn rebuilt_history(g: &Trafficars, hist: &[u32], sample: &TrafficarsState) -> Vec<u32> {
        let n = g.players;
        // Classify the real history: deal entries per seat, commit entries per seat.
        let mut st = g.initial_state();
        let mut deal_at: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut commit_at: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, &a) in hist.iter().enumerate() {
            match st.phase {
                Phase::Deal if usize::from(st.dealt) >= g.lanes => {
                    deal_at[(usize::from(st.dealt) - g.lanes) / usize::from(g.hand_size)].push(i)
                }
                Phase::Commit => commit_at[g.committer(&st)].push(i),
                _ => {}
            }
            g.apply(&mut st, a);
        }
        let mut out = hist.to_vec();
        for s in 0..n {
            let pending = st.commitments[s] != 0;
            let mut played = 0u64;
            let shown = commit_at[s].len() - usize::from(pending);
            for &i in &commit_at[s][..shown] {
                played |= 1u64 << hist[i];
            }
            if pending {
                out[commit_at[s][shown]] = u32::from(sample.commitments[s]);
            }
            let own = played
                | sample.hands[s]
                | bits::bit_in(u32::from(sample.commitments[s]), FIRST_CARD, LAST_CARD);
            let cards: Vec<u32> = bits::ones(own).collect();
            assert_eq!(
                cards.len(),
                deal_at[s].len(),
                "seat {s} holds a wrong count"
            );
            for (&i, &c) in deal_at[s].iter().zip(&cards) {
                out[i] = c;
            }
        }
        out
    }

    /// A second real state with the same information for `observer`: the unseen cards dealt in
    /// decreasing order into the same slots (a different arrangement whenever one exists).
    fn rearranged(g: &Trafficars, st: &TrafficarsState, observer: usize) -> TrafficarsState {
        let pool = g.unseen_cards(st, observer);
        let mut cards: Vec<u8> = bits::ones(pool).map(|c| c as u8).collect();
        cards.reverse();
        let mut it = cards.into_iter();
        let mut out = *st;
        let mut used = 0u64;
        for s in (0..g.players).filter(|&s| s != observer) {
            if st.commitments[s] != 0 {
                out.commitments[s] = it.next().unwrap();
                used |= 1u64 << out.commitments[s];
            }
        }
        for s in (0..g.players).filter(|&s| s != observer) {
            let mut h = 0u64;
            for _ in 0..st.hands[s].count_ones() {
                h |= 1u64 << it.next().unwrap();
            }
            out.hands[s] = h;
            used |= h;
        }
        out.deck = pool & !used;
        out
    }

    /// Number of non-empty hidden slots (pending commitments, hands, the deck) for `observer`.
    fn hidden_slots(g: &Trafficars, st: &TrafficarsState, observer: usize) -> usize {
        let mut k = usize::from(st.deck != 0);
        for s in (0..g.players).filter(|&s| s != observer) {
            k += usize::from(st.commitments[s] != 0) + usize::from(st.hands[s] != 0);
        }
        k
    }

    /// The cards in play (each in exactly one place: deck, hand, commitment, lane or the queue);
    /// the others have been taken as penalty.
    fn conserved(g: &Trafficars, x: &TrafficarsState) -> u64 {
        let mut seen = x.deck;
        let mut add = |m: u64| {
            assert_eq!(seen & m, 0, "a card is in two places");
            seen |= m;
        };
        for p in 0..g.players {
            add(x.hands[p]);
            add(bits::bit_in(
                u32::from(x.commitments[p]),
                FIRST_CARD,
                LAST_CARD,
            ));
        }
        for lane in &x.board.lanes[..g.lanes] {
            add(lane.cards_mask());
        }
        // Revealed cards still waiting in the resolution queue.
        for &s in x.board.pending() {
            add(bits::bit_in(
                u32::from(x.board.revealed[usize::from(s)]),
                FIRST_CARD,
                LAST_CARD,
            ));
        }
        assert_eq!(seen & !g.deck, 0);
        seen
    }

    /// Besides the kit's checks, the sample conserves the cards, replays through a session from
    /// the rebuilt history, is the same for a rearranged real state, varies, and conserves the
    /// cards while played on to the end.
    #[test]
    fn samples_are_consistent_reachable_and_do_not_peek() {
        let mut tally = SampleTally::default();
        for (gi, g) in games().iter().enumerate() {
            tally.checked += check_determinizer(g, 3, gi as u64, every_nth(3), |c| {
                let (st, d, o) = (c.real, &c.sample, c.observer);
                assert_eq!(conserved(g, d), conserved(g, st));
                assert_eq!(d.board, st.board);
                // No peeking: the same information gives the same sample.
                let alt = rearranged(g, st, o);
                tally.rearranged += u64::from(assert_sample_does_not_peek(&**g, c, &alt));
                // Reachability: the rebuilt history replays to the sample.
                let h = rebuilt_history(g, c.history, d);
                assert!(replays_to(g, &h, d), "the rebuilt history does not replay");
                // Variety: with two or more non-empty hidden slots the samples differ.
                if hidden_slots(g, st, o) >= 2 {
                    assert_samples_vary(&**g, c);
                    tally.varied += 1;
                }
                // Playable: random play from the sample conserves the cards.
                if c.node % 9 == 0 {
                    let all = conserved(g, d);
                    play_to_end(&**g, *d, c.seed, |x| assert_eq!(conserved(g, x) & !all, 0));
                }
            }) as u64;
        }
        tally.assert_more_than(1000, 500);
    }

    /// Chance nodes of the deal: the deck is the only unknown of the lane starters.
    #[test]
    fn the_deal_keeps_its_public_order() {
        let g = &games()[0];
        let states = playout_nodes(&**g, 7);
        for (_, st) in states.iter().filter(|(_, s)| s.phase == Phase::Deal) {
            for o in 0..g.players {
                let d = g.determinize(st, o, &mut SplitMix64::new(3)).unwrap();
                assert_eq!(d.dealt, st.dealt);
                assert_eq!(d.hands[o], st.hands[o]);
                for s in 0..g.players {
                    assert_eq!(d.hands[s].count_ones(), st.hands[s].count_ones());
                }
                assert_eq!(g.current_player(&d), CHANCE);
            }
        }
    }

    /// `mcts` with a small budget plays whole games against `random` without error.
    #[test]
    fn mcts_plays_against_random() {
        let g = Trafficars::from_options(3, &Map::new()).unwrap();
        let mut shares = [0.0; 3];
        let mut total = 0.0;
        for game in 0..3u64 {
            let st = play_search_against_random(&g, "mcts:iterations=200", 0, game);
            win_shares(&g, &st, &mut shares);
            total += shares[0];
        }
        assert!((0.0..=3.0).contains(&total));
    }
}
