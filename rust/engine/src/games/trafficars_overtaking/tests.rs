//! The overtaking lane's rule scenarios (explicit deals with the expected rows, hands, piles,
//! views and labels), its game-specific invariants over seeded games, and its bot's behaviour.
//! The checks every game shares (legal lists, chance weights, key sets, fast paths, bot
//! parameters) live in the shared test kit, not here.

use super::*;
use crate::error::EngineError;
use crate::game::{Bot, Game, RandomBot, CHANCE, TERMINAL};
use crate::rng::{derive_seed, SplitMix64};
use crate::session::Session;
use crate::testing::{assert_labels, check_ignores_hidden};
use serde_json::{json, Map, Value};
use std::sync::Arc;

type S = Session<TrafficarsOvertaking>;

/// The default game: overtaking is compulsory.
fn game(players: usize) -> Arc<TrafficarsOvertaking> {
    Arc::new(TrafficarsOvertaking::from_options(players, &Map::new()).unwrap())
}

/// The variant `optional_overtake = true`: the overtaker chooses.
fn game_opt(players: usize) -> Arc<TrafficarsOvertaking> {
    let map = json!({"optional_overtake": true})
        .as_object()
        .cloned()
        .unwrap();
    Arc::new(TrafficarsOvertaking::from_options(players, &map).unwrap())
}

/// Deals explicitly: `removed` first, then each seat's pile (top first) starting with the
/// given prefix and filled up with the remaining cards in increasing order, seat 0 first.
fn dealt(g: &Arc<TrafficarsOvertaking>, removed: &[u32], prefixes: &[&[u32]]) -> S {
    let mut s = Session::new(Arc::clone(g), None);
    let mut used: u64 = removed
        .iter()
        .fold(0, |m, &c| m | bits::bit_in(c, LOWEST_CARD, HIGHEST_CARD));
    for p in prefixes {
        used |= p
            .iter()
            .fold(0, |m, &c| m | bits::bit_in(c, LOWEST_CARD, HIGHEST_CARD));
    }
    let mut rest = bits::to_vec(ALL_CARDS & !used).into_iter();
    for &c in removed {
        assert_eq!(g.action_label(s.state(), c), format!("remove {c}"));
        s.apply(i64::from(c), None).unwrap();
    }
    for seat in 0..g.players() {
        let prefix = prefixes.get(seat).copied().unwrap_or(&[]);
        for i in 0..g.pile_size {
            let c = prefix
                .get(i)
                .copied()
                .unwrap_or_else(|| rest.next().unwrap());
            assert_eq!(g.current_player(s.state()), CHANCE);
            assert_eq!(
                g.action_label(s.state(), c),
                format!("deal {c} to seat {seat}")
            );
            s.apply(i64::from(c), None).unwrap();
        }
    }
    assert_ne!(g.current_player(s.state()), CHANCE);
    s
}

/// [`dealt`] for two seats (no card is removed): seat 0's prefix, then seat 1's.
fn dealt_two(g: &Arc<TrafficarsOvertaking>, seat0: &[u32], seat1: &[u32]) -> S {
    dealt(g, &[], &[seat0, seat1])
}

fn st(g: &TrafficarsOvertaking, s: &S) -> Value {
    g.state_json(s.state())
}

fn legal(g: &TrafficarsOvertaking, s: &S) -> Vec<u32> {
    let mut out = Vec::new();
    g.legal_actions(s.state(), &mut out);
    out
}

/// The active seat and the overtaker of a state dict.
fn turn(x: &Value) -> (Value, Value) {
    (x["active"].clone(), x["overtaker"].clone())
}

/// The two-seat deal of the worked example: seat 0 holds 3, 11, 20, 26, 40, 47, seat 1 holds
/// 8, 21, 24, 30, 33, 45, and 18 starts the row.
fn worked_deal(g: &Arc<TrafficarsOvertaking>) -> S {
    dealt_two(
        g,
        &[3, 11, 20, 26, 40, 47, 18, 1],
        &[8, 21, 24, 30, 33, 45, 14, 49],
    )
}

/// The worked example after seat 0 played 26 and seat 1 overtook with 21 and 24.
fn assert_overtook_26(x: &Value) {
    assert_eq!(x["phase"], "play");
    assert_eq!(x["row"], json!([18, 21, 24, 26]));
    assert_eq!(x["overtake_card"], Value::Null);
    assert_eq!(turn(x), (json!(1), json!(0)));
    assert_eq!(
        x["hands"],
        json!([[1, 3, 11, 20, 40, 47], [8, 14, 30, 33, 45, 49]])
    );
}

/// Applies `actions` in order, each by the seat `seat`.
fn by(s: &mut S, seat: i64, actions: &[u32]) {
    for &a in actions {
        s.apply(i64::from(a), Some(seat)).unwrap();
    }
}

#[test]
fn options_and_sizes() {
    for (n, k, r) in [(2, 25, 0), (3, 16, 2), (4, 12, 2), (5, 10, 0)] {
        let g = game(n);
        assert_eq!((g.pile_size, g.removed_count), (k, r));
    }
    assert!(TrafficarsOvertaking::from_options(1, &Map::new()).is_err());
    assert!(TrafficarsOvertaking::from_options(6, &Map::new()).is_err());
    let map = json!({"jokers": true}).as_object().cloned().unwrap();
    assert!(TrafficarsOvertaking::from_options(3, &map).is_err());
    assert_eq!(
        Value::Object(game(2).options()),
        json!({"optional_overtake": false})
    );
    assert_eq!(
        Value::Object(game_opt(2).options()),
        json!({"optional_overtake": true})
    );
    for bad in [
        json!({"optional_overtake": 1}),
        json!({"optional_overtake": "true"}),
        json!({"optional_overtake": null}),
    ] {
        let map = bad.as_object().cloned().unwrap();
        assert!(
            matches!(
                TrafficarsOvertaking::from_options(3, &map),
                Err(EngineError::InvalidOption(_))
            ),
            "{bad}"
        );
    }
    let names: Vec<&str> = TrafficarsOvertaking::option_specs()
        .iter()
        .map(|o| o.name)
        .collect();
    assert_eq!(names, ["optional_overtake"]);
    assert!(crate::registry::games()
        .iter()
        .any(|i| i.id == "trafficars_overtaking"
            && i.options.len() == 1
            && i.options[0].default == json!(false)));
    let h = crate::registry::make("trafficars_overtaking", 4, &Map::new()).unwrap();
    assert_eq!(h.num_actions(), 54);
    let g = game(2);
    assert!(g.make_bot("greedy", None).is_some_and(|b| b.is_ok()));
    assert!(g.make_bot("memory", None).is_none());
}

#[test]
fn deal_removal_chance_and_labels() {
    let g = game(3);
    let mut s = Session::new(Arc::clone(&g), None);
    let x = st(&g, &s);
    assert_eq!(x["phase"], "deal");
    assert_eq!(x["active"], json!(0));
    assert_eq!(x["overtaker"], json!(1));
    assert_eq!(x["piles"], json!([[], [], []]));
    assert_eq!(x["hands"], json!([[], [], []]));
    assert_eq!(x["row"], json!([]));
    assert_eq!(x["winner"], Value::Null);
    assert_eq!(x["overtake_card"], Value::Null);
    let mut outs = Vec::new();
    g.chance_outcomes(s.state(), &mut outs);
    assert_eq!(outs, (1..=50).map(|c| (c, 1)).collect::<Vec<_>>());
    let labels = [(50, "remove 50"), (0, "action 0"), (51, "action 51")];
    assert_labels(&*g, s.state(), &labels);
    s.apply(7, None).unwrap();
    s.apply(9, None).unwrap();
    assert!(s.apply(9, None).is_err());
    assert_eq!(g.action_label(s.state(), 1), "deal 1 to seat 0");
    assert_eq!(st(&g, &s)["removed"], json!([7, 9]));
    for c in [1, 2, 3] {
        s.apply(c, None).unwrap();
    }
    assert_eq!(st(&g, &s)["piles"], json!([[1, 2, 3], [], []]));
    let o = g.observation(s.state(), 2);
    assert_eq!(o["pile_sizes"], json!([3, 0, 0]));
    assert_eq!(o["phase"], "deal");
    let mut sc = [0i64; 3];
    g.scores(s.state(), &mut sc);
    assert_eq!(sc, [-3, 0, 0]);
    // The 17th pile card goes to seat 1.
    for c in [4, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20] {
        s.apply(c, None).unwrap();
    }
    assert_eq!(g.action_label(s.state(), 21), "deal 21 to seat 1");
}

#[test]
fn worked_example_overtaking() {
    let g = game_opt(2);
    let mut s = worked_deal(&g);
    let x = st(&g, &s);
    assert_eq!(
        x["hands"],
        json!([[3, 11, 20, 26, 40, 47], [8, 21, 24, 30, 33, 45]])
    );
    assert_eq!(x["row"], json!([18]));
    assert_eq!(x["phase"], "play");
    assert_eq!(turn(&x), (json!(0), json!(1)));
    assert_eq!(g.observation(s.state(), 0)["pile_sizes"], json!([18, 19]));
    assert_eq!(legal(&g, &s), vec![3, 11, 20, 26, 40, 47]);
    assert_eq!(g.action_label(s.state(), 26), "play 26");
    assert_eq!(g.action_label(s.state(), 53), "pass");
    assert_eq!(g.action_label(s.state(), 51), "action 51");
    // Seat 0 plays 26: seat 1 holds 21, 24 between 18 and 26.
    by(&mut s, 0, &[26]);
    assert_eq!(g.current_player(s.state()), 1);
    assert_eq!(legal(&g, &s), vec![51, 52]);
    assert_eq!(g.action_label(s.state(), 51), "overtake");
    assert_eq!(g.action_label(s.state(), 52), "let go");
    assert_eq!(g.action_label(s.state(), 53), "action 53");
    let o = g.observation(s.state(), 0);
    assert_eq!(o["phase"], "overtake");
    assert_eq!(o["overtake_card"], json!(26));
    assert_eq!(o["row"], json!([18, 26]));
    by(&mut s, 1, &[OVERTAKE]);
    assert_overtook_26(&st(&g, &s));
    assert_eq!(legal(&g, &s), vec![8, 14, 30, 33, 45, 49]);
    // 14 next to 18: seat 0 holds nothing in 15..17: no overtake node.
    by(&mut s, 1, &[14]);
    assert_eq!(g.current_player(s.state()), 1);
    assert_eq!(st(&g, &s)["row"], json!([14, 18, 21, 24, 26]));
    // 8 next to 14: seat 0 holds 11; it lets go and seat 1 plays on.
    by(&mut s, 1, &[8]);
    assert_eq!(g.current_player(s.state()), 0);
    assert_eq!(st(&g, &s)["overtake_card"], json!(8));
    by(&mut s, 0, &[LET_GO]);
    assert_eq!(g.current_player(s.state()), 1);
    let x = st(&g, &s);
    assert_eq!(x["phase"], "play");
    assert_eq!(x["overtake_card"], Value::Null);
    assert_eq!(x["row"], json!([8, 14, 18, 21, 24, 26]));
    assert_eq!(x["hands"][1], json!([30, 33, 45, 49]));
    // Nothing is refilled while the active player stays.
    assert_eq!(g.observation(s.state(), 1)["hand_sizes"], json!([6, 4]));
}

#[test]
fn both_ends_overtake_forced_pass_refill_and_cleared_row() {
    let g = game_opt(2);
    let mut s = dealt_two(
        &g,
        &[1, 50, 10, 11, 12, 13, 25, 2, 3],
        &[30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42],
    );
    assert_eq!(st(&g, &s)["row"], json!([25]));
    // Everything fits a one-card row.
    assert_eq!(legal(&g, &s), vec![1, 10, 11, 12, 13, 50]);
    // 1 goes to the left end (seat 1 holds nothing in 2..24: no overtake node).
    by(&mut s, 0, &[1]);
    assert_eq!(g.current_player(s.state()), 0);
    assert_eq!(st(&g, &s)["row"], json!([1, 25]));
    assert_eq!(legal(&g, &s), vec![50]);
    // 50 goes to the right end; seat 1 holds 30..35 between 25 and 50 and overtakes with all.
    by(&mut s, 0, &[50]);
    assert_eq!(g.current_player(s.state()), 1);
    by(&mut s, 1, &[OVERTAKE]);
    let x = st(&g, &s);
    assert_eq!(x["row"], json!([1, 25, 30, 31, 32, 33, 34, 35, 50]));
    // The active player changed: both refill to 6 (seat 0 from 4, seat 1 from 0).
    assert_eq!(
        x["hands"],
        json!([[2, 3, 10, 11, 12, 13], [36, 37, 38, 39, 40, 41]])
    );
    assert_eq!(turn(&x), (json!(1), json!(0)));
    assert_eq!(x["passes"], json!(0));
    // Nothing fits below 1 or above 50: pass is forced, and is the only action.
    assert_eq!(legal(&g, &s), vec![PASS]);
    assert!(s.apply(36, Some(1)).is_err());
    by(&mut s, 1, &[PASS]);
    let x = st(&g, &s);
    assert_eq!(x["passes"], json!(1));
    assert_eq!(turn(&x), (json!(0), json!(1)));
    assert_eq!(x["row"], json!([1, 25, 30, 31, 32, 33, 34, 35, 50]));
    assert_eq!(legal(&g, &s), vec![PASS]);
    // Everyone has passed: the row leaves the game; seat 1 starts a new one from its pile.
    by(&mut s, 0, &[PASS]);
    let x = st(&g, &s);
    assert_eq!(x["passes"], json!(0));
    assert_eq!(x["row"], json!([42]));
    assert_eq!(turn(&x), (json!(1), json!(0)));
    assert_eq!(x["phase"], "play");
    assert_eq!(x["piles"][1][0], json!(24));
    let o = g.observation(s.state(), 1);
    assert_eq!(o["pile_sizes"], json!([16, 12]));
    assert_eq!(o["hand_sizes"], json!([6, 6]));
    assert_eq!(o["hand"], json!([36, 37, 38, 39, 40, 41]));
    let mut sc = [0i64; 2];
    g.scores(s.state(), &mut sc);
    assert_eq!(sc, [-22, -18]);
    // A pass in the middle of a cycle is reset by the next card placed.
    assert_eq!(legal(&g, &s), vec![36, 37, 38, 39, 40, 41]);
}

#[test]
fn start_from_the_hand_and_the_win() {
    let g = game_opt(5);
    let mut s = dealt_two(
        &g,
        &[20, 21, 22, 10, 11, 12, 19, 1, 50, 13],
        &[15, 16, 2, 49, 30, 31, 32, 33, 34, 35],
    );
    let x = st(&g, &s);
    assert_eq!(x["row"], json!([19]));
    assert_eq!(x["hands"][2], json!([3, 4, 5, 6, 7, 8]));
    assert_eq!(x["hands"][3], json!([23, 24, 25, 26, 27, 28]));
    assert_eq!(x["hands"][4], json!([39, 40, 41, 42, 43, 44]));
    by(&mut s, 0, &[20, 21, 22]);
    assert_eq!(g.current_player(s.state()), 0);
    // 12 next to 19: seat 1 holds 15, 16 and overtakes with both.
    by(&mut s, 0, &[12]);
    by(&mut s, 1, &[OVERTAKE]);
    let x = st(&g, &s);
    assert_eq!(x["row"], json!([12, 15, 16, 19, 20, 21, 22]));
    // Refill: seat 0 (2 cards) draws its last 3, seat 1 (4 cards) draws 2.
    assert_eq!(x["hands"][0], json!([1, 10, 11, 13, 50]));
    assert_eq!(x["piles"][0], json!([]));
    assert_eq!(x["hands"][1], json!([2, 30, 31, 32, 33, 49]));
    // Seat 1: 49 (seat 2 holds nothing in 23..48), then 2 (seat 2 holds 3..8: lets go).
    by(&mut s, 1, &[49]);
    assert_eq!(g.current_player(s.state()), 1);
    by(&mut s, 1, &[2]);
    assert_eq!(g.current_player(s.state()), 2);
    by(&mut s, 2, &[LET_GO]);
    assert_eq!(legal(&g, &s), vec![PASS]);
    by(&mut s, 1, &[PASS]);
    assert_eq!(st(&g, &s)["hands"][1], json!([30, 31, 32, 33, 34, 35]));
    by(&mut s, 2, &[PASS]);
    by(&mut s, 3, &[PASS]);
    by(&mut s, 4, &[PASS]);
    assert_eq!(st(&g, &s)["passes"], json!(4));
    // Seat 0 plays both ends (1 and 50), the passes start again from 0.
    assert_eq!(legal(&g, &s), vec![1, 50]);
    by(&mut s, 0, &[50]);
    assert_eq!(st(&g, &s)["passes"], json!(0));
    by(&mut s, 0, &[1, PASS]);
    for seat in 1..=4 {
        by(&mut s, seat, &[PASS]);
    }
    // All five passed; seat 0 starts the new row, but its pile is empty: it picks a card.
    let x = st(&g, &s);
    assert_eq!(x["phase"], "start");
    assert_eq!(x["row"], json!([]));
    assert_eq!(x["active"], json!(0));
    assert_eq!(g.current_player(s.state()), 0);
    assert_eq!(legal(&g, &s), vec![10, 11, 13]);
    assert_eq!(g.action_label(s.state(), 11), "start the row with 11");
    assert_eq!(g.action_label(s.state(), 53), "action 53");
    by(&mut s, 0, &[11]);
    assert_eq!(st(&g, &s)["row"], json!([11]));
    assert_eq!(legal(&g, &s), vec![10, 13]);
    by(&mut s, 0, &[13]);
    assert!(g.winners(s.state()).is_empty());
    // The last card: seat 0 has no card in hand or pile and wins at once.
    by(&mut s, 0, &[10]);
    assert_eq!(g.current_player(s.state()), TERMINAL);
    assert_eq!(g.winners(s.state()), vec![0]);
    let x = st(&g, &s);
    assert_eq!(x["phase"], "over");
    assert_eq!(x["winner"], json!(0));
    assert_eq!(x["row"], json!([10, 11, 13]));
    assert_eq!(turn(&x), (json!(0), json!(1)));
    let mut sc = [0i64; 5];
    g.scores(s.state(), &mut sc);
    assert_eq!(sc, [0, -6, -10, -10, -10]);
    assert_eq!(g.observation(s.state(), 3)["winner"], json!(0));
    assert!(legal(&g, &s).is_empty());
    assert_eq!(g.action_label(s.state(), 10), "action 10");
}

#[test]
fn an_emptied_hand_moves_the_turn_on() {
    // 3 players, 2 cards removed: seat 2 plays its whole hand; the turn moves on without a
    // pass and everyone refills.
    let g = game(3);
    let mut s = dealt(
        &g,
        &[5, 6],
        &[
            &[10, 12, 14, 16, 18, 20, 30, 1, 2, 3, 4, 7, 8, 9, 11, 13],
            &[
                22, 24, 26, 28, 31, 33, 15, 17, 19, 21, 23, 25, 27, 29, 32, 34,
            ],
            &[
                44, 45, 46, 47, 48, 49, 35, 36, 37, 38, 39, 40, 41, 42, 43, 50,
            ],
        ],
    );
    assert_eq!(st(&g, &s)["removed"], json!([5, 6]));
    assert_eq!(st(&g, &s)["row"], json!([30]));
    // Seat 0 plays 20: seat 1 holds 22, 24, 26, 28 → overtakes (compulsory: no node).
    by(&mut s, 0, &[20]);
    assert_eq!(st(&g, &s)["row"], json!([20, 22, 24, 26, 28, 30]));
    // Seat 1 (hand 31, 33, 15, 17 + drawn 19, 21) plays 31: seat 2 holds nothing in between.
    assert_eq!(st(&g, &s)["hands"][1], json!([15, 17, 19, 21, 31, 33]));
    by(&mut s, 1, &[31]);
    assert_eq!(g.current_player(s.state()), 1);
    // 33 (seat 2 holds no 32), 19 (next to 20), 17 (no 18), 15 (no 16).
    by(&mut s, 1, &[33, 19, 17, 15]);
    // 15 next to 17: seat 2 holds nothing in 16. Seat 1 still holds 21: not fitting.
    assert_eq!(legal(&g, &s), vec![PASS]);
    by(&mut s, 1, &[PASS]);
    // Seat 2: 44..49 fit the right end (above 33).
    assert_eq!(legal(&g, &s), vec![44, 45, 46, 47, 48, 49]);
    by(&mut s, 2, &[44, 45, 46, 47, 48]);
    assert_eq!(st(&g, &s)["passes"], json!(0));
    by(&mut s, 2, &[49]);
    // Seat 2's hand is empty: the turn moves on (not a pass) and everyone refills.
    let x = st(&g, &s);
    assert_eq!(turn(&x), (json!(0), json!(1)));
    assert_eq!(x["passes"], json!(0));
    assert_eq!(x["hands"][2], json!([35, 36, 37, 38, 39, 40]));
    // Seat 0 holds 1, 10, 12, 14, 16, 18 (1 drawn at the overtake): those below 15 fit.
    assert_eq!(st(&g, &s)["hands"][0], json!([1, 10, 12, 14, 16, 18]));
    assert_eq!(legal(&g, &s), vec![1, 10, 12, 14]);
}

/// "… ohituskaistalle pyrkivän pelaajan pitää … sanoa Ohitus!, jos hänellä on
/// ohituskaistalle sopiva kortti." (The player aiming for the overtaking lane MUST say
/// "Overtake!" if they hold a card that fits the overtaking lane.)
#[test]
fn overtaking_is_compulsory() {
    // Seat 0 plays 26: seat 1 holds 21, 24 between 18 and 26 and must overtake.
    let deal_and_play_26 = |g: &Arc<TrafficarsOvertaking>| {
        let mut s = worked_deal(g);
        by(&mut s, 0, &[26]);
        s
    };
    let g = game(2);
    // Overtaking is compulsory: seat 1 overtakes at once.
    let mut s = deal_and_play_26(&g);
    assert_overtook_26(&st(&g, &s));
    // The overtake is not a recorded action: the history holds only the play.
    let h = s.to_json()["history"].as_array().unwrap().clone();
    assert_eq!(h.last(), Some(&json!(26)));
    assert!(!h.contains(&json!(OVERTAKE)));
    // 14 (no overtake), then 8 next to 14: seat 0 holds 11 and must overtake.
    by(&mut s, 1, &[14, 8]);
    let x = st(&g, &s);
    assert_eq!(x["row"], json!([8, 11, 14, 18, 21, 24, 26]));
    assert_eq!(x["active"], json!(0));
    assert_eq!(g.current_player(s.state()), 0);
    assert!(!legal(&g, &s).contains(&LET_GO));
    assert!(s.apply(i64::from(LET_GO), Some(0)).is_err());
    assert!(s.apply(i64::from(OVERTAKE), Some(0)).is_err());
    // The same deal with optional_overtake = true stops at the overtake node.
    let g = game_opt(2);
    let s = deal_and_play_26(&g);
    assert_eq!(st(&g, &s)["phase"], "overtake");
    assert_eq!(legal(&g, &s), [OVERTAKE, LET_GO]);
}

/// Checks the overtaking lane's own invariants of a state between steps (`gone`: the cards of
/// the cleared rows): every card is in exactly one place, no hand exceeds the refill limit, the
/// overtaker sits after the active seat, each node fits its phase (an `overtake` node only when
/// overtaking is optional, with a card to overtake with), the winner holds nothing, and before
/// the end every seat still holds a card.
fn check_invariants(g: &TrafficarsOvertaking, x: &TrafficarsOvertakingState, gone: u64) {
    let n = g.players();
    if x.phase == Phase::Deal {
        return;
    }
    assert_eq!(usize::from(x.removed_len), g.removed_count);
    assert_eq!(usize::from(x.dealt), n * g.pile_size);
    assert_eq!(x.used, ALL_CARDS);
    let mut all = gone | x.row;
    assert_eq!(gone & x.row, 0);
    for &c in &x.removed[..usize::from(x.removed_len)] {
        assert_eq!(
            all & bits::bit_in(u32::from(c), LOWEST_CARD, HIGHEST_CARD),
            0
        );
        all |= bits::bit_in(u32::from(c), LOWEST_CARD, HIGHEST_CARD);
    }
    for s in 0..n {
        assert!(x.hands[s].count_ones() <= HAND_LIMIT);
        assert_eq!(all & x.hands[s], 0);
        all |= x.hands[s];
        for &c in x.pile(s) {
            assert_eq!(
                all & bits::bit_in(u32::from(c), LOWEST_CARD, HIGHEST_CARD),
                0
            );
            all |= bits::bit_in(u32::from(c), LOWEST_CARD, HIGHEST_CARD);
        }
    }
    // Cards conserved: every card is removed, in a cleared row, the row, a hand or a pile.
    assert_eq!(all, ALL_CARDS);
    assert_eq!(usize::from(x.overtaker), (usize::from(x.active) + 1) % n);
    match x.phase {
        Phase::Play => {
            assert_ne!(x.row, 0);
            assert_ne!(x.hands[usize::from(x.active)], 0);
            assert!(usize::from(x.passes) < n);
        }
        Phase::Start => {
            assert_eq!(x.row, 0);
            assert_eq!(x.pile_count(usize::from(x.active)), 0);
        }
        Phase::Overtake => {
            assert!(
                g.optional_overtake,
                "an overtake node with compulsory overtaking"
            );
            let c = u32::from(x.overtake_card);
            assert!(x.row & bits::bit_in(c, LOWEST_CARD, HIGHEST_CARD) != 0);
            let y = TrafficarsOvertaking::neighbour(x.row, c);
            assert!(x.hands[usize::from(x.overtaker)] & between(c, y) != 0);
        }
        Phase::Over => {
            let w = usize::from(x.winner);
            assert_eq!(x.hands[w], 0);
            assert_eq!(x.pile_count(w), 0);
        }
        Phase::Deal => {}
    }
    if x.phase != Phase::Overtake {
        assert_eq!(x.overtake_card, 0);
    }
    if x.phase != Phase::Over {
        assert_eq!(x.winner, NO_SEAT);
        for s in 0..n {
            assert!(x.hands[s] != 0 || x.pile_count(s) != 0);
        }
    }
}

/// Seeded games of random and greedy bots over every player count, both with compulsory and
/// with optional overtaking: the invariants hold at every node, and the game ends with exactly
/// one winner, the only seat without cards.
#[test]
fn random_games_conserve_cards() {
    let mut legal = Vec::new();
    for gi in 0..400u64 {
        let n = 2 + (gi % 4) as usize;
        let g = if gi % 3 == 0 { game_opt(n) } else { game(n) };
        let mut s = Session::new(Arc::clone(&g), Some(derive_seed(77, gi)));
        let mut bots: Vec<Box<dyn Bot<TrafficarsOvertaking>>> = (0..n)
            .map(|p| -> Box<dyn Bot<TrafficarsOvertaking>> {
                if (p + gi as usize) % 2 == 0 {
                    Box::new(RandomBot::default())
                } else {
                    Box::new(GreedyBot::default())
                }
            })
            .collect();
        for (p, b) in bots.iter_mut().enumerate() {
            b.reset(&g, p, SplitMix64::new(derive_seed(gi, p as u64)));
        }
        let mut gone = 0u64;
        let mut steps = 0u32;
        while g.current_player(s.state()) != TERMINAL {
            let x = *s.state();
            check_invariants(&g, &x, gone);
            let cp = g.current_player(&x);
            g.legal_actions(&x, &mut legal);
            let a = bots[cp as usize].act(&g, &x, &legal);
            s.apply(i64::from(a), Some(i64::from(cp))).unwrap();
            let y = *s.state();
            if x.row & !y.row != 0 {
                gone |= x.row;
            }
            for b in bots.iter_mut() {
                b.observe(&g, &y);
            }
            steps += 1;
            assert!(steps < 5_000);
        }
        let x = *s.state();
        check_invariants(&g, &x, gone);
        let w = g.winners(&x);
        assert_eq!(w.len(), 1);
        let mut sc = vec![0i64; n];
        g.scores(&x, &mut sc);
        assert_eq!(sc[w[0]], 0);
        assert!(sc.iter().enumerate().all(|(p, &v)| p == w[0] || v < 0));
    }
}

/// A seat's observation holds its own hand, and of every seat only how many cards it holds in
/// hand and in its pile (contract: observation `hand`, `hand_sizes`, `pile_sizes`).
#[test]
fn other_hands_show_only_their_sizes() {
    let g = game(4);
    let s = Session::new(Arc::clone(&g), Some(5));
    let o = g.observation(s.state(), 2);
    assert_eq!(o["hand"], json!(bits::to_vec(s.state().hands[2])));
    assert_eq!(o["hand_sizes"], json!([6, 6, 6, 6]));
    // Seat 0 started the row with the top card of its pile.
    assert_eq!(o["pile_sizes"], json!([5, 6, 6, 6]));
}

/// The bot's choice is the same when the other hands, every pile and the removed cards are
/// blanked out.
#[test]
fn greedy_ignores_hidden_information() {
    let hide = |x: &mut TrafficarsOvertakingState, seat: usize| {
        x.piles = [[0; MAX_PILE]; MAX_SEATS];
        x.removed = [0; 4];
        let own = x.hands[seat];
        x.hands = [0; MAX_SEATS];
        x.hands[seat] = own;
    };
    let checked = check_ignores_hidden(&game(4), GreedyBot::default, 100, 3, hide);
    assert!(checked > 1000, "only {checked} decisions checked");
}
