//! Rule scenarios of Trafficars from the rulebook and the contract: explicit deals or positions
//! built directly, with the expected lanes, penalties, options and labels. The scenarios are
//! grouped by topic in the child modules; this module holds the shared builders and the setup
//! (card table, options, deal, labels). Checks that hold for every game belong to the shared test
//! kit, not here.

mod greedy_pinned;
mod greedy_samples;
mod greedy_states;
mod numbered_cards;
mod random_games;
mod special_cards;
mod tow_trucks;

use super::*;
use crate::session::Session;
use serde_json::{json, Map, Value};
use std::sync::Arc;

type S = Session<Trafficars>;

pub(super) fn game(players: usize, opts: Value) -> Arc<Trafficars> {
    crate::testing::game_with(players, opts)
}

/// Deals explicitly through a session: the lane starters, then each seat's hand (seat 0 first).
fn deal(g: &Arc<Trafficars>, starters: &[u32], hands: &[&[u32]]) -> S {
    let mut s = Session::new(Arc::clone(g), None);
    assert_eq!(starters.len(), g.lanes);
    assert_eq!(hands.len(), g.players());
    for &c in starters.iter().chain(hands.iter().flat_map(|h| h.iter())) {
        assert_eq!(g.current_player(s.state()), CHANCE);
        s.apply(i64::from(c), Some(-1)).unwrap();
    }
    assert_eq!(s.state().phase, Phase::Commit);
    s
}

/// Deals as [`deal`], then commits the first `turns` cards of every hand, one turn at a time.
fn deal_and_commit(g: &Arc<Trafficars>, starters: &[u32], hands: &[&[u32]], turns: usize) -> S {
    let mut s = deal(g, starters, hands);
    for k in 0..turns {
        let cards: Vec<u32> = hands.iter().map(|h| h[k]).collect();
        commit(&mut s, &cards);
    }
    s
}

/// Commits one card per seat, in seat order.
fn commit(s: &mut S, cards: &[u32]) {
    for (seat, &c) in cards.iter().enumerate() {
        s.apply(i64::from(c), Some(seat as i64)).unwrap();
    }
}

/// Seat `seat` takes resolution option `a`.
fn choose(s: &mut S, seat: i64, a: u32) {
    s.apply(i64::from(a), Some(seat)).unwrap();
}

fn legal(g: &Trafficars, st: &TrafficarsState) -> Vec<u32> {
    let mut v = Vec::new();
    g.legal_actions(st, &mut v);
    v
}

fn sj(g: &Trafficars, st: &TrafficarsState) -> Value {
    g.state_json(st)
}

fn label(g: &Trafficars, st: &TrafficarsState, a: u32) -> String {
    g.action_label(st, a)
}

/// A commit-phase position built directly: lanes (places bottom to top, `[]` = free place)
/// and hands; the turn is set so that the game ends when the hands are empty.
fn position(g: &Trafficars, lanes: &[&[&[u32]]], hands: &[&[u32]]) -> TrafficarsState {
    let mut st = g.initial_state();
    assert_eq!(lanes.len(), g.lanes);
    for (k, places) in lanes.iter().enumerate() {
        for place in places.iter() {
            match place.split_first() {
                None => st.board.lanes[k].push(FREE),
                Some((&first, rest)) => {
                    st.board.lanes[k].push(START | first as u8);
                    for &c in rest {
                        st.board.lanes[k].push(c as u8);
                    }
                }
            }
            for &c in place.iter() {
                assert!(
                    st.deck & bits::bit_in(c, FIRST_CARD, LAST_CARD) != 0,
                    "card {c} used twice or not in the deck"
                );
                st.deck &= !bits::bit_in(c, FIRST_CARD, LAST_CARD);
            }
        }
    }
    let mut most = 0;
    for (p, h) in hands.iter().enumerate() {
        for &c in h.iter() {
            assert!(
                st.deck & bits::bit_in(c, FIRST_CARD, LAST_CARD) != 0,
                "card {c} used twice or not in the deck"
            );
            st.deck &= !bits::bit_in(c, FIRST_CARD, LAST_CARD);
            st.hands[p] |= bits::bit_in(c, FIRST_CARD, LAST_CARD);
        }
        most = most.max(h.len());
    }
    assert_eq!(hands.len(), g.players());
    st.dealt = g.deal_total() as u8;
    st.turn = g.hand_size - most as u8;
    st.phase = Phase::Commit;
    st
}

/// Marks place `place` of lane `lane` as counting two cars.
fn double(st: &mut TrafficarsState, lane: usize, place: usize) {
    let l = &mut st.board.lanes[lane];
    let starts: Vec<usize> = (0..usize::from(l.len))
        .filter(|&i| l.tok[i] & START != 0)
        .collect();
    let i = starts[place];
    l.set(i, l.tok[i] | DOUBLE);
}

/// Applies `a`, checking that seat `seat` (or chance, -1) is to move and that `a` is legal.
fn step(g: &Trafficars, st: &mut TrafficarsState, seat: i32, a: u32) {
    assert_eq!(g.current_player(st), seat, "{}", sj(g, st));
    let l = legal(g, st);
    assert!(l.contains(&a), "{a} not legal in {l:?}: {}", sj(g, st));
    g.apply(st, a);
}

/// Asserts that `options` are the legal actions of seat `seat`, then takes `a`.
fn choose_among(g: &Trafficars, st: &mut TrafficarsState, seat: i32, options: &[u32], a: u32) {
    assert_eq!(legal(g, st), options, "{}", sj(g, st));
    step(g, st, seat, a);
}

/// A lane of four cars, 12 to 15: full at the default `max_cars`.
const FULL_LANE: &[&[u32]] = &[&[12], &[13], &[14], &[15]];

/// Commits one card per seat, in seat order (direct state).
fn play(g: &Trafficars, st: &mut TrafficarsState, cards: &[u32]) {
    for (seat, &c) in cards.iter().enumerate() {
        step(g, st, seat as i32, c);
    }
}

/// A [`position`] in which every seat has committed the first card of its hand (seat 0 first).
fn played(g: &Trafficars, lanes: &[&[&[u32]]], hands: &[&[u32]]) -> TrafficarsState {
    let mut st = position(g, lanes, hands);
    let first: Vec<u32> = hands.iter().map(|h| h[0]).collect();
    play(g, &mut st, &first);
    st
}

fn pens(st: &TrafficarsState, n: usize) -> Vec<u16> {
    st.board.penalties[..n].to_vec()
}

fn cat(parts: &[&[u32]]) -> Vec<u32> {
    parts.iter().flat_map(|p| p.iter().copied()).collect()
}

#[test]
fn card_table_matches_json() {
    let t = parse_cards(CARDS_JSON).unwrap();
    assert_eq!(&t, card_table().unwrap());
    for id in 1..=50 {
        assert_eq!((t.kind[id], t.number[id]), (Kind::Car, id as u8));
    }
    assert_eq!((t.kind[51], t.number[51]), (Kind::Trailer, 10));
    assert_eq!((t.kind[52], t.number[52]), (Kind::Trailer, 20));
    assert_eq!((t.kind[53], t.number[53]), (Kind::Trailer, 30));
    for id in 54..=56 {
        assert_eq!((t.kind[id], t.number[id]), (Kind::Ambulance, 0));
    }
    for id in 57..=59 {
        assert_eq!((t.kind[id], t.number[id]), (Kind::Police, 0));
    }
    for id in 60..=62 {
        assert_eq!((t.kind[id], t.number[id]), (Kind::TowTruck, 0));
    }
    assert!(parse_cards("[]").is_err());
    assert!(parse_cards("{").is_err());
    let g = game(3, json!({}));
    assert_eq!(g.cards, t);
}

#[test]
fn options_defaults_and_validation() {
    let g = game(3, json!({}));
    assert_eq!(
        Value::Object(g.options()),
        json!({"max_number": 50, "hand_size": 10, "lanes": 3, "special_cards": true,
               "max_cars": 4, "too_low": "take"})
    );
    assert_eq!(g.deck.count_ones(), 62);
    let names: Vec<&str> = Trafficars::option_specs().iter().map(|o| o.name).collect();
    assert_eq!(
        names,
        [
            "max_number",
            "hand_size",
            "lanes",
            "special_cards",
            "max_cars",
            "too_low"
        ]
    );
    let g = game(
        2,
        json!({"max_cars": null, "too_low": "insert", "lanes": 2}),
    );
    assert_eq!(g.options()["max_cars"], Value::Null);
    assert_eq!(g.options()["too_low"], json!("insert"));
    // max_number = 10: cars 1..10, trailer 51, the nine numberless specials.
    let g = game(2, json!({"max_number": 10, "hand_size": 5}));
    assert_eq!(
        bits::to_vec(g.deck),
        cat(&[
            &(1..=10).collect::<Vec<_>>(),
            &[51],
            &(54..=62).collect::<Vec<_>>()
        ])
    );
    let g = game(2, json!({"max_number": 30, "special_cards": false}));
    assert_eq!(bits::to_vec(g.deck), (1..=30).collect::<Vec<_>>());
    for (n, bad) in [
        (
            2,
            json!({"max_number": 10, "special_cards": false, "hand_size": 5, "lanes": 2}),
        ),
        (2, json!({"hand_size": 30})),
        (5, json!({"hand_size": 12})),
        (3, json!({"max_number": 4})),
        (3, json!({"max_number": 51})),
        (3, json!({"hand_size": 0})),
        (3, json!({"lanes": 0})),
        (3, json!({"lanes": 6})),
        (3, json!({"max_cars": 0})),
        (3, json!({"max_cars": 51})),
        (3, json!({"max_cars": "4"})),
        (3, json!({"too_low": "skip"})),
        (3, json!({"special_cards": 1})),
        (3, json!({"speed": 3})),
        (1, json!({})),
        (6, json!({})),
    ] {
        let map = bad.as_object().cloned().unwrap_or_default();
        assert!(Trafficars::from_options(n, &map).is_err(), "{n} {bad}");
    }
    // Exactly enough cards is fine: 2 + 2·5 = 12 with cars 1..12 only.
    let ok = json!({"max_number": 12, "special_cards": false, "hand_size": 5, "lanes": 2});
    assert!(Trafficars::from_options(2, ok.as_object().unwrap()).is_ok());
    assert!(Trafficars::from_options(2, json!({"hand_size": 29}).as_object().unwrap()).is_ok());
    assert!(crate::registry::make("trafficars", 1, &Map::new()).is_err());
    let h = crate::registry::make("trafficars", 5, &Map::new()).unwrap();
    assert_eq!(h.num_actions(), 115);
    assert_eq!(Trafficars::PLAYERS, (2, 5));
    assert!(crate::registry::games()
        .iter()
        .any(|i| i.id == "trafficars" && i.bots == ["random", "greedy"] && i.players == (2, 5)));
}

#[test]
fn deal_order_outcomes_labels_and_observation() {
    let g = game(2, json!({"hand_size": 2}));
    let mut s = Session::new(Arc::clone(&g), None);
    let x = *s.state();
    assert_eq!(legal(&g, &x), (1..=50).collect::<Vec<_>>());
    let mut outs = Vec::new();
    g.chance_outcomes(&x, &mut outs);
    assert!(outs.iter().all(|&(_, w)| w == 1) && outs.len() == 50);
    assert_eq!(label(&g, &x, 7), "lane 0 starts with 7");
    assert_eq!(label(&g, &x, 60), "lane 0 starts with tow truck (60)"); // never legal
    assert_eq!(label(&g, &x, 0), "action 0");
    assert_eq!(label(&g, &x, 100), "action 100");
    assert!(s.apply(54, None).is_err()); // specials never start a lane
    assert!(s.apply(51, None).is_err()); // nor trailers
    let o = g.observation(s.state(), 1);
    assert_eq!(o["phase"], "deal");
    assert_eq!(o["decision"], Value::Null);
    assert_eq!(o["lanes"], json!([[], [], []]));
    assert_eq!(o["cars"], json!([0, 0, 0]));
    s.apply(7, None).unwrap();
    s.apply(20, None).unwrap();
    assert_eq!(label(&g, s.state(), 33), "lane 2 starts with 33");
    s.apply(33, None).unwrap();
    let x = *s.state();
    let l = legal(&g, &x);
    assert_eq!(l.len(), 59);
    assert!(!l.contains(&7) && l.contains(&51) && l.contains(&62));
    assert_eq!(label(&g, &x, 54), "deal ambulance (54) to seat 0");
    assert_eq!(label(&g, &x, 52), "deal trailer 20 (52) to seat 0");
    assert_eq!(label(&g, &x, 50), "deal 50 to seat 0");
    s.apply(54, None).unwrap();
    s.apply(3, None).unwrap();
    assert_eq!(label(&g, s.state(), 10), "deal 10 to seat 1");
    let o = g.observation(s.state(), 0);
    assert_eq!(o["lanes"], json!([[[7]], [[20]], [[33]]]));
    assert_eq!(o["place_cars"], json!([[1], [1], [1]]));
    assert_eq!(o["hand"], json!([3, 54]));
    assert_eq!(o["turn"], 0);
    assert_eq!(g.observation(s.state(), 1)["hand"], json!([]));
    s.apply(10, None).unwrap();
    s.apply(62, None).unwrap();
    assert_eq!(g.current_player(s.state()), 0);
    let o = g.observation(s.state(), 1);
    assert_eq!(o["phase"], "commit");
    assert_eq!(o["decision"], "commit");
    assert_eq!(o["hand"], json!([10, 62]));
    assert_eq!(o["revealed"], Value::Null);
    assert_eq!(o["queue"], json!([]));
    // The small deck: cars 1..10, trailer 51 (10), specials 54..62.
    let g = game(2, json!({"max_number": 10, "hand_size": 3}));
    let mut s = Session::new(Arc::clone(&g), None);
    assert_eq!(legal(&g, s.state()), (1..=10).collect::<Vec<_>>());
    for c in [1, 2, 3] {
        s.apply(c, None).unwrap();
    }
    assert_eq!(
        legal(&g, s.state()),
        cat(&[
            &(4..=10).collect::<Vec<_>>(),
            &[51],
            &(54..=62).collect::<Vec<_>>()
        ])
    );
    let g = game(2, json!({"special_cards": false, "hand_size": 3}));
    let mut s = Session::new(Arc::clone(&g), None);
    for c in [1, 2, 3] {
        s.apply(c, None).unwrap();
    }
    assert_eq!(legal(&g, s.state()), (4..=50).collect::<Vec<_>>());
}

#[test]
fn labels_never_panic_and_follow_the_table() {
    let g = game(3, json!({}));
    let mut x = position(&g, &[&[&[12]], &[&[30]], &[&[41]]], &[&[5], &[20], &[54]]);
    for a in 0..NUM_ACTIONS {
        let want = match a {
            1..=50 => format!("play {a}"),
            51..=53 => format!("play trailer {} ({a})", (a - 50) * 10),
            54..=56 => format!("play ambulance ({a})"),
            57..=59 => format!("play police ({a})"),
            60..=62 => format!("play tow truck ({a})"),
            _ => format!("action {a}"),
        };
        assert_eq!(label(&g, &x, a), want);
    }
    play(&g, &mut x, &[5, 20, 54]);
    for a in 0..NUM_ACTIONS {
        let want = match a {
            100..=102 => format!("ambulance to lane {}", a - 100),
            _ => format!("action {a}"),
        };
        assert_eq!(label(&g, &x, a), want);
    }
    let terminal = {
        let mut y = x;
        y.phase = Phase::Over;
        y
    };
    for a in 0..NUM_ACTIONS {
        assert_eq!(label(&g, &terminal, a), format!("action {a}"));
    }
}
