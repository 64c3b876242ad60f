use super::toy::{DuelState, HiddenDuel, CARDS};
use super::*;
use crate::game::RandomBot;
use crate::rng::derive_seed;

/// A bot from a spec: `random`, the toy's `greedy`, or a search bot.
fn bot(game: &HiddenDuel, spec: &str) -> Box<dyn Bot<HiddenDuel>> {
    let (name, param) = match spec.split_once(':') {
        Some((n, p)) => (n, Some(p)),
        None => (spec, None),
    };
    if name == "random" {
        return Box::new(RandomBot::default());
    }
    if let Some(b) = make_search_bot(game, name, param) {
        return b.unwrap();
    }
    game.make_bot(name, param).unwrap().unwrap()
}

/// Plays one seeded game and returns its final state.
fn play(game: &HiddenDuel, bots: &mut [Box<dyn Bot<HiddenDuel>>], seed: u64) -> DuelState {
    let mut st = game.initial_state();
    let mut rng = SplitMix64::new(seed);
    for (seat, b) in bots.iter_mut().enumerate() {
        b.reset(
            game,
            seat,
            SplitMix64::new(derive_seed(seed, seat as u64 + 1)),
        );
    }
    let mut legal = Vec::new();
    let mut chance = Vec::new();
    loop {
        match game.current_player(&st) {
            TERMINAL => return st,
            CHANCE => {
                let o = game.sample_chance(&st, &mut rng, &mut chance);
                game.apply(&mut st, o);
            }
            p => {
                game.legal_actions(&st, &mut legal);
                let a = bots[p as usize].act(game, &st, &legal);
                assert!(legal.contains(&a), "bot chose illegal action {a}");
                game.apply(&mut st, a);
            }
        }
    }
}

/// `a`'s win share (ties count half) over `games` seeded games with alternating seats.
fn win_share(a: &str, b: &str, games: u64, seed: u64) -> f64 {
    let game = HiddenDuel::default();
    let mut total = 0.0;
    let mut rewards = [0.0; 2];
    for g in 0..games {
        let a_seat = (g % 2) as usize;
        let mut bots = if a_seat == 0 {
            vec![bot(&game, a), bot(&game, b)]
        } else {
            vec![bot(&game, b), bot(&game, a)]
        };
        let st = play(&game, &mut bots, derive_seed(seed, g));
        win_shares(&game, &st, &mut rewards);
        total += rewards[a_seat];
    }
    total / games as f64
}

/// States reached by random play from many seeds, at every decision node.
fn decision_states(seeds: u64) -> Vec<DuelState> {
    let game = HiddenDuel::default();
    let mut out = Vec::new();
    let mut legal = Vec::new();
    for seed in 0..seeds {
        let mut rng = SplitMix64::new(seed);
        let mut st = game.initial_state();
        loop {
            match game.current_player(&st) {
                TERMINAL => break,
                CHANCE => {
                    let o = game.sample_chance(&st, &mut rng, &mut Vec::new());
                    game.apply(&mut st, o);
                }
                _ => {
                    out.push(st);
                    let a = game.random_action(&st, &mut rng, &mut legal).unwrap();
                    game.apply(&mut st, a);
                }
            }
        }
    }
    out
}

/// The same position with the other seat's hidden cards exchanged with undealt ones (as many as
/// possible), or `None` when there is nothing to exchange.
fn swap_hidden(st: &DuelState, observer: usize) -> Option<DuelState> {
    let other = 1 - observer;
    let all = (1u16 << CARDS) - 1;
    let undealt = all & !st.hands[0] & !st.hands[1] & !st.played[0] & !st.played[1];
    if undealt == 0 || st.hands[other] == 0 {
        return None;
    }
    let mut out = *st;
    let (mut from, mut to) = (st.hands[other], undealt);
    while from != 0 && to != 0 {
        let a = from & from.wrapping_neg();
        let b = to & to.wrapping_neg();
        out.hands[other] = (out.hands[other] & !a) | b;
        from &= !a;
        to &= !b;
    }
    Some(out)
}

#[test]
fn determinizations_keep_the_observation_and_vary_the_hidden_cards() {
    let game = HiddenDuel::default();
    let mut rng = SplitMix64::new(5);
    let mut varied = 0;
    for st in decision_states(40) {
        for observer in 0..2 {
            let mut hands = std::collections::HashSet::new();
            for _ in 0..20 {
                let d = game.determinize(&st, observer, &mut rng).unwrap();
                assert_eq!(
                    game.observation(&d, observer),
                    game.observation(&st, observer)
                );
                assert_eq!(
                    d.hands[1 - observer].count_ones(),
                    st.hands[1 - observer].count_ones()
                );
                assert_eq!(d.hands[0] & d.hands[1], 0);
                assert_eq!((d.hands[0] | d.hands[1]) & (d.played[0] | d.played[1]), 0);
                hands.insert(d.hands[1 - observer]);
            }
            if hands.len() > 1 {
                varied += 1;
            }
        }
    }
    assert!(
        varied > 100,
        "hidden hands varied in only {varied} positions"
    );
}

#[test]
fn determinize_does_not_depend_on_hidden_cards() {
    let game = HiddenDuel::default();
    for st in decision_states(20) {
        for observer in 0..2 {
            let Some(other) = swap_hidden(&st, observer) else {
                continue;
            };
            assert_ne!(other, st);
            let (mut r1, mut r2) = (SplitMix64::new(9), SplitMix64::new(9));
            for _ in 0..5 {
                assert_eq!(
                    game.determinize(&st, observer, &mut r1),
                    game.determinize(&other, observer, &mut r2)
                );
            }
        }
    }
}

#[test]
fn search_bots_are_deterministic_for_a_seed() {
    let game = HiddenDuel::default();
    for spec in [
        "mcts:iterations=200",
        "flatmc:samples=20",
        "mcts:iterations=100,rollout=greedy",
        "mcts:iterations=100,crn=on",
    ] {
        for seed in 0..5 {
            let run = || {
                let mut bots = vec![bot(&game, spec), bot(&game, "random")];
                play(&game, &mut bots, seed)
            };
            assert_eq!(run(), run(), "{spec} seed {seed}");
        }
    }
}

#[test]
fn search_bots_do_not_peek() {
    let game = HiddenDuel::default();
    let mut legal = Vec::new();
    let mut checked = 0;
    for spec in [
        "mcts:iterations=100",
        "flatmc:samples=10",
        "mcts:iterations=50,rollout=greedy",
        "mcts:iterations=50,crn=on,rollout=greedy",
    ] {
        for (i, st) in decision_states(15).into_iter().enumerate() {
            let seat = game.current_player(&st) as usize;
            let Some(other) = swap_hidden(&st, seat) else {
                continue;
            };
            game.legal_actions(&st, &mut legal);
            let decide = |s: &DuelState| {
                let mut b = bot(&game, spec);
                b.reset(&game, seat, SplitMix64::new(i as u64));
                (0..3).map(|_| b.act(&game, s, &legal)).collect::<Vec<_>>()
            };
            assert_eq!(decide(&st), decide(&other), "{spec} in {st:?}");
            checked += 1;
        }
    }
    assert!(checked > 100);
}

/// Asserts that `a` wins more than `min` of `games` seeded games against `b` (see
/// [`win_share`]), printing the share.
fn assert_beats(a: &str, b: &str, games: u64, seed: u64, min: f64) {
    let share = win_share(a, b, games, seed);
    println!("{a} vs {b}: {share:.3}");
    assert!(share > min, "{a} won {share} against {b}, not above {min}");
}

/// Each search player beats a weaker one: `(player, opponent, games, seed, share above)`.
#[test]
fn search_players_beat_weaker_ones() {
    let matches = [
        ("flatmc:samples=10", "random", 200, 1, 0.6),
        ("mcts:iterations=300", "random", 200, 2, 0.6),
        ("mcts:iterations=300", "greedy", 200, 3, 0.5),
        ("mcts:iterations=500", "mcts:iterations=10", 300, 4, 0.55),
        ("mcts:iterations=200,rollout=greedy", "random", 100, 5, 0.6),
        ("mcts:iterations=300,crn=on", "random", 200, 6, 0.6),
    ];
    for (a, b, games, seed, min) in matches {
        assert_beats(a, b, games, seed, min);
    }
}

#[test]
fn parameters_parse() {
    let p = MctsParams::parse::<HiddenDuel>(Some("iterations=2000,c=1.5,rollout=greedy")).unwrap();
    assert_eq!(p.iterations, 2000);
    assert_eq!(p.c, 1.5);
    assert_eq!(p.rollout, RolloutPolicy::Greedy);
    assert_eq!(
        MctsParams::parse::<HiddenDuel>(None).unwrap(),
        MctsParams::default()
    );
    let p = FlatMcParams::parse::<HiddenDuel>(Some("rollout=random,samples=7")).unwrap();
    assert_eq!((p.samples, p.rollout), (7, RolloutPolicy::Random));
    assert!(MctsParams::parse::<HiddenDuel>(Some("crn=on")).unwrap().crn);
    assert!(!MctsParams::default().crn);
    let game = HiddenDuel::default();
    assert!(make_search_bot(&game, "greedy", None).is_none());
    assert!(make_search_bot(&game, "mcts", None).is_some_and(|b| b.is_ok()));
    assert!(make_search_bot(&game, "flatmc", Some("samples=3")).is_some_and(|b| b.is_ok()));
}

/// In the memory game the flips of never-seen positions form one class, every other action its
/// own; other games have no classes, and `classes` is off by default but in the memory game.
#[test]
fn the_memory_game_pools_never_seen_flips() {
    use crate::games::trafficars_memory::TrafficarsMemory;
    let game = TrafficarsMemory::from_options(2, &serde_json::Map::new()).unwrap();
    const { assert!(TrafficarsMemory::HAS_ACTION_CLASSES && !HiddenDuel::HAS_ACTION_CLASSES) };
    assert!(MctsParams::for_game::<TrafficarsMemory>().classes);
    assert!(!MctsParams::for_game::<HiddenDuel>().classes);
    let off = MctsParams::parse::<TrafficarsMemory>(Some("classes=off")).unwrap();
    assert!(!off.classes);
    let on = MctsParams::parse::<HiddenDuel>(Some("classes=on")).unwrap();
    assert!(on.classes);
    let mut rng = SplitMix64::new(3);
    let (mut legal, mut chance) = (Vec::new(), Vec::new());
    let mut st = game.initial_state();
    let mut checked = 0;
    while game.current_player(&st) != TERMINAL {
        if game.current_player(&st) == CHANCE {
            let o = game.sample_chance(&st, &mut rng, &mut chance);
            game.apply(&mut st, o);
            continue;
        }
        game.legal_actions(&st, &mut legal);
        let obs = game.observation(&st, 0);
        let seen = obs["seen"].as_array().unwrap();
        for &a in &legal {
            let class = TrafficarsMemory::search_class(&st, a);
            let never_seen = seen.get(a as usize).is_some_and(|v| v.is_null());
            if never_seen {
                assert_eq!(class, 64, "position {a}");
            } else {
                assert_eq!(class, a, "action {a}");
            }
            checked += 1;
        }
        let a = game.random_action(&st, &mut rng, &mut legal).unwrap();
        game.apply(&mut st, a);
    }
    assert!(checked > 100);
    // The search with classes plays whole games, deterministically for its seed.
    let play = || {
        let bots = vec!["mcts:iterations=100,classes=on".into(), "memory".into()];
        let config = crate::sim::SimConfig {
            threads: Some(1),
            ..crate::sim::SimConfig::new(2, 5, bots)
        };
        crate::sim::simulate(&game, &config, &|_| true)
            .unwrap()
            .scores
    };
    assert_eq!(play(), play());
}

#[test]
fn bad_parameters_are_rejected() {
    let game = HiddenDuel::default();
    let err = |name: &str, params: &str| match make_search_bot(&game, name, Some(params)) {
        Some(Err(EngineError::InvalidOption(m))) => m,
        Some(Err(e)) => panic!("{name}:{params}: wrong error {e:?}"),
        Some(Ok(_)) => panic!("{name}:{params} was accepted"),
        None => panic!("{name} unknown"),
    };
    for (name, params) in [
        ("mcts", ""),
        ("mcts", "iterations"),
        ("mcts", "iterations=0"),
        ("mcts", "iterations=-3"),
        ("mcts", "iterations=1e3"),
        ("mcts", "iterations=100000001"),
        ("mcts", "c=-1"),
        ("mcts", "c=nan"),
        ("mcts", "c=inf"),
        ("mcts", "c=x"),
        ("mcts", "rollout=smart"),
        ("mcts", "reward=score"),
        ("mcts", "prior=-1"),
        ("mcts", "prior=nan"),
        ("mcts", "classes=yes"),
        ("mcts", "samples=5"),
        ("mcts", "iterations=5,iterations=6"),
        ("mcts", "iterations=5,"),
        ("flatmc", "samples=0"),
        ("flatmc", "iterations=10"),
        ("flatmc", "rollout="),
        ("flatmc", "reward="),
    ] {
        let m = err(name, params);
        assert!(m.starts_with("hidden_duel: bot "), "{m}");
    }
    assert!(err("mcts", "depth=3").contains("unknown parameter \"depth\""));
}

#[test]
fn games_without_a_determinizer_are_refused() {
    let game = HiddenDuel::without_determinizer();
    for name in ["mcts", "flatmc"] {
        match make_search_bot(&game, name, None) {
            Some(Err(EngineError::InvalidOption(m))) => {
                assert!(m.contains("determinizer"), "{m}");
            }
            _ => panic!("{name} was not refused"),
        }
    }
}

#[test]
fn a_single_legal_action_is_taken_without_search() {
    let game = HiddenDuel::default();
    let mut b = bot(&game, "mcts");
    b.reset(&game, 0, SplitMix64::new(1));
    let st = decision_states(1)[0];
    assert_eq!(b.act(&game, &st, &[7]), 7);
}

#[test]
fn search_stats_describe_the_latest_decision() {
    let game = HiddenDuel::default();
    let st = decision_states(1)[0];
    let mut legal = Vec::new();
    game.legal_actions(&st, &mut legal);
    assert!(legal.len() > 1);
    for spec in ["mcts:iterations=300", "flatmc:samples=40"] {
        let mut b = bot(&game, spec);
        b.reset(&game, 0, SplitMix64::new(1));
        assert_eq!(b.search_stats(), None, "{spec} before deciding");
        let chosen = b.act(&game, &st, &legal);
        let stats = b.search_stats().unwrap();
        assert_eq!(stats.actions, legal, "{spec}");
        assert_eq!(stats.choices, legal, "{spec}: no classes here");
        assert_eq!(stats.chosen, chosen, "{spec}");
        assert_eq!(
            (stats.visits.len(), stats.values.len()),
            (legal.len(), legal.len())
        );
        for (&n, &v) in stats.visits.iter().zip(&stats.values) {
            assert!(
                n == 0 && v.is_nan() || n > 0 && (0.0..=1.0).contains(&v),
                "{spec}: {n} {v}"
            );
        }
        let i = legal.iter().position(|&a| a == chosen).unwrap();
        if spec.starts_with("mcts") {
            // Every iteration goes through one root edge; the most visited one is played.
            assert_eq!(stats.iterations, 300);
            assert_eq!(stats.visits.iter().sum::<u32>(), 300);
            assert_eq!(stats.visits[i], *stats.visits.iter().max().unwrap());
        } else {
            // Every sample plays every action once; the best mean is played.
            assert_eq!(stats.iterations, 40);
            assert!(stats.visits.iter().all(|&n| n == 40));
            let best = stats
                .values
                .iter()
                .copied()
                .fold(f64::NEG_INFINITY, f64::max);
            assert_eq!(stats.values[i], best);
        }
        // A new game forgets them, and a decision without search leaves none to describe.
        b.reset(&game, 0, SplitMix64::new(2));
        assert_eq!(b.search_stats(), None, "{spec} after a reset");
        b.act(&game, &st, &legal);
        assert!(b.search_stats().is_some());
        b.act(&game, &st, &[legal[0]]);
        assert_eq!(b.search_stats(), None, "{spec} after a forced move");
    }
    // Bots that do not search have none.
    let mut r = bot(&game, "random");
    r.reset(&game, 0, SplitMix64::new(1));
    r.act(&game, &st, &legal);
    assert_eq!(r.search_stats(), None);
}

#[test]
fn the_information_set_table_grows_without_changing_the_search() {
    let game = HiddenDuel::default();
    let params = MctsParams::parse::<HiddenDuel>(Some("iterations=20000")).unwrap();
    let search = |start: usize| {
        let mut b = super::mcts::IsmctsBot::new(&game, params)
            .unwrap()
            .with_table_start(start);
        b.reset(&game, 0, SplitMix64::new(9));
        let mut legal = Vec::new();
        let mut found = Vec::new();
        for st in decision_states(6) {
            game.legal_actions(&st, &mut legal);
            found.push((b.act(&game, &st, &legal), b.search_stats(), b.table_len()));
        }
        found
    };
    // From a table sized for every iteration, and from a small one that doubles as it fills.
    let (full, grown) = (search(1 << 20), search(16));
    assert!(
        full.iter().all(|f| f.2 == 1 << 17),
        "the full length for 20,000 iterations"
    );
    let lengths: Vec<usize> = grown.iter().map(|g| g.2).collect();
    // Early decisions (many hidden cards) grew it a lot, late ones not at all.
    assert!(lengths.iter().any(|&n| n >= 1 << 15), "{lengths:?}");
    assert!(lengths.contains(&16), "{lengths:?}");
    for (f, g) in full.iter().zip(&grown) {
        assert_eq!((f.0, &f.1), (g.0, &g.1));
    }
}

#[test]
fn an_interrupted_search_holds_only_what_it_explored() {
    let game = HiddenDuel::default();
    let params = MctsParams::parse::<HiddenDuel>(Some("iterations=100000000")).unwrap();
    let mut b = super::mcts::IsmctsBot::new(&game, params).unwrap();
    b.reset(&game, 0, SplitMix64::new(1));
    let st = decision_states(1)[0];
    let mut legal = Vec::new();
    game.legal_actions(&st, &mut legal);
    let stop = b.stop_flag().unwrap();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(200));
        stop.store(true, std::sync::atomic::Ordering::Release);
    });
    let chosen = b.act(&game, &st, &legal);
    stopper.join().unwrap();
    let stats = b.search_stats().unwrap();
    assert!(stats.iterations < 100_000_000 && stats.chosen == chosen);
    // A table sized for all the iterations asked for would have 2^29 entries (8 GiB).
    assert!(b.table_len() <= (stats.iterations as usize * 8).next_power_of_two());
}

#[test]
fn search_stats_share_a_class_between_its_actions() {
    use crate::games::trafficars_memory::TrafficarsMemory;
    let game = TrafficarsMemory::from_options(2, &serde_json::Map::new()).unwrap();
    let mut rng = SplitMix64::new(3);
    let (mut legal, mut chance) = (Vec::new(), Vec::new());
    let mut st = game.initial_state();
    while game.current_player(&st) == CHANCE {
        let o = game.sample_chance(&st, &mut rng, &mut chance);
        game.apply(&mut st, o);
    }
    let seat = game.current_player(&st) as usize;
    game.legal_actions(&st, &mut legal);
    let mut b = make_search_bot(&game, "mcts", Some("iterations=200,classes=on"))
        .unwrap()
        .unwrap();
    b.reset(&game, seat, SplitMix64::new(1));
    let chosen = b.act(&game, &st, &legal);
    let stats = b.search_stats().unwrap();
    assert_eq!(stats.actions, legal);
    assert!(legal.contains(&chosen));
    // Nothing is seen yet: every flip is the one class "a never-seen card", with every visit.
    assert!(stats.choices.iter().all(|&c| c == 64));
    assert!(stats.visits.iter().all(|&n| n == 200));
}

#[test]
fn the_bot_factory_makes_search_bots() {
    let game = HiddenDuel::default();
    let make = |spec: &str| crate::sim::make_bot(&game, spec);
    for spec in [
        "mcts",
        "mcts:iterations=20,c=1.2",
        "flatmc:samples=5,rollout=greedy",
    ] {
        assert!(make(spec).is_ok(), "{spec}");
    }
    for spec in ["mcts:iterations=0", "flatmc:bogus=1", "mcts:", "mcts2"] {
        assert!(
            matches!(make(spec), Err(EngineError::InvalidOption(_))),
            "{spec}"
        );
    }
    let Err(EngineError::InvalidOption(msg)) = make("nope") else {
        panic!("an unknown bot builds");
    };
    assert!(msg.contains("mcts") && msg.contains("flatmc"), "{msg}");
    let plain = HiddenDuel::without_determinizer();
    let Err(EngineError::InvalidOption(msg)) = crate::sim::make_bot(&plain, "nope") else {
        panic!("an unknown bot builds");
    };
    assert!(!msg.contains("mcts"), "{msg}");
    assert!(matches!(
        crate::sim::make_bot(&plain, "mcts"),
        Err(EngineError::InvalidOption(_))
    ));
}

#[test]
fn simulate_runs_search_bots_identically_on_any_thread_count() {
    let game = HiddenDuel::default();
    let run = |threads| {
        let bots = vec!["mcts:iterations=30".into(), "flatmc:samples=4".into()];
        let config = crate::sim::SimConfig {
            threads: Some(threads),
            ..crate::sim::SimConfig::new(12, 9, bots)
        };
        crate::sim::simulate(&game, &config, &|_| true).unwrap()
    };
    let one = run(1);
    assert_eq!(one.games_played, 12);
    assert_eq!(format!("{one:?}"), format!("{:?}", run(2)));
}

#[test]
fn a_resampled_session_keeps_the_observation_and_does_not_peek() {
    use crate::session::{AnySession, Session};
    use std::sync::Arc;
    let game = Arc::new(HiddenDuel::default());
    let mut checked = 0;
    for seed in 0..20 {
        let mut s = Session::new(Arc::clone(&game), Some(seed));
        let mut rng = SplitMix64::new(seed);
        let mut legal = Vec::new();
        while game.current_player(s.state()) != TERMINAL {
            let seat = game.current_player(s.state()) as usize;
            let sample = s.resample(seat as i64, seed).unwrap();
            assert_eq!(
                game.observation(sample.state(), seat),
                game.observation(s.state(), seat)
            );
            // A sample has no past: the real history would tell the hidden chance outcomes.
            assert!(sample.history().is_empty());
            // The sample of the sample is the sample of the real state (no peeking).
            let again = sample.resample(seat as i64, seed).unwrap();
            assert_eq!(
                again.state(),
                s.resample(seat as i64, seed).unwrap().state()
            );
            // Both play to the end; the sample's history is what was played on from it.
            let mut end = sample.clone();
            let mut played = Vec::new();
            while game.current_player(end.state()) != TERMINAL {
                game.legal_actions(end.state(), &mut legal);
                end.apply(i64::from(legal[0]), None).unwrap();
                played.push(legal[0]);
            }
            // Played on from the sample: its steps with the chance outcomes drawn between them.
            let mut steps = end.history().iter();
            assert!(played.iter().all(|a| steps.any(|h| h == a)));
            let a = game.random_action(s.state(), &mut rng, &mut legal).unwrap();
            s.apply(i64::from(a), None).unwrap();
            checked += 1;
        }
        assert!(matches!(
            s.resample(2, 0),
            Err(EngineError::IllegalAction(_))
        ));
    }
    assert!(checked > 100);
    let plain = Arc::new(HiddenDuel::without_determinizer());
    assert!(matches!(
        Session::new(plain, Some(1)).resample(0, 0),
        Err(EngineError::InvalidOption(_))
    ));
}

#[test]
fn margin_rewards_follow_wins_then_scores() {
    let game = HiddenDuel::default();
    let (mut wins, mut margins, mut scores) = ([0.0; 2], [0.0; 2], [0i64; 2]);
    let mut bots = vec![bot(&game, "random"), bot(&game, "random")];
    for g in 0..200 {
        let st = play(&game, &mut bots, derive_seed(5, g));
        win_shares(&game, &st, &mut wins);
        margin_rewards(&game, &st, &mut scores, &mut margins);
        for (&w, &m) in wins.iter().zip(&margins) {
            assert!(m > 0.0 && m < 1.0, "margin reward {m} out of (0, 1)");
            // Half the win share plus half a margin term in (0, 1).
            assert!(m > w / 2.0 && m < w / 2.0 + 0.5, "{m} vs win share {w}");
        }
        // Ordered by win share first, then by score.
        let key = |s: usize| (wins[s], scores[s]);
        assert_eq!(
            key(0).partial_cmp(&key(1)),
            margins[0].partial_cmp(&margins[1]),
            "game {g}: wins {wins:?}, scores {scores:?}, margins {margins:?}"
        );
    }
    let p = MctsParams::parse::<HiddenDuel>(Some("reward=margin")).unwrap();
    assert_eq!(p.reward, Reward::Margin);
    let p = FlatMcParams::parse::<HiddenDuel>(Some("reward=win")).unwrap();
    assert_eq!(p.reward, Reward::Win);
}

#[test]
fn a_prior_expands_the_heuristic_choice_first() {
    // With one iteration the only edge the root gets is the one expanded first: with a prior,
    // the heuristic bot's choice; so the decision is the `greedy` bot's on every state.
    let game = HiddenDuel::default();
    let mut legal = Vec::new();
    let (mut same, mut differ_without) = (0, 0);
    for (i, st) in decision_states(30).iter().enumerate() {
        game.legal_actions(st, &mut legal);
        if legal.len() < 2 {
            continue;
        }
        let seat = game.current_player(st) as usize;
        let choose = |spec: &str| {
            let mut b = bot(&game, spec);
            b.reset(&game, seat, SplitMix64::new(i as u64));
            b.act(&game, st, &legal)
        };
        let greedy = choose("greedy");
        assert_eq!(choose("mcts:iterations=1,prior=1"), greedy, "state {i}");
        same += 1;
        if choose("mcts:iterations=1") != greedy {
            differ_without += 1;
        }
    }
    assert!(same > 20, "only {same} decisions checked");
    assert!(
        differ_without > 0,
        "without a prior the first edge is drawn, not the heuristic's"
    );
    assert_eq!(
        MctsParams::parse::<HiddenDuel>(Some("prior=2.5"))
            .unwrap()
            .prior,
        2.5
    );
}

/// A seat-rotated match in the memory game, as `benches/ladder.py`'s `seat_rotated_share` plays
/// it (`MATCH_BOT` against `MATCH_FIELD`, `MATCH_GAMES` games, seed `MATCH_SEED`, `MATCH_PLAYERS`
/// players): prints the bot's win share, its 95% Wilson interval and the mean cards taken.
/// `cargo test --release -p cardtable-engine memory_match -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, minutes long"]
fn memory_match() {
    use crate::games::trafficars_memory::TrafficarsMemory;
    use crate::sim::{simulate, SimConfig, SHARE_DENOMINATOR};
    let var = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
    let bot = var("MATCH_BOT", "mcts:iterations=1000");
    let field = var("MATCH_FIELD", "memory");
    let games: u64 = var("MATCH_GAMES", "200").parse().unwrap();
    let seed: u64 = var("MATCH_SEED", "11").parse().unwrap();
    let players: usize = var("MATCH_PLAYERS", "2").parse().unwrap();
    let opts = var("MATCH_OPTIONS", "{}");
    let options: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&opts).unwrap();
    let game = TrafficarsMemory::from_options(players, &options).unwrap();
    let per_seat = (games / players as u64).max(1);
    let (mut share, mut own, mut other) = (0.0, 0.0, 0.0);
    for seat in 0..players {
        let bots = (0..players)
            .map(|s| {
                if s == seat {
                    bot.clone()
                } else {
                    field.clone()
                }
            })
            .collect();
        let config = SimConfig {
            threads: Some(1),
            keep_games: false,
            ..SimConfig::new(per_seat, seed + seat as u64, bots)
        };
        let r = simulate(&game, &config, &|_| true).unwrap();
        share += r.seats[seat].win_shares as f64 / SHARE_DENOMINATOR as f64;
        own += r.seats[seat].score_sum as f64;
        other += r.seats.iter().map(|s| s.score_sum as f64).sum::<f64>()
            - r.seats[seat].score_sum as f64;
    }
    let n = (per_seat * players as u64) as f64;
    let p = share / n;
    let z = 1.959_963_984_540_054f64;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    println!(
        "MATCH {bot} vs {field}: {p:.3} ({:.3}-{:.3}) over {n} games; cards {:.1} vs {:.1}",
        centre - half,
        centre + half,
        own / n,
        other / n / (players - 1) as f64
    );
}

#[test]
fn the_tensor_hash_skipping_zero_runs_is_the_plain_one() {
    fn plain(values: &[f32]) -> u64 {
        let mut h = 0x243f_6a88_85a3_08d3u64;
        for (i, &v) in values.iter().enumerate() {
            if v != 0.0 {
                h = (h ^ u64::from(v.to_bits()) ^ ((i as u64) << 32))
                    .wrapping_mul(0x9e37_79b9_7f4a_7c15);
                h ^= h >> 29;
            }
        }
        crate::rng::mix64(h)
    }
    let mut rng = SplitMix64::new(7);
    let mut seen = std::collections::HashSet::new();
    for len in 0..40 {
        for _ in 0..20 {
            let values: Vec<f32> = (0..len)
                .map(|_| match rng.below(5) {
                    0 => 1.0,
                    1 => -0.0,
                    2 => 0.5,
                    _ => 0.0,
                })
                .collect();
            let h = super::mcts::hash_tensor(&values);
            assert_eq!(h, plain(&values));
            // Tensors that differ in a non-zero entry (position or value) hash apart.
            let key: Vec<(usize, u32)> = values
                .iter()
                .enumerate()
                .filter(|(_, v)| **v != 0.0)
                .map(|(i, v)| (i, v.to_bits()))
                .collect();
            seen.insert((key, h));
        }
    }
    let hashes: std::collections::HashSet<u64> = seen.iter().map(|(_, h)| *h).collect();
    let tensors: std::collections::HashSet<&Vec<(usize, u32)>> =
        seen.iter().map(|(k, _)| k).collect();
    assert_eq!(hashes.len(), tensors.len());
}

#[test]
fn search_bot_usages_spell_every_parameter_key() {
    assert_eq!(SEARCH_BOT_USAGES.len(), SEARCH_BOTS.len());
    for ((usage, name), keys) in SEARCH_BOT_USAGES
        .iter()
        .zip(SEARCH_BOTS)
        .zip([super::flatmc::KEYS, super::mcts::KEYS])
    {
        let Some(params) = usage
            .strip_prefix(name)
            .and_then(|rest| rest.strip_prefix("[:"))
            .and_then(|rest| rest.strip_suffix(']'))
        else {
            panic!("{name} is spelled {usage:?}");
        };
        let spelled: Vec<&str> = params
            .split(',')
            .map(|pair| pair.split_once('=').map_or(pair, |(key, _)| key))
            .collect();
        assert_eq!(spelled, keys, "{usage}");
    }
}

/// Each game's `SEARCH_DEFAULTS` give the parameters its table row in `docs/search.md` names
/// (those the measurements there chose), and a game without any the generic defaults.
#[test]
fn each_game_searches_with_its_measured_defaults() {
    use crate::games::{
        deep_regrets::DeepRegrets, goofspiel::Goofspiel, trafficars::Trafficars,
        trafficars_memory::TrafficarsMemory, trafficars_overtaking::TrafficarsOvertaking,
        turn_the_tide::TurnTheTide,
    };
    let generic = MctsParams::default();
    let greedy = MctsParams {
        rollout: RolloutPolicy::Greedy,
        ..generic
    };
    assert_eq!(MctsParams::for_game::<TurnTheTide>(), generic);
    assert_eq!(MctsParams::for_game::<HiddenDuel>(), generic);
    assert_eq!(MctsParams::for_game::<Goofspiel>(), greedy);
    assert_eq!(MctsParams::for_game::<Trafficars>(), greedy);
    let rollout = MctsParams {
        opponents: Opponents::Rollout,
        ..greedy
    };
    assert_eq!(MctsParams::for_game::<DeepRegrets>(), rollout);
    let margin = |c| MctsParams {
        reward: Reward::Margin,
        c,
        ..rollout
    };
    assert_eq!(MctsParams::for_game::<TrafficarsOvertaking>(), margin(0.5));
    assert_eq!(
        MctsParams::for_game::<TrafficarsMemory>(),
        MctsParams {
            prior: 1.0,
            classes: true,
            widen: 0.01,
            crn: true,
            ..margin(0.3)
        }
    );
    assert_eq!(
        (generic.iterations, generic.c, generic.prior, generic.widen),
        (1000, 0.7, 0.0, 0.0)
    );
}
