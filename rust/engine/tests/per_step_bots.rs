//! A built-in bot seated through [`AnyGame::bot`] and driven step by step on a seeded session
//! plays exactly the games of the batch runner ([`AnyGame::simulate`]), with the seeds of
//! `docs/rng.md`: every game and built-in bot (those with memory are the search bots and the memory
//! game's), whether the loop lets the bots observe after every step or only just before each of
//! their decisions. A seeded session resolves its
//! chance nodes inside `apply`, so the bot handle must show an observing bot the states in
//! between itself, as the batch runner does.

use cardtable_engine::{derive_seed, games, make, AnyGame, SimConfig, TERMINAL};
use serde_json::Map;

/// Scores of game `g` of a run with `seed`, played with per-step bots that observe after every
/// step (`every_step`) or only just before each of their decisions.
fn per_step_scores(
    game: &dyn AnyGame,
    bots: &[String],
    seed: u64,
    g: u64,
    every_step: bool,
) -> Vec<i64> {
    let game_seed = derive_seed(seed, g);
    let mut session = game.new_session(Some(game_seed));
    let mut seated: Vec<_> = bots
        .iter()
        .enumerate()
        .map(|(p, name)| {
            game.bot(name, p, derive_seed(game_seed, p as u64 + 1))
                .expect("a registered bot")
        })
        .collect();
    while session.current_player() != TERMINAL {
        let seat = usize::try_from(session.current_player()).expect("a seat after seeded chance");
        if !every_step {
            seated[seat].observe(&*session).expect("the bot's own game");
        }
        let action = seated[seat]
            .act(&*session)
            .expect("the bot's own game and turn");
        session
            .apply(i64::from(action), None)
            .expect("a bot plays a legal action");
        if every_step {
            for bot in &mut seated {
                bot.observe(&*session).expect("the bot's own game");
            }
        }
    }
    session.scores()
}

#[test]
fn per_step_bots_play_the_batch_runner_games() {
    let seed = 21;
    let count = 3u64;
    for info in games() {
        let game = make(info.id, info.players.0 as i64, &Map::new()).expect("default options");
        let n = game.players();
        let heuristic: Vec<&str> = info
            .bots
            .iter()
            .copied()
            .filter(|b| *b != "random")
            .collect();
        let mut lineups: Vec<Vec<String>> = Vec::new();
        if !info.search_bots.is_empty() {
            let mut lineup = vec!["random".to_string(); n];
            lineup[0] = "mcts:iterations=6".into();
            lineup[n - 1] = "mcts:iterations=3,opponents=rollout".into();
            lineups.push(lineup);
        }
        for bot in heuristic {
            lineups.push(vec![bot.to_string(); n]);
        }
        for bots in lineups {
            let config = SimConfig {
                threads: Some(1),
                ..SimConfig::new(count, seed, bots.clone())
            };
            let run = game.simulate(&config, &|_| true).expect("a valid run");
            for g in 0..count {
                let start = (g as usize) * n;
                let expected: Vec<i64> = run.scores[start..start + n]
                    .iter()
                    .map(|&s| i64::from(s))
                    .collect();
                for every_step in [true, false] {
                    assert_eq!(
                        per_step_scores(&*game, &bots, seed, g, every_step),
                        expected,
                        "{} {bots:?} game {g} (observing after every step: {every_step})",
                        info.id
                    );
                }
            }
        }
    }
}
