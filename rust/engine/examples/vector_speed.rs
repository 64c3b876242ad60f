//! Agent decisions per second of a `VectorEnv` with every seat an agent and random legal actions,
//! for profiling: `cargo run --release --example vector_speed -- <game_id> <players> <envs> <steps>
//! [threads] [reuse] [no-obs]`. Prints the time spent in `step` and, separately, in allocating the
//! output buffers (none with `reuse`: every step writes into the same buffers, as
//! `reuse_buffers=True`). With `no-obs` the step writes no observation tensors, as
//! `observations=False` does.

use cardtable_engine::vector::{RewardKind, VectorConfig};
use cardtable_engine::SplitMix64;
use std::time::{Duration, Instant};

mod cli;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (game_id, game) = cli::game_or_default(&args);
    let envs: usize = cli::number_or(&args, 3, 1024);
    let steps: usize = cli::number_or(&args, 4, 1000);
    let threads: usize = cli::number_or(&args, 5, 1);
    let reuse = args.get(6).is_some_and(|s| s == "reuse");
    let observations = !args.get(7).is_some_and(|s| s == "no-obs");
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
        println!(
            "{game_id}: {envs} envs x {steps} steps: step {:.0} decisions/s ({:.1} ns each), \
             output buffers {:.1} ns per decision",
            decisions / step.as_secs_f64(),
            step.as_secs_f64() * 1e9 / decisions,
            alloc.as_secs_f64() * 1e9 / decisions
        );
        Ok(())
    };
    if let Err(e) = run() {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
