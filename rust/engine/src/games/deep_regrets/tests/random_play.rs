//! Random play: what the rules conserve at every node, and the `after_main` node that must never
//! cycle.
//!
//! Must not: hold generic checks that the shared test kit runs for every game.

use super::*;

/// Checks what the rules conserve: every fish in play is in exactly one place, every die and
/// regret card is somewhere, every item card is in one pile or hand; money stays within the $10
/// cap, depth within 0..3, the Omen die single; an equipped rod or reel is held; the fast item
/// legality equals the per-item readiness.
pub(in crate::games::deep_regrets) fn check_conservation(g: &DeepRegrets, st: &DeepRegretsState) {
    let n = g.players();
    // fish: every in-play fish exactly once
    let mut seen = [0u8; 135];
    for s in 0..9 {
        for &f in &st.shoals[s][..usize::from(st.shoal_len[s])] {
            seen[usize::from(f)] += 1;
        }
    }
    for d in 0..3 {
        for &f in &st.fish_discard[d][..usize::from(st.discard_len[d])] {
            seen[usize::from(f)] += 1;
        }
    }
    st.deal_left.each(|f| seen[usize::from(f)] += 1);
    for p in 0..n {
        st.seats[p].hand.each(|f| seen[usize::from(f)] += 1);
        st.seats[p].front.each(|f| seen[usize::from(f)] += 1);
        for &f in &st.seats[p].mounted {
            if f != NONE {
                seen[usize::from(f)] += 1;
            }
        }
        if st.seats[p].cloche != NONE {
            seen[usize::from(st.seats[p].cloche)] += 1;
        }
    }
    if st.plug {
        seen[usize::from(fid("The Plug"))] += 1;
    }
    if st.shuffle_fish != NONE {
        seen[usize::from(st.shuffle_fish)] += 1;
    }

    for (f, &c) in seen.iter().enumerate() {
        let want = u8::from(g.in_play.contains(f));
        assert_eq!(c, want, "fish {f} seen {c} times");
    }
    // dice
    let mut tackle = [0u32; 3];
    for (c, &b) in st.bag.iter().enumerate() {
        tackle[c] += u32::from(b);
    }
    let actor = usize::from(st.actor);
    for p in 0..n {
        let s = &st.seats[p];
        let mut kinds = [0u32; KINDS];
        for c in 0..CLASSES {
            kinds[usize::from(CLASS_KIND[c])] += u32::from(s.fresh[c]);
            if p == actor {
                kinds[usize::from(CLASS_KIND[c])] +=
                    u32::from(st.payment[c]) + u32::from(st.rolled[c]);
            }
        }
        for k in 0..KINDS {
            kinds[k] += u32::from(s.spent[k]);
            if p == actor {
                kinds[k] += u32::from(st.to_roll[k]);
            }
        }
        assert_eq!(kinds[0], 3, "seat {p} player dice");
        assert!(kinds[4] <= 1);
        for c in 0..3 {
            tackle[c] += kinds[c + 1];
        }
        assert!(s.money <= 10);
        assert!(s.depth <= 3);
    }
    assert_eq!(tackle, [9, 8, 7], "tackle dice");
    // regrets
    let mut regrets = [0u32; 4];
    for v in 0..4 {
        regrets[v] += u32::from(st.regret_deck[v]) + u32::from(st.regret_discard[v]);
        for p in 0..n {
            regrets[v] += u32::from(st.seats[p].regrets[v]);
        }
    }
    for v in 0..4 {
        regrets[v] += u32::from(st.pool[v]) + u32::from(st.offer[v]);
    }
    let want: Vec<u32> = g.regret_copies.iter().map(|&c| u32::from(c)).collect();
    assert_eq!(regrets.to_vec(), want);
    // items
    let drawn: u32 = st.drawn[..usize::from(st.drawn_len)]
        .iter()
        .fold(0, |m, &i| m | 1 << i);
    let check = |deck: u32, discard: u32, held: &dyn Fn(usize) -> u32, extra: u32, count: u32| {
        let mut all = deck;
        let mut total = deck.count_ones() + discard.count_ones() + extra.count_ones();
        all |= discard | extra;
        for p in 0..n {
            all |= held(p);
            total += held(p).count_ones();
        }
        assert_eq!(total, count);
        assert_eq!(all, (1u32 << count) - 1);
    };
    let (rod_x, reel_x, mut sup_x) = match st.shop {
        0 => (drawn, 0, 0),
        1 => (0, drawn, 0),
        2 => (0, 0, drawn),
        _ => (0, 0, 0),
    };
    check(st.dink_deck, st.dink_discard, &|p| st.seats[p].dinks, 0, 25);
    // the Cloche card is out of every pile while it holds a fish (or is being used)
    let mut sup_all = st.supply_deck | st.supply_discard | sup_x;
    for p in 0..n {
        sup_all |= st.seats[p].supplies;
    }
    if g.cloche_supply != NONE && sup_all >> g.cloche_supply & 1 == 0 {
        sup_x |= 1 << g.cloche_supply;
    }
    check(
        st.supply_deck,
        st.supply_discard,
        &|p| st.seats[p].supplies,
        sup_x,
        20,
    );
    check(
        st.rod_deck,
        st.rod_discard,
        &|p| st.seats[p].rods,
        rod_x,
        10,
    );
    check(
        st.reel_deck,
        st.reel_discard,
        &|p| st.seats[p].reels,
        reel_x,
        10,
    );
    // the fast item legality equals the per-item readiness
    if matches!(st.node, Node::Turn | Node::Pay | Node::AfterMain) {
        let mut legal = Vec::new();
        g.legal_actions(st, &mut legal);
        let p = usize::from(st.actor);
        for d in 0..25u32 {
            let ready = st.seats[p].dinks >> d & 1 == 1
                && g.ready_use(st, p, ItemSrc::Dink(d as u8), st.node)
                    .is_some();
            assert_eq!(legal.contains(&(DINK + d)), ready, "dink {d}");
        }
        for i in 0..20u32 {
            let ready = st.seats[p].supplies >> i & 1 == 1
                && g.ready_use(st, p, ItemSrc::Supply(i as u8), st.node)
                    .is_some();
            assert_eq!(legal.contains(&(SUPPLY + i)), ready, "supply {i}");
        }
    }
    // the short-cut test of `after_main` equals its list having a free action
    if matches!(st.node, Node::Turn | Node::AfterMain) {
        let p = usize::from(st.actor);
        let mut free = Vec::new();
        g.turn_actions(st, p, &mut free, super::super::legal::TurnList::AfterMain);
        let listed = free.iter().any(|&a| a != END_TURN);
        assert_eq!(g.has_free_action(st, p), listed, "free actions {free:?}");
    }
    // the class masks equal the counts they summarise
    let naive = |c: &[u8; CLASSES]| (0..CLASSES).fold(0u16, |m, i| m | u16::from(c[i] > 0) << i);
    assert_eq!(class_mask(&st.rolled), naive(&st.rolled));
    for p in 0..n {
        let s = &st.seats[p];
        assert_eq!(s.fresh_mask(), naive(&s.fresh));
        if s.rod != NONE {
            assert!(s.rods >> s.rod & 1 == 1);
        }
        if s.reel != NONE {
            assert!(s.reels >> s.reel & 1 == 1);
        }
    }
}

/// Tables of every player count from 2 to 5, some with options other than the defaults: what
/// random play is checked over.
fn varied_tables() -> Vec<(usize, Arc<DeepRegrets>)> {
    [
        (4, json!({})),
        (2, json!({})),
        (3, json!({"days": 5})),
        (
            5,
            json!({"expansion_tentacles": true, "regret_split": "10/20/20/10"}),
        ),
    ]
    .into_iter()
    .map(|(n, opts)| (n, game(n, opts)))
    .collect()
}

/// Random play over every player count and option keeps what the rules conserve (see
/// [`check_conservation`]) at every node.
#[test]
fn random_play_conserves_cards_dice_and_regrets() {
    for (i, (_, g)) in varied_tables().into_iter().enumerate() {
        for k in 0..500u64 {
            let start = g.initial_state();
            check_conservation(&g, &start);
            let seed = derive_seed(77 + i as u64, k);
            crate::testing::play_to_end(&*g, start, seed, |st| check_conservation(&g, st));
        }
    }
}

/// Random play over 2-5 players with the expansion on and off: no panic, `after_main` is
/// reached, and it never repeats without a free action in between (free actions use something
/// up, so the node cannot cycle).
#[test]
fn random_games_reach_after_main_and_end() {
    let mut reached = 0u64;
    for n in 2..=5 {
        for tentacles in [false, true] {
            let g = game(n, json!({"expansion_tentacles": tentacles}));
            for k in 0..40u64 {
                let mut rng = SplitMix64::new(derive_seed(1414 + n as u64, k));
                let mut st = g.initial_state();
                let mut legal = Vec::new();
                let mut chance = Vec::new();
                let mut steps = 0;
                let mut run = 0;
                while g.current_player(&st) != TERMINAL {
                    g.legal_actions(&st, &mut legal);
                    let a = if g.current_player(&st) == CHANCE {
                        g.sample_chance(&st, &mut rng, &mut chance)
                    } else {
                        legal[rng.below(legal.len() as u64) as usize]
                    };
                    if st.node == Node::AfterMain {
                        reached += 1;
                        assert!(legal.contains(&END_TURN));
                        assert!(legal.iter().all(|&x| x != PASS && x != SELL && x != MOUNT));
                        run = if a == END_TURN { 0 } else { run + 1 };
                        assert!(run < 200, "after_main cycles");
                    }
                    g.apply(&mut st, a);
                    steps += 1;
                    assert!(steps < 20_000, "game does not end");
                }
                assert!(st.ended);
            }
        }
    }
    assert!(reached > 0);
}

/// Prints how often each node kind is reached per random 4-player game (a diagnostic, not a
/// check).
#[test]
#[ignore]
fn node_histogram() {
    let g = game(4, json!({}));
    let mut hist: std::collections::BTreeMap<&str, u64> = Default::default();
    let mut legal = Vec::new();
    let games = 2000u64;
    for gi in 0..games {
        let mut rng = SplitMix64::new(derive_seed(3, gi));
        let mut st = g.initial_state();
        while g.current_player(&st) != TERMINAL {
            *hist.entry(st.node.name()).or_default() += 1;
            let a = if g.current_player(&st) == CHANCE {
                g.sample_chance(&st, &mut rng, &mut Vec::new())
            } else {
                g.legal_actions(&st, &mut legal);
                legal[rng.below(legal.len() as u64) as usize]
            };
            g.apply(&mut st, a);
        }
    }
    for (k, v) in hist {
        println!("{k:>24} {:.1}", v as f64 / games as f64);
    }
}

/// The game's own random playout ([`Game::random_playout`]) plays exactly as the definition
/// ([`crate::step::random_playout`], one node at a time) from every node of a few seeded games
/// (the deal and rolls started anywhere in their runs among them): the same decision and chance
/// counts, the same end state, and every generator in the same state.
#[test]
fn random_playout_matches_the_step_by_step_one_from_every_node() {
    for (gi, (n, g)) in (0u64..).zip(varied_tables()) {
        crate::testing::assert_random_playouts_match_stepping_along(
            &*g,
            n,
            derive_seed(11, gi),
            gi,
        );
    }
}
