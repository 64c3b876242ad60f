//! Turn the Tide's rule scenarios (explicit deals and tides with the expected lifebuoys, scores,
//! views and labels), its game-specific invariants over seeded random games, and its bot's
//! behaviour. The checks every game shares (legal lists, chance weights, key sets, fast paths,
//! bot parameters) live in the shared test kit, not here.

use super::*;
use crate::game::{Bot, Game, CHANCE, TERMINAL};
use crate::rng::derive_seed;
use crate::session::Session;
use crate::testing::{check_ignores_hidden, play_session, random_bot};
use serde_json::{json, Map, Value};
use std::sync::Arc;

type S = Session<TurnTheTide>;

fn game(players: usize, opts: Value) -> Arc<TurnTheTide> {
    crate::testing::game_with(players, opts)
}

fn range(a: u32, b: u32) -> Vec<u32> {
    (a..=b).collect()
}

fn cat(parts: &[&[u32]]) -> Vec<u32> {
    parts.iter().flat_map(|p| p.iter().copied()).collect()
}

/// Deals the given 12-card hands, seat 0 first, as explicit chance outcomes.
fn dealt(g: &Arc<TurnTheTide>, hands: &[Vec<u32>]) -> S {
    let mut s = Session::new(Arc::clone(g), None);
    assert_eq!(hands.len(), g.players());
    for h in hands {
        assert_eq!(h.len(), 12);
        for &c in h {
            assert_eq!(g.current_player(s.state()), CHANCE);
            s.apply(i64::from(c), None).unwrap();
        }
    }
    s
}

fn tides(s: &mut S, a: u32, b: u32) {
    s.apply(i64::from(a), Some(-1)).unwrap();
    s.apply(i64::from(b), Some(-1)).unwrap();
}

/// Plays `(seat, card)` commitments, checking that each seat is the one to move.
fn play(s: &mut S, moves: &[(i64, u32)]) {
    for &(seat, c) in moves {
        s.apply(i64::from(c), Some(seat)).unwrap();
    }
}

fn st(g: &TurnTheTide, s: &S) -> Value {
    g.state_json(s.state())
}

fn scores(g: &TurnTheTide, s: &S) -> Vec<i64> {
    let mut out = vec![0; g.players()];
    g.scores(s.state(), &mut out);
    out
}

fn three_hands() -> Vec<Vec<u32>> {
    vec![
        cat(&[&[13, 25, 26], &range(49, 57)]),
        range(1, 12),
        cat(&[&range(27, 36), &[14, 15]]),
    ]
}

#[test]
fn halves_cover_24_lifebuoys() {
    assert_eq!((1..=60).map(halves).sum::<u32>(), 48);
    assert_eq!(
        (halves(12), halves(13), halves(24), halves(25), halves(36)),
        (0, 1, 1, 2, 2)
    );
    assert_eq!(
        (halves(37), halves(48), halves(49), halves(60)),
        (1, 1, 0, 0)
    );
}

#[test]
fn deal_labels_and_lifebuoy_counts() {
    let g = game(3, json!({}));
    let mut s = Session::new(Arc::clone(&g), None);
    assert_eq!(g.action_label(s.state(), 5), "deal 5 to seat 0");
    let o = g.observation(s.state(), 1);
    assert_eq!(o["phase"], "deal");
    assert_eq!(o["hand"], json!([]));
    let x = st(&g, &s);
    assert_eq!(x["dealt"], json!([[], [], []]));
    assert_eq!(x["tide_deck"], json!([2u8; 12].to_vec()));
    assert_eq!(x["lifebuoys"], json!([0, 0, 0]));
    for c in range(1, 12) {
        s.apply(i64::from(c), None).unwrap();
    }
    assert_eq!(g.action_label(s.state(), 5), "deal 5 to seat 1");
    assert!(s.apply(3, None).is_err(), "card 3 is dealt already");

    let s = dealt(&g, &three_hands());
    let x = st(&g, &s);
    assert_eq!(x["lifebuoys"], json!([2, 0, 11]));
    assert_eq!(
        x["dealt"][2],
        json!([27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 14, 15])
    );
    assert_eq!(
        x["hands"][2],
        json!([14, 15, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36])
    );
    assert_eq!(x["tide"], json!([null, null, null]));
    assert_eq!(x["round"], json!(0));
    assert_eq!(g.current_player(s.state()), CHANCE);
    assert_eq!(g.action_label(s.state(), 3), "tide A: 3");
    let mut outs = Vec::new();
    g.chance_outcomes(s.state(), &mut outs);
    assert_eq!(outs, (1..=12).map(|v| (v, 2)).collect::<Vec<_>>());
}

#[test]
fn highest_card_takes_the_lower_tide_and_commitments_stay_hidden() {
    let g = game(3, json!({}));
    let mut s = dealt(&g, &three_hands());
    s.apply(9, None).unwrap();
    assert_eq!(g.action_label(s.state(), 4), "tide B: 4");
    s.apply(4, None).unwrap();
    assert_eq!(g.current_player(s.state()), 0);
    assert_eq!(g.action_label(s.state(), 57), "play 57");
    assert!(s.apply(1, Some(0)).is_err(), "seat 0 does not hold card 1");
    play(&mut s, &[(0, 57)]);
    let o1 = g.observation(s.state(), 1);
    assert_eq!(o1["committed"], json!([true, false, false]));
    assert_eq!(o1["own_commitment"], Value::Null);
    assert_eq!(o1["hand"], json!(range(1, 12)));
    assert_eq!(o1["played"], json!([[], [], []]));
    assert_eq!(o1["revealed_tide"], json!([9, 4]));
    assert!(!o1.to_string().contains("57"));
    let o0 = g.observation(s.state(), 0);
    assert_eq!(o0["own_commitment"], json!(57));
    assert_eq!(st(&g, &s)["commitments"], json!([57, null, null]));
    play(&mut s, &[(1, 1), (2, 36)]);
    let x = st(&g, &s);
    assert_eq!(x["tide"], json!([4, null, 9]));
    assert_eq!(x["lifebuoys"], json!([2, 0, 10]));
    assert_eq!(x["played"], json!([[57], [1], [36]]));
    assert_eq!(x["hand_index"], json!(1));
    assert_eq!(x["revealed_tide"], json!([]));
    assert_eq!(x["commitments"], json!([null, null, null]));
    assert_eq!(x["tide_deck"], json!([2, 2, 2, 1, 2, 2, 2, 2, 1, 2, 2, 2]));
    assert_eq!(x["hands"][0], json!(cat(&[&[13, 25, 26], &range(49, 56)])));
    assert_eq!(g.observation(s.state(), 0)["phase"], "tide");
}

#[test]
fn tied_highest_tides_all_lose() {
    let g = game(3, json!({}));
    let mut s = dealt(&g, &three_hands());
    tides(&mut s, 5, 5);
    play(&mut s, &[(0, 57), (1, 1), (2, 36)]);
    let x = st(&g, &s);
    assert_eq!(x["tide"], json!([5, null, 5]));
    assert_eq!(x["lifebuoys"], json!([1, 0, 10]));
}

fn four_hands() -> Vec<Vec<u32>> {
    vec![
        range(49, 60),
        cat(&[&range(1, 11), &[48]]),
        range(25, 36),
        range(13, 24),
    ]
}

#[test]
fn recheck_cascade_ends_the_round_at_two_players() {
    let g = game(4, json!({}));
    let mut s = dealt(&g, &four_hands());
    assert_eq!(st(&g, &s)["lifebuoys"], json!([0, 0, 12, 6]));
    tides(&mut s, 3, 7);
    play(&mut s, &[(0, 60), (1, 48), (2, 25), (3, 13)]);
    // Seat 1 shows 7 without a lifebuoy: out. Re-check: seat 0 now shows the highest tide (3)
    // without a lifebuoy: out. Two seats remain, so the round ends at once.
    let x = st(&g, &s);
    assert_eq!(scores(&g, &s), vec![-1, -1, 13, 7]);
    assert_eq!(x["round"], json!(1));
    assert_eq!(x["hand_index"], json!(0));
    // Round 1: seat p holds the hand dealt to seat p - 1.
    assert_eq!(x["lifebuoys"], json!([6, 0, 0, 12]));
    assert_eq!(x["hands"][0], json!(range(13, 24)));
    assert_eq!(x["hands"][1], json!(range(49, 60)));
    assert_eq!(x["tide"], json!([null, null, null, null]));
    assert_eq!(x["eliminated"], json!([false, false, false, false]));
    assert_eq!(x["played"], json!([[], [], [], []]));
    assert_eq!(x["tide_deck"], json!([2u8; 12].to_vec()));
}

#[test]
fn without_recheck_step_4_happens_once() {
    let g = game(4, json!({"recheck_after_elimination": false}));
    let mut s = dealt(&g, &four_hands());
    tides(&mut s, 3, 7);
    play(&mut s, &[(0, 60), (1, 48), (2, 25), (3, 13)]);
    let x = st(&g, &s);
    assert_eq!(x["round"], json!(0));
    assert_eq!(x["hand_index"], json!(1));
    assert_eq!(x["eliminated"], json!([false, true, false, false]));
    assert_eq!(x["tide"], json!([3, null, null, null]));
    assert_eq!(x["lifebuoys"], json!([0, 0, 12, 6]));
    assert_eq!(
        x["hands"][1],
        json!(range(1, 11)),
        "the eliminated hand stays"
    );
    tides(&mut s, 1, 2);
    // The eliminated seat 1 is skipped.
    play(&mut s, &[(0, 59), (2, 26), (3, 14)]);
    let x = st(&g, &s);
    assert_eq!(x["tide"], json!([1, null, 2, null]));
    assert_eq!(x["lifebuoys"], json!([0, 0, 11, 6]));
    assert_eq!(x["played"], json!([[60, 59], [48], [25, 26], [13, 14]]));
}

#[test]
fn recheck_costs_the_next_highest_a_lifebuoy() {
    let hands = vec![
        cat(&[&range(37, 47), &[60]]),
        cat(&[&range(1, 11), &[48]]),
        range(25, 36),
        range(13, 24),
        cat(&[&range(49, 59), &[12]]),
    ];
    for (recheck, seat0) in [(true, 4), (false, 5)] {
        let g = game(5, json!({"recheck_after_elimination": recheck}));
        let mut s = dealt(&g, &hands);
        assert_eq!(st(&g, &s)["lifebuoys"], json!([5, 0, 12, 6, 0]));
        tides(&mut s, 3, 7);
        play(&mut s, &[(0, 60), (1, 48), (2, 25), (3, 13), (4, 12)]);
        let x = st(&g, &s);
        assert_eq!(x["eliminated"], json!([false, true, false, false, false]));
        assert_eq!(x["lifebuoys"], json!([seat0, 0, 12, 6, 0]));
        assert_eq!(x["tide"], json!([3, null, null, null, null]));
        assert_eq!(x["hand_index"], json!(1));
    }
}

fn bonus_hands() -> Vec<Vec<u32>> {
    vec![
        cat(&[&range(37, 47), &[1]]),
        cat(&[&range(2, 12), &[49]]),
        range(13, 24),
    ]
}

/// Round 0 of `bonus_hands`: seat 1 is eliminated in hand 1 and the round ends with seat 0
/// (tide 5) and seat 2 (tide 9) left.
fn bonus_round_0(s: &mut S) {
    tides(s, 5, 8);
    play(s, &[(0, 47), (1, 2), (2, 24)]);
    tides(s, 9, 10);
    play(s, &[(0, 1), (1, 12), (2, 23)]);
}

#[test]
fn lowest_tide_bonus_and_one_round_game() {
    for recheck in [true, false] {
        let g = game(
            3,
            json!({"rounds": 1, "recheck_after_elimination": recheck}),
        );
        let mut s = dealt(&g, &bonus_hands());
        assert_eq!(st(&g, &s)["lifebuoys"], json!([5, 0, 6]));
        bonus_round_0(&mut s);
        assert_eq!(g.current_player(s.state()), TERMINAL);
        assert_eq!(scores(&g, &s), vec![6, -1, 5]);
        assert_eq!(g.winners(s.state()), vec![0]);
        let x = st(&g, &s);
        assert_eq!(x["round"], json!(0));
        assert_eq!(x["hand_index"], json!(2));
        assert_eq!(x["lifebuoys"], json!([5, 0, 5]));
        assert_eq!(x["tide"], json!([5, null, 9]));
        assert_eq!(x["eliminated"], json!([false, true, false]));
        assert_eq!(x["played"], json!([[47, 1], [2, 12], [24, 23]]));
        assert_eq!(x["revealed_tide"], json!([]));
        assert_eq!(x["commitments"], json!([null, null, null]));
        assert_eq!(x["chooser"], Value::Null);
        assert_eq!(x["tide_deck"], json!([2, 2, 2, 2, 1, 2, 2, 1, 1, 1, 2, 2]));
        assert_eq!(g.observation(s.state(), 1)["phase"], "over");
        assert_eq!(g.action_label(s.state(), 3), "action 3");
        let mut legal = vec![7];
        g.legal_actions(s.state(), &mut legal);
        assert!(legal.is_empty());
        assert!(s.apply(1, None).is_err());
    }
}

#[test]
fn scoring_over_rounds_with_rotation_and_shared_win() {
    let g = game(3, json!({}));
    let mut s = dealt(&g, &bonus_hands());
    bonus_round_0(&mut s);
    assert_eq!(scores(&g, &s), vec![6, -1, 5]);
    let x = st(&g, &s);
    assert_eq!(x["round"], json!(1));
    assert_eq!(x["hands"][0], json!(range(13, 24)));
    assert_eq!(x["hands"][1], json!(cat(&[&[1], &range(37, 47)])));
    assert_eq!(x["hands"][2], json!(cat(&[&range(2, 12), &[49]])));
    assert_eq!(x["lifebuoys"], json!([6, 5, 0]));
    // Round 1: seat 2 takes the high tide without a lifebuoy; seat 1 has no tide: bonus.
    tides(&mut s, 1, 2);
    play(&mut s, &[(0, 13), (1, 1), (2, 12)]);
    assert_eq!(scores(&g, &s), vec![12, 5, 4]);
    let x = st(&g, &s);
    assert_eq!(x["round"], json!(2));
    assert_eq!(x["lifebuoys"], json!([0, 6, 5]));
    // Round 2: tide A = 7 goes to the second-highest card, B = 3 to the highest.
    tides(&mut s, 7, 3);
    play(&mut s, &[(0, 12), (1, 13), (2, 1)]);
    assert_eq!(g.current_player(s.state()), TERMINAL);
    assert_eq!(scores(&g, &s), vec![11, 11, 10]);
    assert_eq!(g.winners(s.state()), vec![0, 1]);
    assert_eq!(st(&g, &s)["tide"], json!([null, 3, null]));
}

#[test]
fn full_round_no_tide_card_takes_the_bonus() {
    let g = game(3, json!({"rounds": 1}));
    let mut s = dealt(&g, &[range(37, 48), range(25, 36), range(13, 24)]);
    for h in 0..12u32 {
        let low = 2 * (h / 2) + 1;
        tides(&mut s, low, low + 1);
        play(&mut s, &[(0, 48 - h), (1, 36 - h), (2, 24 - h)]);
    }
    assert_eq!(g.current_player(s.state()), TERMINAL);
    let x = st(&g, &s);
    assert_eq!(x["hand_index"], json!(12));
    assert_eq!(x["lifebuoys"], json!([6, 0, 6]));
    assert_eq!(x["tide"], json!([11, 12, null]));
    assert_eq!(x["eliminated"], json!([false, false, false]));
    assert_eq!(x["tide_deck"], json!([0u8; 12].to_vec()));
    assert_eq!(x["hands"], json!([[], [], []]));
    assert_eq!(scores(&g, &s), vec![6, 0, 7]);
    assert_eq!(g.winners(s.state()), vec![2]);
}

#[test]
fn highest_chooses_tide() {
    let g = game(3, json!({"highest_chooses_tide": true}));
    let mut s = dealt(&g, &[range(37, 48), range(25, 36), range(13, 24)]);
    tides(&mut s, 2, 9);
    play(&mut s, &[(0, 48), (1, 36), (2, 24)]);
    assert_eq!(g.current_player(s.state()), 0);
    let mut legal = Vec::new();
    g.legal_actions(s.state(), &mut legal);
    assert_eq!(legal, vec![0, 1]);
    assert_eq!(g.action_label(s.state(), 0), "take tide A (2)");
    assert_eq!(g.action_label(s.state(), 1), "take tide B (9)");
    assert_eq!(g.action_label(s.state(), 48), "action 48");
    let o = g.observation(s.state(), 0);
    assert_eq!(o["phase"], "choose_tide");
    assert_eq!(o["played"], json!([[48], [36], [24]]));
    assert_eq!(o["revealed_tide"], json!([2, 9]));
    assert_eq!(o["committed"], json!([true, true, true]));
    assert_eq!(o["own_commitment"], json!(48));
    let x = st(&g, &s);
    assert_eq!(x["chooser"], json!(0));
    assert_eq!(x["hands"][0], json!(range(37, 47)));
    assert!(s.apply(1, Some(1)).is_err());
    s.apply(1, Some(0)).unwrap();
    let x = st(&g, &s);
    assert_eq!(x["tide"], json!([9, 2, null]));
    assert_eq!(x["lifebuoys"], json!([5, 12, 6]));
    assert_eq!(x["chooser"], Value::Null);
    // Equal values: the choice is still asked.
    tides(&mut s, 4, 4);
    play(&mut s, &[(0, 47), (1, 35), (2, 23)]);
    assert_eq!(g.current_player(s.state()), 0);
    s.apply(0, Some(0)).unwrap();
    let x = st(&g, &s);
    assert_eq!(x["tide"], json!([4, 4, null]));
    assert_eq!(x["lifebuoys"], json!([4, 11, 6]));
}

#[test]
fn options_are_validated_and_resolved() {
    let g = game(4, json!({}));
    assert_eq!(
        Value::Object(g.options()),
        json!({"recheck_after_elimination": true, "highest_chooses_tide": false, "rounds": 4})
    );
    assert_eq!(g.rounds(), 4);
    let g = game(5, json!({"rounds": null, "highest_chooses_tide": true}));
    assert_eq!(g.options()["rounds"], json!(5));
    assert_eq!(game(5, json!({"rounds": 2})).rounds(), 2);
    for bad in [
        json!({"rounds": 0}),
        json!({"rounds": 4}),
        json!({"rounds": "2"}),
        json!({"recheck_after_elimination": 1}),
        json!({"tides": 3}),
    ] {
        let map = bad.as_object().cloned().unwrap_or_default();
        assert!(TurnTheTide::from_options(3, &map).is_err(), "{bad}");
    }
    assert!(crate::registry::make("turn_the_tide", 2, &Map::new()).is_err());
    assert!(crate::registry::make("turn_the_tide", 6, &Map::new()).is_err());
    let h = crate::registry::make("turn_the_tide", 5, &Map::new()).unwrap();
    assert_eq!(h.num_actions(), 61);
    assert!(g.make_bot("greedy", None).is_some_and(|b| b.is_ok()));
    assert!(g.make_bot("clever", None).is_none());
}

/// Checks Turn the Tide's own invariants of a state between steps: every seat's cards are the
/// hand dealt to its source seat (held or played, never both), the hands are disjoint, an
/// eliminated seat shows no tide and keeps no lifebuoy, a seat still in has played one card per
/// hand, the tide deck has lost two cards per hand, and a round goes on only with three seats in.
fn check_invariants(g: &TurnTheTide, x: &TurnTheTideState) {
    let n = g.players();
    if x.phase == Phase::Deal {
        return;
    }
    assert_eq!(usize::from(x.dealt_count), 12 * n);
    let mut union = 0u64;
    for p in 0..n {
        let src = (p + n - usize::from(x.round)) % n;
        let mut full = 0u64;
        for &c in &x.dealt[src] {
            full |= bits::bit_in(u32::from(c), LOWEST_CARD, HIGHEST_CARD);
        }
        let mut played = 0u64;
        for &c in &x.played[p][..usize::from(x.played_len[p])] {
            played |= bits::bit_in(u32::from(c), LOWEST_CARD, HIGHEST_CARD);
        }
        assert_eq!(x.dealt_hands[src], full);
        assert_eq!(x.hands[p] | played, full);
        assert_eq!(x.hands[p] & played, 0);
        assert_eq!(union & full, 0);
        union |= full;
        if x.eliminated(p) {
            assert_eq!((x.tide[p], x.lifebuoys[p]), (0, 0));
        } else {
            let revealed = usize::from(x.phase == Phase::ChooseTide);
            assert_eq!(
                usize::from(x.played_len[p]),
                usize::from(x.hand_index) + revealed
            );
        }
        assert!(x.tide[p] <= 12);
    }
    let deck = x.tide_deck.total();
    assert_eq!(
        deck + 2 * u32::from(x.hand_index) + u32::from(x.revealed_len),
        24
    );
    if x.phase != Phase::Over {
        assert!((0..n).filter(|&p| !x.eliminated(p)).count() >= 3);
        assert_eq!(x.in_round >> n, 0);
        assert!(usize::from(x.hand_index) < 12);
    }
}

/// Game number `gi` of the seeded tests that go over every option set: 3 to 5 players, recheck
/// and the highest seat's tide choice on and off, and every fifth game with fewer rounds.
fn varied_game(gi: u64) -> (usize, Arc<TurnTheTide>) {
    let n = 3 + (gi % 3) as usize;
    let rounds = if gi % 5 == 0 {
        json!(1 + (gi / 5) % n as u64)
    } else {
        Value::Null
    };
    let g = game(
        n,
        json!({
            "recheck_after_elimination": gi % 2 == 0,
            "highest_chooses_tide": (gi / 2) % 2 == 1,
            "rounds": rounds,
        }),
    );
    (n, g)
}

/// Seeded random games over every option set: the invariants hold at every node, the seat to
/// move is still in the round, the scores stay within what the rounds can give, and the game ends
/// after its last round.
#[test]
fn random_games_keep_cards_lifebuoys_and_tides() {
    for gi in 0..400u64 {
        let (n, g) = varied_game(gi);
        let mut bot = random_bot(&*g, derive_seed(100, gi));
        let mut steps = 0;
        let s = play_session(&g, derive_seed(99, gi), |x, cp, legal| {
            check_invariants(&g, x);
            assert!(cp < n && !x.eliminated(cp));
            steps += 1;
            assert!(steps < 400);
            Bot::<TurnTheTide>::act(&mut bot, &*g, x, legal)
        });
        let x = *s.state();
        check_invariants(&g, &x);
        let sc = scores(&g, &s);
        let r = g.rounds() as i64;
        assert!(sc.iter().all(|&v| (-r..=13 * r).contains(&v)), "{sc:?}");
        let best = *sc.iter().max().unwrap();
        let w = g.winners(&x);
        assert!(w.iter().all(|&p| sc[p] == best));
        assert_eq!(w.len(), sc.iter().filter(|&&v| v == best).count());
        assert_eq!(usize::from(x.round) + 1, g.rounds());
    }
}

/// The game's own random playout (whole deals and rounds at a time) plays the same games as the
/// step-by-step definition from every node of seeded games, over every option set and player
/// count: the same counts, end state and generator states.
#[test]
fn random_playout_matches_the_step_by_step_one_from_every_node() {
    for gi in 0..60u64 {
        let (n, g) = varied_game(gi);
        crate::testing::assert_random_playouts_match_stepping_along(&*g, n, derive_seed(7, gi), gi);
    }
}

/// The bot's choice is the same when the other hands, their commitments and the deal are blanked
/// out.
#[test]
fn greedy_ignores_hidden_information() {
    let hide = |x: &mut TurnTheTideState, seat: usize| {
        x.dealt = [[0; HAND_SIZE]; MAX_SEATS];
        for p in (0..4).filter(|&p| p != seat) {
            x.hands[p] = 0;
            if x.phase == Phase::Play && x.commitments[p] != 0 {
                x.commitments[p] = 1;
            }
        }
    };
    let checked = check_ignores_hidden(&game(4, json!({})), GreedyBot::default, 50, 3, hide);
    assert!(checked > 1000, "only {checked} decisions checked");
}

/// Asked without the list of legal actions, the bot chooses what it chooses with the list, over
/// every option set and player count.
#[test]
fn greedy_chooses_the_same_without_the_legal_list() {
    for gi in 0..30u64 {
        let (_, g) = varied_game(gi);
        crate::testing::check_unlisted_decisions(&*g, "greedy", 4, gi);
    }
}

mod greedy_pinned;

/// `play_randomly` goes from a random deal straight to `random_rounds` without asking
/// `random_rounds_ready`: every deal it can make (every option set and player count, partial
/// deals included) must pass it.
#[test]
fn a_random_deal_is_ready_for_the_rounds() {
    let seats = vec![crate::rng::SplitMix64::new(0); MAX_SEATS];
    for (players, opts) in [
        (3, json!({})),
        (4, json!({"highest_chooses_tide": true})),
        (5, json!({"recheck_after_elimination": false, "rounds": 1})),
    ] {
        let g = game(players, opts);
        for seed in 0..200u64 {
            let mut st = g.initial_state();
            let mut chance = crate::rng::SplitMix64::new(seed);
            // Some games start from a partial deal, dealt step by step.
            for _ in 0..seed % 7 {
                let mut outcomes = Vec::new();
                g.chance_outcomes(&st, &mut outcomes);
                g.apply(
                    &mut st,
                    outcomes[chance.below(outcomes.len() as u64) as usize].0,
                );
            }
            assert!(g.random_deal_ready(&st));
            g.random_deal(&mut st, &mut chance);
            assert_eq!(st.phase, Phase::Tide, "seed {seed}");
            assert!(
                g.random_rounds_ready(&st, &seats),
                "{players} players, seed {seed}"
            );
        }
    }
}
