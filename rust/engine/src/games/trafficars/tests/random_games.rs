//! Random games over many option settings, checked against the table's rules at every step
//! (cards conserved, lane structure, `max_cars`, the kept choice of the card being resolved).

use super::*;
use crate::game::Bot;
use crate::rng::derive_seed;
use crate::testing::{play_session, random_bot};

/// Structural invariants of a state between steps.
fn check_invariants(g: &Trafficars, x: &TrafficarsState) {
    let n = g.players();
    let mut seen = x.deck;
    let mut count = x.deck.count_ones();
    let mut add = |m: u64| {
        assert_eq!(seen & m, 0, "a card is in two places");
        seen |= m;
        count += m.count_ones();
    };
    for p in 0..n {
        add(x.hands[p]);
        add(bits::bit_in(
            u32::from(x.commitments[p]),
            FIRST_CARD,
            LAST_CARD,
        ));
    }
    for (k, lane) in x.board.lanes[..g.lanes].iter().enumerate() {
        add(lane.cards_mask());
        assert_eq!(lane.cards_mask().count_ones(), lane.card_count());
        let mut fresh = *lane;
        fresh.summarize();
        assert_eq!(&fresh, lane, "the lane summary is stale");
        if x.phase != Phase::Deal || usize::from(x.dealt) > k {
            assert!(lane.len > 0);
        }
        // At most one free place, never the last place, only during resolution.
        let frees = lane.toks().iter().filter(|&&t| t == FREE).count();
        assert!(frees <= 1);
        if frees == 1 {
            assert_eq!(x.phase, Phase::Resolve);
            let i = lane.free_place().unwrap();
            let next = lane.toks()[i + 1];
            assert!(next & START != 0 && g.kind(tok_id(next)) == Kind::TowTruck);
        }
        if let Some(&first) = lane.toks().first() {
            assert!(first & START != 0);
        }
        for (i, &t) in lane.toks().iter().enumerate() {
            if t & DOUBLE != 0 {
                assert!(t & START != 0 && g.kind(tok_id(t)) == Kind::TowTruck, "{i}");
            }
            if t & START != 0 && tok_id(t) != 0 {
                // Never a bare tow truck on top.
                let end = lane.place_end(i);
                assert_ne!(g.kind(tok_id(lane.toks()[end - 1])), Kind::TowTruck);
            }
        }
        // Between two ambulances of a turn a lane may overflow: the check runs after the last.
        let ambulance_next = x
            .board
            .head()
            .is_some_and(|s| g.kind(x.board.revealed[s]) == Kind::Ambulance);
        if !g.insert && x.phase != Phase::Deal && !ambulance_next {
            if let Some(m) = g.max_cars {
                // (A tow truck always leaves two cars: its place and the free place.)
                assert!(lane.cars() <= m.max(2), "{}", sj(g, x));
            }
        }
    }
    let pen: u32 = x.board.penalties[..n].iter().map(|&p| u32::from(p)).sum();
    // Revealed cards are on the table (or taken) already or still waiting in the queue.
    let mut waiting = 0u64;
    for &s in x.board.pending() {
        waiting |= bits::bit_in(
            u32::from(x.board.revealed[usize::from(s)]),
            FIRST_CARD,
            LAST_CARD,
        );
    }
    add(waiting);
    assert_eq!(
        count + pen,
        g.deck.count_ones(),
        "cards not conserved: {}",
        sj(g, x)
    );
    assert_eq!(seen | g.deck, g.deck);
    if x.phase == Phase::Commit {
        let hand_cards: u32 = x.hands[..n].iter().map(|h| h.count_ones()).sum();
        let committed = x.commitments[..n].iter().filter(|&&c| c != 0).count() as u32;
        let left = u32::from(g.hand_size - x.turn);
        assert_eq!(hand_cards + committed, left * n as u32);
    }
}

fn random_options(gi: u64) -> (usize, Value) {
    let n = 2 + (gi % 4) as usize;
    let lanes = 1 + (gi / 4) % 5;
    let max_cars = match (gi / 20) % 4 {
        0 => json!(4),
        1 => Value::Null,
        2 => json!(1 + (gi / 80) % 6),
        _ => json!(4),
    };
    let too_low = if (gi / 3) % 2 == 0 { "take" } else { "insert" };
    let special = gi % 7 != 3;
    let max_number = if gi % 5 == 0 { 20 + (gi / 5) % 31 } else { 50 };
    let deck = max_number as usize
        + if special {
            9 + [10u64, 20, 30].iter().filter(|&&t| t <= max_number).count()
        } else {
            0
        };
    let room = (deck - lanes as usize) / n;
    let hand = 1 + (gi as usize / 11) % room.min(12);
    (
        n,
        json!({"lanes": lanes, "max_cars": max_cars, "too_low": too_low,
               "special_cards": special, "max_number": max_number, "hand_size": hand}),
    )
}

/// Random games over many option settings keep the table's rules at every step (see
/// [`check_invariants`]): cards are conserved, lanes stay within `max_cars`, a decision of the
/// resolution always has two options or more (a single option is applied at once), a seat's
/// observation holds its own hand and every seat's commitment only as a flag, and at the end
/// every hand has been played, the scores are the penalties and the winners are exactly the seats
/// with the fewest.
#[test]
fn random_games_keep_the_table_rules() {
    let mut resolution_decisions = 0;
    for gi in 0..3000u64 {
        let (n, opts) = random_options(gi);
        let g = game(n, opts.clone());
        let mut bot = random_bot(&*g, derive_seed(100, gi));
        let detailed = gi % 25 == 0;
        let s = play_session(&g, derive_seed(99, gi), |x, _, legal| {
            check_invariants(&g, x);
            if x.phase == Phase::Resolve {
                assert!(legal.len() >= 2);
                resolution_decisions += 1;
            }
            if detailed {
                for p in 0..n {
                    let o = g.observation(x, p);
                    assert_eq!(o["hand"], json!(bits::to_vec(x.hands[p])));
                    for q in 0..n {
                        if q != p && x.commitments[q] != 0 {
                            assert!(o["committed"][q] == json!(true));
                        }
                    }
                }
            }
            Bot::<Trafficars>::act(&mut bot, &*g, x, legal)
        });
        let x = *s.state();
        check_invariants(&g, &x);
        assert_eq!(x.turn, g.hand_size);
        assert_eq!(x.hands[..n].iter().fold(0, |a, h| a | h), 0);
        let mut sc = vec![0i64; n];
        g.scores(&x, &mut sc);
        assert!((0..n).all(|p| sc[p] == i64::from(x.board.penalties[p])));
        let w = g.winners(&x);
        let fewest = *x.board.penalties[..n].iter().min().unwrap();
        let want: Vec<usize> = (0..n).filter(|&p| x.board.penalties[p] == fewest).collect();
        assert_eq!(w, want);
    }
    assert!(resolution_decisions > 1000);
}

/// Every node of one random game (seeded by `derive_seed(seed, gi)`) of each of the first
/// `games` option settings of [`random_options`].
fn random_nodes(games: u64, seed: u64) -> impl Iterator<Item = (Arc<Trafficars>, TrafficarsState)> {
    (0..games).flat_map(move |gi| {
        let (n, opts) = random_options(gi);
        let g = game(n, opts);
        let nodes = crate::testing::playout_nodes(&*g, derive_seed(seed, gi));
        nodes.into_iter().map(move |(_, x)| (Arc::clone(&g), x))
    })
}

#[test]
fn kept_choice_equals_a_fresh_one() {
    let mut resolve_nodes = 0;
    for (g, x) in random_nodes(300, 11) {
        if x.phase == Phase::Resolve {
            resolve_nodes += 1;
            let (_, _, fresh) = g.head_choice(&x.board).unwrap();
            assert_eq!(x.choice, fresh);
        } else {
            assert_eq!(x.choice, Choice::NONE);
        }
    }
    assert!(resolve_nodes > 1000);
}

/// The options of a numbered card as the contract words them, from each lane's full
/// [`LaneView`]: the reference for [`Trafficars::number_choice`], which reads only what it needs.
fn number_choice_from_views(g: &Trafficars, b: &Board, x: u8) -> Choice {
    let views: Vec<LaneView> = b.lanes[..g.lanes].iter().map(|l| g.view(l)).collect();
    let best = views
        .iter()
        .filter(|v| v.has_place && v.last_value != 0 && v.last_value < x)
        .map(|v| v.last_value)
        .max()
        .unwrap_or(0);
    let mut c = Choice::new(Decision::Target);
    for (k, v) in views.iter().enumerate() {
        if v.has_place && (v.last_value == 0 || v.last_value == best) {
            c.push(LANE_OPTION + k as u32);
        }
    }
    if c.n == 0 {
        c = g.too_low_choice();
    }
    for (k, v) in views.iter().enumerate() {
        if v.has_free && v.free_after < x {
            c.push(FREE_PLACE_OPTION + k as u32);
        }
    }
    c
}

/// At every resolution step of random games over many option settings, the options of a
/// numbered card are those of the lane views.
#[test]
fn number_choice_equals_the_views() {
    let mut checked = 0;
    for (g, x) in random_nodes(600, 12) {
        // Every queued numbered card, against the board as it is now.
        for &s in x.board.pending() {
            let card = x.board.revealed[usize::from(s)];
            if matches!(g.kind(card), Kind::Car | Kind::Trailer) {
                let x_num = g.number(card);
                let lanes = &x.board.lanes[..g.lanes];
                assert_eq!(
                    g.number_choice(lanes, x_num),
                    number_choice_from_views(&g, &x.board, x_num)
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 1000);
}

/// [`Game::random_playout`] (the game's own whole-game loop) makes the draws of the stepping
/// definition and reaches the same state, over many option settings and from every kind of node:
/// the start, the middle of the deal, a commit with some seats committed, a resolution decision.
#[test]
fn random_playout_equals_stepping() {
    let mut starts = [0u32; 4];
    for gi in 0..400u64 {
        let (n, opts) = random_options(gi);
        let g = game(n, opts);
        let nodes = crate::testing::playout_nodes(&*g, derive_seed(13, gi));
        for (node, (_, x)) in nodes.iter().enumerate() {
            if node % 11 == 0 || node + 1 == nodes.len() {
                starts[x.phase as usize] += 1;
                crate::testing::assert_random_playout_matches_stepping(
                    &*g,
                    x,
                    n,
                    derive_seed(14, gi * 1000 + node as u64),
                    &format!("game {gi} node {node}"),
                );
            }
        }
    }
    // Started from every phase: deal, commit, resolve, over.
    assert!(starts.iter().all(|&k| k > 50), "{starts:?}");
}
