//! Games per second of random play in the batch runner, for profiling:
//! `cargo run --release --example sim_speed -- <game_id> <players> <games> [threads]
//! [name=value ...]`.

use std::time::Instant;

mod cli;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (game_id, game) = cli::game_or_default(&args);
    let games: u64 = cli::number_or(&args, 3, 100_000);
    let threads: usize = cli::number_or(&args, 4, 1);
    let config = cli::all_random(&*game, games, threads);
    let start = Instant::now();
    match game.simulate(&config, &|_| true) {
        Ok(r) => {
            let secs = start.elapsed().as_secs_f64();
            cli::say(format_args!(
                "{game_id}: {} games in {secs:.3} s = {:.0} games/s, {:.0} decisions/s, {:.0} chance steps/s",
                r.games_played,
                r.games_played as f64 / secs,
                r.decisions as f64 / secs,
                r.chance_steps as f64 / secs
            ));
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
