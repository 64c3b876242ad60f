//! Rule scenarios of the memory game from the rulebook and the contract: explicit layouts with the
//! expected runs, breakers, takes, end of game and observations, plus random games checked against
//! the table's rules. Checks that hold for every game belong to the shared test kit, not here; the
//! bots' own tests are in `bots`.

use super::*;
use crate::bits;
use crate::game::Bot;
use crate::games::trafficars::{card_table, Kind};
use crate::rng::{derive_seed, SplitMix64};
use crate::session::{AnySession, Session};
use crate::sim::make_bot;
use crate::testing::{assert_labels, play_session};
use serde_json::{json, Map, Value};
use std::sync::Arc;

pub(super) type S = Session<TrafficarsMemory>;

pub(super) fn game(players: usize, opts: Value) -> Arc<TrafficarsMemory> {
    crate::testing::game_with(players, opts)
}

/// Lays out `cards` (position 0 first) as explicit chance outcomes.
pub(super) fn laid(g: &Arc<TrafficarsMemory>, cards: &[u32]) -> S {
    let mut s = Session::new(Arc::clone(g), None);
    assert_eq!(cards.len(), g.grid_size());
    for &c in cards {
        assert_eq!(g.current_player(s.state()), CHANCE);
        s.apply(i64::from(c), None).unwrap();
    }
    s
}

/// The position of card `card` in the layout.
fn pos(s: &S, card: u32) -> i64 {
    i64::from(
        s.state()
            .layout
            .iter()
            .position(|&c| u32::from(c) == card)
            .unwrap() as u32,
    )
}

/// Flips the positions of `cards` in order for `seat`.
pub(super) fn flip(s: &mut S, seat: i64, cards: &[u32]) {
    for &c in cards {
        let p = pos(s, c);
        s.apply(p, Some(seat)).unwrap();
    }
}

/// Seat `seat` flips `run`, every card of which continues (the seat keeps the turn), then
/// `breaker`.
fn flip_then_break(s: &mut S, seat: i64, run: &[u32], breaker: u32) {
    flip(s, seat, run);
    assert_eq!(
        i64::from(AnySession::current_player(s)),
        seat,
        "after {run:?}"
    );
    flip(s, seat, &[breaker]);
}

fn st(g: &TrafficarsMemory, s: &S) -> Value {
    g.state_json(s.state())
}

fn obs(g: &TrafficarsMemory, s: &S, p: usize) -> Value {
    g.observation(s.state(), p)
}

fn range(a: u32, b: u32) -> Vec<u32> {
    (a..=b).collect()
}

/// Cards 1..=12 laid in a scrambled but fixed order, with jokers 51, 52.
fn twelve_with_jokers() -> Vec<u32> {
    vec![5, 51, 7, 9, 3, 4, 52, 1, 2, 6, 8, 10, 11, 12]
}

/// The cars 1..=12 with the two jokers, for `players` seats.
fn jokers_game(players: usize) -> Arc<TrafficarsMemory> {
    game(
        players,
        json!({"min_number": 1, "max_number": 12, "jokers": true}),
    )
}

/// [`twelve_with_jokers`] laid out in `g`.
fn laid_jokers(g: &Arc<TrafficarsMemory>) -> S {
    laid(g, &twelve_with_jokers())
}

/// The memory game's card ids are those of the Trafficars deck: the cars 1..=50 have id = number,
/// and every card from the first joker on is a special card of that deck (a joker here).
#[test]
fn jokers_are_the_special_cards_of_the_deck() {
    let table = card_table().unwrap();
    for id in FIRST_CARD..=LAST_CARD {
        let i = id as usize;
        if is_joker(id) {
            assert_ne!(table.kind[i], Kind::Car, "{id}");
        } else {
            assert_eq!((table.kind[i], u32::from(table.number[i])), (Kind::Car, id));
        }
    }
}

#[test]
fn options_deck_and_grid() {
    let g = game(2, json!({}));
    assert_eq!(
        Value::Object(g.options()),
        json!({"min_number": 1, "max_number": 50, "jokers": false})
    );
    assert_eq!(g.grid_size(), 50);
    assert_eq!(game(2, json!({"jokers": true})).grid_size(), 62);
    let g = jokers_game(3);
    assert_eq!(g.grid_size(), 14);
    assert_eq!(
        g.deck,
        range(1, 12)
            .iter()
            .chain(&[51, 52])
            .fold(0, |m, &c| m | bits::bit_in(c, FIRST_CARD, LAST_CARD))
    );
    assert_eq!(
        game(2, json!({"max_number": 30, "jokers": true})).grid_size(),
        37
    );
    assert_eq!(
        game(2, json!({"min_number": 26, "jokers": true})).grid_size(),
        31
    );
    assert_eq!(game(2, json!({"min_number": 49})).grid_size(), 2);
    for bad in [
        json!({"min_number": 0}),
        json!({"max_number": 51}),
        json!({"min_number": 5, "max_number": 5}),
        json!({"min_number": 6, "max_number": 5}),
        json!({"jokers": 1}),
        json!({"players": 3}),
        json!({"lanes": 2}),
    ] {
        let map = bad.as_object().cloned().unwrap_or_default();
        assert!(TrafficarsMemory::from_options(2, &map).is_err(), "{bad}");
    }
    assert!(TrafficarsMemory::from_options(1, &Map::new()).is_err());
    assert!(TrafficarsMemory::from_options(6, &Map::new()).is_err());
    assert!(crate::registry::make("trafficars_memory", 6, &Map::new()).is_err());
    let h = crate::registry::make("trafficars_memory", 5, &Map::new()).unwrap();
    assert_eq!(h.num_actions(), 64);
}

#[test]
fn layout_chance_labels_and_observation() {
    let g = jokers_game(2);
    let mut s = Session::new(Arc::clone(&g), None);
    let mut outs = Vec::new();
    g.chance_outcomes(s.state(), &mut outs);
    let want: Vec<(u32, u64)> = range(1, 12)
        .into_iter()
        .chain([51, 52])
        .map(|c| (c, 1))
        .collect();
    assert_eq!(outs, want);
    let labels = [
        (7, "lay 7 at position 0"),
        (50, "lay 50 at position 0"),
        (51, "lay joker (51) at position 0"),
        (62, "lay joker (62) at position 0"),
        (0, "action 0"),
    ];
    assert_labels(&*g, s.state(), &labels);
    s.apply(7, None).unwrap();
    s.apply(51, None).unwrap();
    assert!(s.apply(7, None).is_err());
    assert!(s.apply(13, None).is_err());
    assert!(s.apply(53, None).is_err());
    assert_eq!(g.action_label(s.state(), 3), "lay 3 at position 2");
    let o = obs(&g, &s, 1);
    assert_eq!(o["phase"], "layout");
    assert_eq!(o["current"], Value::Null);
    assert_eq!(o["faces"], json!(vec![Value::Null; 14]));
    assert_eq!(o["seen"], json!(vec![Value::Null; 14]));
    let mut on = vec![false; 14];
    on[0] = true;
    on[1] = true;
    assert_eq!(o["on_table"], json!(on));
    assert_eq!(o["taken"], json!([0, 0]));
    assert_eq!(o["flipped"], json!([]));
    assert_eq!(o["seat"], json!(1));
    assert_eq!(st(&g, &s)["layout"], json!([7, 51]));
    assert_eq!(g.current_player(s.state()), CHANCE);
}

#[test]
fn runs_of_neighbour_numbers_and_the_breaker() {
    let g = game(2, json!({"min_number": 1, "max_number": 12}));
    let cards = vec![10, 9, 11, 3, 12, 8, 1, 2, 4, 5, 6, 7];
    let mut s = laid(&g, &cards);
    assert_eq!(g.current_player(s.state()), 0);
    let mut legal = Vec::new();
    g.legal_actions(s.state(), &mut legal);
    assert_eq!(legal, (0..12).collect::<Vec<u32>>());
    assert_eq!(g.action_label(s.state(), 11), "flip position 11");
    assert_eq!(g.action_label(s.state(), 12), "action 12");
    assert_eq!(g.action_label(s.state(), 62), "action 62");
    // 10, 9 are neighbours; 11 and 8 extend the run at either end; 3 breaks.
    flip_then_break(&mut s, 0, &[10, 9], 11);
    let o = obs(&g, &s, 1);
    assert_eq!(o["flipped"], json!([0, 1, 2]));
    let mut faces = vec![Value::Null; 12];
    faces[0] = json!(10);
    faces[1] = json!(9);
    faces[2] = json!(11);
    assert_eq!(o["faces"], json!(faces));
    assert_eq!(o["current"], json!(0));
    g.legal_actions(s.state(), &mut legal);
    let mut want: Vec<u32> = (3..12).collect();
    want.push(STOP);
    assert_eq!(legal, want);
    flip(&mut s, 0, &[8, 3]);
    // 3 broke the run: it turns face down again and stays seen; 8..11 are taken.
    let o = obs(&g, &s, 0);
    assert_eq!(o["taken"], json!([4, 0]));
    assert_eq!(o["current"], json!(1));
    assert_eq!(o["flipped"], json!([]));
    assert_eq!(o["faces"], json!(vec![Value::Null; 12]));
    let mut on = vec![true; 12];
    for p in [0, 1, 2, 5] {
        on[p] = false;
    }
    assert_eq!(o["on_table"], json!(on));
    let mut seen = vec![Value::Null; 12];
    seen[3] = json!(3);
    assert_eq!(o["seen"], json!(seen));
    // Seat 1: 1 then 3 are not neighbours: both go back, nothing taken, both stay seen.
    flip_then_break(&mut s, 1, &[1], 3);
    let x = st(&g, &s);
    assert_eq!(x["taken"], json!([4, 0]));
    assert_eq!(x["current"], json!(0));
    seen[6] = json!(1);
    assert_eq!(x["seen"], json!(seen));
    assert_eq!(x["on_table"], json!(on));
    assert_eq!(x["layout"], json!(cards));
    // A run that is not a neighbour of the lowest or highest breaks: 5, 6, 4, then 7 fine.
    flip(&mut s, 0, &[5, 6, 4, 7, 12]);
    assert_eq!(st(&g, &s)["taken"], json!([8, 0]));
    let mut sc = [0i64; 2];
    g.scores(s.state(), &mut sc);
    assert_eq!(sc, [8, 0]);
    // Left: 12 (seen), 3 (seen), 1 (seen), 2. Seat 1 flips 1, 2, 3 and then only 12 is left:
    // 12 breaks, the run is kept; 12 alone can form no set: the game is over.
    flip_then_break(&mut s, 1, &[1, 2, 3], 12);
    assert_eq!(g.current_player(s.state()), TERMINAL);
    let x = st(&g, &s);
    assert_eq!(x["taken"], json!([8, 3]));
    assert_eq!(x["phase"], "over");
    assert_eq!(x["current"], Value::Null);
    assert_eq!(g.winners(s.state()), vec![0]);
    assert_eq!(g.action_label(s.state(), 0), "action 0");
    g.legal_actions(s.state(), &mut legal);
    assert!(legal.is_empty());
}

/// "Jos pelaajan kääntämien korttien luvut ovat naapuriluvut (esim. 10 ja 9) pelaaja saa
/// kääntää kolmannen kortin." (If the numbers of the cards the player flipped are neighbours,
/// e.g. 10 and 9, the player MAY flip a third card.)
#[test]
fn flipping_on_is_a_choice_stop_takes_the_run() {
    let g = game(2, json!({"min_number": 1, "max_number": 12}));
    let cards = vec![10, 9, 11, 3, 12, 8, 1, 2, 4, 5, 6, 7];
    let mut s = laid(&g, &cards);
    let mut legal = Vec::new();
    // One card flipped: not yet collectable, stopping is not legal.
    flip(&mut s, 0, &[10]);
    g.legal_actions(s.state(), &mut legal);
    assert!(!legal.contains(&STOP));
    assert!(s.apply(i64::from(STOP), Some(0)).is_err());
    // 10 and 9: the same seat is asked again, to flip on or to stop.
    flip(&mut s, 0, &[9]);
    assert_eq!(g.current_player(s.state()), 0);
    g.legal_actions(s.state(), &mut legal);
    assert_eq!(legal.last(), Some(&STOP));
    assert_eq!(g.action_label(s.state(), STOP), "stop and take the run");
    s.apply(i64::from(STOP), Some(0)).unwrap();
    let x = st(&g, &s);
    assert_eq!(x["taken"], json!([2, 0]));
    assert_eq!(x["current"], json!(1));
    assert_eq!(x["flipped"], json!([]));
    // Seat 1 flips 11 and 12 and stops at once: nothing is shown beyond the run.
    flip(&mut s, 1, &[11, 12]);
    s.apply(i64::from(STOP), Some(1)).unwrap();
    assert_eq!(st(&g, &s)["taken"], json!([2, 2]));
    let o = obs(&g, &s, 0);
    // Only the positions flipped before stopping were ever shown (and they left the table).
    assert_eq!(o["seen"], json!(vec![Value::Null; 12]));
    // A joker and one car are not collectable: stop not legal; with two cars it is.
    let g = jokers_game(2);
    let mut s = laid_jokers(&g);
    flip(&mut s, 0, &[51, 5]);
    g.legal_actions(s.state(), &mut legal);
    assert!(!legal.contains(&STOP));
    flip(&mut s, 0, &[7]);
    g.legal_actions(s.state(), &mut legal);
    assert!(legal.contains(&STOP));
    s.apply(i64::from(STOP), Some(0)).unwrap();
    assert_eq!(st(&g, &s)["taken"], json!([3, 0]));
    // Labels at flip nodes: 63 is the stop even where it is not legal; elsewhere "action 63".
    assert_eq!(g.action_label(s.state(), STOP), "stop and take the run");
    let fresh = g.initial_state();
    assert_eq!(g.action_label(&fresh, STOP), "action 63");
}

#[test]
fn the_turn_ends_when_no_face_down_card_is_left() {
    let g = game(3, json!({"min_number": 20, "max_number": 23}));
    let mut s = laid(&g, &[22, 20, 23, 21]);
    flip(&mut s, 0, &[22, 21, 23]);
    assert_eq!(g.current_player(s.state()), 0);
    // The last face-down card continues the run: the turn ends keeping all four.
    flip(&mut s, 0, &[20]);
    assert_eq!(g.current_player(s.state()), TERMINAL);
    assert_eq!(st(&g, &s)["taken"], json!([4, 0, 0]));
    assert_eq!(g.winners(s.state()), vec![0]);
    // 20, 21 taken (23 breaks); seat 1 flips the last two, 22 and 23: kept, game over.
    let mut s = laid(&g, &[22, 20, 23, 21]);
    flip(&mut s, 0, &[20, 21, 23]);
    assert_eq!(g.current_player(s.state()), 1);
    flip(&mut s, 1, &[22, 23]);
    assert_eq!(g.current_player(s.state()), TERMINAL);
    assert_eq!(st(&g, &s)["taken"], json!([2, 2, 0]));
    assert_eq!(g.winners(s.state()), vec![0, 1]);
}

#[test]
fn the_game_ends_when_no_collectable_set_is_left() {
    let g = game(2, json!({"min_number": 1, "max_number": 6}));
    let mut s = laid(&g, &[1, 2, 3, 4, 5, 6]);
    flip(&mut s, 0, &[4, 5, 1]);
    // Left: 1, 2, 3, 6: the game goes on.
    assert_eq!(g.current_player(s.state()), 1);
    assert_eq!(st(&g, &s)["taken"], json!([2, 0]));
    // Seat 1 takes 1, 2 (6 breaks); left: 3, 6 with no joker → no collectable set.
    flip(&mut s, 1, &[1, 2, 6]);
    assert_eq!(g.current_player(s.state()), TERMINAL);
    assert_eq!(st(&g, &s)["taken"], json!([2, 2]));
    assert_eq!(g.winners(s.state()), vec![0, 1]);
    let o = obs(&g, &s, 0);
    assert_eq!(o["phase"], "over");
    assert_eq!(o["current"], Value::Null);
    assert_eq!(o["flipped"], json!([]));
    let mut seen = vec![Value::Null; 6];
    seen[5] = json!(6);
    assert_eq!(o["seen"], json!(seen));
    assert_eq!(
        o["on_table"],
        json!([false, false, true, false, false, true])
    );
    let mut legal = Vec::new();
    g.legal_actions(s.state(), &mut legal);
    assert!(legal.is_empty());
}

#[test]
fn end_test_counts_jokers() {
    let t = |cards: &[u32]| {
        contains_collectable(
            cards
                .iter()
                .fold(0, |m, &c| m | bits::bit_in(c, FIRST_CARD, LAST_CARD)),
        )
    };
    assert!(!t(&[]));
    assert!(!t(&[5]));
    assert!(!t(&[5, 51, 52]));
    assert!(t(&[8, 9, 10, 11, 12]));
    assert!(!t(&[2, 6, 10, 51]));
    assert!(t(&[2, 5, 10, 51, 52]));
    assert!(!t(&[2, 5, 10, 51]));
    assert!(t(&[3, 5, 62]));
    assert!(!t(&[1, 3, 5, 7]));
}

#[test]
fn jokers_worked_example() {
    let g = jokers_game(2);
    let mut s = laid_jokers(&g);
    // Seat 0: 5, 51, 7 continue; 9 breaks. {5, 51, 7} is taken.
    flip_then_break(&mut s, 0, &[5, 51, 7], 9);
    let x = st(&g, &s);
    assert_eq!(x["taken"], json!([3, 0]));
    assert_eq!(x["current"], json!(1));
    let mut seen = vec![Value::Null; 14];
    seen[3] = json!(9);
    assert_eq!(x["seen"], json!(seen));
    // Seat 1: 3, 4, 52, 1, 2, 6 continue; 8 breaks: 6 cards taken.
    let mut snapshot = s.clone();
    flip(&mut s, 1, &[3, 4, 52, 1, 2, 6]);
    assert_eq!(g.current_player(s.state()), 1);
    assert_eq!(obs(&g, &s, 0)["flipped"], json!([4, 5, 6, 7, 8, 9]));
    flip(&mut s, 1, &[8]);
    let x = st(&g, &s);
    assert_eq!(x["taken"], json!([3, 6]));
    assert_eq!(x["current"], json!(0));
    // The table: 8, 9, 10, 11, 12, no joker: the game goes on.
    assert_eq!(g.current_player(s.state()), 0);
    // Alternative: 52, 8 continue (one car), 11 breaks; {52, 8} has one car: nothing taken.
    flip_then_break(&mut snapshot, 1, &[52, 8], 11);
    let x = st(&g, &snapshot);
    assert_eq!(x["taken"], json!([3, 0]));
    assert_eq!(x["current"], json!(0));
    assert_eq!(x["flipped"], json!([]));
    seen[6] = json!(52);
    seen[10] = json!(8);
    seen[12] = json!(11);
    assert_eq!(x["seen"], json!(seen));
}

#[test]
fn jokers_need_two_cars() {
    let g = jokers_game(2);
    // Joker first, joker second: continue; any car continues; the second car must fit.
    let mut s = laid_jokers(&g);
    flip_then_break(&mut s, 0, &[51, 52, 9, 12], 5);
    // 9, 12 with two jokers (10, 11) is collectable; 5 broke it.
    assert_eq!(st(&g, &s)["taken"], json!([4, 0]));
    // A joker with a single car is not collectable: both turn back.
    let mut s = laid_jokers(&g);
    flip_then_break(&mut s, 0, &[1, 51], 4);
    let x = st(&g, &s);
    assert_eq!(x["taken"], json!([0, 0]));
    assert_eq!(x["current"], json!(1));
    assert_eq!(x["on_table"], json!(vec![true; 14]));
    // "21 and a joker may continue; 23 completes 21-22-23" (here 1, joker, 3; 7 breaks).
    let mut s = laid_jokers(&g);
    flip_then_break(&mut s, 0, &[1, 51, 3], 7);
    assert_eq!(st(&g, &s)["taken"], json!([3, 0]));
    // "21, joker, 25": 25 breaks (here 1, joker, 5), nothing is taken.
    let mut s = laid_jokers(&g);
    flip(&mut s, 0, &[1, 51, 5]);
    assert_eq!(g.current_player(s.state()), 1);
    assert_eq!(st(&g, &s)["taken"], json!([0, 0]));
    // "after 3 and 4 a joker is 2 or 5": both 2 and 5 may follow.
    for next in [2, 5] {
        let mut s = laid_jokers(&g);
        flip(&mut s, 0, &[3, 4, 51, next]);
        assert_eq!(g.current_player(s.state()), 0);
        assert_eq!(s.state().flipped_len, 4);
    }
    // 3, 4, joker, 5, 6, 1 (the joker is now 2), then 8 breaks: six cards taken.
    let mut s = laid_jokers(&g);
    flip_then_break(&mut s, 0, &[3, 4, 51, 5, 6, 1], 8);
    assert_eq!(st(&g, &s)["taken"], json!([6, 0]));
    // Joker, 8, then 11: {joker, 8} has one car: nothing taken.
    let mut s = laid_jokers(&g);
    flip(&mut s, 0, &[52, 8, 11]);
    assert_eq!(st(&g, &s)["taken"], json!([0, 0]));
    assert_eq!(g.current_player(s.state()), 1);
}

#[test]
fn joker_gap_rules() {
    assert!(may_continue(bits::bit_in(21, FIRST_CARD, LAST_CARD), 0));
    assert!(may_continue(bits::bit_in(21, FIRST_CARD, LAST_CARD), 1));
    assert!(may_continue(
        bits::bit_in(21, FIRST_CARD, LAST_CARD) | bits::bit_in(23, FIRST_CARD, LAST_CARD),
        1
    ));
    assert!(collectable(
        bits::bit_in(21, FIRST_CARD, LAST_CARD) | bits::bit_in(23, FIRST_CARD, LAST_CARD),
        1
    ));
    assert!(!may_continue(
        bits::bit_in(21, FIRST_CARD, LAST_CARD) | bits::bit_in(25, FIRST_CARD, LAST_CARD),
        1
    ));
    assert!(collectable(
        bits::bit_in(3, FIRST_CARD, LAST_CARD) | bits::bit_in(4, FIRST_CARD, LAST_CARD),
        1
    ));
    assert!(!collectable(bits::bit_in(3, FIRST_CARD, LAST_CARD), 2));
    assert!(!collectable(0, 2));
    assert!(may_continue(0, 0));
    assert!(may_continue(
        bits::bit_in(1, FIRST_CARD, LAST_CARD)
            | bits::bit_in(3, FIRST_CARD, LAST_CARD)
            | bits::bit_in(4, FIRST_CARD, LAST_CARD),
        1
    ));
    assert!(!may_continue(
        bits::bit_in(1, FIRST_CARD, LAST_CARD)
            | bits::bit_in(3, FIRST_CARD, LAST_CARD)
            | bits::bit_in(5, FIRST_CARD, LAST_CARD),
        1
    ));
}

#[test]
fn seen_tracks_every_flipped_card_still_on_the_table() {
    let g = game(2, json!({"min_number": 1, "max_number": 8}));
    let mut s = laid(&g, &[8, 1, 6, 3, 4, 2, 7, 5]);
    flip(&mut s, 0, &[8, 1]);
    let mut seen = vec![Value::Null; 8];
    seen[0] = json!(8);
    seen[1] = json!(1);
    assert_eq!(obs(&g, &s, 1)["seen"], json!(seen));
    // Re-flipping a seen card keeps it seen; taking cards clears their entries.
    flip(&mut s, 1, &[8, 7, 6, 1]);
    seen[0] = Value::Null;
    seen[2] = Value::Null;
    assert_eq!(obs(&g, &s, 0)["seen"], json!(seen));
    assert_eq!(obs(&g, &s, 0)["taken"], json!([0, 3]));
    // Observations are identical for every seat (nothing is private).
    let a = obs(&g, &s, 0);
    let b = obs(&g, &s, 1);
    assert_eq!(a["seen"], b["seen"]);
    assert_eq!(a["faces"], b["faces"]);
    assert_eq!(b["seat"], json!(1));
}

/// Checks the structural invariants of a state between steps.
fn check_invariants(g: &TrafficarsMemory, x: &TrafficarsMemoryState) {
    let n = g.players();
    let grid = g.grid_size();
    let all = if grid == 64 {
        u64::MAX
    } else {
        (1u64 << grid) - 1
    };
    if x.phase == Phase::Layout {
        assert_eq!(x.on_table, (1u64 << x.laid) - 1);
        assert_eq!(x.seen, 0);
        return;
    }
    assert_eq!(usize::from(x.laid), grid);
    assert_eq!(x.laid_cards, g.deck);
    assert_eq!(x.on_table & !all, 0);
    assert_eq!(x.seen & !x.on_table, 0);
    let mut table = 0u64;
    for p in bits::ones(x.on_table) {
        table |= bits::bit_in(x.card_at(p), FIRST_CARD, LAST_CARD);
    }
    assert_eq!(table, x.table_cards);
    let taken: u32 = x.taken[..n].iter().map(|&t| u32::from(t)).sum();
    // Cards conserved: on the table or taken.
    assert_eq!(taken + x.on_table.count_ones(), grid as u32);
    let mut fm = 0u64;
    for &p in &x.flipped[..usize::from(x.flipped_len)] {
        fm |= 1u64 << p;
    }
    assert_eq!(fm, x.flipped_mask);
    assert_eq!(x.flipped_mask & !x.seen, 0);
    if x.phase == Phase::Flip {
        assert!(usize::from(x.current) < n);
        assert!(x.face_down() != 0);
        if x.flipped_len == 0 {
            assert!(contains_collectable(x.table_cards));
        }
    } else {
        assert!(!contains_collectable(x.table_cards));
        assert_eq!(x.flipped_len, 0);
    }
}

/// Random games over several option settings, played by a mix of the built-in bots, keep the
/// table's rules at every step (see [`check_invariants`]): cards are conserved, the per-position
/// lists have length N, and at the end the winners are the seats with the most cards taken and
/// every label is `action {a}`.
#[test]
fn random_games_keep_the_table_rules() {
    for gi in 0..2000u64 {
        let n = 2 + (gi % 4) as usize;
        let opts = match gi % 5 {
            0 => json!({}),
            1 => json!({"jokers": true}),
            2 => json!({"min_number": 1, "max_number": 12, "jokers": true}),
            3 => json!({"min_number": 26, "max_number": 50, "jokers": gi % 2 == 0}),
            _ => json!({"min_number": 1 + gi % 20, "max_number": 30, "jokers": true}),
        };
        let g = game(n, opts);
        let mut bots: Vec<Box<dyn Bot<TrafficarsMemory>>> = (0..n)
            .map(|p| match p % 3 {
                0 => make_bot(&*g, "random").unwrap(),
                1 => make_bot(&*g, "memory").unwrap(),
                _ => make_bot(&*g, "forgetful:0.3").unwrap(),
            })
            .collect();
        for (p, b) in bots.iter_mut().enumerate() {
            b.reset(&g, p, SplitMix64::new(derive_seed(gi, p as u64)));
        }
        let detailed = gi % 50 == 0;
        let s = play_session(&g, derive_seed(99, gi), |x, cp, legal| {
            check_invariants(&g, x);
            if detailed {
                for p in 0..n {
                    let o = g.observation(x, p);
                    assert_eq!(o["faces"].as_array().unwrap().len(), g.grid_size());
                }
            }
            for b in bots.iter_mut() {
                b.observe(&g, x);
            }
            bots[cp].act(&g, x, legal)
        });
        let x = *s.state();
        check_invariants(&g, &x);
        let most = x.taken[..n].iter().max().copied().unwrap();
        let want: Vec<usize> = (0..n).filter(|&p| x.taken[p] == most).collect();
        assert_eq!(g.winners(&x), want);
        for a in 0..NUM_ACTIONS {
            assert_eq!(g.action_label(&x, a), format!("action {a}"));
        }
    }
}

/// The `random` bot's draw without the legal list ([`Game::random_action`]) is `legal[below(len)]`
/// of the list, with the same generator state after it, at every flip node of random games over
/// several option settings (runs that may stop included).
#[test]
fn random_action_equals_a_draw_from_the_legal_list() {
    let (mut legal, mut buf) = (Vec::new(), Vec::new());
    let mut stops = 0;
    for gi in 0..500u64 {
        let n = 2 + (gi % 4) as usize;
        let opts = match gi % 3 {
            0 => json!({}),
            1 => json!({"jokers": true}),
            _ => json!({"min_number": 1, "max_number": 12, "jokers": true}),
        };
        let g = game(n, opts);
        let mut x = g.initial_state();
        let mut walk = SplitMix64::new(derive_seed(7, gi));
        while g.current_player(&x) != TERMINAL {
            let a = if g.current_player(&x) == CHANCE {
                g.sample_chance(&x, &mut walk, &mut Vec::new())
            } else {
                g.legal_actions(&x, &mut legal);
                stops += usize::from(legal.last() == Some(&STOP));
                for k in 0..8u64 {
                    let probe = SplitMix64::new(walk.state() ^ derive_seed(gi, k));
                    let (mut fast, mut slow) = (probe, probe);
                    let picked = g.random_action(&x, &mut fast, &mut buf);
                    assert_eq!(picked, Some(legal[slow.below(legal.len() as u64) as usize]));
                    assert_eq!(fast, slow);
                }
                legal[walk.below(legal.len() as u64) as usize]
            };
            g.apply(&mut x, a);
        }
    }
    assert!(stops > 1000, "{stops}");
}
