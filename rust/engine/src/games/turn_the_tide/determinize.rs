//! Turn the Tide's determinizer (`docs/games/turn_the_tide.md`, section "Determinization").
//!
//! A seat knows every 12-card hand it has held (in round `r` it has held the hands dealt to seats
//! `observer − k` for `k = 0..=r`), the cards revealed this round, and every hand's lifebuoy
//! count (face up when the hand is taken up). The sampler keeps all of that and deals the other
//! cards of the hands it has not held, plus the undealt cards, from the unseen cards, so that
//! every such hand keeps its lifebuoy count; other seats' pending commitments are re-drawn from
//! their (sampled) hands.

use super::{
    halves_of, Phase, TurnTheTide, TurnTheTideState, ALL_CARDS, HAND_SIZE, MAX_SEATS, ONE_HALF,
    TWO_HALVES,
};
use crate::bits;
use crate::rng::SplitMix64;

/// Unseen cards of each lifebuoy class: no half, one half, two halves.
const CLASSES: [u64; 3] = [ALL_CARDS & !ONE_HALF, ONE_HALF & !TWO_HALVES, TWO_HALVES];
/// Most cards of class 1 (24) and class 2 (12), plus one, for the count tables.
const MAX1: usize = 25;
const MAX2: usize = 13;

/// Binomial coefficients up to 60 (exact in `u64`).
const fn binomials() -> [[u64; 61]; 61] {
    let mut c = [[0u64; 61]; 61];
    let mut n = 0;
    while n <= 60 {
        c[n][0] = 1;
        let mut k = 1;
        while k <= n {
            c[n][k] = c[n - 1][k - 1] + c[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    c
}
static BINOM: [[u64; 61]; 61] = binomials();

/// C(n, k) as a float (0 for k > n).
fn choose(n: usize, k: usize) -> f64 {
    if k > n || n > 60 {
        0.0
    } else {
        BINOM[n][k] as f64
    }
}

/// Takes `k` uniform cards out of `pool` and returns them (the draw depends only on the set).
fn take(pool: &mut u64, k: usize, rng: &mut SplitMix64) -> u64 {
    let mut out = 0;
    for _ in 0..k {
        if let Some(c) = bits::pick(*pool, rng) {
            *pool &= !(1u64 << c);
            out |= 1u64 << c;
        }
    }
    out
}

/// Writes the set `hand` in increasing order into a deal record.
fn write_sorted(slot: &mut [u8; HAND_SIZE], hand: u64) {
    *slot = [0; HAND_SIZE];
    for (i, c) in bits::ones(hand).take(HAND_SIZE).enumerate() {
        slot[i] = c as u8;
    }
}

/// One hand the observer has not held: its current holder, the cards revealed from it this
/// round, how many hidden cards it needs and the half-lifebuoy sums that keep its lifebuoy count.
#[derive(Clone, Copy, Default)]
struct Open {
    dealt_to: usize,
    holder: usize,
    shown: u64,
    need: usize,
    /// The half-lifebuoys the hidden cards may carry: `lo` or `lo + 1`.
    lo: i32,
}

/// Uniform in [0, 1) from the generator.
fn unit(rng: &mut SplitMix64) -> f64 {
    (rng.next() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

impl TurnTheTide {
    /// Whether `observer` has held the hand dealt to seat `j` by round `round`.
    fn has_held(&self, observer: usize, round: usize, j: usize) -> bool {
        let n = self.players;
        (0..=round.min(n - 1)).any(|k| (observer + n - k) % n == j)
    }

    /// The sampled state (see the module docs).
    pub(super) fn sample_hidden_cards(
        &self,
        st: &TurnTheTideState,
        observer: usize,
        rng: &mut SplitMix64,
    ) -> TurnTheTideState {
        let n = self.players;
        let o = observer.min(n - 1);
        let mut out = *st;
        if st.phase == Phase::Deal {
            // The observation shows no hand before the deal ends: every card dealt so far, the
            // observer's own included, is unseen.
            let mut pool = ALL_CARDS;
            let mut mask = 0;
            for s in 0..n {
                let hand = take(&mut pool, bits::count(st.dealt_hands[s]) as usize, rng);
                out.dealt_hands[s] = hand;
                write_sorted(&mut out.dealt[s], hand);
                mask |= hand;
            }
            out.dealt_mask = mask;
            return out;
        }
        let r = usize::from(st.round);
        let mut pool = ALL_CARDS;
        let mut open = [Open::default(); MAX_SEATS];
        let mut m = 0;
        for j in 0..n {
            let holder = (j + r) % n;
            if self.has_held(o, r, j) {
                pool &= !st.dealt_hands[j];
                continue;
            }
            let len = usize::from(st.played_len[holder]).min(HAND_SIZE);
            let shown = st.played[holder][..len]
                .iter()
                .fold(0u64, |acc, &c| acc | 1u64 << c);
            pool &= !shown;
            let lifebuoys = (halves_of(st.dealt_hands[j]) / 2) as i32;
            open[m] = Open {
                dealt_to: j,
                holder,
                shown,
                need: HAND_SIZE - bits::count(shown) as usize,
                lo: 2 * lifebuoys - halves_of(shown) as i32,
            };
            m += 1;
        }
        let open = &open[..m];
        let mut pools = CLASSES.map(|c| pool & c);
        let total = bits::count(pool) as usize;
        // ways[i][r1][r2]: the ways to deal open hands i.. (and the undealt rest) from the
        // remaining unseen cards with r1 cards of class 1 and r2 of class 2.
        let mut ways = [[[0f64; MAX2]; MAX1]; MAX_SEATS + 1];
        let mut left = [total; MAX_SEATS + 1];
        for i in 0..m {
            left[i + 1] = left[i].saturating_sub(open[i].need);
        }
        for (r1, row) in ways[m].iter_mut().enumerate() {
            for (r2, w) in row.iter_mut().enumerate() {
                *w = f64::from(u8::from(r1 + r2 <= left[m]));
            }
        }
        // Every split of open hand `i` takes `lo` or `lo + 1` half-lifebuoys (a1 + 2·a2), so
        // the cells that sampling can reach at depth `i` have r1 + 2·r2 in a band of width
        // i + 1 below the start's value; only those are filled (the others are never read).
        let (start1, start2) = (
            bits::count(pools[1]) as usize,
            bits::count(pools[2]) as usize,
        );
        let mut band = [(0i32, 0i32); MAX_SEATS + 1];
        let mut halves = (start1 + 2 * start2) as i32;
        for (i, h) in open.iter().enumerate() {
            band[i] = (halves - i as i32, halves);
            halves -= h.lo;
        }
        for i in (0..m).rev() {
            let (low, high) = band[i];
            for r1 in 0..MAX1 {
                for r2 in 0..MAX2 {
                    let value = (r1 + 2 * r2) as i32;
                    if r1 + r2 > left[i] || value < low || value > high {
                        continue;
                    }
                    let mut w = 0.0;
                    Self::for_each_split(&open[i], left[i], r1, r2, |a, weight| {
                        w += weight * ways[i + 1][r1 - a[1]][r2 - a[2]];
                    });
                    ways[i][r1][r2] = w;
                }
            }
        }
        let (mut r1, mut r2) = (start1, start2);
        for (i, h) in open.iter().enumerate() {
            let mut u = unit(rng) * ways[i][r1.min(MAX1 - 1)][r2.min(MAX2 - 1)];
            let (mut chosen, mut last) = (None, None);
            Self::for_each_split(h, left[i], r1, r2, |a, weight| {
                let w = weight * ways[i + 1][r1 - a[1]][r2 - a[2]];
                if w <= 0.0 {
                    return;
                }
                last = Some(a);
                if chosen.is_none() {
                    if u < w {
                        chosen = Some(a);
                    } else {
                        u -= w;
                    }
                }
            });
            // A reachable state always has a way (its real deal); rounding may leave `u` just
            // above the total, which takes the last split.
            let a = chosen.or(last).unwrap_or([h.need, 0, 0]);
            let mut hidden = 0;
            for (class, &k) in a.iter().enumerate() {
                hidden |= take(&mut pools[class], k, rng);
            }
            r1 -= a[1].min(r1);
            r2 -= a[2].min(r2);
            out.hands[h.holder] = hidden;
            out.dealt_hands[h.dealt_to] = hidden | h.shown;
        }
        let mut mask = 0;
        for j in 0..n {
            write_sorted(&mut out.dealt[j], out.dealt_hands[j]);
            mask |= out.dealt_hands[j];
        }
        out.dealt_mask = mask;
        if st.phase == Phase::Play {
            for s in 0..n {
                if s != o && st.commitments[s] != 0 {
                    out.commitments[s] = bits::pick(out.hands[s], rng).unwrap_or(0) as u8;
                }
            }
        }
        out
    }

    /// Calls `f([a0, a1, a2], weight)` for every split of open hand `h`'s hidden cards into the
    /// three classes that keeps its lifebuoy count, from `left` unseen cards of which `r1` are of
    /// class 1 and `r2` of class 2; `weight` counts the card choices.
    fn for_each_split(
        h: &Open,
        left: usize,
        r1: usize,
        r2: usize,
        mut f: impl FnMut([usize; 3], f64),
    ) {
        let r0 = left.saturating_sub(r1 + r2);
        for a2 in 0..=h.need.min(r2) {
            for extra in 0..2 {
                let a1 = h.lo + extra - 2 * a2 as i32;
                if a1 < 0 {
                    continue;
                }
                let a1 = a1 as usize;
                if a1 > r1 || a1 + a2 > h.need {
                    continue;
                }
                let a0 = h.need - a1 - a2;
                if a0 > r0 {
                    continue;
                }
                f(
                    [a0, a1, a2],
                    choose(r0, a0) * choose(r1, a1) * choose(r2, a2),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{halves, halves_of, Phase, TurnTheTide, TurnTheTideState, HAND_SIZE};
    use super::ALL_CARDS;
    use crate::bits;
    use crate::game::Game;
    use crate::rng::SplitMix64;
    use crate::testing::{
        assert_sample_does_not_peek, card_mask, check_determinizer, determinized, every_nth,
        game_with, games_over, play_search_against_random, playout_nodes, replays_to,
    };
    use serde_json::{json, Value};
    use std::collections::BTreeSet;
    use std::sync::Arc;

    type S = TurnTheTideState;

    fn game(players: usize, opts: Value) -> Arc<TurnTheTide> {
        game_with(players, opts)
    }

    /// The defaults and each non-default option value, for every player count.
    fn games() -> Vec<Arc<TurnTheTide>> {
        games_over(
            3..=5,
            &[
                json!({}),
                json!({"recheck_after_elimination": false}),
                json!({"highest_chooses_tide": true}),
                json!({"rounds": 1}),
                json!({"rounds": 2}),
            ],
        )
    }

    /// Card conservation and the public counts of a sample: every hand is the hidden cards of its
    /// holder plus what it revealed this round, the hands are disjoint, 12 cards each, the deal
    /// record matches, and every hand keeps the lifebuoy count it had in the real state.
    fn check_sample(g: &TurnTheTide, real: &S, d: &S) {
        let n = g.players();
        let mut union = 0u64;
        for j in 0..n {
            let hand = d.dealt_hands[j];
            assert_eq!(card_mask(&d.dealt[j][..bits::count(hand) as usize]), hand);
            assert_eq!(union & hand, 0);
            union |= hand;
            assert_eq!(
                bits::count(hand),
                bits::count(real.dealt_hands[j]),
                "hand size"
            );
            if real.phase != Phase::Deal {
                assert_eq!(halves_of(hand) / 2, halves_of(real.dealt_hands[j]) / 2);
                let q = (j + usize::from(d.round)) % n;
                let shown = card_mask(&d.played[q][..usize::from(d.played_len[q])]);
                assert_eq!(d.hands[q] | shown, hand);
                assert_eq!(d.hands[q] & shown, 0);
                if d.commitments[q] != 0 && d.phase == Phase::Play {
                    assert_ne!(d.hands[q] & 1u64 << d.commitments[q], 0);
                }
            }
        }
        assert_eq!(union, d.dealt_mask);
        assert_eq!(union & !ALL_CARDS, 0);
    }

    /// The history of the sample: the real one with the deal replaced by the sample's deal
    /// records and the pending commitments by the sample's. It replays only when no hand the
    /// observer has not held was played from in an earlier round (round 0, or every hand held).
    fn sample_history(
        g: &TurnTheTide,
        real: &S,
        hist: &[u32],
        d: &S,
        p: usize,
    ) -> Option<Vec<u32>> {
        let n = g.players();
        let r = usize::from(real.round);
        let all_held = (0..n).all(|j| g.has_held(p, r, j));
        if real.phase != Phase::Deal && r > 0 && !all_held {
            return None;
        }
        let mut h = Vec::with_capacity(hist.len());
        let dealt = usize::from(real.dealt_count);
        for s in 0..n {
            let k = dealt.saturating_sub(s * HAND_SIZE).min(HAND_SIZE);
            h.extend(d.dealt[s][..k].iter().map(|&c| u32::from(c)));
        }
        h.extend_from_slice(&hist[dealt.min(hist.len())..]);
        if real.phase == Phase::Play {
            let committed: Vec<usize> = (0..n).filter(|&s| real.commitments[s] != 0).collect();
            let start = h.len() - committed.len();
            for (i, &s) in committed.iter().enumerate() {
                h[start + i] = u32::from(d.commitments[s]);
            }
        }
        Some(h)
    }

    /// A second real state the observer cannot tell from `st`: deal records reversed, other
    /// seats' commitments moved to another card of their hand, and two unseen cards of the same
    /// lifebuoy class swapped between hands the observer has not held (or the undealt cards).
    fn disguise(g: &TurnTheTide, st: &S, p: usize, seed: u64) -> S {
        let n = g.players();
        let mut alt = *st;
        let mut rng = SplitMix64::new(seed);
        for j in 0..n {
            let k = bits::count(st.dealt_hands[j]) as usize;
            alt.dealt[j][..k].reverse();
        }
        if st.phase == Phase::Deal {
            return alt;
        }
        let r = usize::from(st.round);
        // Hidden cards per place: open hands' holders, then the undealt cards (place n).
        let mut places: Vec<(usize, u64)> = Vec::new();
        for j in 0..n {
            if !g.has_held(p, r, j) {
                places.push((j, st.hands[(j + r) % n]));
            }
        }
        places.push((n, ALL_CARDS & !st.dealt_mask));
        if places.len() >= 2 {
            let a = rng.below(places.len() as u64) as usize;
            let b = (a + 1 + rng.below(places.len() as u64 - 1) as usize) % places.len();
            let (ja, ma) = places[a];
            let (jb, mb) = places[b];
            let x = bits::pick(ma, &mut rng);
            if let Some(x) = x {
                let same = bits::ones(mb).find(|&y| halves(y) == halves(x));
                if let Some(y) = same {
                    let (bx, by) = (1u64 << x, 1u64 << y);
                    for (j, from, to) in [(ja, bx, by), (jb, by, bx)] {
                        if j < n {
                            let q = (j + r) % n;
                            alt.hands[q] = alt.hands[q] & !from | to;
                            alt.dealt_hands[j] = alt.dealt_hands[j] & !from | to;
                            if u32::from(alt.commitments[q]) == from.trailing_zeros() {
                                alt.commitments[q] = to.trailing_zeros() as u8;
                            }
                            for c in alt.dealt[j].iter_mut() {
                                if 1u64 << *c == from {
                                    *c = to.trailing_zeros() as u8;
                                }
                            }
                        }
                    }
                    alt.dealt_mask = alt.dealt_hands[..n].iter().fold(0, |m, &h| m | h);
                }
            }
        }
        if st.phase == Phase::Play {
            for s in 0..n {
                if s != p && alt.commitments[s] != 0 {
                    alt.commitments[s] = bits::pick(alt.hands[s], &mut rng).unwrap_or(0) as u8;
                }
            }
        }
        alt
    }

    /// On reachable states of every option set and player count, for every observer, besides the
    /// kit's checks: the sample keeps cards and lifebuoy counts, replays through the session where
    /// its history is known, and is the same for a real state the observer cannot tell apart.
    #[test]
    fn samples_keep_the_cards_replay_and_do_not_peek() {
        let (mut checked, mut replayed, mut swapped) = (0, 0, 0);
        for (gi, g) in games().iter().enumerate() {
            checked += check_determinizer(g, 2, gi as u64, every_nth(5), |c| {
                let (st, d, p) = (c.real, &c.sample, c.observer);
                check_sample(g, st, d);
                if let Some(h) = sample_history(g, st, c.history, d, p) {
                    assert!(replays_to(g, &h, d), "the sample's history does not replay");
                    replayed += 1;
                }
                let alt = disguise(g, st, p, c.seed ^ 0x5eed);
                assert_sample_does_not_peek(&**g, c, &alt);
                swapped += usize::from(alt.hands != st.hands);
            });
        }
        assert!(checked > 2000, "{checked}");
        assert!(replayed > 500, "{replayed}");
        assert!(swapped > 1000, "{swapped}");
        eprintln!("checked {checked}, replayed {replayed}, hidden cards swapped {swapped}");
    }

    /// Over many samples the hidden cards vary, while the observer's own hand stays.
    #[test]
    fn hidden_hands_vary() {
        for n in 3..=5 {
            let g = game(n, json!({}));
            let nodes = playout_nodes(&*g, 11);
            let (_, st) = nodes
                .iter()
                .find(|(_, s)| s.phase == Phase::Play && s.round == 1 && s.hand_index == 2)
                .unwrap();
            for p in 0..n {
                let other = (p + 1) % n;
                let seen: BTreeSet<u64> = (0..60)
                    .map(|s| determinized(&*g, st, p, s).hands[other])
                    .collect();
                let own: BTreeSet<u64> = (0..60)
                    .map(|s| determinized(&*g, st, p, s).hands[p])
                    .collect();
                assert_eq!(own.len(), 1);
                // In round 1 the next seat holds a hand the observer has not held, unless n = 3
                // and it held it in round 0... both are checked by the counts below.
                let held = g.has_held(p, 1, (other + n - 1) % n);
                assert_eq!(seen.len() == 1, held, "seat {p} n {n}");
            }
        }
    }

    /// Seeded smoke test: the search player built on the sampler plays whole games.
    #[test]
    fn mcts_plays_against_random() {
        for (n, seed) in [(3usize, 1u64), (4, 2), (5, 3)] {
            let g = game(n, json!({"rounds": 1}));
            play_search_against_random(&*g, "mcts:iterations=200", seed as usize % n, seed);
        }
    }
}
