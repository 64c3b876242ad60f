//! Plays a number of games through the public batch API on one thread and prints what it played,
//! for instruction counting under callgrind (`benches/perf.py`, `make perf`):
//!
//! ```text
//! cargo run --release --example perf -- <game> <players> <games> <bot,bot,...> [name=value ...]
//! cargo run --release --example perf -- --bots <game>
//! ```
//!
//! The first form prints one JSON object: games played, decisions and chance steps. A single bot
//! name is given to every seat. Options are integers or, failing that, strings. The second form
//! prints the game's built-in bots (`random` first) as a JSON list.

use cardtable_engine::{games, make, SimConfig};
use serde_json::json;

mod cli;
use cli::fail;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--bots") {
        let id = args.get(1).map_or("", String::as_str);
        match games().into_iter().find(|g| g.id == id) {
            Some(info) => cli::say(format_args!("{}", json!(info.bots))),
            None => fail(&format!("unknown game {id:?}")),
        }
        return;
    }
    if args.len() < 4 {
        fail("usage: perf <game> <players> <games> <bot,bot,...> [name=value ...] | --bots <game>");
    }
    let players: i64 = cli::number(&args[1], "players");
    let count: u64 = cli::number(&args[2], "games");
    let options = cli::options(&args[4..]);
    let game = make(&args[0], players, &options).unwrap_or_else(|e| fail(&e.to_string()));
    let mut bots: Vec<String> = args[3].split(',').map(str::to_string).collect();
    if bots.len() == 1 {
        bots = vec![bots[0].clone(); game.players()];
    }
    let config = SimConfig {
        games: count,
        first_game: 0,
        seed: 0,
        threads: Some(1),
        bots,
        keep_games: false,
    };
    let result = game
        .simulate(&config, &|_| true)
        .unwrap_or_else(|e| fail(&e.to_string()));
    cli::say(format_args!(
        "{}",
        json!({
            "games": result.games_played,
            "decisions": result.decisions,
            "chance_steps": result.chance_steps,
        })
    ));
}
