//! Speed of the search players on one thread, on the hidden-duel toy game: iterations (or
//! playouts) per second and decisions per second of `mcts` and `flatmc`, next to plain random
//! playouts for scale.
//! `cargo run --release -p cardtable-engine --example search_speed [decisions]`.

use cardtable_engine::search::make_search_bot;
use cardtable_engine::search::toy::{DuelState, HiddenDuel};
use cardtable_engine::{testing, Game, SplitMix64};
use std::time::Instant;

mod cli;

/// Decision states with more than one legal action, reached by random play
/// ([`testing::playout_nodes`] of seeds 0, 1, ...).
fn positions(game: &HiddenDuel, count: usize) -> Vec<DuelState> {
    let mut legal = Vec::new();
    (0..)
        .flat_map(|seed| testing::playout_nodes(game, seed))
        .map(|(_, state)| state)
        .filter(|state| {
            game.current_player(state) >= 0 && {
                game.legal_actions(state, &mut legal);
                legal.len() > 1
            }
        })
        .take(count)
        .collect()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let decisions: usize = match std::env::args().nth(1) {
        Some(a) => a.parse()?,
        None => 2_000,
    };
    let game = HiddenDuel::default();
    let states = positions(&game, decisions);

    // Random playouts from the same positions (the batch runner's loop), for scale.
    let mut rng = SplitMix64::new(1);
    let mut seats = [SplitMix64::new(2), SplitMix64::new(3)];
    let (mut legal, mut chance) = (Vec::new(), Vec::new());
    let (mut playouts, mut steps) = (0u64, 0u64);
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < 1.0 {
        for st in &states {
            let mut s = *st;
            let (decisions, chance_steps) = game
                .random_playout(&mut s, &mut rng, &mut seats, &mut legal, &mut chance)
                .map_err(|e| format!("{e:?}"))?;
            steps += u64::from(decisions) + u64::from(chance_steps);
            playouts += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    cli::say(format_args!(
        "random playouts            {:>12.0} playouts/s  {:>12.0} steps/s",
        playouts as f64 / secs,
        steps as f64 / secs
    ));

    for (name, params, budget) in [
        ("mcts", "iterations=1000,rollout=random", 1000u64),
        ("mcts", "iterations=1000,rollout=greedy", 1000),
        ("flatmc", "samples=100,rollout=random", 100),
        ("flatmc", "samples=100,rollout=greedy", 100),
    ] {
        let Some(made) = make_search_bot(&game, name, Some(params)) else {
            return Err(format!("unknown search bot {name}").into());
        };
        let mut bot = made?;
        bot.reset(&game, 0, SplitMix64::new(7));
        let mut work = 0u64;
        let start = Instant::now();
        for st in &states {
            game.legal_actions(st, &mut legal);
            bot.act(&game, st, &legal);
            // mcts: iterations per decision; flatmc: samples per legal action.
            work += if name == "mcts" {
                budget
            } else {
                budget * legal.len() as u64
            };
        }
        let secs = start.elapsed().as_secs_f64();
        let unit = if name == "mcts" {
            "iterations/s"
        } else {
            "playouts/s"
        };
        cli::say(format_args!(
            "{name}:{params:<32} {:>12.0} {unit:<12} {:>10.1} decisions/s",
            work as f64 / secs,
            states.len() as f64 / secs
        ));
    }
    Ok(())
}
