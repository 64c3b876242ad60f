//! Makes a number of `mcts` decisions (or plain random playouts) on one thread and prints what
//! they played, for instruction counting under callgrind (`benches/search_perf.py`,
//! `make search-perf`):
//!
//! ```text
//! cargo run --release --example search_perf -- <game> <players> <decisions> <spec> [name=value ...]
//! ```
//!
//! The decision states are the decision a third into each of `decisions` seeded random games
//! (seeds `0..decisions`, [`testing::playout_nodes`]), so a run with more decisions plays the
//! states of a run with fewer and then some. `spec` is
//! - `mcts[:params]` (see [`cardtable_engine::search`]): the search bot decides each state for the
//!   seat to move (reset with seed `i` for the `i`-th state);
//! - `playouts:N`: `N` plain random playouts of determinizations of each state for the seat to
//!   move, played by [`Game::random_playout`] (the batch runner's loop), for scale.
//!
//! Prints one JSON object: decisions, iterations (`mcts`, with its `rollout` and `opponents`
//! policies) or playouts, and the steps the playouts played (decisions and chance steps; for
//! `mcts` [`IsmctsBot::playout_steps`], and apart from them the steps of its walks down the
//! tree, [`IsmctsBot::walk_steps`]).
//! Options are integers or, failing that, strings.

use cardtable_engine::search::{IsmctsBot, MctsParams};
use cardtable_engine::{testing, Bot, Game, SplitMix64, TERMINAL};
use serde_json::{json, Map, Value};

mod cli;
use cli::fail;

/// The decision a third into each of `count` seeded random games.
fn decision_states<G: Game>(game: &G, count: u64) -> Vec<G::State> {
    (0..count)
        .map(|seed| {
            let decisions: Vec<G::State> = testing::playout_nodes(game, seed)
                .into_iter()
                .map(|(_, state)| state)
                .filter(|state| game.current_player(state) >= 0)
                .collect();
            decisions
                .get(decisions.len() / 3)
                .cloned()
                .unwrap_or_else(|| fail(&format!("game {seed} has no decision")))
        })
        .collect()
}

/// Plays `spec` on the decision states of `decisions` games of `game`; the JSON to print.
fn run<G: Game>(game: &G, decisions: u64, spec: &str) -> Value {
    let states = decision_states(game, decisions);
    let mut legal = Vec::new();
    let (name, params) = match spec.split_once(':') {
        Some((name, params)) => (name, Some(params)),
        None => (spec, None),
    };
    match name {
        "mcts" => {
            let params = MctsParams::parse::<G>(params).unwrap_or_else(|e| fail(&e.to_string()));
            let mut bot = IsmctsBot::new(game, params).unwrap_or_else(|e| fail(&e.to_string()));
            for (i, state) in states.iter().enumerate() {
                let seat = game.current_player(state) as usize;
                bot.reset(game, seat, SplitMix64::new(i as u64));
                game.legal_actions(state, &mut legal);
                bot.act(game, state, &legal);
            }
            json!({
                "decisions": states.len(),
                "iterations": u64::from(params.iterations) * states.len() as u64,
                "playout_steps": bot.playout_steps(),
                "walk_steps": bot.walk_steps(),
                "rollout": format!("{:?}", params.rollout).to_lowercase(),
                "opponents": format!("{:?}", params.opponents).to_lowercase(),
            })
        }
        "playouts" => {
            let per_state: u64 = params
                .and_then(|p| p.parse().ok())
                .unwrap_or_else(|| fail("playouts:N needs a number N"));
            let mut rng = SplitMix64::new(1);
            let mut seats: Vec<SplitMix64> = (0..game.players())
                .map(|s| SplitMix64::new(s as u64))
                .collect();
            let mut outcomes = Vec::new();
            let mut steps = 0u64;
            for _ in 0..per_state {
                for state in &states {
                    let seat = game.current_player(state) as usize;
                    let Some(mut s) = game.determinize(state, seat, &mut rng) else {
                        fail(&format!("{} has no determinizer", G::ID));
                    };
                    let (d, c) = game
                        .random_playout(&mut s, &mut rng, &mut seats, &mut legal, &mut outcomes)
                        .unwrap_or_else(|e| fail(&format!("{e:?}")));
                    debug_assert_eq!(game.current_player(&s), TERMINAL);
                    steps += u64::from(d) + u64::from(c);
                }
            }
            json!({
                "decisions": states.len(),
                "playouts": per_state * states.len() as u64,
                "playout_steps": steps,
            })
        }
        _ => fail(&format!(
            "spec {spec:?} is neither mcts[:params] nor playouts:N"
        )),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 {
        fail("usage: search_perf <game> <players> <decisions> <spec> [name=value ...]");
    }
    let players: usize = cli::number(&args[1], "players");
    let decisions: u64 = cli::number(&args[2], "decisions");
    let options = cli::options(&args[4..]);
    fn go<G: Game>(players: usize, options: &Map<String, Value>, n: u64, spec: &str) -> Value {
        let game = G::from_options(players, options).unwrap_or_else(|e| fail(&e.to_string()));
        run(&game, n, spec)
    }
    let (id, spec) = (args[0].as_str(), args[3].as_str());
    // Every registered game, by its id.
    macro_rules! by_id {
        ($($game:path),*) => {
            $(
                if id == <$game>::ID {
                    return go::<$game>(players, &options, decisions, spec);
                }
            )*
        };
    }
    let play = || -> Value {
        cardtable_engine::for_each_registered_game!(by_id);
        fail(&format!("unknown game {id:?}"))
    };
    let out = play();
    cli::say(format_args!("{out}"));
}
