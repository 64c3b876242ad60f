//! Games per second of random play in Goofspiel (13 cards) through the batch simulator on one
//! thread: `cargo run --release -p cardtable-engine --example goofspiel_speed [games]`.

use cardtable_engine::games::goofspiel::Goofspiel;
use cardtable_engine::sim::simulate;
use cardtable_engine::{Game, SimConfig};
use serde_json::{json, Map};
use std::time::Instant;

mod cli;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let games: u64 = match std::env::args().nth(1) {
        Some(a) => a.parse()?,
        None => 2_000_000,
    };
    let mut options = Map::new();
    options.insert("num_cards".into(), json!(13));
    let game = Goofspiel::from_options(2, &options)?;
    let config = SimConfig {
        games,
        first_game: 0,
        seed: 1,
        threads: Some(1),
        bots: vec!["random".into(), "random".into()],
        keep_games: false,
    };
    // Warm-up, then the timed run.
    simulate(
        &game,
        &SimConfig {
            games: games / 20 + 1,
            ..config.clone()
        },
        &|_| true,
    )?;
    let start = Instant::now();
    let result = simulate(&game, &config, &|_| true)?;
    let secs = start.elapsed().as_secs_f64();
    let steps = result.decisions + result.chance_steps;
    cli::say(format_args!(
        "goofspiel(num_cards=13), random vs random, 1 thread: {} games in {secs:.3} s = {:.0} games/s \
         ({:.1} M steps/s)",
        result.games_played,
        result.games_played as f64 / secs,
        steps as f64 / secs / 1e6
    ));
    Ok(())
}
