//! The vector env's tests: determinism, autoreset, the seeded games, observations on demand,
//! illegal actions, configurations, rewards and the sessions of `states()`.

use super::*;
use crate::registry;
use crate::session::AnyGame;
use serde_json::Map;

fn config(num_envs: usize, seed: u64, agent_seats: Vec<usize>, players: usize) -> VectorConfig {
    let others = players - agent_seats.len();
    VectorConfig {
        num_envs,
        seed,
        agent_seats,
        opponents: vec!["random".to_string(); others],
        reward: RewardKind::Win,
        threads: Some(2),
        rotate_seats: false,
        keep_histories: true,
    }
}

/// Every registered game with its fewest players and default options.
fn smallest_tables() -> impl Iterator<Item = (registry::GameInfo, Box<dyn AnyGame>)> {
    registry::games().into_iter().map(|info| {
        let game = registry::make(info.id, info.players.0 as i64, &Map::new()).unwrap();
        (info, game)
    })
}

/// Random legal actions from the masks (0 for envs without a legal action).
fn pick(rng: &mut SplitMix64, out: &StepOutput, actions: usize) -> Vec<i64> {
    out.mask
        .chunks(actions)
        .map(|m| {
            let legal: Vec<usize> = (0..m.len()).filter(|&a| m[a]).collect();
            if legal.is_empty() {
                0
            } else {
                legal[rng.below(legal.len() as u64) as usize] as i64
            }
        })
        .collect()
}

fn run(id: &str, players: i64, steps: usize) -> Vec<StepOutput> {
    let game = registry::make(id, players, &Map::new()).unwrap();
    let n = game.players();
    let mut env = game.vector_env(config(40, 9, (0..n).collect(), n)).unwrap();
    let mut out = env.output();
    env.reset(None, &mut out).unwrap();
    let mut rng = SplitMix64::new(3);
    let mut all = Vec::new();
    for _ in 0..steps {
        let actions = pick(&mut rng, &out, game.num_actions() as usize);
        all.push(out);
        out = env.output();
        env.step(&actions, &mut out).unwrap();
    }
    all.push(out);
    all
}

#[test]
fn runs_are_deterministic_and_end_games() {
    for info in registry::games() {
        let players = info.players.0 as i64;
        let a = run(info.id, players, 60);
        let b = run(info.id, players, 60);
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.obs, y.obs, "{}", info.id);
            assert_eq!(x.mask, y.mask);
            assert_eq!(x.all_rewards, y.all_rewards);
            assert_eq!(x.terminated, y.terminated);
            assert_eq!(x.seat, y.seat);
        }
        for out in &a {
            for (i, &t) in out.terminated.iter().enumerate() {
                let row = &out.all_rewards[i * players as usize..(i + 1) * players as usize];
                if t {
                    assert!(row.iter().all(|&r| r == -1.0 || r == 0.0 || r == 1.0));
                    assert!(row.iter().any(|&r| r >= 0.0), "someone wins");
                    assert_eq!(out.rewards[i], row[out.seat[i] as usize]);
                } else {
                    assert!(row.iter().all(|&r| r == 0.0));
                    assert_eq!(out.rewards[i], 0.0);
                }
            }
        }
    }
}

#[test]
fn autoreset_starts_the_next_game_on_the_next_step() {
    let all = run("goofspiel", 2, 80);
    let mut resets = 0;
    for w in all.windows(2) {
        for i in 0..w[0].terminated.len() {
            assert_eq!(w[1].autoreset[i], w[0].terminated[i]);
            if w[0].terminated[i] {
                resets += 1;
                assert_eq!(w[1].episode[i], w[0].episode[i] + 1);
                assert!(!w[1].terminated[i]);
                assert_eq!(w[1].rewards[i], 0.0);
            }
        }
    }
    assert!(resets > 0);
}

#[test]
fn env_games_are_the_seeded_sessions() {
    let game = registry::make("turn_the_tide", 3, &Map::new()).unwrap();
    let mut env = game.vector_env(config(3, 21, vec![0, 1, 2], 3)).unwrap();
    let mut out = env.output();
    env.reset(None, &mut out).unwrap();
    let size = env.observation_size();
    let mut sessions: Vec<_> = (0..3)
        .map(|i| game.new_session(Some(derive_seed(derive_seed(21, i), 0))))
        .collect();
    let mut rng = SplitMix64::new(1);
    let mut buf = vec![0.0; size];
    for _ in 0..30 {
        for (i, s) in sessions.iter().enumerate() {
            let seat = out.seat[i];
            assert_eq!(i64::from(s.current_player()), seat);
            s.observation_tensor(seat, &mut buf).unwrap();
            assert_eq!(buf, out.obs[i * size..(i + 1) * size]);
        }
        let actions = pick(&mut rng, &out, 61);
        for (s, &a) in sessions.iter_mut().zip(&actions) {
            s.apply(a, None).unwrap();
        }
        out = env.output();
        env.step(&actions, &mut out).unwrap();
    }
}

/// Each env's session replays from its history (with the opening dealt in one call by the
/// env drawn again), shows the env's observation, and, seeded with the env's stream, plays
/// on as the env does.
#[test]
fn sessions_replay_and_play_on_as_the_env() {
    for (info, game) in smallest_tables() {
        let (n, actions) = (game.players(), game.num_actions() as usize);
        let size = game.observation_shape().iter().product();
        let mut tensor = vec![0.0; size];
        // Seat 0 against built-in bots (whose decisions the history holds), and every seat.
        for agents in [vec![0], (0..n).collect()] {
            let mut env = game.vector_env(config(6, 13, agents.clone(), n)).unwrap();
            let envs: Vec<usize> = (0..6).collect();
            let mut out = env.output();
            assert!(matches!(
                env.sessions(&[0]),
                Err(EngineError::InvalidState(_))
            ));
            env.reset(None, &mut out).unwrap();
            assert!(matches!(
                env.sessions(&[6]),
                Err(EngineError::InvalidOption(_))
            ));
            let mut rng = SplitMix64::new(4);
            let mut before = env.sessions(&envs).unwrap();
            for _ in 0..60 {
                for (i, s) in before.iter().enumerate() {
                    let json = s.to_json();
                    let back = game.session_from_json(&json).unwrap();
                    assert_eq!(back.to_json(), json, "{}", info.id);
                    s.observation_tensor(out.seat[i], &mut tensor).unwrap();
                    assert_eq!(env.observe(&[i], None).unwrap(), tensor, "{}", info.id);
                }
                let chosen = pick(&mut rng, &out, actions);
                let ended = out.terminated.clone();
                env.step(&chosen, &mut out).unwrap();
                let after = env.sessions(&envs).unwrap();
                if agents.len() == n {
                    for (i, s) in before.iter_mut().enumerate().filter(|(i, _)| !ended[*i]) {
                        s.apply(chosen[i], None).unwrap();
                        assert_eq!(s.to_json(), after[i].to_json(), "{}", info.id);
                    }
                }
                before = after;
            }
        }
    }
}

#[test]
fn buffers_without_observations_and_observe_into_give_the_same_values() {
    for (info, game) in smallest_tables() {
        let (n, actions) = (game.players(), game.num_actions() as usize);
        let mut full = game.vector_env(config(40, 5, (0..n).collect(), n)).unwrap();
        let mut lazy = game.vector_env(config(40, 5, (0..n).collect(), n)).unwrap();
        let (mut a, mut b) = (full.output(), lazy.try_output_with(false).unwrap());
        assert!(b.obs.is_empty());
        full.reset(None, &mut a).unwrap();
        lazy.reset(None, &mut b).unwrap();
        let size = full.observation_size();
        let envs: Vec<usize> = (0..40).collect();
        let mut rng = SplitMix64::new(2);
        for _ in 0..50 {
            assert_eq!(a.mask, b.mask, "{}", info.id);
            assert_eq!(a.all_rewards, b.all_rewards);
            assert_eq!(a.seat, b.seat);
            assert_eq!(lazy.observe(&envs, None).unwrap(), a.obs, "{}", info.id);
            let chosen = pick(&mut rng, &a, actions);
            full.step(&chosen, &mut a).unwrap();
            lazy.step(&chosen, &mut b).unwrap();
        }
        let seats: Vec<usize> = (0..40).map(|i| i % n).collect();
        let mut one = vec![0.0; size];
        for (i, &seat) in seats.iter().enumerate().take(5) {
            lazy.observe_into(&[i], Some(&[seat]), &mut one).unwrap();
            let all = lazy.observe(&envs, Some(&seats)).unwrap();
            assert_eq!(one, all[i * size..(i + 1) * size]);
        }
        assert!(lazy.observe(&[40], None).is_err());
        assert!(lazy.observe(&[0], Some(&[n])).is_err());
        assert!(lazy.observe(&[0, 1], Some(&[0])).is_err());
        assert!(lazy.observe_into(&[0], None, &mut [0.0; 1]).is_err() || size == 1);
    }
}

#[test]
fn illegal_actions_change_nothing() {
    let game = registry::make("goofspiel", 2, &Map::new()).unwrap();
    let mut env = game.vector_env(config(2, 0, vec![0], 2)).unwrap();
    let mut out = env.output();
    assert!(env.step(&[0, 0], &mut out).is_err(), "step before reset");
    env.reset(Some(4), &mut out).unwrap();
    let legal =
        |out: &StepOutput, i: usize| (0..13).find(|&a| out.mask[i * 13 + a]).unwrap() as i64;
    let good = [legal(&out, 0), legal(&out, 1)];
    assert!(matches!(
        env.step(&[good[0], 99], &mut env.output()),
        Err(EngineError::IllegalAction(_))
    ));
    assert!(env.step(&[good[0]], &mut env.output()).is_err());
    assert!(env.step(&[-1, good[1]], &mut env.output()).is_err());
    let mut after = env.output();
    env.step(&good, &mut after).unwrap();
    let mut fresh = game.vector_env(config(2, 0, vec![0], 2)).unwrap();
    let mut expected = fresh.output();
    fresh.reset(Some(4), &mut expected).unwrap();
    fresh.step(&good, &mut expected).unwrap();
    assert_eq!(after.obs, expected.obs);
}

#[test]
fn bad_configurations_are_rejected() {
    let game = registry::make("turn_the_tide", 4, &Map::new()).unwrap();
    let bad = |c: VectorConfig| matches!(game.vector_env(c), Err(EngineError::InvalidOption(_)));
    assert!(bad(config(0, 0, vec![0], 4)));
    assert!(bad(config(1, 0, vec![], 4)));
    assert!(bad(config(1, 0, vec![4], 4)));
    let mut c = config(1, 0, vec![0, 0], 4);
    c.opponents.pop();
    assert!(bad(c));
    let mut c = config(1, 0, vec![0], 4);
    c.opponents.pop();
    assert!(bad(c));
    let mut c = config(1, 0, vec![0], 4);
    c.opponents[0] = "nobody".into();
    assert!(bad(c));
    let mut c = config(1, 0, vec![0], 4);
    c.threads = Some(0);
    assert!(bad(c));
    assert!(RewardKind::parse("points").is_err());
}

#[test]
fn score_rewards_favour_the_best_seat() {
    let game = registry::make("trafficars", 3, &Map::new()).unwrap();
    let mut c = config(16, 2, vec![0, 1, 2], 3);
    c.reward = RewardKind::Score;
    let mut env = game.vector_env(c).unwrap();
    let mut out = env.output();
    env.reset(None, &mut out).unwrap();
    let mut rng = SplitMix64::new(8);
    let mut seen = 0;
    for _ in 0..200 {
        let actions = pick(&mut rng, &out, 115);
        out = env.output();
        env.step(&actions, &mut out).unwrap();
        for i in 0..16 {
            if !out.terminated[i] {
                assert_eq!(out.scores[i * 3..i * 3 + 3], [0, 0, 0]);
            }
            if out.terminated[i] {
                seen += 1;
                let row = &out.all_rewards[i * 3..i * 3 + 3];
                // At most one seat beats all others; a positive margin means a sole winner.
                assert!(row.iter().filter(|&&r| r > 0.0).count() <= 1);
                // The step's final scores (fewer is better here).
                let scores = &out.scores[i * 3..i * 3 + 3];
                for (s, &r) in row.iter().enumerate() {
                    let best_other = (0..3).filter(|&q| q != s).map(|q| -scores[q]).max();
                    assert_eq!(r, (-scores[s] - best_other.unwrap()) as f32);
                }
            }
        }
    }
    assert!(seen > 0);
}
