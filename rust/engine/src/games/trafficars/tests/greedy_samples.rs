//! `greedy:N`, the `greedy` bot sampling `N` opponent deals: which parameters it takes, that it
//! plays legal games, and that plain `greedy` (the formula) is `greedy:0`.

use super::super::{Trafficars, TrafficarsState};
use crate::error::EngineError;
use crate::game::{Bot, Game};
use crate::rng::SplitMix64;
use crate::sim::make_bot;
use crate::testing::{decision_runs, play_bot_decisions, DecisionRun};
use serde_json::json;

/// The bot of a spec such as `"greedy:4"`, built the way the batch runner builds it.
struct Spec(Box<dyn Bot<Trafficars>>);

impl Spec {
    fn new(spec: &str) -> Self {
        let g = Trafficars::from_options(2, &serde_json::Map::new()).unwrap();
        Self(make_bot(&g, spec).unwrap_or_else(|e| panic!("{spec}: {e}")))
    }
}

impl Bot<Trafficars> for Spec {
    fn reset(&mut self, game: &Trafficars, seat: usize, rng: SplitMix64) {
        self.0.reset(game, seat, rng);
    }

    fn act(&mut self, game: &Trafficars, state: &TrafficarsState, legal: &[u32]) -> u32 {
        self.0.act(game, state, legal)
    }

    fn observe(&mut self, game: &Trafficars, state: &TrafficarsState) {
        self.0.observe(game, state);
    }

    fn observes(&self) -> bool {
        self.0.observes()
    }
}

/// The runs the tests below play: the default lanes (the unrolled lookahead), five lanes (the
/// lane summaries) and insertion of too-low cards (the exact board), at 2 to 5 players.
fn runs() -> Vec<DecisionRun<Trafficars>> {
    let settings = [
        json!({}),
        json!({"lanes": 5, "max_cars": 2}),
        json!({"too_low": "insert"}),
    ];
    let seed = |i: usize, n: usize, k: usize| 1000 * (k as u64 + 1) + 10 * i as u64 + n as u64;
    decision_runs::<Trafficars>(&settings, 2..=5, [3, 2, 2], seed)
}

/// Every decision of `spec` in `run`, as (game, seat, action); the games are played to the end
/// and every action is checked to be legal.
fn decisions(run: &DecisionRun<Trafficars>, spec: &str) -> Vec<(u64, usize, u32)> {
    let mut out = Vec::new();
    play_bot_decisions(
        &run.game,
        || Spec::new(spec),
        run.mask,
        run.games,
        run.seed,
        |gi, p, a| out.push((gi, p, a)),
    );
    out
}

/// `greedy:N` takes a whole number of deals from 0 to 64 and nothing else.
#[test]
fn greedy_takes_a_number_of_samples_from_0_to_64() {
    let g = Trafficars::from_options(4, &serde_json::Map::new()).unwrap();
    assert!(g.make_bot("greedy", None).is_some_and(|b| b.is_ok()));
    for ok in ["0", "1", "2", "4", "8", "9", "64", " 6 "] {
        assert!(
            g.make_bot("greedy", Some(ok)).is_some_and(|b| b.is_ok()),
            "{ok}"
        );
    }
    for bad in ["x", "1000", "65", "", "-1", "4.0", "+", "8x"] {
        match g.make_bot("greedy", Some(bad)) {
            Some(Err(EngineError::InvalidOption(m))) => {
                assert!(m.contains("greedy") && m.contains("0..=64"), "{m}")
            }
            _ => panic!("greedy:{bad} must be an InvalidOption error"),
        }
    }
    assert!(make_bot(&g, "greedy:4").is_ok());
    for bad in ["greedy:65", "greedy:x", "greedy:1000"] {
        assert!(
            matches!(make_bot(&g, bad), Err(EngineError::InvalidOption(_))),
            "{bad}"
        );
    }
}

/// `greedy:0` is `greedy`: the same decisions, one for one; and the formula decides otherwise
/// than `greedy:3` (where it is used: not with `too_low = "insert"`, whose cards it weighs over
/// 3 sampled deals).
#[test]
fn greedy_is_greedy_0_and_not_greedy_3() {
    let (mut checked, mut differs) = (0, 0);
    for run in runs() {
        let plain = decisions(&run, "greedy");
        assert_eq!(decisions(&run, "greedy:0"), plain, "{}", run.label);
        if !run.game.insert {
            differs += usize::from(decisions(&run, "greedy:3") != plain);
        }
        checked += plain.len();
    }
    assert!(checked > 2_000, "only {checked} decisions checked");
    assert!(differs > 0, "the formula decided as greedy:3 in every run");
}

/// `greedy:N` plays legal games to the end with fewer deals than `greedy:3` and with more, and
/// `greedy:4` decides differently from `greedy:3`.
#[test]
fn greedy_with_other_sample_counts_plays_legal_games() {
    let mut differs = 0;
    for run in runs() {
        let plain = decisions(&run, "greedy:3");
        let four = decisions(&run, "greedy:4");
        assert!(!four.is_empty(), "{}", run.label);
        differs += usize::from(four != plain);
        for spec in ["greedy:1", "greedy:12"] {
            assert!(!decisions(&run, spec).is_empty(), "{spec} {}", run.label);
        }
    }
    assert!(differs > 0, "greedy:4 decided as greedy:3 in every run");
}
