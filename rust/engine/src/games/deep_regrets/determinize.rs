//! Determinization (contract section "Determinization"): a full state sampled from what one seat
//! can know. Re-dealt from what the observer has not seen: the face-down fish of the shoals (and
//! the fish not yet dealt), regret values held by other seats / the deck / the discard / a hidden
//! pool or offer, the dinks and supplies of other seats with the dink and supply piles, and the
//! rod and reel piles (with shop cards drawn by another seat). Everything is rebuilt from the
//! canonical (sorted) set of unseen cards and shuffled with the caller's stream. The size of every
//! shoal's top is public (its card back, Decision 86): a re-dealt top keeps the real top's size.

use super::{DeepRegrets, DeepRegretsState as S, ItemSrc, Seat, BLOCK, MAX_SEATS, NONE};
use crate::rng::SplitMix64;

/// Shuffles `v` in place (Fisher–Yates, from the back).
fn shuffle(v: &mut [u8], rng: &mut SplitMix64) {
    for i in (1..v.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        v.swap(i, j);
    }
}

/// Re-deals the cards of the bit-mask holders `holders` (each keeps its count) from the union of
/// their cards, leaving the `pinned` cards where they are.
fn redeal_masks(holders: &mut [u32], pinned: u32, rng: &mut SplitMix64) {
    let mut pool_mask = 0u32;
    for &h in holders.iter() {
        pool_mask |= h & !pinned;
    }
    let mut pool = [0u8; 32];
    let mut len = 0;
    super::each_bit(pool_mask, |b| {
        pool[len] = b as u8;
        len += 1;
    });
    shuffle(&mut pool[..len], rng);
    let mut next = 0;
    for h in holders.iter_mut() {
        let k = (*h & !pinned).count_ones() as usize;
        let mut m = *h & pinned;
        for &b in &pool[next..next + k] {
            m |= 1 << b;
        }
        next += k;
        *h = m;
    }
}

/// One kind of item card for [`redeal_held`]: the seats holding it, their field of it, the shop
/// that draws from it (`None`: no shop) and the pinned cards.
type Kind<'a> = (&'a [usize], fn(&mut Seat) -> &mut u32, Option<u8>, u32);

/// Re-deals the cards held by `seats` (their `held` field) and by `piles`, holders in that order,
/// as [`redeal_masks`] does.
fn redeal_held(
    out: &mut S,
    seats: &[usize],
    held: fn(&mut Seat) -> &mut u32,
    piles: &mut [u32],
    pinned: u32,
    rng: &mut SplitMix64,
) {
    let mut h = [0u32; MAX_SEATS + 3];
    let len = seats.len() + piles.len();
    for (slot, &q) in h.iter_mut().zip(seats) {
        *slot = *held(&mut out.seats[q]);
    }
    h[seats.len()..len].copy_from_slice(piles);
    redeal_masks(&mut h[..len], pinned, rng);
    for (&m, &q) in h.iter().zip(seats) {
        *held(&mut out.seats[q]) = m;
    }
    piles.copy_from_slice(&h[seats.len()..len]);
}

impl DeepRegrets {
    /// A state sampled from what seat `me` can know in `st` (see [`crate::game::Game::determinize`]).
    /// A finished game is returned as it is (everything that matters is revealed).
    pub(super) fn sample_determinization(&self, st: &S, me: usize, rng: &mut SplitMix64) -> S {
        let mut out = *st;
        if st.ended {
            return out;
        }
        let me = me.min(self.n() - 1);
        // Which face-down tops the other seats have seen (a peek, a Can of Worms fish left on
        // top rather than put at the bottom) is not in `me`'s view: the sample says none.
        for (q, known) in out.known.iter_mut().enumerate() {
            if q != me {
                *known = 0;
            }
        }
        self.redeal_fish(&mut out, me, rng);
        self.redeal_regrets(&mut out, me, rng);
        self.redeal_items(&mut out, me, rng);
        out
    }

    /// The fish ids the continuation or the context refers to: they stay where they are.
    fn referenced_fish(st: &S) -> [u8; 12] {
        let mut r = [NONE; 12];
        r[0] = st.peek;
        r[1] = st.cast_beneath;
        r[2] = st.catch_fish;
        r[3] = st.cast_fish;
        r[4] = st.shuffle_fish;
        r[5] = st.give_fish;
        r[6] = st.ability_fish;
        let n = usize::from(st.order_len).min(3);
        r[7..7 + n].copy_from_slice(&st.order[..n]);
        let n = usize::from(st.chosen_len).min(2);
        r[10..10 + n].copy_from_slice(&st.chosen[..n]);
        r
    }

    /// Face-down fish of each depth's shoals that `me` has not seen, with the fish of that depth
    /// not yet dealt, are shuffled back into the same places. "The size of every shoal's top is
    /// public (its card back ...), so the re-deal keeps it. Per depth, first the re-dealt tops
    /// ..., shoal by shoal in index order: each is drawn uniformly among the fish of the depth's
    /// pool not drawn yet that have the size of the real top ... Then the depth's other places
    /// ... get the rest of the pool, shuffled uniformly." (contract, "Determinization")
    fn redeal_fish(&self, out: &mut S, me: usize, rng: &mut SplitMix64) {
        // A reorder in progress rewrites the top of the cast's shoal from its own lists: those
        // fish are all referenced (they stay in the shoal, in their old order, until then), so
        // they keep their places and only the unseen fish below them are dealt again.
        let refs = Self::referenced_fish(out);
        for w in 0..3 {
            let mut pool = [0u8; 3 * super::SHOAL_CAP + BLOCK];
            let mut len = 0;
            let mut slots = [(0u8, 0u8); 3 * super::SHOAL_CAP];
            let mut nslots = 0;
            for s in 3 * w..3 * w + 3 {
                let l = usize::from(out.shoal_len[s]);
                for i in 0..l {
                    let f = out.shoals[s][i];
                    let top = i + 1 == l;
                    let seen = top && (out.face_up >> s & 1 == 1 || out.known[me] >> s & 1 == 1);
                    if seen || refs.contains(&f) {
                        continue;
                    }
                    pool[len] = f;
                    len += 1;
                    slots[nslots] = (s as u8, i as u8);
                    nslots += 1;
                }
            }
            // Fish of this depth that entered another seat's hand unseen (`swap_beneath`): `me`
            // knows only that the seat holds one more fish of this depth.
            let mut held = [(0u8, 0u8); 3 * super::SHOAL_CAP];
            let mut nheld = 0;
            for (q, seat) in out.seats.iter().enumerate().take(self.n()) {
                if q == me {
                    continue;
                }
                seat.hand.and(&out.unseen_hand).each(|f| {
                    let in_block = usize::from(f) / BLOCK == w;
                    if in_block && !refs.contains(&f) && nheld < held.len() {
                        held[nheld] = (q as u8, f);
                        nheld += 1;
                        pool[len] = f;
                        len += 1;
                    }
                });
            }
            for &(q, f) in &held[..nheld] {
                out.seats[usize::from(q)].hand.remove(f);
                out.unseen_hand.remove(f);
            }
            let mut left = [0u8; BLOCK];
            let mut nleft = 0;
            let mut m = out.deal_left.0[w];
            while m != 0 {
                let b = m.trailing_zeros() as usize;
                m &= m - 1;
                left[nleft] = (w * BLOCK + b) as u8;
                nleft += 1;
            }
            for &f in &left[..nleft] {
                pool[len] = f;
                len += 1;
            }
            let pool = &mut pool[..len];
            pool.sort_unstable();
            // The re-dealt tops first, each among the fish not drawn yet of its real top's size
            // (the real tops are in the pool: there are always enough).
            let size = |f: u8| self.data.fish.get(usize::from(f)).map_or(NONE, |x| x.size);
            let mut taken = [false; 3 * super::SHOAL_CAP + BLOCK];
            let mut top_of = [NONE; 3 * super::SHOAL_CAP];
            for (k, &(s, i)) in slots[..nslots].iter().enumerate() {
                let (s, i) = (usize::from(s), usize::from(i));
                if i + 1 != usize::from(out.shoal_len[s]) {
                    continue;
                }
                let z = size(out.shoals[s][i]);
                let fits = |j: usize| !taken[j] && size(pool[j]) == z;
                let count = (0..len).filter(|&j| fits(j)).count();
                if count == 0 {
                    continue; // never: the real top is in the pool, not drawn yet
                }
                let pick = rng.below(count as u64) as usize;
                if let Some(j) = (0..len).filter(|&j| fits(j)).nth(pick) {
                    taken[j] = true;
                    top_of[k] = pool[j];
                }
            }
            // Then the other places: the rest of the pool, in its canonical order, shuffled.
            let mut rest = [0u8; 3 * super::SHOAL_CAP + BLOCK];
            let mut nrest = 0;
            for (j, &f) in pool.iter().enumerate() {
                if !taken[j] {
                    rest[nrest] = f;
                    nrest += 1;
                }
            }
            let rest = &mut rest[..nrest];
            shuffle(rest, rng);
            let mut next = 0;
            for (k, &(s, i)) in slots[..nslots].iter().enumerate() {
                let f = if top_of[k] == NONE {
                    next += 1;
                    rest[next - 1]
                } else {
                    top_of[k]
                };
                out.shoals[usize::from(s)][usize::from(i)] = f;
            }
            for &(q, _) in &held[..nheld] {
                let f = rest[next];
                next += 1;
                out.seats[usize::from(q)].hand.insert(f);
                out.unseen_hand.insert(f);
            }
            for &f in &left[..nleft] {
                out.deal_left.remove(f);
            }
            for &f in &rest[next..] {
                out.deal_left.insert(f);
            }
        }
    }

    /// Regret values held where `me` sees only counts are re-dealt.
    fn redeal_regrets(&self, out: &mut S, me: usize, rng: &mut SplitMix64) {
        let n = self.n();
        let mut values = [0u8; 64];
        let mut len = 0;
        let mut counts = [0usize; MAX_SEATS + 4];
        let mut take = |c: &[u8; 4], slot: usize, counts: &mut [usize]| {
            for v in 0..4 {
                for _ in 0..c[v] {
                    if len < values.len() {
                        values[len] = v as u8;
                        len += 1;
                        counts[slot] += 1;
                    }
                }
            }
        };
        for q in 0..n {
            if q != me {
                take(&out.seats[q].regrets, q, &mut counts);
            }
        }
        take(&out.regret_deck, MAX_SEATS, &mut counts);
        take(&out.regret_discard, MAX_SEATS + 1, &mut counts);
        let pool_hidden = out.pool_on && usize::from(out.actor) != me;
        if pool_hidden {
            take(&out.pool, MAX_SEATS + 2, &mut counts);
        }
        let offer_hidden = out.turn != me as u8 && out.target != me as u8;
        if offer_hidden {
            take(&out.offer, MAX_SEATS + 3, &mut counts);
        }
        let values = &mut values[..len];
        values.sort_unstable();
        shuffle(values, rng);
        let mut next = 0;
        let mut deal = |k: usize| {
            let mut c = [0u8; 4];
            for &v in &values[next..next + k] {
                c[usize::from(v)] += 1;
            }
            next += k;
            c
        };
        for q in 0..n {
            if q != me {
                out.seats[q].regrets = deal(counts[q]);
            }
        }
        out.regret_deck = deal(counts[MAX_SEATS]);
        out.regret_discard = deal(counts[MAX_SEATS + 1]);
        if pool_hidden {
            out.pool = deal(counts[MAX_SEATS + 2]);
        }
        if offer_hidden {
            out.offer = deal(counts[MAX_SEATS + 3]);
        }
    }

    /// Dinks and supplies of other seats and every face-down pile of item cards are re-dealt.
    fn redeal_items(&self, out: &mut S, me: usize, rng: &mut SplitMix64) {
        let n = self.n();
        let (pin_dink, pin_supply) = match out.item {
            Some(ItemSrc::Dink(d)) => (1u32 << (d & 31), 0),
            Some(ItemSrc::Supply(i)) => (0, 1u32 << (i & 31)),
            _ => (0, 0),
        };
        // shop cards drawn by another seat are hidden (as a mask; written back below)
        let dl = usize::from(out.drawn_len).min(out.drawn.len());
        let drawn_hidden = out.shop <= 2 && dl > 0 && usize::from(out.actor) != me;
        let mut drawn = 0u32;
        if drawn_hidden {
            for &i in &out.drawn[..dl] {
                drawn |= 1 << (i & 31);
            }
        }
        let mut others = [0usize; MAX_SEATS];
        let mut k = 0;
        for q in (0..n).filter(|&q| q != me) {
            others[k] = q;
            k += 1;
        }
        let others = &others[..k];
        // Per kind of item card (dinks, supplies, rods, reels): the other seats' cards, then the
        // deck and the discard, then the hidden drawn cards of the shop of that kind.
        let kinds: [Kind; 4] = [
            (others, |s| &mut s.dinks, None, pin_dink),
            (others, |s| &mut s.supplies, Some(2), pin_supply),
            (&[], |s| &mut s.rods, Some(0), 0),
            (&[], |s| &mut s.reels, Some(1), 0),
        ];
        let mut dealt = [
            [out.dink_deck, out.dink_discard],
            [out.supply_deck, out.supply_discard],
            [out.rod_deck, out.rod_discard],
            [out.reel_deck, out.reel_discard],
        ];
        for ((seats, held, shop, pinned), dealt) in kinds.into_iter().zip(&mut dealt) {
            let [deck, discard] = *dealt;
            let mut piles = [deck, discard, drawn];
            let with_drawn = drawn_hidden && shop == Some(out.shop);
            let len = 2 + usize::from(with_drawn);
            redeal_held(out, seats, held, &mut piles[..len], pinned, rng);
            *dealt = [piles[0], piles[1]];
            if with_drawn {
                drawn = piles[2];
            }
        }
        [out.dink_deck, out.dink_discard] = dealt[0];
        [out.supply_deck, out.supply_discard] = dealt[1];
        [out.rod_deck, out.rod_discard] = dealt[2];
        [out.reel_deck, out.reel_discard] = dealt[3];
        if drawn_hidden {
            let mut ids = [0u8; 5];
            let mut k = 0;
            super::each_bit(drawn, |b| {
                if k < ids.len() {
                    ids[k] = b as u8;
                    k += 1;
                }
            });
            shuffle(&mut ids[..k], rng);
            out.drawn[..k].copy_from_slice(&ids[..k]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::random_play::check_conservation;
    use super::super::{DeepRegrets, DeepRegretsState};
    use crate::game::Game;
    use crate::rng::SplitMix64;
    use crate::testing::{
        check_determinizer, every_nth, game_with, play_search_against_random, play_to_end,
        playout_nodes,
    };
    use serde_json::{json, Value};
    use std::collections::HashSet;
    use std::sync::Arc;

    fn game(players: usize, opts: Value) -> Arc<DeepRegrets> {
        game_with(players, opts)
    }

    /// The option sets: defaults plus each non-default choice, over every player count.
    fn games() -> Vec<Arc<DeepRegrets>> {
        vec![
            game(2, json!({})),
            game(3, json!({"days": 5})),
            game(4, json!({"regret_split": "10/20/20/10"})),
            game(5, json!({"expansion_tentacles": true})),
        ]
    }

    /// A second real state with the same information for `me`: two hidden fish of a depth swapped
    /// (of the same size when one of them is a top: its back shows the size, Decision 86),
    /// the other seats' knowledge of the face-down tops turned over, a regret of another seat
    /// exchanged with the deck, a dink of another seat exchanged with the deck.
    fn perturb(g: &DeepRegrets, st: &DeepRegretsState, me: usize) -> DeepRegretsState {
        let mut o = *st;
        let face_down = (0..9)
            .filter(|&s| st.shoal_len[s] > 0 && st.face_up >> s & 1 == 0)
            .fold(0, |m, s| m | 1 << s);
        for q in (0..g.players()).filter(|&q| q != me) {
            o.known[q] ^= face_down;
        }
        let refs = DeepRegrets::referenced_fish(st);
        let reorder = st.order_len > 0 || st.chosen_len > 0;
        for w in 0..3 {
            let mut slots = Vec::new();
            for s in 3 * w..3 * w + 3 {
                let l = usize::from(st.shoal_len[s]);
                for i in 0..l {
                    let seen =
                        i + 1 == l && (st.face_up >> s & 1 == 1 || st.known[me] >> s & 1 == 1);
                    if !seen && !refs.contains(&st.shoals[s][i]) {
                        slots.push((s, i));
                    }
                }
            }
            if slots.len() >= 2 {
                // During a reorder, a fish below the reordered ones is one of the two.
                let cast = usize::from(st.cast_shoal);
                let a = match slots.iter().find(|x| reorder && x.0 == cast) {
                    Some(&x) => x,
                    None => slots[0],
                };
                let top = |x: (usize, usize)| x.1 + 1 == usize::from(st.shoal_len[x.0]);
                let size = |x: (usize, usize)| g.data.fish[usize::from(st.shoals[x.0][x.1])].size;
                let b = match slots
                    .iter()
                    .rev()
                    .find(|&&x| x != a && (!(top(x) || top(a)) || size(x) == size(a)))
                {
                    Some(&x) => x,
                    None => a,
                };
                let fa = o.shoals[a.0][a.1];
                o.shoals[a.0][a.1] = o.shoals[b.0][b.1];
                o.shoals[b.0][b.1] = fa;
            }
        }
        for q in (0..g.players()).filter(|&q| q != me) {
            for v in 0..4 {
                for u in 0..4 {
                    if u != v && o.seats[q].regrets[v] > 0 && o.regret_deck[u] > 0 {
                        o.seats[q].regrets[v] -= 1;
                        o.regret_deck[v] += 1;
                        o.seats[q].regrets[u] += 1;
                        o.regret_deck[u] -= 1;
                        return swap_dink(o, q);
                    }
                }
            }
        }
        o
    }

    fn swap_dink(mut o: DeepRegretsState, q: usize) -> DeepRegretsState {
        let pinned = match o.item {
            Some(super::ItemSrc::Dink(d)) => 1u32 << d,
            _ => 0,
        };
        let held = o.seats[q].dinks & !pinned;
        if held != 0 && o.dink_deck != 0 {
            let a = 1u32 << held.trailing_zeros();
            let b = 1u32 << o.dink_deck.trailing_zeros();
            o.seats[q].dinks ^= a | b;
            o.dink_deck ^= a | b;
        }
        o
    }

    /// Besides the kit's checks, the sample conserves the cards, is the same for a real state the
    /// observer cannot tell apart (unless the game has ended), and conserves the cards while
    /// played on to the end.
    #[test]
    fn samples_conserve_cards_and_hide_nothing_else() {
        let mut checked = 0;
        let mut perturbed = 0;
        for (gi, g) in games().iter().enumerate() {
            checked += check_determinizer(g, 2, gi as u64, every_nth(37), |c| {
                let (st, smp, me) = (c.real, &c.sample, c.observer);
                check_conservation(g, smp);
                if c.node % (37 * 3) == 0 {
                    let mut steps = 0;
                    let end = play_to_end(&**g, *smp, c.seed, |x| {
                        steps += 1;
                        if steps % 97 == 0 {
                            check_conservation(g, x);
                        }
                    });
                    check_conservation(g, &end);
                }
                if st.ended {
                    // a finished game is returned as it is
                    return;
                }
                let other = perturb(g, st, me);
                assert_eq!(g.observation(&other, me), g.observation(st, me));
                if g.state_json(&other) != g.state_json(st) {
                    perturbed += 1;
                }
                let smp2 = g
                    .determinize(&other, me, &mut SplitMix64::new(c.seed))
                    .unwrap();
                let (j1, j2) = (g.state_json(smp), g.state_json(&smp2));
                if j1 != j2 {
                    let (r1, r2) = (g.state_json(st), g.state_json(&other));
                    for (key, v) in j1.as_object().unwrap() {
                        if *v != j2[key] {
                            eprintln!("{key}: {v} vs {}", j2[key]);
                            eprintln!("real {key}: {} vs {}", r1[key], r2[key]);
                        }
                    }
                    panic!(
                        "peeked: me {me} node {} known {:?}",
                        st.node.name(),
                        st.known
                    );
                }
            });
        }
        assert!(checked > 500, "{checked}");
        assert!(perturbed > 300, "{perturbed}");
    }

    /// Decision 86 ("Card back shows depth and size silhouette (Small / Middling / Large).") and
    /// the contract's "Determinization": every sample shows the real tops' sizes, face down
    /// included.
    #[test]
    fn samples_keep_the_size_of_every_top() {
        let mut redealt = 0;
        for (gi, g) in games().iter().enumerate() {
            for (k, (_, st)) in playout_nodes(&**g, 11 + gi as u64).iter().enumerate() {
                if st.ended || k % 13 != 0 {
                    continue;
                }
                for me in 0..g.players() {
                    let smp = g
                        .determinize(st, me, &mut SplitMix64::new(k as u64))
                        .unwrap();
                    for s in 0..9 {
                        assert_eq!(g.top_size(&smp, s), g.top_size(st, s), "shoal {s}");
                        redealt += usize::from(smp.top_fish(s) != st.top_fish(s));
                    }
                }
            }
        }
        assert!(redealt > 500, "{redealt}");
    }

    /// At the first turn every top is face down and unseen: the top of shoal 0 is drawn
    /// uniformly among the depth's fish of its real top's size (every one of them comes up, none
    /// of another size), while the fish beneath it take every size.
    #[test]
    fn a_redealt_top_is_uniform_among_the_fish_of_its_size() {
        let g = game(2, json!({}));
        let st = playout_nodes(&*g, 5)
            .into_iter()
            .map(|(_, st)| st)
            .find(|st| st.phase == super::super::Phase::Actions)
            .unwrap();
        assert_eq!(st.face_up, 0);
        let size = |f: u8| g.data.fish[usize::from(f)].size;
        let z = size(st.top_fish(0).unwrap());
        assert_eq!(st.known, [0; super::super::MAX_SEATS]);
        let candidates: Vec<u8> = (0..45u8)
            .filter(|&f| g.data.fish[usize::from(f)].base && size(f) == z)
            .collect();
        let mut tops = std::collections::HashMap::new();
        let mut beneath = HashSet::new();
        let mut rng = SplitMix64::new(9);
        let draws = 200 * candidates.len();
        for _ in 0..draws {
            let smp = g.determinize(&st, 1, &mut rng).unwrap();
            *tops.entry(smp.top_fish(0).unwrap()).or_insert(0usize) += 1;
            beneath.insert(size(smp.shoals[0][usize::from(smp.shoal_len[0]) - 2]));
        }
        let mut seen: Vec<u8> = tops.keys().copied().collect();
        seen.sort_unstable();
        assert_eq!(seen, candidates);
        for (f, &count) in &tops {
            assert!((140..=260).contains(&count), "fish {f}: {count} of {draws}");
        }
        assert_eq!(beneath.len(), 3);
    }

    #[test]
    fn hidden_cards_vary() {
        for g in games() {
            let states = playout_nodes(&*g, 7);
            let st = &states[states.len() / 3].1;
            let mut shoals = HashSet::new();
            let mut regrets = HashSet::new();
            let mut rng = SplitMix64::new(3);
            for _ in 0..30 {
                let smp = g.determinize(st, 0, &mut rng).unwrap();
                let j = g.state_json(&smp);
                shoals.insert(j["shoals"].to_string());
                regrets.insert(format!("{:?}", smp.seats[1].regrets));
            }
            assert!(shoals.len() > 10, "{}", shoals.len());
            assert!(regrets.len() > 1 || st.seats[1].regret_count() == 0);
        }
    }

    #[test]
    fn mcts_plays_against_random() {
        let g = game(2, json!({"days": 5}));
        for seed in 0..2u64 {
            let end =
                play_search_against_random(&*g, "mcts:iterations=200", seed as usize % 2, seed);
            check_conservation(&g, &end);
        }
    }
}
