//! Agent decisions per second of a `VectorEnv` with every seat an agent and random legal actions,
//! for profiling: `cargo run --release --example vector_speed -- <game_id> <players> <envs> <steps>
//! [threads] [reuse] [no-obs] [name=value ...]` (the words `reuse` and `no-obs` anywhere after
//! the numbers, game options last). Prints the time spent in `step` and, separately, in
//! allocating the output buffers (none with `reuse`: every step writes into the same buffers, as
//! `reuse_buffers=True`). With `no-obs` the step writes no observation tensors, as
//! `observations=False` does. Then times the batch runner with `random` in every seat on the same
//! thread count and prints the step's time per decision over the batch runner's: the engine's
//! share of the `VectorEnv` ratio that `benches/policy.py` times through Python.

use cardtable_engine::vector::{RewardKind, VectorConfig};
use cardtable_engine::{AnyGame, SplitMix64};
use std::time::{Duration, Instant};

mod cli;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (game_id, game) = cli::game_or_default(&args);
    let envs: usize = cli::number_or(&args, 3, 1024);
    let steps: usize = cli::number_or(&args, 4, 1000);
    let threads: usize = cli::number_or(&args, 5, 1);
    let reuse = args.iter().skip(5).any(|s| s == "reuse");
    let observations = !args.iter().skip(5).any(|s| s == "no-obs");
    let run = || -> cardtable_engine::Result<()> {
        let n = game.players();
        let actions = game.num_actions() as usize;
        let mut env = game.vector_env(VectorConfig {
            num_envs: envs,
            seed: 0,
            agent_seats: (0..n).collect(),
            opponents: Vec::new(),
            reward: RewardKind::Win,
            threads: Some(threads),
            rotate_seats: false,
            keep_histories: false,
        })?;
        let mut out = env.try_output_with(observations)?;
        env.reset(None, &mut out)?;
        let mut rng = SplitMix64::new(1);
        let (mut alloc, mut step) = (Duration::ZERO, Duration::ZERO);
        let mut chosen = vec![0i64; envs];
        for _ in 0..steps {
            for (i, a) in chosen.iter_mut().enumerate() {
                let row = &out.mask[i * actions..(i + 1) * actions];
                let legal = row.iter().filter(|&&m| m).count() as u64;
                *a = 0;
                if legal > 0 {
                    let k = rng.below(legal) as usize;
                    if let Some(p) = row.iter().enumerate().filter(|(_, &m)| m).nth(k) {
                        *a = p.0 as i64;
                    }
                }
            }
            if !reuse {
                let t = Instant::now();
                out = env.try_output_with(observations)?;
                alloc += t.elapsed();
            }
            let t = Instant::now();
            env.step(&chosen, &mut out)?;
            step += t.elapsed();
        }
        let decisions = (envs * steps) as f64;
        cli::say(format_args!(
            "{game_id}: {envs} envs x {steps} steps: step {:.0} decisions/s ({:.1} ns each), \
             output buffers {:.1} ns per decision",
            decisions / step.as_secs_f64(),
            step.as_secs_f64() * 1e9 / decisions,
            alloc.as_secs_f64() * 1e9 / decisions
        ));
        let batch = batch_seconds_per_decision(&*game, threads)?;
        cli::say(format_args!(
            "{game_id}: batch runner {:.1} ns per decision; step / batch runner = {:.2}",
            batch * 1e9,
            step.as_secs_f64() / decisions / batch
        ));
        Ok(())
    };
    if let Err(e) = run() {
        eprintln!("{e}");
        std::process::exit(1);
    }
}

/// The batch runner's seconds per decision with `random` in every seat: the fastest of three runs
/// of half a second each (sized by a first run of 10,000 games; a shorter run would be mostly the
/// runner's start-up).
fn batch_seconds_per_decision(game: &dyn AnyGame, threads: usize) -> cardtable_engine::Result<f64> {
    let run = |games: u64| -> cardtable_engine::Result<(f64, f64)> {
        let config = cli::all_random(game, games, threads);
        let start = Instant::now();
        let result = game.simulate(&config, &|_| true)?;
        Ok((start.elapsed().as_secs_f64(), result.decisions as f64))
    };
    let (first, _) = run(10_000)?;
    let games = (10_000.0 * 0.5 / first.max(1e-9)).ceil().max(10_000.0) as u64;
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        let (seconds, made) = run(games)?;
        best = best.min(seconds / made.max(1.0));
    }
    Ok(best)
}
