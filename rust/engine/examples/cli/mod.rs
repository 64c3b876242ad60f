//! Command-line parsing shared by the examples: for the instruction-counting ones (`perf`,
//! `search_perf`) positional numbers and trailing `name=value` game options, for the timing ones
//! (`sim_speed`, `vector_speed`) a game and numbers that fall back to defaults, and the same
//! trailing options.

// Each example uses only its part.
#![allow(dead_code)]

use cardtable_engine::{make, AnyGame, SimConfig};
use serde_json::{Map, Value};

/// Prints `message` after the program's name and exits with status 2.
pub fn fail(message: &str) -> ! {
    let program = std::env::args().next().unwrap_or_default();
    let name = std::path::Path::new(&program)
        .file_stem()
        .map_or_else(|| program.clone(), |s| s.to_string_lossy().into_owned());
    eprintln!("{name}: {message}");
    std::process::exit(2);
}

/// Prints `line` and a newline on standard output. Output closed early (`... | head -1`) ends
/// the program quietly with status 0, as it ends the usual command-line tools, instead of a panic.
pub fn say(line: impl std::fmt::Display) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        fail(&format!("cannot write the output: {e}"));
    }
}

/// Parses the positional argument `arg`, named `what` in the error.
pub fn number<T: std::str::FromStr>(arg: &str, what: &str) -> T {
    arg.parse()
        .unwrap_or_else(|_| fail(&format!("{what} must be an integer")))
}

/// Game options from `name=value` pairs: integers where they parse, otherwise strings.
pub fn options(pairs: &[String]) -> Map<String, Value> {
    let mut options = Map::new();
    for pair in pairs {
        let Some((name, value)) = pair.split_once('=') else {
            fail(&format!("option {pair:?} is not name=value"));
        };
        let value = value
            .parse::<i64>()
            .map_or_else(|_| Value::from(value), Value::from);
        options.insert(name.to_string(), value);
    }
    options
}

/// Positional argument `index` (the program's name is 0) as a number, or `default` where it is
/// missing or does not parse.
pub fn number_or<T: std::str::FromStr>(args: &[String], index: usize, default: T) -> T {
    args.get(index)
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// The game id of positional argument 1 (default `turn_the_tide`) and that game for the
/// players of argument 2 (default 4) with the `name=value` options among the arguments (the
/// defaults for the others); exits where it cannot be made.
pub fn game_or_default(args: &[String]) -> (&str, Box<dyn AnyGame>) {
    let id = args.get(1).map_or("turn_the_tide", String::as_str);
    let players: i64 = number_or(args, 2, 4);
    let pairs: Vec<String> = args
        .iter()
        .skip(1)
        .filter(|a| a.contains('='))
        .cloned()
        .collect();
    let game = make(id, players, &options(&pairs)).unwrap_or_else(|e| fail(&e.to_string()));
    (id, game)
}

/// The batch runner's set-up of the timing examples: `games` games from game 0 of seed 0, with
/// `random` in every seat of `game`, on `threads` threads, keeping no per-game results.
pub fn all_random(game: &dyn AnyGame, games: u64, threads: usize) -> SimConfig {
    SimConfig {
        games,
        first_game: 0,
        seed: 0,
        threads: Some(threads),
        bots: vec!["random".to_string(); game.players()],
        keep_games: false,
    }
}
