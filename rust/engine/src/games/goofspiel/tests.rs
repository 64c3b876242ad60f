//! Goofspiel's rule scenarios (explicit point cards and bids with the expected scores, views and
//! labels), its game-specific invariants over seeded random games, and its bot's behaviour. The
//! checks every game shares (legal lists, chance weights, key sets, fast paths, bot parameters)
//! live in the shared test kit, not here.

use super::*;
use crate::game::{Bot, Game, CHANCE, TERMINAL};
use crate::rng::derive_seed;
use crate::session::Session;
use crate::sim::{simulate, SimConfig};
use crate::testing::{play_session, random_bot};
use serde_json::{json, Map, Value};
use std::sync::Arc;

fn game(opts: Value) -> Arc<Goofspiel> {
    crate::testing::game_with(2, opts)
}

/// A game with explicit chance nodes and its rules.
struct T {
    g: Arc<Goofspiel>,
    s: Session<Goofspiel>,
}

impl T {
    fn new(n: u32) -> Self {
        let g = game(json!({ "num_cards": n }));
        Self {
            s: Session::new(Arc::clone(&g), None),
            g,
        }
    }

    /// Reveals point card `point`, then seat 0 bids `b0` and seat 1 bids `b1`. The last turn
    /// is forced and played by the engine itself: then this checks that it was this one.
    fn turn(&mut self, point: u32, b0: u32, b1: u32) {
        if self.cp() == TERMINAL {
            let last = self.s.state().done().last().copied().unwrap();
            assert_eq!((last.point, last.bids), (point as u8, [b0 as u8, b1 as u8]));
            return;
        }
        self.s.apply(i64::from(point) - 1, Some(-1)).unwrap();
        self.s.apply(i64::from(b0) - 1, Some(0)).unwrap();
        self.s.apply(i64::from(b1) - 1, Some(1)).unwrap();
    }

    fn cp(&self) -> i32 {
        self.g.current_player(self.s.state())
    }

    fn scores(&self) -> Vec<i64> {
        let mut out = vec![0; 2];
        self.g.scores(self.s.state(), &mut out);
        out
    }

    fn legal(&self) -> Vec<u32> {
        let mut out = Vec::new();
        self.g.legal_actions(self.s.state(), &mut out);
        out
    }

    fn obs(&self, p: usize) -> Value {
        self.g.observation(self.s.state(), p)
    }

    fn st(&self) -> Value {
        self.s.to_json()["state"].clone()
    }

    fn label(&self, a: u32) -> String {
        self.g.action_label(self.s.state(), a)
    }
}

#[test]
fn higher_bid_scores_the_point_card() {
    let mut t = T::new(5);
    t.turn(4, 5, 2);
    assert_eq!(t.scores(), vec![4, 0]);
    t.turn(2, 1, 3);
    assert_eq!(t.scores(), vec![4, 2]);
    let o = t.obs(0);
    assert_eq!(o["turn"], json!(2));
    assert_eq!(o["points"], json!([4, 2]));
    assert_eq!(o["bids"], json!([[5, 2], [1, 3]]));
    assert_eq!(o["point_history"], json!([4, 2]));
    assert_eq!(o["hands"], json!([[2, 3, 4], [1, 4, 5]]));
    assert_eq!(o["remaining_points"], json!([1, 3, 5]));
    assert_eq!(o["point_card"], Value::Null);
    assert_eq!(t.cp(), CHANCE);
    assert_eq!(t.legal(), vec![0, 2, 4]);
    assert_eq!(
        t.st(),
        json!({
            "turn": 2,
            "point_card": null,
            "remaining_points": [1, 3, 5],
            "hands": [[2, 3, 4], [1, 4, 5]],
            "points": [4, 2],
            "bids": [[5, 2], [1, 3]],
            "point_history": [4, 2],
            "pending": [null, null],
        })
    );
    t.s.apply(4, None).unwrap();
    assert_eq!(t.obs(1)["point_card"], json!(5));
    assert_eq!(t.obs(1)["remaining_points"], json!([1, 3]));
    assert_eq!(t.cp(), 0);
    assert_eq!(t.legal(), vec![1, 2, 3]);
    t.s.apply(3, None).unwrap();
    assert_eq!(t.cp(), 1);
    assert_eq!(t.legal(), vec![0, 3, 4]);
    t.s.apply(4, None).unwrap();
    assert_eq!(t.scores(), vec![4, 7]);
    t.turn(1, 2, 1);
    t.turn(3, 3, 4);
    assert_eq!(t.cp(), TERMINAL);
    assert_eq!(t.scores(), vec![5, 10]);
    assert_eq!(t.g.winners(t.s.state()), vec![1]);
    assert!(t.legal().is_empty());
    let o = t.obs(1);
    assert_eq!(o["hands"], json!([[], []]));
    assert_eq!(o["remaining_points"], json!([]));
    assert_eq!(o["point_card"], Value::Null);
    assert_eq!(o["bids"], json!([[5, 2], [1, 3], [4, 5], [2, 1], [3, 4]]));
    assert_eq!(o["point_history"], json!([4, 2, 5, 1, 3]));
    assert_eq!(o["turn"], json!(5));
}

#[test]
fn equal_bids_give_the_card_to_nobody() {
    let mut t = T::new(5);
    t.turn(5, 3, 3);
    assert_eq!(t.scores(), vec![0, 0]);
    assert_eq!(t.obs(0)["point_history"], json!([5]));
    assert_eq!(t.obs(1)["bids"], json!([[3, 3]]));
    assert_eq!(t.obs(1)["hands"], json!([[1, 2, 4, 5], [1, 2, 4, 5]]));
    // The point card is gone for good: it is not dealt again.
    assert_eq!(t.legal(), vec![0, 1, 2, 3]);
    t.turn(1, 5, 4);
    assert_eq!(t.scores(), vec![1, 0]);
}

/// The turns of a whole game, one `(point card, bid 0, bid 1)` each.
type Turns = &'static [(u32, u32, u32)];

/// Whole games of `N` point cards (one turn each) with the final scores and winners: more points
/// wins, a draw is won by both.
#[test]
fn more_points_wins_and_a_draw_is_won_by_both() {
    let games: [(Turns, [i64; 2], &[usize]); 5] = [
        (&[(1, 3, 1), (2, 1, 2), (3, 2, 3)], [1, 5], &[1]),
        (&[(1, 1, 1), (2, 2, 2)], [0, 0], &[0, 1]),
        (&[(3, 3, 1), (1, 1, 2), (2, 2, 3)], [3, 3], &[0, 1]),
        (&[(2, 3, 1), (3, 1, 2), (1, 2, 3)], [2, 4], &[1]),
        (&[(3, 2, 1), (1, 1, 2), (2, 3, 3)], [3, 1], &[0]),
    ];
    for (turns, scores, winners) in games {
        let mut t = T::new(turns.len() as u32);
        for &(point, b0, b1) in turns {
            t.turn(point, b0, b1);
        }
        assert_eq!(
            (t.cp(), t.scores()),
            (TERMINAL, scores.to_vec()),
            "{turns:?}"
        );
        assert_eq!(t.g.winners(t.s.state()), winners, "{turns:?}");
    }
}

#[test]
fn a_pending_bid_is_hidden_from_seat_1() {
    let mut t = T::new(5);
    t.s.apply(0, None).unwrap();
    let before = t.obs(1);
    t.s.apply(4, Some(0)).unwrap();
    let seen = t.obs(1);
    assert_eq!(seen["own_bid"], Value::Null);
    assert_eq!(seen["committed"], json!([true, false]));
    assert_eq!(seen["hands"], json!([[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]]));
    assert_eq!(seen["bids"], json!([]));
    assert_eq!(before["committed"], json!([false, false]));
    let mine = t.obs(0);
    assert_eq!(mine["own_bid"], json!(5));
    assert_eq!(mine["committed"], json!([true, false]));
    assert_eq!(t.st()["pending"], json!([5, null]));
    // Seat 1 sees exactly the same whatever seat 0 bid.
    for b in 0..5 {
        let mut u = T::new(5);
        u.s.apply(0, None).unwrap();
        u.s.apply(b, None).unwrap();
        assert_eq!(u.obs(1), seen);
        assert_eq!(u.obs(0)["own_bid"], json!(b + 1));
    }
    // Both bids are revealed together once seat 1 has bid.
    t.s.apply(1, Some(1)).unwrap();
    assert_eq!(t.obs(1)["bids"], json!([[5, 2]]));
    assert_eq!(t.obs(1)["committed"], json!([false, false]));
    assert_eq!(t.obs(0)["own_bid"], Value::Null);
    assert_eq!(t.st()["pending"], json!([null, null]));
}

#[test]
fn ids_and_labels() {
    let mut t = T::new(4);
    assert_eq!(t.g.num_actions(), 4);
    assert_eq!(t.cp(), CHANCE);
    assert_eq!(t.legal(), vec![0, 1, 2, 3]);
    let mut outs = Vec::new();
    t.g.chance_outcomes(t.s.state(), &mut outs);
    assert_eq!(outs, vec![(0, 1), (1, 1), (2, 1), (3, 1)]);
    assert_eq!(t.label(2), "point card 3");
    assert_eq!(t.label(0), "point card 1");
    t.s.apply(2, None).unwrap();
    assert_eq!(t.obs(0)["point_card"], json!(3));
    assert_eq!(t.cp(), 0);
    assert_eq!(t.label(0), "bid 1");
    assert_eq!(t.label(3), "bid 4");
    t.g.chance_outcomes(t.s.state(), &mut outs);
    assert!(outs.is_empty());
    t.s.apply(3, None).unwrap();
    assert_eq!(t.cp(), 1);
    assert_eq!(t.legal(), vec![0, 1, 2, 3]);
    assert_eq!(t.label(1), "bid 2");
    t.s.apply(0, None).unwrap();
    assert_eq!(t.cp(), CHANCE);
    assert_eq!(t.legal(), vec![0, 1, 3]);
    assert_eq!(t.obs(0)["hands"], json!([[1, 2, 3], [2, 3, 4]]));
    assert_eq!(t.obs(0)["bids"], json!([[4, 1]]));
    assert_eq!(t.scores(), vec![3, 0]);
    // Unavailable cards are refused, the state is unchanged.
    let before = t.s.to_json();
    assert!(t.s.apply(2, None).is_err());
    assert!(t.s.apply(4, None).is_err());
    assert!(t.s.apply(-1, None).is_err());
    t.s.apply(1, None).unwrap();
    assert!(t.s.apply(3, Some(0)).is_err());
    t.s.apply(2, Some(0)).unwrap();
    assert!(t.s.apply(0, Some(1)).is_err());
    assert_ne!(t.s.to_json(), before);
    t.s.apply(2, Some(1)).unwrap();
    t.turn(4, 2, 4);
    t.turn(1, 1, 2);
    assert_eq!(t.scores(), vec![3, 5]);
    assert_eq!(t.cp(), TERMINAL);
    for a in 0..4 {
        assert_eq!(t.label(a), format!("action {a}"));
    }
    assert!(t.s.apply(0, None).is_err());
}

#[test]
fn num_cards_option() {
    let g = game(json!({}));
    assert_eq!(Value::Object(g.options()), json!({"num_cards": 13}));
    assert_eq!((g.num_actions(), g.num_cards()), (13, 13));
    for bad in [
        json!({"num_cards": 0}),
        json!({"num_cards": 61}),
        json!({"num_cards": "13"}),
    ] {
        let map = bad.as_object().cloned().unwrap_or_default();
        assert!(Goofspiel::from_options(2, &map).is_err(), "{bad}");
    }
    let bad = json!({"num_cards": 13.0});
    assert!(Goofspiel::from_options(2, bad.as_object().unwrap()).is_err());
    let bad = json!({"points_order": "random"});
    assert!(Goofspiel::from_options(2, bad.as_object().unwrap()).is_err());
    assert!(Goofspiel::from_options(3, &Map::new()).is_err());
    assert!(crate::registry::make("goofspiel", 1, &Map::new()).is_err());
    assert!(crate::registry::make("goofspiel", 3, &Map::new()).is_err());
    let h = crate::registry::make("goofspiel", 2, &Map::new()).unwrap();
    assert_eq!((h.id(), h.num_actions()), ("goofspiel", 13));
    assert!(crate::registry::games()
        .iter()
        .any(|i| i.id == "goofspiel" && i.players == (2, 2) && i.bots == vec!["random", "greedy"]));
    assert!(g.make_bot("greedy", None).is_some_and(|b| b.is_ok()));
    assert!(g.make_bot("clever", None).is_none());

    // One card: one turn, always a tie.
    let mut t = T::new(1);
    assert_eq!(t.g.num_actions(), 1);
    assert_eq!(t.legal(), vec![0]);
    assert_eq!(t.label(0), "point card 1");
    t.turn(1, 1, 1);
    assert_eq!((t.cp(), t.scores()), (TERMINAL, vec![0, 0]));
    assert_eq!(t.g.winners(t.s.state()), vec![0, 1]);
    assert_eq!(t.st()["bids"], json!([[1, 1]]));
    assert_eq!(t.label(0), "action 0");

    // Sixty cards: seat 0 bids high to low, seat 1 low to high; never a tie.
    let mut t = T::new(60);
    assert_eq!(t.legal(), (0..60).collect::<Vec<_>>());
    assert_eq!(t.label(59), "point card 60");
    for i in 0..60 {
        t.turn(60 - i, 60 - i, 1 + i);
        // After the 59th turn the forced 60th is played at once.
        let expected = if i + 1 == 59 { 60 } else { i + 1 };
        assert_eq!(t.obs(0)["turn"], json!(expected));
    }
    assert_eq!((t.cp(), t.scores()), (TERMINAL, vec![1830 - 465, 465]));
    assert_eq!(t.g.winners(t.s.state()), vec![0]);
    let back = Session::from_json(Arc::clone(&t.g), &t.s.to_json()).unwrap();
    assert_eq!(back.state(), t.s.state());
}

/// The bit of card `value` in a card bitset.
fn card_bit(value: u32) -> u64 {
    bits::bit_in(value - LOWEST_CARD, FIRST_ID, LAST_ID)
}

/// Checks Goofspiel's own invariants of a state between steps: no card is bid twice, every point
/// card is in exactly one place (won or tied, on the table, still to come), the points are the
/// sum of the point cards won, both hands shrink by one card per turn, and the node fits the
/// pending bid.
fn check_invariants(g: &Goofspiel, x: &GoofspielState) {
    let full = g.full;
    let turns = x.done();
    assert_eq!(turns.len(), usize::from(x.turn));
    let (mut pts, mut used0, mut used1, mut seen) = ([0u32; 2], 0u64, 0u64, 0u64);
    for r in turns {
        let (p, [b0, b1]) = (u32::from(r.point), r.bids);
        assert!((1..=g.num_cards).contains(&p));
        for (used, b) in [(&mut used0, b0), (&mut used1, b1)] {
            let m = card_bit(u32::from(b));
            assert_eq!(*used & m, 0, "card {b} bid twice");
            *used |= m;
        }
        assert_eq!(seen & card_bit(p), 0);
        seen |= card_bit(p);
        pts[0] += if b0 > b1 { p } else { 0 };
        pts[1] += if b1 > b0 { p } else { 0 };
    }
    assert_eq!(x.points, pts);
    assert_eq!(x.hands[0], full & !used0);
    assert_eq!(x.hands[1], full & !used1);
    let current = if x.point_card == 0 {
        0
    } else {
        card_bit(u32::from(x.point_card))
    };
    assert_eq!(x.remaining & (seen | current), 0);
    assert_eq!(x.remaining | seen | current, full);
    assert_eq!(x.remaining & !full, 0);
    let left = g.num_cards - u32::from(x.turn);
    assert_eq!(x.hands[0].count_ones(), left);
    assert_eq!(x.hands[1].count_ones(), left);
    match x.to_move {
        CHANCE => assert!(x.point_card == 0 && x.pending == 0 && left > 0),
        0 => assert!(x.point_card != 0 && x.pending == 0),
        1 => assert!(x.point_card != 0 && x.hands[0] & card_bit(u32::from(x.pending)) != 0),
        TERMINAL => assert!(left == 0 && x.point_card == 0 && x.pending == 0),
        other => panic!("bad player {other}"),
    }
}

/// Seeded random games of every size: the invariants hold at every node, the forced last turn is
/// played without a node, every point card is dealt once and the higher total wins (both on a
/// tie).
#[test]
fn random_games_conserve_cards_and_points() {
    for gi in 0..600u64 {
        let n = if gi % 2 == 0 {
            13
        } else {
            1 + (gi / 2 % 60) as u32
        };
        let g = game(json!({ "num_cards": n }));
        let mut bot = random_bot(&*g, derive_seed(100, gi));
        let mut steps = 0;
        let s = play_session(&g, derive_seed(99, gi), |x, cp, legal| {
            check_invariants(&g, x);
            assert_eq!(legal.len() as u32, x.hands[cp].count_ones());
            steps += 1;
            Bot::<Goofspiel>::act(&mut bot, &*g, x, legal)
        });
        let x = *s.state();
        check_invariants(&g, &x);
        // The forced last turn (for N >= 2) has no nodes.
        let explicit_turns = if n == 1 { 1 } else { n - 1 };
        assert_eq!(steps, 2 * explicit_turns);
        assert_eq!(
            s.to_json()["history"].as_array().unwrap().len() as u32,
            3 * explicit_turns
        );
        let [a, b] = x.points;
        let total: u32 = x.done().iter().map(|r| u32::from(r.point)).sum();
        assert_eq!(total, n * (n + 1) / 2);
        assert!(a + b <= total);
        let want = match a.cmp(&b) {
            std::cmp::Ordering::Greater => vec![0],
            std::cmp::Ordering::Less => vec![1],
            std::cmp::Ordering::Equal => vec![0, 1],
        };
        assert_eq!(g.winners(&x), want);
    }
}

#[test]
fn the_first_observation_shows_both_full_hands() {
    let g = game(json!({}));
    let x = g.initial_state();
    let all: Vec<u32> = (1..=13).collect();
    assert_eq!(
        g.observation(&x, 0),
        json!({
            "seat": 0,
            "turn": 0,
            "point_card": null,
            "remaining_points": all,
            "hands": [all, all],
            "points": [0, 0],
            "bids": [],
            "point_history": [],
            "committed": [false, false],
            "own_bid": null,
        })
    );
}

#[test]
fn greedy_bids_the_matching_card_and_ignores_the_pending_bid() {
    let mut t = T::new(6);
    let mut bot = GreedyBot;
    // Applies `action`, then the bot must bid `want` in the state reached.
    let mut then_bids = |t: &mut T, action: i64, want: u32| {
        t.s.apply(action, None).unwrap();
        assert_eq!(
            bot.act(&t.g, t.s.state(), &t.legal()),
            want,
            "after {action}"
        );
    };
    then_bids(&mut t, 3, 3);
    then_bids(&mut t, 5, 3);
    let legal = t.legal();
    let mut hidden = *t.s.state();
    for b in 1..=6 {
        hidden.pending = b;
        assert_eq!(GreedyBot.act(&t.g, &hidden, &legal), 3);
    }
    t.s.apply(0, None).unwrap();
    // Seat 0's hand lacks 6, seat 1's lacks 1: each bids by rank among the points in play.
    then_bids(&mut t, 5, 4);
    then_bids(&mut t, 0, 5);
}

#[test]
fn batch_simulation_runs() {
    let g = game(json!({}));
    let config = SimConfig {
        threads: Some(2),
        ..SimConfig::new(3000, 5, vec!["greedy".into(), "random".into()])
    };
    let r = simulate(&*g, &config, &|_| true).unwrap();
    assert_eq!(r.games_played, 3000);
    assert_eq!(r.decisions, 3000 * 24);
    assert_eq!(r.chance_steps, 3000 * 12);
    assert!(r.seats[0].wins > 2 * r.seats[1].wins);
    let one = simulate(
        &*g,
        &SimConfig {
            threads: Some(1),
            ..config
        },
        &|_| true,
    )
    .unwrap();
    assert_eq!(one.scores, r.scores);
    assert_eq!(one.winners, r.winners);
    assert!(r.lengths.iter().all(|&l| l == 24));
}
